"""Deleting a topic file and pruning its index lines (A-6), without losing anyone's line (Q-2a).

The caller holds the scope's cross-process lock (``index.<agent>.<key>``), so two service
processes never prune one index at the same time. An agent writing ``MEMORY.md`` with its own
file tools takes no lock, so the rewrite goes through :func:`memory_core.file_edit.edit_file`:
the pruning is a pure edit of the index's bytes, and a write that lands between our read and our
replacement (an append, a rewrite in place or by rename, a late write through a descriptor
opened before) is detected and the pruning re-applied to the new content; an index that will not
settle is a :class:`Conflict` (409). What that does and does not cover is in
``docs/architecture.md`` ("Editing files others write").

A delete is all or nothing (A-6): the file goes only once its index lines are gone. The index
is pruned in whatever form the service reads it (T-2, :func:`memory_core.decoding.decode_exact`):
UTF-8 with or without a BOM, UTF-16 or UTF-32 with its BOM, Windows-1252 or Latin-1, line ends
LF, CRLF or a lone CR, with or without a final one — and written back in that same form, every
byte but the removed lines' unchanged (the permission bits too). Where that cannot be done the
delete is refused and nothing changes, the file and its line stay, and the detail says why:

- 409 (:class:`~memory_api.errors.Conflict`): the index kept changing through every attempt,
  or was moved, removed or swapped for a symlink between the delete's look at it and its edit
  (``mv MEMORY.md INDEX.txt; ln -s INDEX.txt MEMORY.md``: a file missing or a link where the
  look saw the index is never taken for "no index", which would delete the file while the
  moved index still lists it; "try again", and the retry prunes it where it now is); it is
  larger than :data:`PRUNE_READ_CAP`; its bytes cannot be given back exactly (UTF-16 with
  an odd byte or a lone surrogate, UTF-32 with a cut code unit or a value no character has,
  which readers show with replacement characters);
- 503 (:class:`~memory_api.errors.Unavailable`): the operating system refused to read or
  replace it (no permission, a symlink loop, a read-only or full disk, an I/O error).

An index symlinked to a regular file of the scope's own folder (or a sub-folder of it) is pruned
through the link (the link stays, the file it names is rewritten). One that is there but is no
regular file inside the root (a symlink out of it, a folder, a FIFO, a file hard-linked outside
its folder) is no index to the service (nothing of it is injected or linted), and it is never
read, written or followed out of the root (A-7); whether a line of it links the file cannot be
known, so the delete is refused too (409: all or nothing), and the detail says what it is and
how to fix it. One symlinked to another scope's file (its ``MEMORY.md`` or any file of its
folder) is refused the same way: pruning it would change that scope outside its lock and its
history (Q-4, V-1). :func:`_index_to_prune` is the one rule saying which index a delete may
rewrite; a machine's push that deletes a file has its writer's stricter one, no symlink at all
(:func:`memory_core.scope_write.index_unwritable`, R-1).

Blocking: run in a worker thread.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePath
from typing import NamedTuple

from memory_core import layout
from memory_core.atomic import fsync_directory
from memory_core.decoding import decode_exact, exact_codec, name_spellings, shown_lines
from memory_core.errors import FileKeptChanging, NotRegularFileError
from memory_core.file_edit import Edited, FileTooLarge, edit_file
from memory_core.hard_links import HARD_LINKED, NamedElsewhereError
from memory_core.index import entry_linked_files, prune_index
from memory_core.line_merge import merge_lines
from memory_core.scope_files import INDEX_CAP

from memory_api.errors import Conflict, NotFound, Unavailable, write_fix
from memory_api.store.containment import FolderSwapped, held_folder, is_within, real_path
from memory_api.store.scopes import (
    index_refusal,
    moved_scope,
    no_topic_file,
    topic_entry,
    walk_sub_folders,
)
from memory_api.store.wiki_notes import index_notes

__all__ = [
    "PRUNE_READ_CAP",
    "Pruned",
    "delete_topic",
    "held_index",
    "prune_index_file",
    "twin_names",
]

logger = logging.getLogger(__name__)

PRUNE_READ_CAP = INDEX_CAP
"""An index longer than this (bytes) is never rewritten from a partial read: the delete is
refused instead (409)."""


_ACCESS = "read and write access to it and its folder"
"""What the service's account needs of an index it prunes (:func:`write_fix`)."""


