"""The lint facts of each scope's index, extended as the agent appends lines (T-5, Q-4).

An agent appends to its ``MEMORY.md`` while listings and overviews lint it. A file changed in the
last two seconds is never served from the stat-keyed caches (see
:mod:`~memory_api.store.stat_cache`), so under steady appends every request read and linted the
whole index: with 9,000 lines most of a request's CPU time. :class:`IndexFactsMemo` keeps, per
scope, the last index text linted and its :class:`~memory_core.index_facts.IndexFacts`, and
compares the text just read with it, content against content:

- the same text reuses the facts;
- a text that starts with the kept one (which ended with a line end) is an append: only the
  appended lines are analysed (:func:`~memory_core.index_facts.extend_facts`);
- any other text (a line edited, removed or pruned) is analysed whole.

Nothing depends on timestamps, so the answer is the one a fresh analysis gives, whichever
process changed the file and however quickly. Comparing is a ``memcmp`` of the texts.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from memory_core.index_facts import IndexFacts, extend_facts, index_facts

__all__ = ["IndexFactsMemo"]

FACTS_KEPT = 1024
"""How many scopes' index facts are kept at most."""
FACTS_CHARS_KEPT = 32 * 1024 * 1024
"""And how many characters of index text together (each entry holds its text to compare)."""
VERSIONS_KEPT = 4
"""How many texts of one index are kept (the newest ones analysed)."""


class IndexFactsMemo:
    """Index facts by name (the real scope dir), each kept with its text; thread-safe.

    Per name the last :data:`VERSIONS_KEPT` texts are kept: requests running side by side
    read the growing file at different moments, and one holding an older text still finds a
    version it extends. At most ``max_entries`` names and ``max_chars`` characters of text are
    held, the least recently used name going first; a text longer than ``max_chars`` is
    analysed but not kept.
    """

    def __init__(self, *, max_entries: int = FACTS_KEPT, max_chars: int = FACTS_CHARS_KEPT) -> None:
        self._max_entries = max_entries
        self._max_chars = max_chars
        self._chars = 0
        self._kept: OrderedDict[str, tuple[tuple[str, IndexFacts], ...]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def chars(self) -> int:
        """The characters of index text held."""
        return self._chars

    def facts(self, name: str, text: str) -> IndexFacts:
        """:func:`~memory_core.index_facts.index_facts` of ``text``, the index of ``name``, from
        the kept facts of an earlier text when ``text`` equals or extends it (module doc)."""
        with self._lock:
            versions = self._kept.get(name, ())
        base: tuple[str, IndexFacts] | None = None
        for kept_text, kept in versions:
            if text is kept_text or text == kept_text:
                return kept  # already kept: nothing to add
            if (
                kept.complete
                and len(text) > len(kept_text)
                and (base is None or len(kept_text) > len(base[0]))
                and text.startswith(kept_text)
            ):
                base = (kept_text, kept)
        facts = index_facts(text) if base is None else extend_facts(base[1], text[len(base[0]) :])
        self._keep(name, text, facts)
        return facts

    def _keep(self, name: str, text: str, facts: IndexFacts) -> None:
        if len(text) > self._max_chars:
            return
        with self._lock:
            old = self._kept.pop(name, ())
            versions = ((text, facts), *old)
            dropped = versions[VERSIONS_KEPT:]
            self._kept[name] = versions[:VERSIONS_KEPT]
            self._chars += len(text) - sum(len(version) for version, _ in dropped)
            while len(self._kept) > self._max_entries or self._chars > self._max_chars:
                _, evicted = self._kept.popitem(last=False)
                self._chars -= sum(len(version) for version, _ in evicted)
