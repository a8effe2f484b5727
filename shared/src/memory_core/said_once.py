"""What a process has said once already: a log line met at every request is said the first time.

A fault on disk the service meets at every request (a symlink in the data dir, a file the history
cannot take, a leftover folder a forget left) is logged once per process, not once per request;
one bounded memory of the keys said serves every such log line.
"""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["SAID_KEPT", "first_time"]

SAID_KEPT = 4096
"""How many keys a process remembers having said; past it the oldest is forgotten first (said
again if met again)."""

_said: dict[Hashable, None] = {}


def first_time(key: Hashable) -> bool:
    """Whether ``key`` (a caller's own tuple: its module's name first, then what it says of
    what) is met for the first time in this process; it is remembered from then on, at most
    :data:`SAID_KEPT` keys, the oldest forgotten first.

    >>> first_time(("doctest", "a")), first_time(("doctest", "a"))
    (True, False)
    """
    if key in _said:
        return False
    if len(_said) >= SAID_KEPT:
        del _said[next(iter(_said))]
    _said[key] = None
    return True
