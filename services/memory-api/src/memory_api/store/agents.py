"""Agents on disk: ``<app_data_dir>/agents/<id>/agent.json`` (A-1, A-2).

``agent.json`` holds the agent's project, id, name, template and memory settings, camelCase::

    {"project": "acme", "id": "coder", "name": "Coder", "template": "…",
     "memory": {"enabled": true, "prompt": null, "workspacePrompt": null}}

A prompt of ``null`` means "the built-in default" (A-2). Every read goes to the file (several
processes may share the data dir, Q-4); every change is a read-modify-write under the agent's
cross-process lock, written atomically. The ETag of a record is derived from the file's bytes,
so any change by any process changes it.

Agent ids are global (one folder per id) while each agent belongs to one project: an agent of
another project is reported exactly like a missing one (:class:`NotFound`, A-10).
"""

from __future__ import annotations

import asyncio
import builtins
import errno
import hashlib
import logging
import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from memory_core import json_text
from memory_core.atomic import atomic_write_bytes, data_folder_mode, make_dirs
from memory_core.byte_order import decode_marked, marked_codec, not_text
from memory_core.errors import InvalidId
from memory_core.file_edit import edit_file
from memory_core.json_members import UncheckedMembers, repeated_member, twice_named
from memory_core.keys import USER_SCOPE, check_agent_id, check_project_id
from memory_core.layout import AGENTS_DIR, agent_dir, memory_root, scope_dir, workspaces_dir
from memory_core.placeholder_sight import placeholder_out_of_sight
from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT
from memory_core.rules import (
    AGENT_NAME_RULE,
    FILLED_IN,
    INDEX_PLACEHOLDER,
    MEMORY_PROMPT_RULE,
    TEMPLATE_RULE,
    USER_INDEX_PLACEHOLDER,
    WHITESPACE,
    WORKSPACE_PROMPT_RULE,
    template_placeholder_problem,
)
from memory_core.said_once import first_time
from memory_core.wire import AgentCreate, ConfigPatch

from memory_api.defaults import default_template
from memory_api.errors import (
    READ_ACCESS_FIX,
    BadRequest,
    CannotRead,
    Conflict,
    NotFound,
    ProjectFull,
    ServiceError,
    Unavailable,
    Unprocessable,
    write_fix,
)
from memory_api.store.containment import NotRegularFileError, cannot_read, read_regular
from memory_api.store.entity_tags import NO_PRECONDITIONS, Preconditions, if_match_holds
from memory_api.store.locks import Locks, lock_name
from memory_api.store.scopes import vanished_root
from memory_api.store.stat_cache import NeedsBlockingIO, StatCache, file_key

__all__ = [
    "AGENT_FILE",
    "AgentRecord",
    "AgentStore",
    "MemorySettings",
    "UnreadableAgent",
    "agent_file_shown",
    "etag_matches",
    "unusable_agent",
]

logger = logging.getLogger(__name__)

AGENT_FILE = "agent.json"
AGENTS_CACHED = 4096
"""Parsed ``agent.json`` files kept by file version (each a few KiB)."""
AGENT_READ_CAP = 64 * 1024 * 1024
"""Bytes of ``agent.json`` read at most: far above a config of three 1 MiB texts."""


