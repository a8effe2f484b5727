"""The script files a command read from settings runs, found and read for the guard (P-3).

The guard judges what a program's settings make it run as commands of the call: a shell's
startup files (``~/.bashrc`` under ``-i``, ``$BASH_ENV``), git's ``core.fsmonitor`` and
``!`` aliases, npm's ``script-shell``. Such a command may run another file: ``source ./x.sh``,
``. ~/.bash_aliases``, ``bash ./x.sh``, ``./x.sh`` (``ShellPaths.scripts``). An agent wrote
``x.sh`` in one call and the settings naming it ran it in the next. :func:`script_file` finds
the file as the shell will, :func:`read_script` reads it, and the guard judges it as a script
the agent's own command runs (``bash ./x.sh``) is: by the memory its text names (a shell
script's own scripts followed, up to :data:`SCRIPT_FOLLOW_CAP` bytes), not as commands of the
call — real ones (nvm's ``nvm.sh``, 158 KiB; bash-completion's) write places they build at run
time, which the harness's sandbox fences. :func:`unchangeable` tells a file this account can
neither write nor replace (a system file, read by no agent's hand): such a file is not read.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from pathlib import PurePath

__all__ = [
    "SCRIPTS_CAP",
    "SCRIPT_CAP",
    "SCRIPT_DEPTH",
    "SCRIPT_FOLLOW_CAP",
    "non_interactive_part",
    "read_script",
    "script_file",
    "unchangeable",
]

SCRIPT_CAP = 1_048_576
"""The most bytes of one script read (for the memory its text names, in one linear scan); a
longer text is unknown (the command refused). Real startup scripts are far below it (nvm's
``nvm.sh`` 158 KiB, bash-completion's ``bash_completion`` 136 KiB)."""
SCRIPT_FOLLOW_CAP = 65_536
"""The most bytes of a shell script whose own scripts (its ``source``, ``bash x.sh``) the guard
reads the command text of to follow; a longer one is judged by its text alone (the scripts it
runs then fenced as those of a script the agent's own command runs)."""
SCRIPTS_CAP = 32
"""The most script files read for one tool call; past it the command is refused unjudged."""
SCRIPT_DEPTH = 4
"""How many files deep one script may run another (a startup file sourcing ``a.sh``, which
sources ``b.sh`` …); a deeper one is refused unjudged (a file sourcing itself ends here)."""
_SHELL_INTERPRETERS = frozenset(
    {"sh", "bash", "rbash", "dash", "ash", "ksh", "mksh", "zsh", "busybox", "posh", "yash"}
    | {"lksh", "oksh", "pdksh", "loksh"}
)
"""Interpreters on a ``#!`` line whose script is shell commands the guard reads."""


def script_file(kind: str, base: str, path: str, environ: Mapping[str, str]) -> str:
    """The file a script word ``path`` (relative to ``base``, the folder the shell is in)
    names, as the shell finds it: ``source``'s (``kind`` ``"source"``) name without a ``/``
    is looked up on ``PATH`` first, then in ``base``; a shell's script operand (``"shell"``)
    in ``base`` first, then on ``PATH``; a program named by its path (``"run"``) is there."""
    here = os.path.normpath(os.path.join(base, path))  # noqa: PTH118
    if "/" in path or kind == "run" or (kind == "shell" and os.path.lexists(here)):
        return here
    for folder in environ.get("PATH", "").split(":"):
        found = os.path.normpath(os.path.join(base, folder or ".", path))  # noqa: PTH118
        if os.path.isfile(found):  # noqa: PTH113
            return found
    return here


def read_script(file: str, *, run: bool) -> tuple[str, str]:
    """What the script ``file`` is and holds: ``("shell", text)`` for shell commands (always
    when not ``run``: ``source`` and ``bash x.sh`` read any file as such; when ``run``, a
    file with no ``#!`` line or one naming a shell), ``("other", text)`` for another
    interpreter's script (``#!/usr/bin/env python3``), ``("program", "")`` for a compiled
    program (an ELF file, or bytes holding a NUL), ``("unknown", "")`` when it is no regular
    file, cannot be read or is text longer than :data:`SCRIPT_CAP` bytes. Opened without
    waiting (a FIFO would hold the guard past the hook's time limit)."""
    try:
        with os.fdopen(os.open(file, os.O_RDONLY | os.O_NONBLOCK), "rb") as script:
            if not stat.S_ISREG(os.fstat(script.fileno()).st_mode):
                return "unknown", ""
            data = script.read(SCRIPT_CAP + 1)
    except OSError:
        return "unknown", ""
    if run and (data.startswith(b"\x7fELF") or b"\0" in data):
        return "program", ""
    if len(data) > SCRIPT_CAP:
        return "unknown", ""
    text = data.decode("utf-8", "surrogateescape")
    if not run or not text.startswith("#!"):
        return "shell", text
    words = text[2:].partition("\n")[0].split()
    names = [PurePath(word).name for word in words if not word.startswith("-")]
    if names[:1] == ["env"]:
        names = [name for name in names[1:] if "=" not in name]
    return ("shell" if names[:1] and names[0] in _SHELL_INTERPRETERS else "other"), text


def unchangeable(file: str) -> bool:
    """Whether this account can neither write ``file`` nor replace it: neither it nor a folder
    above it (spelled or resolved) is writable here (``os.access``, asked at decision time).
    Such a file (``/usr/share/bash-completion/bash_completion`` for an account other than
    root) was written by none of its agents. Never for root, who may write any."""
    spelled = os.path.abspath(file)  # noqa: PTH100
    for path in dict.fromkeys((spelled, os.path.realpath(spelled))):
        for each in (PurePath(path), *PurePath(path).parents):
            if os.access(each, os.W_OK):
                return False
    return True


_PREAMBLE = r"(?:[ \t]*(?:\#[^\n]*)?\n)*[ \t]*"
"""Blank and comment lines, before a file's first command."""
_FLAGS = r"\[\[\s+\"?\$-\"?\s+"
_PROMPT = r"\[\s+-{}\s+\"\$\{{?PS1-?\}}?\"\s+\]\s*{}\s*return"
_ENDED = r"(?:\s+[0-9]+)?[ \t]*(?:[;\#][^\n]*)?(?:\n|$)"
_NOT_INTERACTIVE_RE = re.compile(
    _PREAMBLE
    + r"(?:case\s+\"?\$-\"?\s+in\s+\*i\*\)\s*;;\s*\*\)\s*return\s*;;\s*esac"
    + rf"|{_FLAGS}!=\s+\*i\*\s+\]\]\s*&&\s*return"
    + rf"|{_FLAGS}==?\s+\*i\*\s+\]\]\s*\|\|\s*return"
    + rf"|if\s+{_FLAGS}!=\s+\*i\*\s+\]\]\s*;?\s*then\s+return\s*;?\s*fi"
    + rf"|(?P<prompt>{_PROMPT.format('z', '&&')}|{_PROMPT.format('n', '[|][|]')}))"
    + _ENDED
)
"""A file whose first command returns at once in a shell that is not interactive: Debian's
``.bashrc`` (``case $- in *i*) ;; *) return;; esac``), ``[[ $- != *i* ]] && return``, ``[ -z
"$PS1" ] && return`` and their like."""


def non_interactive_part(text: str, environ: Mapping[str, str]) -> str:
    """The part of a startup or sourced file's ``text`` a shell that is not interactive runs,
    with ``environ`` (its environment): none when its first command returns unless the shell
    is interactive (:data:`_NOT_INTERACTIVE_RE`; the ``PS1`` forms only where ``environ`` sets
    no ``PS1``, which a shell that is not interactive then leaves unset), else all of it."""
    found = _NOT_INTERACTIVE_RE.match(text)
    if found is None or (found.group("prompt") and "PS1" in environ):
        return text
    return ""
