"""Workspace memory keys, the temporary-Workspace test and the id checks (K-1…K-4, K-7).

Everything here is pure except :func:`real_path`, :func:`names_no_file`,
:func:`real_workspace_path`, :func:`workspace_memory_key` and :func:`is_temporary_workspace`,
which look names up and resolve symlinks (``lstat``, ``readlink``, a ``stat``) but never
create, read or write a file.

>>> safe_basename("Über Projekt")
'uber-projekt'
>>> key_for_real_path("/home/ada/src/my-app")
'my-app-1c7ddc51'
>>> check_scope_key("user")
'user'
"""

from __future__ import annotations

import errno
import functools
import os
import re
import stat
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from memory_core.errors import IdKind, InvalidId, ReachesProc, UnresolvablePath, UnseenName
from memory_core.proc_paths import on_proc, spelt_under_proc
from memory_core.rules import CONTROL_CLASS, TextRule, utf8_length

if TYPE_CHECKING:  # types of annotations only (H-5: a hook process parses no table unasked)
    from collections.abc import Sequence

    from memory_core.mount_fields import Mount

__all__ = [
    "DRAFT_ID_PATTERN",
    "DRAFT_ID_RULE",
    "FILE_NAME_MAX_BYTES",
    "ID_PATTERN",
    "ID_RULE",
    "SCOPE_FILE_NAME_RULE",
    "SCOPE_KEY_RULE",
    "TOPIC_FILE_NAME_RULE",
    "USER_SCOPE",
    "VERSION_ID_PATTERN",
    "VERSION_RULE",
    "WORKSPACE_KEY_PATTERN",
    "check_agent_id",
    "check_draft_id",
    "check_project_id",
    "check_scope_file_name",
    "check_scope_key",
    "check_topic_file_name",
    "check_version_id",
    "has_control_character",
    "is_temporary_workspace",
    "kernel_stat",
    "key_for_real_path",
    "names_no_file",
    "real_or_none",
    "real_path",
    "real_workspace_path",
    "safe_basename",
    "workspace_memory_key",
]

USER_SCOPE = "user"
"""The key of the user scope; a generated key always holds a hyphen, so it can never be ``user``."""

INDEX_FILE_NAME = "MEMORY.md"  # duplicated from layout: keys imports only errors and rules

ID_PATTERN = "^[a-z0-9][a-z0-9_-]{0,63}$"
"""Project and agent ids (K-7), as a JSON Schema / OpenAPI ``pattern``."""
WORKSPACE_KEY_PATTERN = "^[a-z0-9_][a-z0-9._-]{0,47}-[0-9a-f]{8}$"
"""A Workspace scope key (K-7); the other scope key is :data:`USER_SCOPE`."""
DRAFT_ID_PATTERN = "^[0-9a-f]{32}$"
"""A draft id (A-12): ``uuid4().hex``, 32 lowercase hex digits."""
VERSION_ID_PATTERN = "^[0-9a-f]{40}$"
"""A version id (V-2): the full id of a commit of a scope's history, 40 lowercase hex digits."""

_UNSAFE_RUN = r"[^a-z0-9._]+"
_BASENAME_MAX = 48
_HASH_DIGITS = 8
FILE_NAME_MAX_BYTES = 255
"""The longest topic file name, in bytes of UTF-8 (K-7; the filesystem's NAME_MAX)."""

ID_RULE = TextRule(
    pattern=ID_PATTERN,
    summary="must be 1-64 characters of a-z, 0-9, '_' or '-', starting with a letter or digit",
)
"""Project and agent ids (K-7)."""
SCOPE_KEY_RULE = TextRule(
    pattern=f"^(?:{USER_SCOPE}|{WORKSPACE_KEY_PATTERN[1:-1]})$",
    summary="must be 'user' or '<safe-basename>-<8 hex digits>'",
)
"""A scope key (K-7): ``user`` or a Workspace key; ``..``, ``.workspace`` or a path never match."""
DRAFT_ID_RULE = TextRule(pattern=DRAFT_ID_PATTERN, summary="must be 32 lowercase hex digits")
"""A draft id (A-12)."""
VERSION_RULE = TextRule(pattern=VERSION_ID_PATTERN, summary="must be 40 lowercase hex digits")
"""A version id (V-2)."""

