"""H-7: the bearer token goes into the install's own file, never through a link into another.

The token file (``<settings folder>/harness-memory/token``) is the plugin's own: no dotfiles
manager keeps it. A name already there that is a hard link or a symlink to another file (left
by a copy, or planted by another account in a state folder it may write) is replaced by a new
private file of the install's; the other file keeps its bytes and its mode and never holds the
token. A hard-linked token file that holds the very token written (a snapshot's ``cp -al``) is
kept instead (install and ``token set``): nothing needs writing, and its mode is narrowed in
place, which its other names share. A harness's own settings file is still written through
its links (a dotfiles checkout's).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harness_memory.installers import files as files_module

from tests.plugin.test_h7_settings_files import (
    SETTINGS_FILES,
    TOKEN,
    TOKEN_FILES,
    memory_root,
    mode,
    run,
)

LINKS = ("hard link", "symlink")


def link_to(other: Path, name: Path, link: str) -> None:
    """Put a ``link`` (:data:`LINKS`) to the file ``other`` at ``name``."""
    if link == "hard link":
        os.link(other, name)
    else:
        name.symlink_to(other)


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
    link_to(other, token_file, link)

    status, said = run(home, memory_root(tmp_path), "install", harness, "--token", TOKEN)

    assert status == 0, said
    assert other.read_text(encoding="utf-8") == "someone else's notes\n"
    assert mode(other) == 0o644 and other.stat().st_nlink == 1
    assert not token_file.is_symlink()
    assert token_file.lstat().st_nlink == 1
    assert token_file.read_text(encoding="utf-8") == TOKEN + "\n"
    assert mode(token_file) == 0o600
    assert TOKEN not in said


@pytest.mark.parametrize("link", LINKS)
def test_the_token_file_replacing_a_link_is_0600_and_said_as_replaced_in_dry_run_and_run(
    tmp_path: Path, link: str
) -> None:
    """The other file is ``0755`` and the state folder itself a symlink (to a folder of the
    user's). The token file is a plain ``0600`` file whatever mode the other file has: its
    mode was copied (``0700``) and the output said "made it readable by its owner only (mode
    0755 -> 0700)" of a file the install never touched. ``--dry-run`` said "written through
    the symlink", which the run does not do; both now say the name is replaced and the other
    file left as it is."""
    home = tmp_path / "home"
    token_file = home / TOKEN_FILES["claude-code"]
    token_file.parent.parent.mkdir(parents=True)
    state = tmp_path / "state"
    state.mkdir(mode=0o700)  # a folder of the user's open to others is warned about
    token_file.parent.symlink_to(state)
    other = tmp_path / "elsewhere" / "run.sh"
    other.parent.mkdir()
    other.write_text("#!/bin/sh\n", encoding="utf-8")
    other.chmod(0o755)
    link_to(other, token_file, link)
    shown = f"a symlink to {other}" if link == "symlink" else "a hard link (one file of 2 names)"
    root = memory_root(tmp_path)

    status, planned = run(home, root, "install", "claude-code", "--token", TOKEN, "--dry-run")

    assert status == 0, planned
    assert f"({token_file} is {shown}: the install replaces it by a file of its own" in planned
    assert "written through" not in planned and "0755 -> " not in planned

    status, said = run(home, root, "install", "claude-code", "--token", TOKEN)

    assert status == 0, said
    assert f"{token_file} was {shown}: replaced it by a file of its own (mode 0600)" in said
    assert "0755 -> " not in said and TOKEN not in planned + said
    assert mode(token_file) == 0o600 and token_file.read_text(encoding="utf-8") == TOKEN + "\n"
    assert mode(other) == 0o755 and other.read_text(encoding="utf-8") == "#!/bin/sh\n"


@pytest.mark.parametrize("link", LINKS)
def test_a_failed_install_gives_back_the_link_at_the_token_files_name(
    tmp_path: Path, link: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The settings file refused at its write, after the token file was: "nothing was changed"
    must hold for the token file's name too. The old text was written back into a new file
    there, so the symlink was gone, or the hard link split from its other name."""
    home = tmp_path / "home"
    token_file = home / TOKEN_FILES["claude-code"]
    token_file.parent.mkdir(parents=True)
    settings = home / SETTINGS_FILES["claude-code"]
    other = tmp_path / "elsewhere" / "old-token"
    other.parent.mkdir()
    other.write_text("an-older-token\n", encoding="utf-8")
    other.chmod(0o600)
    link_to(other, token_file, link)
    before = os.lstat(token_file)
    real = files_module.replace_bytes

    def refusing(target: Path, data: bytes, mode: int, *, keep_links: bool = True) -> str | None:
        if target == settings:
            raise PermissionError(1, "Operation not permitted", str(target))
        return real(target, data, mode, keep_links=keep_links)

    monkeypatch.setattr(files_module, "replace_bytes", refusing)
    status, said = run(home, memory_root(tmp_path), "install", "claude-code", "--token", TOKEN)

    assert status == 1, said
    assert f"cannot write {settings}: Operation not permitted" in caplog.text
    assert "nothing was changed" in caplog.text
    after = os.lstat(token_file)
    assert (after.st_ino, after.st_mode, after.st_nlink) == (
        before.st_ino,
        before.st_mode,
        before.st_nlink,
    )
    if link == "symlink":
        assert token_file.readlink() == other
    assert other.read_text(encoding="utf-8") == "an-older-token\n"
    assert sorted(p.name for p in token_file.parent.iterdir()) == [token_file.name]


