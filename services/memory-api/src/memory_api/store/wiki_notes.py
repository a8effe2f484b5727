"""The files of a scope's sub-folders that its wiki links name, found one way for every reader
(T-5b): the lint and the page, a delete pruning the index lines linking a file (A-6), a
restore putting them back (V-2) and a sync pointing them at a renamed file (R-2).

A wiki link names a note, not a path (:mod:`memory_core.wiki_links`): ``[[Notes/Deploy]]`` is
``notes/deploy.md``, ``[[2026/Feb]]`` a path that ends so, and a bare ``[[Deploy Freeze]]``
that no topic file is named (in any case) the note so named in any sub-folder, the shortest
path first, before Memory's loose reading gives it ``deploy-freeze.md``. So which file a link
names depends on the sub-folders' files, and a reader that resolves the link among the topic
files alone reads it otherwise than the lint: a delete of ``deploy-freeze.md`` would prune the
line about ``notes/Deploy Freeze.md``. Each reader gives the links' files found here to
:class:`~memory_core.wiki_links.WikiFiles` with the topic files.

A ``stat`` or a listing per link with a folder, and at most one bounded walk of the
sub-folders (:func:`~memory_api.store.scopes.walk_sub_folders`) when a link is left; none for
an index whose links all name topic files. Blocking: run in a worker thread.
"""

from __future__ import annotations

import functools
import stat
import unicodedata
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from memory_core.index import index_lines, links_of_lines, wiki_link_targets
from memory_core.wiki_links import wiki_path

from memory_api.store.scopes import (
    SubFolderWalk,
    sub_folder_files,
    sub_folder_files_any_case,
    sub_folder_files_ending,
    unreadable_folder,
    walk_sub_folders,
)

__all__ = [
    "Walk",
    "index_notes",
    "index_sub_folder_files",
    "named_sub_folder_files",
    "sought_in_sub_folders",
]

Walk = Callable[[], SubFolderWalk]
"""A walk of one scope's sub-folders, taken the first time it is called and kept."""


def sought_in_sub_folders(links: Iterable[str], names: Collection[str]) -> list[str]:
    """The paths (:func:`~memory_core.wiki_links.wiki_path`) of the wiki ``links`` to look up
    in a scope's sub-folders, sorted: a path with a folder that stays in the scope's folder,
    and a name alone that no topic file of ``names`` has in any case (Obsidian opens the file
    so named in any folder, :mod:`memory_core.wiki_links`); never a path from a root, one that
    climbs out, or no path at all (``\\``, ``:``)."""
    topics = {folded(name) for name in names}
    paths = set()
    for link in links:
        path = wiki_path(link)
        if path.startswith(("/", "../")) or "\\" in path or ":" in path:
            continue
        if "/" in path or folded(path) not in topics:
            paths.add(path)
    return sorted(paths)


def folded(name: str) -> str:
    """``name`` as a wiki link matches a file name: NFC, case-folded."""
    return unicodedata.normalize("NFC", name).casefold()


def named_sub_folder_files(
    scope: Path, paths: list[str], walk: Walk, *, by_end: Collection[str]
) -> tuple[frozenset[str], dict[str, str]]:
    """``(there, not_looked_up)`` of the links into sub-folders ``paths`` (relative POSIX; a
    name alone, ``feb.md``, is a wiki link's, sought in any sub-folder, never at the root):
    the files of the real ``scope``'s sub-folders they name, as written or in another case
    (:func:`~memory_api.store.scopes.sub_folder_files_any_case`), else, for those of
    ``by_end`` (wiki links), by the end of a path found by the ``walk``
    (:func:`~memory_api.store.scopes.sub_folder_files_ending`); and, each with where the
    service did not look (as a finding ends), those of ``by_end`` left unfound when the walk
    stopped at its bound (:data:`~memory_api.store.scopes.SUB_FOLDER_WALK_CAP`) or could not
    list a folder: not there for all it saw, but not looked up past it; and the paths with a
    folder whose look-up the kernel refused (a folder on the way another account keeps to
    itself, Q-2b): never called absent. The walk is taken only when some link is left."""
    with_folder = [path for path in paths if "/" in path]
    there = sub_folder_files(scope, with_folder) | sub_folder_files_any_case(scope, with_folder)
    found = {path.casefold() for path in there}
    unsought: dict[str, list[str]] = {}
    for path in with_folder:
        if path not in there and (why := _refused(scope, path)) is not None:
            unsought.setdefault(path, []).append(why)
    left = [path for path in paths if path.casefold() not in found and path in by_end]
    if left:
        seen = walk()
        there |= sub_folder_files_ending(scope, left, seen)
        for path in left:
            if path not in there:
                unsought.setdefault(path, []).extend(seen.stopped)
    return there, {
        path: "; ".join(dict.fromkeys(why))
        for path, why in sorted(unsought.items())
        if path not in there and why
    }


