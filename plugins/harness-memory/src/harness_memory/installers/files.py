"""Settings files an installer changes: read safely, back up, write atomically, show the diff (H-3).

Every installer plans its change as a list of :class:`FileChange` (old text, new text) and
:func:`apply_changes` carries them out: a file whose text does not change is not touched (so a
second install changes nothing, and makes no backup); a changed file is first copied to
``<name>.harness-memory-backup-<UTC time>`` beside it, then replaced atomically with its
permission bits kept. Backups do not pile up: once every file is written, a backup holding
the same bytes as its file now does, or as a newer backup of it, is removed
(:func:`prune_backups`), so each earlier text is kept once; an uninstall keeps no copy of a
text an install wrote (:attr:`FileChange.ours`), so an install followed by an uninstall leaves
no backup. A settings file that is a symlink (a
dotfiles manager's) is written through: its target changes, the link stays; one with other hard
links, or one mounted over its name (a container's single-file bind mount), is rewritten in
place, so that every name gets the change. A file or backup
that holds the bearer token is made private, and no output shows a token (H-7).
:func:`describe` renders the plan as unified diffs for ``--dry-run``.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from glob import escape as glob_escape
from pathlib import Path
from secrets import token_hex
from typing import Any

from memory_core.atomic import atomic_write_bytes, make_dirs
from memory_core.byte_order import decode_marked, marked_text, not_text
from memory_core.read_only_mounts import on_read_only_mount
from tomlkit.exceptions import TOMLKitError
from tomlkit.toml_document import TOMLDocument

from harness_memory.installers import harness_json, json_values, jsonc
from harness_memory.installers.json_layout import layout_of
from harness_memory.installers.own_names import (
    KEPT_INFIX,
    LinkAtName,
    drop,
    keep_aside,
    link_at,
    put_back,
)
from harness_memory.installers.secrets import MASK, holds, keeps_owner_only, mask, private_mode
from harness_memory.installers.settings_text import (
    UTF16_MARK,
    decoded,
    encoded,
    line_ends_like,
    parse_toml,
    split_mark,
)

__all__ = [
    "BACKUP_SUFFIX",
    "Earlier",
    "FileChange",
    "SettingsFileError",
    "UnwritableSettings",
    "Written",
    "apply_changes",
    "backups_of",
    "change_target",
    "describe",
    "dump_json",
    "earlier_text",
    "has_comments_safely",
    "json_object",
    "mode_of",
    "owner_only",
    "prune_backups",
    "read_json_object",
    "read_text",
    "replace_bytes",
    "require_shapes",
    "toml_object",
    "write_target",
]

BACKUP_SUFFIX = ".harness-memory-backup-"
_READ_CAP = 16 * 1024 * 1024
NIX_STORE = Path("/nix/store")
"""Where Nix keeps its store (a real path): read-only by its modes everywhere, and mounted
read-only on NixOS only."""


class SettingsFileError(Exception):
    """A harness settings file cannot be read or understood; it is left exactly as it was."""


class UnwritableSettings(SettingsFileError):
    """A settings file its harness reads but an install or uninstall could not write back as it
    was (a key twice in one object, a number beyond a double: ``reason``, for a person; ``what``
    the file holds, said without the rewrite). Only a
    command that rewrites the file is stopped by it; ``status`` reads it as the harness does
    (:mod:`~harness_memory.installers.harness_json`)."""

    def __init__(self, path: Path, reason: str, what: str | None = None) -> None:
        super().__init__(
            f"{path} cannot be written back as it is: {reason}; fix it and run the command "
            "again, or add (install) or take out (uninstall) the hooks by hand (see the "
            "harness-memory README)"
        )
        self.path = path
        self.what = reason if what is None else what
        """What the file holds, without what a rewrite would make of it."""


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file an install plans to write: ``old`` is None when the file does not exist yet."""

    path: Path
    old: str | None
    new: str
    secrets: frozenset[str] = frozenset()
    """Tokens either text holds: masked in every output, and a file holding one is private."""
    backup: bool = True
    """Whether the old text is kept in a backup (not for this plugin's own state files)."""
    ours: bool | None = None
    """For an uninstall: True when the old text is one an install wrote (its record says so),
    so no backup of it is kept (``backup`` False): it holds nothing of the user's; False when
    it is not (the user changed the file since); None when no record says (an install from
    before the record kept what it wrote, or a file no install wrote)."""
    create_mode: int = 0o600
    """The mode of the file when the change creates it: private, since it may hold a token;
    ``0o644`` only for a file every user's harness must read (managed settings): the install
    warns when other users cannot read such a file or enter a folder above it."""
    harness_settings: bool = False
    """Whether this is a harness's settings file (set by the claude_code, codex and gemini
    planners), one a dotfiles manager may own: refused when its owner made it read-only
    (:func:`check_writable`). False for the plugin's own files (token, record, ``.gitignore``),
    which no manager keeps and an uninstall removes."""
    mode: int | None = None
    """The mode to give the file whatever it has now: an uninstall giving the file back as it
    was before the install (:func:`earlier_text`), when the install made it private for the
    token it no longer holds. None: keep the file's mode."""
    loose: bool = False
    """Whether the file holds ``new`` already but other users may read it (a token file made
    ``0644``, an ACL entry, whose group bits show its mask), or enter its folder that the
    install can make owner-only (:attr:`private_folder`): it is written all the same, and so
    made owner-only again (A-10, H-7)."""
    same_file: bool = False
    """Whether this own file (the token file) is a hard link holding :attr:`new` already (a
    snapshot's ``cp -al``): it is kept, never replaced, and only its mode narrowed in place
    (through a descriptor opened ``O_NOFOLLOW``), which its other names share (H-7, A-10)."""
    private_folder: bool = False
    """Whether the folder of a :attr:`loose` file is made owner-only with it: one other users
    may enter that the install can make so (not one reached through a symlink: A-10,
    :func:`~harness_memory.installers.secrets.folder_kept_open`)."""
    record_of: Path | None = None
    """For a token's service record (A-10): the token file it belongs to. It is written just
    before that file's change (whatever the order of the changes), on a disk first asked to
    keep owner-only modes, as the token is: between the two writes no hook pairs a token
    with another service's record."""
    clears: bool = False
    """For a token's service record: whether the old token in :attr:`record_of` (another
    service's, or none recorded) is moved aside (renamed to a hidden name in its folder, read
    by no hook) before the record is written, dropped once every change is written, or put
    back when one fails (A-10)."""

    @property
    def changed(self) -> bool:
        """Whether writing ``new`` would change the file (or its mode: :attr:`loose`)."""
        return self.old != self.new or self.loose

    def mode_after(self, old_mode: int | None) -> int:
        """The permission bits the file gets: :attr:`create_mode` for a new file, else the old
        ones; group and other bits cleared when the new text holds a token (H-7)."""
        base = self.create_mode if old_mode is None else old_mode
        base = base if self.mode is None else self.mode
        return private_mode(base) if holds(self.new, self.secrets) else base


