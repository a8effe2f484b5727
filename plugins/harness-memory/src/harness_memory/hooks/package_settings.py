"""Where ``npm`` and ``pip`` write, and what they run, because their settings say so (P-3).

``npm`` reads ``.npmrc`` files (the project's and every folder's above it, ``~/.npmrc`` or
``$NPM_CONFIG_USERCONFIG``, the global ``etc/npmrc``) and ``npm_config_<key>`` variables;
``pip`` reads ``pip.conf`` (``$PIP_CONFIG_FILE``, ``/etc/pip.conf``, ``/etc/xdg/pip/pip.conf``,
``~/.pip/pip.conf``, ``$XDG_CONFIG_HOME/pip/pip.conf``, ``$VIRTUAL_ENV/pip.conf``) and
``PIP_<KEY>`` variables. A line ``prefix = /…/memory/<other>`` (``cache``, ``logs-dir``,
``tmp``; pip's ``target``, ``cache-dir``, ``root``, ``src``, ``log``…) makes a plain
``npm install -g x`` or ``pip install x`` write there, and ``script-shell = …`` makes
``npm test`` run another program. :func:`package_settings` reads them when the program runs
and gives the places named for writing (judged as paths of the command), the commands named
to run (judged as commands of the call) and their whole text (judged as the text of a program
the guard does not read). A file it cannot read whole makes them unknown: the command is
refused. ``npm config set``/``pip config set`` in the same command writes settings the
files do not hold yet: :func:`written_settings` reads them from its words, judged with the
files' for every run of that program in the command (a place or program set to a value built
at run time is refused). Ordinary settings (a registry, ``save-exact``, an index URL) pass.

Read when the program runs, at most :data:`PACKAGE_SETTINGS_CAP` bytes a file, linear (H-5).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from harness_memory.hooks.option_words import plain_words
from harness_memory.hooks.settings_file import account_home, read_settings_file

__all__ = [
    "NPM_COMMANDS",
    "NPM_PLACES",
    "PACKAGE_SETTINGS_CAP",
    "PIP_PLACES",
    "PackageSettings",
    "package_settings",
    "written_settings",
]

PACKAGE_SETTINGS_CAP = 65_536
"""The most bytes of one settings file read; a longer one is unknown (the command refused)."""
NPM_PLACES = frozenset(
    {"prefix", "cache", "globalconfig", "userconfig", "logs-dir", "tmp", "init-module"}
    | {"store-dir", "global-dir", "virtual-store-dir", "modules-dir", "global-bin-dir"}
    | {"cache-dir", "state-dir", "lockfile-dir"}
)
"""``.npmrc`` keys naming a folder or file ``npm`` (or ``pnpm``, which reads it too) writes."""
NPM_COMMANDS = frozenset({"script-shell", "shell", "editor", "browser", "git", "viewer"})
"""``.npmrc`` keys naming a program ``npm`` runs (``script-shell`` runs every script)."""
_NPM_CODE = frozenset({"node-options", "onload-script"})
"""``.npmrc`` keys loading code into ``node`` (``--require ./x.js``): unknown unless empty."""
PIP_PLACES = frozenset(
    {"target", "prefix", "root", "cache-dir", "src", "log", "log-file", "report", "dest"}
    | {"wheel-dir", "build", "build-dir", "download", "local-log", "download-cache"}
)
"""``pip.conf`` keys (and ``PIP_<KEY>`` variables) naming a folder or file ``pip`` writes."""
_VARIABLE_RE = r"\$\{(?P<name>[^}]*)\}"


class PackageSettings:
    """What a package manager's settings hold for one run: ``places`` (each place named for
    writing, with its key), ``commands`` (programs named to run, with their key), ``text``
    (every file and value read), ``unknown`` (why they cannot all be read, or None) and
    ``run_time`` (each ``key=value`` the command itself sets, to a place or a program, with
    a value built at run time: ``npm config set cache "$(cat f)"``)."""

    __slots__ = ("commands", "places", "run_time", "text", "unknown")

    def __init__(self) -> None:
        self.places: list[tuple[str, str]] = []
        self.commands: list[tuple[str, str]] = []
        self.text: list[str] = []
        self.unknown: str | None = None
        self.run_time: list[str] = []


_NPM_VALUED = frozenset({"--location", "-L", "--userconfig", "--globalconfig", "--prefix"})
"""``npm`` options taking the next word as their value (``--location user``)."""
_PIP_VALUED = frozenset(
    {"--editor", "--log", "--log-file", "--cache-dir", "--proxy", "--retries", "--timeout"}
    | {"--cert", "--client-cert", "--python", "--exists-action", "--trusted-host"}
)
"""``pip`` options taking the next word as their value (``--editor vim``)."""


def written_settings(program: str, words: list[str]) -> list[tuple[str, str]]:
    """The settings ``npm config set`` (``npm set``, ``npm c set``, several ``key value``
    pairs or ``key=value``) or ``pip config set`` (``--user``, ``--site``, ``--global``;
    ``section.key value``) writes, given its ``words`` (after the program's name), as
    ``(key, value)`` read as a settings file's (:func:`_pairs`: ``_`` as ``-``, lowercased);
    none for any other command."""
    valued = _NPM_VALUED if program == "npm" else _PIP_VALUED
    plain = plain_words(words, valued)
    if program == "npm" and plain[:1] == ["set"]:
        plain = ["config", *plain]
    if plain[:2] not in (["config", "set"], ["c", "set"]):
        return []
    operands, pairs = plain[2:], []
    while operands:
        key, equals, value = operands.pop(0).partition("=")
        if not equals:
            value = operands.pop(0) if operands else ""
        if program == "pip":
            key = key.partition(".")[2]  # ``global.target``: the section's key
        pairs.append((key.strip().lower().replace("_", "-"), value))
    return pairs


def package_settings(
    program: str,
    base: str,
    environ: Mapping[str, str],
    written: list[tuple[str, str]] | None = None,
) -> PackageSettings:
    """The settings ``program`` (``npm`` or ``pip``) run in the folder ``base`` with
    ``environ`` reads: its files and variables (this module's text), and the settings
    ``written`` by the same command before it runs (:func:`written_settings`: each read as
    its files' lines are, a value built at run time kept in ``run_time``); relative places
    taken from ``base``, ``~/`` from the home."""
    settings = PackageSettings()
    home = environ.get("HOME") or account_home()
    if program == "npm":
        files = _npm_files(base, environ, home)
        variables = "npm_config_"
    else:
        files = _pip_files(environ, home)
        variables = "PIP_"
    pairs: list[tuple[str, str]] = []
    for named in dict.fromkeys(files):
        file = os.path.join(base, named)  # noqa: PTH118
        if not os.path.lexists(file):
            continue
        data = read_settings_file(file, PACKAGE_SETTINGS_CAP)
        if data is None:
            settings.unknown = file
            return settings
        text = data.decode("utf-8", "surrogateescape")
        settings.text.append(text)
        pairs.extend(_pairs(text))
    for name, value in environ.items():
        if name.lower().startswith(variables.lower()):
            pairs.append((name[len(variables) :].lower().replace("_", "-"), value))
    keys = (NPM_PLACES | NPM_COMMANDS | _NPM_CODE) if program == "npm" else PIP_PLACES
    for key, value in written or []:  # ``${NAME}`` left for npm to take from the environment
        value = re.sub(_VARIABLE_RE, lambda m: environ.get(m.group("name"), m.group(0)), value)
        if key in keys and ("$" in value or "`" in value):
            settings.run_time.append(f"{key}={value}")
    pairs += written or []
    for key, value in pairs:
        value = re.sub(_VARIABLE_RE, lambda m: environ.get(m.group("name"), m.group(0)), value)
        settings.text.append(f"{key}={value}")
        if program == "npm" and key in _NPM_CODE and value.strip():
            settings.commands.append((key, f"node {value}"))
        elif program == "npm" and key in NPM_COMMANDS and value.strip():
            settings.commands.append((key, value))
        elif key in (NPM_PLACES if program == "npm" else PIP_PLACES) and value.strip():
            place = value.strip()
            place = home + place[1:] if place.startswith("~/") and home else place
            settings.places.append((key, os.path.join(base, place)))  # noqa: PTH118
    return settings


def _npm_files(base: str, environ: Mapping[str, str], home: str) -> list[str]:
    """``.npmrc`` in ``base`` and every folder above it, the user's and the global ones."""
    lowered = {name.lower(): value for name, value in environ.items()}
    files: list[str] = []
    here = os.path.abspath(base)  # noqa: PTH100
    while True:
        files.append(os.path.join(here, ".npmrc"))  # noqa: PTH118
        if here == os.path.dirname(here):  # noqa: PTH120
            break
        here = os.path.dirname(here)  # noqa: PTH120
    files.append(lowered.get("npm_config_userconfig") or f"{home}/.npmrc")
    files.append(lowered.get("npm_config_globalconfig") or "/usr/etc/npmrc")
    prefix = lowered.get("npm_config_prefix")
    files += [f"{prefix}/etc/npmrc"] if prefix else []
    return [*files, "/etc/npmrc", "/usr/local/etc/npmrc", "/usr/lib/node_modules/npm/npmrc"]


def _pip_files(environ: Mapping[str, str], home: str) -> list[str]:
    """The ``pip.conf`` files ``pip`` reads with ``environ`` (none past ``PIP_CONFIG_FILE``
    naming ``os.devnull``)."""
    named = environ.get("PIP_CONFIG_FILE")
    if named == os.devnull:
        return []
    system = [f"{folder}/pip/pip.conf" for folder in environ.get("XDG_CONFIG_DIRS", "").split(":")]
    config = environ.get("XDG_CONFIG_HOME") or f"{home}/.config"
    files = [*system, "/etc/xdg/pip/pip.conf", "/etc/pip.conf", f"{home}/.pip/pip.conf"]
    files.append(f"{config}/pip/pip.conf")
    if virtual := environ.get("VIRTUAL_ENV"):
        files.append(f"{virtual}/pip.conf")
    return [file for file in [*files, named or ""] if file and not file.startswith("/pip/")]


def _pairs(text: str) -> list[tuple[str, str]]:
    """The ``key = value`` lines of an ``.npmrc`` or a ``pip.conf`` (any section), the key
    lowercased with ``_`` read as ``-``; a value in quotes without them; comments skipped."""
    from memory_core.markdown import line_texts  # only where such a file is read (H-5)

    found: list[tuple[str, str]] = []
    for line in line_texts(text):  # LF, CRLF, CR: npm's ini and Python's configparser
        line = line.strip()
        if not line or line[0] in "#;[":
            continue
        key, equals, value = line.partition("=")
        if not equals:
            key, _, value = line.partition(":")  # ``pip.conf`` takes ``key: value`` too
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        found.append((key.strip().lower().replace("_", "-"), value))
    return found