def _refused(scope: Path, path: str) -> str | None:
    """Why looking ``path`` (relative POSIX, in the real ``scope``) up is refused, as a
    finding ends (``EACCES``: a folder on the way the service may not search, named), so
    whether a file is there cannot be told; None when it is not refused. Each part is looked
    at with ``lstat`` in turn, and a symlink ends the look unrefused: a symlinked folder is
    never followed, so no path outside the memory root is probed (A-7), and another account's
    folder a symlink leads to is never called one of the scope's."""
    current, parts = scope, path.split("/")
    for at, part in enumerate(parts):
        current = current / part
        try:
            info = current.lstat()
        except PermissionError:
            folder = "/".join(parts[:at])
            return unreadable_folder(f"the folder {folder!r}" if folder else "this scope's folder")
        except (OSError, ValueError):
            return None
        if stat.S_ISLNK(info.st_mode):
            return None
    return None


def index_sub_folder_files(
    scope: Path,
    links: Collection[str],
    wiki: Callable[[], Collection[str]],
    topic_files: Collection[str],
    walk: Walk,
) -> tuple[frozenset[str], dict[str, str]]:
    """``(there, not_looked_up)`` (:func:`named_sub_folder_files`) of an index's ``links``
    (its targets inside the scope's folder, :func:`~memory_core.index.links_of_lines`) in the
    real ``scope``'s sub-folders: each path into a sub-folder, and each name alone that a wiki
    link of the index (``wiki()``, asked only when one may be: the targets written as wiki
    links, :func:`~memory_core.index.wiki_link_targets`) writes and no topic file of
    ``topic_files`` has in any case. A Markdown link is a path, sought as written; a wiki link
    by its path's end too (T-5b)."""
    deeper = [target for target in links if "/" in target]
    topics = {folded(name) for name in topic_files}
    alone = [target for target in links if "/" not in target and folded(target) not in topics]
    written = wiki() if deeper or alone else ()
    sought = [
        *deeper,
        *sought_in_sub_folders([target for target in alone if target in written], []),
    ]
    return named_sub_folder_files(scope, sought, walk, by_end=written)


def index_notes(
    scope: Path, text: str, topic_files: Collection[str], walk: Walk | None = None
) -> frozenset[str]:
    """The files of the real ``scope``'s sub-folders that the wiki links of the index
    ``text`` name, as the lint finds them (:func:`index_sub_folder_files`; ``topic_files``:
    the scope's topic files): what a reader resolving those links among the topic files adds
    to them (``notes/Deploy Freeze.md`` for ``[[Deploy Freeze]]``). ``walk``: the walk of the
    sub-folders to share (one of its own when None). Empty for a text without wiki links."""
    if "[[" not in text:
        return frozenset()
    lines = index_lines(text)
    wiki = wiki_link_targets(lines)
    if not wiki:
        return frozenset()
    walk = walk or functools.cache(functools.partial(walk_sub_folders, scope))
    links = links_of_lines(lines)
    return index_sub_folder_files(scope, links, lambda: wiki, topic_files, walk)[0]
