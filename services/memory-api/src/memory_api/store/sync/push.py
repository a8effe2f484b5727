"""Taking a machine's push into the scope folder: merged, written, recorded (R-1, R-2).

The memory files on disk are the truth (agents on the service's machine write them directly),
so a push never moves the history's branch itself. A machine pushes one commit to its own ref,
``refs/machines/<id>`` (:mod:`.backend`): its local copy's files, whose first parent is its
*base*: the version of the scope it last fetched, or its last push the service took (none on a
first push). Then, under the scope's lock:

1. the pushed files are checked as the history records them (:func:`memory_core.scope_files.
   is_scope_file`, regular files within their caps); anything else is left out and reported
   (a refused change leaves the base's file as it was). With a trusted base, only what
   changed since it is read (``git diff-tree``), so a push costs the same in a scope of ten
   files or of thousands;
   a machine cannot re-point a scope at another Workspace: a ``.workspace`` marker it sends is
   taken only into a Workspace scope and only when it is one a Session start could write (one
   line of UTF-8, an absolute path without control characters, K-5) naming a path with the
   scope's key (K-1); otherwise the marker the machine started from is kept (reported);
2. the push is merged with the newest version by the R-2 rules
   (:func:`memory_core.scope_merge.merge_scopes`, base = the machine's base, first = the
   service, second = the machine): the usual push, made on what the service already holds, is
   simply taken. The files each side renamed since the base, as git's rename detection finds
   them (``git diff-tree -M``), are renamed on the other side too, so a file renamed on one
   machine and edited on another is one file under its new name holding the edit, and two
   files renamed to one name on two machines keep both texts, each index line linking its
   own (``renamed-to-one``), as do two new files written under one name (``kept-both``,
   the machine's index lines for it following its text to the new name). The base
   is the pushed commit's parent only when that is one of the scope's
   versions or the machine's last push the service took (``refs/taken/<id>``, which only the
   service moves: its files are merged into ``main``, so a machine that sends again without
   fetching in between measures its change against what it sent). A machine cannot make up a
   base to have the service's files deleted: any other parent gives an empty base, and
   whatever differs is kept twice. Such a push was made on a history that is not the scope's
   (a made-up one, or the machine's from before a retention run, V-3): of it the service
   keeps the files alone (a stand-in first version, :func:`_keep_files_only`), never its
   history, so a version retention squashed is not brought back by a machine that held it;
3. the result is written into the scope folder without losing a write made meanwhile by an
   agent on the service's machine (:func:`memory_core.scope_write.apply_scope`: the merge
   starts from the newest version, and a file on disk that differs from it, written since the
   last record, is never overwritten or deleted: the pushed text is kept beside it).
   ``MEMORY.md`` is written first; a merge that deletes a topic file (or renames one away)
   while the scope's ``MEMORY.md`` is one the push writer never rewrites
   (:func:`memory_core.scope_write.index_unwritable`: any symlink, even to a file of the
   scope's own folder, a folder, a FIFO, a file hard-linked elsewhere, one over 16 MiB; or one
   that became such a file while it was written) writes nothing and refuses the whole push
   (:class:`~memory_api.errors.Conflict`, 409, A-6: the file would go and its line stay where
   nobody can prune it); the machine's ref goes back, so the machine keeps its change and sends
   it again at its next sync. A push deleting nothing is written beside such an index, the
   lines it adds kept in ``MEMORY-<machine>.md``;
4. the files the merge wrote (and any it found raced) are recorded as a version (source
   ``sync``, ``Machine:`` and one ``Merged:`` trailer per outcome; the scope's other files are
   not looked at: a write made to one of them on the service's machine is recorded by the
   next record, as found, such as the next fetch's; a merge that changed no file but has a
   merge outcome is a version too, with no files); ``refs/taken/<id>`` then names the push.

Its own commits never become versions: a version says who changed memory as the service saw
it, and a client cannot write its trailers. The machine's post-write hook stops there; its
next full sync fetches ``main``, whose files hold everything it sent.

Blocking: run it in a worker thread holding the scope's lock.
"""

