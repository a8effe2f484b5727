"""How far a version's recorded time can fall behind the versions below it: the bound that lets
a scope's changes ``since`` a time stop walking early (V-2).

A version's recorded time is its committer date, the clock of the process that recorded it.
With replicas on one data dir, a machine's merge or a clock set back, a version can be dated
earlier than one below it, so "recorded since T" is not "the versions above the first one dated
before T": git's own ``--since`` (``--max-age``) stops its walk there and would hide the
versions below it. What makes an early stop safe is a bound, **behind**: the most any
version's recorded time falls behind the latest recorded time of the versions below it (0 while
every clock moved forward). A version dated before ``T - behind`` has nothing below it dated
``T`` or later (each of them is at most ``behind`` later than it), so the walk
``--max-age=T-behind`` meets every version recorded since ``T`` and reads only the versions
recorded since ``T - behind``.

The bound is kept in :data:`INDEX_FILE` (:mod:`.side_files`) with the version it reaches
(``to``) and the latest recorded time up to it (``latest``). A look brings it up to date by
reading the ids, parents and times of the versions recorded since ``to`` only (``rev-list``
from the commit-graph, no diff). When ``to`` is not below the version asked about (retention
rewrote the history; a history put back from a bundle) or the file is missing or damaged,
every version's time is read once (about 0.1 s at 30,000 versions); :func:`~.maintenance.
maintain` does that under the scope's lock, so a look seldom has to.

Blocking: run it in a worker thread.
"""

from __future__ import annotations

import logging
from pathlib import Path

from memory_api.store.history.git import HistoryUnavailable, git
from memory_api.store.history.repo import is_ancestor, read_head
from memory_api.store.history.side_files import HEX40, read_side_file, write_side_file

__all__ = ["INDEX_FILE", "behind", "refresh"]

logger = logging.getLogger(__name__)

INDEX_FILE = "memory-api-clocks.json"
"""The bound's file name inside a scope's git folder."""


def behind(repository: Path, version: str) -> int:
    """Seconds: the most the recorded time of ``version`` or of any version below it falls
    behind the latest recorded time of the versions below that one (0 when none does). The
    kept bound answers when it reaches ``version`` or a version above it; otherwise it is
    brought up to ``version`` (see the module) and written back. Raises
    :class:`~.git.HistoryUnavailable` when git cannot read the history."""
    to, latest, most = _read(repository)
    if to == version:
        return most
    if to is not None and is_ancestor(repository, to, version):
        latest, most = _walk(repository, version, f"^{to}", latest=latest, most=most)
    elif to is not None and is_ancestor(repository, version, to):
        return most  # a bound over every version below ``to`` holds for those below ``version``
    else:
        latest, most = _walk(repository, version)
    write_side_file(repository, INDEX_FILE, {"to": version, "latest": latest, "behind": most})
    return most


def refresh(repository: Path) -> None:
    """Bring the kept bound up to the newest version (:func:`~.maintenance.maintain` does,
    under the scope's lock: a whole walk reads only ids, parents and times). Logs, never
    raises, when git cannot read the history."""
    try:
        head = read_head(repository)
        if head is not None:
            behind(repository, head)
    except HistoryUnavailable as error:
        logger.warning("the clocks of %s are not measured: %s", repository.name, error.detail)


def _walk(
    repository: Path, version: str, *args: str, latest: int = 0, most: int = 0
) -> tuple[int, int]:
    """``(latest, behind)`` up to ``version`` over the versions ``rev-list ARGS VERSION``
    lists, oldest first; ``latest`` and ``most`` are those of the versions below them (a
    parent the walk does not list is one of those)."""
    order = ("--reverse", "--topo-order", "--timestamp", "--parents")
    listed = git(repository, "rev-list", *order, version, *args, "--")
    latest_of: dict[str, int] = {}
    """By version: the latest recorded time of it and every version below it."""
    for line in listed.decode("ascii").splitlines():
        when_text, commit, *parents = line.split()
        when = int(when_text)
        if parents:
            below = max(latest_of.get(parent, latest) for parent in parents)
            most = max(most, below - when)
            when = max(when, below)
        latest_of[commit] = when
    return latest_of.get(version, latest), most


def _read(repository: Path) -> tuple[str | None, int, int]:
    """``(to, latest, behind)`` of the kept bound; ``(None, 0, 0)`` when there is none that
    this module wrote."""
    document = read_side_file(repository, INDEX_FILE)
    if document is None:
        return None, 0, 0
    to, latest, most = document.get("to"), document.get("latest"), document.get("behind")
    if (
        not isinstance(to, str)
        or not HEX40.fullmatch(to)
        or type(latest) is not int
        or type(most) is not int
        or most < 0
    ):
        return None, 0, 0
    return to, latest, most
