"""H-7: a token file in a work tree whose repository lies elsewhere (dotfiles setups, real git).

The install kept the token out of a git work tree only when a ``.git`` lay at or above the
state folder. A "bare repository dotfiles" home has none: ``git init --bare ~/.dotfiles`` used
as ``git --git-dir=$HOME/.dotfiles --work-tree=$HOME`` (an alias such as ``dotfiles``), a bare
repository with ``core.worktree`` set to the home (yadm's, vcsh's), or ``GIT_DIR`` and
``GIT_WORK_TREE`` in the environment. The token file went into ``~/.codex/harness-memory/token``
and ``dotfiles add -f ~/.codex`` (or ``add -u`` once tracked) took it into a commit.

Such a home has no folder outside the work tree, and refusing left a popular setup that
installed before with nothing but ``XDG_CONFIG_HOME`` moved out of the home. So the token goes
into ``~/.config/harness-memory/tokens/`` (``0600``, the folder ``0700``) beside a ``.gitignore``
of ``*``: the repository's ``add ~/.config``, ``add -u`` and ``commit -a`` never take it, and a
warning names the repository, how it was found and that ``add -f`` still would. A ``.git`` at or
above the config folder (``~/.git`` of ``--separate-git-dir``) is an ordinary repository's work
tree, refused as before.
"""

from __future__ import annotations

import io
import json
import os
import pwd
import stat
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.spec import flag_values, our_commands
from harness_memory.installers.work_trees import git_config, work_tree_of

from tests.plugin.helpers import HARNESS_MEMORY
from tests.support.real_git import git

TOKEN = "s3cr3t-Token-4711-dotfiles"
HARNESSES = ["claude-code", "codex", "gemini"]
FOLDER = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}
SETTINGS = {"claude-code": "settings.json", "codex": "hooks.json", "gemini": "settings.json"}


def dotfiles(home: Path, git_dir: Path, *args: str) -> str:
    """The alias of the setup: ``git --git-dir=<git_dir> --work-tree=$HOME …``, run in the home."""
    return git(home, f"--git-dir={git_dir}", f"--work-tree={home}", *args)


def bare_with_untracked_hidden(home: Path) -> tuple[Path, dict[str, str]]:
    """The tutorial's setup: a bare repository and ``status.showUntrackedFiles no``."""
    git_dir = home / ".dotfiles"
    git(home, "init", "-q", "--bare", str(git_dir))
    dotfiles(home, git_dir, "config", "status.showUntrackedFiles", "no")
    return git_dir, {}


def bare_in_use(home: Path) -> tuple[Path, dict[str, str]]:
    """A bare repository (any name) that has a commit of the home's files: it has an index."""
    git_dir = home / ".cfg"
    git(home, "init", "-q", "--bare", str(git_dir))
    (home / ".bashrc").write_text("export EDITOR=vi\n", encoding="utf-8")
    dotfiles(home, git_dir, "add", ".bashrc")
    dotfiles(home, git_dir, "commit", "-q", "-m", "bashrc")
    return git_dir, {}


def bare_with_core_worktree(home: Path) -> tuple[Path, dict[str, str]]:
    """A repository whose ``core.worktree`` is the home (no alias needed)."""
    git_dir = home / ".dots"
    git(home, "init", "-q", "--bare", str(git_dir))
    git(home, f"--git-dir={git_dir}", "config", "core.bare", "false")
    git(home, f"--git-dir={git_dir}", "config", "core.worktree", str(home))
    return git_dir, {}


def yadm_repository(home: Path) -> tuple[Path, dict[str, str]]:
    """yadm's: ``~/.local/share/yadm/repo.git`` with ``core.worktree`` the home."""
    git_dir = home / ".local" / "share" / "yadm" / "repo.git"
    git(home, "init", "-q", "--bare", str(git_dir))
    git(home, f"--git-dir={git_dir}", "config", "core.bare", "false")
    git(home, f"--git-dir={git_dir}", "config", "core.worktree", str(home))
    return git_dir, {}