_REMOVE_ACCESS = (
    "write access to its folder, and a file it may remove (no immutable or append-only flag, "
    "not another account's in a sticky folder)"
)
"""What the service's account needs of a topic file it deletes (:func:`write_fix`)."""


class _NotRewritable(Exception):
    """The index's bytes cannot be given back exactly after the pruning (see :func:`_pruned`)."""


class Pruned(NamedTuple):
    """What a delete did to the scope's index: the ``removed`` lines (as
    :func:`prune_index_file` shows them)."""

    removed: list[str]
    edited: Edited | None = None
    """The index's bytes before and after the pruning (None when it was not rewritten)."""
    index_file: PurePath | None = None
    """The index file rewritten, below the scope's folder (``MEMORY.md``, or the file its link
    names: ``INDEX.txt``, ``sub/MEMORY.md``), for :func:`_put_back`."""
    unindexed: tuple[str, ...] = ()
    """The other files of the scope whose only index entry was a removed line (A-6: said)."""


def delete_topic(root: Path, scope: Path, file_name: str) -> Pruned:
    """Delete topic file ``file_name`` (K-7-checked) from the real ``scope``; prune its lines.

    Only a file that lists can be deleted (:func:`~memory_api.store.scopes.topic_entry`): a
    symlinked topic file is removed as a link (its target stays) and only when the target is a
    regular file inside the memory ``root``; one leading outside is reported as absent (A-7).
    Returns the removed index lines (:class:`Pruned`). Raises :class:`NotFound` when there is
    no such topic file, :class:`Conflict` (409) or :class:`~memory_api.errors.Unavailable` (503)
    when its index lines cannot be pruned, or ``MEMORY.md`` is no index the service rewrites
    (see the module docstring): nothing is deleted then.

    The index lines go first, the file second: a process killed between the two (a replica
    of a shared data dir, Q-4) leaves the file listed without its lines, and the client's retry
    finishes the delete. The other order would leave a dangling line that no retry removes,
    since the retry finds no file and answers 404.
    """
    missing = NotFound(f"no topic file {file_name!r} in this scope")
    try:
        with held_folder(root, scope) as held:
            return _delete_in(root, scope, held, file_name, missing)
    except FolderSwapped:
        raise NotFound(
            f"no topic file {file_name!r} in this scope: the scope's folder was replaced while "
            "it was deleted (by a symlink or a file); nothing was deleted"
        ) from None
    except FileNotFoundError:  # the scope's folder moved meanwhile: said, never "no file"
        raise moved_scope(scope, "this scope") or missing from None


def _delete_in(root: Path, scope: Path, held: Path, file_name: str, missing: NotFound) -> Pruned:
    """:func:`delete_topic` in the real ``scope``, held open as ``held``
    (:func:`~memory_api.store.containment.held_folder`): every name is judged, pruned and
    removed through the descriptor, so a scope folder swapped for a symlink to another agent's
    meanwhile is never where a file is removed or an index pruned (A-7)."""
    # What deletes is exactly what lists: the same judgement, links out included.
    if topic_entry(root, held, file_name) is None:
        raise no_topic_file(root, held, file_name, "this scope")
    pruned = prune_index_file(root, held, file_name, shown=scope)
    here = str(scope)
    try:
        (held / file_name).unlink()
    except FileNotFoundError:
        # Removed by the agent meanwhile: its lines were still rightly pruned.
        if not pruned.removed:
            raise missing from None
    except OSError as error:  # an immutable file, a sticky folder: the file stays, so its lines
        raise Unavailable(_put_back(pruned, file_name, (held, scope / file_name), error)) from None
    fsync_directory(held)
    return pruned._replace(unindexed=_left_unindexed(pruned.edited, held, file_name, here))


