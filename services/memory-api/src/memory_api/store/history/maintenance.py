"""Keeping a scope's history small and fast: repacking, and the operator's retention (V-3).

**Repacking.** Each version is recorded as a pack of its own (one fsync, a full copy of the
scope's file list). Once :data:`~.recorder.MAINTENANCE_PACKS` packs have gathered,
:func:`maintain` rolls the small ones into larger ones (``git repack --geometric=2 -d``: the
file lists then cost a delta each, about a hundred bytes instead of the whole list) and writes
the commit-graph with changed-path Bloom filters, which lets the history of one file skip every
version that did not touch it; then the index of deletions (:mod:`.deletions`) and the bound
on clocks running behind (:mod:`.clocks`) are brought up to date. All are safe to stop
halfway; the service runs them under the scope's lock, outside any request (a background task
after a record, or the CLI).

**Retention** (:func:`apply_retention`, ``memory-api history prune``): git cannot drop versions
from the middle of a history without rewriting what follows, so the operator's limits cut its
*old end*. A scope keeps its versions that are both younger than the age limit and among the
newest N; everything older is squashed into one base version holding the scope as it was just
before the oldest kept version (source ``squash``). Every version counts, not only one line:
where two lines (two machines' histories joined by a merge, brought in by an import) cross the
cut, each has a base of its own holding its files, so a kept version of either reads as the
same change, and the merge still joins them. The kept versions are written again on top
of it with their own files, authors, times and messages, so they read exactly as before but get
new ids (a page or client that remembered an id of a kept version asks by time instead, or
reloads). What only the squashed versions held (a file deleted and never brought back before the
cut, an older text) is gone for good once the objects are pruned.

Blocking: run it in a worker thread or from the command line, holding the scope's lock.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from memory_api.errors import ServiceError
from memory_api.store.history import clocks, deletions
from memory_api.store.history.git import (
    BRANCH,
    REPAIR,
    HistoryDamaged,
    check_repository,
    git,
    is_repository,
    remove_stale_locks,
)
from memory_api.store.history.repo import COMMITTER, read_head
from memory_api.store.locks import Locks, lock_name

__all__ = ["Pruned", "Retention", "apply_retention", "maintain", "prune_agent"]

logger = logging.getLogger(__name__)

TEMP_PACK_AGE = 3600.0
"""Seconds after which a ``tmp_*`` pack left by a killed git process is removed."""
_RETENTION_REF = "refs/heads/retention"


@dataclass(frozen=True, slots=True)
class Retention:
    """The operator's limits (V-3): keep versions younger than ``max_age_days`` and at most
    ``max_versions`` per scope; 0 means no limit of that kind."""

    max_age_days: int = 0
    max_versions: int = 0

    @property
    def unlimited(self) -> bool:
        """Whether neither limit is set (nothing is ever pruned)."""
        return self.max_age_days <= 0 and self.max_versions <= 0


@dataclass(frozen=True, slots=True)
class Pruned:
    """What a retention run did to one history: versions kept and squashed (0: untouched), or
    why it could not (``problem``: a damaged history, a full disk, a lock not had)."""

    kept: int
    squashed: int
    problem: str | None = None


def maintain(repository: Path) -> None:
    """Repack the small packs, write the commit-graph and bring the index of deletions
    (:mod:`.deletions`) and the bound on clocks running behind (:mod:`.clocks`) up to date;
    under the lock."""
    remove_stale_locks(repository)
    _remove_temp_packs(repository)
    git(repository, "repack", "-d", "-q", "--geometric=2")
    git(repository, "commit-graph", "write", "--reachable", "--changed-paths", "--split")
    deletions.refresh(repository)
    clocks.refresh(repository)


def _remove_temp_packs(repository: Path) -> None:
    """Remove what killed git processes left, older than :data:`TEMP_PACK_AGE`: ``tmp_*``
    packs, and the quarantine folders (``objects/tmp_objdir-incoming-*``) of a ``receive-pack``
    stopped mid-push (the service killed, the sync timeout), each up to a whole push's size."""
    limit = time.time() - TEMP_PACK_AGE
    for folder, prefix in (
        (repository / "objects" / "pack", "tmp_"),
        (repository / "objects", "tmp_objdir-"),
    ):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if (
                    not entry.name.startswith(prefix)
                    or entry.stat(follow_symlinks=False).st_mtime >= limit
                ):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    Path(entry.path).unlink()
            except OSError:
                continue


@dataclass(frozen=True, slots=True)
class _Logged:
    """A version as retention reads it: its id, commit time (seconds), tree and parents."""

    version: str
    time: int
    tree: str
    parents: tuple[str, ...]


