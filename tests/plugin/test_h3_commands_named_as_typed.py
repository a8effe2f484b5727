"""The commands ``harness-memory`` tells its user to run work as typed (H-3).

Beside ``make run`` the program is ``.venv/bin/harness-memory``, not on ``PATH``: ``status``
and ``install`` said "run `harness-memory install claude-code` again", a command the shell
does not find (or that runs another install). Each command in backticks they print (stdout and
the warnings on stderr) now starts with the program as the user started it; run by the bare
name from ``PATH``, it stays the bare name.
"""

from __future__ import annotations

import io
import logging
import sys
from pathlib import Path

import pytest
from harness_memory import cli
from harness_memory.as_typed import as_typed, program_as_typed
from memory_core.layout import memory_root

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService


def test_h3_the_program_is_named_as_the_user_started_it(tmp_path: Path) -> None:
    script = tmp_path / ".venv" / "bin" / "harness-memory"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n", "utf-8")
    script.chmod(0o755)
    assert program_as_typed({"PATH": "/usr/bin"}, ".venv/bin/harness-memory") == (
        ".venv/bin/harness-memory"
    )
    on_path = {"PATH": str(script.parent)}
    assert program_as_typed(on_path, str(script)) == "harness-memory"  # the one PATH finds
    assert program_as_typed(on_path, "/usr/lib/python3/pytest") == "harness-memory"  # python -m
    told = "run `harness-memory install codex` again; `harness-memory status` names it"
    assert as_typed(told, "/opt/a b/harness-memory") == (
        "run `'/opt/a b/harness-memory' install codex` again; "
        "`'/opt/a b/harness-memory' status` names it"
    )
    assert as_typed("harness-memory: ERROR: …", ".venv/bin/harness-memory") == (
        "harness-memory: ERROR: …"  # the program's name in front of a message is no command
    )
    told = (
        "`CODEX_HOME=/p/.codex harness-memory uninstall codex` or `A='/a b' B=1 harness-memory x`"
    )
    assert as_typed(told, ".venv/bin/harness-memory") == (
        "`CODEX_HOME=/p/.codex .venv/bin/harness-memory uninstall codex` or "
        "`A='/a b' B=1 .venv/bin/harness-memory x`"  # run with variables set: the same program
    )
    assert as_typed("`A=1 harness-memoryx`", ".venv/bin/harness-memory") == "`A=1 harness-memoryx`"


def test_h3_status_and_its_warnings_name_the_program_beside_make_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    flags = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    argv = ["install", "codex", *flags, "--memory-root", str(tmp_path / "gone"), "--no-check"]
    argv += ["--executable", str(HARNESS_MEMORY), "--home", str(home)]
    assert cli.main(argv, environ={"HOME": str(home)}, stdout=io.StringIO()) == 0
    monkeypatch.setattr(sys, "argv", [".venv/bin/harness-memory", "status"])
    out = io.StringIO()

    cli.main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)

    said = out.getvalue()
    assert "`.venv/bin/harness-memory install codex --memory-root DIR`" in said
    assert "`harness-memory " not in said
    root = logging.getLogger()
    handlers = root.handlers[:]
    monkeypatch.setattr(root, "handlers", [])  # as in a terminal: no handler configured yet
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    cli._log_to_stderr(".venv/bin/harness-memory")
    logging.getLogger("harness_memory").warning("run `harness-memory status`")
    root.handlers = handlers
    assert stream.getvalue() == "harness-memory: WARNING: run `.venv/bin/harness-memory status`\n"