def test_an_install_removes_what_a_crashed_install_kept_aside_and_says_so(tmp_path: Path) -> None:
    """An install that crashed between keeping a link aside and dropping it left
    ``.token.harness-memory-kept-XXXXXXXX`` (a hard link of the old entry, 0644) for good. The
    next install removes such leftovers of its own files, regular files and symlinks only,
    never following one, and says so; other hidden files and a folder of that name stay."""
    home = tmp_path / "home"
    token_file = home / TOKEN_FILES["claude-code"]
    token_file.parent.mkdir(parents=True)
    other = tmp_path / "elsewhere" / "old-token"
    other.parent.mkdir()
    other.write_text("an-older-token\n", encoding="utf-8")
    other.chmod(0o644)
    folder = token_file.parent
    kept_file = folder / f".{token_file.name}.harness-memory-kept-0a1b2c3d"
    os.link(other, kept_file)
    kept_link = folder / f".{token_file.name}.harness-memory-kept-deadbeef"
    kept_link.symlink_to(other)
    kept_folder = folder / f".{token_file.name}.harness-memory-kept-00000000"
    kept_folder.mkdir()
    not_ours = [
        folder / ".token.harness-memory-kept-notahexx",
        folder / ".other.harness-memory-kept-0a1b2c3d",
        folder / ".token.swp",
    ]
    for path in not_ours:
        path.write_text("x\n", encoding="utf-8")

    status, said = run(home, memory_root(tmp_path), "install", "claude-code", "--token", TOKEN)

    assert status == 0, said
    assert not kept_file.exists() and not kept_link.is_symlink()
    assert other.read_text(encoding="utf-8") == "an-older-token\n"  # the link never followed
    assert kept_folder.is_dir() and all(path.exists() for path in not_ours)
    for path in (kept_file, kept_link):
        assert f"removed {path}: left by an install that stopped midway" in said


def shared_token_file(tmp_path: Path, token_file: Path) -> Path:
    """The token file holding :data:`TOKEN` (0644, as a copy left it), hard-linked to a name
    elsewhere (a dotfiles checkout's copy); that other name."""
    token_file.parent.mkdir(parents=True)
    token_file.write_text(TOKEN + "\n", encoding="utf-8")
    token_file.chmod(0o644)
    other = tmp_path / "dotfiles" / "token"
    other.parent.mkdir()
    os.link(token_file, other)
    return other


