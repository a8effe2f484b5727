"""The settings of the remote-mode hooks an install wrote (R-1), for ``harness-memory sync``.

``install HARNESS --remote URL`` names the local copy on every hook command (``--remote on
--state-dir ~/.harness-memory --url … --project … --agent …``) and puts the token where the
harness gives it to its hooks (Claude Code's ``settings.json`` ``env``; Codex CLI and Gemini
CLI a ``--token-file``). A ``sync`` by hand given none of those settings reads them from there,
so it syncs the copy the hooks use, not a second one under the default state dir.

In remote mode the memory root is the local copy, which follows from the project and agent:
``HARNESS_MEMORY_ROOT`` changes nothing there (``install`` refuses ``--memory-root`` with
``--remote``; the hooks read only their flags), so :func:`unused_root` is the warning
``install`` and ``status`` give when it is set to another folder, and ``sync``, a Session
start and a hook run in remote mode give of it or of a ``--memory-root`` they do not use.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from harness_memory.installers import claude_code, codex, gemini
from harness_memory.installers.files import SettingsFileError, read_json_object
from harness_memory.installers.spec import flag_values, our_commands

__all__ = ["installed_remote_settings", "unused_root"]

_COPY_FLAGS = {
    "state_dir": "--state-dir",
    "url": "--url",
    "project": "--project",
    "agent": "--agent",
}
"""The setting (``argparse`` dest) → the hook-command flag that names it, for one local copy."""


def installed_remote_settings(home: Path, environ: Mapping[str, str]) -> dict[str, str] | None:
    """The settings the installed remote-mode hooks of ``home`` use, as setting flags.

    Returns ``{"state_dir", "url", "project", "agent", "remote": "on"}`` plus ``token_file``
    (a hook's ``--token-file``) or ``token`` (Claude Code's settings ``env``) when they name
    one, and then ``harness``, the harness whose hooks hold it (a refusal of that token names
    its install, A-10: not a setting flag); None when no harness has remote-mode hooks, or
    when they name more than one local copy (then only the user can say which). A settings
    file that cannot be read counts as holding no hooks.
    """
    targets = [
        ("claude-code", claude_code.settings_path(home, environ)),
        ("codex", codex.codex_home(home, environ) / "hooks.json"),
        ("gemini", gemini.settings_path(home, environ)),
    ]
    copies: set[tuple[str, ...]] = set()
    token_files: list[tuple[str, str]] = []
    tokens: list[tuple[str, str]] = []
    for harness, path in targets:
        try:
            _, document = read_json_object(
                path, comments=harness == "gemini", utf16=harness == "claude-code"
            )
        except SettingsFileError:
            continue
        for command in our_commands(document, harness):
            if flag_values(command, "--remote") != ["on"]:
                continue
            values = [flag_values(command, flag) for flag in _COPY_FLAGS.values()]
            if all(values):
                copies.add(tuple(found[0] for found in values))
                token_files += [(harness, f) for f in flag_values(command, "--token-file")]
                env = document.get("env")
                token = env.get("HARNESS_MEMORY_TOKEN") if isinstance(env, dict) else None
                tokens += [(harness, token)] if isinstance(token, str) and token else []
    if len(copies) != 1:
        return None
    settings = dict(zip(_COPY_FLAGS, copies.pop(), strict=True)) | {"remote": "on"}
    if token_files:
        settings["harness"], settings["token_file"] = token_files[0]
    elif tokens:
        settings["harness"], settings["token"] = tokens[0]
    return settings


def unused_root(
    environ: Mapping[str, str], copy_root: Path, *, flag: str | None = None, sync: bool = False
) -> str | None:
    """The warning for a memory root remote mode's local copy ``copy_root`` (R-1) does not use,
    which is the memory root whatever it says: ``flag`` (``--memory-root``) when given, else
    ``HARNESS_MEMORY_ROOT`` in ``environ``; None when neither names another folder. ``sync``:
    said of ``sync`` in local mode (``--remote off``), which syncs that copy all the same."""
    given = flag or environ.get("HARNESS_MEMORY_ROOT")
    if not given or os.path.normpath(Path(given).absolute()) == os.path.normpath(copy_root):
        return None
    named = f"--memory-root {given}" if flag else f"HARNESS_MEMORY_ROOT={given}"
    if sync:
        return (
            f"{named} has no effect on sync, which syncs the local copy {copy_root} in local "
            "mode too (it follows from the project and agent, R-1); leave it out of sync"
        )
    return (
        f"{named} has no effect in remote mode: the memory root is the "
        f"local copy {copy_root}, which follows from the project and agent (R-1); unset it, "
        "or, for memory in a data dir on this machine, install with --url and --memory-root "
        "instead of --remote"
    )
