"""Session start from the memory files when the service is unreachable (H-4).

When the memory service cannot be reached but the memory root is readable on this machine, a
harness still gets the injection the service would have built: the agent's switch and prompts
are read from ``<data dir>/agents/<agent>/agent.json``, each scope's ``MEMORY.md`` is read
(1 MiB at most, as the service reads it, T-5b) and ``memory_core`` caps and wraps the indexes
exactly as the service does (I-1 … I-5, I-8). The answer has the shape of the service's A-9
answer (:class:`~memory_core.wire.SessionStartResponse`), so the harness renders it the same way.

**Read-only.** Nothing is created or written: no scope directory, no ``.workspace`` marker. A
Workspace scope that does not exist yet gets the "nothing saved yet" note; its key is still the
key the service would give (K-1), so the key line never claims memory is off when it is not
(I-2). A scope whose memories cannot be saved from here — its folder is missing and could not
be made (the memory root is not writable by this account), or its folder or ``MEMORY.md`` is
there but not writable by this account — is injected as the service's ``uncreated`` note
saying memories cannot be saved there in this Session and why, never as "nothing saved yet"
nor as memory that works in a folder the model cannot write (A-9). Only an ``agent.json`` that
says ``"enabled": false`` makes the key line say so.

Raises :class:`OfflineUnavailableError` when the files cannot stand in for the service (the memory
root is missing or unreadable, or not shaped ``<data dir>/agents/<agent>/agent_state/memory``,
or ``agent.json`` names another project or is no regular file, or a symlink on the Workspace's
way cannot be read).
"""

from __future__ import annotations

import errno
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from memory_core import json_text, layout
from memory_core.caps import folder_unreadable
from memory_core.decoding import decode_text, not_decoded_why
from memory_core.errors import InvalidId, UnresolvablePath
from memory_core.hard_links import HARD_LINKED, named_elsewhere
from memory_core.injection import (
    PreparedIndex,
    cap_indexes,
    memory_sections,
    placed_manifests,
    uncreated_index,
    unreadable_index,
)
from memory_core.keys import (
    USER_SCOPE,
    check_agent_id,
    is_temporary_workspace,
    key_for_real_path,
    real_path,
    real_workspace_path,
)
from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT
from memory_core.regular_files import read_regular_file
from memory_core.swap import open_waiting_for_lease
from memory_core.template import key_line_value
from memory_core.wire import SessionDirectories, SessionStartResponse, WorkspaceKind

__all__ = [
    "AGENT_FILE",
    "INDEX_READ_CAP",
    "LinkedOutError",
    "OfflineUnavailableError",
    "session_start_from_files",
]

logger = logging.getLogger(__name__)

AGENT_FILE = "agent.json"
INDEX_READ_CAP = 1024 * 1024
"""Bytes of one ``MEMORY.md`` read at most, the service's read cap (T-5b)."""
_COUNT_CAP = 16 * 1024 * 1024
"""Bytes past the read cap scanned to count the unread lines; beyond it the count is a floor."""
_AGENT_FILE_CAP = 64 * 1024 * 1024


class OfflineUnavailableError(Exception):
    """The memory files cannot stand in for the service here; the message says why."""


class LinkedOutError(OfflineUnavailableError):
    """A part of the data dir is a symlink the service never follows (A-7): said in the
    hook's message too, since the service refuses the same agent."""


@dataclass(frozen=True, slots=True)
class _AgentMemory:
    enabled: bool
    prompt: str
    workspace_prompt: str


