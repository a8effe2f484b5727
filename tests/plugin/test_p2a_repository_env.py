"""P-2a: a repository's settings can set the environment of a Session's hooks (Claude Code's
``.claude/settings.json`` ``env``, Gemini CLI's ``.env`` files), so the hooks ``harness-memory
install`` writes take their settings from their own flags (``--flags-only``): no
``HARNESS_MEMORY_*`` variable but the token can move the memory, the Session records the guard
trusts or the template, and the Session-start hook names the variables it ignored."""

from __future__ import annotations

import io
import json
import os
import pwd
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import unused_port
from harness_memory.cli import main
from harness_memory.settings import SettingsError, load_settings

from tests.plugin.harness_run import relocate
from tests.plugin.helpers import HARNESS_MEMORY, hook_fixture, run_cli, run_cli_in_shell
from tests.plugin.repository_python_env import KINDS, MARK, plant

HOOK_ENV = ("TEMPLATE", "STATE_DIR", "REMOTE", "TIMEOUT", "ROOT", "URL", "AGENT", "TOKEN_FILE")


def install(harness: str, home: Path, root: Path) -> None:
    argv = ["install", harness, "--home", str(home), "--memory-root", str(root)]
    argv += ["--url", f"http://127.0.0.1:{unused_port()}", "--project", "acme", "--agent", "coder"]
    argv += ["--executable", "/opt/am/bin/harness-memory", "--no-check"]
    assert main(argv, environ={"HOME": str(home)}, stdout=io.StringIO()) == 0


def hook_argv(command: str) -> list[str]:
    """The ``harness-memory`` arguments of an installed hook command (its shell tail cut)."""
    return shlex.split(command.split(" || ", 1)[0])[1:]


def run_hook(argv: list[str], environ: dict[str, str], stdin: bytes) -> Any:
    out = io.StringIO()
    assert main(argv, environ=environ, stdin=io.BytesIO(stdin), stdout=out) == 0
    return json.loads(out.getvalue()) if out.getvalue() else None


def repository_env(home: Path, repo: Path) -> dict[str, str]:
    """What a cloned repository's settings put into the hooks' environment."""
    template = repo / "template.md"
    template.write_text("Be brief.\n", encoding="utf-8")  # no {{MEMORY}}: memory shrinks away
    return {
        "HOME": str(home),
        "HARNESS_MEMORY_TEMPLATE": str(template),
        "HARNESS_MEMORY_STATE_DIR": str(repo / ".records"),
        "HARNESS_MEMORY_REMOTE": "on",
        "HARNESS_MEMORY_TIMEOUT": "3600",
        "HARNESS_MEMORY_AGENT": "intruder",
    }


def make_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    return root


