"""``harness-memory install HARNESS`` again, with nothing else: the same install, up to date.

An install from an older release (a Claude Code token in the settings' ``env``, hook commands
without ``--flags-only`` or the post-write hook) is upgraded by installing again. So that the
one command the hooks and ``harness-memory status`` name is enough, an install that is given
no service URL, project, agent or memory root (flags or ``HARNESS_MEMORY_*``) takes them from
the hooks this plugin already wrote into that harness's settings (:func:`installed_settings`),
and the token from the token file they name. Whatever is given still wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tomlkit.exceptions import TOMLKitError

from harness_memory.installers import claude_code, codex, gemini
from harness_memory.installers.files import SettingsFileError, read_json_object, read_text
from harness_memory.installers.managed_record import managed_file
from harness_memory.installers.settings_text import parse_toml
from harness_memory.installers.spec import flag_values, our_commands

__all__ = ["FLAGS", "Installed", "installed_settings"]

FLAGS = ("url", "project", "agent", "memory-root", "timeout", "remote")
"""The hook-command flags an install again takes over (``--url`` …)."""


@dataclass(frozen=True, slots=True)
class Installed:
    """What the installed hooks of one harness say: ``flags`` (a name of :data:`FLAGS` → the
    one value every command that names it gives), ``token`` (the text of the token file they
    name, or the ``--token`` an older install wrote on them; None when there is neither or the
    file cannot be read) and ``path``, the settings file."""

    path: Path
    flags: dict[str, str] = field(default_factory=dict)
    token: str | None = None


def installed_settings(
    harness: str, home: Path, environ: Mapping[str, str], managed: Path | None
) -> Installed:
    """The settings of ``harness``'s installed hooks (user settings, or the managed ones in
    ``managed``); empty when none are installed or the file cannot be read (the install that
    follows then says what is missing, or what is wrong with the file)."""
    path = _settings_file(harness, home, environ, managed)
    try:
        commands = our_commands(_document(harness, path, managed), harness)
    except (SettingsFileError, TOMLKitError):
        return Installed(path)
    flags: dict[str, str] = {}
    for name in FLAGS:
        values = {value for command in commands for value in flag_values(command, f"--{name}")}
        if len(values) == 1:
            flags[name] = values.pop()
    files = {value for command in commands for value in flag_values(command, "--token-file")}
    typed = {value for command in commands for value in flag_values(command, "--token")}
    # an install from before the token file wrote the token on the command lines (H-7)
    token = typed.pop() if len(typed) == 1 else None
    return Installed(path, flags, _token(files.pop()) if len(files) == 1 else token)


def _settings_file(
    harness: str, home: Path, environ: Mapping[str, str], managed: Path | None
) -> Path:
    if managed is not None:
        return managed_file(harness, managed)
    if harness == "claude-code":
        return claude_code.settings_path(home, environ)
    if harness == "codex":
        return codex.codex_home(home, environ) / "hooks.json"
    return gemini.settings_path(home, environ)


def _document(harness: str, path: Path, managed: Path | None) -> Any:
    if harness == "codex" and managed is not None:
        return parse_toml(read_text(path)).unwrap()
    return read_json_object(path, comments=harness == "gemini")[1]


def _token(path: str) -> str | None:
    """The token in the file at ``path``, surrounding white space stripped; None when the file
    is missing, unreadable or empty."""
    try:
        text = read_text(Path(path))
    except SettingsFileError:
        return None
    return (text or "").strip() or None
