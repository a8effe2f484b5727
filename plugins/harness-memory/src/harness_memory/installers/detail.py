"""Which of an install's sentences only ``install --verbose`` prints (H-3).

An install said everything it knew, about 17 lines and 4,500 characters per harness: the
files it wrote and what it turned off drowned in what the write guard does not cover, how the
hooks' Python is isolated and that bytecode was compiled. A newcomer reads a short summary:
what it wrote, every setting of the harness it turned off (round 62: Codex CLI's terminals
and Gemini CLI's directory tree were said only with ``--verbose``) or what stays on, the
settings it widened for the memory root, every warning and, last, the one next step with
where the rest is (``--verbose``: a command, as a wheel user has no checkout to read a
README path in); what the write guard does not cover and what a repository can switch off are
in that rest (round 59: the summary was still 11 lines). A sentence made a
:class:`Detail` where it is written is one of the rest; every other sentence is always printed.

An uninstall said one line per path it removed, about 11 lines per harness (every state file,
then each folder it emptied). Without ``--verbose`` it says each removed path that is not inside
another one it removed, a folder with the paths it held in one line (:func:`removed_said`),
and last :data:`UNINSTALL_MORE`.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "MORE",
    "NOTHING_TO_CHANGE",
    "UNINSTALL_MORE",
    "Detail",
    "next_step",
    "removed_said",
    "shown",
]


class Detail(str):
    """A sentence of the install's output printed only with ``--verbose`` (a ``str`` in every
    other respect: it is written where any note is)."""

    __slots__ = ()


MORE = (
    "what the write guard does not cover, and what a repository can switch off: run the same "
    "command with --verbose (with --dry-run too, to change nothing)"
)
"""The line an install without ``--verbose`` prints in place of the details it leaves out."""


def shown(sentences: list[str], *, verbose: bool, more: str | None = MORE) -> list[str]:
    """``sentences`` as printed: all of them with ``verbose``; else those that are no
    :class:`Detail`, then ``more`` when one was left out (None: the caller says it, as an
    install does in its :func:`next_step` line)."""
    if verbose:
        return sentences
    kept = [sentence for sentence in sentences if not isinstance(sentence, Detail)]
    return kept if len(kept) == len(sentences) or more is None else [*kept, MORE]


NEXT_STEP = (
    "next: start {product} (`{command}`) in a project folder, the Session's Workspace; "
    "`harness-memory status` then names that Session"
)
"""The last line of an install that wrote its hooks (``{product}``, ``{command}``: the
harness's name and command, as ``harness_version.MEASURED`` holds them)."""
NOTHING_TO_CHANGE = (
    "nothing would change: every file is already as this install leaves it (no need to run it)"
)
"""The last line of an install's dry run that would change no file, in place of its ``next:``
command (H-3)."""
NEXT_STEP_MORE = (
    "; the rest (all it set, what the write guard does not cover, what a repository can "
    "switch off): --verbose"
)
"""What :data:`NEXT_STEP` adds without ``--verbose``, in place of :data:`MORE`."""


def next_step(product: str, command: str, *, verbose: bool) -> str:
    """The one next step an install ends with (H-3): start the harness in a project folder,
    then ``harness-memory status``; without ``verbose`` also where the rest of what it did is
    said (the install's summary is what it wrote, what it turned off, every warning, and this).

    >>> print(next_step("Codex CLI", "codex", verbose=True).replace("; ", ";\\n"))
    next: start Codex CLI (`codex`) in a project folder, the Session's Workspace;
    `harness-memory status` then names that Session
    """
    said = NEXT_STEP.format(product=product, command=command)
    return said if verbose else said + NEXT_STEP_MORE


UNINSTALL_MORE = "every path it removed, one a line: run the same command with --verbose"
"""The line an uninstall without ``--verbose`` prints when it said removed paths folded."""


def removed_said(removed: list[Path], *, verbose: bool) -> list[str]:
    """The ``removed …`` sentences of an uninstall that deleted ``removed`` (files before the
    folders holding them): one a path with ``verbose``; else one for each path inside no other
    of ``removed``, a folder as ``removed DIR/ (a, sub/b)``: the files (and folders holding
    nothing else removed) it held, relative to it, in the order removed (H-3)."""
    if verbose:
        return [f"removed {path}" for path in removed]
    said: list[str] = []
    for top in removed:
        if any(top != other and top.is_relative_to(other) for other in removed):
            continue
        inner = [path for path in removed if path != top and path.is_relative_to(top)]
        leaves = [
            path.relative_to(top).as_posix()
            for path in inner
            if not any(other != path and other.is_relative_to(path) for other in inner)
        ]
        said.append(f"removed {top}{os.sep} ({', '.join(leaves)})" if leaves else f"removed {top}")
    return said
