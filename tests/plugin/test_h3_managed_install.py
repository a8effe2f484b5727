"""``install claude-code --managed [DIR]``: the hooks in Claude Code's managed settings, which no
repository can switch off (``tests/data/cases/repository-switches-hooks-off``; the real-CLI proof
is ``test_e2e_repository_switches_hooks_off.py``)."""

from __future__ import annotations

import io
import json
import os
import pwd
import stat
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.claude_code import managed_dir
from harness_memory.settings import load_settings

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]


def run(tmp_path: Path, *words: str) -> tuple[int, str]:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    out = io.StringIO()
    extra = [*FLAGS, "--memory-root", str(root)] if words[0] == "install" else []
    argv = [*words, "--home", str(tmp_path / "home"), *extra]
    status = main(argv, environ={"HOME": str(tmp_path / "home")}, stdout=out)
    return status, out.getvalue()


def test_repository_switches_hooks_off_managed_install_writes_managed_settings(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "etc" / "claude-code"
    status, said = run(tmp_path, "install", "claude-code", "--managed", str(folder))
    assert status == 0
    path = folder / "managed-settings.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["autoMemoryEnabled"] is False
    assert any(
        "hook claude-code pre-tool-use" in h["command"]
        for g in document["hooks"]["PreToolUse"]
        for h in g["hooks"]
    )
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # every user's Claude Code reads it
    commands = [h["command"] for gs in document["hooks"].values() for g in gs for h in g["hooks"]]
    for command in commands:  # one command for every user: each finds their own state folder
        assert "--flags-only" in command  # in their account's home (test_p2a_repository_env)
        assert "--state-dir" not in command and "--token" not in command
    assert "no repository's or user's settings can switch them off" in said
    assert not (tmp_path / "home" / ".claude").exists()

    status, said = run(tmp_path, "uninstall", "claude-code", "--managed", str(folder))
    assert status == 0
    assert not path.exists()  # the install created it; nothing else was added since
    assert not folder.exists()  # and the folder it made for it


def test_repository_switches_hooks_off_user_install_says_a_repository_can(
    tmp_path: Path,
) -> None:
    status, said = run(tmp_path, "install", "claude-code", "--verbose")
    assert status == 0
    assert '"disableAllHooks": true' in said and "--managed" in said
    # a repository's env reaches no hook's Python (python -I): not a reason for --managed
    assert "PYTHONHOME" not in said.split("can switch these hooks off")[1].split("\n")[0]
    assert " -I -X utf8 …: no PYTHON* variable a repository's settings set" in said


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["install", "gemini", "--managed", "--token", "t"], "a token there is anyone's"),
        (["install", "codex", "--managed", "--token", "t"], "a token there is anyone's"),
        (["install", "claude-code", "--managed", "--token", "t"], "a token there is anyone's"),
    ],
)
def test_repository_switches_hooks_off_managed_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        run(tmp_path, *words)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("platform", "folder"),
    [
        ("linux", "/etc/claude-code"),
        ("darwin", "/Library/Application Support/ClaudeCode"),
        ("win32", "C:/ProgramData/ClaudeCode"),
    ],
)
def test_repository_switches_hooks_off_managed_settings_live_where_claude_code_reads_them(
    platform: str, folder: str
) -> None:
    assert managed_dir(platform) == Path(folder)


