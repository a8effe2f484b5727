"""Importing a memory folder into one scope without losing or overwriting anything (P-5).

For each offered topic file, in name order:

- its name is free → the file is created with exactly its bytes (``added``);
- the name holds the very same bytes → nothing to do (``unchanged``);
- the name is taken by something else → the newcomer is kept beside it under
  ``<stem>-imported.md`` (then ``-imported-2`` …); if that name already holds the same bytes
  it was imported before (``already imported``), else it is created (``renamed``).

A topic file made from part of a source file (:attr:`SourceFile.made`) is "the same" when the
file there holds the same ``name``, ``description`` and body, whatever its date says: the
date a made memory carries is the source file's, which moves when another part of it changes.

Files are created with :func:`~memory_api.store.exclusive.create_new_bytes` (temp file, fsync,
hard link), which never replaces an existing name: an agent that writes the same name at the
same moment keeps its file, and the newcomer goes to the next free name. Then the source index
is merged into the scope's ``MEMORY.md`` (:func:`memory_core.index_merge.merge_index`: links
rewritten to the names used, no line twice) through :func:`memory_core.file_edit.edit_file`,
the primitive of the delete's index pruning (A-6): an agent's write that slips in between the
read and the replacement is detected and the merge re-applied, never overwritten (Q-2a); a
missing index is created only where none appeared meanwhile. All of it runs under the scope's
cross-process lock (``index.<agent>.<scope>``, the lock of delete), so a running service's
delete and an import never interleave (Q-4).

The lines are added to the index in its own form, as the undo of a delete adds them
(:func:`memory_core.index_rewrite.merge_index_bytes`): UTF-8, UTF-16 (with or without its BOM)
or UTF-32, Windows-1252 or Latin-1, its BOM and line ends (CR alone included), every byte it
held kept. An index that the service cannot add lines to that way (bytes that do not decode
exactly, a character its encoding cannot hold, lines after which it would
read as another encoding, an encoding that cannot be told from a legacy multi-byte one such as
Shift-JIS or GB18030, larger than the pruning cap, unreadable) is left alone; the lines that
would have been added are reported, with why, so that nothing is lost silently. A source index
line linking a file the scope will not hold (one not imported: unreadable, a symlink, every
``-imported`` name taken; or one the source never held) is not merged, unless the scope has a
file of that name already: it would be a dangling link; the report lists it with why
(:mod:`~memory_api.transfer.index_targets`). A dry run plans the same, reporting the lines it
would add, without writing anything.

Blocking: run from the command line or a worker thread.
"""

from __future__ import annotations

import functools
import itertools
import os
import stat
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Literal

from memory_core import layout
from memory_core.atomic import fsync_directory
from memory_core.counting import counted
from memory_core.errors import FileKeptChanging, InvalidId, NotRegularFileError
from memory_core.file_edit import FileTooLarge, edit_file
from memory_core.hard_links import HARD_LINKED, NamedElsewhereError
from memory_core.index_merge import (
    IndexMerge,
    case_renames,
    merge_index,
    rewrite_links,
    wiki_renames,
)
from memory_core.index_rewrite import IndexNotRewritable, MergedBytes, merge_index_bytes
from memory_core.keys import check_topic_file_name
from memory_core.line_merge import merge_lines
from memory_core.scope_files import TOPIC_CAP
from memory_core.topics import parse_topic

from memory_api.errors import Conflict
from memory_api.store.containment import is_within, read_regular, real_path
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.history.bundles import take_bundle
from memory_api.store.history.git import HistoryUnavailable
from memory_api.store.history.maintenance import maintain
from memory_api.store.history.recorder import Attribution, NotRecorded, Recorded, ScopeHistories
from memory_api.store.history.repo import read_head
from memory_api.store.locks import Locks, lock_name
from memory_api.store.pruning import PRUNE_READ_CAP
from memory_api.transfer.index_targets import without_missing_targets
from memory_api.transfer.sources import (
    IMPORT_FILE_CAP,
    OVER_TOPIC_CAP,
    Merged,
    Skipped,
    SourceFile,
    SourceScope,
)

__all__ = [
    "RENAME_SUFFIX",
    "FileOutcome",
    "ImportReport",
    "IndexNotWritten",
    "import_scope",
    "renamed_candidates",
]

