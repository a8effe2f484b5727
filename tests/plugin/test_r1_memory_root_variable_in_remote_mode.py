"""R-1, H-7: ``HARNESS_MEMORY_ROOT`` has no effect in remote mode, and install and status say so.

Remote mode's memory root is the local copy under ``~/.harness-memory``, which follows from the
project and agent: ``install --remote`` refuses ``--memory-root``, and the hooks read only their
flags. The same root given by the variable was dropped without a word, so a user who exported it
for a memory root elsewhere believed the hooks guarded and injected that one.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.settings import load_settings, remote_memory_root

ELSEWHERE = "/srv/elsewhere/agents/coder/agent_state/memory"
WARNED = f"HARNESS_MEMORY_ROOT={ELSEWHERE} has no effect in remote mode"


def run(*argv: str, home: Path, environ: dict[str, str]) -> tuple[int, str]:
    out = io.StringIO()
    status = main([*argv, "--home", str(home)], environ={"HOME": str(home), **environ}, stdout=out)
    return status, out.getvalue()


def install(home: Path, environ: dict[str, str]) -> tuple[int, str]:
    flags = ["--remote", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    return run("install", "claude-code", *flags, "--no-check", home=home, environ=environ)


def test_r1_install_remote_warns_of_a_memory_root_variable_it_does_not_use(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    copy = home / ".harness-memory" / "remote" / "acme" / "agents" / "coder" / "agent_state"

    with caplog.at_level(logging.WARNING):
        status, _ = install(home, {"HARNESS_MEMORY_ROOT": ELSEWHERE})

    assert status == 0
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert [m for m in warned if WARNED in m and f"local copy {copy / 'memory'}" in m], warned
    settings = (home / ".claude" / "settings.json").read_text(encoding="utf-8")
    assert ELSEWHERE not in settings and f"--memory-root {copy / 'memory'}" in settings


def test_r1_status_says_the_variable_is_unused_beside_remote_hooks_and_nothing_without_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    assert install(home, {})[0] == 0

    with caplog.at_level(logging.WARNING):
        _, said = run("status", home=home, environ={"HARNESS_MEMORY_ROOT": ELSEWHERE})
    _, said_without = run("status", home=home, environ={})

    assert f"WARNING: {WARNED}" in said  # in the output
    assert [r for r in caplog.records if WARNED in r.getMessage()]  # and on stderr
    assert "HARNESS_MEMORY_ROOT" not in said_without


def test_r1_a_hook_reading_variables_in_remote_mode_guards_the_local_copy_not_the_variable(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    environ = {"HARNESS_MEMORY_REMOTE": "on", "HARNESS_MEMORY_ROOT": ELSEWHERE}
    environ |= {"HARNESS_MEMORY_PROJECT": "acme", "HARNESS_MEMORY_AGENT": "coder"}

    settings = load_settings({"state_dir": str(state)}, environ)  # no --flags-only

    assert settings.memory_root == remote_memory_root(state, "acme", "coder")


COPY_FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]


def warnings_of(
    argv: list[str], environ: dict[str, str], caplog: pytest.LogCaptureFixture, stdin: bytes = b""
) -> list[str]:
    """The warnings ``harness-memory argv`` logs, run with ``environ`` and ``stdin``."""
    with caplog.at_level(logging.WARNING):
        main(argv, environ=environ, stdin=io.BytesIO(stdin), stdout=io.StringIO())
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


SYNC_SAYS = {
    "on": "has no effect in remote mode: the memory root is the local copy",
    "off": "has no effect on sync, which syncs the local copy",
}
"""What ``sync`` says of a root it does not use, with ``--remote on`` and ``off``: local mode
is not called remote mode."""


@pytest.mark.parametrize(
    ("given", "named"),
    [({"HARNESS_MEMORY_ROOT": ELSEWHERE}, f"HARNESS_MEMORY_ROOT={ELSEWHERE}"),
     ({"flag": ELSEWHERE}, f"--memory-root {ELSEWHERE}")],
    ids=["variable", "flag"],
)  # fmt: skip
@pytest.mark.parametrize("remote", ["on", "off"])
def test_r1_sync_says_a_memory_root_it_does_not_use_and_names_the_copy_it_syncs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, given: dict[str, str], named: str, remote: str
) -> None:
    """``sync`` syncs the copy under the state dir whatever root is given, with or without
    ``--remote on``: a root given by flag or variable is said to be unused, with the copy's;
    in local mode (``--remote off``) in words that do not call it remote mode."""
    state = tmp_path / "state"
    flag = ["--memory-root", given["flag"]] if "flag" in given else []
    argv = ["sync", *COPY_FLAGS, "--state-dir", str(state), "--remote", remote, *flag]
    variables = {name: value for name, value in given.items() if name != "flag"}

    warned = warnings_of(argv, {"HOME": str(tmp_path), **variables}, caplog)

    copy = remote_memory_root(state, "acme", "coder")
    said = f"{named} {SYNC_SAYS[remote]} {copy}"
    assert [m for m in warned if said in m], warned
    assert remote == "on" or not [m for m in warned if "remote mode" in m], warned


def test_r1_sync_says_nothing_of_a_root_naming_its_own_copy(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "state"
    copy = remote_memory_root(state, "acme", "coder")
    argv = ["sync", *COPY_FLAGS, "--state-dir", str(state), "--memory-root", str(copy)]

    warned = warnings_of(argv, {"HOME": str(tmp_path), "HARNESS_MEMORY_ROOT": str(copy)}, caplog)

    assert not [m for m in warned if "has no effect" in m], warned


def test_r1_session_start_and_hooks_in_remote_mode_say_the_root_they_do_not_use(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The Session start and a hook run with ``--remote on`` use the local copy as their root:
    a ``HARNESS_MEMORY_ROOT`` or ``--memory-root`` naming another folder is said to be unused
    (on stderr: a hook's stdout is its answer), and nothing is said without one or in local mode."""
    state, workspace = tmp_path / "state", tmp_path / "work"
    workspace.mkdir()
    remote = [*COPY_FLAGS, "--state-dir", str(state), "--remote", "on"]
    variable = {"HOME": str(tmp_path), "HARNESS_MEMORY_ROOT": ELSEWHERE}
    call = f'{{"session_id": "s1", "cwd": "{workspace}", "tool_name": "Read"}}'.encode()
    start = ["session-start", *COPY_FLAGS, "--workspace", str(workspace), "--timeout", "0.5"]
    in_remote_mode = {"HARNESS_MEMORY_STATE_DIR": str(state), "HARNESS_MEMORY_REMOTE": "on"}
    hook = ["hook", "claude-code", "pre-tool-use", *remote]

    assert [m for m in warnings_of(start, variable | in_remote_mode, caplog) if WARNED in m]
    caplog.clear()
    flagged = warnings_of(
        [*hook, "--memory-root", ELSEWHERE], {"HOME": str(tmp_path)}, caplog, call
    )
    assert [m for m in flagged if f"--memory-root {ELSEWHERE} has no effect" in m], flagged
    caplog.clear()
    local = [a for a in hook if a not in ("--remote", "on")] + ["--memory-root", ELSEWHERE]
    assert not [m for m in warnings_of(local, variable, caplog, call) if "no effect" in m]
