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
from harness_memory.installers import files as files_module

from tests.plugin.test_h7_settings_files import HARNESSES, LINKED, TOKEN, memory_root, run
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


@pytest.mark.parametrize("dry_run", [False, True], ids=["install", "dry-run"])
def test_a_link_into_the_nix_store_says_it_is_mounted_read_only_not_chmod(
    tmp_path: Path, dry_run: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """The Nix store as home-manager leaves it: every folder ``0555``, every file ``0444``, the
    whole store mounted read-only. No ``chmod u+w`` can be run there (``EROFS``, for root too),
    so the install (and its ``--dry-run``) says the file system is read-only, not to chmod."""
    home = tmp_path / "home"
    link = home / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    store = tmp_path / "store"
    store.mkdir()
    target = store / "settings"
    target.write_text("{}\n", encoding="utf-8")
    target.chmod(0o444)
    store.chmod(0o555)
    link.symlink_to(target)

    with read_only(store):
        extra = ("--dry-run",) if dry_run else ()
        status, said = run(home, memory_root(tmp_path), "install", "claude-code", *extra)

    assert status == 1, said
    assert f"{link} (a symlink to {target})" in caplog.text
    assert f"{store} is on a file system mounted read-only" in caplog.text
    assert "chmod" not in caplog.text and "run this as its owner" not in caplog.text
    assert "nothing was changed" in caplog.text
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "{}\n"
    assert sorted(p.name for p in link.parent.iterdir()) == [link.name]


def test_the_plugins_own_state_folder_on_a_read_only_mount_says_where_its_files_go(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``~/.claude`` itself mounted read-only (a read-only home, a folder home-manager links
    whole), its settings file a link to a writable dotfiles checkout: the settings could be
    written, but the token file and the install record, harness-memory's own files in
    ``~/.claude/harness-memory``, cannot. Nothing builds those elsewhere (a token in the Nix
    store is every user's to read), so the refusal says to make that folder writable, not to
    make the change "where that file is built"."""
    home = tmp_path / "home"
    folder = home / ".claude"
    folder.mkdir(parents=True)
    target = tmp_path / "dotfiles" / "settings.json"
    target.parent.mkdir()
    target.write_text("{}\n", encoding="utf-8")
    (folder / "settings.json").symlink_to(target)

    with read_only(folder):
        status, said = run(home, memory_root(tmp_path), "install", "claude-code", "--token", TOKEN)

    assert status == 1, said
    assert f"{folder} is on a file system mounted read-only" in caplog.text
    assert "the file token is harness-memory's own" in caplog.text
    assert f"make {folder / 'harness-memory'} a writable folder of yours" in caplog.text
    assert "built or kept from" not in caplog.text and "chmod" not in caplog.text
    assert TOKEN not in caplog.text + said
    assert "nothing was changed" in caplog.text
    assert target.read_text(encoding="utf-8") == "{}\n"


@pytest.mark.parametrize("folder_mode", [0o555, 0o755], ids=["folder-0555", "folder-0755"])
def test_a_link_into_a_nix_store_not_mounted_read_only_never_advises_chmod(
    tmp_path: Path,
    folder_mode: int,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nix on another Linux or on macOS keeps ``/nix/store`` on an ordinary file system (its
    folders 0555, its files 0444): the install said ``chmod u+w`` of a store path, which would
    change a store path under every generation that shares it. A file whose real path lies in
    the Nix store is changed in the home-manager configuration (or made a link out of the
    store with mkOutOfStoreSymlink), and the install says so."""
    home = tmp_path / "home"
    link = home / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    nix_store = tmp_path / "nix" / "store"
    files = nix_store / "0123abcd-home-manager-files" / ".claude"
    files.mkdir(parents=True)
    target = files / "settings.json"
    target.write_text("{}\n", encoding="utf-8")
    target.chmod(0o444)
    files.chmod(folder_mode)
    link.symlink_to(target)
    monkeypatch.setattr(files_module, "NIX_STORE", nix_store)

    status, said = run(home, memory_root(tmp_path), "install", "claude-code")

    files.chmod(0o755)
    assert status == 1, said
    assert f"{link} (a symlink to {target})" in caplog.text
    assert "in the Nix store" in caplog.text and "home-manager configuration" in caplog.text
    assert "mkOutOfStoreSymlink" in caplog.text
    assert "chmod" not in caplog.text
    assert "nothing was changed" in caplog.text
    assert target.read_text(encoding="utf-8") == "{}\n"
