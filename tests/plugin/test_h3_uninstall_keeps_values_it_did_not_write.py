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

from tests.support.harness_settings import install, parsed, run, users_settings, with_a_setting

USERS_OWN = {
    "claude-code": (
        '{"env": null, "permissions": {"allow": null, "deny": null}, "model": "opus",'
        ' "autoMemoryEnabled": null}\n'
    ),
    "gemini": '{"context": null, "experimental": null, "hooksConfig": null, "ui": {}}\n',
    "codex": 'model = "o3"\nfeatures = {}\n\n[tools]\n\n[sandbox_workspace_write]\n',
}
"""A settings file per harness whose values lie on the way to what the install writes."""


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_uninstall_gives_back_the_file_as_it_was(tmp_path: Path, harness: str) -> None:
    home = tmp_path / "home"
    path = users_settings(harness, home, USERS_OWN[harness])
    install(harness, home)
    assert path.read_text(encoding="utf-8") != USERS_OWN[harness]

    said = run("uninstall", harness, home=home)

    assert path.read_text(encoding="utf-8") == USERS_OWN[harness], said


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h3_uninstall_keeps_the_users_nulls_and_empty_tables_beside_a_later_edit(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    path = users_settings(harness, home, USERS_OWN[harness])
    install(harness, home)
    install(harness, home)  # installed again: what it found the first time is still what counts
    text = path.read_text(encoding="utf-8")  # the user adds a setting after the install
    path.write_text(with_a_setting(harness, text, "theme", "dark"), encoding="utf-8")

    said = run("uninstall", harness, home=home)

    users = with_a_setting(harness, USERS_OWN[harness], "theme", "dark")
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
    text, table = DELETED_AFTER_THE_INSTALL[harness]
    path = users_settings(harness, home, text)
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
