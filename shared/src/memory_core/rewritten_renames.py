"""The topic files one copy of a scope renamed *and* rewrote since a base (R-2, V-2).

git's rename detection pairs a file gone with one come only when they share at least half
their text (``git diff-tree -M``); a note renamed and rewritten in one change (``a.md`` is now
``b.md`` with a new text) is to git a delete and an add. A person who did it still calls it a
rename, and so does the index: the line that linked ``a.md`` links ``b.md`` now, its words as
they were. :func:`rewritten_renames` finds both kinds — those git paired (any similarity below
a pure rename) and those only the index ties — so a merge can say what happened ("renamed and
changed on one machine and edited on another") rather than "deleted on one machine". It only
names them: a merge never follows such a rename (the other side's edit of the old text would
land in a new text it was not written for), so both texts stay.

Pure.

>>> from memory_core.scope_merge import blob_id
>>> base = {"MEMORY.md": blob_id(b"- [A](a.md) about a\\n"), "a.md": blob_id(b"old\\n")}
>>> side = {"MEMORY.md": blob_id(b"- [A](b.md) about a\\n"), "b.md": blob_id(b"new\\n")}
>>> texts = {base["MEMORY.md"]: b"- [A](a.md) about a\\n"}
>>> texts[side["MEMORY.md"]] = b"- [A](b.md) about a\\n"
>>> rewritten_renames({}, base, side, texts.__getitem__)
{'a.md': 'b.md'}
"""

from __future__ import annotations

import codecs
import unicodedata
from collections.abc import Callable, Mapping

from memory_core import layout
from memory_core.index import index_lines_linking
from memory_core.index_merge import rewrite_links
from memory_core.scope_files import is_scope_file

__all__ = ["rewritten_renames"]


def rewritten_renames(
    renames: Mapping[str, str],
    base: Mapping[str, str],
    side: Mapping[str, str],
    content: Callable[[str], bytes],
) -> dict[str, str]:
    """The topic files ``side`` renamed and changed since ``base`` (old name → new name).

    ``renames`` are the pairs git's rename detection found (any similarity); ``base`` and
    ``side`` map file names to git blob ids; ``content`` gives a blob's bytes (called for the
    two indexes only, and only when a topic file went and another came). A pair is a name gone
    from ``side`` and one new to it with another text (a pure rename is no rewrite) that the
    index ties: a line of the base index that linked the old name stands in ``side``'s index
    linking the new one, its words unchanged. Where the base index has no line linking the old
    name, git's pairing is taken alone; where it has one that ``side`` reworded (``[Mon]``
    became ``[Tue]``: the next day's note from the same template), git's is not. An index that
    is not UTF-8 ties nothing and says nothing against git.
    """
    gone = [name for name in base if _is_topic(name) and name not in side]
    come = [name for name in side if _is_topic(name) and name not in base]
    if not gone or not come:
        return {}
    before, after = _index(base, content), _index(side, content)
    lines = set(after.split("\n")) if after is not None else set()
    pairs: dict[str, str] = {}
    for old in gone:
        linking = index_lines_linking(before, old) if before is not None else []
        free = [new for new in come if new not in pairs.values() and base[old] != side[new]]
        tied = next((new for new in free if _tied(linking, old, new, lines)), None)
        if tied is not None:
            pairs[old] = tied
        elif not linking and renames.get(old) in free:
            pairs[old] = renames[old]
    return pairs


def _tied(linking: list[str], old: str, new: str, lines: set[str]) -> bool:
    """Whether one of the base index's lines ``linking`` ``old`` stands among ``lines`` (the
    side's index) linking ``new`` instead, its words unchanged."""
    renamed = {unicodedata.normalize("NFC", old): new}
    return any(rewrite_links(line, renamed) in lines for line in linking)


def _is_topic(name: str) -> bool:
    return name not in (layout.INDEX_FILE, layout.MARKER_FILE) and is_scope_file(name)


def _index(files: Mapping[str, str], content: Callable[[str], bytes]) -> str | None:
    """The text of the index of ``files`` (None: there is none, or it is not UTF-8)."""
    blob = files.get(layout.INDEX_FILE)
    if blob is None:
        return None
    try:
        return codecs.decode(content(blob).removeprefix(codecs.BOM_UTF8), "utf-8")
    except UnicodeDecodeError:
        return None
