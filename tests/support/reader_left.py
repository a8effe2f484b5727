"""Run a command line whose standard output's reader leaves early, through real pipes (H-3, Q-1).

:func:`run_reader_gone`: the reader left before the first line (a ``… | true``): the command's
first write finds it gone, whatever its output's size. :func:`run_into_head`: the reader is a
``head -n 1`` process that reads one line and exits, the pipe between them one page (the
smallest a pipe takes): a command writing more than twice that blocks until ``head`` has read
(once: what the pipe held, its first line in it), fills the pipe again, blocks again, and finds
the reader gone once ``head`` exits. :func:`run_output_closed`: no output at all (``>&-``).
None waits on time: each ends when the command does.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["ENDED_BY_SIGPIPE", "quiet", "run_into_head", "run_output_closed", "run_reader_gone"]

ENDED_BY_SIGPIPE = -signal.SIGPIPE
"""``subprocess``'s return code of a process that ``SIGPIPE`` ended (a shell's 141), as
``git log | head -1`` ends ``git``."""
_F_SETPIPE_SZ = 1031  # linux/fcntl.h (F_LINUX_SPECIFIC_BASE + 7)


def quiet(stderr: str) -> bool:
    """Whether ``stderr`` says nothing of the closed pipe: no traceback, no "Broken pipe"."""
    said = stderr.lower()
    return "traceback" not in said and "broken pipe" not in said and "brokenpipe" not in said


def run_reader_gone(
    argv: Sequence[str],
    env: Mapping[str, str],
    *,
    cwd: Path | None = None,
    stdin: str = "",
    stderr_too: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``argv`` with standard output a pipe whose reading end is closed before it starts;
    ``stderr_too``: its standard error too (``… 2>&1 | head -1``; then nothing reads it)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            list(argv),
            input=stdin,
            stdout=write_end,
            stderr=write_end if stderr_too else subprocess.PIPE,
            env=dict(env),
            cwd=cwd,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)


def run_into_head(
    argv: Sequence[str], env: Mapping[str, str], *, cwd: Path | None = None
) -> tuple[subprocess.CompletedProcess[str], str]:
    """``argv | head -n 1`` over a one-page pipe: the command's result, and what ``head``
    printed (the command's first line). The command must write more than two pages for its
    reader's leaving to be certain to find it writing."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, _F_SETPIPE_SZ, os.sysconf("SC_PAGE_SIZE"))
    head = subprocess.Popen(["head", "-n", "1"], stdin=read_end, stdout=subprocess.PIPE, text=True)
    os.close(read_end)
    try:
        done = subprocess.run(
            list(argv),
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=dict(env),
            cwd=cwd,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    first, _ = head.communicate(timeout=120)
    return done, first


def run_output_closed(
    argv: Sequence[str], env: Mapping[str, str], *, cwd: Path | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """``argv >&-`` run by a real ``bash``: the command starts with its standard output closed
    (Python's ``sys.stdout`` is None), its standard error captured."""
    return subprocess.run(
        ["bash", "-c", 'exec "$@" >&-', "bash", *argv],
        input=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=dict(env),
        cwd=cwd,
        text=True,
        timeout=120,
        check=False,
    )
