"""Deleting a topic file and pruning its index lines (A-6), without losing anyone's line (Q-2a).

The caller holds the scope's cross-process lock (``index.<agent>.<key>``), so two service
processes never prune one index at the same time. An agent writing ``MEMORY.md`` with its own
file tools takes no lock, so the rewrite goes through :func:`memory_core.file_edit.edit_file`:
the pruning is a pure edit of the index's bytes, and a write that lands between our read and our
replacement (an append, a rewrite in place or by rename, a late write through a descriptor
opened before) is detected and the pruning re-applied to the new content; an index that will not
settle is a :class:`Conflict` (409). What that does and does not cover is in
``docs/architecture.md`` ("Editing files others write").

The index is rewritten only when its bytes are UTF-8 (a BOM is kept), its lines end in LF or
CRLF (a lone CR, which readers take for a line end, would make the pruner see one line), and it
is at most :data:`PRUNE_READ_CAP` long: a file the service could not parse is never rewritten
(T-2); its dangling link is then reported by lint instead. The same holds for an index the
operating system will not let the service read or replace (a symlink loop, no permission, a
read-only or full disk): the delete still succeeds, its lines stay and are reported as dangling,
and the reason is logged — a delete never answers 500 halfway. Everything but the removed lines
is kept byte for byte (CRLF, the final line end, the file's permission bits).

Blocking: run in a worker thread.
"""

from __future__ import annotations

import codecs
import logging
import re
from pathlib import Path

from memory_core import layout
from memory_core.atomic import fsync_directory
from memory_core.errors import FileKeptChanging, NotRegularFileError
from memory_core.file_edit import FileTooLarge, edit_file
from memory_core.index import prune_index
from memory_core.line_merge import merge_lines
from memory_core.scope_files import INDEX_CAP

from memory_api.errors import Conflict, NotFound
from memory_api.store.containment import is_within, real_path
from memory_api.store.scopes import topic_entry

__all__ = ["PRUNE_READ_CAP", "delete_topic", "prune_index_file"]

logger = logging.getLogger(__name__)

PRUNE_READ_CAP = INDEX_CAP
"""An index longer than this (bytes) is left alone rather than rewritten from a partial read."""
_LONE_CR = re.compile(r"\r(?!\n)")


def delete_topic(root: Path, scope: Path, file_name: str) -> list[str]:
    """Delete topic file ``file_name`` (K-7-checked) from the real ``scope``; prune its lines.

    Only a file that lists can be deleted (:func:`~memory_api.store.scopes.topic_entry`): a
    symlinked topic file is removed as a link (its target stays) and only when the target is a
    regular file inside the memory ``root``; one leading outside is reported as absent (A-7).
    Returns the removed index lines. Raises :class:`NotFound` when there is no such topic file
    and :class:`Conflict` when the index kept changing through every attempt (nothing is
    deleted then).

    The index lines go first, the file second: a process killed between the two (a replica
    of a shared data dir, Q-4) leaves the file listed without its lines, and the client's retry
    finishes the delete. The other order would leave a dangling line that no retry removes,
    since the retry finds no file and answers 404.
    """
    missing = NotFound(f"no topic file {file_name!r} in this scope")
    # What deletes is exactly what lists: the same judgement, links out included.
    if topic_entry(root, scope, file_name) is None:
        raise missing
    removed = prune_index_file(root, scope, file_name)
    try:
        (scope / file_name).unlink()
    except FileNotFoundError:
        # Removed by the agent meanwhile: its lines were still rightly pruned.
        if not removed:
            raise missing from None
    fsync_directory(scope)
    return removed


def _utf8_text(raw: bytes) -> tuple[bytes, str] | None:
    """Split ``raw`` into (BOM, text) when it is UTF-8, else None."""
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    try:
        return bom, raw[len(bom) :].decode("utf-8")
    except UnicodeDecodeError:
        return None


def _pruned(raw: bytes, file_name: str, where: Path) -> tuple[bytes, list[str]] | None:
    """The index ``raw`` without its lines linking ``file_name``, and those lines; None: leave it.

    A pure function of the bytes (it may be applied several times, to newer contents): nothing
    to remove, or an index the service could not parse (T-2), gives None.
    """
    decoded = _utf8_text(raw)
    if decoded is None:
        logger.warning("index %s is not UTF-8; not rewritten (T-2)", where)
        return None
    bom, text = decoded
    if _LONE_CR.search(text):
        # Read as LF elsewhere (T-2), but prune_index splits on LF only: the whole file would
        # be one line and every link in it would go with the deleted file's.
        logger.warning("index %s ends lines with a lone CR; not rewritten (T-2)", where)
        return None
    new_text, removed = prune_index(text, file_name)
    if not removed:
        return None
    return bom + new_text.encode("utf-8"), removed


def prune_index_file(root: Path, scope: Path, file_name: str) -> list[str]:
    """Remove the lines of the scope's ``MEMORY.md`` that link to ``file_name`` (T-4).

    Returns the removed lines (without line ends); an empty list when there is no index, no
    such line, or the index cannot be rewritten safely (see the module docstring). Raises
    :class:`Conflict` when the index would not settle (:class:`FileKeptChanging`).
    """
    lexical = scope / layout.INDEX_FILE
    target = real_path(lexical)
    if not is_within(root, target):
        logger.warning("index %s links outside the memory root; not pruned", lexical)
        return []

    last: list[tuple[bytes, list[str]]] = []  # the latest input and its removed lines

    def edit(raw: bytes) -> bytes | None:
        pruned = _pruned(raw, file_name, lexical)
        last[:] = [(raw, [] if pruned is None else pruned[1])]
        return None if pruned is None else pruned[0]

    try:
        edited = edit_file(target, edit, merge=merge_lines, read_cap=PRUNE_READ_CAP)
    except FileKeptChanging as error:
        raise Conflict(
            f"{file_name!r} was not deleted: {error}; nothing changed, try again"
        ) from None
    except NotRegularFileError:
        return []
    except FileTooLarge:
        logger.warning("index %s is larger than %d bytes; not pruned", lexical, PRUNE_READ_CAP)
        return []
    except OSError as error:
        logger.warning("index %s cannot be pruned (%s); left as it is", lexical, error)
        return []
    if edited is None:
        return []
    if last and last[0][0] == edited.before:
        return last[0][1]
    pruned = _pruned(edited.before, file_name, lexical)
    return [] if pruned is None else pruned[1]
