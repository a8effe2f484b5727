"""The caps' numbers and the notes that stand in for what they leave out (I-3, I-4, T-5b).

Kept apart from :mod:`memory_core.injection`, which applies the caps, so that a harness's hook
process can restate a note after its own cut (H-1) without loading msgspec and the wire types
(H-5: a hook costs at most 3x a bare Python start).
"""

from __future__ import annotations

from memory_core.keys import USER_SCOPE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from memory_core.wire import CapFired

__all__ = ["CHAR_CAP", "LINE_CAP", "Unread", "empty_note", "truncation_note", "unreadable_note"]

LINE_CAP = 200
"""At most this many lines of one scope's index are injected (I-4)."""
CHAR_CAP = 25_000
"""At most this many code points of both indexes together are injected (I-4)."""
Unread = tuple[int, bool]
"""Lines of an index past the read cap, and whether that count is exact (T-5b)."""


def _label(scope: str) -> str:
    return "user memory index" if scope == USER_SCOPE else f"Workspace memory index ({scope})"


def empty_note(scope: str) -> str:
    """The note injected for a blank or missing index (I-3)."""
    return f"(Nothing saved yet: the {_label(scope)} is empty; MEMORY.md is blank or missing.)"


def unreadable_note(scope: str, why: str) -> str:
    """The note injected for an index that is there but cannot be read (Q-2b): never "nothing
    saved yet", since memories may well be saved. ``why`` is the reason, e.g. "cannot read
    it (Permission denied)"."""
    return (
        f"(Not loaded: the {_label(scope)} could not be read: MEMORY.md is there, but Agent "
        f"Memory {why}. Memories may be saved that are not shown here; tell the user, and do "
        "not take this as an empty memory.)"
    )


def truncation_note(
    scope: str,
    left_out: int,
    total: int,
    cap: CapFired,
    *,
    unread: Unread = (0, True),
    harness_limit: str | None = None,
    harness_left_out: int = 0,
) -> str:
    """The note that follows a cut index (I-4): scope, lines left out, what to do.

    ``unread`` is ``(lines, exact)`` past the 1 MiB read cap of an over-large index (T-5b):
    they count as left out, and "at least" is said when their number is a lower bound.
    ``harness_limit`` names a harness's own limit (H-1, "Claude Code's limit of 10,000
    characters per SessionStart hook") when the harness left out ``harness_left_out`` lines
    beyond the service's cut; ``left_out`` counts them too and ``cap`` stays the cap that fired
    on the service (``none`` when only the harness cut).
    """
    reasons = []
    if cap != "none" and left_out - harness_left_out > unread[0]:
        reasons.append(
            f"the {LINE_CAP}-line cap"
            if cap == "lines"
            else f"the {CHAR_CAP:,}-character limit for injected indexes"
        )
    if unread[0]:
        reasons.append("the 1 MiB read limit for MEMORY.md")
    if harness_limit is not None and harness_left_out:
        reasons.append(harness_limit)
    at_least = "" if unread[1] else "at least "
    plural = "line was" if left_out == 1 and unread[1] else "lines were"
    return (
        f"(Truncated: the {_label(scope)} shows {total - left_out} of {at_least}{total} lines; "
        f"{at_least}{left_out} {plural} left out because of {' and '.join(reasons)}. Open the "
        "full MEMORY.md in this scope's Directory yourself before relying on this list.)"
    )
