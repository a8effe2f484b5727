"""H-7: a settings file its owner made read-only is not replaced behind their back.

Dotfiles managers mark the files they own read-only (chezmoi's ``readonly_`` attribute,
home-manager's copies out of the Nix store: mode 0444), plain or through a symlink. Renaming a
new file over one writes it anyway, and the manager's next apply takes the hooks out again
without a word. An install or uninstall that would change such a file is an error naming it
(and its target, for a link), with nothing changed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.plugin.test_h7_settings_files import (
    HARNESSES,
    LINKED,
    backups_of,
    memory_root,
    mode,
    run,
)


def settings_of(tmp_path: Path, harness: str, layout: str) -> tuple[Path, Path]:
    """The settings file the harness reads (in ``home``) and the file holding its text: the
    same file, or a link's target in a dotfiles checkout."""
    home = tmp_path / "home"
    link = home / LINKED[harness][0]
    link.parent.mkdir(parents=True)
    target = tmp_path / "dotfiles" / link.name if layout == "link" else link
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text('{\n  "theme": "dark"\n}\n' if target.suffix == ".json" else "", "utf-8")
    if layout == "link":
        link.symlink_to(target)
    return link, target


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("layout", ["plain", "link"])
def test_a_read_only_settings_file_is_not_replaced(
    tmp_path: Path, harness: str, layout: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Mode 0444: the install stops, names the file (and a link's target), changes nothing."""
    link, target = settings_of(tmp_path, harness, layout)
    before = target.read_bytes()
    target.chmod(0o444)

    status, said = run(link.parents[1], memory_root(tmp_path), "install", harness)

    assert status == 1, said
    named = f"{link} (a symlink to {target})" if layout == "link" else str(link)
    assert f"cannot write {named}: it is read-only (mode 0444)" in caplog.text
    assert "nothing was changed" in caplog.text
    assert target.read_bytes() == before and mode(target) == 0o444
    assert not backups_of(target)
    assert link.is_symlink() == (layout == "link")


@pytest.mark.parametrize("harness", HARNESSES)
def test_an_uninstall_leaves_a_settings_file_made_read_only_since(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Installed, then marked read-only by a dotfiles manager: the uninstall stops too."""
    link, target = settings_of(tmp_path, harness, "link")
    home, root = link.parents[1], memory_root(tmp_path)
    status, said = run(home, root, "install", harness)
    assert status == 0, said
    for backup in backups_of(target):
        backup.unlink()
    installed = target.read_bytes()
    target.chmod(0o444)

    status, said = run(home, root, "uninstall", harness)

    assert status == 1, said
    assert f"{target}): it is read-only (mode 0444)" in caplog.text
    assert target.read_bytes() == installed and mode(target) == 0o444
    assert os.path.realpath(link) == str(target)
