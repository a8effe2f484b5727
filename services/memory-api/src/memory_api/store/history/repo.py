"""One scope's history repository: its newest version, trees, new versions, the log (V-1, V-2).

A version is a commit on :data:`~.git.BRANCH` whose tree is the scope's memory files as they
were (``MEMORY.md``, ``.workspace`` and the topic files, flat, as in the scope folder). The
commit's message is a one-line summary, a blank line, and trailers saying who (``Source:``,
``Session-Id:``, ``Harness:``, ``Tool:``, ``Principal:``, ``Restored-From:``); its author date
is when the change was made as the disk tells, its committer date when it was recorded.

New versions go in through ``git fast-import`` with the content inline: the bytes recorded are
exactly the bytes the service read (through its containment checks), never a second read by
git. ``fast-import`` writes its objects, then moves the branch (``from`` the newest version, so
it refuses to drop one): a process killed on the way leaves the branch where it was.

Blocking: run everything here in a worker thread.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memory_core.scope_merge import blob_id

from memory_api.errors import READ_ACCESS_FIX
from memory_api.store.containment import read_regular
from memory_api.store.history.git import (
    BRANCH,
    REPAIR,
    HistoryDamaged,
    HistoryUnavailable,
    git,
    git_status,
    git_succeeds,
)

__all__ = [
    "COMMITTER",
    "Change",
    "LogEntry",
    "LoggedFile",
    "TreeEntry",
    "blob_id",
    "blob_sizes",
    "commit_changes",
    "commit_of",
    "entry_at",
    "is_ancestor",
    "log",
    "read_blob",
    "read_blobs",
    "read_head",
    "read_ref",
    "set_ref",
    "sized_tree",
    "tree_of",
]

COMMITTER = "memory-api <history@memory-api.invalid>"
"""Who commits every version; who *made* it is the author and the trailers."""
_FILE_MODE = "100644"
_HEX40 = re.compile(rb"[0-9a-f]{40}")
_REF_CAP = 4096
"""Bytes of a loose ref file read at most: a commit id and a line end (or a ``ref:`` line)."""
_PACKED_REFS_CAP = 64 * 1024 * 1024
"""Bytes of ``packed-refs`` read at most: a line of about 100 bytes per ref, so some 600,000
refs (one per machine and scope, and each one's taken ref)."""


@dataclass(frozen=True, slots=True)
class TreeEntry:
    """A file in a version: its git mode (``100644`` for what the service records) and blob."""

    mode: str
    blob: str


@dataclass(frozen=True, slots=True)
class Change:
    """One file of a new version: its new ``data``, or None when it is gone."""

    name: str
    data: bytes | None


@dataclass(frozen=True, slots=True)
class LoggedFile:
    """A file a logged version changed: ``status`` ``A``, ``M`` or ``D``, its blob in that
    version (the removed blob for ``D``), and its blob in the version before (``was``: git's
    null id for ``A``)."""

    status: str
    name: str
    blob: str
    was: str = ""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """A version as the log reads it: id, parents, author and commit times (seconds since the
    epoch), summary, trailers (name → value, the last one wins), the files it changed, and the
    values of every ``Merged:`` trailer (what merging a machine's changes did, R-2)."""

    version: str
    parents: tuple[str, ...]
    author_time: int
    commit_time: int
    summary: str
    trailers: dict[str, str]
    files: list[LoggedFile] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)


def read_head(repository: Path) -> str | None:
    """The newest version of ``repository``, or None before its first; a file read, no git."""
    return read_ref(repository, BRANCH)


def _unreadable(repository: Path, name: str, error: OSError) -> HistoryUnavailable:
    """The 503 for a file ``name`` of the history ``repository`` the kernel will not read (Q-2b):
    the detail names the file and the reason and says what to do."""
    why = error.strerror or type(error).__name__
    return HistoryUnavailable(
        f"the history cannot be read: the service cannot read its file "
        f"{repository.name}/{name} ({why}): {READ_ACCESS_FIX}"
    )


