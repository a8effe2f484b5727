"""Bringing a file back from a version, with its index lines, as a new version (V-2).

The API still accepts no content: a restore only brings back bytes the history holds. Under the
scope's lock, through :meth:`~.recorder.ScopeHistories.around`:

1. what is on disk is recorded first (``found``), so the text a restore replaces stays in a
   version (restoring is itself undoable);
2. the file gets its bytes of that version. A deleted file is created again, never over
   anything that has its name (a file the history does not hold, a symlink, a FIFO: the 409
   says which, and that nothing was written); an existing one is replaced through
   :func:`memory_core.file_edit.edit_file`, and only if it still holds what step 1 recorded: a
   write that slipped in between is never overwritten unrecorded (409, try again), and one
   step 1 could not take (the service cannot read it, it is over its read cap) is not replaced
   at all (503 saying why);
3. for a topic file, the lines of that version's ``MEMORY.md`` (or of the file of the scope
   it is a symlink to: :func:`_version_index`) that linked to it (T-4) are
   merged into the index as it is now (:func:`memory_core.index_merge.merge_index`: a line
   already there, or one whose links the index already holds, is not added, a link to a file
   the scope holds in two Unicode normalizations held only by a line spelling it so, never by
   its twin's line; every line others
   wrote stays; each line goes back where it stood in that version, after the same neighbour
   line when the index still holds it), again through ``edit_file``; an index that does not
   exist is created with them. Restoring ``MEMORY.md`` itself merges that version's lines the
   same way: lines lost since come back, none written since is dropped;
4. the result is recorded (``restore``, ``Restored-From:``), also when step 3 answers 409
   "restore again" (the index kept changing): the file written is never left unrecorded.

Restoring a deleted file is the undo of a delete: its lines go back into the index in the form
the delete pruned it in (UTF-8, UTF-16 or UTF-32, Windows-1252 or Latin-1; its BOM and line
ends, CR alone included: :func:`memory_core.index_rewrite.merge_index_bytes`, which the import
adds its lines with too). An index the service may not rewrite (bytes that do not decode
exactly, a restored character its encoding cannot hold, lines after which it
would read as another encoding, over the pruning cap) is left alone: the answer says why
(``indexProblem``) and lists the lines to add by hand (``indexLinesNotAdded``), never a calm
"no line added". So does an index that is a symlink to no memory file of the scope
(``kept.txt``, a note in a sub-folder): the delete pruned that file, which no version holds, so
the lines it took are not known; the file is restored all the same and ``indexProblem`` says so
(:func:`_index_not_recorded`) whenever a delete by the service (a version attributed ``delete``)
or one arrived by sync (``sync``) followed the restored version (:func:`_deleted_since`), the
file written again since or not;
never when no such delete did: a file given an older text, or removed on disk (``rm``, ``mv``),
lost no line to the service; nor when that file still has a line linking the file (a sync of
a machine's ``rm``, which the sync's version cannot tell from a delete).

Blocking: run it in a worker thread holding the scope's lock.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from memory_core import layout
from memory_core.atomic import fsync_directory, write_temp_beside
from memory_core.decoding import decode_exact, name_spellings, shown_lines
from memory_core.errors import FileKeptChanging, NotRegularFileError
from memory_core.file_edit import FileId, FileTooLarge, edit_file, identity
from memory_core.file_kind import file_kind
from memory_core.hard_links import HARD_LINKED, NamedElsewhereError
from memory_core.index import index_lines_linking
from memory_core.index_merge import merge_index
from memory_core.index_rewrite import IndexNotRewritable, merge_index_bytes
from memory_core.line_merge import merge_lines
from memory_core.markdown import line_texts
from memory_core.scope_write import INDEX_LOOKS
from memory_core.topics import decode_text
from memory_core.wire import RestoreResult

from memory_api.errors import Conflict, NotFound, Unavailable, write_fix
from memory_api.store.containment import (
    FolderSwapped,
    held_folder,
    is_within,
    read_regular,
    real_path,
)
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.history.reading import check_version, content_at
from memory_api.store.history.recorder import Attribution, NotRecorded, Recorded, ScopeHistories
from memory_api.store.history.repo import blob_id, log, read_head
from memory_api.store.history.snapshot import linked_index
from memory_api.store.pruning import PRUNE_READ_CAP, held_index, twin_names
from memory_api.store.wiki_notes import index_notes

__all__ = ["restore_file"]

_ACCESS = "write access to the scope's folder and the file (their owner and mode)"
"""What the service's account needs to restore a file (:func:`~memory_api.errors.write_fix`)."""

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Plan:
    name: str
    data: bytes
    index_lines: str | None  # the lines to merge into MEMORY.md (None: none to merge)
    places: str | None  # the version's MEMORY.md, where each line goes back to its place
    pruned: bool = False  # a delete by the service followed the version (took its lines)
    codec: str | None = None  # the encoding the version's MEMORY.md was written in


