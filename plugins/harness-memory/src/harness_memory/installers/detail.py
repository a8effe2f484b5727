"""Which of an install's sentences only ``install --verbose`` prints (H-3).

An install said everything it knew, about 17 lines and 4,500 characters per harness: the
files it wrote and what it turned off drowned in what the write guard does not cover, how the
hooks' Python is isolated and that bytecode was compiled. A newcomer reads a short summary:
what was written, what was turned off or stays on, every warning, the two facts a user needs
most (shell commands are fenced only by the harness's sandbox; a repository can switch the hooks
off unless installed with ``--managed``) and, last, one line saying that ``--verbose`` has the
rest (a command: a wheel user has no checkout to read a README path in). A sentence made a
:class:`Detail` where it is written is one of the rest; every other sentence is always printed.
"""

from __future__ import annotations

__all__ = ["MORE", "Detail", "shown"]


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
