"""H-3: every ``harness-memory`` command piped into a reader that leaves early (``| head -1``,
``| grep -q``, ``less`` quit) ends as ``git log | head -1`` ends ``git``: quietly, by
``SIGPIPE`` (a shell's status 141), after finishing any change it makes, unless it failed (its
status then stays); a hook, whose harness reads its exit status, exits 0 as ever.

``harness-memory status | head -1`` ended in a ``BrokenPipeError`` traceback, and ``install …
| head`` stopped after writing the settings, before compiling the hooks' bytecode, with
"cannot write: [Errno 32] Broken pipe" and exit 1 for an install that had been made; a hook
whose harness had closed its output ended in a traceback and exit 1. Each run here is the
console script in a process of its own whose standard output is a real pipe: read by ``head
-n 1`` (a Session start whose prompt is larger than the pipe), or whose reader left before the
first line.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from harness_memory.settings import remote_memory_root

from tests.support.reader_left import (
    ENDED_BY_SIGPIPE,
    quiet,
    run_into_head,
    run_output_closed,
    run_reader_gone,
)
from tests.support.serve import code_under_test, harness_memory_under_test

TOKEN = "a-token-of-32-characters-or-so-x"


def closed_url() -> str:
    """The URL of a loopback port nothing listens on (bound, never listened, then closed)."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{closed.getsockname()[1]}"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    made = tmp_path / "home"
    (made / ".claude").mkdir(parents=True)
    return made


def environ(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin", **code_under_test()}


def harness_memory(*argv: str) -> list[str]:
    return [harness_memory_under_test(), *argv]


def test_h3_a_session_start_into_head_prints_its_first_line_and_ends_quietly(
    home: Path, tmp_path: Path
) -> None:
    template = tmp_path / "template.md"
    lines = [
        f"line {number} of the prompt, long enough to fill a page soon" for number in range(200)
    ]
    template.write_text("\n".join(lines) + "\n{{MEMORY}}\n", encoding="utf-8")
    argv = harness_memory(
        "session-start", "--url", closed_url(), "--project", "acme", "--agent", "coder",
        "--workspace", str(tmp_path), "--template-file", str(template),
    )  # fmt: skip

    done, first = run_into_head(argv, environ(home))

    assert first == "line 0 of the prompt, long enough to fill a page soon\n"
    assert done.returncode == ENDED_BY_SIGPIPE, done.stderr
    assert quiet(done.stderr), done.stderr


def test_h3_every_command_whose_reader_left_finishes_its_work_then_ends_quietly(
    home: Path, tmp_path: Path
) -> None:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    who = ["--project", "acme", "--agent", "coder"]
    settings = home / ".claude" / "settings.json"
    settings.write_text('{"theme": "dark"}\n', encoding="utf-8")  # the user's own
    state = tmp_path / "state"
    remote = ["--remote", "on", "--state-dir", str(state), "--url", closed_url(), *who]

    def ends_quietly(*argv: str, stdin: str = "") -> None:
        done = run_reader_gone(harness_memory(*argv), environ(home), cwd=tmp_path, stdin=stdin)
        assert done.returncode == ENDED_BY_SIGPIPE, (argv, done.stderr)
        assert quiet(done.stderr), (argv, done.stderr)

    ends_quietly("install", "claude-code", "--url", closed_url(), *who, "--memory-root", str(root))
    assert "hook claude-code session-start" in settings.read_text(encoding="utf-8")
    ends_quietly("status")
    token_file = tmp_path / "token"
    ends_quietly("token", "set", "--file", str(token_file), stdin=TOKEN + "\n")
    assert token_file.read_text(encoding="utf-8").strip() == TOKEN
    for form in ("text", "json"):
        ends_quietly("session-start", "--url", closed_url(), *who, "--format", form)
    for failed_sync in (["--workspace", str(tmp_path)], ["--every-scope", "--format", "json"]):
        # the service unreachable: each scope said, and the failure is the status a script
        # reads (`sync | true` ended by SIGPIPE, 141, as a sync that worked does)
        done = run_reader_gone(harness_memory("sync", *remote, *failed_sync), environ(home))
        assert done.returncode == 1, (failed_sync, done.stderr)
        assert quiet(done.stderr), done.stderr
    ends_quietly("sync", *remote, "--status")
    assert remote_memory_root(state, "acme", "coder").is_dir()
    ends_quietly("uninstall", "claude-code")
    assert json.loads(settings.read_text(encoding="utf-8")) == {"theme": "dark"}


def test_h3_a_command_whose_output_and_errors_go_to_a_reader_that_left_ends_quietly(
    home: Path,
) -> None:
    """``… 2>&1 | head -1``: a Session start's warning (the service is down) goes to the same
    pipe as its prompt."""
    argv = ["session-start", "--url", closed_url(), "--project", "acme", "--agent", "coder"]
    done = run_reader_gone(harness_memory(*argv), environ(home), stderr_too=True)
    assert done.returncode == ENDED_BY_SIGPIPE


def test_h3_a_command_that_writes_nothing_to_its_output_keeps_its_own_status(
    home: Path,
) -> None:
    """``draft show`` of a service that is down says why on stderr, not on the closed pipe."""
    argv = harness_memory(
        "draft", "show", "--url", closed_url(), "--project", "acme", "--agent", "coder", "0" * 32
    )
    done = run_reader_gone(argv, environ(home))
    assert done.returncode == 1, done.stderr
    assert "cannot fetch draft" in done.stderr and quiet(done.stderr), done.stderr


def test_h3_a_hook_whose_harness_closed_its_output_exits_0_quietly(
    home: Path, tmp_path: Path
) -> None:
    """The write guard's answer to a tool call it cannot read (a deny) goes to a closed pipe."""
    hook = harness_memory(
        "hook", "claude-code", "pre-tool-use", "--memory-root", str(tmp_path), "--flags-only"
    )
    done = run_reader_gone(hook, environ(home), stdin="{not json")
    assert done.returncode == 0, done.stderr
    assert quiet(done.stderr), done.stderr


def test_h3_a_command_or_hook_started_with_its_output_closed_keeps_its_status(
    home: Path, tmp_path: Path
) -> None:
    """``harness-memory status >&-`` and a hook whose harness gave it no output (Python's
    ``sys.stdout`` None): an ``AttributeError`` traceback and exit 1; a hook exits 0 (P-4)."""
    done = run_output_closed(harness_memory("status"), environ(home), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert quiet(done.stderr), done.stderr
    hook = harness_memory(
        "hook", "claude-code", "pre-tool-use", "--memory-root", str(tmp_path), "--flags-only"
    )
    done = run_output_closed(hook, environ(home), stdin="{not json")
    assert done.returncode == 0, done.stderr
    assert quiet(done.stderr), done.stderr
    start = harness_memory(
        "hook", "claude-code", "session-start", "--memory-root", str(tmp_path), "--flags-only"
    )
    done = run_output_closed(start, environ(home), stdin='{"hook_event_name": "SessionStart"}')
    assert done.returncode == 0, done.stderr
    assert quiet(done.stderr), done.stderr