def _commits(repository: Path) -> list[_Logged]:
    """Every version of the branch, newest first (``--date-order``: a version always before
    the ones below it, the lines joined by a merge interleaved by time)."""
    out = git(repository, "log", "--date-order", "--format=%H %ct %T %P", BRANCH)
    commits = []
    for line in out.decode("ascii").splitlines():
        version, when, tree, *parents = line.split()
        commits.append(_Logged(version, int(when), tree, tuple(parents)))
    return commits


def _kept(commits: list[_Logged], retention: Retention, now: float | None) -> list[_Logged]:
    """The versions ``retention`` keeps of ``commits`` (newest first), newest first: those
    younger than the age limit, and every version above one of them (a clock behind never
    cuts a version out from between kept ones), then the newest ``max_versions`` of those.
    So every version above a kept one is kept: a kept version stands on kept ones or on the
    squashed bases only (:func:`_rewritten`)."""
    kept = commits
    if retention.max_age_days > 0:
        limit = (time.time() if now is None else now) - retention.max_age_days * 86400
        young: set[str] = set()
        for commit in reversed(commits):  # oldest first: a version's parents are decided
            if commit.time >= limit or any(parent in young for parent in commit.parents):
                young.add(commit.version)
        kept = [commit for commit in commits if commit.version in young]
    if retention.max_versions > 0:
        kept = kept[: retention.max_versions]
    return kept


def _raw_commits(repository: Path, versions: list[str]) -> dict[str, bytes]:
    """The raw commit objects of ``versions`` (one ``git cat-file --batch``)."""
    out = git(
        repository,
        "cat-file",
        "--batch",
        stdin="".join(f"{version}\n" for version in versions).encode("ascii"),
    )
    found: dict[str, bytes] = {}
    position = 0
    while position < len(out):
        end = out.index(b"\n", position)
        version, _, size = out[position:end].split(b" ")
        start = end + 1
        found[version.decode("ascii")] = out[start : start + int(size)]
        position = start + int(size) + 1
    return found


def _data(payload: bytes) -> bytes:
    return b"data %d\n%s\n" % (len(payload), payload)


def _replayed(raw: bytes, mark: int, parents: list[int]) -> bytes:
    """A kept version written again as ``fast-import`` input as mark ``mark``, on the marks
    ``parents`` (the first its first parent, the others merged; none: a first version)."""
    head, _, message = raw.partition(b"\n\n")
    lines = {line.split(b" ", 1)[0]: line for line in head.split(b"\n")}
    tree = lines[b"tree"].split(b" ", 1)[1]
    return b"".join(
        [
            b"" if parents else b"reset " + _RETENTION_REF.encode() + b"\n",
            b"commit " + _RETENTION_REF.encode() + b"\n",
            b"mark :%d\n" % mark,
            lines[b"author"] + b"\n",
            lines[b"committer"] + b"\n",
            _data(message),
            *(b"%s :%d\n" % (b"merge" if n else b"from", p) for n, p in enumerate(parents)),
            b"deleteall\n",
            b"M 040000 " + tree + b' ""\n',
        ]
    )


def _squash(by_id: dict[str, _Logged], boundary: _Logged, mark: int) -> bytes:
    """The squashed base standing for ``boundary`` (a version not kept, below a kept one) as
    ``fast-import`` input as mark ``mark``: a first version holding ``boundary``'s files,
    dated by it, counting the versions it squashes (``boundary`` and those below it);
    ``by_id`` every version of the branch by its id."""
    below, waiting = set(), [boundary.version]
    while waiting:
        version = waiting.pop()
        if version not in below:
            below.add(version)
            waiting.extend(by_id[version].parents)
    when = time.strftime("%Y-%m-%d", time.gmtime(boundary.time))
    message = (
        f"History up to {when} (squashed by retention)\n\nSource: squash\n"
        f"Squashed-Versions: {len(below)}\n"
    ).encode()
    return b"".join(
        [
            b"reset " + _RETENTION_REF.encode() + b"\n",  # a first version: no parent
            b"commit " + _RETENTION_REF.encode() + b"\n",
            b"mark :%d\n" % mark,
            f"author {COMMITTER} {boundary.time} +0000\n".encode(),
            f"committer {COMMITTER} {boundary.time} +0000\n".encode(),
            _data(message),
            b"M 040000 " + boundary.tree.encode() + b' ""\n',
        ]
    )


