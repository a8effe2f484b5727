"""H-7: ``harness-memory status`` says when the installed hooks last started a Session, and
whether its memory came in.

An install checks what it writes and whom it calls; whether the harness then runs the hooks
(its version reads that settings file; nothing switches them off) shows only once a Session
starts. A newcomer's status said "installed" and "takes the hooks' token" before any Session,
and after one that started without memory alike. Now each installed harness gets a line: no
Session yet (start one, then look again), or the newest Session record of its state dir —
when, in which Workspace, for which agent, and what its memory came to (with the error).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

from harness_memory.cli import main

from tests.plugin.helpers import HARNESS_MEMORY, hook_fixture
from tests.plugin.real_service import RealService

UNREACHABLE = "http://127.0.0.1:9"


def install(home: Path, root: Path, url: str, token: str, agent: str) -> None:
    flags = ["--home", str(home), "--memory-root", str(root), "--url", url, "--token", token]
    flags += ["--project", "acme", "--agent", agent, "--executable", str(HARNESS_MEMORY)]
    out = io.StringIO()
    assert (
        main(["install", "codex", *flags, "--no-check"], environ={"HOME": str(home)}, stdout=out)
        == 0
    )


def codex_lines(home: Path) -> list[str]:
    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return [line for line in out.getvalue().splitlines() if line.startswith("codex: ")]


def start_a_session(home: Path, workspace: Path) -> None:
    """The installed SessionStart command, run as Codex CLI runs it (``sh -c``, the hook's JSON
    on stdin) in ``workspace``."""
    document = json.loads((home / ".codex" / "hooks.json").read_text(encoding="utf-8"))
    [command] = [h["command"] for g in document["hooks"]["SessionStart"] for h in g["hooks"]]
    done = subprocess.run(
        ["sh", "-c", command],
        input=hook_fixture("codex_session_start.json", workspace=str(workspace)),
        capture_output=True,
        cwd=workspace,
        env={"HOME": str(home), "PATH": os.environ["PATH"]},
        timeout=60,  # a hang guard only
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_h7_status_says_no_session_has_started_yet_and_how_to_tell(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    install(home, shared_memory_root, shared_service.url, shared_service.token, new_agent)
    assert (
        "codex: no Session has started with these hooks yet: start one (`codex` in a project "
        "folder) and run `harness-memory status` again; if it still says this, the harness did "
        "not run the hooks (its version, or settings that switch them off)"
    ) in codex_lines(home)


def test_h7_status_names_the_last_session_and_its_memory(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    home, workspace = tmp_path / "home", tmp_path / "shop-api"
    workspace.mkdir()
    install(home, shared_memory_root, shared_service.url, shared_service.token, new_agent)

    start_a_session(home, workspace)

    [line] = [line for line in codex_lines(home) if "Session" in line]
    assert line.startswith("codex: last Session start 20")
    assert line.endswith(f"Z in {workspace} (acme/{new_agent}): memory injected")


def test_h7_status_says_a_session_started_without_memory_and_why(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    home, workspace = tmp_path / "home", tmp_path / "shop-api"
    workspace.mkdir()
    install(home, shared_memory_root, shared_service.url, "not-the-token-0123456789", new_agent)

    start_a_session(home, workspace)

    [line] = [line for line in codex_lines(home) if "Session" in line]
    assert f"in {workspace} (acme/{new_agent}): WITHOUT memory (" in line
    assert "401" in line, line


def test_h7_status_reads_no_session_record_that_is_no_regular_file(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """A FIFO among the records would hold status until someone wrote into it; it is passed
    over, as an undecodable record is."""
    home = tmp_path / "home"
    install(home, shared_memory_root, UNREACHABLE, "any-token-0123456789ab", new_agent)
    sessions = home / ".codex" / "harness-memory" / "sessions"
    sessions.mkdir(parents=True)
    os.mkfifo(sessions / "s-1.json")
    (sessions / "s-2.json").write_text("{not json", encoding="utf-8")
    assert any("no Session has started with these hooks yet" in line for line in codex_lines(home))
