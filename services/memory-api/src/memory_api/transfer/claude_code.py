"""Finding Claude Code's own auto-memory folder of a Workspace (P-5, ``--from claude-code``).

How Claude Code (read from its shipped CLI, version 2.1.x) names the folder:

- the config dir is ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``;
- a user-level ``autoMemoryDirectory`` in ``<config dir>/settings.json`` replaces the whole
  location when Claude Code takes the value (an absolute path, or ``~/…`` inside the home:
  :func:`memory_core.claude_code_settings.auto_memory_directory`; a value it ignores leaves the
  default folder below); Claude Code ignores that setting in a project's checked-in settings
  for security, and so does this lookup;
- otherwise it is ``<config dir>/projects/<sanitized>/memory/``, where the sanitized name is
  derived from the project's base: the root of the git repository holding the Workspace (for a
  linked worktree the main working tree, so every worktree shares one memory; a repository as
  git tells one, :func:`git_project_root`), else the Workspace itself, spelt as on disk
  (:func:`_as_on_disk`: a decomposed accent is a letter and a mark); every character
  outside ``[a-zA-Z0-9]`` becomes ``-``; a name longer than 200 characters is cut to 200
  and gets ``-`` plus the base-36 absolute value of the path's 32-bit Java-style string hash
  appended.

Blocking (a few ``stat`` calls and file reads).
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path

from memory_core.claude_code_settings import auto_memory_directory

from memory_api.store.containment import NotRegularFileError, read_regular
from memory_api.transfer.sources import json_value, read_small_text

__all__ = [
    "MAX_SANITIZED_LENGTH",
    "claude_code_memory_dir",
    "config_dir",
    "git_project_root",
    "is_git_directory",
    "java_string_hash",
    "sanitize_path",
]

MAX_SANITIZED_LENGTH = 200
_UNSAFE = re.compile(r"[^a-zA-Z0-9]")
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def java_string_hash(text: str) -> int:
    """The signed 32-bit ``hash = hash * 31 + code unit`` over UTF-16 code units (JS/Java).

    >>> java_string_hash("abc")
    96354
    """
    value = 0
    data = text.encode("utf-16-le", "surrogatepass")
    for index in range(0, len(data), 2):
        unit = data[index] | (data[index + 1] << 8)
        value = (value * 31 + unit) & 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, rest = divmod(number, 36)
        digits = _BASE36[rest] + digits
        if number == 0:
            return digits


def sanitize_path(path: str) -> str:
    """Claude Code's folder name for a project path (see the module docstring).

    >>> sanitize_path("/home/ada/my app")
    '-home-ada-my-app'
    >>> sanitize_path(os.fsdecode(b"/srv/caf\\xe9"))  # not UTF-8: one U+FFFD, one '-'
    '-srv-caf-'
    """
    # A name that is not UTF-8 (held as surrogate escapes) reaches Claude Code (Node) with
    # each invalid sequence read as U+FFFD, as Python's "replace" reads it.
    path = path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    # Claude Code replaces per UTF-16 code unit: a character outside the BMP gives two '-'.
    units = len(path.encode("utf-16-le", "surrogatepass")) // 2
    name = _UNSAFE.sub(lambda m: "-" * (len(m.group(0).encode("utf-16-le")) // 2), path)
    if units <= MAX_SANITIZED_LENGTH:
        return name
    return f"{name[:MAX_SANITIZED_LENGTH]}-{_base36(abs(java_string_hash(path)))}"


def config_dir(env: Mapping[str, str]) -> Path:
    """Claude Code's config dir: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude`` (``$HOME`` first)."""
    configured = env.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    home = env.get("HOME")
    return (Path(home) if home else Path.home()) / ".claude"


_HEAD_READ = 255
"""Bytes of ``HEAD`` git reads to judge it (``validate_headref``: a 256-byte buffer)."""
_C_SPACE = b" \t\n\v\f\r"
_OBJECT_ID = re.compile(rb"[0-9a-fA-F]{40}")
"""A detached ``HEAD``: an object id, SHA-1 (40 hex digits) or SHA-256 (64, which start so)."""


def _valid_head(head: Path) -> bool:
    """git's ``validate_headref``: ``HEAD`` is a symlink to ``refs/…``, a file starting
    ``ref: refs/…`` (spaces allowed after ``ref:``), or a detached object id."""
    try:
        if head.is_symlink():
            return os.readlink(head).startswith("refs/")  # noqa: PTH115 - the link's own text
        data, _ = read_regular(head, _HEAD_READ)
    except (OSError, NotRegularFileError):
        return False
    if data.startswith(b"ref:"):
        return data[4:].lstrip(_C_SPACE).startswith(b"refs/")
    return _OBJECT_ID.match(data) is not None


