"""``harness-memory install``: which version of the harness runs the hooks it writes (H-3).

The hooks' settings are written in the form of the harness version they are measured on
(:data:`MEASURED`): Codex CLI's ``hooks.json`` and its trust entries in ``config.toml``, Gemini
CLI's ``hooks`` object and hook names. A harness of another version may read them otherwise, or
not at all, and then every Session starts without memory and without the write guard, and
nothing says so. The install cannot know how another version reads them; it can say which
version is there, and names it beside the measured one, a warning when it is older, and the
check that tells (a Session started, then ``harness-memory status``, which names the last
Session the hooks started).

The version is read, never asked: the harness's command found on ``PATH`` is followed through
its links (npm's ``bin`` symlink) to the file it runs, and the nearest ``package.json`` above
that file naming the harness's npm package (:attr:`Harness.package`) says its ``version``.
Nothing is executed: a harness's own ``--version`` may start Node for seconds or call home
(Gemini CLI's took 6.6 s in a loopback-only namespace), and an install makes no network call.
A command that is no npm package's (a native binary such as Claude Code's own installer's or
Codex CLI's release download, a pnpm or Volta shim, a copied script), or whose ``package.json``
cannot be read or holds no plain version, is said as a version unknown, with the same check.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from memory_core import json_text

from harness_memory.hooks.claude_code import CLAUDE_CODE_VERSION
from harness_memory.hooks.codex import CODEX_VERSION
from harness_memory.hooks.gemini import GEMINI_VERSION
from harness_memory.installers.detail import Detail

__all__ = ["MEASURED", "PACKAGE_JSON_MAX_BYTES", "Harness", "installed_version", "version_note"]

PACKAGE_JSON_MAX_BYTES = 256 * 1024
"""The largest ``package.json`` read, in bytes (the pinned CLIs' are 0.7–1.5 KiB); a larger one
is a version unknown, never read whole."""

_SEMVER = re.compile(
    r"(\d{1,9})\.(\d{1,9})\.(\d{1,9})(-[0-9A-Za-z.-]{1,64})?(\+[0-9A-Za-z.-]{1,64})?"
)
"""A ``package.json`` ``version`` as npm writes it: ``x.y.z``, maybe ``-prerelease``, maybe
``+build``."""


class Harness(NamedTuple):
    """A harness as a user knows it: its ``product`` name, the ``command`` that starts it, the
    version its hooks are ``measured`` on and the npm ``package`` it is installed from."""

    product: str
    command: str
    measured: str
    package: str


MEASURED = {
    "claude-code": Harness(
        "Claude Code", "claude", CLAUDE_CODE_VERSION, "@anthropic-ai/claude-code"
    ),
    "codex": Harness("Codex CLI", "codex", CODEX_VERSION, "@openai/codex"),
    "gemini": Harness("Gemini CLI", "gemini", GEMINI_VERSION, "@google/gemini-cli"),
}
"""Each harness ``install`` writes hooks for, by its install name."""


class _Version(NamedTuple):
    """A version as ``package.json`` says it (``text``) and its ``order``: the release numbers,
    then whether it is the release itself (a prerelease, ``0.62.0-preview.1``, comes before
    ``0.62.0``; build metadata, ``+…``, counts for nothing)."""

    order: tuple[tuple[int, int, int], bool]
    text: str


def version_note(harness: str, environ: Mapping[str, str]) -> str:
    """One line about the ``harness`` (a key of :data:`MEASURED`) found on ``environ``'s
    ``PATH``: not there, its version (:func:`installed_version`) against the measured one, or
    that its version is unknown. Starts with ``WARNING: `` when the version found is older than
    the measured one; the measured version itself is a
    :class:`~harness_memory.installers.detail.Detail` (nothing to check: ``--verbose`` says it).
    Runs nothing; never raises."""
    known = MEASURED[harness]
    check = "start a Session and check that `harness-memory status` names it"
    path = environ.get("PATH", "")
    found = shutil.which(known.command, path=path) if path else None
    if found is None:
        return (
            f"no `{known.command}` on PATH here: the hooks run once {known.product} is "
            f"installed (`npm install -g {known.package}`; they are measured on "
            f"{known.product} {known.measured})"
        )
    version = _parsed(installed_version(found, known.package))
    if version is None:
        return (
            f"{found}: version unknown (no {known.package} package.json with a version above "
            f"the file it runs): the hooks are measured on {known.product} {known.measured}; "
            f"{check}"
        )
    said = f"{known.product} {version.text} ({found})"
    measured = _parsed(known.measured)
    if measured is not None and version.order == measured.order:
        return Detail(f"{said}: the version these hooks are measured on")  # nothing to do
    if measured is not None and version.order < measured.order:
        return (
            f"WARNING: {said} is older than {known.measured}, the version these hooks are "
            "measured on: it may not run them (no memory, no write guard, and nothing says "
            f"so); update it, then {check}"
        )
    return (
        f"{said} is newer than {known.measured}, the version these hooks are measured on: {check}"
    )


def installed_version(command: str, package: str) -> str | None:
    """The ``version`` of npm ``package`` (``"@openai/codex"``) that the program file
    ``command`` (a path, as found on ``PATH``) belongs to, as its ``package.json`` says it.

    ``command`` is followed through every symlink (npm's ``node_modules/.bin/codex`` and a
    global install's ``bin/codex`` link into the package) to the file it runs; the folders
    above that file, up to the first ``node_modules`` folder or the file system's root, are
    searched for a ``package.json`` whose ``name`` is ``package`` (one of another name, such as a
    bundle's ``{"type": "module"}``, is passed over). None, never an error, when there is none,
    when a ``package.json`` on the way cannot be read as a regular file of at most
    :data:`PACKAGE_JSON_MAX_BYTES` bytes holding a JSON object, or when the matching one's
    ``version`` is not a string. Reads files only; runs nothing."""
    try:
        folder = Path(os.path.realpath(command)).parent
    except (OSError, ValueError):
        return None
    for place in (folder, *folder.parents):
        manifest = _manifest(place / "package.json")
        if manifest is None:
            return None
        if manifest.get("name") == package:
            version = manifest.get("version")
            return version if isinstance(version, str) else None
        if place.name == "node_modules":
            return None
    return None


def _manifest(path: Path) -> dict[str, object] | None:
    """The JSON object in the ``package.json`` at ``path``; ``{}`` when there is no such file,
    None when there is one that is not a regular file of at most :data:`PACKAGE_JSON_MAX_BYTES`
    bytes holding a JSON object, or that cannot be read. Opened without blocking (a FIFO there
    never waits for a writer)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb") as file:
            fd = -1
            data = file.read(PACKAGE_JSON_MAX_BYTES + 1)
        if len(data) > PACKAGE_JSON_MAX_BYTES:
            return None
        parsed = json_text.loads(data)
    except (OSError, ValueError):
        return None
    finally:
        if fd != -1:
            os.close(fd)
    return parsed if isinstance(parsed, dict) else None


def _parsed(text: str | None) -> _Version | None:
    """``text`` as a :class:`_Version`, or None when it is not a version npm writes."""
    match = _SEMVER.fullmatch(text) if text is not None else None
    if match is None:
        return None
    major, minor, patch, prerelease, _ = match.groups()
    return _Version(((int(major), int(minor), int(patch)), prerelease is None), match.group())
