"""Names too long for the disk a scope's copy is written on (R-2, K-7).

A topic file name may take 255 bytes of UTF-8 (K-7), the limit of ext4, xfs, btrfs and APFS;
eCryptfs with encrypted names (an encrypted home on Ubuntu) takes 143, some FUSE and network
file systems fewer. A name another copy sent that this disk cannot hold is kept under a name it
can (:func:`~memory_core.scope_merge.fitted_name`: the cut a kept copy's name gets at 255
bytes), the index's links pointed there, and said: the machine's sync (``harness_memory``) and
the service's take of a push (``memory_api``) both do so, each for its own disk.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from memory_core.index_merge import rewrite_links
from memory_core.keys import FILE_NAME_MAX_BYTES
from memory_core.markdown import lines_with_ends
from memory_core.scope_files import is_topic_file
from memory_core.scope_merge import KeptNames, fitted_name
from memory_core.shown_names import shown_name

__all__ = [
    "disk_name_max",
    "fitted_renames",
    "held_cuts",
    "is_cut_of",
    "linking_lines",
    "relinked_index",
    "shortened_line",
]


def disk_name_max(folder: Path) -> int:
    """The longest name ``folder``'s file system takes, in bytes (``pathconf``'s ``NAME_MAX``,
    which the kernel reads from ``statfs``); 255 when it cannot be told."""
    try:
        found = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return FILE_NAME_MAX_BYTES
    return found if found > 0 else FILE_NAME_MAX_BYTES


def fitted_renames(
    names: Iterable[str], max_bytes: int, taken: Iterable[str] = ()
) -> dict[str, str]:
    """The topic files of ``names`` longer than ``max_bytes`` bytes of UTF-8, each to a name
    that fits and that no other name, none of ``taken`` and no other such rename takes (old →
    new). One that no name can fit (a limit too small for ``~`` and a hash) is left out."""
    listed = list(names)
    kept = KeptNames([*listed, *taken])  # the names folded once, each rename added
    renames: dict[str, str] = {}
    for name in listed:
        if len(name.encode("utf-8", "surrogateescape")) <= max_bytes or not is_topic_file(name):
            continue
        fitted = kept.fit(name, max_bytes)
        if fitted is not None:
            renames[name] = fitted
    return renames


def held_cuts(base: Collection[str], held: Collection[str], max_bytes: int) -> dict[str, str]:
    """The topic files of ``base`` (the files a copy sent its change from) whose names are
    longer than ``max_bytes`` bytes of UTF-8, each to the name this side, whose disk takes no
    more, keeps it under: its plain cut (:func:`~memory_core.scope_merge.fitted_name` with no
    name taken), when ``held`` (this side's files) does not hold the long name and ``base``
    does not hold the cut as a file of its own. The change is measured against that name: an
    edit of the long name is an edit of the cut file, not a new note under a free name
    (``…~523d24-2.md``), and a cut file deleted here stays deleted (R-2).

    >>> long = "é" * 100 + ".md"
    >>> held_cuts([long, "a.md"], ["a.md"], 143) == {long: fitted_name(long, 143, ())}
    True
    """
    cuts: dict[str, str] = {}
    for name in base:
        if len(name.encode("utf-8", "surrogateescape")) <= max_bytes or not is_topic_file(name):
            continue
        cut = fitted_name(name, max_bytes, ())
        if cut is not None and name not in held and cut not in base:
            cuts[name] = cut
    return cuts


def relinked_index(data: bytes, renames: Mapping[str, str]) -> bytes | None:
    """The index ``data`` with each link to a file of ``renames`` pointed at its new name,
    line endings kept; None when it is not UTF-8 (it is then left as it is)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    by_form = {unicodedata.normalize("NFC", old): new for old, new in renames.items()}
    lines = lines_with_ends(text)  # the one line rule (T-4): a U+2028 ends no line
    return "".join(rewrite_links(line, by_form) for line in lines).encode("utf-8")


def linking_lines(data: bytes, renames: Mapping[str, str]) -> dict[str, int]:
    """How many lines of the index ``data`` :func:`relinked_index` points at each file of
    ``renames`` (old name → count; 0 for one no line links to, every count 0 when the index
    is not UTF-8: it is then left as it is). One pass over the lines, however many files are
    renamed: a push or a fetch that cuts hundreds of names costs the index's length, not
    that times the renames (R-2)."""
    counts = dict.fromkeys(renames, 0)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return counts
    by_form: dict[str, str] = {}
    named: dict[str, list[str]] = {}  # a form → the names of ``renames`` it is
    for old, new in renames.items():
        form = unicodedata.normalize("NFC", old)
        by_form[form] = new
        named.setdefault(form, []).append(old)
    for line in lines_with_ends(text):  # each line read once, whatever the count of renames
        linked: set[str] = set()
        rewrite_links(line, by_form, linked=linked)
        for form in linked:
            for old in named[form]:
                counts[old] += 1
    return counts


_CUT_TAIL = re.compile(r"-[0-9]+$")


def is_cut_of(name: str, cut: str) -> bool:
    """Whether ``cut`` is ``name`` cut to fit a disk of shorter names by
    :func:`~memory_core.scope_merge.fitted_name`'s rule (its stem's head, ``~`` and six hex
    digits of the stem's hash, maybe ``-2`` …, ``.md``), at whatever limit: what a side whose
    disk takes fewer bytes keeps ``name`` as.

    >>> long = "é" * 100 + ".md"
    >>> is_cut_of(long, fitted_name(long, 143, ())), is_cut_of(long, "é.md")
    (True, False)
    """
    if cut == name or not cut.endswith(".md"):
        return False
    stem = name.removesuffix(".md")
    raw = stem.encode("utf-8", "surrogateescape")
    mark = "~" + hashlib.sha1(raw, usedforsecurity=False).hexdigest()[:6]
    body = _CUT_TAIL.sub("", cut.removesuffix(".md"))
    return body.endswith(mark) and stem.startswith(body.removesuffix(mark))


def shortened_line(old: str, new: str, max_bytes: int, disk: str, links: int) -> str:
    """The outcome line of ``old`` kept as ``new`` because ``disk`` (``this machine's disk``,
    ``the service's disk``) takes names of at most ``max_bytes`` bytes; names as a listing
    shows them (:func:`~memory_core.shown_names.shown_name`). ``links``: how many index lines
    were pointed at ``new`` (:func:`linking_lines`); said only when there are some."""
    size = len(old.encode("utf-8", "surrogateescape"))
    said = (
        f"{shown_name(old)[:120]} takes {size} bytes, more than {disk} takes in a name "
        f"({max_bytes}): it is kept as {shown_name(new)} on every copy"
    )
    if links:
        said += f", {links} index line{'' if links == 1 else 's'} pointing there"
    return said
