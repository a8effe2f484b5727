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
newest N; everything older is squashed into a base version holding the scope as it was just
before the oldest kept version (source ``squash``, ``Squashed-Versions``: how many it stands
for). Every version counts, not only one line: where two lines (two machines' histories joined
by a merge, brought in by an import) cross the cut, each has a base of its own holding its
files, so a kept version of either reads as the same change, and the merge still joins them;
each squashed version is counted by one base only. The kept versions are written again on top
with their own files, authors, times and messages, so they read exactly as before but get
new ids (a page or client that remembered an id of a kept version asks by time instead, or
reloads; a machine that synced at one is measured against it under its new id, noted in a
side file: :func:`new_id`). What only the squashed versions held (a file deleted and never
brought back before the cut, an older text) is gone for good once the objects are pruned,
which the same run does (and a machine that still held them sends them back in vain:
:mod:`memory_api.store.sync.push` keeps only its files).

Run again with the same limits (a nightly job), retention leaves a history it cut as it is:
the bases it made are first versions, and a run whose only versions beyond the limits are first
versions (the root, earlier bases) changes nothing. Where another line does need cutting, such
a first version beyond the limits is squashed with the rest (a root then becomes a base of one,
its author and summary gone). A run killed halfway leaves its ref (``refs/heads/retention``)
until it has dropped the squashed objects; the next run finishes that
(:func:`_after_a_killed_run`).

