"""What one install or uninstall will do: the files it changes and what it must say (H-3, H-6).

A harness planner returns a :class:`Plan`: the :class:`~harness_memory.installers.files.
FileChange` list (settings files, the install record), the state files an uninstall takes away,
and ``notes``: sentences the user must read after an install — what of the harness's own memory
was turned off and what stays on (H-6), what the guard cannot see in that harness (P-3).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from harness_memory.installers import jsonc
from harness_memory.installers.files import (
    BACKUP_SUFFIX,
    Earlier,
    FileChange,
    backups_of,
    earlier_text,
    has_comments_safely,
    write_target,
)
from harness_memory.installers.record import (
    TOKEN_NAME,
    InstallRecord,
    hook_urls,
    ignore_plan,
    leftovers,
    unignored_token,
)
from harness_memory.installers.secrets import holds
from harness_memory.installers.settings_text import decoded, encoded
from harness_memory.installers.spec import our_commands, our_flag_values
from harness_memory.settings import token_service_file

__all__ = ["Plan", "given_back", "with_state"]


@dataclass(frozen=True, slots=True)
class Plan:
    """``changes`` to write; ``removals``: files an uninstall deletes (its state folder's),
    ``folders``: the state folders it removes when they are left empty; ``made_folders``: the
    folders the install made for its files, deepest first, which it removes after them when
    nothing else is left in them; ``notes`` to print, in order."""

    changes: list[FileChange]
    notes: list[str] = field(default_factory=list)
    removals: list[Path] = field(default_factory=list)
    folders: list[Path] = field(default_factory=list)
    made_folders: list[Path] = field(default_factory=list)
    backups: list[Path] = field(default_factory=list)
    """An uninstall's: the backups installs made of the settings files it puts back, which it
    removes after writing them unless asked to keep them (``uninstall --keep-backups``)."""
    token_folders: list[Path] = field(default_factory=list)
    """An uninstall's: the tokens folder where an install keeps this settings folder's token,
    and its ``harness-memory`` folder, when the install record does not name them among the
    folders the install made (a record moved aside, or an install made after that), removed
    when nothing but the install's ``.gitignore`` is left in them
    (:func:`~harness_memory.installers.token_place.emptied_tokens_folder`)."""


def with_state(
    changes: list[FileChange],
    notes: list[str],
    record: InstallRecord,
    *,
    install: bool,
    removals: list[Path] | None = None,
    readers: tuple[Path, Mapping[str, str], Path] | None = None,
) -> Plan:
    """The plan with the install's state folder: an install writes its record, naming the
    settings files it creates (and removes ``removals``: a token file no longer wanted); an
    uninstall removes the record, the token file and the Session records, and the folder when
    nothing else is in it. A settings file an install created is removed, with its backups,
    instead of being left empty (``{}``, a blank ``config.toml``; through a symlink whose
    target it created, that target: the link stays as it was); one that holds anything
    else (keys the user added since) is written like any other (H-3). So is a folder an install
    made to hold its files (``~/.claude`` where there was none): an uninstall removes it when
    it is left empty, and leaves it while anything else is in it (the harness's own files).

    The record keeps what the install wrote to each settings file
    (:meth:`~harness_memory.installers.record.InstallRecord.note_written`); an uninstall keeps
    no backup of a file that holds just that, and removes the backups that hold a text an
    install wrote: none holds anything of the user's, whose own text the install's backup
    kept (and the uninstall gives back).

    ``readers`` (home, environment, the settings file uninstalled): an uninstall keeps a token
    file, and its service record, that other installed hooks still read (:func:`~harness_memory.
    installers.token_place.still_read`: Claude Code's managed hooks read the user hooks'
    ``~/.claude/harness-memory/token``), and says so (H-7)."""
    if install:
        for change in changes:
            # a settings file (not the plugin's own state) this install writes: a file it
            # leaves as it is may hold the user's edits since an earlier one, and is not ours
            if change.backup and change.changed:
                record.note_written(change.path, change.new)
                if change.old is not None:
                    record.note_backed_up(change.path, change.old)
        made = [name for c in changes if c.old is None and c.backup for name in _names(c.path)]
        record.created += [name for name in made if name not in record.created]
        state = record.path.parent
        folders = _missing_folders([c.path for c in changes if c.old is None] + [record.path])
        record.created_folders += [
            str(folder)
            for folder in folders
            if folder != state and str(folder) not in record.created_folders
        ]
        ignore = ignore_plan(record.path.parent.parent)
        token = state / TOKEN_NAME
        if any(c.path == token for c in changes) and (said := unignored_token(state.parent)):
            notes = [*notes, said]
        notes = [*notes, *_backups_keeping_a_token(changes)]
        return Plan([*changes, record.change(), *ignore], notes, list(removals or []))
    return _uninstall_plan(changes, notes, record, readers)


def _uninstall_plan(
    changes: list[FileChange],
    notes: list[str],
    record: InstallRecord,
    readers: tuple[Path, Mapping[str, str], Path] | None,
) -> Plan:
    """:func:`with_state` for an uninstall: what it removes of the state folder, the token kept
    outside and the folders installs made (never through a symlink: :func:`~harness_memory.
    installers.token_place.unlinked_folders`), and what it says of a token it leaves."""
    from harness_memory.installers.token_place import (
        emptied_tokens_folder,
        foreign_token_said,
        linked_folders_said,
        own_token_file,
        tokens_folder,
        unlinked_folders,
    )

    texts = [change.old for change in changes]
    settings = record.path.parent.parent
    tokens = None if readers is None else tokens_folder(readers[0], readers[1])
    named = Path(record.token_file) if record.token_file else None
    named_own = named is not None and own_token_file(named, record, tokens)
    outside = None if named_own else _outside(record, texts, readers)
    files, folders = leftovers(record, hook_urls(texts), outside, tokens)
    notes = [*notes, *foreign_token_said(record, tokens)]
    if not named_own and outside is None:  # a token file our hooks name that is not ours
        notes += _hooks_tokens_left(record, texts, tokens)
    if readers is not None:
        files, kept_notes = _not_still_read(files, record, readers, outside)
        notes = [*notes, *kept_notes]
    kept: list[FileChange] = []
    for change in changes:
        if _created(change.path, record) and _left_empty(change):
            files += [write_target(change.path), *backups_of(change.path)]
            continue
        if change.old is not None:
            ours = record.wrote(change.path, encoded(change.old))
            change = replace(change, backup=change.backup and not ours, ours=ours)
        files += _backups_of_ours(change.path, record)
        kept.append(change)
    backups = [b for c in kept for b in _made_backups(c.path, record) if b not in files]
    recorded = sorted(map(Path, record.created_folders), key=lambda f: -len(f.parts))
    made_folders = unlinked_folders(recorded)  # nothing is removed through a symlink
    spare: list[Path] = []
    if readers is not None:  # the record may name none (it was moved aside before the install)
        spare = emptied_tokens_folder(settings, readers[0], readers[1])
    spare = [folder for folder in spare if folder not in (*folders, *made_folders)]
    notes += linked_folders_said(recorded, [*made_folders, *spare])
    return Plan(kept, notes, files, folders, made_folders, backups, spare)


def _outside(
    record: InstallRecord,
    texts: list[str | None],
    readers: tuple[Path, Mapping[str, str], Path] | None,
) -> Path | None:
    """The token file kept outside the state folder (a settings folder in a git work tree) of
    the hooks an uninstall takes out, when ``record`` names none (moved aside: H-7, it was
    left without a word) or another settings folder's (a record copied with the folder):
    where an install for this settings folder puts it (``readers``' home and environment),
    else one our own hook handlers in ``texts`` name by ``--token-file``
    (:func:`~harness_memory.installers.spec.our_flag_values`: only ``hooks.<event>[].hooks[]``
    commands, never a ``statusLine``, a permission rule or an ``env`` value) that is named as
    this settings folder's (:func:`~harness_memory.installers.token_place.outside_token`)."""
    from harness_memory.installers.token_place import outside_token  # it imports this module

    named = [Path(word) for word in sorted(our_flag_values(texts, "--token-file"))]
    where = None if readers is None else (readers[0], readers[1])
    return outside_token(record, named, where)


def _hooks_tokens_left(
    record: InstallRecord, texts: list[str | None], tokens: Path | None
) -> list[str]:
    """What an uninstall says of each token file our own hook handlers in ``texts`` name by
    ``--token-file`` (:func:`~harness_memory.installers.spec.our_flag_values`) that it leaves
    as not this settings folder's own in ``tokens`` (another tokens folder, another settings
    folder's name: :func:`~harness_memory.installers.token_place.left_token_said`), but the
    one ``record`` names, said already: the file and the command that removes it (H-7)."""
    from harness_memory.installers.token_place import left_token_said  # it imports this module

    named = sorted(our_flag_values(texts, "--token-file"))
    return [
        said
        for word in named
        if word != record.token_file
        for said in left_token_said(Path(word), record, tokens, "the hooks name")
    ]


def _not_still_read(
    files: list[Path],
    record: InstallRecord,
    readers: tuple[Path, Mapping[str, str], Path],
    outside: Path | None = None,
) -> tuple[list[Path], list[str]]:
    """``files`` an uninstall removes without the token files (and their service records)
    other installed hooks still read, and a note for each one kept (H-7); ``outside``: the
    hooks' token file outside the state folder that the record does not name."""
    from harness_memory.installers.token_place import still_read  # it imports this module

    home, environ, besides = readers
    own = [
        record.path.parent / TOKEN_NAME,
        *([Path(record.token_file)] if record.token_file else []),
        *([outside] if outside is not None else []),
    ]
    tokens = [path for path in files if path in own]
    removed, notes = still_read(tokens, home, environ, besides=besides)
    kept = {
        path
        for token in tokens
        if token not in removed
        for path in (token, token_service_file(token))
    }
    return [path for path in files if path not in kept], notes


def given_back(
    path: Path,
    document: dict[str, Any],
    old: str | None,
    record: InstallRecord,
    harness: str,
    *,
    comments: bool = False,
) -> Earlier | None:
    """What an uninstall gives back of the settings file ``path`` (now ``old``, our keys
    taken out: ``document``; None: no file): the text the installs started from, byte for
    byte, when that is all the file holds (:func:`~harness_memory.installers.files.
    earlier_text`), else None (the planner's own text: ours taken out, the rest as it is).
    A backup is a text an
    install wrote when the record says so, or, for a file the record keeps no text of (an
    install from before it did), when it holds our hooks. A file that may hold comments
    (``comments``) and holds one now is not given back unless it is just what an install
    wrote: a comment the user added since is no JSON value, and would be lost (H-3, H-6)."""
    if old is None:
        return None
    ours = record.wrote(path, encoded(old))
    if comments and ours is not True and has_comments_safely(old):
        return None

    def by_us(data: bytes) -> bool:
        wrote = record.wrote(path, data)
        if wrote is not None:
            return wrote
        try:
            return bool(our_commands(jsonc.loads(decoded(data)), harness))
        except (jsonc.JsoncError, ValueError):
            return False

    return earlier_text(path, document, comments=comments, by_us=by_us)


def _backups_keeping_a_token(changes: list[FileChange]) -> list[str]:
    """A note per settings file whose backup this install keeps holding a bearer token (one an
    earlier install wrote into its ``env`` or hook commands, now moved into the state folder's
    token file): the backup lies beside the settings file, outside the state folder's
    ``.gitignore``, so a dotfiles repository holding that folder would take the token into
    ``git add -A`` (H-7). The backup lies beside the file written, a symlink's final target (a
    dotfiles checkout's), and the note names that place. ``uninstall`` removes such backups."""
    return [
        _backup_keeps_a_token(change.path, write_target(change.path))
        for change in changes
        if change.backup and change.changed and holds(change.old, change.secrets)
    ]


def _backup_keeps_a_token(path: Path, target: Path) -> str:
    """The note for the backup of settings file ``path`` written at ``target``."""
    beside = "beside it" if target == path else f"beside its target {target}, which it links to"
    return (
        f"the backup of {path} keeps the bearer token its old text held (owner-only, {beside}): "
        f"keep {target.name}{BACKUP_SUFFIX}* out of any repository holding {target.parent} "
        "(`git add -A` would take it); `harness-memory uninstall` removes it"
    )


def _backups_of_ours(path: Path, record: InstallRecord) -> list[Path]:
    """The backups of the settings file ``path`` that hold a text an install wrote there."""
    found: list[Path] = []
    for backup in backups_of(path):
        with contextlib.suppress(OSError):
            if record.wrote(path, backup.read_bytes()) is True:
                found.append(backup)
    return found


def _made_backups(path: Path, record: InstallRecord) -> list[Path]:
    """The backups of the settings file ``path`` an install made: regular files holding a text
    an install backed up or wrote there (:meth:`InstallRecord.backed_up_by_us`)."""
    found: list[Path] = []
    for backup in backups_of(path):
        with contextlib.suppress(OSError):
            if not backup.is_symlink() and record.backed_up_by_us(path, backup.read_bytes()):
                found.append(backup)
    return found


def _missing_folders(paths: list[Path]) -> list[Path]:
    """The folders that do not exist yet on the way to each of ``paths`` (which writing them
    creates), each once, in the order found."""
    missing: list[Path] = []
    for path in paths:
        folder = path.parent
        while not os.path.lexists(folder) and folder.parent != folder:
            if folder not in missing:
                missing.append(folder)
            folder = folder.parent
    return missing


def _names(path: Path) -> list[str]:
    """How the install record names a settings file the install creates: its path, and for a
    symlink whose target did not exist yet (a dotfiles checkout without it), that target."""
    return [str(path), str(write_target(path))] if path.is_symlink() else [str(path)]


def _created(path: Path, record: InstallRecord) -> bool:
    """Whether an install created the file at ``path``: for a symlink, the target it points
    at now (a link made or moved since points at someone else's file)."""
    return all(name in record.created for name in _names(path))


def _left_empty(change: FileChange) -> bool:
    """Whether the file would hold nothing after ``change``: blank, or an empty JSON object."""
    if change.old is None:
        return False
    text = change.new.strip()
    return text in ("", "{}")