def session_start_from_files(
    memory_root: Path, *, project: str, agent: str, workspace: str
) -> SessionStartResponse:
    """Build the A-9 answer for ``agent`` of ``project`` in ``workspace`` from the files (H-4).

    ``memory_root`` is the configured memory root (from the harness's own settings, P-2a);
    ``workspace`` an absolute path. Blocking; reads only. Raises
    :class:`OfflineUnavailableError` as the module says and ``InvalidId`` for a bad agent id.
    """
    check_agent_id(agent)
    root = Path(os.path.realpath(memory_root))
    app_data_dir = layout.app_data_dir_of(Path(memory_root).absolute())
    if app_data_dir is None or Path(memory_root).parent.parent.name != agent:
        raise OfflineUnavailableError(
            f"{memory_root} is not the memory root of agent {agent!r} "
            "(<data dir>/agents/<agent>/agent_state/memory)"
        )
    _refuse_links(Path(app_data_dir), agent)
    try:  # only "no such folder" is False; another refusal (EIO, EACCES on the way) raises
        usable = _is_folder(root) and os.access(root, os.R_OK | os.X_OK)
    except OSError as error:
        raise OfflineUnavailableError(
            f"the memory root {memory_root} cannot be looked at here ({error.strerror})"
        ) from None
    if not usable:
        raise OfflineUnavailableError(f"the memory root {memory_root} is not readable here")
    settings = _agent_memory(app_data_dir, project, agent)
    kind: WorkspaceKind = "persistent"
    key: str | None = None
    try:
        real_workspace = real_workspace_path(workspace)
        if not settings.enabled:
            kind = "off"
        elif is_temporary_workspace(Path(real_workspace), Path(real_path(app_data_dir))):
            kind = "temporary"
        else:
            key = key_for_real_path(real_workspace)
    except UnresolvablePath as error:  # no key may be made up from the path's spelling
        raise OfflineUnavailableError(
            f"the Workspace's real path cannot be known: {error}"
        ) from None
    return _answer(root, Path(app_data_dir), settings, kind, key)


def _answer(
    root: Path, app_data_dir: Path, settings: _AgentMemory, kind: WorkspaceKind, key: str | None
) -> SessionStartResponse:
    directories = SessionDirectories(
        app_data_dir=str(app_data_dir),
        memory_root=str(root),
        user=_scope_directory(root, USER_SCOPE) if settings.enabled else None,
        workspace=_scope_directory(root, key),
    )
    sections = []
    manifests = []
    if settings.enabled:
        user = _scope_index(root, USER_SCOPE)
        ours = None if key is None else _scope_index(root, key)
        capped = cap_indexes(
            None if user is None else user[0],
            None if ours is None else ours[0],
            workspace_key=key,
            unread=(_unread(user), _unread(ours)),
        )
        ours_capped = capped[1] if len(capped) > 1 else None
        prompts = (settings.prompt, settings.workspace_prompt)
        sections = memory_sections(*prompts, capped[0], ours_capped)
        # where each index went (I-1: after a prompt without its placeholder), as the service
        manifests = placed_manifests(*prompts, capped[0], ours_capped)
    return SessionStartResponse(
        enabled=settings.enabled,
        injected=settings.enabled,
        memory="".join(section.text for section in sections),
        workspace_memory_key=key_line_value(kind, key),
        key=key,
        workspace_kind=kind,
        directories=directories,
        manifests=manifests,
        template_has_memory=True,
        sections=sections,
    )


def _scope_index(root: Path, key: str) -> tuple[str | PreparedIndex, tuple[int, bool]] | None:
    """What scope ``key`` injects offline: an index that is there but cannot be read says so
    first (Q-2b: the operator's fault to fix, and the likelier reason memories cannot be saved
    either); else a scope the model cannot save into gets the ``uncreated`` note (A-9); else
    its index (:func:`_read_index`; None when there is none yet)."""
    index = _read_index(root, key)
    if index is not None and isinstance(index[0], PreparedIndex):
        return index  # could not be read, or never read (a symlink out, not a regular file)
    return _uncreated(root, key) or index


def _uncreated(root: Path, key: str) -> tuple[PreparedIndex, tuple[int, bool]] | None:
    """The stand-in of a scope the model cannot save into from here, so it must not be sent to
    (A-9): its folder is missing and the memory root is not writable by this account (a
    read-only mount, another account's folder), or its folder is there but not writable by
    this account, or its ``MEMORY.md`` is there but not writable. None when memories can be
    saved (the folder can be made, or it and its index can be written)."""
    why = _unwritable_why(root, key)
    return None if why is None else (uncreated_index(why), (0, True))


