"""Which versions deleted which files: the index the "recently deleted" listing reads (V-2).

``git log --diff-filter=D`` finds deletions by diffing every version with its parent, and a
scope's deletions are few: with a handful of them in 30,000 versions the walk crossed the whole
history on every look (0.1 s over 20 files, 4.8 s over 3,000, as each diff compares the whole
flat file list). So the deletions found are kept beside the repository, in
:data:`INDEX_FILE` inside the git folder (git ignores files it does not know there; no bundle,
push or fetch carries it): the version the index reaches (``to``) and the ``(version, file)``
pairs of the deletions up to it, newest first, at most :data:`ENTRIES_KEPT`.

A look reads the index and walks only the versions recorded since ``to`` (none when nothing
was recorded; :func:`~.maintenance.maintain` brings it up to date every
:data:`~.recorder.MAINTENANCE_PACKS` records, so the walk is short): its cost follows what is
new and what is listed, not the history's length. When ``to`` is no longer an ancestor of the
newest version (retention rewrote the history, V-3; a history put back from a bundle) or the
index is missing or unreadable, the next look builds it again by one whole walk (outside the
scope's lock) and writes it back.

The file is written whole (temp file, rename), so two processes that refresh it at once each
leave an index true for the version it names (the last one wins); it says nothing git does not
(the versions are read from git again before they are shown), and losing it costs one walk.

Blocking: run it in a worker thread.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from memory_core.atomic import atomic_write_bytes

from memory_api.store.history.git import HistoryUnavailable, git_status
from memory_api.store.history.repo import log, read_head

__all__ = ["ENTRIES_KEPT", "INDEX_FILE", "Deletion", "recent_deletions", "refresh"]

logger = logging.getLogger(__name__)

INDEX_FILE = "memory-api-deletions.json"
"""The index's file name inside a scope's git folder."""
ENTRIES_KEPT = 2000
"""Deletions (one per file a version deleted) the index keeps, newest first."""
_INDEX_CAP = 1024 * 1024
"""Bytes of the index read at most: far above :data:`ENTRIES_KEPT` entries."""
_HEX40 = re.compile(r"[0-9a-f]{40}")

Deletion = tuple[str, str]
"""``(version, file)``: the version that deleted ``file`` (its id, 40 hex digits)."""


def recent_deletions(repository: Path, *, rebuild: bool = True) -> list[Deletion]:
    """The deletions of the branch's history, newest first, at most :data:`ENTRIES_KEPT`
    (the same file may appear more than once: deleted, brought back, deleted again). Brings
    the index up to date and writes it back (a failed write is logged; the answer stands);
    without ``rebuild``, an index that would need the whole walk is left for the next look
    (an empty list then). An empty history gives an empty list. Raises
    :class:`~.git.HistoryUnavailable` when git cannot read the history."""
    head = read_head(repository)
    if head is None:
        return []
    to, known = _read_index(repository)
    if to == head:
        return known
    if to is not None and _is_ancestor(repository, to, head):
        found = _walk(repository, head, f"^{to}") + known
    elif rebuild:
        found = _walk(repository, head, "-n", str(ENTRIES_KEPT))
    else:
        return []
    found = found[:ENTRIES_KEPT]
    _write_index(repository, head, found)
    return found


def _walk(repository: Path, head: str, *args: str) -> list[Deletion]:
    """The deletions of the versions ``git log --diff-filter=D ARGS HEAD`` lists."""
    found: list[Deletion] = []
    for entry in log(repository, "--diff-filter=D", *args, head):
        if entry.parents:
            found.extend((entry.version, item.name) for item in entry.files if item.status == "D")
    return found


def _is_ancestor(repository: Path, older: str, newer: str) -> bool:
    """Whether version ``older`` is ``newer`` or one before it (False for one git lacks)."""
    code, _ = git_status(repository, "merge-base", "--is-ancestor", older, newer)
    return code == 0


def _read_index(repository: Path) -> tuple[str | None, list[Deletion]]:
    """``(to, deletions)`` of the index; ``(None, [])`` when it is missing or not one this
    module wrote (it is then built again)."""
    try:
        with (repository / INDEX_FILE).open("rb") as handle:
            raw = handle.read(_INDEX_CAP + 1)
        document = json.loads(raw) if len(raw) <= _INDEX_CAP else None
    except (OSError, ValueError):
        return None, []
    if not isinstance(document, dict):
        return None, []
    to, entries = document.get("to"), document.get("deleted")
    if not isinstance(to, str) or not _HEX40.fullmatch(to) or not isinstance(entries, list):
        return None, []
    found: list[Deletion] = []
    for item in entries:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not all(isinstance(part, str) for part in item)
            or not _HEX40.fullmatch(item[0])
        ):
            return None, []
        found.append((item[0], item[1]))
    return to, found


def _write_index(repository: Path, to: str, deletions: list[Deletion]) -> None:
    data = json.dumps({"to": to, "deleted": [list(item) for item in deletions]}).encode()
    try:
        # owner-only, as every file of the history (it names deleted files)
        atomic_write_bytes(repository / INDEX_FILE, data, mode=0o600, durable=False)
    except OSError as error:
        logger.warning("the deletions of %s are not kept: %s", repository.name, error.strerror)


def refresh(repository: Path) -> None:
    """Bring the index of ``repository`` up to date by walking the versions recorded since it
    (:func:`~.maintenance.maintain` does, under the scope's lock, which a whole walk of a long
    history would hold for seconds: a missing or outdated index is left to the next look).
    Logs, never raises, when git cannot read the history."""
    try:
        recent_deletions(repository, rebuild=False)
    except HistoryUnavailable as error:
        logger.warning("the deletions of %s are not indexed: %s", repository.name, error.detail)
