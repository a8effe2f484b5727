"""H-3: backups do not pile up. Every install or uninstall that changes a settings file first
copies it to ``<file>.harness-memory-backup-<UTC time>``; then a backup holding the same bytes
as the file now does, or as a newer backup, is removed (and named in the output). So each
earlier text of the file is kept once, none repeats the file, and install followed by
uninstall, however often, leaves one backup: the installed file's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_memory.installers.files import BACKUP_SUFFIX, backups_of

from tests.plugin.test_h3_uninstall_puts_back import SETTINGS_FILE, SETTINGS_FOLDER, install, run

USERS = {
    "claude-code": '{\n    "theme": "dark",\n    "model": "opus"\n}\n',
    "codex": '# mine\nmodel = "gpt-5.5"\n',
    "gemini": '{"ui": {"theme": "GitHub"}}',
}


def user_file(home: Path, harness: str) -> Path:
    settings = home / SETTINGS_FOLDER[harness] / SETTINGS_FILE[harness]
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(USERS[harness], encoding="utf-8")
    return settings


def texts(paths: list[Path]) -> list[str]:
    return [path.read_text(encoding="utf-8") for path in paths]


@pytest.mark.parametrize("harness", sorted(USERS))
def test_h3_install_then_uninstall_leaves_one_backup_of_the_installed_file(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    settings = user_file(home, harness)
    install(harness, home)
    installed = settings.read_text(encoding="utf-8")

    said = run("uninstall", harness, home=home)

    assert settings.read_text(encoding="utf-8") == USERS[harness]
    assert texts(backups_of(settings)) == [installed]
    assert "the same bytes as" in said


@pytest.mark.parametrize("harness", sorted(USERS))
def test_h3_install_and_uninstall_again_and_again_keep_at_most_one_backup(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    settings = user_file(home, harness)
    for _ in range(3):
        install(harness, home)
        assert texts(backups_of(settings)) == [USERS[harness]]
        run("uninstall", harness, home=home)
        assert settings.read_text(encoding="utf-8") == USERS[harness]
        assert len(backups_of(settings)) == 1


def test_h3_every_distinct_earlier_text_is_kept_once(tmp_path: Path) -> None:
    """A re-install for another agent changes the file again: the user's file and the first
    install's are both earlier texts, and both stay."""
    home = tmp_path / "home"
    settings = user_file(home, "gemini")
    install("gemini", home)
    first = settings.read_text(encoding="utf-8")

    install("gemini", home, "--agent", "reviewer")

    assert texts(backups_of(settings)) == [USERS["gemini"], first]


def test_h3_a_hand_aligned_file_comes_back_byte_for_byte_and_its_copies_go(
    tmp_path: Path,
) -> None:
    """The uninstall gives a file no layout reproduces back from its backup; that backup then
    repeats the file and goes, the other earlier texts stay."""
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    aligned = '{\n  "theme"      : "dark",\n  "permissions": {"allow": ["Read"]}\n}\n'
    settings.write_text(aligned, encoding="utf-8")
    install("claude-code", home)
    install("claude-code", home, "--agent", "reviewer")

    run("uninstall", "claude-code", home=home)

    assert settings.read_text(encoding="utf-8") == aligned
    kept = texts(backups_of(settings))
    assert aligned not in kept
    assert len(kept) == len(set(kept)) == 2


def test_h3_a_backup_the_user_changed_and_a_symlink_named_like_one_stay(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = user_file(home, "claude-code")
    edited = settings.with_name(settings.name + BACKUP_SUFFIX + "20240101T000000Z")
    edited.write_text(json.dumps({"theme": "light"}), encoding="utf-8")
    link = settings.with_name(settings.name + BACKUP_SUFFIX + "20240102T000000Z")
    link.symlink_to(settings)  # same bytes as the file, but not ours

    install("claude-code", home)
    run("uninstall", "claude-code", home=home)

    assert edited.read_text(encoding="utf-8") == json.dumps({"theme": "light"})
    assert link.is_symlink()
