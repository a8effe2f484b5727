"""H-7, A-10: an install or uninstall advises removing only a token file the plugin writes.

A record or hook naming a symlink shaped like a token file (``…/harness-memory/token``,
``…/harness-memory/tokens/codex-0123456789ab``) leading to ``~/.ssh/id_ed25519`` had the
install and uninstall say "remove it yourself: ``rm ~/.ssh/id_ed25519``". A file that is itself
a symlink is none the plugin wrote: nothing is said of it. (A token reached through a linked
``harness-memory`` folder is said by the path through the link, never by the link's target:
``test_h7_token_folders_reached_through_a_link``.)
The install's own token place, written through ``~/.config/harness-memory`` linked to a store,
is its own: never said to be left by the install that writes it and its hooks read.
"""

from __future__ import annotations

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
from tests.plugin.test_h7_token_folders_reached_through_a_link import (
    FOLDERS,
    HARNESSES,
    left_line,
    tokens_in,
)
from tests.plugin.test_h7_uninstall_removes_only_its_own_token_kept_outside import TOKEN

KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\n"


def ssh_key(home: Path) -> Path:
    """``~/.ssh/id_ed25519``, the user's private key."""
    key = home / ".ssh" / "id_ed25519"
    key.parent.mkdir(parents=True)
    key.write_text(KEY)
    key.chmod(0o600)
    return key


def named_instead(work: Path, token: Path, link: Path) -> None:
    """The install record and the hooks in ``work`` name ``link`` where they named ``token``."""
    for path in [*work.rglob("*.json"), *work.rglob("*.toml")]:
        path.write_text(path.read_text().replace(str(token), str(link)))
    (record,) = work.rglob("harness-memory/install.json")
    assert json.loads(record.read_text())["tokenFile"] == str(link)


@HARNESSES
@pytest.mark.parametrize(
    "shape", ["vendor/harness-memory/token", "x/harness-memory/tokens/codex-0123456789ab"]
)
@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_h7_a_link_named_like_a_token_to_a_private_key_gets_no_advice(
    tmp_path: Path, harness: str, variable: str, shape: str, command: str
) -> None:
    home = tmp_path / "home"
    work = installed_in_git(home, harness, variable)
    key = ssh_key(home)
    (token,) = tokens_in(home / ".config" / "harness-memory" / "tokens")
    link = work / shape
    link.parent.mkdir(parents=True)
    link.symlink_to(key)
    named_instead(work, token, link)
    extra = ["--no-check", *flags(home, A)] if command == "install" else ["--verbose"]

    said = main_said(home, harness, command, *extra, environ={variable: str(work)})

    assert key.read_text() == KEY, said
    assert "id_ed25519" not in said, said
    assert f"left {link}" not in said, said


@HARNESSES
def test_h7_an_install_through_a_linked_config_folder_never_says_its_own_token_is_left(
    tmp_path: Path, harness: str, variable: str
) -> None:
    home = tmp_path / "home"
    linked = home / ".config" / "harness-memory"
    (tmp_path / "store" / "hm").mkdir(parents=True)
    linked.parent.mkdir(parents=True)
    linked.symlink_to(tmp_path / "store" / "hm")
    work = installed_in_git(home, harness, variable)
    (token,) = tokens_in(linked / "tokens")

    said = main_said(
        home, harness, "install", "--no-check", *flags(home, A), environ={variable: str(work)}
    )

    assert f"left {linked}" not in said, said
    assert token.read_text() == TOKEN + "\n", said
    (record,) = work.rglob("harness-memory/install.json")
    assert json.loads(record.read_text())["tokenFile"] == str(token), said


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h7_a_new_installs_token_stays_with_the_folder_after_the_spelling_is_linked_to_a_copy(
    tmp_path: Path, harness: str
) -> None:
    """``~/.claude`` a real folder in git at install (its spelled and resolved paths one), then
    moved to ``~/dots/claude-work``, copied to ``claude-personal`` and ``~/.claude`` linked to
    the copy: the token is ``claude-work``'s, whose settings still name it. Only a record from
    before tokens were named by the resolved folder counts a token named by the spelled path
    as its own."""
    home = tmp_path / "home"
    spelled = home / FOLDERS[harness]
    spelled.mkdir(parents=True)
    env = {"PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q", str(spelled)], check=True, env=env)
    Path(flags(home)[1]).mkdir(parents=True, exist_ok=True)
    main_said(home, harness, "install", "--no-check", *flags(home, A), environ={})
    (token,) = tokens_in(home / ".config" / "harness-memory" / "tokens")
    work = home / "dots" / f"{spelled.name.lstrip('.')}-work"
    work.parent.mkdir()
    spelled.rename(work)
    shutil.copytree(work, work.with_name(work.name.replace("-work", "-personal")), symlinks=True)
    spelled.symlink_to(work.with_name(work.name.replace("-work", "-personal")))

    said = main_said(home, harness, "uninstall", "--verbose", environ={})

    assert token.read_text() == TOKEN + "\n", said
    assert f"rm {token}" in left_line(said, token)
