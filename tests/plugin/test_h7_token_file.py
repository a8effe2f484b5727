"""H-7: the bearer token is on no hook command line: Codex and Gemini CLI hooks read a token file.

Every local user can read every process's command line (``ps``), so a token written as
``--token T`` into a hook command was anyone's while the hook ran. For Codex CLI and Gemini CLI,
whose hook settings give a hook no environment of its own, ``install`` writes the token into
``<settings folder>/harness-memory/token`` (mode 0600, masked in every output) and the
Session-start command names it with ``--token-file``; the write guard never calls the service
and names none. An install that still has ``--token`` on its command lines is upgraded by
installing again. Gemini CLI replaces ``$GEMINI_CWD`` and four other names in a hook command's
text, inside quotes too, before a shell runs it: a path holding ``$`` reaches the hook as it is
(checked here against the replacement as Gemini CLI 0.61's ``expandCommand`` makes it, and with
the real Gemini CLI in ``test_e2e_h2_gemini.py``).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import shlex
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from harness_memory.cli import main
from harness_memory.installers.files import BACKUP_SUFFIX
from harness_memory.installers.spec import flag_values, our_commands, shell_word
from harness_memory.settings import TokenFileError, load_settings

from tests.plugin.helpers import HARNESS_MEMORY, hook_fixture, run_cli
from tests.plugin.scripted_service import ScriptedService
from tests.support.case_insensitive_disk import IMAGE_NAME, case_insensitive_disk
from tests.support.refused_chmod import refusing_chmod_under

TOKEN = "s3cr3t-Token-4711"
SETTINGS = {"codex": ".codex/hooks.json", "gemini": ".gemini/settings.json"}
START_EVENT = {"codex": "SessionStart", "gemini": "SessionStart"}
START_FIXTURE = {"codex": "codex_session_start.json", "gemini": "gemini_session_start.json"}
GEMINI_NAMES = (
    "GEMINI_PROJECT_DIR",
    "GEMINI_CWD",
    "GEMINI_PLANS_DIR",
    "GEMINI_SESSION_ID",
    "CLAUDE_PROJECT_DIR",
)
"""The names Gemini CLI 0.61 replaces in a hook command's text (``expandCommand``)."""


def memory_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    return root


def install(
    home: Path, root: Path, harness: str, *extra: str, url: str = "http://127.0.0.1:9"
) -> tuple[int, str]:
    out = io.StringIO()
    flags = ["--home", str(home), "--memory-root", str(root), "--url", url]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    status = main(["install", harness, *flags, *extra], environ={"HOME": str(home)}, stdout=out)
    return status, out.getvalue()


