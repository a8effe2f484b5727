"""A-10, H-7: every piece of advice a refusal gives names the exact command its reader types.

The message is built once, by code that knows whose hooks meet the refusal: the harness and
whether they are the managed ones (``install HARNESS --managed``, each user's token from
``harness-memory token set --managed``). A user-level hook's stderr line and Session record
said "`harness-memory install HARNESS` again (HARNESS: claude-code, codex or gemini)", a 404
named only the bare install, and the managed hooks' advice was made by rewriting a finished
message. A command run by hand, for no harness, still names the install of each.
"""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest
from harness_memory.advice import ANY_HOOKS, Hooks
from harness_memory.cli import main
from harness_memory.errors import ServiceRejectedError

from tests.plugin.helpers import hook_fixture
from tests.plugin.real_service import RealService

HARNESSES = ("claude-code", "codex", "gemini")
NO_TOKEN_GIVE = (
    "give this service's token in a --token-file (`harness-memory install` keeps yours in "
    "harness-memory/token beside the harness's settings, ~/.claude/harness-memory/token for "
    "Claude Code) or, without --flags-only, in HARNESS_MEMORY_TOKEN; "
)
RIGHT_ONES = (
    " (an install given any of its settings takes none from the installed hooks: "
    "`harness-memory status` shows theirs; remote mode: --remote URL for --url and --memory-root)"
)
"""The 404's install names every flag it needs: typed with only --project and --agent, the
advice failed ("missing --memory-root, --url")."""
NO_AGENT = (
    "memory service answered 404: no agent 'coder' (this service, or this token, knows no such "
    "agent: for installed hooks, `harness-memory status` says why — the agent in another "
    "project, a project the token does not reach; else fix --project or --agent, or create it "
    "where the service runs: `memory-api agent create --data-dir DIR --project P --id A --name "
    "NAME` (DIR: the data dir it logs as `data dir: …` when it starts); "
)


def expected(harness: str, managed: bool) -> dict[str, str]:
    """The advice of ``harness``'s user-level or ``managed`` hooks, written out in full."""
    flag = " --managed" if managed else ""
    install = f"`harness-memory install {harness}{flag}` again"
    if managed:
        token = (
            "managed hooks: run `harness-memory token set --managed` to give them a token it takes"
        )
        give = ""
    else:  # a hook runs with --flags-only: no variable, no --token-file of its own to give
        token = f"installed hooks: give a token it takes in HARNESS_MEMORY_TOKEN and run {install}"
        give = ""
    whose = "managed hooks" if managed else "installed hooks"
    return {
        "install": install,
        "401 none sent": "memory service answered 401: no token (no token was sent: "
        f"{give}{token})",
        "401 refused": "memory service answered 401: bad token (the service refused the token "
        f"from --token: it is wrong, or was revoked; give one this service takes; {token})",
        "404": f"{NO_AGENT}{whose}: run `harness-memory install {harness}{flag} --project P "
        f"--agent A --url URL --memory-root ROOT` with the right ones{RIGHT_ONES})",
    }


def said(hooks: Hooks) -> dict[str, str]:
    return {
        "install": hooks.install(),
        "401 none sent": str(ServiceRejectedError(401, "no token", hooks=hooks)),
        "401 refused": str(
            ServiceRejectedError(401, "bad token", token_source="--token", hooks=hooks)
        ),
        "404": str(ServiceRejectedError(404, "no agent 'coder'", hooks=hooks)),
    }


@pytest.mark.parametrize("managed", [False, True], ids=["user-level", "managed"])
@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_each_harness_and_install_kind_is_told_its_own_command(
    harness: str, managed: bool
) -> None:
    assert said(Hooks(harness, managed)) == expected(harness, managed)


def test_a10_a_command_run_by_hand_names_the_install_of_each_harness() -> None:
    every = "`harness-memory install HARNESS` again (HARNESS: claude-code, codex or gemini)"
    assert said(ANY_HOOKS)["install"] == every
    assert (
        f"(no token was sent: {NO_TOKEN_GIVE}installed hooks:" in said(ANY_HOOKS)["401 none sent"]
    )
    assert said(ANY_HOOKS)["404"].endswith(
        "installed hooks: run `harness-memory install HARNESS --project P --agent A --url URL "
        f"--memory-root ROOT` with the right ones{RIGHT_ONES}; HARNESS: claude-code, codex or "
        "gemini)"
    )


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_a_user_level_hooks_stderr_and_record_name_its_own_install(
    shared_service: RealService,
    new_agent: str,
    tmp_path: Path,
    harness: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The hook's ``systemMessage`` named `install codex`, its stderr line and its Session
    record `install HARNESS`: all three name the hook's own install now."""
    caplog.set_level(logging.WARNING, logger="harness_memory")
    fixture = {"claude-code": "session_start.json"}.get(harness, f"{harness}_session_start.json")
    state = tmp_path / "state"
    flags = ["--url", shared_service.url, "--project", "acme", "--agent", new_agent]
    flags += ["--state-dir", str(state), "--flags-only"]
    stdin = io.BytesIO(hook_fixture(fixture, workspace=str(tmp_path)))
    out = io.StringIO()
    argv = ["hook", harness, "session-start", *flags]
    assert main(argv, environ={}, stdin=stdin, stdout=out) == 0
    records = [p for p in state.rglob("*.json") if "sessions" in p.parts]
    assert records, sorted(state.rglob("*"))
    answer = json.loads(out.getvalue())
    texts = {
        "systemMessage": str(answer["systemMessage"]),
        "record": json.loads(records[0].read_text("utf-8"))["error"],
        "stderr": caplog.text,
    }
    advice = expected(harness, managed=False)["401 none sent"].split("answered 401: ", 1)[1]
    for where, text in texts.items():
        assert advice.split(" (", 1)[1] in text, (where, text)
        assert "install HARNESS" not in text, (where, text)


def test_a10_a_sync_by_hand_of_codex_remote_hooks_names_the_codex_install(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """``harness-memory sync`` by hand reads the installed Codex hooks' --token-file; a token
    the service refuses named `install HARNESS` (for any harness) rather than theirs."""
    from tests.plugin.helpers import HARNESS_MEMORY

    home = tmp_path / "home"
    words = ["install", "codex", "--remote", shared_service.url, "--project", "acme"]
    words += ["--agent", new_agent, "--executable", str(HARNESS_MEMORY), "--no-check"]
    given = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": "mem_not-a-token-it-holds"}
    assert main(words, environ=given, stdout=io.StringIO()) == 0
    out = io.StringIO()

    status = main(["sync", "--workspace", str(tmp_path)], environ={"HOME": str(home)}, stdout=out)

    assert status == 1, out.getvalue()
    assert "`harness-memory install codex` again" in out.getvalue()
    assert "install HARNESS" not in out.getvalue()
