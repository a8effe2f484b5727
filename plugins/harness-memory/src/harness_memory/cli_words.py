"""How the command line names a command word it expects (H-3).

argparse names a subcommand left out by its ``dest``: ``harness-memory token`` ended "the
following arguments are required: token_command", a name of the program's own that no help
shows and nobody can type. :func:`name_by_choices` names it by the words that may stand there,
``{set}``, as the usage line shows them.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["name_by_choices"]


def name_by_choices(words: argparse._SubParsersAction[Any]) -> None:
    """Name the subcommand action ``words`` (what ``add_subparsers`` returned, its commands
    added) by its commands, ``{a,b}``, in the usage line, the help and the error that it is
    missing; call it once every command is added."""
    words.metavar = "{" + ",".join(words.choices) + "}"