def _left_unindexed(
    edited: Edited | None, scope: Path, file_name: str, here: str | None = None
) -> tuple[str, ...]:
    """The files in ``scope`` other than ``file_name`` that an entry of the index linked before
    the pruning ``edited`` and none links after it (``- [A](a.md), see [B](b.md)``: ``b.md``
    when no other line lists it), by name: a delete says them, never silently (A-6)."""
    if edited is None:
        return ()
    before, after = decode_exact(edited.before), decode_exact(edited.after)
    if before is None or after is None:
        return ()
    gone = entry_linked_files(before.text, here) - entry_linked_files(after.text, here)
    gone.discard(unicodedata.normalize("NFC", file_name))
    return tuple(sorted(name for name in gone if os.path.lexists(scope / name)))


def _put_back(pruned: Pruned, file_name: str, where: tuple[Path, Path], error: OSError) -> str:
    """After the file's removal was refused (``error``), give its index the pruned lines back
    (A-6: all or nothing; ``where``: the scope's folder held open, the file's path to show),
    through the held folder as the pruning went (:func:`held_index`): the bytes before the
    pruning, with whatever another writer (the agent) wrote since merged in
    (:func:`~memory_core.line_merge.merge_lines`). Returns the
    ``detail`` saying why nothing was deleted, and when the lines could not be put back (the
    index kept changing, can no longer be written, or was moved or removed since the pruning:
    never said put back), that they are gone (logged too)."""
    held, shown = where
    logger.error("topic file %s cannot be removed: %s", shown, error)
    reason = error.strerror or type(error).__name__
    detail = (
        f"{file_name!r} was not deleted: the file could not be removed ({reason}): "
        f"{write_fix(error, _REMOVE_ACCESS)}"
    )
    edited, index = pruned.edited, pruned.index_file
    if edited is None or index is None:
        return detail + "; nothing changed (a delete is all or nothing)"

    def restore(raw: bytes) -> bytes | None:
        return None if raw == edited.before else merge_lines(edited.after, edited.before, raw)

    try:
        with held_index(held, index) as path:
            edit_file(path, restore, merge=merge_lines, read_cap=PRUNE_READ_CAP, must_exist=True)
    except (OSError, FileKeptChanging) as undo:
        logger.error(
            "index %s: the pruned lines of %s could not be put back: %s", index, shown, undo
        )
        return detail + (
            f"; its index line was removed and could not be put back ({_plainly(undo)}): add "
            "it to MEMORY.md again"
        )
    return detail + "; its index line was put back, nothing changed (a delete is all or nothing)"


def _plainly(error: OSError | FileKeptChanging) -> str:
    """Why an index could not be put back, as a sentence for a ``detail``: never the raw
    exception, whose path may be the held folder's ``/proc/self/fd/<n>``."""
    if isinstance(error, FileKeptChanging):  # its words name files by their names alone
        return str(error)
    if isinstance(error, (FileNotFoundError, FolderSwapped)):
        return "the index was moved or removed since the pruning"
    return error.strerror or type(error).__name__


