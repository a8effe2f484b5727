"""``harness-memory install HARNESS`` / ``uninstall HARNESS`` (H-3).

Each harness module plans its change as :class:`~harness_memory.installers.files.FileChange`
objects from the harness's own settings files; :func:`run` prints the plan (``--dry-run``) or
carries it out (backups first, atomic writes, unchanged files untouched). A settings file that
cannot be read or understood raises :class:`~harness_memory.installers.files.SettingsFileError`
before anything is written, so it is left exactly as it was.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO

from tomlkit.exceptions import TOMLKitError

from harness_memory.installers import (
    claude_code,
    codex,
    codex_managed,
    gemini,
    gemini_managed,
    json_values,
    managed_record,
)
from harness_memory.installers.detail import MORE, UNINSTALL_MORE, removed_said, shown
from harness_memory.installers.executable import Executable, choose_executable
from harness_memory.installers.files import (
    FileChange,
    SettingsFileError,
    Written,
    apply_changes,
    backups_of,
    check_writable,
    describe,
    mode_of,
    read_text,
    write_target,
)
from harness_memory.installers.own_names import drop_leftovers
from harness_memory.installers.plan import Plan
from harness_memory.installers.record import RECORD_NAME, TOKEN_NAME, left_said, others_in
from harness_memory.installers.secrets import (
    folder_left_open,
    holds,
    private_mode,
    tokens_in,
    toml_tokens_in,
)
from harness_memory.installers.settings_text import parse_toml
from harness_memory.installers.spec import InstallOptions
from harness_memory.installers.token_place import TOKENS_FOLDER, lone_tokens_ignore

__all__ = [
    "HARNESSES",
    "Executable",
    "InstallOptions",
    "InstallResult",
    "Plan",
    "SettingsFileError",
    "choose_executable",
    "plan",
    "run",
]

Planner = Callable[..., Plan]

HARNESSES: dict[str, Planner] = {
    "claude-code": claude_code.plan,
    "codex": codex.plan,
    "gemini": gemini.plan,
}
"""The harnesses an install supports, each with its planner."""


@dataclass(frozen=True, slots=True)
class InstallResult:
    """What :func:`run` did: the ``plan``, the files ``written``, the state files ``removed``,
    ``dry_run``."""

    plan: Plan
    written: list[Written] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    dry_run: bool = False
    narrowed: list[tuple[Path, int]] = field(default_factory=list)
    """The backups holding a token that other users could read, with their mode before: made
    owner-only (in a dry run: would be), whether or not any file changes (H-7)."""

    @property
    def changes(self) -> list[FileChange]:
        """The planned file changes."""
        return self.plan.changes

    @property
    def changed(self) -> list[Path]:
        """The files that were (or, in a dry run, would be) changed."""
        return [change.path for change in self.changes if change.changed]

    @property
    def backups(self) -> list[Path]:
        """The backups written, one per file that existed before."""
        return [done.backup for done in self.written if done.backup is not None]


def plan(
    harness: str, options: InstallOptions, environ: Mapping[str, str], *, install: bool
) -> Plan:
    """Plan an install (or uninstall) for ``harness``; ``KeyError`` for an unknown harness.
    Codex CLI with ``options.managed_dir`` plans its requirements (:mod:`.codex_managed`),
    Gemini CLI its system settings (:mod:`.gemini_managed`); a managed install into any other
    place than the harness reads is recorded for ``status`` (:mod:`.managed_record`)."""
    if options.managed_dir is None:
        planned = HARNESSES[harness](options, environ, install=install)
    else:
        planned = _managed_plan(harness, options, options.managed_dir, environ, install=install)
    return _with_token(planned, options.token, *_kept_tokens(planned))


def _managed_plan(
    harness: str,
    options: InstallOptions,
    managed_dir: Path,
    environ: Mapping[str, str],
    *,
    install: bool,
) -> Plan:
    """:func:`plan` for a managed install into ``managed_dir`` (``options.managed_dir``)."""
    if harness == "codex":
        planned = codex_managed.plan(options, environ, install=install)
    elif harness == "gemini":
        planned = gemini_managed.plan(options, environ, install=install)
    else:
        planned = HARNESSES[harness](options, environ, install=install)
    path = managed_record.managed_file(harness, managed_dir)
    if path == managed_record.read_place(harness, environ):
        return planned
    changes, removals, note = managed_record.record_plan(
        options.home, harness, path, install=install
    )
    made = [options.home / managed_record.STATE_DIR] if removals else []
    return replace(
        planned,
        changes=[*planned.changes, *changes],
        removals=[*planned.removals, *removals],
        made_folders=[*planned.made_folders, *made],
        notes=[*planned.notes, *([note] if note else [])],
    )


def _with_token(planned: Plan, *tokens: str | None) -> Plan:
    """``planned`` with the bearer ``tokens`` (the one given, the one the install's token file
    keeps) among every change's secrets (H-7): a settings file the user made hold that very
    token elsewhere (``env.MEMORY_API_TOKEN``, an MCP server's ``Authorization`` header, Codex's
    ``shell_environment_policy.set``) holds it after an install or uninstall too, so it is made
    readable by its owner only, its backup likewise, and every dry-run diff masks it, as for
    the places an install writes it."""
    known = frozenset(token for token in tokens if token)
    if not known:
        return planned
    changes = [replace(change, secrets=change.secrets | known) for change in planned.changes]
    return replace(planned, changes=changes)


def _kept_tokens(planned: Plan) -> list[str]:
    """The tokens the install's token files hold (``<state folder>/token``, beside the record
    an install writes or an uninstall removes): an uninstall, or an install without
    ``--token``, knows the token by them. A file that cannot be read holds none here."""
    paths = [*planned.removals, *(change.path for change in planned.changes)]
    states = {path.parent for path in paths if path.name == RECORD_NAME}
    found: list[str] = []
    for state in sorted(states):
        with contextlib.suppress(OSError, SettingsFileError):
            text = read_text(state / TOKEN_NAME)
            if text is not None and text.strip():
                found.append(text.strip())
    return found


def run(
    harness: str,
    options: InstallOptions,
    environ: Mapping[str, str],
    *,
    install: bool,
    dry_run: bool,
    out: IO[str],
    keep_backups: bool = False,
    verbose: bool = False,
    more: str | None = MORE,
) -> InstallResult:
    """Install or uninstall ``harness``'s hooks, reporting to ``out``: the plan's notes that are
    :class:`~harness_memory.installers.detail.Detail` only with ``verbose``, else one line
    saying where they are (:func:`~harness_memory.installers.detail.shown`): ``more``, or
    nothing when None (the caller says it, as an install's next-step line does).

    An uninstall (without ``keep_backups``) then removes the backups installs made of the
    settings files it puts back (:attr:`Plan.backups`): the file holds the user's text
    again, those only texts of it from before; it keeps the one it makes itself of a file the
    user changed since the install (that text, whole, is in it), unless it holds the bearer
    token (H-7). Raises :class:`SettingsFileError` (nothing written) for a
    settings file that is not what the harness reads, or one that cannot be written.
    """
    planned = plan(harness, options, environ, install=install)
    earlier = [] if install or keep_backups else planned.backups
    token_backups = [] if install or keep_backups else _token_backups(harness, planned.changes)
    narrows = install or keep_backups  # else the backups holding a token are removed
    if dry_run:
        _dry_run(harness, planned, token_backups, earlier, out, verbose=verbose)
        loose = _open_token_backups(harness, planned.changes) if narrows else []
        for backup, mode in loose:
            out.write(
                f"would make {backup} owner-only (mode {mode:04o} -> {private_mode(mode):04o}): "
                "it holds a bearer token\n"
            )
        return InstallResult(planned, dry_run=True, narrowed=loose)
    written = apply_changes(planned.changes)
    narrowed = _narrowed(_open_token_backups(harness, planned.changes) if narrows else [])
    removed = _remove(planned)
    dropped = [] if install or keep_backups else _remove_token_backups(harness, planned.changes)
    gone = _remove_earlier(earlier, already=[*dropped, *(p for w in written for p in w.pruned)])
    said = removed_said(removed, verbose=verbose or install)
    _report(
        harness,
        written,
        removed,
        planned,
        install=install,
        out=out,
        dropped=dropped,
        verbose=verbose,
        narrowed=narrowed,
    )
    for line in _in_work_trees(written, options.home, environ) if install else []:
        out.write(f"{harness}: {line}\n")
    for leftover in _drop_leftovers(planned.changes) if install else ():
        out.write(f"{harness}: removed {leftover}: left by an install that stopped midway\n")
    for note in shown(planned.notes, verbose=verbose, more=more):
        out.write(f"{harness}: {note}\n")
    for path in gone:
        out.write(f"{harness}: removed {path}: {EARLIER_BACKUP}\n")
    if len(said) < len(removed):
        out.write(f"{harness}: {UNINSTALL_MORE}\n")
    return InstallResult(planned, written, removed + dropped + gone, narrowed=narrowed)


def _dry_run(
    harness: str,
    planned: Plan,
    token_backups: list[Path],
    earlier: list[Path],
    out: IO[str],
    *,
    verbose: bool,
) -> None:
    """Print what :func:`run` would change, and refuse what it would refuse: the same checks
    (:func:`check_writable`) run first, and a file the run could not write is said as
    ``would refuse: …`` and raised (:class:`SettingsFileError`), so the dry run ends as the
    run would (H-3)."""
    try:
        check_writable(planned.changes)
    except SettingsFileError as error:
        out.write(f"would refuse: {error}\n")
        raise
    out.write(describe(planned.changes) or "nothing to change\n")
    for path in planned.removals:
        out.write(f"would remove {path}\n")
    for path in planned.made_folders:
        out.write(f"would remove {path} (made by the install) {_when_emptied(path)}\n")
    for path in planned.token_folders:
        out.write(
            f"would remove {path} (the token folder of this settings folder, as an install keeps "
            f"it) {_when_emptied(path)}\n"
        )
    for path in token_backups:
        out.write(f"would remove {path}: a backup holding the bearer token\n")
    for path in earlier:
        if path not in token_backups:
            out.write(f"would remove {path}: {EARLIER_BACKUP}\n")
    for note in shown(planned.notes, verbose=verbose):
        out.write(f"{harness}: {note}\n")


EARLIER_BACKUP = (
    "a backup an install made (the file is yours again; `uninstall --keep-backups` keeps them)"
)


def _remove_earlier(backups: list[Path], *, already: list[Path]) -> list[Path]:
    """Delete ``backups`` (:attr:`Plan.backups`) but those in ``already``; the ones
    deleted. One that cannot be deleted stays (the uninstall is done)."""
    removed: list[Path] = []
    for backup in backups:
        if backup in already:
            continue
        with contextlib.suppress(FileNotFoundError, PermissionError):
            backup.unlink()
            removed.append(backup)
    return removed


def _when_emptied(folder: Path) -> str:
    """When an uninstall removes ``folder`` (:func:`_remove`), as its dry run says it: a
    ``harness-memory/tokens`` folder with the install's ``.gitignore`` in it
    (:func:`~harness_memory.installers.token_place.lone_tokens_ignore`), any other folder
    (its ``harness-memory`` folder too, which holds no ``.gitignore``) when it is empty."""
    if folder.parts[-2:] == TOKENS_FOLDER:
        return "if nothing but the install's .gitignore is in it (removed with it)"
    return "if nothing else is in it"


def _remove(planned: Plan) -> list[Path]:
    """Delete the state files an uninstall takes away, then the folders left empty: the state
    folders, then those the install made (deepest first); a ``harness-memory/tokens`` folder
    holding nothing but the ``.gitignore`` an install wrote counts as empty."""
    removed: list[Path] = []
    for path in planned.removals:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed.append(path)
    for folder in [*planned.folders, *planned.made_folders, *planned.token_folders]:
        if (ignore := lone_tokens_ignore(folder)) is not None:  # the install's, left alone
            ignore.unlink()
            removed.append(ignore)
        with contextlib.suppress(OSError):  # not empty: someone else's files stay
            folder.rmdir()
            removed.append(folder)
    return removed


def _remove_token_backups(harness: str, changes: list[FileChange]) -> list[Path]:
    """After an uninstall, delete :func:`_token_backups`: the token's use ends with the
    uninstall, and a copy of it must not outlive it (H-7). Other backups stay."""
    removed: list[Path] = []
    for backup in _token_backups(harness, changes):
        with contextlib.suppress(FileNotFoundError):
            backup.unlink()
            removed.append(backup)
    return removed


def _token_backups(harness: str, changes: list[FileChange]) -> list[Path]:
    """The backups beside each settings file of ``changes`` that hold a bearer token (in
    ``env`` or on one of our hook commands, this token or an older one)."""
    found: list[Path] = []
    for change in changes:
        if not (change.backup or change.ours):  # the plugin's own state files have none
            continue
        for backup in backups_of(change.path):
            try:
                text = read_text(backup) or ""
            except SettingsFileError:
                continue
            if holds(text, change.secrets) or _names_a_token(text, harness):
                found.append(backup)
    return found


def _names_a_token(text: str, harness: str) -> bool:
    """Whether ``text`` is a settings file holding a token: a JSON object
    (:func:`tokens_in`), or Codex CLI's TOML (:func:`toml_tokens_in`)."""
    try:
        return bool(tokens_in(json_values.loads(text), harness))
    except ValueError:
        pass
    if harness != "codex":
        return False
    try:
        return bool(toml_tokens_in(parse_toml(text)))
    except (TOMLKitError, ValueError):
        return False


def _open_token_backups(harness: str, changes: list[FileChange]) -> list[tuple[Path, int]]:
    """The backups beside the settings files of ``changes`` that hold a bearer token
    (:func:`_token_backups`) and that other users may read, each with its mode (H-7)."""
    found: list[tuple[Path, int]] = []
    for backup in _token_backups(harness, changes):
        mode = mode_of(backup)
        if mode is not None and mode != private_mode(mode) and not backup.is_symlink():
            found.append((backup, mode))
    return found


def _narrowed(backups: list[tuple[Path, int]]) -> list[tuple[Path, int]]:
    """Make each of ``backups`` (:func:`_open_token_backups`) owner-only; those it did, each
    with its mode before. One that cannot be changed (gone meanwhile, another's) is left."""
    done: list[tuple[Path, int]] = []
    for backup, mode in backups:
        with contextlib.suppress(OSError):
            backup.chmod(private_mode(mode))
            done.append((backup, mode))
    return done


def _folder_said(folder: Path, before: int, after: int) -> str:
    """What the install says of the token file's ``folder`` it made owner-only: its modes
    ``before -> after``, or, when the disk left it open to others, a WARNING (A-10)."""
    if after & 0o077:
        why = "its disk refused the change (FAT, exFAT, a share)"
        return folder_left_open(folder, after, why)
    return f"{folder} holds the bearer token: made it owner-only ({before:04o} -> {after:04o})"


def _open_to_others(written: list[Written]) -> list[str]:
    """What of the files just written, or the folders holding them, other users may write:
    whoever can write a harness's settings (or replace them in their folder) chooses the
    commands its hooks run as you, and the Session records the guard trusts. Said, not
    changed: the modes are the user's (H-7)."""
    said: list[str] = []
    folders: list[Path] = []
    for done in written:
        if done.mode & stat.S_IWOTH:
            said.append(
                f"{done.target} may be written by every user of this machine (mode "
                f"{done.mode:04o}): they could change the commands your hooks run; "
                f"chmod o-w {done.target}"
            )
        elif hasattr(os, "geteuid"):  # accounts and groups as POSIX has them
            with contextlib.suppress(OSError):
                if why := _other_writers(done.target, done.target.stat()):
                    said.append(
                        f"{done.target} {why}: they could change the commands your hooks run"
                    )
        if done.target.parent not in folders:
            folders.append(done.target.parent)
    for folder in folders:
        with contextlib.suppress(OSError):
            said.extend(_folder_open_to_others(folder, folder.stat()))
    return said


def _other_writers(path: Path, info: os.stat_result) -> str | None:
    """:func:`memory_core.account_access.other_writers` of ``path``, imported only on a POSIX
    system (its ``pwd`` and ``grp`` are not on Windows)."""
    from memory_core.account_access import other_writers

    return other_writers(str(path), info)


def _folder_open_to_others(folder: Path, info: os.stat_result) -> list[str]:
    """What :func:`_open_to_others` says of the ``folder`` holding settings (its ``stat``
    ``info``): every user, or another account (its owner, a group the user shares, an ACL
    entry: :func:`~memory_core.account_access.other_writers`), may replace the settings in it;
    a sticky folder the user owns lets none of them replace the user's own file."""
    mode = info.st_mode
    if mode & stat.S_IWOTH and not mode & stat.S_ISVTX:
        return [
            f"{folder} may be written by every user of this machine (mode "
            f"{stat.S_IMODE(mode):04o}): they could replace the settings in it; "
            f"chmod o-w {folder}"
        ]
    if not hasattr(os, "geteuid"):  # accounts and groups as POSIX has them
        return []
    why = _other_writers(folder, info)
    if why is None or (mode & stat.S_ISVTX and info.st_uid == os.geteuid()):
        return []
    return [f"{folder} {why}: they could replace the settings in it"]


def _closed_to_others(changes: list[FileChange]) -> list[str]:
    """What keeps other users from reading a file every user's harness must read (managed
    settings: created ``0644``): the file's own mode, or a folder above it they cannot enter.
    Said, not changed: an administrator's modes are theirs."""
    said: list[str] = []
    for change in changes:
        if not change.create_mode & stat.S_IROTH:
            continue
        target = write_target(change.path)
        with contextlib.suppress(OSError):
            mode = stat.S_IMODE(target.stat().st_mode)
            if not mode & stat.S_IROTH:
                said.append(
                    f"{target} cannot be read by other users (mode {mode:04o}): their harness "
                    f"does not read it; chmod o+r {target}"
                )
        for folder in target.parents:
            with contextlib.suppress(OSError):
                if not folder.stat().st_mode & stat.S_IXOTH:
                    said.append(
                        f"other users cannot enter {folder}: their harness does not read "
                        f"{target}; chmod o+x {folder}"
                    )
                    break
    return said


_SINCE_THE_INSTALL = (
    " (it held changes made since the install, by you or by the harness itself: they are kept "
    "there)"
)
"""What an uninstall says of a backup of a settings file that changed since the install."""


def _own_state(written: list[Written]) -> tuple[list[Written], dict[Path, list[str]]]:
    """``written`` split in two: the files said one by one, and per state folder of the
    install (``harness-memory/``, where its record lies) the names of the files in it said in
    one line — new or rewritten as they were, owner-only (``token``, ``install.json``,
    ``.gitignore``). One with more to say (a backup, a mode changed, a link written through,
    a rewrite in place) is said by itself."""
    states = {done.path.parent for done in written if done.path.name == RECORD_NAME}
    alone: list[Written] = []
    folded: dict[Path, list[str]] = {}
    for done in written:
        plain = done.backup is None and done.in_place is None
        plain = plain and not done.pruned and done.old_mode in (None, done.mode)
        plain = plain and done.replaced is None and done.folder_modes is None
        if plain and done.path.parent in states and done.target == done.path.absolute():
            folded.setdefault(done.path.parent, []).append(done.path.name)
        else:
            alone.append(done)
    return alone, folded


def _in_work_trees(written: list[Written], home: Path, environ: Mapping[str, str]) -> list[str]:
    """What an install wrote into a git work tree (a dotfiles repository a settings file links
    into, a home kept in git), one sentence per settings file: the hooks name this machine's
    paths and now show in that tree's ``git status``, with the backup beside them (H-7). The
    files of a state folder are left out (the token's place is chosen apart: ``token_place``)."""
    from harness_memory.installers.work_trees import work_tree_of

    states = {done.path.parent for done in written if done.path.name == RECORD_NAME}
    said = []
    for done in written:
        tree = None if done.path.parent in states else work_tree_of(done.target, home, environ)
        if tree is None:
            continue
        backup = f", and so does its backup {done.backup}" if done.backup is not None else ""
        said.append(
            f"{done.target} lies in the git work tree {tree}: its `git status` now shows the "
            f"hooks (they name this machine's paths, no token){backup}; commit them only if "
            "every machine that checks it out has these paths (`harness-memory uninstall` "
            "puts the file back as it was)"
        )
    return said


def _drop_leftovers(changes: list[FileChange]) -> list[Path]:
    """The entries that an install which stopped midway kept aside at the names of the
    plugin's own files (``.token.harness-memory-kept-…``), removed now
    (:func:`~harness_memory.installers.own_names.drop_leftovers`), H-7."""
    own = [change.path for change in changes if not change.harness_settings]
    return [leftover for path in own for leftover in drop_leftovers(path)]


def _report(
    harness: str,
    written: list[Written],
    removed: list[Path],
    planned: Plan,
    *,
    install: bool,
    out: IO[str],
    dropped: list[Path],
    verbose: bool,
    narrowed: list[tuple[Path, int]],
) -> None:
    verb = "installed" if install else "uninstalled"
    ours = {change.path: change.ours for change in planned.changes}
    if not (written or removed or dropped or narrowed):
        out.write(f"{harness}: nothing to change (already {verb})\n")
    for backup, mode in narrowed:
        said = f"made it owner-only ({mode:04o} -> {private_mode(mode):04o})"
        out.write(f"{harness}: {backup} holds the bearer token: {said}\n")
    written, state = _own_state(written)
    for folder, names in state.items():
        said = f"harness-memory's state: {', '.join(names)}"
        out.write(f"{harness}: {verb} — wrote {folder}{os.sep} ({said})\n")
    for done in written:
        out.write(f"{harness}: {verb} — wrote {done.path}\n")
        if done.target != done.path.absolute() and done.path.is_symlink():  # not a linked folder
            out.write(f"{harness}: {done.path} is a symlink: wrote its target {done.target}\n")
        if done.replaced is not None:
            out.write(f"{harness}: {done.replaced.replaced(done.path, done.mode)}\n")
        if done.in_place is not None:
            out.write(
                f"{harness}: {done.target} {done.in_place}: rewritten in place, so that every "
                "name it has gets the change\n"
            )
        if done.old_mode is not None and done.mode != done.old_mode:
            out.write(
                f"{harness}: {done.target} holds the bearer token: made it readable by its "
                f"owner only (mode {done.old_mode:04o} -> {done.mode:04o})\n"
            )
        if ours.get(done.path) is True:
            out.write(f"{harness}: no backup of {done.path} kept: it held what the install wrote\n")
        elif done.backup is not None and done.backup not in dropped:
            changed = ours.get(done.path) is False
            # by the harness itself too: Gemini CLI rewrites a settings file whose keys it renamed
            since = _SINCE_THE_INSTALL * changed
            out.write(f"{harness}: backup of the previous file{since}: {done.backup}\n")
        if done.folder_modes is not None:
            out.write(f"{harness}: {_folder_said(done.target.parent, *done.folder_modes)}\n")
        for backup in done.pruned:
            out.write(
                f"{harness}: removed {backup}: the same bytes as {done.path} now or a newer "
                "backup\n"
            )
    if install:
        for warning in _open_to_others(written) + _closed_to_others(planned.changes):
            out.write(f"{harness}: WARNING: {warning}\n")
    for sentence in removed_said(removed, verbose=install or verbose):
        out.write(f"{harness}: {sentence}\n")
    for path in dropped:
        out.write(f"{harness}: removed {path}: a backup holding the bearer token\n")
    if planned.folders:
        left = others_in(planned.folders[-1].parent, removed)
        for path in left:
            out.write(f"{harness}: {left_said(path)}\n")
