"""Drafts of the chat bridge (A-12): ``<app_data_dir>/drafts/<project>/<agent>/<id>.json``,
each expiring.

A draft is the short prompt the Memory tab composes ("update memory X: …") for a new chat
Session; the chat (or the plugin) fetches it by id. The id is 32 random hex digits, checked
before it is joined into a path. An agent keeps at most :data:`DRAFTS_PER_AGENT` live drafts
(each up to a request body): a client creating drafts in a loop filled the disk within the TTL.
One more is refused with :class:`~memory_api.errors.TooMany` (429, ``Retry-After`` the seconds
until its oldest expires), counted by a ``stat`` of each file in the agent's folder (creates in
flight at once may each pass the count: the cap is exceeded by at most that many). A draft kept
by an older service at ``drafts/<id>.json`` is read and swept as before. An expired draft
answers 404 and is deleted when next touched;
:meth:`DraftStore.sweep` removes every expired one (run on each create and periodically by the
app; a file written within the TTL is not read by it, so a sweep costs a stat per live draft),
and a file that is not a readable draft is swept too once it is older than the TTL. Nothing
is kept in memory, so any service process can serve a draft another created (Q-4).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import math
import os
import stat
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec
from memory_core import json_text, keys
from memory_core.atomic import atomic_write_bytes, data_folder_mode, make_dirs
from memory_core.draft_rules import DRAFT_TEXT_RULE
from memory_core.errors import InvalidId, NotRegularFileError
from memory_core.wire import Draft, DraftCreate, utc_timestamp

from memory_api.errors import BadRequest, CannotRead, NotFound, TooMany, Unavailable, write_fix
from memory_api.store.containment import cannot_read, read_regular

__all__ = ["DRAFTS_DIR", "DRAFTS_PER_AGENT", "DraftStore", "check_draft_id"]

logger = logging.getLogger(__name__)

DRAFTS_DIR = "drafts"
DRAFT_READ_CAP = 256 * 1024 * 1024
"""A draft holds one prompt of at most the request body limit (``MEMORY_API_MAX_BODY``); a file
larger than this sanity bound is no draft and is swept unread."""
DRAFTS_PER_AGENT = 100
"""Live drafts one agent keeps at most (A-12): the Memory tab makes one per "Open a new chat",
each read once within minutes; 100 of up to a request body each (``MEMORY_API_MAX_BODY``) bound
what one agent's drafts hold on disk. A client may make agents, up to
``MEMORY_API_MAX_AGENTS_PER_PROJECT`` a project (A-10), each with its own drafts;
docs/operations.md (``MEMORY_API_DRAFT_TTL``) says how an operator bounds the whole."""
_decoder = msgspec.json.Decoder(Draft)
_encoder = msgspec.json.Encoder()


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _is_draft_id(name: str) -> bool:
    try:
        keys.check_draft_id(name)
    except InvalidId:
        return False
    return True


def check_draft_id(draft_id: str) -> str:
    """Return ``draft_id`` if it passes :func:`memory_core.keys.check_draft_id`, else raise
    :class:`BadRequest` naming it a draft id (the route's ``{draft}``)."""
    try:
        return keys.check_draft_id(draft_id)
    except InvalidId as error:
        raise BadRequest(f"invalid draft id {draft_id!r}: {error.reason}") from None


def _check_body(body: DraftCreate) -> None:
    """Refuse an empty prompt or one holding a hidden character (I-9, named with its line),
    and a workspace that a Session start (A-9) would refuse."""
    # imported on use: the session code brings the scope and lint code, and this module is
    # imported by every command that makes a data dir's folders (memory_api.stores)
    from memory_api.store.sessions import check_workspace_path

    reason = DRAFT_TEXT_RULE.problem(body.prompt)
    if reason is not None:
        raise BadRequest(f"prompt {reason}")
    if body.workspace is not None:
        check_workspace_path(body.workspace)


def _load(path: Path) -> Draft | None:
    """Read one draft file; None when it is no valid draft (it is then swept), also one
    nested deeper than msgspec reads (:class:`~memory_core.json_text.DecodedTooDeep`).

    The file is opened without following a symlink and without blocking on a FIFO, and must be
    a regular file of at most :data:`DRAFT_READ_CAP` bytes; raises ``OSError`` otherwise
    (``FileNotFoundError`` when missing, :class:`NotRegularFileError` for a folder or FIFO).
    """
    raw, _ = read_regular(path, DRAFT_READ_CAP + 1)
    if len(raw) > DRAFT_READ_CAP:
        return None
    try:
        return json_text.decode(_decoder, raw)
    except msgspec.DecodeError:  # nested too deep too (json_text.DecodedTooDeep), A-12
        logger.warning("removing unreadable draft file %s", path.name)
        return None


def _remove(path: Path) -> bool:
    """Remove a draft file; True when this call removed it (a vanished file is no error)."""
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as error:
        logger.warning("cannot remove draft file %s: %s", path.name, error)
        return False
    return True


def _is_draft_name(name: str) -> bool:
    """Whether ``name`` is a draft file's: ``<32 hex digits>.json``."""
    stem, dot, suffix = name.partition(".")
    return dot == "." and suffix == "json" and _is_draft_id(stem)


def _draft_entries(directory: Path) -> list[os.DirEntry[str]]:
    """The draft files in the drafts ``directory``: in each ``<project>/<agent>/`` folder
    (no symlink followed) and those an older service kept in it directly; none when it does
    not exist. A folder that cannot be listed is logged and skipped."""
    found: list[os.DirEntry[str]] = []
    folders = [directory]
    for depth in range(3):
        inner: list[Path] = []
        for folder in folders:
            try:
                entries = list(os.scandir(folder))
            except FileNotFoundError:
                continue
            except OSError as error:
                logger.warning("cannot list drafts folder %s: %s", folder.name, error)
                continue
            for entry in entries:
                if depth in {0, 2} and _is_draft_name(entry.name):
                    found.append(entry)
                elif depth < 2 and entry.is_dir(follow_symlinks=False):
                    inner.append(Path(entry.path))
        folders = inner
    return found


def _written_at(entry: os.DirEntry[str]) -> float | None:
    """When ``entry`` was last written (``time.time()`` seconds), None for no regular file or
    one that cannot be looked at."""
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    return info.st_mtime if stat.S_ISREG(info.st_mode) else None


def _written_since(entry: os.DirEntry[str], moment: float) -> bool:
    """Whether ``entry`` is a regular file last written after ``moment`` (``time.time()``
    seconds): a draft written within the TTL, which a sweep need not read. Each create swept
    by reading and decoding every draft file, so N live drafts of up to a request body each
    (1 MiB) made every create read N MiB: 200 drafts of 900 KB took 0.7 s a create, 77 s in
    all, growing with the square of the count. A stat is a few microseconds."""
    written = _written_at(entry)
    return written is not None and written > moment


class DraftStore:
    """The drafts of one data dir; ``ttl`` is in seconds, ``clock`` returns aware UTC time."""

    def __init__(
        self, data_dir: Path, ttl: float, clock: Callable[[], datetime] = _utc_now
    ) -> None:
        self.directory = data_dir / DRAFTS_DIR
        self.ttl = ttl
        self.clock = clock

    def _path(self, project: str, agent: str, draft_id: str) -> Path:
        """Where the draft ``draft_id`` of ``agent`` in ``project`` is kept (ids checked)."""
        return self.directory / project / agent / f"{check_draft_id(draft_id)}.json"

    def _earlier_path(self, draft_id: str) -> Path:
        """Where a service before the per-agent folders kept the draft ``draft_id``."""
        return self.directory / f"{check_draft_id(draft_id)}.json"

    def _expired(self, draft: Draft, now: datetime) -> bool:
        try:
            return datetime.fromisoformat(draft.expires_at) <= now
        except ValueError:
            return True

    async def create(self, project: str, agent: str, body: DraftCreate) -> Draft:
        """Store a new draft for ``agent`` of ``project`` and return it (ids already checked).

        Raises :class:`BadRequest` for an empty prompt, one holding a hidden character (I-9)
        or a workspace path that Session start would refuse (relative, control characters, too
        long; ``check_workspace_path``), and :class:`Unavailable` (503) when its folder cannot
        be written. Expired drafts are swept on the way.
        """
        _check_body(body)
        now = self.clock()
        draft = Draft(
            id=uuid.uuid4().hex,
            project=project,
            agent=agent,
            prompt=body.prompt,
            workspace=body.workspace,
            created_at=utc_timestamp(now),
            expires_at=utc_timestamp(now + timedelta(seconds=self.ttl)),
        )
        await asyncio.to_thread(self._write, draft)
        await self.sweep()
        return draft

    def _write(self, draft: Draft) -> None:
        """Keep ``draft`` as its file; :class:`Unavailable` (503) naming the drafts folder when
        the operating system refuses (no permission, a full disk): the answer said only that
        "the data dir could not be used", and which part of it an operator had to guess."""
        path = self._path(draft.project, draft.agent, draft.id)
        try:
            make_dirs(path.parent, data_folder_mode())
            self._make_room(path.parent)
            atomic_write_bytes(path, _encoder.encode(draft), mode=0o600)
        except OSError as error:
            raise Unavailable(
                "the draft was not kept: the data dir's drafts folder cannot be written "
                f"({error.strerror or error}): "
                f"{write_fix(error, 'write access to it (its owner and mode)')}, then try again"
            ) from None

    def _make_room(self, folder: Path) -> None:
        """Raise :class:`TooMany` when the agent's ``folder`` holds :data:`DRAFTS_PER_AGENT`
        drafts written within the TTL (a ``stat`` each, none read); its expired ones are
        removed first by the sweep that follows each create."""
        now = self.clock().timestamp()
        live = [
            written
            for entry in os.scandir(folder)
            if _is_draft_name(entry.name)
            and (written := _written_at(entry)) is not None
            and written > now - self.ttl
        ]
        if len(live) >= DRAFTS_PER_AGENT:
            wait = math.ceil(min(live) + self.ttl - now)
            raise TooMany(
                f"the draft was not kept: the agent has {len(live)} live drafts, the most it "
                f"keeps ({DRAFTS_PER_AGENT}); each expires {self.ttl:g} s after it was made, "
                f"the oldest in {max(wait, 1)} s: fetch or wait for those, then try again",
                wait,
            )

    def _read(self, project: str, agent: str, draft_id: str) -> Draft:
        path = self._path(project, agent, draft_id)
        missing = NotFound(f"no draft {draft_id!r} for agent {agent!r} (it may have expired)")
        try:
            try:
                draft = _load(path)
            except FileNotFoundError:  # kept by a service before the per-agent folders?
                path = self._earlier_path(draft_id)
                draft = _load(path)
        except FileNotFoundError:
            raise missing from None
        except OSError as error:
            if isinstance(error, NotRegularFileError) or error.errno == errno.ELOOP:
                # a folder, a FIFO, a symlink in a draft's place: no draft the service wrote
                logger.warning("ignoring draft entry %s: %s", path.name, error)
                raise missing from None
            raise CannotRead(  # there, or cannot tell: never "it may have expired" (Q-2b)
                f"draft {draft_id!r} cannot be looked up: the service {cannot_read(error)}"
            ) from None
        if draft is None or self._expired(draft, self.clock()):
            _remove(path)
            raise missing
        if draft.project != project or draft.agent != agent:
            raise missing
        return draft

    async def get(self, project: str, agent: str, draft_id: str) -> Draft:
        """Return a live draft of ``agent`` in ``project``.

        Raises :class:`BadRequest` for a malformed id, :class:`NotFound` for an unknown,
        expired (then deleted) or other agent's draft, or an entry in a draft's place that is
        no regular file (a folder, a FIFO, a symlink), and :class:`CannotRead` (503) when the
        draft or its folder cannot be read, whatever the reason the kernel gives (no
        permission, an I/O error, a network mount gone stale, no descriptor left), Q-2b.
        """
        return await asyncio.to_thread(self._read, project, agent, draft_id)

    def _sweep(self) -> int:
        now = self.clock()
        written_live = now.timestamp() - self.ttl
        removed = 0
        for entry in _draft_entries(self.directory):
            if _written_since(entry, written_live):
                continue  # live: its expiry is read when it is asked for (_read)
            try:
                draft = _load(Path(entry.path))
            except OSError as error:  # gone meanwhile, or no regular file: never removed here
                if not isinstance(error, FileNotFoundError):
                    logger.warning("ignoring draft entry %s: %s", entry.name, error)
                continue
            if (draft is None or self._expired(draft, now)) and _remove(Path(entry.path)):
                removed += 1
        return removed

    async def sweep(self) -> int:
        """Delete every expired or unreadable draft written longer than the TTL ago (one
        written since is live, or removed when it is asked for); return how many were removed."""
        return await asyncio.to_thread(self._sweep)