def _linking_lines(
    old_index: bytes | None, name: str, files: Iterable[str], scope: Path
) -> str | None:
    """The lines of the version's index ``old_index`` linking ``name`` (each spelling of it
    there), as a delete prunes them: a wiki link naming it among the version's ``files``
    (``[[Deploy Freeze]]`` for ``deploy-freeze.md``) too, unless another of them answers it
    once ``name`` is gone (``[[testing]]`` beside ``feedback_testing.md``, a line the delete
    kept: :func:`~memory_core.index.wiki_names_naming`) or a note of the real ``scope``'s
    sub-folders does (``notes/Deploy Freeze.md``, as the lint finds it:
    :func:`~memory_api.store.wiki_notes.index_notes`; a version holds no sub-folder), so a
    restore puts back exactly the lines the delete took (V-2, A-6). When the version holds
    ``name``'s twin in another Unicode normalization (two files), only the lines spelling
    ``name`` itself are its lines, as the delete pruned them. A line the version holds twice
    is put back twice (the delete took both), one linking two spellings once."""
    if old_index is None:
        return None
    text = decode_text(old_index)[0]
    notes = [file for file in files if file.lower().endswith(".md") and file != layout.INDEX_FILE]
    notes += index_notes(scope, text, notes)
    nfc = unicodedata.normalize("NFC", name)
    twin = any(file != name and unicodedata.normalize("NFC", file) == nfc for file in files)
    lines: list[str] = []
    taken: Counter[str] = Counter()  # a line linking two spellings is one line (a copy: two)
    here = str(scope)  # ``../user/x.md`` and an absolute path link it, as the delete read them
    for spelling in name_spellings(old_index, name):
        mine: Counter[str] = Counter()
        known = [*notes, spelling]
        for line in index_lines_linking(text, spelling, exact=twin, files=known, here=here):
            mine[line] += 1
            if mine[line] > taken[line]:
                taken[line] += 1
                lines.append(line)
    return "".join(line + "\n" for line in lines) or None


def restore_file(
    histories: ScopeHistories,
    agent_id: str,
    root: Path,
    scope: Path,
    names: tuple[str, str],
    version: str,
    principal: str,
) -> RestoreResult:
    """Restore the file ``names[0]`` (``MEMORY.md`` or a K-7 topic file name) of the real
    ``scope`` to the bytes ``version`` holds as ``names[1]`` (the same name, or the note's in
    the other Unicode normalization when it was recorded so: :mod:`~.service`); see the
    module. The caller holds the scope's lock.

    Raises :class:`NotFound` for a version not of this history or one that does not hold the
    file, :class:`Conflict` when the file changed while it was restored (nothing lost),
    :class:`~.git.HistoryUnavailable` when the history cannot record, or cannot take the file
    it would replace as it is now (unreadable, over its read cap: nothing is replaced), and
    :class:`~memory_api.errors.Unavailable` (503) when the scope's folder or its disk refuses
    the file (no permission, a read-only file system, a full disk: nothing is written; the
    detail names the cause and its remedy).
    """
    name, there = names
    repository = histories.repository(agent_id, scope)
    check_version(repository, version)
    data = content_at(repository, version, there)
    if data is None:
        raise NotFound(f"{there!r} is not in version {version}; nothing to restore")
    if name == layout.INDEX_FILE:
        old_index: bytes | None = data
        plan = _Plan(name, data, decode_text(data)[0], _with_ends(data), codec=_codec_of(data))
    else:
        old_index = _version_index(repository, version, scope, there)
        places = None if old_index is None else _with_ends(old_index)
        files = histories.tree(repository, version)
        lines = _linking_lines(old_index, there, files, scope)
        pruned = old_index is None and not lines and _deleted_since(repository, version, names)
        plan = _Plan(name, data, lines, places, pruned, _codec_of(old_index))
    who = Attribution("restore", principal=principal, restored_from=version, subject=name)
    merged, recorded = histories.around(
        agent_id, scope, who, _apply, histories, repository, root, scope, plan, removes=(name,)
    )

    def shown(lines: list[str]) -> list[str]:
        """The lines as a person reads them: an index's in Shift-JIS…, never as mojibake."""
        return lines if old_index is None else shown_lines(old_index, lines)

    if merged.conflict is not None:  # the file restored and recorded, its lines not merged
        raise merged.conflict
    unrecorded = recorded.why if isinstance(recorded, NotRecorded) else None
    return RestoreResult(
        file=name,
        restored_from=version,
        version=recorded.version if isinstance(recorded, Recorded) else None,
        index_lines_added=shown(merged.added),
        index_lines_not_added=shown(merged.not_added),
        index_problem=merged.problem,
        unrecorded=unrecorded,
    )


