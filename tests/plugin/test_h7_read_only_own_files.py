"""H-7: the read-only refusal is for the harness's settings files, not the plugin's own.

A dotfiles manager marks the settings files it owns read-only, and an install refuses to
replace them (test_h7_read_only_settings). The token file and the record the plugin writes
beside them are its own: no manager keeps them, an uninstall removes them without asking, so a
new install rewrites them whatever their mode.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_h7_settings_files import HARNESSES, TOKEN, memory_root, run

NEW_TOKEN = "n3w-Token-0815-abc"
MOVED = ("--url", "http://127.0.0.1:10")  # the hooks change, so the record does too


def own_file(home: Path, name: str) -> Path:
    """The one file called ``name`` the install wrote under ``home``."""
    found = [path for path in home.rglob(name) if path.is_file()]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("name", ["token", "install.json"])
def test_a_read_only_file_of_the_plugin_is_rewritten(
    tmp_path: Path, harness: str, name: str
) -> None:
    """Installed with a token, the plugin's file made 0400: the install with a new token and
    address succeeds, the record says what it wrote and the token file holds the new token."""
    home, root = tmp_path / "home", memory_root(tmp_path)
    home.mkdir()
    status, said = run(home, root, "install", harness, "--token", TOKEN)
    assert status == 0, said
    record = own_file(home, "install.json").read_bytes()
    own_file(home, name).chmod(0o400)

    status, said = run(home, root, "install", harness, "--token", NEW_TOKEN, *MOVED)

    assert status == 0, said
    assert "read-only" not in said
    assert own_file(home, "token").read_text("utf-8") == NEW_TOKEN + "\n"
    assert own_file(home, "install.json").read_bytes() != record  # the new hooks' digests
