"""Writing a scope's new state into its folder without losing a write made meanwhile (R-2, Q-2).

After a merge (:mod:`memory_core.scope_merge`) the service writes the result into the scope
folder, and a machine writes what came back from the service into its local copy. Agents write
those folders with their own file tools and take no lock of ours, so every change is made only
where the folder still holds what the merge started from (``disk``), and a write that slipped in
is kept:

- ``MEMORY.md`` is written first, through :func:`memory_core.file_edit.edit_file` with a
  three-way line merge of the change into whatever the index holds now (every line anyone
  wrote stays); a missing index is created (an index that appears meanwhile is merged into
  instead). Where the index there cannot be rewritten (:func:`index_unwritable`: a symlink,
  even to a file of the scope's own folder, a folder, a FIFO, a file hard-linked elsewhere, one
  over :data:`INDEX_CAP`; or it turned into one while it was written):

  - a change that deletes topic files (a rename away included) writes nothing at all and
    raises :class:`HalfDeleteRefused` (A-6: a delete is all or nothing; the files would go and
    their lines stay in an index nobody rewrites). So does one that leaves the index as it was
    while such an index is there: whether a line of it links a deleted file cannot be known;
  - any other change is written, and the lines it adds to the index are kept in
    ``MEMORY-<label>.md`` instead, reported as ``index-unwritten`` with why and what to do;
- a topic file is created only where no file is (``os.link``), replaced only while it holds the
  text the merge started from (``edit_file``), deleted only while it does (moved aside,
  compared, then unlinked or put back). Where the file changed meanwhile the new text is kept
  beside it under a new name (``kept-both``); where it was deleted meanwhile the new text is
  written anyway (``kept-edited``); a file edited meanwhile is never deleted (``kept-edited``).
  Either way nothing kept is left out of the index: the new index's lines linking a text kept
  beside are added linking its new name, and the lines the change removed for a file kept
  because it was edited meanwhile are added back (each only where the index lacks it);
- the ``.workspace`` marker is created when missing and never replaced or deleted (K-5);
- an entry that is no regular file (a symlink, wherever it leads; a folder; a FIFO) is never
  followed, opened, replaced or removed: the new text goes beside it.

Every write is atomic (a temp file beside, fsynced, renamed or linked into place), so a reader
sees the old file or the new one, never a torn one. The ``scope`` folder must be a real path the
caller checked (inside its memory root, no symlink on the way), and only names passing
:func:`~memory_core.scope_files.is_scope_file` are touched; others are skipped.

Blocking: run it in a worker thread.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import secrets
import stat
import unicodedata
from collections.abc import Callable
from pathlib import Path

from memory_core import layout
from memory_core.atomic import create_new_bytes, fsync_directory
from memory_core.errors import FileKeptChanging, NotRegularFileError
from memory_core.file_edit import FileTooLarge, edit_file
from memory_core.hard_links import HARD_LINKED, NamedElsewhereError, named_elsewhere
from memory_core.index_merge import rewrite_links
from memory_core.line_merge import merge_lines
from memory_core.regular_files import read_regular_file
from memory_core.scope_files import INDEX_CAP, TOPIC_CAP, is_scope_file, scope_file_cap
from memory_core.scope_merge import (
    Blobs,
    Content,
    MergeOutcome,
    blob_id,
    index_lines_for,
    kept_name,
    with_index_lines,
)

__all__ = ["INDEX_LOOKS", "HalfDeleteRefused", "apply_scope", "index_unwritable"]

logger = logging.getLogger(__name__)

_LINE_RE = re.compile(rb"[^\n]*\n|[^\n]+")

INDEX_LOOKS = 3
"""How many times a writer of a scope's ``MEMORY.md`` (a push's, a restore's merge) looks at it
again when it changed between its look and its edit (moved, removed, a link swapped in) before
it gives up on it."""


class HalfDeleteRefused(Exception):
    """A change deleting topic files (or renaming them away) was not written at all, because
    the scope's ``MEMORY.md`` could not be rewritten (A-6: all or nothing). ``deleted``: the
    topic files it deletes, by name, sorted; ``reason``: why the index could not be written
    (:func:`index_unwritable`'s words, ``"it is a symlink there, which is never written
    through"``)."""

    def __init__(self, deleted: list[str], reason: str) -> None:
        super().__init__(f"{layout.INDEX_FILE} could not be written ({reason}); nothing deleted")
        self.deleted = deleted
        self.reason = reason


def apply_scope(
    scope: Path, disk: Blobs, target: Blobs, content: Content, *, label: str
) -> list[MergeOutcome]:
    """Bring the folder ``scope`` from ``disk`` (name → blob id, what the merge read there) to
    ``target`` (the merged scope), keeping any write made meanwhile (see the module).

    ``content`` gives the bytes of any blob id of ``disk`` and ``target``; ``label`` names the
    incoming side in the names of kept copies. Returns what had to be kept beside or kept
    (races with a writer). ``MEMORY.md`` is written first: raises :class:`HalfDeleteRefused`,
    nothing written, when it cannot be and the change deletes topic files (A-6, see the
    module). Raises ``OSError`` when the folder cannot be written (what was written until then
    stays, each file whole).
    """
    with os.scandir(scope) as listing:
        taken = {entry.name for entry in listing} | set(target)
    outcomes: list[MergeOutcome] = []
    index = scope / layout.INDEX_FILE
    before, after = disk.get(layout.INDEX_FILE), target.get(layout.INDEX_FILE)
    deleted = _deleted_topics(disk, target)
    if before != after:
        unwritten = _write_index(index, before, after, content)
    else:  # nothing to write, but a line of an index never rewritten may link a deleted file
        unwritten = index_unwritable(index) if deleted else None
    if unwritten is not None and deleted:
        logger.warning("%s is not deleted: %s cannot be written", ", ".join(deleted), index)
        raise HalfDeleteRefused(deleted, unwritten)
    if unwritten is not None:
        outcomes.append(_keep_index_lines(scope, before, after, content, label, taken, unwritten))
    for name in sorted(set(disk) | set(target)):
        before, after = disk.get(name), target.get(name)
        if before == after or not is_scope_file(name) or name == layout.INDEX_FILE:
            continue
        if name == layout.MARKER_FILE:
            if after is not None:
                create_new_bytes(scope / name, content(after), sync_parent=False)
        else:
            outcome = _write_topic(scope, name, before, after, content, label, taken)
            if outcome is not None:
                outcomes.append(outcome)
    _index_what_was_kept(scope, disk, target, content, outcomes)
    fsync_directory(scope)
    return outcomes


def _deleted_topics(disk: Blobs, target: Blobs) -> list[str]:
    """The topic files ``disk`` holds and ``target`` does not (deleted or renamed away), sorted;
    never ``MEMORY.md`` or the ``.workspace`` marker, nor a name no scope file has."""
    return sorted(
        name
        for name in disk
        if name not in target
        and name not in (layout.INDEX_FILE, layout.MARKER_FILE)
        and is_scope_file(name)
    )


def _index_what_was_kept(
    scope: Path, disk: Blobs, target: Blobs, content: Content, outcomes: list[MergeOutcome]
) -> None:
    """Add to the index on disk the lines of each topic file a race kept (see the module):
    for a text kept beside (``kept-both``), ``target``'s index lines linking its name, pointed
    at the name it is kept under; for a file kept because it was edited while the change
    deleted it (``kept-edited`` where ``target`` lacks it), the lines of ``disk``'s index
    linking it. Only lines the index lacks; an index that cannot be rewritten is left as it is
    (its own outcome says so)."""
    kept: list[tuple[str, str, dict[str, str]]] = []  # index blob, file, its new name
    for outcome in outcomes:
        if outcome.kind == "kept-both" and outcome.kept_as and outcome.file in target:
            index, renamed = target.get(layout.INDEX_FILE), {outcome.file: outcome.kept_as}
        elif outcome.kind == "kept-edited" and outcome.file not in target:
            index, renamed = disk.get(layout.INDEX_FILE), {}
        else:
            continue
        if index is not None:
            kept.append((index, outcome.file, renamed))
    names: dict[str, list[str]] = {}
    for index, name, _ in kept:
        names.setdefault(index, []).append(name)
    found = {index: index_lines_for(content(index), files) for index, files in names.items()}
    lines = [
        rewrite_links(line, _nfc_keys(renamed))
        for index, name, renamed in kept
        for line in found[index].get(name, [])
    ]
    if lines:
        _merged_into_index(scope / layout.INDEX_FILE, lines)


def _merged_into_index(index: Path, lines: list[str]) -> None:
    """Merge ``lines`` into the regular file ``index`` as it is now, nothing twice, in its own
    form (:func:`~memory_core.scope_merge.with_index_lines`: its encoding, byte order mark and
    line ends); left as it is when it cannot take them keeping its other bytes, would grow
    over :data:`INDEX_CAP`, or is no regular file of its own. An index moved or removed
    between the edit's read and its write is looked at again (:data:`INDEX_LOOKS` looks, as
    :func:`_write_index`), never an error escaping after the topic files were written."""

    def add(raw: bytes) -> bytes | None:
        data = with_index_lines(raw, lines)
        return data if data is not None and len(data) <= INDEX_CAP else None

    for _ in range(INDEX_LOOKS):
        if not _regular(index):
            return
        try:
            edit_file(index, add, read_cap=INDEX_CAP)
        except (FileKeptChanging, FileTooLarge, NamedElsewhereError, NotRegularFileError):
            return
        except FileNotFoundError:
            continue  # moved or removed since its read: look again
        return
    logger.warning("%s kept moving; the index lines of the files kept are not added", index)


def _nfc_keys(renamed: dict[str, str]) -> dict[str, str]:
    """``renamed`` with its old names in NFC, as :func:`rewrite_links` takes them."""
    return {unicodedata.normalize("NFC", old): new for old, new in renamed.items()}


def _regular(path: Path) -> bool | None:
    """True for a regular file, False for anything else, None when nothing is there."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return None


def _keep_beside(
    scope: Path,
    name: str,
    data: bytes,
    label: str,
    taken: set[str],
    why: str = "changed while it was written",
) -> MergeOutcome:
    """Create ``data`` under a free name for ``name``'s second version (:func:`kept_name`);
    logged with ``why`` it was kept there."""
    new = kept_name(name, label, taken)
    taken.add(new)
    while not create_new_bytes(scope / new, data, sync_parent=False):
        new = kept_name(name, label, taken)  # appeared since the listing
        taken.add(new)
    logger.warning("%s %s; the incoming text is kept as %s", name, why, new)
    return MergeOutcome("kept-both", name, new)


def _write_topic(
    scope: Path,
    name: str,
    before: str | None,
    after: str | None,
    content: Content,
    label: str,
    taken: set[str],
) -> MergeOutcome | None:
    """Bring the topic file ``name`` from blob ``before`` to ``after`` (None: absent) where
    the folder still holds ``before``; what a race kept (see the module), or None."""
    path = scope / name
    if after is None:
        kept = not _delete_if_unchanged(path, before, label, taken)
        return MergeOutcome("kept-edited", name) if kept else None
    data = content(after)
    kind = _regular(path)
    if kind is None:
        if create_new_bytes(path, data, sync_parent=False):
            return None if before is None else MergeOutcome("kept-edited", name)
        kind = _regular(path)
    if not kind or before is None:
        return None if _same(path, after) else _keep_beside(scope, name, data, label, taken)

    def replace(raw: bytes) -> bytes | None:
        """The new text while the file holds what the merge started from, else no change."""
        return data if blob_id(raw) == before else None

    try:
        edit_file(path, replace, read_cap=scope_file_cap(name))
    except (FileKeptChanging, FileTooLarge, NotRegularFileError):
        return _keep_beside(scope, name, data, label, taken)
    except FileNotFoundError:
        pass  # moved or removed since its read: judged below as it is now
    if _regular(path) is None and create_new_bytes(path, data, sync_parent=False):
        return MergeOutcome("kept-edited", name)  # deleted meanwhile: the edit is kept
    return None if _same(path, after) else _keep_beside(scope, name, data, label, taken)


def _same(path: Path, blob: str) -> bool:
    """Whether ``path`` is a regular file holding ``blob`` (never following a symlink)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(scope_file_cap(path.name) + 1)
    finally:
        os.close(fd)
    return blob_id(data) == blob


def _delete_if_unchanged(
    path: Path, expected: str | None, label: str = "edited", taken: set[str] | None = None
) -> bool:
    """Remove ``path`` if it still holds blob ``expected``; True when it is gone. A file edited
    meanwhile is put back (or, when its name was taken again meanwhile, kept beside)."""
    kind = _regular(path)
    if kind is None:
        return True
    if not kind or expected is None:
        return False
    aside = path.with_name(f".{path.name[:80]}.{secrets.token_hex(6)}.deleting")
    try:
        path.rename(aside)
    except FileNotFoundError:
        return True
    if _same(aside, expected):
        aside.unlink()
        return True
    used = taken if taken is not None else {path.name}
    target = path
    while True:
        try:
            os.link(aside, target)
            break
        except FileExistsError:  # a new file took the name meanwhile: keep this one beside
            target = path.with_name(kept_name(path.name, label, used))
            used.add(target.name)
    aside.unlink()
    return False


def _write_index(path: Path, before: str | None, after: str | None, content: Content) -> str | None:
    """Merge the change ``before`` → ``after`` of ``MEMORY.md`` into what it holds now; None
    when written, else why it could not be (:func:`index_unwritable`, or the same found by the
    write itself: it turned into such a file meanwhile): never followed, read or replaced then."""
    base = b"" if before is None else content(before)
    new = b"" if after is None else content(after)
    if after is None and _delete_if_unchanged(path, before):
        return None

    def merge(raw: bytes) -> bytes | None:
        """The change merged as lines into the index as it is now (:func:`merge_lines`)."""
        return merge_lines(base, new, raw)

    for _ in range(INDEX_LOOKS):
        if _regular(path) is None:
            if create_new_bytes(path, new, sync_parent=False):
                return None
            continue  # created meanwhile: merge into it
        unwritable = index_unwritable(path)
        if unwritable is None:
            try:
                edited = edit_file(path, merge, merge=merge_lines, read_cap=INDEX_CAP)
                if edited is None and not _holds_change(path, merge):
                    continue  # gone meanwhile (moved, a link to come): look again
            except FileNotFoundError:
                continue  # moved or removed since its read (a link to come): look again
            except FileTooLarge:  # each grown or swapped since the look
                unwritable = _OVER_CAP
            except NamedElsewhereError:  # never read: its text is another file's
                unwritable = _NAMED_ELSEWHERE
            except NotRegularFileError:
                unwritable = _NOT_REGULAR
            except OSError as error:  # made a symlink since the look: O_NOFOLLOW refuses it
                if error.errno != errno.ELOOP:
                    raise
                unwritable = _NOT_REGULAR
        if unwritable is not None:
            logger.warning("%s: %s; the index change is not written", path, unwritable)
        return unwritable
    raise FileKeptChanging(f"{path.name} kept appearing and disappearing while it was written")


def index_unwritable(path: Path) -> str | None:
    """Why the push writer (:func:`apply_scope`) never rewrites the ``MEMORY.md`` at ``path``,
    as words after "could not be written": ``"it is a symlink there, which is never written
    through"`` (wherever it leads, the scope's own folder too), ``"it is a folder there"``, ``"it
    is a FIFO there"``, ``"it is larger than 16777216 bytes there"`` (:data:`INDEX_CAP`), ``"it
    is a file with other hard links, … there, so it is never read (A-7)"``; None when it may be
    (a regular file of its own within the cap) or nothing is there. The one rule of the sync's
    index writes (R-2, A-6). An ``lstat`` (a listing of the folder for a file of more than one
    name); raises ``OSError`` when the folder cannot be looked at."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return "it is a symlink there, which is never written through"
    if stat.S_ISDIR(info.st_mode):
        return "it is a folder there"
    if stat.S_ISFIFO(info.st_mode):
        return "it is a FIFO there"
    if not stat.S_ISREG(info.st_mode):
        return _NOT_REGULAR
    if info.st_size > INDEX_CAP:
        return _OVER_CAP
    return _NAMED_ELSEWHERE if named_elsewhere(path, info) else None


def _holds_change(path: Path, merge: Callable[[bytes], bytes | None]) -> bool:
    """Whether the index at ``path`` is now a regular file (no link followed) the change
    ``merge`` leaves as it is: an edit that found nothing to do, not a file gone meanwhile,
    before it was opened or after it was read (moved away, a link to come: a delete would
    leave its line where the link leads; review rv-fix69w). Opened without blocking (a FIFO put
    there never hangs the push), read once more, up to
    :data:`INDEX_CAP` bytes; only when :func:`~memory_core.file_edit.edit_file` wrote nothing."""
    try:
        raw = read_regular_file(path, INDEX_CAP, follow_symlinks=False)
    except OSError:  # gone, a link, a folder or FIFO, over the cap, unreadable: look again
        return False
    return merge(raw) in (None, raw)


_NOT_REGULAR = "it is no regular file there (a symlink, a folder or a FIFO)"
_OVER_CAP = f"it is larger than {INDEX_CAP} bytes there"
_NAMED_ELSEWHERE = f"it is {HARD_LINKED} there, so it is never read (A-7)"


def _keep_index_lines(
    scope: Path,
    before: str | None,
    after: str | None,
    content: Content,
    label: str,
    taken: set[str],
    reason: str,
) -> MergeOutcome:
    """The index change ``before`` → ``after`` could not be written (``reason``): the lines it
    adds are kept in a topic file of their own beside it (``MEMORY-<label>.md``; more than one
    topic file holds, T-2, in ``MEMORY-<label>-2.md`` … too, each line once across them, those
    files already hold left out), so the fetch that follows never drops them from the machine
    that wrote them (R-2); said either way, naming every such file."""
    base = set(_LINE_RE.findall(b"" if before is None else content(before)))
    added = [
        line if line.endswith(b"\n") else line + b"\n"
        for line in _LINE_RE.findall(b"" if after is None else content(after))
        if line not in base and line.strip()
    ]
    if not added:
        return MergeOutcome("index-unwritten", layout.INDEX_FILE, reason=reason)
    own = _own_index_files(scope, label)
    held = {line for name in own for line in _lines_of(scope / name)}
    missing = list(dict.fromkeys(line for line in added if line not in held))
    if own and (not missing or _added_to(scope / own[-1], missing)):
        return MergeOutcome(
            "index-unwritten", layout.INDEX_FILE, own[0], reason=reason, also_kept=tuple(own[1:])
        )
    kept = list(own)
    for part in _within_a_topic_file(missing):
        why = f"could not be written ({reason})"
        kept.append(_keep_beside(scope, layout.INDEX_FILE, part, label, taken, why).kept_as or "")
    return MergeOutcome(
        "index-unwritten", layout.INDEX_FILE, kept[0], reason=reason, also_kept=tuple(kept[1:])
    )


def _own_index_files(scope: Path, label: str) -> list[str]:
    """The machine's ``MEMORY-<label>.md``, ``MEMORY-<label>-2.md`` … that are regular files
    in ``scope``, in that order, up to the first name that is none."""
    names: list[str] = []
    while True:
        name = kept_name(layout.INDEX_FILE, label, names)
        if not _regular(scope / name):
            return names
        names.append(name)


def _lines_of(path: Path) -> list[bytes]:
    """The lines of the topic file ``path`` (read within :data:`TOPIC_CAP`); none when it
    cannot be read."""
    try:  # never a symlink followed, never a FIFO swapped in waited on
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return []
    with os.fdopen(fd, "rb") as file:
        try:
            return _LINE_RE.findall(file.read(TOPIC_CAP)) if _regular_fd(fd) else []
        except OSError:
            return []


def _regular_fd(fd: int) -> bool:
    """Whether the open file ``fd`` is a regular file."""
    return stat.S_ISREG(os.fstat(fd).st_mode)


def _within_a_topic_file(lines: list[bytes]) -> list[bytes]:
    """``lines`` (each ending in a newline) joined into as few parts as keep each within
    :data:`TOPIC_CAP`, in order, each line in one part; a line longer than the cap alone is
    cut at it (no topic file could hold it whole)."""
    parts: list[bytes] = []
    part: list[bytes] = []
    size = 0
    for line in lines:
        piece = line if len(line) <= TOPIC_CAP else line[: TOPIC_CAP - 1] + b"\n"
        if part and size + len(piece) > TOPIC_CAP:
            parts.append(b"".join(part))
            part, size = [], 0
        part.append(piece)
        size += len(piece)
    if part:
        parts.append(b"".join(part))
    return parts


def _added_to(path: Path, lines: list[bytes], *, cap: int = TOPIC_CAP) -> bool:
    """Append those of ``lines`` (each ending in a newline) that the regular file ``path`` (the
    machine's own ``MEMORY-<label>.md`` of an earlier change, or the index) lacks; whether it
    now holds them all. False when there is no such file (or it is moved or removed while the
    lines are added: they are in no file), or it would grow over ``cap`` (then
    they go into a new file): a change after change keeps its lines in one file, not one each."""
    if not _regular(path):
        return False
    fits = read = False

    def add(raw: bytes) -> bytes | None:
        """``raw`` with the lines it lacks appended, or no change when it lacks none or they
        would take it over ``cap`` (``fits`` says which)."""
        nonlocal fits, read
        read = True
        held = set(_LINE_RE.findall(raw))
        missing = b"".join(line for line in lines if line not in held)
        joint = b"\n" if raw and not raw.endswith(b"\n") else b""
        fits = len(raw) + len(joint) + len(missing) <= cap
        return raw + joint + missing if missing and fits else None

    try:
        edit_file(path, add, read_cap=cap)
    except (FileKeptChanging, FileTooLarge, NamedElsewhereError, NotRegularFileError):
        return False
    except FileNotFoundError:  # moved or removed since its read: the lines are in no file
        return False
    return read and fits  # never read: removed since the look, the lines are in no file
