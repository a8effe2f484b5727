"""Reading a scope's history into the wire answers of V-2: a file's versions, the file at a
version, a diff, the scope's changes, its recently deleted files.

Every answer is read from the repository as it is now (``git log`` limited to the file with
``--no-renames``, helped by the commit-graph's changed-path filters, :mod:`.maintenance`), so
any process answers alike (Q-4). A version id given by a client must be a version of *this*
scope's history (:func:`check_version`), else it is a 404, like a file it never held. Text is
decoded as reading does (T-2) and likely credentials are masked (I-8) unless the caller asks to
reveal them (W-6), in a version's text as in a diff (both sides masked before they are
compared).

Blocking: run it in a worker thread.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import get_args

from memory_core import layout
from memory_core.credentials import mask_secret_lines
from memory_core.decoding import shown_text
from memory_core.rewritten_renames import rewritten_renames
from memory_core.scope_files import INDEX_CAP
from memory_core.shown_versions import shown_pair
from memory_core.topics import parse_topic
from memory_core.wire import (
    Author,
    DeletedFile,
    FileAtVersion,
    FileChange,
    FileChangeKind,
    FileDiff,
    FileVersion,
    Version,
    VersionSource,
    utc_timestamp,
)

from memory_api.errors import NotFound
from memory_api.store.file_names import name_among
from memory_api.store.history import clocks
from memory_api.store.history.deletions import recent_deletions
from memory_api.store.history.diffs import diff_hunks, unified_text
from memory_api.store.history.git import (
    BRANCH,
    REPAIR,
    HistoryDamaged,
    HistoryUnavailable,
    git,
    git_status,
    git_succeeds,
)
from memory_api.store.history.repo import (
    LogEntry,
    blob_sizes,
    entry_at,
    log,
    read_blob,
    read_blobs,
    read_head,
)
from memory_api.store.history.snapshot import read_cap

__all__ = [
    "author_of",
    "check_version",
    "content_at",
    "deleted_files",
    "file_at",
    "file_diff",
    "file_history",
    "held_together",
    "history_holds",
    "history_name",
    "scope_changes",
    "version_of",
]

_KINDS: dict[str, FileChangeKind] = {"A": "added", "M": "modified", "D": "deleted"}
_SOURCES: tuple[VersionSource, ...] = get_args(VersionSource)


def author_of(entry: LogEntry) -> Author:
    """Who a logged version is from, read from its trailers (a version made elsewhere, without
    them, reads as a ``checkpoint`` by nobody known)."""
    trailers = entry.trailers
    source = trailers.get("Source", "checkpoint")
    return Author(
        source=source if source in _SOURCES else "checkpoint",
        session_id=trailers.get("Session-Id"),
        harness=trailers.get("Harness"),
        tool=trailers.get("Tool"),
        principal=trailers.get("Principal"),
        time=utc_timestamp(entry.author_time),
        recorded_at=utc_timestamp(entry.commit_time),
        machine=trailers.get("Machine"),
    )


def version_of(entry: LogEntry, renamed: Mapping[str, str] | None = None) -> Version:
    """A logged version as the wire's :class:`~memory_core.wire.Version`; ``renamed`` the
    topic files it renamed (old name → new, :func:`renames_in`)."""
    renames = renamed or {}
    came = {new: old for old, new in renames.items()}
    return Version(
        version=entry.version,
        summary=entry.summary,
        author=author_of(entry),
        files=[
            FileChange(
                file=item.name,
                change=_KINDS.get(item.status, "modified"),
                renamed_from=came.get(item.name) if item.status == "A" else None,
                renamed_to=renames.get(item.name) if item.status == "D" else None,
            )
            for item in entry.files
        ],
        restored_from=entry.trailers.get("Restored-From"),
        outcomes=list(entry.merged),
    )


def check_version(repository: Path, version: str) -> None:
    """Raise :class:`NotFound` unless the hex id ``version`` is a version of this history: the
    newest or one before it on the branch (not another scope's, not one cut by retention).
    Raises :class:`~.git.HistoryDamaged` when the commit is here but the way from it to the
    newest version cannot be read (an object missing in between), and
    :class:`~.git.HistoryUnavailable` when git could not look for it (its objects folder, a
    pack or the commit's own file the service may not read: git then answers "no such
    commit" as for a made-up id): never a calm 404 then."""
    missing = NotFound(f"no version {version} in this scope's history")
    if read_head(repository) is None:
        raise missing
    code, _ = git_status(repository, "merge-base", "--is-ancestor", version, BRANCH)
    if code == 0:
        return
    if not git_succeeds(repository, "cat-file", "-e", f"{version}^{{commit}}"):
        if (why := _unread_objects(repository, version)) is not None:
            raise HistoryUnavailable(f"the history cannot be read: {why}")
        raise missing  # no such commit here
    # the commit is here but not found below the newest version: another line of versions (a
    # machine's push, one cut by retention), unless the walk stopped at a lost object, which
    # merge-base does not tell (it answers "no"): the whole branch is walked to tell them apart
    code, message = git_status(repository, "rev-list", "--count", BRANCH)
    if code == 0:
        raise missing
    first = message.splitlines()[0] if message else f"exit code {code}"
    raise HistoryDamaged(f"the history of this scope is damaged (git rev-list: {first}): {REPAIR}")


def _unread_objects(repository: Path, version: str) -> str | None:
    """Where git may have looked for the commit ``version`` and been refused: the objects
    folder, its pack folder, a pack or its index, the commit's own loose file (or its folder),
    named relative to the repository with why; None when each can be read (Q-2b)."""
    objects = repository / "objects"
    loose = objects / version[:2] / version[2:]
    try:
        with os.scandir(objects):
            pass
        with os.scandir(objects / "pack") as listing:
            found = [entry.path for entry in listing if entry.name.endswith((".pack", ".idx"))]
    except FileNotFoundError:
        return None  # nothing there to read: a made-up id, or objects that are lost
    except OSError as error:
        return f"{Path(error.filename or objects).relative_to(repository)}: {error.strerror}"
    try:
        os.lstat(loose)
        found.append(os.fspath(loose))
    except FileNotFoundError:
        pass  # in a pack, or no such commit
    except OSError as error:  # its folder may not be searched
        return f"{loose.parent.relative_to(repository)}: {error.strerror}"
    for path in found:
        try:  # non-blocking: a FIFO put there never holds the request
            os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC))
        except FileNotFoundError:
            continue  # repacked meanwhile
        except OSError as error:
            return f"{Path(path).relative_to(repository)}: {error.strerror}"
    return None


