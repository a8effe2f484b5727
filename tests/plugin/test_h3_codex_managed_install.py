"""``install codex --managed [DIR]``: the hooks and the ``[features]`` pins in Codex CLI's
``requirements.toml``, which no user's or trusted project's ``config.toml`` overrides
(``tests/data/cases/repository-switches-hooks-off``, its Codex kind; the real-CLI proof is
``test_e2e_codex_repository_switches_hooks_off.py``). ``DIR`` stands in for ``/etc/codex``."""

from __future__ import annotations

import io
import stat
from pathlib import Path

import pytest
import tomlkit
from harness_memory.cli import main
from harness_memory.installers import claude_code, codex_managed
from harness_memory.installers.codex_managed import DEFAULT_DIR
from harness_memory.installers.status import status

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
ADMINS = """\
# Managed by IT: do not edit by hand.
allowed_approval_policies = ["untrusted", "on-request"]  # no "never"

[features]
web_search_request = false  # theirs
memories = true

[hooks]
managed_dir = "/opt/it/hooks"

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "/opt/it/hooks/audit"
"""


def install_checks(tmp_path: Path, checked: bool) -> tuple[Path, list[str]]:
    """``(the --executable, the flags)`` of an install: ``--no-check`` unless ``checked``, then
    an executable stand-in in ``tmp_path`` (the check refuses one that is not there)."""
    if not checked:
        return Path("/opt/venv/bin/harness-memory"), ["--no-check"]
    executable = tmp_path / "bin" / "harness-memory"
    executable.parent.mkdir(parents=True, exist_ok=True)
    executable.write_text("#!/bin/sh\n", encoding="utf-8")
    executable.chmod(0o755)
    return executable, []


def run(tmp_path: Path, *words: str, checked: bool = False) -> tuple[int, str]:
    """Run the command line; an install with ``--no-check`` unless ``checked`` (the checks
    read this machine's settings; the executable then an executable stand-in)."""
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    out = io.StringIO()
    executable, unchecked = install_checks(tmp_path, checked)
    extra = [*FLAGS, "--memory-root", str(root), *unchecked] if words[0] == "install" else []
    argv = [*words, "--home", str(tmp_path / "home"), *extra]
    argv += ["--executable", str(executable)] if words[0] == "install" else []
    status = main(argv, environ={"HOME": str(tmp_path / "home")}, stdout=out)
    return status, out.getvalue()


def commands(document: dict[str, object]) -> list[str]:
    hooks = document.get("hooks")
    assert isinstance(hooks, dict)
    groups = [g for v in hooks.values() if isinstance(v, list) for g in v]
    return [h["command"] for g in groups for h in g["hooks"]]