from __future__ import annotations

import codecs
import functools
import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memory_core.keys import FILE_NAME_MAX_BYTES, USER_SCOPE, key_for_real_path
from memory_core.layout import INDEX_FILE, MARKER_FILE
from memory_core.rules import marker_problem
from memory_core.scope_files import INDEX_CAP, sync_refusal
from memory_core.scope_merge import MergeOutcome, blob_id, merge_scopes
from memory_core.scope_write import HalfDeleteRefused, apply_scope
from memory_core.short_names import (
    disk_name_max,
    fitted_renames,
    held_cuts,
    linking_lines,
    relinked_index,
    shortened_line,
)
from memory_core.shown_names import shown_name

from memory_api.errors import Conflict
from memory_api.store.containment import held_folder
from memory_api.store.history.git import HistoryUnavailable, git, git_succeeds
from memory_api.store.history.maintenance import drop_unreachable, new_id
from memory_api.store.history.recorder import Attribution, Recorded, ScopeHistories
from memory_api.store.history.repo import (
    COMMITTER,
    TreeEntry,
    blob_sizes,
    commit_of,
    read_blob,
    read_blobs,
    read_head,
    read_ref,
    set_ref,
    sized_tree,
    tree_of,
)
from memory_api.store.scopes import walk_sub_folders
from memory_api.store.sync.backend import MachineRef
from memory_api.store.sync.machines import Machine
from memory_api.store.wiki_notes import index_notes

__all__ = ["TakenPush", "new_scope_refusal", "take_push"]

logger = logging.getLogger(__name__)

_FILE_MODES = ("100644", "100755")


@dataclass(frozen=True, slots=True)
class TakenPush:
    """What a push did: the version recording it (None when it changed nothing) and what the
    merge did beyond taking the machine's files, one line each (R-2)."""

    recorded: Recorded | None
    outcomes: list[str] = field(default_factory=list)
    commit: bool = False
    """Whether the push named a commit that was merged (the machine's next base may be it)."""
    foreign: bool = False
    """Whether it was made on a history that is not the scope's (its files alone are kept)."""


def _refusal(name: str, mode: str, size: int | None) -> str | None:
    """Why a pushed entry is not taken (None: it is a memory file within its cap)."""
    refused = sync_refusal(name, regular=mode in _FILE_MODES, size=size)
    return None if refused is None else refused.why


def _not_taken(name: str, reason: str) -> str:
    """The outcome line of a pushed entry left out: its name as a listing shows it (bytes that
    are not UTF-8 and control characters escaped, :func:`shown_name`), cut to 120 characters.
    So the line is one printable line of UTF-8 in git's report, the version's ``Merged:``
    trailer and the machines' file, whatever name the machine's tree held (a name of Latin-1
    bytes made the push a 500 once taken; a line break split the report's line)."""
    return f"{shown_name(name)[:120]} was not taken: {reason}"


def _memory_files(repository: Path, tree: str, skipped: list[str]) -> dict[str, str]:
    """A pushed tree's memory files (name → blob id); the rest named in ``skipped``."""
    files: dict[str, str] = {}
    for name, (entry, size) in sized_tree(repository, tree).items():
        reason = _refusal(name, entry.mode, size)
        if reason is None:
            files[name] = entry.blob
        else:
            skipped.append(_not_taken(name, reason))
    return files


def _changed_files(
    repository: Path, base: str, base_files: dict[str, str], pushed: str, skipped: list[str]
) -> dict[str, str]:
    """The pushed commit's memory files, read as ``base_files`` (the files of its base, a
    version) plus what changed since (one ``git diff-tree`` and the sizes of the changed blobs,
    however large the scope). A change that is refused (named in ``skipped``) leaves the base's
    file as it was: refusing a file never deletes it."""
    out = git(repository, "diff-tree", "-z", "--no-renames", "--raw", base, pushed)
    fields = out.split(b"\x00")
    files = dict(base_files)
    changed: list[tuple[str, str, str]] = []
    for meta, raw_name in zip(fields[0::2], fields[1::2], strict=False):
        if not meta.startswith(b":"):
            continue
        _, mode, _, blob, status = meta[1:].decode("ascii").split()
        name = raw_name.decode("utf-8", "surrogateescape")
        if status == "D":
            files.pop(name, None)
        else:
            changed.append((name, mode, blob))
    sizes = blob_sizes(repository, [blob for _, mode, blob in changed if mode in _FILE_MODES])
    for name, mode, blob in changed:
        reason = _refusal(name, mode, sizes.get(blob) if mode in _FILE_MODES else None)
        if reason is None:
            files[name] = blob
        else:
            skipped.append(_not_taken(name, reason))
    return files