_NOTHING_THERE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.EBADF})
"""The ``stat`` errors that mean nothing is there to follow to (what ``Path.is_dir`` answered
False for before Python 3.14): a missing entry, a file on the way, a symlink loop."""


def _mode_of(path: Path) -> int | None:
    """``path``'s mode (symlinks followed), or None when nothing is there to follow to
    (:data:`_NOTHING_THERE`). Any other refusal (no permission on the way, an I/O error) raises
    that ``OSError``: the caller names it. Not ``Path.is_dir``/``is_file``: from Python 3.14
    they answer False for every ``OSError``, which would read a refusal as absence."""
    try:
        return os.stat(path).st_mode  # noqa: PTH116 - os.stat itself, whatever pathlib does
    except OSError as error:
        if error.errno in _NOTHING_THERE:
            return None
        raise


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder (symlinks followed); raises as :func:`_mode_of`."""
    mode = _mode_of(path)
    return mode is not None and stat.S_ISDIR(mode)


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a regular file (symlinks followed); raises as :func:`_mode_of`."""
    mode = _mode_of(path)
    return mode is not None and stat.S_ISREG(mode)


def _unwritable_why(root: Path, key: str) -> str | None:
    """Why this account cannot save memories into scope ``key`` (the kernel's own answer, by
    ``access(2)``, which also says so of a read-only mount; :data:`~memory_core.layout.
    NOT_A_FOLDER` for what is no folder in its folder's place, which was injected as "nothing
    saved yet" and its Directory named for saving), or None."""
    scope = root / key
    if not os.path.lexists(scope) or _no_folder_why(scope) is not None:
        return _uncreatable_why(root, key)
    if not os.access(scope, os.W_OK | os.X_OK):
        return "cannot write into its folder here (the folder is not writable by this account)"
    index = scope / layout.INDEX_FILE
    if _is_file(index) and not index.is_symlink() and not os.access(index, os.W_OK):
        return f"cannot write its {layout.INDEX_FILE} here (not writable by this account)"
    return None


def _uncreatable_why(root: Path, key: str) -> str | None:
    """Why scope ``key`` has no folder here and none could be made by this account, or None
    (it is there, or the memory root lets it be made): its folder is missing and the memory
    root is not writable by this account, or something that is no folder is in its place. The
    service names no Directory for such a scope (A-9), and neither does the offline answer."""
    scope = root / key
    if not os.path.lexists(scope):
        if os.access(root, os.W_OK | os.X_OK):
            return None
        return "cannot create its folder here (the memory root is not writable by this account)"
    return _no_folder_why(scope)


def _no_folder_why(scope: Path) -> str | None:
    """Why the scope folder ``scope`` (which is there) is no folder to save in, or None:
    :data:`~memory_core.layout.NOT_A_FOLDER` for a file, a FIFO, a dangling link or a loop in
    its place (K-6); the kernel's refusal when it cannot be looked at (no permission on the
    way, an I/O error), never taken for either."""
    try:
        return None if _is_folder(scope) else layout.NOT_A_FOLDER
    except OSError as error:
        return f"cannot look at its folder here ({error.strerror})"


def _scope_directory(root: Path, key: str | None) -> str | None:
    """Scope ``key``'s folder as the A-9 answer's ``directories`` names it: None for no scope
    and for one that has no folder and cannot get one here (:func:`_uncreatable_why`), as the
    service answers when it cannot create it; a Directory named there is where the model is
    told to save."""
    if key is None or _uncreatable_why(root, key) is not None:
        return None
    return str(root / key)


def _unread(index: tuple[str | PreparedIndex, tuple[int, bool]] | None) -> tuple[int, bool]:
    return (0, True) if index is None else index[1]


def _refuse_links(app_data_dir: Path, agent: str) -> None:
    """Raise :class:`OfflineUnavailableError` when a folder between the data dir and the
    memory root (``agents``, ``agents/<agent>``, ``agent_state``, ``memory``) or the agent's
    ``agent.json`` is a symlink: the service never follows one (A-7: it may lead out of the data
    dir) and refuses the agent, so the files do not stand in for it either. The data dir itself
    may be a symlink, as for the service. One ``lstat`` each; a part not there ends the walk
    (the reads after it say so)."""
    parts = (*layout.memory_root_parts(agent)[:2], AGENT_FILE)
    for place in (layout.memory_root_parts(agent)[:depth] for depth in range(1, 5)):
        _refuse_link(app_data_dir, place)
    _refuse_link(app_data_dir, parts)


