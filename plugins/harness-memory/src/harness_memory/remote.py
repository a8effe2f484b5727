"""Remote mode: a local working copy of a Session's scopes, synced with the service over git (R-1).

A harness on a machine that cannot see the service's data dir keeps, under its state dir, a copy
shaped like a memory root, so the H-4 reader (:mod:`harness_memory.offline`) can inject from it
and the write guard (P-3) can confine writes to it. In remote mode the Session start syncs and
injects from it (:mod:`harness_memory.session`), the post-write and Session-end hooks send
changes back (:mod:`harness_memory.hooks.sync`), ``harness-memory sync`` runs it by hand
(:mod:`harness_memory.cli_sync`)::

    <state dir>/remote/<project>/agents/<agent>/agent_state/memory/<scope>/ the scope's files
    <state dir>/remote/<project>/agents/<agent>/agent_state/sync/<scope>.git its git dir
    <state dir>/remote/machine-id                                           this machine's id

Only the scopes a Session may use are ever synced: ``user`` and the Workspace scope whose key
(K-1) is computed from the Workspace's real path on this machine. The transport is git's smart
HTTP at ``<URL>/api/projects/<p>/agents/<a>/memory/git/<scope>.git`` (the service's
:mod:`memory_api.routes.git_sync`); the real ``git`` program does the work.

One sync of a scope (:func:`sync_scope`), under a lock of its git dir:

1. what the agent wrote (the working tree) is committed as one *pending* commit whose parent is
   the newest commit of this copy the service holds (``refs/remotes/origin/sent``): the
   service's version this copy last took (the *base*, ``refs/remotes/origin/main``) or, when it
   sent since without fetching, what it sent (a git index torn by a crash or a full disk is
   first made again from this copy's last commit: it is only git's cache of it; a lock file a
   stopped git left is removed first: every git a sync starts holds the scope's lock until it
   and what it started end, and only such gits take locks in the copy);
2. a pending commit is pushed to ``refs/machines/<machine id>``; the service merges it with its
   own newest version by the R-2 rules and names what it did in its answer (``remote: Merged:
   …`` lines; a fetch also finds them in the ``Merged:`` trailers of the versions it recorded
   for this machine: :attr:`SyncResult.outcomes`, :meth:`RemoteCopy.status`); the sent ref
   then names it. A send-only sync (the post-write and Session-end hooks) stops here: two HTTP
   exchanges, and the copy already holds what it sent; the files the merge changed and what
   other machines sent arrive with the next full sync;
3. the service's ``main`` is fetched and the working tree moved to it with ``git reset --keep``,
   which keeps a file the agent changed meanwhile (it goes back with the next sync); only then
   do the base and the sent ref move, so a change is never measured against a version the
   files do not hold. A version holding anything but regular files of the scope's top level
   within their caps (a symlink, a folder, a submodule, a name holding ``/``, git's own
   ``.gitignore`` or ``.gitattributes``, a blob over 1 MiB (16 MiB for the index): no version
   of the service holds one) is refused whole, never checked out.

When the service cannot be reached, step 2 or 3 fails: the files stay as they are, the pending
commit waits for the next sync, and the Session starts from the copy (R-2, H-4).

**Tokens.** The bearer token reaches git in its environment (``GIT_CONFIG_COUNT`` /
``http.extraHeader``), never in a URL or an argument, so no process list or git message shows it;
nothing here writes it to a file.

Blocking: a hook process calls it directly.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import secrets
import shutil
import socket
import stat
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from memory_core import json_text, layout
from memory_core.addresses import shown_url
from memory_core.atomic import atomic_write_bytes, make_dirs
from memory_core.errors import UnresolvablePath
from memory_core.git_dir import blocking_entry
from memory_core.hidden_text import HIDDEN_CANDIDATES
from memory_core.keys import (
    FILE_NAME_MAX_BYTES,
    SCOPE_KEY_RULE,
    USER_SCOPE,
    check_agent_id,
    check_project_id,
    key_for_real_path,
    real_workspace_path,
)
from memory_core.regular_files import read_regular_file
from memory_core.rules import (
    CONTROL_CLASS,
    MACHINE_NAME_MAX,
    MACHINE_NAME_RULE,
    workspace_path_problem,
)
from memory_core.scope_files import scope_file_cap, sync_refusal
from memory_core.scope_merge import fold_name
from memory_core.shown_names import shown_name

from harness_memory.advice import ANY_HOOKS, Hooks
from harness_memory.client import service_url_parts
from harness_memory.errors import TOKEN_SENT, ServiceUnreachableError, unauthorized_hint
from harness_memory.settings import ENV_PREFIX, MissingSettingsError, remote_memory_root

if TYPE_CHECKING:
    from harness_memory.settings import HarnessSettings

__all__ = [
    "MACHINE_ID_READ_CAP",
    "REMOTE_DIR",
    "SYNC_STATE_READ_CAP",
    "CopyNotWritable",
    "CopyUnreadable",
    "RemoteCopy",
    "RemoteError",
    "ScopeSync",
    "SyncResult",
    "machine_identity",
]

REMOTE_DIR = "remote"
SYNC_DIR = "sync"
MIN_GIT_TIMEOUT_S = 10.0
"""Seconds one git exchange may take at least, whatever the request timeout (a first fetch of a
large scope takes longer than one JSON request)."""
_STATE_FILE = "sync-state.json"
SYNC_STATE_READ_CAP = 8 * 1024 * 1024
"""Bytes of the sync state read at most: a note per scope (the last sync, its error, its merge
outcomes); a larger one is no state this plugin wrote, and is said unreadable (then replaced)."""
_STAMP_READ_CAP = 256 * 1024
"""Bytes of a parallel hook entry's stamp read at most (why its sync failed, in words)."""
MACHINE_ID_READ_CAP = 4096
"""Bytes of ``machine-id`` read at most (it holds 64 characters); a larger one is made anew."""
_NOT_IN_MACHINE_NAME = re.compile(f"[{CONTROL_CLASS}{HIDDEN_CANDIDATES}\\ud800-\\udfff]")
"""What a host name loses to become the machine's name: control and hidden characters (I-9),
and the lone surrogates Python reads a host name's bytes that are no UTF-8 as (``lap\\xfftop``
failed every sync with UnicodeEncodeError where the name is percent-encoded for git)."""


NOT_FOUND_CHECK = "check the URL, project, agent and token settings"
"""What a 404 for the user scope (or a push) asks a person to check: the service makes that
scope on demand, so only a wrong address, project, agent or token is answered 404 there."""


class RemoteError(Exception):
    """Remote mode cannot run here (no git, a copy that cannot be written); says why."""


class CopyNotWritable(RemoteError):
    """A scope's local copy (its folder, git dir, lock or stamp) cannot be written; ``errno``
    is the operating system's (None when not known)."""

    def __init__(self, message: str, code: int | None) -> None:
        super().__init__(message)
        self.errno = code


_WRITE_FIXES: dict[int | None, str] = {
    errno.EACCES: "make it writable",
    errno.EPERM: "make it writable",
    errno.EROFS: "make it writable",
    errno.ENOSPC: "free space on its disk",
    errno.EDQUOT: "free space within its disk quota",
}
"""What to do about a local copy that cannot be written, by ``errno``: only where it helps (a
folder where a file was, ``EEXIST``, or a lock that is a folder, ``EISDIR``, is said alone)."""


class CopyUnreadable(RemoteError):
    """The local copy's sync folder, or its state file, is there but cannot be read (another
    account's, a mode changed by hand, a FIFO or folder where the file was): which scopes were
    synced and what waits to go back is not known, and is never answered as "no scope"."""


def _real_workspace(workspace: str) -> str:
    """``workspace``'s real path on this machine (K-1); :class:`RemoteError` when a symlink on
    its way cannot be read or the kernel would not follow its symlinks (``ELOOP``), or when it
    is no path a Session start takes (not UTF-8, a control character: its ``.workspace``
    marker could not be written as K-5 says)."""
    try:
        real = real_workspace_path(workspace)
    except UnresolvablePath as error:
        raise RemoteError(f"the Workspace's real path cannot be known: {error}") from None
    problem = workspace_path_problem(real)
    if problem is not None:  # its marker could not be written as K-5 says, nor taken
        raise RemoteError(f"the Workspace path {real!r} has no memory scope: it {problem}")
    return real


class SyncResult:
    """What one sync of one scope did: ``scope``, ``ok`` (the service was reached and the copy
    matches its newest version plus what the agent wrote since), ``sent`` (changes went back),
    ``waiting`` (changes still to send), ``missing`` (no such scope on the service yet and none
    here), ``error`` (why not, when not ``ok``), ``outcomes`` (what the service's merge of this
    machine's changes did beyond taking them, one line each, R-2: from the push's answer and
    the ``Merged:`` lines of the versions fetched that it recorded for this machine),
    ``skipped`` (a send-only sync found nothing to send and did not contact the service; its
    ``outcomes`` still name what stays on this machine unsent, and what to do),
    ``refused`` (the service refused this machine: its token, 401, or the agent, 404; not
    ``ok``, and no service down: a refusal to fix, P-4), ``sent_files`` (how many files the
    changes sent added, changed or deleted) and ``received_files`` (how many files of this copy
    the version fetched changed: what other machines or the service's own agents wrote, and
    what the service's merge made of this machine's changes beyond taking them; not the files of
    ``cuts``), ``cuts`` (files this sync sent that the service keeps under a shorter name, its
    disk taking no longer ones: sent name → the cut name, R-2, K-7; the rename, and the index
    lines pointed there, are no change made elsewhere). A sync that both sent and received
    *joined* the two sides' changes (:attr:`joined`)."""

    __slots__ = (
        "cuts",
        "error",
        "missing",
        "ok",
        "outcomes",
        "received_files",
        "refused",
        "scope",
        "sent",
        "sent_files",
        "skipped",
        "waiting",
    )

    def __init__(
        self,
        scope: str,
        *,
        ok: bool,
        sent: bool = False,
        waiting: bool = False,
        missing: bool = False,
        error: str | None = None,
        outcomes: list[str] | None = None,
        skipped: bool = False,
        refused: bool = False,
        sent_files: int = 0,
        received_files: int = 0,
        cuts: dict[str, str] | None = None,
    ) -> None:
        self.scope = scope
        self.cuts = cuts or {}
        self.refused = refused
        self.sent_files = sent_files
        self.received_files = received_files
        self.outcomes = outcomes or []
        self.skipped = skipped
        self.ok = ok
        self.sent = sent
        self.waiting = waiting
        self.missing = missing
        self.error = error

    def as_json(self) -> dict[str, object]:
        """The result as JSON values (for the Session record and ``status``)."""
        return {
            "scope": self.scope,
            "ok": self.ok,
            "sent": self.sent,
            "waiting": self.waiting,
            "missing": self.missing,
            "error": self.error,
            "outcomes": self.outcomes,
            "skipped": self.skipped,
            "refused": self.refused,
            "sentFiles": self.sent_files,
            "receivedFiles": self.received_files,
            "cuts": self.cuts,
            "joined": self.joined,
        }

    @property
    def joined(self) -> bool:
        """Whether this sync joined this machine's changes with changes made elsewhere: it
        sent some, and the version it fetched back changed files here too."""
        return self.ok and self.sent and self.received_files > 0