_NOT_IN_NAME = f"/\\\\{CONTROL_CLASS}"
TOPIC_FILE_NAME_RULE = TextRule(
    # No '.' first (no dotfiles, no '..'), no separator or control character anywhere, '.md'
    # last, and not the index itself (T-5b: 'Memory.md' is an ordinary topic file).
    pattern=f"^(?!{re.escape(INDEX_FILE_NAME)}$)[^.{_NOT_IN_NAME}][^{_NOT_IN_NAME}]*\\.md$",
    summary=(
        "must end in '.md', not start with '.', hold no '/', '\\' or control character, "
        f"not be {INDEX_FILE_NAME} and take at most {FILE_NAME_MAX_BYTES} bytes of UTF-8"
    ),
    max_length=FILE_NAME_MAX_BYTES,
    max_utf8_bytes=FILE_NAME_MAX_BYTES,
    explanations=(
        lambda value: "must not start with '.'" if value.startswith(".") else None,
        lambda value: None if value.endswith(".md") else "must end in '.md'",
        lambda value: (
            "is the scope's index, not a topic file" if value == INDEX_FILE_NAME else None
        ),
        lambda value: "must not hold '/' or '\\'" if "/" in value or "\\" in value else None,
        lambda value: (
            "must not hold NUL or control characters" if has_control_character(value) else None
        ),
        lambda value: "is not valid Unicode" if utf8_length(value) is None else None,
        lambda value: f"is longer than {FILE_NAME_MAX_BYTES} bytes in UTF-8",
    ),
)
"""A topic file name (K-7), as agents really write them (``Deploy notes.md``, ``数据库迁移.md``)."""
SCOPE_FILE_NAME_RULE = TextRule(
    pattern=f"^(?:{re.escape(INDEX_FILE_NAME)}|[^.{_NOT_IN_NAME}][^{_NOT_IN_NAME}]*\\.md)$",
    summary=(
        f"must be {INDEX_FILE_NAME} or a topic file name: end in '.md', not start with '.', "
        "hold no '/', '\\' or control character and take at most "
        f"{FILE_NAME_MAX_BYTES} bytes of UTF-8"
    ),
    max_length=FILE_NAME_MAX_BYTES,
    max_utf8_bytes=FILE_NAME_MAX_BYTES,
    explanations=TOPIC_FILE_NAME_RULE.explanations[:2] + TOPIC_FILE_NAME_RULE.explanations[3:],
)
"""A file whose versions are kept (V-2): the index ``MEMORY.md`` or a topic file (K-7)."""


_CONTROL = "[\x00-\x1f\x7f-\x9f]"
"""Exactly the code points of Unicode category ``Cc`` (C0, DEL, C1), searched at C speed."""


def has_control_character(text: str) -> bool:
    """Tell whether ``text`` holds a C0/C1 control character (Unicode category ``Cc``, NUL too).

    >>> has_control_character("line" + chr(10)), has_control_character("Über notes")
    (True, False)
    """
    return re.search(_CONTROL, text) is not None


def _check(rule: TextRule, kind: IdKind, value: str) -> str:
    if not isinstance(value, str):
        raise InvalidId(kind, str(value), "must be a string")
    reason = rule.problem(value)
    if reason is not None:
        raise InvalidId(kind, value, reason)
    return value


def check_draft_id(value: str) -> str:
    """Return ``value`` if it is a draft id (A-12, :data:`DRAFT_ID_RULE`); else raise
    :class:`InvalidId` of kind ``draft``."""
    return _check(DRAFT_ID_RULE, "draft", value)


def check_project_id(value: str) -> str:
    """Return ``value`` if it is a valid project id (K-7), else raise :class:`InvalidId`.

    Pattern: ``^[a-z0-9][a-z0-9_-]{0,63}$`` (:data:`ID_RULE`).

    >>> check_project_id("acme")
    'acme'
    >>> check_project_id("Acme")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    memory_core.errors.InvalidId: invalid project 'Acme': must be 1-64 characters of a-z, ...
    """
    return _check(ID_RULE, "project", value)


def check_agent_id(value: str) -> str:
    """Return ``value`` if it is a valid agent id (K-7), else raise :class:`InvalidId`.

    Same rule as a project id: ``^[a-z0-9][a-z0-9_-]{0,63}$``.

    >>> check_agent_id("coder-1")
    'coder-1'
    """
    return _check(ID_RULE, "agent", value)


