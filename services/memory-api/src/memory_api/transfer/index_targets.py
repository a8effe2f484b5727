"""The source index lines an import leaves out because they link a file the scope will not
hold (P-5, T-5a).

An import merges the source's ``MEMORY.md`` into the scope's. A line linking a topic file that
was not imported (it could not be read, it is a symlink or a FIFO, every ``-imported`` name was
taken) or that the source never held would be a dangling link in the scope: an ``error``
finding, and every Session injects a line pointing at nothing. Such a line is not merged,
unless the scope holds a file of that name already (the link then leads to it) or the link
names an imported file in another case (``Staging-DB.md`` for ``staging-db.md``, written on a
disk that ignores case: the merge points it at the file as named); the report
lists each line left out with why. Nothing is lost: the source is untouched, and once the file
can be imported a later run merges the line.

The lines are cut as a delete prunes them (:func:`memory_core.index.prune_index`: every link
form, an entry cut out of a line of joined entries, a reference definition with the lines
using its label); the kept lines stay as they were. The targets judged are those the lint
judges (:func:`memory_core.index.linked_topic_files`: Markdown files of the scope's folder or
its sub-folders; ``MEMORY.md`` itself is no topic).

Blocking: run from the command line or a worker thread.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Collection, Sequence
from pathlib import Path, PurePosixPath

from memory_core import layout
from memory_core.errors import InvalidId
from memory_core.index import (
    index_lines,
    linked_topic_files,
    opened_in_any_case,
    prune_index,
    wiki_link_targets,
)
from memory_core.wiki_links import WikiFiles

from memory_api.store.scopes import (
    SubFolderWalk,
    sub_folder_files,
    sub_folder_files_ending,
    topic_entry,
    walk_sub_folders,
)
from memory_api.transfer.sources import Skipped

__all__ = ["without_missing_targets"]


def without_missing_targets(
    root: Path,
    scope: Path,
    index: str,
    imported: Collection[str],
    skipped: Sequence[Skipped],
    *,
    held: Collection[str] = (),
) -> tuple[str, list[tuple[str, str]]]:
    """``(index without its lines to missing files, [(line left out, why), …])``.

    ``index`` is the source index text; ``imported`` the source names (NFC) of the topic files
    the scope holds after the import (added, renamed, or there already); ``skipped`` what the
    source offered but was not imported (its reason goes into the why). A target is there when
    it is in ``imported`` or the real ``scope`` (in the real memory ``root``) lists it
    already (:func:`~memory_api.store.scopes.topic_entry`; a path into a sub-folder:
    :func:`~memory_api.store.scopes.sub_folder_files`), or when it names an imported file
    only in another case and the source holds no entry spelled as it is (``held``: the names,
    NFC, of every entry of the source, imported or not; a link spelled as a symlink, a FIFO or
    an unreadable file of the source means that file, never its twin in another case).
    Nothing is written."""
    left_out: list[tuple[str, str]] = []
    wiki = wiki_link_targets(index_lines(index))
    named = WikiFiles([*imported, *_scope_notes(scope)]) if wiki else None
    walk = functools.cache(functools.partial(walk_sub_folders, scope))
    opened = opened_in_any_case([*imported, *held])
    for target in linked_topic_files(index):
        if not _names_markdown(target) or target == layout.INDEX_FILE:
            continue
        if target in imported or _in_scope(root, scope, target) or opened(target) in imported:
            continue  # an imported file in another case: the merge points the link at it
        if (
            named is not None
            and target in wiki
            and _named_there(root, scope, named, imported, target, walk)
        ):
            continue  # ``[[Deploy Freeze]]``: deploy-freeze.md, imported or there (T-5b)
        index, lines = prune_index(index, target)
        why = _why(target, skipped)
        left_out.extend((line, why) for line in lines)
    return index, left_out


def _names_markdown(target: str) -> bool:
    """Whether a link's ``target`` names a Markdown file the lint judges (T-5): ``.md``, or in
    the scope's own folder ``.md`` in any case (``gone.MD``)."""
    return target.endswith(".md") or ("/" not in target and target.lower().endswith(".md"))


def _scope_notes(scope: Path) -> list[str]:
    """The names of the Markdown files of the real ``scope`` (none when it cannot be listed),
    which a wiki link of the source index may name; each is judged by :func:`_in_scope`."""
    try:
        return [entry.name for entry in scope.iterdir() if entry.name.lower().endswith(".md")]
    except OSError:
        return []


def _named_there(
    root: Path,
    scope: Path,
    named: WikiFiles,
    imported: Collection[str],
    target: str,
    walk: Callable[[], SubFolderWalk],
) -> bool:
    """Whether the wiki link writing ``target`` names a file the scope will hold, as the lint
    resolves it (:class:`~memory_core.wiki_links.WikiFiles`, over the files imported and
    those of the scope): one imported, a topic file of the scope, or, for a name alone, a
    note so named in one of the scope's sub-folders (``[[feb]]``: ``archive/2026/feb.md``,
    found by the one bounded ``walk`` of them)."""
    found = named.resolve(target)
    if found is not None and (found in imported or _in_scope(root, scope, found)):
        return True
    return "/" not in target and bool(sub_folder_files_ending(scope, [target], walk()))


def _in_scope(root: Path, scope: Path, target: str) -> bool:
    """Whether the scope holds ``target`` (a topic file name, or a path into a sub-folder)."""
    if "/" in target:
        return bool(sub_folder_files(scope, [target]))
    try:
        return topic_entry(root, scope, target) is not None
    except InvalidId:
        return False


def _why(target: str, skipped: Sequence[Skipped]) -> str:
    """Why the line linking ``target`` is left out: the reason its file (or, for a path into a
    sub-folder, that folder) was not imported, when the source offered it; else that neither
    the source nor the scope holds it."""
    head = _nfc(target.split("/", 1)[0])
    for item in skipped:
        if _nfc(PurePosixPath(item.origin.replace("\\", "/")).name) == head:
            return (
                f"links {target!r}, which was not imported ({item.reason}); the line would "
                "link to nothing in this scope"
            )
    return (
        f"links {target!r}, which neither the source nor this scope holds; the line would "
        "link to nothing in this scope"
    )


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)