def read_text(path: Path) -> str | None:
    """The file's text (UTF-8, or UTF-16LE behind its byte order mark:
    :func:`~harness_memory.installers.settings_text.decoded`), or None when it does not exist.

    Raises :class:`SettingsFileError` when it is not a regular file, cannot be read, is larger
    than 16 MiB or is neither.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SettingsFileError(f"cannot read {path}: {error.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise SettingsFileError(f"{_named(path, write_target(path))} is not a regular file")
    try:
        with path.open("rb") as handle:
            raw = handle.read(_READ_CAP + 1)
    except OSError as error:
        raise SettingsFileError(
            f"cannot read {_named(path, write_target(path))}: {error.strerror}"
        ) from None
    if len(raw) > _READ_CAP:
        raise SettingsFileError(
            f"{_named(path, write_target(path))} is larger than {_READ_CAP} bytes"
        )
    try:
        return decoded(raw)
    except UnicodeDecodeError:
        raise SettingsFileError(f"{_named(path, write_target(path))} is {_not_read(raw)}") from None
    except ValueError as error:
        raise SettingsFileError(f"{_named(path, write_target(path))}: {error}") from None


def _not_read(raw: bytes) -> str:
    """What the bytes ``raw`` of a settings file :func:`decoded` does not read are: ``"not the
    UTF-16 little-endian text its byte order mark (FF FE) says (byte 0x0a at offset 41:
    truncated data)"`` (an odd byte, a lone surrogate), ``"not UTF-8 text (byte …)"``, or the
    text another byte order mark names (UTF-16BE, UTF-32BE, UTF-32LE), which no harness reads
    settings from (measured for Claude Code: :func:`~harness_memory.installers.
    workspace_switches.claude_code_settings`; Codex CLI and Gemini CLI read UTF-8 only)."""
    try:
        decode_marked(raw)
    except UnicodeDecodeError as error:
        return not_text(error)
    return f"{marked_text(raw)}, which no harness reads settings from: save it as UTF-8"


def read_json_object(
    path: Path, *, comments: bool = False, utf16: bool = False
) -> tuple[str | None, dict[str, Any]]:
    """``(text, object)`` of a JSON settings file; ``(None, {})`` when it does not exist.

    A UTF-16LE file is read only with ``utf16`` (Claude Code's settings, which Claude Code
    reads so: :mod:`~harness_memory.installers.settings_text`), its text then starting with
    :data:`~harness_memory.installers.settings_text.UTF16_MARK`; otherwise it is refused as
    the harness (Gemini CLI, Codex CLI's ``hooks.json``) reads UTF-8 only.

    A blank file counts as ``{}``. With ``comments`` (a harness that reads its settings with
    ``//`` and ``/* */`` comments: Gemini CLI) a commented file is read too
    (:func:`~harness_memory.installers.jsonc.loads`); its changes are then made in its text
    (:func:`dump_json` with ``comments``). Raises :class:`SettingsFileError` for anything but a
    JSON object, naming a comment's line when the file holds one and ``comments`` is off (it
    is not rewritten, so no comment can be lost); :class:`UnwritableSettings` (one) for a file
    the harness reads that could not be written back as it is (a key twice in one object).
    """
    text = read_text(path)
    return text, json_object(text, path, comments=comments, utf16=utf16)


def json_object(
    text: str | None, path: Path, *, comments: bool = False, utf16: bool = False
) -> dict[str, Any]:
    """The object of a JSON settings file's ``text`` (None, blank: ``{}``), read as
    :func:`read_json_object` reads it (``comments``, ``utf16``, the same errors naming
    ``path``): for a text already read (a backup whose digest was checked)."""
    if text is not None and text.startswith(UTF16_MARK) and not utf16:
        raise SettingsFileError(
            f"{path} is UTF-16 text, and the harness reads it as UTF-8 only: save it as UTF-8"
        )
    if text is None or not (split_mark(text)[1] or "").strip():
        return {}
    try:
        document = json_values.loads(text)
    except json_values.UnwritableJson as error:
        raise UnwritableSettings(path, str(error), error.what) from None
    except json.JSONDecodeError as error:
        if comments and has_comments_safely(text):
            try:
                document = jsonc.loads(text)
            except jsonc.JsoncError as failure:
                if _gemini_reads(text):  # a key twice: Gemini CLI keeps the last
                    raise UnwritableSettings(path, str(failure)) from None
                raise SettingsFileError(
                    f"{path} is not valid JSON ({failure}), which Gemini CLI cannot read "
                    f"either; {_FIX_IT}"
                ) from None
            if not isinstance(document, dict):
                raise SettingsFileError(
                    f"{path} holds {json_values.kind(document)}, not a JSON object"
                ) from None
            return document
        if text.startswith(("//", "/*"), error.pos):
            raise SettingsFileError(
                f"{path} holds a comment (line {error.lineno}): the file is written back as "
                "plain JSON, which would drop it; take the comments out and run the command "
                "again, or add (install) or take out (uninstall) the hooks by hand (see the "
                "harness-memory README)"
            ) from None
        raise SettingsFileError(f"{path} is not valid JSON ({error}); {_FIX_IT}") from None
    if not isinstance(document, dict):
        raise SettingsFileError(f"{path} holds {json_values.kind(document)}, not a JSON object")
    return document


def toml_object(text: str | None, path: Path) -> TOMLDocument:
    """The TOML document of a Codex CLI settings file's ``text`` (None: an empty one), as
    :func:`~harness_memory.installers.settings_text.parse_toml` reads it; raises
    :class:`SettingsFileError` naming ``path`` for text that is no TOML Codex CLI reads."""
    try:
        return parse_toml(text)
    except TOMLKitError as error:
        raise SettingsFileError(f"{path} is not valid TOML ({error})") from None


_FIX_IT = (
    "fix it and run the command again, or add (install) or take out (uninstall) the hooks by "
    "hand (see the harness-memory README)"
)
"""What to do about a settings file that is not valid JSON: nothing was written to it."""


def _gemini_reads(text: str) -> bool:
    """Whether Gemini CLI reads a settings object from ``text``."""
    try:
        harness_json.gemini_loads(text)
    except ValueError:
        return False
    return True


def require_shapes(document: Any, source: object, shapes: dict[str, type]) -> None:
    """Raise :class:`SettingsFileError` (naming ``source``) when a dotted key of ``shapes`` is in
    ``document`` with a value of another type (``"permissions": 3``, ``"allow": "x"``): the
    install would otherwise replace the user's value with its own; it is not guessed at."""
    for name, kind in shapes.items():
        value: Any = document
        for key in name.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        if value is not None and not isinstance(value, kind):
            wanted = "an object" if kind is dict else "a list"
            raise SettingsFileError(f"{source}: {name} is not {wanted}")


def dump_json(
    document: dict[str, Any], like: str | None = None, *, path: Path | None = None
) -> str:
    """The settings object as the file's new text, laid out as ``like`` (the file's text now)
    is: compact, four spaces or a tab, its final line end or none
    (:func:`~harness_memory.installers.json_layout.layout_of`); two-space indent and a final
    line end for a new file or one no layout reproduces. A ``like`` holding comments is edited
    in place instead (:func:`~harness_memory.installers.jsonc.edit`): every byte outside the
    members that change stays; :class:`SettingsFileError` (naming ``path``) when the change
    would cut a comment. A byte order mark ``like`` starts with stays in front
    (:mod:`~harness_memory.installers.settings_text`). A ``like`` that is ``document``
    already is given back as it is (an uninstall with nothing installed rewrites nothing)."""
    mark, like = split_mark(like)
    if like is not None and _holds(like, document):
        return mark + like  # nothing changes: byte for byte as it is (H-3)
    if like is not None and has_comments_safely(like):
        try:
            return mark + line_ends_like(jsonc.edit(like, document), like)
        except jsonc.JsoncError as error:
            raise SettingsFileError(
                f"{path or 'the settings file'}: {error}; every comment is kept, so move that "
                "comment, or add (install) or take out (uninstall) the hooks by hand (see the "
                "harness-memory README)"
            ) from None
    return mark + layout_of(like).render(document)


def _holds(text: str, document: dict[str, Any]) -> bool:
    """Whether the JSON ``text`` is ``document`` already, compared as JSON (its encoding, keys
    sorted): ``0``, ``1.0`` or ``"false"`` is not ``false`` nor ``1``, as Python's ``==`` has
    them (H-3: an install again writes ``false`` over a ``0``). False for one that is no JSON."""
    from memory_core.json_text import loads

    try:
        return _as_json(loads(text)) == _as_json(document)
    except (ValueError, TypeError, RecursionError):
        return False


def _as_json(value: object) -> str:
    """``value`` encoded as JSON, its keys sorted (their order is no difference in value)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)


def has_comments_safely(text: str) -> bool:
    """Whether ``text`` holds a ``//`` or ``/* */`` comment outside its strings (False for a
    text whose strings do not close: it is no JSON at all)."""
    try:
        return jsonc.has_comments(text)
    except jsonc.JsoncError:
        return False


@dataclass(frozen=True, slots=True)
class Earlier:
    """A settings file as a backup kept it: its ``text`` and permission bits (``mode``)."""

    text: str
    mode: int


def earlier_text(
    path: Path,
    document: dict[str, Any],
    *,
    comments: bool = False,
    by_us: Callable[[bytes], bool] | None = None,
) -> Earlier | None:
    """The text of ``path`` before an install changed it, when its JSON object is
    ``document``: byte for byte and with its mode (a hand-aligned file no layout reproduces
    included). With ``by_us`` (whether a backup's bytes are a text an install wrote), the
    newest backup that is not one is the text the installs started from, and only it is
    given back: an older one, however alike, misses what the user changed between installs
    (a comment, which no JSON object shows). Without it, the newest backup whose object is
    ``document``. None when there is no such backup (the user changed the file since), or
    when none can be read.

    A backup of a file that was empty (or blank) is the text of ``{}``: given back as it was.

    Empty hook containers do not count: an uninstall takes out an event list and a ``"hooks"``
    object its removal left empty, so a file that held ``"hooks": {}`` (or ``"SessionStart":
    []``) before the install is still the one the backup holds.

    >>> _without_empty_hooks({"hooks": {"SessionStart": []}, "theme": "dark"})
    {'theme': 'dark'}
    """
    wanted = json.dumps(_without_empty_hooks(document))  # keys in order, `true` not `1`
    for backup in reversed(backups_of(path)):
        try:
            data = backup.read_bytes()
            mode = mode_of(backup)
            if mode is None:
                continue
            if by_us is not None and data.strip() and by_us(data):
                continue
            text = decoded(data)
            if not text.strip():  # an empty file, read by an install as `{}`
                found: object = {}
            else:
                found = jsonc.loads(text) if comments else json_values.loads(text)
            if isinstance(found, dict) and json.dumps(_without_empty_hooks(found)) == wanted:
                return Earlier(text, mode)
        except (OSError, SettingsFileError, ValueError):
            continue
        if by_us is not None:
            return None
    return None


def _without_empty_hooks(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` without the event lists of its ``"hooks"`` object that are empty, and
    without that object when nothing is left in it (a copy; anything else as it is)."""
    hooks = document.get("hooks")
    if not isinstance(hooks, dict):
        return document
    kept = {event: groups for event, groups in hooks.items() if groups != []}
    rest = {key: value for key, value in document.items() if key != "hooks"}
    return {**document, "hooks": kept} if kept else rest


def describe(changes: list[FileChange]) -> str:
    """The planned changes as unified diffs, every token masked (H-7); one line per file that
    stays the same, one per file written through a symlink or made private, and one per own
    file whose name holds a link the run replaces (:func:`_own_link`), as the run says it."""
    parts: list[str] = []
    for change in changes:
        if not change.changed:
            parts.append(f"unchanged: {change.path}\n")
            continue
        old = "" if change.old is None else mask(change.old, change.secrets)
        new = mask(change.new, change.secrets)
        label = "/dev/null" if change.old is None else str(change.path)
        diff = difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=label,
            tofile=str(change.path),
        )
        only_token = f"{change.path}: only the bearer token changes ({MASK})\n"
        parts.append("".join(diff) or (only_token if change.old != change.new else ""))
        target = change_target(change)
        if (link := _own_link(change, target)) is not None:
            parts.append(
                f"({change.path} is {link.what}: the install replaces it by a file of its own, "
                f"mode {change.mode_after(None):04o}; {link.left})\n"
            )
            continue
        if target != change.path.absolute() and change.path.is_symlink():
            parts.append(f"(written through the symlink {change.path} -> {target})\n")
        old_mode = mode_of(target)
        mode = change.mode_after(old_mode)
        if old_mode is not None and mode != old_mode:
            parts.append(
                f"(mode of {target}: {old_mode:04o} -> {mode:04o}: it will hold the bearer token)\n"
            )
        folder = mode_of(target.parent) if change.private_folder else None
        if folder is not None and folder != private_mode(folder):
            parts.append(
                f"(mode of {target.parent}: {folder:04o} -> {private_mode(folder):04o}: it holds "
                "the bearer token)\n"
            )
    return "".join(parts)


