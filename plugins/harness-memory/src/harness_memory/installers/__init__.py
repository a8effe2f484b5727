"""``harness-memory install HARNESS`` / ``uninstall HARNESS`` (H-3).

Each harness module plans its change as :class:`~harness_memory.installers.files.FileChange`
objects from the harness's own settings files; :func:`run` prints the plan (``--dry-run``) or
carries it out (backups first, atomic writes, unchanged files untouched). A settings file that
cannot be read or understood raises :class:`~harness_memory.installers.files.SettingsFileError`
before anything is written, so it is left exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from harness_memory.installers import claude_code, codex, gemini
from harness_memory.installers.files import (
    FileChange,
    SettingsFileError,
    Written,
    apply_changes,
    describe,
)
from harness_memory.installers.spec import InstallOptions, default_executable

__all__ = [
    "HARNESSES",
    "InstallOptions",
    "InstallResult",
    "SettingsFileError",
    "default_executable",
    "plan",
    "run",
]

Planner = Callable[[InstallOptions, Mapping[str, str]], list[FileChange]]

HARNESSES: dict[str, Callable[..., list[FileChange]]] = {
    "claude-code": claude_code.plan,
    "codex": codex.plan,
    "gemini": gemini.plan,
}
"""The harnesses an install supports, each with its planner."""


@dataclass(frozen=True, slots=True)
class InstallResult:
    """What :func:`run` did: the planned ``changes``, the files ``written``, ``dry_run``."""

    changes: list[FileChange]
    written: list[Written] = field(default_factory=list)
    dry_run: bool = False

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
) -> list[FileChange]:
    """Plan an install (or uninstall) for ``harness``; ``KeyError`` for an unknown harness."""
    return HARNESSES[harness](options, environ, install=install)


def run(
    harness: str,
    options: InstallOptions,
    environ: Mapping[str, str],
    *,
    install: bool,
    dry_run: bool,
    out: IO[str],
) -> InstallResult:
    """Install or uninstall ``harness``'s hooks, reporting to ``out``.

    Raises :class:`SettingsFileError` (nothing written) for a settings file that is not what
    the harness reads, and ``OSError`` when a file cannot be written.
    """
    changes = plan(harness, options, environ, install=install)
    if dry_run:
        out.write(describe(changes) or "nothing to change\n")
        return InstallResult(changes, dry_run=True)
    written = apply_changes(changes)
    verb = "installed" if install else "uninstalled"
    if not written:
        out.write(f"{harness}: nothing to change (already {verb})\n")
    for done in written:
        out.write(f"{harness}: {verb} — wrote {done.path}\n")
        if done.target != done.path.absolute():
            out.write(f"{harness}: {done.path} is a symlink: wrote its target {done.target}\n")
        if done.old_mode is not None and done.mode != done.old_mode:
            out.write(
                f"{harness}: {done.target} holds the bearer token: made it readable by its "
                f"owner only (mode {done.old_mode:04o} -> {done.mode:04o})\n"
            )
        if done.backup is not None:
            out.write(f"{harness}: backup of the previous file: {done.backup}\n")
        for backup in done.tightened:
            out.write(f"{harness}: {backup} holds the bearer token: made it owner-only\n")
    return InstallResult(changes, written)
