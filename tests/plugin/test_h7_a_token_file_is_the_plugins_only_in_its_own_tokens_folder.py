"""H-7, A-10: a token file kept outside a settings folder in git is the plugin's to replace or
remove only in the tokens folder an install for this home and environment keeps it in
(``<config home>/harness-memory/tokens``, :func:`~harness_memory.installers.token_place.
config_home` as resolved now), named as an install names it there. A file of that name in
any other ``harness-memory/tokens`` folder (another user's config home, a config home given
before, a folder of a repository's) is left, and said, with the command that removes it.

It took a file of that shape in any ``harness-memory/tokens`` folder: an install record, or a
hook command of the settings file, naming ``/elsewhere/harness-memory/tokens/<folder>-<digest
of this folder>`` had an install or uninstall remove it and its ``.url``.

With the install record moved aside, an uninstall whose token was no longer there left the
tokens folder (and its ``.gitignore``) behind: with no record of the folders it made, the
tokens folder where an install keeps this settings folder's token goes when nothing but
that ``.gitignore`` is left in it (never one holding anything else, never through a link).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from harness_memory.installers.token_place import plugin_token_file

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import A
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags
from tests.plugin.test_h7_uninstall_removes_only_its_own_token_kept_outside import (
    TOKEN,
    outside_tokens,
    run,
    work_installed,
)


def planted_beside(home: Path, token: Path, where: Path) -> Path:
    """A file named as ``token`` (this settings folder's own name) in the tokens folder of
    ``where``, holding another secret: not this install's tokens folder."""
    other = where / "harness-memory" / "tokens" / token.name
    other.parent.mkdir(parents=True)
    other.write_text("THEIRS\n")
    other.chmod(0o600)
    return other


@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_h7_a_record_naming_its_token_name_in_another_tokens_folder_leaves_it(
    tmp_path: Path, command: str
) -> None:
    home = tmp_path / "home"
    work, token = work_installed(home)
    other = planted_beside(home, token, tmp_path / "other-user" / ".config")
    record = work / "harness-memory" / "install.json"
    document = json.loads(record.read_text())
    record.write_text(json.dumps({**document, "tokenFile": str(other)}))

    extra = ["--no-check", *flags(home, A)] if command == "install" else []
    said = run(home, command, *extra, "--verbose", config_dir=work)

    assert other.read_text() == "THEIRS\n", said
    assert f"removed {other}" not in said
    (line,) = [each for each in said.splitlines() if f"left {other}:" in each]
    assert f"rm {other}" in line
    assert str(token.parent) in line  # this install's own tokens folder, named


def test_h7_a_hook_naming_its_token_name_in_another_tokens_folder_leaves_it(
    tmp_path: Path,
) -> None:
    """With the record moved aside, the ``--token-file`` of our own hook command."""
    home = tmp_path / "home"
    work, token = work_installed(home)
    other = planted_beside(home, token, tmp_path / "elsewhere")
    settings = work / "settings.json"
    settings.write_text(settings.read_text().replace(str(token), str(other)))
    token.unlink()
    record = work / "harness-memory" / "install.json"
    record.rename(record.with_name("install.json.aside"))

    said = run(home, "uninstall", "--verbose", config_dir=work)

    assert other.read_text() == "THEIRS\n", said
    (line,) = [each for each in said.splitlines() if f"left {other}:" in each]
    assert f"rm {other}" in line


def test_h7_a_token_left_under_an_earlier_config_home_is_said(tmp_path: Path) -> None:
    """Installed with ``XDG_CONFIG_HOME`` set, uninstalled without (record there): the token
    in the earlier config home is no longer this install's to remove; it is said, with the
    command that removes it."""
    home = tmp_path / "home"
    work = home / "dots" / "work"
    work.mkdir(parents=True)
    env = {"PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q", str(home / "dots")], check=True, env=env)
    xdg = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    run(home, "install", "--no-check", *flags(home, A), config_dir=work, environ=xdg)
    tokens = tmp_path / "xdg" / "harness-memory" / "tokens"
    (token,) = [p for p in tokens.glob("work-*") if p.suffix != ".url"]

    said = run(home, "uninstall", "--verbose", config_dir=work)

    assert token.read_text() == TOKEN + "\n", said
    (line,) = [each for each in said.splitlines() if f"left {token}:" in each]
    assert f"rm {token}" in line