def _refuse_link(app_data_dir: Path, place: tuple[str, ...]) -> None:
    """:func:`_refuse_links` of the one entry ``place`` (its parts below the data dir)."""
    try:
        linked = stat.S_ISLNK(os.lstat(app_data_dir.joinpath(*place)).st_mode)
    except OSError:
        return  # not there, or not looked at: the reads after it say so
    if linked:
        raise LinkedOutError(
            f"{'/'.join(place)} in the data dir {app_data_dir} is a symlink, which the memory "
            "service never follows (A-7: it may lead out of the data dir), so memory is not "
            "read through it here either; an operator must move what it leads to back in its "
            "place"
        )


def _agent_memory(app_data_dir: Path, project: str, agent: str) -> _AgentMemory:
    """The agent's memory switch and prompts from ``agent.json``; defaults when it has none.

    A missing ``agent.json`` means defaults (memory on, built-in prompts): the files are
    readable, so memory is not off. One that names another project raises
    :class:`OfflineUnavailableError` (the settings point at another agent), as does one that
    cannot be read or is no regular file (a FIFO is never waited on).
    """
    path = layout.agent_dir(app_data_dir, agent) / AGENT_FILE
    try:  # never blocking: a FIFO in its place is refused, not waited on for a writer
        raw = read_regular_file(path, _AGENT_FILE_CAP)
    except FileNotFoundError:
        return _AgentMemory(True, DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT)
    except OSError as error:
        raise OfflineUnavailableError(f"cannot read {AGENT_FILE}: {error.strerror}") from None
    try:
        document = json_text.loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise OfflineUnavailableError(
            f"{path} is not valid JSON ({error}): correct it by hand or restore it"
        ) from None
    if not isinstance(document, dict) or document.get("project") != project:
        raise OfflineUnavailableError(f"{AGENT_FILE} does not name agent {agent!r} of {project!r}")
    found = document.get("memory")
    memory: dict[str, object] = found if isinstance(found, dict) else {}
    prompt, workspace_prompt = memory.get("prompt"), memory.get("workspacePrompt")
    return _AgentMemory(
        enabled=memory.get("enabled", True) is not False,
        prompt=prompt if isinstance(prompt, str) else DEFAULT_MEMORY_PROMPT,
        workspace_prompt=(
            workspace_prompt if isinstance(workspace_prompt, str) else DEFAULT_WORKSPACE_PROMPT
        ),
    )


_ABSENT = "absent"
"""What :func:`_looked_at` says of an index that is not there."""


def _looked_at(target: Path) -> str | None:
    """Why the index at ``target`` (its real path, inside the memory root) is not read, judged
    by its name before the open: :data:`_ABSENT` when nothing is there (no entry, a symlink to
    nothing, no folder for it: ``ENOENT``, ``ENOTDIR``, a loop in its scope folder's place);
    ``"a symlink loop"`` (``ELOOP`` in its own folder: a refused entry, as the service says,
    T-5b); ``"a folder, not a file"``; ``"not a regular
    file"``; None for a regular file. Any other refusal (no permission, an I/O error) raises
    that ``OSError``: the index is there as far as anyone can tell and cannot be read (Q-2b).
    ``Path.is_file``, used before, answers False for a loop, which made it "nothing saved
    yet"."""
    try:
        info = target.stat()
    except (FileNotFoundError, NotADirectoryError):
        return _ABSENT
    except OSError as error:
        if error.errno != errno.ELOOP:
            raise
        # the loop is the index's own link, or its scope folder's (named by the scope, K-6)
        return "a symlink loop" if _is_folder(target.parent) else _ABSENT
    if stat.S_ISDIR(info.st_mode):
        return "a folder, not a file"
    return None if stat.S_ISREG(info.st_mode) else "not a regular file"


