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
from harness_memory.installers.files import BACKUP_SUFFIX
from harness_memory.installers.record import InstallRecord, text_digest

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
    "gemini": '{"theme": "x", "experimental": {}}\n',
    "gemini-context": '{"theme": "x", "context": {}}\n',
    "codex --managed": "[features]\n",
    "gemini --managed": '{"theme": "x", "experimental": {}}\n',
}
"""Settings holding an empty table on the way to the own-memory switch an install sets (H-6),
per install: a harness, ``-context`` where the table is the one Gemini CLI's memory root and
directory-tree switch share, `` --managed`` for the machine's file (a folder in the test)."""
EMPTY_TABLE = {
    "claude-code": "env",
    "codex": "features",
    "gemini": "experimental",
    "codex --managed": "features",
    "gemini --managed": "experimental",
}
"""The empty table of each install above that no install record outside its backup names."""
MANAGED_FILE = {"codex": "requirements.toml", "gemini": "settings.json"}


def harness_of(case: str) -> str:
    """The harness a case of :data:`USERS_EMPTY_TABLE` installs into."""
    return case.split()[0].removesuffix("-context")


def installed_by_an_older_version(case: str, home: Path) -> tuple[Path, tuple[str, ...]]:
    """``USERS_EMPTY_TABLE[case]`` installed over, its record then cut to the shape an older
    install kept (a switch's ``absent`` without ``made``: whether the tables on its way were
    there); the settings file's path and the flags its install and uninstall take."""
    harness = harness_of(case)
    if case.endswith("--managed"):
        folder = home.parent / "etc" / harness
        flags: tuple[str, ...] = ("--managed", str(folder))
        path = folder / MANAGED_FILE[harness]
        path.parent.mkdir(parents=True)
        path.write_text(USERS_EMPTY_TABLE[case], encoding="utf-8")
    else:
        flags = ()
        path = users_settings(harness, home, USERS_EMPTY_TABLE[case])
    install(harness, home, *flags)
    record_path = path.parent / "harness-memory" / "install.json"
    record = json.loads(record_path.read_text(encoding="utf-8"))
    for was in record["previous"].values():
        was.pop("made", None)
    record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return path, flags


def edited(harness: str, path: Path, users: str) -> str:
    """Add a setting of the user's to the file at ``path`` after the upgrade (so uninstall
    cannot give a backup back whole); ``users``, the user's own text, as the user then expects
    it after an uninstall."""
    text = path.read_text(encoding="utf-8")
    path.write_text(with_a_setting(harness, text, "editor", "vi"), encoding="utf-8")
    return with_a_setting(harness, users, "editor", "vi")


@pytest.mark.parametrize("case", list(USERS_EMPTY_TABLE))
def test_h6_an_upgrade_gives_back_the_users_empty_table_from_the_first_installs_backup(
    tmp_path: Path, case: str
) -> None:
    """H-6: the older install's record does not tell an empty table of the user's from one it
    made; the backup it made before its first change does, so uninstall after an upgrade
    gives the empty table back, and says nothing of a table taken out."""
    home = tmp_path / "home"
    harness = harness_of(case)
    path, flags = installed_by_an_older_version(case, home)
    install(harness, home, *flags)  # the upgrade
    users = edited(harness, path, USERS_EMPTY_TABLE[case])

    said = run("uninstall", harness, *flags, home=home)

    assert parsed(harness, path.read_text(encoding="utf-8")) == parsed(harness, users), said
    assert "was taken out with it" not in said


@pytest.mark.parametrize("case", list(EMPTY_TABLE))
def test_h6_without_that_backup_uninstall_says_which_empty_table_it_could_not_tell(
    tmp_path: Path, case: str
) -> None:
    home = tmp_path / "home"
    harness = harness_of(case)
    path, flags = installed_by_an_older_version(case, home)
    for backup in path.parent.glob(f"{path.name}.harness-memory-backup-*"):
        backup.unlink()  # the user cleaned up
    install(harness, home, *flags)
    edited(harness, path, USERS_EMPTY_TABLE[case])

    said = run("uninstall", harness, *flags, home=home)

    assert f"{EMPTY_TABLE[case]} was taken out with it" in said and "cannot tell" in said, said


def test_h6_a_table_given_back_after_the_switch_is_never_said_taken_out(tmp_path: Path) -> None:
    """Gemini CLI's ``context`` holds both the directory-tree switch and the list the memory
    root goes into: with no backup left, the switch's record cannot tell whether ``context``
    was the user's, but the list's record can and gives it back; the uninstall's words are
    made after that, so they do not say it was taken out."""
    home = tmp_path / "home"
    path, _ = installed_by_an_older_version("gemini-context", home)
    for backup in path.parent.glob(f"{path.name}.harness-memory-backup-*"):
        backup.unlink()
    install("gemini", home)
    users = edited("gemini", path, USERS_EMPTY_TABLE["gemini-context"])

    said = run("uninstall", "gemini", home=home)

    assert parsed("gemini", path.read_text(encoding="utf-8")) == parsed("gemini", users), said
    assert "context was taken out" not in said, said
    assert "experimental was taken out with it" in said  # that one the install did make


def test_h6_the_first_backup_is_read_once_and_one_that_cannot_be_read_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The settings as the first install's backup holds them: the bytes whose digest the
    record names are the bytes parsed (one read), and a backup that cannot be read (made
    private by the user, on a disk giving errors) is passed over for the next, not the end of
    the search."""
    path = tmp_path / ".gemini" / "settings.json"
    path.parent.mkdir()
    users = '{"theme": "x", "experimental": {}}\n'
    unreadable = path.with_name(f"{path.name}{BACKUP_SUFFIX}20260101T000000Z")
    unreadable.write_text(users, encoding="utf-8")
    path.with_name(f"{path.name}{BACKUP_SUFFIX}20260102T000000Z").write_text(users, "utf-8")
    record = InstallRecord(
        path.parent / "harness-memory" / "install.json",
        None,
        {"backedUp": {str(path): [text_digest(users.encode())]}},
    )
    reading = Path.read_bytes

    def refusing(self: Path) -> bytes:
        if self == unreadable:
            raise PermissionError(13, "Permission denied", str(self))
        return reading(self)

    monkeypatch.setattr(Path, "read_bytes", refusing)
    parsed_texts: list[str] = []

    def parse(text: str, backup: Path) -> object:
        parsed_texts.append(text)
        return json.loads(text)

    assert record.first_found(path, parse) == {"theme": "x", "experimental": {}}
    assert parsed_texts == [users]