def _recorded_blob(histories: ScopeHistories, repository: Path, name: str) -> str | None:
    head = read_head(repository)
    if head is None:
        return None
    entry = histories.tree(repository, head).get(name)
    return None if entry is None else entry.blob


@dataclass(frozen=True, slots=True)
class _IndexMerge:
    """What merging a restore's lines into ``MEMORY.md`` did: the lines added, or, when the
    index could not take them, why (``problem``) and the lines to add by hand; or the 409 to
    answer once what was written is recorded (``conflict``: the index kept changing)."""

    added: list[str]
    not_added: list[str] = field(default_factory=list)
    problem: str | None = None
    conflict: Conflict | None = None


def _apply(
    histories: ScopeHistories, repository: Path, root: Path, scope: Path, plan: _Plan
) -> _IndexMerge:
    """Steps 2 and 3 of the module docstring; what the index merge did. They are done in the
    real ``scope`` held open (:func:`~memory_api.store.containment.held_folder`): a scope
    folder exchanged for a symlink to another agent's meanwhile is never written (A-7)."""
    try:
        with held_folder(root, scope) as held:
            return _apply_in(histories, repository, root, (scope, held), plan)
    except FolderSwapped:
        raise Conflict(
            f"{plan.name!r} was not restored: the scope's folder was replaced (by a symlink or a "
            "file) while it was restored; nothing was written"
        ) from None


def _apply_in(
    histories: ScopeHistories,
    repository: Path,
    root: Path,
    scope: tuple[Path, Path],
    plan: _Plan,
) -> _IndexMerge:
    """:func:`_apply` in ``scope``: (the real folder, the path holding it open)."""
    real, held = scope
    if plan.name == layout.INDEX_FILE:
        return _merge_into_index(
            root, held, plan.index_lines or "", plan.places, shown=real, codec=plan.codec
        )
    path = held / plan.name
    recorded = _recorded_blob(histories, repository, plan.name)
    try:
        if recorded is None:
            if not create_new_bytes(path, plan.data):
                raise Conflict(_taken(path, plan.name))
        else:
            _replace_recorded(path, plan, recorded)
    except FolderSwapped:
        raise  # an OSError too, but a conflict: _apply answers it 409
    except OSError as error:  # the folder or the disk refuses the file (not the history)
        raise Unavailable(
            f"{plan.name!r} was not restored: the scope's folder could not take it "
            f"({error.strerror or type(error).__name__}): "
            f"{write_fix(error, _ACCESS)}, then try again; nothing was written"
        ) from None
    if not plan.index_lines:
        # only a file a delete by the service took lines of since the version may miss them
        problem = _index_not_recorded(root, held, plan.name) if plan.pruned else None
        return _IndexMerge([], problem=problem)
    try:
        return _merge_into_index(
            root, held, plan.index_lines, plan.places, shown=real, codec=plan.codec
        )
    except Conflict as kept_changing:  # the file is written: recorded first, then the 409
        return _IndexMerge([], conflict=kept_changing)