def _start(repository: Path, before: str | None) -> str | None:
    """Where a page of versions starts: ``before`` (checked: :func:`check_version`) or the
    branch; None for a history with no version yet."""
    if read_head(repository) is None:
        return None
    if before is None:
        return BRANCH
    check_version(repository, before)
    return before


def _page(
    repository: Path, limit: int, before: str | None, *args: str, paths: tuple[str, ...] = ()
) -> tuple[list[LogEntry], bool]:
    """Up to ``limit`` logged versions older than ``before`` (the newest without it), newest
    first, and whether more follow."""
    start = _start(repository, before)
    if start is None:
        return [], False
    entries = log(repository, "-n", str(limit + 2), *args, start, paths=paths)
    if before is not None and entries and entries[0].version == before:
        entries = entries[1:]
    return entries[:limit], len(entries) > limit


def _named(entry: LogEntry, name: str) -> tuple[str, str] | None:
    for item in entry.files:
        if item.name == name:
            return item.status, item.blob
    return None


def _renamed_from(repository: Path, entry: LogEntry, name: str) -> tuple[str, str] | None:
    """When the version ``entry`` (logged with all its files) added ``name`` by renaming
    another file: (that file's name, the version below ``entry``); else None (a first
    version renames nothing). Reads the indexes only for a rename that rewrote the text."""
    if not entry.parents or (_named(entry, name) or ("M", ""))[0] != "A":
        return None
    old = {new: old for old, new in renames_in(repository, entry).items()}.get(name)
    return None if old is None else (old, entry.parents[0])


