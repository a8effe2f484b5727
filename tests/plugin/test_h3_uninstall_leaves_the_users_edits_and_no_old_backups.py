"""H-3, H-6, H-7: an uninstall puts back exactly what the user has: what they changed in the
file since the install stays (a comment too, which no JSON object shows), and the backups the
installs made go once the file is theirs again (``uninstall --keep-backups`` keeps them). What
it keeps is one backup of the file as it was just before it wrote, when the user changed it
since the install, and never one holding the bearer token."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from harness_memory.installers.files import backups_of

from tests.support.harness_settings import install, run, users_settings

USERS = {
    "claude-code": '{"theme": "dark"}\n',
    "codex": 'model = "gpt-5.5"\n',
    "gemini": '{"ui": {"theme": "GitHub"}}\n',
}
EDITS = {
    "claude-code": ('{"theme": "dark",', '{"theme": "dark","model": "opus",'),
    "codex": ("", "# my own note\n"),
    "gemini": ("", "// my own note\n"),
}
"""What the user changes after the install: (text replaced, by what) at the file's start."""
MARK = {"claude-code": '"model": "opus"', "codex": "# my own note", "gemini": "// my own note"}
"""What shows the user's change in a text."""


def users_file(home: Path, harness: str) -> Path:
    return users_settings(harness, home, USERS[harness])


def edit(settings: Path, harness: str) -> None:
    text = settings.read_text(encoding="utf-8")
    old, new = EDITS[harness]
    assert text.startswith(old)
    settings.write_text(new + text[len(old) :], encoding="utf-8")


def edited_and_installed_again(home: Path, harness: str) -> tuple[Path, list[Path]]:
    """The user's file installed over, edited, installed over again for another agent (a
    backup beside it holding the edit); its path and its backups."""
    settings = users_file(home, harness)
    install(harness, home)
    edit(settings, harness)
    install(harness, home, "--agent", "reviewer")
    return settings, backups_of(settings)


def edited(harness: str) -> str:
    old, new = EDITS[harness]
    return new + USERS[harness][len(old) :]


@pytest.mark.parametrize("again", ["", "a re-install with a new token"])
@pytest.mark.parametrize("harness", sorted(USERS))
def test_h3_what_the_user_changed_since_the_install_stays_and_old_backups_go(
    tmp_path: Path, harness: str, again: str
) -> None:
    home = tmp_path / "home"
    settings = users_file(home, harness)
    install(harness, home, "--token", "first-token-0123456789")
    edit(settings, harness)
    if again:
        install(harness, home, "--token", "second-token-0123456789")

    said = run("uninstall", harness, home=home)

    now = settings.read_text(encoding="utf-8")
    if harness == "claude-code":  # written as JSON: the user's keys, ours out
        assert now.replace(" ", "").replace("\n", "") == '{"theme":"dark","model":"opus"}'
    else:  # the comment kept, the rest given back
        assert now == edited(harness)
    [kept] = backups_of(settings)  # the file just before: the user's change and ours
    before = kept.read_text(encoding="utf-8")
    assert "hook" in before and MARK[harness] in before
    assert "first-token-0123456789" not in before and "second-token-0123456789" not in before
    assert (
        "it held changes made since the install, by you or by the harness itself: they are "
        f"kept there): {kept}" in said
    )
    assert "a backup an install made" in said


@pytest.mark.parametrize("harness", sorted(USERS))
def test_h3_a_re_install_that_changes_nothing_does_not_take_the_users_edit_for_its_own(
    tmp_path: Path, harness: str
) -> None:
    """The install record keeps what installs wrote; an install that leaves the file as the
    user edited it wrote nothing, so the uninstall does not give back the text from before
    the edit (and keeps a copy of the file, which holds the user's change)."""
    home = tmp_path / "home"
    settings = users_file(home, harness)
    install(harness, home)
    edit(settings, harness)
    said = install(harness, home)
    assert "nothing to change (already installed)" in said

    said = run("uninstall", harness, home=home)

    assert MARK[harness] in settings.read_text(encoding="utf-8")
    assert "no backup of" not in said
    assert len(backups_of(settings)) == 1


@pytest.mark.parametrize("harness", sorted(USERS))
def test_h3_uninstall_keep_backups_keeps_every_backup(tmp_path: Path, harness: str) -> None:
    home = tmp_path / "home"
    settings, made = edited_and_installed_again(home, harness)
    assert made

    said = run("uninstall", harness, "--keep-backups", home=home)

    assert set(made) <= set(backups_of(settings))
    assert "a backup an install made" not in said


@pytest.mark.parametrize("harness", sorted(USERS))
def test_h3_uninstall_dry_run_names_the_backups_it_would_remove(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    settings, made = edited_and_installed_again(home, harness)

    said = run("uninstall", harness, "--dry-run", home=home)

    assert backups_of(settings) == made
    for backup in made:
        assert f"would remove {backup}: a backup an install made" in said


def test_h7_uninstall_keep_backups_keeps_a_backup_holding_a_token_owner_only(
    tmp_path: Path,
) -> None:
    """An install that moves a token an older install kept in Claude Code's settings ``env``
    into the token file backs up the text that held it, owner-only (H-7); an uninstall told
    to keep the backups keeps that one, still owner-only (without it, it goes:
    ``test_h3_uninstall_puts_back.py``)."""
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"env": {"HARNESS_MEMORY_TOKEN": "older-token"}}\n', encoding="utf-8")
    settings.chmod(0o644)
    install("claude-code", home)
    [held] = [b for b in backups_of(settings) if "older-token" in b.read_text("utf-8")]
    assert stat.S_IMODE(held.stat().st_mode) == 0o600

    run("uninstall", "claude-code", "--keep-backups", home=home)

    assert held.exists() and stat.S_IMODE(held.stat().st_mode) == 0o600
    assert "older-token" not in settings.read_text(encoding="utf-8")


README = Path(__file__).parents[2] / "plugins" / "harness-memory" / "README.md"


def test_h3_the_readme_says_which_backup_an_uninstall_keeps_and_that_it_may_go() -> None:
    """The README said an uninstall "puts everything back" while one backup stays beside a file
    the user changed since the install (the uninstall names it): its uninstall section says
    which, what it holds and that it can be deleted."""
    text = README.read_text(encoding="utf-8")
    start = text.index("`uninstall` needs no `--memory-root`")
    section = " ".join(text[start : text.index("\n\n", start)].split())
    assert "One backup stays: of a settings file you (or the harness) changed since" in section
    assert "`<file>.harness-memory-backup-<UTC time>`" in section
    assert "the whole file as it was just before the uninstall" in section
    assert "delete it" in section
