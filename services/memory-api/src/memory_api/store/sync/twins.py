"""Keeping twins a scope already holds apart before a machine fetches it (R-1, R-2).

A merge never leaves a scope holding two names a case-insensitive or normalising file system
(macOS, Windows) folds into one (:func:`memory_core.scope_merge.merge_scopes`), but an agent on
the service's machine writes the folder directly and may write ``ok.md`` beside ``OK.md``. A
machine that fetched both could keep only one, and its next push would send that text back as
an edit of the other: a lost note. So before a fetch, once the scope is recorded as found, each
such twin but the first (by name) is kept under a new name, ``<stem>-twin.md``
(:func:`memory_core.scope_merge.part_twins`: its index lines follow it), written with
:func:`memory_core.scope_write.apply_scope` (a write made meanwhile is kept) and recorded as a
version whose ``Merged:`` lines say so.

Blocking: run it in a worker thread holding the scope's lock.
"""

from __future__ import annotations

import logging
from pathlib import Path

from memory_core.scope_merge import fold_name, part_twins
from memory_core.scope_write import HalfDeleteRefused, apply_scope

from memory_api.store.history.recorder import Attribution, ScopeHistories
from memory_api.store.history.repo import read_blob, read_head

__all__ = ["TWIN_LABEL", "keep_twins_apart"]

logger = logging.getLogger(__name__)

TWIN_LABEL = "twin"
"""What the new name of a twin the scope held says: ``ok-twin.md``."""


def keep_twins_apart(
    histories: ScopeHistories, agent_id: str, scope: Path, subject: str
) -> list[str]:
    """Keep the twins the real ``scope`` folder holds apart (see the module), just after it
    was recorded; ``subject`` names what is about to read it (``a fetch by laptop``). The
    outcome lines (none when it holds no twins: one pass over its newest version's names).
    When the folder cannot be written (a read-only data dir), or its ``MEMORY.md`` cannot be
    (:class:`~memory_core.scope_write.HalfDeleteRefused`: a twin's name would go and its index
    lines stay, A-6), the twins are left as they are, logged; what was written until then is
    recorded by the next record. Raises
    :class:`~memory_api.store.history.git.HistoryUnavailable` when git refuses."""
    repository = histories.repository(agent_id, scope)
    head = read_head(repository)
    if head is None:
        return []
    files = {name: entry.blob for name, entry in histories.tree(repository, head).items()}
    if len({fold_name(name) for name in files}) == len(files):
        return []
    known: dict[str, bytes] = {}

    def content(blob: str) -> bytes:
        if blob not in known:
            known[blob] = read_blob(repository, blob)
        return known[blob]

    parted = part_twins(files, content, label=TWIN_LABEL)
    known.update(parted.new)
    try:
        raced = apply_scope(scope, files, parted.files, content, label=TWIN_LABEL)
    except (OSError, HalfDeleteRefused) as error:  # a read-only folder; an index never rewritten
        logger.warning("the twins of scope %s could not be kept apart: %s", scope.name, error)
        return []
    outcomes = [outcome.describe() for outcome in dict.fromkeys(parted.outcomes + raced)]
    written = {name for name, blob in parted.files.items() if files.get(name) != blob}
    written |= {name for name in files if name not in parted.files}
    written |= {name for o in raced for name in o.files()}
    who = Attribution("found", subject=f"{subject}, twins kept apart", merged=tuple(outcomes))
    histories.record(agent_id, scope, who, only=written, keep_empty=True)
    return outcomes