def settings_of(home: Path, harness: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((home / SETTINGS[harness]).read_text(encoding="utf-8"))
    return document


def command_of(home: Path, harness: str, event: str) -> str:
    [group] = settings_of(home, harness)["hooks"][event]
    [handler] = group["hooks"]
    return str(handler["command"])


def token_file(home: Path, harness: str) -> Path:
    return (home / SETTINGS[harness]).parent / "harness-memory" / "token"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def gemini_expanded(command: str, cwd: str, session_id: str) -> str:
    """``command`` as Gemini CLI 0.61 hands it to ``bash -c`` (its ``expandCommand``: each name
    replaced by the shell-escaped value, wherever it stands in the text)."""
    values = {
        "GEMINI_PROJECT_DIR": cwd,
        "GEMINI_CWD": cwd,
        "GEMINI_PLANS_DIR": "/tmp/plans",
        "GEMINI_SESSION_ID": session_id,
        "CLAUDE_PROJECT_DIR": cwd,
    }
    for name in GEMINI_NAMES:
        escaped = shlex.quote(values[name])
        command = re.sub(r"\$" + name, lambda _match: escaped, command)  # noqa: B023
    return command


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h7_the_session_start_command_names_a_private_token_file(
    tmp_path: Path, harness: str
) -> None:
    home, root = tmp_path / "home", memory_root(tmp_path)
    status, said = install(home, root, harness, "--token", TOKEN)
    assert status == 0, said
    assert TOKEN not in said
    assert TOKEN not in (home / SETTINGS[harness]).read_text(encoding="utf-8")
    start = shlex.split(command_of(home, harness, START_EVENT[harness]))
    assert "--token" not in start
    assert start[start.index("--token-file") + 1] == str(token_file(home, harness))
    guard_event = "PreToolUse" if harness == "codex" else "BeforeTool"
    assert "--token-file" not in command_of(home, harness, guard_event)  # the guard needs none
    assert token_file(home, harness).read_text(encoding="utf-8") == TOKEN + "\n"
    assert mode(token_file(home, harness)) == 0o600


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h7_an_install_with_the_token_on_its_command_lines_is_upgraded_by_installing_again(
    tmp_path: Path, harness: str
) -> None:
    """The hook commands an earlier install wrote, ``--token T`` in them, are replaced."""
    home, root = tmp_path / "home", memory_root(tmp_path)
    assert install(home, root, harness, "--token", TOKEN)[0] == 0
    path = home / SETTINGS[harness]
    text = path.read_text(encoding="utf-8")
    old_flag = json.dumps(f"--token-file {shlex.quote(str(token_file(home, harness)))}")[1:-1]
    assert old_flag in text
    path.write_text(text.replace(old_flag, f"--token {TOKEN}"), encoding="utf-8")
    token_file(home, harness).unlink()
    assert any(TOKEN in command for command in our_commands(settings_of(home, harness), harness))
    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    assert f"{harness}: WARNING: a hook command carries the bearer token" in out.getvalue()
    assert TOKEN not in out.getvalue()

    status, said = install(home, root, harness, "--token", TOKEN)
    assert status == 0, said
    assert TOKEN not in said
    assert not any(TOKEN in c for c in our_commands(settings_of(home, harness), harness))
    assert TOKEN not in path.read_text(encoding="utf-8")
    assert token_file(home, harness).read_text(encoding="utf-8") == TOKEN + "\n"
    [backup] = [
        b
        for b in path.parent.glob(f"{path.name}{BACKUP_SUFFIX}*")
        if TOKEN in b.read_text(encoding="utf-8")
    ]
    assert mode(backup) == 0o600  # the old text held the token: its backup is private
    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    assert "WARNING" not in out.getvalue()


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h7_no_token_file_stays_behind(tmp_path: Path, harness: str) -> None:
    """An install for another service without a token removes the one an earlier install
    wrote (the same service keeps it: test_a10_install_again_with_its_settings_keeps_the_token);
    uninstall too."""
    home, root = tmp_path / "home", memory_root(tmp_path)
    assert install(home, root, harness, "--token", TOKEN)[0] == 0
    assert token_file(home, harness).exists()
    status, said = install(home, root, harness, url="http://127.0.0.2:9")
    assert status == 0, said
    assert not token_file(home, harness).exists()
    assert "--token-file" not in command_of(home, harness, START_EVENT[harness])

    assert install(home, root, harness, "--token", TOKEN)[0] == 0
    out = io.StringIO()
    flags = ["--home", str(home), "--memory-root", str(root)]
    assert main(["uninstall", harness, *flags], environ={"HOME": str(home)}, stdout=out) == 0
    assert not token_file(home, harness).exists()


def git(cwd: Path, *args: str) -> str:
    env = {"HOME": str(cwd), "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h7_the_state_folder_ignores_itself_in_a_repository_made_later(
    tmp_path: Path, harness: str
) -> None:
    """The state folder holding the token file ignores itself in git (``*``): a repository
    made later around the home shows nothing of it to ``git add -A``; an uninstall takes the
    ``.gitignore`` away with the rest, and keeps one the user wrote. (A settings folder that
    is in a work tree when the install runs keeps its token outside it:
    ``test_h7_token_outside_work_trees.py``.)"""
    home, root = tmp_path / "home", memory_root(tmp_path)
    folder = SETTINGS[harness].split("/")[0]

    assert install(home, root, harness, "--token", TOKEN)[0] == 0
    assert token_file(home, harness).read_text(encoding="utf-8") == TOKEN + "\n"
    git(home, "init", "-q")
    git(home, "add", "-A")
    committed = git(home, "ls-files")
    assert SETTINGS[harness] in committed  # the settings themselves are the user's
    assert "harness-memory" not in committed and TOKEN not in git(home, "diff", "--cached")
    (home / ".git").rename(tmp_path / "git-aside")

    flags = ["--home", str(home), "--memory-root", str(root)]
    assert main(["uninstall", harness, *flags], environ={"HOME": str(home)}) == 0
    assert not (home / folder / "harness-memory").exists()

    state = home / folder / "harness-memory"
    state.mkdir(parents=True)
    (state / ".gitignore").write_text("token\n", encoding="utf-8")
    assert install(home, root, harness, "--token", TOKEN)[0] == 0
    assert main(["uninstall", harness, *flags], environ={"HOME": str(home)}) == 0
    assert (state / ".gitignore").read_text(encoding="utf-8") == "token\n"


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h7_the_state_folder_is_owner_only_and_a_plain_install_warns_of_nothing(
    tmp_path: Path, harness: str
) -> None:
    """The state folder holding the token is the user's alone, and so is every file in it
    (the ``.gitignore`` too: only the owner's git reads it). A plain install into a home
    other users may enter says no WARNING: none told the user to ``chmod o+x`` that folder
    as if every user's harness had to read the ``.gitignore`` in it."""
    home, root = tmp_path / "home", memory_root(tmp_path)
    home.mkdir(mode=0o755)
    tmp_path.chmod(0o755)
    status, said = install(home, root, harness, "--token", TOKEN)
    assert status == 0, said
    assert "WARNING" not in said, said
    state = home / f".{harness.split('-')[0]}" / "harness-memory"
    assert mode(state) == 0o700
    assert {path.name: mode(path) for path in state.iterdir()} == {
        ".gitignore": 0o600,
        "install.json": 0o600,
        "token": 0o600,
        "token.url": 0o600,  # the service the token is given for
    }


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h7_a_token_file_on_a_disk_without_owner_only_modes_is_refused_nothing_changed(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A home on exFAT (a removable disk) keeps no permission bits: the token file an install
    wrote there was readable by every user, and every hook then refused it ("chmod 600 it",
    which cannot help there). The install says so and leaves no file behind."""
    with case_insensitive_disk(tmp_path) as disk:
        home, root = disk / "home", memory_root(tmp_path)
        home.mkdir()
        _install_refused_for_modes(home, root, harness, caplog)


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h7_an_install_never_writes_the_token_onto_a_disk_without_owner_only_modes(
    tmp_path: Path, harness: str
) -> None:
    """The install wrote the token file (synced), then saw the disk show it ``0777`` and
    removed it: every user could open it meanwhile, and its bytes stayed on the disk. The disk
    is now asked with an empty file first; the token's bytes never reach it."""
    with case_insensitive_disk(tmp_path) as disk:
        home, root = disk / "home", memory_root(tmp_path)
        home.mkdir()
        assert install(home, root, harness, "--token", TOKEN)[0] == 1

    on_the_disk = TOKEN.encode() in (tmp_path / IMAGE_NAME).read_bytes()
    assert not on_the_disk, "the token's bytes were written to the disk"


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h7_a_token_file_on_a_disk_that_refuses_chmod_is_refused_with_the_reason(
    tmp_path: Path, harness: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A home on the kernel's own FAT or exFAT: ``chmod 600`` fails ``EPERM`` there, and the
    install failed on the question whether the disk keeps owner-only modes, saying only
    "Operation not permitted". It now says why, as on any disk that keeps no such modes."""
    home, root = tmp_path / "fat" / "home", memory_root(tmp_path)
    home.mkdir(parents=True)
    refusing_chmod_under(home.parent, monkeypatch)

    _install_refused_for_modes(home, root, harness, caplog)


def _install_refused_for_modes(
    home: Path, root: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    """An install with ``--token`` into ``home`` fails (1), saying the disk keeps no
    owner-only modes, the token nowhere in the log, no token file and no settings left."""
    status, _ = install(home, root, harness, "--token", TOKEN)

    assert status == 1
    assert "keeps no owner-only permissions" in caplog.text
    assert TOKEN not in caplog.text
    assert not token_file(home, harness).exists()
    assert not (home / SETTINGS[harness]).exists()


def hook_env(home: Path) -> dict[str, str]:
    """The hook's environment: HOME, a plain PATH, and PYTHONPATH where a checkout names the
    code under test."""
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


@pytest.mark.parametrize("harness", ["codex", "gemini"])
async def test_h7_the_installed_session_start_hook_sends_the_token_from_its_file(
    service: ScriptedService, tmp_path: Path, harness: str
) -> None:
    """The command as installed, run by ``sh -c`` as the harness runs it (Gemini CLI's
    replacements made first), in a HOME whose path holds ``$GEMINI_CWD`` and ``$HOME``."""
    home = tmp_path / "o'dd $GEMINI_CWD $HOME" / "home"
    root = service.memory_root
    status, said = install(home, root, harness, "--token", TOKEN, "--no-check", url=service.url)
    assert status == 0, said
    command = command_of(home, harness, START_EVENT[harness])
    assert "$GEMINI" not in command.replace("\\$", "")  # no name for Gemini CLI to replace
    workspace = tmp_path / "src" / "my-app"
    workspace.mkdir(parents=True)
    if harness == "gemini":
        command = gemini_expanded(command, str(workspace), "s-1")
    hook = hook_fixture(START_FIXTURE[harness], workspace=str(workspace))
    process = await asyncio.create_subprocess_exec(
        "sh",
        "-c",
        command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=hook_env(home),
        cwd=workspace,
    )
    out, err = await process.communicate(hook)
    assert process.returncode == 0, err.decode()
    answer = json.loads(out)
    assert "Prefers pnpm" in answer["hookSpecificOutput"]["additionalContext"], err.decode()
    [(_, headers, _)] = service.calls
    assert headers["Authorization"] == f"Bearer {TOKEN}"
    records = token_file(home, harness).parent / "sessions"
    assert any(records.iterdir())  # --state-dir reached the hook as written, $ and all


@pytest.mark.parametrize(
    "word",
    ["/home/ada/$GEMINI_CWD/x", "$CLAUDE_PROJECT_DIR", "a$$b", "it's $HOME", "$", "plain/path"],
)
def test_h7_a_word_holding_dollar_survives_gemini_and_the_shell(word: str) -> None:
    quoted = shell_word(word)
    assert shlex.split(quoted) == [word]
    assert gemini_expanded(quoted, "/w", "s") == quoted
    for shell in ("sh", "bash"):
        done = subprocess.run(
            [shell, "-c", f"printf %s {quoted}"], capture_output=True, text=True, check=True
        )
        assert done.stdout == word


async def test_h7_a_token_file_that_cannot_be_read_turns_memory_off_and_says_why(
    service: ScriptedService, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-token"
    flags = ["--url", service.url, "--project", "acme", "--agent", "coder"]
    flags += ["--token-file", str(missing), "--state-dir", str(tmp_path / "state")]
    hook = hook_fixture("codex_session_start.json", workspace=str(tmp_path))
    done = await run_cli("hook", "codex", "session-start", *flags, stdin=hook)
    assert done.returncode == 0, done.stderr
    said = done.json()["systemMessage"]
    assert f"cannot read the token file {missing}" in said
    assert said.startswith("Agent Memory is off for this Session")
    assert service.calls == []  # never asked without its token

    done = await run_cli("session-start", *flags[:-2])
    assert done.returncode == 2
    assert f"cannot read the token file {missing}" in done.stderr


async def test_h7_a_token_file_holds_the_token_with_its_newline_stripped(
    service: ScriptedService, tmp_path: Path
) -> None:
    path = tmp_path / "token"
    path.write_text(f"  {TOKEN}\n", encoding="utf-8")
    path.chmod(0o600)
    flags = ["--url", service.url, "--project", "acme", "--agent", "coder"]
    done = await run_cli("session-start", *flags, env={"HARNESS_MEMORY_TOKEN_FILE": str(path)})
    assert done.returncode == 0, done.stderr
    [(_, headers, _)] = service.calls
    assert headers["Authorization"] == f"Bearer {TOKEN}"


def test_h7_install_takes_the_token_from_the_variable_so_it_is_on_no_command_line(
    tmp_path: Path,
) -> None:
    home, root = tmp_path / "home", memory_root(tmp_path)
    out = io.StringIO()
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": TOKEN}
    assert main(["install", "codex", *flags], environ=environ, stdout=out) == 0
    assert TOKEN not in out.getvalue()
    assert token_file(home, "codex").read_text(encoding="utf-8") == TOKEN + "\n"


@pytest.mark.parametrize(
    "kind",
    ["folder", "fifo", "empty", "huge", "invalid-encoding", "two-lines", "non-ascii", "spaced"],
)
def test_h7_a_token_file_that_is_no_token_is_named_never_waited_on(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "token"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)  # nobody writes it: opening it for reading must not block
    else:
        content = {
            "empty": b" \n",
            "huge": b"x" * 70_000,
            "invalid-encoding": b"\xff\xfe",
            "two-lines": b"mem_abc\nX-Other: 1\n",  # once sent, failed as "unreachable"
            "non-ascii": "mem_t\u00f8ken\n".encode(),
            "spaced": b"mem_abc def\n",
        }[kind]
        path.write_bytes(content)
        path.chmod(0o600)  # a private file: what is judged is what it holds
    settings = load_settings({"token_file": str(path)}, {})
    with pytest.raises(TokenFileError, match=f"cannot read the token file {path}") as raised:
        settings.bearer_token()
    assert "other users may read it" not in str(raised.value)


CLAUDE_SETTINGS = ".claude/settings.json"


def claude_commands(home: Path, event: str) -> list[str]:
    document = json.loads((home / CLAUDE_SETTINGS).read_text(encoding="utf-8"))
    return [h["command"] for g in document["hooks"][event] for h in g["hooks"]]


def test_h7_claude_codes_hooks_read_the_token_from_a_private_file_never_env(
    tmp_path: Path,
) -> None:
    """Claude Code's settings ``env`` is merged with a repository's ``.claude/settings.json``,
    which wins: the token there would be the repository's to replace (P-2a). The install writes
    it into a 0600 file that the hooks calling the service name; the settings hold none."""
    home, root = tmp_path / "home", memory_root(tmp_path)
    status, said = install(home, root, "claude-code", "--token", TOKEN)
    assert status == 0, said
    assert TOKEN not in said
    settings = json.loads((home / CLAUDE_SETTINGS).read_text(encoding="utf-8"))
    assert settings["env"] == {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}  # H-6, no token
    assert TOKEN not in json.dumps(settings)
    path = home / ".claude" / "harness-memory" / "token"
    assert path.read_text(encoding="utf-8") == TOKEN + "\n" and mode(path) == 0o600
    for event in ("SessionStart", "PostToolUse"):
        for command in claude_commands(home, event):
            words = shlex.split(command)
            assert words[words.index("--token-file") + 1] == str(path), command
    [guard] = claude_commands(home, "PreToolUse")
    assert "--token-file" not in guard  # the guard never calls the service


def test_h7_a_claude_code_token_an_earlier_install_kept_in_env_moves_into_the_file(
    tmp_path: Path,
) -> None:
    home, root = tmp_path / "home", memory_root(tmp_path)
    assert install(home, root, "claude-code")[0] == 0
    path = home / CLAUDE_SETTINGS
    document = json.loads(path.read_text(encoding="utf-8"))
    document["env"] = {"HARNESS_MEMORY_TOKEN": TOKEN, "OTHER": "kept"}
    path.write_text(json.dumps(document), encoding="utf-8")
    assert "WARNING: the settings' env holds HARNESS_MEMORY_TOKEN" in status_of(home)

    status, said = install(home, root, "claude-code")

    assert status == 0, said
    assert TOKEN not in said
    # the backup keeps the old text, token and all, beside the settings: outside the state
    # folder's .gitignore, which a dotfiles repository's git add -A would take: said
    assert f"the backup of {path} keeps the bearer token its old text held" in said
    assert any(TOKEN in b.read_text(encoding="utf-8") for b in path.parent.glob("*-backup-*"))
    env = json.loads(path.read_text(encoding="utf-8"))["env"]
    assert env == {"OTHER": "kept", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}
    token = home / ".claude" / "harness-memory" / "token"
    assert token.read_text(encoding="utf-8") == TOKEN + "\n" and mode(token) == 0o600
    assert all("--token-file" in c for c in claude_commands(home, "SessionStart"))
    assert "WARNING" not in status_of(home)


def test_h7_the_backup_keeping_a_token_is_named_where_it_lies_in_a_dotfiles_checkout(
    tmp_path: Path,
) -> None:
    """``~/.claude/settings.json`` a symlink into a dotfiles checkout (GNU Stow, chezmoi), its
    ``env`` holding the token an earlier install wrote: the backup, token and all, lies beside
    the target, inside that checkout, and the install names it there (its file name and the
    checkout's folder), never beside the link, where no such file is."""
    home, root = tmp_path / "home", memory_root(tmp_path)
    dotfiles = tmp_path / "dotfiles" / "claude"
    dotfiles.mkdir(parents=True)
    target = dotfiles / "claude-settings.json"
    target.write_text(json.dumps({"env": {"HARNESS_MEMORY_TOKEN": TOKEN}}), encoding="utf-8")
    (home / ".claude").mkdir(parents=True)
    link = home / CLAUDE_SETTINGS
    link.symlink_to(target)

    status, said = install(home, root, "claude-code")

    assert status == 0, said
    assert link.is_symlink()
    [backup] = dotfiles.glob(f"claude-settings.json{BACKUP_SUFFIX}*")
    assert TOKEN in backup.read_text(encoding="utf-8") and mode(backup) == 0o600
    assert f"the backup of {link} keeps the bearer token its old text held" in said
    assert f"beside its target {target}" in said
    assert (
        f"keep claude-settings.json{BACKUP_SUFFIX}* out of any repository holding {dotfiles}"
        in said
    )
    assert not list((home / ".claude").glob(f"*{BACKUP_SUFFIX}*"))


def status_of(home: Path) -> str:
    out = io.StringIO()
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return out.getvalue()


async def test_h7_claude_codes_installed_hook_sends_the_files_token_not_a_repositorys(
    service: ScriptedService, tmp_path: Path
) -> None:
    """The command as installed, run by ``sh -c`` in an environment whose
    ``HARNESS_MEMORY_TOKEN`` a repository's settings set: the file's token is sent, and the
    user is told the variable was ignored."""
    home = tmp_path / "home"
    status, said = install(
        home, service.memory_root, "claude-code", "--token", TOKEN, "--no-check", url=service.url
    )
    assert status == 0, said
    command = claude_commands(home, "SessionStart")[0]
    workspace = tmp_path / "src" / "my-app"
    workspace.mkdir(parents=True)
    process = await asyncio.create_subprocess_exec(
        "sh",
        "-c",
        command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**hook_env(home), "HARNESS_MEMORY_TOKEN": "the-repositorys-token"},
        cwd=workspace,
    )
    out, err = await process.communicate(
        hook_fixture("session_start.json", workspace=str(workspace))
    )
    assert process.returncode == 0, err.decode()
    [(_, headers, _)] = service.calls
    assert headers["Authorization"] == f"Bearer {TOKEN}"
    told = json.loads(out)["systemMessage"]
    assert "ignored HARNESS_MEMORY_TOKEN" in told and "the-repositorys-token" not in told


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("relative_by", ["--home", "the harness's folder variable"])
def test_h7_a_relative_home_gives_hooks_absolute_paths_a_workspace_cannot_stand_in_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, relative_by: str
) -> None:
    """``--home h`` (or ``CLAUDE_CONFIG_DIR``, ``CODEX_HOME``, ``GEMINI_CLI_HOME`` given as a
    relative path) wrote ``--token-file h/.claude/harness-memory/token`` and ``--state-dir …``
    into the hook commands as given: a hook runs in the Workspace, so it read the token, and
    wrote its Session records, at that path inside whatever repository the Session is in. Every
    path a hook command names is absolute, the folder the install was run from."""
    monkeypatch.chdir(tmp_path)
    root = memory_root(tmp_path)
    variable = {"claude-code": "CLAUDE_CONFIG_DIR", "codex": "CODEX_HOME"}.get(
        harness, "GEMINI_CLI_HOME"
    )
    environ = {"HOME": str(tmp_path / "home")}
    home = "home"
    if relative_by != "--home":
        environ[variable] = "config"
        home = str(tmp_path / "home")
    flags = ["--home", home, "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    flags += ["--token", TOKEN, "--no-check"]
    assert main(["install", harness, *flags], environ=environ, stdout=io.StringIO()) == 0

    written = [path for path in tmp_path.rglob("*.json") if "harness-memory" not in path.parts]
    documents = [json.loads(path.read_text(encoding="utf-8")) for path in written]
    commands = [command for document in documents for command in our_commands(document, harness)]
    named = {
        flag: [value for command in commands for value in flag_values(command, flag)]
        for flag in ("--token-file", "--state-dir", "--memory-root")
    }
    assert named["--token-file"], commands
    assert all(Path(value).is_absolute() for values in named.values() for value in values), named


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_h7_a_gitignore_of_the_users_that_leaves_the_token_to_git_is_said(
    tmp_path: Path, harness: str
) -> None:
    """The install keeps a ``.gitignore`` the user wrote in its state folder; one that leaves
    the token file to git (``sessions/``) let ``git add -A`` in a dotfiles repository made
    later take the token while the README promised none would. The install says so, naming the
    file and the line to add; one that leaves it out (``token``) is not mentioned."""
    home, root = tmp_path / "home", memory_root(tmp_path)
    folder = home / SETTINGS[harness].split("/")[0]
    state = folder / "harness-memory"
    state.mkdir(parents=True)
    (state / ".gitignore").write_text("sessions/\n", encoding="utf-8")

    status, said = install(home, root, harness, "--token", TOKEN)

    assert status == 0, said
    assert f"{state / '.gitignore'} is yours and does not leave out the token file" in said
    assert "add the line `token`" in said
    git(home, "init", "-q")
    git(home, "add", "-A")
    assert "harness-memory/token" in git(home, "ls-files")  # what the note warns of
    git(home, "reset", "-q")
    (home / ".git").rename(tmp_path / "git-aside")

    (state / ".gitignore").write_text("sessions/\ntoken\n", encoding="utf-8")
    status, said = install(home, root, harness, "--token", TOKEN + "2")
    assert status == 0, said
    assert "does not leave out the token file" not in said
    (tmp_path / "git-aside").rename(home / ".git")
    git(home, "add", "-A")
    assert not [f for f in git(home, "ls-files").split() if f.endswith("harness-memory/token")]


SAVED_BY_AN_EDITOR = {
    "utf-8 with BOM (Notepad, PowerShell 5's Set-Content)": b"\xef\xbb\xbf" + TOKEN.encode(),
    "utf-16 (PowerShell 5's > redirection)": f"{TOKEN}\r\n".encode("utf-16"),
}


@pytest.mark.parametrize("saved_as", list(SAVED_BY_AN_EDITOR))
def test_h7_a_token_file_saved_with_a_byte_order_mark_holds_its_token(
    tmp_path: Path, saved_as: str
) -> None:
    """A token file written by Notepad or PowerShell starts with a byte order mark: the hooks
    refused it ("it holds '\\ufeff', which no bearer token holds", or "not UTF-8 text") and
    sent no token, and ``install --token-file`` refused it. The mark names the file's encoding
    and is no part of the token: the token is what an editor shows."""
    path = tmp_path / "token"
    path.write_bytes(SAVED_BY_AN_EDITOR[saved_as])
    path.chmod(0o600)

    assert load_settings({"token_file": str(path)}, {}).bearer_token() == TOKEN

    home = tmp_path / "home"
    status, said = install(home, memory_root(tmp_path), "codex", "--token-file", str(path))
    assert status == 0, said
    assert (home / ".codex/harness-memory/token").read_text(encoding="utf-8") == TOKEN + "\n"

    kept = tmp_path / "kept" / "token"  # `harness-memory token set < token.txt`
    words = ["token", "set", "--file", str(kept)]
    piped = io.BytesIO(SAVED_BY_AN_EDITOR[saved_as])  # the same file, through the same reader
    assert main(words, environ={}, stdin=piped, stdout=io.StringIO()) == 0
    assert kept.read_text(encoding="utf-8") == TOKEN + "\n"


def test_h7_a_utf16_token_file_with_a_stray_byte_is_named_utf16_by_hooks_and_token_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``echo >> token`` after PowerShell's ``>`` leaves one byte (``0A``) after the UTF-16
    text: no UTF-16 at all, and not UTF-8 either. It was refused as "not UTF-8 text", naming
    an encoding the file is not in; both readers name the one its mark says, and the byte."""
    raw = f"{TOKEN}\r\n".encode("utf-16") + b"\n"
    path = tmp_path / "token"
    path.write_bytes(raw)
    path.chmod(0o600)
    said = (
        f"not the UTF-16 little-endian text its byte order mark (FF FE) says (byte 0x0a at "
        f"offset {len(raw) - 1}: truncated data)"
    )

    with pytest.raises(TokenFileError) as refused:
        load_settings({"token_file": str(path)}, {}).bearer_token()
    assert said in str(refused.value)

    words = ["token", "set", "--file", str(tmp_path / "kept")]
    with pytest.raises(SystemExit) as usage:
        main(words, environ={}, stdin=io.BytesIO(raw), stdout=io.StringIO())
    assert usage.value.code == 2
    assert f"stdin is {said}; nothing written" in capsys.readouterr().err
    assert not (tmp_path / "kept").exists()


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (f"HARNESS_MEMORY_TOKEN={TOKEN}", "holds `NAME=` before the token"),
        (f"{TOKEN}\n{TOKEN}", "holds 2 lines"),
        (f'"{TOKEN}"', "is in quotes"),
    ],
    ids=["name-equals", "two-lines", "quoted"],
)
@pytest.mark.parametrize("source", ["HARNESS_MEMORY_TOKEN", "--token"])
def test_h7_install_refuses_a_token_value_that_is_not_one_token(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    given: str,
    said: str,
    source: str,
) -> None:
    """A pasted ``HARNESS_MEMORY_TOKEN=…`` line was kept as the hooks' token, which every
    Session then sent (a 401, or unchecked by a service with no tokens): refused by its shape,
    never its text, nothing installed."""
    home = tmp_path / "home"
    flags = ["--home", str(home), "--memory-root", str(memory_root(tmp_path))]
    flags += ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    environ = {"HOME": str(home)}
    if source == "--token":
        flags += ["--token", given]
    else:
        environ[source] = given
    out = io.StringIO()

    status = main(["install", "codex", *flags], environ=environ, stdout=out)

    shown = out.getvalue() + capsys.readouterr().err + caplog.text
    assert status == 1
    assert f"the token from {source} {said}" in shown
    assert TOKEN not in shown
    assert not (home / ".codex").exists()
