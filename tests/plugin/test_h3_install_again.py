"""Upgrading an install: ``harness-memory install HARNESS`` again, with nothing else (H-3, H-7).

An install from before the token file kept Claude Code's token in the settings' ``env``, which
the hooks no longer read: memory is off for their Sessions until the install runs again. The
one command the Session-start hook and ``harness-memory status`` name is
``harness-memory install claude-code``, and it is enough: with no URL, project, agent or
memory root given, it takes them (and the timeout, and the token file's token) from the hooks
already installed, moves the ``env`` token into the token file, and run once more it changes
nothing.
"""

from __future__ import annotations

import io
import json
import os
import pwd
import shlex
import stat
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.hooks.session_start import ignored_env_message
from harness_memory.installers.spec import GUARD_EVENTS, flag_values, our_commands
from harness_memory.settings import load_settings
from memory_core import layout

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService

TOKEN = "s3cr3t-Token-4711"
AS_INSTALLED = ["--project", "acme", "--agent", "coder"]
SETTINGS = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}


def cli(home: Path, *words: str) -> tuple[int, str]:
    out = io.StringIO()
    argv = [*words, "--home", str(home)]
    if words[0] == "install":
        argv += ["--executable", str(HARNESS_MEMORY), "--no-check"]
    return main(argv, environ={"HOME": str(home)}, stdout=out), out.getvalue()


def first_install(home: Path, root: Path, harness: str, *extra: str) -> None:
    flags = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    status, said = cli(home, "install", harness, *flags, "--memory-root", str(root), *extra)
    assert status == 0, said


def settings(home: Path, harness: str) -> dict[str, object]:
    document: dict[str, object] = json.loads((home / SETTINGS[harness]).read_text("utf-8"))
    return document


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    path.mkdir(parents=True)
    return path


def test_h3_an_install_whose_token_is_in_env_is_upgraded_by_the_one_command(
    tmp_path: Path, root: Path
) -> None:
    home = tmp_path / "home"
    first_install(home, root, "claude-code", "--timeout", "5")
    path = home / SETTINGS["claude-code"]
    older = path.read_text("utf-8").replace(" --flags-only", "")  # as an older release wrote it
    document = json.loads(older)
    document["env"] = {"HARNESS_MEMORY_TOKEN": TOKEN, "EDITOR": "vim"}
    path.write_text(json.dumps(document, indent=2), "utf-8")
    _, told = cli(home, "status")
    assert "run `harness-memory install claude-code` again" in told

    status, said = cli(home, "install", "claude-code")

    assert status == 0, said
    assert f"--memory-root {root}" in said and "--timeout 5" in said  # what it took over
    assert TOKEN not in said
    document = settings(home, "claude-code")
    assert document["env"] == {"EDITOR": "vim", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}
    token = home / ".claude" / "harness-memory" / "token"
    assert token.read_text("utf-8") == TOKEN + "\n"
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    commands = our_commands(document, "claude-code")
    assert all("--flags-only" in command.split() for command in commands)
    assert all(flag_values(command, "--memory-root") == [str(root)] for command in commands)
    assert all(flag_values(command, "--timeout") == ["5"] for command in commands)
    starts = [c for c in commands if " session-start " in c]
    assert all(flag_values(c, "--token-file") == [str(token)] for c in starts)
    assert "WARNING" not in cli(home, "status")[1]


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_installing_again_with_nothing_else_changes_nothing_and_keeps_the_token(
    tmp_path: Path, root: Path, harness: str
) -> None:
    home = tmp_path / "home"
    first_install(home, root, harness, "--token", TOKEN)
    before = (home / SETTINGS[harness]).read_bytes()

    status, said = cli(home, "install", harness)

    assert status == 0, said
    assert "nothing to change (already installed)" in said
    # the harness's own memory: said as it stands, not as a change this run made
    own = [line for line in said.splitlines() if "own" in line and "memor" in line]
    assert own and all(": still turned off (" in line for line in own if "turned off" in line)
    assert all("as the install before left it" in line for line in own if "turned off" in line)
    assert (home / SETTINGS[harness]).read_bytes() == before
    token = (home / SETTINGS[harness]).parent / "harness-memory" / "token"
    assert token.read_text("utf-8") == TOKEN + "\n"