class _Blobs:
    """The bytes of blob ids, read from the repository once, plus ones made by the merge."""

    def __init__(self, repository: Path) -> None:
        self.repository = repository
        self.known: dict[str, bytes] = {}

    def add(self, blobs: Mapping[str, bytes]) -> None:
        self.known.update(blobs)

    def prefetch(self, blobs: set[str]) -> None:
        self.known.update(read_blobs(self.repository, blobs - self.known.keys()))

    def __call__(self, blob: str) -> bytes:
        data = self.known.get(blob)
        if data is None:
            data = self.known[blob] = read_blob(self.repository, blob)
        return data


def take_push(
    histories: ScopeHistories,
    agent_id: str,
    scope: Path,
    ref: MachineRef,
    machine: Machine,
    principal: str,
    *,
    before: str | None,
) -> TakenPush:
    """Merge what ``machine`` pushed to ``ref`` into the real ``scope`` folder and record it
    (see the module); ``before`` is where the push found the machine's ref. The caller holds
    the scope's lock. Afterwards the machine's ref and ``refs/taken/<id>`` name the push; when
    it could not be taken, the machine's ref is back at ``before``. Raises
    :class:`~memory_api.store.history.git.HistoryUnavailable` when git refuses (nothing is
    written then, or, from step 3 on, what was written is recorded by the next record) and
    ``OSError`` when the folder cannot be written."""
    repository = histories.repository(agent_id, scope)
    pushed = read_ref(repository, ref.name)
    try:
        taken = _take(histories, agent_id, scope, repository, ref, pushed, machine, principal)
    except BaseException:
        set_ref(repository, ref.name, before)
        raise
    if pushed is not None and taken.commit and taken.foreign:
        _keep_files_only(repository, ref, pushed)
    elif pushed is not None and taken.commit:
        set_ref(repository, ref.taken, pushed)
    else:
        set_ref(repository, ref.name, before)
    return taken


_STANDS_FOR = b"Taken-Push: "
"""The message of a taken push's stand-in (:func:`_keep_files_only`), then the push's id."""


def _keep_files_only(repository: Path, ref: MachineRef, pushed: str) -> None:
    """Keep of the push ``pushed``, made on a history that is not the scope's (a base that is
    no version: the machine's history from before a retention run, R-1/V-3), only its files:
    the machine's refs name a *stand-in*, a first version holding its tree whose message names
    it (:data:`_STANDS_FOR`), and every object no ref reaches is dropped
    (:func:`~memory_api.store.history.maintenance.drop_unreachable`), so the versions retention
    squashed, which such a push sends again, are not kept again. The machine's next push made
    on ``pushed`` is still measured against it (:func:`_base_of`). A cleanup git refuses (a
    full disk) is logged, never raised: the push is merged and recorded, and the next cleanup
    or retention run drops what this one left."""
    tree = git(repository, "rev-parse", f"{pushed}^{{tree}}").decode("ascii").strip()
    now = int(time.time())
    who = f"{COMMITTER} {now} +0000"
    head = f"tree {tree}\nauthor {who}\ncommitter {who}\n\n".encode()
    commit = head + _STANDS_FOR + pushed.encode("ascii") + b"\n"
    stand_in = git(repository, "hash-object", "-t", "commit", "-w", "--stdin", stdin=commit)
    set_ref(repository, ref.taken, stand_in.decode("ascii").strip())
    set_ref(repository, ref.name, stand_in.decode("ascii").strip())
    try:
        drop_unreachable(repository)
    except HistoryUnavailable as error:  # the push is merged and recorded: taken all the same
        logger.warning(
            "history %s: objects no ref reaches kept after a push (the next cleanup or "
            "retention run drops them): %s",
            repository.name,
            error,
        )


