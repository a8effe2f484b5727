"""The places ``curl`` and ``wget`` write because their settings files say so (P-3).

``curl`` reads ``.curlrc`` (from ``$CURL_HOME``, ``$XDG_CONFIG_HOME``, the home) and ``wget``
reads ``.wgetrc`` (``$WGETRC``, the home, ``/etc/wgetrc``), or, where ``wget`` is GNU Wget2
(Fedora's), ``wget2rc`` (``$WGET2RC``, ``$XDG_CONFIG_HOME/wget``, ``~/.config/wget``, the
home's ``.wget2rc``, ``$SYSTEM_WGET2RC``, ``/etc/wget2rc``) before their options: a line
``output = "/…/memory/<other>/a.md"`` (``output_document = …``) makes a plain ``curl URL``
write there. The guard reads both programs' written places from their words
(:data:`~harness_memory.hooks.unread_programs.READ_PROGRAMS`), so it reads these files too,
when they run: :func:`settings_places` gives each place a settings file names for writing,
judged as any path the command names. A file it cannot read whole (or no regular file: a
FIFO, a socket, a folder, opened without waiting), or one that makes the
program take more settings or values from elsewhere (``config = …``, ``variable``, a
``%output{…}`` write-out, ``use_askpass``), is unknown (None), and the command is refused.

Read when the program runs, at most :data:`SETTINGS_CAP` bytes a file, linear (H-5).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from harness_memory.hooks.settings_file import account_home, read_settings_file

__all__ = [
    "CHOSEN_SETTINGS",
    "GIT_PLACES",
    "PROGRAM_VARIABLES",
    "SETTINGS_CAP",
    "SETTINGS_NAMES",
    "SETTINGS_PLACES_CAP",
    "SETTINGS_READERS",
    "SETTINGS_VARIABLES",
    "chooses_settings",
    "is_settings_variable",
    "moves_settings",
    "read_settings_file",
    "settings_files",
    "settings_places",
]

SETTINGS_READERS = frozenset({"curl", "wget"})
"""Programs the guard reads that take write places from a settings file of their own."""
SETTINGS_NAMES = ("curlrc", "wgetrc", "wget2rc")
"""What the settings files' names hold (``.curlrc``, ``_curlrc``, ``curlrc``, ``.wgetrc``,
``wget2rc``)."""
PROGRAM_VARIABLES: dict[str, frozenset[str]] = {
    "curl": frozenset({"HOME", "CURL_HOME", "XDG_CONFIG_HOME"}),
    "wget": frozenset({"HOME", "WGETRC", "WGET2RC", "SYSTEM_WGET2RC", "XDG_CONFIG_HOME"}),
    "tar": frozenset({"TAR_OPTIONS"}),
    "unzip": frozenset({"UNZIP", "UNZIPOPT"}),
    "mktemp": frozenset({"TMPDIR"}),
    "git": frozenset(
        {
            "HOME",
            "XDG_CONFIG_HOME",
            "GIT_DIR",
            "GIT_WORK_TREE",
            "GIT_INDEX_FILE",
            "GIT_OBJECT_DIRECTORY",
        }
    ),
    "npm": frozenset({"HOME", "XDG_CONFIG_HOME"}),
    "pip": frozenset({"HOME", "XDG_CONFIG_HOME", "VIRTUAL_ENV"}),
}
"""Variables changing where a program the guard reads writes: the settings file ``curl`` and
``wget`` read (any value: the file's text is not in the command), the options ``tar`` and
``unzip`` take from the environment (``TAR_OPTIONS='-C …'``, ``UNZIP='-d …'``) and the folder
``mktemp`` makes its file in (``TMPDIR``): these three when the value is built at run time
(a literal one is judged as every word is)."""
SETTINGS_VARIABLES = frozenset().union(*PROGRAM_VARIABLES.values())
"""Every variable of :data:`PROGRAM_VARIABLES`."""
CHOSEN_SETTINGS = frozenset({"curl", "wget", "git"})
"""Programs whose settings file a variable chooses even when its value is literal: the file's
text is not in the command (``HOME=. curl URL``, ``GIT_CONFIG_GLOBAL=cfg git status``)."""
_FAMILIES = {"git": "GIT_CONFIG", "npm": "NPM_CONFIG_", "pip": "PIP_"}
"""Each program's own settings variables, by the start of their names (``npm``'s in any
letter case, as it reads them)."""


_STARTUP_VARIABLES = frozenset({"BASH_ENV", "ENV"})
"""The variables naming the startup file a shell runs first (``bash -c``, ``sh -i``)."""


def is_settings_variable(name: str) -> bool:
    """Whether the variable ``name`` changes where a program the guard reads (or whose
    settings it reads) writes or what it runs: one of :data:`SETTINGS_VARIABLES`, a shell's
    ``BASH_ENV`` or ``ENV``, or any ``GIT_CONFIG…`` (``GIT_CONFIG_GLOBAL``,
    ``GIT_CONFIG_KEY_0``…), ``npm_config_…`` or ``PIP_…``."""
    if name in SETTINGS_VARIABLES or name in _STARTUP_VARIABLES:
        return True
    return name.upper().startswith(tuple(_FAMILIES.values()))


def moves_settings(program: str, name: str) -> bool:
    """Whether setting the variable ``name`` changes the settings ``program`` reads (or where
    it writes): :data:`PROGRAM_VARIABLES`, and the program's own family (``GIT_CONFIG…``,
    ``npm_config_…``, ``PIP_…``)."""
    known = PROGRAM_VARIABLES.get(program, frozenset())
    family = _FAMILIES.get(program)
    return name in known or (family is not None and name.upper().startswith(family))


GIT_PLACES = frozenset({"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"})
"""git's variables naming a place it works in or writes (as ``--git-dir``, ``--work-tree``
do): a literal value is judged by where it points, as every path of the command is, and the
repository's settings it chooses are read there (``GIT_DIR=.git git status``)."""