def test_p2a_claude_code_hooks_ignore_a_repositorys_env_and_say_so(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    repo.mkdir()
    root = make_root(tmp_path)
    install("claude-code", home, root)
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    start = hook_argv(settings["hooks"]["SessionStart"][0]["hooks"][0]["command"])

    answer = run_hook(
        start, repository_env(home, repo), hook_fixture("session_start.json", workspace=str(repo))
    )

    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "Be brief." not in context
    assert "Workspace Memory Key" in context  # the built-in template, memory and key line
    assert "- Agent id: coder" in context
    for name in ("AGENT", "REMOTE", "STATE_DIR", "TEMPLATE", "TIMEOUT"):
        assert f"HARNESS_MEMORY_{name}" in answer["systemMessage"]
    assert not (repo / ".records").exists()
    records = home / ".claude" / "harness-memory" / "sessions"
    assert [p.name for p in records.iterdir()] == ["6ae0bd3a-31ab-479d-8199-c610bd3ebf18.json"]


def test_p2a_every_installed_hook_command_takes_its_settings_from_its_flags(
    tmp_path: Path,
) -> None:
    root = make_root(tmp_path)
    files = {
        "claude-code": ".claude/settings.json",
        "codex": ".codex/hooks.json",
        "gemini": ".gemini/settings.json",
    }
    for harness, name in files.items():
        home = tmp_path / harness
        install(harness, home, root)
        hooks = json.loads((home / name).read_text(encoding="utf-8"))["hooks"]
        commands = [h["command"] for groups in hooks.values() for g in groups for h in g["hooks"]]
        assert commands
        for command in commands:
            argv = hook_argv(command)
            assert "--flags-only" in argv, command
            assert "--state-dir" in argv, command


def test_p2a_flags_only_reads_no_variable_not_even_the_token(tmp_path: Path) -> None:
    """A repository's settings can set a Session's environment: a token from there would be
    sent in place of the user's (memory off for the Session, even with the managed install,
    which no repository can switch off). Installed hooks read theirs from the 0600 file."""
    environ = {f"HARNESS_MEMORY_{name}": "/repo/x" for name in HOOK_ENV}
    environ |= {"HARNESS_MEMORY_TOKEN": "r3po", "HARNESS_MEMORY_URL": "http://127.0.0.1:1"}
    token_file = tmp_path / "token"
    token_file.write_text("t0k\n", encoding="utf-8")
    token_file.chmod(0o600)
    flags: dict[str, str | None] = {"url": "http://127.0.0.1:1", "agent": "coder"}
    flags |= {"token_file": str(token_file), "state_dir": str(tmp_path / "state")}

    settings = load_settings(flags, environ, flags_only=True)

    assert settings.bearer_token() == "t0k"
    assert settings.template_file is None
    assert settings.memory_root is None
    assert settings.state_dir == tmp_path / "state"
    assert settings.remote is False
    assert settings.agent == "coder"
    ignored = [f"HARNESS_MEMORY_{n}" for n in (*HOOK_ENV, "TOKEN") if n != "URL"]
    assert settings.ignored_env == tuple(sorted(ignored))  # the URL agrees
    typed_by_hand = load_settings({}, {"HARNESS_MEMORY_TOKEN": "r3po"})
    assert typed_by_hand.token == "r3po"  # a command without --flags-only reads it


def test_p2a_a_hook_naming_no_state_dir_keeps_it_in_the_accounts_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The managed install's hooks (one command for every user) name no state dir: it is
    ``.claude/harness-memory`` of the account's home as the password database gives it, not
    where ``HOME`` or ``CLAUDE_CONFIG_DIR`` point (a repository's settings can set both), and
    the user's token is the ``token`` file there."""
    account = tmp_path / "account"
    entry = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*entry[:5], str(account), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: moved)
    state = account / ".claude" / "harness-memory"
    state.mkdir(parents=True)
    (state / "token").write_text("t0k\n", encoding="utf-8")
    (state / "token").chmod(0o600)
    repository = {"HOME": "/repo", "CLAUDE_CONFIG_DIR": "/repo/.cfg"}
    repository |= {"HARNESS_MEMORY_TOKEN": "r3po", "HARNESS_MEMORY_STATE_DIR": "/repo/state"}

    settings = load_settings({"url": "http://127.0.0.1:1"}, repository, flags_only=True)

    assert settings.state_dir == state
    assert settings.bearer_token() == "t0k"
    assert load_settings({}, repository).state_dir == Path("/repo/state")  # typed by hand


def test_p2a_an_account_the_password_database_does_not_know_keeps_no_state_under_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its only home would be ``$HOME``, which a repository's settings can set: a hook naming
    no state dir keeps none for it, and reads no token file from there (the real uid:
    ``test_p2a_unknown_account.py``)."""

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(uid)

    monkeypatch.setattr(pwd, "getpwuid", unknown)
    planted = tmp_path / ".claude" / "harness-memory"
    planted.mkdir(parents=True)
    (planted / "token").write_text("r3po\n", encoding="utf-8")
    (planted / "token").chmod(0o600)

    settings = load_settings({}, {"HOME": str(tmp_path)}, flags_only=True)

    assert settings.state_dir is None
    assert settings.token_file is None and settings.bearer_token() is None
    with pytest.raises(SettingsError, match="has no entry in the password database"):
        load_settings({"remote": "on"}, {"HOME": str(tmp_path)}, flags_only=True)
    given = load_settings({"state_dir": str(tmp_path / "s")}, {}, flags_only=True)
    assert given.state_dir == tmp_path / "s"  # a user-settings install's hooks name theirs


def test_p2a_status_warns_about_hooks_an_earlier_install_wrote_without_flags_only(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    install("claude-code", home, make_root(tmp_path))
    path = home / ".claude" / "settings.json"
    path.write_text(path.read_text(encoding="utf-8").replace(" --flags-only", ""), "utf-8")

    def status() -> str:
        out = io.StringIO()
        main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
        return out.getvalue()

    assert "run `harness-memory install claude-code` again" in status()
    assert "--flags-only" in status()
    install("claude-code", home, tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory")
    assert "--flags-only" not in status()


async def test_p2a_a_repositorys_io_encoding_does_not_crash_the_session_start_hook(
    tmp_path: Path,
) -> None:
    """A repository's settings ``env`` with ``PYTHONIOENCODING=ascii`` reaches the hooks (Claude
    Code passes it on): the Session-start hook crashed on the first non-ASCII character of the
    memory it answers (a dash of the default prompt, an accented index line), and the Session
    had no memory. The hook answers its harness in UTF-8 whatever that variable says."""
    root = make_root(tmp_path)
    user = root / "user"
    user.mkdir(parents=True, exist_ok=True)
    line = "- [Café](cafe.md) — the café's wifi"
    (user / "MEMORY.md").write_text(line + "\n", encoding="utf-8")
    workspace = tmp_path / "repo"
    workspace.mkdir()
    flags = ["--url", f"http://127.0.0.1:{unused_port()}", "--project", "acme"]  # service down
    flags += ["--agent", "coder", "--memory-root", str(root), "--flags-only"]
    flags += ["--state-dir", str(tmp_path / "state")]
    env = {**os.environ, "HOME": str(tmp_path / "home"), "PYTHONIOENCODING": "ascii"}
    stdin = json.dumps({"session_id": "s1", "cwd": str(workspace), "source": "startup"})

    done = await run_cli(
        "hook", "claude-code", "session-start", *flags, stdin=stdin.encode(), env=env
    )

    assert done.returncode == 0, done.stderr
    assert line in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


@dataclass(frozen=True, slots=True)
class PlainHooks:
    """Claude Code's hooks installed once for this module's tests (``harness-memory install
    claude-code``, service down), and what each says on stderr run with no variable of a
    repository's: a ``HOME`` each test gets a copy of (:func:`relocate`), the memory root it
    serves (the user index planted, nothing ever written into it) and, by hook event, its
    stderr."""

    home: Path
    root: Path
    said: dict[str, str]

    def stdin(self, event: str, workspace: Path) -> bytes:
        """The hook ``event``'s input from a Session in ``workspace``: the Session start, or a
        Write into another Workspace's scope."""
        if event == "SessionStart":
            return hook_fixture("session_start.json", workspace=str(workspace))
        target = str(self.root / "other-workspace" / "planted.md")
        return hook_fixture("pre_tool_use_write.json", workspace=str(workspace), target=target)


