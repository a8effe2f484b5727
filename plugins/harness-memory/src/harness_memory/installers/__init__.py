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
    """What :func:`run` did: the planned ``changes``, the ``backups`` written, ``dry_run``."""

    changes: list[FileChange]
    backups: list[Path] = field(default_factory=list)
    dry_run: bool = False

    @property
    def changed(self) -> list[Path]:
        """The files that were (or, in a dry run, would be) changed."""
        return [change.path for change in self.changes if change.changed]


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
    backups = apply_changes(changes)
    verb = "installed" if install else "uninstalled"
    written = [change.path for change in changes if change.changed]
    if not written:
        out.write(f"{harness}: nothing to change (already {verb})\n")
    for path in written:
        out.write(f"{harness}: {verb} — wrote {path}\n")
    for backup in backups:
        out.write(f"{harness}: backup of the previous file: {backup}\n")
    return InstallResult(changes, backups)
