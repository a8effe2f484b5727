"""H-3, H-7: ``uninstall`` puts back what ``install`` found. A settings file the install created
is removed again (with its backups) when nothing else was added to it since, and kept with the
user's own keys when something was; no backup left behind holds a bearer token."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.files import BACKUP_SUFFIX

from tests.support.harness_settings import SETTINGS_FILE, SETTINGS_FOLDER, install, run, settings


def every_file(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_uninstall_removes_the_settings_files_the_install_created(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    folder = home / SETTINGS_FOLDER[harness]
    folder.mkdir(parents=True)
    install(harness, home, "--token", "first-token-0123456789")
    install(
        harness, home, "--token", "second-token-0123456789"
    )  # a re-install: backups beside them
    assert every_file(folder)

    said = run("uninstall", harness, home=home)

    assert every_file(folder) == {}, said


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_uninstall_removes_the_settings_folder_the_install_created_when_left_empty(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    install(harness, home, "--token", "a-token-0123456789abcd")
    assert (home / SETTINGS_FOLDER[harness]).is_dir()

    said = run("uninstall", harness, home=home)

    assert list(home.iterdir()) == [], said
    assert f"removed {home / SETTINGS_FOLDER[harness]}" in said


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_uninstall_keeps_the_created_settings_folder_while_the_harness_keeps_files_there(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    install(harness, home)
    history = home / SETTINGS_FOLDER[harness] / "history.jsonl"  # the harness's own, since
    history.write_text("{}\n", encoding="utf-8")

    run("uninstall", harness, home=home)

    assert every_file(home) == {f"{SETTINGS_FOLDER[harness]}/history.jsonl": "{}\n"}


def test_h3_uninstall_leaves_a_settings_folder_that_was_there_before(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    install("claude-code", home)

    run("uninstall", "claude-code", home=home)

    assert (home / ".claude").is_dir() and not any((home / ".claude").iterdir())


def test_h3_uninstall_removes_every_folder_of_a_claude_config_dir_the_install_made(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    config = home / "dotfiles" / "claude"
    environ = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(config)}
    words = ["--home", str(home), "--project", "acme", "--agent", "coder", "--no-check"]
    words += ["--url", "http://127.0.0.1:9", "--memory-root", str(tmp_path / "memory")]
    assert main(["install", "claude-code", *words], environ=environ, stdout=io.StringIO()) == 0
    assert (config / "settings.json").is_file()
    dry = io.StringIO()
    uninstall = ["uninstall", "claude-code", "--home", str(home)]
    assert main([*uninstall, "--dry-run"], environ=environ, stdout=dry) == 0
    assert f"would remove {home / 'dotfiles'} (made by the install)" in dry.getvalue()
    assert config.is_dir()

    assert main(uninstall, environ=environ, stdout=io.StringIO()) == 0

    assert list(home.iterdir()) == []


@pytest.mark.parametrize("harness", ["claude-code", "gemini"])
def test_h3_uninstall_keeps_a_created_settings_file_with_the_users_own_keys(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    install(harness, home)
    settings = home / SETTINGS_FOLDER[harness] / SETTINGS_FILE[harness]
    document = json.loads(settings.read_text(encoding="utf-8"))
    settings.write_text(json.dumps({**document, "theme": "dark"}), encoding="utf-8")

    run("uninstall", harness, home=home)

    assert json.loads(settings.read_text(encoding="utf-8")) == {"theme": "dark"}


def test_h3_codex_uninstall_keeps_a_created_config_with_the_users_own_keys(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    install("codex", home)
    config = home / ".codex" / "config.toml"
    config.write_text('model = "o3"\n' + config.read_text(encoding="utf-8"), encoding="utf-8")

    run("uninstall", "codex", home=home)

    assert config.read_text(encoding="utf-8").strip() == 'model = "o3"'
    assert not (home / ".codex" / "hooks.json").exists()


def test_h7_no_backup_keeps_the_token_after_a_remote_mode_uninstall(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    original = '{\n  "theme": "dark"\n}\n'
    settings.write_text(original, encoding="utf-8")
    install(
        "claude-code", home, "--remote", "http://127.0.0.1:9", "--token", "first-token-0123456789"
    )
    # an older version kept the token in the settings' env: a backup of those holds it
    held = settings.with_name(f"settings.json{BACKUP_SUFFIX}20240101T000000Z")
    older = {"theme": "dark", "env": {"HARNESS_MEMORY_TOKEN": "older-token"}}
    held.write_text(json.dumps(older), encoding="utf-8")
    held.chmod(0o600)
    install(
        "claude-code", home, "--remote", "http://127.0.0.1:9", "--token", "second-token-0123456789"
    )
    shown = run("uninstall", "claude-code", "--dry-run", home=home)
    assert f"would remove {held}: a backup holding the bearer token" in shown

    said = run("uninstall", "claude-code", home=home)

    left = every_file(home / ".claude")
    tokens = ("first-token-0123456789", "second-token-0123456789", "older-token")
    assert [name for name, text in left.items() if any(t in text for t in tokens)] == [], said
    assert left.pop("settings.json") == original  # from the first install's backup, byte for byte
    assert original not in left.values()  # that backup repeated the file: removed (H-3)


@pytest.mark.parametrize(
    ("harness", "text"),
    [
        *((harness, text) for harness in ("claude-code", "gemini") for text in ("", "\n", " \n\n")),
        ("codex", ""),  # a TOML file left with blank lines only is written empty
    ],
)
def test_h3_uninstall_gives_back_an_empty_settings_file_as_it_was(
    tmp_path: Path, harness: str, text: str
) -> None:
    home = tmp_path / "home"
    file = settings(harness, home)
    file.parent.mkdir(parents=True)
    file.write_text(text, encoding="utf-8")
    install(harness, home, "--token", "a-token-0123456789abcd")
    assert file.read_text(encoding="utf-8") != text

    said = run("uninstall", harness, home=home)

    assert file.read_text(encoding="utf-8") == text, said
