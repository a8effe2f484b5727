"""Which file of a scope a request's file name means (A-5, A-6, V-2): the name on disk.

macOS writes names decomposed (NFD: ``café.md`` as ``e`` + U+0301), most other systems and
clients composed (NFC); to Linux the two are different files, to a user the same name. The
rule, for every route that names a file (read, delete, history, diff, restore):

1. a name on disk spelled exactly as asked is that file;
2. else the one name on disk that is the asked name under Unicode normalization (NFC of
   both compared) is that file, and is used from then on — the answer, the lock, the
   history, the pruning, the containment checks all see the name as it is on disk;
3. two or more such names (``café.md`` composed and decomposed, neither asked exactly) are
   two files the client cannot tell apart: :class:`~memory_api.errors.Conflict` (409) naming
   each, never one picked silently;
4. none: the asked name, for the caller's own lookup to answer 404.

A restore of a file no longer on disk matches the asked name so against the files of the
version restored from (:func:`name_among`): the undo of a delete asked in the other spelling.
A history or diff of a file no longer on disk matches it so against the names the scope's
versions held (:func:`memory_api.store.history.reading.history_name`): twins there are a 409 too.
For those routes a name spelled exactly as asked that some version held together with the
other spelling on disk counts as one on disk: a twin deleted while its other spelling stays is
itself, never the twin on disk, and a version that held only the twin is a 404 for it. A name
no version held together with the one on disk is that file: one note whose name a client
rewrote in the other normalization (``memory_api.store.history.service``).

Only entries whose names are memory (:func:`memory_core.scope_files.is_scope_file`) are
matched. Resolving a name opens nothing: what the name leads to (a symlink out of the memory
root, a FIFO) is judged afterwards on the resolved name, exactly as on an exact one.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from memory_core.scope_files import is_scope_file

from memory_api.errors import Conflict

__all__ = ["name_among", "on_disk_name"]


def on_disk_name(scope: Path, asked: str) -> str:
    """The name on disk, in the real ``scope`` directory, of the file a request calls
    ``asked`` (K-7-checked by the caller), by the module's rule: ``asked`` itself when an
    entry of that exact name is there or no entry matches it under normalization (or the
    folder cannot be listed: the caller's own lookup tells why), else the one entry that does.

    Raises :class:`~memory_api.errors.Conflict` (409) when two or more entries match
    ``asked`` under NFC and none is spelled exactly as asked; the detail names each, with its
    code points escaped so the spellings can be told apart.
    """
    if os.path.lexists(f"{os.fspath(scope)}{os.sep}{asked}"):
        return asked
    try:
        with os.scandir(scope) as entries:
            return name_among(asked, [entry.name for entry in entries], "in this scope")
    except OSError:
        return asked


def name_among(asked: str, names: Iterable[str], where: str) -> str:
    """The one of ``names`` (memory file names only are considered) a request calling
    ``asked`` means: ``asked`` when it is one of them or none matches it under NFC, else the
    one that does. Raises :class:`~memory_api.errors.Conflict` (409) naming each when two or
    more match and ``asked`` is none of them; ``where`` ends the detail's first clause
    (``"in this scope"``).

    >>> name_among("caf\\u00e9.md", ["cafe\\u0301.md", "other.md"], "here") == "cafe\\u0301.md"
    True
    """
    listed = list(names)
    if asked in listed:
        return asked
    wanted = unicodedata.normalize("NFC", asked)
    twins = sorted(
        name
        for name in listed
        if unicodedata.normalize("NFC", name) == wanted and is_scope_file(name)
    )
    if len(twins) > 1:
        spelled = ", ".join(f"{name!r} ({ascii(name)[1:-1]})" for name in twins)
        raise Conflict(
            f"no file is named exactly {asked!r} ({ascii(asked)[1:-1]}) {where}, and "
            f"{len(twins)} files are that name in other Unicode normalizations: {spelled}; "
            "ask for one by its name as it is on disk, or rename one of them"
        )
    return twins[0] if twins else asked
