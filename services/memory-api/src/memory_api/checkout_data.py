"""``make run``'s data dir when it is not the checkout's own ``.data`` (Q-1).

The README has the user ``export MEMORY_API_DATA_DIR=$PWD/.data`` for the commands that work
on the files. After the checkout moves (``.data`` with it), ``make run`` in that shell takes
the exported path (the Makefile's ``?=`` lets the environment win): the service runs on the old
place, made again empty when it is gone (no token, so open to local callers; none of the
user's agents), and the page shows nothing of what the user had. ``make run`` names the
checkout's ``.data`` (``memory-api demo seed --checkout-data``), and :func:`elsewhere_note`
says, before the seed's own lines, which data dir is used, that ``MEMORY_API_DATA_DIR`` chose
it, what the checkout's own holds, and how to serve that one. When the named folder is not
there while the checkout's own holds agents (an export from before the move), the seed stops
before making anything (:func:`vanished_refusal`): a fresh data dir there would hold the demo
agent alone, served open in place of the user's.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

__all__ = ["elsewhere_note", "vanished_refusal"]


def elsewhere_note(data_dir: Path, checkout_data: Path) -> str:
    """The lines (each ending in a line end) saying that ``data_dir``, the one in use, is not
    ``checkout_data``, the checkout's; ``""`` when both name one folder (links resolved).
    Reads only whether each folder exists and the agent folders under ``checkout_data``
    (``agents/<id>``); an unreadable one counts as none. The ``make run`` it suggests is
    quoted for the shell (a checkout under ``old dir/``)."""
    if os.path.realpath(data_dir) == os.path.realpath(checkout_data):
        return ""
    new = "" if data_dir.is_dir() else "; it did not exist: made now, with the demo agent alone"
    return _said(data_dir, checkout_data, new)


def vanished_refusal(data_dir: Path, checkout_data: Path) -> str | None:
    """Why ``make run`` stops, nothing made (Q-1), when ``data_dir`` (named by
    ``MEMORY_API_DATA_DIR`` or ``--data-dir``) is not there while ``checkout_data``, another
    folder, holds agents; None otherwise (the seed goes on: :func:`elsewhere_note` says it).
    The lines end in a line end: the data dir, why, what the checkout's own holds, and the two
    ways on (serve the checkout's, or make the named folder by hand to start a new one)."""
    if os.path.lexists(data_dir) or not _agents(checkout_data):
        return None
    if os.path.realpath(data_dir) == os.path.realpath(checkout_data):
        return None
    return _said(data_dir, checkout_data, "; it does not exist: nothing made") + (
        f"  To start a new data dir there instead: mkdir -p {shlex.quote(str(data_dir))} and "
        "run make run again\n"
    )


def _said(data_dir: Path, checkout_data: Path, new: str) -> str:
    """The lines naming ``data_dir``, why it is used, what ``checkout_data`` holds (``new``
    added to the first) and how to serve the checkout's instead."""
    held = _agents(checkout_data)
    if held is None:
        own = f"not this checkout's {checkout_data} (not made yet)"
    else:
        listed = ", ".join(held[:5]) + (f" and {len(held) - 5} more" if len(held) > 5 else "")
        own = f"not this checkout's {checkout_data} (agents: {listed or 'none'})"
    return (
        f"data dir: {data_dir}, named by MEMORY_API_DATA_DIR (in your environment or on the "
        f"command line), {own}{new}.\n"
        f"  To serve this checkout's: `unset MEMORY_API_DATA_DIR` (an export from before the "
        f"checkout moved?) and run make run again, or make run "
        f"MEMORY_API_DATA_DIR={shlex.quote(str(checkout_data))}\n"
    )


def _agents(data_dir: Path) -> list[str] | None:
    """The agent ids with a folder under ``data_dir/agents``, sorted; None when ``data_dir``
    is no folder."""
    if not data_dir.is_dir():
        return None
    try:
        return sorted(entry.name for entry in (data_dir / "agents").iterdir() if entry.is_dir())
    except OSError:
        return []
