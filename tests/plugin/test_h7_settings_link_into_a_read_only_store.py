"""H-7: a settings file linked into a read-only store is refused with the store's real reason.

home-manager links ``~/.claude/settings.json`` into the Nix store, a file system mounted
read-only; a read-only bind mount of a dotfiles checkout is the same. The install refused
(nothing changed) but said "you may not write <folder> (it is another user's, or its mode
keeps you out); run this as its owner": the owner running it could do nothing with that. The
error names the link and its target, says the file system is mounted read-only and where the
change belongs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_h7_settings_files import HARNESSES, LINKED, memory_root, run
from tests.support.read_only_mount import read_only


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_link_into_a_read_only_file_system_names_it_and_changes_nothing(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    link = home / LINKED[harness][0]
    link.parent.mkdir(parents=True)
    store = tmp_path / "store"
    store.mkdir()
    target = store / "settings"
    target.write_text("{}\n" if harness != "codex" else 'model = "o4-mini"\n', encoding="utf-8")
    link.symlink_to(target)
    before = target.read_bytes()

    with read_only(store):
        status, _ = run(home, memory_root(tmp_path), "install", harness)

    assert status == 1
    assert f"{link} (a symlink to {target})" in caplog.text
    assert f"{store} is on a file system mounted read-only" in caplog.text
    assert "run this as its owner" not in caplog.text
    assert "nothing was changed" in caplog.text
    assert link.is_symlink() and target.read_bytes() == before
    assert sorted(p.name for p in link.parent.iterdir()) == [link.name]
