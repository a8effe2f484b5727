"""Workspace memory keys, the temporary-Workspace test and the id checks (K-1…K-4, K-7).

Everything here is pure except :func:`real_path`, :func:`real_workspace_path`,
:func:`workspace_memory_key` and :func:`is_temporary_workspace`, which resolve symlinks
(``os.path.realpath``, a ``stat``) but never create, read or write a file.

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
from typing import TYPE_CHECKING

from memory_core.errors import IdKind, InvalidId, ReachesProc, UnresolvablePath
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
    "key_for_real_path",
    "real_path",
    "real_workspace_path",
    "safe_basename",
    "walked_as_spelled",
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

_UNSAFE_RUN = re.compile(r"[^a-z0-9._]+")
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


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
"""Exactly the code points of Unicode category ``Cc`` (C0, DEL, C1), searched at C speed."""


def has_control_character(text: str) -> bool:
    """Tell whether ``text`` holds a C0/C1 control character (Unicode category ``Cc``, NUL too).

    >>> has_control_character("line" + chr(10)), has_control_character("Über notes")
    (True, False)
    """
    return _CONTROL.search(text) is not None


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
    dashed = _UNSAFE_RUN.sub("-", lowered).strip("-.")
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
    """``os.path.realpath(path)``: symlinks and ``..`` resolved as the kernel would, relative to
    the process's cwd; a part that does not exist is kept as spelled (nothing is created).

    Raises :class:`~memory_core.errors.UnresolvablePath` when a symlink on the way exists but
    cannot be read (``os.path.realpath`` lets that ``OSError`` escape: a ``/proc/<pid>/root`` or
    ``/proc/<pid>/cwd`` of a process this user may not trace answers ``EACCES``): its target is
    unknown, so no real path, key or containment check may be derived from the path. A NUL
    (``ValueError``) or a lone surrogate (``UnicodeEncodeError``) still raises as it does in
    ``os.path.realpath``.
    """
    spelled = os.fspath(path)
    try:
        absolute = os.path.abspath(spelled)  # noqa: PTH100 - str paths; may ask for the cwd
        if _is_real(spelled, absolute):
            return absolute
        real = os.path.realpath(spelled)
    except OSError as error:  # a deleted cwd; Python < 3.13: readlink's error escapes
        raise _unresolvable(error, spelled) from None
    # Python >= 3.13 keeps such a link, as if it were a folder: look for it (an lstat per part)
    unreadable = _unreadable_link(real) if sys.version_info >= (3, 13) else None
    if unreadable is not None:
        raise _unresolvable(unreadable, real)
    return real


def walked_as_spelled(spelled: str, absolute: str) -> bool:
    """Whether the kernel reaches ``absolute`` (``os.path.abspath(spelled)``) through the very
    folders it names: ``spelled`` holds no ``..`` (abspath drops it with the name before it,
    the kernel after following that name) and ``absolute`` no leading ``//`` (which
    ``os.path.realpath`` makes ``/``). Where no part of it is a symlink either, ``absolute``
    is its real path."""
    return not absolute.startswith("//") and ".." not in spelled.split(os.sep)  # noqa: PTH206


def _is_real(spelled: str, absolute: str) -> bool:
    """Whether ``absolute`` (``spelled`` made absolute) is already the real path, as
    ``os.path.realpath`` would answer it (:func:`walked_as_spelled`), found with an ``lstat``
    per part and no more: no part that is there is a symlink (the first one that is not there,
    or cannot be looked at, ends the walk: realpath resolves nothing below it either).

    POSIX only: a Windows path has a drive, and its junctions are not symlinks to ``lstat``
    (``ntpath.realpath`` also gives the disk's own case). A path holding a NUL or a character
    the file system encoding cannot hold is left to ``os.path.realpath``, which raises."""
    if os.name != "posix" or "\0" in absolute or not walked_as_spelled(spelled, absolute):
        return False
    try:
        os.fsencode(absolute)
    except UnicodeEncodeError:
        return False
    current = ""
    for part in absolute.split(os.sep)[1:]:  # noqa: PTH206
        current = f"{current}{os.sep}{part}"
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                return False
        except OSError:
            return True
    return True


def _unreadable_link(real: str) -> OSError | None:
    """The error of reading the first symlink ``os.path.realpath`` left in its answer ``real``,
    or None when it left none it could not read (a symlink loop is left too, and read fine).
    One ``lstat`` per component, up to the first that is not there."""
    current = Path(real).anchor
    for part in Path(real).parts[1:]:
        current = os.path.join(current, part)  # noqa: PTH118 - str paths, one per component
        try:
            if not stat.S_ISLNK(os.lstat(current).st_mode):
                continue
        except OSError:
            return None  # not there (or not searchable): nothing below it was resolved
        try:
            os.readlink(current)  # noqa: PTH115 - the kernel's answer is all that is wanted
        except OSError as error:
            return error
    return None


def _unresolvable(error: OSError, path: str) -> UnresolvablePath:
    link = os.fsdecode(error.filename) if error.filename is not None else path
    return UnresolvablePath(link, error.strerror or type(error).__name__, error.errno)


def real_workspace_path(
    workspace: str | os.PathLike[str], *, mounts: Sequence[Mount] | None = None
) -> str:
    """:func:`real_path` of a Workspace, refused where the kernel opens no folder through it.

    ``os.path.realpath`` follows any number of symlinks; the kernel follows at most 40
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
        os.stat(workspace)  # noqa: PTH116 - the kernel's own walk, one stat
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise _unresolvable(error, os.fspath(workspace)) from None
    spelt = os.fspath(workspace)
    if real != spelt or spelt_under_proc(spelt):
        absolute = spelt if spelt.startswith("/") else os.path.join(os.getcwd(), spelt)  # noqa: PTH109, PTH118 - str paths
        _refuse_proc(absolute, mounts)
    return real


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
    path need not exist (``os.path.realpath`` resolves as far as it can); nothing is created.
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