RENAME_SUFFIX = "-imported"
"""Appended to the stem of a newcomer whose name is taken: ``notes.md`` → ``notes-imported.md``."""
WRITE_THREADS = 8
"""Files created at once: each is fsynced, and the waits for the disk overlap."""
MERGE_ATTEMPTS = 20
"""How often the read-merge-compare cycle of the index is retried while others change it."""
COMMAND_LINE = "command line"
"""The principal of a change made by ``memory-api`` on the command line (V-1)."""
MAX_RENAMES = 1000
"""How many ``-imported-N`` names are tried before the file is reported as not imported."""

Action = Literal["added", "unchanged", "renamed", "already imported"]


class _Occupant(Enum):
    FREE = "free"
    TAKEN = "taken"  # a symlink, folder, FIFO or unreadable file holds the name


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """What happened to one offered topic file: ``stored_as`` is its name in the scope."""

    origin: str
    name: str
    action: Action
    stored_as: str
    note: str | None = None


MERGED_ALREADY = frozenset({"already there", "already indexed", "title"})
"""Why :func:`memory_core.index_merge.merge_index` skips a line that needs no adding."""


@dataclass(slots=True)
class ImportReport:
    """The outcome of importing one :class:`~memory_api.transfer.sources.SourceScope`.

    ``key`` is the target scope; ``files`` one outcome per imported topic file; ``skipped``
    what was not imported and why; ``merged`` the source files that became index lines or made
    topic files; ``indexed`` the ``(file, line)`` index lines made for topics the source index
    never linked; ``index_added`` / ``index_skipped`` the source index lines merged or left out
    (with the reason); ``notes`` anything else worth telling (an index that could not be
    rewritten, a marker kept); ``version`` the version recording the import (V-1; None when
    nothing changed or no history is kept). ``dry_run`` reports what would happen.
    """

    key: str
    label: str
    dry_run: bool
    files: list[FileOutcome] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    merged: list[Merged] = field(default_factory=list)
    indexed: list[tuple[str, str]] = field(default_factory=list)
    index_added: list[str] = field(default_factory=list)
    index_skipped: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    version: str | None = None

    def counts(self) -> Counter[str]:
        """Files per action, plus ``skipped`` and ``index lines added``."""
        counts: Counter[str] = Counter(outcome.action for outcome in self.files)
        counts["skipped"] = len(self.skipped)
        counts["index lines added"] = len(self.index_added)
        return counts

    @property
    def lines_left_out(self) -> list[tuple[str, str]]:
        """The source index lines not added for a reason other than being there already (an
        index the service may not rewrite, T-2, each to add by hand; a line linking a file the
        scope does not hold, to merge once that file is imported): ``(line, why)``."""
        return [(line, why) for line, why in self.index_skipped if why not in MERGED_ALREADY]

    @property
    def changed(self) -> bool:
        """Whether the import wrote (or, in a dry run, would write) anything."""
        return bool(self.index_added) or any(
            outcome.action in ("added", "renamed") for outcome in self.files
        )


def renamed_candidates(name: str) -> Iterator[str]:
    """Yield the names tried for a newcomer whose ``name`` is taken, each a K-7 topic file name.

    The stem is shortened (by characters) when the new name would exceed 255 bytes.

    >>> list(renamed_candidates("Deploy notes.md"))[:2]
    ['Deploy notes-imported.md', 'Deploy notes-imported-2.md']
    """
    stem = name.removesuffix(".md")
    for number in range(1, MAX_RENAMES + 1):
        tail = RENAME_SUFFIX + ("" if number == 1 else f"-{number}") + ".md"
        head = stem
        while head and len((head + tail).encode("utf-8", "surrogatepass")) > 255:
            head = head[:-1]
        try:
            yield check_topic_file_name(head + tail)
        except InvalidId:
            continue