def read_ref(repository: Path, ref: str) -> str | None:
    """The commit the ref ``ref`` (a full name under ``refs/``) points to, or None when there
    is no such ref; a file read, no git. Raises :class:`HistoryUnavailable` when the files
    cannot be read, :class:`~.git.HistoryDamaged` when the branch's ref file holds no commit id
    (a machine's ref that does is taken for none: it is set again at its next sync).

    Git keeps a ref as a loose ref file (``refs/heads/main``) unless refs were packed
    (``packed-refs``); both are read as git writes them (a loose file wins).
    """
    try:  # a FIFO never blocks: the scope's lock is held
        raw, _ = read_regular(repository / ref, _REF_CAP, follow_symlinks=True)
    except FileNotFoundError:
        raw = b""
    except OSError as error:  # NotRegularFileError is one
        raise _unreadable(repository, ref, error) from None
    found = _HEX40.match(raw)
    if found is not None:
        return found.group().decode("ascii")
    if raw and ref == BRANCH:  # git writes a ref whole (lock file, rename): this one is broken
        raise HistoryDamaged(
            f"the history of this scope is damaged (its ref {ref} names no version): {REPAIR}"
        )
    try:
        packed, _ = read_regular(
            repository / "packed-refs", _PACKED_REFS_CAP + 1, follow_symlinks=True
        )
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _unreadable(repository, "packed-refs", error) from None
    if len(packed) > _PACKED_REFS_CAP:
        raise HistoryUnavailable(
            f"the history cannot be read: its packed-refs is over {_PACKED_REFS_CAP} bytes"
        )
    for line in packed.splitlines():
        if line.endswith(b" " + ref.encode()) and _HEX40.match(line):
            return line[:40].decode("ascii")
    return None


def set_ref(repository: Path, ref: str, commit: str | None) -> None:
    """Point the ref ``ref`` (a full name under ``refs/``) at ``commit``, or remove it (None),
    as ``git update-ref`` does for a loose ref, without a git process: ``<ref>.lock`` written
    and renamed over the ref file. Only for a transient ref (a machine's push ref, not
    fsynced) while holding the scope's lock, under which no other writer runs: a lock file a
    killed git left is overwritten. Raises :class:`HistoryUnavailable` when the files cannot
    be written."""
    path = repository / ref
    try:
        if commit is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = path.with_name(path.name + ".lock")
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(fd, commit.encode("ascii") + b"\n")
            finally:
                os.close(fd)
            lock.replace(path)
    except OSError as error:
        raise HistoryUnavailable(f"the ref {ref} cannot be written: {error.strerror}") from None
    if commit is None and read_ref(repository, ref) is not None:  # packed: git removes it
        git(repository, "update-ref", "-d", ref)