def _keep_private(remote_dir: Path) -> None:
    """Make ``remote_dir``, the root of every local copy, owner-only (0700; missing parents
    too): the copies hold the scopes' notes and their git dirs every version fetched (a
    credential removed since among them), which git and the agent write under the umask
    (0755 folders, 0644 files), as the service keeps its own history owner-only (V-1). One of
    this account that lets others in (made by an earlier version, or by hand) is closed;
    a symlink in its place is left to its target's owner. Raises ``OSError``."""
    make_dirs(remote_dir)
    info = os.lstat(remote_dir)
    if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and info.st_mode & 0o077:
        remote_dir.chmod(stat.S_IMODE(info.st_mode) & 0o700)


def machine_identity(remote_dir: Path) -> tuple[str, str]:
    """This machine's ``(id, name)``: a random id made once and kept in
    ``<remote_dir>/machine-id`` (0600), and the host name kept to
    :data:`~memory_core.rules.MACHINE_NAME_RULE` (R-1: control and hidden characters dropped,
    at most 64 characters; the id when nothing is left)."""
    try:  # never waiting on a FIFO there: made anew, as a file that cannot be read
        machine_id = kept_machine_id(remote_dir)
    except OSError:
        machine_id = None
    if machine_id is None:
        machine_id = secrets.token_hex(16)
        _keep_private(remote_dir)
        kept = (machine_id + "\n").encode("ascii")
        atomic_write_bytes(remote_dir / "machine-id", kept, mode=0o600)
    return machine_id, host_name() or machine_id


def kept_machine_id(remote_dir: Path) -> str | None:
    """The id kept in ``<remote_dir>/machine-id``, read and never made (``harness-memory
    status`` writes nothing): None when there is no such file yet. Raises ``OSError`` when it
    cannot be read (a folder or FIFO there: ``NotRegularFileError``) or holds no id (``EINVAL``
    "it holds no machine id")."""
    path = remote_dir / "machine-id"
    try:
        raw = read_regular_file(path, MACHINE_ID_READ_CAP, follow_symlinks=False)
    except FileNotFoundError:
        return None
    machine_id = raw.decode("ascii", errors="replace").strip()
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", machine_id):
        raise OSError(errno.EINVAL, "it holds no machine id", str(path))
    return machine_id


def host_name() -> str | None:
    """This machine's host name kept to :data:`~memory_core.rules.MACHINE_NAME_RULE` (R-1:
    control and hidden characters dropped, at most 64 characters), None when nothing is left."""
    name = _NOT_IN_MACHINE_NAME.sub("", socket.gethostname()).strip()[:MACHINE_NAME_MAX].strip()
    return name if MACHINE_NAME_RULE.accepts(name) else None


class ScopeSync:
    """The state of one scope's copy, for ``harness-memory status``: last successful sync
    (UTC timestamp or None), whether changes wait to go back, the last error, and the merge
    outcomes of the last sync that had any (R-2)."""

    __slots__ = ("last_error", "last_sync", "outcomes", "scope", "waiting")

    def __init__(
        self,
        scope: str,
        last_sync: str | None,
        waiting: bool,
        last_error: str | None,
        outcomes: list[str],
    ) -> None:
        self.scope = scope
        self.last_sync = last_sync
        self.waiting = waiting
        self.last_error = last_error
        self.outcomes = outcomes


