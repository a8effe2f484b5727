"""``harness-memory install HARNESS`` again, with nothing else: the same install, up to date.

An install from an older release (a Claude Code token in the settings' ``env``, hook commands
without ``--flags-only`` or the post-write hook) is upgraded by installing again. So that the
one command the hooks and ``harness-memory status`` name is enough, an install that is given
no service URL, project, agent or memory root (flags or ``HARNESS_MEMORY_*``) takes them from
the hooks this plugin already wrote into that harness's settings (:func:`installed_settings`),
and the token from the token file they name. Whatever is given still wins. The hooks' token
(their token file's, or the ``--token T`` an install from before the token file wrote on the
hook command lines, Codex and Gemini CLI) is kept by any install that is given none, with its
settings or without, as Claude Code's older ``env`` token is (H-3): but only for the service
the hooks name (:func:`~harness_memory.installers.spec.same_service`), never sent to or
written for another URL (A-10).

A checkout moved with ``make run``'s ``.data`` in it leaves hooks naming the old place: their
``harness-memory`` and their memory root are both gone. Installed again from the new place,
the root is taken where it moved to (:func:`moved_root`), so the one command is still enough.
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
from harness_memory.installers.secrets import TOKEN_ENV
from harness_memory.installers.settings_text import parse_toml
from harness_memory.installers.spec import flag_values, hook_program, our_commands

__all__ = ["FLAGS", "Installed", "installed_settings", "moved_root"]

FLAGS = ("url", "project", "agent", "memory-root", "timeout", "remote")
"""The hook-command flags an install again takes over (``--url`` …)."""


@dataclass(frozen=True, slots=True)
class Installed:
    """What the installed hooks of one harness say: ``flags`` (a name of :data:`FLAGS` → the
    one value every command that names it gives), ``token`` (the text of the token file they
    name, else the ``--token`` an older install wrote on them, else an older Claude Code
    install's ``env.HARNESS_MEMORY_TOKEN``; None when there is none or the file cannot be
    read), ``path``, the settings file, and ``script``, the ``harness-memory`` every hook
    command starts (None when they start more than one, or none are installed)."""

    path: Path
    flags: dict[str, str] = field(default_factory=dict)
    token: str | None = None
    script: str | None = None
    env_token: bool = False
    """Whether ``token`` is Claude Code's ``env.HARNESS_MEMORY_TOKEN``, which its planner
    keeps or drops (and says so) as the service it is known to belong to allows (A-10)."""
    token_file: str | None = None
    """The token file ``token`` was read from (None: a token on the command lines or in
    ``env``): its service record says which service it was given for (A-10)."""


def installed_settings(
    harness: str, home: Path, environ: Mapping[str, str], managed: Path | None
) -> Installed:
    """The settings of ``harness``'s installed hooks (user settings, or the managed ones in
    ``managed``); empty when none are installed or the file cannot be read (the install that
    follows then says what is missing, or what is wrong with the file)."""
    path = _settings_file(harness, home, environ, managed)
    try:
        document = _document(harness, path, managed)
        commands = our_commands(document, harness)
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
    on_lines = len(typed) == 1
    token = typed.pop() if on_lines else _env_token(harness, document, managed)
    scripts = {hook_program(command)[1] for command in commands}
    script = scripts.pop() if len(scripts) == 1 else None
    named = files.pop() if len(files) == 1 else None
    kept = _token(named) if named is not None else None
    from_env = kept is None and not on_lines and token is not None
    where = named if kept is not None else None
    return Installed(path, flags, kept or token, script, env_token=from_env, token_file=where)


def moved_root(script: str, root: str, program: str) -> str | None:
    """Where the memory root ``root`` of hooks that start ``script`` is now, when the folder
    both were in has moved to where ``program`` (the ``harness-memory`` installing them again)
    is: ``/old/.venv/bin/harness-memory`` and ``/old/.data/agents/coder/agent_state/memory``,
    both gone, with ``program`` ``/new/.venv/bin/harness-memory``, give
    ``/new/.data/agents/coder/agent_state/memory`` when that folder exists. None otherwise:
    either old path still there (a copy, not a move: the hooks still run), no common tail
    below a folder of its own, or nothing at the new place."""
    old, new = Path(script), Path(program)
    if not (old.is_absolute() and new.is_absolute()) or old.exists() or Path(root).exists():
        return None
    tail = 0  # the parts both end with, each keeping a folder below / of its own
    while tail < min(len(old.parts), len(new.parts)) - 2 and (
        old.parts[-1 - tail] == new.parts[-1 - tail]
    ):
        tail += 1
    if tail < 2:  # more in common than the name: bin/harness-memory at least
        return None
    old_base, new_base = old.parents[tail - 1], new.parents[tail - 1]
    try:
        rest = Path(root).relative_to(old_base)
    except ValueError:
        return None
    moved = new_base / rest
    return str(moved) if moved.is_dir() else None


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
    return read_json_object(path, comments=harness == "gemini", utf16=harness == "claude-code")[1]


def _env_token(harness: str, document: Any, managed: Path | None) -> str | None:
    """The token an older Claude Code install kept in its user settings' ``env``
    (``env.HARNESS_MEMORY_TOKEN``), which installing again moves into the token file and so
    checks the service with (H-3); None for another harness, managed settings or none."""
    env = document.get("env") if harness == "claude-code" and managed is None else None
    token = env.get(TOKEN_ENV) if isinstance(env, dict) else None
    return token if isinstance(token, str) and token else None


def _token(path: str) -> str | None:
    """The token in the file at ``path``, surrounding white space stripped; None when the file
    is missing, unreadable or empty."""
    try:
        text = read_text(Path(path))
    except SettingsFileError:
        return None
    return (text or "").strip() or None