def _touches(entry: LogEntry, name: str) -> bool:
    """Whether the version ``entry`` changed ``name`` as ``git log -- name`` matches it (the
    file, or a file in a folder of that name; pathspecs are literal)."""
    inside = name + "/"
    return any(item.name == name or item.name.startswith(inside) for item in entry.files)


_WINDOW = 16
"""Versions below a rename :func:`_name_below` reads together first (four times as many next
while they hold renames of the file: renames one after another cost one git process for
many)."""
_STEPS = 6
"""Git processes :func:`_name_below` spends walking renames by name and in windows before it
reads the rest of the range at once (two renames spread out cost six)."""


def _name_below(repository: Path, name: str, version: str) -> str:
    """The name the file called ``name`` on the branch had below ``version`` (one of the
    branch's): ``name`` followed back through the renames made at ``version`` or after it.

    The renames are found by name, newest first: ``git log --diff-filter=A`` of the name from
    where the walk is down to ``version`` (its parents excluded; the changed-path filters
    answer it, no version is read) lists the versions that added it, which are read with all
    their files (one ``git log --no-walk``); the newest that renamed another file into it
    gives the name below, and the walk goes on from that version's parent (:func:`_adds`).
    Past a rename, :data:`_WINDOW` versions below it are read together, no path (a rename
    often follows a rename), four times as many while each window holds a rename of the file,
    and back to the walk by name after one that holds none (:func:`_window`). So the versions
    read are the adds of the names crossed and at most one window per rename, never every
    version above ``version``; git processes grow with the renames crossed, slower where they
    come one after another. After :data:`_STEPS` git processes so spent (renames spread out, each
    costing an add and a window), whatever is left above ``version`` is read in one ``git log``
    of the range and followed in memory (:func:`_rest`): a page's git processes stay a handful
    however the renames lie. A range holding a merge (a history imported whole) is walked by
    name only, as ``git log`` simplifies it for each name."""
    current, tip, window, spent = name, BRANCH, _WINDOW, 0
    while True:
        if window and spent >= _STEPS:
            rest = _rest(repository, current, tip, version)
            if rest is not None:
                return rest
            window = 0  # a merge: by name from now on
        found = _adds(repository, current, tip, version)
        spent += 2
        if found is None:
            return current
        current, tip = found
        while window and spent < _STEPS:
            current, below, renamed = _window(repository, current, tip, version, window)
            spent += 1
            if below is None:
                return current
            tip = below
            if not renamed:  # none: back to the walk by name; a merge: by name from now on
                window = 0 if renamed is None else _WINDOW
                break
            window *= 4


def _rest(repository: Path, name: str, tip: str, version: str) -> str | None:
    """The name below ``version`` of the file called ``name`` at ``tip``, every version from
    ``tip`` down to ``version`` read in one ``git log`` (no path) and the renames followed in
    memory; first one ``git log -n 1 --diff-filter=A`` of the name (the changed-path filters
    answer it) tells whether any version there added it at all (else ``name``, one process).
    None when the range holds a merge (then it is walked by name)."""
    added = git(
        repository, "log", "-n", "1", "--format=%H", "--diff-filter=A", tip, "--not",
        f"{version}^@", "--", name,
    )  # fmt: skip
    if not added.strip():
        return name
    above = log(repository, tip, "--not", f"{version}^@")
    if any(len(entry.parents) > 1 for entry in above):
        return None
    for entry in above:  # newest first, each the parent of the one before
        below = _renamed_from(repository, entry, name)
        name = name if below is None else below[0]
    return name


