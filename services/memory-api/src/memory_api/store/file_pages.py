"""Pages of a scope's file listing (A-5): ``?limit=`` files after ``?cursor=``, never silently cut.

A scope of 30,000 topic files answered them all at once (and the scope's whole lint beside
them): megabytes for one request, which a phone's page could not hold. A page holds at most
:data:`FILES_MAX_LIMIT` rows in file-name order; its ``nextCursor`` (the last file name on it)
asks for the next, and is None on the last page, so a client that follows it sees every file.
The cursor names a place in the order, not a row: a file deleted between two pages moves no
other file to another page. A page lists the scope's names (an ``lstat`` each), finds the
cursor among them by binary search, and reads and lints only the topic files of the page; the
first page adds the scope-wide findings from the names and the index, the last the conventions
(T-5a), which judge every file's frontmatter: parsed through the cache, which a client following
the pages has filled by then. A scope of 30,000 files took seconds for its first page after a
restart, when that page named the conventions: it parsed every file. The first page now parses
only its own files, unless a finding about one of them hangs on the others, which are then read
only up to the first that decides it
(:meth:`~memory_api.store.answers.ScopeAnswers.topic_list`).

>>> page_after(["a.md", "b.md", "c.md"], "a.md", 1)
(1, 2, 'b.md')
>>> page_after(["a.md", "b.md"], None, 5)
(0, 2, None)
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from memory_core.keys import TOPIC_FILE_NAME_RULE

from memory_api.errors import BadRequest

__all__ = ["FILES_DEFAULT_LIMIT", "FILES_MAX_LIMIT", "check_page", "page_after"]

FILES_MAX_LIMIT = 1000
"""The most files one page of a scope's listing holds."""
FILES_DEFAULT_LIMIT = FILES_MAX_LIMIT
"""Files on a page when the request names no ``limit``: a scope of up to this many answers
in one page, as before pages were."""


def check_page(limit: int, cursor: str | None) -> None:
    """Refuse a ``limit`` outside 1-:data:`FILES_MAX_LIMIT` or a ``cursor`` that is no topic
    file name (no ``nextCursor`` of a page) with :class:`~memory_api.errors.BadRequest` (400),
    before any I/O."""
    if not 1 <= limit <= FILES_MAX_LIMIT:
        raise BadRequest(f"limit must be between 1 and {FILES_MAX_LIMIT}")
    if cursor is not None and not TOPIC_FILE_NAME_RULE.accepts(cursor):
        raise BadRequest(
            "cursor must be the nextCursor of a page before (a topic file name: "
            f"{TOPIC_FILE_NAME_RULE.summary})"
        )


def page_after(names: Sequence[str], cursor: str | None, limit: int) -> tuple[int, int, str | None]:
    """``(start, end, next cursor)`` of the page of sorted ``names`` that follows ``cursor``
    (the first page when None): ``names[start:end]`` holds at most ``limit`` of them; the next
    cursor is the last name of the page, or None when none follow it."""
    start = 0 if cursor is None else bisect.bisect_right(names, cursor)
    end = min(start + limit, len(names))
    return start, end, names[end - 1] if end < len(names) else None