class RemoteCopy:
    """The local copy of one agent's memory, synced with the service at ``url`` (R-1).

    ``state_dir`` is the harness's state dir (P-2a); ``token`` the bearer token or None, and
    ``token_source`` where it came from (a refusal names it, :func:`unauthorized_hint`);
    ``timeout`` the seconds one request may take (git gets at least
    :data:`MIN_GIT_TIMEOUT_S`). A copy that ``looks_only`` (``harness-memory status``,
    ``sync --status``) reads this machine's id and never makes or writes one: a diagnosis
    writes nothing. ``hooks``: whose hooks sync it (:class:`~harness_memory.advice.Hooks`), as
    a refusal's next step names their command. Raises ``InvalidId`` for a bad project or agent
    id.
    """

    def __init__(
        self,
        *,
        url: str,
        token: str | None,
        project: str,
        agent: str,
        state_dir: Path,
        timeout: float,
        token_source: str | None = None,
        looks_only: bool = False,
        hooks: Hooks = ANY_HOOKS,
    ) -> None:
        check_project_id(project)
        check_agent_id(agent)
        self.url = url.rstrip("/")
        self.token = token
        self.token_source = (token_source or TOKEN_SENT) if token else None
        self.project = project
        self.agent = agent
        self.remote_dir = state_dir / REMOTE_DIR
        self.app_data_dir = self.remote_dir / project
        self.memory_root = remote_memory_root(state_dir, project, agent)
        self.sync_dir = layout.agent_dir(self.app_data_dir, agent) / "agent_state" / SYNC_DIR
        self.timeout = max(timeout, MIN_GIT_TIMEOUT_S)
        self._environment: dict[str, str] | None = None
        self._identity: tuple[str, str] | None = None
        self.looks_only = looks_only
        self.hooks = hooks

    @classmethod
    def configured(
        cls, settings: HarnessSettings, *, token: str | None, looks_only: bool = False
    ) -> RemoteCopy:
        """The local copy ``settings`` configure (URL, project, agent, state dir, timeout),
        ``looks_only`` as the class says.

        Raises :class:`~harness_memory.settings.MissingSettingsError` when one of the first
        three is missing, or the state dir (an account the password database does not know),
        and ``InvalidId`` for a bad project or agent id."""
        url, project, agent = settings.required()
        if settings.state_dir is None:  # an account the password database does not know
            raise MissingSettingsError([ENV_PREFIX + "STATE_DIR"])
        return cls(
            url=url,
            token=token,
            project=project,
            agent=agent,
            state_dir=settings.state_dir,
            timeout=settings.timeout,
            token_source=settings.token_source,
            looks_only=looks_only,
            hooks=settings.hooks,
        )

    # --- the scopes of a Session --------------------------------------------------------------

    def workspace_key(self, workspace: str) -> str:
        """The Workspace's scope key (K-1) from its real path on this machine. Raises
        :class:`RemoteError` when a symlink on its way cannot be read (no key is made up)."""
        return key_for_real_path(_real_workspace(workspace))

    def sync(
        self,
        workspace: str | None,
        *,
        send_only: bool = False,
        fresh_since: float | None = None,
        each: bool = False,
    ) -> list[SyncResult]:
        """Sync the scopes a Session in ``workspace`` may use (R-1); never raises for the
        service being unreachable (each result says so). With ``send_only`` (the post-write and
        Session-end hooks, which run after every tool call) a scope with nothing to send is
        left alone without a word to the service. ``fresh_since`` (a ``time.time()`` value): a
        scope whose last successful sync ended at or after it is left alone (``skipped``): the
        parallel Session-start hook entries of one Session sync once, the others wait for that
        sync and read what it brought. Raises :class:`RemoteError` when git is missing, the
        URL is not http(s)://host[:port], the copy cannot be written, it is in a state dir
        another account could change (:meth:`_check_can_sync`) or a symlink on the
        Workspace's way cannot be read. With ``each`` (``harness-memory sync``), a scope whose
        local copy cannot be written is its failed result and the next one is synced all the
        same (:meth:`sync_every_scope`)."""
        scopes: list[tuple[str, str | None]] = [(USER_SCOPE, None)]
        if workspace:
            real = _real_workspace(workspace)
            scopes.append((key_for_real_path(real), real))
        if each:
            self._check_can_sync()
            return [self._sync_or_fail(key, marker) for key, marker in scopes]
        return [
            self.sync_scope(key, marker=marker, send_only=send_only, fresh_since=fresh_since)
            for key, marker in scopes
        ]

    def sync_every_scope(self) -> list[SyncResult]:
        """Sync the user scope and every scope this copy holds (those :meth:`status` lists),
        wherever it is run: what waits to go back in any of them is sent, and no scope is made
        for the working directory (R-1; the sync an uninstall that leaves the copy names,
        before the ``rm -rf`` that removes it; a git dir named as no scope key is, K-7, is left
        alone). A Workspace scope goes back with the ``.workspace``
        marker (K-5) its first sync wrote into it. Raises :class:`CopyUnreadable` when the sync
        folder cannot be read, else as :meth:`sync` does for what no scope can sync without
        (git, the URL, a state dir no other account may change).

        A scope whose local copy cannot be written (its folder, its git dir or its lock on a
        full disk, read-only, or not a folder) is one failed result, saying what failed and
        what to do, and the next scopes are synced all the same: the first such scope stopped
        the whole sync, and what waited in the scopes after it never went back."""
        held = [key for key in self._scope_keys() if SCOPE_KEY_RULE.accepts(key)]
        self._check_can_sync()
        return [self._sync_or_fail(key) for key in [USER_SCOPE, *sorted(set(held) - {USER_SCOPE})]]

    def _sync_or_fail(self, key: str, marker: str | None = None) -> SyncResult:
        """:meth:`sync_scope` of ``key``, or its failed result when its local copy cannot be
        written (:meth:`sync_every_scope`): the error, what to do where the error says
        (:data:`_WRITE_FIXES`: "make it writable" of a full disk misled), and whether changes
        wait."""
        try:
            return self.sync_scope(key, marker=marker)
        except RemoteError as error:
            run = _ScopeRun(self, key, self.memory_root / key, self.sync_dir / f"{key}.git")
            fix = _WRITE_FIXES.get(error.errno) if isinstance(error, CopyNotWritable) else None
            result = SyncResult(
                key,
                ok=False,
                waiting=run.has_waiting(),
                error=f"{error}; {fix}, then sync again" if fix else str(error),
            )
            self._note(result)  # what `sync --status` says of it
            return result

    def untrusted(self) -> str | None:
        """Why this copy cannot be trusted, naming the folder and the fix: it is in a state dir
        another account could change (:func:`~harness_memory.state_trust.untrusted_state`:
        that account could put its own files in it, to be sent as this user's writes or read
        into the model's context, P-3); None when it can be."""
        from harness_memory.state_trust import untrusted_state

        if (why := untrusted_state(self.remote_dir.parent)) is None:
            return None
        return (
            "the local copy is in a state dir that cannot be trusted (another account could "
            f"put its own files in it, to be sent as yours or read as your memory): {why}"
        )

    def _check_can_sync(self) -> None:
        """Raise :class:`RemoteError` when no scope can sync: git is missing, the URL is
        not http(s)://host[:port] (git would take a path, file://, ssh or ext:: too and
        bypass the service's rules), or the copy is in a state dir another account could
        change (:func:`~harness_memory.state_trust.untrusted_state`: that account could put
        its own files in the copy, sent as this user's writes, P-3), naming the folder and
        the fix."""
        if shutil.which("git") is None:
            raise RemoteError("remote mode needs the git program, which is not installed")
        if (why := self.untrusted()) is not None:
            raise RemoteError(why)
        try:
            service_url_parts(self.url)
        except ServiceUnreachableError as error:
            raise RemoteError(
                f"remote mode syncs with the memory service at http(s)://host[:port]: {error}; "
                "set its address (HARNESS_MEMORY_URL or --url)"
            ) from None

    # --- one scope ---------------------------------------------------------------------------

    def sync_scope(
        self,
        key: str,
        *,
        marker: str | None = None,
        send_only: bool = False,
        fresh_since: float | None = None,
    ) -> SyncResult:
        """Sync one scope (see the module); ``marker`` is the Workspace's real path, written
        as the ``.workspace`` marker (K-5) when the scope is made here; ``send_only``: only
        when something waits to go back (else a result with ``skipped``); ``fresh_since`` as
        in :meth:`sync`."""
        self._check_can_sync()
        scope = self.memory_root / key
        git_dir = self.sync_dir / f"{key}.git"
        try:
            _keep_private(self.remote_dir)
            scope.mkdir(parents=True, exist_ok=True)
            git_dir.parent.mkdir(parents=True, exist_ok=True)
            stamp = self.sync_dir / f"{key}.synced"
            with _Locked(self.sync_dir / f"{key}.lock") as lock_fd:
                if fresh_since is not None and _synced_since(stamp, fresh_since):
                    return _fresh_result(key, stamp)
                result = self._run_scope(key, scope, git_dir, lock_fd, marker, send_only)
                if result.skipped:
                    return result
                if not send_only:  # what a parallel Session-start entry reads instead of syncing
                    atomic_write_bytes(stamp, _stamp_bytes(result), durable=False)
        except OSError as error:
            said = f"the local copy of scope {key} cannot be written: {error}"
            raise CopyNotWritable(said, error.errno) from None
        self._note(result)
        return result

    def _run_scope(
        self,
        key: str,
        scope: Path,
        git_dir: Path,
        lock_fd: int,
        marker: str | None,
        send_only: bool,
    ) -> SyncResult:
        """One sync of scope ``key`` under its lock, run again once when the agent wrote a file
        the version fetched changes while the sync moved the files to it: git refuses the move
        (``Entry 'a.md' not uptodate. Cannot merge.``), the write kept as it is; the second run
        sends it, and the service keeps both texts (R-2). The sync failed with git's words
        before, and the write waited for the next one. What the first run sent is counted."""
        run = _ScopeRun(self, key, scope, git_dir, lock_fd=lock_fd)
        result = run.run(marker, send_only=send_only)
        if result.ok or not _WRITTEN_DURING_MOVE.search(result.error or ""):
            return result
        again = _ScopeRun(self, key, scope, git_dir, lock_fd=lock_fd)
        result = again.run(marker, send_only=send_only)
        result.sent_files += run.sent_files
        result.sent = result.sent or run.sent_files > 0
        result.outcomes[:0] = [line for line in run.outcomes if line not in result.outcomes]
        return result

    # --- status --------------------------------------------------------------------------------

    def status(self) -> list[ScopeSync]:
        """Every scope of the copy: last sync, changes waiting, last error; ``[]`` only when
        the copy has no sync folder (nothing synced yet). Raises :class:`CopyUnreadable` when
        the sync folder or its state file cannot be read: a read error is never an empty
        answer (R-1; fail closed)."""
        keys = self._scope_keys()
        state = self._state(strict=True)
        found: list[ScopeSync] = []
        for key in keys:
            path = self.sync_dir / f"{key}.git"
            noted = state.get(key)
            entry = noted if isinstance(noted, dict) else {}
            run = _ScopeRun(self, key, self.memory_root / key, path)
            waiting = run.has_waiting()
            last_sync, last_error = entry.get("lastSync"), run.unreadable or entry.get("lastError")
            outcomes = entry.get("outcomes")
            found.append(
                ScopeSync(
                    key,
                    last_sync if isinstance(last_sync, str) else None,
                    waiting,
                    last_error if isinstance(last_error, str) else None,
                    [str(line) for line in outcomes] if isinstance(outcomes, list) else [],
                )
            )
        return found

    def _scope_keys(self) -> list[str]:
        """The keys of the scopes this copy holds, sorted: one per git dir of its sync folder,
        and each scope folder of its memory root that holds something but was never synced (no
        git dir: git missing when the agent wrote there); ``[]`` when there are none yet.
        Raises :class:`CopyUnreadable` when the sync folder or memory root cannot be read."""
        keys: set[str] = set()
        for folder in (self.sync_dir, self.memory_root):
            try:
                with os.scandir(folder) as entries:
                    found = list(entries)
            except FileNotFoundError:
                continue
            except OSError as error:
                what = "sync folder" if folder == self.sync_dir else "memory root"
                raise CopyUnreadable(
                    f"the {what} {folder} cannot be read ({error.strerror or error}): which "
                    "scopes were synced, and what waits to go back, is not known"
                ) from None
            if folder == self.sync_dir:
                keys.update(e.name.removesuffix(".git") for e in found if e.name.endswith(".git"))
            else:
                keys.update(
                    entry.name
                    for entry in found
                    if entry.name not in keys
                    and SCOPE_KEY_RULE.accepts(entry.name)
                    and _holds_any(entry)
                )
        return sorted(keys)

    def _state(self, *, strict: bool = False) -> dict[str, dict[str, object]]:
        """The notes of each scope's last sync (``{}`` when there are none yet). A state file
        that cannot be read or understood is ``{}`` too, unless ``strict``: then
        :class:`CopyUnreadable` names it (``status`` would say "last sync never")."""
        path = self.sync_dir / _STATE_FILE
        try:
            document = json_text.loads(
                read_regular_file(path, SYNC_STATE_READ_CAP, follow_symlinks=False)
            )
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            if not strict:
                return {}
            if isinstance(error, OSError):
                why, fix = error.strerror or str(error), ""
            else:  # torn, or nested too deep (json_text.JsonTooDeep): damaged, replaced
                why, fix = f"not JSON: {error}", "; `harness-memory sync` writes it anew"
            raise CopyUnreadable(
                f"the sync state {path} cannot be read ({why}): when each scope last synced "
                f"is not known{fix}"
            ) from error
        if isinstance(document, dict):
            return document
        if strict:
            raise CopyUnreadable(f"the sync state {path} is not a JSON object")
        return {}

    def _note(self, result: SyncResult) -> None:
        """Record ``result`` as scope ``result.scope``'s last sync in the state file. A state
        file this account may not read is left as it is (replacing it would drop the other
        scopes' notes); a torn one, a folder or a FIFO is replaced. Never raises."""
        try:
            state = self._state(strict=True)
        except CopyUnreadable as unreadable:
            if isinstance(unreadable.__cause__, PermissionError):
                return
            state = {}
        entry = dict(state.get(result.scope, {}))
        if result.ok:
            entry["lastSync"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            entry["lastError"] = None
            if result.outcomes:
                entry["outcomes"] = result.outcomes
        else:
            entry["lastError"] = result.error
        state[result.scope] = entry
        data = json.dumps(state, indent=1).encode()
        with contextlib.suppress(OSError):  # a note for people; the sync does not depend on it
            atomic_write_bytes(self.sync_dir / _STATE_FILE, data, durable=False)

    # --- git ------------------------------------------------------------------------------------

    def not_found(self) -> str:
        """Why the service answered 404 for the user scope, which it makes on demand: the
        agent, the project or the address is not the service's (A-10: a token limited to other
        projects is answered 404 too)."""
        return (
            f"the service at {shown_url(self.url)} has no agent {self.agent!r} in project "
            f"{self.project!r} that this token may reach (404): {NOT_FOUND_CHECK}"
        )

    def service_says(
        self, key: str, service: str = "git-upload-pack", *, exchange: bool = False
    ) -> str | None:
        """The ``detail`` of :meth:`service_problem` (same arguments), or None."""
        problem = self.service_problem(key, service, exchange=exchange)
        return None if problem is None else problem[1]

    def service_problem(
        self, key: str, service: str = "git-upload-pack", *, exchange: bool = False
    ) -> tuple[str, str] | None:
        """The problem (its ``type``, ``about:blank`` when it names none, and its ``detail``)
        the service answers for scope ``key``'s ref list for
        ``service`` (``git-receive-pack`` after a failed push: a Workspace scope it must make
        then), or None: git prints only the status of a failed exchange ("returned error:
        503"), never the reason the service gave (a damaged history, a full disk: what to do).
        With ``exchange``: the reason this machine's last POST of ``service`` failed, which the
        service answers a GET of the same URL with (5xx or a 409 refusing a push whole, its
        status and ``detail``; 404 once
        that POST did not fail, which is no reason: None), where the ref list before it was
        answered 200 (the push was taken in, then could not be written). Asked only after such
        a failure; the token goes in a header, as with git. A redirect is never followed (nor
        by git, :meth:`git_environment`): what another address answers is not the service's
        word, and None is returned."""
        import urllib.error
        import urllib.request

        asked = f"/{service}" if exchange else f"/info/refs?service={service}"
        url = self.scope_url(key) + asked
        request = urllib.request.Request(url, headers={"X-Memory-Machine": self.machine_id})  # noqa: S310
        if self.token:  # never sent on: urllib passes add_header's headers to a redirect's target
            request.add_unredirected_header("Authorization", f"Bearer {self.token}")

        class NoRedirect(urllib.request.HTTPRedirectHandler):  # a 3xx is an HTTPError then
            def redirect_request(self, *args: object, **kwargs: object) -> None:
                return None

        opener = urllib.request.build_opener(NoRedirect)  # urllib: not imported by hooks (H-5)
        try:
            with opener.open(request, timeout=self.timeout):
                return None
        except urllib.error.HTTPError as error:
            if 300 <= error.code < 400 or (exchange and not _reason_asked(error.code)):
                return None
            try:
                problem = json_text.loads(error.read(64 * 1024))
            except ValueError:
                return None
            if not isinstance(problem, dict):
                return None
            detail, kind = problem.get("detail"), problem.get("type", "about:blank")
            if not isinstance(detail, str) or not detail or not isinstance(kind, str):
                return None
            return kind, detail[:500]
        except (OSError, ValueError):
            return None

    def scope_url(self, key: str) -> str:
        """The scope's git URL (no token in it)."""
        return f"{self.url}/api/projects/{self.project}/agents/{self.agent}/memory/git/{key}.git"

    @property
    def machine_id(self) -> str:
        """This machine's id (:func:`machine_identity`, read once per copy)."""
        return self.machine[0]

    @property
    def machine(self) -> tuple[str, str]:
        """This machine's ``(id, name)`` (:func:`machine_identity`, read once per copy); of a
        copy that ``looks_only``, the id kept, never made (``""`` when there is none or it
        cannot be read: such a copy sends nothing)."""
        if self._identity is None and self.looks_only:
            try:
                kept = kept_machine_id(self.remote_dir) or ""
            except OSError:
                kept = ""
            self._identity = kept, host_name() or kept
        elif self._identity is None:
            self._identity = machine_identity(self.remote_dir)
        return self._identity

    def git_environment(self) -> dict[str, str]:
        """The environment of every git this copy runs: no system or user configuration, no
        prompt, no redirect followed, the token and the machine's headers as
        ``http.extraHeader`` values (made once per copy)."""
        if self._environment is None:
            self._environment = self._make_environment()
        return self._environment

    def _make_environment(self) -> dict[str, str]:
        machine_id = self.machine_id
        assert self._identity is not None
        name = self._identity[1]
        config = [
            # git follows a redirect of its first request (http.followRedirects=initial), then
            # sends every later request, extraHeader's token included, to where it led: the
            # token would go to another host, or in the clear (https -> http), as the service's
            # own CLI never sends it. A redirect is git's failure "returned error: 302".
            ("http.followRedirects", "false"),
            ("http.extraHeader", f"X-Memory-Machine: {machine_id}"),
            ("http.extraHeader", f"X-Memory-Machine-Name: {quote(name, safe='')}"),
            ("core.hooksPath", "/dev/null"),
            ("user.name", name),
            ("user.email", "machine@harness-memory.invalid"),
            ("commit.gpgSign", "false"),
        ]
        if self.token:
            config.append(("http.extraHeader", f"Authorization: Bearer {self.token}"))
        env = {
            name: os.environ[name]
            for name in ("PATH", "TMPDIR", "SSL_CERT_FILE", "SSL_CERT_DIR", "LANG")
            if name in os.environ
        }
        env.update(
            {
                "LC_MESSAGES": "C",  # git's own words, which the sync reads (a 404, a 401 …)
                "HOME": str(self.remote_dir),
                "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_CONFIG_GLOBAL": os.devnull,
                "GIT_TERMINAL_PROMPT": "0",
                "GIT_ASKPASS": "true",
                "GIT_ALLOW_PROTOCOL": "http:https",  # no redirect to file://, ext:: …
                "GIT_CONFIG_COUNT": str(len(config)),
            }
        )
        for number, (key, value) in enumerate(config):
            env[f"GIT_CONFIG_KEY_{number}"] = key
            env[f"GIT_CONFIG_VALUE_{number}"] = value
        return env


def _holds_any(folder: os.DirEntry[str]) -> bool:
    """Whether ``folder`` is a scope folder (no symlink) that holds anything (True when it
    cannot be read: what waits there is not known, and is never taken for nothing)."""
    try:
        if not folder.is_dir(follow_symlinks=False):
            return False
        with os.scandir(folder.path) as entries:
            return any(True for _ in entries)
    except OSError:
        return True


def _stamp_bytes(result: SyncResult) -> bytes:
    """What a sync leaves for the parallel hook entries of its Session (:func:`_fresh_result`):
    nothing when it succeeded, else why not, after ``refused`` and a newline when the service
    refused this machine (so each entry tells a refusal as one, not as a service down)."""
    if result.error is None:
        return b""
    return (("refused\n" if result.refused else "\n") + result.error).encode("utf-8", "replace")


def _fresh_result(key: str, stamp: Path) -> SyncResult:
    """The result of the sync a parallel hook entry just made of ``key``, from its ``stamp``
    (:func:`_stamp_bytes`: empty, it succeeded; else why not), marked ``skipped``."""
    try:
        stamped = read_regular_file(stamp, _STAMP_READ_CAP, follow_symlinks=False)
        said = stamped.decode("utf-8", "replace")
    except OSError:
        said = "\nthe sync of a parallel hook entry left no result"
    if not said:
        return SyncResult(key, ok=True, skipped=True)
    kind, newline, error = said.partition("\n")
    if not newline:  # a stamp an older plugin wrote: the reason alone
        kind, error = "", said
    return SyncResult(key, ok=False, error=error, refused=kind == "refused", skipped=True)


def _synced_since(stamp: Path, since: float) -> bool:
    """Whether the sync ``stamp`` tells of ended at or after ``since`` (``time.time()``
    seconds) and not after now: a parallel hook entry's sync, made on this clock since. A stamp
    dated ahead of now was written while the clock ran ahead (then set back): taken for fresh,
    it left every Session start unsynced, on a copy as old as that, until the clock caught up."""
    synced = _mtime(stamp)
    return since <= synced <= time.time()


def _mtime(path: Path) -> float:
    """``path``'s modification time (seconds), or -1 when it cannot be read."""
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0


class _Locked:
    """An exclusive ``flock`` on ``path`` for the ``with`` block (hooks of one machine may sync
    one scope at once); the block gets the lock's file descriptor. The lock belongs to the open
    file, so a process that inherits the descriptor holds it until it exits too."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = -1

    def __enter__(self) -> int:
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self.fd

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)


class _GitFailed(Exception):
    def __init__(self, message: str, *, missing: bool = False, refused: bool = False) -> None:
        super().__init__(message)
        self.missing = missing
        self.refused = refused
        """The service refused this machine: its token (401) or the agent (404 for the user
        scope, which it makes on demand), not a service that could not be reached."""


_BASE = "refs/remotes/origin/main"
_SENT = "refs/remotes/origin/sent"
_INCOMING = "refs/remotes/origin/incoming"
_MAIN = "refs/heads/main"
_STATUS = ("status", "--porcelain", "-z", "--untracked-files=all", "--no-renames")
_TORN_INDEX = re.compile(
    r"index file (?:smaller than expected|corrupt)|bad index (?:file sha1 signature|version)"
    r"|^(?:fatal|error): bad signature 0x|cache entry has null sha1"
    r"|index uses \S+ extension, which we do not understand|unknown index entry format"
    r"|^BUG: read-cache\.c:\d+: unsupported ce_mode"  # an entry's mode torn (zeros): git aborts
    r"|^BUG: wt-status\.c:\d+: unhandled diff-index status"  # … or takes it for a kind of its own
    r"|^fatal: unable to read 0{40}(?:0{24})?$"  # an entry cut short names the null object
)
"""git's own lines (C messages) saying the index file cannot be read as one: what a crash or a
full disk leaves while git writes it (not an index git may not open, which is no tear). git
names any object it cannot find alike (:data:`_UNREADABLE_OBJECT`): only the null id, which no
object has, is the index's fault by itself; another is told apart by :meth:`_ScopeRun._lost`."""
_WRITTEN_DURING_MOVE = re.compile(r"^error: Entry '.*' not uptodate\. Cannot merge\.$", re.M)
"""git's line when ``reset --keep`` will not move a file changed since the last commit that the
version it moves to changes too: the agent wrote it while the sync ran."""
_UNREADABLE_OBJECT = re.compile(r"^fatal: unable to read ([0-9a-f]{40}|[0-9a-f]{64})$")
"""git's own line for an object its object store does not hold (a missing file of
``objects/``), whoever named it: the index, or a tree of a commit."""
_REGULAR_MODES = frozenset({"100644", "100755"})
"""The modes of a git tree entry that is a regular file: all a memory scope's versions hold."""
_ENTRY_KINDS = {"120000": "a symlink", "040000": "a folder", "160000": "a submodule"}
_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
REDIRECT_NOT_FOLLOWED = (
    "the service URL answered a redirect, which is not followed: the bearer token is never "
    "sent on to another address; set the service's own address as the URL"
)
"""Added to git's failure when the service URL answered a redirect (A-10)."""
_MERGED_LINE = re.compile(r"^remote: Merged: (.*?)(?:\x1b\[K)?\s*$", re.MULTILINE)
_REFUSED_LINE = re.compile(r"^remote: Refused: (.*?)(?:\x1b\[K)?\s*$", re.MULTILINE)
"""The service's own reason for a push it could not take, where git says only "unpacker
error" (a full disk on the service)."""


class _ScopeRun:
    """One sync of one scope (see the module docstring)."""

    def __init__(
        self, copy: RemoteCopy, key: str, scope: Path, git_dir: Path, *, lock_fd: int | None = None
    ) -> None:
        self.copy = copy
        self.lock_fd = lock_fd
        """The scope's lock (:class:`_Locked`) when this run holds it (a sync), else None
        (``status``). A sync's gits inherit it, so the scope stays locked until each of them,
        and whatever it started, has ended: a git its hook outlived (a harness's time limit
        killed the hook), an automatic ``gc`` a fetch left running in the background. Without
        the lock git takes none of its optional locks (``--no-optional-locks``: ``git status``
        writes no refreshed index). So a lock file found at a sync's start is no running git's
        (:meth:`_drop_stale_locks`)."""
        self.key = key
        self.scope = scope
        self.git_dir = git_dir
        self.outcomes: list[str] = []
        self.moved = False
        """Whether the files were moved to a version fetched (``git reset``)."""
        self.sent_files = 0
        """How many files the commits this run sent added, changed or deleted."""
        self.received_files = 0
        """How many files of the copy the version fetched changed (:meth:`_take_main`), less
        those :attr:`cuts` explain."""
        self.cuts: dict[str, str] = {}
        """Files this run sent that the service keeps under a cut name (:meth:`_service_cuts`)."""
        self.fitted = False
        """Whether :meth:`_take_main` moved the files to a commit of its own that renames
        names too long for this disk (:meth:`_fit_names`), which waits to be sent."""
        self.unreadable: str | None = None
        self.kept_here: dict[str, str] = {}
        """The files :meth:`_sendable` keeps unsent, each with why (its refusal's words)."""
        """Why git could not tell what waits to be sent (:meth:`has_waiting`), if it could not."""

    def git(
        self,
        *args: str,
        check: bool = True,
        network: bool = False,
        stdin: bytes | None = None,
        raw: bool = False,
    ) -> str:
        """Run git on the copy with ``stdin`` as its input; its output, stripped (``raw``:
        as it is, file names undecodable bytes kept as surrogates)."""
        done = self._run(args, check=check, network=network, stdin=stdin)
        if raw:
            return done.stdout.decode("utf-8", "surrogateescape")
        return done.stdout.decode("utf-8", "replace").strip()

    def _run(
        self, args: tuple[str, ...], *, check: bool, network: bool, stdin: bytes | None
    ) -> subprocess.CompletedProcess[bytes]:
        command = [
            "git",
            *(() if self.lock_fd is not None else ("--no-optional-locks",)),
            f"--git-dir={self.git_dir}",
            f"--work-tree={self.scope}",
            *args,
        ]
        try:
            done = subprocess.run(  # noqa: S603 - fixed program, no shell
                command,
                input=stdin,
                capture_output=True,
                env=self.copy.git_environment(),
                timeout=self.copy.timeout,
                check=False,
                cwd=self.scope,
                pass_fds=() if self.lock_fd is None else (self.lock_fd,),
            )
        except subprocess.TimeoutExpired:
            raise _GitFailed(f"git {args[0]} took longer than {self.copy.timeout:g} s") from None
        if check and done.returncode != 0:
            raise self._failed(args, done, network=network)
        return done

    def _failed(
        self,
        args: tuple[str, ...],
        done: subprocess.CompletedProcess[bytes],
        *,
        network: bool,
    ) -> _GitFailed:
        """Why git ``args`` failed, from its error output, as :class:`_GitFailed`; the service
        URL in it as :func:`~memory_core.addresses.shown_url` shows it (an id in its path)."""
        message = done.stderr.decode("utf-8", "replace").strip()
        message = message.replace(self.copy.url, shown_url(self.copy.url))
        own = _own_lines(message)
        if network and any(_NO_VERSION_LINE.fullmatch(line) for line in own):
            return _GitFailed(_reason(message), missing=True)
        if network and _not_found(message):
            service = "git-receive-pack" if args[0] == "push" else "git-upload-pack"
            problem = self.copy.service_problem(self.key, service)
            # the user scope is made on demand (K-6) and a push makes a Workspace scope:
            # only a fetch of a Workspace scope can find none yet, and only where the 404
            # names no kind of its own (a memory root the service never follows does, A-7)
            if self.key != USER_SCOPE and args[0] != "push" and not _names_a_kind(problem):
                return _GitFailed(_reason(message), missing=True)
            return self._not_found_refused(problem)
        if network and any(_REFUSED_LINE_401.fullmatch(line) for line in own):
            return self._token_refused(args, message)
        reason = _reason(message) or f"git {args[0]} failed"
        if refused := _REFUSED_LINE.search(message):
            reason += f" (the service says: {refused.group(1).strip()[:500]})"
        status = _http_status(message)
        if network and status is not None and 300 <= status < 400:
            reason += f" ({REDIRECT_NOT_FOLLOWED})"
        if network and status is not None and _reason_asked(status):
            service = "git-receive-pack" if args[0] == "push" else "git-upload-pack"
            said = None
            if _exchange_failed(message):  # the ref list was answered: ask for the POST's
                said = self.copy.service_says(self.key, service, exchange=True)
            said = said or self.copy.service_says(self.key, service)
            if said:
                reason += f" (the service says: {said})"
        return _GitFailed(reason)

    def _not_found_refused(self, problem: tuple[str, str] | None) -> _GitFailed:
        """The service answered 404 where it holds or makes the scope (the user scope, made on
        demand; a push, which makes a Workspace scope): refused, in the service's own words
        as its other answers are said (``memory service answered 404: no agent 'coder' in
        project 'acme'``, ``… nothing is served at /elsewhere/api/…``: its problem's
        ``detail``, asked of it as :meth:`RemoteCopy.service_says`; git prints only "not
        found"), then where it was asked and what to check (nothing for a 404 naming a kind of
        its own, :func:`_names_a_kind`: its detail says the fix). :meth:`RemoteCopy.not_found`'s
        words only when the answer carries no detail (``problem`` None: no problem+json,
        another server)."""
        if problem is None:
            return _GitFailed(self.copy.not_found(), refused=True)
        said = problem[1]
        # a 404 naming its kind (a memory root never followed) says its own fix: no settings
        check = "" if _names_a_kind(problem) else f": {NOT_FOUND_CHECK}"
        return _GitFailed(
            f"memory service answered 404: {said} (asked at {shown_url(self.copy.url)} for "
            f"agent {self.copy.agent!r} in project {self.copy.project!r}{check})",
            refused=True,
        )

    def _hint(self) -> str:
        """What a 401 adds for this copy's token and hooks (:func:`unauthorized_hint`)."""
        return unauthorized_hint(self.copy.token_source, self.copy.hooks)

    def _token_refused(self, args: tuple[str, ...], message: str) -> _GitFailed:
        """The service answered 401 (git says only "Authentication failed"): refused, in the
        words the service's other answers use (``memory service answered 401: <its reason>``,
        asked of it as :meth:`RemoteCopy.service_says`, else git's line), with where the token
        came from and what to do (:func:`~harness_memory.errors.unauthorized_hint`)."""
        service = "git-receive-pack" if args[0] == "push" else "git-upload-pack"
        said = self.copy.service_says(self.key, service) or _reason(message)
        return _GitFailed(
            f"memory service answered 401: {said}{self._hint()}",
            refused=True,
        )

    def refs(self) -> dict[str, str]:
        """``main``, the base, the sent ref and the last fetched ``main``: full name → commit.
        Read from the git dir's ref files (a loose ref file, else ``packed-refs``), as git
        itself reads them: no git process for what four small files say."""
        found: dict[str, str] = {}
        packed: dict[str, str] | None = None
        for name in (_MAIN, _BASE, _SENT, _INCOMING):
            try:
                value = (self.git_dir / name).read_text(encoding="ascii").strip()
            except (OSError, UnicodeDecodeError):
                value = ""
            if not _OBJECT_ID.fullmatch(value):
                if packed is None:
                    packed = self._packed_refs()
                value = packed.get(name, "")
            if value:
                found[name] = value
        return found

    def set_ref(self, name: str, commit: str) -> None:
        """Point the ref ``name`` at ``commit``: its loose ref file, written atomically (what
        ``git update-ref`` writes, without a git process; the scope's lock is held, and a loose
        ref wins over ``packed-refs``). Not fsynced, as git does not fsync refs: a ref a crash
        takes back is an older base or pending commit, which the next sync measures and the
        service merges from (R-2)."""
        path = self.git_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, (commit + "\n").encode("ascii"), durable=False)

    def _packed_refs(self) -> dict[str, str]:
        try:
            text = (self.git_dir / "packed-refs").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return {}
        found: dict[str, str] = {}
        for line in text.splitlines():
            value, _, name = line.partition(" ")
            if _OBJECT_ID.fullmatch(value):
                found[name] = value
        return found

    def has_waiting(self) -> bool:
        """Whether this copy holds changes the service has not taken yet (a scope never
        synced: whether it holds anything). True when git cannot tell (a broken index after a
        crash or a full disk, a git dir it may not read): "nothing waits" was said of a copy
        whose files had never been sent; :attr:`unreadable` then says why. A git dir (or a
        scope folder) this account may not search is one git cannot read either: asked with
        ``stat``, it raised ``PermissionError`` out of ``harness-memory status``; and a scope
        folder that is a plain file (git runs in it) raised ``NotADirectoryError`` out of
        ``harness-memory sync`` and ``sync --status``."""
        try:
            if not (self.git_dir / "HEAD").exists():
                return self.scope.is_dir() and any(self.scope.iterdir())
        except OSError as error:
            self.unreadable = f"{error.filename or self.git_dir}: {error.strerror or error}"
            return True
        try:
            self._check_git_dir()
            refs = self.refs()
            return refs.get(_MAIN) != _held(refs) or bool(self._changed())
        except _GitFailed as failed:
            self.unreadable = str(failed)
            return True
        except OSError as error:  # git cannot start there: the scope folder is not a folder
            self.unreadable = f"{error.filename or self.scope}: {error.strerror or error}"
            return True

    def _check_git_dir(self) -> None:
        """Raise :class:`_GitFailed` naming an entry of the git dir that git would wait on (a
        FIFO as ``packed-refs``, :func:`~memory_core.git_dir.blocking_entry`): git waited on it
        until its timeout, then the sync failed saying only that git took long; so did this
        module's own reads of the refs and ``info/exclude``."""
        found = blocking_entry(self.git_dir)
        if found is not None:
            raise _GitFailed(
                f"{found} in this machine's sync copy ({self.git_dir}), not a file git can "
                "read: git would wait on it; remove it (the next sync fetches what the copy "
                "lacks)"
            )

    def _changed(self) -> list[str]:
        """The names of the files that differ from ``main`` (one ``git status``, which trusts
        the stat data of files it has seen: the cheap check every hook makes), and both names
        of each file renamed only in letter case or Unicode form on a disk that ignores them
        (:meth:`_renamed_in_case`): there git finds the file under its old name and sees no
        change."""
        return self._with_renamed(_status_names(self.git(*_STATUS, raw=True)))

    def _with_renamed(self, changed: list[str]) -> list[str]:
        """``changed`` (names ``git status`` gave) and both names of each file renamed only in
        letter case or Unicode form (:meth:`_renamed_in_case`), less what stays here
        (:meth:`_sendable`)."""
        for old, new in self._renamed_in_case().items():
            changed += [name for name in (old, new) if name not in changed]
        return self._sendable(changed)

    def _sendable(self, changed: list[str]) -> list[str]:
        """The names of ``changed`` that may go to the service: a file gone (its deletion) or
        a memory file within its cap (:func:`~memory_core.scope_files.sync_refusal`, the rule
        the service takes a push by). Anything else the folder holds — a name no memory file
        has (``notes.txt``), a symlink, a file over its cap — stays here unsent, and each sync
        says so in its outcomes with what to do. Sent, the service left it out and the fetch
        that followed removed it from this copy too: it was lost on every side (R-2)."""
        sendable: list[str] = []
        for name in changed:
            try:
                found = (self.scope / name).lstat()
            except FileNotFoundError:
                sendable.append(name)
                continue
            except OSError:  # git read it a moment ago: let git's own run say what fails
                sendable.append(name)
                continue
            regular = stat.S_ISREG(found.st_mode)
            refused = sync_refusal(name, regular=regular, size=found.st_size if regular else None)
            if refused is None:
                sendable.append(name)
                continue
            self.kept_here[name] = refused.why
            line = (
                f"{shown_name(name)[:120]} stays on this machine only, never sent to the "
                f"service: {refused.why}; {refused.remedy}"
            )
            if line not in self.outcomes:
                self.outcomes.append(line)
        return sendable

    def _renamed_in_case(self) -> dict[str, str]:
        """On a copy whose git found its disk case-insensitive (``core.ignorecase``: exFAT,
        APFS, NTFS), each tracked file whose name is not in the folder as written but is there
        in another letter case or Unicode form (``notes.md`` renamed ``Notes.md``): old name →
        the name the folder holds. Empty elsewhere (a case-sensitive disk shows git the old
        name gone and the new one untracked) and at no cost beyond reading ``config``."""
        try:
            config = (self.git_dir / "config").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return {}
        if not _IGNORECASE.search(config):
            return {}
        try:
            present = {fold_name(path.name): path.name for path in self.scope.iterdir()}
        except OSError:
            return {}
        tracked = {name for name in self.git("ls-files", "-z", raw=True).split("\0") if name}
        renamed: dict[str, str] = {}
        for name in tracked:
            now = present.get(fold_name(name))
            if now is not None and now != name and now not in tracked:
                renamed[name] = now
        return renamed

    def _changed_mending(self, main: str | None) -> list[str]:
        """:meth:`_changed`, at the start of a sync: when git says the index is torn (a crash
        or a full disk while git wrote it: :data:`_TORN_INDEX`), it is made again from
        ``main``, this copy's last commit (``git read-tree``, which touches no file of the
        scope; none when there is none yet: every file is then new), and the files are
        compared with that. The index is only git's cache of what ``main`` holds: no file the
        agent wrote is lost, each differing from ``main`` is committed and sent as any change
        is. Without this every later sync failed until a person repaired the copy."""
        done = self._run(_STATUS, check=False, network=False, stdin=None)
        own = _own_lines(done.stderr.decode("utf-8", "replace"))
        for line in own:
            if (unread := _UNREADABLE_OBJECT.match(line)) and (lost := self._lost(unread[1], main)):
                raise _GitFailed(lost)
        torn = next((line for line in own if _TORN_INDEX.search(line)), None)
        torn = torn or next((line for line in own if _UNREADABLE_OBJECT.match(line)), None)
        if torn is None:
            if done.returncode != 0:
                raise self._failed(_STATUS, done, network=False)
            return self._with_renamed(_status_names(done.stdout.decode("utf-8", "surrogateescape")))
        self._remake_index(main, torn)
        return self._changed()

    def _remake_index(self, main: str | None, torn: str) -> None:
        """Make the torn index (git's line ``torn`` says so) again from ``main``, this copy's
        last commit (none: empty), and say so; the files are then compared with it again."""
        self._drop_stale_locks()  # a git run aborted on the torn index leaves its lock
        with contextlib.suppress(FileNotFoundError):
            (self.git_dir / "index").unlink()
        if main is not None:
            self.git("read-tree", main)
        self.outcomes.append(
            f"this machine's git index of scope {self.key} was torn ({torn}): it was made "
            "again from the copy's last sync, and every file written since goes to the service"
        )

    def _lost(self, object_id: str, main: str | None) -> str | None:
        """Why the sync stops when git cannot read ``object_id``, or None when the index is to
        blame. An object the copy's last commit ``main`` holds (a file of it, or its tree) is
        one its object store lost (a disk error, a file of ``objects/`` removed by hand): the
        index is not torn, and making it again from ``main`` would mend nothing. One no commit
        holds was named by the index alone (an entry torn, or one whose object never reached
        the disk): the index is made again (:meth:`_changed_mending`)."""
        if object_id.strip("0") == "" or main is None:
            return None
        listed = self._run(
            ("ls-tree", "-r", "-t", "-z", main), check=False, network=False, stdin=None
        )
        held = listed.returncode != 0  # main's own tree cannot be read: lost as well
        for entry in listed.stdout.decode("utf-8", "surrogateescape").split("\0"):
            info, _, name = entry.partition("\t")
            if info.split(" ")[-1:] == [object_id]:
                held, what = True, f"the file {name!r} of"
                break
        else:
            what = "an object of"
        if not held:
            return None
        return (
            f"this machine's copy of scope {self.key} lacks git object {object_id}, {what} its "
            f"last sync ({main[:12]}): its git objects are damaged (a disk error, a file of "
            f"{self.git_dir / 'objects'} removed), not its index; no file of the scope was "
            "touched, and `git fsck` there names every object lost"
        )

    def run(self, marker: str | None, *, send_only: bool = False) -> SyncResult:
        """Steps 1 to 3 (see the module); ``send_only``: stop after a push of a copy that
        synced before (its result does not look for writes made meanwhile: each has a
        post-write hook of its own)."""
        try:
            self._check_git_dir()
            if not (self.git_dir / "HEAD").exists():
                if send_only and not self.has_waiting():
                    return SyncResult(self.key, ok=True, skipped=True)
                self.git("init", "-q", "--initial-branch=main")
            self._drop_stale_locks()
            self._write_excludes()
            refs = self.refs()
            if marker is not None and _BASE not in refs:
                # never fetched: the service may not have the scope, which only a push
                # bringing its marker makes (K-5), even one of files written before this sync
                self._write_marker(marker)
            changed = self._changed_mending(refs.get(_MAIN))
            if changed and _MAIN in refs and self._every_file_gone():
                changed = self._put_back()
            if marker is not None and _BASE in refs and self._write_marker(marker):
                changed = self._changed()
                self.outcomes.append(
                    f"the .workspace marker of scope {self.key} was gone (deleted on the "
                    "service or by another machine): it was written again from this "
                    "Workspace's path, since it is what ties the scope to its Workspace (K-5)"
                )
            if send_only and not changed and refs.get(_MAIN) == _held(refs):
                # what stays here unsent is said all the same: it is what the user must fix
                return SyncResult(self.key, ok=True, skipped=True, outcomes=self.outcomes)
            if changed:
                refs[_MAIN] = self._commit_local(_held(refs), changed)
            sent = False
            if _MAIN in refs and refs[_MAIN] != _held(refs):
                self.sent_files += self._files_between(_held(refs), refs[_MAIN])
                self._push()
                self.set_ref(_SENT, refs[_MAIN])
                sent = True
            if send_only and sent and _BASE in refs:
                return self._done(sent=True, waiting=False)
            if not self._take_main(refs):
                if marker is not None and _MAIN not in refs:
                    self._make_workspace_scope(marker)
                    sent = True
                else:
                    return SyncResult(self.key, ok=True, sent=sent, missing=True)
            if self.fitted:
                sent = self._send_fitted() or sent
        except _GitFailed as failed:
            waiting = self.has_waiting()
            return SyncResult(
                self.key, ok=False, waiting=waiting, error=str(failed), refused=failed.refused
            )
        # written while this sync ran: it goes back next time (with nothing sent or moved, the
        # check at the start is a few milliseconds old: the next hook's check sees a later write)
        waiting = bool(self._changed()) if sent or self.moved else False
        return self._done(sent=sent, waiting=waiting)

    def _send_fitted(self) -> bool:
        """Send the commit :meth:`_fit_names` moved the files to (names too long for this
        disk, renamed) and take what the service made of it, once; whether it was sent."""
        refs = self.refs()
        held = _held(refs)
        if _MAIN not in refs or refs[_MAIN] == held:
            return False
        self.sent_files += self._files_between(held, refs[_MAIN])
        self._push()
        self.set_ref(_SENT, refs[_MAIN])
        self.fitted = False
        self._take_main(self.refs())
        return True

    def _done(self, *, sent: bool, waiting: bool) -> SyncResult:
        """The result of a run that reached the service: what it sent and received, and the
        merge outcomes."""
        return SyncResult(
            self.key,
            ok=True,
            sent=sent,
            waiting=waiting,
            outcomes=self.outcomes,
            sent_files=self.sent_files,
            received_files=self.received_files,
            cuts=self.cuts,
        )

    def _files_between(self, old: str | None, new: str) -> int:
        """How many files differ between the commits ``old`` (None: none, every file of
        ``new`` counts) and ``new``: added, changed or deleted, a rename counting twice."""
        if old is None:
            listed = self.git("ls-tree", "-z", "--name-only", new, raw=True)
        else:
            listed = self.git(
                "diff-tree", "-r", "-z", "--no-renames", "--name-only", old, new, raw=True
            )
        return sum(1 for name in listed.split("\0") if name)

    def _drop_stale_locks(self) -> None:
        """Remove the lock files a git stopped mid-way left in the git dir (``index.lock``,
        ``HEAD.lock``, ``packed-refs.lock``, a ref's ``.lock``): a hook killed by its harness's
        time limit, a crash. git never takes a lock another git holds, so each such file made
        every later sync fail ("Unable to create '…/index.lock': File exists") until a person
        removed it. Only a sync's gits take locks here, and each holds the scope's lock until it
        ends (:attr:`lock_fd`), so under that lock a lock file found now is no running git's."""
        assert self.lock_fd is not None, "only a sync, holding the scope's lock, removes them"
        names = ("index.lock", "HEAD.lock", "packed-refs.lock", "config.lock")
        stale = [self.git_dir / name for name in names]
        refs = self.git_dir / "refs"
        if refs.is_dir():
            stale += refs.rglob("*.lock")
        for path in stale:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def _every_file_gone(self) -> bool:
        """Whether not one of the files of this copy's last commit is left in the scope
        folder, two or more of them or its ``MEMORY.md`` alone: the copy was wiped (a cleaned
        cache folder, a state dir made again), not memories deleted one by one; sent, it
        would delete the scope on the service and every machine. (A scope's last topic file
        deleted is a deletion like any other; nobody deletes an index to delete memories, and
        a new scope holds its index alone.)"""
        tracked = [name for name in self.git("ls-files", "-z", raw=True).split("\0") if name]
        if len(tracked) < 2 and tracked != [layout.INDEX_FILE]:
            return False
        return not any(os.path.lexists(self.scope / name) for name in tracked)

    def _put_back(self) -> list[str]:
        """Put the files of the copy's last commit back (none written since is overwritten)
        and say so; what differs from it now."""
        self.git("checkout-index", "--all")
        self.outcomes.append(
            f"every file of this machine's copy of scope {self.key} was gone: they were put back "
            "from its last sync, not deleted on the service (delete memories one at a time to "
            "remove them)"
        )
        return self._changed()

    def _write_excludes(self) -> None:
        """Only memory files of the scope's top level are synced (the service takes nothing
        else, R-1): sub-folders and editor leftovers stay here."""
        exclude = self.git_dir / "info" / "exclude"
        if not exclude.is_file() or exclude.read_text(encoding="utf-8") != _EXCLUDES:
            exclude.parent.mkdir(exist_ok=True)
            exclude.write_text(_EXCLUDES, encoding="utf-8")

    def _commit_local(self, base: str | None, changed: list[str]) -> str:
        """Step 1: the working tree as one pending commit on ``base``, what the service holds
        (replacing an older pending commit, so the service always measures against what it
        holds); ``changed``: the files that differ from ``main`` (:meth:`_changed`, which
        already looked at every file: only they go into the index). Its id.

        An index torn where ``git status`` did not look (an entry cut short whose stat data
        still matches its file: status trusts it, ``write-tree`` finds its null object id) is
        made again from ``main`` and every file compared again, once (:meth:`_remake_index`)."""
        try:
            tree = self._tree(changed)
        except _GitFailed as failed:
            said = str(failed).split("\n")  # git's lines end at LF
            torn = next((line for line in said if _TORN_INDEX.search(line)), None)
            if torn is None:
                raise
            self._remake_index(self.refs().get(_MAIN), torn)
            tree = self._tree(self._changed())
        parents = ["-p", base] if base is not None else []
        commit = self.git("commit-tree", tree, *parents, "-m", "Memory written on this machine")
        self.set_ref(_MAIN, commit)
        return commit

    def _tree(self, changed: list[str]) -> str:
        """The index with ``changed`` (names) taken from the files, written as a tree: its id."""
        if renamed := self._renamed_in_case():
            # the old name still opens the file there: --remove would keep it, and --add of
            # the new name would take the old entry's spelling
            gone = "".join(name + "\0" for name in renamed).encode("utf-8", "surrogateescape")
            self.git("update-index", "--force-remove", "-z", "--stdin", stdin=gone)
            changed = [name for name in changed if name not in renamed]
        names = "".join(name + "\0" for name in changed).encode("utf-8", "surrogateescape")
        self.git("update-index", "--add", "--remove", "-z", "--stdin", stdin=names)
        return self.git("write-tree")

    def _push(self) -> None:
        """Step 2: send the pending commit to this machine's ref; what the service's merge did
        beyond taking it comes back in git's answer (``remote: Merged: …`` lines)."""
        url = self.copy.scope_url(self.key)
        ref = f"refs/machines/{self.copy.machine_id}"
        done = self._run(
            ("push", "-q", url, f"+{_MAIN}:{ref}"), check=True, network=True, stdin=None
        )
        said = done.stderr.decode("utf-8", "replace")
        self.outcomes += [line.strip() for line in _MERGED_LINE.findall(said) if line.strip()]

    def _take_main(self, refs: dict[str, str]) -> bool:
        """Step 3: fetch ``main`` and move the files to it; False when the service has no such
        scope (404) or no version of it yet. ``refs`` are the ones :meth:`run` read and made."""
        url = self.copy.scope_url(self.key)
        try:
            self.git("fetch", "-q", "--no-tags", url, f"+main:{_INCOMING}", network=True)
        except _GitFailed as failed:
            if failed.missing:
                return False
            raise
        incoming = self.refs().get(_INCOMING)
        if incoming is None:
            return False
        if refused := self._not_memory(incoming):
            raise _GitFailed(
                "the service sent a version holding what no memory scope holds, so nothing of "
                f"it was taken (this copy is as it was): {'; '.join(refused[:5])}"
                + (f" and {len(refused) - 5} more" if len(refused) > 5 else "")
            )
        main, base = refs.get(_MAIN), refs.get(_BASE)
        target = incoming
        if main != incoming:
            self.received_files += self._files_between(main, incoming)
            if main is not None and main == _held(self.refs()):  # the service took it: cut?
                self.received_files -= self._service_cuts(main, incoming)
            target = self._fit_names(incoming)
        if main is None:  # a new copy: nothing here to keep (step 1 took all)
            self.git("reset", "-q", "--hard", target)
            self.moved = True
        elif main != incoming:  # sent and taken, or changed there: keep what was written since
            self._drop_renamed_twins(main, target)
            self._set_aside_kept_here(main, target)
            self.git("reset", "-q", "--keep", target)
            self.moved = True
        if base != incoming:
            said = self._merge_outcomes(base, incoming)
            self.outcomes += [line for line in said if line not in self.outcomes]
            self.set_ref(_BASE, incoming)
        if refs.get(_SENT) != incoming:
            self.set_ref(_SENT, incoming)
        if base is not None and base != incoming and not self._below(base, incoming):
            self._drop_rewritten()
        return True

    def _below(self, older: str, newer: str) -> bool:
        """Whether the commit ``older`` is ``newer`` or one below it (one git process)."""
        done = self._run(
            ("merge-base", "--is-ancestor", older, newer), check=False, network=False, stdin=None
        )
        return done.returncode == 0

    def _drop_rewritten(self) -> None:
        """Drop what this copy held of a history the service no longer has (its ``main`` is no
        longer above the base: the operator's retention squashed old versions, V-3), once the
        copy moved to the service's new history: every object no ref of the copy, nor its
        index, reaches (the reflogs and ``ORIG_HEAD`` emptied first). A squashed version then
        stays squashed on this machine too; what the agent wrote since is in the files and
        the index, which this keeps."""
        (self.git_dir / "ORIG_HEAD").unlink(missing_ok=True)
        self.git("reflog", "expire", "--expire=now", "--all")
        self.git("repack", "-a", "-d", "-q")
        self.git("prune", "--expire=now")

    def _service_cuts(self, main: str, incoming: str) -> int:
        """Note in :attr:`cuts` the files of ``main`` (what this copy sent and the service
        took) that ``incoming`` holds only under a cut name (a rename to
        :func:`~memory_core.short_names.is_cut_of` it, text unchanged: the service's disk takes
        shorter names); how many of the files the move to ``incoming`` changes that explains:
        each such rename's two names, and the index when the cuts are all its change. Those
        are no change made elsewhere, and the sync says what they are. Only this move's own
        cuts count: a run's second move (:meth:`_send_fitted`) takes out none of the first
        one's again (it said "received -1 files")."""
        from memory_core.short_names import is_cut_of, relinked_index

        out = self.git(
            "diff-tree", "-r", "-z", "--find-renames=100%", "--name-status", main, incoming,
            raw=True,
        )  # fmt: skip
        fields = iter(out.split("\0"))
        found: dict[str, str] = {}
        for status in fields:
            if status.startswith(("R", "C")):
                old, new = next(fields, ""), next(fields, "")
                if status == "R100" and is_cut_of(old, new):
                    found[old] = new
            elif status:
                next(fields, "")
        self.cuts.update(found)
        if not found:
            return 0
        sent, came = (
            self._run(("cat-file", "blob", f"{commit}:{layout.INDEX_FILE}"),
                      check=False, network=False, stdin=None)
            for commit in (main, incoming)
        )  # fmt: skip
        relinked = (
            sent.returncode == 0
            and came.returncode == 0
            and sent.stdout != came.stdout
            and relinked_index(sent.stdout, found) == came.stdout
        )
        return 2 * len(found) + (1 if relinked else 0)

    def _fit_names(self, incoming: str) -> str:
        """What step 3 moves the files to: ``incoming``, or, when it holds a topic file whose
        name is longer than this disk takes (``pathconf``'s ``NAME_MAX``: eCryptfs takes 143
        bytes where the service takes 255, K-7), a commit on it that renames each such file to
        a name the disk takes and points its index lines there
        (:mod:`memory_core.short_names`), said in the outcomes. git failed to write the file
        otherwise (``File name too long``) and every later sync with it; the commit goes back
        to the service as this copy's change, so every copy ends with the name this disk takes
        (:attr:`fitted`)."""
        from memory_core import short_names  # only here: every hook imports this module

        limit = short_names.disk_name_max(self.scope)
        if limit >= FILE_NAME_MAX_BYTES:
            return incoming
        listing = self.git("ls-tree", "-z", incoming, raw=True)
        entries = [entry for entry in listing.split("\0") if entry]
        renames = short_names.fitted_renames((e.partition("\t")[2] for e in entries), limit)
        if not renames:
            return incoming
        kept = [self._renamed_entry(entry, renames) for entry in entries]
        tree = self.git("mktree", "-z", stdin="".join(kept).encode("utf-8", "surrogateescape"))
        message = "Names too long for this machine's disk shortened"
        commit = self.git("commit-tree", tree, "-p", incoming, "-m", message)
        index = self._run(
            ("cat-file", "blob", f"{incoming}:{layout.INDEX_FILE}"),
            check=False, network=False, stdin=None,
        )  # fmt: skip
        links = short_names.linking_lines(index.stdout if index.returncode == 0 else b"", renames)
        self.outcomes += [
            short_names.shortened_line(old, new, limit, "this machine's disk", links[old])
            for old, new in renames.items()
        ]
        self.fitted = True
        return commit

    def _renamed_entry(self, entry: str, renames: dict[str, str]) -> str:
        """One ``ls-tree -z`` entry (without its NUL) of :meth:`_fit_names`, renamed by
        ``renames``; the index with its links to renamed files pointed at the new names (an
        index that is not UTF-8 is left as it is)."""
        from memory_core.short_names import relinked_index

        meta, _, name = entry.partition("\t")
        if name in renames:
            return f"{meta}\t{renames[name]}\0"
        if name != layout.INDEX_FILE:
            return entry + "\0"
        mode, kind, blob = meta.split(" ")
        data = self._run(("cat-file", "blob", blob), check=True, network=False, stdin=None)
        relinked = relinked_index(data.stdout, renames)
        if relinked is None:
            return entry + "\0"
        blob = self.git("hash-object", "-w", "--stdin", stdin=relinked)
        return f"{mode} {kind} {blob}\t{name}\0"

    def _not_memory(self, commit: str) -> list[str]:
        """What of ``commit``'s tree a service of these rules never sends (R-1: a version holds
        the scope's regular files, none in a folder, each within its cap): each entry's name
        and what it is. Checked out, a symlink (``MEMORY.md`` -> ``~/.bashrc``) would have led
        the agent's next index line, or any write to that name, into a file outside the memory
        root; a folder, a submodule or an entry whose name holds a ``/`` (a tree git writes
        but never makes: ``a/MEMORY.md`` checks out a folder ``a``) made paths the service
        never keeps; a ``.gitignore``, ``.gitattributes`` or ``.gitmodules`` would steer how
        git reads the copy (an ignore of ``*`` kept every file the agent wrote from being sent,
        each sync saying all was sent); a blob over its cap (a few MiB of zeros in the pack
        make GiBs on disk) would fill the machine's disk."""
        listing = self.git("ls-tree", "-l", "-z", commit, raw=True)
        refused: list[str] = []
        for record in listing.split("\0"):
            if not record:
                continue
            meta, _, name = record.partition("\t")
            mode, _, rest = meta.partition(" ")
            size = rest.rpartition(" ")[2]
            what = _not_a_memory_entry(mode, name, size)
            if what is not None:
                refused.append(f"{name[:120]!r} ({what})")  # repr: one printable line
        return refused

    def _set_aside_kept_here(self, main: str, incoming: str) -> None:
        """Before step 3's move: a file the service holds whose text here is kept unsent
        (:attr:`kept_here`: grown over its cap, made a symlink) and that ``incoming`` changes
        (another machine's edit, a delete) is moved aside to a free name of its own and the
        file put back as this copy last synced it, so the move takes the service's version.
        ``reset --keep`` refused the move otherwise ("not uptodate. Cannot merge"), and every
        later sync of the scope with it; the text written here stays, under the name said."""
        if not self.kept_here:
            return
        names = sorted(self.kept_here)
        listed = self.git("diff", "--name-only", "-z", main, incoming, "--", *names, raw=True)
        for name in sorted(set(listed.split("\0")) - {""}):
            aside = _free_name(self.scope, name)
            (self.scope / name).rename(self.scope / aside)
            self.git("checkout", "--", name)
            self.outcomes.append(
                f"{shown_name(name)[:120]} was changed on the service while this machine's "
                f"text of it could not be sent ({self.kept_here[name]}): this machine's text "
                f"is kept as {shown_name(aside)[:120]} (on this machine only), "
                f"{shown_name(name)[:120]} holds the service's"
            )

    def _drop_renamed_twins(self, main: str, incoming: str) -> None:
        """Before step 3's move: when ``incoming`` renames a file only in letter case or
        Unicode form (``notes.md`` to ``Notes.md``), first move to ``incoming`` without the
        new names, so the old file is gone before its twin comes. On a case-insensitive or
        normalising file system (APFS, NTFS, exFAT) git takes the old file for an untracked
        one in the new name's way and refuses every move (``reset --keep``, even ``--hard``):
        the copy would never take a version again. Raises :class:`_GitFailed`."""
        out = self.git("diff", "--name-status", "-z", "--no-renames", main, incoming, raw=True)
        fields = out.split("\0")
        changes = list(zip(fields[0::2], fields[1::2], strict=False))
        gone = {fold_name(name) for status, name in changes if status == "D"}
        renamed = {name for status, name in changes if status == "A" and fold_name(name) in gone}
        if not renamed:
            return
        listing = self.git("ls-tree", "-z", incoming, raw=True)
        kept = [
            entry + "\0"
            for entry in listing.split("\0")
            if entry and entry.partition("\t")[2] not in renamed
        ]
        tree = self.git("mktree", "-z", stdin="".join(kept).encode("utf-8", "surrogateescape"))
        step = self.git("commit-tree", tree, "-p", main, "-m", "Twins renamed on the service")
        self.git("reset", "-q", "--keep", step)

    def _merge_outcomes(self, base: str | None, incoming: str) -> list[str]:
        """The ``Merged:`` lines of the versions since ``base`` that merged a machine's changes,
        oldest first: those that took this machine's (``Machine-Id:`` is its id) as they are,
        and another machine's each with whose sync it was (``… (merged when desk synced)``).
        A merge made at another machine's sync is one this machine's change took part in as
        often as not: this machine deleted ``e.md`` and synced, the desk sent its edit of it
        and was told ``kept``; this machine got ``e.md`` back with no word of why. What was
        left out of another machine's push (``… was not taken: …``) is that machine's alone."""
        machine_id = self.copy.machine_id
        fields = "%(trailers:key=Machine-Id,valueonly,separator=%x1f)%x1d"
        fields += "%(trailers:key=Machine,valueonly,separator=%x1f)%x1d"
        fields += "%(trailers:key=Merged,valueonly,separator=%x1f)"
        span = incoming if base is None else f"{base}..{incoming}"
        out = self.git("log", "--reverse", f"--format=%x1e{fields}", span)
        found: list[str] = []
        for record in out.split("\x1e"):
            owner, _, rest = record.partition("\x1d")
            name, _, merged = rest.partition("\x1d")
            lines = [line.strip() for line in merged.split("\x1f") if line.strip()]
            if owner.strip() == machine_id:
                found += lines
            elif owner.strip():
                who = name.strip() or "another machine"
                found += [
                    f"{line} (merged when {who} synced)"
                    for line in lines
                    if " was not taken: " not in line
                ]
        return found

    def _write_marker(self, marker: str) -> bool:
        """Write the Workspace's ``.workspace`` marker (K-5) into the copy unless it has one;
        whether it was written. As a Session start on the service's machine writes a marker
        gone missing, a Session's sync writes it again into a copy that lost it (deleted on
        the service, where a push then left the scope without it, and fetched): the scope
        stayed tied to no Workspace for good otherwise."""
        marker_file = self.scope / layout.MARKER_FILE
        if os.path.lexists(marker_file):
            return False
        self.scope.mkdir(parents=True, exist_ok=True)
        marker_file.write_text(marker + "\n", encoding="utf-8", errors="surrogateescape")
        return True

    def _make_workspace_scope(self, marker: str) -> None:
        """A Workspace scope the service does not have yet: its marker (K-5) goes with the
        first push, which makes it there."""
        self._write_marker(marker)
        changed = self._changed()
        if changed:
            refs = {_MAIN: self._commit_local(None, changed)}
            self.sent_files += self._files_between(None, refs[_MAIN])
            self._push()
            self._take_main(refs)