def _adds(repository: Path, name: str, tip: str, version: str) -> tuple[str, str] | None:
    """The newest rename into ``name`` from ``tip`` down to ``version``: (the old name, the
    version below it); None when no version there renamed a file into ``name``. Two git
    processes (one when nothing there added ``name``)."""
    added = git(
        repository, "log", "--format=%H", "--diff-filter=A", tip, "--not", f"{version}^@",
        "--", name,
    )  # fmt: skip
    versions = added.decode("ascii").split()
    whole = _with_all_files(repository, versions)
    entries = (whole[v] for v in versions if v in whole)
    return next(filter(None, (_renamed_from(repository, e, name) for e in entries)), None)


def _window(
    repository: Path, name: str, tip: str, version: str, size: int
) -> tuple[str, str | None, bool | None]:
    """Up to ``size`` versions from ``tip`` down to ``version`` read together (one ``git
    log``), the renames of ``name`` among them followed in memory: the name below them, where
    to go on (None: ``version`` was reached), and whether they held a rename of the file
    (None when they held a merge: nothing is taken from them, the walk goes on by name)."""
    batch = log(repository, "-n", str(size), tip, "--not", f"{version}^@")
    if any(len(entry.parents) > 1 for entry in batch):
        return name, tip, None
    renamed = False
    for entry in batch:  # newest first, each the parent of the one before
        below = _renamed_from(repository, entry, name)
        if below is not None:
            name, renamed = below[0], True
    if len(batch) < size or not batch[-1].parents:
        return name, None, renamed
    return name, batch[-1].parents[0], renamed


_PATH_PARTS = 2
"""Renames a page follows by reading each older name's versions alone (``git log -- name``);
past them, it reads the versions below together (:func:`_read_together`)."""
_TOGETHER = 4
"""How many versions below a rename are read together per version the page still needs."""

_Found = list[tuple[LogEntry, str, str | None]]
"""A page being read: (version, the file's name then, the name it was renamed from)."""


def file_history(
    repository: Path, name: str, *, limit: int, before: str | None = None
) -> tuple[list[FileVersion], bool]:
    """The versions that changed ``name``, newest first (at most ``limit``, older than
    ``before``), and whether more follow; followed across renames (see
    :class:`~memory_core.wire.FileVersion`). Raises :class:`NotFound` for a ``before`` that is
    no version here.

    The page is read as ``git log -n`` of the name from where it starts (the versions in it
    that added the name read again with all their files, in one ``git log --no-walk``); a
    version in it that added the name by a rename (:func:`renames_in`, as the scope's changes
    tell one) ends that name's part, and the page goes on under the old name from the version
    below. Past :data:`_PATH_PARTS` renames, the versions below are read together, without a
    path, a bounded number at a time (:func:`_read_together`): renames made one after another
    (cheap through the API) cost one git process for many, not one each. So a page reads its own
    versions and the renames it crosses, not the file's whole history; a page ``before`` a
    version first follows the file's name back to there (:func:`_name_below`), reading the
    renames above ``before``, never the versions between them.
    Any number of renames is followed and a page never ends short of ``limit`` while older
    versions remain. Every version the recorder makes has one parent; a history brought in
    whole (an import ``--with-history``, R-1/V-3) may hold merges: the walk then keeps ``git
    log``'s own simplification, which at a merge follows the line the merge took the file
    from (a line whose change to the file the merge did not keep is not listed), and a rename
    is followed to the version below on the first parent."""
    start: str | None = _start(repository, before)
    if start is None:
        return [], False
    current = name if before is None else _name_below(repository, name, before)
    found: _Found = []
    parts = 0
    while start is not None and len(found) <= limit:
        entries = log(repository, "-n", str(limit + 2 - len(found)), start, paths=(current,))
        if entries and entries[0].version == before:
            entries = entries[1:]
        added = [entry for entry in entries if (_named(entry, current) or ("M", ""))[0] == "A"]
        whole = _with_all_files(repository, [entry.version for entry in added if entry.parents])
        below = None
        for entry in (whole.get(entry.version, entry) for entry in entries):
            below = _renamed_from(repository, entry, current)
            found.append((entry, current, None if below is None else below[0]))
            if below is not None:
                break
        if below is None:
            break
        current, start = below
        parts += 1
        if parts >= _PATH_PARTS and len(found) <= limit:
            current, start = _read_together(repository, current, start, found, limit)
    page = found[:limit]
    return _file_versions(repository, page), len(found) > limit