def _occupant(path: Path) -> bytes | _Occupant:
    """What holds the name ``path`` in the scope: nothing, a regular file's bytes, or else."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return _Occupant.FREE
    except OSError:
        return _Occupant.TAKEN
    if not stat.S_ISREG(info.st_mode):
        return _Occupant.TAKEN
    try:
        raw, _ = read_regular(path, IMPORT_FILE_CAP + 1)
    except (OSError, NotRegularFileError):
        return _Occupant.TAKEN
    return raw


def _same_memory(occupant: bytes | _Occupant, item: SourceFile) -> bool:
    """Whether the file there is ``item`` already (see the module docstring)."""
    if occupant == item.data:
        return True
    if not item.made or not isinstance(occupant, bytes):
        return False
    there, offered = parse_topic(occupant, item.name), parse_topic(item.data, item.name)
    return (there.name, there.description, there.body) == (
        offered.name,
        offered.description,
        offered.body,
    )


def _place(
    scope: Path, item: SourceFile, *, write: bool, reserved: set[str] | None = None
) -> FileOutcome | None:
    """Choose (and with ``write``, create) the name of one topic file (see the module).

    ``reserved`` holds names planned for other files of this import: they count as taken.
    """
    names = itertools.chain([item.name], renamed_candidates(item.name))
    for number, candidate in enumerate(names):
        path = scope / candidate
        occupant = _occupant(path)
        if occupant is _Occupant.FREE and (reserved is None or candidate not in reserved):
            if not write or create_new_bytes(path, item.data, sync_parent=False):
                action: Action = "added" if number == 0 else "renamed"
                return FileOutcome(item.origin, item.name, action, candidate, item.note)
            occupant = _occupant(path)  # someone created it meanwhile: judge what is there now
        if _same_memory(occupant, item):
            same: Action = "unchanged" if number == 0 else "already imported"
            return FileOutcome(item.origin, item.name, same, candidate, item.note)
    return None


def _create(scope: Path, item: SourceFile, planned: FileOutcome) -> FileOutcome | None:
    """Create a planned new file; if its name was taken meanwhile, place it again."""
    if create_new_bytes(scope / planned.stored_as, item.data, sync_parent=False):
        return planned
    return _place(scope, item, write=True)


def _write_all(
    scope: Path,
    plans: list[tuple[SourceFile, FileOutcome | None]],
    advance: Callable[[], None] | None,
) -> list[tuple[SourceFile, FileOutcome | None]]:
    """Create the planned new files in parallel (each one fsynced: the disk waits overlap).

    When a write fails or the import is interrupted (Ctrl-C), the writes under way finish
    (each file whole) and none not yet started begins: the error is raised then."""
    results: list[tuple[SourceFile, FileOutcome | None]] = []
    with ThreadPoolExecutor(max_workers=WRITE_THREADS) as pool:
        try:
            pending = {
                number: pool.submit(_create, scope, item, plan)
                for number, (item, plan) in enumerate(plans)
                if plan is not None and plan.action in ("added", "renamed")
            }
            for number, (item, plan) in enumerate(plans):
                results.append((item, pending[number].result() if number in pending else plan))
                if advance is not None:
                    advance()
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise
    return results


class _NotRewritable(Exception):
    """The index is not one the service may rewrite; raised out of the edit."""


class IndexNotWritten(OSError):
    """The kernel refused the import the scope's ``MEMORY.md`` (P-5): a file system mounted
    read-only, no permission on it or its folder, a full disk. Unlike an index the service
    must not rewrite (not UTF-8, a hard link: reported, lines to add by hand), this fails the
    import: nothing was torn, the index is as it was, and the same import run again once it is
    fixed merges its lines. ``errno`` and ``strerror`` are the kernel's, ``filename`` the
    index's path."""


def _merged_bytes(raw: bytes | None, source: str, renames: dict[str, str]) -> MergedBytes:
    """The merge of ``source`` into the index bytes ``raw`` (None: no index yet), in the
    index's own encoding and line ends (:func:`memory_core.index_rewrite.merge_index_bytes`)."""
    if raw is None:
        merge = merge_index(None, source, renames)
        return MergedBytes(merge, merge.text.encode("utf-8") if merge.changed else None)
    try:
        return merge_index_bytes(raw, source, renames, foreign=True)
    except IndexNotRewritable as problem:
        raise _NotRewritable(str(problem)) from None