def run_in_shell(
    command: str, stdin: bytes, environ: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[bytes]:
    """``/bin/sh -c command`` as a harness runs a hook, in exactly ``environ``."""
    return subprocess.run(
        ["/bin/sh", "-c", command], input=stdin, env=environ, cwd=cwd, capture_output=True
    )


@pytest.fixture(scope="module")
def plain_hooks(tmp_path_factory: pytest.TempPathFactory) -> PlainHooks:
    """:class:`PlainHooks`: one install, each hook run once in a plain environment (in a copy
    of the installed HOME)."""
    where = tmp_path_factory.mktemp("plain-hooks")
    root = where / "data" / "agents" / "coder" / "agent_state" / "memory"
    (root / "user").mkdir(parents=True)
    (root / "user" / "MEMORY.md").write_text("- [Café](cafe.md) — wifi\n", encoding="utf-8")
    home, workspace = where / "home", where / "src" / "plain-repo"
    workspace.mkdir(parents=True)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    env = {**os.environ, "HOME": str(where / "spare-home")}
    installed = subprocess.run(
        [str(HARNESS_MEMORY), "install", "claude-code", *flags, "--no-check"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    plain = PlainHooks(home, root, {})
    ran = where / "plain-home"  # a copy: the Session's records stay out of every test's HOME
    relocate(home, ran)
    for event, command in hook_commands(ran).items():
        done = run_in_shell(command, plain.stdin(event, workspace), plain_env(ran), workspace)
        assert done.returncode == 0, done.stderr
        plain.said[event] = done.stderr.decode()  # the service is down: the start says so
    return plain


def hook_commands(home: Path) -> dict[str, str]:
    """The first hook command installed into ``home`` for the Session start and the write guard."""
    hooks = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))["hooks"]
    events = ("SessionStart", "PreToolUse")
    return {event: next(h["command"] for g in hooks[event] for h in g["hooks"]) for event in events}


def plain_env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize("kind", KINDS)
def test_p2a_a_repositorys_python_variables_reach_no_installed_hook(
    plain_hooks: PlainHooks, tmp_path: Path, kind: str
) -> None:
    """A repository's settings can set ``PYTHON*`` variables for its Sessions' hooks: a
    ``PYTHONPATH`` (or user site, or bytecode prefix) holding a ``harness_memory`` of its own
    replaced the write guard, which then allowed every write; ``PYTHONHOME`` stopped the hooks'
    Python (no memory, every write refused). Every installed hook starts its Python by absolute
    path, isolated (``-I``): the Session start answers its memory, the guard refuses a write
    into another scope, nothing of the repository's runs and nothing more is said on stderr
    than the same hook says without the repository's variables (:func:`plain_hooks`)."""
    home, workspace = tmp_path / "home", tmp_path / "src" / "cloned-repo"
    workspace.mkdir(parents=True)
    relocate(plain_hooks.home, home)  # the install's bytes, naming this HOME
    environ = {**plain_env(home), **plant(workspace, kind)}
    commands = hook_commands(home)

    def run(event: str) -> Any:
        command = commands[event]
        assert shlex.split(command)[1] == "-I", command
        done = run_in_shell(command, plain_hooks.stdin(event, workspace), environ, workspace)
        said = (done.returncode, done.stderr.decode())
        assert said == (0, plain_hooks.said[event]), kind
        return json.loads(done.stdout)

    started, guarded = run("SessionStart"), run("PreToolUse")

    assert "- [Café](cafe.md) — wifi" in started["hookSpecificOutput"]["additionalContext"]
    assert guarded["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert not (workspace / MARK).exists()


def latin_1_locale(folder: Path) -> Path:
    """``folder`` holding ``de_DE.ISO-8859-1`` compiled by glibc's ``localedef`` (a locale the
    machine need not have: ``LOCPATH`` names the folder)."""
    folder.mkdir(parents=True)
    made = ["localedef", "-i", "de_DE", "-f", "ISO-8859-1", str(folder / "de_DE.ISO-8859-1")]
    subprocess.run(made, capture_output=True, check=False)
    assert (folder / "de_DE.ISO-8859-1" / "LC_CTYPE").is_file()
    return folder


async def test_p2a_a_repositorys_locale_does_not_move_the_memory_root_the_guard_sees(
    tmp_path: Path,
) -> None:
    """A repository's settings can name a locale of its own (``LOCPATH``, a folder of the
    repository holding one ``localedef`` compiled; ``LC_ALL``). Under ISO-8859-1 the guard's
    Python read the ``--memory-root`` holding ``é`` as another folder than the tool's path (which
    the harness sends as UTF-8 JSON) and allowed a Write into another Workspace's scope. The
    hooks' Python runs in UTF-8 mode (``-X utf8``), as the harnesses do, whatever the locale."""
    root = tmp_path / "josé" / "agents" / "coder" / "agent_state" / "memory"
    (root / "user").mkdir(parents=True)
    home, workspace = tmp_path / "home", tmp_path / "src" / "cloned-repo"
    locales = latin_1_locale(workspace / ".locale")
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    installed = await run_cli("install", "claude-code", *flags, "--no-check")
    assert installed.returncode == 0, installed.stderr
    hooks = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))["hooks"]
    [guard] = [h["command"] for g in hooks["PreToolUse"] for h in g["hooks"]]
    target = str(root / "other-workspace" / "planted.md")
    stdin = hook_fixture("pre_tool_use_write.json", workspace=str(workspace), target=target)
    environ = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LOCPATH": str(locales)}
    environ["LC_ALL"] = "de_DE.ISO-8859-1"

    done = await run_cli_in_shell(guard, stdin, environ, workspace)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