def check_scope_key(value: str) -> str:
    """Return ``value`` if it names a scope (K-7, :data:`SCOPE_KEY_RULE`), else raise
    :class:`InvalidId`.

    A scope key is ``user`` or a Workspace key matching
    ``^[a-z0-9_][a-z0-9._-]{0,47}-[0-9a-f]{8}$``; ``..``, ``.workspace`` and any path are refused.

    >>> check_scope_key("my-app-a81f32c4")
    'my-app-a81f32c4'
    >>> check_scope_key("..")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    memory_core.errors.InvalidId: invalid scope '..': must be 'user' or ...
    """
    return _check(SCOPE_KEY_RULE, "scope", value)


def check_topic_file_name(value: str) -> str:
    """Return ``value`` if it is an acceptable topic file name (K-7), else raise :class:`InvalidId`.

    Names are what agents really write (``feedback_testing.md``, ``Deploy notes.md``,
    ``数据库迁移.md``). Rules (:data:`TOPIC_FILE_NAME_RULE`): ends in ``.md``; is not the index
    ``MEMORY.md`` (``Memory.md`` is an ordinary topic file, T-5b; on a case-insensitive disk the
    store tells it from the index by the file it opens); does not start with ``.``; holds no
    ``/``, ``\\``, NUL or other control character; encodes to at most 255 bytes of UTF-8 (a lone
    surrogate, which cannot be encoded, is refused too).

    >>> check_topic_file_name("Deploy notes.md")
    'Deploy notes.md'
    >>> check_topic_file_name("../x.md")
    Traceback (most recent call last):
    ...
    memory_core.errors.InvalidId: invalid file '../x.md': must not start with '.'
    """
    return _check(TOPIC_FILE_NAME_RULE, "file", value)


def check_scope_file_name(value: str) -> str:
    """Return ``value`` if it names a file whose versions are kept: ``MEMORY.md`` or a topic
    file (V-2, :data:`SCOPE_FILE_NAME_RULE`); else raise :class:`InvalidId` (kind ``file``)."""
    return _check(SCOPE_FILE_NAME_RULE, "file", value)


def check_version_id(value: str) -> str:
    """Return ``value`` if it is a version id (V-2, :data:`VERSION_RULE`); else raise
    :class:`InvalidId` (kind ``version``)."""
    return _check(VERSION_RULE, "version", value)


def safe_basename(name: str) -> str:
    """Turn a directory name into the readable half of a Workspace key (K-2).

    NFKD-normalise and drop combining marks, lower-case, replace every run of characters outside
    ``[a-z0-9._]`` with one ``-``, strip leading/trailing ``-`` and ``.``, cut to 48 characters,
    strip again; an empty result becomes ``workspace``. The result never starts with ``.`` or
    ``-`` and is at most 48 characters long.

    >>> safe_basename("Über")
    'uber'
    >>> safe_basename("My App (v2)")
    'my-app-v2'
    >>> safe_basename(".config")
    'config'
    >>> safe_basename("数据库")
    'workspace'
    """
    decomposed = unicodedata.normalize("NFKD", name)
    without_marks = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    lowered = without_marks.lower()
    dashed = re.sub(_UNSAFE_RUN, "-", lowered).strip("-.")
    cut = dashed[:_BASENAME_MAX].strip("-.")
    return cut or "workspace"


@functools.lru_cache(maxsize=1024)
def key_for_real_path(real_path: str) -> str:
    """Derive the Workspace memory key of an already resolved path (K-1), purely (memoised by
    the path: a Session start asks it each time).

    ``<safe_basename(last component)>-<first 8 hex digits of sha256(os.fsencode(real_path))>``.
    The path is hashed exactly as given, so resolve symlinks first (see
    :func:`workspace_memory_key`). The result always matches the K-7 scope pattern.

    >>> key_for_real_path("/srv/Über")
    'uber-3d6f3ec3'
    >>> key_for_real_path("/")
    'workspace-8a5edab2'
    """
    import hashlib  # here: a write guard reading its Session's record derives no key (H-5)

    digest = hashlib.sha256(os.fsencode(real_path)).hexdigest()[:_HASH_DIGITS]
    last = real_path.rstrip(os.sep).rsplit(os.sep, 1)[-1]
    return f"{safe_basename(last)}-{digest}"


