"""H-7: the token file an install writes never lies in a git work tree (real git).

A settings folder kept in a dotfiles repository (``~/.codex`` linked into ``~/dotfiles``, a
``~/.claude`` that is itself a repository) held the token file in its state folder, left out
only by that folder's ``.gitignore``: ``git add -f``, ``git add -A`` under another ignore setup
(``--no-ignore`` tools, ``git add -f .``) and ``git commit -a`` after it was once tracked all
took the token into a commit. The install now keeps the token in the user's config folder
(``$XDG_CONFIG_HOME``, by default ``~/.config``: ``harness-memory/tokens/…``, ``0600``) whenever
the state folder lies in a work tree, names it there in the hook commands, removes a token file
an earlier install left in the work tree, and refuses (nothing written) when the config folder
lies in a work tree too.
"""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.spec import flag_values, our_commands
from harness_memory.installers.token_place import plugin_token_file
from harness_memory.settings import load_settings

from tests.plugin.helpers import HARNESS_MEMORY
from tests.support.real_git import git

TOKEN = "s3cr3t-Token-4711-outside"
OLD_TOKEN = "s3cr3t-Token-4711-earlier"
HARNESSES = ["claude-code", "codex", "gemini"]
FOLDER = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}
SETTINGS = {"claude-code": "settings.json", "codex": "hooks.json", "gemini": "settings.json"}


def everything_git_holds(repository: Path) -> str:
    """Every commit's patch and what is staged now: what git would ever publish."""
    return git(repository, "log", "-p", "--all") + git(repository, "diff", "--cached")


def memory_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    return root


def install(
    home: Path, harness: str, token: str, environ: dict[str, str] | None = None
) -> tuple[int, str]:
    out = io.StringIO()
    root = memory_root(home.parent)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    flags += ["--token", token]
    status = main(
        ["install", harness, *flags], environ={"HOME": str(home), **(environ or {})}, stdout=out
    )
    return status, out.getvalue()


def uninstall(home: Path, harness: str) -> None:
    flags = ["--home", str(home), "--memory-root", str(memory_root(home.parent))]
    assert main(["uninstall", harness, *flags], environ={"HOME": str(home)}) == 0


def named_token_files(home: Path, harness: str) -> set[Path]:
    """The token files the installed hooks of ``harness`` name (``--token-file``)."""
    document = json.loads((home / FOLDER[harness] / SETTINGS[harness]).read_text("utf-8"))
    commands = our_commands(document, harness)
    return {Path(value) for command in commands for value in flag_values(command, "--token-file")}


def in_dotfiles(tmp_path: Path, harness: str) -> tuple[Path, Path]:
    """A home whose settings folder is a symlink into a dotfiles repository: (home, repo)."""
    home, dotfiles = tmp_path / "home", tmp_path / "dotfiles"
    (dotfiles / FOLDER[harness]).mkdir(parents=True)
    git(dotfiles, "init", "-q")
    home.mkdir()
    (home / FOLDER[harness]).symlink_to(dotfiles / FOLDER[harness])
    return home, dotfiles


@pytest.mark.parametrize("harness", HARNESSES)
def test_h7_a_settings_folder_in_a_dotfiles_repository_keeps_its_token_outside(
    tmp_path: Path, harness: str
) -> None:
    home, dotfiles = in_dotfiles(tmp_path, harness)

    status, said = install(home, harness, TOKEN)

    assert status == 0, said
    assert TOKEN not in said
    (kept,) = named_token_files(home, harness)
    assert kept.parent == home / ".config" / "harness-memory" / "tokens"
    assert kept.read_text(encoding="utf-8") == TOKEN + "\n"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert not (dotfiles / FOLDER[harness] / "harness-memory" / "token").exists()
    # every way of adding: forced, all, all with ignore rules set aside
    git(dotfiles, "add", "-f", "-A", ".")
    git(dotfiles, "commit", "-q", "-m", "settings")
    git(dotfiles, "add", "-f", "--", f"{FOLDER[harness]}/harness-memory")
    assert TOKEN not in everything_git_holds(dotfiles)
    assert SETTINGS[harness] in git(dotfiles, "ls-files")  # the settings themselves: the user's
    # the hooks read it as installed: a Session's settings come from their flags alone
    flags = {"token_file": str(kept)}
    assert load_settings(flags, {}, flags_only=True).bearer_token() == TOKEN

    uninstall(home, harness)
    assert not kept.exists()
    assert not (home / ".config").exists()  # the folders the install made are gone with it


@pytest.mark.parametrize("harness", HARNESSES)
def test_h7_a_token_file_once_committed_is_moved_out_and_commit_a_takes_no_new_token(
    tmp_path: Path, harness: str
) -> None:
    """An install from before wrote the token into the state folder and the user committed it
    with ``git add -f``; the next install moves the new token out and removes that file, so
    ``git commit -a`` records its removal, never the new token."""
    home, dotfiles = in_dotfiles(tmp_path, harness)
    state = dotfiles / FOLDER[harness] / "harness-memory"
    state.mkdir(mode=0o700)
    (state / "token").write_text(OLD_TOKEN + "\n", encoding="utf-8")
    (state / "token").chmod(0o600)
    git(dotfiles, "add", "-f", "-A", ".")
    git(dotfiles, "commit", "-q", "-m", "the token, by mistake")

    status, said = install(home, harness, TOKEN)

    assert status == 0, said
    assert not (state / "token").exists()
    git(dotfiles, "commit", "-q", "-a", "-m", "after the install")
    assert TOKEN not in everything_git_holds(dotfiles)
    assert "token" not in git(dotfiles, "ls-files")


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("kind", ["repository", "linked worktree"])
def test_h7_a_settings_folder_that_is_itself_a_work_tree_keeps_its_token_outside(
    tmp_path: Path, harness: str, kind: str
) -> None:
    """A repository of its own (``.git`` a folder), or a linked worktree of one (``.git`` a
    file naming the repository elsewhere)."""
    home = tmp_path / "home"
    folder = home / FOLDER[harness]
    if kind == "repository":
        folder.mkdir(parents=True)
        git(folder, "init", "-q")
    else:
        main_tree = tmp_path / "dotfiles"
        main_tree.mkdir()
        git(main_tree, "init", "-q")
        git(main_tree, "commit", "-q", "--allow-empty", "-m", "start")
        home.mkdir()
        git(main_tree, "worktree", "add", "-q", "-b", "settings", str(folder))
        assert (folder / ".git").is_file()

    status, said = install(home, harness, TOKEN)

    assert status == 0, said
    (kept,) = named_token_files(home, harness)
    assert kept.is_relative_to(home / ".config")
    git(folder, "add", "-f", "-A", ".")
    assert TOKEN not in everything_git_holds(folder)