class MemorySettings(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """An agent's memory switch and prompt overrides; ``None`` prompts mean the default (I-6)."""

    enabled: bool = True
    prompt: str | None = None
    workspace_prompt: str | None = None

    @property
    def effective_prompt(self) -> str:
        """``memory.prompt`` as injected: the override, else the built-in default (A-2, I-6)."""
        return DEFAULT_MEMORY_PROMPT if self.prompt is None else self.prompt

    @property
    def effective_workspace_prompt(self) -> str:
        """``memory.workspace_prompt`` as injected: the override, else the built-in default."""
        return DEFAULT_WORKSPACE_PROMPT if self.workspace_prompt is None else self.workspace_prompt


class _AgentFile(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The JSON layout of ``agent.json``; unknown fields (from a newer version) are tolerated."""

    project: str
    id: str
    name: str
    template: str
    memory: MemorySettings = msgspec.field(default_factory=MemorySettings)


class AgentRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One agent as stored, plus ``etag``: a quoted strong ETag of the file's bytes (A-2)."""

    project: str
    id: str
    name: str
    template: str
    memory: MemorySettings
    etag: str


@dataclass(frozen=True, slots=True)
class _Patch:
    """A checked config PATCH: the new name and template (None: unchanged) and the changed
    ``memory`` fields by attribute name."""

    name: str | None
    template: str | None
    memory: dict[str, Any]


class UnreadableAgent(ServiceError):
    """``agent.json`` exists but cannot be read (no permission, an I/O error) or is not valid
    (hand-edited or from elsewhere): 503 like every file the service has but cannot read
    (Q-2b), named with the reason, its place in the data dir and the fix
    (:func:`unusable_agent`), never a 404 nor a 500."""

    status = 503


def agent_file_shown(agent_id: str) -> str:
    """Where an agent's ``agent.json`` is, as a ``detail`` may show it (Q-2b): its place in
    the data dir (``agents/coder/agent.json``), never the host's path to the data dir."""
    return f"{AGENTS_DIR}/{agent_id}/{AGENT_FILE}"


def unusable_agent(agent_id: str, what: str, fix: str) -> UnreadableAgent:
    """The :class:`UnreadableAgent` of agent ``agent_id`` whose ``agent.json`` ``what`` (``"are
    not a regular file"``), naming the file in the data dir and what an operator does (``fix``):
    ``"the stored settings of agent 'coder' (agents/coder/agent.json in the data dir) are
    invalid: …: an operator must …"``."""
    return UnreadableAgent(
        f"the stored settings of agent {agent_id!r} ({agent_file_shown(agent_id)} in the data "
        f"dir) {what}: {fix}"
    )


INVALID_FIX = (
    "an operator must correct it by hand (a JSON object: project, name, template and memory, as "
    "GET …/config shows an agent's) or restore it from a backup, then try again"
)
"""What an operator does about an ``agent.json`` that is no valid agent (Q-2b)."""

NOT_A_FILE_FIX = (
    "an operator must move what is there away and put the agent's agent.json back (from a "
    "backup), then try again"
)
"""What an operator does about a folder, FIFO or device where ``agent.json`` should be."""


NOT_A_FILE = "are not a regular file"

LINKS_RULE = "A-7: no part of the data dir may be a symlink, which may lead out of it"
"""Why a symlink in the data dir is never followed, as a ``detail`` says it."""

A_SYMLINK = f"are not a regular file: a symlink, which the service never follows ({LINKS_RULE})"
A_SYMLINK_FIX = (
    "an operator must put the file itself there (a copy of what the link leads to, in place of "
    "the link), then try again"
)
"""What an operator does about an ``agent.json`` that is a symlink (never read nor replaced)."""

AGENTS_LINKED = (
    f"the folder of every agent ({AGENTS_DIR}/ in the data dir) is a symlink, which the service "
    f"never follows ({LINKS_RULE}): no agent can be read or created. An operator must stop the "
    f"service and either move the folder the link leads to back to {AGENTS_DIR}/ in the data "
    "dir, in place of the link, or point MEMORY_API_DATA_DIR at the data dir that folder lies "
    "in (to move the data to another disk, move the whole data dir), then start it again"
)
"""The ``detail`` and log line about ``agents/`` being a symlink (A-7, Q-2b)."""


def _said_once(path: str, what: str) -> None:
    """Log ``what`` about ``path`` once per process (a warning,
    :func:`~memory_core.said_once.first_time`): a symlink met on every request is not logged on
    every request."""
    if first_time((__name__, path)):
        logger.warning("%s: %s", path, what)


def _logged(path: str, error: UnreadableAgent) -> UnreadableAgent:
    """``error``, once logged naming the full ``path`` of the ``agent.json`` (the ``detail``
    names its place in the data dir only)."""
    logger.warning("agent settings %s cannot be used: %s", path, error.detail)
    return error


_decoder = msgspec.json.Decoder(_AgentFile)
_encoder = msgspec.json.Encoder()


def _etag(raw: bytes) -> str:
    return '"' + hashlib.sha256(raw).hexdigest()[:32] + '"'


_WRITE_ACCESS = f"write access to the data dir's {AGENTS_DIR}/ folder (its owner and mode)"
"""What the account needs to create an agent, as a failed create's ``detail`` says it."""

_READ_AT = "GET …/config"
"""Where a client reads the config's ETag, as a failed ``If-Match`` says it."""


def etag_matches(if_match: str, etag: str) -> bool:
    """Tell whether an ``If-Match`` field value (its lines joined by ``", "``) names ``etag``:
    RFC 9110's strong comparison, as :func:`~memory_api.store.entity_tags.if_match_holds`
    reads it (``*``; a list, across lines, of tags one of which equals ``etag``; a weak tag
    never matches; an unquoted value is taken as if quoted)."""
    return if_match_holds(if_match, etag)


def _parse(raw: bytes, agent_id: str) -> AgentRecord:
    """The record held by the bytes of ``agent.json``; :class:`UnreadableAgent` when invalid.

    A file an editor saved with a byte order mark (Notepad's "UTF-8 with BOM", or UTF-16) is
    read as the editor shows it (:func:`~memory_core.byte_order.decode_marked`; RFC 8259 lets a
    reader ignore the mark): an agent edited by hand in such an editor stays an agent. A file
    naming a field twice is invalid: the decoder took the last, a person reading it the first
    (``"project"`` twice served the agent in the project named last)."""
    try:
        text = decode_marked(raw).encode("utf-8") if marked_codec(raw) is not None else raw
        data = json_text.decode(_decoder, text)
        if (twice := repeated_member(text)) is not None:  # read by its last, silently
            raise unusable_agent(agent_id, f"are invalid: {twice_named(twice)}", INVALID_FIX)
    except UnicodeDecodeError as error:
        raise unusable_agent(agent_id, f"are invalid: {not_text(error)}", INVALID_FIX) from error
    except UncheckedMembers as error:  # a repeat not ruled out is not read by its last
        raise unusable_agent(agent_id, f"are invalid: {error}", INVALID_FIX) from error
    except msgspec.DecodeError as error:  # nested too deep too, in a field it skips
        raise unusable_agent(agent_id, f"are invalid: {error}", INVALID_FIX) from error
    return AgentRecord(
        project=data.project,
        id=agent_id,
        name=data.name,
        template=data.template,
        memory=data.memory,
        etag=_etag(raw),
    )


def _encode(record: AgentRecord) -> bytes:
    """The bytes of ``agent.json`` for ``record`` (its ETag is not stored)."""
    data = _AgentFile(
        project=record.project,
        id=record.id,
        name=record.name,
        template=record.template,
        memory=record.memory,
    )
    return _encoder.encode(data) + b"\n"


_PROMPT_RULES = (
    ("prompt", "memory.prompt", MEMORY_PROMPT_RULE, USER_INDEX_PLACEHOLDER),
    ("workspace_prompt", "memory.workspacePrompt", WORKSPACE_PROMPT_RULE, INDEX_PLACEHOLDER),
)


def _check_prompts(changes: dict[str, Any]) -> None:
    """Refuse a memory prompt that would not carry its index exactly once (I-1) or holds a
    character hidden wherever it stands (I-9): 422 naming the placeholder it needs and what it
    holds instead, the hidden characters first (their line and kind, never the text), as its
    rule's summary says ("no character hidden"); or whose placeholder stands inside an HTML
    comment or a code block (:func:`~memory_core.placeholder_sight.placeholder_out_of_sight`:
    the model would get an index a person reading the prompt does not see as one). ``None``
    (the default) always passes. Blocking for a long prompt (a linear scan, under a second for
    1 MiB): run in a thread."""
    for field, name, rule, rule_placeholder in _PROMPT_RULES:
        value = changes.get(field)
        if not isinstance(value, str):
            continue
        problem = rule.problem(value) or placeholder_out_of_sight(value, rule_placeholder)
        if problem is not None:
            raise Unprocessable(f"{name} {rule.summary}; {problem}. Nothing was saved")


def _check_name(name: str) -> str:
    """Return the name to store, trimmed; raise :class:`BadRequest` unless it follows A-1's rule."""
    reason = AGENT_NAME_RULE.problem(name)
    if reason is not None:
        raise BadRequest(f"name {reason}")
    return name.strip(WHITESPACE)


def _check_template(template: str | None) -> None:
    """Refuse a template holding hidden characters (I-9), naming each line and what is hidden
    there (:data:`~memory_core.rules.TEMPLATE_RULE`); one holding ``{{MEMORY}}`` more than once
    or text written as a placeholder that nothing fills in (I-1: a typo of memory's or of the
    Session's own, ``{{AGNET_ID}}``), naming it, the one it was meant for and those filled in
    (:func:`~memory_core.rules.template_placeholder_problem`): :class:`Unprocessable` (422)
    both, as a memory prompt breaking its rule is — a well-formed body whose value a rule
    refuses (the template's hidden characters were a 400). ``None`` (the default) passes."""
    if template is None:
        return
    if (reason := TEMPLATE_RULE.problem(template)) is not None:
        raise Unprocessable(f"template {reason}. Nothing was saved")
    if (problem := template_placeholder_problem(template)) is not None:
        raise Unprocessable(
            "template must hold {{MEMORY}} at most once, where the memory goes, and no "
            f"misspelt or unclosed placeholder; {problem} (placeholders filled in: "
            f"{', '.join(FILLED_IN)}). Nothing was saved"
        )


class AgentStore:
    """The agents of one data dir. Async methods do their file work in worker threads.

    ``locks`` are the cross-process locks of the same data dir; an agent's lock is
    ``agent.<agent_id>``.
    """

    def __init__(self, data_dir: Path, locks: Locks) -> None:
        self.data_dir = data_dir
        self.locks = locks
        self._agents_dir = os.fspath(data_dir / AGENTS_DIR)
        # agent.json parsed, per file version (stat_cache): a Session start reads it each time
        self._records: StatCache[str, AgentRecord] = StatCache(max_entries=AGENTS_CACHED)

    # --- reading ------------------------------------------------------------------------------

    def _file(self, agent_id: str) -> Path:
        return agent_dir(self.data_dir, agent_id) / AGENT_FILE

    def _folders_plain(self, agent_id: str) -> bool:
        """Whether ``agents/`` and ``agents/<id>/`` are plain folders (False: one is missing or
        a file, so there is no agent). A symlink in either place is never followed (A-7, as a
        memory root's is not: it may lead out of the data dir): :class:`UnreadableAgent` (503)
        naming the entry by its place in the data dir and what an operator does, logged once
        per process (:func:`_said_once`). Two ``lstat`` calls; another error is left to the
        read, which names it. Blocking."""
        current = os.fspath(self.data_dir)
        for depth, part in enumerate((AGENTS_DIR, agent_id), start=1):
            current = f"{current}{os.sep}{part}"
            try:
                mode = os.lstat(current).st_mode
            except FileNotFoundError:
                return False
            except OSError:
                return True  # the read names the reason
            if stat.S_ISLNK(mode) and depth == 1:
                _said_once(current, AGENTS_LINKED)
                raise UnreadableAgent(AGENTS_LINKED)
            if stat.S_ISLNK(mode):
                _said_once(current, "agent folder is a symlink: never followed")
                raise UnreadableAgent(
                    f"the folder of agent {agent_id!r} is not a plain folder: {AGENTS_DIR}/"
                    f"{agent_id} in the data dir is a symlink, which the service never follows "
                    f"({LINKS_RULE}): an operator must move the folder it leads to back in its "
                    "place (or put the agent's folder there from a backup), then try again"
                )
            if not stat.S_ISDIR(mode):
                return False
        return True

    def agents_linked(self) -> str | None:
        """What an operator must do when ``agents/`` in the data dir is a symlink (never
        followed: no agent can be read or created, A-7), else None; said at the service's
        start. Blocking (one ``lstat``)."""
        return AGENTS_LINKED if (self.data_dir / AGENTS_DIR).is_symlink() else None

    def _load(self, agent_id: str, *, cached_only: bool = False) -> AgentRecord | None:
        """Read ``agent.json`` of a checked id; None when there is none. Blocking, unless
        ``cached_only``: then a file that must be read raises :class:`NeedsBlockingIO`.

        Anything but a readable regular file (a folder, a FIFO that would block the read
        forever, a file the service may not open, one over :data:`AGENT_READ_CAP`) raises
        :class:`UnreadableAgent`, naming the reason but never the path.
        """
        # the path as agent_dir() spells it, without a Path per call
        where = f"{self._agents_dir}{os.sep}{check_agent_id(agent_id)}{os.sep}{AGENT_FILE}"
        if not self._folders_plain(agent_id):
            return None
        try:
            known = os.lstat(where)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError:
            known = None  # the read below names the reason
        if known is not None and stat.S_ISLNK(known.st_mode):  # never followed out
            raise _logged(where, unusable_agent(agent_id, A_SYMLINK, A_SYMLINK_FIX))
        if known is not None and (hit := self._records.get(where, file_key(known))) is not None:
            return hit
        if cached_only:
            raise NeedsBlockingIO(where)
        try:
            raw, info = read_regular(Path(where), AGENT_READ_CAP + 1)  # O_NOFOLLOW
        except (FileNotFoundError, NotADirectoryError):
            return None
        except NotRegularFileError:
            raise _logged(where, unusable_agent(agent_id, NOT_A_FILE, NOT_A_FILE_FIX)) from None
        except OSError as error:
            if error.errno == errno.ELOOP:  # made a symlink since the lstat
                raise _logged(where, unusable_agent(agent_id, A_SYMLINK, A_SYMLINK_FIX)) from None
            why = f"cannot be read ({error.strerror or type(error).__name__})"
            raise _logged(where, unusable_agent(agent_id, why, READ_ACCESS_FIX)) from None
        if len(raw) > AGENT_READ_CAP:
            why = f"are larger than {AGENT_READ_CAP} bytes"
            raise _logged(where, unusable_agent(agent_id, why, INVALID_FIX))
        try:
            record = _parse(raw, agent_id)
        except UnreadableAgent as error:
            raise _logged(where, error) from None
        self._records.put(where, file_key(info), record)
        return record

    def load(self, project: str, agent_id: str, *, cached_only: bool = False) -> AgentRecord:
        """The blocking :meth:`get` of checked ids, for callers already in a worker thread (one
        thread hop per request instead of two). Raises like :meth:`get`, and
        :class:`NeedsBlockingIO` when ``cached_only`` and the file must be read."""
        return self._load_in(project, agent_id, cached_only=cached_only)

    def _load_in(self, project: str, agent_id: str, *, cached_only: bool = False) -> AgentRecord:
        record = self._load(agent_id, cached_only=cached_only)
        if record is None or record.project != project:
            raise NotFound(f"no agent {agent_id!r} in project {project!r}")
        return record

    async def get(self, project: str, agent_id: str) -> AgentRecord:
        """Return the agent ``agent_id`` of ``project``.

        Raises ``InvalidId`` (400) for a malformed id, :class:`NotFound` for an unknown agent or
        one of another project (A-10), :class:`UnreadableAgent` for a corrupt ``agent.json``.
        """
        check_project_id(project)
        check_agent_id(agent_id)
        return await asyncio.to_thread(self._load_in, project, agent_id)

    def _scan(self) -> list[AgentRecord]:
        return self._scan_all()[0]

    def _scan_all(self) -> tuple[list[AgentRecord], list[tuple[str, str]]]:
        """Every agent that can be read, by id, and ``(id, why)`` of each whose ``agent.json``
        is there but cannot be read or is invalid (Q-2b: its project is then unknown)."""
        folder = self.data_dir / AGENTS_DIR
        if folder.is_symlink():  # never listed through: one entry names it
            _said_once(self._agents_dir, AGENTS_LINKED)
            return [], [(f"{AGENTS_DIR}/", AGENTS_LINKED)]
        try:
            entries = sorted(os.scandir(folder), key=lambda item: item.name)
        except FileNotFoundError:
            return [], []
        except OSError as error:
            logger.warning("the agents folder %s cannot be listed: %s", folder, error)
            raise CannotRead(
                f"the folder of every agent ({AGENTS_DIR}/ in the data dir) cannot be listed: "
                f"the service {cannot_read(error)}"
            ) from None
        records: list[AgentRecord] = []
        unreadable: list[tuple[str, str]] = []
        for entry in entries:
            try:
                check_agent_id(entry.name)
                record = self._load(entry.name)
            except InvalidId:
                continue
            except UnreadableAgent as error:  # logged with its path by _load
                unreadable.append((entry.name, error.detail))
                continue
            if record is not None:
                records.append(record)
        return records, unreadable

    async def unreadable(self) -> builtins.list[tuple[str, str]]:
        """``(id, why)`` of every agent whose ``agent.json`` is there but cannot be read or is
        invalid (Q-2b), by id."""
        return (await asyncio.to_thread(self._scan_all))[1]

    async def list_with_unreadable(
        self, project: str
    ) -> tuple[builtins.list[AgentRecord], builtins.list[tuple[str, str]]]:
        """:meth:`list` of ``project``, and ``(id, why)`` of every agent of any project whose
        ``agent.json`` cannot be read (Q-2b): which project such an agent belongs to is unknown,
        so only a caller that reaches every project may be shown them."""
        check_project_id(project)
        records, unreadable = await asyncio.to_thread(self._scan_all)
        return [record for record in records if record.project == project], unreadable

    async def list(self, project: str | None = None) -> list[AgentRecord]:
        """Return the agents of ``project`` sorted by id (an unknown project has none).

        With ``project=None``: every agent of every project, sorted by project, then id.
        Each call reads every ``agent.json`` once.
        """
        if project is None:
            records = await asyncio.to_thread(self._scan)
            return sorted(records, key=lambda record: (record.project, record.id))
        check_project_id(project)
        return [
            record for record in await asyncio.to_thread(self._scan) if record.project == project
        ]

    async def projects(self) -> builtins.list[str]:
        """Return the sorted ids of every project that holds at least one agent."""
        return sorted({record.project for record in await asyncio.to_thread(self._scan)})

    async def projects_with_unreadable(
        self,
    ) -> tuple[builtins.list[str], builtins.list[tuple[str, str]]]:
        """:meth:`projects`, and ``(id, why)`` of every agent whose ``agent.json`` cannot be
        read (Q-2b): its project is unknown, so only a caller reaching every project may be
        shown them."""
        records, unreadable = await asyncio.to_thread(self._scan_all)
        return sorted({record.project for record in records}), unreadable

    # --- writing ------------------------------------------------------------------------------

    def _write(self, record: AgentRecord) -> AgentRecord:
        raw = _encode(record)
        atomic_write_bytes(self._file(record.id), raw)
        return msgspec.structs.replace(record, etag=_etag(raw))

    def _create(self, record: AgentRecord) -> AgentRecord:
        self._refuse_taken(record)
        return self._create_new(record)

    def _refuse_taken(self, record: AgentRecord) -> None:
        """Raise :class:`Conflict` (409) when ``record.id`` is an agent already, in its own
        project ("exists already") or in another ("is taken", the project unsaid)."""
        existing = self._load(record.id)
        if existing is not None and existing.project == record.project:
            raise Conflict(f"agent {record.id!r} exists already in project {record.project!r}")
        if existing is not None:
            # Which project holds it stays unsaid: a token limited to this project may not see it.
            raise Conflict(
                f"the agent id {record.id!r} is taken; agent ids are unique across projects,"
                " so choose another"
            )

    def _create_new(self, record: AgentRecord) -> AgentRecord:
        """Write agent ``record`` (its id checked free) with its user scope and
        ``workspaces/``. Raises :class:`Unavailable` (503) when its memory root is gone while
        its history holds scopes (:func:`~memory_api.store.scopes.vanished_root`: nothing is
        made, as no other command makes it again, Q-2b) and when the disk refuses a write
        halfway (ENOSPC…): the agent folder this call made is removed, never left without its
        ``agent.json``."""
        folder = agent_dir(self.data_dir, record.id)
        made = not os.path.lexists(folder)
        if not made and (vanished := vanished_root(memory_root(self.data_dir, record.id))):
            # its history holds scopes: a root made again empty records every note removed
            raise Unavailable(f"agent {record.id!r} could not be created: the service {vanished}")
        try:
            # K-6: the user scope comes with the agent; workspaces/ holds temporary Workspaces
            # (K-4). Owner-only whatever the umask: the agent's notes are its own (A-10, I-8)
            mode = data_folder_mode()
            make_dirs(scope_dir(self.data_dir, record.id, USER_SCOPE), mode)
            make_dirs(workspaces_dir(self.data_dir, record.id), mode)
            return self._write(record)
        except OSError as error:  # a full disk halfway: no agent folder without its agent.json
            if made:
                shutil.rmtree(folder, ignore_errors=True)
            logger.warning("agent %s could not be created in %s: %s", record.id, folder, error)
            reason = error.strerror or type(error).__name__
            raise Unavailable(
                f"agent {record.id!r} could not be created ({reason}): "
                f"{write_fix(error, _WRITE_ACCESS)}, then try again; nothing of it was kept"
            ) from None

    def _create_within(self, record: AgentRecord, cap: int) -> AgentRecord:
        """:meth:`_create` when ``record``'s project holds fewer than ``cap`` agents (those
        whose ``agent.json`` can be read); under the project's lock, so creates at once never
        pass the count together. An id already taken is a :class:`Conflict` first, full
        project or not: the cap is no answer to a create that could never succeed."""
        with self.locks.hold_sync(lock_name("agent", record.id)):
            self._refuse_taken(record)
            held = sum(1 for other in self._scan() if other.project == record.project)
            if held >= cap:
                raise ProjectFull(
                    f"project {record.project!r} holds {held} agents, its cap "
                    f"(MEMORY_API_MAX_AGENTS_PER_PROJECT={cap}): no agent can be added to it; "
                    "an operator may raise the cap"
                )
            return self._create_new(record)

    async def create(self, project: str, body: AgentCreate, *, cap: int = 0) -> AgentRecord:
        """Create agent ``body.id`` in ``project`` with its user scope and ``workspaces/`` (K-6).

        Without a template the agent gets :func:`memory_api.defaults.default_template`.
        ``cap``: the agents ``project`` may hold at most (``MEMORY_API_MAX_AGENTS_PER_PROJECT``,
        A-10); 0: no cap (the operator's CLI on the data dir). Raises ``InvalidId`` (400),
        :class:`BadRequest` for an empty or overlong name or a template holding hidden
        characters (I-9), :class:`Conflict` (409) when the id is taken in any project,
        :class:`ProjectFull` (409, ``…/cap-reached``) when the project holds ``cap`` agents,
        :class:`UnreadableAgent` (503) when ``agents/<id>`` is a symlink (never followed, A-7),
        :class:`Unavailable` (503) when the agent's memory root vanished or the disk refused
        the create halfway (nothing of it kept, :meth:`_create_new`).
        """
        check_project_id(project)
        check_agent_id(body.id)
        name = _check_name(body.name)
        template = body.template
        await asyncio.to_thread(_check_template, template)  # linear, but up to the body cap
        if template is None:
            template = default_template(name=name, agent_id=body.id)
        record = AgentRecord(
            project=project,
            id=body.id,
            name=name,
            template=template,
            memory=MemorySettings(),
            etag="",
        )
        if cap > 0:
            return await self.locks.run_held(
                lock_name("project", project), self._create_within, record, cap
            )
        return await self.locks.run_held(lock_name("agent", body.id), self._create, record)

    async def patch(
        self,
        project: str,
        agent_id: str,
        patch: ConfigPatch,
        if_match: str | Preconditions | None,
    ) -> AgentRecord:
        """Apply a config PATCH (A-2) atomically under the agent's lock and return the result.

        Unset fields stay; a ``None`` prompt restores the built-in default. ``if_match`` is the
        ``If-Match`` header, or the request's :class:`Preconditions` (``If-None-Match`` too):
        when one fails for the current ETag, :class:`PreconditionFailed` (412) is raised and
        nothing is written; with none the PATCH applies unconditionally.
        Raises ``InvalidId``, :class:`NotFound`, :class:`BadRequest` (an empty name; hidden
        characters in the name, the template or a memory prompt, I-9) and
        :class:`~memory_api.errors.Unprocessable` (422: a prompt without its index placeholder
        exactly once, a template with ``{{MEMORY}}`` twice or misspelt, I-1) as well; every
        check on the PATCH alone comes before the lock.

        The read, the check of ``if_match`` and the write run in one thread while holding the
        agent's lock (:meth:`~memory_api.store.locks.Locks.run_held`): never held across trips
        through the shared executor, where each waited behind every request queued there.
        """
        check_project_id(project)
        check_agent_id(agent_id)
        name = patch.name if isinstance(patch.name, msgspec.UnsetType) else _check_name(patch.name)
        changes: dict[str, Any] = {}
        if not isinstance(patch.memory, msgspec.UnsetType):
            changes = {
                field: value
                for field, value in (
                    ("enabled", patch.memory.enabled),
                    ("prompt", patch.memory.prompt),
                    ("workspace_prompt", patch.memory.workspace_prompt),
                )
                if not isinstance(value, msgspec.UnsetType)
            }
            if any(isinstance(changes.get(field), str) for field, _, _, _ in _PROMPT_RULES):
                await asyncio.to_thread(_check_prompts, changes)
        template = None if isinstance(patch.template, msgspec.UnsetType) else patch.template
        if template:
            await asyncio.to_thread(_check_template, template)
        return await self.locks.run_held(
            lock_name("agent", agent_id),
            self._patch_held,
            project,
            agent_id,
            _Patch(
                name=None if isinstance(name, msgspec.UnsetType) else name,
                template=template,
                memory=changes,
            ),
            if_match if isinstance(if_match, Preconditions) else Preconditions(if_match),
        )

    def _patch_held(
        self, project: str, agent_id: str, patch: _Patch, conditions: Preconditions
    ) -> AgentRecord:
        """The blocking part of :meth:`patch`, under the agent's lock: read, check, write."""
        current = self._load_in(project, agent_id)
        conditions.check("the agent's config", exists=True, etag=current.etag, read=_READ_AT)
        updated = msgspec.structs.replace(
            current,
            name=current.name if patch.name is None else patch.name,
            template=current.template if patch.template is None else patch.template,
            memory=msgspec.structs.replace(current.memory, **patch.memory),
        )
        if updated == current:
            return current
        return self._write(updated)

    def _edit_template(
        self,
        project: str,
        agent_id: str,
        fn: Callable[[str], tuple[str, bool]],
        conditions: Preconditions,
    ) -> tuple[str, bool]:
        """Apply ``fn`` to the template in ``agent.json`` so that no concurrent edit is lost.

        The file is edited with :func:`memory_core.file_edit.edit_file`: an operator or a tool
        changing ``agent.json`` at the same moment (no lock of ours) gets ``fn`` re-applied to
        their version rather than overwritten. ``conditions`` are judged first, against the
        config as read under the lock (412, nothing written). Blocking.
        """
        outcome: list[tuple[str, bool]] = []

        def edit(raw: bytes) -> bytes | None:
            record = _parse(raw, agent_id)
            if record.project != project:
                raise NotFound(f"no agent {agent_id!r} in project {project!r}")
            template, changed = fn(record.template)
            outcome.append((template, changed))
            return _encode(msgspec.structs.replace(record, template=template)) if changed else None

        current = self._load_in(project, agent_id)  # the errors of a read for a missing agent
        conditions.check("the agent's config", exists=True, etag=current.etag, read=_READ_AT)
        try:
            edit_file(  # never through a symlink: _load_in refused one
                self._file(agent_id),
                edit,
                read_cap=AGENT_READ_CAP,
                memory=False,  # an operator's file, not a memory file: A-7's hard-link rule isn't
            )
        except FileNotFoundError:  # moved or removed since it was read: nothing was written
            raise Conflict(
                f"the config of agent {agent_id!r} was moved or removed while its template was "
                "edited; nothing was written: try again"
            ) from None
        if not outcome:
            raise NotFound(f"no agent {agent_id!r} in project {project!r}")
        return outcome[-1]

    async def update_template(
        self,
        project: str,
        agent_id: str,
        fn: Callable[[str], tuple[str, bool]],
        conditions: Preconditions = NO_PRECONDITIONS,
    ) -> tuple[str, bool]:
        """Rewrite the template with ``fn(template) -> (new, changed)`` under the agent's lock.

        The read, ``fn`` and the replacement happen in one thread while holding the cross-process
        lock (``Locks.run_held``), so ten concurrent idempotent inserts (A-4, Q-2a) change the
        file once; someone editing ``agent.json`` by hand meanwhile loses nothing
        (:meth:`_edit_template`). Returns ``fn``'s result. Raises ``InvalidId`` and
        :class:`NotFound` like :meth:`get`, :class:`UnreadableAgent` for a corrupt file and
        ``FileKeptChanging`` (409) when the file would not settle, :class:`Conflict` (409) when it
        is moved or removed between the edit's read and its write (nothing written), and
        :class:`~memory_api.errors.PreconditionFailed` (412) when ``conditions`` (the request's
        ``If-Match`` / ``If-None-Match``) fail for the config's current ETag.
        """
        check_project_id(project)
        check_agent_id(agent_id)
        name = lock_name("agent", agent_id)
        edit = self._edit_template
        return await self.locks.run_held(name, edit, project, agent_id, fn, conditions)
