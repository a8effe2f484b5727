"""``install gemini --managed [PATH]``: the hooks and the pins in Gemini CLI's system settings,
which override every user's and Workspace's settings file (``tests/data/cases/
repository-switches-hooks-off``, its Gemini kind; the real-CLI proof is
``test_e2e_gemini_repository_switches_hooks_off.py``). ``PATH`` stands in for
``/etc/gemini-cli``; ``status`` finds what an install put there (and Codex's requirements made
with a folder) through the install's record."""

from __future__ import annotations

import io
import json
import os
import re
import stat
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers import gemini, gemini_managed
from harness_memory.installers.jsonc import loads as parse_jsonc

from tests.plugin.test_h3_codex_managed_install import install_checks

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
ADMINS = """\
// Managed by IT: do not edit by hand.
{
  "security": {"auth": {"enforcedType": "oauth-personal"}},  // theirs
  "experimental": {"autoMemory": true},
  "hooks": {
    "AfterAgent": [{"hooks": [{"type": "command", "command": "/opt/it/audit"}]}]
  }
}
"""


def run(
    tmp_path: Path, *words: str, environ: dict[str, str] | None = None, checked: bool = False
) -> tuple[int, str]:
    """Run the command line; an install with ``--no-check`` unless ``checked`` (the checks
    read this machine's settings; the executable then an executable stand-in)."""
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    out = io.StringIO()
    executable, unchecked = install_checks(tmp_path, checked)
    extra = [*FLAGS, "--memory-root", str(root), *unchecked] if words[0] == "install" else []
    argv = [*words, "--home", str(home), *extra]
    argv += ["--executable", str(executable)] if words[0] == "install" else []
    status = main(argv, environ={"HOME": str(home), **(environ or {})}, stdout=out)
    return status, out.getvalue()


def commands(document: dict[str, object]) -> list[str]:
    hooks = document.get("hooks")
    assert isinstance(hooks, dict)
    groups = [g for v in hooks.values() if isinstance(v, list) for g in v]
    return [h["command"] for g in groups for h in g["hooks"]]


def status_of(tmp_path: Path, *flags: str, environ: dict[str, str] | None = None) -> str:
    home = tmp_path / "home"
    out = io.StringIO()
    main(
        ["status", "--home", str(home), *flags],
        environ={"HOME": str(home), **(environ or {})},
        stdout=out,
    )
    return out.getvalue()


def test_gemini_managed_install_pins_the_hooks_on_and_gemini_memory_off(tmp_path: Path) -> None:
    tmp_path.chmod(0o1777)  # others may write above it, as in /tmp (whatever this /tmp's mode)
    folder = tmp_path / "etc" / "gemini-cli"
    status, said = run(tmp_path, "install", "gemini", "--managed", str(folder))
    assert status == 0
    path = folder / "settings.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["hooksConfig"] == {"enabled": True}
    assert document["experimental"] == {"autoMemory": False}
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    assert document["context"] == {"includeDirectories": [str(root)], "includeDirectoryTree": False}
    assert "Each user gives their token with `harness-memory token set --managed`" in said
    # H-3: the summary names the setting widened for the memory root, as a user install's does
    assert (
        f"Gemini CLI's context.includeDirectories names the memory root {root}: its file tools "
        "may read and write memory outside the Workspace."
    ) in said
    ours = commands(document)
    assert {c.split(" hook gemini ")[1].split()[0] for c in ours} == {
        "session-start",
        "before-tool",
        "after-tool",
    }
    for command in ours:  # one command for every user: each finds their own state and token
        assert "--flags-only" in command
        assert "--state-dir" not in command and "--token" not in command
    handlers = [h for groups in document["hooks"].values() for g in groups for h in g["hooks"]]
    assert {h["name"].rsplit("-", 1)[0] for h in handlers} == {
        "agent-memory-session-start",
        "agent-memory-before-tool",
        "agent-memory-after-tool",
    }
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # every user's Gemini CLI reads it
    assert "no user's or Workspace's settings can switch them off" in said
    assert "Gemini CLI skips the system settings" in said  # others may write tmp_path
    assert not (tmp_path / "home" / ".gemini").exists()  # nobody's own settings

    status, said = run(tmp_path, "uninstall", "gemini", "--managed", str(folder))
    assert status == 0
    assert not folder.exists()  # the file, its state folder and the folder the install made


