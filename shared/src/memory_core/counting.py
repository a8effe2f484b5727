"""A count with its noun in the right number, for reports people read (``1 line``, ``2 lines``).

>>> counted(1, "line"), counted(0, "line"), counted(2, "added memory", "added memories")
('1 line', '0 lines', '2 added memories')
"""

from __future__ import annotations

__all__ = ["counted"]


def counted(count: int, one: str, many: str | None = None) -> str:
    """``count`` and ``one`` when it is 1, else ``many`` (default ``one`` + ``s``); e.g.
    ``counted(1, "scope")`` is ``1 scope``, ``counted(3, "entry", "entries")`` ``3 entries``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"
