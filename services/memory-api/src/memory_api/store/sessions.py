"""Session start (A-9): prepare the scope directories, then assemble the ``{{MEMORY}}`` text.

Blocking; run it in a worker thread, or with ``cached_only`` on the event loop: then it takes
only ``stat`` calls and raises ``NeedsBlockingIO`` before any change when it must read a file
or make something (the caller runs it again in a worker thread). The rules, in order:

- I-5: memory off → nothing is created or read; the key line renders ``(none — memory is off)``.
- K-6: the user scope is (re)created on demand.
- K-4: a Workspace whose real path lies under any agent's ``workspaces/`` is temporary → no
  Workspace scope; the key line renders ``(none — temporary workspace)``.
- K-1, K-3, K-5: otherwise the key comes from the real path (two symlinks, one key); the first
  Session creates the scope directory and its ``.workspace`` marker (the real path, one line) and
  nothing else. A marker naming another path is never overwritten: it is kept, a warning is
  logged, and the overview reports it (A-3).
- A scope directory the operating system refuses to create (a read-only or full data dir, no
  permission) is no silent success: the answer names no directory for it, its manifest's
  ``uncreated`` says why, and the injected text says it cannot be saved in this Session instead
  of "nothing saved yet" (the model is never sent to write into a folder that is not there).
- K-6a: a Workspace that is not there for the service (the harness in another mount namespace)
  is flagged ``.workspace-not-visible`` beside the marker, and one that is has the flag removed
  (a machine's push does the same, R-1): the overview then calls its missing path "not visible
  from the service", never orphaned. One the service sees has the mount point it lies on (the
  mount table's: a bind mount within one filesystem is one of its own) and that filesystem's
  device kept beside the marker, rewritten when it is seen on another one
  (:mod:`memory_api.store.workspace_mount`): missing while that mount is gone, it is not
  visible either.
- I-1…I-5: the indexes are capped and wrapped in the agent's prompts (defaults when unset);
  a template without ``{{MEMORY}}`` gets no text (``injected`` false).

The Workspace path is the one path the API accepts from a request: it is only resolved,
checked to be a directory when it exists here, hashed and written into the marker; it is never
read from or listed.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from memory_core import layout
from memory_core.errors import UnresolvablePath
from memory_core.file_kind import file_kind
from memory_core.injection import AssembledMemory, PreparedIndex, assemble_memory, uncreated_index
from memory_core.keys import (
    USER_SCOPE,
    has_control_character,
    is_temporary_workspace,
    kernel_stat,
    key_for_real_path,
    real_path,
)
from memory_core.proc_paths import on_proc, spelt_under_proc
from memory_core.rules import WORKSPACE_PATH_MAX_BYTES, WORKSPACE_PATH_RULE, utf8_length
from memory_core.template import has_memory_placeholder, key_line_value
from memory_core.wire import (
    SessionDirectories,
    SessionStartResponse,
    WorkspaceKind,
)

from memory_api.errors import BadRequest, CannotRead, Conflict
from memory_api.store.agents import AgentRecord
from memory_api.store.containment import memory_root_below
from memory_api.store.held_writes import create_in, remove_in
from memory_api.store.scope_files import ScopeFiles
from memory_api.store.scopes import NOT_A_FOLDER, scope_dir_refusal, scope_real_dir
from memory_api.store.stat_cache import NeedsBlockingIO
from memory_api.store.workspace_mount import record_mount

__all__ = [
    "WORKSPACE_PATH_MAX_BYTES",
    "check_real_workspace",
    "check_workspace_path",
    "flag_visibility",
    "start_session",
]

logger = logging.getLogger(__name__)

_NOTHING = AssembledMemory(text="", sections=(), manifests=())
"""The memory of a Session that injects none (memory off, or no ``{{MEMORY}}``, I-5)."""


def check_workspace_path(workspace: str) -> str:
    """Return ``workspace`` if it can name a Workspace, else raise :class:`BadRequest` (400).

    The rule is :data:`memory_core.rules.WORKSPACE_PATH_RULE`: an absolute path (a relative one
    would be resolved against the service's own working directory, which means nothing to the
    harness), valid UTF-8 without NUL or any other control character (the ``.workspace`` marker
    holds the path on one line, K-5: a newline would split it into a marker that names another
    path), and at most :data:`WORKSPACE_PATH_MAX_BYTES` bytes.
    """
    reason = WORKSPACE_PATH_RULE.problem(workspace)
    if reason is not None:
        raise BadRequest(f"workspace {reason}")
    return workspace


def check_real_workspace(workspace: str) -> str:
    """Resolve the checked ``workspace`` (:func:`~memory_core.keys.real_path`, the kernel's
    walk) and return its real path: an ``lstat`` per component and a ``stat``.

    Raises :class:`BadRequest` when the path exists but is no directory (a file, a device: no
    Session works in one), when the kernel refuses to follow its symlinks (``ELOOP``, said so:
    a loop, or a chain of more than 40, which ``os.path.realpath`` would resolve), when a
    symlink on its way cannot be read or a name on its way cannot be looked at
    (:class:`~memory_core.errors.UnseenName`: the path to it is ``PATH_MAX`` bytes or more,
    ``ENAMETOOLONG``; or ``EACCES`` on a folder with a ``..`` after it, in the path or in a
    symlink's text), so its real path, hence its key, is unknown; when its resolution
    reaches the proc file system (``/proc/self/cwd``, ``/proc/<pid>/root/…``, a symlink into
    ``/proc``: :func:`~memory_core.proc_paths.on_proc`, the service's own process, not the
    harness's folder) or when its real path holds a control character
    (reached through a symlink; the marker could not hold it on one line, K-5) or is not UTF-8
    (a symlink to a folder named in another encoding: the marker is UTF-8 text). A path that is
    not there for the service is accepted (``ENOENT``, ``ENOTDIR``, ``ENAMETOOLONG`` for a name
    longer than its file system lets a name be, ``EACCES`` on a parent with no ``..`` after
    it): the harness may see a filesystem the service does not, or run as another user.
    """
    return _real_workspace(workspace)[0]


def _real_workspace(workspace: str) -> tuple[str, int | None]:
    """:func:`check_real_workspace` and the ``st_dev`` of the Workspace folder, None when it is
    not there for the service (K-6a)."""
    try:
        real = real_path(workspace)
    except UnresolvablePath as error:
        _refuse_proc(workspace, f"its real path cannot be known ({error})")  # /proc/<pid>/root
        raise BadRequest(f"the workspace's real path cannot be known here: {error}") from None
    if real != workspace:
        _refuse_proc(workspace, "it resolves through a symlink or '..'")
    elif spelt_under_proc(workspace):
        _refuse_proc(workspace, "it is spelt under /proc")
    if has_control_character(real):
        raise BadRequest("the workspace's real path holds a control character (newline, tab …)")
    if utf8_length(real) is None:  # a symlink to a folder named in another encoding
        raise BadRequest(
            "the workspace's real path is not UTF-8 (a symlink to a folder named in another "
            "encoding): its .workspace marker holds the path as UTF-8 text (K-5)"
        )
    try:
        # the path as given, not ``real``: the kernel's own walk (K-1: as the kernel does)
        info = kernel_stat(workspace)
        is_dir = stat.S_ISDIR(info.st_mode)
        device: int | None = info.st_dev
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise BadRequest(
                "the workspace path is a symlink loop (ELOOP: too many levels of symbolic "
                "links, a loop or more than 40 on the way): the kernel opens no folder "
                "through it"
            ) from None
        # not there for the service: missing, below a file, a name too long or a folder it may
        # not search (the harness may see another filesystem, or run as another user); a ``..``
        # after a folder only the harness sees (``/workspace/../app``) has a real path that may
        # be there: refused only when that is no folder
        is_dir = not os.path.lexists(real) or Path(real).is_dir()
        device = None
    if not is_dir:
        raise _no_folder(real)
    return real, device


def _no_folder(real: str) -> Conflict:
    """The 409 of a Workspace path where the service finds no folder (a file, a FIFO): the
    request is well formed, what stands at the path is wrong. Names the real path, what is
    there (:func:`~memory_core.file_kind.file_kind`) and what to do."""
    try:
        there = file_kind(os.stat(real).st_mode)  # noqa: PTH116 - one stat, no Path
    except OSError:
        there = "no folder"
    return Conflict(
        f"the workspace path {real!r} is {there}, not a folder, where the service looks: a "
        "Workspace is the folder a Session works in, so send the path of the folder the "
        "Session works in (the harness's working directory); when the service sees another "
        "file system than the harness (a container), mount the Workspace folder at that path"
    )


def _refuse_proc(workspace: str, seen: str) -> None:
    """Raise :class:`BadRequest` when the kernel's walk of ``workspace`` reaches procfs
    (:func:`~memory_core.proc_paths.on_proc`) or when whether it does can never be told here:
    no mount table at all (``/proc`` not mounted, a container started without it; retrying
    changes nothing, so no 503), the detail naming ``seen``, what about the path asked for the
    table (``"it is spelt under /proc"``); :class:`CannotRead` (503) when the table is there
    but cannot be read now (``EMFILE`` …)."""
    try:
        reached = on_proc(workspace)
    except (FileNotFoundError, NotADirectoryError):
        raise BadRequest(
            f"whether the workspace path reaches the proc file system cannot be told: {seen}, "
            "and /proc is not mounted where the service runs (no /proc/self/mountinfo) to "
            "tell where it leads, so such a path is not taken; send the "
            "Workspace's real path (harness-memory sends it), or mount /proc in the service's "
            "container"
        ) from None
    except OSError as error:
        raise CannotRead(
            "whether the workspace path reaches the proc file system cannot be told: the mount "
            f"table cannot be read ({error.strerror or type(error).__name__}); try again"
        ) from None
    if reached is not None:
        raise BadRequest(
            f"the workspace path reaches the proc file system ({reached}): a path through "
            "/proc (/proc/self/cwd, /proc/<pid>/root, /proc/self/fd/N) names the service's own "
            "process and files, not the folder the harness works in; send the Workspace's own "
            "path"
        )


@dataclass(frozen=True, slots=True)
class _Prepared:
    kind: WorkspaceKind
    key: str | None
    user_dir: Path | None
    workspace_dir: Path | None
    user_uncreated: str | None = None
    workspace_uncreated: str | None = None


@dataclass(frozen=True, slots=True)
class _Ensured:
    """A scope directory made ready: its real path, or None and why it could not be made."""

    path: Path | None
    uncreated: str | None = None


def _ensure_dir(root: Path, key: str, cached_only: bool) -> _Ensured:
    """Create scope ``key`` under the real ``root`` if missing: its real path, or why it could
    not be made (the operating system refused, or something not a directory is in its place).
    ``cached_only``: raise :class:`NeedsBlockingIO` instead of creating it."""
    resolved = scope_real_dir(root, key)  # the common case: it exists, nothing to create
    if resolved is None:
        if cached_only:
            raise NeedsBlockingIO(key)
        refusal = scope_dir_refusal(root, key)
        if refusal is not None:
            return _Ensured(None, refusal)
        resolved = scope_real_dir(root, key)
    if resolved is None:
        logger.warning("scope %s is not a directory inside the memory root; not used", key)
        return _Ensured(None, NOT_A_FOLDER)
    return _Ensured(resolved)


def _ensure_marker(
    root: Path, scope: Path, key: str, real_workspace: str, files: ScopeFiles, cached_only: bool
) -> str | None:
    """Create the ``.workspace`` marker if missing (K-5); never overwrite one (atomic create).
    Returns None, or why the operating system refused to write it (logged).
    ``cached_only``: only a marker kept in ``files`` and naming ``real_workspace`` is looked at
    (a ``stat``); anything else raises :class:`NeedsBlockingIO`."""
    if cached_only:
        marker = files.marker(root, scope, key, orphan_check=False, cached_only=True)
        if marker.path != real_workspace:
            raise NeedsBlockingIO(key)  # the worker thread logs the mismatch
        return None
    data = (real_workspace + "\n").encode("utf-8")
    try:  # in the folder held open: never one swapped in for it meanwhile
        if create_in(root, scope, layout.MARKER_FILE, data):
            return None
    except OSError as error:  # a read-only scope, a full disk: the caller judges
        logger.warning("scope %s: cannot write its .workspace marker: %s", key, error)
        return f"could not write its {layout.MARKER_FILE} marker ({error.strerror or error})"
    marker = files.marker(root, scope, key, orphan_check=False)
    if marker.path != real_workspace:
        logger.warning(
            "scope %s: .workspace names %r, not %r; kept as it is (%s)",
            key,
            marker.path,
            real_workspace,
            "; ".join(marker.problems) or "marker mismatch",
        )
    return None


def ensure_workspace_scope(
    root: Path, real_workspace: str, files: ScopeFiles | None = None, *, cached_only: bool = False
) -> tuple[str, Path | None]:
    """:func:`ensure_workspace_scope_why` without the reason a scope could not be made."""
    key, ensured = ensure_workspace_scope_why(root, real_workspace, files, cached_only=cached_only)
    return key, ensured.path


def ensure_workspace_scope_why(
    root: Path, real_workspace: str, files: ScopeFiles | None = None, *, cached_only: bool = False
) -> tuple[str, _Ensured]:
    """Create the Workspace scope of ``real_workspace`` (symlinks resolved) and its marker if
    missing, under the real memory ``root`` (K-1, K-5); a marker naming another path is kept.

    ``files`` is the service's scope-file cache (None: the marker is read afresh). Returns the
    key and the scope's real directory, or None for it and why when the scope cannot be used
    (the operating system refused to create it, a file or a link out in its place).

    A marker that cannot be written in an empty scope folder (a full disk, where ``mkdir``
    still succeeds: a folder takes no data block) undoes the folder: K-5 makes both or neither,
    and the Session is told the scope could not be created. A scope that holds something keeps
    its notes in use; the missing marker is logged and the overview reports it. Blocking.
    """
    key = key_for_real_path(real_workspace)
    ensured = _ensure_dir(root, key, cached_only)
    if ensured.path is not None:
        marker_files = files or ScopeFiles(max_entries=1)
        refusal = _ensure_marker(root, ensured.path, key, real_workspace, marker_files, cached_only)
        if refusal is not None:
            with contextlib.suppress(OSError):  # ENOTEMPTY: a scope in use stays
                ensured.path.rmdir()
                return key, _Ensured(None, refusal)
    return key, ensured


def _prepare(
    app_data_dir: Path,
    root: Path,
    workspace: tuple[str, int | None],
    enabled: bool,
    files: ScopeFiles,
    cached_only: bool,
) -> _Prepared:
    if not enabled:
        return _Prepared("off", None, None, None)
    real_workspace, device = workspace
    user = _ensure_dir(root, USER_SCOPE, cached_only)
    # Both paths are real already, so only a Workspace below <app_data_dir>/agents/ can be
    # temporary (K-4): the full rule, which resolves both again, runs just for those.
    agents = f"{app_data_dir}{os.sep}{layout.AGENTS_DIR}{os.sep}"
    if real_workspace.startswith(agents) and is_temporary_workspace(
        Path(real_workspace), app_data_dir
    ):
        return _Prepared("temporary", None, user.path, None, user.uncreated)
    key, ensured = ensure_workspace_scope_why(root, real_workspace, files, cached_only=cached_only)
    if ensured.path is not None:
        flag_visibility(ensured.path, key, visible=device is not None, cached_only=cached_only)
        if device is not None:
            seen = (real_workspace, device)
            record_mount(files.mounts, ensured.path, key, seen, cached_only=cached_only)
    return _Prepared("persistent", key, user.path, ensured.path, user.uncreated, ensured.uncreated)


def flag_visibility(scope: Path, key: str, *, visible: bool, cached_only: bool) -> None:
    """Keep :data:`~memory_core.layout.NOT_VISIBLE_FILE` in ``scope`` exactly while the
    Workspace is not there for the service at its Session start, or at a machine's latest push
    (K-6a, R-1). A failure is logged: the Session starts, or the push is taken, all the same.
    ``cached_only``: a flag to change raises :class:`NeedsBlockingIO`."""
    if os.path.lexists(f"{os.fspath(scope)}{os.sep}{layout.NOT_VISIBLE_FILE}") != visible:
        return  # as it should be: one lstat, no Path
    if cached_only:
        raise NeedsBlockingIO(key)
    try:  # in the folder held open: never one swapped in for it meanwhile
        if visible:
            remove_in(scope.parent, scope, layout.NOT_VISIBLE_FILE)
        else:
            create_in(scope.parent, scope, layout.NOT_VISIBLE_FILE, b"")
    except OSError as error:
        logger.warning("scope %s: cannot set its %s flag: %s", key, layout.NOT_VISIBLE_FILE, error)


def _index(
    files: ScopeFiles, root: Path, scope: Path | None, uncreated: str | None, cached_only: bool
) -> PreparedIndex:
    """The scope's index made ready for the caps; a scope that could not be created is injected
    as a note saying so, never as "nothing saved yet" in a folder the model cannot write."""
    if uncreated is not None:
        return uncreated_index(uncreated)
    return files.prepared(root, scope, cached_only=cached_only)


def start_session(
    app_data_dir: Path,
    record: AgentRecord,
    workspace: str,
    files: ScopeFiles | None = None,
    *,
    cached_only: bool = False,
) -> SessionStartResponse:
    """Prepare directories and build the A-9 answer for a Session of ``record`` in ``workspace``.

    ``app_data_dir`` is the service's data dir as a real path (no symlink in it, as
    :class:`~memory_api.store.memory.MemoryStore` keeps it); ``workspace`` must have passed
    :func:`check_workspace_path`; ``files`` is the service's scope-file cache (None: a throw-away
    one, every index read and masked afresh). Raises :class:`BadRequest` for a Workspace that is
    no directory (see :func:`check_real_workspace`) and
    :class:`~memory_api.store.containment.OutsideMemoryRoot` (404) when the agent's memory root
    is redirected by a symlink.

    Blocking. ``cached_only`` (a repeat Session start, on the event loop): only ``stat`` and
    ``lstat`` calls, about fifteen; anything to create, write or read (a first Session in the
    Workspace, a scope or its marker missing, the visibility flag to change, an index not in
    ``files`` at its current version) raises :class:`NeedsBlockingIO` before any change.
    """
    real_workspace = _real_workspace(workspace)
    base = app_data_dir
    root = memory_root_below(base, record.id)
    enabled = record.memory.enabled
    files = files if files is not None else ScopeFiles(max_entries=2)
    prepared = _prepare(base, root, real_workspace, enabled, files, cached_only)
    template_has_memory = has_memory_placeholder(record.template)
    memory_root = os.fspath(root)
    directories = SessionDirectories(
        app_data_dir=os.fspath(base),
        memory_root=memory_root,
        user=None if prepared.user_dir is None else f"{memory_root}{os.sep}{USER_SCOPE}",
        workspace=(
            None if prepared.workspace_dir is None else f"{memory_root}{os.sep}{prepared.key}"
        ),
    )
    injected = enabled and template_has_memory
    memory = _NOTHING
    if injected:
        # Prepared per index version: split, masked (I-8), lines past the read cap counted;
        # capped and placed once per prompts and versions (memoised by content)
        memory = assemble_memory(
            record.memory.effective_prompt,
            record.memory.effective_workspace_prompt,
            _index(files, root, prepared.user_dir, prepared.user_uncreated, cached_only),
            _index(files, root, prepared.workspace_dir, prepared.workspace_uncreated, cached_only),
            prepared.key,
        )
    return SessionStartResponse(
        enabled=enabled,
        injected=injected,
        memory=memory.text,
        workspace_memory_key=key_line_value(prepared.kind, prepared.key),
        key=prepared.key,
        workspace_kind=prepared.kind,
        directories=directories,
        manifests=list(memory.manifests),
        template_has_memory=template_has_memory,
        sections=list(memory.sections),
    )