def test_gemini_managed_hooks_carry_names_no_repository_can_know(tmp_path: Path) -> None:
    """Gemini CLI switches off a hook whose ``name`` (its command, when it has none) is in any
    settings level's ``hooksConfig.disabled``: the managed hooks' names end in 128 random
    bits, chosen at the first install (two machines' differ) and kept by the next (H-3), so
    neither the user install's names nor the commands a repository could predict reach them."""
    names: list[set[str]] = []
    for machine in ("one", "two"):
        folder = tmp_path / machine / "gemini-cli"
        run(tmp_path / machine, "install", "gemini", "--managed", str(folder))
        document = json.loads((folder / "settings.json").read_text(encoding="utf-8"))
        handlers = [h for groups in document["hooks"].values() for g in groups for h in g["hooks"]]
        secrets = {h["name"].rsplit("-", 1)[1] for h in handlers}
        assert len(secrets) == 1 and re.fullmatch("[0-9a-f]{32}", secrets.pop())
        assert not {h["name"] for h in handlers} & {h["command"] for h in handlers}
        names.append({h["name"] for h in handlers})
        status, said = run(tmp_path / machine, "install", "gemini", "--managed", str(folder))
        assert status == 0 and "nothing to change (already installed)" in said
        assert "no repository's hooksConfig.disabled can name them" in said
    assert not names[0] & names[1]


def test_gemini_managed_install_merges_into_an_administrators_commented_settings(
    tmp_path: Path,
) -> None:
    """The administrator's keys, hooks and comments stay; the file is backed up; a second
    install changes nothing; uninstall gives the file back byte for byte, mode too."""
    folder = tmp_path / "etc" / "gemini-cli"
    folder.mkdir(parents=True)
    path = folder / "settings.json"
    path.write_text(ADMINS, encoding="utf-8")
    path.chmod(0o640)

    status, said = run(tmp_path, "install", "gemini", "--managed", str(folder))
    assert status == 0
    text = path.read_text(encoding="utf-8")
    assert "// Managed by IT: do not edit by hand." in text and "// theirs" in text
    document = parse_jsonc(text)
    assert document["security"] == {"auth": {"enforcedType": "oauth-personal"}}
    assert document["experimental"]["autoMemory"] is False
    assert "/opt/it/audit" in commands(document)
    assert "experimental.autoMemory was true" in said
    [backup] = list(folder.glob("settings.json.harness-memory-backup-*"))
    assert backup.read_text(encoding="utf-8") == ADMINS
    assert stat.S_IMODE(path.stat().st_mode) == 0o640

    status, said = run(tmp_path, "install", "gemini", "--managed", str(folder))
    assert status == 0 and "nothing to change (already installed)" in said
    assert path.read_text(encoding="utf-8") == text

    status, said = run(tmp_path, "uninstall", "gemini", "--managed", str(folder))
    assert status == 0
    assert path.read_text(encoding="utf-8") == ADMINS
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert not (folder / "harness-memory").exists()


