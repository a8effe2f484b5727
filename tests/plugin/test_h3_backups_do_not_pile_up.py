"""H-3: backups do not pile up. Every install or uninstall that changes a settings file first
copies it to ``<file>.harness-memory-backup-<UTC time>``; then a backup holding the same bytes
as the file now does, or as a newer backup, is removed (and named in the output). So each
earlier text of the file is kept once and none repeats the file.

An uninstall keeps no copy of a text an install wrote (the install record keeps each one's
digest): such a file holds nothing of the user's, whose own text the install's backup kept. So
install followed by uninstall, however often, gives the file back byte for byte and leaves no
backup; a file the user changed since the install is backed up, and the output says where.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_memory.installers.files import BACKUP_SUFFIX, backups_of

from tests.support.harness_settings import (
    install,
    run,
    users_settings,
)

USERS = {
    "claude-code": '{\n    "theme": "dark",\n    "model": "opus"\n}\n',
    "codex": '# mine\nmodel = "gpt-5.5"\n',
    "gemini": '{"ui": {"theme": "GitHub"}}',
}


def user_file(home: Path, harness: str) -> Path:
    return users_settings(harness, home, USERS[harness])


def texts(paths: list[Path]) -> list[str]:
    return [path.read_text(encoding="utf-8") for path in paths]


@pytest.mark.parametrize("harness", sorted(USERS))
def test_h3_install_then_uninstall_gives_the_file_back_and_leaves_no_backup(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    settings = user_file(home, harness)
    install(harness, home)

    said = run("uninstall", harness, home=home)

    assert settings.read_text(encoding="utf-8") == USERS[harness]
    assert backups_of(settings) == []
    assert f"no backup of {settings} kept: it held what the install wrote" in said


@pytest.mark.parametrize("harness", sorted(USERS))
def test_h3_a_file_changed_since_the_install_is_backed_up_by_the_uninstall_which_says_where(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    settings = user_file(home, harness)
    install(harness, home)
    edited = settings.read_text(encoding="utf-8") + ("\n" if harness == "codex" else " ")
    settings.write_text(edited, encoding="utf-8")  # the user's edit: a blank line or space

    said = run("uninstall", harness, home=home)

    [backup] = [path for path in backups_of(settings) if path.read_text("utf-8") == edited]
    assert (
        "it held changes made since the install, by you or by the harness itself: they are "
        f"kept there): {backup}" in said
    )


@pytest.mark.parametrize("harness", sorted(USERS))
def test_h3_install_and_uninstall_again_and_again_leave_no_backup(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    settings = user_file(home, harness)
    for _ in range(3):
        install(harness, home)
        assert texts(backups_of(settings)) == [USERS[harness]]
        run("uninstall", harness, home=home)
        assert settings.read_text(encoding="utf-8") == USERS[harness]
        assert backups_of(settings) == []


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
    repeats the file and goes, and so do the copies of what each install wrote."""
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    aligned = '{\n  "theme"      : "dark",\n  "permissions": {"allow": ["Read"]}\n}\n'
    settings.write_text(aligned, encoding="utf-8")
    install("claude-code", home)
    install("claude-code", home, "--agent", "reviewer")

    run("uninstall", "claude-code", home=home)

    assert settings.read_text(encoding="utf-8") == aligned
    assert backups_of(settings) == []


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


HOOK_FILES = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json"}
HOOK_FILES["gemini"] = ".gemini/settings.json"


@pytest.mark.parametrize(
    "before",
    [
        '{\n  "hooks": {}\n}\n',  # the case token-in-readable-settings makes Codex's so
        '{\n  "hooks": {"SessionStart": []},\n  "theme": "dark"\n}\n',
    ],
)
@pytest.mark.parametrize("harness", sorted(HOOK_FILES))
def test_h3_a_file_with_empty_hooks_comes_back_byte_for_byte(
    tmp_path: Path, harness: str, before: str
) -> None:
    """A file that held an empty ``"hooks"`` object or event list before the install: the
    uninstall takes out what its removal left empty, yet the file is still the one its backup
    holds, so it comes back as it was and no backup stays (it came back as ``{}`` beside a
    backup of the user's text)."""
    home = tmp_path / "home"
    settings = home / HOOK_FILES[harness]
    settings.parent.mkdir(parents=True)
    settings.write_text(before, encoding="utf-8")
    install(harness, home)

    run("uninstall", harness, home=home)

    assert settings.read_text(encoding="utf-8") == before
    assert backups_of(settings) == []
