"""The entries already there that a name printed at run time may be (P-3).

The guard reads a name-only substitution (``$(date +%F)``, ``$(whoami)``) as one fresh name,
spelt with a marker character (``notes@/a.md``). What it prints is often foreseeable: a link
the agent made before, named ``notes2026-12-06`` or ``notesroot``, makes
``echo x > notes$(date +%F)/a.md`` write where that link leads (review56). :func:`existing_names`
gives the paths such a path names through each entry already in its folder whose name the
marker's component matches, the marker read as any text of one character or more (the
guard reads a name that may be empty as nothing too), as the kernel will walk them. Reads
at most ``cap`` folder entries a path (the folders it lists) and says how many it read; past
``cap`` or :data:`_MOST_SPELLINGS` it cannot tell, and the guard refuses.
"""

from __future__ import annotations

import os

_MOST_SPELLINGS = 64
"""The most paths one path with markers is read as (a path with several markers, each
matching many entries): past it, ``None`` says the guard cannot tell."""


def existing_names(path: str, marker: str, cap: int) -> tuple[list[str] | None, int]:
    """The absolute ``path`` (holding ``marker`` in some components) as each spelling that
    names an entry already there for a marked component (``/w/notes@/a.md`` ->
    ``/w/notes2026-12-06/a.md`` when ``/w`` holds ``notes2026-12-06``), the marker matching
    any text of one character or more. The path itself is not among them. With them, how many
    folder entries were read (the caller charges its scan budget). None for the spellings when
    the folders hold more than ``cap`` entries to read or more than :data:`_MOST_SPELLINGS`
    spellings match: then the guard cannot tell (the caller refuses)."""
    parts = path.split("/")
    spellings = [""]
    read = 0
    for part in parts[1:]:
        grown: list[str] = []
        for start in spellings:
            grown.append(f"{start}/{part}")
            if marker not in part:
                continue
            head, *rest = part.split(marker)
            try:
                with os.scandir(start or "/") as entries:
                    names = [entry.name for entry in entries]
            except OSError:
                continue  # no folder there: nothing already in it
            read += len(names)
            if read > cap:
                return None, read
            grown.extend(f"{start}/{name}" for name in names if _matches(name, head, rest))
        if len(grown) > _MOST_SPELLINGS:
            return None, read
        spellings = grown
    return [spelling for spelling in spellings if spelling != path], read


def _matches(name: str, head: str, rest: list[str]) -> bool:
    """Whether ``name`` is ``head``, then for each text of ``rest`` one character or more and
    that text, in order; the last text ends it."""
    if not name.startswith(head):
        return False
    at = len(head)
    for text in rest[:-1]:
        found = name.find(text, at + 1)
        if found < 0:
            return False
        at = found + len(text)
    return name.endswith(rest[-1]) and len(name) - len(rest[-1]) > at
