"""The measurements that need no running service, and the HTTP cases' request shapes.

In-process: Session-start assembly (the blocking work a request runs in its worker thread)
against a raw read-and-join of the same two index files; a bare ``os.scandir`` + ``stat`` of the
big scope (the floor of a listing). Processes: each hook against ``python3 -c pass``.
"""

from __future__ import annotations

import asyncio
import compileall
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import harness_memory
import memory_core
from memory_api.store.agents import AgentRecord, AgentStore
from memory_api.store.locks import Locks
from memory_api.store.memory import MemoryStore
from memory_api.store.sessions import start_session

from bench.perf_data import AGENT, PROJECT, BenchData
from bench.perf_server import venv_bin

__all__ = [
    "hook_medians",
    "in_process_assembly",
    "median_ms",
    "scandir_stat_ms",
]

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "plugin" / "fixtures"


def median_ms(action: Callable[[], object], runs: int) -> float:
    """The median wall time of ``runs`` calls of ``action``, in milliseconds."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def in_process_assembly(data: BenchData, runs: int) -> tuple[float, float]:
    """(Session-start assembly ms, raw read-and-join ms), medians of ``runs`` after a warm-up.

    The assembly is :func:`~memory_api.store.sessions.start_session` for one Session start of
    the big Workspace after a first one, through the store's stat-keyed file cache, as the
    worker thread of a warm request runs it.
    """
    store = MemoryStore(data.data_dir, AgentStore(data.data_dir, Locks(data.data_dir / "locks")))
    record = asyncio.run(store.agents.get(PROJECT, AGENT))
    workspace = str(data.big_workspace)

    def assemble(record: AgentRecord, workspace: str) -> object:
        return start_session(store.app_data_dir, record, workspace, store.files)

    assemble(record, workspace)

    def raw() -> str:
        with data.user_index.open("rb") as user, data.big_index.open("rb") as big:
            return (user.read() + b"\n" + big.read()).decode("utf-8")

    raw()
    return median_ms(lambda: assemble(record, workspace), runs), median_ms(raw, runs)


def scandir_stat_ms(scope: Path, runs: int) -> float:
    """Median ms of a bare ``os.scandir`` + ``stat`` of every entry of ``scope``."""

    def scan() -> int:
        return sum(entry.stat().st_size for entry in os.scandir(scope))

    scan()
    return median_ms(scan, runs)


def _hook_payload(name: str, data: BenchData, memory_dir: Path) -> bytes:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    text = text.replace("__WORKSPACE__", str(data.big_workspace))
    text = text.replace("__TARGET__", str(memory_dir / "topic-0001.md"))
    json.loads(text)  # the fixture must stay valid JSON after the substitution
    return text.encode("utf-8")


def _run(command: list[str], stdin: bytes, env: dict[str, str]) -> float:
    began = time.perf_counter()
    # Our own console scripts and this interpreter, with fixed arguments.
    done = subprocess.run(command, input=stdin, env=env, capture_output=True, check=False)  # noqa: S603
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(f"{command}: exit {done.returncode}: {done.stderr.decode()[-2000:]}")
    return elapsed * 1000


def _byte_compile() -> None:
    """Write the ``.pyc`` files of our packages, as ``pip install`` does for an installed one.

    The editable install of the dev venv leaves them to the first import, and with
    ``PYTHONDONTWRITEBYTECODE`` set (as on shared CI machines) no import ever writes them: each
    hook process would then compile some thirty modules from source, a cost no installed hook
    pays. Reading them needs no write permission, so the hooks use them whatever the variable.
    """
    for package in (harness_memory, memory_core):
        folder = Path(package.__file__ or "").parent
        compileall.compile_dir(folder, quiet=1, workers=1)


def hook_medians(base_url: str, data: BenchData, state: Path, runs: int) -> dict[str, float]:
    """Median ms of ``runs`` runs: ``python3 -c pass``, the SessionStart hook, the PreToolUse
    hook (a Write into the Workspace scope, so the guard resolves the Session record)."""
    env = dict(os.environ) | {
        "HOME": str(state),
        "HARNESS_MEMORY_URL": base_url,
        "HARNESS_MEMORY_PROJECT": PROJECT,
        "HARNESS_MEMORY_AGENT": AGENT,
        "HARNESS_MEMORY_STATE_DIR": str(state / "records"),
    }
    memory_dir = data.big_index.parent
    hook = [venv_bin("harness-memory"), "hook", "claude-code"]
    start_payload = _hook_payload("session_start.json", data, memory_dir)
    tool_payload = _hook_payload("pre_tool_use_write.json", data, memory_dir)
    commands = {
        "python -c pass": ([sys.executable, "-c", "pass"], b""),
        "hook session-start": ([*hook, "session-start"], start_payload),
        "hook pre-tool-use": ([*hook, "pre-tool-use"], tool_payload),
    }
    _byte_compile()
    for command, stdin in commands.values():
        _run(command, stdin, env)  # warm the OS caches; the Session record now exists
    # Interleaved, as plugins/harness-memory/bench/hook_cost.py does: a burst of load on the
    # machine then slows the baseline and the hooks alike instead of one of them.
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, stdin) in commands.items():
            times[name].append(_run(command, stdin, env))
    return {name: statistics.median(values) for name, values in times.items()}