def _with_all_files(repository: Path, versions: list[str]) -> dict[str, LogEntry]:
    """The versions ``versions`` (ids) read with all their files (one ``git log --no-walk``,
    none for no versions), by id."""
    if not versions:
        return {}
    whole = log(repository, "--no-walk=unsorted", *versions)
    return {entry.version: entry for entry in whole}


def _read_together(
    repository: Path, name: str, start: str, found: _Found, limit: int
) -> tuple[str, str | None]:
    """Go on with the page ``found`` from ``start`` under ``name`` by reading the versions
    below together, no path (one ``git log -n``, :data:`_TOGETHER` versions per one the page
    still needs, each with its files), following renames among them in memory; where the
    file was named then and where to go on reading by name (None when the history ended or
    the page is full). Stops before a merge, left to ``git log -- name``'s simplification."""
    asked = _TOGETHER * (limit + 2 - len(found))
    batch = log(repository, "-n", str(asked), start)
    for entry in batch:
        if len(entry.parents) > 1:
            return name, entry.version
        if len(found) > limit:
            return name, None
        if not _touches(entry, name):
            continue
        below = _renamed_from(repository, entry, name)
        found.append((entry, name, None if below is None else below[0]))
        name = name if below is None else below[0]
    if len(batch) < asked or not batch[-1].parents:
        return name, None
    return name, batch[-1].parents[0]


def _file_versions(
    repository: Path, page: list[tuple[LogEntry, str, str | None]]
) -> list[FileVersion]:
    """The entries of a file's history, each logged under the name it had then (with the
    name it was renamed from, if it was), as the wire's."""
    changed = [(entry, name, came, _named(entry, name) or ("M", "")) for entry, name, came in page]
    sizes = blob_sizes(
        repository, [blob for _, _, _, (status, blob) in changed if status != "D" and blob]
    )
    whole = _with_all_files(
        repository, [entry.version for entry, _, _, (status, _) in changed if status == "D"]
    )
    versions: list[FileVersion] = []
    for entry, name, came, (status, blob) in changed:
        kind = _KINDS.get(status, "modified")
        gone = status == "D"
        went = renames_in(repository, whole.get(entry.version, entry)).get(name) if gone else None
        versions.append(
            FileVersion(
                version=entry.version,
                change="renamed" if came or went else kind,
                summary=entry.summary,
                author=author_of(entry),
                size=None if status == "D" else sizes.get(blob),
                file=name,
                renamed_from=came,
                renamed_to=went,
                restore_version=(entry.parents[0] if entry.parents else None)
                if came or went
                else None,
            )
        )
    return versions


def history_holds(repository: Path, name: str) -> bool:
    """Whether a version of the history changed a file named exactly ``name`` (V-2)."""
    if read_head(repository) is None:
        return False
    return bool(git(repository, "log", "-n", "1", "--format=%H", BRANCH, "--", name).strip())


def held_together(repository: Path, one: str, other: str) -> bool:
    """Whether some version of the history held files named ``one`` and ``other`` at once
    (V-2, A-5): two spellings of a name in another Unicode normalization that were twins, two
    files, rather than one note whose name a client rewrote (a Mac client, a sync writing it
    decomposed). Two files held at once were so when the later one was added, so only the
    versions that added either are looked at (one ``git ls-tree`` each)."""
    if read_head(repository) is None:
        return False
    added = git(repository, "log", "--format=%H", "--diff-filter=A", BRANCH, "--", one, other)
    for version in added.decode("ascii").split():
        listed = git(repository, "ls-tree", "-z", "--name-only", version, "--", one, other)
        if len([name for name in listed.split(b"\x00") if name]) == 2:
            return True
    return False