Blocking: run it in a worker thread or from the command line, holding the scope's lock.
"""

from __future__ import annotations

import logging
import os
import re
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
    git_succeeds,
    is_repository,
    remove_stale_locks,
)
from memory_api.store.history.repo import COMMITTER, read_head
from memory_api.store.history.side_files import read_side_file, write_side_file
from memory_api.store.locks import Locks, lock_name

__all__ = [
    "Pruned",
    "Retention",
    "apply_retention",
    "drop_unreachable",
    "maintain",
    "new_id",
    "prune_agent",
]

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
    """What a retention run did to one history: versions kept and squashed (0: untouched),
    each counted once (``squashed``: the versions this run squashed, not those a base of an
    earlier run stood for), into how many squashed bases (one per line the cut crossed), or why it
    could not (``problem``: a damaged history, a full disk, a lock not had)."""

    kept: int
    squashed: int
    bases: int = 0
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
    """A version as retention reads it: its id, commit time (seconds), tree and parents, and
    how many versions it stands for (``weight``: a squashed base an earlier cut made, its
    ``Squashed-Versions``; any other version, 1) and whether it is such a base (``base``)."""

    version: str
    time: int
    tree: str
    parents: tuple[str, ...]
    weight: int = 1
    base: bool = False


_FIELDS = "%x1f".join(
    [
        "%H",
        "%ct",
        "%T",
        "%(trailers:key=Source,valueonly,unfold,separator=%x2C)",
        "%(trailers:key=Squashed-Versions,valueonly,unfold,separator=%x2C)",
        "%P",
    ]
)


def _commits(repository: Path) -> list[_Logged]:
    """Every version of the branch, newest first (``--date-order``: a version always before
    the ones below it, the lines joined by a merge interleaved by time)."""
    out = git(repository, "log", "-z", "--date-order", f"--format={_FIELDS}", BRANCH)
    commits = []
    for line in filter(None, out.decode("utf-8", "replace").split("\0")):
        version, when, tree, rest = line.split("\x1f", 3)  # the trailers are anyone's text
        rest, parents = rest.rsplit("\x1f", 1)
        source, _, count = rest.rpartition("\x1f")
        # a base's count, ASCII digits only: ``"²".isdigit()``, and ``int`` refuses it
        base = not parents and source == "squash" and re.fullmatch(r"[0-9]{1,12}", count)
        weight = max(int(count), 1) if base else 1
        commits.append(
            _Logged(version, int(when), tree, tuple(parents.split()), weight, bool(base))
        )
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


@dataclass(slots=True)
class _Base:
    """A squashed base as retention writes it: its mark, the tree and time (seconds) of the
    version(s) it stands on, and how many versions it squashes."""

    mark: int
    tree: str
    time: int
    count: int = 0


def _squash(base: _Base) -> bytes:
    """``base`` as ``fast-import`` input: a first version holding its files, dated by it,
    counting the versions it squashes (``Squashed-Versions``)."""
    when = time.strftime("%Y-%m-%d", time.gmtime(base.time))
    message = (
        f"History up to {when} (squashed by retention)\n\nSource: squash\n"
        f"Squashed-Versions: {base.count}\n"
    ).encode()
    return b"".join(
        [
            b"reset " + _RETENTION_REF.encode() + b"\n",  # a first version: no parent
            b"commit " + _RETENTION_REF.encode() + b"\n",
            b"mark :%d\n" % base.mark,
            f"author {COMMITTER} {base.time} +0000\n".encode(),
            f"committer {COMMITTER} {base.time} +0000\n".encode(),
            _data(message),
            b"M 040000 " + base.tree.encode() + b' ""\n',
        ]
    )


def _bases(commits: list[_Logged], kept: list[_Logged]) -> tuple[dict[str, _Base], list[_Base]]:
    """The squashed bases of the history ``commits`` cut to ``kept`` (both newest first): each
    version not kept that a kept one stands on (its *boundary*; with none kept, the head)
    gets a base holding its files, dated by it. Returns the base of each boundary and the
    bases, oldest first. Boundaries alike in files and second share one base (else a merge
    on both would stand twice on one commit). Each squashed version is counted once, by the
    oldest base above it (a boundary is counted before any above it, so a base counts at
    least its own), a base of an earlier cut as the versions it stood for."""
    kept_ids = {commit.version for commit in kept}
    by_id = {commit.version: commit for commit in commits}
    boundaries = {p for commit in kept for p in commit.parents if p not in kept_ids}
    if not kept:
        boundaries = {commits[0].version}
    of: dict[str, _Base] = {}
    alike: dict[tuple[str, int], _Base] = {}
    counted: set[str] = set()
    for boundary in reversed(commits):  # oldest first: a version after the ones below it
        if boundary.version not in boundaries:
            continue
        key = (boundary.tree, boundary.time)
        base = alike.setdefault(key, _Base(len(alike) + 1, boundary.tree, boundary.time))
        of[boundary.version] = base
        waiting = [boundary.version]
        while waiting:
            version = waiting.pop()
            if version not in counted:
                counted.add(version)
                base.count += by_id[version].weight
                waiting.extend(by_id[version].parents)
    return of, list(alike.values())


def _rewritten(
    commits: list[_Logged], kept: list[_Logged], raw: dict[str, bytes]
) -> tuple[bytes, int, dict[str, int]]:
    """The ``fast-import`` input of the history cut to ``kept`` (newest first, every version
    above a kept one kept too): the squashed bases (:func:`_bases`, one on a line, one per
    line where lines joined by a merge cross the cut), then each kept version written again
    on the same files it stood on (:func:`_replayed`), so it reads as the same change; oldest
    first, so the newest version, the head, is written last. With none kept, the head is the
    one base. Returns the input, the number of bases and the mark of each kept version."""
    of, bases = _bases(commits, kept)
    marks = {version: base.mark for version, base in of.items()}  # version → its mark
    stream = [_squash(base) for base in bases]
    for commit in reversed(kept):  # oldest first: a version's parents are written before it
        marks[commit.version] = len(stream) + 1  # the bases hold marks 1 … len(bases)
        parents = list(dict.fromkeys(marks[parent] for parent in commit.parents))
        stream.append(_replayed(raw[commit.version], marks[commit.version], parents))
    kept_marks = {commit.version: marks[commit.version] for commit in kept[:_IDS_KEPT]}
    return b"".join([*stream, b"done\n"]), len(bases), kept_marks


_IDS_FILE = "retention-ids.json"
"""The side file naming each kept version's id as retention wrote it again (:func:`new_id`)."""
_IDS_KEPT = 5000
"""Ids the side file names at most: of the newest kept versions (a machine is seldom further
behind; about 88 bytes each, far below the side file's 1 MiB cap)."""
_MARKS_FILE = "retention-marks"


