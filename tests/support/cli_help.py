"""Every ``--help`` text of an argparse command line, for tests of what users read there."""

from __future__ import annotations

import argparse
from collections.abc import Iterator


def every_help(parser: argparse.ArgumentParser) -> Iterator[str]:
    """``parser``'s help, then each sub-command's, depth first."""
    yield parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from every_help(sub)


def options_without_help(parser: argparse.ArgumentParser, path: str = "") -> Iterator[str]:
    """Each option or positional of ``parser`` and its sub-commands that ``--help`` would list
    with no text beside it, as ``"COMMAND PATH: --flag"``; empty when every one explains
    itself. Hidden ones (``help=argparse.SUPPRESS``) are not listed, so not counted."""
    path = path or parser.prog
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from options_without_help(sub, f"{path} {name}")
        elif action.help is None:
            yield f"{path}: {'/'.join(action.option_strings) or action.dest}"
