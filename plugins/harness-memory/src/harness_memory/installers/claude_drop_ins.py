"""Claude Code's managed settings as Claude Code reads them: ``managed-settings.json`` with the
drop-in files of the ``managed-settings.d`` folder beside it laid over it (H-3, H-7).

Claude Code 2.1 reads ``managed-settings.json`` first, then every file of
``managed-settings.d/`` whose name ends in ``.json`` and starts with no ``.`` (a file or a
link), in the order of their names, each merged over what came before: a later file's value
wins, objects merge key by key, lists are joined without repeats (Claude Code's settings docs;
its 2.1.332 bundle lists the folder, keeps ``.json`` names not starting with ``.``, sorts
them). A drop-in it cannot parse as a JSON object stops it before any Session starts (2.1.332,
measured: exit 1, "Managed settings document could not be parsed as a JSON object; none of its
settings are in effect. Fix or remove it."), so no hook runs. A drop-in it cannot read (a
link to a folder or in a loop, one larger than :data:`MAX_BYTES`) or a folder it cannot list
does not: it starts, says "Managed settings failed to load; policies from the failed source
are NOT in effect" and runs the hooks (2.1.332, measured), so that file is left out of the
merge (``unread``), for ``status`` to note. ``install`` and ``status`` judge
whether our hooks run by the merged settings (:func:`with_drop_ins`); a managed install
writes ``managed-settings.json`` alone and leaves every drop-in as it is.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from harness_memory.installers.files import (
    SettingsFileError,
    UnwritableSettings,
    read_json_object,
    read_text,
)
from harness_memory.installers.harness_json import HarnessRefuses, NotKnown, claude_code_loads
from harness_memory.installers.spec import our_commands

__all__ = [
    "DROP_IN_DIR",
    "MAX_BYTES",
    "ManagedSettings",
    "drop_in_paths",
    "read_drop_in",
    "read_managed",
    "refused_said",
    "source_of",
    "unread_said",
    "with_drop_ins",
]

DROP_IN_DIR = "managed-settings.d"
"""The drop-in folder Claude Code reads beside ``managed-settings.json``."""

MAX_BYTES = 2_097_152
"""The largest settings file, in bytes, Claude Code 2.1.332 reads (its bundle's settings
reader: ``size > 2097152`` is "File exceeds maxBytes limit", the file not loaded)."""


class ManagedSettings(NamedTuple):
    """Claude Code's managed settings as it reads them: the merged ``document``, the ``files``
    whose objects were merged, in order (``managed-settings.json`` first), the drop-ins it
    ``refused`` (``(path, why)``: one it reads but cannot parse as a JSON object, which stops
    Claude Code before any Session starts) and those it left ``unread`` (``(path, why)``: one
    it cannot read, or the folder it cannot list: Claude Code starts without their settings)."""

    document: dict[str, Any]
    files: list[tuple[Path, dict[str, Any]]]
    refused: list[tuple[Path, str]]
    unread: tuple[tuple[Path, str], ...] = ()


def drop_in_paths(folder: Path) -> list[Path]:
    """The drop-in files of ``folder`` (``managed-settings.d``) in the order Claude Code reads
    them: names ending in ``.json``, not starting with ``.``, files or links, sorted by name
    (Python sorts by code point, JavaScript by UTF-16 unit: they differ only past U+FFFF).
    ``[]`` when the folder is missing. Raises :class:`OSError` when it cannot be listed."""
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    names = [
        entry.name
        for entry in entries
        if entry.name.endswith(".json")
        and not entry.name.startswith(".")
        and (entry.is_symlink() or entry.is_file(follow_symlinks=False))
    ]
    return [folder / name for name in sorted(names)]


def read_drop_in(path: Path) -> dict[str, Any]:
    """The object of the Claude Code settings file ``path`` as Claude Code reads it (a UTF-16LE
    file too, a key twice: its last value). Raises :class:`SettingsFileError` when Claude
    Code reads no object from it."""
    try:
        return read_json_object(path, utf16=True)[1]
    except UnwritableSettings:
        try:
            return claude_code_loads(read_text(path) or "")
        except (HarnessRefuses, NotKnown) as error:
            raise SettingsFileError(f"{path}: {error}") from None


def with_drop_ins(
    path: Path,
    document: Mapping[str, Any],
    read: Callable[[Path], dict[str, Any]] = read_drop_in,
) -> ManagedSettings:
    """Claude Code's managed settings whose ``managed-settings.json`` at ``path`` holds
    ``document``, with every drop-in of ``managed-settings.d`` beside it (read by ``read``)
    laid over it in order (:func:`lay_over`); a drop-in ``read`` refuses is in ``refused``,
    one Claude Code cannot read (:func:`cannot_read`) or a folder it cannot list in
    ``unread``, each left out."""
    merged: dict[str, Any] = dict(document)
    files: list[tuple[Path, dict[str, Any]]] = [(path, dict(document))]
    refused: list[tuple[Path, str]] = []
    unread: list[tuple[Path, str]] = []
    folder = path.parent / DROP_IN_DIR
    try:
        paths = drop_in_paths(folder)
    except OSError as error:
        listed = f"cannot be listed ({error.strerror or error})"
        return ManagedSettings(merged, files, [], ((folder, listed),))
    for drop_in in paths:
        if why := cannot_read(drop_in):
            unread.append((drop_in, why))
            continue
        try:
            found = read(drop_in)
        except (SettingsFileError, OSError) as error:
            refused.append((drop_in, str(error)))
            continue
        merged = lay_over(merged, found)
        files.append((drop_in, found))
    return ManagedSettings(merged, files, refused, tuple(unread))


def managed_unread(path: Path) -> str | None:
    """Why Claude Code cannot read its ``managed-settings.json`` at ``path``
    (:func:`cannot_read`: it then starts without it, as without such a drop-in); None when it
    reads it, or there is no such file (nor a link in its place)."""
    return cannot_read(path) if os.path.lexists(path) else None


def read_managed(
    path: Path, read: Callable[[Path], dict[str, Any]] = read_drop_in
) -> ManagedSettings:
    """Claude Code's managed settings as it reads them from ``managed-settings.json`` at
    ``path`` (read by ``read``; a missing file reads as ``{}``) and the drop-ins beside it
    (:func:`with_drop_ins`); without that file when Claude Code cannot read it
    (:func:`without_unread`). Raises :class:`SettingsFileError` (or what ``read`` raises)
    when that file holds no object Claude Code reads."""
    if why := managed_unread(path):
        return without_unread(path, why, read)
    return with_drop_ins(path, read(path), read)


def without_unread(
    path: Path, why: str, read: Callable[[Path], dict[str, Any]] = read_drop_in
) -> ManagedSettings:
    """Claude Code's managed settings when it cannot read their ``managed-settings.json`` at
    ``path`` (``why``, :func:`managed_unread`): the drop-ins alone (:func:`with_drop_ins`), that
    file among those left ``unread`` first, never a setting of it in effect."""
    settings = with_drop_ins(path, {}, read)
    return settings._replace(files=settings.files[1:], unread=((path, why), *settings.unread))


def held_in_a_drop_in(
    path: Path, document: Mapping[str, Any], read: Callable[[Path], dict[str, Any]] = read_drop_in
) -> tuple[Path, dict[str, Any]] | None:
    """Where Claude Code's managed settings at ``path`` (``document``, holding no hook of
    ours) hold hooks of ours once their drop-ins are laid over, as Claude Code runs them:
    ``(the drop-in that holds them, the merged settings)``, the managed install kept there
    (H-3); None when no drop-in does."""
    settings = with_drop_ins(path, document, read)
    if not our_commands(settings.document, "claude-code"):
        return None
    return source_of(settings, "hooks", path), settings.document


def cannot_read(path: Path) -> str | None:
    """Why Claude Code cannot read the drop-in ``path`` (it then starts without it): a link
    that leads nowhere or in a loop, a folder, anything but a regular file, a file it may not
    open, one larger than :data:`MAX_BYTES`; None when it reads it."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            return "is a folder"
        if not stat.S_ISREG(info.st_mode):
            return "is not a regular file"
        if info.st_size > MAX_BYTES:
            return f"is larger than the {MAX_BYTES} bytes Claude Code reads ({info.st_size})"
        path.open("rb").close()
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    return None