def history_name(repository: Path, asked: str) -> str:
    """The name the history holds for a file no longer on disk that a request calls ``asked``
    (V-2), by :mod:`memory_api.store.file_names`' rule applied to the names its versions
    held: ``asked`` when a version changed a file of that exact name, or none changed a file
    that is ``asked`` under NFC; else the one such name (a file macOS wrote decomposed and
    that was deleted, asked composed, or the reverse). Raises
    :class:`~memory_api.errors.Conflict` (409) naming each when two or more such names were
    held and ``asked`` is none of them, as for files on disk.

    The names looked for: ``asked`` in NFC and in NFD (the spellings systems write), and every
    name the index of deletions (:mod:`.deletions`) knows that is ``asked`` under NFC (a gone
    file was deleted by some version: a spelling mixing both forms is found there). One
    ``git log`` limited to those names says which of them a version changed.
    """
    wanted = unicodedata.normalize("NFC", asked)
    spellings = {asked, wanted, unicodedata.normalize("NFD", asked)}
    if read_head(repository) is None:
        return asked
    spellings.update(
        name
        for _, name in recent_deletions(repository).found
        if unicodedata.normalize("NFC", name) == wanted
    )
    if spellings == {asked}:
        return asked
    out = git(
        repository, "log", "-z", "--format=", "--name-only", "--no-renames", BRANCH, "--",
        *sorted(spellings),
    )  # fmt: skip
    held = {name.strip("\n") for name in out.decode("utf-8", "surrogateescape").split("\0")}
    return name_among(asked, sorted(held - {""}), "in this scope or its history")


def _mask(text: str, reveal: bool) -> str:
    return text if reveal else "\n".join(mask_secret_lines(text.split("\n")))


def content_at(repository: Path, version: str, name: str) -> bytes | None:
    """The bytes of ``name`` at ``version``; None when it was not there (or is no file)."""
    found = entry_at(repository, version, name)
    if found is None:
        return None
    entry, size = found
    if entry.mode not in ("100644", "100755"):
        return None
    if size > read_cap(name):
        raise NotFound(f"{name!r} at version {version} is larger than its read cap; not read")
    return read_blob(repository, entry.blob)


def _one(repository: Path, version: str) -> LogEntry:
    entries = log(repository, "-n", "1", version, files=False)
    if not entries:
        raise NotFound(f"no version {version} in this scope's history")
    return entries[0]


def file_at(
    repository: Path, scope_key: str, name: str, version: str, *, reveal: bool = False
) -> FileAtVersion:
    """``name`` as it was at ``version``. Raises :class:`NotFound` for a version not of this
    history or one where the file was not there."""
    check_version(repository, version)
    data = content_at(repository, version, name)
    if data is None:
        raise NotFound(f"{name!r} is not in version {version}")
    text = shown_text(data)
    shown = _mask(text, reveal)
    title = description = None
    body = text
    if name != layout.INDEX_FILE:
        parsed = parse_topic(data, name)
        title, description, body = parsed.name, parsed.description, parsed.body
    shown_body = _mask(body, reveal)
    shown_title = None if title is None else _mask(title, reveal)
    shown_description = None if description is None else _mask(description, reveal)
    return FileAtVersion(
        scope=scope_key,
        file=name,
        version=version,
        author=author_of(_one(repository, version)),
        size=len(data),
        text=shown,
        name=shown_title,
        description=shown_description,
        body=shown_body,
        masked=(shown, shown_body, shown_title, shown_description)
        != (text, body, title, description),
    )


