"""Deleting a topic file and pruning its index lines (A-6), without losing anyone's line (Q-2a).

The caller holds the scope's cross-process lock (``index.<agent>.<key>``), so two service
processes never prune one index at the same time. An agent writing ``MEMORY.md`` with its own
file tools takes no lock, so the rewrite is also optimistic: read the index, prune it, read it
again, and only when nothing changed in between replace it atomically (temp file, fsync,
``os.replace``, :mod:`memory_core.atomic`); otherwise start over with the new text. The
window left is the few microseconds between the second read and the rename.

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
import stat
from pathlib import Path

from memory_core import layout
from memory_core.atomic import atomic_write_bytes, fsync_directory
from memory_core.index import prune_index

from memory_api.errors import Conflict, NotFound
from memory_api.store.containment import NotRegularFileError, is_within, read_regular, real_path
from memory_api.store.scopes import topic_entry

__all__ = ["PRUNE_ATTEMPTS", "PRUNE_READ_CAP", "delete_topic", "prune_index_file"]

logger = logging.getLogger(__name__)

PRUNE_READ_CAP = 16 * 1024 * 1024
"""An index longer than this (bytes) is left alone rather than rewritten from a partial read."""
_LONE_CR = re.compile(r"\r(?!\n)")
PRUNE_ATTEMPTS = 20
"""How often the read-prune-compare cycle is retried while someone keeps changing the index."""


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


def prune_index_file(root: Path, scope: Path, file_name: str) -> list[str]:
    """Remove the lines of the scope's ``MEMORY.md`` that link to ``file_name`` (T-4).

    Returns the removed lines (without line ends); an empty list when there is no index, no
    such line, or the index cannot be rewritten safely (see the module docstring). Raises
    :class:`Conflict` after :data:`PRUNE_ATTEMPTS` rounds of concurrent change.
    """
    lexical = scope / layout.INDEX_FILE
    target = real_path(lexical)
    if not is_within(root, target):
        logger.warning("index %s links outside the memory root; not pruned", lexical)
        return []
    for _ in range(PRUNE_ATTEMPTS):
        try:
            raw, info = read_regular(target, PRUNE_READ_CAP + 1)
        except (FileNotFoundError, NotRegularFileError):
            return []
        except OSError as error:
            logger.warning("index %s cannot be read (%s); not pruned", lexical, error)
            return []
        if len(raw) > PRUNE_READ_CAP:
            logger.warning("index %s is larger than %d bytes; not pruned", lexical, PRUNE_READ_CAP)
            return []
        decoded = _utf8_text(raw)
        if decoded is None:
            logger.warning("index %s is not UTF-8; not rewritten (T-2)", lexical)
            return []
        bom, text = decoded
        if _LONE_CR.search(text):
            # Read as LF elsewhere (T-2), but prune_index splits on LF only: the whole file would
            # be one line and every link in it would go with the deleted file's.
            logger.warning("index %s ends lines with a lone CR; not rewritten (T-2)", lexical)
            return []
        new_text, removed = prune_index(text, file_name)
        if not removed:
            return []
        try:
            again, _ = read_regular(target, PRUNE_READ_CAP + 1)
        except OSError:
            continue  # replaced or removed meanwhile: judge the new state
        if again != raw:
            continue
        try:
            atomic_write_bytes(
                target, bom + new_text.encode("utf-8"), mode=stat.S_IMODE(info.st_mode)
            )
        except OSError as error:
            logger.warning("index %s cannot be rewritten (%s); not pruned", lexical, error)
            return []
        return removed
    raise Conflict(
        f"{file_name!r} was deleted, but {layout.INDEX_FILE} kept changing while its lines were "
        "being removed; they are still there (reported as dangling links)"
    )