def _stood_for(repository: Path, taken: str | None) -> str | None:
    """The push the stand-in ``taken`` keeps the files of (:func:`_keep_files_only`); None
    when ``taken`` is no stand-in (a push taken as it was, or none)."""
    if taken is None:
        return None
    raw = git(repository, "cat-file", "commit", taken)
    head, _, message = raw.partition(b"\n\n")
    if b"\nparent " in b"\n" + head or not message.startswith(_STANDS_FOR):
        return None
    return message[len(_STANDS_FOR) :].strip().decode("ascii", "replace")


def _take(
    histories: ScopeHistories,
    agent_id: str,
    scope: Path,
    repository: Path,
    ref: MachineRef,
    pushed: str | None,
    machine: Machine,
    principal: str,
) -> TakenPush:
    head = read_head(repository)
    if pushed is None or pushed == head:
        return TakenPush(None)
    commit = commit_of(repository, pushed)
    if commit is None:
        return TakenPush(None, [f"{ref.name} does not name a commit; nothing was taken"])
    tree, parents = commit
    outcomes: list[str] = []
    newest = {} if head is None else histories.tree(repository, head)
    first = {name: entry.blob for name, entry in newest.items()}
    parent = parents[0] if parents else None
    known = None
    based, foreign = (None, False) if parent is None else _base_of(repository, ref, parent, head)
    if based is not None and head is not None:
        known = _files_of(repository, based, head, newest)
    renamed: tuple[dict[str, str], dict[str, str]] = ({}, {})
    if based is not None and known is not None:
        base = {name: entry.blob for name, entry in known.items()}
        incoming = _changed_files(repository, based, base, pushed, outcomes)
        assert head is not None  # a trusted parent is a version or a push merged into one
        renamed = (_renames(repository, based, head), _renames(repository, based, pushed))
    else:
        base = {}
        incoming = _memory_files(repository, tree, outcomes)
    _keep_marker(repository, scope.name, base, incoming, outcomes)
    blobs = _Blobs(repository)
    outcomes += _fit_to_disk(scope, (base, first, incoming), blobs, renamed)
    notes = _sub_folder_notes(scope, (base, first, incoming), blobs)
    merge = merge_scopes(
        base, first, incoming, blobs, label=machine.name, renamed=renamed, sub_folder_notes=notes
    )
    blobs.add(merge.new)
    blobs.prefetch({blob for name, blob in merge.files.items() if first.get(name) != blob})
    first = _marker_written_anew(scope, first, merge.files)
    # written in the folder held open: one swapped for a link to another agent's scope
    # meanwhile is never written; raises FolderSwapped (an OSError) when it is already
    with held_folder(scope.parent, scope) as held:
        try:
            raced = apply_scope(held, first, merge.files, blobs, label=machine.name)
        except HalfDeleteRefused as refused:
            raise _half_delete_refused(scope.name, refused) from None
    outcomes = [outcome.describe() for outcome in _unique(merge.outcomes + raced)] + outcomes
    written = {name for name, blob in merge.files.items() if first.get(name) != blob}
    written |= {name for name in first if name not in merge.files}
    written |= {name for o in raced for name in o.files()}
    who = Attribution(
        "sync",
        principal=principal,
        machine=machine.name,
        machine_id=machine.machine_id,
        merged=tuple(outcomes),
    )
    # a merge that changed no file but did something worth saying (the other machine's edit
    # came first, then this one's delete) is still a version: the machine reads its outcomes
    # from the versions it fetches. A file merely left out (too large, a sub-folder) is not:
    # the machine would send it again at every sync, and each would be an empty version
    merged = bool(merge.outcomes or raced)
    recorded = histories.record(agent_id, scope, who, only=written, keep_empty=merged)
    return TakenPush(recorded, outcomes, commit=True, foreign=foreign)


