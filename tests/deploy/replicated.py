"""The pieces of the replicated stand-in (Q-4): a seeded mixed workload, an agent, a snapshot.

- :func:`workload` builds a fixed, shuffled list of requests: Session starts, listings, reads,
  deletes of a third of the user scope's topic files, template placeholder inserts;
- :func:`run` sends them through one base URL with bounded concurrency, one connection per
  request, retrying a request whose connection dropped (a replica killed under it) on a fresh
  connection, which the balancer hands to a live replica;
- :class:`Agent` is the agent's side: a thread that writes topic files and appends their index
  lines to the user scope's ``MEMORY.md`` with plain file calls and no lock, as file tools do;
- :func:`snapshot` is what "the same result" means: every file of the agent's memory root (its
  bytes; the service's temporary files aside) and what the API answers about it.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import filelock
from memory_api.store.locks import lock_name
from memory_api.stores import LOCKS_DIR
from memory_core import layout

from tests.api.conftest import PLAIN_TEMPLATE, copy_corpus, corpus_topics, file_url, memory_url

PROJECT = "acme"
AGENT = "coder"
LEGACY = "legacy"
CORPUS = "large-index"
WORKSPACES = 3
TOKEN = "ops-0123456789abcdef0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
"""Every request carries the token the processes read from ``MEMORY_API_TOKENS_FILE``."""
ATTEMPTS = 6
"""How often one request is sent before the run fails: a dropped connection is retried."""
RETRY_PAUSE_S = 0.05


@dataclass(frozen=True)
class Request:
    """One request of the workload; ``gone_ok`` lets a 404 stand for "already done"."""

    kind: str
    method: str
    path: str
    body: dict[str, Any] | None = None
    gone_ok: bool = False


@dataclass
class Outcome:
    """What a run saw: statuses by request kind, dropped connections retried, elapsed time."""

    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    retried: int = 0
    elapsed_s: float = 0.0
    requests: int = 0


def tokens_file(directory: Path) -> Path:
    """Write the token file every process reads (as the Kubernetes Secret is mounted)."""
    path = directory / "tokens"
    path.write_text(f"# the operators' token\nops={TOKEN}\n", encoding="utf-8")
    return path


def victims() -> list[str]:
    """The topic files the workload deletes from the user scope: every third one."""
    return corpus_topics(CORPUS)[::3]


def workspace_dirs(base: Path) -> list[Path]:
    """The Workspaces the Sessions start in (made here; the same paths for every run)."""
    dirs = [base / f"repo-{number}" for number in range(WORKSPACES)]
    for directory in dirs:
        directory.mkdir(parents=True, exist_ok=True)
    return dirs


def workload(workspaces: list[Path], seed: int = 16) -> list[Request]:
    """The mixed workload, shuffled with ``seed``: the same list for every run."""
    topics = corpus_topics(CORPUS)
    dead = victims()
    kept = sorted(set(topics) - set(dead))
    base = memory_url(agent=AGENT, project=PROJECT)
    requests = [Request("delete", "DELETE", file_url("user", name), gone_ok=True) for name in dead]
    requests += [
        Request(
            "session", "POST", f"{base}/session-start", {"workspace": str(ws), "sessionId": f"s{n}"}
        )
        for n, ws in enumerate(workspaces * 12)
    ]
    for number in range(20):
        requests += [
            Request("list", "GET", base),
            Request("list", "GET", f"{base}/scopes/user/files"),
            Request("list", "GET", f"{base}/scopes/user/index"),
        ]
        requests.append(Request("read", "GET", file_url("user", kept[number * 7 % len(kept)])))
        requests.append(Request("read", "GET", file_url("user", dead[number]), gone_ok=True))
    insert = memory_url(agent=LEGACY, project=PROJECT) + "/template-placeholder"
    requests += [Request("insert", "POST", insert) for _ in range(10)]
    random.Random(seed).shuffle(requests)  # noqa: S311 - a reproducible order, not a secret
    return requests


async def prepare(base_url: str, data_dir: Path) -> None:
    """Create the agents and copy the sample index into the user scope (before any workload)."""
    async with aiohttp.ClientSession(headers=AUTH) as session:
        for agent, template in ((AGENT, None), (LEGACY, PLAIN_TEMPLATE)):
            body: dict[str, Any] = {"id": agent, "name": agent.title()}
            if template is not None:
                body["template"] = template
            async with session.post(f"{base_url}/api/projects/{PROJECT}/agents", json=body) as r:
                assert r.status == 201, await r.text()
    copy_corpus(CORPUS, layout.scope_dir(data_dir, AGENT, "user"))


async def _send(session: aiohttp.ClientSession, base_url: str, request: Request) -> tuple[int, int]:
    """Send ``request`` until it gets an answer; return (status, dropped connections)."""
    for attempt in range(ATTEMPTS):
        try:
            async with session.request(
                request.method, base_url + request.path, json=request.body
            ) as response:
                await response.read()
                return response.status, attempt
        except (TimeoutError, aiohttp.ClientConnectionError):
            await asyncio.sleep(RETRY_PAUSE_S)
    raise AssertionError(f"{request.method} {request.path}: no answer in {ATTEMPTS} attempts")


async def run(
    base_url: str,
    requests: list[Request],
    *,
    concurrency: int = 8,
    after: tuple[int, Callable[[], None]] | None = None,
) -> Outcome:
    """Send ``requests`` through ``base_url``; ``after = (n, action)`` runs ``action`` once n
    requests have been answered (the replica kill). Asserts every answer is 2xx (or 404 where
    ``gone_ok``) — never a 5xx, never a dropped request."""
    outcome = Outcome(requests=len(requests))
    gate = asyncio.Semaphore(concurrency)
    answered = 0
    connector = aiohttp.TCPConnector(force_close=True, limit=concurrency)
    timeout = aiohttp.ClientTimeout(total=30)

    async def one(session: aiohttp.ClientSession, request: Request) -> None:
        nonlocal answered
        async with gate:
            status, dropped = await _send(session, base_url, request)
        outcome.statuses[request.kind, status] += 1
        outcome.retried += dropped
        ok = status < 300 or (status == 404 and request.gone_ok)
        assert ok, f"{request.method} {request.path} answered {status}"
        answered += 1
        if after is not None and answered == after[0]:
            after[1]()

    started = time.monotonic()
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, headers=AUTH) as session:
        await asyncio.gather(*(one(session, request) for request in requests))
    outcome.elapsed_s = time.monotonic() - started
    return outcome


@dataclass
class Agent:
    """The agent writing its own memory while the service works: ``notes`` topic files, each
    followed by its index line appended to the user scope's ``MEMORY.md`` (open, append, close),
    ``pause_s`` apart. ``lines`` are the index lines written, in order."""

    scope: Path
    notes: int = 60
    pause_s: float = 0.01
    lines: list[str] = field(default_factory=list)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin writing in a thread."""
        self._thread = threading.Thread(target=self._write, name="agent", daemon=True)
        self._thread.start()

    def join(self) -> None:
        """Wait until every note is written."""
        assert self._thread is not None
        self._thread.join(timeout=60)
        assert not self._thread.is_alive(), "the agent did not finish its notes"

    def _write(self) -> None:
        for number in range(self.notes):
            name = f"agent-note-{number:03d}.md"
            body = f"---\ndescription: learned during run {number}\n---\nNote {number}.\n"
            (self.scope / name).write_text(body, encoding="utf-8")
            line = f"- [agent note {number}]({name}) — learned while the replicas served"
            with (self.scope / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
                index.write(line + "\n")
            self.lines.append(line)
            time.sleep(self.pause_s)


def _is_temporary(name: str) -> bool:
    """The service's own leftovers: atomic-write temp files, hidden, never listed (A-5)."""
    return name.startswith(".") and name != layout.MARKER_FILE


def memory_files(data_dir: Path) -> tuple[dict[str, bytes], list[str]]:
    """Every file of every agent's memory root by relative path, and the temporary files."""
    files: dict[str, bytes] = {}
    temporary: list[str] = []
    agents = data_dir / layout.AGENTS_DIR
    for agent in (AGENT, LEGACY):
        root = layout.memory_root(data_dir, agent)
        for directory, _, names in os.walk(root):
            for name in names:
                path = Path(directory) / name
                relative = str(path.relative_to(agents))
                if _is_temporary(name):
                    temporary.append(relative)
                else:
                    files[relative] = path.read_bytes()
    return files, temporary


async def api_view(base_url: str) -> dict[str, Any]:
    """What the API says about the agents, times and per-process caches left out."""
    async with aiohttp.ClientSession(headers=AUTH) as session:

        async def get(path: str) -> Any:
            async with session.get(base_url + path) as response:
                assert response.status == 200, await response.text()
                return await response.json()

        base = memory_url(agent=AGENT, project=PROJECT)
        overview = await get(base)
        # Workspaces are ordered by newest activity, which timing decides: compared by key.
        # How many versions a history holds depends on timing too (Session-start records of
        # one scope are gathered), so its size is left out; history_problems checks histories.
        scopes = sorted(
            (
                {k: v for k, v in scope.items() if k not in ("lastActivity", "historyBytes")}
                for scope in overview["scopes"]
            ),
            key=lambda scope: str(scope["key"]),
        )
        files = {}
        for scope in overview["scopes"]:
            listing = await get(f"{base}/scopes/{scope['key']}/files")
            files[scope["key"]] = [
                (item["file"], item.get("description")) for item in listing["files"]
            ]
        config = await get(f"/api/projects/{PROJECT}/agents/{LEGACY}/config")
        index = await get(f"{base}/scopes/user/index")
        return {
            "scopes": scopes,
            "files": files,
            "index": index,
            "legacy template": config["template"],
        }


def _git(repository: Path, *args: str) -> bytes:
    command = ["git", f"--git-dir={repository}", *args]
    return subprocess.run(command, capture_output=True, check=True).stdout


async def history_problems(base_url: str, data_dir: Path) -> list[str]:
    """What is wrong with the agent's histories (V-3), after a checkpoint of every scope: a
    repository git finds damaged, two consecutive versions holding the same files (a version
    recorded twice), a newest version that is not the scope on disk (a change lost)."""
    async with aiohttp.ClientSession(headers=AUTH) as session:
        url = base_url + memory_url(agent=AGENT, project=PROJECT) + "/checkpoint"
        async with session.post(url) as response:
            assert response.status == 200, await response.text()
    problems = []
    for repository in sorted(layout.history_root(data_dir, AGENT).glob("*.git")):
        # Held as the service holds it around a record or a repack: the checkpoint's record may
        # start a repack in the background, and git fsck beside `repack -d` sees a pack vanish.
        name = lock_name("index", AGENT, repository.name.removesuffix(".git"))
        with filelock.FileLock(data_dir / LOCKS_DIR / f"{name}.lock"):
            problems += _history_problems(repository, data_dir)
    return problems


def _history_problems(repository: Path, data_dir: Path) -> list[str]:
    """The problems of one scope's history (see :func:`history_problems`)."""
    problems = []
    try:
        _git(repository, "fsck", "--no-dangling")
    except subprocess.CalledProcessError as error:
        problems.append(f"{repository.name}: fsck: {error.stderr!r}")
    trees = _git(repository, "log", "--format=%T", "main").split()
    if any(newer == older for newer, older in itertools.pairwise(trees)):
        problems.append(f"{repository.name}: a version recorded twice")
    scope = layout.memory_root(data_dir, AGENT) / repository.name.removesuffix(".git")
    names = _git(repository, "ls-tree", "-z", "--name-only", "main").split(b"\0")
    recorded = sorted(name.decode() for name in names if name)
    on_disk = sorted(
        path.name for path in scope.iterdir() if path.is_file() and not _is_temporary(path.name)
    )
    if recorded != on_disk:
        return [*problems, f"{repository.name}: newest version {recorded} != disk {on_disk}"]
    for name in on_disk:
        if _git(repository, "show", f"main:{name}") != (scope / name).read_bytes():
            problems.append(f"{repository.name}: {name} differs from its newest version")
    return problems