def lay_over(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """``top`` merged over ``base`` as Claude Code merges its managed drop-ins: objects key by
    key, lists joined without repeating an equal item, anything else ``top``'s."""
    merged = dict(base)
    for key, value in top.items():
        below = merged.get(key)
        if isinstance(below, Mapping) and isinstance(value, Mapping):
            merged[key] = lay_over(below, value)
        elif isinstance(below, list) and isinstance(value, list):
            merged[key] = below + [item for item in value if item not in below]
        else:
            merged[key] = value
    return merged


def source_of(settings: ManagedSettings, key: str, default: Path) -> Path:
    """The file whose value of the top-level ``key`` Claude Code goes by (the last one holding
    it); ``default`` when none does."""
    holding = [path for path, found in settings.files if key in found]
    return holding[-1] if holding else default


def refused_said(path: Path, why: str) -> str:
    """The sentence for a drop-in ``path`` Claude Code reads but cannot parse as a JSON object
    (``why``): it refuses to start."""
    return (
        f"{path}, a drop-in of this machine's Claude Code managed settings, {_reason(path, why)}: "
        'Claude Code refuses to start with it ("none of its settings are in effect. Fix or '
        'remove it."), so no Session runs and none of these hooks; fix or remove it'
    )


def unread_said(path: Path, why: str) -> str:
    """The sentence for a drop-in (or the folder of them) ``path`` Claude Code cannot read
    (``why``): it starts without its settings."""
    return (
        f"{path}, of this machine's Claude Code managed settings, {why}: Claude Code starts "
        'without it ("Managed settings failed to load; policies from the failed source are NOT '
        'in effect"), so none of its settings are in effect'
    )


_INSTALL_WAYS = ("; fix it and run the command again", ": the file is written back")
"""Where a reading error's way on for an install begins (no install writes a drop-in)."""


def _reason(path: Path, why: str) -> str:
    """``why`` without the path it begins with, nor the way on it gives an install (this file
    is not one an install writes)."""
    prefix = f"{path}"
    text = why[len(prefix) :].lstrip(" :") if why.startswith(prefix) else why
    for way in _INSTALL_WAYS:
        text = text.split(way)[0]
    return text if text.startswith(("is ", "cannot ", "holds ")) else f"cannot be read ({text})"
