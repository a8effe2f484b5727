"""A hook command run in this process as ``harness-memory hook …`` runs it, its parser built
once per process.

:func:`hook_main` is :func:`harness_memory.cli.main` for a ``hook HARNESS EVENT …`` line, with
an empty environment (the hook's flags say everything, as installed): the same parsing, settings,
standard streams and adapter, but the ``argparse`` parser of ``hook HARNESS`` is built once and
kept. A hook process builds its parser once anyway; the guard's ~12,000 cases judged in one
pytest process each built it again (about 3.8 ms of a 13 ms case on a busy 2-CPU machine: a
third of their time). ``parse_args`` changes nothing in the parser, so each line is read by a
parser equal to the one :func:`~harness_memory.cli.build_parser` would build for it (its words
past the second do not shape the parser).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import IO
from unittest import mock

from harness_memory import cli

__all__ = ["hook_main"]

_BUILD = cli.build_parser
"""The product's builder, kept before :func:`hook_main` puts :func:`_parser_once` in its place."""
_PARSERS: dict[tuple[str, ...], argparse.ArgumentParser] = {}
"""The parser built for each ``("hook", harness)`` read so far."""


def _parser_once(line: Sequence[str] = ()) -> argparse.ArgumentParser:
    """:func:`harness_memory.cli.build_parser` for ``line``, built on the first line naming
    its command and harness (the two words the parser depends on), then kept."""
    key = tuple(line[:2])
    if key not in _PARSERS:
        _PARSERS[key] = _BUILD(line)
    return _PARSERS[key]


def hook_main(line: Sequence[str], *, stdin: IO[bytes], stdout: IO[str]) -> int:
    """``harness-memory`` with the command ``line`` (``["hook", harness, event, *flags]``,
    asserted), no environment variable, ``stdin`` and ``stdout``: the exit status of
    :func:`harness_memory.cli.main`, its hook parser built once per process."""
    assert list(line[:1]) == ["hook"], line
    with mock.patch.object(cli, "build_parser", _parser_once):
        return cli.main(line, environ={}, stdin=stdin, stdout=stdout)