def _opened_index(target: Path) -> BinaryIO:
    """``target`` opened for reading without waiting on a FIFO: one put in its place after it
    was judged a file never blocks the Session start (it is refused by
    :func:`_never_read_why`). A safe edit's momentary write lease on the index is waited out
    (:func:`memory_core.swap.open_waiting_for_lease`, ``BlockingIOError`` after its wait):
    a non-blocking open fails with ``EWOULDBLOCK`` under one, which is no unreadable index."""
    fd = open_waiting_for_lease(target, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _never_read_why(target: Path, info: os.stat_result) -> str | None:
    """Why the index opened at ``target`` (``info``: the descriptor's ``fstat``) is never read,
    as the service says it (T-5b, A-7), or None: it is read. Not a regular file (swapped in
    after the check), or a file with a name outside its folder (another hard link: its text is
    another file's, perhaps from outside the memory root; :func:`memory_core.hard_links.
    named_elsewhere`, the rule every reader of a memory file applies)."""
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    return HARD_LINKED if named_elsewhere(target, info) else None


def _folder_refuses(scope: Path) -> bool:
    """Whether the scope folder itself refuses a look inside (another account's, mode ``0700``:
    Q-2b), so that an index there can be neither found nor ruled out."""
    try:
        os.lstat(scope / layout.INDEX_FILE)
    except PermissionError:
        return True
    except OSError:
        return False
    return False


def _read_index(root: Path, key: str) -> tuple[str | PreparedIndex, tuple[int, bool]] | None:
    """A scope's ``MEMORY.md``: its text (first 1 MiB, whole lines) and the unread lines.

    None when the scope or its index does not exist: the injection then says nothing is saved.
    One that is there but cannot be read, or is never read (not a regular file, resolving
    outside the memory root: a symlink out, T-5b, or with a name outside its folder: another
    hard link, A-7), is
    :func:`~memory_core.injection.unreadable_index`: the injection says so (Q-2b), never that
    nothing is saved.
    """
    try:
        scope = root / key
        target = Path(os.path.realpath(scope / layout.INDEX_FILE))
        why = (
            _looked_at(target) if root in target.parents else "a symlink to outside the memory root"
        )
        if why == _ABSENT:
            return None
        if why is not None:
            return unreadable_index(f"does not read it: it is {why}"), (0, True)
        with _opened_index(target) as handle:
            if (why := _never_read_why(target, os.fstat(handle.fileno()))) is not None:
                return unreadable_index(f"does not read it: it is {why}"), (0, True)
            raw = handle.read(INDEX_READ_CAP + 1)
            head = (
                raw[: raw.rfind(b"\n", 0, INDEX_READ_CAP) + 1] if len(raw) > INDEX_READ_CAP else raw
            )
            if (why := not_decoded_why(head, weigh=False)) is not None:  # H-5: no models
                return unreadable_index(why), (0, True)  # never injected as mojibake
            if len(raw) <= INDEX_READ_CAP:
                return decode_text(raw, name_legacy=False)[0], (0, True)
            rest = raw[INDEX_READ_CAP:] + handle.read(_COUNT_CAP)
            exact = not handle.read(1)
    except (OSError, InvalidId) as error:
        logger.warning("index of scope %s cannot be read: %s", key, error)
        if isinstance(error, OSError) and not isinstance(error, FileNotFoundError):
            reason = error.strerror or type(error).__name__
            if _folder_refuses(root / key):  # whether MEMORY.md is there cannot be told
                return unreadable_index(folder_unreadable(reason)), (0, True)
            return unreadable_index(f"cannot read it ({reason})"), (0, True)
        return None
    head = raw[:INDEX_READ_CAP]
    cut = head.rfind(b"\n") + 1  # the line the cap cuts through is not read at all
    text = decode_text(head[:cut], name_legacy=False)[0]
    tail = head[cut:] + rest
    unread = tail.count(b"\n") + (0 if not tail or tail.endswith(b"\n") else 1)
    return text, (unread, exact)