def chooses_settings(program: str, name: str) -> bool:
    """Whether setting ``name`` even to a literal value makes ``program`` read a settings
    file the guard does not read (:data:`CHOSEN_SETTINGS`; not git's :data:`GIT_PLACES`,
    judged by where they point); ``npm`` and ``pip`` are read with the literal values a
    command gives them (``HOME=/tmp/ci-home npm ci``), so theirs are refused only when built
    at run time."""
    return (
        program in CHOSEN_SETTINGS and bool(name) and not (program == "git" and name in GIT_PLACES)
    )


SETTINGS_CAP = 65_536
"""The most bytes of one settings file read; a longer one is unknown (the command refused)."""
SETTINGS_PLACES_CAP = 16
"""The most distinct places the settings files may name for writing; more are unknown (the
command refused): each is judged like a path (under a millisecond), and the hook answers within
100 ms (H-5). Everyday settings name one or two."""
_CURL_WRITING = (
    "output",
    "output-dir",
    "dump-header",
    "cookie-jar",
    "trace",
    "trace-ascii",
    "libcurl",
    "stderr",
    "etag-save",
    "hsts",
    "alt-svc",
)
"""``curl``'s long options naming a file (or folder) it writes."""
_CURL_SHORT_WRITING = frozenset("oDc")
_CURL_UNKNOWN = ("config", "variable", "expand-")
"""Long options (or their starts) taking settings or values from elsewhere: unknown."""
_WGET_WRITING = frozenset(
    {"outputdocument", "dirprefix", "logfile", "savecookies", "warcfile", "warctempdir"}
    | {"hstsfile", "rejectedlog"}
)
"""``wgetrc`` commands (``_`` and ``-`` dropped, as ``wget`` reads them) naming a place it
writes; ``useaskpass`` runs a program: unknown."""
_WGET2_WRITING = frozenset(
    {"outputdocument", "directoryprefix", "outputfile", "appendoutput", "savecookies"}
    | {"hstsfile", "hpkpfile", "ocspfile", "tlssessionfile"}
)
"""Wget2's long options (``_`` and ``-`` dropped, any letter case, as it reads a ``wget2rc``)
naming a file or folder it writes; its ``stats-…`` options write to a ``FORMAT:FILE``."""
_WGET2_UNKNOWN = frozenset({"include", "config", "execute", "useaskpass"}) | frozenset(
    {"plugin", "localplugin", "plugindirs", "pluginopt"}
)
"""Wget2 settings taking settings from elsewhere (``include`` a file or pattern, ``config``,
``execute``) or running code (``use-askpass``, a plugin): unknown."""


