"""``memory-api demo seed``: a demo agent with real memories to look at (Q-1).

Creates project ``demo`` with agent ``demo`` (the default template: ``{{MEMORY}}``, the
``# Environment`` section with the Workspace Memory Key, app data dir, agent id and CWD lines),
then fills its scopes from a corpus folder shaped like ``tests/data/corpus``:

==============================  ==============================================================
``<corpus>/user-scope``         the user scope
``<corpus>/coding-agent-        the Workspace scope of ``<data_dir>/demo-workspaces/shop-api``
workspace``
``<corpus>/large-index``        the Workspace scope of ``<data_dir>/demo-workspaces/data-platform``
==============================  ==============================================================

The demo Workspaces are real directories, so their keys are derived exactly as a Session would
(K-1) and their ``.workspace`` markers name them (K-5). Seeding is idempotent and never
overwrites: an existing agent is kept, and each file is created only where none exists (an
atomic create, so even a file written meanwhile by an agent survives).
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from memory_core.keys import USER_SCOPE
from memory_core.layout import scope_dir
from memory_core.wire import AgentCreate

from memory_api.errors import Conflict
from memory_api.store.agents import AgentStore
from memory_api.store.containment import checked_memory_root
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.sessions import ensure_workspace_scope

__all__ = ["DEMO_AGENT", "DEMO_PROJECT", "DEMO_WORKSPACES", "SeedReport", "seed_demo"]

DEMO_PROJECT = "demo"
DEMO_AGENT = "demo"
DEMO_NAME = "Demo agent"
DEMO_WORKSPACES_DIR = "demo-workspaces"
DEMO_WORKSPACES: tuple[tuple[str, str], ...] = (
    ("coding-agent-workspace", "shop-api"),
    ("large-index", "data-platform"),
)
"""(corpus folder, demo Workspace directory name) pairs seeded into Workspace scopes."""


@dataclass(slots=True)
class SeedReport:
    """What a seed did: whether the agent was created, files copied / kept, scopes by key."""

    agent_created: bool = False
    copied: int = 0
    kept: int = 0
    scopes: dict[str, Path] = field(default_factory=dict)


_UPDATED_AT = re.compile(rb"(?m)^(updated_at:[ \t]*[\"']?)(\d{4}-\d{2}-\d{2})")


def _not_in_future(data: bytes, today: date) -> bytes:
    """``data`` with an ``updated_at`` date later than ``today`` set to ``today``.

    The corpus was written ahead of time; a demo that shows memories updated next month looks
    broken. Only the date is touched; the rest of the file stays byte for byte.
    """

    def clamp(match: re.Match[bytes]) -> bytes:
        when = match.group(2).decode()
        if when <= today.isoformat():
            return match.group(0)
        return match.group(1) + today.isoformat().encode()

    return _UPDATED_AT.sub(clamp, data, count=1)


def _copy_folder(source: Path, target: Path, report: SeedReport) -> None:
    """Copy the regular, non-hidden files directly in ``source`` into ``target``, never
    overwriting; no ``updated_at`` is left in the future."""
    target.mkdir(parents=True, exist_ok=True)
    today = datetime.now(UTC).date()
    for entry in sorted(os.scandir(source), key=lambda item: item.name):
        if entry.name.startswith(".") or not entry.is_file(follow_symlinks=False):
            continue
        data = _not_in_future(Path(entry.path).read_bytes(), today)
        if create_new_bytes(target / entry.name, data):
            report.copied += 1
        else:
            report.kept += 1


def _seed_files(data_dir: Path, corpus: Path, report: SeedReport) -> dict[str, Path]:
    """Copy the corpus folders into the demo agent's scopes; blocking."""
    scopes: dict[str, Path] = {}
    user = scope_dir(data_dir, DEMO_AGENT, USER_SCOPE)
    _copy_folder(corpus / "user-scope", user, report)
    root = checked_memory_root(data_dir, DEMO_AGENT)
    scopes[USER_SCOPE] = user
    for folder, name in DEMO_WORKSPACES:
        source = corpus / folder
        if not source.is_dir():
            continue
        workspace = data_dir / DEMO_WORKSPACES_DIR / name
        workspace.mkdir(parents=True, exist_ok=True)
        # The scope and its marker as a first Session there would make them (K-1, K-5).
        key, scope = ensure_workspace_scope(root, os.path.realpath(workspace))
        if scope is None:
            continue
        _copy_folder(source, scope, report)
        scopes[key] = scope
    return scopes


async def seed_demo(store: AgentStore, corpus: Path) -> SeedReport:
    """Create (or keep) the demo agent and copy the corpus into its scopes; return a report.

    Raises ``FileNotFoundError`` when ``corpus`` has no ``user-scope`` folder, and
    :class:`~memory_api.errors.NotFound` when the id ``demo`` belongs to another project.
    """
    if not (corpus / "user-scope").is_dir():
        raise FileNotFoundError(f"{corpus} has no user-scope folder; is it a corpus?")
    report = SeedReport()
    try:
        await store.create(DEMO_PROJECT, AgentCreate(id=DEMO_AGENT, name=DEMO_NAME))
        report.agent_created = True
    except Conflict:
        await store.get(DEMO_PROJECT, DEMO_AGENT)  # NotFound if it is another project's
    report.scopes = await asyncio.to_thread(_seed_files, store.data_dir, corpus, report)
    return report
