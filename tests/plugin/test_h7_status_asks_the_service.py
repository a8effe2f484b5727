"""H-7: ``harness-memory status`` asks the service what ``install`` asked it.

Hooks installed with ``--no-check`` and a wrong token, or whose token was revoked since, start
every Session without memory (the 401 fails open, P-2) while their settings look fine. So
``status`` sends the token the installed hooks send, as they read it, and asks for the agent's
config: a refused token is a PROBLEM line and exit 1; a service that does not answer is said,
and is no fault of the token (exit 0).

The tests ask the worker's shared service (``shared_service``) about an agent of their own
(``new_agent``); the two that create tokens, and the open service's, start a service each.
"""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

from harness_memory.cli import main
from harness_memory.installers.service_check import service_lines as asked_of_the_service

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService

UNREACHABLE = "http://127.0.0.1:9"


def install(
    home: Path, root: Path, url: str, token: str | None, *extra: str, agent: str = "coder"
) -> None:
    flags = ["--home", str(home), "--memory-root", str(root), "--url", url]
    flags += ["--project", "acme", "--agent", agent, "--executable", str(HARNESS_MEMORY)]
    flags += [] if token is None else ["--token", token]
    status = main(
        ["install", *extra, *flags, "--no-check"],
        environ={"HOME": str(home)},
        stdout=io.StringIO(),
    )
    assert status == 0


def status(home: Path) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return code, out.getvalue().splitlines()


def service_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("service ")]


