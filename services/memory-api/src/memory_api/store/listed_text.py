"""How much of a topic file's name and description a listing or a search gives (A-5, S-1).

A frontmatter ``description`` is one line, but nothing stops it being 500 KB (an agent's
mistake, a hostile note): every row of a listing and every search hit gave it whole, so one
page of 1,000 rows could be 500 MB. A row gives the first :data:`LISTED_CHARS` characters and
an ellipsis, and names the cut in its ``problems`` (:func:`cut_note`); the file's own answer
(``GET …/files/{name}``) gives the field whole.
"""

from __future__ import annotations

import msgspec
from memory_core.wire import SnippetPart, TopicSummary

__all__ = ["ELLIPSIS", "LISTED_CHARS", "cut_note", "cut_parts", "listed", "listed_row"]

LISTED_CHARS = 1_000
"""Characters of a name or description a listing row or a search hit gives at most (a
description is one line: T-1; 1,000 is some ten times the longest seen in practice)."""
ELLIPSIS = "…"


def listed(text: str) -> str:
    """``text`` as a row gives it: whole up to :data:`LISTED_CHARS` characters, else its first
    :data:`LISTED_CHARS` and :data:`ELLIPSIS`.

    >>> listed("short"), len(listed("x" * 5000))
    ('short', 1001)
    """
    return text if len(text) <= LISTED_CHARS else text[:LISTED_CHARS] + ELLIPSIS


def cut_note(field: str, text: str) -> str | None:
    """The ``problems`` entry of a row whose ``field`` (``"name"``, ``"description"``) holding
    ``text`` was cut by :func:`listed`; None when it was not."""
    if len(text) <= LISTED_CHARS:
        return None
    return (
        f"{field}: {len(text)} characters, listed cut to the first {LISTED_CHARS}; the file's "
        "own answer gives it whole"
    )


def cut_parts(parts: list[SnippetPart]) -> list[SnippetPart]:
    """``parts`` (a text as marked parts, perhaps closed by an :data:`ELLIPSIS` part) up to
    :data:`LISTED_CHARS` characters in all, the part that crosses the cap cut, then one
    :data:`ELLIPSIS` part when anything was left out; ``parts`` itself when all fit.

    >>> [len(part.text) for part in cut_parts([SnippetPart(text="x" * 1500, hit=False)])]
    [1000, 1]
    """
    kept: list[SnippetPart] = []
    left = LISTED_CHARS
    for part in parts:
        if len(part.text) > left:
            if left:
                kept.append(SnippetPart(text=part.text[:left], hit=part.hit))
            return [*kept, SnippetPart(text=ELLIPSIS, hit=False)]
        kept.append(part)
        left -= len(part.text)
    return parts


def listed_row(row: TopicSummary) -> TopicSummary:
    """The listing ``row`` with its name and description :func:`listed`, each cut named in its
    ``problems`` (:func:`cut_note`) and again in its ``listed_cut`` (no problem to fix: the
    file's own answer is whole); ``row`` itself when neither is over the cap."""
    notes = [
        note
        for field, text in (("name", row.name), ("description", row.description or ""))
        if (note := cut_note(field, text)) is not None
    ]
    if not notes:
        return row
    description = None if row.description is None else listed(row.description)
    return msgspec.structs.replace(
        row,
        name=listed(row.name),
        description=description,
        problems=[*row.problems, *notes],
        listed_cut=notes,
    )