def file_diff(
    repository: Path,
    scope_key: str,
    name: str,
    *,
    from_version: str | None,
    to_version: str | None,
    reveal: bool = False,
) -> FileDiff:
    """The diff of ``name`` from ``from_version`` to ``to_version``: ``to`` defaults to the
    newest version that changed the file (not the scope's newest, which may not touch it),
    ``from`` to the version just before ``to`` (so a version of the file's history shows its
    own change). Raises :class:`NotFound` for a version not of this history, or when no
    version changed the file."""
    if to_version is None:
        if read_head(repository) is None:
            raise NotFound("this scope has no versions yet")
        newest = log(repository, "-n", "1", BRANCH, paths=(name,))
        if not newest:
            raise NotFound(f"no version of this scope holds a change of {name!r}")
        to_version = newest[0].version
    else:
        check_version(repository, to_version)
    if from_version is None:
        parents = _one(repository, to_version).parents
        from_version = parents[0] if parents else None
    else:
        check_version(repository, from_version)
    old, new = shown_pair(
        None if from_version is None else content_at(repository, from_version, name),
        content_at(repository, to_version, name),
    )  # one judgement of a legacy encoding for both: an unchanged line reads alike
    old_shown = None if old is None else _mask(old, reveal)
    new_shown = None if new is None else _mask(new, reveal)
    hunks = diff_hunks(old_shown, new_shown)
    return FileDiff(
        scope=scope_key,
        file=name,
        from_version=from_version,
        to_version=to_version,
        unified=unified_text(name, hunks, old=old is not None, new=new is not None),
        hunks=hunks,
        masked=(old_shown, new_shown) != (old, new),
    )


def scope_changes(
    repository: Path,
    *,
    limit: int,
    since: int | None = None,
    after: str | None = None,
    before: str | None = None,
) -> tuple[list[Version], bool]:
    """The scope's versions, newest first: recorded at ``since`` (seconds since the epoch) or
    later, newer than the version ``after``, older than ``before``; at most ``limit``, and
    whether more follow.

    ``after`` follows the history's own order (every version not below it, whatever its date):
    the cursor no clock can fool. ``since`` compares each version's recorded time (its
    committer date, the clock of the process that recorded it): one dated earlier by a clock
    running behind (another replica, a machine's merge) is left out itself but never hides the
    versions below it, as git's own ``--since`` would (it stops at the first version older than
    the date); the walk stops only where no version below can be dated ``since`` or later
    (:mod:`.clocks`), so it reads what was recorded since, not the whole history. Raises
    :class:`NotFound` for an ``after`` or ``before`` that is no version here."""
    args: list[str] = []
    if after is not None:
        check_version(repository, after)
        args.append(f"^{after}")
    if since is None:
        entries, more = _page(repository, limit, before, *args)
    else:
        entries, more = _page_since(repository, limit, before, since, *args)
    return [version_of(entry, renames_in(repository, entry)) for entry in entries], more


def renames_in(repository: Path, entry: LogEntry) -> dict[str, str]:
    """The topic files the logged version ``entry`` renamed (old name → new, V-2): a file it
    deleted whose very text it added under another name, or whose index line it pointed at a
    file it added with another text (:func:`~memory_core.rewritten_renames.rewritten_renames`:
    renamed and rewritten in one change, which git's own rename detection takes for a delete
    and an add). Reads the index before and after only for a version that both deleted and
    added a topic file that no other pairs by its text, and not one over its cap."""
    gone = {item.name: item.blob for item in entry.files if item.status == "D"}
    come = {item.name: item.blob for item in entry.files if item.status == "A"}
    gone.pop(layout.INDEX_FILE, None)
    come.pop(layout.INDEX_FILE, None)
    if not gone or not come:
        return {}
    holding: dict[str, list[str]] = {}  # blob → the names added holding it, last first
    for name, blob in sorted(come.items(), reverse=True):
        holding.setdefault(blob, []).append(name)
    pure: dict[str, str] = {}
    for old, blob in sorted(gone.items()):
        if holding.get(blob):
            pure[old] = holding[blob].pop()
    base = {name: blob for name, blob in gone.items() if name not in pure}
    side = {name: blob for name, blob in come.items() if name not in pure.values()}
    index = next((item for item in entry.files if item.name == layout.INDEX_FILE), None)
    if index is None or index.status != "M" or not base or not side:
        return pure  # nothing left to pair: the indexes are not read
    sizes = blob_sizes(repository, (index.was, index.blob))
    if any(sizes.get(blob, INDEX_CAP + 1) > INDEX_CAP for blob in (index.was, index.blob)):
        return pure
    texts = read_blobs(repository, (index.was, index.blob))
    base[layout.INDEX_FILE], side[layout.INDEX_FILE] = index.was, index.blob
    return pure | rewritten_renames({}, base, side, lambda blob: texts.get(blob, b""))


