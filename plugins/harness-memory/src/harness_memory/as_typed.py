"""The commands ``harness-memory`` tells its user to run, named as that user can run them.

Beside ``make run`` the program is ``.venv/bin/harness-memory``: a bare ``harness-memory`` in
"run `harness-memory install codex` again" is a command the shell does not find (or finds
another install of). :func:`program_as_typed` is the program as the user started it, and
:class:`AsTyped` writes every command in backticks that starts with the bare name (the one
form all the messages use) with that program in its place.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import IO

__all__ = ["AsTyped", "as_typed", "program_as_typed"]

NAME = "harness-memory"
"""The console script's name, as every message writes a command."""


def program_as_typed(environ: Mapping[str, str], argv0: str | None = None) -> str:
    """``harness-memory`` when that name on ``environ``'s ``PATH`` runs this very program,
    else the path the user started it by (``argv0``, default ``sys.argv[0]``): beside ``make
    run`` that is ``.venv/bin/harness-memory``. Not started as the console script (``python
    -m``, a test): the bare name."""
    typed = sys.argv[0] if argv0 is None else argv0
    if Path(typed).name != NAME:
        return NAME
    on_path = shutil.which(NAME, path=environ.get("PATH", ""))
    if on_path is not None and Path(on_path).resolve() == Path(typed).resolve():
        return NAME
    return typed


def as_typed(text: str, program: str) -> str:
    """``text`` with each command in backticks that starts with ``harness-memory`` (`` `harness-
    memory status` ``) starting with ``program`` instead (a path with a space quoted)."""
    if program == NAME:
        return text
    import shlex

    return text.replace(f"`{NAME} ", f"`{shlex.quote(program)} ")


class AsTyped:
    """A text stream that writes to ``stream`` with its commands :func:`as_typed`."""

    def __init__(self, stream: IO[str], program: str) -> None:
        self.stream = stream
        self.program = program

    def write(self, text: str) -> int:
        """Write ``text``, its commands as typed; the count of characters given."""
        self.stream.write(as_typed(text, self.program))
        return len(text)

    def flush(self) -> None:
        """Flush ``stream``."""
        self.stream.flush()