def real_path(path: str | os.PathLike[str]) -> str:
    """``path`` with its symlinks and ``..`` resolved as the kernel walks it, relative to the
    process's cwd: ``os.path.realpath``'s answer wherever the kernel's walk is known. A name
    that is not there is kept as spelled, and so is what follows it (nothing is created).

    POSIX: an ``lstat`` per name and a ``readlink`` per symlink (:func:`_walk`). ``..`` is
    folded by its text only after a name that is surely not there (``ENOENT``, ``ENOTDIR``, a
    name longer than its file system lets a name be: the kernel stops there as well, and a
    folder made there later is walked as spelled). ``os.path.realpath`` folds it after any name
    it could not look at, where the kernel first follows the name, which may be a symlink into
    any folder (a path past ``PATH_MAX`` that a ``cd`` reached, P-3).

    Raises :class:`~memory_core.errors.UnresolvablePath` when where the path leads is unknown:
    a symlink on the way exists but cannot be read (``EACCES`` on ``/proc/<pid>/root`` of a
    process this user may not trace), the cwd is gone, or
    (:class:`~memory_core.errors.UnseenName`) a name on the way cannot be looked at otherwise
    than as missing: the path there is ``PATH_MAX`` bytes or more (``ENAMETOOLONG``), or
    ``EACCES`` (a folder this account may not search) with a ``..`` after it. A NUL
    (``ValueError``) or a lone surrogate (``UnicodeEncodeError``) raises as in
    ``os.path.realpath``. Off POSIX (a drive, junctions ``lstat`` does not show) this is
    ``os.path.realpath``.
    """
    spelled = os.fspath(path)
    if os.name != "posix":
        try:
            return os.path.realpath(spelled)
        except OSError as error:
            raise _unresolvable(error, spelled) from None
    if "\0" in spelled:
        raise ValueError("embedded null byte")
    os.fsencode(spelled)  # a lone surrogate raises UnicodeEncodeError, as in realpath
    try:
        absolute = spelled if spelled.startswith("/") else os.path.join(os.getcwd(), spelled)  # noqa: PTH109, PTH118
    except OSError as error:  # a deleted cwd
        raise _unresolvable(error, spelled) from None
    walked = _walk("/", absolute, {})
    return walked.path if walked.ok else os.path.normpath(walked.path)  # a loop's, as realpath


def real_or_none(path: str | os.PathLike[str]) -> str | None:
    """:func:`real_path` of ``path``, or None where it leads is unknown
    (:class:`~memory_core.errors.UnresolvablePath`: a symlink on its way that cannot be read,
    or a name it cannot look at past ``PATH_MAX``, or with ``EACCES`` and a ``..`` after it,
    in its own text or a symlink's): the caller takes it as leading anywhere (P-3). A name
    that is not there, or one ``EACCES`` hides with no ``..`` after it, gives a path."""
    try:
        return real_path(path)
    except UnresolvablePath:
        return None


class _Walked(NamedTuple):
    """Where :func:`_walk` ended: ``path``; ``ok`` False for a symlink loop; ``missing``, how
    many names below the first one not there ``path`` ends in (-1: none); ``unseen``, why a
    name on ``path`` could not be looked at (``EACCES``), None when every name could be."""

    path: str
    ok: bool
    missing: int
    unseen: OSError | None


def _walk(path: str, rest: str, seen: dict[str, str | None]) -> _Walked:
    """``rest`` walked from the real folder ``path`` as the kernel walks it (a port of
    ``posixpath._joinrealpath``, answering as it does where the walk is known): each name
    ``lstat``-ed, a symlink's text walked in its place (``seen``: the links met, None while
    one is being walked), where that walk ended (a name not there or one that could not be
    looked at inside the link's text) carried on after the link. Below a name that is not
    there (:func:`_not_there`) nothing is looked at and ``..`` drops a name by its text;
    below one that cannot be looked at (``EACCES``) no ``..`` is taken. ``ok`` is False for a
    symlink loop (the kernel answers ``ELOOP``): the path is then the loop's link with the
    rest kept as spelled, as ``realpath`` keeps it. Raises as :func:`real_path` does."""
    missing = -1  # how many names below the first one not there ``path`` ends in; -1: none
    unseen: OSError | None = None  # why a name on ``path`` could not be looked at (EACCES)
    names = rest.split("/")
    for at, name in enumerate(names):
        if not name or name == ".":
            continue
        if name == "..":
            if unseen is not None:
                raise _unseen_name(unseen, path)
            path = os.path.dirname(path)  # noqa: PTH120 - "/" stays "/"
            missing -= missing >= 0
            continue
        newpath = os.path.join(path, name)  # noqa: PTH118
        if missing >= 0 or unseen is not None:
            path, missing = newpath, missing + (missing >= 0)
            continue
        try:
            found = os.lstat(newpath)
        except OSError as error:
            if _not_there(error, path, name):
                missing = 0
            elif error.errno == errno.EACCES:
                unseen = error  # this account stops here; another one walks on
            else:
                raise _unseen_name(error, newpath) from None
            path = newpath
            continue
        if not stat.S_ISLNK(found.st_mode):
            path = newpath
            continue
        if newpath in seen:
            known = seen[newpath]
            if known is None:  # a loop: the kernel answers ELOOP
                return _Walked(os.path.join(newpath, *names[at + 1 :]), False, -1, None)  # noqa: PTH118
            path = known
            continue
        seen[newpath] = None
        try:
            text = os.readlink(newpath)  # noqa: PTH115 - the kernel's answer is all that is wanted
        except OSError as error:
            raise _unresolvable(error, newpath) from None
        walked = _walk("/" if text.startswith("/") else path, text, seen)
        if not walked.ok:
            return _Walked(os.path.join(walked.path, *names[at + 1 :]), False, -1, None)  # noqa: PTH118
        path, missing, unseen = walked.path, walked.missing, walked.unseen
        seen[newpath] = path
    return _Walked(path, True, missing, unseen)