def _not_a_memory_entry(mode: str, name: str, size: str) -> str | None:
    """What a version's top-level entry is, when it is nothing a memory scope holds (see
    :meth:`_ScopeRun._not_memory`); None for a regular file within its cap. ``size`` as
    ``git ls-tree -l`` gives it (``-`` for no blob)."""
    if mode not in _REGULAR_MODES:
        return _ENTRY_KINDS.get(mode, f"an entry of mode {mode}")
    if "/" in name:
        return "a file in a folder"
    if name.casefold().startswith(".git"):
        return "a file of git's own"
    cap = scope_file_cap(name)
    if not size.isdigit() or int(size) > cap:
        return f"larger than {cap} bytes"
    return None


def _free_name(folder: Path, name: str) -> str:
    """A name for this machine's own text of ``name`` that ``folder`` does not hold yet:
    ``notes-this-machine.md``, then ``notes-this-machine-2.md`` …"""
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem:
        stem, suffix = name, ""
    number = 1
    while True:
        tail = "" if number == 1 else f"-{number}"
        candidate = f"{stem}-this-machine{tail}" + (f".{suffix}" if suffix else "")
        if not os.path.lexists(folder / candidate):
            return candidate
        number += 1


def _status_names(out: str) -> list[str]:
    """The file names of ``git status --porcelain -z`` output ``out``."""
    return [entry[3:] for entry in out.split("\0") if len(entry) > 3]


