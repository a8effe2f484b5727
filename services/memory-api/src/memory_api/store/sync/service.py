"""SyncStore: what the git routes ask of the disk (R-1), one method per kind of request.

Each method checks its ids (K-7) and the machine's headers before any I/O, confirms the agent
is one of the project (else 404, A-10) and finds the scope: the user scope is created on demand
(K-6); a Workspace scope must exist to be fetched (a Session start makes it, K-5) and is made
by a machine's first push (its marker comes with the push). Then:

- **a fetch's ref advertisement** (``info/refs?service=git-upload-pack``): under the scope's
  lock, what is on disk is recorded first (an agent on the service's machine may have written
  since), so ``main`` is the memory as it is now; the machine is noted (:mod:`.machines`).
  The fetch a machine makes right after its push (same machine, ``main`` unchanged since the
  push, within :data:`PUSH_FRESH_S`) skips that record: the push recorded the whole scope a
  moment before. A file written on the service's machine in that moment reaches the machine
  at its next sync (it is on disk, and the next record of the scope takes it);
- **a fetch's pack** (``git-upload-pack``): git's own work, without the lock (git reads a
  repository safely while a version is being recorded);
- **a push's ref advertisement** (``info/refs?service=git-receive-pack``): only the machine's
  own ref, set to ``main``'s version under the scope's lock (so the machine sends only what
  ``main`` lacks);
- **a push** (``git-receive-pack``): the whole body is read first (capped), then, under the
  scope's lock: ``git receive-pack`` takes the objects and moves the machine's ref from where
  the advertisement showed it, what is on disk is recorded, the push is merged with it and
  written (:mod:`.push`), the machine is noted. The
  answer is git's report only once all of that succeeded; anything failing on the way is a
  problem answer (503, nothing half taken), so a machine never takes a push for landed when
  it did not.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from memory_core.keys import USER_SCOPE, check_agent_id, check_project_id, check_scope_key
from memory_core.wire import MachineList

from memory_api.errors import BadRequest, NotFound
from memory_api.store.containment import checked_memory_root
from memory_api.store.history.git import (
    HistoryUnavailable,
    init_repository,
    remove_stale_locks,
)
from memory_api.store.history.recorder import Attribution
from memory_api.store.history.repo import read_head, set_ref
from memory_api.store.history.service import HistoryStore
from memory_api.store.locks import lock_name
from memory_api.store.scopes import create_scope_dir, scope_real_dir
from memory_api.store.sync.backend import (
    GitService,
    Head,
    MachineRef,
    StreamedAnswer,
    cgi_command,
    cgi_environment,
    run_buffered,
    run_streaming,
)
from memory_api.store.sync.machines import Machine, MachineLog
from memory_api.store.sync.push import take_push

__all__ = ["PUSH_FRESH_S", "GitRequest", "SyncLimits", "SyncStore"]

PUSH_FRESH_S = 5.0
"""Seconds after a machine's push within which its next fetch of the scope is answered without
recording the scope first (the push just did; see the module docstring)."""


@dataclass(frozen=True, slots=True)
class SyncLimits:
    """Bytes of a fetch's and a push's request body at most, and seconds one git exchange
    may take."""

    fetch_body: int = 16 * 1024 * 1024
    push_body: int = 64 * 1024 * 1024
    timeout: float = 120.0


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
    """The git side of the histories under one app data dir, for the routes (async)."""

    def __init__(self, history: HistoryStore, limits: SyncLimits | None = None) -> None:
        self.history = history
        self.histories = history.histories
        self.locks = history.locks
        self.machines = MachineLog(self.histories.app_data_dir)
        self.limits = limits or SyncLimits()
        self._pushed: dict[Path, tuple[str, str | None, float]] = {}
        """Per history repository, the last push taken: machine id, ``main`` after it, when
        (``time.monotonic()``); taken out by the next fetch's advertisement."""
        self._pushed_lock = threading.Lock()

    async def _checked(self, request: GitRequest) -> None:
        check_project_id(request.project)
        check_agent_id(request.agent_id)
        check_scope_key(request.key)
        self.history.ensure_enabled()
        await self.history.agents.get(request.project, request.agent_id)

    def _scope(self, request: GitRequest, *, create: bool) -> Path:
        """The real scope folder; a missing one is made for the user scope and, with
        ``create`` (a push), for a Workspace scope (its marker comes with the push)."""
        root = checked_memory_root(self.histories.app_data_dir, request.agent_id)
        if request.key == USER_SCOPE or create:
            create_scope_dir(root, request.key)
        scope = scope_real_dir(root, request.key)
        if scope is None:
            raise NotFound(f"no scope {request.key!r} in the memory of agent {request.agent_id!r}")
        return scope

    def _lock(self, request: GitRequest, scope: Path) -> str:
        return lock_name("index", request.agent_id, scope.name)

    def _found(self, request: GitRequest, scope: Path, what: str) -> None:
        """Record what is on disk (an agent on this machine may have written), note the
        machine; under the scope's lock. A fetch right after the machine's own push skips the
        record (:meth:`_just_pushed`)."""
        machine = request.machine
        repository = self.histories.repository(request.agent_id, scope)
        if what == "fetch" and machine is not None and self._just_pushed(repository, machine):
            self.machines.seen(request.agent_id, request.key, machine, request.principal)
            return
        subject = f"a {what} by {machine.name}" if machine is not None else f"a {what}"
        self.histories.record(request.agent_id, scope, Attribution("found", subject=subject))
        if machine is not None and what == "fetch":
            self.machines.seen(request.agent_id, request.key, machine, request.principal)

    def _note_push(self, repository: Path, machine: Machine) -> None:
        """Remember that ``machine``'s push was just taken into ``repository`` (under the
        scope's lock, after its record)."""
        with self._pushed_lock:
            self._pushed[repository] = (machine.machine_id, read_head(repository), time.monotonic())

    def _just_pushed(self, repository: Path, machine: Machine) -> bool:
        """Whether ``repository`` was recorded whole by ``machine``'s own push less than
        :data:`PUSH_FRESH_S` ago and nothing was recorded since (``main`` as the push left
        it); forgets that push either way. Under the scope's lock."""
        with self._pushed_lock:
            pushed = self._pushed.pop(repository, None)
        if pushed is None:
            return False
        machine_id, head, when = pushed
        return (
            machine_id == machine.machine_id
            and time.monotonic() - when < PUSH_FRESH_S
            and head == read_head(repository)
        )

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
                self._found(request, scope, "fetch")
            else:
                self._point_at_main(repository, push_ref)
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

    def _point_at_main(self, repository: Path, ref: MachineRef) -> None:
        """Set the machine's ref to ``main`` (or remove it before the first version), so its
        push sends only what ``main`` lacks; under the scope's lock."""
        remove_stale_locks(repository)
        set_ref(repository, ref.name, read_head(repository))

    async def receive_pack(self, request: GitRequest, body: bytes) -> tuple[Head, bytes]:
        """A push (see the module docstring): git's report once the push is merged, written
        and recorded. Raises :class:`~memory_api.store.history.git.HistoryUnavailable` (503)
        when any step fails, ``OSError`` when the scope cannot be written."""
        await self._checked(request)
        push_ref = self._push_ref(request)
        machine = request.machine
        assert machine is not None
        scope = await asyncio.to_thread(self._scope, request, create=True)

        def work() -> tuple[Head, bytes]:
            repository = self.histories.repository(request.agent_id, scope)
            init_repository(repository)
            remove_stale_locks(repository)
            # the machine's ref is where the advertisement put it; what is on disk is recorded
            # after the objects are in, and merged with them
            env = self._environment(
                request, repository, "git-receive-pack", push_ref, length=len(body)
            )
            head, answer = run_buffered(cgi_command(), env, body, self.limits.timeout)
            if head.status != 200:
                return head, answer
            self._found(request, scope, "push")
            try:
                taken = take_push(
                    self.histories, request.agent_id, scope, push_ref, machine, request.principal
                )
            except OSError as error:
                raise HistoryUnavailable(
                    f"the push could not be written into the scope: {error.strerror or error}"
                ) from None
            self.machines.seen(
                request.agent_id,
                request.key,
                machine,
                request.principal,
                pushed=True,
                outcomes=taken.outcomes,
            )
            self._note_push(repository, machine)
            return head, answer

        return await self.locks.run_held(self._lock(request, scope), work)

    async def machine_list(self, project: str, agent_id: str) -> MachineList:
        """Per scope, the machines that synced it (R-1, the page)."""
        check_project_id(project)
        check_agent_id(agent_id)
        await self.history.agents.get(project, agent_id)
        scopes = await asyncio.to_thread(self.machines.scopes, agent_id)
        return MachineList(scopes=scopes)