def test_h7_status_fails_on_a_token_the_service_refuses(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    url = shared_service.url
    install(
        home, shared_memory_root, url, "not-the-token-0123456789", "claude-code", agent=new_agent
    )
    code, lines = status(home)
    token_file = home / ".claude" / "harness-memory" / "token"
    assert code == 1
    assert service_lines(lines) == [
        f"service {url} (acme/{new_agent}): PROBLEM: the service refused the token "
        f"from --token-file {token_file} (401: the bearer token is not known to this service "
        "(revoked or mistyped)): every Session of these hooks starts without memory; give them "
        "a token it takes (`harness-memory install claude-code` again with that token in "
        "HARNESS_MEMORY_TOKEN)"
    ]


def test_h7_status_fails_once_the_installed_token_is_revoked(
    real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    secret = real_service.cli("token", "create", "--name", "laptop").stdout.strip()
    home = tmp_path / "home"
    install(home, memory_root, real_service.url, secret, "codex")
    assert status(home)[0] == 0
    assert service_lines(status(home)[1]) == [
        f"service {real_service.url} (acme/coder): takes the hooks' token and holds the agent"
    ]

    real_service.cli("token", "revoke", "--name", "laptop")
    code, lines = status(home)
    assert code == 1
    [said] = service_lines(lines)
    assert "PROBLEM: the service refused the token from --token-file " in said


def test_h7_status_says_an_unanswering_service_and_blames_no_token(
    new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    install(
        home, shared_memory_root, UNREACHABLE, "any-token-0123456789ab", "gemini", agent=new_agent
    )
    code, lines = status(home)
    assert code == 0
    [said] = service_lines(lines)
    assert said.startswith(f"service {UNREACHABLE} (acme/{new_agent}): does not answer (")
    assert said.endswith(
        "so the token could not be checked; until it answers, Sessions start without it (their "
        "memory read from the files when they are on this machine) and the write guard still "
        "refuses writes into other Workspaces' memory"
    )
    assert "PROBLEM" not in said


def test_h7_status_names_the_project_of_an_agent_installed_under_another(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    shared_service.create_agent(f"{new_agent}-helper", "other")
    home = tmp_path / "home"
    url = shared_service.url
    flags = ["--home", str(home), "--memory-root", str(shared_memory_root), "--url", url]
    flags += ["--project", "other", "--agent", new_agent, "--executable", str(HARNESS_MEMORY)]
    flags += ["--token", shared_service.token, "--no-check"]
    assert main(["install", "codex", *flags], environ={"HOME": str(home)}) == 0
    code, lines = status(home)
    assert code == 1
    assert service_lines(lines) == [
        f"service {url} (other/{new_agent}): PROBLEM: the service answered 404 (no agent "
        f"'{new_agent}' in project 'other'): agent '{new_agent}' is in project 'acme', not "
        "'other': give --project acme"
    ]


def test_h7_a_sessions_404_points_at_status_which_says_why(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    out = io.StringIO()
    flags = ["--url", shared_service.url, "--token", shared_service.token, "--agent", new_agent]
    args = ["session-start", *flags, "--project", "acm", "--format", "json"]
    assert main(args, environ={"HOME": str(tmp_path)}, stdout=out) == 1  # refused (P-4)
    error = json.loads(out.getvalue())["sessionMeta"]["error"]
    assert error.startswith(
        f"memory service answered 404: no agent '{new_agent}' in project 'acm' ("
    )
    assert "for installed hooks, `harness-memory status` says why" in error


def test_h7_hooks_of_an_install_before_flags_only_are_not_blamed_for_a_token_status_cannot_see(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """Such hooks took the token from the environment Claude Code gave them (its settings'
    ``env``), which ``status`` does not see: it cannot check their token, and says so."""
    home = tmp_path / "home"
    url, token = shared_service.url, shared_service.token
    install(home, shared_memory_root, url, token, "claude-code", agent=new_agent)
    settings = home / ".claude" / "settings.json"
    token_file = shlex.quote(str(home / ".claude" / "harness-memory" / "token"))
    old = settings.read_text(encoding="utf-8").replace(" --flags-only", "")
    settings.write_text(old.replace(f" --token-file {token_file}", ""), encoding="utf-8")
    code, lines = status(home)
    assert code == 0
    [said] = service_lines(lines)
    assert said.startswith(
        f"service {url} (acme/{new_agent}): could not be checked: these hooks (an "
        "install from before --flags-only) take their token from the environment"
    )
    # the command that fixes it names their harness: a bare `install` is refused by argparse
    assert said.endswith("run `harness-memory install claude-code` again to give them a token file")


def old_claude_code_install_with_the_token_in_env(
    home: Path, root: Path, url: str, token: str, agent: str
) -> None:
    """Hooks as an install from before ``--flags-only`` and the token file left them: no
    ``--flags-only``, no ``--token-file``, the token in the settings' ``env``."""
    install(home, root, url, "placeholder-0123456789", "claude-code", agent=agent)
    settings = home / ".claude" / "settings.json"
    token_file = home / ".claude" / "harness-memory" / "token"
    text = settings.read_text(encoding="utf-8").replace(" --flags-only", "")
    document = json.loads(text.replace(f" --token-file {shlex.quote(str(token_file))}", ""))
    document["env"] = {"HARNESS_MEMORY_TOKEN": token}
    settings.write_text(json.dumps(document), encoding="utf-8")
    token_file.unlink()


def test_h7_status_checks_a_token_an_earlier_install_kept_in_the_settings_env(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """Claude Code gives its hooks the settings' ``env``: ``status`` sends the token from
    there, as those hooks do, and says it belongs in the 0600 token file (installing again
    moves it)."""
    home = tmp_path / "home"
    url, token = shared_service.url, shared_service.token
    old_claude_code_install_with_the_token_in_env(home, shared_memory_root, url, token, new_agent)

    code, lines = status(home)

    assert code == 0
    assert service_lines(lines) == [
        f"service {url} (acme/{new_agent}): takes the hooks' token (from "
        "HARNESS_MEMORY_TOKEN in the settings' env) and holds the agent; the token belongs in "
        "a file only you can read: `harness-memory install claude-code` again moves it there"
    ]
    assert any(
        "WARNING: the settings' env holds HARNESS_MEMORY_TOKEN, which these hooks read" in line
        for line in lines
    )


def test_h7_status_fails_on_a_refused_token_in_the_settings_env(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    url = shared_service.url
    old_claude_code_install_with_the_token_in_env(
        home, shared_memory_root, url, "not-the-token-0123456789", new_agent
    )

    code, lines = status(home)

    assert code == 1
    [said] = service_lines(lines)
    assert said.startswith(
        f"service {url} (acme/{new_agent}): PROBLEM: the service refused the token "
        "from HARNESS_MEMORY_TOKEN in the settings' env (401: "
    )


def test_h7_an_install_again_moves_the_settings_env_token_and_status_then_checks_the_file(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    url, token = shared_service.url, shared_service.token
    old_claude_code_install_with_the_token_in_env(home, shared_memory_root, url, token, new_agent)
    again = main(
        ["install", "claude-code", "--home", str(home), "--no-check"],
        environ={"HOME": str(home)},
        stdout=io.StringIO(),
    )
    assert again == 0

    code, lines = status(home)

    assert code == 0
    assert service_lines(lines) == [
        f"service {url} (acme/{new_agent}): takes the hooks' token and holds the agent"
    ]
    assert not any("settings' env" in line for line in lines)


def test_h7_status_finds_the_agents_project_in_the_agent_json_beside_the_memory_root(
    real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    """A token limited to another project learns nothing of ``acme`` from the service; the
    memory root the hooks name is a folder on this machine, whose ``agent.json`` says it."""
    secret = real_service.cli("token", "create", "--name", "typo", "--project", "acm").stdout
    home = tmp_path / "home"
    flags = ["--home", str(home), "--memory-root", str(memory_root), "--url", real_service.url]
    flags += ["--project", "acm", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    flags += ["--token", secret.strip(), "--no-check"]
    assert main(["install", "gemini", *flags], environ={"HOME": str(home)}) == 0
    code, lines = status(home)
    assert code == 1
    [said] = service_lines(lines)
    assert said.endswith("agent 'coder' is in project 'acme', not 'acm': give --project acme")


def test_h7_status_says_a_service_without_tokens_asks_for_none(
    open_service: RealService, tmp_path: Path
) -> None:
    """A service with no tokens configured (open, on loopback only, A-10) takes no token: the
    line says so, not that it "takes the hooks' token" (which no hook sent)."""
    root = open_service.create_agent("coder")
    home = tmp_path / "home"
    install(home, root, open_service.url, None, "claude-code")

    code, lines = status(home)

    assert code == 0
    assert service_lines(lines) == [
        f"service {open_service.url} (acme/coder): holds the agent and asks for no token "
        "(none are configured there)"
    ]


def test_h7_status_says_a_token_sent_to_a_service_without_tokens_is_not_needed(
    open_service: RealService, tmp_path: Path
) -> None:
    """An open service takes any token, so its taking the hooks' proves nothing: said so."""
    root = open_service.create_agent("coder")
    home = tmp_path / "home"
    install(home, root, open_service.url, "any-token-0123456789ab", "codex")

    code, lines = status(home)

    token_file = home / ".codex" / "harness-memory" / "token"
    assert code == 0
    assert service_lines(lines) == [
        f"service {open_service.url} (acme/coder): holds the agent and asks for no token "
        f"(none are configured there); the hooks' token (from --token-file {token_file}) is "
        "not needed"
    ]


def test_h7_status_says_a_service_once_for_two_harnesses_answered_alike(
    open_service: RealService, tmp_path: Path
) -> None:
    """Claude Code and Gemini CLI installed for one agent of one service: two sets of hooks,
    each with its own state dir, asked alike and answered alike, so one line (the same line
    twice read as two services)."""
    root = open_service.create_agent("coder")
    home = tmp_path / "home"
    install(home, root, open_service.url, None, "claude-code")
    install(home, root, open_service.url, None, "gemini")

    code, lines = status(home)

    assert code == 0
    assert service_lines(lines) == [
        f"service {open_service.url} (acme/coder): holds the agent and asks for no token "
        "(none are configured there)"
    ]


def test_h7_status_keeps_a_line_per_harness_when_their_tokens_are_answered_apart(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """One harness's hooks send a token the service takes, the other's one it refuses: two
    lines, the PROBLEM naming the refused token's file, and exit 1."""
    home = tmp_path / "home"
    url, root = shared_service.url, shared_memory_root
    install(home, root, url, shared_service.token, "claude-code", agent=new_agent)
    install(home, root, url, "not-the-token-0123456789", "gemini", agent=new_agent)

    code, lines = status(home)

    refused = home / ".gemini" / "harness-memory" / "token"
    assert code == 1
    taken, problem = service_lines(lines)
    assert taken == (
        f"service {url} (acme/{new_agent}) for the claude-code hooks: takes the hooks' token "
        "and holds the agent"
    )
    assert problem.startswith(
        f"service {url} (acme/{new_agent}) for the gemini hooks: PROBLEM: the service refused "
        f"the token from --token-file {refused} "
    )
    assert problem.endswith(
        "give them a token it takes (`harness-memory install gemini` again with that token in "
        "HARNESS_MEMORY_TOKEN)"
    )


def test_h7_status_names_the_harnesses_whose_hooks_send_no_token_to_a_service_that_asks(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """Claude Code installed with the token, Codex CLI and Gemini CLI installed before the data
    dir held one (no token file): the service's two answers are two lines, each naming whose
    hooks it is about, and the refusal names the installs that give those hooks the token (it
    said "the service refused no token (none is configured)" for hooks nobody could tell)."""
    home = tmp_path / "home"
    url, root = shared_service.url, shared_memory_root
    install(home, root, url, shared_service.token, "claude-code", agent=new_agent)
    install(home, root, url, None, "codex", agent=new_agent)
    install(home, root, url, None, "gemini", agent=new_agent)

    code, lines = status(home)

    assert code == 1
    assert service_lines(lines) == [
        f"service {url} (acme/{new_agent}) for the claude-code hooks: takes the hooks' token "
        "and holds the agent",
        f"service {url} (acme/{new_agent}) for the codex, gemini hooks: PROBLEM: these hooks "
        "send no token (none is configured for them) and the service asks for one (401: this "
        "service needs a bearer token: send 'Authorization: Bearer <token>'): every Session of "
        "these hooks starts without memory; give them a token it takes (`harness-memory install "
        "codex` and `harness-memory install gemini` again with that token in "
        "HARNESS_MEMORY_TOKEN)",
    ]


def test_h7_a_refusal_of_managed_hooks_names_token_set_and_of_user_hooks_the_install(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """Managed hooks take no token at install: each user gives theirs with ``token set``; the
    user settings' hooks get it by installing again. One refusal for both names both."""
    url = shared_service.url
    command = (
        f"{HARNESS_MEMORY} hook claude-code session-start --url {url} --project acme "
        f"--agent {new_agent} --state-dir {tmp_path / 'no-token-here'} --flags-only"
    )
    whose = {command: ["claude-code (managed)", "codex"]}

    lines, fine = asked_of_the_service([command], {}, harnesses=whose)

    assert not fine
    [said] = lines
    assert said.startswith(f"service {url} (acme/{new_agent}): PROBLEM: these hooks send no token")
    assert said.endswith(
        "give them a token it takes (`harness-memory install codex` again with that token in "
        "HARNESS_MEMORY_TOKEN; `harness-memory token set --managed`)"
    )