def _note_new_ids(repository: Path, kept_marks: dict[str, int]) -> None:
    """Note the new id of each version this run kept (old id → new, read from the marks
    ``fast-import`` exported), and those an earlier run noted that this one kept again, in the
    side file :data:`_IDS_FILE`: a machine that synced at a kept version is measured against
    it under its new id (R-2). A version squashed since is no longer named, and the file holds
    at most :data:`_IDS_KEPT` ids (a kept version's own before those carried over to it, the
    newest versions' first), however many runs carried ids over: it stays within what its
    reader takes."""
    path = repository / _MARKS_FILE
    try:
        lines = path.read_text(encoding="ascii").split("\n")
        path.unlink()
    except (OSError, UnicodeDecodeError) as error:  # a cache: a push then has no base, as before
        logger.warning("history %s: kept versions' new ids not noted: %s", repository.name, error)
        return
    by_mark = dict(line[1:].split(" ", 1) for line in lines if line.startswith(":"))
    ids = {old: by_mark[str(mark)] for old, mark in kept_marks.items() if str(mark) in by_mark}
    rank = {old: number for number, old in enumerate(kept_marks)}  # newest kept first
    noted = [(rank[old], old, new) for old, new in ids.items()]
    earlier = read_side_file(repository, _IDS_FILE) or {}
    for old, new in earlier.items():
        if isinstance(new, str) and new in ids and old not in ids:
            noted.append((rank[new], old, ids[new]))
    noted.sort(key=lambda entry: entry[0])  # stable: a version's own id before those carried
    write_side_file(repository, _IDS_FILE, {old: new for _, old, new in noted[:_IDS_KEPT]})


def new_id(repository: Path, version: str) -> str | None:
    """The id retention gave the version ``version`` it kept and wrote again (V-3), or None
    (no such version was kept, or the note of it is lost: a cache)."""
    found = (read_side_file(repository, _IDS_FILE) or {}).get(version)
    return found if isinstance(found, str) else None


def apply_retention(repository: Path, retention: Retention, now: float | None = None) -> Pruned:
    """Cut ``repository``'s history to ``retention`` (see the module); under the scope lock.

    Returns what was kept and squashed, into how many bases; an empty history, one within the
    limits, and one whose only versions beyond them are first versions (the bases an earlier
    run made) are left as they are. Raises :class:`~.git.HistoryUnavailable` when git refuses
    (the branch then still holds every version)."""
    head = read_head(repository)
    if head is None or retention.unlimited:
        return Pruned(0, 0)
    remove_stale_locks(repository)
    killed = _after_a_killed_run(repository, head)
    commits = _commits(repository)
    kept = _kept(commits, retention, now)
    kept_ids = {commit.version for commit in kept}
    if all(not commit.parents for commit in commits if commit.version not in kept_ids):
        # within the limits, or only first versions would go (the root, the bases an earlier
        # cut made): each would only be squashed into a base of itself
        if killed:
            _drop_squashed(repository)
        return Pruned(len(commits), 0)
    # the versions this run squashes: a base an earlier cut made is folded into the new one
    # (its count carried over) but its versions were that cut's, reported then
    squashed = sum(1 for c in commits if c.version not in kept_ids and not c.base)
    raw = _raw_commits(repository, [commit.version for commit in kept])
    stream, bases, kept_marks = _rewritten(commits, kept, raw)
    marks = f"--export-marks={repository / _MARKS_FILE}"
    git(repository, "fast-import", "--quiet", "--done", "--force", marks, stdin=stream)
    new_head = git(repository, "rev-parse", "--verify", _RETENTION_REF).decode().strip()
    _move_branch(repository, head, new_head)
    _note_new_ids(repository, kept_marks)
    _drop_squashed(repository)
    logger.info(
        "history %s: %d versions squashed into %d bases, %d kept",
        repository.name,
        squashed,
        bases,
        len(kept),
    )
    return Pruned(len(kept), squashed, bases)