def _index_not_recorded(root: Path, scope: Path, name: str) -> str | None:
    """Why no version holds the index a delete pruned, when the ``scope``'s (possibly held
    open) ``MEMORY.md`` is a symlink that is no linked index (:func:`~.snapshot.linked_index`:
    one to a memory file of its folder, whose text the history records): the delete pruned
    the file it links to, which no version holds, so the lines it took are not known and an
    undo puts none back (V-2). Names the file only when it lies in the scope's folder, never a
    path elsewhere. None when ``MEMORY.md`` is no symlink (no index then: nothing was pruned).
    Asked only when a delete by the service or arrived by sync followed the restored version
    (:func:`_deleted_since`), whether the file is there now (written again since) or not: a
    file only given an older text, or removed on disk (``rm``, ``mv``: nothing pruned its
    line), lost no line to the service, so none is said missing. Nor is one when the file it
    links to still has a line linking ``name`` (the file restored): a sync cannot tell a
    machine's delete from its ``rm``, but a line still there was taken by neither (read up to
    :data:`PRUNE_READ_CAP`; unreadable, the problem is told)."""
    lexical = scope / layout.INDEX_FILE
    if not lexical.is_symlink():
        return None
    target = real_path(lexical)
    if not is_within(root, target):
        return "MEMORY.md links outside the memory root"
    if not target.is_file():
        return "MEMORY.md is a link to no regular file"
    if _still_linked(target, name):
        return None
    named = repr(target.name) if target.parent == real_path(scope) else "a file in another folder"
    return (
        f"MEMORY.md is a link to {named}, which is no memory file: no version holds it, so the "
        "index lines a delete took there are not known: if this file's line is not there, add "
        "it by hand"
    )


def _still_linked(index: Path, name: str) -> bool:
    """Whether the index file at ``index`` (resolved, inside the memory root) has a line
    linking ``name`` (:func:`~memory_core.index.index_lines_linking`, a wiki link naming it
    too). False when it cannot be read, or only its first :data:`PRUNE_READ_CAP` bytes."""
    try:
        data, _ = read_regular(index, PRUNE_READ_CAP + 1)
    except OSError:
        return False
    if len(data) > PRUNE_READ_CAP:
        return False
    return bool(index_lines_linking(decode_text(data)[0], name, files=[name]))


def _taken(path: Path, name: str) -> str:
    """Why a file the history does not hold cannot be restored: what stands at its name."""
    try:
        mode = path.lstat().st_mode
    except OSError:
        return f"{name!r} was taken meanwhile and is gone again; nothing was written: try again"
    if stat.S_ISREG(mode):
        return (
            f"{name!r} is a file the history does not hold (written meanwhile, or one it cannot "
            "record); nothing was written: look at it, then restore again"
        )
    return (
        f"{name!r} is {file_kind(mode)}, not a regular file; nothing was written: "
        "remove it, then restore again"
    )


def _replace_recorded(path: Path, plan: _Plan, recorded: str) -> None:
    changed = f"{plan.name!r} changed while it was restored; it holds that change: try again"

    def edit(raw: bytes) -> bytes | None:
        return plan.data if blob_id(raw) == recorded else None

    target = path  # through its folder as given: a held one stays where it was checked
    if path.is_symlink():  # a link to a file of the same folder is that file
        resolved = real_path(path)
        if resolved.parent != real_path(path.parent):
            raise Conflict(f"{plan.name!r} is a link now; it was not replaced")
        target = path.parent / resolved.name
    try:
        edited = edit_file(target, edit, read_cap=PRUNE_READ_CAP)
    except FileKeptChanging as error:  # its words name a file of the agent's kept beside
        raise Conflict(f"{changed} ({error})") from None
    except FileNotFoundError:  # moved or removed between the edit's read and its write
        raise Conflict(f"{plan.name!r} was deleted while it was restored; try again") from None
    except NamedElsewhereError:
        raise Conflict(f"{plan.name!r} is {HARD_LINKED}; it was not replaced") from None
    except (FileTooLarge, NotRegularFileError):
        raise Conflict(f"{plan.name!r} is no longer a file the service may replace") from None
    if edited is None:
        try:  # an agent may have put a FIFO in its place meanwhile: never blocks
            current, _ = read_regular(path, PRUNE_READ_CAP + 1)
        except FileNotFoundError:
            raise Conflict(f"{plan.name!r} was deleted while it was restored; try again") from None
        except OSError:  # no regular file now (NotRegularFileError), or it cannot be read
            raise Conflict(f"{plan.name!r} is no longer a file the service may replace") from None
        if current != plan.data:
            raise Conflict(changed)


