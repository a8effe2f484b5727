"""H-7, A-10: nothing is removed through a symlink on the way from the config home to a token
kept outside a settings folder in git, and a token file the install record or our hooks name
that an install or uninstall leaves is always said, with the command that removes it.

An uninstall removed the ``.gitignore`` and the ``tokens`` folder through a ``harness-memory``
folder the user had made a link to a store of their own (it emptied the store), and left a
token kept there without a word. An install with its record moved aside replaced hooks naming
a token in an earlier ``XDG_CONFIG_HOME`` (or the token of the folder before it was moved)
and left that token unsaid. The token's name was the digest of the settings folder as
spelled (``~/.claude``): after ``~/.claude`` was linked to a copy of the folder, an uninstall
removed the token the original's settings still read; it is now the digest of the folder the
spelling resolves to, and a token named the earlier way is still found and removed when the
install record is from before (no ``tokenNamedBy``). An uninstall took the state folder's
token the hooks name for one kept outside and removed the user's settings folder with it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import A
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags
from tests.plugin.test_h7_a_token_file_is_the_plugins_only_in_its_own_tokens_folder import (
    installed_in_git,
    main_said,
)
from tests.plugin.test_h7_uninstall_removes_only_its_own_token_kept_outside import TOKEN

HARNESSES = pytest.mark.parametrize(
    ("harness", "variable"),
    [("claude-code", "CLAUDE_CONFIG_DIR"), ("codex", "CODEX_HOME"), ("gemini", "GEMINI_CLI_HOME")],
)
FOLDERS = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}


def tokens_in(folder: Path) -> list[Path]:
    """The token files (not their ``.url`` nor the ``.gitignore``) in a tokens ``folder``."""
    return sorted(p for p in folder.iterdir() if p.suffix != ".url" and p.name != ".gitignore")


def linked_to_a_store(path: Path, store: Path) -> Path:
    """``path`` moved to ``store`` and made a symlink to it; the store."""
    store.parent.mkdir(parents=True, exist_ok=True)
    path.rename(store)
    path.symlink_to(store)
    return store


def without_tokens(tokens: Path) -> None:
    """The token files and their ``.url`` removed by hand: only the ``.gitignore`` is left."""
    for token in tokens.iterdir():
        if token.name != ".gitignore":
            token.unlink()


def record_aside(folder: Path) -> None:
    (record,) = folder.rglob("harness-memory/install.json")
    record.rename(record.with_name("install.json.aside"))


def left_line(said: str, path: Path) -> str:
    """The one line saying ``path`` is left."""
    (line,) = [each for each in said.splitlines() if f"left {path}:" in each]
    return line


@HARNESSES
def test_h7_uninstall_removes_nothing_through_a_linked_tokens_folder(
    tmp_path: Path, harness: str, variable: str
) -> None:
    """The record there: it names the ``tokens`` folder among those the install made."""
    home = tmp_path / "home"
    work = installed_in_git(home, harness, variable)
    tokens = home / ".config" / "harness-memory" / "tokens"
    store = linked_to_a_store(tokens, tmp_path / "store" / "tokens")
    without_tokens(store)

    said = main_said(home, harness, "uninstall", "--verbose", environ={variable: str(work)})

    assert (store / ".gitignore").read_text().endswith("*\n"), said
    assert tokens.is_symlink(), said


@HARNESSES
@pytest.mark.parametrize("record", ["there", "aside"])
def test_h7_uninstall_removes_nothing_through_a_linked_harness_memory_folder(
    tmp_path: Path, harness: str, variable: str, record: str
) -> None:
    home = tmp_path / "home"
    work = installed_in_git(home, harness, variable)
    store = linked_to_a_store(home / ".config" / "harness-memory", tmp_path / "store" / "hm")
    without_tokens(store / "tokens")
    if record == "aside":
        record_aside(work)

    said = main_said(home, harness, "uninstall", "--verbose", environ={variable: str(work)})

    assert (store / "tokens" / ".gitignore").is_file(), said
    assert "tokens/.gitignore" not in said, said
    assert (home / ".config" / "harness-memory").is_symlink(), said


@HARNESSES
@pytest.mark.parametrize("record", ["there", "aside"])
def test_h7_a_token_reached_through_a_linked_folder_is_left_and_said(
    tmp_path: Path, harness: str, variable: str, record: str
) -> None:
    home = tmp_path / "home"
    work = installed_in_git(home, harness, variable)
    linked = home / ".config" / "harness-memory"
    store = linked_to_a_store(linked, tmp_path / "store" / "hm")
    (token,) = tokens_in(store / "tokens")
    if record == "aside":
        record_aside(work)

    said = main_said(home, harness, "uninstall", "--verbose", environ={variable: str(work)})

    assert token.read_text() == TOKEN + "\n", said
    line = left_line(said, linked / "tokens" / token.name)
    assert f"symlink {linked}" in line, line
    assert f"rm {linked / 'tokens' / token.name} " in line, line  # as spelled, with its .url
    assert str(store) not in line, line  # never where the link leads


@HARNESSES
def test_h7_an_install_with_its_record_aside_says_the_earlier_config_homes_token(
    tmp_path: Path, harness: str, variable: str
) -> None:
    home = tmp_path / "home"
    xdg = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    work = installed_in_git(home, harness, variable, environ=xdg)
    (token,) = tokens_in(tmp_path / "xdg" / "harness-memory" / "tokens")
    record_aside(work)

    said = main_said(
        home, harness, "install", "--no-check", *flags(home, A), environ={variable: str(work)}
    )

    assert token.read_text() == TOKEN + "\n", said
    assert f"rm {token}" in left_line(said, token)


@HARNESSES
def test_h7_an_install_with_its_record_aside_says_the_moved_folders_token(
    tmp_path: Path, harness: str, variable: str
) -> None:
    home = tmp_path / "home"
    work = installed_in_git(home, harness, variable)
    (token,) = tokens_in(home / ".config" / "harness-memory" / "tokens")
    record_aside(work)
    job = work.rename(work.with_name("job"))

    said = main_said(
        home, harness, "install", "--no-check", *flags(home, A), environ={variable: str(job)}
    )

    assert token.read_text() == TOKEN + "\n", said
    assert f"rm {token}" in left_line(said, token)


def linked_settings_installed(home: Path, harness: str) -> tuple[Path, Path]:
    """``(~/.<harness> linked to ~/dots/<name>-work in git, its token kept outside)``."""
    dots = home / "dots"
    real = dots / f"{FOLDERS[harness].lstrip('.')}-work"
    real.mkdir(parents=True)
    env = {"PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q", str(dots)], check=True, env=env)
    (home / FOLDERS[harness]).symlink_to(real)
    Path(flags(home)[1]).mkdir(parents=True, exist_ok=True)
    main_said(home, harness, "install", "--no-check", *flags(home, A), environ={})
    (token,) = tokens_in(home / ".config" / "harness-memory" / "tokens")
    return real, token


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h7_uninstall_after_the_settings_link_is_switched_keeps_the_originals_token(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    real, token = linked_settings_installed(home, harness)
    copy = real.with_name(real.name.replace("-work", "-personal"))
    shutil.copytree(real, copy, symlinks=True)
    (home / FOLDERS[harness]).unlink()
    (home / FOLDERS[harness]).symlink_to(copy)

    said = main_said(home, harness, "uninstall", "--verbose", environ={})

    assert token.read_text() == TOKEN + "\n", said
    assert token.with_name(token.name + ".url").is_file(), said
    assert f"rm {token}" in left_line(said, token)


def named_as_spelled(home: Path, harness: str, token: Path) -> Path:
    """``token`` renamed (with its ``.url``, in the hooks and the record) as an install from
    before named it: by the digest of ``~/.<harness>`` as spelled, its record saying nothing of
    how (no ``tokenNamedBy``); that name."""
    spelled = home / FOLDERS[harness]
    digest = hashlib.sha256(os.fsencode(spelled)).hexdigest()[:12]
    earlier = token.with_name(f"{spelled.name.lstrip('.')}-{digest}")
    assert earlier != token
    token.rename(earlier)
    token.with_name(token.name + ".url").rename(earlier.with_name(earlier.name + ".url"))
    for named in [*spelled.rglob("*.json"), *spelled.rglob("*.toml")]:
        named.write_text(named.read_text().replace(str(token), str(earlier)))
    (record,) = spelled.rglob("harness-memory/install.json")
    document = json.loads(record.read_text())
    del document["tokenNamedBy"]
    record.write_text(json.dumps(document))
    assert str(earlier) in json.dumps([p.read_text() for p in spelled.rglob("install.json")])
    return earlier


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h7_uninstall_removes_a_token_named_by_the_folder_as_spelled(
    tmp_path: Path, harness: str
) -> None:
    """An install from before named it by the digest of ``~/.claude`` as spelled."""
    home = tmp_path / "home"
    _, token = linked_settings_installed(home, harness)
    earlier = named_as_spelled(home, harness, token)

    said = main_said(home, harness, "uninstall", "--verbose", environ={})

    assert not earlier.exists(), said
    assert not earlier.with_name(earlier.name + ".url").exists(), said


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("record", ["there", "aside"])
def test_h7_install_again_replaces_a_token_named_by_the_folder_as_spelled(
    tmp_path: Path, harness: str, record: str
) -> None:
    home = tmp_path / "home"
    _, token = linked_settings_installed(home, harness)
    earlier = named_as_spelled(home, harness, token)
    if record == "aside":
        record_aside(home / FOLDERS[harness])

    said = main_said(home, harness, "install", "--no-check", *flags(home, A), environ={})

    assert token.read_text() == TOKEN + "\n", said
    if record == "aside":  # nothing tells the record's age: left, and said (S2, H-7)
        assert f"rm {earlier}" in left_line(said, earlier)
        return
    assert not earlier.exists(), said
    assert not earlier.with_name(earlier.name + ".url").exists(), said


def test_h7_a_dry_run_with_its_record_aside_says_the_tokens_folder_is_this_folders(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    work = installed_in_git(home, "claude-code", "CLAUDE_CONFIG_DIR")
    tokens = home / ".config" / "harness-memory" / "tokens"
    without_tokens(tokens)
    record_aside(work)

    said = main_said(
        home, "claude-code", "uninstall", "--dry-run", environ={"CLAUDE_CONFIG_DIR": str(work)}
    )

    (line,) = [each for each in said.splitlines() if each.startswith(f"would remove {tokens} ")]
    assert "made by the install" not in line
    assert "token folder of this settings folder" in line
    assert "nothing but the install's .gitignore" in line
    (above,) = [x for x in said.splitlines() if x.startswith(f"would remove {tokens.parent} ")]
    assert ".gitignore" not in above, above  # no .gitignore is there to leave
    assert above.endswith("if nothing else is in it"), above


def test_h7_uninstall_removes_no_folder_it_made_through_a_folder_above_made_a_link(
    tmp_path: Path,
) -> None:
    """``CLAUDE_CONFIG_DIR=~/a/b/claude``: the install made ``a``, ``b`` and ``claude``; ``b``
    then moved to a store and linked: ``claude`` is reached through that link, and the
    uninstall leaves it (and ``b``), though it made both."""
    home = tmp_path / "home"
    config = home / "a" / "b" / "claude"
    Path(flags(home)[1]).mkdir(parents=True)
    environ = {"CLAUDE_CONFIG_DIR": str(config)}
    main_said(home, "claude-code", "install", "--no-check", *flags(home, A), environ=environ)
    (record,) = config.rglob("harness-memory/install.json")
    assert str(config.parent) in json.loads(record.read_text())["createdFolders"]
    store = linked_to_a_store(config.parent, tmp_path / "store" / "b")

    said = main_said(home, "claude-code", "uninstall", "--verbose", environ=environ)

    assert (store / "claude").is_dir(), said
    assert config.parent.is_symlink(), said
    assert f"symlink {config.parent}" in left_line(said, config)


@HARNESSES
def test_h7_uninstall_keeps_the_settings_folder_the_user_made(
    tmp_path: Path, harness: str, variable: str
) -> None:
    """The token in the state folder, which the hooks name: the settings folder was there
    before the install (not among the folders it made), and stays, even left empty."""
    home = tmp_path / "home"
    work = home / "work"
    work.mkdir(parents=True)
    Path(flags(home)[1]).mkdir(parents=True)
    environ = {variable: str(work)}
    main_said(home, harness, "install", "--no-check", *flags(home, A), environ=environ)

    said = main_said(home, harness, "uninstall", "--verbose", environ=environ)

    assert work.is_dir(), said


@HARNESSES
def test_h7_uninstall_removes_its_emptied_folders_through_a_linked_config_home(
    tmp_path: Path, harness: str, variable: str
) -> None:
    """``~/.config`` made by the install, then moved to a store and linked back: the config
    home is the user's, reached through its link as the token is (removed), and its real
    ``harness-memory/tokens`` folders go with the ``.gitignore``, as with ``~/.config`` the
    user's from the start; they were left without a word."""
    home = tmp_path / "home"
    work = installed_in_git(home, harness, variable)
    (record,) = work.rglob("harness-memory/install.json")
    assert str(home / ".config") in json.loads(record.read_text())["createdFolders"]
    store = linked_to_a_store(home / ".config", tmp_path / "store" / "config")

    said = main_said(home, harness, "uninstall", "--verbose", environ={variable: str(work)})

    assert not (store / "harness-memory").exists(), said
    assert (home / ".config").is_symlink(), said


@HARNESSES
def test_h7_uninstall_after_an_install_with_its_record_aside_removes_the_emptied_tokens_folder(
    tmp_path: Path, harness: str, variable: str
) -> None:
    """The record moved aside, then installed again: the new record names no folder the
    earlier install made (``tokens`` was there), and its uninstall left the ``tokens`` folder
    holding only the install's ``.gitignore``."""
    home = tmp_path / "home"
    work = installed_in_git(home, harness, variable)
    record_aside(work)
    main_said(
        home, harness, "install", "--no-check", *flags(home, A), environ={variable: str(work)}
    )

    said = main_said(home, harness, "uninstall", "--verbose", environ={variable: str(work)})

    assert not (home / ".config" / "harness-memory").exists(), said
