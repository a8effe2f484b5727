"""What lint needs from an index's lines, found once per line and extended by appended lines.

Linting a ``MEMORY.md`` (T-5) looks at every line: its links (T-4), its length, its likely
credentials (I-8). An agent's index mostly grows by appended lines, and a service lints it on
every listing and overview, so :class:`IndexFacts` holds the per-line results of one text and
:func:`extend_facts` adds those of the lines appended to it, judging them as the whole text
would: the state a line carries into the next (an open code fence, an open private-key block) is
kept with the facts. Work is proportional to the appended lines, not to the index.

>>> facts = index_facts("- [a](a.md) first\\n")
>>> grown = extend_facts(facts, "- [b](b.md) second\\n")
>>> grown == index_facts("- [a](a.md) first\\n- [b](b.md) second\\n")
True
>>> grown.lines, sorted(grown.links)
(2, ['a.md', 'b.md'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memory_core.credentials import ScanState, find_secrets_in_lines
from memory_core.index import index_lines, links_of_lines

__all__ = ["INDEX_LINE_LIMIT", "IndexFacts", "extend_facts", "index_facts"]

INDEX_LINE_LIMIT = 150
"""Index lines longer than this many code points are reported (T-5); the prompt asks for ~150."""


@dataclass(frozen=True, slots=True)
class IndexFacts:
    """The per-line findings of one index text (``length`` code points of it).

    ``lines`` counts its lines (:func:`~memory_core.index.index_lines`); ``links`` maps each
    scope-local link target (NFC) to the 1-based lines linking it (as
    :func:`~memory_core.index.linked_topic_files`; treat it as read-only); ``long_lines`` holds
    ``(line, code points)`` of each line over :data:`INDEX_LINE_LIMIT`; ``secrets`` the
    ``(kind, line)`` of :func:`~memory_core.credentials.find_secrets`. ``fence`` and ``scan``
    are the code fence and the credential scan's state (a private-key block or a credential
    table column) still open after the last line; ``complete`` says
    the text ends with a line end (or is empty), so appended text starts a new line.
    """

    length: int
    lines: int
    links: dict[str, list[int]] = field(compare=True)
    long_lines: tuple[tuple[int, int], ...]
    secrets: tuple[tuple[str, int], ...]
    fence: str | None
    scan: ScanState
    complete: bool


_EMPTY = IndexFacts(0, 0, {}, (), (), None, ScanState(), True)


def _facts_of(text: str, start: IndexFacts) -> IndexFacts:
    """The facts of ``text`` read as lines that follow those ``start`` describes."""
    lines = index_lines(text)
    first = start.lines + 1
    links, fence = links_of_lines(lines, first=first, fence=start.fence)
    secrets, scan = find_secrets_in_lines(text.split("\n"), first=first, state=start.scan)
    long_lines = tuple(
        (number, len(line))
        for number, line in enumerate(lines, start=first)
        if len(line) > INDEX_LINE_LIMIT
    )
    return IndexFacts(
        length=start.length + len(text),
        lines=start.lines + len(lines),
        links=links,
        long_lines=long_lines,
        secrets=tuple(secrets),
        fence=fence,
        scan=scan,
        complete=not text or text.endswith("\n"),
    )


def index_facts(text: str) -> IndexFacts:
    """The facts of the whole index ``text`` (LF line ends, as read, T-2)."""
    return _facts_of(text, _EMPTY)


def extend_facts(facts: IndexFacts, appended: str) -> IndexFacts:
    """The facts of the text ``facts`` describes followed by ``appended``.

    Raises ``ValueError`` when that text does not end with a line end (``facts.complete`` is
    false): the appended text would continue its last line, whose findings would change.
    """
    if not facts.complete:
        raise ValueError("the text does not end with a line end; its facts cannot be extended")
    tail = _facts_of(appended, facts)
    links = facts.links
    if tail.links:
        links = dict(links)
        for target, numbers in tail.links.items():
            links[target] = [*links.get(target, ()), *numbers]
    return IndexFacts(
        length=tail.length,
        lines=tail.lines,
        links=links,
        long_lines=facts.long_lines + tail.long_lines,
        secrets=facts.secrets + tail.secrets,
        fence=tail.fence,
        scan=tail.scan,
        complete=tail.complete,
    )