def test_managed_status_names_the_accounts_state_folder_whatever_claude_config_dir_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The managed hooks keep each user's Session records, and read their token, in
    ``.claude/harness-memory`` of the account's home from the password database; a user (or a
    repository) setting ``CLAUDE_CONFIG_DIR`` or ``HOME`` moves neither, and ``status`` says
    where they are and whether the hooks would read that token file, as the hooks find it."""
    account = tmp_path / "account"
    entry = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*entry[:5], str(account), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: moved)
    folder = tmp_path / "etc" / "claude-code"
    assert run(tmp_path, "install", "claude-code", "--managed", str(folder))[0] == 0
    elsewhere = {"HOME": str(tmp_path / "home"), "CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    state = account / ".claude" / "harness-memory"

    def status_of() -> tuple[int, str]:
        out = io.StringIO()
        argv = ["status", "--home", str(tmp_path / "home"), "--managed", str(folder)]
        return main(argv, environ=elsewhere, stdout=out), out.getvalue()

    code, said = status_of()
    assert code == 0, said
    assert f"your Session records and token file are in {state} " in said
    assert "as the password database gives it, whatever $HOME or $CLAUDE_CONFIG_DIR say" in said
    assert "wherever" not in said  # it said "wherever $HOME … point", beside a path not $HOME's
    # $HOME is not the account's home: the bare `token set` would write $HOME's file
    assert "no token file" in said and "run `harness-memory token set --managed`" in said
    assert load_settings({}, elsewhere, flags_only=True).state_dir == state  # as the hooks do

    state.mkdir(parents=True)
    (state / "token").write_text("t0k\n", encoding="utf-8")
    (state / "token").chmod(0o644)
    code, said = status_of()
    assert code == 1
    assert "PROBLEM" in said and "other users may read it" in said
    assert "run `harness-memory token set --managed`" in said

    (state / "token").chmod(0o600)
    code, said = status_of()
    assert code == 0, said
    assert "no token file" not in said and "PROBLEM" not in said

    # ~/.claude kept in git: `token set` keeps the token outside it, where the hooks read it
    (account / ".claude" / ".git").mkdir()
    assert (
        main(
            ["token", "set", "--managed"],
            environ=elsewhere,
            stdin=io.BytesIO(b"t0k2-managed-token\n"),
        )
        == 0
    )
    outside = account / ".config" / "harness-memory" / "tokens" / "managed"
    code, said = status_of()
    assert code == 0, said
    assert f"your Session records are in {state}, your token file is {outside} " in said
    assert load_settings({}, elsewhere, flags_only=True).bearer_token() == "t0k2-managed-token"


def test_a_managed_uninstall_names_the_token_file_token_set_left_when_nothing_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``harness-memory token set --managed`` writes the managed hooks' token in the account's
    home (the password database's, not ``$HOME``'s); uninstalling the managed hooks left it
    there with no word. The uninstall after which none of the hooks it reads reads it names it
    and how to remove it (each user's own file: the uninstall does not remove it); one while the
    user's own hooks name that very file says nothing of it."""
    account = tmp_path / "account"
    entry = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*entry[:5], str(account), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: moved)
    folder = tmp_path / "image" / "claude-code"
    environ = {"HOME": str(tmp_path / "home")}
    token = account / ".claude" / "harness-memory" / "token"

    assert run(tmp_path, "install", "claude-code", "--managed", str(folder))[0] == 0
    assert (
        main(
            ["token", "set", "--managed"], environ=environ, stdin=io.BytesIO(b"t0k-managed-token\n")
        )
        == 0
    )
    assert token.exists()

    code, said = run(tmp_path, "uninstall", "claude-code", "--managed", str(folder))

    assert code == 0, said
    home, read = tmp_path / "home", "or in the managed settings read here, reads it now"
    assert f"for managed hooks stays: {token} (none of the hooks installed in {home}" in said
    assert f" and {account}, {read}" in said  # no word of hooks it did not read
    made = f"{token.parent}/.gitignore && rmdir {token.parent}"  # no --url: no token.url
    assert f"`rm {token} {made}` removes it with what `token set` made around it" in said
    assert token.read_text(encoding="utf-8") == "t0k-managed-token\n"  # the user's to remove

    # HOME the account's home, as usual: its own user install's token file is that very file
    mine = {"HOME": str(account), "HARNESS_MEMORY_TOKEN": "t0k-user-0123456789"}
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    user_hooks = ["install", "claude-code", "--home", str(account), *FLAGS, "--no-check"]
    assert main([*user_hooks, "--memory-root", str(root)], environ=mine) == 0
    assert token.read_text(encoding="utf-8").strip() == "t0k-user-0123456789"
    managed = ["claude-code", "--managed", str(folder), "--home", str(account)]
    assert main(["install", *managed, *FLAGS, "--memory-root", str(root)], environ=mine) == 0
    out = io.StringIO()
    assert main(["uninstall", *managed], environ=mine, stdout=out) == 0
    assert "token set" not in out.getvalue()  # the user's hooks still read it


def _account_at(account: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The password database gives this account the home ``account``."""
    entry = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*entry[:5], str(account), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: moved)


def _managed_round(tmp_path: Path, environ: dict[str, str], account: Path) -> str:
    """``install --managed DIR``, ``token set``, ``uninstall --managed DIR`` under ``environ``
    (``--home`` its ``HOME``); what the uninstall said. The token file stays either way."""
    folder = tmp_path / "image" / "claude-code"
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    managed = ["claude-code", "--managed", str(folder), "--home", environ["HOME"]]
    assert main(["install", *managed, *FLAGS, "--memory-root", str(root)], environ=environ) == 0
    assert (
        main(
            ["token", "set", "--managed"], environ=environ, stdin=io.BytesIO(b"t0k-managed-token\n")
        )
        == 0
    )
    out = io.StringIO()
    assert main(["uninstall", *managed], environ=environ, stdout=out) == 0
    token = account / ".claude" / "harness-memory" / "token"
    assert token.read_text(encoding="utf-8") == "t0k-managed-token\n"
    return out.getvalue()


def _user_install_without_token(tmp_path: Path, account: Path) -> None:
    """A user-level Claude Code install in ``account`` given no token: its hooks name no token
    file, only ``--state-dir <account>/.claude/harness-memory``, and read the token there."""
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    argv = ["install", "claude-code", "--home", str(account), *FLAGS, "--no-check"]
    assert main([*argv, "--memory-root", str(root)], environ={"HOME": str(account)}) == 0
    hooks = (account / ".claude" / "settings.json").read_text(encoding="utf-8")
    assert "--token-file" not in hooks
    assert f"--state-dir {account / '.claude' / 'harness-memory'} --flags-only" in hooks


def test_a_managed_uninstall_says_nothing_of_the_token_file_user_hooks_read_by_their_state_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's own hooks, installed with no token, read ``<state dir>/token``: the file
    ``token set`` writes for the managed hooks. The managed uninstall said no hooks read it
    and to ``rm`` it (it counted only ``--token-file`` flags): the user's hooks then lost
    their token."""
    account = tmp_path / "account"
    _account_at(account, monkeypatch)
    _user_install_without_token(tmp_path, account)

    said = _managed_round(tmp_path, {"HOME": str(account)}, account)

    assert "token set" not in said and "rm " not in said


def test_a_managed_uninstall_reads_the_hooks_of_the_accounts_home_when_home_is_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$HOME`` (and ``--home``) not the password database's home: the account's own hooks,
    in its home, read the token file ``token set`` wrote there, and were never read. Nor are
    they when ``CLAUDE_CONFIG_DIR`` points elsewhere: a Session without it reads them."""
    account = tmp_path / "account"
    _account_at(account, monkeypatch)
    _user_install_without_token(tmp_path, account)
    elsewhere = {"HOME": str(tmp_path / "home"), "CLAUDE_CONFIG_DIR": str(tmp_path / "config")}

    said = _managed_round(tmp_path, elsewhere, account)

    assert "token set" not in said and "rm " not in said
