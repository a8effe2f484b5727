"""``harness-memory install``: which version of the harness runs the hooks it writes (H-3).

The hooks' settings are written in the form of the harness version they are measured on
(:data:`MEASURED`): Codex CLI's ``hooks.json`` and its trust entries in ``config.toml``, Gemini
CLI's ``hooks`` object and hook names. A harness of another version may read them otherwise, or
not at all, and then every Session starts without memory and without the write guard, and
nothing says so. The install cannot know how another version reads them; it can say which
version is there: it runs the harness's command found on ``PATH`` with ``--version`` and names
it beside the measured one, a warning when it is older, and the check that tells (a Session
started, then ``harness-memory status``, which names the last Session the hooks started).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Mapping
from typing import NamedTuple

from harness_memory.hooks.claude_code import CLAUDE_CODE_VERSION
from harness_memory.hooks.codex import CODEX_VERSION
from harness_memory.hooks.gemini import GEMINI_VERSION

__all__ = ["MEASURED", "Harness", "version_note"]

VERSION_TIMEOUT_S = 20.0
"""How long ``CMD --version`` may take (a Node CLI's first start on a busy machine) before the
install says the version could not be told; a hang guard, never a wait for a result."""

_VERSION = re.compile(r"\b(\d+)\.(\d+)\.(\d+)\b")


class Harness(NamedTuple):
    """A harness as a user knows it: its ``product`` name, the ``command`` that starts it and
    the version its hooks are ``measured`` on."""

    product: str
    command: str
    measured: str


MEASURED = {
    "claude-code": Harness("Claude Code", "claude", CLAUDE_CODE_VERSION),
    "codex": Harness("Codex CLI", "codex", CODEX_VERSION),
    "gemini": Harness("Gemini CLI", "gemini", GEMINI_VERSION),
}
"""Each harness ``install`` writes hooks for, by its install name."""


def version_note(harness: str, environ: Mapping[str, str]) -> str:
    """One line about the ``harness`` found on ``environ``'s ``PATH``: not there, its version
    (``CMD --version``) against :data:`MEASURED`, or that it did not say one. Starts with
    ``WARNING: `` when the version found is older than the measured one. Never raises."""
    known = MEASURED[harness]
    check = "start a Session and check that `harness-memory status` names it"
    path = environ.get("PATH", "")
    found = shutil.which(known.command, path=path) if path else None
    if found is None:
        return (
            f"no `{known.command}` on PATH here: the hooks run once {known.product} is "
            f"installed (they are measured on {known.product} {known.measured})"
        )
    version = _version_of(found, environ)
    if version is None:
        return (
            f"{found} did not say its version (`{known.command} --version`): the hooks are "
            f"measured on {known.product} {known.measured}; {check}"
        )
    said = f"{known.product} {'.'.join(map(str, version))} ({found})"
    measured = _parsed(known.measured)
    if version == measured:
        return f"{said}: the version these hooks are measured on"
    if measured is not None and version < measured:
        return (
            f"WARNING: {said} is older than {known.measured}, the version these hooks are "
            "measured on: it may not run them (no memory, no write guard, and nothing says "
            f"so); update it, then {check}"
        )
    return (
        f"{said} is newer than {known.measured}, the version these hooks are measured on: {check}"
    )


def _version_of(program: str, environ: Mapping[str, str]) -> tuple[int, int, int] | None:
    """The first ``x.y.z`` that ``program --version`` prints, or None when it prints none,
    fails or takes longer than :data:`VERSION_TIMEOUT_S`."""
    try:
        done = subprocess.run(  # noqa: S603 - the harness's own command, found on PATH
            [program, "--version"],
            capture_output=True,
            text=True,
            errors="replace",
            env=dict(environ),
            stdin=subprocess.DEVNULL,
            timeout=VERSION_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return _parsed(done.stdout) if done.returncode == 0 else None


def _parsed(text: str) -> tuple[int, int, int] | None:
    match = _VERSION.search(text)
    if match is None:
        return None
    major, minor, patch = match.groups()
    return int(major), int(minor), int(patch)
