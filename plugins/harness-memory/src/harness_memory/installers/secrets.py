"""The bearer token in a harness's settings: where an install put it, and hiding it (H-7).

An install writes the token where the harness gives hooks their environment (Claude Code's
``env.HARNESS_MEMORY_TOKEN``) or, for harnesses whose hook settings have none (Codex CLI, Gemini
CLI), into a 0600 token file the hook command names (:func:`~harness_memory.installers.record.
token_plan`). Installs before that wrote ``--token T`` into the hook commands, where every local
user could read it (``ps``); a new install replaces those commands. :func:`tokens_in` finds every
token a settings document holds in ``env`` or in such a command (so the backup of the file an
upgrade rewrites is private too); :func:`holds` tells whether a file's text holds one (so it
must be readable by its owner only) and :func:`mask` hides each in any text shown to a person
(the ``--dry-run`` diff, ``status``): the token itself, shell-quoted as a command holds it, and
either JSON-escaped.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness_memory.installers.spec import flag_values, our_commands

if TYPE_CHECKING:
    from tomlkit import TOMLDocument

__all__ = [
    "MASK",
    "TOKEN_ENV",
    "folder_kept_open",
    "folder_left_open",
    "holds",
    "keeps_owner_only",
    "mask",
    "private_mode",
    "tokens_in",
    "toml_tokens_in",
]

TOKEN_ENV = "HARNESS_MEMORY_TOKEN"  # noqa: S105 (a variable name, not a password)
MASK = "<token hidden>"


def tokens_in(document: Any, harness: str) -> set[str]:
    """Every token ``document`` (a harness's settings object) holds: ``env.HARNESS_MEMORY_TOKEN``
    and the ``--token`` values of our ``harness`` hook commands. Never raises on odd shapes."""
    found: set[str] = set()
    if not isinstance(document, dict):
        return found
    env = document.get("env")
    if isinstance(env, dict) and isinstance(env.get(TOKEN_ENV), str) and env[TOKEN_ENV]:
        found.add(env[TOKEN_ENV])
    for command in our_commands(document, harness):
        found.update(flag_values(command, "--token"))
    return found


def toml_tokens_in(document: TOMLDocument) -> set[str]:
    """Every token a Codex CLI TOML settings ``document`` (``config.toml``, a profile file, as
    :func:`~harness_memory.installers.settings_text.parse_toml` reads it) holds: the
    ``--token`` values of our commands in its inline ``[hooks]`` tables (Codex runs those as it
    runs ``hooks.json``'s) and ``shell_environment_policy.set.HARNESS_MEMORY_TOKEN``. A file an
    install rewrites holding one is made private and masked in every diff (H-7) whether or not
    it is the token the install is given. Never raises on odd shapes."""
    plain = document.unwrap()
    found = tokens_in(plain, "codex")
    policy = plain.get("shell_environment_policy")
    values = policy.get("set") if isinstance(policy, dict) else None
    if isinstance(values, dict) and isinstance(values.get(TOKEN_ENV), str) and values[TOKEN_ENV]:
        found.add(values[TOKEN_ENV])
    return found


def _renderings(secret: str) -> set[str]:
    """How ``secret`` can appear in a settings file's text: as is, shell-quoted, JSON-escaped."""
    forms = {secret, shlex.quote(secret)}
    for form in list(forms):
        forms.add(json.dumps(form, ensure_ascii=False)[1:-1])
        forms.add(json.dumps(form)[1:-1])
    return forms


def holds(text: str | None, secrets: Iterable[str]) -> bool:
    """Whether ``text`` holds any of ``secrets`` in any of its renderings."""
    if not text:
        return False
    return any(form in text for secret in secrets for form in _renderings(secret))


def mask(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every rendering of every secret replaced by :data:`MASK` (longest first)."""
    forms = sorted({f for s in secrets if s for f in _renderings(s)}, key=len, reverse=True)
    if not forms:
        return text
    return re.sub("|".join(re.escape(form) for form in forms), MASK, text)


def private_mode(mode: int) -> int:
    """``mode`` with every group and other bit cleared (a file holding a token: H-7)."""
    return mode & ~0o077


def folder_kept_open(folder: Path) -> str | None:
    """Why the existing ``folder`` holding a token file, which other users may enter (a group
    or other bit), is not the install's to make owner-only (A-10): reached through a symlink
    (``folder`` or the one holding it: a tokens folder linked into a dotfiles repository that
    holds other files) or another account's. None when it is owner-only already or the
    install makes it so when it writes (a plan's change, said by a dry run; a disk that keeps
    no folder modes is found then, by the mode read back, and warned about). Reads modes
    only: nothing is made or changed here, so a dry run writes nothing (H-3)."""
    try:
        info = folder.stat()
        if not info.st_mode & 0o077:
            return None
        if folder.is_symlink() or folder.parent.is_symlink():
            return f"it is reached through a symlink (to {os.path.realpath(folder)})"
    except OSError:
        return "it cannot be read here"
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        return "it is another account's"
    return None


def folder_left_open(folder: Path, mode: int, why: str) -> str:
    """The WARNING for a token file's ``folder`` left ``mode``, open to others, and ``why``
    (:func:`folder_kept_open`): the hooks accept the file, which is owner-only itself."""
    return (
        f"WARNING: {folder} holds the bearer token file and other users may enter it (mode "
        f"{mode:04o}): {why}, so the install leaves it so; the file itself is owner-only, "
        "which the hooks accept"
    )


def keeps_owner_only(folder: Path) -> bool:
    """Whether a file made owner-only (``0600``) in the existing ``folder`` shows as such: False
    on a disk that keeps no permission bits (exFAT, FAT, some network shares show every file
    as the mount's mode, ``0777``). Asked of an empty file, removed at once, *before* a token is
    written there (H-7): on such a disk a file holding it is every user's to open from the
    moment it exists, and to read once written, however soon it is removed (an open file stays
    readable), and its bytes stay on the disk. The kernel's own FAT and exFAT refuse a mode
    they cannot keep (``chmod`` fails ``EPERM`` unless mounted ``quiet``): False there too.
    Raises ``OSError`` when no file can be made there."""
    fd, name = tempfile.mkstemp(dir=folder, prefix=".harness-memory-probe.", suffix=".tmp")
    try:
        try:
            os.fchmod(fd, 0o600)
        except PermissionError:  # the disk cannot record owner-only: the kernel's FAT, exFAT
            return False
        return stat.S_IMODE(os.fstat(fd).st_mode) & 0o077 == 0
    finally:
        os.close(fd)
        Path(name).unlink()
