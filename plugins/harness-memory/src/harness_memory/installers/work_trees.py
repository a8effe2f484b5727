"""Which git work tree a folder lies in, also one whose repository is kept elsewhere (H-7).

A token file in a git work tree can be taken into a commit (``git add -f``, ``git add -u`` or
``git commit -a`` once tracked, ``add ~/.config``): no ``.gitignore`` stops those, so the
installer never writes one there (:mod:`harness_memory.installers.token_place`). A work tree is
found in these forms:

* a ``.git`` entry at or above the folder, as written or with its symlinks resolved: a
  repository's own folder, or the file (``gitdir: …``) of a linked worktree, a submodule, or a
  home made a work tree by ``git init --separate-git-dir ~/.dotfiles ~``;
* the environment's ``GIT_WORK_TREE``, and ``core.worktree`` of the repository ``GIT_DIR``
  names (or, for a ``GIT_DIR`` that is no bare repository and names no work tree, the folder
  git runs in: the install's own);
* a "bare repository dotfiles" setup, which leaves no ``.git`` in the work tree: ``git init
  --bare ~/.dotfiles`` used as ``git --git-dir=$HOME/.dotfiles --work-tree=$HOME`` (an alias
  such as ``config``). Every git dir directly in the home (any name: ``~/.dotfiles``,
  ``~/.cfg``), yadm's (``$XDG_DATA_HOME/yadm/repo.git``) and vcsh's
  (``$XDG_CONFIG_HOME/vcsh/repo.d/*.git``) is read: its ``core.worktree`` is a work tree; a
  bare one in the home with no ``core.worktree`` takes the home as its work tree when it shows
  it is used with one, by the index only a work tree's ``add`` or ``checkout`` writes, or by
  ``status.showUntrackedFiles`` set to ``no`` (the setup's usual step, so ``status`` does not
  list the whole home). A bare repository that shows neither (a mirror, a local remote) is no
  work tree's.

The work tree an alias names only on its command line, for a bare repository kept outside the
home and showing neither sign, is not seen.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["WorkTree", "git_config", "work_tree_of"]


@dataclass(frozen=True)
class WorkTree:
    """A git work tree: its top folder ``top`` and ``how`` it was found, for a message
    (``"/home/ada/.git"``, ``"GIT_WORK_TREE in the environment"``, ``"the bare repository
    /home/ada/.dotfiles, which has an index: used with the home as its work tree"``);
    ``elsewhere``: its repository lies outside it (no ``.git`` in it names one: a bare
    dotfiles repository, ``core.worktree``, the environment's)."""

    top: Path
    how: str
    elsewhere: bool = False

    def __str__(self) -> str:
        """``top``, and how it was found unless that is a ``.git`` right in it."""
        if self.how == str(self.top / ".git"):
            return str(self.top)
        return f"{self.top} ({self.how})"


def work_tree_of(folder: Path, home: Path, environ: Mapping[str, str]) -> WorkTree | None:
    """The git work tree ``folder`` (absolute or relative to the working folder; it need not
    exist) lies in, in any form the module names (a ``.git`` at or above it, the environment's
    ``GIT_WORK_TREE`` or ``GIT_DIR``, a bare repository of ``home``'s used with a work tree),
    looked for along ``folder`` as written and with its symlinks resolved; None when none
    holds it. Never raises ``OSError``."""
    ways = [folder.absolute()]
    with contextlib.suppress(OSError, RuntimeError):  # a symlink loop on the way
        ways.append(folder.resolve())
    for way in ways:
        for above in (way, *way.parents):
            if os.path.lexists(above / ".git"):
                return WorkTree(above, str(above / ".git"))
    for tree in _trees_kept_elsewhere(home, environ):
        tops = [tree.top.absolute()]
        with contextlib.suppress(OSError, RuntimeError):
            tops.append(tree.top.resolve())
        if any(way.is_relative_to(top) for way in ways for top in tops):
            return tree
    return None


def _trees_kept_elsewhere(home: Path, environ: Mapping[str, str]) -> Iterator[WorkTree]:
    """The work trees whose repository lies outside them: the environment's, then those of the
    bare repositories a dotfiles manager keeps (:func:`_dotfiles_repositories`)."""
    if given := environ.get("GIT_WORK_TREE"):
        how = "GIT_WORK_TREE in the environment"
        if repository := environ.get("GIT_DIR"):  # the repository, named in a warning
            how += f", of the repository GIT_DIR={Path(repository).expanduser().absolute()}"
        yield WorkTree(Path(given).expanduser(), how, True)
    if given := environ.get("GIT_DIR"):
        git_dir = Path(given).expanduser().absolute()
        config = git_config(git_dir)
        if "core.worktree" in config:
            top = _worktree(git_dir, config["core.worktree"], home)
            yield WorkTree(top, f"core.worktree of {git_dir}, the GIT_DIR in the environment", True)
        elif not _true(config.get("core.bare", "false")) and not environ.get("GIT_WORK_TREE"):
            how = f"GIT_DIR={git_dir} in the environment: the folder git runs in"
            yield WorkTree(Path.cwd(), how, True)
    for git_dir in _dotfiles_repositories(home, environ):
        config = git_config(git_dir)
        if "core.worktree" in config:
            top = _worktree(git_dir, config["core.worktree"], home)
            yield WorkTree(top, f"core.worktree of the repository {git_dir}", True)
        elif git_dir.parent == home and _true(config.get("core.bare", "false")):
            sign = _used_with_a_work_tree(git_dir, config)
            if sign is not None:
                yield WorkTree(
                    home,
                    f"the bare repository {git_dir}, {sign}: used as git --git-dir={git_dir} "
                    f"--work-tree={home}",
                    True,
                )


def _dotfiles_repositories(home: Path, environ: Mapping[str, str]) -> Iterator[Path]:
    """The git dirs directly in ``home``, then yadm's and vcsh's (by the XDG base directory
    rule: ``$XDG_DATA_HOME``, ``$XDG_CONFIG_HOME`` when absolute, else their defaults)."""
    with contextlib.suppress(OSError):
        for entry in sorted(os.scandir(home), key=lambda e: e.name):
            if entry.is_dir() and _is_git_dir(Path(entry.path)):
                yield Path(entry.path)
    data = _xdg(environ, "XDG_DATA_HOME", home / ".local" / "share")
    if _is_git_dir(data / "yadm" / "repo.git"):
        yield data / "yadm" / "repo.git"
    vcsh = _xdg(environ, "XDG_CONFIG_HOME", home / ".config") / "vcsh" / "repo.d"
    with contextlib.suppress(OSError):
        for entry in sorted(os.scandir(vcsh), key=lambda e: e.name):
            if _is_git_dir(Path(entry.path)):
                yield Path(entry.path)


def _xdg(environ: Mapping[str, str], name: str, default: Path) -> Path:
    """The XDG base folder ``name`` when the environment gives it absolute, else ``default``."""
    given = environ.get(name, "")
    return Path(given) if given and Path(given).is_absolute() else default


def _is_git_dir(folder: Path) -> bool:
    """Whether ``folder`` is a git dir (a bare repository, or a ``.git`` folder): it holds the
    ``HEAD`` file and the ``objects`` and ``refs`` folders git requires."""
    return (
        (folder / "HEAD").is_file() and (folder / "objects").is_dir() and (folder / "refs").is_dir()
    )


def _used_with_a_work_tree(git_dir: Path, config: Mapping[str, str]) -> str | None:
    """How the bare repository ``git_dir`` shows it is used with a work tree, or None: an
    index (only a work tree's ``add``, ``checkout`` or ``reset`` writes one) or
    ``status.showUntrackedFiles`` set to ``no``."""
    if (git_dir / "index").is_file():
        return "which has an index"
    shown = config.get("status.showuntrackedfiles", "").lower()
    if shown in {"no", "false", "off", "0"}:
        return "whose status.showUntrackedFiles is no"
    return None


def _worktree(git_dir: Path, value: str, home: Path) -> Path:
    """A ``core.worktree`` ``value``: ``~/`` is the home, a relative one lies in ``git_dir``."""
    if value == "~" or value.startswith("~/"):
        return home / value[2:]
    return Path(os.path.normpath(git_dir / value))


def _true(value: str) -> bool:
    """A git boolean (``true``, ``yes``, ``on``, ``1``; a key with no ``=`` is true)."""
    return value.lower() in {"true", "yes", "on", "1", ""}


def git_config(git_dir: Path) -> dict[str, str]:
    """The settings of ``<git_dir>/config`` without a subsection, as ``{"core.worktree":
    "/home/ada", "core.bare": "true", "status.showuntrackedfiles": "no"}`` (section and key
    lowercased as git compares them; a key with no ``=`` maps to ``""``, which git reads as
    true; the last one given wins; double quotes and ``\\``-escapes undone, a ``#`` or ``;``
    comment cut off). ``{}`` when the file cannot be read. Includes are not followed."""
    try:
        text = (git_dir / "config").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    found: dict[str, str] = {}
    section: str | None = None
    for raw in text.split("\n"):  # git reads its settings line by line at LF
        line = raw.strip()
        if line.startswith("["):
            name = line[1 : line.find("]")] if "]" in line else ""
            section = None if '"' in name or "." in name else name.strip().lower()
            continue
        if section is None or not line or line[0] in "#;":
            continue
        key, equals, value = line.partition("=")
        found[f"{section}.{key.strip().lower()}"] = _value(value) if equals else ""
    return found


def _value(raw: str) -> str:
    """A git config value: quotes and ``\\``-escapes undone, a comment outside quotes cut."""
    kept: list[str] = []
    quoted = False
    characters = iter(raw.strip())
    for character in characters:
        if character == "\\":
            following = next(characters, "")
            kept.append({"n": "\n", "t": "\t", "b": "\b"}.get(following, following))
        elif character == '"':
            quoted = not quoted
        elif character in "#;" and not quoted:
            break
        else:
            kept.append(character)
    return "".join(kept).strip()