def _not_merged(scope: Path, lines: str, problem: str) -> _IndexMerge:
    logger.warning("index of %s cannot take restored lines: %s", scope.name, problem)
    return _IndexMerge([], [line for line in line_texts(lines) if line.strip()], problem)


def _version_index(repository: Path, version: str, scope: Path, name: str) -> bytes | None:
    """The scope's index as ``version`` holds it: its ``MEMORY.md``, the index the delete
    pruned when it was a regular file then (whatever it is now); else the file the delete of
    ``name`` that followed ``version`` pruned (:func:`_pruned_through_link`: ``MEMORY.md`` was
    a symlink to it then, whatever it is now); else, when ``MEMORY.md`` is a symlink to a
    memory file of the same folder now (read, pruned and merged through the link:
    :func:`~.snapshot.linked_index`), that file as the version holds it (the history records
    regular files only, never the link: the version of a delete through it holds the index
    under the file's own name, and no ``MEMORY.md``). None when none is there."""
    held = content_at(repository, version, layout.INDEX_FILE)
    if held is not None:
        return held
    linked = _pruned_through_link(repository, version, name) or linked_index(scope)
    return None if linked is None else content_at(repository, version, linked)


_TAKING_LINES = ("delete", "sync")
"""The sources of a version removing a file that may have taken its index lines: a delete by
the service, and a sync, which brings a machine's delete (made there, its index lines pruned
there, the index without them merged in: :mod:`~memory_api.store.sync.push`) as its own
version; a machine's push cannot say how the file went."""


def _deleted_since(repository: Path, version: str, names: tuple[str, str]) -> bool:
    """Whether a delete of the file, by either of its ``names`` (on disk, in ``version``), by
    the service (a version attributed ``Source: delete``, V-2) or arrived by sync (``Source:
    sync``: :data:`_TAKING_LINES`), came after ``version``: that delete pruned its lines from
    the index, whatever happened to the file since (written again, deleted again). A file
    removed on disk is recorded as found gone, never as a delete: nothing took its line. Only
    the versions since ``version`` that removed the file are read (every branch of a merge)."""
    since = log(
        repository,
        "--ancestry-path",
        "--full-history",
        "--diff-filter=D",
        f"{version}..HEAD",
        paths=sorted(set(names)),
        files=False,
    )
    return any(entry.trailers.get("Source") in _TAKING_LINES for entry in since)


def _pruned_through_link(repository: Path, version: str, name: str) -> str | None:
    """The file that the version recording the delete of ``name`` right after ``version``
    changed beside it: the index the delete pruned through ``MEMORY.md``'s symlink to it (a
    delete changes the file and its index only; what was on disk before is recorded first, in
    a version of its own). None when no such delete follows ``version``, or it changed no
    other file, or more than one. Only the versions since ``version`` that changed ``name``
    are read."""
    for entry in log(
        repository, "--ancestry-path", "--full-diff", f"{version}..HEAD", paths=[name]
    ):
        if entry.parents[:1] != (version,):
            continue
        if not any(file.status == "D" and file.name == name for file in entry.files):
            continue
        others = [file.name for file in entry.files if file.status == "M" and file.name != name]
        return others[0] if len(others) == 1 else None
    return None


def _with_ends(raw: bytes) -> str:
    """The text of a version's index with its own line ends (each line put back ends as it
    ended there), or as :func:`decode_text` reads it (LF) when it does not decode exactly."""
    exact = decode_exact(raw)
    return decode_text(raw)[0] if exact is None else exact.text


