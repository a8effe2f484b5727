"""SyncStore: what the git routes ask of the disk (R-1), one method per kind of request.

Each method checks its ids (K-7) and the machine's headers before any I/O, confirms the agent
is one of the project (else 404, A-10) and finds the scope: the user scope is created on demand
(K-6); a Workspace scope must exist to be fetched (a Session start makes it, K-5) and is made
by a machine's first push only when that brings a ``.workspace`` marker the service takes (the
marker is all that ties a scope to its Workspace): any other first push is refused by name
(git's report says ``ng <ref> <reason>``, :func:`.backend.refused_report`) and creates no
folder. Then:

- **a fetch's ref advertisement** (``info/refs?service=git-upload-pack``): under the scope's
  lock, what is on disk is recorded first (an agent on the service's machine may have written
  since), so ``main`` is the memory as it is now, and names a macOS or Windows machine would
  fold into one file are kept apart (:mod:`.twins`); the machine is noted (:mod:`.machines`) and
  its ref ``refs/machines/<id>`` set to ``main`` (what it is about to hold);
- **a fetch's pack** (``git-upload-pack``): git's own work, without the lock (git reads a
  repository safely while a version is being recorded);
- **a push's ref advertisement** (``info/refs?service=git-receive-pack``): only the machine's
  own ref, which names what it holds: ``main`` as of its last fetch, or its last push the
  service took (a post-write hook sends without fetching after), ``main`` when it has none; so
  the machine sends only what that lacks;
- **a push** (``git-receive-pack``): the whole body is read first (capped), then, under the
  scope's lock: ``git receive-pack`` takes the objects and moves the machine's ref from where
  the advertisement showed it, the push is merged with the newest version and written, and
  the files it wrote are recorded (:mod:`.push`: the scope's other files are not read), the
  machine is noted. What the merge did beyond taking the files comes back with git's report
  as ``remote: Merged: …`` lines (:data:`MERGED_PREFIX`), so a machine that does not fetch
  after its push still knows. The answer is git's report only once all of that succeeded;
  anything failing on the way is a problem answer (503, nothing half taken, the machine's ref
  back where it was), so a machine never takes a push for landed when it did not. A push git
  itself refused (its report says ``ng`` or an unpack error: the ref did not move) is answered
  with that report and nothing is taken: the ref as it stands names what the machine held
  before, never something it just wrote. When its objects could not be unpacked because the
  disk is full (git says only "unpacker error"), the report carries a ``remote: Refused: …``
  line naming the full disk (:data:`REFUSED_PREFIX`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from memory_core.keys import USER_SCOPE, check_agent_id, check_project_id, check_scope_key
from memory_core.wire import MachineList, ScopeMachines

from memory_api.errors import BadRequest, CannotRead, NotFound, Unavailable
from memory_api.store.containment import FolderNotHeld, checked_memory_root
from memory_api.store.history.git import (
    HistoryUnavailable,
    disk_is_full,
    full_disk_detail,
    git_succeeds,
    init_repository,
    remove_stale_locks,
)
from memory_api.store.history.recorder import Attribution
from memory_api.store.history.repo import read_head, read_ref, set_ref
from memory_api.store.history.service import HistoryStore
from memory_api.store.history.snapshot import Snapshot
from memory_api.store.locks import lock_name
from memory_api.store.scopes import (
    existing_scope_dir,
    made_scope_dir,
    read_marker,
    scope_real_dir,
)
from memory_api.store.sessions import flag_visibility
from memory_api.store.sync.backend import (
    GitService,
    Head,
    MachineRef,
    StreamedAnswer,
    certified,
    cgi_command,
    cgi_environment,
    deleted_refs,
    named_refs,
    push_cpu_limit,
    push_data_cap,
    push_report,
    refused_report,
    relayed_as_git,
    run_buffered,
    run_streaming,
    with_messages,
)
from memory_api.store.sync.machines import Machine, MachineLog
from memory_api.store.sync.push import new_scope_refusal, take_push
from memory_api.store.sync.twins import keep_twins_apart

__all__ = [
    "CERTIFICATE_REFUSED",
    "DELETION_REFUSED",
    "FAILED_ANSWERS_KEPT",
    "MERGED_PREFIX",
    "OTHER_REF_REFUSED",
    "REFUSED_PREFIX",
    "FailedAnswer",
    "GitRequest",
    "SyncLimits",
    "SyncStore",
]

DELETION_REFUSED = (
    "deletion prohibited: a machine's ref is never deleted, it names what the machine last "
    "sent or fetched (R-1)"
)
"""The reason a push deleting a ref is refused with (``ng <ref> <reason>``)."""
CERTIFICATE_REFUSED = (
    "push certificates are not taken: the service never asks for one (push-cert), push "
    "without --signed (R-1)"
)
"""The reason a push carrying a push certificate is refused with."""
OTHER_REF_REFUSED = (
    "a machine pushes to its own ref alone (refs/machines/<its id>), which sync names for it (R-1)"
)
"""The reason a push naming any other ref is refused with."""

REFUSED_PREFIX = "Refused: "
"""How a push's answer names why the service could not take it when git's own words would not
say (``remote: Refused: the disk holding the history is full …`` beside git's "unpacker
error"): one message line on git's side band; the plugin's sync reports it as the reason."""
MERGED_PREFIX = "Merged: "
"""How a push's answer names each merge outcome (R-2) to the pushing machine: one message line
each on git's side band (``remote: Merged: …``), as the version's ``Merged:`` trailers do."""
FAILED_ANSWERS_KEPT = 1000
"""Failed answers to machines' git exchanges remembered at most (:meth:`SyncStore.note_answer`),
the ones given last: each is a short ``detail``, so at most a few hundred KiB."""

_Asked = tuple[str, str, str, GitService, str]
"""Who asked what: project, agent, scope key, git service, machine id."""

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SyncLimits:
    """Bytes of a fetch's and a push's request body at most, and seconds one git exchange
    may take."""

    fetch_body: int = 16 * 1024 * 1024
    push_body: int = 64 * 1024 * 1024
    timeout: float = 120.0


@dataclass(frozen=True, slots=True)
class FailedAnswer:
    """A problem a machine's git exchange was answered with (R-1), as it was answered: its
    ``status`` (a 5xx, or a 409 refusing a push whole), ``detail``, ``problem_type`` (the RFC
    9457 ``type`` a client matches) and the ``Retry-After`` header it carried (None without one)."""

    status: int
    detail: str
    problem_type: str = "about:blank"
    retry_after: str | None = None


@dataclass(frozen=True, slots=True)
class GitRequest:
    """One git request as the route read it: which scope, for whom, from which machine."""

    project: str
    agent_id: str
    key: str
    principal: str
    machine: Machine | None
    content_type: str | None = None


class SyncStore:
    """The git side of the histories under one data dir, for the routes (async)."""

    def __init__(self, history: HistoryStore, limits: SyncLimits | None = None) -> None:
        self.history = history
        self.histories = history.histories
        self.locks = history.locks
        self.machines = MachineLog(self.histories.app_data_dir)
        self.limits = limits or SyncLimits()
        self._failed: OrderedDict[_Asked, FailedAnswer] = OrderedDict()
        """Per machine and exchange, the problem its last one failed with (:meth:`note_answer`)."""

    def note_answer(self, asked: _Asked, answer: FailedAnswer | None) -> None:
        """Remember the problem ``answer`` (a 5xx or a 409, with a ``detail``) the exchange
        ``asked`` (project, agent, scope key, git service, machine id; a POST of git's) was
        answered with, for :meth:`failed_answer`; any other answer (None: no problem at all)
        forgets the one before. git shows the machine only the status of such an answer
        ("RPC failed; HTTP 503"), never its body: the machine's sync asks for it next (R-1).
        In memory only (a restart forgets), the last :data:`FAILED_ANSWERS_KEPT` kept."""
        self._failed.pop(asked, None)
        if answer is None or not answer.detail or not _told_again(answer.status):
            return
        self._failed[asked] = answer
        while len(self._failed) > FAILED_ANSWERS_KEPT:
            self._failed.popitem(last=False)

    async def failed_answer(self, request: GitRequest, service: GitService) -> FailedAnswer:
        """The problem the machine's last ``service`` exchange of the scope failed with
        (:meth:`note_answer`), after the checks every git request gets (its ids, the agent in
        the project). Raises :class:`BadRequest` for a request naming no machine,
        :class:`NotFound` when its last one did not fail (or none is remembered)."""
        await self._checked(request)
        if request.machine is None:
            raise BadRequest("ask for a machine's failed exchange with 'X-Memory-Machine: <id>'")
        asked = (
            request.project,
            request.agent_id,
            request.key,
            service,
            request.machine.machine_id,
        )
        found = self._failed.get(asked)
        if found is None:
            raise NotFound(
                f"the last {service} of this machine to scope {request.key!r} did not fail"
            )
        return found

    async def _checked(self, request: GitRequest) -> None:
        check_project_id(request.project)
        check_agent_id(request.agent_id)
        check_scope_key(request.key)
        self.history.ensure_enabled()
        await self.history.agents.get(request.project, request.agent_id)

    def _scope(self, request: GitRequest, *, create: bool) -> Path:
        """The real scope folder; a missing one is made for the user scope (K-6). A missing
        Workspace scope is 404, except with ``create`` (a push): then its folder as it will be
        (not made yet: the push that makes it must bring its marker, :meth:`_made`)."""
        root = checked_memory_root(self.histories.app_data_dir, request.agent_id)
        planned = root / request.key
        if create and request.key != USER_SCOPE and not os.path.lexists(planned):
            return planned
        return existing_scope_dir(root, request.key, request.agent_id)

    def _made(
        self, request: GitRequest, scope: Path, repository: Path, pushed: str | None
    ) -> str | Path:
        """The scope folder a push lands in: made now when the push is the first of a
        Workspace scope and brings a marker the service takes; else why it may not be made
        (nothing is created, R-1, K-5), or why the operating system refused to make it (a
        read-only or full data dir: said in git's report, since the pushing git shows no
        body of an error status, only "RPC failed; HTTP 503"). Under the scope's lock."""
        made = scope_real_dir(scope.parent, request.key)  # a Session start may have made it
        if made is not None:
            return made
        refusal = new_scope_refusal(repository, request.key, pushed)
        if refusal is not None:
            return refusal
        try:
            return made_scope_dir(scope.parent, request.key, request.agent_id)
        except Unavailable as error:
            return error.detail

    def _lock(self, request: GitRequest, scope: Path) -> str:
        return lock_name("index", request.agent_id, scope.name)

    def _found(self, request: GitRequest, scope: Path, repository: Path) -> None:
        """Before a fetch: record what is on disk (an agent on this machine may have written),
        keep the twins it holds apart (:mod:`.twins`), note the machine and point its ref at
        ``main``, what it is about to hold; under the scope's lock. Raises
        :class:`~memory_api.errors.CannotRead` (503) for a memory file there the service may
        not read (:func:`_refuse_unread`)."""
        machine = request.machine
        subject = f"a fetch by {machine.name}" if machine is not None else "a fetch"
        found: list[Snapshot] = []
        who = Attribution("found", subject=subject)
        self.histories.record(request.agent_id, scope, who, seen=found.append)
        _refuse_unread(request.key, found)
        keep_twins_apart(self.histories, request.agent_id, scope, subject)
        if machine is not None:
            self.machines.seen(request.agent_id, request.key, machine, request.principal)
            set_ref(repository, MachineRef(machine.machine_id).name, read_head(repository))

    def _environment(
        self,
        request: GitRequest,
        repository: Path,
        service: GitService,
        push_ref: MachineRef | None,
        *,
        query: str = "",
        length: int | None = None,
    ) -> dict[str, str]:
        suffix = service if query == "" else "info/refs"
        return cgi_environment(
            repository,
            suffix,
            service=service,
            push_ref=push_ref,
            method="GET" if suffix == "info/refs" else "POST",
            query=query,
            content_type=request.content_type,
            content_length=length,
            user=request.principal,
        )

    async def advertise(self, request: GitRequest, service: GitService) -> StreamedAnswer:
        """The ref advertisement of ``service`` for the scope (see the module docstring)."""
        await self._checked(request)
        push_ref = self._push_ref(request) if service == "git-receive-pack" else None

        def prepare(scope: Path) -> Path:
            repository = self.histories.repository(request.agent_id, scope)
            init_repository(repository)
            if push_ref is None:
                self._found(request, scope, repository)
            else:
                self._point_at_holding(repository, push_ref)
            return repository

        scope = await asyncio.to_thread(self._scope, request, create=push_ref is not None)
        repository = await self.locks.run_held(self._lock(request, scope), prepare, scope)
        query = f"service={service}"
        env = self._environment(request, repository, service, push_ref, query=query)
        return await run_streaming(cgi_command(), env, b"", self.limits.timeout)

    async def upload_pack(self, request: GitRequest, body: bytes) -> StreamedAnswer:
        """A fetch's pack: git's answer to the machine's wants and haves, streamed."""
        await self._checked(request)
        scope = await asyncio.to_thread(self._scope, request, create=False)
        repository = self.histories.repository(request.agent_id, scope)
        env = self._environment(request, repository, "git-upload-pack", None, length=len(body))
        return await run_streaming(cgi_command(), env, body, self.limits.timeout)

    def _push_ref(self, request: GitRequest) -> MachineRef:
        if request.machine is None:
            raise BadRequest(
                "a push must name its machine: send 'X-Memory-Machine: <id>' (harness-memory "
                "does); fetching works without"
            )
        return MachineRef(request.machine.machine_id)

    def _point_at_holding(self, repository: Path, ref: MachineRef) -> None:
        """Leave the machine's ref at what it holds (see the module); a machine with none gets
        ``main`` (nothing before the first version). Under the scope's lock.

        The ref may name only a version (``main`` as the machine fetched it) or the machine's
        last push taken (``refs/taken/<id>``). Anything else is a push git took in but the
        service never merged (the service was killed between the two, or git ran past the
        sync timeout): advertised, it would tell the machine the service holds that push,
        the machine would send nothing, then fetch ``main`` without it and lose its change.
        So the ref goes back to what the machine holds, and the machine sends it again."""
        remove_stale_locks(repository)
        held = read_ref(repository, ref.name)
        head = read_head(repository)
        if held is None:
            set_ref(repository, ref.name, head)
            return
        if held == head or held == read_ref(repository, ref.taken):
            return
        if head is not None and git_succeeds(repository, "merge-base", "--is-ancestor", held, head):
            return
        logger.warning(
            "machine %s's push %s was never taken; it is asked for again", ref.name, held
        )
        set_ref(repository, ref.name, read_ref(repository, ref.taken) or head)

    def _refused_unread(
        self, request: GitRequest, push_ref: MachineRef, body: bytes
    ) -> bytes | None:
        """A push git must not run, refused before it runs (the ref stays, nothing is noted):
        git's report refusing it, else None. One deleting a ref (git's ``receive.denyDeletes``
        holds for ``refs/heads/`` only), one carrying a push certificate, whose commands the
        service cannot read as git will (:func:`~memory_api.store.sync.backend.certified`),
        one naming any ref but the machine's own
        (:func:`~memory_api.store.sync.backend.named_refs`)."""
        other = [ref for ref in named_refs(body) if ref != push_ref.name]
        if deleted := deleted_refs(body):
            ref, reason, what = deleted[0], DELETION_REFUSED, f"would delete {deleted[0]!r}"
        elif certified(body):
            ref, reason, what = push_ref.name, CERTIFICATE_REFUSED, "carried a push certificate"
        elif other:
            ref, reason, what = other[0], OTHER_REF_REFUSED, f"named {other[0]!r}"
        else:
            return None
        logger.warning(
            "a push by machine %s to scope %s %s: refused", push_ref.machine_id, request.key, what
        )
        return refused_report(body, ref, reason)

    async def receive_pack(self, request: GitRequest, body: bytes) -> tuple[Head, bytes]:
        """A push (see the module docstring): git's report once the push is merged, written
        and recorded. Raises :class:`~memory_api.store.history.git.HistoryUnavailable` (503)
        when any step fails, ``OSError`` when the scope cannot be written."""
        await self._checked(request)
        push_ref = self._push_ref(request)
        machine = request.machine
        assert machine is not None
        if refusal := self._refused_unread(request, push_ref, body):  # git not run, nothing noted
            return Head(200), refusal
        scope = await asyncio.to_thread(self._scope, request, create=True)

        def work() -> tuple[Head, bytes]:
            repository = self.histories.repository(request.agent_id, scope)
            init_repository(repository)
            remove_stale_locks(repository)
            before = read_ref(repository, push_ref.name)  # where the advertisement showed it
            env = self._environment(
                request, repository, "git-receive-pack", push_ref, length=len(body)
            )
            try:
                command = cgi_command(
                    push_data_cap(self.limits.push_body), push_cpu_limit(self.limits.timeout)
                )
                head, answer = run_buffered(command, env, body, self.limits.timeout)
            except BaseException:  # git stopped (the sync timeout): whatever it took is not taken
                set_ref(repository, push_ref.name, before)
                raise
            if head.status != 200:
                return head, answer
            answer = relayed_as_git(body, answer, (MERGED_PREFIX, REFUSED_PREFIX))
            pushed = read_ref(repository, push_ref.name)
            if pushed == before:
                return head, self._moved_nothing(request, repository, answer, body)
            if pushed is None:  # git deleted it, past deleted_refs: put back, refused
                logger.warning(
                    "a push by machine %s to scope %s deleted its ref: put back, refused",
                    machine.machine_id,
                    request.key,
                )
                set_ref(repository, push_ref.name, before)
                return head, refused_report(body, push_ref.name, DELETION_REFUSED)
            try:
                landing = self._made(request, scope, repository, pushed)
                if isinstance(landing, str):  # refused: nothing is created, nothing taken
                    logger.warning("a push to scope %s was refused: %s", request.key, landing)
                    set_ref(repository, push_ref.name, before)
                    return head, refused_report(body, push_ref.name, landing)
            except BaseException:
                set_ref(repository, push_ref.name, before)
                raise
            try:
                taken = take_push(
                    self.histories,
                    request.agent_id,
                    landing,
                    push_ref,
                    machine,
                    request.principal,
                    before=before,
                )
            except OSError as error:
                raise _unwritten(error) from None
            if request.key != USER_SCOPE:
                _flag_seen(landing, request.key)
            self.machines.seen(
                request.agent_id,
                request.key,
                machine,
                request.principal,
                pushed=True,
                outcomes=taken.outcomes,
            )
            said = [f"{MERGED_PREFIX}{line}" for line in taken.outcomes]
            return head, with_messages(answer, body, said)

        return await self.locks.run_held(self._lock(request, scope), work)

    def _moved_nothing(
        self, request: GitRequest, repository: Path, answer: bytes, body: bytes
    ) -> bytes:
        """git did not move the machine's ref (its report says why: a refused ref, objects
        that failed their check, nothing new): nothing was pushed, so nothing is taken. Taking
        the ref as it stands would merge what the machine last held (an old ``main``) as if
        the machine had just written it. git's report, naming a full disk when that is why."""
        report = push_report(body, answer)
        reason = report.reason or "nothing new"
        if not report.unpacked and disk_is_full(repository, reason, needed=4 * len(body)):
            reason = full_disk_detail("git receive-pack")
            answer = with_messages(answer, body, [f"{REFUSED_PREFIX}{reason}"])
        machine_id = request.machine.machine_id if request.machine is not None else "?"
        logger.warning(
            "a push by machine %s to scope %s moved nothing: %s", machine_id, request.key, reason
        )
        return answer

    async def machine_list(self, project: str, agent_id: str) -> MachineList:
        """Per scope, the machines that synced it (R-1, the page). A memory root the service
        cannot reach is said as the memory routes say it (``OutsideMemoryRoot`` 404 for a
        symlink in its place, :class:`~memory_api.errors.CannotRead` 503 when it cannot be
        looked at), never a calm list of no machine while no machine can sync."""
        check_project_id(project)
        check_agent_id(agent_id)
        await self.history.agents.get(project, agent_id)

        def scopes() -> list[ScopeMachines]:
            checked_memory_root(self.histories.app_data_dir, agent_id)
            return self.machines.scopes(agent_id)

        return MachineList(scopes=await asyncio.to_thread(scopes))


def _told_again(status: int) -> bool:
    """Whether a machine's git exchange answered ``status`` is remembered to be told again
    (:meth:`SyncStore.note_answer`): a 5xx, or a 409 refusing a push whole (A-6: it deletes a
    file beside an index the service may not rewrite), whose reason only its ``detail`` says."""
    return status >= 500 or status == 409


def _flag_seen(scope: Path, key: str) -> None:
    """After a machine's push into Workspace scope ``key``: flag the Workspace its marker names
    not visible while it is no folder the service can see (K-6a), as a Session start does. A
    machine's Workspace lies on that machine's disk, so without the flag the overview called
    every synced Workspace orphaned the moment it arrived."""
    marker = read_marker(scope.parent, scope, key)
    if marker.path is None:
        return
    visible = os.path.isdir(marker.path)  # noqa: PTH112 - one stat, no Path
    flag_visibility(scope, key, visible=visible, cached_only=False)


def _unwritten(error: OSError) -> Exception:
    """What answers a push the scope folder refused (``error``): :class:`FolderNotHeld` itself
    (no ``/proc``: answered as every change refused so, naming what is missing, by
    ``http/problems.py``), else :class:`HistoryUnavailable` (503) with the kernel's reason."""
    if isinstance(error, FolderNotHeld):
        return error
    return HistoryUnavailable(
        f"the push could not be written into the scope: {error.strerror or error}"
    )


_UNREAD_NAMED = 3
"""At most this many files a fetch cannot read are named in its refusal; the rest are counted."""


def _refuse_unread(key: str, found: list[Snapshot]) -> None:
    """Refuse a fetch (:class:`~memory_api.errors.CannotRead`, 503) when the scope as found
    (``found``: the record's snapshot, none when nothing was looked at) holds a memory file
    the service may not read: the machine would get the scope without it, or with its last
    recorded text, and its sync say ok (R-1, Q-2b; A-10a: never a calm wrong answer). What an
    operator must do comes first; then the first :data:`_UNREAD_NAMED` such files by name, each
    with why, and how many more there are."""
    unread = sorted(
        {
            kept.name: kept for snapshot in found for kept in snapshot.kept if kept.unreadable
        }.values(),
        key=lambda kept: kept.name,
    )
    if unread:
        named = ", ".join(f"{kept.name!r} {kept.why}" for kept in unread[:_UNREAD_NAMED])
        more = len(unread) - _UNREAD_NAMED
        raise CannotRead(
            f"scope {key!r} was not fetched, as the service cannot read {len(unread)} of its "
            "files: the machine's copy would lack them or hold older texts and its sync would "
            f"say ok: {named}{f' and {more} more' if more > 0 else ''}",
            fix_first=True,
        )