def is_git_directory(folder: Path) -> bool:
    """git's ``is_git_directory`` (``setup.c``): whether git takes ``folder`` as a repository's
    git dir. ``HEAD`` must be valid (:func:`_valid_head`) and ``objects`` and ``refs`` must be
    searchable, in the common dir a ``commondir`` file names (a linked worktree's git dir keeps
    only its own ``HEAD``). An empty ``.git`` folder, such as the ``/tmp/.git`` the Codex CLI
    makes while it runs, is none: git looks further up, and so does :func:`git_project_root`.
    """
    if not _valid_head(folder / "HEAD"):
        return False
    named = read_small_text(folder / "commondir")
    common = folder / named.strip() if named is not None and named.strip() else folder
    return all(os.access(common / name, os.X_OK) for name in ("objects", "refs"))


def _gitfile_dir(git_file: Path) -> Path | None:
    """The git dir a ``.git`` file names (``gitdir: <path>``, relative to its folder), or None
    when it names none git would take (git then stops: "not a git repository")."""
    text = read_small_text(git_file)
    if text is None or not text.startswith("gitdir: "):  # git's read_gitfile: one space
        return None
    gitdir = Path(os.path.realpath(git_file.parent / text[len("gitdir: ") :].rstrip("\r\n")))
    return gitdir if is_git_directory(gitdir) else None


def _main_worktree(gitdir: Path, folder: Path) -> Path:
    """The main working tree of the linked worktree ``folder`` whose git dir is ``gitdir``
    (``<main>/.git/worktrees/<name>``, its ``commondir`` naming ``<main>/.git``); ``folder``
    itself for a submodule or a plain gitdir link."""
    common = read_small_text(gitdir / "commondir")
    if common is None:
        return folder
    common_dir = Path(os.path.realpath(gitdir / common.strip()))
    return common_dir.parent if common_dir.name == ".git" else folder


def git_project_root(workspace: Path) -> Path | None:
    """The git project root of ``workspace`` (real path), or None outside any repository.

    Found as git finds it (``setup_git_directory``): the nearest folder whose ``.git`` is a
    folder git takes as a repository (:func:`is_git_directory`), or a file naming one
    (``gitdir:``); for a linked worktree the main working tree. A ``.git`` folder that is no
    repository is passed over; a ``.git`` file that names none ends the search with None, as
    git stops there with an error. (Claude Code 2.1.332 itself counts any ``.git`` folder or
    file; a stray empty one above the Workspace, made for a moment by another tool, would send
    the import to a folder named after it that holds none of this Workspace's memory.)
    """
    for folder in (workspace, *workspace.parents):
        marker = folder / ".git"
        if marker.is_dir():
            if is_git_directory(marker):
                return folder
        elif marker.is_file():
            gitdir = _gitfile_dir(marker)
            return None if gitdir is None else _main_worktree(gitdir, folder)
    return None


def _user_setting(config: Path, home: Path) -> Path | None:
    """``autoMemoryDirectory`` of the user's ``settings.json`` as Claude Code takes it (``~/``
    is ``home``); None when unset or a value Claude Code ignores."""
    text = read_small_text(config / "settings.json")
    try:
        settings = None if text is None else json_value(text)
    except ValueError:
        return None
    value = settings.get("autoMemoryDirectory") if isinstance(settings, dict) else None
    return auto_memory_directory(value, home)


def claude_code_memory_dir(workspace: str, env: Mapping[str, str] | None = None) -> Path:
    """Return the folder where Claude Code keeps the auto memory of ``workspace``.

    ``env`` defaults to ``os.environ`` (``CLAUDE_CONFIG_DIR``, ``HOME``). The folder need not
    exist; the caller reports when it does not.
    """
    environment = os.environ if env is None else env
    config = config_dir(environment)
    home = environment.get("HOME")
    configured = _user_setting(config, Path(home) if home else Path.home())
    if configured is not None:
        return configured
    real = Path(os.path.realpath(workspace))
    base = git_project_root(real) or real
    name = sanitize_path(str(_as_on_disk(base)))
    return config / "projects" / name / "memory"


def _as_on_disk(path: Path) -> Path:
    """``path`` (absolute) with each name spelt as its folder lists it, in whichever Unicode
    normalization it was written (``cafe`` + U+0301 as macOS writes names, or ``café``):
    Claude Code names its folder from the working directory as the kernel gives it, each
    combining mark a ``-`` of its own (measured: ``test_e2e_p5_claude_code_memory_dir.py``),
    while a path typed on a disk that matches names in either form may be spelt in the other.
    A name no listing shows in another form (or a folder that cannot be listed) stays as
    given. One ``listdir`` per name that is not ASCII."""
    if str(path).isascii():
        return path
    current = Path(path.anchor)
    for part in path.parts[1:]:
        if not part.isascii():
            try:
                names = [entry.name for entry in current.iterdir()]
            except OSError:
                names = []
            if part not in names:
                wanted = unicodedata.normalize("NFC", part)
                same = (name for name in names if unicodedata.normalize("NFC", name) == wanted)
                part = next(same, part)
        current = current / part
    return current