def settings_files(program: str, environ: Mapping[str, str]) -> list[str]:
    """Every settings file ``program`` (``curl`` or ``wget``) may read with ``environ``, as
    it looks them up (each candidate, whether or not it exists; the first found is used, so
    all are read)."""
    homes = [home for home in (environ.get("HOME"), account_home()) if home]
    if program == "curl":
        folders = [environ.get("CURL_HOME"), environ.get("XDG_CONFIG_HOME"), *homes]
        folders += [os.path.join(home, ".config") for home in homes]  # noqa: PTH118
        names = (".curlrc", "_curlrc", "curlrc")
        return [os.path.join(f, name) for f in folders if f for name in names]  # noqa: PTH118
    files = [environ.get("WGETRC") or "", "/etc/wgetrc", environ.get("WGET2RC") or ""]
    files += [environ.get("SYSTEM_WGET2RC") or "", "/etc/wget2rc"]
    configs = [environ.get("XDG_CONFIG_HOME") or ""] + [f"{home}/.config" for home in homes]
    files += [f"{folder}/wget/wget2rc" for folder in configs if folder]
    return [file for file in files if file] + [
        os.path.join(home, name)  # noqa: PTH118
        for home in homes
        for name in (".wgetrc", ".wget2rc")
    ]


def settings_places(program: str, environ: Mapping[str, str], base: str) -> list[str] | None:
    """The places the settings files of ``program`` (``curl`` or ``wget``, run in the folder
    ``base`` with ``environ``) name for it to write, relative ones taken from ``base``; None
    when one cannot be read whole or takes values from elsewhere (:data:`_CURL_UNKNOWN`), or
    they name more than :data:`SETTINGS_PLACES_CAP` places."""
    places: list[str] = []
    for file in dict.fromkeys(settings_files(program, environ)):
        if program == "wget" and any(char in file for char in "*?["):
            return None  # Wget2 reads every file the pattern matches
        if not os.path.lexists(file):
            continue
        data = read_settings_file(file, SETTINGS_CAP)
        if data is None:
            return None  # it may be read by the program; a read error never widens access
        text = data.decode("utf-8", "surrogateescape")
        named = _curl_places(text) if program == "curl" else _wget_places(text, environ)
        if program == "wget" and named is not None:  # GNU Wget 1 or Wget2: read as both
            more = _wget2_places(text, environ)
            named = None if more is None else named + more
        if named is None:
            return None
        places.extend(os.path.join(base, place) for place in named)  # noqa: PTH118
    places = list(dict.fromkeys(places))
    return places if len(places) <= SETTINGS_PLACES_CAP else None


def _curl_places(text: str) -> list[str] | None:
    """The places a ``.curlrc`` names for ``curl`` to write (``output = "x"``, ``-o x``,
    ``dump-header: x``), or None when it includes or expands values from elsewhere."""
    places: list[str] = []
    for line in text.split("\n"):  # as curl and wget read their settings: LF ends a line
        option, value = _curl_line(line)
        if not option:
            continue
        if option.startswith("--"):
            name = option[2:]
            if name.startswith(_CURL_UNKNOWN) or (
                "%output" in value and "write-out".startswith(name)
            ):
                return None
            if len(name) >= 3 and any(known.startswith(name) for known in _CURL_WRITING):
                places.extend([value] if value not in ("", "-") else [])
            continue
        letters = option[1:]
        for at, letter in enumerate(letters):
            if letter == "K" or (letter == "w" and "%output" in (letters[at + 1 :] or value)):
                return None
            if letter in _CURL_SHORT_WRITING:
                places.append(letters[at + 1 :] or value)
                break
    return [place for place in places if place and place != "-"]


