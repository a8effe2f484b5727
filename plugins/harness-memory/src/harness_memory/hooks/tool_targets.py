"""The paths a coding agent's tool call would write, for the P-3 guard (harness-neutral).

Codex CLI and Gemini CLI write files through tools that take no single ``file_path``:

- a patch (Codex's ``apply_patch``) names every file it adds, updates, deletes or moves to on
  ``*** Add File:``, ``*** Update File:``, ``*** Delete File:`` and ``*** Move to:`` lines
  (:func:`patch_targets`);
- a shell command (Codex's ``Bash``/``exec_command``, Gemini's ``run_shell_command``) can write
  anywhere. :func:`shell_targets` finds every word of the command that names a path inside the
  memory root, so the guard can check each one like a file write. What it cannot see: a path
  built at run time (``$VAR``, ``$(…)``, ``cd`` then a relative name, a script that writes) —
  the harness README says what guards those (Codex's sandbox writable roots).

Nothing here reads the disk.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

__all__ = ["patch_targets", "shell_targets"]

_PATCH_TARGET_RE = re.compile(
    r"^\*\*\* (?:Add File|Update File|Delete File|Move to): (?P<path>.+?)\s*$", re.MULTILINE
)
# Characters that end a path inside one shell word: assignments (OUT=/x), redirections (>/x),
# separators the lexer left attached, command substitution, quotes the fallback split kept.
_WORD_SPLIT_RE = re.compile(r"[=<>;|&()`'\"]+")


def patch_targets(patch: str) -> list[str]:
    """Every path a Codex ``apply_patch`` patch writes, in order (relative ones as written)."""
    return [match.group("path") for match in _PATCH_TARGET_RE.finditer(patch)]


def shell_targets(command: str, roots: Sequence[str]) -> list[str]:
    """The words of ``command`` that name a path inside one of ``roots`` (absolute paths).

    A word counts from where a root starts in it (``--out=/root/x`` gives ``/root/x``); a
    ``~``-free, variable-free literal is all that can be recognised. Words are split the way a
    POSIX shell would (quotes removed); a command the lexer cannot split (an unclosed quote) is
    split at white space instead, so nothing is skipped.
    """
    prefixes = sorted({root.rstrip("/") for root in roots if root.strip("/")}, key=len)
    if not prefixes:
        return []
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        words = command.split()
    found: list[str] = []
    for word in words:
        for piece in _WORD_SPLIT_RE.split(word):
            found += _paths_in(piece, prefixes)
    return found


def _paths_in(piece: str, prefixes: list[str]) -> list[str]:
    """The path in ``piece`` that starts at a root, if the root is followed by ``/`` or ends it."""
    for prefix in prefixes:
        at = piece.find(prefix)
        while at != -1:
            end = at + len(prefix)
            if end == len(piece) or piece[end] == "/":
                return [piece[at:]]
            at = piece.find(prefix, at + 1)
    return []