def _pruned(
    raw: bytes,
    file_name: str,
    *,
    exact: bool,
    files: Callable[[str], list[str] | None],
    here: str | None = None,
) -> tuple[bytes, list[str]] | None:
    """The index ``raw`` without its lines linking ``file_name`` (spelled as it is, with
    ``exact``: :func:`_has_twin`; a wiki link naming it among the scope's files as the lint
    resolves it, :func:`~memory_core.index.prune_index`: ``files`` gives them for the index's
    text, :func:`_scope_files`), and those lines; None when no line links it. Raises
    :class:`_NotRewritable` for bytes that re-encoding would not give back (see
    :func:`~memory_core.decoding.decode_exact`).

    A pure function of the bytes (it may be applied several times, to newer contents).
    """
    decoded = decode_exact(raw)
    if decoded is None:
        # Only UTF-16 and UTF-32 can fail: any other bytes read as UTF-8 or cp1252, every byte.
        if exact_codec(raw).startswith("utf-32"):  # by its mark, or its NULs without one
            raise _NotRewritable("it is UTF-32 text with a cut code unit or no character's value")
        raise _NotRewritable("it is UTF-16 text with an odd byte or a lone surrogate")
    new_text, removed = decoded.text, []
    known = files(decoded.text)
    for spelling in name_spellings(raw, file_name):  # a Shift-JIS index: the name's SJIS bytes
        new_text, gone = prune_index(
            new_text,
            spelling,
            exact=exact,
            files=None if known is None else [*known, spelling],
            here=here,
        )
        removed.extend(gone)
    if not removed:
        return None
    return decoded.encode(new_text), removed


def _refusal(file_name: str, why: str) -> str:
    return (
        f"{file_name!r} was not deleted: its index line could not be removed because the "
        f"scope's MEMORY.md {why}; nothing changed (a delete is all or nothing)"
    )


def prune_index_file(
    root: Path, scope: Path, file_name: str, *, shown: Path | None = None
) -> Pruned:
    """Remove the lines of the scope's ``MEMORY.md`` that link to ``file_name`` (T-4, A-6).

    Returns the removed lines (without line ends; those of an index in a legacy CJK encoding as
    :func:`~memory_core.decoding.shown_lines` shows them, never as mojibake); none when there
    is no index or no such line. An index symlinked inside the root is pruned in the file the
    link names. Raises :class:`Conflict` (409) or :class:`~memory_api.errors.Unavailable` (503)
    when the lines are there, or may be, and cannot be removed (the index then unchanged): an
    index no regular file, hard-linked outside its folder or leading out of the root is never
    read or followed (A-7), so it may hold one: 409 (:func:`_left_as_it_is`). An index the
    look saw that the edit finds gone or a symlink (moved away, a link to it put back) is
    changed meanwhile: 409, "try again" (:func:`_changed_meanwhile`), never "no index".

    ``scope`` may be a folder held open (:func:`~memory_api.store.containment.held_folder`):
    the index is then read and replaced in that very folder (A-7), and the logs name it as
    ``shown`` (the scope's own path) instead of ``/proc/self/fd/<n>``.
    """
    lexical = (shown or scope) / layout.INDEX_FILE  # what the logs name
    refused, below = _index_to_prune(root, scope)
    if refused is not None:
        logger.warning("index %s is %s; not pruned", lexical, refused.partition(", which")[0])
        raise _left_as_it_is(file_name, refused)
    if below is None:
        return Pruned([])

    resolved = _resolves(scope / layout.INDEX_FILE)  # the look reached a file: no loop
    last: list[tuple[bytes, list[str]]] = []  # the latest input and its removed lines
    exact = _has_twin(scope, file_name)
    files = _scope_files(scope)
    here = str(shown or scope)  # the scope's own path: ``../user/x.md`` resolves against it

    def edit(raw: bytes) -> bytes | None:
        pruned = _pruned(raw, file_name, exact=exact, files=files, here=here)
        last[:] = [(raw, [] if pruned is None else pruned[1])]
        return None if pruned is None else pruned[0]

    reached = False  # the index file's folder held: a file missing now is the index itself
    try:
        with held_index(scope, below) as index:
            reached = True
            edited = edit_file(
                index, edit, merge=merge_lines, read_cap=PRUNE_READ_CAP, must_exist=True
            )
    except FileKeptChanging as error:
        raise _changed_meanwhile(file_name, str(error)) from None
    except (FolderSwapped, FileNotFoundError):
        why = f"{_named(below)} was moved or removed while the delete pruned it"
        why = why if reached else "its index link's folder changed"
        raise _changed_meanwhile(file_name, why) from None
    except _NotRewritable as error:
        logger.warning("index %s not pruned: %s", lexical, error)
        raise Conflict(
            _refusal(file_name, f"cannot be rewritten keeping its other bytes ({error})")
        ) from None
    except NamedElsewhereError:  # never read: to the service there is no index here
        logger.warning("index %s is %s; not pruned", lexical, HARD_LINKED)
        raise _left_as_it_is(file_name, _never_read(root, scope)) from None
    except NotRegularFileError:
        logger.warning("index %s is not a regular file; not pruned", lexical)
        raise _left_as_it_is(file_name, _never_read(root, scope)) from None
    except FileTooLarge:
        logger.warning("index %s is larger than %d bytes; not pruned", lexical, PRUNE_READ_CAP)
        raise _too_large(file_name) from None
    except OSError as error:
        if error.errno == errno.ELOOP and (resolved or _looks_otherwise(root, scope, below)):
            # a symlink where the look saw a file (MEMORY.md moved, a link to it put back)
            logger.warning("index %s changed while it was pruned: %s", lexical, error)
            why = f"{_named(below)} was replaced (by a symlink) while the delete pruned it"
            raise _changed_meanwhile(file_name, why) from None
        logger.error("index %s cannot be pruned: %s", lexical, error)
        raise _not_replaced(file_name, error) from None
    if edited is None:
        return Pruned([])
    if last and last[0][0] == edited.before:
        return Pruned(shown_lines(edited.before, last[0][1]), edited, below)
    pruned = _pruned(edited.before, file_name, exact=exact, files=files, here=here)
    removed = [] if pruned is None else shown_lines(edited.before, pruned[1])
    return Pruned(removed, edited, below)


