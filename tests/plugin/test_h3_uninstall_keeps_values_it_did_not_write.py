"""H-3, H-6: ``uninstall`` takes out only what ``install`` added; every other key and value of
the harness's settings stays exactly as it was, ``null`` and empty tables included.

The install puts a table where the user's settings hold ``"env": null`` (Claude Code's auto
memory variable), ``"context": null`` or ``"experimental": null`` (Gemini CLI's include list and
auto memory switch), a list where ``"allow": null`` is; Codex CLI's ``features = {}`` and
``[sandbox_workspace_write]`` are tables it adds to. The uninstall took the tables out with its
entries, and the user's ``null`` or empty table with them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomlkit

from tests.plugin.test_h3_uninstall_puts_back import SETTINGS_FILE, SETTINGS_FOLDER, install, run

USERS_OWN = {
    "claude-code": (
        '{"env": null, "permissions": {"allow": null, "deny": null}, "model": "opus",'
        ' "autoMemoryEnabled": null}\n'
    ),
    "gemini": '{"context": null, "experimental": null, "hooksConfig": null, "ui": {}}\n',
    "codex": 'model = "o3"\nfeatures = {}\n\n[tools]\n\n[sandbox_workspace_write]\n',
}
"""A settings file per harness whose values lie on the way to what the install writes."""


def settings(harness: str, home: Path) -> Path:
    return home / SETTINGS_FOLDER[harness] / SETTINGS_FILE[harness]


def parsed(harness: str, text: str) -> object:
    """The settings as their harness reads them, key order kept (a list of pairs per table)."""

    def pairs(value: object) -> object:
        if isinstance(value, dict):
            return [(key, pairs(item)) for key, item in value.items()]
        return value

    return pairs(tomlkit.parse(text).unwrap() if harness == "codex" else json.loads(text))


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_uninstall_gives_back_the_file_as_it_was(tmp_path: Path, harness: str) -> None:
    home = tmp_path / "home"
    path = settings(harness, home)
    path.parent.mkdir(parents=True)
    path.write_text(USERS_OWN[harness], encoding="utf-8")
    install(harness, home)
    assert path.read_text(encoding="utf-8") != USERS_OWN[harness]

    said = run("uninstall", harness, home=home)

    assert path.read_text(encoding="utf-8") == USERS_OWN[harness], said


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_uninstall_keeps_the_users_nulls_and_empty_tables_beside_a_later_edit(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    path = settings(harness, home)
    path.parent.mkdir(parents=True)
    path.write_text(USERS_OWN[harness], encoding="utf-8")
    install(harness, home)
    install(harness, home)  # installed again: what it found the first time is still what counts
    edited = path.read_text(encoding="utf-8")  # the user adds a setting after the install
    edited = (
        f'theme = "dark"\n{edited}' if harness == "codex" else f'{{"theme": "dark", {edited[1:]}'
    )
    path.write_text(edited, encoding="utf-8")

    said = run("uninstall", harness, home=home)

    added = 'theme = "dark"\n' if harness == "codex" else '{"theme": "dark", '
    users = added + USERS_OWN[harness][0 if harness == "codex" else 1 :]
    assert parsed(harness, path.read_text(encoding="utf-8")) == parsed(harness, users), said


DELETED_AFTER_THE_INSTALL = {
    "claude-code": ('{"permissions": {"allow": ["Read(/x)"]}, "m": 1}\n', "permissions"),
    "gemini": ('{"context": {"includeDirectories": ["/x"]}, "m": 1}\n', "context"),
    "codex": (
        'm = 1\n\n[sandbox_workspace_write]\nwritable_roots = ["/x"]\n',
        "sandbox_workspace_write",
    ),
}
"""A settings file whose table the install adds to, and that table's key."""


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_uninstall_keeps_the_users_deletion_of_a_table_the_install_added_to(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    path = settings(harness, home)
    path.parent.mkdir(parents=True)
    text, table = DELETED_AFTER_THE_INSTALL[harness]
    path.write_text(text, encoding="utf-8")
    install(harness, home)
    if harness == "codex":  # the user deletes the table, with the install's entry in it
        document = tomlkit.parse(path.read_text(encoding="utf-8"))
        del document[table]
        path.write_text(tomlkit.dumps(document), encoding="utf-8")
    else:
        data = json.loads(path.read_text(encoding="utf-8"))
        del data[table]
        path.write_text(json.dumps(data), encoding="utf-8")

    said = run("uninstall", harness, home=home)

    assert parsed(harness, path.read_text(encoding="utf-8")) == [("m", 1)], said
