"""How many memories an agent holds: its topic files over every scope (A-1, W-1)."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from memory_core.counting import counted
from memory_core.keys import USER_SCOPE
from memory_core.wire import AgentList, AgentSummary, UnreadableAgentEntry

from memory_api.errors import CannotRead
from memory_api.store.agents import AgentRecord, AgentStore
from memory_api.store.containment import OutsideMemoryRoot, checked_memory_root
from memory_api.store.not_scopes import Skipped, skipped_entries
from memory_api.store.overview import folder_count
from memory_api.store.scope_records import ScopeRecordFiles, ScopeRecords
from memory_api.store.scopes import (
    NOT_A_FOLDER_WHY,
    list_folder,
    scope_blocked,
    scope_folders,
    vanished_root,
)

__all__ = ["agent_list", "agent_summaries", "count_topics"]

logger = logging.getLogger(__name__)


def count_topics(
    data_dir: Path,
    agent_id: str,
    records: ScopeRecordFiles | None = None,
    skipped: Skipped | None = None,
) -> tuple[int, str | None]:
    """Count the topic files (A-5 rules) in every scope of ``agent_id``, and say why that count
    is not the whole (None: it is); blocking. The memory root's entries that are no scope are
    added to ``skipped`` when given (they hold nothing the service reads: not counted).

    Counted from each scope folder's listing as the scope routes list it, so the count on an
    agent card always equals the rows the Memory tab shows; no topic file or index is looked
    at (a symlinked topic file is resolved). ``records`` keep each folder's count by its stat
    (one ``stat`` per unchanged scope, across restarts: the overview's records); without them
    every folder is listed now. A memory root that is missing counts 0 (nothing saved yet),
    said when the agent's history holds scopes (:func:`~.scopes.vanished_root`: moved away).
    What is there but not counted is said, never counted as no memory (Q-2b): a memory root
    redirected by a symlink or that is no folder (never read, A-7), one the service may not
    list or enter, a scope folder it may not list (the count is then of the others), a user
    scope with something that is no folder in its place (a file, a FIFO, a link out of the
    root: said in the overview's and Session start's words, never where a link leads).
    """
    try:
        root = checked_memory_root(data_dir, agent_id)
        kept = records.of(agent_id) if records is not None else ScopeRecords(None)
        total = 0
        unlisted: list[str] = []
        user_seen = False
        for key, scope in scope_folders(root, skipped):
            user_seen = user_seen or key == USER_SCOPE
            try:
                info = os.stat(scope)  # noqa: PTH116 - a string: thousands of scopes
            except FileNotFoundError:
                continue  # removed since the root was listed
            except OSError:
                unlisted.append(key)
                continue
            count = folder_count(root, scope, info, kept)
            if count == 0 and (listing := list_folder(scope)) is not None and listing.error:
                unlisted.append(key)  # 0 stands for "cannot be listed" too
            total += count
        kept.flush()
        user_blocked = not user_seen and scope_blocked(root, USER_SCOPE)
        vanished = None if user_seen else vanished_root(root)
    except OutsideMemoryRoot:
        return 0, (
            "its memory root is no plain folder (a symlink or a file in its place), which the "
            "service never reads (A-7): its memories are not counted"
        )
    except CannotRead as error:
        return 0, f"{error.what}: its memories are not counted"
    except OSError as error:  # one unreadable memory root must not break the agents list
        logger.warning("cannot count the memories of agent %s: %s", agent_id, error)
        return 0, f"its memories cannot be counted ({error.strerror or type(error).__name__})"
    reasons: list[str] = []
    if vanished is not None:
        reasons.append(f"the service {vanished}: its memories are not counted")
    if user_blocked:
        reasons.append(
            f"its scope {USER_SCOPE!r} cannot be used: the service {NOT_A_FOLDER_WHY}; "
            "what it holds is not counted"
        )
    if unlisted:
        reasons.append(
            f"{counted(len(unlisted), 'scope folder')} cannot be listed by the service, whose "
            f"memories are not counted: {', '.join(map(repr, sorted(unlisted)))}"
        )
    return total, "; ".join(reasons) or None


async def agent_summaries(
    store: AgentStore, project: str | None, kept: ScopeRecordFiles | None = None
) -> list[AgentSummary]:
    """Return the agents of ``project`` (``None``: of every project) with their memory counts.

    Sorted like :meth:`AgentStore.list`; a count is the agent's topic files over every scope
    (A-1, W-1), counted from the scope folders' listings (``kept``: the overview's records of each
    folder's count by its stat). Raises ``InvalidId`` for a malformed project id.
    """
    return await _summaries(store, await store.list(project), kept)


async def agent_list(
    store: AgentStore, project: str, kept: ScopeRecordFiles | None, *, reaches_all: bool
) -> AgentList:
    """The answer of ``GET /api/projects/{project}/agents`` (A-1): :func:`agent_summaries` of
    ``project`` and, for a caller that ``reaches_all`` projects, the agents whose
    ``agent.json`` cannot be read (Q-2b: named with why, never left out unsaid). Raises
    ``InvalidId`` for a malformed project id."""
    records, unreadable = await store.list_with_unreadable(project)
    agents = await _summaries(store, records, kept)
    if not reaches_all:
        return AgentList(agents=agents)
    named = [UnreadableAgentEntry(id=agent_id, problem=why) for agent_id, why in unreadable]
    return AgentList(agents=agents, unreadable=named)


async def _summaries(
    store: AgentStore, records: list[AgentRecord], kept: ScopeRecordFiles | None
) -> list[AgentSummary]:
    skipped = [Skipped() for _ in records]
    counts = await asyncio.to_thread(
        lambda: [
            count_topics(store.data_dir, record.id, kept, skips)
            for record, skips in zip(records, skipped, strict=True)
        ]
    )
    return [
        AgentSummary(
            id=record.id,
            project=record.project,
            name=record.name,
            memory_enabled=record.memory.enabled,
            memory_count=count,
            unreadable=why,
            skipped=skipped_entries(skips),
            skipped_count=skips.count,
        )
        for record, (count, why), skips in zip(records, counts, skipped, strict=True)
    ]