def _curl_line(line: str) -> tuple[str, str]:
    """A ``.curlrc`` line's option (``--`` put before a long name written bare) and value, as
    ``curl`` reads them: the name up to white space, ``=`` or ``:``; a value in double
    quotes with its backslash escapes, else up to white space. ("", "") for a comment."""
    line = line.strip()
    if not line or line[0] == "#":
        return "", ""
    end = 0
    while end < len(line) and line[end] not in " \t=:":
        end += 1
    option = line[:end] if line.startswith("-") else "--" + line[:end]
    rest = line[end:].lstrip(" \t=:")
    if not rest.startswith('"'):
        return option, rest.split(maxsplit=1)[0] if rest.split() else ""
    value: list[str] = []
    escaped = False
    for char in rest[1:]:
        if escaped:
            value.append({"t": "\t", "n": "\n", "r": "\r", "v": "\v"}.get(char, char))
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == '"':
            break
        else:
            value.append(char)
    return option, "".join(value)


def _wget_places(text: str, environ: Mapping[str, str]) -> list[str] | None:
    """The places a ``.wgetrc`` names for ``wget`` to write (``output_document = x``,
    ``dir_prefix``, ``logfile``…; ``~/`` read as the home), or None when it names a program
    to run (``use_askpass``)."""
    places: list[str] = []
    home = environ.get("HOME") or account_home()
    for line in text.split("\n"):  # as curl and wget read their settings: LF ends a line
        name, equals, value = line.strip().partition("=")
        if not equals or name.startswith("#"):
            continue
        command = name.strip().lower().replace("_", "").replace("-", "")
        value = value.strip()
        if command == "useaskpass":
            return None
        if command in _WGET_WRITING and value not in ("", "-"):
            places.append(home + value[1:] if value.startswith("~/") and home else value)
    return places


def _wget2_places(text: str, environ: Mapping[str, str]) -> list[str] | None:
    """The places a ``wget2rc`` names for Wget2 to write (``output-document = x``,
    ``--directory-prefix=x``, ``stats-dns = csv:x``; a value in quotes with its backslash
    escapes, ``~/`` read as the home), or None when it includes or takes settings from
    elsewhere, runs a program (:data:`_WGET2_UNKNOWN`) or continues a line with ``\\``."""
    places: list[str] = []
    home = environ.get("HOME") or account_home()
    for line in text.split("\n"):  # as curl and wget read their settings: LF ends a line
        line = line.strip()
        if line.endswith("\\"):
            return None  # joined with the next line: the option's name may be split
        if not line or line.startswith("#"):
            continue
        name, equals, value = line.lstrip("-").partition("=")
        words = name.split(maxsplit=1)
        command = (words[0] if words else "").lower().replace("_", "").replace("-", "")
        if command in _WGET2_UNKNOWN:
            return None
        if not equals:
            continue
        value = _wget2_value(value.strip())
        if command.startswith("stats"):
            value = value.partition(":")[2] if ":" in value else value
        if (command in _WGET2_WRITING or command.startswith("stats")) and value not in ("", "-"):
            places.append(home + value[1:] if value.startswith("~/") and home else value)
    return places


def _wget2_value(value: str) -> str:
    """A ``wget2rc`` value as Wget2 reads it: in single or double quotes up to the closing
    one, a backslash escaping the next character; else as written."""
    if not value or value[0] not in "'\"":
        return value
    read: list[str] = []
    chars = iter(value[1:])
    for char in chars:
        if char == value[0]:
            break
        read.append(next(chars, "") if char == "\\" else char)
    return "".join(read)