def _rewritten(commits: list[_Logged], kept: list[_Logged], raw: dict[str, bytes]) -> bytes:
    """The ``fast-import`` input of the history cut to ``kept`` (newest first, every version
    above a kept one kept too): each version not kept that a kept one stands on (its
    *boundary*: one on a line, one per line where lines are joined by a merge) becomes a
    squashed base holding its files, so each kept version is written again on the same files
    it stood on (:func:`_replayed`) and reads as the same change; oldest first, so the newest
    version, the head, is written last. With none kept, the head is the one base."""
    kept_ids = {commit.version for commit in kept}
    by_id = {commit.version: commit for commit in commits}
    if not kept:
        return _squash(by_id, commits[0], 1) + b"done\n"
    marks: dict[str, int] = {}  # version (kept, or a boundary) → its mark
    stream: list[bytes] = []
    for commit in reversed(kept):  # oldest first: a version's parents are written before it
        for parent in commit.parents:
            if parent not in kept_ids and parent not in marks:
                marks[parent] = len(marks) + 1
                stream.append(_squash(by_id, by_id[parent], marks[parent]))
        marks[commit.version] = len(marks) + 1
        parents = list(dict.fromkeys(marks[parent] for parent in commit.parents))
        stream.append(_replayed(raw[commit.version], marks[commit.version], parents))
    return b"".join([*stream, b"done\n"])


def apply_retention(repository: Path, retention: Retention, now: float | None = None) -> Pruned:
    """Cut ``repository``'s history to ``retention`` (see the module); under the scope lock.

    Returns what was kept and squashed; an empty history or one within the limits is left as
    it is. Raises :class:`~.git.HistoryUnavailable` when git refuses (the branch then still
    holds every version).
    """
    head = read_head(repository)
    if head is None or retention.unlimited:
        return Pruned(0, 0)
    commits = _commits(repository)
    kept = _kept(commits, retention, now)
    total, count = len(commits), len(kept)
    if count >= total - 1 or total == 1:
        return Pruned(total, 0)  # within the limits, or only the root would go: it is the base
    squashed = total - count
    remove_stale_locks(repository)
    raw = _raw_commits(repository, [commit.version for commit in kept])
    stream = _rewritten(commits, kept, raw)
    git(repository, "fast-import", "--quiet", "--done", "--force", stdin=stream)
    new_head = git(repository, "rev-parse", "--verify", _RETENTION_REF).decode().strip()
    git(repository, "update-ref", BRANCH, new_head, head)
    git(repository, "update-ref", "-d", _RETENTION_REF)
    _drop_machine_refs(repository)
    git(repository, "repack", "-a", "-d", "-q")
    git(repository, "prune", "--expire=now")
    git(repository, "commit-graph", "write", "--reachable", "--changed-paths", "--split=replace")
    logger.info("history %s: %d versions squashed, %d kept", repository.name, squashed, count)
    return Pruned(count, squashed)


def _drop_machine_refs(repository: Path) -> None:
    """Remove the machines' refs (``refs/machines/``, ``refs/taken/``, :mod:`memory_api.store.
    sync.backend`): they name commits on the squashed versions, whose objects they would keep.
    A machine's next push is then measured as one whose base is no version (R-2: what differs
    is kept twice), as its old base's id is gone anyway."""
    names = git(repository, "for-each-ref", "--format=%(refname)", "refs/machines", "refs/taken")
    deletes = "".join(f"delete {name}\n" for name in names.decode("utf-8", "replace").split())
    if deletes:
        git(repository, "update-ref", "--stdin", stdin=deletes.encode("utf-8"))


def prune_agent(
    history_root: Path, agent_id: str, retention: Retention, locks: Locks
) -> list[tuple[str, Pruned]]:
    """Apply ``retention`` to every scope history of ``agent_id`` under its ``history_root``
    (``<key>.git`` folders), each under its scope's lock; ``(key, what was done)`` per scope,
    sorted. A history that cannot be pruned (damaged, git refusing, its lock not had) is one
    entry with its ``problem``, and the others are pruned all the same: one damaged scope
    never stops the retention of every other."""
    try:
        found = sorted(
            entry.name for entry in os.scandir(history_root) if entry.name.endswith(".git")
        )
    except FileNotFoundError:
        return []
    done: list[tuple[str, Pruned]] = []
    for name in found:
        key = name.removesuffix(".git")
        repository = history_root / name
        try:
            if repository.is_symlink() or not repository.is_dir():
                raise HistoryDamaged(f"the history of scope {key!r} is not a folder: {REPAIR}")
            check_repository(repository)
            if not is_repository(repository):
                continue  # an empty folder: nothing recorded yet
            with locks.hold_sync(lock_name("index", agent_id, key)):
                done.append((key, apply_retention(repository, retention)))
        except ServiceError as error:
            done.append((key, Pruned(0, 0, problem=error.detail)))
    return done