_DELETES_NAMED = 3
"""At most this many files a refused push deletes are named in its refusal; the rest counted."""


def _half_delete_refused(key: str, refused: HalfDeleteRefused) -> Conflict:
    """The refusal (409) of a push whose merge deletes topic files of scope ``key`` while its
    ``MEMORY.md`` could not be written (``refused``, :func:`memory_core.scope_write.apply_scope`
    wrote nothing): the file would go and a line linking it stay in an index nobody can prune,
    a half delete (A-6). What to do comes first, so a machine that shows only the first 500
    characters of the reason (R-1) shows it whatever the names; then which files (at most
    :data:`_DELETES_NAMED`, the rest counted), which index and why. The machine's ref goes back
    (:func:`take_push`), so the machine keeps its change and sends it again at its next sync;
    once the index is a regular file again, the push is taken."""
    deleted = refused.deleted
    named = ", ".join(repr(shown_name(name)) for name in deleted[:_DELETES_NAMED])
    more = len(deleted) - _DELETES_NAMED
    named += f" and {more} more" if more > 0 else ""
    logger.warning(
        "a push to scope %s deleting %s was refused: its %s could not be written: %s",
        key,
        named,
        INDEX_FILE,
        refused.reason,
    )
    return Conflict(
        f"the push was not taken, and the machine keeps its change: make {INDEX_FILE} on the "
        "service's machine a regular file of the scope's folder, no symlink, at most "
        f"{INDEX_CAP} bytes (or remove it), then sync again. The push deletes {named}, but "
        f"scope {key}'s {INDEX_FILE} on the service could not be written ({refused.reason}), so "
        f"{'its' if len(deleted) == 1 else 'their'} index lines could not be removed, and a "
        "delete is all or nothing"
    )


def _marker_written_anew(
    scope: Path, first: dict[str, str], merged: Mapping[str, str]
) -> dict[str, str]:
    """``first`` (the newest version's files) as what the write starts from: without the
    marker when the ``scope`` folder holds none though the version and the merge do. A
    forgotten scope (K-5) leaves its history's last version holding the marker; a push that
    brings the scope back made its folder anew and wrote only what changed, so the scope had
    no marker (``marker: missing``) and the next fetch recorded and sent its deletion to
    every machine. So a scope folder is never made without its marker (R-1, K-5)."""
    if MARKER_FILE not in first or MARKER_FILE not in merged:
        return first
    if os.path.lexists(scope / MARKER_FILE):
        return first
    return {name: blob for name, blob in first.items() if name != MARKER_FILE}


def _sub_folder_notes(
    scope: Path, sides: tuple[Mapping[str, str], ...], blobs: _Blobs
) -> frozenset[str]:
    """The files of the real ``scope``'s sub-folders (which no push brings) that the wiki links
    of the index of each of ``sides`` name, as the lint finds them among that side's files
    (:func:`~memory_api.store.wiki_notes.index_notes`: ``notes/Deploy Freeze.md`` for
    ``[[Deploy Freeze]]``), in one walk of the sub-folders: the merge resolves the links among
    them too, so a rename it follows relinks only the lines the lint reads as linking the
    renamed file (R-2, T-5b)."""
    walk = functools.cache(functools.partial(walk_sub_folders, scope))
    found: set[str] = set()
    for side in sides:
        index = side.get(INDEX_FILE)
        if index is not None:
            text = blobs(index).removeprefix(codecs.BOM_UTF8).decode("utf-8", "replace")
            found |= index_notes(scope, text, list(side), walk)
    return frozenset(found)