def write_target(path: Path) -> Path:
    """The file a write to ``path`` must replace: the final target of a symlink (H-7), so the
    link (a dotfiles manager's) stays and its target gets the change; else ``path`` itself."""
    return Path(os.path.realpath(path))


def change_target(change: FileChange) -> Path:
    """The file ``change`` replaces: a harness's settings file's :func:`write_target` (written
    through its links, a dotfiles manager's); for the plugin's own files (token, record,
    ``.gitignore``), which no manager keeps, the name itself in its folder (its folders'
    links resolved), so a symlink or a hard link found there, to a file of someone else's, is
    replaced by a new file and never gets the token (H-7)."""
    if change.harness_settings:
        return write_target(change.path)
    return Path(os.path.realpath(change.path.parent)) / change.path.name


def _own_link(change: FileChange, target: Path) -> LinkAtName | None:
    """The link at the name of ``change``'s file when it is one of the plugin's own (its
    :func:`change_target` ``target``), which the write replaces by a new file rather than
    write through (:func:`~harness_memory.installers.own_names.link_at`); None for a harness's
    settings file, written through its links."""
    if change.harness_settings or change.same_file:
        return None
    token = change.new.strip()  # the token file's: its text is the token
    return link_at(target, frozenset({token}) if token in change.secrets else frozenset())