def _too_large(file_name: str) -> Conflict:
    """The refusal (409) of a delete whose index is over :data:`PRUNE_READ_CAP`."""
    return Conflict(
        _refusal(
            file_name,
            f"is larger than {PRUNE_READ_CAP // (1024 * 1024)} MiB, which the service "
            "never rewrites from a partial read; shorten it and try again",
        )
    )


def _not_replaced(file_name: str, error: OSError) -> Unavailable:
    """The refusal (503) of a delete whose index the operating system would not let the
    service read or replace (``error``): what an operator must change, then try again."""
    reason = error.strerror or type(error).__name__
    return Unavailable(
        _refusal(
            file_name,
            f"could not be read or replaced ({reason}): {write_fix(error, _ACCESS)}, "
            "then try again",
        )
    )


def _changed_meanwhile(file_name: str, why: str) -> Conflict:
    """The refusal (409) of a delete whose index changed between its look and its edit
    (``why``): moved, removed, swapped for a symlink, or written through every attempt. Nothing
    was deleted and the lines stay wherever the index now is; a retry looks again (A-6)."""
    return Conflict(f"{file_name!r} was not deleted: {why}; nothing changed, try again")


def _resolves(path: Path) -> bool:
    """Whether ``path`` leads to something (``stat`` followed): a symlink the edit meets there
    afterwards (``ELOOP``: it never follows one) is then one swapped in since, not a loop."""
    try:
        path.stat()
    except OSError:
        return False
    return True


def _looks_otherwise(root: Path, scope: Path, below: PurePath) -> bool:
    """Whether a second look at the scope's ``MEMORY.md`` (:func:`_index_to_prune`) finds
    another index than the first one's, which found ``below`` and no refusal: a symlink met by
    the edit where that look saw a file (changed meanwhile, 409) rather than a link that loops
    (the kernel's refusal, 503). False when the operating system refuses the second look."""
    try:
        return _index_to_prune(root, scope) != (None, below)
    except OSError:
        return False


def _named(below: PurePath) -> str:
    """The index a delete edits, for a ``detail``: ``the scope's MEMORY.md``, or for one
    symlinked to a file of the scope's folder (:func:`_index_to_prune`) ``INDEX.txt, the file
    the scope's MEMORY.md links,`` (a clause, before "was moved…")."""
    if below == PurePath(layout.INDEX_FILE):
        return f"the scope's {layout.INDEX_FILE}"
    return f"{below.as_posix()}, the file the scope's {layout.INDEX_FILE} links,"