def _codec_of(index: bytes | None) -> str | None:
    """The encoding a version's index was written in (``cp1252``, ``utf-16-le``…), as
    :func:`decode_exact` finds it; None without an index or when it does not decode exactly."""
    exact = None if index is None else decode_exact(index)
    return None if exact is None else exact.codec


def _merge_into_index(
    root: Path,
    scope: Path,
    lines: str,
    places: str | None,
    *,
    shown: Path | None = None,
    codec: str | None = None,
) -> _IndexMerge:
    """Merge ``lines`` into the scope's index (created when missing), each where it stood in
    ``places`` (the version's index, written in ``codec``: an index all ASCII now takes them
    back in it): the lines added, or why the index was left as it was.

    Each try looks at ``MEMORY.md`` and edits the file it is, or the file its symlink names
    inside the memory root, through folders held open one name at a time, no symlink followed
    (:func:`~memory_api.store.pruning.held_index`): a folder on the way swapped for a link out
    of the root meanwhile is never where a line is written (A-7). An index found changed at
    the edit (moved, removed, a symlink where the look saw a file, a link's target gone) is
    looked at again, never created at a target resolved before; so is one that no longer
    leads to the very file the edit wrote or read (its device and inode: :func:`_still`)
    after the edit: ``MEMORY.md`` moved away, its link's file moved away or the link pointing
    elsewhere, a new file at its name. No line is said added that no index holds. After
    :data:`~memory_core.scope_write.INDEX_LOOKS` tries: :class:`Conflict` (409), the file
    restored, "restore again".
    No ``MEMORY.md`` makes one with the lines; a symlink to a file that is not there, in a
    folder that is, makes that file with them (the index the link names); a link into a folder
    that is not there takes no line: the answer says so, with the lines to add by hand.
    ``scope`` is a folder held open; ``shown`` is then the real folder, which the logs name."""
    earlier: list[str] = []  # the lines a try added to a file the index no longer was after
    for _ in range(INDEX_LOOKS):
        merged = _merge_once(root, scope, lines, (places, codec), shown or scope, earlier)
        if merged is not None:
            return merged
    raise Conflict(
        "the file is restored; MEMORY.md kept changing (moved, removed or replaced) while its "
        "lines were merged, so they were not: restore again"
    )


def _merge_once(
    root: Path,
    scope: Path,
    lines: str,
    version: tuple[str | None, str | None],
    shown: Path,
    earlier: list[str],
) -> _IndexMerge | None:
    """One try of :func:`_merge_into_index` (``version``: the places and the codec); None when
    the index changed between its look and its edit (look again). ``earlier``: the lines an
    earlier try added to the file the index then was, which moved on: found all there now (the
    index is that file, moved), they are the lines this restore added."""
    places, codec = version
    lexical = scope / layout.INDEX_FILE
    look = _looked_at(root, scope)
    if isinstance(look, str):
        return _not_merged(shown, lines, look)
    there, base, below = look
    merges: list[list[str]] = []
    refusals: list[str] = []
    twins = twin_names(scope)  # each twin's lines are its own, never the other's

    def edit(raw: bytes) -> bytes | None:
        try:  # the form the delete pruned it in: kept as written
            merged = merge_index_bytes(raw, lines, {}, places=places, codec=codec, twins=twins)
        except IndexNotRewritable as refused:
            refusals[:] = [str(refused)]
            return None
        refusals.clear()
        if merged.data is not None:
            merges[:] = [merged.merge.added]
        return merged.data

    try:
        with held_index(base, below) as path:
            try:
                edited = edit_file(
                    path, edit, merge=merge_lines, read_cap=PRUNE_READ_CAP, must_exist=True
                )
            except FileNotFoundError:
                if there:
                    return None  # moved or removed since the look: look again
                return _created(path, lines, twins, lambda made: _still(lexical, root, made))
            # the file edited, or read and left as it was: while its folder is held (``path``
            # may name it through that folder's descriptor, closed once the block ends)
            written = edited.written if edited is not None else identity(path)
    except (FolderSwapped, FileNotFoundError, NotADirectoryError):
        if there:
            return None  # a folder on the way moved or replaced since the look: look again
        return _not_merged(
            shown, lines, f"MEMORY.md is a symlink to {below.as_posix()}, which is not there"
        )
    except FileKeptChanging as error:  # its words name a file of the agent's kept beside
        raise Conflict(
            f"the file is restored; its lines were not merged into MEMORY.md ({error}): "
            "restore again"
        ) from None
    except FileTooLarge:
        return _not_merged(shown, lines, f"MEMORY.md is larger than {PRUNE_READ_CAP} bytes")
    except NamedElsewhereError:
        return _not_merged(shown, lines, f"MEMORY.md is {HARD_LINKED}; not read")
    except NotRegularFileError:
        return _not_merged(shown, lines, "MEMORY.md is not a regular file")
    except OSError as error:
        if error.errno == errno.ELOOP:  # a link the look resolved, or none: made since
            return None  # a symlink now where the look saw a file, or nothing: look again
        return _not_merged(shown, lines, f"MEMORY.md cannot be rewritten: {error.strerror}")
    if not _still(lexical, root, written):
        if edited is not None and merges:
            earlier[:] = merges[0]
        return None  # MEMORY.md leads to another file now (or none): look again
    if edited is not None:
        return _IndexMerge(merges[0] if merges else [])
    if refusals:
        return _not_merged(shown, lines, refusals[0])
    return _IndexMerge(list(earlier))  # read, every line there (put by an earlier try, or not)


