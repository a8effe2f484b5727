"""Which of an install's sentences only ``install --verbose`` prints (H-3).

An install said everything it knew, about 17 lines and 4,500 characters per harness: the
files it wrote and what it turned off drowned in what the write guard does not cover, how the
hooks' Python is isolated and that bytecode was compiled. A newcomer reads a short summary:
what was written, what was turned off or stays on, every warning, the two facts a user needs
most (shell commands are fenced only by the harness's sandbox; a repository can switch the hooks
off unless installed with ``--managed``) and, last, one line saying that ``--verbose`` has the
rest (a command: a wheel user has no checkout to read a README path in). A sentence made a
:class:`Detail` where it is written is one of the rest; every other sentence is always printed.

An uninstall said one line per path it removed, about 11 lines per harness (every state file,
then each folder it emptied). Without ``--verbose`` it says each removed path that is not inside
another one it removed, a folder with the paths it held in one line (:func:`removed_said`),
and last :data:`UNINSTALL_MORE`.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["MORE", "UNINSTALL_MORE", "Detail", "removed_said", "shown"]


class Detail(str):
    """A sentence of the install's output printed only with ``--verbose`` (a ``str`` in every
    other respect: it is written where any note is)."""

    __slots__ = ()


MORE = (
    "what the write guard does not cover, and what a repository can switch off: run the same "
    "command with --verbose (with --dry-run too, to change nothing)"
)
"""The line an install without ``--verbose`` prints in place of the details it leaves out."""


def shown(sentences: list[str], *, verbose: bool) -> list[str]:
    """``sentences`` as printed: all of them with ``verbose``; else those that are no
    :class:`Detail`, then :data:`MORE` when one was left out."""
    if verbose:
        return sentences
    kept = [sentence for sentence in sentences if not isinstance(sentence, Detail)]
    return kept if len(kept) == len(sentences) else [*kept, MORE]


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
