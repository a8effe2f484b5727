"""The one place the stores of a data dir are built, for the service and its CLI alike.

:func:`build_stores` gives every store of one data dir, sharing one :class:`Locks`;
:func:`agent_store` the agent store alone, for a command that needs no other (``agent create``,
``agent list``: the memory, search, history and sync code is imported by :func:`build_stores`
only, a third of such a command's start); :func:`prepare_data_dir` creates the data dir's top
folders. :func:`memory_api.app.create_app`
puts the stores under their app keys; the CLI commands (``agent``, ``token``, ``demo seed``) use
them directly.
"""

from __future__ import annotations

import errno
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memory_core.atomic import data_folder_mode, make_dirs

from memory_api.settings import Settings
from memory_api.store.agents import AgentStore
from memory_api.store.drafts import DRAFTS_DIR, DraftStore
from memory_api.store.locks import Locks
from memory_api.store.tokens import TOKENS_DIR, TokenStore

if TYPE_CHECKING:
    from memory_api.store.history.service import HistoryStore
    from memory_api.store.memory import MemoryStore
    from memory_api.store.sync.service import SyncStore

__all__ = [
    "DATA_FOLDERS",
    "LOCKS_DIR",
    "Stores",
    "agent_store",
    "build_stores",
    "prepare_data_dir",
    "unusable_data_dir",
]

LOCKS_DIR = "locks"
DATA_FOLDERS = ("agents", DRAFTS_DIR, TOKENS_DIR, LOCKS_DIR)
"""The top folders of a data dir (see docs/architecture.md, "On disk")."""


@dataclass(frozen=True, slots=True)
class Stores:
    """Every store of one data dir; ``agents``, ``memory``, ``history`` and ``sync`` share
    one set of locks, ``memory``, ``history`` and ``sync`` one :class:`ScopeHistories`,
    ``memory`` and ``history`` the process's one :class:`ChangeFeed`."""

    agents: AgentStore
    memory: MemoryStore
    tokens: TokenStore
    drafts: DraftStore
    history: HistoryStore
    sync: SyncStore


def agent_store(data_dir: Path) -> AgentStore:
    """The agent store of ``data_dir``, with the data dir's locks; touches no file until used."""
    return AgentStore(data_dir, Locks(data_dir / LOCKS_DIR))


def build_stores(settings: Settings) -> Stores:
    """Build the stores of ``settings.data_dir``; touches no file until a store is used."""
    from memory_api.store.change_feed import ChangeFeed
    from memory_api.store.history.recorder import ScopeHistories
    from memory_api.store.history.service import HistoryStore
    from memory_api.store.memory import MemoryStore
    from memory_api.store.sync.service import SyncLimits, SyncStore

    data_dir = settings.data_dir
    agents = agent_store(data_dir)
    histories = ScopeHistories(data_dir, enabled=settings.history)
    feed = ChangeFeed()
    history = HistoryStore(agents, histories, feed)
    limits = SyncLimits(push_body=settings.sync_max_push, timeout=settings.sync_timeout)
    return Stores(
        agents=agents,
        memory=MemoryStore(data_dir, agents, histories=histories, feed=feed),
        tokens=TokenStore(data_dir, settings.env_tokens),
        drafts=DraftStore(data_dir, settings.draft_ttl),
        history=history,
        sync=SyncStore(history, limits),
    )


def prepare_data_dir(data_dir: Path) -> None:
    """Create the data dir and its top folders if missing, owner-only whatever the umask
    (:func:`memory_core.atomic.data_folder_mode`, A-10); folders there are left as they are
    (:mod:`memory_api.open_folders` names open ones). Raises ``OSError`` when it cannot."""
    mode = data_folder_mode()
    for name in DATA_FOLDERS:
        make_dirs(data_dir / name, mode)


_NEVER = (errno.ENOTDIR, errno.ELOOP, errno.ENAMETOOLONG)
"""What ``stat`` of a data dir path answers when no folder can ever be made there as named: a
file on the way, a symlink loop, a name too long. Anything else (``ENOENT``, ``EACCES``, ``EIO``,
a network mount gone: ``ENOTCONN``, ``ESTALE``) may pass once an operator or the mount is back."""


def unusable_data_dir(data_dir: Path) -> str | None:
    """Why ``data_dir`` can never be used as a data dir as it is named, or None when it can
    (or may, once a disk that is only unavailable for now is back: those are left to
    :func:`prepare_data_dir`, logged, and ``/readyz``). Never: the data dir or one of its top
    folders (:data:`DATA_FOLDERS`) is there and no folder (a regular file, a FIFO), or the path
    to it cannot lead to a folder (:data:`_NEVER`). Looks only; makes nothing."""
    for path in (data_dir, *(data_dir / name for name in DATA_FOLDERS)):
        try:
            info = path.stat()
        except FileNotFoundError:
            continue  # made at start
        except OSError as error:
            if error.errno in _NEVER:
                return f"{path} cannot be a folder ({error.strerror})"
            return None
        if not stat.S_ISDIR(info.st_mode):
            return f"{path} is there and is no folder"
    return None
