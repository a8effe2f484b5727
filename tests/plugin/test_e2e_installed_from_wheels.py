"""Issue 26: ``harness-memory`` installed from its wheels outlives the checkout it was built from.

A copy of the three packages stands in for a clone: ``make wheels`` builds them from it (the
same commands: the build backend's install into the ``.venv``, then one ``pip wheel`` without
build isolation, which puts every dependency's wheel into ``dist/`` too), and a fresh
virtual environment outside the copy installs ``agent-memory-harness`` from there with
``--no-index`` (unrelated projects on PyPI hold ``agent-memory-core`` and ``harness-memory``,
these packages' former names). The environment is made without pip, and pip installs into it
with ``--python``: run on the environment's own Python, it resolves and installs as that
environment's pip would, without ensurepip's install of a pip there (a pip run of its own that
checks nothing here; the wheelhouse's pip wheel, which pipx needs, is asserted). Then the copy
is deleted, as ``make clean`` or a moved clone would. ``install claude-code`` from that
environment picks its own console script (it says the script outlives any checkout), and the
hook commands it wrote still deliver memory (read from the files: the service is down) and
still refuse a write into another Workspace's scope;
``status`` reports them healthy.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from memory_core.keys import workspace_memory_key

from tests.plugin.real_service import seed_scope

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("shared", "services/memory-api", "plugins/harness-memory")
LIMIT_S = 600  # a hang guard for pip, not an assertion about speed


def run(
    *words: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(w) for w in words],
        capture_output=True,
        text=True,
        timeout=LIMIT_S,
        check=False,
        cwd=cwd,
        env=env,
    )
    assert done.returncode == 0, f"{words}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


def make_wheels_commands() -> list[list[str]]:
    """The recipe lines of ``make wheels`` (the test runs what the Makefile runs): the build
    backend's install into this ``.venv`` (already there: a test tool), then ``pip wheel``."""
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    backend = re.search(r"^BUILD_BACKEND := (.+)$", makefile, re.MULTILINE)
    assert backend, "the Makefile names its build backend"
    recipe = makefile.split("\nwheels:", 1)[1].split("\n\n", 1)[0].splitlines()
    recipe = [x.strip() for x in recipe if x.startswith("\t$(BIN)/python -m pip ")]
    words = {"$(BIN)/python": sys.executable, "$(DIST)": "dist"}
    words["$(BUILD_BACKEND)"] = backend.group(1).strip()
    lines = []
    for line in recipe:
        for name, value in words.items():
            line = line.replace(name, value)
        lines.append(shlex.split(line))
    assert [x[3] for x in lines] == ["install", "wheel"], lines
    return lines


def hook(command: str, stdin: Mapping[str, object], home: Path) -> Any:
    done = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(stdin),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else None


def install_from_a_clone_then_delete_it(tmp_path: Path) -> Path:
    """``make wheels`` on a copy of the packages, a fresh environment installed from its
    ``dist/`` with ``--no-index``, the copy deleted; the environment's ``harness-memory``."""
    checkout = tmp_path / "clone"
    for package in PACKAGES:
        shutil.copytree(
            REPO / package,
            checkout / package,
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist"),
        )
    for command in make_wheels_commands():
        run(*command, cwd=checkout)
    dist = checkout / "dist"
    ours = {w.name.split("-")[0] for w in dist.glob("*.whl")}
    assert {"agent_memory_shared", "agent_memory_harness", "agent_memory_api"} <= ours
    assert {"aiohttp", "tomlkit", "pip"} <= ours
    house = tmp_path / "wheelhouse"  # dist/ outlives the clone: the user keeps it, or not
    shutil.copytree(dist, house)
    environment = tmp_path / "tools" / "harness-memory"
    run(sys.executable, "-m", "venv", "--without-pip", environment)
    into: list[str | Path] = ["--python", environment / "bin" / "python"]  # its own Python
    pip: list[str | Path] = [sys.executable, "-m", "pip", *into, "install", "--no-index"]
    run(*pip, "--find-links", house, "agent-memory-harness")
    shutil.rmtree(checkout)  # the clone is gone: make clean, or moved elsewhere
    return environment / "bin" / "harness-memory"


def test_installed_wheels_keep_memory_and_the_guard_after_the_checkout_is_gone(
    tmp_path: Path,
) -> None:
    script = install_from_a_clone_then_delete_it(tmp_path)
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    seed_scope(root / "user", "user-scope")
    other = workspace_memory_key(tmp_path / "src" / "billing")
    (root / other).mkdir()
    workspace = tmp_path / "src" / "shop-api"
    workspace.mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": f"{script.parent}:/usr/bin:/bin"}
    ids = ["--project", "acme", "--agent", "coder", "--memory-root", str(root)]
    installed = run(
        script, "install", "claude-code", "--home", home, "--url", "http://127.0.0.1:9", *ids,
        env=env,
    )  # fmt: skip
    assert f"hooks run {script}" in installed.stdout
    assert "outlives any checkout" in installed.stdout

    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    [start, *_] = [h["command"] for g in settings["hooks"]["SessionStart"] for h in g["hooks"]]
    [guard] = [h["command"] for g in settings["hooks"]["PreToolUse"] for h in g["hooks"]]
    python = script.parent / "python"  # the script's own, isolated (P-2a)
    assert start.startswith(f"{python} -I -X utf8 {script} hook claude-code session-start")
    base = {"session_id": "s-1", "cwd": str(workspace)}
    answer = hook(start, {**base, "hook_event_name": "SessionStart", "source": "startup"}, home)
    index = (root / "user" / "MEMORY.md").read_text(encoding="utf-8")
    first_line = next(line for line in index.splitlines() if line.startswith("- "))
    # read from the files: the service at :9 is down (H-4)
    assert first_line in answer["hookSpecificOutput"]["additionalContext"]

    target = {"file_path": str(root / other / "x.md"), "content": "x"}
    write = {**base, "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": target}
    refused = hook(guard, write, home)
    assert refused["hookSpecificOutput"]["permissionDecision"] == "deny"

    healthy = run(script, "status", "--home", home, env=env)
    assert re.search(r"claude-code: hooks run .* \(outlives any checkout\)", healthy.stdout)
    assert "PROBLEM" not in healthy.stdout
    assert str(REPO) not in json.dumps(settings) + healthy.stdout  # nothing runs from a checkout
