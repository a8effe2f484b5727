"""How the command line names a command word it expects, and one it does not take (H-3).

argparse names a subcommand left out by its ``dest``: ``harness-memory token`` ended "the
following arguments are required: token_command", ``harness-memory hook codex`` "…: event",
names of the program's own that no help shows and nobody can type. :func:`name_by_choices`
names it by the words that may stand there, ``{set}``, as the usage line and the help show
them. A word not among them was then refused naming the choices twice ("argument {set}:
invalid choice: 'frob' (choose from 'set')"): :class:`CommandLine` says "invalid choice:
'frob' (choose from set)", the command it follows being named by the prefix argparse gives
(``harness-memory token: error:``).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

__all__ = ["CommandLine", "name_by_choices"]


def name_by_choices(words: argparse.Action, *, every: Iterable[str] | None = None) -> None:
    """Name the positional ``words`` (a subcommand action, what ``add_subparsers`` returned,
    its commands added; or an argument with ``choices``) by its choices, ``{a,b}``, in the
    usage line, the help and the error that it is missing; call it once every choice is
    added. ``every``: the words to name instead, where only the command a line runs was added
    (H-5), so its usage names all the others still. Raises ValueError for an action without
    choices."""
    if words.choices is None:
        raise ValueError(f"{words.dest} has no choices to be named by")
    named = words.choices if every is None else every
    words.metavar = "{" + ",".join(str(choice) for choice in named) + "}"


class CommandLine(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` (and, through ``add_subparsers``, each of its
    subcommands' parsers) whose refusal of a word a positional does not take names the words
    it takes once, unquoted: "invalid choice: 'frob' (choose from set)". A flag's refusal is
    argparse's own ("argument --remote: invalid choice: …")."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.option_strings or action.choices is None or value in action.choices:
            super()._check_value(action, value)
            return
        choices = ", ".join(str(choice) for choice in action.choices)
        raise argparse.ArgumentError(None, f"invalid choice: {value!r} (choose from {choices})")
