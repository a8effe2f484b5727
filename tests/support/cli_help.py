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