def test_gemini_managed_uninstall_after_an_administrators_edit_takes_out_only_ours(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "etc" / "gemini-cli"
    folder.mkdir(parents=True)
    path = folder / "settings.json"
    path.write_text(ADMINS, encoding="utf-8")
    run(tmp_path, "install", "gemini", "--managed", str(folder))
    document = parse_jsonc(path.read_text(encoding="utf-8"))
    document["ui"] = {"theme": "corporate"}  # added later
    path.write_text(json.dumps(document), encoding="utf-8")

    status, _ = run(tmp_path, "uninstall", "gemini", "--managed", str(folder))

    assert status == 0
    document = json.loads(path.read_text(encoding="utf-8"))
    assert commands(document) == ["/opt/it/audit"]
    assert document["experimental"] == {"autoMemory": True}
    assert document["ui"] == {"theme": "corporate"}
    assert "hooksConfig" not in document and "context" not in document


def test_gemini_managed_install_takes_the_file_a_path_ending_in_json_names(
    tmp_path: Path,
) -> None:
    """``--managed PATH.json`` is the file itself, as ``$GEMINI_CLI_SYSTEM_SETTINGS_PATH``
    names one; ``status`` reads the file that variable names."""
    tmp_path.chmod(0o1777)  # others may write above it, as in /tmp (whatever this /tmp's mode)
    path = tmp_path / "opt" / "gemini-system.json"
    status, _ = run(tmp_path, "install", "gemini", "--managed", str(path))
    assert status == 0
    assert commands(json.loads(path.read_text(encoding="utf-8")))

    said = status_of(tmp_path, environ={"GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(path)})

    assert f"gemini (managed): installed in {path}" in said
    assert "gemini (managed): the guard sees write_file|replace|run_shell_command|mcp_.*" in said
    assert "Gemini CLI reads" not in said  # the file it reads
    assert f"gemini (managed): PROBLEM: Gemini CLI skips the system settings {path}" in said


def test_gemini_managed_install_refuses_settings_it_cannot_read(tmp_path: Path) -> None:
    folder = tmp_path / "etc" / "gemini-cli"
    folder.mkdir(parents=True)
    path = folder / "settings.json"
    path.write_text('{"hooks": [', encoding="utf-8")
    status, _ = run(tmp_path, "install", "gemini", "--managed", str(folder))
    assert status == 1
    assert path.read_text(encoding="utf-8") == '{"hooks": ['
    assert list(folder.iterdir()) == [path]


def test_gemini_managed_install_without_a_path_is_for_gemini_clis_system_settings(
    tmp_path: Path,
) -> None:
    status, said = run(tmp_path, "install", "gemini", "--managed", "--dry-run")
    assert status == 0
    assert "+++ /etc/gemini-cli/settings.json" in said
    assert gemini.system_settings_path({}, "linux") == Path("/etc/gemini-cli/settings.json")
    moved = {"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "/opt/gemini/system.json"}
    assert gemini.system_settings_path(moved) == Path("/opt/gemini/system.json")
    assert gemini.system_settings_path({}, "darwin") == Path(
        "/Library/Application Support/GeminiCli/settings.json"
    )


@pytest.mark.parametrize(
    ("harness", "name", "reads"),
    [
        ("codex", "requirements.toml", "Codex CLI reads /etc/codex/requirements.toml"),
        ("gemini", "settings.json", "Gemini CLI reads /etc/gemini-cli/settings.json"),
        ("claude-code", "managed-settings.json", "Claude Code reads /etc/claude-code/"),
    ],
)
def test_status_finds_a_managed_install_made_into_a_folder(
    tmp_path: Path, harness: str, name: str, reads: str
) -> None:
    """The install records where it wrote (in the installing account's home), and ``status``
    run by that account reads it there and says where the harness itself reads its managed
    settings; uninstall forgets it."""
    folder = tmp_path / "image" / "etc" / harness
    assert run(tmp_path, "install", harness, "--managed", str(folder))[0] == 0

    said = status_of(tmp_path)

    assert f"{harness} (managed): installed in {folder / name}" in said
    assert f"{harness} (managed): {reads}" in said
    assert "your Session records and token file are in" in said
    assert f"{harness}: not installed" in said  # the user's own settings are apart

    assert run(tmp_path, "uninstall", harness, "--managed", str(folder))[0] == 0
    assert str(folder) not in status_of(tmp_path)
    assert not (tmp_path / "home" / ".harness-memory").exists()


def test_a_managed_install_records_nothing_in_a_home_of_another_account(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    home_owner = 48213
    os.chown(home, home_owner, home_owner)
    folder = tmp_path / "image" / "etc" / "codex"

    status, said = run(tmp_path, "install", "codex", "--managed", str(folder))

    assert status == 0
    assert f"{home} is not a home this account owns, so this install is not recorded" in said
    assert not (home / ".harness-memory").exists()


def test_a_user_install_beside_the_gemini_managed_one_says_both_would_run(
    tmp_path: Path,
) -> None:
    path = tmp_path / "etc" / "gemini-cli" / "settings.json"
    system = {"GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(path)}
    assert run(tmp_path, "install", "gemini", "--managed", environ=system)[0] == 0
    assert path.exists()

    status, said = run(tmp_path, "install", "gemini", environ=system, checked=True)

    assert status == 0
    assert "(the managed install) already runs these hooks for every user" in said
    assert gemini_managed.settings_file(path) == path