def _merge_existing(
    path: Path, source: str, renames: dict[str, str], dry_run: bool
) -> IndexMerge | None:
    """Merge into the index at ``path`` through :func:`memory_core.file_edit.edit_file`, which
    re-applies the merge to a write that slips in (Q-2a); None when there is no index."""
    merges: list[tuple[bytes, IndexMerge]] = []

    def edit(raw: bytes) -> bytes | None:
        merged = _merged_bytes(raw, source, renames)
        merges[:] = [(raw, merged.merge)]
        return None if dry_run else merged.data

    try:
        edited = edit_file(path, edit, merge=merge_lines, read_cap=PRUNE_READ_CAP)
    except FileKeptChanging as error:
        raise Conflict(
            f"{error}: the topic files are in place; run the import again to merge the index"
        ) from None
    except FileTooLarge:
        raise _NotRewritable(f"is larger than {PRUNE_READ_CAP} bytes") from None
    except NamedElsewhereError:
        raise _NotRewritable(f"is {HARD_LINKED}; not read") from None
    except NotRegularFileError as error:
        raise _NotRewritable(f"cannot be rewritten ({error.strerror or error})") from None
    except OSError as error:
        raise IndexNotWritten(error.errno, error.strerror, os.fspath(path)) from error
    if edited is not None and (not merges or merges[0][0] != edited.before):
        return _merged_bytes(edited.before, source, renames).merge
    return merges[0][1] if merges else None


def _merge_index_file(
    root: Path, scope: Path, source: str, renames: dict[str, str], dry_run: bool
) -> tuple[IndexMerge | None, str | None]:
    """Merge ``source`` into the scope's index; returns the merge and a note if not written."""
    path = real_path(scope / layout.INDEX_FILE)
    if not is_within(root, path):
        return None, f"{layout.INDEX_FILE} links outside the memory root; not changed"
    for _ in range(MERGE_ATTEMPTS):
        try:
            merge = _merge_existing(path, source, renames, dry_run)
        except _NotRewritable as problem:
            return merge_index(None, source, renames), f"{layout.INDEX_FILE} {problem}"
        if merge is not None:
            return merge, None
        # No index yet: create it, unless an agent creates one first (then merge into that).
        new = _merged_bytes(None, source, renames)
        if dry_run or new.data is None or _created(path, new.data):
            return new.merge, None
    raise Conflict(
        f"{layout.INDEX_FILE} kept appearing and disappearing while the import merged its lines; "
        "the topic files are in place: run the import again to merge the index"
    )


def _created(path: Path, data: bytes) -> bool:
    """:func:`~memory_api.store.exclusive.create_new_bytes` of a new index; the kernel's
    refusal is :class:`IndexNotWritten`."""
    try:
        return create_new_bytes(path, data)
    except OSError as error:
        raise IndexNotWritten(error.errno, error.strerror, os.fspath(path)) from error


def import_scope(
    root: Path,
    scope: Path,
    key: str,
    source: SourceScope,
    *,
    locks: Locks,
    agent_id: str,
    dry_run: bool = False,
    advance: Callable[[], None] | None = None,
    histories: ScopeHistories | None = None,
) -> ImportReport:
    """Import ``source`` into the real ``scope`` directory (``key``) of the real memory ``root``.

    ``advance`` is called once per offered topic file (a progress bar). Holds the scope's lock
    (the lock of delete) unless ``dry_run``, which writes nothing and tells what would happen;
    ``scope`` need not exist in a dry run. With ``histories`` the import is recorded as a
    version (V-1), what was on disk before it too; its ``version`` goes in the report. Raises
    :class:`~memory_api.store.locks.LockTimeoutError` when the lock cannot be had,
    :class:`~memory_api.errors.Conflict` when the index kept changing, and ``OSError`` when the
    scope cannot be written.
    """
    report = ImportReport(key=key, label=source.label, dry_run=dry_run)
    report.skipped.extend(source.skipped)
    report.merged.extend(source.merged)
    report.indexed.extend(source.indexed)
    report.notes.extend(source.notes)
    if not source.files and source.index is None:
        return report
    if dry_run:
        if source.history is not None:
            report.notes.append("history: the archive holds this scope's history")
        _import_files(root, scope, source, report, dry_run=True, advance=advance)
        return report
    work = functools.partial(_import_files, dry_run=False, advance=advance)
    with locks.hold_sync(lock_name("index", agent_id, scope.name)):
        if histories is None or not histories.enabled:
            work(root, scope, source, report)
            return report
        _import_recorded(histories, agent_id, root, scope, source, report, work)
    return report


