"""H-7, A-10: an install or uninstall removes (or replaces) the token file its install record
names only when that is this settings folder's own: its state folder's ``token``, or the place
an install computes for it outside git (``~/.config/harness-memory/tokens/<folder>-<digest of
its path>``). Never another settings folder's token, nor a traceback for a path that cannot be.

A reviewer kept ``CLAUDE_CONFIG_DIR=~/dots/work`` in git and copied it to ``~/dots/personal``
(``cp -a``): the copy's install record named the work folder's token, and an install (or
uninstall) of the copy removed it and its ``.url``; the work folder's Sessions then ran
without memory. A ``--token-file`` holding ``\\u0000`` or a lone ``\\ud800`` in a hook-like
string of the settings made ``uninstall`` stop with a traceback (``ValueError``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from harness_memory.installers.token_place import _outside_place

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import A
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags
from tests.plugin.test_h7_uninstall_removes_only_its_own_token_kept_outside import (
    TOKEN,
    git_init,
    outside_tokens,
    run,
    work_installed,
)


def claude_in_git(home: Path) -> Path:
    """The token file ``~/.claude`` (kept in git) has outside it once installed."""
    git_init(home / ".claude")
    run(home, "install", "--no-check", *flags(home, A))
    (own,) = outside_tokens(home, "claude")
    return own


@pytest.mark.parametrize("command", ["install", "uninstall"])
@pytest.mark.parametrize("record_from", ["a copied folder", "an edit"])
def test_h7_a_record_naming_another_folders_token_leaves_it(
    tmp_path: Path, command: str, record_from: str
) -> None:
    home = tmp_path / "home"
    work, work_token = work_installed(home)
    if record_from == "an edit":
        folder, own = home / ".claude", claude_in_git(home)
        record = folder / "harness-memory" / "install.json"
        document = json.loads(record.read_text())
        record.write_text(json.dumps({**document, "tokenFile": str(work_token)}))
    else:  # cp -a ~/dots/work ~/dots/personal: its record too
        folder, own = home / "dots" / "personal", None
        shutil.copytree(work, folder, symlinks=True)

    extra = ["--no-check", *flags(home, A)] if command == "install" else []
    said = run(home, command, *extra, "--verbose", config_dir=folder)

    assert work_token.read_text() == TOKEN + "\n", said
    assert work_token.with_name(work_token.name + ".url").is_file(), said
    assert f"removed {work_token}" not in said
    assert f"left {work_token}: the install record names it, but it is not this" in said
    assert own is None or own.is_file() == (command == "install"), said


@pytest.mark.parametrize("bad", ["\\u0000", "\\ud800"])
def test_h7_uninstall_skips_a_token_file_that_is_no_path(tmp_path: Path, bad: str) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    run(home, "install", "--no-check", *flags(home, A))
    own = _outside_place(home / ".claude", Path("tokens")).name  # named as its own would be
    named = f"/tmp/a{bad}b/harness-memory/tokens/{own}"
    settings = home / ".claude" / "settings.json"
    command = f"harness-memory hook claude-code x --token-file {named}"
    hook = f'{{"hooks": [{{"type": "command", "command": "{command}"}}]}}'
    text = settings.read_text().replace('"SessionStart": [', f'"SessionStart": [{hook}, ', 1)
    settings.write_text(text)

    said = run(home, "uninstall", "--verbose")

    assert not (home / ".claude" / "harness-memory").exists(), said


def test_h7_uninstall_with_its_record_aside_tidies_the_tokens_folder(tmp_path: Path) -> None:
    """As with the record there: the ``.gitignore`` an install wrote and the folders go."""
    home = tmp_path / "home"
    own = claude_in_git(home)
    record = home / ".claude" / "harness-memory" / "install.json"
    record.rename(record.with_name("install.json.aside"))

    said = run(home, "uninstall", "--verbose")

    assert not own.exists(), said
    assert not (home / ".config" / "harness-memory").exists(), said


def test_h7_uninstall_reads_token_files_only_from_its_hooks(tmp_path: Path) -> None:
    """With its record aside and its own token gone, a file named as its token would be, in
    another tokens folder, that a status line, a permission rule or an ``env`` value names
    with ``harness-memory hook claude-code x --token-file``, is no hook's: it stays."""
    home = tmp_path / "home"
    own = claude_in_git(home)
    own.unlink()
    victim = tmp_path / "elsewhere" / "harness-memory" / "tokens" / own.name
    victim.parent.mkdir(parents=True)
    victim.write_text("VICTIM\n")
    record = home / ".claude" / "harness-memory" / "install.json"
    record.rename(record.with_name("install.json.aside"))
    settings = home / ".claude" / "settings.json"
    line = f"harness-memory hook claude-code x --token-file {victim} "
    document = json.loads(settings.read_text())
    document["statusLine"] = {"type": "command", "command": line}
    document["permissions"] = {"allow": [f"Bash({line})"]}
    document["env"] = {**document.get("env", {}), "X": line}
    settings.write_text(json.dumps(document))

    said = run(home, "uninstall", "--verbose")

    assert victim.read_text() == "VICTIM\n", said


