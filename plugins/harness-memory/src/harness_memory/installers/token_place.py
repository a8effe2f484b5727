"""Where an install keeps the bearer token: never inside a git work tree (H-7).

The token file lies in the install's state folder beside the harness's settings
(``~/.claude/harness-memory/token``), whose ``.gitignore`` (``*``) leaves it out of
``git add -A``. A settings folder kept in a dotfiles repository (``~/.codex`` linked into
``~/dotfiles``, a home that is itself a work tree) still took it into a commit by ``git add
-f``, by ``git add -A`` under another ignore setup, or by ``git commit -a`` once it had been
tracked: no ignore rule stops those. So when the state folder lies in a git work tree (a
folder at or above it, as written or with its symlinks resolved, holds ``.git``), the token
file goes into the user's config folder instead (``$XDG_CONFIG_HOME``, by default
``~/.config``: ``harness-memory/tokens/<settings folder>-<digest>``, ``0600`` in ``0700``
folders) and the hook commands name it there with ``--token-file``; a token file an earlier
install left in the work tree is removed. When that folder lies in a work tree too, the
install refuses, naming both and what to do (:class:`TokenPlaceError`): nothing is written.

A work tree whose ``.git`` lies elsewhere (``git --git-dir=~/.dotfiles --work-tree=~``) shows
no ``.git`` on the way and is not seen; ``git add -f`` there is the user's own choice.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from collections.abc import Mapping
from pathlib import Path

from harness_memory.installers.files import SettingsFileError
from harness_memory.installers.record import STATE_FOLDER, TOKEN_NAME

__all__ = ["TOKENS_FOLDER", "TokenPlaceError", "config_home", "token_place", "work_tree_of"]

TOKENS_FOLDER = ("harness-memory", "tokens")
"""The folders in the user's config folder that hold the token files kept out of work trees."""


class TokenPlaceError(SettingsFileError):
    """Every place an install could keep the token lies in a git work tree (H-7); the message
    names them and what to do. Raised before anything is written."""


def work_tree_of(folder: Path) -> Path | None:
    """The git work tree ``folder`` (absolute; it need not exist) lies in: the nearest folder at
    or above it holding a ``.git`` entry (a folder, or the file of a linked worktree or
    submodule), looked for along ``folder`` as written and with its symlinks resolved (a
    settings folder linked into a dotfiles repository lies in that repository's work tree).
    None when neither way meets one. Never raises ``OSError``."""
    ways = [folder.absolute()]
    with contextlib.suppress(OSError, RuntimeError):  # a symlink loop on the way
        ways.append(folder.resolve())
    for way in ways:
        for above in (way, *way.parents):
            if os.path.lexists(above / ".git"):
                return above
    return None


def config_home(home: Path, environ: Mapping[str, str]) -> Path:
    """The user's config folder: ``$XDG_CONFIG_HOME`` when it is an absolute path (the XDG
    base directory rule: a relative one is ignored), else ``<home>/.config``."""
    given = environ.get("XDG_CONFIG_HOME", "")
    return Path(given) if given and Path(given).is_absolute() else home / ".config"


def token_place(settings_folder: Path, home: Path, environ: Mapping[str, str]) -> Path:
    """The token file for the hooks of ``settings_folder`` (``~/.claude``, ``~/.codex``,
    ``~/.gemini`` …): its state folder's ``token`` unless that lies in a git work tree, else
    ``<config home>/harness-memory/tokens/<name>-<12 hex digits>`` (:func:`config_home`; the
    digest of the settings folder's absolute path, so each settings folder has its own).
    Raises :class:`TokenPlaceError` when that lies in a work tree too."""
    state = settings_folder / STATE_FOLDER
    tree = work_tree_of(state)
    if tree is None:
        return state / TOKEN_NAME
    folder = config_home(home, environ).joinpath(*TOKENS_FOLDER)
    also = work_tree_of(folder)
    if also is not None:
        raise TokenPlaceError(
            f"the bearer token would lie in a git work tree: {state} is in {tree}, and "
            f"{folder}, where the install keeps it then, is in {also}; a .gitignore does not "
            "stop `git add -f` or `git commit -a` from taking it into a commit. Set "
            "XDG_CONFIG_HOME to a folder outside every repository (the token goes into "
            "its harness-memory/tokens), or keep the settings folder out of the repository"
        )
    absolute = os.fsencode(settings_folder.absolute())
    digest = hashlib.sha256(absolute).hexdigest()[:12]
    name = re.sub(r"[^A-Za-z0-9_-]", "", settings_folder.name)[:32] or "settings"
    return folder / f"{name}-{digest}"