def _fit_to_disk(
    scope: Path,
    sides: tuple[dict[str, str], dict[str, str], dict[str, str]],
    blobs: _Blobs,
    renamed: tuple[dict[str, str], dict[str, str]],
) -> list[str]:
    """Rename in ``incoming`` (the pushed files; ``sides`` is ``(base, first, incoming)`` as
    :func:`_take` merges them) each topic file whose name is longer than the scope folder's
    disk takes (eCryptfs: 143 bytes, where K-7 allows 255) to one it takes, the pushed index's
    links and the machine's renames pointed there (:mod:`memory_core.short_names`); the
    outcome lines. Writing it failed the whole push (503, ``File name too long``), and every
    later one of that machine: none of its changes was ever taken.

    A long name the push's base holds is one this service took before, under its cut
    (:func:`~memory_core.short_names.held_cuts`; a machine that sends again without fetching
    measures against what it sent): it is read as that cut in the base and the push alike, so
    an edit lands in the cut file (a free name, ``…~523d24-2.md``, made a second note, linked
    by no line, beside the old text). Nothing new is said of it: the first push was told."""
    base, first, incoming = sides
    limit = disk_name_max(scope)
    if limit >= FILE_NAME_MAX_BYTES:
        return []
    held = held_cuts(base, first, limit)
    for old, new in held.items():
        base[new] = base.pop(old)
        if old in incoming and new not in incoming:
            incoming[new] = incoming.pop(old)
    renames = fitted_renames(incoming, limit, [*first, *base])
    for old, new in renames.items():
        incoming[new] = incoming.pop(old)
    index = incoming.get(INDEX_FILE)
    links = linking_lines(blobs(index), renames) if index is not None else {}
    _relink(base, held, blobs)
    _relink(incoming, {**held, **renames}, blobs)
    for side_renames, made in zip(renamed, ({}, renames), strict=True):
        moved = {held.get(old, old): made.get(new, new) for old, new in side_renames.items()}
        side_renames.clear()  # the service's L → cut is no rename once the base holds the cut
        side_renames.update({old: new for old, new in moved.items() if old != new})
    return [
        shortened_line(old, new, limit, "the service's disk", links.get(old, 0))
        for old, new in renames.items()
    ]


def _relink(files: dict[str, str], renames: Mapping[str, str], blobs: _Blobs) -> None:
    """Point the links of the index of ``files`` (one side of the merge) to each file of
    ``renames`` at its new name; an index that is not UTF-8 is left as it is."""
    index = files.get(INDEX_FILE)
    relinked = None if index is None or not renames else relinked_index(blobs(index), renames)
    if relinked is not None:
        files[INDEX_FILE] = blob_id(relinked)
        blobs.add({files[INDEX_FILE]: relinked})


def _renames(repository: Path, base: str, commit: str) -> dict[str, str]:
    """The files ``commit`` renamed since ``base`` (old name → new), as git's own rename
    detection finds them (``git diff-tree -M``: a file gone and one come holding at least half
    its text). The merge follows only the pure ones (``R100``) on the other side (R-2); one
    that changed the text too (a templated note replaced by the next day's, ``R074``) is only
    named in the outcome of an edit of the old file kept beside it (``renamed-changed``):
    following it would land the other side's edit of the old file in the new one. Empty when
    ``commit`` is ``base``."""
    if base == commit:
        return {}
    out = git(repository, "diff-tree", "-z", "-M", "--raw", "--diff-filter=R", base, commit)
    fields = iter(out.split(b"\x00"))
    renames: dict[str, str] = {}
    for meta in fields:
        if not meta.startswith(b":"):
            continue
        old, new = next(fields, b""), next(fields, b"")
        renames[old.decode("utf-8", "surrogateescape")] = new.decode("utf-8", "surrogateescape")
    return renames


def _base_of(
    repository: Path, ref: MachineRef, parent: str, head: str | None
) -> tuple[str | None, bool]:
    """The commit whose files are a push's base, given its ``parent``, and whether the push
    was made on a history that is not the scope's (``foreign``: its files alone are kept,
    :func:`_keep_files_only`). The base is ``parent`` when it is a version of the scope
    (``head`` or one before it) or the machine's last push the service took (its files are
    merged into ``main``); the stand-in of that push when only its files were kept (the
    push is then foreign too); the version retention kept ``parent`` as under a new id
    (:func:`~memory_api.store.history.maintenance.new_id`: foreign too); else none (foreign:
    a base the service does not hold, such as a version retention squashed)."""
    taken = read_ref(repository, ref.taken)
    if head is None:
        return None, False
    if parent in (head, taken):
        return parent, False
    if git_succeeds(repository, "merge-base", "--is-ancestor", parent, head):
        return parent, False
    if taken is not None and _stood_for(repository, taken) == parent:
        return taken, True
    moved = new_id(repository, parent)  # a version retention kept under a new id
    if moved is not None and git_succeeds(repository, "merge-base", "--is-ancestor", moved, head):
        return moved, True
    return None, True