def separate_git_dir(home: Path) -> tuple[Path, dict[str, str]]:
    """``git init --separate-git-dir ~/.dotfiles-git ~``: ``~/.git`` is a file (``gitdir: …``)."""
    git_dir = home / ".dotfiles-git"
    git(home, "init", "-q", f"--separate-git-dir={git_dir}", str(home))
    assert (home / ".git").is_file()
    return git_dir, {}


def in_the_environment(home: Path) -> tuple[Path, dict[str, str]]:
    """A bare repository showing no sign of use, given as ``GIT_DIR`` with ``GIT_WORK_TREE``."""
    git_dir = home.parent / "elsewhere.git"
    git(home, "init", "-q", "--bare", str(git_dir))
    return git_dir, {"GIT_DIR": str(git_dir), "GIT_WORK_TREE": str(home)}


FORMS = {
    "bare, untracked files hidden": (
        bare_with_untracked_hidden,
        "the bare repository {git_dir}, whose status.showUntrackedFiles is no: used as git "
        "--git-dir={git_dir} --work-tree={home}",
    ),
    "bare, with an index": (
        bare_in_use,
        "the bare repository {git_dir}, which has an index: used as git --git-dir={git_dir} "
        "--work-tree={home}",
    ),
    "core.worktree": (bare_with_core_worktree, "core.worktree of the repository {git_dir}"),
    "yadm": (yadm_repository, "core.worktree of the repository {git_dir}"),
    "GIT_DIR and GIT_WORK_TREE": (
        in_the_environment,
        "GIT_WORK_TREE in the environment, of the repository GIT_DIR={git_dir}",
    ),
}
"""The home-wide work trees whose repository lies elsewhere, and how the warning names each."""


def install(
    home: Path, harness: str, environ: dict[str, str], *, token: str | None = TOKEN
) -> tuple[int, str]:
    root = home.parent / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    flags += ["--token", token] if token else []
    out = io.StringIO()
    status = main(["install", harness, *flags], environ={"HOME": str(home), **environ}, stdout=out)
    return status, out.getvalue()


def named_token_files(home: Path, harness: str) -> set[Path]:
    """The token files the installed hooks of ``harness`` name (``--token-file``)."""
    document = json.loads((home / FOLDER[harness] / SETTINGS[harness]).read_text("utf-8"))
    commands = our_commands(document, harness)
    return {Path(value) for command in commands for value in flag_values(command, "--token-file")}


def everything_git_holds(home: Path, git_dir: Path) -> str:
    """Every commit's patch and what is staged now: what the repository would ever publish."""
    return dotfiles(home, git_dir, "log", "-p", "--all") + dotfiles(
        home, git_dir, "diff", "--cached"
    )


