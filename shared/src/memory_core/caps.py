"""The caps on injected indexes (I-3, I-4): their numbers, the one cut, and the notes.

:func:`share_budget` is the cut: how many leading lines of each scope's index fit a budget,
shared fairly between the scopes. The service cuts with it at :data:`CHAR_CAP` code points
(:func:`memory_core.injection.cap_indexes`); a harness whose own context limit is smaller cuts
what the service kept once more with it, at its own budget and in its own units
(``harness_memory.fitting``, H-1). :func:`truncation_note` and :func:`empty_note` are the
notes that stand in for what was left out.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from memory_core.keys import USER_SCOPE
from memory_core.wire import CapFired

__all__ = [
    "CHAR_CAP",
    "LINE_CAP",
    "Unread",
    "empty_note",
    "folder_unlisted",
    "folder_unreadable",
    "index_unread",
    "is_folder_unlisted",
    "is_folder_unread",
    "share_budget",
    "truncation_note",
    "uncreated_note",
    "unreadable_note",
]

LINE_CAP = 200
"""At most this many lines of one scope's index are injected (I-4)."""
CHAR_CAP = 25_000
"""At most this many code points of both indexes together are injected (I-4)."""
Unread = tuple[int, bool]
"""Lines of an index past the read cap, and whether that count is exact (T-5b)."""


def share_budget(ends: Sequence[Sequence[int]], budget: int) -> list[int]:
    """How many leading lines of each scope's index fit ``budget`` together (I-4).

    ``ends[s][k]`` is what keeping the first ``k + 1`` lines of scope ``s`` costs, in the
    caller's units (non-decreasing; for the service a line costs its code points plus one for
    its line end); one or two scopes, the user scope first. Returns the number of lines kept
    per scope, in the same order:

    - when every line of every scope fits, all are kept;
    - otherwise each scope may use up to half of ``budget`` (the user scope the smaller half of
      an odd one); a scope that needs less keeps all its lines and hands the rest to the other,
      so one huge index never starves the other;
    - a scope keeps the longest prefix of its lines that fits its share: the first line that
      does not fit ends it (a later, shorter line is never kept instead, which would reorder
      what the model sees).

    >>> share_budget([[10, 20, 30], [50, 100]], 60)
    [3, 0]
    >>> share_budget([[40, 80], [40, 80]], 100)
    [1, 1]

    Raises ``ValueError`` for more than two scopes.
    """
    if len(ends) > 2:
        raise ValueError(f"the caps share a budget between at most two scopes, not {len(ends)}")
    needs = [scope[-1] if scope else 0 for scope in ends]
    if sum(needs) <= budget:
        return [len(scope) for scope in ends]
    if len(ends) == 1:
        return [bisect.bisect_right(ends[0], budget)]
    first, second = ends
    half = budget // 2
    if needs[0] <= half:
        return [len(first), bisect.bisect_right(second, budget - needs[0])]
    if needs[1] <= half:
        return [bisect.bisect_right(first, budget - needs[1]), len(second)]
    return [bisect.bisect_right(first, half), bisect.bisect_right(second, budget - half)]


def _label(scope: str) -> str:
    return "user memory index" if scope == USER_SCOPE else f"Workspace memory index ({scope})"


def empty_note(scope: str) -> str:
    """The note injected for a blank or missing index (I-3)."""
    return f"(Nothing saved yet: the {_label(scope)} is empty; MEMORY.md is blank or missing.)"


def uncreated_note(scope: str, why: str) -> str:
    """The note injected for a scope whose directory could not be created (A-9, K-5, K-6): the
    model must not be sent to save memories into a folder that is not there. ``why`` is the
    reason, e.g. "could not create its folder (Read-only file system)"."""
    return (
        f"(Not available: {'user memory' if scope == USER_SCOPE else f'Workspace memory ({scope})'}"
        " cannot be saved in this "
        f"Session: Agent Memory {why}. Do not write into its Directory; tell the user that "
        "memory could not be prepared, and say what you would have saved.)"
    )


_FOLDER_UNREADABLE = "cannot read its scope folder"


def folder_unreadable(strerror: str) -> str:
    """Why an index could not be read when its scope folder cannot be (another account's
    folder, mode ``0700``: Q-2b): ``"cannot read its scope folder (Permission denied)"``.
    Whether ``MEMORY.md`` is there cannot then be told, which :func:`index_unread` says."""
    return f"{_FOLDER_UNREADABLE} ({strerror})"


_FOLDER_UNLISTED = "cannot list it"


def folder_unlisted(strerror: str) -> str:
    """Why a scope folder's listing failed when the folder may still be entered (read denied,
    search allowed: another account's folder with mode ``0711``, Q-2b): ``"cannot list it
    (Permission denied)"``. Its files are then opened by name (the index is read and
    injected), but which topic files it holds cannot be told."""
    return f"{_FOLDER_UNLISTED} ({strerror})"


def is_folder_unlisted(why: str) -> bool:
    """Whether ``why`` (a listing's ``error``) says the scope folder may be entered but not
    listed (:func:`folder_unlisted`)."""
    return why.startswith(_FOLDER_UNLISTED)


def is_folder_unread(why: str) -> bool:
    """Whether ``why`` (a manifest's ``unreadable``) says the scope folder itself could not be
    read (:func:`folder_unreadable`), not the index in it."""
    return why.startswith(_FOLDER_UNREADABLE)


def index_unread(why: str) -> str:
    """What a note says of an index that could not be read, ``why`` the manifest's
    ``unreadable``: ``MEMORY.md is there, but Agent Memory cannot read it (…)``, or for a
    scope folder that cannot be read (:func:`folder_unreadable`) that whether ``MEMORY.md`` is
    there cannot be told, never that it is."""
    if is_folder_unread(why):
        return f"Agent Memory {why}, so whether MEMORY.md is there cannot be told"
    return f"MEMORY.md is there, but Agent Memory {why}"


def unreadable_note(scope: str, why: str) -> str:
    """The note injected for an index that is there but cannot be read (Q-2b): never "nothing
    saved yet", since memories may well be saved. ``why`` is the reason, e.g. "cannot read
    it (Permission denied)"."""
    return (
        f"(Not loaded: the {_label(scope)} could not be read: {index_unread(why)}. Memories "
        "may be saved that are not shown here; tell the user, and do not take this as an empty "
        "memory.)"
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
