"""H-3: a Session installed by an older harness-memory (its install record keeps no ``made:``
entries: what the install found on the way to the lists it adds the memory root to), then
installed again by this one and uninstalled, gets its settings file back byte for byte: the
lists and tables the first install made are no table the user had.

``fixtures/old_install`` is the settings folder of each harness as the install before 41ac8be0
left it (``install`` run by that code over ``{"model": "opus"}``, ``{"theme": "x"}`` and
``model = "o3"``), its paths under ``@TOP@`` (the test's own folder stands in) and its
backups beside the settings files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_memory.installers.record import text_digest

from tests.support.harness_settings import (
    SETTINGS_FOLDER,
    install,
    parsed,
    run,
    settings,
    users_settings,
    with_a_setting,
)

OLD_INSTALL = Path(__file__).parent / "fixtures" / "old_install"

BEFORE_THE_OLD_INSTALL = {
    "claude-code": '{"model": "opus"}\n',
    "gemini": '{"theme": "x"}\n',
    "codex": 'model = "o3"\n',
}
"""Each settings file as the user had it before the old install (its backup holds the same)."""


def old_install(harness: str, top: Path) -> Path:
    """The harness's settings folder as the old install left it under ``top / "home"``, the
    record's digests of what it wrote taken over the texts at their paths here."""
    folder = top / "home" / SETTINGS_FOLDER[harness]
    for source in (OLD_INSTALL / SETTINGS_FOLDER[harness]).rglob("*"):
        if source.is_file():
            target = folder / source.relative_to(OLD_INSTALL / SETTINGS_FOLDER[harness])
            target.parent.mkdir(parents=True, exist_ok=True)
            text = source.read_text(encoding="utf-8").replace("@TOP@", str(top))
            target.write_text(text, encoding="utf-8")
    record_path = folder / "harness-memory" / "install.json"
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert not [key for key in record["previous"] if key.startswith("made:")]  # the old shape
    for path in record["written"]:
        record["written"][path] = [text_digest(Path(path).read_bytes())]
    record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_old_install_then_install_then_uninstall_gives_back_the_users_file(
    tmp_path: Path, harness: str
) -> None:
    old_install(harness, tmp_path)
    home = tmp_path / "home"
    path = settings(harness, home)
    assert "agent_state/memory" in path.read_text(encoding="utf-8")  # installed, the old way
    install(harness, home)  # the upgrade: installed again by this harness-memory

    said = run("uninstall", harness, home=home)

    assert path.read_text(encoding="utf-8") == BEFORE_THE_OLD_INSTALL[harness], said


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_old_install_then_install_then_uninstall_keeps_a_later_edit_and_no_empty_table(
    tmp_path: Path, harness: str
) -> None:
    old_install(harness, tmp_path)
    home = tmp_path / "home"
    path = settings(harness, home)
    install(harness, home)
    users = edited(harness, path, BEFORE_THE_OLD_INSTALL[harness])

    said = run("uninstall", harness, home=home)

    assert parsed(harness, path.read_text(encoding="utf-8")) == parsed(harness, users), said


USERS_EMPTY_TABLE = {
    "claude-code": '{"model": "opus", "env": {}}\n',
    "codex": 'model = "o3"\n\n[features]\n',
}
"""Settings holding an empty table on the way to the own-memory switch an install sets (H-6)."""


def installed_by_an_older_version(harness: str, home: Path) -> Path:
    """``USERS_EMPTY_TABLE`` installed over, its record then cut to the shape an older install
    kept (a switch's ``absent`` without ``made``: whether the tables on its way were there);
    the settings file's path."""
    path = users_settings(harness, home, USERS_EMPTY_TABLE[harness])
    install(harness, home)
    record_path = path.parent / "harness-memory" / "install.json"
    record = json.loads(record_path.read_text(encoding="utf-8"))
    for was in record["previous"].values():
        was.pop("made", None)
    record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return path


def edited(harness: str, path: Path, users: str) -> str:
    """Add a setting of the user's to the file at ``path`` after the upgrade (so uninstall
    cannot give a backup back whole); ``users``, the user's own text, as the user then expects
    it after an uninstall."""
    text = path.read_text(encoding="utf-8")
    path.write_text(with_a_setting(harness, text, "editor", "vi"), encoding="utf-8")
    return with_a_setting(harness, users, "editor", "vi")


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_h6_an_upgrade_gives_back_the_users_empty_table_from_the_first_installs_backup(
    tmp_path: Path, harness: str
) -> None:
    """H-6: the older install's record does not tell an empty table of the user's from one it
    made; the backup it made before its first change does, so uninstall after an upgrade
    gives the empty table back."""
    home = tmp_path / "home"
    path = installed_by_an_older_version(harness, home)
    install(harness, home)  # the upgrade
    users = edited(harness, path, USERS_EMPTY_TABLE[harness])

    said = run("uninstall", harness, home=home)

    assert parsed(harness, path.read_text(encoding="utf-8")) == parsed(harness, users), said


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_h6_without_that_backup_uninstall_says_which_empty_table_it_could_not_tell(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    path = installed_by_an_older_version(harness, home)
    for backup in path.parent.glob(f"{path.name}.harness-memory-backup-*"):
        backup.unlink()  # the user cleaned up
    install(harness, home)
    edited(harness, path, USERS_EMPTY_TABLE[harness])

    said = run("uninstall", harness, home=home)

    table = "env" if harness == "claude-code" else "features"
    assert f"{table} was taken out with it" in said and "cannot tell" in said, said