def _index_to_prune(root: Path, scope: Path) -> tuple[str | None, PurePath | None]:
    """What the real ``scope``'s ``MEMORY.md`` is when a delete in the scope may not rewrite it
    (A-6, A-7, Q-4), as the words after "the scope's MEMORY.md is" and why: ``"a FIFO (named
    pipe), not a regular file, which the service never reads, rewrites or follows"``, ``"a
    symlink to ab12/MEMORY.md, the index of another scope (ab12), which only that scope's own
    changes rewrite, under its lock and in its history"``; None when it may: it is not there,
    is a regular file of its own, or a symlink to a regular file in the scope's own folder or a
    sub-folder of it (pruned through the link); None too when the operating system refuses to
    look (a symlink loop, no permission: the edit itself then fails, 503). With it, the file a
    delete's edit goes to, below the scope's folder (None: no index there, or a link to
    nothing, nothing to prune): ``MEMORY.md``, or, for a symlink, the file
    it resolved to when checked (``INDEX.txt``, ``sub/MEMORY.md``), reached by
    :func:`held_index`. A link is resolved once: one swapped meanwhile for a link out of the
    root (or to another scope) never has the edit go where it now points (A-7; review rv-sync69
    found the edit resolving it again). A few ``lstat``/``stat`` calls; nothing is read."""
    lexical = scope / layout.INDEX_FILE
    below = PurePath(layout.INDEX_FILE)
    if os.path.islink(lexical):  # noqa: PTH114 - one lstat, no raise
        target, folder = real_path(lexical), real_path(scope)
        if not is_within(root, target):
            return _never_read(root, scope), below
        if not is_within(folder, target):
            return _another_scope(real_path(root), target), below
        below = PurePath(os.path.relpath(target, folder))
    try:
        os.stat(lexical)  # noqa: PTH116 - one stat, followed as the edit will
    except FileNotFoundError:  # none, or a link to nothing (into a folder that is not there)
        return None, None
    except OSError:  # the edit says why (503)
        return None, below
    return (None if index_refusal(root, scope) is None else _never_read(root, scope)), below


@contextmanager
def held_index(scope: Path, below: PurePath) -> Iterator[Path]:
    """The path a delete's (or a restore's) edit of the index file ``below`` the held ``scope``
    folder (:func:`_index_to_prune`) goes through: in the scope's folder itself, ``scope / below``;
    in a sub-folder, that file in its folder held open from ``scope`` one name at a time, no
    symlink followed (:func:`~memory_api.store.containment.held_folder`): a folder on the way
    renamed and replaced by a link out of the root meanwhile is never where the edit lands
    (A-7; review rv-fix69s: the edit looked the checked real path up again by its names).
    Raises :class:`~memory_api.store.containment.FolderSwapped` when one is no folder now."""
    if len(below.parts) == 1:
        yield scope / below
        return
    with held_folder(scope, scope.joinpath(*below.parent.parts)) as folder:
        yield folder / below.name


def _never_read(root: Path, scope: Path) -> str:
    """:func:`_index_to_prune`'s words for an index that is no regular file inside the root
    (:func:`~memory_api.store.scopes.index_refusal` says what it is). Nothing of it is read or
    shown (A-7)."""
    what = index_refusal(root, scope) or "not a regular file"
    return f"{what}, which the service never reads, rewrites or follows"


