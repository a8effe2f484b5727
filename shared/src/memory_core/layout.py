"""Paths inside the data dir, derived only from checked ids (see docs/architecture.md).

Every function re-checks the ids it is given (K-7) before joining them into a path, so a path
built here can never step outside the directory it names; nothing here touches the disk.

>>> str(scope_dir(Path("/data"), "coder", "user"))
'/data/agents/coder/agent_state/memory/user'
"""

from __future__ import annotations

import functools
from pathlib import Path

from memory_core.errors import InvalidId
from memory_core.keys import check_agent_id, check_scope_key

__all__ = [
    "AGENTS_DIR",
    "INDEX_FILE",
    "MARKER_FILE",
    "MOUNT_FILE",
    "NOT_A_FOLDER",
    "NOT_VISIBLE_FILE",
    "SERVICE_FOLDERS",
    "SIDE_FILES",
    "agent_dir",
    "app_data_dir_of",
    "history_root",
    "memory_root",
    "memory_root_parts",
    "scope_dir",
    "service_owned",
    "workspaces_dir",
]

AGENTS_DIR = "agents"
NOT_A_FOLDER = "found something that is not a folder in its folder's place"
"""What is wrong with a scope whose folder's place holds a file, a FIFO, a socket or a symlink
that does not lead to another scope folder of the memory root (dangling, a loop, out of the
root, to a file) (K-6): there is a scope, it cannot be used. In words that follow "the service …"
or "Agent Memory …", as a Session start (the service's and the plugin's from the files), the
files routes (503), the overview, a search and a checkpoint say it."""
WORKSPACES_DIR = "workspaces"
SERVICE_FOLDERS = (AGENTS_DIR, "tokens", "drafts", "locks", "memo", "search", "overview")
"""The top folders of a data dir that the memory service alone writes: under ``agents/``
every agent's ``agent.json``, memory and history; the bearer tokens; drafts; locks; the
listing memo, search indexes and scope records. See :func:`service_owned`."""
INDEX_FILE = "MEMORY.md"
"""A scope's index (T-4); never a topic file."""
MARKER_FILE = ".workspace"
"""A Workspace scope's marker: the Workspace's real path, UTF-8, one line (K-5)."""
NOT_VISIBLE_FILE = ".workspace-not-visible"
"""Beside the marker while the Workspace was not there for the service at its latest Session
start (the harness in another mount namespace, K-6a): its path missing then means "not visible
from the service", not "orphaned". Empty; removed by a Session start that sees the Workspace."""
MOUNT_FILE = ".workspace-mount"
"""Beside the marker once a Session start saw the Workspace: the mount point of the filesystem
it lies on (an external drive, a share, a container's volume; ``/`` for the root one), UTF-8,
then that filesystem's ``st_dev`` (decimal) on a second line; rewritten by a Session start that
sees the Workspace on another filesystem.
Its path missing while that mount point is not mounted means "not visible from the service",
not "orphaned" (K-6a)."""
SIDE_FILES = (NOT_VISIBLE_FILE, MOUNT_FILE)
"""The files the service keeps beside a scope's marker about what it saw of the Workspace
(K-6a): true of this service's disks only, so never exported, and skipped without a word by an
import that finds them (an archive from before they were left out)."""


def agent_dir(app_data_dir: Path, agent_id: str) -> Path:
    """Return ``<app_data_dir>/agents/<agent_id>``; raises ``InvalidId`` for a bad agent id."""
    return app_data_dir / AGENTS_DIR / check_agent_id(agent_id)


def memory_root(app_data_dir: Path, agent_id: str) -> Path:
    """Return the memory root ``<app_data_dir>/agents/<agent_id>/agent_state/memory``."""
    return app_data_dir.joinpath(*memory_root_parts(agent_id))


def memory_root_parts(agent_id: str) -> tuple[str, str, str, str]:
    """The folders from the data dir down to the memory root of ``agent_id``, in order;
    raises ``InvalidId`` for a bad agent id."""
    return (AGENTS_DIR, check_agent_id(agent_id), "agent_state", "memory")


def history_root(app_data_dir: Path, agent_id: str) -> Path:
    """Return ``<app_data_dir>/agents/<agent_id>/agent_state/history``: the scopes' histories
    (V-1), one git repository ``<key>.git`` per scope, beside the memory root, never in it."""
    return agent_dir(app_data_dir, agent_id) / "agent_state" / "history"


@functools.lru_cache(maxsize=64)  # a guard asks it of its memory root for each path (H-5)
def app_data_dir_of(root: Path) -> Path | None:
    """Return the data dir of a memory root (the inverse of :func:`memory_root`), or None
    when ``root`` is not shaped ``<app_data_dir>/agents/<agent_id>/agent_state/memory``.

    >>> str(app_data_dir_of(Path("/data/agents/coder/agent_state/memory")))
    '/data'
    >>> app_data_dir_of(Path("/elsewhere/memory")) is None
    True
    >>> app_data_dir_of(Path("/data/agents/Not An Id/agent_state/memory")) is None
    True
    """
    parents = root.parents
    if len(parents) < 4:
        return None
    try:
        shaped = memory_root(parents[3], parents[1].name) == root
    except InvalidId:
        return None
    return parents[3] if shaped else None


def scope_dir(app_data_dir: Path, agent_id: str, key: str) -> Path:
    """Return a scope directory under the memory root; ``key`` is ``user`` or a Workspace key.

    Raises ``InvalidId`` (kind ``agent`` or ``scope``) before building anything.
    """
    return memory_root(app_data_dir, agent_id) / check_scope_key(key)


def workspaces_dir(app_data_dir: Path, agent_id: str) -> Path:
    """Return ``<app_data_dir>/agents/<agent_id>/workspaces``: temporary Workspaces (K-4)."""
    return agent_dir(app_data_dir, agent_id) / WORKSPACES_DIR


def service_owned(parts: tuple[str, ...]) -> bool:
    """Whether a path whose parts below a data dir are ``parts`` is the memory service's
    own (P-3: no file tool of an agent writes there): the data dir itself (``parts`` empty:
    removing, moving or unpacking into it reaches every folder in it) and anything in
    :data:`SERVICE_FOLDERS` but a temporary Workspace (``agents/<id>/workspaces/…``, K-4, where
    agents work).

    >>> service_owned(("tokens", "t.json")), service_owned(("agents", "b", "agent.json"))
    (True, True)
    >>> service_owned(("agents", "a", "workspaces", "job", "x.py")), service_owned(("demo",))
    (False, False)
    >>> service_owned(())
    True

    A folder's name is compared in any letter case (``TOKENS`` is ``tokens`` on a
    case-insensitive disk, macOS's default); the temporary Workspaces only as spelled.

    >>> service_owned(("Tokens", "t.json")), service_owned(("AGENTS", "a", "workspaces", "j"))
    (True, True)
    """
    if not parts:
        return True
    if parts[0].casefold() not in SERVICE_FOLDERS:
        return False
    return not (parts[0] == AGENTS_DIR and len(parts) >= 3 and parts[2] == WORKSPACES_DIR)