def _files_of(
    repository: Path,
    parent: str,
    head: str,
    newest: dict[str, TreeEntry],
) -> dict[str, TreeEntry] | None:
    """The files of the base ``parent``: ``newest`` (head's files) when it holds the same
    tree as ``head`` (the usual base: the machine's last push, taken as it was), else read;
    None when git cannot read it (its objects are gone: the push is then merged as one with
    no base, which loses nothing)."""
    if parent == head:
        return newest
    try:
        trees = git(repository, "rev-parse", f"{parent}^{{tree}}", f"{head}^{{tree}}").split()
        if len(trees) == 2 and trees[0] == trees[1]:
            return newest
        return tree_of(repository, parent)
    except HistoryUnavailable:
        return None


def _keep_marker(
    repository: Path, key: str, base: dict[str, str], incoming: dict[str, str], outcomes: list[str]
) -> None:
    """Take the pushed marker only when it fits the scope (see the module); otherwise put back
    the one the machine started from (none: no marker), so the merge sees no change of it."""
    pushed = incoming.get(MARKER_FILE)
    if pushed is None or pushed == base.get(MARKER_FILE):
        if pushed is None and MARKER_FILE in base:
            incoming[MARKER_FILE] = base[MARKER_FILE]  # a marker is never deleted by a push
        return
    reason = _marker_refusal(repository, key, pushed)
    if reason is None:
        return
    outcomes.append(f"{MARKER_FILE} was not taken: {reason}")
    if MARKER_FILE in base:
        incoming[MARKER_FILE] = base[MARKER_FILE]
    else:
        del incoming[MARKER_FILE]


def _marker_refusal(repository: Path, key: str, blob: str) -> str | None:
    """Why the pushed marker ``blob`` does not fit scope ``key`` (None: it does, K-1, K-5)."""
    if key == USER_SCOPE:
        return "the user scope has no marker"
    path, problem = marker_problem(read_blob(repository, blob))
    if problem is not None:
        return f"it names no Workspace path a Session start could write: it {problem} (K-5)"
    if not path or key_for_real_path(path) != key:
        return f"it names a Workspace whose key is not {key} (K-1)"
    return None


def new_scope_refusal(repository: Path, key: str, pushed: str | None) -> str | None:
    """Why the commit ``pushed`` may not make Workspace scope ``key``, which is not on the
    service yet (None: it may). A scope is tied to its Workspace only by its ``.workspace``
    marker (K-5), so the push that makes one must bring a marker the service takes: a regular
    file within its cap that names a path with the scope's key. Raises
    :class:`~memory_api.store.history.git.HistoryUnavailable` when git cannot read the commit."""
    commit = None if pushed is None else commit_of(repository, pushed)
    found = None if commit is None else sized_tree(repository, commit[0]).get(MARKER_FILE)
    if commit is None:
        reason: str | None = "the push names no commit"
    elif found is None:
        reason = f"it brings no {MARKER_FILE} marker naming its Workspace (K-5)"
    else:
        entry, size = found
        reason = _refusal(MARKER_FILE, entry.mode, size)
        reason = reason or _marker_refusal(repository, key, entry.blob)
        if reason is not None:
            reason = f"its {MARKER_FILE} marker was not taken: {reason}"
    if reason is None:
        return None
    return (
        f"scope {key} is not on the service yet and {reason}; nothing was taken (a Session "
        "start in the Workspace makes the scope)"
    )


def _unique(outcomes: list[MergeOutcome]) -> list[MergeOutcome]:
    return list(dict.fromkeys(outcomes))
