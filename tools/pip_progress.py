"""Run ``pip install`` with one progress line instead of a minute of silence (Q-1).

``make run`` and ``make test`` install into ``.venv`` on first use. ``pip --quiet`` says nothing
for a minute or more; plain ``pip`` prints a screenful per package. This runs pip and keeps one
line up to date on a terminal (``installing: 23 packages resolved, aiohttp``), or prints a line
every few packages when the output is a file or a CI log, then how long it took. On failure it
prints pip's whole output and exits with pip's status. Standard library only: it runs before
anything is installed.

    python tools/pip_progress.py LABEL -- PIP-INSTALL-ARGUMENTS...
"""

from __future__ import annotations

import re
import subprocess
import sys
import time

COLLECTING = re.compile(r"^\s*(?:Collecting|Requirement already satisfied:|Obtaining)\s+(\S+)")
INSTALLING = re.compile(r"^\s*Installing collected packages: (.*)$")
LOG_EVERY = 10
"""Without a terminal, a line every this many packages resolved."""


def _name(requirement: str) -> str:
    """``aiohttp>=3.14`` → ``aiohttp``; a path or URL keeps its last part."""
    head = re.split(r"[<>=!~;\[ (]", requirement, maxsplit=1)[0]
    return head.rstrip("/").rsplit("/", 1)[-1] or requirement


def main(argv: list[str]) -> int:
    """Run ``pip install`` with ``argv`` = ``LABEL -- ARGS...``; return pip's exit status."""
    if len(argv) < 3 or argv[1] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    label, pip_args = argv[0], argv[2:]
    command = [sys.executable, "-m", "pip", "install", "--progress-bar", "off", *pip_args]
    tty = sys.stdout.isatty()
    started = time.monotonic()
    seen: list[str] = []
    output: list[str] = []
    with subprocess.Popen(  # noqa: S603 - this interpreter's pip, with the Makefile's arguments
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    ) as pip:
        assert pip.stdout is not None
        for line in pip.stdout:
            output.append(line)
            if match := COLLECTING.match(line):
                seen.append(_name(match.group(1)))
                status = f"{label}: {_packages(len(seen))} resolved, {seen[-1]}"
                worth_a_line = len(seen) % LOG_EVERY == 1
            elif match := INSTALLING.match(line):
                count = len(match.group(1).split(","))
                status = f"{label}: unpacking {_packages(count)}…"
                worth_a_line = True
            else:
                continue
            if tty:
                print(f"\r\033[K{status}", end="", flush=True)
            elif worth_a_line:
                print(status, flush=True)
    took = time.monotonic() - started
    if tty:
        print("\r\033[K", end="")
    if pip.returncode != 0:
        print("".join(output), end="", file=sys.stderr)
        print(f"{label}: pip failed (exit {pip.returncode})", file=sys.stderr)
        return pip.returncode
    print(f"{label}: done in {took:.0f} s ({_packages(len(seen))})", flush=True)
    return 0


def _packages(count: int) -> str:
    """``1 package``, ``23 packages`` (the line read "1 packages resolved")."""
    return f"{count} package" if count == 1 else f"{count} packages"


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
