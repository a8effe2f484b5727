"""H-3: ``harness-memory`` piped into a reader that leaves early (``| head -1``, ``| grep -q``,
``less`` quit) does its work to the end, says nothing of the closed pipe, and exits with its
own status.

``harness-memory status | head -1`` ended in a ``BrokenPipeError`` traceback, and ``install …
| head`` stopped after writing the settings, before compiling the hooks' bytecode, with
"cannot write: [Errno 32] Broken pipe" and exit 1 for an install that had been made. Each run
here is the console script in a process of its own whose standard output is a pipe whose
reading end is already closed: every write to it fails with ``EPIPE``.
"""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

from harness_memory.cli import main

from tests.support.serve import code_under_test, harness_memory_under_test


def run_into_a_closed_pipe(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``harness-memory ARGV`` with ``HOME`` at ``home``, its stdout a pipe nobody reads."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [harness_memory_under_test(), *argv],
            stdout=write_end,
            stderr=subprocess.PIPE,
            env={"HOME": str(home), "PATH": "/usr/bin:/bin", **code_under_test()},
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)


def test_h3_an_install_and_status_piped_into_a_reader_that_left_do_their_work(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    flags = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]

    install = run_into_a_closed_pipe(
        home, "install", "claude-code", *flags, "--memory-root", str(root), "--no-check"
    )
    status = run_into_a_closed_pipe(home, "status")

    for done in (install, status):
        assert "Traceback" not in done.stderr and "Broken pipe" not in done.stderr, done.stderr
    assert install.returncode == 0
    settings = (home / ".claude" / "settings.json").read_text(encoding="utf-8")
    assert "hook claude-code session-start" in settings
    said = io.StringIO()
    verdict = main(["status"], environ={"HOME": str(home), "PATH": "/usr/bin:/bin"}, stdout=said)
    assert f"claude-code: installed in {home / '.claude' / 'settings.json'}" in said.getvalue()
    assert status.returncode == verdict  # its own verdict, read or not
