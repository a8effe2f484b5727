"""Settings files an installer changes: read safely, back up, write atomically, show the diff (H-3).

Every installer plans its change as a list of :class:`FileChange` (old text, new text) and
:func:`apply_changes` carries them out: a file whose text does not change is not touched (so a
second install changes nothing, and makes no backup); a changed file is first copied to
``<name>.harness-memory-backup-<UTC time>`` beside it, then replaced atomically with its
permission bits kept. :func:`describe` renders the plan as unified diffs for ``--dry-run``.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory_core.atomic import atomic_write_bytes

__all__ = [
    "BACKUP_SUFFIX",
    "FileChange",
    "SettingsFileError",
    "apply_changes",
    "describe",
    "dump_json",
    "read_json_object",
    "read_text",
]

BACKUP_SUFFIX = ".harness-memory-backup-"
_READ_CAP = 16 * 1024 * 1024


class SettingsFileError(Exception):
    """A harness settings file cannot be read or understood; it is left exactly as it was."""


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file an install plans to write: ``old`` is None when the file does not exist yet."""

    path: Path
    old: str | None
    new: str

    @property
    def changed(self) -> bool:
        """Whether writing ``new`` would change the file."""
        return self.old != self.new


def read_text(path: Path) -> str | None:
    """The file's UTF-8 text, or None when it does not exist.

    Raises :class:`SettingsFileError` when it is not a regular file, cannot be read, is larger
    than 16 MiB or is not UTF-8.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SettingsFileError(f"cannot read {path}: {error.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise SettingsFileError(f"{path} is not a regular file")
    try:
        with path.open("rb") as handle:
            raw = handle.read(_READ_CAP + 1)
    except OSError as error:
        raise SettingsFileError(f"cannot read {path}: {error.strerror}") from None
    if len(raw) > _READ_CAP:
        raise SettingsFileError(f"{path} is larger than {_READ_CAP} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SettingsFileError(f"{path} is not UTF-8 text") from None


def read_json_object(path: Path) -> tuple[str | None, dict[str, Any]]:
    """``(text, object)`` of a JSON settings file; ``(None, {})`` when it does not exist.

    A blank file counts as ``{}``. Raises :class:`SettingsFileError` for anything but a JSON
    object (JSON with comments included: it is not rewritten, so nothing of it can be lost).
    """
    text = read_text(path)
    if text is None or not text.strip():
        return text, {}
    try:
        document = json.loads(text)
    except ValueError as error:
        raise SettingsFileError(
            f"{path} is not valid JSON ({error}); fix it or add the hooks by hand "
            "(see the harness-memory README)"
        ) from None
    if not isinstance(document, dict):
        raise SettingsFileError(f"{path} holds a JSON {type(document).__name__}, not an object")
    return text, document


def dump_json(document: dict[str, Any]) -> str:
    """The settings object as the file's new text: two-space indent, a final line end."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def describe(changes: list[FileChange]) -> str:
    """The planned changes as unified diffs; one line per file that stays the same."""
    parts: list[str] = []
    for change in changes:
        if not change.changed:
            parts.append(f"unchanged: {change.path}\n")
            continue
        old = [] if change.old is None else change.old.splitlines(keepends=True)
        label = "/dev/null" if change.old is None else str(change.path)
        diff = difflib.unified_diff(
            old, change.new.splitlines(keepends=True), fromfile=label, tofile=str(change.path)
        )
        parts.append("".join(diff))
    return "".join(parts)


def apply_changes(changes: list[FileChange], *, now: datetime | None = None) -> list[Path]:
    """Write every changed file (backup first, atomic replace); returns the backups made.

    Each file is checked to still hold ``old`` right before it is replaced, so an edit made
    meanwhile is never overwritten (:class:`SettingsFileError`). Raises ``OSError`` when a
    folder cannot be written; files already written stay written and keep their backups.
    """
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    backups: list[Path] = []
    for change in changes:
        if not change.changed:
            continue
        if read_text(change.path) != change.old:
            raise SettingsFileError(f"{change.path} changed while installing; run it again")
        mode = 0o600  # a new settings file may hold a token: private until the user widens it
        if change.old is not None:
            mode = stat.S_IMODE(change.path.stat().st_mode)
            backup = change.path.with_name(change.path.name + BACKUP_SUFFIX + stamp)
            shutil.copy2(change.path, backup)
            backups.append(backup)
        else:
            change.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(change.path, change.new.encode("utf-8"), mode=mode)
    return backups


def same_path(left: str, right: str) -> bool:
    """Whether two path strings name the same place (normalised, not resolved)."""
    return os.path.normpath(left) == os.path.normpath(right)