def _looked_at(root: Path, scope: Path) -> tuple[bool, Path, PurePath] | str:
    """The restore's look at the scope's ``MEMORY.md``: whether it leads to a file (``there``),
    and the folder and the path below it through which its edit goes (:func:`held_index`): the
    scope's folder and ``MEMORY.md``, or for a symlink the file it names, below the scope's
    folder when it lies there, else below the memory ``root``. Or why no line may go into it
    (a link out of the root, a link loop, no permission): the answer's ``indexProblem``."""
    lexical = scope / layout.INDEX_FILE
    linked = lexical.is_symlink()
    target = real_path(lexical)
    if linked and not is_within(root, target):
        return "MEMORY.md links outside the memory root"
    try:
        os.stat(lexical)  # noqa: PTH116 - followed, as the look at what the link names
        there = True
    except FileNotFoundError:  # none, or a link to nothing
        there = False
    except OSError as error:  # a link loop, no permission: no index the edit may reach
        return f"MEMORY.md cannot be rewritten: {error.strerror}"
    if not linked:
        return there, scope, PurePath(layout.INDEX_FILE)
    folder = real_path(scope)
    base = scope if is_within(folder, target) else root
    return there, base, PurePath(os.path.relpath(target, folder if base is scope else root))


def _created(
    path: Path, lines: str, twins: frozenset[str], still: Callable[[FileId | None], bool]
) -> _IndexMerge | None:
    """The index made at ``path`` (its held folder) with ``lines``, where the look found none;
    None when something stands at its name by then (made meanwhile, or the index moved away
    and a link put back), or the scope's ``MEMORY.md`` no longer leads to the file made
    (``still``, given its identity): look again."""
    merge = merge_index(None, lines, {}, twins=twins)
    temp = write_temp_beside(path, merge.text.encode("utf-8"))
    try:
        made = identity(temp)
        os.link(temp, path)  # never over anything: a name taken meanwhile is FileExistsError
    except FileExistsError:
        return None
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
    fsync_directory(path.parent)
    return _IndexMerge(merge.added) if still(made) else None


def _still(lexical: Path, root: Path, written: FileId | None) -> bool:
    """Whether the scope's ``MEMORY.md`` (``lexical``) still leads to the very file the edit
    wrote or read (``written``, its identity): there, the file itself or a symlink to it
    inside the memory ``root``. A ``MEMORY.md`` moved away, a link whose file was moved away
    or now names another, a new file at the name: False (the lines are in no index)."""
    if written is None:
        return False
    try:
        info = os.stat(lexical)  # noqa: PTH116 - followed: the file the index is
    except OSError:
        return False
    if (info.st_dev, info.st_ino) != written:
        return False
    return not lexical.is_symlink() or is_within(root, real_path(lexical))