def _import_recorded(
    histories: ScopeHistories,
    agent_id: str,
    root: Path,
    scope: Path,
    source: SourceScope,
    report: ImportReport,
    work: Callable[..., None],
) -> None:
    """The import between records (V-1); an archived history taken by a scope without one."""
    subject = source.recorded or source.label
    who = Attribution("import", principal=COMMAND_LINE, subject=subject)
    repository = histories.repository(agent_id, scope)
    if source.history is not None and read_head(repository) is None:
        work(root, scope, source, report)
        try:
            taken = take_bundle(repository, source.history)
        except HistoryUnavailable as error:
            report.notes.append(f"history: the archive's was not taken ({error.detail})")
        else:
            report.notes.append(f"history: {counted(taken, 'version')} taken from the archive")
        recorded = histories.record(agent_id, scope, who)
    else:
        if source.history is not None:
            report.notes.append("history: the scope has its own; the archive's was not taken")
        _, around = histories.around(agent_id, scope, who, work, root, scope, source, report)
        if isinstance(around, NotRecorded):  # imported, but no version names it yet
            report.notes.append(f"history: the import is not recorded yet ({around.why})")
        recorded = around if isinstance(around, Recorded) else None
    if recorded is not None:
        report.version = recorded.version
        if recorded.maintenance_due:
            maintain(repository)


def _import_files(
    root: Path,
    scope: Path,
    source: SourceScope,
    report: ImportReport,
    *,
    dry_run: bool,
    advance: Callable[[], None] | None,
) -> None:
    reserved: set[str] = set()
    plans: list[tuple[SourceFile, FileOutcome | None]] = []
    for item in source.files:
        if len(item.data) > TOPIC_CAP:  # the service could never read it, nor delete it (V-1)
            report.skipped.append(Skipped(item.origin, OVER_TOPIC_CAP))
            if advance is not None:
                advance()
            continue
        plan = _place(scope, item, write=False, reserved=reserved)
        if plan is not None:
            reserved.add(plan.stored_as)
        plans.append((item, plan))
    if dry_run:
        if advance is not None:
            for _ in plans:
                advance()
    else:
        plans = _write_all(scope, plans, advance)
        fsync_directory(scope)  # one flush of the new names instead of one per file
    for item, outcome in plans:
        if outcome is None:
            report.skipped.append(Skipped(item.origin, "every -imported name is taken"))
        else:
            report.files.append(outcome)
    if source.index is None:
        return
    renames = {o.name: o.stored_as for o in report.files if o.stored_as != o.name}
    imported = {unicodedata.normalize("NFC", outcome.name) for outcome in report.files}
    held = source.entry_names()
    index, left_out = without_missing_targets(
        root, scope, source.index, imported, report.skipped, held=held
    )
    # a wiki link follows its renamed file as the lint resolves it among the source's files
    renames = wiki_renames(index, renames, imported)
    # a link naming an imported file in another case names it as it is (or its new name),
    # never one the source holds spelled as the link is (a symlink, a FIFO: another file)
    renames = case_renames(index, renames, imported, held=held)
    report.index_skipped.extend(left_out)
    merge, note = _merge_index_file(root, scope, index, renames, dry_run)
    if merge is None:
        report.notes.append(note or "index not merged")
        return
    if note is not None:
        report.notes.append(f"{note}: not rewritten; add these lines by hand")
        report.index_skipped.extend((line, "index not rewritable") for line in merge.added)
        return
    report.index_added.extend(merge.added)
    report.index_skipped.extend(merge.skipped)
    if source.index_origin is not None:  # its own lines: the lines made have rows of their own
        made = {rewrite_links(line, renames) for _, line in source.indexed}
        own = [line for line in merge.added if line not in made]
        there = len([line for line, _ in merge.skipped if line not in made])
        report.merged.append(
            Merged(
                source.index_origin,
                f"index: {counted(len(own), 'line')} merged into {layout.INDEX_FILE}"
                + (f", {there} already there" if there else ""),
            )
        )
