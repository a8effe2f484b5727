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
from collections.abc import Callable, Mapping
from pathlib import Path

from harness_memory.hooks.option_words import (
    CP_FOLLOWING,
    CP_KEEPING,
    CP_LINKING,
    CP_TREE,
    cp_flags,
    read_options,
    table_for,
)
from harness_memory.hooks.synced_trees import SYNCERS, synced

__all__ = [
    "LINKS_CAP",
    "LINK_MAKERS",
    "TREE_CAP",
    "MadeLink",
    "MadeLinks",
    "add_links",
    "followed",
    "made_links",
    "unknown_below",
    "unknown_link",
]

LINK_MAKERS = frozenset({"ln", "cp", "mv", *SYNCERS})
"""Commands that may make links: ``ln`` (hard, or symbolic with ``-s``), ``cp -s``/``-l``, and
``mv``, ``cp -a``/``-P``/``-r``, ``rsync -a``/``-l`` or ``pax -rw`` of a symbolic link (or a
folder holding one): its target, read from its new folder, may lead elsewhere."""
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
    a program printing folders), ``text`` what a symbolic link holds (None for a hard link:
    moved, it still names its file), ``why`` what made a place unknown other than a target
    built at run time (a folder too big to read for its links), for the refusal. A plain
    class, like the other hook records (H-5)."""

    __slots__ = ("place", "spelt", "text", "why")

    def __init__(
        self, place: str | None, spelt: str, text: str | None = None, why: str | None = None
    ) -> None:
        self.place = place
        self.spelt = spelt
        self.text = text
        self.why = why


def _folded(path: str) -> str:
    """``path`` with ``//`` and ``/./`` folded as the kernel reads them; ``..`` kept (after a
    link, the kernel takes ``..`` from where the link leads)."""
    parts = [part for part in path.split("/") if part not in ("", ".")]
    return "/" + "/".join(parts)


class MadeLinks(dict[str, "MadeLink"]):
    """The links a command made so far, keyed by every spelling of each (:func:`made_links`),
    with the real paths of the places they were looked up for while the command is read
    (``real``: path to ``os.path.realpath``'s answer, None for a name no file can have). The
    guard reads the disk and never writes it, so one lookup per distinct path holds for the
    whole command, and the next command reads the disk again."""

    __slots__ = ("real",)

    def __init__(self) -> None:
        super().__init__()
        self.real: dict[str, str | None] = {}


def _real(path: str, links: Mapping[str, MadeLink]) -> str | None:
    """``os.path.realpath(path)``, once per distinct path for the command's links (a
    :class:`MadeLinks`); None for a path no file can have (a NUL)."""
    known = links.real if isinstance(links, MadeLinks) else {}
    if path not in known:
        try:
            known[path] = os.path.realpath(path)
        except (OSError, ValueError):  # a NUL (an unknown folder), a name no file can have
            known[path] = None
    return known[path]


def _spellings(path: str, links: Mapping[str, MadeLink], *, whole: bool = True) -> set[str]:
    """The absolute ``path`` as the links' keys may spell it: folded, normalised (``..``
    taken back lexically), with the folders on its way that exist resolved and, ``whole``,
    its last name too (a link's own name is not: it may be replaced). The folders are looked
    up once per command (:func:`_real`, ``links`` the command's)."""
    spelt = {_folded(path), os.path.normpath(path)}
    head, _, name = _folded(path).rpartition("/")
    if (real_head := _real(head or "/", links)) is None:
        return spelt
    spelt.add(f"{real_head.rstrip('/')}/{name}")
    if whole and (real := _real(path, links)) is not None:
        spelt.add(real)
    return spelt


def _options(command: str, words: list[str]) -> tuple[list[str], str | None, set[str]]:
    """The plain operands of ``ln``/``cp`` ``words``, its ``-t`` folder and its flags (the
    letters of short options, the long options' names), read by
    :func:`~harness_memory.hooks.option_words.read_options`."""
    read = read_options(words, table_for(command), ("-t", "--target-directory"))
    folders = [value for name, _, value in read.values if name in ("-t", "--target-directory")]
    flags = cp_flags(words) if command == "cp" else read.flags
    return [words[at] for at in read.operands], (folders[-1] if folders else None), flags


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


def _readings(
    place: str, links: Mapping[str, MadeLink], flags: set[str], replaced: bool
) -> tuple[bool, ...]:
    """Whether a link made at ``place`` goes into it (True), is ``place`` itself (False), or
    either: a folder there now that the command may have removed, moved or replaced before
    (``replaced``: ``rm -rf d && ln -s ../notes d``, where ``ln`` then makes ``d`` itself)."""
    if flags & {"T", "--no-target-directory"}:
        return (False,)
    if place.endswith("/"):
        return (True,)
    into = _into(place, links, flags)
    return (True, False) if into and replaced else (into,)


TREE_CAP = 50_000
"""How many entries of a folder a move or a link-keeping copy takes are read for the
symbolic links it holds (``os.scandir`` reads 100,000 in about 0.1 s on a loaded machine:
an everyday ``public/`` or ``node_modules`` tree fits); past it the whole new folder is
taken as leading to a place known only at run time (its ``spelt`` says so)."""


def _kept(
    link: str, source: str, expanded: str | None, base: str, links: Mapping[str, MadeLink]
) -> MadeLink | None:
    """The link ``mv`` or a link-keeping ``cp`` leaves at ``link`` from the source ``source``
    (``expanded``: None when built at run time, a relative one from ``base``) when it is a
    symbolic link, on the disk or made earlier in the command (``links``): its text, now
    read from ``link``'s folder (a relative one moved elsewhere leads elsewhere); a source
    built at run time may be any link. None for a source that is no link."""
    if expanded is None:
        return MadeLink(None, source)
    path = os.path.join(base, expanded)  # noqa: PTH118
    made = next((links[key] for key in _spellings(path, links, whole=False) if key in links), None)
    if made is not None and (made.place is None or made.text is None):
        return made  # a place known only at run time, or a hard link: the same file
    try:
        text = made.text if made is not None and made.text else os.readlink(path)  # noqa: PTH115
    except (OSError, ValueError):
        return None
    return MadeLink(os.path.join(os.path.dirname(_folded(link)), text), text, text)  # noqa: PTH118,PTH120


def _tree_links(
    link: str, folder: str, links: Mapping[str, MadeLink]
) -> dict[str, MadeLink] | None:
    """The symbolic links below the folder ``folder`` (absolute) as they stand below ``link``
    once the tree is moved or copied there, keyed by every spelling (a relative target read
    from its new folder); None past :data:`TREE_CAP` entries or when a folder cannot be
    listed (a read error never widens access)."""
    made: dict[str, MadeLink] = {}
    seen = 0
    stack = [("", folder)]
    while stack:
        inner, here = stack.pop()
        try:
            entries = list(os.scandir(here))
        except OSError:
            return None
        seen += len(entries)
        if seen > TREE_CAP:
            return None
        for entry in entries:
            at = f"{link.rstrip('/')}/{inner}{entry.name}"
            if entry.is_symlink():
                target = os.readlink(entry.path)  # noqa: PTH115
                place = os.path.join(os.path.dirname(_folded(at)), target)  # noqa: PTH118,PTH120
                kept = MadeLink(place, target, target)
                made.update(dict.fromkeys(_spellings(at, links, whole=False), kept))
            elif entry.is_dir(follow_symlinks=False):
                stack.append((f"{inner}{entry.name}/", entry.path))
    return made


def _carried(link: str, source: str, links: Mapping[str, MadeLink]) -> dict[str, MadeLink]:
    """The links made earlier in the command (``links``) below the folder ``source``
    (absolute), as they stand below ``link`` once ``mv`` or a tree-copying ``cp`` takes the
    folder there: ``ln -s ../notes d/up && mv d e`` leaves ``e/up`` leading where
    ``../notes`` leads from ``e``. A symbolic link's text is read from its new folder; a
    hard link, or one to a place known only at run time, stays what it was."""
    made: dict[str, MadeLink] = {}
    heads = {spelled.rstrip("/") + "/" for spelled in _spellings(source, links)}
    for key, each in links.items():
        head = next((head for head in heads if key.startswith(head)), None)
        if head is None:
            continue
        at = f"{link.rstrip('/')}/{key[len(head) :]}"
        moved = each
        if each.place is not None and each.text is not None:
            place = os.path.join(os.path.dirname(_folded(at)), each.text)  # noqa: PTH118,PTH120
            moved = MadeLink(place, each.text, each.text)
        made.update(dict.fromkeys(_spellings(at, links, whole=False), moved))
    return made


def _whole_tree(
    link: str, source: str, moved: str, links: Mapping[str, MadeLink]
) -> dict[str, MadeLink]:
    """The links a folder ``moved`` (absolute; ``source`` as written) leaves below ``link``
    once moved or copied there: those on the disk (:func:`_tree_links`) and those the
    command made in it before (:func:`_carried`); past :data:`TREE_CAP` entries, or a folder
    that cannot be listed, the whole new folder leads to a place known only at run time."""
    made = _carried(link, moved, links)
    if not os.path.isdir(moved):  # noqa: PTH112
        return made
    inner = _tree_links(link, moved, links)
    if inner is None:
        why = f"{source}, a folder of over {TREE_CAP} entries the guard does not read for links"
        return dict.fromkeys(_spellings(link, links, whole=False), MadeLink(None, source, why=why))
    return {**inner, **made}


def _operands(command: str, plain: list[str], folder: str | None) -> tuple[list[str], str | None]:
    """The sources and destination of ``ln``/``cp``/``mv`` by their plain operands and
    ``-t`` folder: ``ln x`` links into the shell's folder; ``cp x``/``mv x`` make nothing."""
    if folder is not None:
        return plain, folder
    if len(plain) == 1:
        return (plain, ".") if command == "ln" else ([], None)
    return plain[:-1], plain[-1] if plain else None


def made_links(
    command: str,
    words: list[tuple[str, str | None]],
    base: str,
    links: Mapping[str, MadeLink],
    *,
    replaced: Callable[[str], bool] | None = None,
) -> dict[str, MadeLink]:
    """The links ``command`` (``ln``, ``cp``, ``mv``) run in ``base`` with ``words`` (each as
    written and expanded: None when built at run time, a relative one from ``base``) makes,
    after ``links`` (the command's so far), keyed by every spelling of the link's absolute
    path; empty when it makes none (a ``cp`` keeping no link). ``replaced`` tells whether an
    absolute place may have been removed, moved or replaced earlier in the command: a folder
    there is then taken both ways, as the folder and as the link's own name. ``mv`` and a
    link-keeping ``cp`` (:data:`~harness_memory.hooks.option_words.CP_KEEPING`) make, of a
    source that is a symbolic link, a link leading where its target, read from its new
    folder, leads, and of a folder, every link it holds or the command made in it before
    (:func:`_whole_tree`)."""
    if command in SYNCERS:
        return _synced_links(command, words, base, links)
    spelt = dict(words)
    plain, folder, flags = _options(command, [word for word, _ in words])
    symbolic = bool(flags & {"s", "--symbolic", *CP_LINKING} - {"l", "--link"})
    hard = command == "ln" or bool(flags & {"l", "--link"})
    keeping = command == "mv" or (bool(flags & CP_KEEPING) and not flags & CP_FOLLOWING)
    keeping = keeping or (command == "ln" and not flags & {"L", "--logical"})
    if command == "cp" and not (symbolic or hard or keeping):
        return {}
    sources, destination = _operands(command, plain, folder)
    if destination is None or spelt.get(destination, destination) is None:
        return {}  # a destination built at run time: refused as a write already
    place = os.path.join(base, spelt.get(destination) or destination)  # noqa: PTH118
    if folder is not None or len(plain) == 1 or len(sources) > 1:
        readings: tuple[bool, ...] = (True,)
    else:
        readings = _readings(place, links, flags, replaced is not None and replaced(place))
    tree = command == "mv" or bool(flags & CP_TREE)
    made: dict[str, MadeLink] = {}
    for source, into in ((source, into) for source in sources for into in readings):
        expanded = spelt.get(source, source)
        name = expanded.rstrip("/").rsplit("/", 1)[-1] if expanded is not None else None
        # into a folder under a name known only at run time: the whole folder
        link = f"{place.rstrip('/')}/{name}" if into and name is not None else place
        kept = _kept(link, source, expanded, base, links) if keeping and not symbolic else None
        if kept is not None and (kept.place is not None or not hard):
            # ``mv sub/rel l``, ``cp -P``, ``ln sub/rel l``: the link copied, moved or
            # hard-linked as a link, its target read from its new folder
            made.update(dict.fromkeys(_spellings(link, links, whole=False), kept))
        elif symbolic or hard:
            target: str | None = None
            if expanded is not None:
                start = os.path.dirname(_folded(link)) if symbolic else base  # noqa: PTH120
                target = os.path.join(start, expanded)  # noqa: PTH118
            text = expanded if symbolic else None
            made.update(
                dict.fromkeys(_spellings(link, links, whole=False), MadeLink(target, source, text))
            )
        elif tree and expanded is not None:
            moved = os.path.join(base, expanded)  # noqa: PTH118
            made.update(_whole_tree(link, source, moved, links))
    return made


def _synced_place(place: str, source: str, expanded: str, how: str) -> list[str]:
    """Where a source ``expanded`` (``source`` as written) of ``rsync``/``pax -rw`` lands in
    the destination ``place`` (absolute), by ``how`` (:class:`~harness_memory.hooks.
    synced_trees.Synced`): a lone file or link with no folder there is ``place`` itself; a
    folder there, or one ``place``'s ``/`` names, takes it by its last name."""
    name = expanded.rstrip("/").rsplit("/", 1)[-1] or source
    if how == "fills":
        return [place]
    if how == "path":
        return [f"{place.rstrip('/')}/{_folded(expanded).lstrip('/')}"]
    into = f"{place.rstrip('/')}/{name}"
    if how == "into" or place.endswith("/") or os.path.isdir(place):  # noqa: PTH112
        return [into]
    return [place, into]  # rsync makes the folder for a source that is one; either way


def _synced_links(
    command: str, words: list[tuple[str, str | None]], base: str, links: Mapping[str, MadeLink]
) -> dict[str, MadeLink]:
    """The links ``rsync`` or ``pax -rw`` (:mod:`~harness_memory.hooks.synced_trees`) run in
    ``base`` with ``words`` (as written and expanded) leaves when it keeps links as links: of
    a source that is a symbolic link, one leading where its target, read from its new folder,
    leads (:func:`_kept`); of a folder, every link it holds or the command made in it
    (:func:`_whole_tree`); a source built at run time or not shown (a list, another host) may
    be any link: the whole destination then leads to a place known only at run time."""
    spelt = dict(words)
    read = synced(command, [word if value is None else value for word, value in words])
    destination = read.destination
    if destination is None or spelt.get(destination, "") is None:
        return {}  # a destination built at run time: refused as a write already
    place = os.path.join(base, destination)  # noqa: PTH118
    made: dict[str, MadeLink] = {}
    for folder in read.linked_from[-1:]:  # ``--link-dest=../notes``: from the destination
        built = "$" in folder or "`" in folder
        real = os.path.realpath(place)  # the kernel takes ``..`` from where it leads
        linked = None if built else os.path.normpath(os.path.join(real, folder))  # noqa: PTH118
        made.update(dict.fromkeys(_spellings(place, links, whole=False), MadeLink(linked, folder)))
    if len(read.linked_from) > 1:  # which one a file is linked from is known at run time
        why = f"{destination}, whose files {command} links from {len(read.linked_from)} folders"
        made.update(
            dict.fromkeys(_spellings(place, links, whole=False), MadeLink(None, why, why=why))
        )
    if not read.keeps_links:
        return made
    if read.unknown is not None:
        why = f"{destination}, which {command} fills with {read.unknown}"
        made.update(
            dict.fromkeys(_spellings(place, links, whole=False), MadeLink(None, why, why=why))
        )
    for source, how in read.copies:
        expanded = source  # the words given to :func:`synced` are already expanded
        if any(value is None and word == source for word, value in words):
            made.update(
                dict.fromkeys(_spellings(place, links, whole=False), MadeLink(None, source))
            )
            continue
        for link in _synced_place(place, source, expanded, how):
            kept = _kept(link, source, expanded.rstrip("/"), base, links)
            if kept is not None and how != "fills":
                made.update(dict.fromkeys(_spellings(link, links, whole=False), kept))
            else:
                moved = os.path.join(base, expanded)  # noqa: PTH118
                made.update(_whole_tree(link, source, moved, links))
    return made


def add_links(into: dict[str, MadeLink], made: Mapping[str, MadeLink]) -> None:
    """Add the links ``made`` (by :func:`made_links`) to ``into``, the command's so far; past
    :data:`LINKS_CAP` links, one at ``/`` to a place known only at run time stands for all."""
    into.update(made)
    if len({id(link) for link in into.values()}) > LINKS_CAP:
        into.clear()
        into["/"] = MadeLink(None, "$")


def _through(path: str, links: Mapping[str, MadeLink]) -> list[tuple[MadeLink, str]]:
    """Each made link ``path`` lies at or below (a place taken two ways gives two), with the
    rest of ``path`` after the link."""
    found: list[tuple[MadeLink, str]] = []
    for spelled in _spellings(path, links):
        for key, link in links.items():
            if spelled == key or spelled.startswith(key.rstrip("/") + "/"):
                found.append((link, spelled[len(key.rstrip("/")) :]))
    return found


def followed(path: str, links: Mapping[str, MadeLink]) -> tuple[list[str], MadeLink | None]:
    """The places the absolute ``path`` leads to through the links made so far (literal
    targets joined in, as the kernel follows them; ``path`` itself not among them), and a
    made link with a target built at run time it passes through, if any. Every link it may
    pass through is followed, at most :data:`_CHAIN_CAP` deep and :data:`LINKS_CAP` places
    in all; past either the path is taken as leading to a place known only at run time."""
    places: list[str] = []
    current = [path]
    for _ in range(_CHAIN_CAP):
        found = [each for at in current for each in _through(at, links)] if links else []
        if not found:
            return places, None
        for link, _rest in found:
            if link.place is None:
                return places, link
        current = list(dict.fromkeys(link.place + rest for link, rest in found if link.place))
        places.extend(current)
        if len(places) > LINKS_CAP:
            break
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
    for spelled in _spellings(folder, links):
        for key, link in links.items():
            if link.place is None and key.startswith(spelled.rstrip("/") + "/"):
                return link
    return None