def warning(token_file: Path, home: Path, how: str) -> str:
    """The install's and ``token set``'s warning, word for word."""
    return (
        f"WARNING: the bearer token is kept in {token_file}, in the work tree of a git "
        f"repository kept elsewhere that holds your whole home: {home} ({how}). The .gitignore "
        f"(*) in {token_file.parent} leaves it out of that repository's `add` of the folder "
        "(`add -A`, `add ~/.config`), and `add -u` and `commit -a` take only files already "
        "tracked; but `add -f` of that folder or file takes the token into a commit (and "
        "`commit -a` then its every change): never force-add it, or set XDG_CONFIG_HOME to a "
        "folder outside your home and every repository and install again"
    )


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("form", FORMS)
def test_h7_a_home_wide_work_tree_kept_elsewhere_keeps_the_token_in_config_ignored_and_warned(
    tmp_path: Path, form: str, harness: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    make, how = FORMS[form]
    git_dir, environ = make(home)
    (home / ".config").mkdir()
    (home / ".config" / "app.conf").write_text("colour = yes\n", encoding="utf-8")

    status, said = install(home, harness, environ)

    assert status == 0, said
    tokens = home / ".config" / "harness-memory" / "tokens"
    (kept,) = named_token_files(home, harness)
    assert kept.parent == tokens
    assert kept.read_text(encoding="utf-8") == f"{TOKEN}\n"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(tokens.stat().st_mode) == 0o700
    assert "*" in (tokens / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert not list(home.rglob("token"))
    shown = how.format(git_dir=git_dir, home=home)
    assert f"{harness}: {warning(kept, home, shown)}\n" in said
    assert TOKEN not in said

    dotfiles(home, git_dir, "add", str(home / ".config"))  # the config folder, as a whole
    dotfiles(home, git_dir, "add", "-f", FOLDER[harness])  # the settings folder, forced
    dotfiles(home, git_dir, "commit", "-q", "-m", "settings")
    kept.write_text("s3cr3t-Token-4711-changed\n", encoding="utf-8")
    dotfiles(home, git_dir, "add", "-u")
    dotfiles(home, git_dir, "commit", "-q", "--allow-empty", "-a", "-m", "again")
    held = everything_git_holds(home, git_dir)
    assert TOKEN not in held and "s3cr3t-Token-4711-changed" not in held
    tracked = dotfiles(home, git_dir, "ls-files")
    assert ".config/app.conf" in tracked and "tokens" not in tracked
    assert SETTINGS[harness] in dotfiles(home, git_dir, "ls-files", FOLDER[harness])


@pytest.mark.parametrize("harness", HARNESSES)
def test_h7_a_home_that_is_an_ordinary_work_tree_by_a_git_file_is_still_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, harness: str
) -> None:
    """``git init --separate-git-dir ~/.dotfiles-git ~`` leaves ``~/.git`` (a file) at or
    above every folder of the home: an ordinary repository's work tree, refused as before,
    nothing written; with ``XDG_CONFIG_HOME`` outside the home the token goes there."""
    home = tmp_path / "home"
    home.mkdir()
    git_dir, environ = separate_git_dir(home)
    before = sorted(path.relative_to(home) for path in home.rglob("*"))

    status, said = install(home, harness, environ)

    assert status == 1, said
    assert "the bearer token would lie in a git work tree" in caplog.text
    assert (
        "your home is that work tree, so every folder in it can be committed: set "
        "XDG_CONFIG_HOME to a folder outside your home and every repository"
    ) in caplog.text
    assert "nothing was changed" in caplog.text and TOKEN not in caplog.text + said
    assert sorted(path.relative_to(home) for path in home.rglob("*")) == before

    config = tmp_path / "config"  # outside the home: the token goes there
    status, said = install(home, harness, {**environ, "XDG_CONFIG_HOME": str(config)})

    assert status == 0, said
    (kept,) = named_token_files(home, harness)
    assert kept.parent == config / "harness-memory" / "tokens"
    assert "WARNING: the bearer token is kept" not in said
    dotfiles(home, git_dir, "add", "-f", FOLDER[harness])
    dotfiles(home, git_dir, "commit", "-q", "-m", "settings")
    assert TOKEN not in everything_git_holds(home, git_dir)


@pytest.mark.parametrize("harness", HARNESSES)
def test_h7_a_token_once_committed_by_a_bare_dotfiles_repository_is_moved_out(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, harness: str
) -> None:
    """An install from before kept the token in the state folder and ``dotfiles add -f
    ~/.codex`` committed it: installing again moves it to ``~/.config/harness-memory/tokens``
    and removes that file, so the next ``dotfiles commit -a`` records its removal and never the
    new token."""
    home = tmp_path / "home"
    home.mkdir()
    git_dir, _ = bare_with_untracked_hidden(home)
    state = home / FOLDER[harness] / "harness-memory"
    state.mkdir(parents=True, mode=0o700)
    (state / "token").write_text("earlier-token\n", encoding="utf-8")
    (state / "token").chmod(0o600)
    dotfiles(home, git_dir, "add", "-f", FOLDER[harness])
    dotfiles(home, git_dir, "commit", "-q", "-m", "the token, by mistake")

    status, said = install(home, harness, {})

    assert status == 0, caplog.text + said
    assert not (state / "token").exists()
    (kept,) = named_token_files(home, harness)
    assert kept.parent == home / ".config" / "harness-memory" / "tokens"
    dotfiles(home, git_dir, "commit", "-q", "-a", "-m", "after the install")
    assert TOKEN not in everything_git_holds(home, git_dir)
    assert "token" not in dotfiles(home, git_dir, "ls-files")


@pytest.mark.parametrize(
    "setup",
    ["a bare mirror", "a bare repository whose core.worktree is elsewhere", "GIT_DIR alone"],
)
def test_h7_a_bare_repository_that_is_no_work_tree_of_the_home_keeps_the_token_in_place(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, setup: str
) -> None:
    """No false alarm: a bare repository in the home that shows no use with a work tree (a
    mirror, a local remote), one whose work tree is another folder, and a bare ``GIT_DIR``
    with no work tree (git's ``add`` refuses to run then) leave the token where it was."""
    home = tmp_path / "home"
    home.mkdir()
    git_dir = home / "mirror.git"
    git(home, "init", "-q", "--bare", str(git_dir))
    environ: dict[str, str] = {}
    if setup == "a bare repository whose core.worktree is elsewhere":
        (tmp_path / "site").mkdir()
        git(home, f"--git-dir={git_dir}", "config", "core.worktree", str(tmp_path / "site"))
    if setup == "GIT_DIR alone":
        environ = {"GIT_DIR": str(git_dir)}

    status, said = install(home, "codex", environ)

    assert status == 0, caplog.text + said
    assert named_token_files(home, "codex") == {home / ".codex" / "harness-memory" / "token"}


def test_h7_work_tree_of_names_the_repository_and_how_it_was_found(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    git_dir, _ = bare_with_untracked_hidden(home)

    tree = work_tree_of(home / ".codex" / "harness-memory", home, {})

    assert tree is not None and tree.top == home
    assert str(tree) == (
        f"{home} (the bare repository {git_dir}, whose status.showUntrackedFiles is no: used "
        f"as git --git-dir={git_dir} --work-tree={home})"
    )
    assert work_tree_of(tmp_path / "elsewhere", home, {}) is None
    assert git_config(git_dir)["status.showuntrackedfiles"] == "no"
    assert git_config(git_dir)["core.bare"] == "true"


@pytest.fixture
def account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The account's home as the password database gives it (moved under ``tmp_path``)."""
    home = tmp_path / "account"
    entry = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*entry[:5], str(home), entry[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: moved)
    home.mkdir()
    return home


def test_h7_token_set_in_a_bare_dotfiles_home_keeps_it_in_config_and_warns(
    account: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``token set`` for the managed hooks, whose token would lie in the home's state folder:
    written to ``~/.config/harness-memory/tokens/managed`` (which they read), beside its
    ``.gitignore``, with the warning; nothing in ``~/.claude``."""
    git_dir, _ = bare_with_untracked_hidden(account)

    status = main(["token", "set"], environ={}, stdin=io.BytesIO(f"{TOKEN}\n".encode()))

    assert status == 0
    said = capsys.readouterr().out
    kept = account / ".config" / "harness-memory" / "tokens" / "managed"
    how = (
        f"the bare repository {git_dir}, whose status.showUntrackedFiles is no: used as git "
        f"--git-dir={git_dir} --work-tree={account}"
    )
    assert said == (f"wrote the token to {kept} (mode 0600)\n{warning(kept, account, how)}\n")
    assert kept.read_text(encoding="utf-8") == f"{TOKEN}\n"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert "*" in (kept.parent / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert not (account / ".claude").exists()
    dotfiles(account, git_dir, "add", str(account / ".config"))
    dotfiles(account, git_dir, "commit", "-q", "--allow-empty", "-a", "-m", "config")
    assert TOKEN not in everything_git_holds(account, git_dir)
    assert "managed" not in dotfiles(account, git_dir, "ls-files")
