"""The links a shell command makes for its own later words (P-3).

``ln -s "$(cat target)" lnk && echo x > lnk/a.md`` writes through ``lnk`` into whatever
``target`` names, but when the guard answers, ``lnk`` does not exist: judged on the disk,
``lnk/a.md`` was a plain Workspace path, and bash wrote into another scope. The guard reads
each link a command makes (``ln``, ``ln -s``, ``cp -s``, ``cp -l``) as the kernel will take it
for the words after it:

- a link whose target the shell builds at run time (``$(…)``, a variable set from one) is a
  :class:`MadeLink` with ``place`` None: a later write, unpack, move or ``cd`` through it
  lands in a place known only when the command runs, like ``cd "$(cat f)"``'s folder;
- a link with a literal target leads where the kernel resolves that target: a symbolic
  link's relative target from the link's own folder, a hard link's source from the shell's
  folder; a later word through it is judged there too (:func:`followed`).

A link whose name the command does not show (``ln -s -t DIR "$(cat f)"``, or into an
existing folder: the link takes its target's last name there) is taken as the whole folder
it is made in. Pure text and path work, no process started; the folders are looked up
(``realpath``, ``isdir``) as they are when the guard answers.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from harness_memory.hooks.option_words import read_options, table_for

__all__ = [
    "LINKS_CAP",
    "LINK_MAKERS",
    "MadeLink",
    "add_links",
    "followed",
    "made_links",
    "unknown_below",
    "unknown_link",
]

LINK_MAKERS = frozenset({"ln", "cp"})
"""Commands that may make links: ``ln`` (hard, or symbolic with ``-s``), ``cp -s``/``-l``."""
LINKS_CAP = 64
"""How many links one command's made links are kept for; past it every path is taken as
passing through a link to a place known only at run time (each word is compared with every
link kept: a cap keeps that linear, as :data:`~harness_memory.hooks.tool_targets._FOLDERS_CAP`
does for ``cd``)."""
_CHAIN_CAP = 8
"""How many made links one path is followed through at most (``a`` to ``b`` to …); past it
the path is taken as leading to a place known only at run time."""


class MadeLink:
    """A link a command makes: ``place`` is the absolute path it leads to (None: built at run
    time), ``spelt`` its target as written (for a ``cd`` through it: read from data or from
    a program printing folders). A plain class, like the other hook records (H-5)."""

    __slots__ = ("place", "spelt")

    def __init__(self, place: str | None, spelt: str) -> None:
        self.place = place
        self.spelt = spelt


def _folded(path: str) -> str:
    """``path`` with ``//`` and ``/./`` folded as the kernel reads them; ``..`` kept (after a
    link, the kernel takes ``..`` from where the link leads)."""
    parts = [part for part in path.split("/") if part not in ("", ".")]
    return "/" + "/".join(parts)


def _spellings(path: str, *, whole: bool = True) -> set[str]:
    """The absolute ``path`` as the links' keys may spell it: folded, normalised (``..``
    taken back lexically), with the folders on its way that exist resolved and, ``whole``,
    its last name too (a link's own name is not: it may be replaced)."""
    spelt = {_folded(path), os.path.normpath(path)}
    head, _, name = _folded(path).rpartition("/")
    try:
        spelt.add(f"{os.path.realpath(head or '/').rstrip('/')}/{name}")
        if whole:
            spelt.add(os.path.realpath(path))
    except (OSError, ValueError):  # a NUL (an unknown folder), a name no file can have
        pass
    return spelt


def _options(command: str, words: list[str]) -> tuple[list[str], str | None, set[str]]:
    """The plain operands of ``ln``/``cp`` ``words``, its ``-t`` folder and its flags (the
    letters of short options, the long options' names), read by
    :func:`~harness_memory.hooks.option_words.read_options`."""
    read = read_options(words, table_for(command), ("-t", "--target-directory"))
    folders = [value for name, _, value in read.values if name in ("-t", "--target-directory")]
    return [words[at] for at in read.operands], (folders[-1] if folders else None), read.flags


def _into(place: str, links: Mapping[str, MadeLink], flags: set[str]) -> bool:
    """Whether a link made at ``place`` (absolute, a ``/`` at its end kept) goes into it as
    into a folder, as ``ln`` decides when it runs: a folder there, or a symlink to one on the
    disk or made earlier (one to a place known only at run time may be), unless ``-T``, or
    ``-n`` for a symlink (then replaced)."""
    if flags & {"T", "--no-target-directory"}:
        return False
    if place.endswith("/"):
        return True
    no_dereference = bool(flags & {"n", "--no-dereference"})
    disk = Path(place)
    try:
        if no_dereference and disk.is_symlink():
            return False
        if disk.is_dir():
            return True
    except (OSError, ValueError):
        return True  # cannot be looked at: taken as the folder, the wider reading
    if no_dereference:
        return False
    places, unknown = followed(place, links)
    return unknown is not None or any(Path(each).is_dir() for each in places)


def made_links(
    command: str,
    words: list[tuple[str, str | None]],
    base: str,
    links: Mapping[str, MadeLink],
) -> dict[str, MadeLink]:
    """The links ``command`` (``ln`` or ``cp``) run in ``base`` with ``words`` (each as
    written and expanded: None when built at run time, a relative one from ``base``) makes,
    after ``links`` (the command's so far), keyed by every spelling of the link's absolute
    path; empty when it makes none (a ``cp`` without ``-s``/``-l``)."""
    spelt = dict(words)
    plain, folder, flags = _options(command, [word for word, _ in words])
    symbolic = bool(flags & {"s", "--symbolic", "--symbolic-link"})
    hard = command == "ln" or bool(flags & {"l", "--link"})
    if command == "cp" and not (symbolic or hard):
        return {}
    destination: str | None
    if folder is None and len(plain) == 1:
        sources, destination = plain, "."
    elif folder is None:
        sources, destination = plain[:-1], plain[-1] if plain else None
    else:
        sources, destination = plain, folder
    if destination is None or spelt.get(destination, destination) is None:
        return {}  # a destination built at run time: refused as a write already
    place = os.path.join(base, spelt.get(destination) or destination)  # noqa: PTH118
    into = folder is not None or len(plain) == 1 or len(sources) > 1
    into = into or _into(place, links, flags)
    made: dict[str, MadeLink] = {}
    for source in sources:
        expanded = spelt.get(source, source)
        name = expanded.rstrip("/").rsplit("/", 1)[-1] if expanded is not None else None
        # into a folder under a name known only at run time: the whole folder
        link = f"{place.rstrip('/')}/{name}" if into and name is not None else place
        target: str | None = None
        if expanded is not None:
            start = os.path.dirname(_folded(link)) if symbolic else base  # noqa: PTH120
            target = os.path.join(start, expanded)  # noqa: PTH118
        for key in _spellings(link, whole=False):
            made[key] = MadeLink(target, source)
    return made


def add_links(into: dict[str, MadeLink], made: Mapping[str, MadeLink]) -> None:
    """Add the links ``made`` (by :func:`made_links`) to ``into``, the command's so far; past
    :data:`LINKS_CAP` links, one at ``/`` to a place known only at run time stands for all."""
    into.update(made)
    if len({id(link) for link in into.values()}) > LINKS_CAP:
        into.clear()
        into["/"] = MadeLink(None, "$")


def _through(path: str, links: Mapping[str, MadeLink]) -> tuple[MadeLink, str] | None:
    """The made link ``path`` lies at or below, and the rest of it after the link."""
    for spelled in _spellings(path):
        for key, link in links.items():
            if spelled == key or spelled.startswith(key.rstrip("/") + "/"):
                return link, spelled[len(key.rstrip("/")) :]
    return None


def followed(path: str, links: Mapping[str, MadeLink]) -> tuple[list[str], MadeLink | None]:
    """The places the absolute ``path`` leads to through the links made so far (literal
    targets joined in, as the kernel follows them; ``path`` itself not among them), and the
    made link with a target built at run time it passes through, if any."""
    places: list[str] = []
    current = path
    for _ in range(_CHAIN_CAP):
        found = _through(current, links) if links else None
        if found is None:
            return places, None
        link, rest = found
        if link.place is None:
            return places, link
        current = link.place + rest
        places.append(current)
    return places, MadeLink(None, path)  # a chain too long to follow: unknown


def unknown_link(path: str, links: Mapping[str, MadeLink]) -> MadeLink | None:
    """The made link with a target built at run time that the absolute ``path`` passes
    through (at it, or below it), or None."""
    return followed(path, links)[1] if links else None


def unknown_below(folder: str, links: Mapping[str, MadeLink]) -> MadeLink | None:
    """A made link with a target built at run time at the absolute ``folder``, below it or
    on its way (what is unpacked there may pass through it), or None."""
    if not links:
        return None
    if (link := unknown_link(folder, links)) is not None:
        return link
    for spelled in _spellings(folder):
        for key, link in links.items():
            if link.place is None and key.startswith(spelled.rstrip("/") + "/"):
                return link
    return None
