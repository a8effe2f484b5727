"""``memory-api demo seed``: a demo agent with real memories to look at (Q-1).

Creates project ``demo`` with agent ``demo`` (the default template: ``{{MEMORY}}``, the
``# Environment`` section with the Workspace Memory Key, data dir, agent id and CWD lines),
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

Nor does it bring back what the user deleted. ``make run`` seeds on every start, and a memory
deleted on the page (its index line pruned with it) came back on the next run as a topic file
no index line names. The seed marker, ``agents/demo/demo-seed.json`` beside the agent's
config, records every file a seed has placed in each scope (by scope key); a file the marker
names that is no longer there was deleted since, and stays deleted. A file new in the corpus
is still copied. Deleting the demo agent's folder (or the data dir) starts over.

A checkout moved with ``make run``'s ``.data`` in it moves the demo Workspaces too, and a key is
derived from the Workspace's path (K-1): seeding made two more Workspace scopes under new keys,
the demo's memories twice on the page. So the marker also records which scope is which demo
Workspace (``workspaces``: name → key), and a seed fills the scope recorded there while it is
a folder of the memory root whose ``.workspace`` marker (K-5) names ``…/demo-workspaces/<name>``,
whatever path the Workspace has now. A marker from before it kept them is read through the
scopes it lists, by the same ``.workspace`` check: a marker that names a user's own scope adds
no demo file to it. A Session started in a moved demo folder gets a scope of its own,
as any Workspace at a new path does.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from memory_core import json_text
from memory_core.atomic import atomic_write_bytes, data_folder_mode, make_dirs
from memory_core.keys import USER_SCOPE, WORKSPACE_KEY_PATTERN, key_for_real_path
from memory_core.layout import agent_dir, scope_dir
from memory_core.wire import AgentCreate

from memory_api.errors import Conflict
from memory_api.store.agents import AgentStore
from memory_api.store.containment import checked_memory_root
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.scopes import read_marker, vanished_root
from memory_api.store.sessions import ensure_workspace_scope

__all__ = [
    "DEMO_AGENT",
    "DEMO_MEMORY_TAB",
    "DEMO_PROJECT",
    "DEMO_WORKSPACES",
    "SeedReport",
    "demo_seeded",
    "seed_demo",
]

DEMO_PROJECT = "demo"
DEMO_AGENT = "demo"
DEMO_NAME = "Demo agent"
DEMO_WORKSPACES_DIR = "demo-workspaces"
DEMO_WORKSPACES: tuple[tuple[str, str], ...] = (
    ("coding-agent-workspace", "shop-api"),
    ("large-index", "data-platform"),
)
"""(corpus folder, demo Workspace directory name) pairs seeded into Workspace scopes."""
SEED_MARKER = "demo-seed.json"
"""The seed marker in the demo agent's folder: ``{"seeded": {scope key: [file names]},
"workspaces": {demo Workspace name: scope key}}``."""
_WORKSPACE_KEY = re.compile(WORKSPACE_KEY_PATTERN)
DEMO_MEMORY_TAB = f"/projects/{DEMO_PROJECT}/agents/{DEMO_AGENT}/memory"
"""The page's route (the part after ``#``) of the demo agent's Memory tab."""


@dataclass(slots=True)
class SeedReport:
    """What a seed did: whether the agent was created, files copied / kept / left out because
    the user deleted them after an earlier seed (``declined``), scopes by key."""

    agent_created: bool = False
    copied: int = 0
    kept: int = 0
    declined: int = 0
    scopes: dict[str, Path] = field(default_factory=dict)
    vanished: str | None = None
    """Why nothing was seeded: the demo agent's memory root is gone while its history holds
    scopes (:func:`~memory_api.store.scopes.vanished_root`); it is never made again here."""


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


def _read_marker(path: Path) -> tuple[dict[str, set[str]], dict[str, str]]:
    """``(files, workspaces)``: the files earlier seeds placed, by scope key, and the scope key
    of each demo Workspace by its name; both {} when there is no readable marker."""
    try:
        body = json_text.loads(path.read_bytes())
        seeded, workspaces = body.get("seeded", {}), body.get("workspaces", {})
    except (OSError, ValueError, AttributeError):
        return {}, {}
    files = {
        str(key): {name for name in names if isinstance(name, str)}
        for key, names in (seeded.items() if isinstance(seeded, dict) else ())
        if isinstance(names, list)
    }
    named = {
        str(name): key
        for name, key in (workspaces.items() if isinstance(workspaces, dict) else ())
        if isinstance(key, str) and _WORKSPACE_KEY.fullmatch(key)
    }
    return files, named


def _write_marker(path: Path, seeded: dict[str, set[str]], workspaces: dict[str, str]) -> None:
    body = {
        "seeded": {key: sorted(names) for key, names in sorted(seeded.items())},
        "workspaces": dict(sorted(workspaces.items())),
    }
    atomic_write_bytes(path, json.dumps(body, indent=1).encode() + b"\n")


def _earlier_scope(
    root: Path, name: str, key: str | None, seeded: dict[str, set[str]]
) -> str | None:
    """The key of the scope an earlier seed made for the demo Workspace ``name``: ``key`` (the
    marker's record of it), else one of the scopes the marker lists (a marker from before it
    recorded them), whichever first is a folder of the memory ``root`` whose ``.workspace``
    names a ``demo-workspaces/<name>`` folder; None when there is none. A marker naming
    another scope (a user's own Workspace) never has demo files put into it."""
    listed = [key] if key is not None else []
    listed += [scope for scope in sorted(seeded) if scope != key]
    for candidate in listed:
        if _is_demo_scope(root, candidate, name):
            return candidate
    return None


def _is_demo_scope(root: Path, key: str, name: str) -> bool:
    """Whether ``root / key`` is a Workspace scope folder (no link) whose ``.workspace`` (K-5)
    names the demo Workspace ``…/demo-workspaces/<name>``."""
    if key == USER_SCOPE or not _WORKSPACE_KEY.fullmatch(key):
        return False
    scope = root / key
    if scope.is_symlink() or not scope.is_dir():
        return False
    named = read_marker(root, scope, key).path
    return named is not None and Path(named).parts[-2:] == (DEMO_WORKSPACES_DIR, name)


def _copy_folder(source: Path, target: Path, report: SeedReport, seeded: set[str]) -> None:
    """Copy the regular, non-hidden files directly in ``source`` into ``target``, never
    overwriting, and never a file in ``seeded`` that is gone (deleted since it was placed);
    add the names placed to ``seeded``. No ``updated_at`` is left in the future."""
    make_dirs(target, data_folder_mode())  # owner-only whatever the umask
    today = datetime.now(UTC).date()
    for entry in sorted(os.scandir(source), key=lambda item: item.name):
        if entry.name.startswith(".") or not entry.is_file(follow_symlinks=False):
            continue
        if entry.name in seeded and not os.path.lexists(target / entry.name):
            report.declined += 1
            continue
        data = _not_in_future(Path(entry.path).read_bytes(), today)
        if create_new_bytes(target / entry.name, data):
            report.copied += 1
        else:
            report.kept += 1
        seeded.add(entry.name)


def _seed_files(data_dir: Path, corpus: Path, report: SeedReport) -> dict[str, Path]:
    """Copy the corpus folders into the demo agent's scopes, minding the seed marker; blocking."""
    marker = agent_dir(data_dir, DEMO_AGENT) / SEED_MARKER
    seeded, workspaces = _read_marker(marker)
    scopes: dict[str, Path] = {}
    root = checked_memory_root(data_dir, DEMO_AGENT)
    report.vanished = vanished_root(root)
    if report.vanished is not None:  # remade empty, the next Session start records all removed
        return scopes
    user = scope_dir(data_dir, DEMO_AGENT, USER_SCOPE)
    _copy_folder(corpus / "user-scope", user, report, seeded.setdefault(USER_SCOPE, set()))
    scopes[USER_SCOPE] = user
    for folder, name in DEMO_WORKSPACES:
        source = corpus / folder
        if not source.is_dir():
            continue
        workspace = data_dir / DEMO_WORKSPACES_DIR / name
        workspace.mkdir(parents=True, exist_ok=True)
        real = os.path.realpath(workspace)
        earlier = _earlier_scope(root, name, workspaces.get(name), seeded)
        scope: Path | None = None
        if earlier is not None and earlier != key_for_real_path(real):  # the path moved since
            key, scope = earlier, root / earlier
        else:  # the scope and its marker as a first Session there would make them (K-1, K-5)
            key, scope = ensure_workspace_scope(root, real)
        if scope is None:
            continue
        _copy_folder(source, scope, report, seeded.setdefault(key, set()))
        scopes[key] = scope
        workspaces[name] = key
    _write_marker(marker, seeded, workspaces)
    return scopes


def demo_seeded(data_dir: Path) -> bool:
    """Whether ``data_dir`` holds the demo agent as a seed left it (its seed marker is there):
    ``serve`` then logs the demo agent's Memory tab address once it listens (Q-1). A folder
    that cannot be looked at counts as no demo (False), never an error: ``serve`` asks this
    while starting, and an agent's folder it may not enter must not stop it."""
    try:
        return (agent_dir(data_dir, DEMO_AGENT) / SEED_MARKER).is_file()
    except OSError:
        return False


async def seed_demo(store: AgentStore, corpus: Path) -> SeedReport:
    """Create (or keep) the demo agent and copy the corpus into its scopes; return a report.

    A demo agent whose memory root is gone while its history holds scopes is left as it is
    (nothing made nor copied) and the report's ``vanished`` says why (V-1, Q-2b).
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