def _another_scope(root: Path, target: Path) -> str:
    """:func:`_index_to_prune`'s words for an index symlinked to ``target``, a real path in
    the memory ``root`` outside the scope's folder: another scope's index or file, which only
    that scope's own changes rewrite (under its lock, recorded in its history)."""
    named = target.relative_to(root)
    if len(named.parts) == 1:
        return (
            f"a symlink to {named.as_posix()}, a file of the memory root outside the scope's "
            "folder, which a change of this scope never rewrites"
        )
    key = named.parts[0]
    whose = "the index" if named.parts[1:] == (layout.INDEX_FILE,) else "a file"
    return (
        f"a symlink to {named.as_posix()}, {whose} of another scope ({key}), which only that "
        "scope's own changes rewrite, under its lock and in its history"
    )


def _left_as_it_is(file_name: str, refused: str) -> Conflict:
    """The refusal (409) of a delete beside a ``MEMORY.md`` a delete may not rewrite
    (``refused``: what it is and why, :func:`_index_to_prune`): that a line linking
    ``file_name`` there cannot be removed, so nothing was (A-6: all or nothing), and the fix."""
    return Conflict(
        f"{file_name!r} was not deleted: the scope's {layout.INDEX_FILE} is {refused}, so an "
        f"index line linking {file_name!r} there could not be removed; nothing changed (a "
        f"delete is all or nothing): make {layout.INDEX_FILE} a regular file in the scope's "
        "folder (or remove it), then try again"
    )


def _scope_files(scope: Path) -> Callable[[str], list[str] | None]:
    """For an index's text, the files of the real ``scope`` a wiki link of it may name
    instead of the one deleted, as the lint knows them: its Markdown files
    (:func:`_markdown_files`) and those of its sub-folders the text's wiki links name
    (:func:`~memory_api.store.wiki_notes.index_notes`: ``[[Deploy Freeze]]`` is
    ``notes/Deploy Freeze.md``, not ``deploy-freeze.md``, when that note is there, T-5b).
    None when the folder cannot be listed (see :func:`_markdown_files`). The sub-folders are
    walked once, whichever text asks."""
    names = _markdown_files(scope)
    walk = functools.cache(functools.partial(walk_sub_folders, scope))

    def files(text: str) -> list[str] | None:
        return None if names is None else [*names, *index_notes(scope, text, names, walk)]

    return files


def _markdown_files(scope: Path) -> list[str] | None:
    """The names of the Markdown files in ``scope`` (``*.md`` in any case, the index left
    out): those a wiki link of the index may name instead of the one deleted
    (``[[deploy]]`` names ``deploy.md``, not ``deploy-freeze.md``). None read; None for a
    folder that cannot be listed: then only the links writing the file's own name are pruned,
    never a line that may name another file."""
    try:
        with os.scandir(scope) as entries:
            return [
                entry.name
                for entry in entries
                if entry.name.lower().endswith(".md") and entry.name != layout.INDEX_FILE
            ]
    except OSError:
        return None


def _has_twin(scope: Path, file_name: str) -> bool:
    """Whether ``scope`` holds another entry whose name is ``file_name`` in another Unicode
    normalization (``café.md`` composed and decomposed, two files to the kernel): then only the
    lines that spell the deleted one's name are its lines. An ASCII name has no twin."""
    if file_name.isascii():
        return False
    wanted = unicodedata.normalize("NFC", file_name)
    try:
        with os.scandir(scope) as entries:
            names = [entry.name for entry in entries]
    except OSError:
        return False
    return any(name != file_name and unicodedata.normalize("NFC", name) == wanted for name in names)


def twin_names(scope: Path) -> frozenset[str]:
    """The names (NFC) that ``scope`` holds entries of in more than one Unicode normalization
    (``café.md`` composed and decomposed: two files to the kernel, each linked in its own
    spelling, V-2, A-6); empty when the folder cannot be listed. One ``scandir``."""
    try:
        with os.scandir(scope) as entries:
            names = [entry.name for entry in entries if not entry.name.isascii()]
    except OSError:
        return frozenset()
    spellings: dict[str, set[str]] = {}
    for name in names:
        spellings.setdefault(unicodedata.normalize("NFC", name), set()).add(name)
    return frozenset(name for name, spelt in spellings.items() if len(spelt) > 1)
