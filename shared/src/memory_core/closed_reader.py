"""A command's standard output whose reader may leave before the end (H-3, Q-1): the one way
both command lines (``memory-api``, ``harness-memory``) meet ``| head -1``, ``| grep -q`` or a
``less`` quit early.

A command piped into a reader that left ended in "Broken pipe" and exit 1 (``memory-api agent
list | head -1``), or a ``BrokenPipeError`` traceback; and a write that failed half-way
through a command that changes things stopped it there. Here, as Git does
(``write_or_die.c``): once a write finds the reader gone, every later write is dropped, the
command does its work to its end (a change is finished, never left half-made because nobody
reads what it says), and then the process ends by ``SIGPIPE``, quietly, as ``git log | head
-1`` and coreutils do: a shell reports exit status 141 (128 + 13), ``subprocess`` -13.

A command that failed keeps its own status (a script reads the failure, not the reader's
leaving).

::

    status = run_on_standard_output(command)  # sys.stdout is command's ``out`` while it runs
    # the reader left and command succeeded: the process ended there by SIGPIPE
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from typing import IO, NoReturn

__all__ = ["READER_LEFT_STATUS", "ReaderMayLeave", "end_as_reader_left", "run_on_standard_output"]

READER_LEFT_STATUS = 128 + 13
"""The exit status of a command whose reader left, where no ``SIGPIPE`` can end it (Windows):
what a shell reports for a process that ``SIGPIPE`` ended."""


class ReaderMayLeave(io.TextIOBase):
    """A text stream over ``out`` whose writes are flushed one by one, so the reader's leaving is
    seen at the write that finds it (not at the interpreter's exit, as "Exception ignored …
    BrokenPipeError"); from then on every write is dropped and :attr:`left` is True.
    :meth:`write_bytes` does the same for binary output (``memory export -o -``).

    ``out`` None (the process started with that descriptor closed, ``… >&-``: Python's
    ``sys.stdout`` is then None) is a sink: every write goes nowhere, as to ``/dev/null``. It
    was an ``AttributeError`` at the first write, exit 1 (a hook too, P-4), after the change."""

    def __init__(self, out: IO[str] | None) -> None:
        super().__init__()
        self._out = out
        self.left = False
        """Whether a write found the reader gone."""

    def write(self, text: str) -> int:
        """Write and flush ``text`` unless the reader left; its length either way."""
        if not self.left and self._out is not None:
            try:
                self._out.write(text)
                self._out.flush()
            except BrokenPipeError:
                self._reader_left()
        return len(text)

    @property
    def went_nowhere(self) -> bool:
        """Whether what was written may not have reached a reader: it left (part or all of it
        dropped), or there was no stream (a sink). What a command hands over once only (a
        token's secret, an archive) is then said on stderr as not delivered."""
        return self.left or self._out is None

    def write_bytes(self, data: bytes) -> None:
        """Write ``data`` to the binary stream under ``out`` (its ``buffer``) and flush, unless
        the reader left. Raises ``AttributeError`` for a stream with no buffer (a StringIO)."""
        if self.left or self._out is None:
            return
        try:
            self._out.flush()
            buffer = self._out.buffer  # type: ignore[attr-defined]
            buffer.write(data)
            buffer.flush()
        except BrokenPipeError:
            self._reader_left()

    def flush(self) -> None:
        """Nothing waits here: each write was flushed."""

    def isatty(self) -> bool:
        """Whether the stream under it is a terminal (a sink is not)."""
        return self._out is not None and self._out.isatty()

    def fileno(self) -> int:
        """The descriptor of the stream under it (``/dev/null`` once the reader left);
        ``io.UnsupportedOperation`` for a sink."""
        if self._out is None:
            raise io.UnsupportedOperation("standard output is closed")
        return self._out.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The encoding of the stream under it."""
        return getattr(self._out, "encoding", None) or "utf-8"

    def _reader_left(self) -> None:
        """From now on drop every write, and point the stream's descriptor at ``/dev/null``:
        what its buffer still holds goes nowhere at the exit, instead of failing again."""
        self.left = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
        except OSError:
            return
        try:
            os.dup2(devnull, self.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass  # a stream with no descriptor of its own (a test's StringIO)
        finally:
            os.close(devnull)


def end_as_reader_left() -> NoReturn:
    """End the process as ``SIGPIPE`` ends one, whatever the disposition it inherited (a parent
    may have ignored the signal): Git's ``check_pipe``. Where there is no ``SIGPIPE``, exit
    :data:`READER_LEFT_STATUS`."""
    import signal  # here: a hook process (H-5), whose reader rarely leaves, never loads it

    sigpipe = getattr(signal, "SIGPIPE", None)
    if sigpipe is not None:
        signal.signal(sigpipe, signal.SIG_DFL)
        signal.raise_signal(sigpipe)
    os._exit(READER_LEFT_STATUS)


def run_on_standard_output(
    command: Callable[[ReaderMayLeave], int],
    out: IO[str] | None = None,
    *,
    end_when_left: bool = True,
) -> int:
    """Run ``command`` with ``out`` (default: ``sys.stdout``) as a :class:`ReaderMayLeave`,
    which ``sys.stdout`` is too while it runs (so ``print`` goes through it), and
    ``sys.stderr`` one over itself (``… 2>&1 | head -1``: both are the reader's); its exit
    status. When it succeeds (0, or ``SystemExit`` of 0) after a reader of either left, the
    process ends as the reader's leaving ends it (:func:`end_as_reader_left`): the work is done,
    nobody read what it said. A failure keeps its own status (or exception): ``sync | true``
    with a scope that failed exits 1, not 141, so a script sees the failure. Write bytes with
    :meth:`ReaderMayLeave.write_bytes`, never to ``sys.stdout.buffer`` around it.

    ``end_when_left`` False (a hook, whose harness reads its exit status and which always
    exits 0, P-4; ``memory-api serve``, whose clean stop exits 0): the output after the reader
    left is dropped, nothing more."""
    stream = ReaderMayLeave(sys.stdout if out is None else out)
    saved = sys.stdout, sys.stderr
    errors = None if sys.stderr is None else ReaderMayLeave(sys.stderr)  # None: fd 2 closed
    sys.stdout, sys.stderr = stream, errors
    succeeded = False
    try:
        status = command(stream)
        succeeded = status == 0
        return status
    except SystemExit as stop:
        succeeded = stop.code in (0, None)
        raise
    finally:
        sys.stdout, sys.stderr = saved
        left = stream.left or (errors is not None and errors.left)
        if left and succeeded and end_when_left:
            end_as_reader_left()
