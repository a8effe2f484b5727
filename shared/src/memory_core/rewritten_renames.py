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
from memory_core.index import index_lines_linking_each
from memory_core.index_merge import rewrite_links
from memory_core.scope_files import is_topic_file

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
    gone = [name for name in base if is_topic_file(name) and name not in side]
    come = [name for name in side if is_topic_file(name) and name not in base]
    if not gone or not come:
        return {}
    linking = _lines_by_link(_index(base, content), gone)
    tied = _lines_by_link(_index(side, content), come)
    pairs: dict[str, str] = {}
    came = set(come)

    def free(old: str, new: str | None) -> bool:
        """Whether ``new`` may be ``old``'s new name: come in ``side``, not yet paired, and
        holding another text (a pure rename is no rewrite)."""
        return new in came and new not in taken and base[old] != side[new]

    taken: set[str | None] = set()
    for old in gone:
        ties = (new for line in linking.get(old, []) for new in tied.get(line, []))
        new = next((new for new in ties if free(old, new)), None)
        if new is None and old not in linking and free(old, renames.get(old)):
            new = renames[old]
        if new is not None:
            pairs[old] = new
            taken.add(new)
    return pairs


_BLANK = "\x00"
"""What a link to a renamed file is pointed at to compare two lines' words (no file name holds
a NUL, K-7)."""


def _lines_by_link(text: str | None, names: list[str]) -> dict[str, list[str]]:
    """``text``'s lines linking one of ``names`` (:func:`~memory_core.index.
    index_lines_linking_each`: every T-4 form, a reference use where its definition points),
    each with that link blanked (:data:`_BLANK`): keyed by the name, the blanked lines; keyed
    by a blanked line, the names whose lines read so. One read of the index whatever the
    count of names, so a version that renamed a thousand notes costs its index's length, not
    its square."""
    found: dict[str, list[str]] = {}
    if text is None:
        return found
    for name, lines in index_lines_linking_each(text, names).items():
        blank = {unicodedata.normalize("NFC", name): _BLANK}
        for line in lines:
            blanked = rewrite_links(line, blank)
            found.setdefault(name, []).append(blanked)
            found.setdefault(blanked, []).append(name)
    return found


def _index(files: Mapping[str, str], content: Callable[[str], bytes]) -> str | None:
    """The text of the index of ``files`` (None: there is none, or it is not UTF-8)."""
    blob = files.get(layout.INDEX_FILE)
    if blob is None:
        return None
    try:
        return codecs.decode(content(blob).removeprefix(codecs.BOM_UTF8), "utf-8")
    except UnicodeDecodeError:
        return None