def _page_since(
    repository: Path, limit: int, before: str | None, since: int, *args: str
) -> tuple[list[LogEntry], bool]:
    """:func:`_page` of the versions recorded at ``since`` or later.

    Their ids and times are listed first (``rev-list --timestamp``, no diff, read from the
    commit-graph), by a walk that stops at versions dated before ``since`` minus the most any
    version here is dated behind one below it (:func:`~.clocks.behind`: nothing below such a
    version is dated ``since`` or later) and after as many versions as the page needs (asked
    again without that limit when versions dated before ``since`` took places in it); then
    only those answered are logged with their files. It reads what was recorded since, not the
    whole history."""
    head = read_head(repository)
    if head is None:
        return [], False
    start = head if before is None else before
    if before is not None:
        check_version(repository, before)
    floor = since - clocks.behind(repository, start)
    bounded = (f"--max-age={floor}",) if floor > 0 else ()
    wanted: tuple[str, ...] = ("-n", str(limit + 2))  # the page, one more, ``before`` itself
    while True:
        listed = git(repository, "rev-list", "--timestamp", *wanted, *bounded, start, *args, "--")
        lines = listed.decode("ascii").splitlines()
        found = []
        for line in lines:
            when, _, version = line.partition(" ")
            if int(when) >= since and version != before:
                found.append(version)
        if len(found) > limit or not wanted or len(lines) < limit + 2:
            break
        wanted = ()  # versions dated before ``since`` took places: every one down to the floor
    page = found[:limit]
    entries = log(repository, "--no-walk=unsorted", *page) if page else []
    return entries, len(found) > limit


def deleted_files(
    repository: Path, present: set[str], *, limit: int
) -> tuple[list[DeletedFile], bool]:
    """Files deleted from the scope and not there now, newest deletion first, at most
    ``limit``; each with the last version that held it (:class:`~memory_core.wire.DeletedFile`);
    and whether every version was looked at (False while the index of deletions is still being
    built: then only the newest versions' deletions are listed, and asking again lists more).
    Only what a restore can bring back is listed: ``MEMORY.md`` and topic files.

    The deletions come from the index of :mod:`.deletions` (only versions recorded since it was
    last brought up to date are walked, and a bounded part of a history it is still being
    built for), and only the versions listed are read from git, without their files: the cost
    follows what is new and what is listed, not the history's length."""
    deletions = recent_deletions(repository)
    chosen: dict[str, str] = {}
    for version, name in deletions.found:
        if len(chosen) >= limit:
            break
        if name in chosen or name in present or name == layout.MARKER_FILE:
            continue
        chosen.setdefault(name, version)  # the newest deletion of a file comes first
    versions = list(dict.fromkeys(chosen.values()))
    listed = log(repository, "--no-walk=unsorted", *versions, files=False) if versions else []
    entries = {entry.version: entry for entry in listed}
    files = [
        DeletedFile(
            file=name,
            deleted_in=version,
            author=author_of(entries[version]),
            restore_version=entries[version].parents[0],
        )
        for name, version in chosen.items()
        if version in entries and entries[version].parents
    ]
    return files, deletions.complete
