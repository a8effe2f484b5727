"""A scope's parsed topic files, read only as far as a lint decision needs them (T-5a, T-5b, A-5).

Some findings about one topic file hang on the others: a ``[[link]]`` no file name resolves may
name another topic's frontmatter ``name``; a naming or ``missing-description`` finding folds
into the scope's convention finding when every file follows it. Parsing every file of a scope
of 30,000 to decide them made the first page of its listing take seconds. :class:`LazyTopics`
draws the topics from the caller's iterable one at a time (the caller gives the files already
read first) and stops at the first that decides: one topic titled as the link, one file in
Memory's own naming, one file with frontmatter. Only a question whose answer is "none" reads
them all, and so does one whose answer counts the files parsed (a convention holds over the
files that could be read: a file the service may not read is no topic of it).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator

from memory_core.topics import ParsedTopic
from memory_core.wiki_links import link_keys

__all__ = ["LazyTopics"]


class LazyTopics:
    """The topics ``source()`` gives (every parsed topic of one scope, each once), drawn on
    demand: ``source`` is called at the first question, and its iterator advanced only while no
    topic drawn so far answers it. ``titles``, when the caller kept them, gives the link keys of
    every topic's ``name`` (what :meth:`titled` would draw them all for), else None. Not
    thread-safe (one request's)."""

    def __init__(
        self,
        source: Callable[[], Iterable[ParsedTopic]],
        titles: Callable[[], Collection[str] | None] = lambda: None,
    ) -> None:
        self._source = source
        self._kept_titles = titles
        self._iterator: Iterator[ParsedTopic] | None = None
        self._drawn: list[ParsedTopic] = []
        self._titles: set[str] = set()

    def _draw(self) -> ParsedTopic | None:
        """The next topic of the source (kept, its title's link keys noted), or None at its end."""
        if self._iterator is None:
            self._iterator = iter(self._source())
        topic = next(self._iterator, None)
        if topic is not None:
            self._drawn.append(topic)
            self._titles.update(link_keys(topic.name))
        return topic

    def any(self, wanted: Callable[[ParsedTopic], bool]) -> bool:
        """Whether some topic of the scope is ``wanted``: those drawn first, then more, one at a
        time, up to the first that is."""
        if any(wanted(topic) for topic in self._drawn):
            return True
        while (topic := self._draw()) is not None:
            if wanted(topic):
                return True
        return False

    def every(self) -> list[ParsedTopic]:
        """Every topic of the scope (all drawn): for a question only all of them answer."""
        while self._draw() is not None:
            pass
        return list(self._drawn)

    def titled(self, keys: frozenset[str]) -> bool:
        """Whether some topic's frontmatter ``name`` has one of the link ``keys``
        (:func:`~memory_core.wiki_links.link_keys`: a wiki link's by
        :func:`~memory_core.wiki_links.title_keys`), drawing topics up to the first that has;
        none for no ``keys`` (a link with a folder, which no ``name`` answers)."""
        if not keys:
            return False
        if self._titles & keys:
            return True
        if (kept := self._kept_titles()) is not None:
            return not keys.isdisjoint(kept)
        while (topic := self._draw()) is not None:
            if link_keys(topic.name) & keys:
                return True
        return False