@pytest.mark.parametrize("harness", sorted(TOKEN_FILES))
def test_a_hard_linked_token_file_holding_the_token_is_kept_and_made_owner_only(
    tmp_path: Path, harness: str
) -> None:
    """The install refused (exit 1) and left the file 0644, its other name with it; advice
    "or this name" would have left the token at the other names. The file holds the token
    already: nothing needs writing. The install keeps it and narrows its mode in place, so
    every name of it is owner-only, and says so, in --dry-run and in the run."""
    home = tmp_path / "home"
    token_file = home / TOKEN_FILES[harness]
    other = shared_token_file(tmp_path, token_file)
    root = memory_root(tmp_path)
    shared = f"{token_file} has 2 hard links and holds this token already: the install keeps"

    status, planned = run(home, root, "install", harness, "--token", TOKEN, "--dry-run")

    assert status == 0, planned
    assert shared in planned and "(0644 -> 0600)" in planned
    assert mode(other) == 0o644

    status, said = run(home, root, "install", harness, "--token", TOKEN)

    assert status == 0, said
    assert shared in said and "(mode 0644 -> 0600)" in said
    assert TOKEN not in planned + said
    assert token_file.samefile(other) and mode(other) == 0o600
    assert token_file.read_text(encoding="utf-8") == TOKEN + "\n"


def test_a_re_install_beside_a_snapshot_of_the_home_changes_nothing(tmp_path: Path) -> None:
    """``cp -al ~ snapshots/daily.0`` (rsnapshot, ``rsync --link-dest``) gives the 0600 token
    file a second, private name: the plain re-install was refused (exit 1)."""
    home = tmp_path / "home"
    root = memory_root(tmp_path)
    assert run(home, root, "install", "codex", "--token", TOKEN)[0] == 0
    token_file = home / TOKEN_FILES["codex"]
    snapshot = tmp_path / "snapshots"
    snapshot.mkdir(mode=0o700)
    os.link(token_file, snapshot / "token")

    status, said = run(home, root, "install", "codex", "--token", TOKEN)

    assert status == 0, said
    assert "nothing to change" in said and token_file.samefile(snapshot / "token")


def test_a_new_token_at_a_hard_linked_name_warns_that_the_other_names_keep_the_old(
    tmp_path: Path,
) -> None:
    """A new token replaces the file; its other names keep the earlier token, readable by
    others (0644): the install said only "its other names keep their bytes"."""
    home = tmp_path / "home"
    token_file = home / TOKEN_FILES["codex"]
    other = shared_token_file(tmp_path, token_file)

    status, said = run(
        home, memory_root(tmp_path), "install", "codex", "--token", "new-one-0123456789ab"
    )

    assert status == 0, said
    assert "WARNING: other users may read them (mode 0644), so an earlier token" in said
    assert other.read_text(encoding="utf-8") == TOKEN + "\n"


def test_a_symlinked_token_file_whose_target_holds_the_token_readable_is_warned_about(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    token_file = home / TOKEN_FILES["claude-code"]
    token_file.parent.mkdir(parents=True)
    target = tmp_path / "dots" / "token"
    target.parent.mkdir()
    target.write_text(TOKEN + "\n", encoding="utf-8")
    target.chmod(0o644)
    token_file.symlink_to(target)

    status, said = run(home, memory_root(tmp_path), "install", "claude-code", "--token", TOKEN)

    assert status == 0, said
    assert (
        f"{target} stays as it is; WARNING: it holds the bearer token and other users may "
        f"read it (mode 0644)" in said
    )
    assert f"`chmod 600 {target}`" in said and mode(target) == 0o644


def test_token_set_keeps_a_hard_linked_file_holding_the_token_and_narrows_it(
    tmp_path: Path,
) -> None:
    from tests.plugin.test_h7_token_set import token_set

    token_file = tmp_path / "tokens" / "token"
    other = shared_token_file(tmp_path, token_file)

    status, said = token_set((TOKEN + "\n").encode(), "--file", str(token_file))

    assert status == 0, said
    assert f"{token_file} holds this token already (one file of 2 names): kept it" in said
    assert "(0644 -> 0600)" in said
    assert token_file.samefile(other) and mode(other) == 0o600
