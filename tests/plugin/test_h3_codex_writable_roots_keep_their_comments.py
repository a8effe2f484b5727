"""H-3, H-7: the install adds the memory root to ``sandbox_workspace_write.writable_roots``
and the uninstall takes it out without rewriting the user's array: a multi-line array's
comments and layout stay (the array is edited in place, ``tomlkit``), for the user install and
the managed one's system ``config.toml`` alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_h3_codex_project_hooks import memory_root, run

USERS = """\
model = "o3"

[sandbox_workspace_write]
network_access = false
writable_roots = [
  # the build output
  "/home/me/build",  # keep: CI writes here
  # caches
  "/home/me/.cache",
]
"""


@pytest.mark.parametrize("managed", [False, True], ids=["user", "managed"])
def test_a_multi_line_writable_roots_keeps_its_comments_through_install_and_uninstall(
    tmp_path: Path, managed: bool
) -> None:
    home = tmp_path / "home"
    folder = tmp_path / "etc" / "codex" if managed else home / ".codex"
    folder.mkdir(parents=True)
    config = folder / "config.toml"
    config.write_text(USERS, encoding="utf-8")
    root = memory_root(tmp_path)
    flags = ["--managed", str(folder)] if managed else []

    assert run(home, "install", "--memory-root", str(root), *flags)[0] == 0

    installed = config.read_text(encoding="utf-8")
    ours = f'  "/home/me/.cache",\n  "{root}",\n]\n'
    assert USERS.removesuffix("]\n") + ours.removeprefix('  "/home/me/.cache",\n') in installed
    assert run(home, "uninstall", *flags)[0] == 0
    assert config.read_text(encoding="utf-8") == USERS


TABLE = "[sandbox_workspace_write]\nwritable_roots = "
LAYOUTS = {
    "no-trailing-comma": TABLE + '[\n  "/a",\n  "/b"  # last\n]\n',
    "one-line-close": TABLE + '[ "/a", # first\n  "/b" ]\n',
    "empty-with-comment": 'model = "o3"\n\n' + TABLE + "[] # none yet\n",
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_writable_roots_come_back_byte_for_byte_after_install_and_uninstall(
    tmp_path: Path, layout: str
) -> None:
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    config = home / ".codex" / "config.toml"
    config.write_text(LAYOUTS[layout], encoding="utf-8")
    root = memory_root(tmp_path)

    assert run(home, "install", "--memory-root", str(root))[0] == 0
    assert str(root) in config.read_text(encoding="utf-8")
    assert run(home, "uninstall")[0] == 0

    assert config.read_text(encoding="utf-8") == LAYOUTS[layout]


def test_a_root_the_user_listed_before_the_install_stays_after_the_uninstall(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    config = home / ".codex" / "config.toml"
    root = memory_root(tmp_path)
    mine = f'[sandbox_workspace_write]\nwritable_roots = [\n  "{root}",  # already mine\n]\n'
    config.write_text(mine, encoding="utf-8")

    assert run(home, "install", "--memory-root", str(root))[0] == 0
    assert run(home, "uninstall")[0] == 0

    assert config.read_text(encoding="utf-8") == mine