def mode_of(path: Path) -> int | None:
    """The permission bits of ``path`` (links followed), None when nothing can be looked at."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return None


@dataclass(frozen=True, slots=True)
class Written:
    """One file :func:`apply_changes` wrote: ``path`` as the harness names it, ``target`` the
    file replaced (a symlink's target), ``backup`` of the old text (None for a new file), the
    permission bits before (None for a new file) and after."""

    path: Path
    target: Path
    backup: Path | None
    old_mode: int | None
    mode: int
    pruned: tuple[Path, ...] = ()
    """Older backups removed as copies of the file now or of a newer one (:func:`prune_backups`)."""
    in_place: str | None = None
    """Why the file was rewritten in place rather than replaced (:func:`replace_bytes`), as
    said after its name (``has 2 hard links``); None when it was replaced atomically."""
    replaced: LinkAtName | None = None
    """The link found at the name of one of the plugin's own files, replaced by a new file
    (``old_mode`` is then None: the mode of the file it led to is no mode of this one)."""
    folder_modes: tuple[int, int] | None = None
    """``(before, after)``: the modes of the folder of a :attr:`FileChange.loose` file, made
    owner-only with it; None when it was left as it was."""
    kept: Path | None = None
    """Where that link is kept while the install runs, so a failure gives it back
    (:func:`~harness_memory.installers.own_names.keep_aside`); None once the install is done."""
    cleared: Path | None = None
    """Where the old token of :attr:`FileChange.record_of` is kept while the install runs; None
    once the install is done."""


def apply_changes(changes: list[FileChange], *, now: datetime | None = None) -> list[Written]:
    """Write every changed file (backup first, atomic replace); returns what was written.

    A symlinked settings file is written through: its final target is replaced atomically in
    its own folder, the backup lies beside the target, the link stays (H-7); a file with other
    hard links, or one a file is mounted over, is rewritten in place, so that they get the
    change too (:func:`replace_bytes`).
    A file that holds
    a token after the change is made private (group and other bits cleared), and so is a
    backup that holds one; other files keep their mode (a new file is ``0600``).

    Each file is checked to still hold ``old`` and to be writable before any is written, so an
    edit made meanwhile is never overwritten and a folder that cannot be written, or a file
    its owner made read-only, changes nothing (:class:`SettingsFileError`, naming a link and
    its target). When a write fails
    midway, the files already written get their old text back before the error is raised.
    """
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    pending = _records_first(check_writable(changes))
    written: list[Written] = []
    made: list[Path] = []
    try:
        for change, target in pending:
            written.append(_write(change, target, stamp, made))
    except OSError as error:
        _roll_back(written, changes)
        _remove_made(made)
        change, target = pending[len(written)]
        raise SettingsFileError(
            f"cannot write {_named(change.path, target)}: {error.strerror or error}"
        ) from None
    for done in written:
        for aside in (done.kept, done.cleared):
            if aside is not None:
                drop(aside)
    order = {change.path: index for index, change in enumerate(changes)}
    return [
        replace(done, pruned=prune_backups(done.path), kept=None, cleared=None)
        for done in sorted(written, key=lambda done: order[done.path])
    ]


def _records_first(pending: list[tuple[FileChange, Path]]) -> list[tuple[FileChange, Path]]:
    """``pending`` in the order the writes are made: each token's service record
    (:attr:`FileChange.record_of`) just before its token file's change (A-10)."""
    paths = {change.path for change, _ in pending}
    records = {change.record_of: (change, target) for change, target in pending if change.record_of}
    ordered: list[tuple[FileChange, Path]] = []
    for change, target in pending:
        if change.record_of in paths:
            continue  # written with its token file, below
        if (record := records.get(change.path)) is not None:
            ordered.append(record)
        ordered.append((change, target))
    return ordered


def check_writable(changes: list[FileChange]) -> list[tuple[FileChange, Path]]:
    """The changes that change their file, each with the file it writes (:func:`write_target`),
    once each is checked to be writable: the file still holds ``old``, its folder (or the
    nearest one :func:`_write` would create it under) exists and its owner may write it, and a
    harness's settings file was not made read-only by its owner (:func:`_refuse_read_only`).
    Called by the real run and the dry run alike, so ``--dry-run`` refuses what the run would.

    Raises :class:`SettingsFileError` (naming a link and its target) for the first that is not
    (H-7)."""
    pending = [(change, change_target(change)) for change in changes if change.changed]
    for change, target in pending:
        if read_text(change.path) != change.old:
            raise SettingsFileError(f"{change.path} changed while installing; run it again")
        why = _unwritable_folder(
            target.parent,
            may_create=not change.path.is_symlink(),
            own=None if change.harness_settings else change.path,
        )
        if why is not None:
            raise SettingsFileError(f"cannot write {_named(change.path, target)}: {why}")
        _refuse_read_only(change, target)
    return pending


def prune_backups(path: Path) -> tuple[Path, ...]:
    """Remove the backups of ``path`` (:func:`backups_of`) that hold the same bytes as the file
    now does or as a newer backup: each earlier text is kept once, in its newest backup, and
    none repeats the file. Returns the backups removed, oldest first. A backup or file that
    cannot be read, and a backup that cannot be removed, stays (never an error: the write it
    follows is done)."""
    target = write_target(path)
    try:
        kept = {target.read_bytes()}
    except OSError:
        kept = set()
    removed: list[Path] = []
    for backup in reversed(backups_of(path)):  # newest first
        try:
            data = backup.read_bytes()
        except OSError:
            continue
        if data not in kept:
            kept.add(data)
            continue
        with contextlib.suppress(OSError):
            backup.unlink()
            removed.append(backup)
    return tuple(reversed(removed))


def _unwritable_folder(folder: Path, *, may_create: bool, own: Path | None) -> str | None:
    """Why no file can be created in ``folder`` (or, with ``may_create``, in the folders
    :func:`_write` would create down to it from the nearest one that exists), naming the
    folder and what to do; None when one can: the caller may write and enter it, and its owner
    may write it (``u+w``). Root may write any folder, but one its owner made read-only (a
    dotfiles manager's ``~/.claude`` at 0555) is not one to write into, as a read-only file is
    not (:func:`_refuse_read_only`).

    A folder on a file system mounted read-only (the Nix store on NixOS, a read-only bind
    mount) is said as that before its mode: no ``chmod`` can be run there. A folder whose real
    path lies in the Nix store on an ordinary file system (Nix on another Linux or on macOS:
    its folders ``0555``) is said as in the Nix store, never with ``chmod``: that would change a
    store path (:func:`_in_nix_store`). The way out named is the file's: a harness's settings
    are changed where they are built or kept from; ``own``, the plugin's own file to write
    (its token, its install record), is no file a dotfiles manager builds
    (:func:`_own_file_on_a_read_only_mount`)."""
    while may_create and not folder.exists() and folder.parent != folder:
        folder = folder.parent
    try:
        mode = folder.stat().st_mode
    except OSError:
        return f"its folder is missing or not writable: {folder} does not exist; make it first"
    if not folder.is_dir():
        return f"its folder is missing or not writable: {folder} is not a folder"
    if on_read_only_mount(folder):
        said = (
            f"its folder is missing or not writable: {folder} is on a file system mounted "
            "read-only (the Nix store of home-manager, a read-only bind mount), where no "
            "owner or mode lets anyone write; "
        )
        if own is not None:
            return said + _own_file_on_a_read_only_mount(own)
        return said + (
            "make the change where that file is built or kept from (home-manager's "
            "configuration, the dotfiles checkout)"
        )
    writable = mode & stat.S_IWUSR and os.access(folder, os.W_OK | os.X_OK)
    if not writable and _in_nix_store(folder):
        said = f"its folder is missing or not writable: {folder} is in the Nix store; "
        if own is not None:
            return said + _own_file_on_a_read_only_mount(own)
        return said + _NIX_STORE_FIX
    if not mode & stat.S_IWUSR:
        return (
            f"its folder is missing or not writable: {folder} is read-only (mode "
            f"{stat.S_IMODE(mode):04o}), as a dotfiles manager (chezmoi, home-manager) may "
            "leave it; make the change where that manager keeps it, or make it writable "
            f"(chmod u+w {folder}) and run this again"
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"its folder is missing or not writable: you may not write {folder} (it is "
            "another user's, or its mode keeps you out); run this as its owner"
        )
    return None


_NIX_STORE_FIX = (
    "Nix alone writes there (a mode made writable would let a store path change under every "
    "generation sharing it); make the change in your home-manager configuration (or have it "
    "link the file out of the store with mkOutOfStoreSymlink), switch, and run this again"
)
"""What to do about a harness's settings in the Nix store (:func:`_in_nix_store`)."""


def _in_nix_store(path: Path) -> bool:
    """Whether the real path of ``path`` (links resolved) lies in :data:`NIX_STORE`, mounted
    read-only or not (Nix on another Linux or macOS keeps it on an ordinary file system)."""
    store = Path(os.path.realpath(NIX_STORE))
    real = Path(os.path.realpath(path))
    return real == store or store in real.parents


def _own_file_on_a_read_only_mount(path: Path) -> str:
    """What to do about ``path``, one of the plugin's own files (the token file, the install
    record, in the state folder ``harness-memory`` beside the settings), whose folder lies on
    a read-only mount: it is written by the install alone, never built by a dotfiles manager
    (a token in the Nix store would be every user's to read), so its folder must be one the
    user may write."""
    return (
        f"the file {path.name} is harness-memory's own, which the install writes and no dotfiles "
        "manager builds (never put the token into the Nix store: every user may read it); "
        f"make {path.parent} a writable folder of yours, or a link to one (home-manager: "
        "mkOutOfStoreSymlink), and run this again"
    )


def _refuse_read_only(change: FileChange, target: Path) -> None:
    """Raise :class:`SettingsFileError` when ``target``, the file ``change`` rewrites, is one its
    owner may not write (no ``u+w`` bit: chezmoi's ``readonly_`` files, home-manager's copies
    out of the Nix store). A rename would replace it all the same, even as root, and the
    dotfiles manager's next apply would take the change out again without a word (H-7)."""
    if change.old is None or not change.harness_settings:
        return
    old_mode = mode_of(target)
    if old_mode is None or old_mode & stat.S_IWUSR:
        return
    if _in_nix_store(target):
        raise SettingsFileError(
            f"cannot write {_named(change.path, target)}: it is in the Nix store; {_NIX_STORE_FIX}"
        )
    raise SettingsFileError(
        f"cannot write {_named(change.path, target)}: it is read-only (mode {old_mode:04o}), "
        "as a dotfiles manager (chezmoi, home-manager) leaves the files it owns; make the "
        "change where that manager keeps the file, or make it writable (chmod u+w) and run "
        "this again"
    )


def _named(path: Path, target: Path) -> str:
    """``path`` as an error names it: a symlink (a dotfiles manager's) with its final
    ``target``, the file in fact read and written (H-7)."""
    if path.is_symlink():
        return f"{path} (a symlink to {target})"
    return str(path)


def _write(change: FileChange, target: Path, stamp: str, made: list[Path]) -> Written:
    """Write one change (see :func:`apply_changes`); the folders it makes are added to
    ``made``, outermost first, before any file is written in them."""
    link = _own_link(change, target)  # replaced by a new file: its target's mode is not ours
    old_mode = mode_of(target) if change.old is not None and link is None else None
    mode = change.mode_after(old_mode)
    _make_folders(target.parent, 0o700 if mode & 0o077 == 0 else 0o755, made)
    private = holds(change.new, change.secrets) or change.record_of is not None
    if private and not keeps_owner_only(target.parent):
        raise OSError(errno.EPERM, NOT_PRIVATE)  # asked before the token is written there
    backup = None
    if change.backup and change.old is not None and old_mode is not None:
        backup_mode = private_mode(old_mode) if holds(change.old, change.secrets) else old_mode
        backup = _write_backup(target, stamp, target.read_bytes(), backup_mode)
    kept = keep_aside(target) if link is not None else None
    cleared = None
    try:
        cleared = _moved_aside(change.record_of) if change.clears else None
        in_place = replace_bytes(
            target,
            encoded(change.new),
            mode,
            keep_links=change.harness_settings or change.same_file,
        )
        _check_private(change, target, old_mode, kept=kept)
    except OSError:
        if backup is not None:
            backup.unlink(missing_ok=True)
        if kept is not None:
            put_back(kept, target)
        if cleared is not None and change.record_of is not None:
            put_back(cleared, change.record_of)
        raise
    return Written(
        change.path,
        target,
        backup,
        old_mode,
        mode,
        in_place=in_place,
        replaced=link,
        folder_modes=_private_folder(target.parent) if change.private_folder else None,
        kept=kept,
        cleared=cleared,
    )


def owner_only(path: Path) -> None:
    """Make the file ``path`` (a token moved aside) owner-only (``0600``, H-7), a link at its
    name never followed (opened ``O_NOFOLLOW``, changed through that descriptor); a file that
    cannot be opened or changed is left as it is (never raises ``OSError``)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    with contextlib.suppress(OSError):
        fd = os.open(path, flags)
        try:
            os.fchmod(fd, 0o600)
        finally:
            os.close(fd)


def _moved_aside(token_file: Path | None) -> Path | None:
    """Move the token file ``token_file`` (:attr:`FileChange.record_of`) to a hidden name in its
    folder (:func:`~harness_memory.installers.own_names.keep_aside`'s, which a later install
    drops if this one stops midway); that name, or None for no such regular file (or one with
    other hard links: the install replaces that name by a file of its own, and says so). Raises
    ``OSError`` when it cannot be moved."""
    try:
        info = token_file.lstat() if token_file is not None else None
    except FileNotFoundError:
        return None
    if token_file is None or info is None or not stat.S_ISREG(info.st_mode) or info.st_nlink > 1:
        return None  # a link at its name is replaced by a file of its own, and said so
    aside = token_file.with_name(f".{token_file.name}{KEPT_INFIX}{token_hex(4)}")
    token_file.rename(aside)
    owner_only(aside)  # it kept the old file's mode (H-7)
    return aside


def _private_folder(folder: Path) -> tuple[int, int] | None:
    """Make ``folder``, the plugin's own one holding a token file (A-10), owner-only, a link
    at its name never followed (opened ``O_NOFOLLOW``, changed and read back through that
    descriptor): ``(mode before, mode after)`` as the disk shows it after the change (a disk
    that refuses it, ``EPERM``, or takes it and changes nothing, leaves ``after`` open to
    others: warned, not failed, as the hooks accept the file), or None when it was owner-only
    already or is a link now. Raises ``OSError`` when the folder cannot be opened."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(folder, flags)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):  # a link put at its name meanwhile
            return None
        raise
    try:
        before = stat.S_IMODE(os.fstat(fd).st_mode)
        if before == private_mode(before):
            return None
        with contextlib.suppress(PermissionError):
            os.fchmod(fd, private_mode(before))
        return before, stat.S_IMODE(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def _check_private(
    change: FileChange, target: Path, old_mode: int | None, *, kept: Path | None
) -> None:
    """Raise ``OSError`` (``EPERM``) when ``target``, just written with a token (H-7), is not
    private after all: a disk that keeps no permission bits (exFAT, FAT, some network shares)
    shows every file as its mount's mode, so other users may read the token and the hooks
    refuse the file at every Session. The file is given back its old text first (removed, when
    it was new), so the install changes nothing; a link that was at its name (``kept``) is
    put back by the caller instead."""
    if not change.secrets or not holds(change.new, change.secrets):
        return
    if target.stat().st_mode & 0o077 == 0:
        return
    if kept is None and change.old is None:
        target.unlink(missing_ok=True)
    elif kept is None:
        replace_bytes(target, encoded(change.old or ""), old_mode or 0o600)
    raise OSError(errno.EPERM, NOT_PRIVATE)


NOT_PRIVATE = (
    "the disk it is on keeps no owner-only permissions (exFAT, FAT, a network share?), so "
    "every user could read the token in it, and the hooks would refuse it; keep the "
    "harness's settings folder on a disk that does (a Linux or macOS file system)"
)
"""Why an install writes no token where the disk keeps no owner-only modes (H-7)."""


def replace_bytes(target: Path, data: bytes, mode: int, *, keep_links: bool = True) -> str | None:
    """Give the file ``target`` (no symlink: a :func:`write_target`) the bytes ``data`` and the
    permission bits ``mode`` (H-7); returns why it was rewritten in place (see below), or None
    when it was replaced atomically (or is new).

    Atomically, a temporary file renamed over it, unless that would part it from where the
    harness or the user reads it: a file with other hard links (a dotfiles checkout's copy
    hard-linked into the home), whose other names would never get the change, or a file
    mounted over its name (a container's or a devcontainer's single-file bind mount of the
    host's settings: the kernel refuses a rename over a mount point, ``EBUSY``). Such a file
    is rewritten in place (its mode set before a byte is written, then synced), as editors
    write a linked file (Vim's ``backupcopy``, Emacs's ``backup-by-copying-when-linked``); its
    backup is taken before. Without ``keep_links`` (the plugin's own files: :func:`change_target`)
    a hard-linked file is replaced as any other, its other names keeping their bytes.
    Raises ``OSError``.
    """
    try:
        links = os.lstat(target).st_nlink if keep_links else 1
    except FileNotFoundError:
        links = 1
    if links > 1:
        _rewrite_in_place(target, data, mode)
        return f"has {links} hard links"
    try:
        atomic_write_bytes(target, data, mode=mode)
    except OSError as error:
        if error.errno != errno.EBUSY or not target.is_file():
            raise
        _rewrite_in_place(target, data, mode)
        return MOUNTED_OVER
    return None


MOUNTED_OVER = "is a mount point (a file mounted over this name, as a container's bind mount)"
"""Why :func:`replace_bytes` rewrote a file in place that no rename can replace."""


def _rewrite_in_place(target: Path, data: bytes, mode: int) -> None:
    """Write ``data`` into the file ``target`` itself (same inode), private to ``mode`` first."""
    fd = os.open(target, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "wb") as handle:
        os.fchmod(fd, mode)  # private before a token is in it
        handle.write(data)
        handle.truncate()
        handle.flush()
        os.fsync(fd)


def _make_folders(folder: Path, mode: int, made: list[Path]) -> None:
    """Make ``folder`` and its missing parents with exactly ``mode``, whatever the umask: never
    wider than the file they hold (``umask 000``), and never narrower either — private beside a
    private file (a token, the install record), else readable by every user, as managed
    settings must be under root's ``umask 077`` (a ``0700`` ``/etc/codex`` would leave every
    other user's harness without them, silently). Folders that exist are left as they are;
    those it makes are added to ``made``, outermost first."""
    missing: list[Path] = []
    current = folder
    while not os.path.lexists(current) and current.parent != current:
        missing.append(current)
        current = current.parent
    made.extend(reversed(missing))
    make_dirs(folder, mode)
    for path in missing:
        with contextlib.suppress(OSError):
            path.chmod(mode)


def _write_backup(target: Path, stamp: str, data: bytes, mode: int) -> Path:
    """Create ``<target>.harness-memory-backup-<stamp>`` (``-2``, ``-3``… when that name is
    taken) holding ``data``, its mode set before any byte is written; returns its path."""
    for number in range(1, 1000):
        suffix = BACKUP_SUFFIX + stamp + ("" if number == 1 else f"-{number}")
        backup = target.with_name(target.name + suffix)
        try:
            fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(data)
        return backup
    raise FileExistsError(f"no free backup name beside {target}")


def backups_of(path: Path) -> list[Path]:
    """The backups an install or uninstall made of ``path`` (beside its write target, and
    beside ``path`` itself when that is a symlink: an install made before the file was moved
    into a dotfiles checkout and linked back left its backup there), sorted; symlinks named
    like one are not ours and are left out. A backup is listed once, by its name beside the
    target, when both places are one folder: a settings folder linked whole into a dotfiles
    checkout (``~/.claude`` → ``~/dotfiles/.claude``) listed each backup twice, and the install
    removed the one it had just made as "the same bytes as … a newer backup" (itself), so the
    uninstall had no backup to give the user's own layout back from (H-3)."""
    target = write_target(path)
    found: dict[str, Path] = {}
    for folder, name in ((target.parent, target.name), (path.absolute().parent, path.name)):
        for backup in folder.glob(f"{glob_escape(name)}{BACKUP_SUFFIX}*"):
            found.setdefault(str(Path(os.path.realpath(folder)) / backup.name), backup)
    return sorted(b for b in found.values() if b.is_file() and not b.is_symlink())


def _roll_back(written: list[Written], changes: list[FileChange]) -> None:
    """Put back the old text of every file already written (a later one failed), and the
    link itself that was at the name of one of the plugin's own files."""
    by_path = {change.path: change for change in changes}
    for done in reversed(written):
        change = by_path[done.path]
        with contextlib.suppress(OSError):
            if done.kept is not None:
                put_back(done.kept, done.target)
            elif change.old is None:
                done.target.unlink()
            else:
                replace_bytes(done.target, encoded(change.old), done.old_mode or 0o600)
            if done.backup is not None:
                done.backup.unlink()
        token_file = by_path[done.path].record_of
        if done.cleared is not None and token_file is not None:
            put_back(done.cleared, token_file)  # the old token, with its old record again


def _remove_made(made: list[Path]) -> None:
    """Remove the folders an install made before a write failed (innermost first), so that
    "nothing was changed" holds: an emptied state folder was left behind. One that holds a
    file (someone else's meanwhile) stays."""
    for folder in reversed(made):
        with contextlib.suppress(OSError):
            folder.rmdir()


def same_path(left: str, right: str) -> bool:
    """Whether two path strings name the same place (normalised, not resolved)."""
    return os.path.normpath(left) == os.path.normpath(right)
