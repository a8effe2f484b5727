"""P-3: what one write-guard decision costs for a command naming many paths.

Runs Claude Code's ``PreToolUse`` adapter in this process (as ``harness-memory hook claude-code
pre-tool-use`` runs it) on ``touch`` and N distinct files, in a temporary HOME holding a data
dir with a memory root (the user scope, the Session's own scope), and prints the best of
``--runs`` wall times, the time per path, how often the kernel's mount table was read and the
answer. ``--depth`` puts the files that many folders below the Workspace (``--missing``: folders
not created), the shape whose cost grew with the depth squared.

    .venv/bin/python plugins/harness-memory/bench/guard_cost.py [--paths 1 100 2000] \\
        [--depth 0] [--missing] [--runs 3]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the checkout: its bench package
from harness_memory import mounts
from harness_memory.cli import main
from memory_core import layout
from memory_core.keys import workspace_memory_key

from bench.mount_reads import CountingTable


def decide(count: int, depth: int, missing: bool, runs: int) -> str:
    """One line: the best of ``runs`` decisions on ``touch`` and ``count`` files."""
    table = CountingTable()
    mounts.MOUNT_TABLE = table  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as temporary:
        home = Path(temporary) / "home"
        root = layout.memory_root(home / ".local" / "share" / "agent-memory", "coder")
        workspace = home / "src" / "app"
        workspace.mkdir(parents=True)
        for scope in ("user", workspace_memory_key(workspace)):
            (root / scope).mkdir(parents=True)
        folder = f"{workspace}{'/a' * depth}"
        if depth and not missing:
            Path(folder).mkdir(parents=True)
        command = "touch " + " ".join(f"{folder}/f{n}.md" for n in range(count))
        hook = {
            "session_id": "s-1",
            "cwd": str(workspace),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
        flags = ["--memory-root", str(root), "--state-dir", f"{temporary}/state"]
        best, answer = float("inf"), ""
        for _ in range(runs):
            table.reads = 0
            out = io.StringIO()
            started = time.perf_counter()
            main(
                ["hook", "claude-code", "pre-tool-use", *flags],
                environ={"HOME": str(home)},
                stdin=io.BytesIO(json.dumps(hook).encode()),
                stdout=out,
            )
            best = min(best, time.perf_counter() - started)
            answer = out.getvalue()
    said = (
        "allowed"
        if not answer
        else "refused: "
        + json.loads(answer)["hookSpecificOutput"]["permissionDecisionReason"].removeprefix(
            "Agent Memory write guard: "
        )[:60]
    )
    return (
        f"{count:6} paths, {depth:3} deep{' (missing)' if missing else ''}: "
        f"{best * 1000:9.1f} ms, {best / count * 1e6:8.1f} µs/path, "
        f"{table.reads} mount table read(s); {said}"
    )


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", type=int, nargs="+", default=[1, 100, 2000])
    parser.add_argument("--depth", type=int, default=0)
    parser.add_argument("--missing", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    for count in options.paths:
        print(decide(count, options.depth, options.missing, options.runs), flush=True)


if __name__ == "__main__":
    run()