def _not_there(error: OSError, folder: str, name: str) -> bool:
    """Whether ``lstat`` of ``name`` in the real ``folder`` failed with ``error`` because no
    such name is there, so the kernel's walk stops at it too: ``ENOENT``, ``ENOTDIR``, or
    ``ENAMETOOLONG`` for the name itself (longer than ``folder``'s file system lets a name
    be; below ``PATH_MAX`` the error can be for nothing else, at or past it ``pathconf``
    tells). An ``ENAMETOOLONG`` for the whole path's length is not that: the kernel still
    walks it from a folder a ``cd`` reached."""
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        return True
    if error.errno != errno.ENAMETOOLONG:
        return False
    if len(os.fsencode(folder)) + 1 + len(os.fsencode(name)) < _PATH_MAX:
        return True
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX")
    except OSError:
        return False  # the folder itself is past PATH_MAX: it cannot be asked
    return 0 <= limit < len(os.fsencode(name))


_PATH_MAX = os.pathconf("/", "PC_PATH_MAX") if hasattr(os, "pathconf") else 4096
"""The longest path the kernel looks up, in bytes with its NUL (Linux 4096, macOS 1024)."""


def names_no_file(path: str) -> bool:
    """Whether no file has the absolute ``path`` (as :func:`real_path` answers it): the
    kernel's walk of it meets a name that is not there (:func:`_not_there`: missing, below a
    file, or longer than its file system lets a name be), whatever its length. False when
    the walk reaches its end, or a name it cannot look at (past ``PATH_MAX`` through folders
    that are there, ``EACCES``): a read error never proves a file missing. For a long
    quoted sentence read as a path (``echo "<4 KB>" >> MEMORY.md``). An ``lstat`` per name."""
    folder = "/"
    for name in path.split("/"):
        if not name:
            continue
        try:
            os.lstat(os.path.join(folder, name))  # noqa: PTH118
        except OSError as error:
            return _not_there(error, folder, name)
        folder = os.path.join(folder, name)  # noqa: PTH118
    return False


def _unseen_name(error: OSError, path: str) -> UnseenName:
    reason = error.strerror or type(error).__name__
    return UnseenName(path, os.path.basename(path), reason, error.errno)  # noqa: PTH119


def _unresolvable(error: OSError, path: str) -> UnresolvablePath:
    link = os.fsdecode(error.filename) if error.filename is not None else path
    return UnresolvablePath(link, error.strerror or type(error).__name__, error.errno)