def test_h3_memory_api_is_named_as_it_sits_beside_the_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beside ``make run`` ``memory-api`` is ``.venv/bin/memory-api`` too, on no ``PATH``: the
    Gemini CLI install said "Bring its notes over: `memory-api memory import --from gemini …`",
    a command the shell does not find. A command of ``memory-api`` is named as the one beside
    the program; where none is beside it (the plugin's wheel alone) it stays the bare name."""
    bin_dir = tmp_path / "checkout" / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("harness-memory", "memory-api"):
        (bin_dir / name).write_text("#!/bin/sh\n", "utf-8")
        (bin_dir / name).chmod(0o755)
    home = tmp_path / "home"
    monkeypatch.setattr(sys, "argv", [str(bin_dir / "harness-memory"), "install"])
    flags = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    argv = ["install", "gemini", *flags, "--memory-root", str(tmp_path / "root"), "--no-check"]
    argv += ["--executable", str(HARNESS_MEMORY), "--home", str(home), "--dry-run"]
    out = io.StringIO()

    cli.main(argv, environ={"HOME": str(home), "PATH": "/usr/bin"}, stdout=out)

    assert f"`{bin_dir / 'memory-api'} memory import --from gemini --workspace PATH" in (
        out.getvalue()
    )
    told = "bring them over: `memory-api memory import --from codex --workspace PATH ...`"
    alone = tmp_path / "wheel" / "bin" / "harness-memory"
    assert as_typed(told, str(alone)) == told


def test_h3_memory_api_beside_a_program_started_from_its_own_folder_keeps_the_dot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started as ``./harness-memory`` (in ``.venv/bin``), the ``memory-api`` beside it is
    ``./memory-api``: a bare ``memory-api`` is a command the shell does not find there."""
    for name in ("harness-memory", "memory-api"):
        (tmp_path / name).write_text("#!/bin/sh\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    told = "bring them over: `memory-api memory import --from codex --workspace PATH ...`"

    assert as_typed(told, "./harness-memory") == told.replace("`memory-api", "`./memory-api")


def test_h3_session_start_by_hand_names_the_program_in_its_warning(
    shared_service: RealService, new_agent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README's ``.venv/bin/harness-memory session-start`` against a service with tokens, none
    given: its warning said "run `harness-memory install` again", a command the shell does not
    find beside ``make run``. Its warnings name the program as typed; its stdout, the Session's
    prompt, is memory text and stays as written (run again with the token, memory naming
    `harness-memory install codex` is injected as it is)."""
    monkeypatch.setattr(sys, "argv", [".venv/bin/harness-memory", "session-start"])
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])  # as in a terminal: no handler configured yet
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    flags = ["--url", shared_service.url, "--project", "acme", "--agent", new_agent]
    argv = ["session-start", *flags, "--workspace", str(tmp_path), "--format", "text"]

    note = "- after a move run `harness-memory install codex` again\n"  # memory, as written
    (memory_root(shared_service.data_dir, new_agent) / "user" / "MEMORY.md").write_text(note)
    environ = {"HOME": str(tmp_path), "PATH": "/usr/bin"}
    given = ["--token", shared_service.token]

    status = cli.main(argv, environ=environ, stdout=io.StringIO())
    prompt = io.StringIO()
    read = cli.main([*argv, *given], environ=environ, stdout=prompt)

    assert (status, read) == (1, 0)
    assert note in prompt.getvalue(), prompt.getvalue()  # the Session's prompt: never rewritten
    assert "run `.venv/bin/harness-memory install HARNESS` again" in stream.getvalue()


def test_h3_the_token_create_hint_names_memory_api_as_the_user_can_run_it(tmp_path: Path) -> None:
    """An install without a token said to run `(umask 077; memory-api token create …)`;
    beside ``make run`` that ``memory-api`` is ``.venv/bin/memory-api``, on no ``PATH``. The
    hint names it as it sits beside the program (inside the ``umask`` subshell, which keeps
    FILE owner-only); a remote install's service runs elsewhere: the bare name stays there."""
    from harness_memory.installers.checks import no_token

    bin_dir = tmp_path / "checkout" / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("harness-memory", "memory-api"):
        (bin_dir / name).write_text("#!/bin/sh\n", "utf-8")
    program = str(bin_dir / "harness-memory")
    url = "http://127.0.0.1:8000"

    local = as_typed(no_token(url, "acme", "no token", remote=False).text, program)
    assert f"`(umask 077; {bin_dir / 'memory-api'} token create --data-dir DIR" in local
    remote = as_typed(no_token(url, "acme", "no token", remote=True).text, program)
    assert "where the service runs: `(umask 077; memory-api token create --data-dir DIR" in remote