def _held(refs: dict[str, str]) -> str | None:
    """The newest commit of the copy the service holds: the sent ref, else (a copy made before
    there was one) the base."""
    return refs.get(_SENT) or refs.get(_BASE)


_EXCLUDES = "/*/\n*.swp\n*~\n.#*\n"
_IGNORECASE = re.compile(r"^\s*ignorecase\s*=\s*true\s*$", re.MULTILINE | re.IGNORECASE)
"""``core.ignorecase``, which ``git init`` sets in ``config`` on a case-insensitive disk."""
_REMOTE = "remote:"
"""How git starts a line the other side said: the service's own (``Merged:``, ``Refused:``) and
what the git it runs relays, pushed content among it (a submodule name git's object check
quotes: ``remote: error: object …: gitmodulesName: disallowed submodule name: ../HTTP 404``)."""
_EXCHANGE_LINES = (
    re.compile(r"error: RPC failed; HTTP (\d{3}) curl \d+ .*"),
    re.compile(r"error: RPC failed; result=\d+, HTTP code = (\d{3})"),  # git before 2.16
)
"""git's lines naming the HTTP status of a failed POST of a fetch's or push's pack (an
exchange, after a ref list answered 200)."""
_STATUS_LINES = (
    *_EXCHANGE_LINES,
    re.compile(r"fatal: unable to access '.*': The requested URL returned error: (\d{3})"),
)
"""git's lines naming the HTTP status of an exchange that failed."""
_NO_VERSION_LINE = re.compile(r"fatal: couldn't find remote ref \S+")
"""git's line when the scope has no version yet (the service advertises no ``main``)."""
_NOT_FOUND_LINE = re.compile(r"fatal: repository '.*' not found")
"""git's line when the service answers 404 to a ref list: no such Workspace scope yet, or (for
the user scope, which the service makes on demand) no such agent or address."""
_REFUSED_LINE_401 = re.compile(r"fatal: Authentication failed for '.*'")
"""git's line when the service answers 401: the token is missing, wrong or revoked (A-10)."""


