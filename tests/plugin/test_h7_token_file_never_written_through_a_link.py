"""H-7: the bearer token goes into the install's own file, never through a link into another.

The token file (``<settings folder>/harness-memory/token``) is the plugin's own: no dotfiles
manager keeps it. A name already there that is a hard link or a symlink to another file (left
by a copy, or planted by another account in a state folder it may write) is replaced by a new
private file of the install's; the other file keeps its bytes and its mode and never holds the
token. A harness's own settings file is still written through its links (a dotfiles checkout's).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.plugin.test_h7_settings_files import TOKEN, TOKEN_FILES, memory_root, mode, run

LINKS = ("hard link", "symlink")


@pytest.mark.parametrize("harness", sorted(TOKEN_FILES))
@pytest.mark.parametrize("link", LINKS)
def test_a_token_file_name_linked_to_another_file_is_replaced_not_written_through(
    tmp_path: Path, harness: str, link: str
) -> None:
    home = tmp_path / "home"
    token_file = home / TOKEN_FILES[harness]
    token_file.parent.mkdir(parents=True)
    other = tmp_path / "elsewhere" / "notes.txt"  # another file, readable by every account
    other.parent.mkdir()
    other.write_text("someone else's notes\n", encoding="utf-8")
    other.chmod(0o644)
    if link == "hard link":
        os.link(other, token_file)
    else:
        token_file.symlink_to(other)

    status, said = run(home, memory_root(tmp_path), "install", harness, "--token", TOKEN)

    assert status == 0, said
    assert other.read_text(encoding="utf-8") == "someone else's notes\n"
    assert mode(other) == 0o644 and other.stat().st_nlink == 1
    assert not token_file.is_symlink()
    assert token_file.lstat().st_nlink == 1
    assert token_file.read_text(encoding="utf-8") == TOKEN + "\n"
    assert mode(token_file) == 0o600
    assert TOKEN not in said