def tree_of(repository: Path, version: str) -> dict[str, TreeEntry]:
    """Every file of ``version``: name → :class:`TreeEntry` (one ``git ls-tree``)."""
    out = git(repository, "ls-tree", "-z", "--full-tree", version)
    entries: dict[str, TreeEntry] = {}
    for record in out.split(b"\x00"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, _, rest = meta.partition(b" ")
        blob = rest.rpartition(b" ")[2]
        entries[name.decode("utf-8", "surrogateescape")] = TreeEntry(
            mode.decode("ascii"), blob.decode("ascii")
        )
    return entries


def entry_at(repository: Path, version: str, name: str) -> tuple[TreeEntry, int] | None:
    """The file ``name`` at ``version`` and its size in bytes, or None when it was not there.

    Raises :class:`HistoryUnavailable` when ``version`` is no version of this history.
    """
    out = git(repository, "ls-tree", "-z", "-l", version, "--", name)
    for record in out.split(b"\x00"):
        meta, _, found = record.partition(b"\t")
        if found.decode("utf-8", "surrogateescape") != name:
            continue
        mode, kind, blob, size = meta.split()
        if kind != b"blob":
            return None
        return TreeEntry(mode.decode("ascii"), blob.decode("ascii")), int(size)
    return None


def read_blob(repository: Path, blob: str) -> bytes:
    """The bytes of the blob ``blob`` (its size checked by the caller, :func:`entry_at`)."""
    return git(repository, "cat-file", "blob", blob)


def blob_sizes(repository: Path, blobs: Iterable[str]) -> dict[str, int]:
    """The size in bytes of each blob id (one ``git cat-file --batch-check``)."""
    wanted = list(dict.fromkeys(blobs))
    if not wanted:
        return {}
    out = git(
        repository,
        "cat-file",
        "--batch-check=%(objectname) %(objectsize)",
        stdin="".join(f"{blob}\n" for blob in wanted).encode("ascii"),
    )
    sizes: dict[str, int] = {}
    for line in out.decode("ascii", "replace").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return sizes


def read_blobs(repository: Path, blobs: Iterable[str]) -> dict[str, bytes]:
    """The bytes of each blob id (one ``git cat-file --batch``); ids that are no blob are left
    out. The caller has checked the sizes (:func:`sized_tree`)."""
    wanted = list(dict.fromkeys(blobs))
    if not wanted:
        return {}
    out = git(repository, "cat-file", "--batch", stdin="".join(f"{b}\n" for b in wanted).encode())
    found: dict[str, bytes] = {}
    position = 0
    for blob in wanted:
        end = out.index(b"\n", position)
        header = out[position:end].split()
        position = end + 1
        if len(header) != 3:  # "<id> missing"
            continue
        size = int(header[2])
        if header[1] == b"blob":
            found[blob] = out[position : position + size]
        position += size + 1
    return found


def sized_tree(repository: Path, version: str) -> dict[str, tuple[TreeEntry, int | None]]:
    """Every entry of ``version``'s tree: name → (entry, size in bytes; None for anything but
    a blob). One ``git ls-tree -l``."""
    out = git(repository, "ls-tree", "-z", "-l", "--full-tree", version)
    entries: dict[str, tuple[TreeEntry, int | None]] = {}
    for record in out.split(b"\x00"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, kind, blob, size = meta.split()
        entries[name.decode("utf-8", "surrogateescape")] = (
            TreeEntry(mode.decode("ascii"), blob.decode("ascii")),
            int(size) if kind == b"blob" and size.isdigit() else None,
        )
    return entries


def commit_of(repository: Path, version: str) -> tuple[str, list[str]] | None:
    """The tree and parents of the commit ``version`` (an annotated tag is read as the commit
    it names, as git reads it); None when it names no commit: a blob or a tree a machine
    pushed to its ref (R-1), or an object git lacks, asked without logging an error, since
    it is the push's mistake and no fault of the history. Raises :class:`HistoryUnavailable`
    when git finds the commit but cannot read it."""
    if not git_succeeds(repository, "cat-file", "-e", f"{version}^{{commit}}"):
        return None
    out = git(repository, "cat-file", "commit", version)
    # header lines end at a newline only: a name in ``author`` may hold "\r" (fsck takes it)
    head = out.split(b"\n\n", 1)[0].decode("ascii", "replace").split("\n")
    trees = [line[5:] for line in head if line.startswith("tree ")]
    parents = [line[7:] for line in head if line.startswith("parent ")]
    return (trees[0], parents) if trees else None


def is_ancestor(repository: Path, older: str, newer: str) -> bool:
    """Whether version ``older`` is ``newer`` or one below it (False for one git lacks)."""
    code, _ = git_status(repository, "merge-base", "--is-ancestor", older, newer)
    return code == 0


def _quoted(name: str) -> bytes:
    """A path as ``fast-import`` reads it: verbatim, or C-quoted when it starts with a quote."""
    raw = name.encode("utf-8", "surrogateescape")
    if not raw.startswith(b'"'):
        return raw
    return b'"' + raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"') + b'"'


def _data(payload: bytes) -> bytes:
    return b"data %d\n%s\n" % (len(payload), payload)


def commit_changes(
    repository: Path,
    parent: str | None,
    changes: Sequence[Change],
    *,
    author: str,
    author_time: int,
    commit_time: int,
    message: str,
) -> str:
    """Record a new version: ``parent``'s files with ``changes`` applied; returns its id.

    ``author`` is ``Name <email>``; times are seconds since the epoch (UTC). The caller holds
    the scope's lock, so the branch is still at ``parent`` (``fast-import`` refuses to move it
    otherwise). Raises :class:`HistoryUnavailable` when git refuses (the part of a pack it
    wrote is removed then).
    """
    stream = [
        b"commit " + BRANCH.encode() + b"\n",
        f"author {author} {author_time} +0000\n".encode(),
        f"committer {COMMITTER} {commit_time} +0000\n".encode(),
        _data(message.encode("utf-8")),
    ]
    if parent is not None:
        stream.append(f"from {parent}\n".encode())
    for change in changes:
        path = _quoted(change.name)
        if change.data is None:
            stream.append(b"D " + path + b"\n")
        else:
            stream.append(b"M " + _FILE_MODE.encode() + b" inline " + path + b"\n")
            stream.append(_data(change.data))
    stream.append(b"done\n")
    # unpackLimit=0: every version is one pack (one fsync), counted by the maintenance
    left = _temp_packs(repository)
    try:
        git(
            repository,
            "fast-import",
            "--quiet",
            "--done",
            stdin=b"".join(stream),
            config=(("fastimport.unpackLimit", "0"),),
        )
    except HistoryUnavailable:
        _remove_temp_packs(repository, keep=left)
        raise
    head = read_head(repository)
    if head is None or head == parent:
        raise HistoryUnavailable("the history did not take the new version")
    return head


def _temp_packs(repository: Path) -> set[str]:
    """The names of the ``tmp_*`` files in the repository's pack folder."""
    try:
        with os.scandir(repository / "objects" / "pack") as listing:
            return {entry.name for entry in listing if entry.name.startswith("tmp_")}
    except OSError:
        return set()


def _remove_temp_packs(repository: Path, *, keep: set[str]) -> None:
    """Remove the ``tmp_*`` files a failed ``fast-import`` left (those not in ``keep``): on a
    full disk each failed record would otherwise keep the part of a pack it wrote, and take
    the space the next one needs. Under the scope's lock no other git writes a pack here."""
    for name in _temp_packs(repository) - keep:
        with contextlib.suppress(OSError):
            (repository / "objects" / "pack" / name).unlink()


_LOG_FORMAT = "%x1e%H%x1f%P%x1f%at%x1f%ct%x1f%s%x1f%(trailers:only,unfold,separator=%x1d)"


def log(
    repository: Path, *args: str, paths: Sequence[str] = (), files: bool = True
) -> list[LogEntry]:
    """The versions ``git log ARGS -- PATHS`` lists, newest first, each with its changed files
    (without ``files``: none, and no version is compared with its parent, which over a scope
    of thousands of files is most of the cost).

    ``args`` are revision and limiting options (``-n``, ``--since``, a range …); renames are
    never detected (a file is its name). An empty history gives an empty list.
    """
    diff = ("--no-renames", "--raw", "--no-abbrev") if files else ()
    out = git(repository, "log", "-z", *diff, f"--format={_LOG_FORMAT}", *args, "--", *paths)
    return [entry for chunk in out.split(b"\x1e")[1:] if (entry := _entry(chunk)) is not None]


def _entry(chunk: bytes) -> LogEntry | None:
    """One version of :func:`log`'s output: the formatted header, NUL, then ``--raw`` pairs
    (``:mode mode blob blob status`` NUL ``path`` NUL)."""
    header, _, rest = chunk.partition(b"\x00")
    fields = header.decode("utf-8", "replace").split("\x1f")
    if len(fields) != 6:
        return None
    version, parents, author_time, commit_time, summary, trailer_text = fields
    tokens = rest.lstrip(b"\n").split(b"\x00")
    files: list[LoggedFile] = []
    for meta, name in zip(tokens[0::2], tokens[1::2], strict=False):
        parts = meta.decode("ascii", "replace").split()
        if len(parts) != 5 or not parts[0].startswith(":"):
            continue
        status = parts[4][:1]
        blob = parts[2] if status == "D" else parts[3]
        name_text = name.decode("utf-8", "surrogateescape")
        files.append(LoggedFile(status, name_text, blob, was=parts[2]))
    trailers: dict[str, str] = {}
    merged: list[str] = []
    for line in trailer_text.split("\x1d"):
        key, colon, value = line.partition(":")
        if colon:
            trailers[key.strip()] = value.strip()
            if key.strip() == "Merged":
                merged.append(value.strip())
    return LogEntry(
        version=version,
        parents=tuple(parents.split()),
        author_time=int(author_time or 0),
        commit_time=int(commit_time or 0),
        summary=summary,
        trailers=trailers,
        files=files,
        merged=merged,
    )