@pytest.mark.parametrize("harness", HARNESSES)
def test_h7_a_home_that_is_a_work_tree_is_refused_unless_the_config_folder_is_elsewhere(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    """With the home a work tree, ``~/.config`` lies in it too: the install refuses, saying
    why and what to do, and writes nothing; ``XDG_CONFIG_HOME`` outside it is used."""
    home = tmp_path / "home"
    home.mkdir()
    git(home, "init", "-q")

    status, said = install(home, harness, TOKEN)

    assert status == 1, said
    assert "would lie in a git work tree" in caplog.text and "XDG_CONFIG_HOME" in caplog.text
    assert "nothing was changed" in caplog.text
    assert [path.name for path in home.iterdir()] == [".git"]
    assert TOKEN not in caplog.text + said

    config = tmp_path / "config"
    status, said = install(home, harness, TOKEN, {"XDG_CONFIG_HOME": str(config)})
    assert status == 0, said
    (kept,) = named_token_files(home, harness)
    assert kept.parent == config / "harness-memory" / "tokens"
    git(home, "add", "-f", "-A", ".")
    assert TOKEN not in everything_git_holds(home)


@pytest.mark.parametrize("harness", HARNESSES)
def test_h7_outside_any_work_tree_the_token_stays_in_the_state_folder(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    status, said = install(home, harness, TOKEN)
    assert status == 0, said
    assert named_token_files(home, harness) == {home / FOLDER[harness] / "harness-memory" / "token"}
    assert not (home / ".config").exists()


@pytest.mark.parametrize("harness", HARNESSES)
def test_h7_an_install_without_a_token_removes_the_one_kept_outside(
    tmp_path: Path, harness: str
) -> None:
    """No stale token stays behind: an install for another service given no token removes
    the file an earlier install kept in the config folder, and the hooks name none."""
    home, _ = in_dotfiles(tmp_path, harness)
    assert install(home, harness, TOKEN)[0] == 0
    (kept,) = named_token_files(home, harness)

    out = io.StringIO()
    flags = ["--home", str(home), "--memory-root", str(memory_root(tmp_path))]
    flags += ["--url", "http://127.0.0.2:9", "--project", "acme", "--agent", "coder"]
    flags += ["--executable", str(HARNESS_MEMORY)]
    assert main(["install", harness, *flags], environ={"HOME": str(home)}, stdout=out) == 0

    assert not kept.exists()
    assert named_token_files(home, harness) == set()


@pytest.mark.parametrize("linked", ["tokens", "harness-memory", "the file"])
def test_h7_a_token_folder_made_a_symlink_is_never_the_plugins_to_remove(
    tmp_path: Path, linked: str
) -> None:
    """The stale-token removal trusted ``~/.config/harness-memory/tokens/<x>`` by its spelling:
    a dotfiles repository making ``tokens`` (or ``harness-memory``, or the file) a symlink had
    the removal follow it into the repository's own folder. Judged by ``lstat`` now: nothing
    reached through a link is removed, by install or uninstall."""
    harness = "codex"
    home, _ = in_dotfiles(tmp_path, harness)
    assert install(home, harness, TOKEN)[0] == 0
    (kept,) = named_token_files(home, harness)
    moved = {"tokens": kept.parent, "harness-memory": kept.parent.parent, "the file": kept}[linked]
    theirs = tmp_path / "their-dotfiles" / moved.name
    theirs.parent.mkdir()
    moved.rename(theirs)
    moved.symlink_to(theirs)
    assert kept.is_file() and not plugin_token_file(kept, kept.parent)
    held = {
        "tokens": theirs / kept.name,
        "harness-memory": theirs / "tokens" / kept.name,
        "the file": theirs,
    }[linked]

    out = io.StringIO()
    flags = ["--home", str(home), "--memory-root", str(memory_root(tmp_path))]
    flags += ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    flags += ["--executable", str(HARNESS_MEMORY)]
    assert main(["install", harness, *flags], environ={"HOME": str(home)}, stdout=out) == 0
    uninstall(home, harness)

    assert held.read_text(encoding="utf-8") == f"{TOKEN}\n"  # theirs, untouched


def test_h7_a_token_file_in_real_plugin_folders_is_the_plugins(tmp_path: Path) -> None:
    tokens = tmp_path / ".config" / "harness-memory" / "tokens"
    tokens.mkdir(parents=True)
    (tokens / "claude-0123456789ab").write_text("t\n", encoding="utf-8")

    assert plugin_token_file(tokens / "claude-0123456789ab", tokens)
    assert not plugin_token_file(tokens / "missing", tokens)
    assert not plugin_token_file(tmp_path / ".ssh" / "id_ed25519", tokens)