def test_h3_install_with_nothing_installed_and_nothing_given_still_asks_for_the_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli(tmp_path / "home", "install", "codex")
    assert exited.value.code == 2
    assert "missing --memory-root (HARNESS_MEMORY_ROOT), --url" in capsys.readouterr().err


def test_h3_the_hook_names_the_one_command_when_the_env_token_is_all_it_had(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Claude Code user-settings hook (``--state-dir``) without a token file: ``install
    claude-code``; a managed hook (no state dir) without one: ``token set``; a hook with its
    token file, or another harness's: nothing to do."""
    env = {"HARNESS_MEMORY_TOKEN": TOKEN, "HOME": str(tmp_path)}
    user = load_settings({"state_dir": str(tmp_path / "state")}, env, flags_only=True)
    said = ignored_env_message(user, "claude-code") or ""
    flags = "--url URL --project P --agent A --memory-root ROOT"  # none given: each named
    assert f"run `harness-memory install claude-code {flags}` once" in said
    said = ignored_env_message(user, "codex") or ""  # no install of it kept a token in env
    assert "ignored HARNESS_MEMORY_TOKEN" in said and "harness-memory install" not in said

    entry = pwd.getpwuid(os.getuid())  # the account's home, with no token file in it yet
    account = pwd.struct_passwd((*entry[:5], str(tmp_path / "account"), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: account)
    managed = load_settings({}, env, flags_only=True)
    said = ignored_env_message(managed, "claude-code") or ""
    assert "run `harness-memory token set --managed` once" in said  # whatever $HOME says

    token_file = tmp_path / "token"
    token_file.write_text(TOKEN, "utf-8")
    given = {"state_dir": str(tmp_path / "state"), "token_file": str(token_file)}
    said = ignored_env_message(load_settings(given, env, flags_only=True), "codex") or ""
    assert "ignored HARNESS_MEMORY_TOKEN" in said and "harness-memory install" not in said


def test_h3_a_hook_run_by_hand_before_any_install_names_every_flag_the_install_needs(
    tmp_path: Path,
) -> None:
    """Nothing is installed yet, so ``install claude-code`` alone takes no settings from any
    hooks and stops at "missing --memory-root, --url, …": the hint names the hook's own
    settings as the flags, remote mode's ``--remote URL`` in place of ``--url`` and the root."""
    env = {"HARNESS_MEMORY_TOKEN": TOKEN, "HOME": str(tmp_path)}
    flags = {"url": "http://127.0.0.1:9", "project": "acme", "agent": "coder"}
    flags |= {"root": str(tmp_path / "my memory"), "state_dir": str(tmp_path / "state")}
    said = ignored_env_message(load_settings(flags, env, flags_only=True), "claude-code") or ""
    root = shlex.quote(str(tmp_path / "my memory"))
    install = "harness-memory install claude-code --url http://127.0.0.1:9 --project acme"
    assert f"run `{install} --agent coder --memory-root {root}` once" in said
    flags |= {"remote": "on"}
    said = ignored_env_message(load_settings(flags, env, flags_only=True), "claude-code") or ""
    remote = "harness-memory install claude-code --remote http://127.0.0.1:9 --project acme"
    assert f"run `{remote} --agent coder` once" in said


def test_h3_a_hand_run_hook_without_a_token_file_is_pointed_at_the_one_the_install_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run by hand as the README shows it, with the variable set and ``--flags-only``, a hook
    naming its own state dir and no ``--token-file`` sent no token; the install was done, so
    "install once to move yours there" was no way out: the hook names the install's file."""
    entry = pwd.getpwuid(os.getuid())
    account = pwd.struct_passwd((*entry[:5], str(tmp_path / "account"), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: account)
    token_file = tmp_path / "account" / ".claude" / "harness-memory" / "token"
    token_file.parent.mkdir(parents=True)
    token_file.write_text(TOKEN, "utf-8")
    env = {"HARNESS_MEMORY_TOKEN": TOKEN, "HOME": str(tmp_path / "account")}
    by_hand = load_settings({"state_dir": str(tmp_path / "try")}, env, flags_only=True)

    said = ignored_env_message(by_hand, "claude-code") or ""

    assert f"--token-file {token_file}" in said
    assert "harness-memory install claude-code` once" not in said


def test_h3_installing_again_keeps_remote_mode(tmp_path: Path) -> None:
    home = tmp_path / "home"
    flags = ["--remote", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    status, said = cli(home, "install", "codex", *flags, "--token", TOKEN)
    assert status == 0, said
    before = (home / SETTINGS["codex"]).read_bytes()

    status, said = cli(home, "install", "codex")

    assert status == 0, said
    assert "--remote on" in said and "nothing to change (already installed)" in said
    assert (home / SETTINGS["codex"]).read_bytes() == before


@pytest.mark.parametrize("given", [[], ["--remote", "http://127.0.0.1:9", *AS_INSTALLED]])
def test_h3_a_memory_root_for_remote_mode_is_refused_not_dropped(
    tmp_path: Path, root: Path, given: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Remote mode's memory root is its local copy: ``--memory-root DIR`` given to an install
    again of remote-mode hooks was dropped without a word, and the hooks kept the copy; with
    ``--remote`` it was refused already, without saying what to do instead. Both are refused
    (usage error, nothing written), saying what to do."""
    home = tmp_path / "home"
    remote = ["--remote", "http://127.0.0.1:9", *AS_INSTALLED]
    assert cli(home, "install", "codex", *remote, "--token", TOKEN)[0] == 0
    before = (home / SETTINGS["codex"]).read_bytes()

    with pytest.raises(SystemExit) as refused:
        cli(home, "install", "codex", *given, "--memory-root", str(root))

    assert refused.value.code == 2
    error = " ".join(capsys.readouterr().err.split())
    assert (
        "--memory-root with remote mode (--remote, or hooks installed with it): its memory root "
        "is the local copy under ~/.harness-memory, which follows from --project and --agent; "
        "leave --memory-root out"
    ) in error
    assert (home / SETTINGS["codex"]).read_bytes() == before


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_installing_again_moves_a_token_from_the_command_lines_into_its_file(
    tmp_path: Path, root: Path, harness: str
) -> None:
    """An install from before the token file wrote ``--token T`` on its hook commands:
    installing again with nothing else keeps that token, in the 0600 file, off every line."""
    home = tmp_path / "home"
    first_install(home, root, harness, "--token", TOKEN)
    path = home / SETTINGS[harness]
    token = path.parent / "harness-memory" / "token"
    named = json.dumps(f"--token-file {token}")[1:-1]
    path.write_text(path.read_text("utf-8").replace(named, f"--token {TOKEN}"), "utf-8")
    token.unlink()

    status, said = cli(home, "install", harness)

    assert status == 0, said
    assert TOKEN not in said and TOKEN not in path.read_text("utf-8")
    assert token.read_text("utf-8") == TOKEN + "\n"
    assert "WARNING" not in cli(home, "status")[1]


@pytest.mark.parametrize("harness", sorted(SETTINGS))
def test_h3_an_install_for_a_second_agent_says_it_replaces_the_first_agents_hooks(
    tmp_path: Path, root: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A harness's settings hold one agent's hooks: ``--agent reviewer`` after ``--agent
    coder`` rewrites them, and every Session then starts with reviewer's memory. The install
    said only that it wrote the file; it now says whose hooks it replaced and how to go back.
    The same agent installed again, or a first install, says nothing of the kind."""
    home = tmp_path / "home"
    first_install(home, root, harness)
    again = ["--url", "http://127.0.0.1:9", "--project", "acme", "--memory-root", str(root)]
    cli(home, "install", harness, *again, "--agent", "coder")
    assert "replaces" not in caplog.text

    status, said = cli(home, "install", harness, *again, "--agent", "reviewer")

    assert status == 0, said
    [warning] = [record for record in caplog.records if "replaces" in record.getMessage()]
    path = home / SETTINGS[harness]
    assert warning.levelname == "WARNING"
    assert (
        f"install {harness}: replaces agent acme/coder's hooks in {path} with "
        f"acme/reviewer's" in warning.getMessage()
    )
    back = f"--url http://127.0.0.1:9 --project acme --agent coder --memory-root {root}"
    assert f"(to go back: `harness-memory install {harness} {back}`)" in warning.getMessage()
    commands = our_commands(settings(home, harness), harness)
    assert {value for command in commands for value in flag_values(command, "--agent")} == {
        "reviewer"
    }
    assert cli(home, "install", harness, *back.split())[0] == 0  # the command, as said
    commands = our_commands(settings(home, harness), harness)
    assert {value for command in commands for value in flag_values(command, "--agent")} == {"coder"}


@pytest.mark.parametrize("harness", sorted(SETTINGS))
def test_h3_a_moved_data_dir_is_named_with_memory_root_alone(
    tmp_path: Path, root: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A checkout moved with ``make run``'s ``.data`` leaves the hooks naming a memory root
    that is gone. ``status`` says so and what to run; installing again with nothing else
    stops on that root saying where the root is; ``--memory-root`` alone then reinstalls,
    the URL, ids and token taken from the hooks as installed."""
    home = tmp_path / "home"
    first_install(home, root, harness, "--token", TOKEN)
    moved = tmp_path / "moved"
    moved.mkdir()
    (tmp_path / "data").rename(moved / "data")
    new_root = moved / "data" / "agents" / "coder" / "agent_state" / "memory"

    _, told = cli(home, "status")
    assert f"memory root {root} — PROBLEM: it does not exist" in told
    assert f"`harness-memory install {harness} --memory-root DIR` (the rest as installed)" in told

    before = (home / SETTINGS[harness]).read_bytes()
    argv = ["install", harness, "--home", str(home), "--executable", str(HARNESS_MEMORY)]
    assert main(argv, environ={"HOME": str(home)}, stdout=io.StringIO()) != 0  # checked
    error = "\n".join(record.getMessage() for record in caplog.records)
    assert f"the memory root {root} does not exist" in error
    assert "the service logs when it starts (`data dir: …`" in error
    assert (home / SETTINGS[harness]).read_bytes() == before  # nothing was changed

    status, said = cli(home, "install", harness, "--memory-root", str(new_root))

    assert status == 0, said
    assert f"--memory-root {new_root}" in said and "--agent coder" in said
    commands = our_commands(settings(home, harness), harness)
    assert all(flag_values(command, "--memory-root") == [str(new_root)] for command in commands)
    assert all(flag_values(command, "--url") == ["http://127.0.0.1:9"] for command in commands)
    token = (home / SETTINGS[harness]).parent / "harness-memory" / "token"
    assert token.read_text("utf-8") == TOKEN + "\n"
    _, told = cli(home, "status")
    assert "PROBLEM" not in told


_REFUSED_UNLESS_THE_GUARD_RAN = (
    " || { echo 'Agent Memory: the write guard did not run (its command failed or is "
    "missing), so this call is refused; see harness-memory status' >&2; exit 2; }"
)


def _hooks_before_the_token_file(
    harness: str, home: Path, service: tuple[str, str], root: Path
) -> str:
    """The hooks file an install of ``harness`` from before the token file (commit 4045f5bb)
    wrote for ``service`` (its URL and token): the token on each hook command line
    (``--token T``), as that release had it."""
    state, (url, token) = (home / SETTINGS[harness]).parent / "harness-memory", service

    def command(event: str) -> str:
        words = f"hook {harness} {event} --url {url} --project acme --agent coder"
        line = f"{HARNESS_MEMORY} {words} --memory-root {root} --token {token} --state-dir {state}"
        return line + (_REFUSED_UNLESS_THE_GUARD_RAN if event in GUARD_EVENTS else "")

    if harness == "codex":
        start = {"type": "command", "command": command("session-start"), "timeout": 30}
        guard = {"type": "command", "command": command("pre-tool-use"), "timeout": 30}
        matcher, event = "apply_patch|Bash|write_stdin|mcp__.*", "PreToolUse"
    else:
        start = {"name": "agent-memory-session-start", "type": "command",
                 "command": command("session-start"), "timeout": 30_000}  # fmt: skip
        guard = {"name": "agent-memory-before-tool", "type": "command",
                 "command": command("before-tool"), "timeout": 30_000}  # fmt: skip
        matcher, event = "write_file|replace|run_shell_command|mcp_.*", "BeforeTool"
    hooks = {"SessionStart": [{"hooks": [start]}], event: [{"matcher": matcher, "hooks": [guard]}]}
    return json.dumps({"hooks": hooks}, indent=2)


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h3_installing_again_with_flags_keeps_a_token_from_the_command_lines(
    tmp_path: Path, shared_service: RealService, new_agent: str, harness: str
) -> None:
    """Hooks from before the token file carry ``--token T`` on their command lines. Installing
    again with every setting given (``--url --project --agent --memory-root``, no token) keeps
    that token, as installing again with nothing else does and as Claude Code's ``env`` token
    is kept: the service that needs it is asked with it, and it is moved into the 0600 file,
    off every line. Found: the install failed ("needs a bearer token and none was given")."""
    home, url = tmp_path / "home", shared_service.url
    root = layout.memory_root(shared_service.data_dir, new_agent)
    path = home / SETTINGS[harness]
    path.parent.mkdir(parents=True)
    old = _hooks_before_the_token_file(harness, home, (url, shared_service.token), root)
    path.write_text(old.replace("--agent coder", f"--agent {new_agent}"), "utf-8")
    flags = ["--url", url, "--project", "acme", "--agent", new_agent, "--memory-root", str(root)]
    out = io.StringIO()
    argv = ["install", harness, *flags, "--home", str(home), "--executable", str(HARNESS_MEMORY)]

    status = main(argv, environ={"HOME": str(home)}, stdout=out)

    said, token = out.getvalue(), path.parent / "harness-memory" / "token"
    assert status == 0, said
    assert shared_service.token not in said + path.read_text("utf-8")
    assert token.read_text("utf-8") == shared_service.token + "\n"
    assert stat.S_IMODE(token.stat().st_mode) == 0o600


@pytest.mark.parametrize("given", [[], ["--token", "n3w-Token-0815-abc"]], ids=["kept", "new"])
@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h3_installing_again_with_flags_and_no_check_keeps_a_token_unless_one_is_given(
    tmp_path: Path, root: Path, harness: str, given: list[str]
) -> None:
    """As above, unchecked (an open service, or one that does not answer): the old hooks'
    token is kept in the 0600 file, never dropped in silence; a token given anew wins.
    Found: no token file was written."""
    home = tmp_path / "home"
    path = home / SETTINGS[harness]
    path.parent.mkdir(parents=True)
    path.write_text(
        _hooks_before_the_token_file(harness, home, ("http://127.0.0.1:9", TOKEN), root), "utf-8"
    )

    status, said = cli(home, "install", harness, *AS_INSTALLED, "--url", "http://127.0.0.1:9",
                       "--memory-root", str(root), *given)  # fmt: skip

    assert status == 0, said
    assert TOKEN not in said + path.read_text("utf-8")
    token = (path.parent / "harness-memory" / "token").read_text("utf-8")
    assert token == (given[-1] if given else TOKEN) + "\n"