def _own_lines(message: str) -> list[str]:
    """git's own lines of its error output ``message``, each stripped: not those it relays
    from the other side (``remote: …``), whose words a pushed file or a scope key may hold.
    git runs with C messages (:meth:`RemoteCopy.git_environment`), so its own are English.
    Lines end at a newline only: git relays a line separator (U+2028), a form feed … as they
    are, where ``str.splitlines`` would start a line of git's own inside a relayed one."""
    lines = (line.strip() for line in message.split("\n"))
    return [line for line in lines if line and not line.startswith(_REMOTE)]


def _reason_asked(status: int) -> bool:
    """Whether the service is asked why an exchange answered ``status`` failed
    (:meth:`RemoteCopy.service_says`): a 5xx, or a 409, the service refusing a push whole (A-6:
    it deletes a file beside an index the service may not rewrite; the change waits here and
    is sent again at the next sync). git shows only the status of either."""
    return status >= 500 or status == 409


def _http_status(message: str) -> int | None:
    """The HTTP status git's own line of ``message`` names for a failed exchange, or None."""
    for line in _own_lines(message):
        for pattern in _STATUS_LINES:
            if found := pattern.fullmatch(line):
                return int(found[1])
    return None


def _exchange_failed(message: str) -> bool:
    """Whether git's own lines of ``message`` say a POST of a pack failed (its ref list was
    answered: only the service's answer to that POST holds the reason)."""
    return any(p.fullmatch(line) for line in _own_lines(message) for p in _EXCHANGE_LINES)