def _machine_ref_deletes(repository: Path, keep_above: str | None = None) -> str:
    """``update-ref --stdin`` lines deleting the machines' refs (``refs/machines/``,
    ``refs/taken/``, :mod:`memory_api.store.sync.backend`), but those naming ``keep_above``
    or a version above it; empty when there are none."""
    names = git(
        repository, "for-each-ref", "--format=%(refname) %(objectname)", "refs/machines",
        "refs/taken",
    ).decode("utf-8", "replace")  # fmt: skip
    deletes = []
    for line in names.splitlines():
        name, named = line.rsplit(" ", 1)
        if keep_above is None or not git_succeeds(
            repository, "merge-base", "--is-ancestor", keep_above, named
        ):
            deletes.append(f"delete {name}\n")
    return "".join(deletes)


def _move_branch(repository: Path, head: str, new_head: str) -> None:
    """Set the branch from ``head`` to ``new_head`` (the cut history) and remove the machines'
    refs, in one transaction (``update-ref --stdin``: all or none): they name commits on the
    squashed versions, whose objects they would keep. A machine's next push is then measured
    as one whose base is no version (R-2: what differs is kept twice), as its old base's id is
    gone anyway. Raises :class:`~.git.HistoryUnavailable` when the branch moved meanwhile."""
    lines = f"update {BRANCH} {new_head} {head}\n" + _machine_ref_deletes(repository)
    git(repository, "update-ref", "--stdin", stdin=lines.encode("utf-8"))


def _drop_squashed(repository: Path) -> None:
    """Drop the objects only the squashed versions held (:func:`drop_unreachable`), then the
    ref of the cut history (:data:`_RETENTION_REF`, the sign that this is still to do)."""
    drop_unreachable(repository)
    git(repository, "update-ref", "-d", _RETENTION_REF)


def drop_unreachable(repository: Path) -> None:
    """Drop every object no ref reaches (``repack -a -d``, ``prune``: what retention squashed,
    what a machine pushed back of it, R-1) and write the commit-graph again, which may name
    none of them; under the scope's lock (no push is taken meanwhile)."""
    git(repository, "repack", "-a", "-d", "-q")
    git(repository, "prune", "--expire=now")
    git(repository, "commit-graph", "write", "--reachable", "--changed-paths", "--split=replace")


def _after_a_killed_run(repository: Path, head: str) -> bool:
    """Whether a run killed halfway left its ref (:data:`_RETENTION_REF`, at ``head`` once it
    moved the branch) behind; a run then finishes what it left, so the squashed versions do
    not stay for good. Killed after it moved the branch (an older run, which moved it alone),
    the machines' refs that still name squashed versions (not one above the cut history: a
    machine synced since) are removed here, their objects
    by the :func:`_drop_squashed` that follows (the ref is then ``head`` or below it, where
    versions were recorded since); killed before, the history it wrote is not the branch's
    and its ref goes (its objects with the :func:`_drop_squashed` that follows)."""
    left = git(repository, "for-each-ref", "--format=%(objectname)", _RETENTION_REF).strip()
    if not left:
        return False
    cut = left.decode("ascii")
    if git_succeeds(repository, "merge-base", "--is-ancestor", cut, head):
        deletes = _machine_ref_deletes(repository, keep_above=cut)
        if deletes:
            git(repository, "update-ref", "--stdin", stdin=deletes.encode("utf-8"))
    else:
        git(repository, "update-ref", "-d", _RETENTION_REF)
    logger.warning("history %s: finishing a retention run killed halfway", repository.name)
    return True


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
