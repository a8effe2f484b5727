"""The service's own small files beside a history: what it learnt from walking the versions,
kept so the next answer need not walk them again (:mod:`.deletions`, :mod:`.clocks`).

Each is one JSON document in the scope's git folder (git ignores files it does not know there;
no bundle, push or fetch carries one), owner-only like every file of the history, written whole
(temp file, rename): two processes that write one at once each leave a document true for the
version it names, and the last one wins. Each says nothing git does not, so one that is
missing or damaged costs a walk, never a wrong answer.

Blocking: run it in a worker thread.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from memory_core import json_text
from memory_core.atomic import atomic_write_bytes

from memory_api.store.containment import read_regular

__all__ = ["HEX40", "read_side_file", "write_side_file"]

logger = logging.getLogger(__name__)

HEX40 = re.compile(r"[0-9a-f]{40}")
"""A version id as the side files write it."""
_CAP = 1024 * 1024
"""Bytes of a side file read at most: far above what any of them holds."""


def read_side_file(repository: Path, name: str) -> dict[str, object] | None:
    """The JSON object in the file ``name`` of the git folder ``repository``; None when it is
    missing, unreadable, over 1 MiB, nested too deep or no JSON object (its writer then makes
    it again; each but a missing file is logged as a warning)."""
    try:  # never through a link, and a FIFO never blocks (the scope's lock is held)
        raw, _ = read_regular(repository / name, _CAP + 1)
        document = json_text.loads(raw) if len(raw) <= _CAP else None
    except FileNotFoundError:
        return None  # not written yet
    except (OSError, ValueError) as error:  # NotRegularFileError is an OSError; JsonTooDeep a
        # ValueError: nested deeper than the parser goes is as damaged as no JSON
        logger.warning("%s of %s not read: %s", name, repository.name, error)
        return None
    if not isinstance(document, dict):
        why = "over 1 MiB" if len(raw) > _CAP else "no JSON object"
        logger.warning("%s of %s not read: %s", name, repository.name, why)
        return None
    return document


def write_side_file(repository: Path, name: str, document: dict[str, object]) -> None:
    """Write ``document`` whole as the file ``name`` of ``repository`` (mode 0600: it names
    files of the scope); a failure is logged, never raised (the next look walks again)."""
    data = json.dumps(document).encode()
    try:
        atomic_write_bytes(repository / name, data, mode=0o600, durable=False)
    except OSError as error:
        logger.warning("%s of %s not kept: %s", name, repository.name, error.strerror)
