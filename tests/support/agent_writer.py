"""An agent writing its ``MEMORY.md`` with ordinary file I/O, as its harness's file tools do.

Run as a script (a process of its own, like an agent's tool calls)::

    python agent_writer.py STYLE INDEX RESULT_JSON --writer NAME --pause SECONDS \
        [--serial-lock PATH] [--stop-file PATH] [--count N]

Styles:

- ``append``: open with ``O_APPEND``, write one line, close (``echo … >> MEMORY.md``);
- ``inplace``: read the file, then write the whole of it plus one line back to the path
  (open with ``O_TRUNC``), the way a plain ``write_file`` tool does;
- ``rename``: read the file, write the whole of it plus one line to a temp file beside it and
  rename that over the path, as editors and atomic-writing agent tools do.

Both rewriting styles check, like Claude Code's Write tool, that the file did not change since
they read it (inode, size, mtime) right before writing, else they read it again. Writers given
the same ``--serial-lock`` take turns (``flock`` on that file, which the service never sees): one
agent's tool calls are sequential, and two rewriters racing each other would lose each other's
lines without any service involved.

Every line holds a unique token. At the end the writer stores in ``RESULT_JSON``: ``lines`` (what
it wrote) and ``stale_links``: link targets that a rewrite of it wrote while the target file no
longer existed, i.e. a whole-file write that may have brought back a link a delete had pruned
(the one case no pruning can prevent, see ``memory_core.file_edit``).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

_LINK_RE = re.compile(r"\]\(([^)\s]+\.md)\)")


@contextlib.contextmanager
def _turn(lock_path: str | None) -> Iterator[None]:
    if lock_path is None:
        yield
        return
    with Path(lock_path).open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _append(index: Path, line: str) -> None:
    fd = os.open(index, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def _stamp(index: Path) -> tuple[int, int, int]:
    info = index.stat()
    return info.st_ino, info.st_size, info.st_mtime_ns


def _read_fresh(index: Path) -> tuple[str, tuple[int, int, int]]:
    while True:
        before = _stamp(index)
        text = index.read_text(encoding="utf-8")
        if _stamp(index) == before:
            return text, before


def _rewrite(index: Path, line: str, style: str) -> str:
    """Read, add ``line``, write the whole file back; the content written is returned."""
    while True:
        text, stamp = _read_fresh(index)
        new = text + ("" if not text or text.endswith("\n") else "\n") + line
        if style == "rename":
            fd, temp = tempfile.mkstemp(dir=index.parent, prefix=".agent-", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(new)
            Path(temp).chmod(0o644)
            if _stamp(index) != stamp:  # changed since read: read again, as the tool would
                Path(temp).unlink()
                continue
            Path(temp).replace(index)
        else:
            if _stamp(index) != stamp:
                continue
            with index.open("w", encoding="utf-8") as handle:
                handle.write(new)
        return new


def _stale_links(index: Path, written: str) -> set[str]:
    return {target for target in _LINK_RE.findall(written) if not (index.parent / target).exists()}


def main() -> None:
    """Write lines until ``--count`` or the stop file; store the result JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("style", choices=["append", "inplace", "rename"])
    parser.add_argument("index", type=Path)
    parser.add_argument("result", type=Path)
    parser.add_argument("--writer", required=True)
    parser.add_argument("--pause", type=float, default=0.001)
    parser.add_argument("--serial-lock")
    parser.add_argument("--stop-file", type=Path)
    parser.add_argument("--count", type=int, default=1_000_000)
    args = parser.parse_args()
    lines: list[str] = []
    stale: set[str] = set()
    for number in range(args.count):
        if args.stop_file is not None and args.stop_file.exists():
            break
        line = f"- {args.writer} note {number} ({args.style}): keep this line\n"
        with _turn(args.serial_lock):
            if args.style == "append":
                _append(args.index, line)
            else:
                stale |= _stale_links(args.index, _rewrite(args.index, line, args.style))
        lines.append(line.rstrip("\n"))
        time.sleep(args.pause)
    args.result.write_text(json.dumps({"lines": lines, "stale_links": sorted(stale)}))


if __name__ == "__main__":
    main()
