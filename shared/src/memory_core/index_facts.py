"""What lint needs from an index's lines, found in one pass over them (T-5, T-4, I-8).

Linting a ``MEMORY.md`` looks at every line: its links (T-4), its length, its likely
credentials (I-8), and which lines the injection caps would keep (I-3, I-4). :func:`index_facts`
finds them once for a text, so a caller that keeps one version of an index (the service, per
file version) lints it again without looking at its lines again.

>>> facts = index_facts("- [a](a.md) first\\n- [b](b.md) second\\n")
>>> facts.lines, sorted(facts.links)
(2, ['a.md', 'b.md'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import regex

from memory_core.credentials import find_secrets
from memory_core.index import index_lines, links_of_lines, wiki_link_targets
from memory_core.injection import PreparedIndex, prepare_index

__all__ = ["INDEX_LINE_LIMIT", "IndexFacts", "index_facts", "shown_characters"]

INDEX_LINE_LIMIT = 150
"""Index lines longer than this many characters, as a reader counts them
(:func:`shown_characters`), are reported (T-5); the prompt asks for ~150."""

_GRAPHEME = regex.compile(r"\X")


def shown_characters(line: str) -> int:
    """How many characters ``line`` shows: its extended grapheme clusters (Unicode UAX #29).

    A letter with its combining accents is one whatever its encoding (``é`` as U+0065 U+0301,
    as macOS writes it, counts as the composed U+00E9 does), and so is an emoji sequence
    (``👨‍👩‍👧`` is five code points, ``👍🏽`` two, ``⚠️`` two); a CJK character is one, as any
    letter is. Counting code points made the same line too long written in NFD and fine in NFC.

    >>> [shown_characters(text) for text in ("cafe\u0301", "\U0001f468\u200d\U0001f469", "数据")]
    [4, 1, 2]
    """
    return len(_GRAPHEME.findall(line))


@dataclass(frozen=True, slots=True)
class IndexFacts:
    """The per-line findings of one index text.

    ``lines`` counts its lines (:func:`~memory_core.index.index_lines`); ``links`` maps each
    scope-local link target (NFC) to the 1-based lines linking it (as
    :func:`~memory_core.index.linked_topic_files`; treat it as read-only); ``long_lines`` holds
    ``(line, characters)`` of each line over :data:`INDEX_LINE_LIMIT` (:func:`shown_characters`);
    ``secrets`` the ``(kind, line)`` of :func:`~memory_core.credentials.find_secrets`;
    ``prepared`` the text as the injection caps it (:func:`~memory_core.injection.prepare_index`);
    ``wiki`` the ``links`` written as wiki links and the lines writing them so
    (:func:`~memory_core.index.wiki_link_targets`): those name a note by its name, not a path.
    """

    lines: int
    links: dict[str, list[int]]
    long_lines: tuple[tuple[int, int], ...]
    secrets: tuple[tuple[str, int], ...]
    prepared: PreparedIndex
    wiki: Mapping[str, tuple[int, ...]] = field(default_factory=dict)


def index_facts(text: str, here: str | None = None) -> IndexFacts:
    """The facts of the whole index ``text`` (LF line ends, as read, T-2); ``here``, the
    scope folder's path, by which ``../user/x.md`` and an absolute path link its files
    (:func:`~memory_core.index.scope_relative`)."""
    lines = index_lines(text)
    return IndexFacts(
        lines=len(lines),
        links=links_of_lines(lines, here=here),
        long_lines=tuple(
            (number, length)
            for number, line in enumerate(lines, start=1)
            # never fewer code points than characters: only a long line is segmented
            if len(line) > INDEX_LINE_LIMIT
            and (length := shown_characters(line)) > INDEX_LINE_LIMIT
        ),
        secrets=tuple(find_secrets(text)),
        prepared=prepare_index(text),
        wiki=wiki_link_targets(lines),
    )