def test_codex_managed_install_pins_the_hooks_on_and_codex_memory_and_terminals_off(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "etc" / "codex"
    status, said = run(tmp_path, "install", "codex", "--managed", str(folder))
    assert status == 0
    path = folder / "requirements.toml"
    document = tomlkit.parse(path.read_text(encoding="utf-8")).unwrap()
    assert document["features"] == {"hooks": True, "memories": False, "unified_exec_tty": False}
    ours = commands(document)
    assert {c.split(" hook codex ")[1].split()[0] for c in ours} == {
        "session-start",
        "pre-tool-use",
        "post-tool-use",
    }
    for command in ours:  # one command for every user: each finds their own state and token
        assert "--flags-only" in command
        assert "--state-dir" not in command and "--token" not in command
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # every user's Codex reads it
    config = tomlkit.parse((folder / "config.toml").read_text(encoding="utf-8")).unwrap()
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    assert config["sandbox_workspace_write"]["writable_roots"] == [str(root)]
    assert "no user's or project's config.toml can switch them off" in said
    assert "Each user gives their token with `harness-memory token set --managed`" in said
    # H-3: the summary names the setting widened for the memory root, as a user install's does
    assert (
        f"Codex CLI's sandbox: sandbox_workspace_write.writable_roots in {folder / 'config.toml'} "
        f"names the memory root {root}: its sandbox lets the agent's commands and patches write "
        "memory."
    ) in said
    assert not (tmp_path / "home" / ".codex").exists()  # nobody's own settings

    status, said = run(tmp_path, "uninstall", "codex", "--managed", str(folder))
    assert status == 0
    assert not path.exists() and not (folder / "config.toml").exists()  # the install made them
    assert not folder.exists()  # and the folder it made for them


def test_codex_managed_install_merges_into_an_administrators_requirements(
    tmp_path: Path,
) -> None:
    """The administrator's keys, tables, hooks and comments stay; the file is backed up; a
    second install changes nothing; uninstall gives the file back byte for byte, mode too."""
    folder = tmp_path / "etc" / "codex"
    folder.mkdir(parents=True)
    path = folder / "requirements.toml"
    path.write_text(ADMINS, encoding="utf-8")
    path.chmod(0o640)
    system = folder / "config.toml"
    system_text = '# IT defaults\n[sandbox_workspace_write]\nwritable_roots = ["/srv/shared"]\n'
    system.write_text(system_text, encoding="utf-8")

    status, said = run(tmp_path, "install", "codex", "--managed", str(folder))
    assert status == 0
    roots = tomlkit.parse(system.read_text(encoding="utf-8")).unwrap()["sandbox_workspace_write"]
    assert roots["writable_roots"][0] == "/srv/shared" and len(roots["writable_roots"]) == 2
    text = path.read_text(encoding="utf-8")
    for line in ADMINS.splitlines():
        if not line.startswith("memories"):
            assert line in text
    document = tomlkit.parse(text).unwrap()
    assert document["features"]["memories"] is False
    assert document["hooks"]["managed_dir"] == "/opt/it/hooks"
    assert "/opt/it/hooks/audit" in commands(document)
    assert "features.memories was true" in said
    [backup] = list(folder.glob("requirements.toml.harness-memory-backup-*"))
    assert backup.read_text(encoding="utf-8") == ADMINS
    assert stat.S_IMODE(path.stat().st_mode) == 0o640

    status, said = run(tmp_path, "install", "codex", "--managed", str(folder))
    assert status == 0 and "nothing to change (already installed)" in said
    assert path.read_text(encoding="utf-8") == text

    status, said = run(tmp_path, "uninstall", "codex", "--managed", str(folder))
    assert status == 0
    assert path.read_text(encoding="utf-8") == ADMINS
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert "features.memories = true again" in said
    assert system.read_text(encoding="utf-8") == system_text
    assert not (folder / "harness-memory").exists()


def test_codex_managed_uninstall_after_an_administrators_edit_takes_out_only_ours(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "etc" / "codex"
    folder.mkdir(parents=True)
    path = folder / "requirements.toml"
    path.write_text(ADMINS, encoding="utf-8")
    run(tmp_path, "install", "codex", "--managed", str(folder))
    edited = path.read_text(encoding="utf-8") + '\n[otel]\nexporter = "none"  # added later\n'
    path.write_text(edited, encoding="utf-8")

    status, _ = run(tmp_path, "uninstall", "codex", "--managed", str(folder))
    assert status == 0
    text = path.read_text(encoding="utf-8")
    document = tomlkit.parse(text).unwrap()
    assert commands(document) == ["/opt/it/hooks/audit"]
    assert document["features"] == {"web_search_request": False, "memories": True}
    assert 'exporter = "none"  # added later' in text
    assert "# Managed by IT: do not edit by hand." in text


def test_codex_managed_install_refuses_requirements_it_cannot_read(tmp_path: Path) -> None:
    folder = tmp_path / "etc" / "codex"
    folder.mkdir(parents=True)
    path = folder / "requirements.toml"
    path.write_text("[features\nhooks = true\n", encoding="utf-8")
    status, _ = run(tmp_path, "install", "codex", "--managed", str(folder))
    assert status == 1
    assert path.read_text(encoding="utf-8") == "[features\nhooks = true\n"
    assert list(folder.iterdir()) == [path]


def test_codex_managed_dry_run_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "etc" / "codex"
    status, said = run(tmp_path, "install", "codex", "--managed", str(folder), "--dry-run")
    assert status == 0
    assert "+hooks = true" in said and "+unified_exec_tty = false" in said
    assert not folder.exists()


def test_codex_managed_install_without_a_folder_is_for_etc_codex(tmp_path: Path) -> None:
    status, said = run(tmp_path, "install", "codex", "--managed", "--dry-run")
    assert status == 0
    assert f"+++ {DEFAULT_DIR / 'requirements.toml'}" in said
    assert Path("/etc/codex") == DEFAULT_DIR  # where Codex CLI reads it (Linux, macOS)


def test_codex_managed_install_shows_in_status(tmp_path: Path) -> None:
    folder = tmp_path / "etc" / "codex"
    assert run(tmp_path, "install", "codex", "--managed", str(folder))[0] == 0
    home = tmp_path / "home"
    lines, _ = status(home, {"HOME": str(home)}, tmp_path / "etc" / "claude-code", folder)
    said = "\n".join(lines)
    assert f"codex (managed): installed in {folder / 'requirements.toml'}" in said
    assert "codex (managed): the guard sees apply_patch|Bash|write_stdin|mcp__.*" in said
    assert "your Session records and token file are in" in said
    assert "codex: not installed" in said  # the user's own ~/.codex is apart


def test_codex_managed_install_refuses_an_event_that_is_no_list_of_groups(tmp_path: Path) -> None:
    folder = tmp_path / "etc" / "codex"
    folder.mkdir(parents=True)
    path = folder / "requirements.toml"
    path.write_text('[hooks.PreToolUse]\ncommand = "/opt/it/audit"\n', encoding="utf-8")
    status, _ = run(tmp_path, "install", "codex", "--managed", str(folder))
    assert status == 1
    assert path.read_text(encoding="utf-8") == '[hooks.PreToolUse]\ncommand = "/opt/it/audit"\n'
    assert list(folder.iterdir()) == [path]


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_a_user_install_beside_the_managed_one_says_both_would_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str
) -> None:
    """The managed install already runs the hooks for every user: a user install of the same
    harness beside it would inject the memory twice, and says so."""
    folder = tmp_path / "etc" / harness
    monkeypatch.setattr(codex_managed, "DEFAULT_DIR", folder)
    monkeypatch.setattr(claude_code, "managed_dir", lambda: folder)
    status, said = run(tmp_path, "install", harness, checked=True)
    assert status == 0 and "already runs these hooks" not in said
    run(tmp_path, "uninstall", harness)
    assert run(tmp_path, "install", harness, "--managed")[0] == 0

    status, said = run(tmp_path, "install", harness, checked=True)

    assert status == 0
    assert "(the managed install) already runs these hooks for every user" in said
    assert f"`harness-memory uninstall {harness}`" in said
