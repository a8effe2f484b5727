"""Finding Claude Code's own auto-memory folder of a Workspace (P-5, ``--from claude-code``).

How Claude Code (read from its shipped CLI, version 2.1.x) names the folder:

- the config dir is ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``;
- a user-level ``autoMemoryDirectory`` in ``<config dir>/settings.json`` replaces the whole
  location (``~/`` expanded); Claude Code ignores that setting in a project's checked-in
  settings for security, and so does this lookup;
- otherwise it is ``<config dir>/projects/<sanitized>/memory/``, where the sanitized name is
  derived from the project's base: the root of the git repository holding the Workspace (for a
  linked worktree the main working tree, so every worktree shares one memory), else the
  Workspace itself; every character outside ``[a-zA-Z0-9]`` becomes ``-``; a name longer than
  200 characters is cut to 200 and gets ``-`` plus the base-36 absolute value of the path's
  32-bit Java-style string hash appended.

Blocking (a few ``stat`` calls and file reads).
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path

from memory_api.transfer.sources import json_value, read_small_text

__all__ = [
    "MAX_SANITIZED_LENGTH",
    "claude_code_memory_dir",
    "config_dir",
    "git_project_root",
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
    """
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


def _main_worktree(git_file: Path) -> Path | None:
    """The main working tree of a linked worktree whose ``.git`` file is ``git_file``."""
    text = read_small_text(git_file)
    if text is None or not text.strip().startswith("gitdir:"):
        return None
    gitdir = (git_file.parent / text.strip().removeprefix("gitdir:").strip()).resolve()
    common = read_small_text(gitdir / "commondir")
    if common is None:
        return git_file.parent  # a submodule or a plain gitdir link: its own root
    common_dir = (gitdir / common.strip()).resolve()
    return common_dir.parent if common_dir.name == ".git" else git_file.parent


def git_project_root(workspace: Path) -> Path | None:
    """The git project root of ``workspace`` (real path), or None outside any repository.

    The nearest folder holding ``.git``; for a linked worktree (``.git`` is a file pointing
    into ``<main>/.git/worktrees/<name>``) the main working tree.
    """
    for folder in (workspace, *workspace.parents):
        marker = folder / ".git"
        if marker.is_dir():
            return folder
        if marker.is_file():
            return _main_worktree(marker) or folder
    return None


def _user_setting(config: Path) -> Path | None:
    """``autoMemoryDirectory`` of the user's ``settings.json``, expanded; None when unset."""
    text = read_small_text(config / "settings.json")
    try:
        settings = None if text is None else json_value(text)
    except ValueError:
        return None
    value = settings.get("autoMemoryDirectory") if isinstance(settings, dict) else None
    if not isinstance(value, str) or not value.strip():
        return None
    return Path(value.strip()).expanduser()


def claude_code_memory_dir(workspace: str, env: Mapping[str, str] | None = None) -> Path:
    """Return the folder where Claude Code keeps the auto memory of ``workspace``.

    ``env`` defaults to ``os.environ`` (``CLAUDE_CONFIG_DIR``, ``HOME``). The folder need not
    exist; the caller reports when it does not.
    """
    environment = os.environ if env is None else env
    config = config_dir(environment)
    configured = _user_setting(config)
    if configured is not None:
        return configured
    real = Path(os.path.realpath(workspace))
    base = git_project_root(real) or real
    name = sanitize_path(unicodedata.normalize("NFC", str(base)))
    return config / "projects" / name / "memory"
