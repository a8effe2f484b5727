"""Which file a ``[[wiki link]]`` names, as Obsidian resolves it (T-4, T-5b).

One resolver for every reader of a wiki link: the lint (a ``dangling-link`` or not), a delete
(the index lines it prunes, A-6) and whatever else asks which file ``[[name]]`` is. A wiki
link names a note, not a path, and Obsidian finds it so (its help, "Internal links", and the
``getFirstLinkpathDest`` rules its API documents):

- the name as a path from the note that links (the index or a topic file, both at the scope's
  root): ``./`` and ``x/..`` are steps, so ``[[./deploy]]`` is ``deploy.md``
  (:func:`wiki_path`); a path that climbs out of the scope's folder (``[[../x]]``) or starts
  at a vault root (``[[/x]]``) names nothing this scope can judge;
- ``.md`` is added unless written; the path is compared without regard to case
  (``[[Notes/Deploy]]`` is ``notes/deploy.md``, ``[[DEPLOY]]`` is ``deploy.md``), the file
  written exactly so first, then the first in sorted order;
- a bare name (no folder) is a file name in any folder, the scope's own first, then the
  shortest path: Obsidian links a note by its name alone when that name is unique in the
  vault ("shortest path when possible"; ``fileToLinktext``: "if file name is unique, use the
  filename"), so ``[[feb]]`` opens ``archive/2026/feb.md`` when no topic file is named so;
  a name with a folder matches a path ending so (``[[b/c]]`` is ``a/b/c.md``). The files of
  sub-folders a scope knows are those its links name (a service looks each bare name that is
  no topic file up in one bounded walk of the sub-folders), so every reader of one link
  resolves it alike. (This replaces an earlier reading of a bare name among the topic files
  only, which Obsidian does not share.)

Memory then reads a bare name as loosely as a ``[[link]]`` in a body is read, among the topic
files, each step only when the one before (Obsidian's own reading included) finds nothing: the
same words with ``-``, ``_`` and spaces alike (``[[Deploy Freeze]]`` is ``deploy-freeze.md``),
those words under a Claude Code type prefix (``feedback_deploy_freeze.md``), the link's words
without its own type prefix, and then a topic's frontmatter ``name`` in those words (a body's
``[[Prefers pnpm]]`` for ``pnpm.md`` whose ``name`` is that).
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

__all__ = [
    "NAMES_KEPT",
    "SUB_FOLDER_WALK_CAP",
    "SUB_FOLDER_WALK_DEPTH",
    "WikiFiles",
    "link_key",
    "link_keys",
    "title_keys",
    "wiki_file",
    "wiki_path",
]

_SEPARATORS_RE = re.compile(r"[-_\s]+")
# Claude Code's memory types: a link may name a type_slug file without its type, or with it.
_TYPE_PREFIX_RE = re.compile(r"(?:user|feedback|project|reference)-(?=.)")


SUB_FOLDER_WALK_CAP = 10_000
"""Entries of a scope's sub-folders (its own files not counted) a service looks at, at most,
for wiki links naming a note by the end of its path (``[[2026/Feb]]`` for
``archive/2026/feb.md``) or by its name alone (``[[feb]]``): more than any memory keeps in
folders. A link left unfound past it is said to be not looked up, never absent (T-5b)."""

SUB_FOLDER_WALK_DEPTH = 64
"""Folders below the scope's own, at most, that the same walk enters: deeper than any memory
nests its notes (a path that deep is near the kernel's 4,096 bytes)."""

NAMES_KEPT = 65536
"""Names whose keys a lint keeps (:func:`link_keys` here, the look-alike keys in
:mod:`~memory_core.lint`): more than a large scope holds (30,000 files), since an LRU cache
read in the same order each time and smaller than the names keeps none of them."""


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


@lru_cache(maxsize=NAMES_KEPT)
def link_key(name: str) -> str:
    """A name's words: NFC, case-folded, ``.md`` dropped, runs of ``-``, ``_`` and spaces as
    one ``-`` (``[[project-drift]]`` names ``project_drift.md``; ``Always run the linter`` is
    ``always-run-the-linter`` written as a title)."""
    stem = _nfc(name).removesuffix(".md").casefold()
    return _SEPARATORS_RE.sub("-", stem).strip("-")


@lru_cache(maxsize=NAMES_KEPT)
def link_keys(name: str) -> frozenset[str]:
    """:func:`link_key` of ``name``, and without a Claude Code type (``feedback_x`` → ``x``)."""
    key = link_key(name)
    return frozenset({key, _TYPE_PREFIX_RE.sub("", key, count=1)})


def title_keys(name: str) -> frozenset[str]:
    """The link keys a topic's frontmatter ``name`` must share (:func:`link_keys` of it) for the
    wiki link ``name`` to name that topic, when no file's name does (the last step of
    :meth:`WikiFiles.resolve`); empty for a link no title can answer (a path, an address).

    >>> sorted(title_keys("feedback-Prefers pnpm")), title_keys("notes/deploy")
    (['feedback-prefers-pnpm', 'prefers-pnpm'], frozenset())
    """
    path = wiki_path(_nfc(name))
    if "/" in path or "\\" in path or ":" in path:
        return frozenset()
    key = link_key(path)
    return frozenset({key, _TYPE_PREFIX_RE.sub("", key, count=1)})


def wiki_file(name: str) -> str:
    """A wiki link's ``name`` as a file name: ``.md`` added unless written (any case)."""
    return name if name.lower().endswith(".md") else f"{name}.md"


def wiki_path(name: str) -> str:
    """The path a wiki link's ``name`` names from the scope's root, ``.md`` added unless
    written: ``./`` and ``x/..`` steps taken (``./deploy`` → ``deploy.md``,
    ``notes/../deploy`` → ``deploy.md``). A name that climbs out of the scope's folder
    (``../x``), starts at a root (``/x``) or is no path (an address, a Windows path) comes back
    as written, ``.md`` added: no file of the scope.

    >>> wiki_path("./deploy"), wiki_path("Notes/./Deploy"), wiki_path("../x")
    ('deploy.md', 'Notes/Deploy.md', '../x.md')
    """
    file = wiki_file(name)
    if "/" not in file or file.startswith("/") or "\\" in file or ":" in file:
        return file
    stepped = posixpath.normpath(file)
    return file if stepped.startswith("..") else stepped


class WikiFiles:
    """The files of one scope as a wiki link is looked up in them, built once per folder read
    so each look-up is a few dict reads. ``files``: relative POSIX paths (NFC here), the topic
    files and whatever files of its sub-folders are known."""

    def __init__(self, files: Iterable[str], titles: Iterable[tuple[str, str]] = ()) -> None:
        """``titles``: ``(frontmatter name, file)`` of topic files, a name a link in a body
        may write for its file (``[[Prefers pnpm]]`` for ``pnpm.md`` named so), the last
        step of a bare name's loose reading."""
        self.present = frozenset(_nfc(name) for name in files)
        ordered = sorted(self.present, key=lambda path: (path.count("/"), len(path), path))
        self._by_fold: dict[str, str] = {}
        self._by_base: dict[str, list[str]] = {}
        self._by_words: dict[str, list[str]] = {}
        self._by_bare_words: dict[str, list[str]] = {}
        for path in ordered:
            self._by_fold.setdefault(path.casefold(), path)
            self._by_base.setdefault(path.rpartition("/")[2].casefold(), []).append(path)
            if "/" not in path:
                key = link_key(path)
                self._by_words.setdefault(key, []).append(path)
                bare = _TYPE_PREFIX_RE.sub("", key, count=1)
                self._by_bare_words.setdefault(bare, []).append(path)
        self._by_title: dict[str, str] = {}
        for title, file in sorted(titles, key=lambda pair: (len(pair[1]), pair[1])):
            for key in link_keys(title):
                self._by_title.setdefault(key, _nfc(file))

    def resolve(self, name: str) -> str | None:
        """The file a wiki link's ``name`` (as written between ``[[`` and a ``|`` or ``#``)
        names (see the module docstring), or None when none does."""
        path = wiki_path(_nfc(name))
        if path in self.present:
            return path
        if path.startswith(("/", "../")) or "\\" in path or ":" in path:
            return None
        folded = path.casefold()
        if (same := self._by_fold.get(folded)) is not None:
            return same
        base = folded.rpartition("/")[2]
        for found in self._by_base.get(base, ()):  # a topic file first, then the shortest path
            if "/" not in folded or found.casefold().endswith(f"/{folded}"):
                return found
        if "/" in path:
            return None
        key = link_key(path)
        stripped = _TYPE_PREFIX_RE.sub("", key, count=1)
        for table, wanted in (
            (self._by_words, key),
            (self._by_bare_words, key),
            (self._by_words, stripped),
            (self._by_bare_words, stripped),
        ):
            if found_words := table.get(wanted):
                return found_words[0]
        for wanted in (key, stripped):
            if (titled := self._by_title.get(wanted)) is not None:
                return titled
        return None