def _names_a_kind(problem: tuple[str, str] | None) -> bool:
    """Whether the service's ``problem`` (:meth:`RemoteCopy.service_problem`) for a 404 names
    a kind of the service's own (a ``type`` under
    :data:`~memory_core.wire.PROBLEM_TYPE_BASE`, such as the memory root it never follows,
    A-7): something there that cannot be used, never "no such scope yet". A proxy's 404 with
    a type of its own is no such answer."""
    from memory_core.wire import PROBLEM_TYPE_BASE  # only on a 404: the hooks skip msgspec's DTOs

    return problem is not None and problem[0].startswith(PROBLEM_TYPE_BASE)


def _not_found(message: str) -> bool:
    """Whether git's ``message`` says the service answered 404: its ``repository '…' not found``
    line or a named status 404. Read from git's own whole lines, never by substring: a scope
    key, a port, a commit id or a relayed ``remote:`` line holding ``404`` is no such answer."""
    own = _own_lines(message)
    return any(_NOT_FOUND_LINE.fullmatch(line) for line in own) or _http_status(message) == 404


def _reason(message: str) -> str:
    """The line of git's ``message`` that says why it failed: a ref the service refused
    (``! [remote rejected] … (reason)``), else git's first ``fatal:`` or ``error:`` line (its
    later lines are advice, "Please make sure you have the correct access rights …"), else its
    last line. Only git's own lines are read for the first two (:func:`_own_lines`), each by
    its start: a relayed line quoting a pushed name is no reason of git's."""
    own = _own_lines(message)
    for starts in (("! [remote rejected]", "! [rejected]"), ("fatal:", "error:")):
        for line in own:
            if line.startswith(starts):
                return line
    lines = [line.strip() for line in message.split("\n") if line.strip()]
    return lines[-1] if lines else ""
