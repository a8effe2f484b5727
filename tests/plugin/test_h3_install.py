"""H-3: ``harness-memory install|uninstall HARNESS`` merges into the harness's own settings file:
hooks already there are kept, a second run changes nothing, the old file is backed up,
``--dry-run`` prints the change and writes nothing, and a bad file is refused untouched."""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from harness_memory.cli import main
from harness_memory.installers.codex import trust_hash
from harness_memory.installers.files import BACKUP_SUFFIX

ROOT = "/srv/agent-memory/agents/coder/agent_state/memory"
FILES = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
FOREIGN = {"type": "command", "command": "/usr/local/bin/audit-log --all"}
EVENTS = {"claude-code": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}


def run(home: Path, *words: str) -> tuple[int, str]:
    out = io.StringIO()
    flags = ["--home", str(home), "--memory-root", ROOT]
    if words[0] == "install":
        flags += ["--url", "http://127.0.0.1:8765", "--project", "acme", "--agent", "coder"]
        flags += ["--executable", "/opt/am/bin/harness-memory", "--no-check"]
    status = main([*words, *flags], environ={"HOME": str(home)}, stdout=out)
    return status, out.getvalue()


def settings(home: Path, harness: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((home / FILES[harness]).read_text(encoding="utf-8"))
    return loaded


def with_foreign_hooks(home: Path, harness: str) -> str:
    path = home / FILES[harness]
    path.parent.mkdir(parents=True)
    document = {
        "model": "keep-me",
        "hooks": {EVENTS[harness]: [{"matcher": "Bash", "hooks": [FOREIGN]}]},
    }
    text = json.dumps(document, indent=4)
    path.write_text(text, encoding="utf-8")
    return text


def commands(document: dict[str, Any], event: str) -> list[str]:
    return [h["command"] for g in document["hooks"].get(event, []) for h in g["hooks"]]


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_install_into_empty_home_writes_both_hooks(tmp_path: Path, harness: str) -> None:
    status, _ = run(tmp_path, "install", harness)
    assert status == 0
    document = settings(tmp_path, harness)
    start = commands(document, "SessionStart")
    guard = commands(document, EVENTS[harness])
    assert start and all(f"hook {harness} session-start" in c for c in start)
    assert len(guard) == 1 and f"--memory-root {ROOT}" in guard[0]
    assert all("--url http://127.0.0.1:8765 --project acme --agent coder" in c for c in start)


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_install_keeps_hooks_already_there_and_is_idempotent(
    tmp_path: Path, harness: str
) -> None:
    with_foreign_hooks(tmp_path, harness)
    assert run(tmp_path, "install", harness)[0] == 0
    first = (tmp_path / FILES[harness]).read_text(encoding="utf-8")
    document = settings(tmp_path, harness)
    assert document["model"] == "keep-me"
    assert commands(document, EVENTS[harness])[0] == FOREIGN["command"]
    backups = list((tmp_path / FILES[harness]).parent.glob(f"*{BACKUP_SUFFIX}*"))
    assert len(backups) == 1

    status, said = run(tmp_path, "install", harness)
    assert status == 0 and "nothing to change" in said
    assert (tmp_path / FILES[harness]).read_text(encoding="utf-8") == first
    assert len(list((tmp_path / FILES[harness]).parent.glob(f"*{BACKUP_SUFFIX}*"))) == 1


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_uninstall_removes_only_ours(tmp_path: Path, harness: str) -> None:
    with_foreign_hooks(tmp_path, harness)
    run(tmp_path, "install", harness)
    assert run(tmp_path, "uninstall", harness)[0] == 0
    document = settings(tmp_path, harness)
    assert document["model"] == "keep-me"
    assert document["hooks"] == {EVENTS[harness]: [{"matcher": "Bash", "hooks": [FOREIGN]}]}
    assert "harness-memory" not in json.dumps(document)
    assert ROOT not in json.dumps(document)


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_dry_run_prints_the_change_and_writes_nothing(tmp_path: Path, harness: str) -> None:
    before = with_foreign_hooks(tmp_path, harness)
    status, said = run(tmp_path, "install", harness, "--dry-run")
    assert status == 0
    assert f"+++ {tmp_path / FILES[harness]}" in said
    assert "harness-memory hook" in said
    assert (tmp_path / FILES[harness]).read_text(encoding="utf-8") == before
    assert not list(tmp_path.rglob(f"*{BACKUP_SUFFIX}*"))


EVENT_NOT_A_LIST = '{"hooks": {"PreToolUse": {"matcher": "x"}, "BeforeTool": {"matcher": "x"}}}'


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize(
    "bad", ["{ not json", "[1, 2]", '{"hooks": []}', "\udcff", EVENT_NOT_A_LIST]
)
def test_h3_bad_settings_are_refused_and_left_untouched(
    tmp_path: Path, harness: str, bad: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / FILES[harness]
    path.parent.mkdir(parents=True)
    raw = bad.encode("utf-8", "surrogateescape")
    path.write_bytes(raw)
    status, _ = run(tmp_path, "install", harness)
    assert status == 1
    assert str(path) in caplog.text and "nothing was changed" in caplog.text
    assert path.read_bytes() == raw
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


@pytest.mark.parametrize("verb", ["install", "uninstall"])
@pytest.mark.parametrize("bad", ["{ not json", '{"a": 1} // mine\n'])
def test_h3_a_bad_settings_files_error_says_what_to_do_by_hand_for_its_own_command(
    tmp_path: Path, verb: str, bad: str, caplog: pytest.LogCaptureFixture
) -> None:
    """An uninstall is told to take the hooks out by hand, never to add them."""
    path = tmp_path / FILES["claude-code"]
    path.parent.mkdir(parents=True)
    path.write_text(bad, encoding="utf-8")
    status, _ = run(tmp_path, verb, "claude-code")
    assert status == 1
    assert "run the command again" in caplog.text
    assert "add (install) or take out (uninstall) the hooks by hand" in caplog.text
    assert path.read_text(encoding="utf-8") == bad


@pytest.mark.parametrize(
    ("harness", "name", "text", "said"),
    [
        ("claude-code", ".claude/settings.json", '{"permissions": 3}', "permissions is not an"),
        ("claude-code", ".claude/settings.json", '{"permissions": {"allow": "Bash"}}', "allow"),
        ("claude-code", ".claude/settings.json", '{"env": ["A=1"]}', "env is not an object"),
        ("gemini", ".gemini/settings.json", '{"context": {"includeDirectories": "~/x"}}', "inc"),
        ("gemini", ".gemini/settings.json", '{"experimental": true}', "experimental is not"),
        ("codex", ".codex/config.toml", "features = 3\n", "features is not a table"),
        ("codex", ".codex/config.toml", "hooks = 5\n", "hooks is not a table"),
        ("codex", ".codex/config.toml", "[hooks]\nstate = 2\n", "hooks.state is not"),
        ("codex", ".codex/config.toml", "sandbox_workspace_write = 1\n", "is not a table"),
        (
            "codex",
            ".codex/config.toml",
            '[sandbox_workspace_write]\nwritable_roots = "/x"\n',
            "writable_roots is not a list of paths",
        ),
    ],
)
def test_h3_settings_the_install_edits_in_another_shape_are_refused_and_left_untouched(
    tmp_path: Path,
    harness: str,
    name: str,
    text: str,
    said: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A key the install edits holding a value of another type is named, nothing written:
    neither replaced by the install's own value nor a crash half-way."""
    path = tmp_path / name
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    status, _ = run(tmp_path, "install", harness)
    assert status == 1
    assert said in caplog.text and "nothing was changed" in caplog.text
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_h3_missing_settings_name_the_flags_and_their_variables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["install", "claude-code", "--home", str(tmp_path)], environ={"HOME": str(tmp_path)})
    assert exited.value.code == 2
    said = capsys.readouterr().err
    assert (
        "missing --memory-root (HARNESS_MEMORY_ROOT), --url (HARNESS_MEMORY_URL), --project "
        "(HARNESS_MEMORY_PROJECT), --agent (HARNESS_MEMORY_AGENT)"
    ) in said
    assert "<data dir>/agents/<agent>/agent_state/memory" in said
    assert not (tmp_path / ".claude").exists()


def test_h3_a_missing_memory_root_is_said_what_it_is_for_the_agent_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Beside ``make run`` a new user has the URL and the ids, and has never seen a memory
    root: the error says what folder it is, for that agent, and where ``make run`` keeps it."""
    flags = ["--url", "http://127.0.0.1:8765", "--project", "acme", "--agent", "coder"]
    with pytest.raises(SystemExit) as exited:
        main(
            ["install", "claude-code", "--home", str(tmp_path), *flags],
            environ={"HOME": str(tmp_path)},
        )
    assert exited.value.code == 2
    said = capsys.readouterr().err
    assert (
        "install claude-code: missing --memory-root (HARNESS_MEMORY_ROOT); the memory root is "
        "the agent's folder in the service's data dir, <data dir>/agents/coder/agent_state/"
        'memory (beside `make run`: "$PWD/.data/agents/coder/agent_state/memory" in the '
        "checkout), or use --remote URL for a service on another machine"
    ) in " ".join(said.split())
    assert not (tmp_path / ".claude").exists()


def test_h3_unreadable_settings_are_refused(tmp_path: Path) -> None:
    path = tmp_path / FILES["gemini"]
    path.mkdir(parents=True)  # a directory where the file should be
    assert run(tmp_path, "install", "gemini")[0] == 1
    assert path.is_dir()


def test_h3_claude_code_permissions_and_token(tmp_path: Path) -> None:
    status = main(
        [
            "install",
            "claude-code",
            "--home",
            str(tmp_path),
            "--memory-root",
            ROOT,
            "--url",
            "http://127.0.0.1:1",
            "--project",
            "acme",
            "--agent",
            "coder",
            "--token",
            "t0k-0123456789abcdef",
            "--no-check",
        ],
        environ={"HOME": str(tmp_path)},
        stdout=io.StringIO(),
    )
    assert status == 0
    document = settings(tmp_path, "claude-code")
    assert document["permissions"] == {
        "additionalDirectories": [ROOT],
        "allow": [f"Edit(/{ROOT}/**)"],
    }
    # no token in env: a repository's settings env would override it (P-2a); only the
    # variable that keeps Claude Code's own memory off (H-6)
    assert document["env"] == {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}
    token_file = tmp_path / ".claude" / "harness-memory" / "token"
    assert token_file.read_text(encoding="utf-8") == "t0k-0123456789abcdef\n"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    run(tmp_path, "uninstall", "claude-code")
    assert not (tmp_path / ".claude" / "settings.json").exists()  # the install created it
    assert not token_file.exists()


def test_h3_codex_trusts_its_hooks_and_opens_the_sandbox_to_memory(tmp_path: Path) -> None:
    codex = tmp_path / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text('# my settings\nmodel = "o3"\n', encoding="utf-8")
    run(tmp_path, "install", "codex")
    config = tomlkit.parse((codex / "config.toml").read_text(encoding="utf-8"))
    assert (codex / "config.toml").read_text(encoding="utf-8").startswith("# my settings\n")
    assert config["sandbox_workspace_write"]["writable_roots"] == [ROOT]
    hooks = settings(tmp_path, "codex")["hooks"]
    state = config["hooks"]["state"]
    source = str(codex / "hooks.json")
    for event, label in (("SessionStart", "session_start"), ("PreToolUse", "pre_tool_use")):
        group = hooks[event][0]
        expected = trust_hash(event, group, group["hooks"][0])
        assert state[f"{source}:{label}:0:0"]["trusted_hash"] == expected
    run(tmp_path, "uninstall", "codex")
    assert (codex / "config.toml").read_text(encoding="utf-8") == '# my settings\nmodel = "o3"\n'


def test_h3_codex_uninstall_moves_later_trust_entries_up(tmp_path: Path) -> None:
    """Codex keys trust by position: a group after ours keeps its trust when ours goes."""
    codex = tmp_path / ".codex"
    run(tmp_path, "install", "codex")
    document = settings(tmp_path, "codex")
    document["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [FOREIGN]})
    (codex / "hooks.json").write_text(json.dumps(document), encoding="utf-8")
    source = str(codex / "hooks.json")
    config = tomlkit.parse((codex / "config.toml").read_text(encoding="utf-8"))
    config["hooks"]["state"][f"{source}:pre_tool_use:1:0"] = {"trusted_hash": "sha256:x"}
    (codex / "config.toml").write_text(tomlkit.dumps(config), encoding="utf-8")
    run(tmp_path, "uninstall", "codex")
    after = tomlkit.parse((codex / "config.toml").read_text(encoding="utf-8"))
    assert dict(after["hooks"]["state"]) == {
        f"{source}:pre_tool_use:0:0": {"trusted_hash": "sha256:x"}
    }


@pytest.mark.parametrize("event", ["Stop", "PreToolUse"])
def test_h3_codex_install_trusts_only_its_own_hooks_never_the_users(
    tmp_path: Path, event: str
) -> None:
    """Codex asks the user before it runs a hook nobody trusted; the install trusts the groups
    it wrote, and a group of the user's own (an event it does not write in local mode, or one
    before ours) stays for Codex to ask about."""
    codex = tmp_path / ".codex"
    codex.mkdir()
    users = {"hooks": {event: [{"hooks": [FOREIGN]}]}}
    (codex / "hooks.json").write_text(json.dumps(users, indent=2) + "\n", encoding="utf-8")

    run(tmp_path, "install", "codex")

    config = tomlkit.parse((codex / "config.toml").read_text(encoding="utf-8"))
    source = str(codex / "hooks.json")
    label = {"Stop": "stop", "PreToolUse": "pre_tool_use"}[event]
    trusted = set(config["hooks"]["state"])
    assert f"{source}:{label}:0:0" not in trusted
    assert f"{source}:session_start:0:0" in trusted
    if event == "PreToolUse":  # ours comes after the user's group
        assert f"{source}:pre_tool_use:1:0" in trusted

    run(tmp_path, "uninstall", "codex")

    assert not (codex / "config.toml").exists()  # the install made it; nothing of it is left
    assert json.loads((codex / "hooks.json").read_text(encoding="utf-8")) == users