def test_h7_only_this_installs_tokens_folder_holds_the_plugins_token_files(
    tmp_path: Path,
) -> None:
    ours = tmp_path / ".config" / "harness-memory" / "tokens"
    theirs = tmp_path / "other" / ".config" / "harness-memory" / "tokens"
    for folder in (ours, theirs):
        folder.mkdir(parents=True)
        (folder / "claude-0123456789ab").write_text("t\n")
    (tmp_path / "cfg").symlink_to(tmp_path / ".config")

    assert plugin_token_file(ours / "claude-0123456789ab", ours)
    assert plugin_token_file(
        tmp_path / "cfg" / "harness-memory" / "tokens" / "claude-0123456789ab", ours
    )
    assert not plugin_token_file(theirs / "claude-0123456789ab", ours)


@pytest.mark.parametrize(
    ("harness", "variable"),
    [("claude-code", "CLAUDE_CONFIG_DIR"), ("codex", "CODEX_HOME"), ("gemini", "GEMINI_CLI_HOME")],
)
def test_h7_uninstall_with_its_record_aside_removes_the_emptied_tokens_folder(
    tmp_path: Path, harness: str, variable: str
) -> None:
    """The token already gone (removed by hand with the command an earlier run printed)."""
    home = tmp_path / "home"
    folder = installed_in_git(home, harness, variable)
    tokens = home / ".config" / "harness-memory" / "tokens"
    for token in tokens.iterdir():
        if token.name != ".gitignore":
            token.unlink()
    (record,) = folder.rglob("install.json")
    record.rename(record.with_name("install.json.aside"))

    said = main_said(home, harness, "uninstall", "--verbose", environ={variable: str(folder)})

    assert not (home / ".config" / "harness-memory").exists(), said


@pytest.mark.parametrize("held", ["a file of the user's", "a symlink"])
def test_h7_a_tokens_folder_holding_anything_else_stays(tmp_path: Path, held: str) -> None:
    home = tmp_path / "home"
    folder = installed_in_git(home, "claude-code", "CLAUDE_CONFIG_DIR")
    tokens = home / ".config" / "harness-memory" / "tokens"
    for token in outside_tokens(home, "work"):
        token.unlink()
        token.with_name(token.name + ".url").unlink()
    if held == "a symlink":  # the folder itself a link to one holding only a .gitignore
        real = tmp_path / "dotfiles" / "tokens"
        real.parent.mkdir()
        tokens.rename(real)
        tokens.symlink_to(real)
        kept = real / ".gitignore"
    else:
        kept = tokens / "notes.txt"
        kept.write_text("mine\n")
    (record,) = folder.rglob("install.json")
    record.rename(record.with_name("install.json.aside"))

    said = run(home, "uninstall", "--verbose", config_dir=folder)

    assert kept.is_file(), said
    assert tokens.is_symlink() or tokens.is_dir(), said


def installed_in_git(
    home: Path, harness: str, variable: str, environ: dict[str, str] | None = None
) -> Path:
    """The settings folder ``home/dots/work`` (in git, its token outside) ``harness`` is
    installed into, named by ``variable`` (with ``environ`` added)."""
    work = home / "dots" / "work"
    work.mkdir(parents=True)
    env = {"PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q", str(home / "dots")], check=True, env=env)
    Path(flags(home)[1]).mkdir(parents=True, exist_ok=True)
    main_said(
        home,
        harness,
        "install",
        "--no-check",
        *flags(home, A),
        environ={**(environ or {}), variable: str(work)},
    )
    return work


def main_said(home: Path, harness: str, *argv: str, environ: dict[str, str]) -> str:
    """What ``harness-memory ARGV[0] HARNESS ARGV[1:]`` said; it must succeed."""
    import io

    from harness_memory.cli import main

    env = {"HOME": str(home), "HARNESS_MEMORY_TOKEN": TOKEN, **environ}
    out = io.StringIO()
    words = [argv[0], harness, "--home", str(home), *argv[1:]]
    assert main(words, environ=env, stdout=out) == 0, out.getvalue()
    return out.getvalue()