def real_workspace_path(
    workspace: str | os.PathLike[str], *, mounts: Sequence[Mount] | None = None
) -> str:
    """:func:`real_path` of a Workspace, refused where the kernel opens no folder through it.

    :func:`real_path` follows any number of symlinks; the kernel follows at most 40
    (``MAXSYMLINKS``) and answers ``ELOOP`` beyond, as it does for a loop. A Workspace reached
    that way is no folder a harness can work in, and the service refuses it (400), so no key is
    derived from it here either (K-1). One ``stat`` of the path as given beside ``real_path``;
    a path that is not there (``ENOENT``, ``EACCES`` on a parent …) is resolved as spelled.

    A path spelt under ``/proc`` or resolving elsewhere (a symlink or ``..`` on its way) is
    walked as the kernel walks it (:func:`~memory_core.proc_paths.on_proc`): through procfs
    (``/proc/<pid>/root/…``) ``realpath`` answers the folder the magic link shows in *this*
    process's namespace (``/proc/7/root/w`` becomes ``/w``), which names another folder, so the
    service refuses such a path (A-9) and no key is derived from it here either. A path whose
    symlinks cannot be followed is resolved as far as it goes (the kernel's answer stands).
    ``mounts``: the mount table as the caller read it for its decision (None: read here when
    the walk needs it).

    Raises :class:`~memory_core.errors.UnresolvablePath` on ``ELOOP`` or when a symlink on the
    way cannot be read; :class:`~memory_core.errors.ReachesProc` (one) when the walk reaches
    procfs or, on Linux, the mount table that tells cannot be read.
    """
    real = real_path(workspace)
    try:
        kernel_stat(workspace)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise _unresolvable(error, os.fspath(workspace)) from None
    spelt = os.fspath(workspace)
    if real != spelt or spelt_under_proc(spelt):
        absolute = spelt if spelt.startswith("/") else os.path.join(os.getcwd(), spelt)  # noqa: PTH109, PTH118 - str paths
        _refuse_proc(absolute, mounts)
    return real


def kernel_stat(path: str | os.PathLike[str]) -> os.stat_result:
    """``os.stat`` of ``path`` as given: the kernel's own walk, which follows at most 40
    symlinks (``MAXSYMLINKS``) where :func:`real_path` follows any number (K-1).

    ``ELOOP`` is believed only when a second walk answers it too: when a mount or a rename
    anywhere races its lock-free walk, the kernel walks the path again but keeps counting from
    the links the first walk followed (``fs/namei.c``), so a chain of 21 to 40 links is now
    and then refused once (4 stats of 300 through 40 links beside a mount loop). Raises
    ``OSError`` as ``os.stat`` does."""
    try:
        return os.stat(path)  # noqa: PTH116 - one stat, no Path
    except OSError as error:
        if error.errno != errno.ELOOP:
            raise
    return os.stat(path)  # noqa: PTH116 - one stat, no Path


def _refuse_proc(path: str, mounts: Sequence[Mount] | None) -> None:
    """Raise :class:`~memory_core.errors.ReachesProc` when the kernel's walk of the absolute
    ``path`` reaches procfs, or when that cannot be told on Linux (a mount table that is there
    but cannot be read). Without one at all (no procfs mounted: a chroot, macOS, Windows) no
    walk can reach it. ``mounts``: the table as the caller read it (None: read here)."""
    if sys.platform != "linux":
        return
    try:
        reached = on_proc(path, mounts)
    except FileNotFoundError:
        return
    except OSError as error:
        raise ReachesProc(path, None, error.strerror or type(error).__name__) from None
    if reached is not None:
        raise ReachesProc(path, reached)


def workspace_memory_key(
    workspace: str | os.PathLike[str], *, mounts: Sequence[Mount] | None = None
) -> str:
    """Resolve ``workspace`` (symlinks, ``..``, relative to the cwd) and derive its key (K-1, K-3).

    Two symlinks to one directory give one key; a renamed or moved directory gets a new one. The
    path need not exist (:func:`real_path` resolves as far as it can); nothing is created.
    Raises :class:`~memory_core.errors.UnresolvablePath` when a symlink on its way cannot be
    read or the kernel would not follow its symlinks (``ELOOP``, :func:`real_workspace_path`,
    which reads the mount table only when the path resolves elsewhere, unless given
    ``mounts``: the caller's, read once for its decision).
    """
    return key_for_real_path(real_workspace_path(workspace, mounts=mounts))


def is_temporary_workspace(workspace: Path, app_data_dir: Path) -> bool:
    """Tell whether a Workspace is temporary (K-4): it lies under ``agents/<id>/workspaces/``.

    Both paths are resolved (symlinks included) before comparing, so a symlink into a temporary
    Workspace is temporary and a symlinked data dir is still recognised. Any agent's
    ``workspaces/`` counts (a subagent in its parent's temporary Workspace), and so does the
    ``workspaces`` directory itself: no scope is ever keyed off it. Raises
    :class:`~memory_core.errors.UnresolvablePath` when a symlink on either path cannot be read.
    """
    real = Path(real_path(workspace))
    agents = Path(real_path(app_data_dir)) / "agents"
    try:
        parts = real.relative_to(agents).parts
    except ValueError:
        return False
    return len(parts) >= 2 and parts[1] == "workspaces"