def test_h7_uninstall_with_its_record_aside_reads_hooks_of_a_utf16_settings_file(
    tmp_path: Path,
) -> None:
    """Claude Code reads a ``settings.json`` saved as UTF-16; its hooks name the token kept
    outside as any other's do (review rv-fix67u): here the folder is spelled through a link at
    the uninstall, so only the hooks' ``--token-file`` (the digest of the folder as installed)
    names its token. (A token under a config home changed since the install is no longer this
    install's to remove: ``test_h7_a_token_file_is_the_plugins_only_in_its_own_tokens_folder``.)"""
    home = tmp_path / "home"
    folder = home / ".claude"
    folder.mkdir(parents=True)
    (folder / "settings.json").write_bytes(b"\xff\xfe" + '{"model": "opus"}\n'.encode("utf-16-le"))
    git_init(folder)
    run(home, "install", "--no-check", *flags(home, A))
    (own,) = outside_tokens(home, "claude")
    record = folder / "harness-memory" / "install.json"
    record.rename(record.with_name("install.json.aside"))
    (home / "linked").symlink_to(folder)

    said = run(home, "uninstall", "--verbose", config_dir=home / "linked")

    assert not own.exists(), said
    assert not own.with_name(own.name + ".url").exists(), said


def test_h7_a_settings_folder_reached_through_a_link_removes_its_own_token(
    tmp_path: Path,
) -> None:
    """``CLAUDE_CONFIG_DIR`` spelled through a symlink to the folder the install was given:
    the same folder, its own token (it was left, called another folder's)."""
    home = tmp_path / "home"
    work, token = work_installed(home)
    (home / "w").symlink_to(work)

    said = run(home, "uninstall", "--verbose", config_dir=home / "w")

    assert not token.exists(), said
    assert "another settings folder's" not in said


@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_h7_a_moved_settings_folders_token_is_left_with_how_to_remove_it(
    tmp_path: Path, command: str
) -> None:
    """A folder moved after its install cannot be told from a copy by its record: its old
    token is left (another folder's hooks may read it), said to hold a bearer token, to be
    this folder's from before a move or a copy's, with the command that removes it when
    nothing else uses it; an install again writes the moved folder's own token."""
    home = tmp_path / "home"
    work, token = work_installed(home)
    moved = work.with_name("job")
    work.rename(moved)

    extra = ["--no-check", *flags(home, A)] if command == "install" else []
    said = run(home, command, *extra, "--verbose", config_dir=moved)

    assert token.read_text() == TOKEN + "\n", said
    (line,) = [each for each in said.splitlines() if f"left {token}:" in each]
    assert "moved" in line
    assert "holds a bearer token" in line
    assert f"rm {token} {token}.url" in line
    assert len(outside_tokens(home, "job")) == (command == "install"), said


def test_h7_nothing_is_removed_through_a_linked_state_folder(tmp_path: Path) -> None:
    """``~/.claude/harness-memory`` replaced by a symlink to a folder holding a ``token`` and a
    copy of the install record: the uninstall removes nothing through the link (A-10)."""
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    run(home, "install", "--no-check", *flags(home, A))
    state = home / ".claude" / "harness-memory"
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    (secrets / "token").write_text("USER SECRET\n")
    shutil.copy(state / "install.json", secrets / "install.json")
    shutil.rmtree(state)
    state.symlink_to(secrets)

    said = run(home, "uninstall", "--verbose")

    assert (secrets / "token").read_text() == "USER SECRET\n", said
