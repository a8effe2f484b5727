"""Which versions deleted which files: the index the "recently deleted" listing reads (V-2).

``git log --diff-filter=D`` finds deletions by diffing every version with its parent, and a
scope's deletions are few: with a handful of them in 30,000 versions the walk crossed the whole
history on every look (0.1 s over 20 files, 4.8 s over 3,000, as each diff compares the whole
flat file list). So the deletions found are kept beside the repository, in
:data:`INDEX_FILE` inside the git folder (:mod:`.side_files`): the version the index reaches
(``to``), the ``(version, file)`` pairs of the deletions found, newest first, at most
:data:`ENTRIES_KEPT`, and where the walk down the history stands (``rest``: the versions from
``rest`` down are not walked yet; none once the index is complete).

A look walks the versions recorded since ``to`` (none when nothing was recorded;
:func:`~.maintenance.maintain` brings the index up to date every
:data:`~.recorder.MAINTENANCE_PACKS` records, so the walk is short), then, while the index is
not complete, walks on down the history for :data:`LOOK_BUDGET` seconds (the step under way is
finished), in steps of :data:`STEP` versions along the branch (a step crosses the versions
merged in on the way too), and says whether it is complete: the first look after an upgrade,
or after retention rewrote the history (``to`` is then no longer an ancestor of the newest
version: V-3) or a history was put back from a bundle, or with the index missing or damaged,
answers at once with the newest deletions, and the looks after it go on where it stopped (the
web page asks again until the index is complete). No look walks the whole of a long history;
maintenance, which holds the scope's lock, never walks down at all.

Two processes that walk at once each write an index true for what it names (the last one
wins); it says nothing git does not (the versions are read from git again before they are
shown), and losing it costs walking again.

Blocking: run it in a worker thread.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from memory_api.store.history.git import HistoryUnavailable, git
from memory_api.store.history.repo import is_ancestor, log, read_head
from memory_api.store.history.side_files import HEX40, read_side_file, write_side_file

__all__ = [
    "ENTRIES_KEPT",
    "INDEX_FILE",
    "LOOK_BUDGET",
    "STEP",
    "Deletion",
    "Deletions",
    "recent_deletions",
    "refresh",
]

logger = logging.getLogger(__name__)

INDEX_FILE = "memory-api-deletions.json"
"""The index's file name inside a scope's git folder."""
ENTRIES_KEPT = 2000
"""Deletions (one per file a version deleted) the index keeps, newest first."""
STEP = 100
"""Versions along the branch walked down at a time while the index is not complete (about
25 ms over 3,000 files on a quiet machine, a few times that under load)."""
LOOK_BUDGET = 0.05
"""Seconds after which a look starts no further step down a history whose index is not
complete (it walks one :data:`STEP` at least): the rest is left to the next look."""

Deletion = tuple[str, str]
"""``(version, file)``: the version that deleted ``file`` (its id, 40 hex digits)."""


@dataclass(frozen=True, slots=True)
class Deletions:
    """What the index knows: ``found``, the deletions newest first (the same file may appear
    more than once: deleted, brought back, deleted again), and whether it is ``complete``
    (every version walked; else ``found`` holds those of the newest versions only)."""

    found: list[Deletion]
    complete: bool


def recent_deletions(repository: Path, *, budget: float | None = None) -> Deletions:
    """The deletions of the branch's history, newest first, at most :data:`ENTRIES_KEPT`.

    Brings the index up to date, walks down for at most ``budget`` seconds (default
    :data:`LOOK_BUDGET`; one :data:`STEP` at least, none with ``budget`` 0) while it is not
    complete, and writes it back (a failed write is logged; the answer stands). With
    ``budget`` 0 an index that must be started again is left for the next look (nothing
    found, not complete). An empty history is complete with nothing found. Raises
    :class:`~.git.HistoryUnavailable` when git cannot read the history."""
    budget = LOOK_BUDGET if budget is None else budget
    head = read_head(repository)
    if head is None:
        return Deletions([], complete=True)
    kept = _read_index(repository)
    to, found, rest = kept
    if to != head and (to is None or not is_ancestor(repository, to, head)):
        if budget <= 0:
            return Deletions([], complete=False)
        to, found, rest = head, [], head  # walked from the newest version down, anew
    if to != head:
        found = _walk(repository, head, f"^{to}") + found
    deadline = time.monotonic() + budget
    steps = 0
    while rest is not None and len(found) < ENTRIES_KEPT and budget > 0:
        if steps and time.monotonic() >= deadline:
            break
        below = _step_below(repository, rest)
        found = found + _walk(repository, rest, *([f"^{below}"] if below else []))
        rest, steps = below, steps + 1
    if len(found) >= ENTRIES_KEPT:
        found, rest = found[:ENTRIES_KEPT], None  # older deletions would not be kept anyway
    if (head, found, rest) != kept:
        pairs = [list(item) for item in found]
        write_side_file(repository, INDEX_FILE, {"to": head, "deleted": pairs, "rest": rest})
    return Deletions(found, complete=rest is None)


def _step_below(repository: Path, version: str) -> str | None:
    """The version :data:`STEP` versions below ``version`` along the branch (first parents);
    None when the history is not that long."""
    out = git(repository, "rev-list", "--first-parent", f"--skip={STEP}", "-n", "1", version)
    return out.decode("ascii").strip() or None


def _walk(repository: Path, head: str, *args: str) -> list[Deletion]:
    """The deletions of the versions ``git log --diff-filter=D ARGS HEAD`` lists."""
    found: list[Deletion] = []
    for entry in log(repository, "--diff-filter=D", *args, head):
        if entry.parents:
            found.extend((entry.version, item.name) for item in entry.files if item.status == "D")
    return found


def _read_index(repository: Path) -> tuple[str | None, list[Deletion], str | None]:
    """``(to, deletions, rest)`` of the index; ``(None, [], None)`` when it is missing or not
    one this module wrote (it is then started again)."""
    missing: tuple[str | None, list[Deletion], str | None] = (None, [], None)
    document = read_side_file(repository, INDEX_FILE)
    if document is None:
        return missing
    to, entries, rest = document.get("to"), document.get("deleted"), document.get("rest")
    if (
        not isinstance(to, str)
        or not HEX40.fullmatch(to)
        or not isinstance(entries, list)
        or not (rest is None or (isinstance(rest, str) and HEX40.fullmatch(rest)))
    ):
        return missing
    found: list[Deletion] = []
    for item in entries:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not all(isinstance(part, str) for part in item)
            or not HEX40.fullmatch(item[0])
        ):
            return missing
        found.append((item[0], item[1]))
    return to, found, rest


def refresh(repository: Path) -> None:
    """Bring the index of ``repository`` up to date by walking the versions recorded since it
    (:func:`~.maintenance.maintain` does, under the scope's lock, so it never walks down an
    index that is not complete, and leaves a missing or outdated one to the next look). Logs,
    never raises, when git cannot read the history."""
    try:
        recent_deletions(repository, budget=0)
    except HistoryUnavailable as error:
        logger.warning("the deletions of %s are not indexed: %s", repository.name, error.detail)
