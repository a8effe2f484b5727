"""Where an install keeps the bearer token: never inside a git work tree (H-7).

The token file lies in the install's state folder beside the harness's settings
(``~/.claude/harness-memory/token``), whose ``.gitignore`` (``*``) leaves it out of
``git add -A``. A settings folder kept in a dotfiles repository (``~/.codex`` linked into
``~/dotfiles``, a home that is itself a work tree) still took it into a commit by ``git add
-f``, by ``git add -A`` under another ignore setup, or by ``git commit -a`` once it had been
tracked: no ignore rule stops those. So when the state folder lies in a git work tree (a
folder at or above it, as written or with its symlinks resolved, holds ``.git``), the token
file goes into the user's config folder instead (``$XDG_CONFIG_HOME``, by default
``~/.config``: ``harness-memory/tokens/<settings folder>-<digest>``, ``0600`` in ``0700``
folders) and the hook commands name it there with ``--token-file``; a token file an earlier
install left in the work tree is removed, unless other installed hooks still read it
(:func:`still_read`: Claude Code's managed hooks share ``~/.claude/harness-memory``), and only
where the plugin writes tokens (:func:`plugin_token_file`). When that folder lies in a work
tree too, the install refuses, naming both and what to do (:class:`TokenPlaceError`): nothing
is written.

A work tree is one of any form :func:`~harness_memory.installers.work_trees.work_tree_of`
finds: also one whose repository lies elsewhere (a "bare repository dotfiles" home, ``git
--git-dir=~/.dotfiles --work-tree=~``; yadm, vcsh, ``core.worktree``; ``GIT_DIR``/
``GIT_WORK_TREE`` in the environment), which shows no ``.git`` on the way. Such a work tree
holding the whole home holds the config folder too, and there is no place in the home outside
it: the token is kept in the config folder's ``harness-memory/tokens/`` all the same, whose
``.gitignore`` (``*``, :data:`TOKENS_IGNORE_TEXT`) leaves it out of that repository's ``add``
of the folder (``dotfiles add ~/.config``), while ``add -u`` and ``commit -a`` take only files
already tracked; ``add -f`` still could take it, which a warning says, naming the repository
and how it was found (:func:`home_tree_warning`). A ``.git`` at or above the config folder (an
ordinary repository, ``~/.git`` of ``--separate-git-dir``) is refused as before, as is a work
tree kept elsewhere that holds the config folder but not the whole home.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import stat
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from harness_memory.installers.files import FileChange, SettingsFileError, mode_of, read_text
from harness_memory.installers.own_names import held_here, shared_token
from harness_memory.installers.record import (
    IGNORE_NAME,
    STATE_FOLDER,
    TOKEN_NAME,
    InstallRecord,
    removal_command,
)
from harness_memory.installers.secrets import folder_kept_open, folder_left_open, private_mode
from harness_memory.installers.work_trees import WorkTree, work_tree_of
from harness_memory.settings import (
    MANAGED_TOKEN_SET,
    TOKENS_FOLDER,
    account_state_dir,
    token_kept_outside,
    token_service,
    token_service_file,
)

if TYPE_CHECKING:
    from harness_memory.installers import InstallOptions
    from harness_memory.installers.status import InstalledHooks

__all__ = [
    "TOKENS_FOLDER",
    "TOKENS_IGNORE_TEXT",
    "TokenPlaceError",
    "config_home",
    "emptied_tokens_folder",
    "foreign_token_said",
    "home_tree_warning",
    "hooks_token_file",
    "hooks_token_plan",
    "left_token_said",
    "linked_folders_said",
    "lone_tokens_ignore",
    "outside_token",
    "own_token_file",
    "plugin_token_file",
    "refused_by_other_readers",
    "still_read",
    "token_file_place",
    "token_place",
    "token_plan",
    "token_readers",
    "token_shaped",
    "token_url_readers",
    "token_urls",
    "tokens_folder",
    "unlinked_folders",
    "users_file_refused",
]


TOKENS_IGNORE_TEXT = "# harness-memory: bearer tokens, never to be committed\n*\n"
"""The ``.gitignore`` of a ``harness-memory/tokens`` folder: git leaves out everything in it,
itself too, so a dotfiles repository's ``add ~/.config`` (or ``add -A``) takes no token; only
``add -f`` would."""


class TokenPlaceError(SettingsFileError):
    """Every place an install (or ``token set``) could keep the token lies in a git work tree
    (H-7); the message names them and what to do, never the token. Raised before anything is
    written."""


def plugin_token_file(path: Path, tokens: Path | None) -> bool:
    """Whether ``path`` is where this install itself writes a token: a state folder's token
    file (``<settings folder>/harness-memory/token``) or one in ``tokens``, the tokens folder
    an install keeps tokens in for the home and environment as resolved now
    (:func:`tokens_folder`: ``<config home>/harness-memory/tokens``, kept out of a git work
    tree), named as an install names it there (``<settings folder>-<12 hex digits>``,
    :func:`token_place`). Only such a file is ever removed or replaced as a stale token: an
    install record or a hook command naming any other file (``~/.ssh/id_ed25519``, a
    ``harness-memory/tokens/deploy`` of a repository's own, a file of that name in another
    user's or an earlier config home's ``harness-memory/tokens``) removes nothing (H-7, A-10);
    ``tokens`` None (not known): no file there is.

    The folder is compared with its symlinks resolved, as the kernel opens it (the config home
    is the user's, often itself a link). The ``harness-memory/tokens`` form is judged without
    following a symlink (``lstat``): both folders must be real folders and the file a regular
    file, not a link. A dotfiles repository making ``tokens`` (or ``harness-memory``) a
    symlink to a folder of its own, or the file a link to one, puts there what the plugin never
    wrote: a record naming it removes nothing. Never raises ``OSError``."""
    if path.parent.name == STATE_FOLDER and path.name == TOKEN_NAME:
        return True
    return tokens is not None and token_shaped(path) and _same_folder(path.parent, tokens)


def token_shaped(path: Path) -> bool:
    """Whether ``path`` is a regular file (``lstat``) named as an install names a token file
    (``<settings folder>-<12 hex digits>``) in real ``harness-memory/tokens`` folders, in any
    config home: what an install or uninstall names when it leaves one that is not its own
    (:func:`plugin_token_file`), never what it removes. Never raises ``OSError``."""
    if not _named_like_a_kept_token(path):
        return False
    return (
        _is_real(path.parent.parent, stat.S_ISDIR)
        and _is_real(path.parent, stat.S_ISDIR)
        and _is_real(path, stat.S_ISREG)
    )


def _named_like_a_kept_token(path: Path) -> bool:
    """Whether ``path`` is named as an install names a token file it keeps outside a state
    folder: ``harness-memory/tokens/<settings folder>-<12 hex digits>`` (by its text alone)."""
    return path.parent.parts[-2:] == TOKENS_FOLDER and bool(_PLACE_NAME_RE.fullmatch(path.name))


def tokens_folder(home: Path, environ: Mapping[str, str]) -> Path:
    """``<config home>/harness-memory/tokens`` (:func:`config_home` of ``home`` and
    ``environ``): the one folder where an install keeps token files outside a git work tree,
    and the only one whose token files it may replace or remove (:func:`plugin_token_file`)."""
    return config_home(home, environ).joinpath(*TOKENS_FOLDER)


def _same_folder(one: Path, other: Path) -> bool:
    """Whether the folders ``one`` and ``other`` are one, their symlinks resolved (as the
    kernel opens them); False when either cannot be resolved (a read error never widens)."""
    try:
        return os.path.realpath(one, strict=True) == os.path.realpath(other, strict=True)
    except (OSError, ValueError):
        return False


_PLACE_NAME_RE = re.compile(r"[A-Za-z0-9_-]{0,32}-[0-9a-f]{12}")
"""The name of a token file an install keeps in a tokens folder (:func:`_outside_place`)."""


def lone_tokens_ignore(folder: Path) -> Path | None:
    """The ``.gitignore`` of the ``harness-memory/tokens`` folder ``folder`` when it is all the
    folder holds and what an install writes there (:data:`TOKENS_IGNORE_TEXT`, a regular
    file): once the tokens are gone, nothing is left to ignore, and an uninstall removes it with
    the folder. None otherwise (another file there, the user's own text). Never raises
    ``OSError``."""
    ignore = folder / IGNORE_NAME
    if folder.parts[-2:] != TOKENS_FOLDER or not _is_real(folder, stat.S_ISDIR):
        return None  # a link to a folder: nothing is removed through it
    if not _is_real(ignore, stat.S_ISREG):
        return None
    try:
        if [entry.name for entry in os.scandir(folder)] != [IGNORE_NAME]:
            return None
        return ignore if ignore.read_text(encoding="utf-8") == TOKENS_IGNORE_TEXT else None
    except (OSError, UnicodeDecodeError):
        return None


def unlinked_folders(folders: list[Path]) -> list[Path]:
    """``folders`` (what an uninstall removes when they are left empty: those an install made,
    the tokens folder of a settings folder, in their order) but any reached through a symlink
    below the folder the install made them in: the folder itself, every folder above it that
    is among ``folders`` too, and for a ``harness-memory/tokens`` folder its ``harness-memory``
    folder (below the config home, which is the user's and may be a link) must each be a real
    folder (``lstat``). A dotfiles setup that made ``~/.config/harness-memory`` (or ``tokens``)
    a link to a store of its own had the uninstall remove the store's ``.gitignore`` and
    folders through it (H-7, A-10). The one rule for an uninstall with its record and one with
    the record aside (:func:`emptied_tokens_folder`). Never raises ``OSError``."""
    made = set(folders)

    def unlinked(folder: Path) -> bool:
        above = {folder.parent} if folder.parts[-2:] == TOKENS_FOLDER else set()
        path = folder
        while path == folder or path in made or path in above:
            if not _is_real(path, stat.S_ISDIR):
                return False
            if path.parent == path:
                break
            path = path.parent
        return True

    return [folder for folder in folders if unlinked(folder)]


def linked_folders_said(folders: list[Path], removed: list[Path]) -> list[str]:
    """What an uninstall says of the folders an install made (``folders``, as
    :func:`unlinked_folders` is given them) that it leaves because a symlink lies on the way
    to them (not in ``removed``: what :func:`unlinked_folders` and :func:`emptied_tokens_folder`
    kept): ``CLAUDE_CONFIG_DIR=~/a/b/claude``, all three made by the install, then ``b`` moved
    to a store and linked back, has ``claude`` left; it was left without a word (H-7, A-10).
    The deepest of them only, each with the link; not a folder that is itself a link (the
    user's now). Never raises ``OSError``."""
    left = [
        folder
        for folder in folders
        if folder not in removed and _is_real(folder, stat.S_ISDIR) and folder.is_dir()
    ]
    said = []
    for folder in left:
        if any(other != folder and other.is_relative_to(folder) for other in left):
            continue  # its folder below is said, which holds the rest
        link = next((above for above in folder.parents if above.is_symlink()), None)
        if link is not None:
            said.append(
                f"left {folder}: a folder the install made, reached through the symlink "
                f"{link}, and nothing is removed through a link (A-10); once nothing in it is "
                "needed (an install's .gitignore, no token), remove it yourself"
            )
    return said


def _link_on_the_way(named: Path) -> Path | None:
    """The first symlink among the folders of the token file ``named`` below its settings or
    config folder (its ``harness-memory`` folder, then its ``tokens`` folder); None when there
    is none."""
    tokens_form = named.parent.parts[-2:] == TOKENS_FOLDER
    ways = [named.parent.parent, named.parent] if tokens_form else [named.parent]
    return next((way for way in ways if way.is_symlink()), None)


def _is_real(path: Path, kind: Callable[[int], bool]) -> bool:
    """Whether ``path`` itself (``lstat``: a symlink is never followed) is of ``kind``; False
    for a path no file can have (a NUL byte, a lone surrogate: ``ValueError``)."""
    try:
        return kind(path.lstat().st_mode)
    except (OSError, ValueError):
        return False


def own_token_file(path: Path, record: InstallRecord, tokens: Path | None) -> bool:
    """Whether ``path`` is the token file of the hooks of the settings folder ``record``
    belongs to, which an install may replace and an uninstall remove: its state folder's
    ``token``, or the place an install computes for it in the tokens folder ``tokens``
    (:func:`_outside_place`: the digest of the folder's path with its symlinks resolved; for
    a record from before, :attr:`~harness_memory.installers.record.InstallRecord.
    tokens_named_as_spelled`, also of the path as spelled) that is the plugin's
    (:func:`plugin_token_file`). An install record naming another settings folder's (one
    copied with ``cp -a``, a record edited; ``~/.claude`` linked to a copy of the folder it
    was when installed), or a file of that name in another tokens folder, names no token of
    its own (H-7, A-10). Never raises ``OSError`` nor ``ValueError``."""
    settings_folder = record.path.parent.parent
    state = settings_folder / STATE_FOLDER
    if path.absolute() == (state / TOKEN_NAME).absolute():
        return not state.is_symlink()  # nothing is removed through a link
    spellings = {_real_folder(settings_folder)}
    spellings |= {settings_folder.absolute()} if record.tokens_named_as_spelled else set()
    named = any(path == _outside_place(folder, path.parent) for folder in spellings)
    return named and plugin_token_file(path, tokens)


def _real_folder(folder: Path) -> Path:
    """``folder`` with its symlinks resolved (``CLAUDE_CONFIG_DIR`` spelled through a link to
    the folder an install was given); as spelled when that cannot be told."""
    try:
        return Path(os.path.realpath(folder))
    except (OSError, ValueError):
        return folder.absolute()


def foreign_token_said(record: InstallRecord, tokens: Path | None) -> list[str]:
    """What an install or uninstall says of the token file ``record`` names when it is not
    this settings folder's own (:func:`own_token_file` in ``tokens``, :func:`tokens_folder`)
    but reads like one of the plugin's (a state folder's ``token``, or :func:`token_shaped`):
    left, and why, with the command that removes it (:func:`left_token_said`). Empty
    otherwise; a record naming a file the plugin never writes (``~/.ssh/id_ed25519``) is not
    said either."""
    named = Path(record.token_file) if record.token_file else None
    if named is None:
        return []
    return left_token_said(named, record, tokens, "the install record names")


def left_token_said(named: Path, record: InstallRecord, tokens: Path | None, by: str) -> list[str]:
    """What an install or uninstall of the settings folder ``record`` belongs to says of a
    token file ``named`` (by ``by``: "the install record names", "the hooks name") that it
    leaves as not its own: a regular file itself (``lstat``: a symlink is never followed to
    the file it leads to, which may be ``~/.ssh/id_ed25519``) named like one of the plugin's
    (a state folder's ``token``, or ``harness-memory/tokens/<folder>-<12 hex>``) that is not
    :func:`own_token_file` in ``tokens``, also one whose ``harness-memory`` or ``tokens``
    folder is a symlink (to a store of the user's: never removed through it, and said so).
    It holds a bearer token (``0600`` when the plugin wrote it) that outlives these hooks: the
    message names the file as spelled, why it is left, and the command that removes it, which
    names that path (through the linked folder), never where a link leads (H-7, A-10). Empty
    otherwise: a file that is itself a symlink is none the plugin wrote (it writes regular
    files), and ``~/.ssh/id_ed25519`` is no token of the plugin's to speak of. Never raises
    ``OSError``."""
    state_form = named.parent.name == STATE_FOLDER and named.name == TOKEN_NAME
    shaped = _named_like_a_kept_token(named)
    if not (state_form or shaped) or not _is_real(named, stat.S_ISREG):  # never a link
        return []
    if own_token_file(named, record, tokens):
        return []
    from harness_memory.installers.record import removal_command  # it imports this module

    if (link := _link_on_the_way(named)) is not None:
        why = (
            f"its folder is reached through the symlink {link}, and nothing is removed "
            "through a link (A-10)"
        )
    elif state_form or (tokens is not None and _same_folder(named.parent, tokens)):
        why = (
            "it is not this settings folder's token as it is spelled now: another settings "
            "folder's (one copied with its install record), or this folder's from before it "
            "was moved or renamed"
        )
    else:
        where = "no tokens folder is known here" if tokens is None else f"it is {tokens}"
        why = (
            "it lies outside the tokens folder of this install (as XDG_CONFIG_HOME and HOME "
            f"are now, {where}): another user's or config home's, or this folder's from an "
            "install under another XDG_CONFIG_HOME"
        )
    return [
        f"left {named}: {by} it, but {why}; it holds a bearer token and is neither removed "
        "nor replaced here. If no other settings folder's hooks read it, remove it yourself: "
        f"`{removal_command(named)}`"
    ]


def config_home(home: Path, environ: Mapping[str, str]) -> Path:
    """The user's config folder: ``$XDG_CONFIG_HOME`` when it is an absolute path (the XDG
    base directory rule: a relative one is ignored), else ``<home>/.config``."""
    given = environ.get("XDG_CONFIG_HOME", "")
    return Path(given) if given and Path(given).is_absolute() else home / ".config"


def _holds_the_home(tree: WorkTree, home: Path) -> bool:
    """Whether ``tree`` is a work tree kept elsewhere (no ``.git`` in it) holding all of
    ``home``: a dotfiles setup, whose home has no folder outside it."""
    return tree.elsewhere and home.absolute().is_relative_to(tree.top.absolute())


def home_tree_warning(place: Path, tree: WorkTree) -> str:
    """The warning of an install or ``token set`` keeping the token file ``place`` in the
    work tree ``tree`` of a repository kept elsewhere that holds the whole home (H-7): which
    repository, how it was found, and what can still take the token into a commit."""
    return (
        f"WARNING: the bearer token is kept in {place}, in the work tree of a git repository "
        f"kept elsewhere that holds your whole home: {tree}. The .gitignore (*) in "
        f"{place.parent} leaves it out of that repository's `add` of the folder (`add -A`, "
        "`add ~/.config`), and `add -u` and `commit -a` take only files already tracked; but "
        "`add -f` of that folder or file takes the token into a commit (and `commit -a` then "
        "its every change): never force-add it, or set XDG_CONFIG_HOME to a folder outside "
        "your home and every repository and install again"
    )


def token_place(
    settings_folder: Path, home: Path, environ: Mapping[str, str]
) -> tuple[Path, str | None]:
    """``(token file, warning)`` for the hooks of ``settings_folder`` (``~/.claude``,
    ``~/.codex``, ``~/.gemini`` …): its state folder's ``token`` unless that lies in a git
    work tree, else ``<config home>/harness-memory/tokens/<name>-<12 hex digits>``
    (:func:`config_home`; the digest of the settings folder's absolute path, so each settings
    folder has its own, with its symlinks resolved). The warning (:func:`home_tree_warning`)
    when that lies in a work tree
    kept elsewhere holding the whole home (a bare dotfiles repository's), else None. Raises
    :class:`TokenPlaceError` when it lies in any other work tree too."""
    state = settings_folder / STATE_FOLDER
    tree = work_tree_of(state, home, environ)
    if tree is None:
        return state / TOKEN_NAME, None
    folder = config_home(home, environ).joinpath(*TOKENS_FOLDER)
    also = work_tree_of(folder, home, environ)
    if also is not None and not _holds_the_home(also, home):
        whole_home = home.absolute().is_relative_to(also.top.absolute())
        way_out = (
            "your home is that work tree, so every folder in it can be committed: set "
            "XDG_CONFIG_HOME to a folder outside your home and every repository (the token "
            "goes into its harness-memory/tokens)"
            if whole_home
            else "set XDG_CONFIG_HOME to a folder outside every repository (the token goes "
            "into its harness-memory/tokens), or keep the settings folder out of the repository"
        )
        raise TokenPlaceError(
            f"the bearer token would lie in a git work tree: {state} is in {tree}, and "
            f"{folder}, where the install keeps it then, is in "
            f"{'it too' if also == tree else also}; a .gitignore does not stop `git add -f`, "
            f"`git add -u` or `git commit -a` from taking it into a commit: {way_out}"
        )
    place = _outside_place(_real_folder(settings_folder), folder)
    return place, None if also is None else home_tree_warning(place, also)


def _outside_place(settings_folder: Path, folder: Path) -> Path:
    """``<folder>/<name>-<12 hex digits>``: the token file of ``settings_folder``'s hooks in
    the tokens ``folder`` (the digest of its absolute path: each settings folder its own).
    An install names it by the settings folder with its symlinks resolved (:func:`token_place`:
    ``~/.claude`` linked to ``~/dots/claude-work``, then switched to a copy of it, is another
    folder, whose uninstall leaves the original's token); an install from before named it by
    the folder as spelled, which :func:`own_token_file` still knows as its own."""
    absolute = os.fsencode(settings_folder.absolute())
    digest = hashlib.sha256(absolute).hexdigest()[:12]
    name = re.sub(r"[^A-Za-z0-9_-]", "", settings_folder.name)[:32] or "settings"
    return folder / f"{name}-{digest}"


def outside_token(
    record: InstallRecord, named: list[Path], where: tuple[Path, Mapping[str, str]] | None
) -> Path | None:
    """The token file the hooks of the settings folder ``record`` belongs to keep outside its
    state folder (that lies in a git work tree, :func:`token_place`), for an uninstall whose
    install record names none (moved aside, as its own advice says: the token was left without
    a word, H-7): where an install puts it (``where``: home and environment,
    :func:`tokens_folder`), else one of ``named`` (the ``--token-file`` of our hooks it takes
    out) that is this folder's own (:func:`own_token_file`: never another settings folder's
    token, A-10). Only a regular file in that tokens folder (:func:`plugin_token_file`) is
    one: a hook naming a file of that name in any other ``harness-memory/tokens`` has it left
    and said (:func:`left_token_said`); the state folder's own ``token`` a hook names is not
    one (the uninstall removes it there, never its settings folder as a folder the install
    made). None for none, and without ``where``."""
    if where is None:
        return None
    tokens = tokens_folder(*where)
    places = [_outside_place(_real_folder(record.path.parent.parent), tokens), *named]
    outside = [place for place in places if place.parent.parts[-2:] == TOKENS_FOLDER]
    own = (place for place in outside if own_token_file(place, record, tokens))
    return next((place for place in own if place.is_file()), None)


def emptied_tokens_folder(
    settings_folder: Path, home: Path, environ: Mapping[str, str]
) -> list[Path]:
    """``[tokens folder, its harness-memory folder]`` where an install keeps the token of
    ``settings_folder``'s hooks outside its state folder (:func:`token_place`, with ``home``
    and ``environ`` as resolved now), for an uninstall with no install record (moved aside),
    hence no record of the folders the install made (H-7): they are removed when nothing is
    left in them but the ``.gitignore`` an install writes (:func:`lone_tokens_ignore`), never
    one holding anything else. Empty when the token is kept in the state folder, the place
    cannot be told (:class:`TokenPlaceError`), or either folder is reached through a symlink
    (:func:`unlinked_folders`: nothing is removed through one)."""
    try:
        place, _ = token_place(settings_folder, home, environ)
    except TokenPlaceError:
        return []
    tokens = place.parent
    if tokens.parts[-2:] != TOKENS_FOLDER:
        return []
    return unlinked_folders([tokens, tokens.parent])


def hooks_token_file(
    settings_folder: Path, options: InstallOptions, environ: Mapping[str, str], token: str | None
) -> tuple[Path | None, str | None]:
    """``(the token file the hooks name, a warning)`` for an install of ``settings_folder``:
    with a ``token``, where it is written (:func:`token_place`); without one, the user's token
    of another service the hooks named before (``options.kept_token``, A-10: kept, and the
    hooks refuse it until it holds this service's), else None. Raises as :func:`token_place`."""
    if token is None:
        return options.kept_token, None
    return token_place(settings_folder, options.home, environ)


def token_plan(
    record: InstallRecord,
    token: str | None,
    place: Path | None,
    options: InstallOptions,
    environ: Mapping[str, str],
    replaced: Collection[str] = (),
) -> tuple[list[FileChange], list[Path], list[str]]:
    """``(changes, removals, notes)`` for the token file at ``place`` (the state folder's ``token``,
    or one outside a git work tree: :func:`token_place`) of the settings folder ``record``
    belongs to; ``record`` notes a ``place`` outside the state folder, for ``uninstall``.

    With a ``token`` the file is written with it (created 0600, made owner-only if it was not,
    also when it held that token already, its folder with it: A-10; no backup; the old and new
    token masked in every output, H-7), and in a ``harness-memory/tokens`` folder its
    ``.gitignore`` (:data:`TOKENS_IGNORE_TEXT`) when the folder holds none (one of the user's
    is kept); a token file an earlier install left elsewhere (in the state folder, now in a
    work tree, or where the record names one) is removed, and without a ``token`` every one
    of them, so no stale token stays behind — but only a file where this install writes tokens
    (:func:`plugin_token_file` in the :func:`tokens_folder` of ``options.home`` and
    ``environ``): a record naming any other file does not get it removed, and one named like
    a token of the plugin's is said (:func:`foreign_token_said`). Raises
    :class:`~harness_memory.installers.files.SettingsFileError` for another account's token file
    hard-linked elsewhere holding ``token`` already (:func:`~harness_memory.installers.
    own_names.shared_token`: its mode is not the user's to narrow), or one that is not a
    regular UTF-8 file. The user's own such file (a snapshot's ``cp -al``) is kept, its mode
    narrowed in place (:attr:`~harness_memory.installers.files.FileChange.same_file`), which
    every name of it shares. The service ``url`` the token is given for is recorded beside it
    (:func:`~harness_memory.settings.token_service_file`, A-10), as ``token set`` records it:
    the record first, an old token there for another service (or none recorded) moved aside
    before it (:attr:`~harness_memory.installers.files.FileChange.clears`), then the token, so
    that no hook pairs a token with another service's record, not even between the writes.
    ``options.url`` is that service; ``options.kept_token`` a token file the user gave for
    another (``token set --url``, A-10), never removed nor replaced (:func:`_stale`).
    ``replaced``: the ``--token-file`` of our hooks it replaces, read as the record's is (the
    record moved aside names none; another folder's is said: :func:`_others_left`).
    """
    url, own = options.url, record.path.parent / TOKEN_NAME
    tokens = tokens_folder(options.home, environ)
    stale = _stale(record, token, place, options, tokens, replaced)
    foreign = _others_left(record, replaced, place, options, tokens)  # before the record changes
    record.token_file = None if token is None or place in (None, own) else str(place)
    if token is None or place is None:
        return [], stale, foreign
    if (shared := shared_token(place, token)) is not None:
        raise SettingsFileError(shared)
    if url and token_service(place) == "":  # the user's own file: never replaced
        raise SettingsFileError(users_file_refused(place, url))
    old = read_text(place)
    secrets = frozenset(s for s in (token, old, (old or "").strip()) if s)
    # made owner-only again, its folder too where the install can (else warned)
    why = folder_kept_open(place.parent)
    folder = mode_of(place.parent)
    tighten = why is None and folder is not None and folder & 0o077 != 0
    new = token + "\n"
    wide = mode_of(place) or 0
    loose = old == new and (bool(wide & 0o077) or tighten)
    same = held_here(place, token)  # a snapshot's hard link: kept, its mode narrowed in place
    written = FileChange(place, old, new, secrets, backup=False, loose=loose)
    changes = [replace(written, private_folder=tighten, same_file=same is not None)]
    if url:  # the service it is given for, as token set records it, written first
        changes.append(_service_record(place, url, clears=old not in (None, new)))
    ignore = place.parent / IGNORE_NAME
    if place.parent.parts[-2:] == TOKENS_FOLDER and not os.path.lexists(ignore):
        changes.insert(0, FileChange(ignore, None, TOKENS_IGNORE_TEXT, backup=False))
    notes = [folder_left_open(place.parent, folder, why)] if why and folder is not None else []
    notes += _kept_elsewhere(options.kept_token, place, options.home)
    notes += foreign
    if same is not None and wide & 0o077:
        notes.append(
            f"{place} has {same.st_nlink} hard links and holds this token already: the install "
            f"keeps that file and makes it owner-only ({wide:04o} -> {private_mode(wide):04o}), "
            "which every name of it shares"
        )
    return changes, stale, notes


def hooks_token_plan(
    record: InstallRecord,
    place: Path | None,
    options: InstallOptions,
    environ: Mapping[str, str],
    hooks: tuple[Path, list[str | None]],
) -> tuple[list[FileChange], list[Path], list[str]]:
    """``(changes, removals, notes)`` of an install's token (``options.token``) at ``place``
    for the hooks it writes into ``hooks`` (the settings file, and the texts of the files
    holding them before): :func:`token_plan`, given the ``--token-file`` of our hooks it
    replaces (:func:`~harness_memory.installers.spec.our_flag_values`), the stale token files
    other installed hooks still read kept and said (:func:`still_read`). H-7, A-10."""
    from harness_memory.installers.spec import our_flag_values

    path, texts = hooks
    replaced = our_flag_values(texts, "--token-file")
    changes, removals, left = token_plan(record, options.token, place, options, environ, replaced)
    removals, kept = still_read(removals, options.home, environ, besides=path)
    return changes, removals, [*left, *kept]


def _others_left(
    record: InstallRecord,
    replaced: Collection[str],
    place: Path | None,
    options: InstallOptions,
    tokens: Path,
) -> list[str]:
    """What an install says of the token files the record (:func:`foreign_token_said`) and the
    hooks it replaces (``replaced``, but the record's) name that it leaves as not this
    settings folder's own (:func:`left_token_said`), but ``place`` and ``options.kept_token``:
    the install writes its token to ``place`` (also through a linked ``~/.config/harness-memory``,
    which no longer makes it the plugin's to remove, :func:`plugin_token_file`) and its hooks
    read it, so it is never said to be left (H-7, A-10)."""
    by = "the hooks it replaces name"
    read = {path.absolute() for path in (place, options.kept_token) if path is not None}
    named = [] if record.token_file is None else [record.token_file]
    return [
        said
        for word in [*named, *sorted(set(replaced) - set(named))]
        if Path(word).absolute() not in read
        for said in left_token_said(
            Path(word), record, tokens, "the install record names" if word in named else by
        )
    ]


def _service_record(place: Path, url: str, *, clears: bool) -> FileChange:
    """The change recording ``url`` as the service of the token file ``place`` (A-10), as
    ``token set`` records it, made ``0600`` again when it was not; ``clears`` (an old token
    there is replaced): the old token moved aside first unless its record names ``url``."""
    served = token_service_file(place)
    text = read_text(served)
    open_ = text == url + "\n" and bool((mode_of(served) or 0) & 0o077)
    written = FileChange(served, text, url + "\n", backup=False, mode=0o600, loose=open_)
    return replace(written, record_of=place, clears=clears and not _recorded_for(place, url))


def _kept_elsewhere(kept: Path | None, place: Path, home: Path) -> list[str]:
    """What an install writing its token to ``place`` says of the user's token of another
    service ``kept`` (``token set --url``, A-10) at another place: kept, never removed, but no
    longer read by these hooks, and in a git work tree (``git init ~/.codex`` sends the
    install's token to ``~/.config``) open to a commit (H-7): it stayed there without a word."""
    from memory_core.addresses import shown_url

    from harness_memory.settings import token_service

    if kept is None or kept.absolute() == place.absolute() or not kept.is_file():
        return []
    tree = work_tree_of(kept.absolute().parent, home, {})
    where = (
        ""
        if tree is None
        else f"; it lies in the git work tree {tree}, where `git add -f` or `git commit -a` "
        "can take it into a commit (H-7)"
    )
    return [
        f"kept {kept}: it holds the token given for the service at "
        f"{shown_url(str(token_service(kept)))} (`harness-memory token set --url`), which an "
        f"install never removes or replaces (A-10); these hooks no longer read it (they read "
        f"{place}){where}: if no hook needs it, remove it yourself: "
        f"`{removal_command(kept)}`"
    ]


def _stale(
    record: InstallRecord,
    token: str | None,
    place: Path | None,
    options: InstallOptions,
    tokens: Path,
    replaced: Collection[str] = (),
) -> list[Path]:
    """The token files an earlier install left that :func:`token_plan` removes: the state
    folder's, the one ``record`` names and those the hooks it replaces name (``replaced``; in
    ``tokens``, :func:`own_token_file`), but
    ``place`` and the user's token of another service (``options.kept_token``, A-10). Raises
    ``SettingsFileError`` when ``token`` would be written into that one
    (:func:`_not_replaced`)."""
    keep = options.kept_token
    if (
        token is not None
        and keep is not None
        and place is not None
        and place.absolute() == keep.absolute()
    ):
        said = record.id_said_not_secret(options.url)
        raise SettingsFileError(_not_replaced(keep, options.url, said))
    earlier = [record.path.parent / TOKEN_NAME]
    earlier += [Path(record.token_file)] if record.token_file else []
    earlier += [Path(word) for word in sorted(replaced)]
    return [
        path
        for path in dict.fromkeys(earlier)
        if path not in (place, keep) and own_token_file(path, record, tokens) and path.is_file()
    ]


def _not_replaced(kept: Path, url: str, ids_said: bool) -> str:
    """Why an install given a token for ``url`` writes none into ``kept``, the token file the
    user gave for another service (A-10), and the command that replaces it, as printed
    (``ids_said``: the ids in ``url``'s path said to be no secret, and shown)."""
    from memory_core.addresses import shown_url

    from harness_memory.settings import token_service

    recorded, now = token_service(kept), shown_url(url, ids=not ids_said)
    if recorded == "":  # the user's own file beside it, never ours to replace
        return users_file_refused(kept, now)
    recorded = shown_url(str(recorded))
    return (
        f"{kept} holds the token given for the service at {recorded} (`harness-memory token set "
        f"--url`), not {now}, and an install never removes or replaces such a token (A-10): "
        f"`harness-memory token set --file {shlex.quote(str(kept))} --url {shlex.quote(now)}` "
        f"puts {now}'s token there ({recorded}'s is then gone), then run this install again "
        "without a token"
    )


def users_file_refused(token_file: Path, url: str) -> str:
    """Why an install given a token for ``url`` (as said) writes none into ``token_file``: the
    ``.url`` file beside it is no service record harness-memory wrote (the user's own, A-10),
    which it neither removes nor replaces; the way on, runnable as printed."""
    from harness_memory.settings import move_aside_command, token_service_file

    record = token_service_file(token_file)
    return (
        f"{record} is not a service record harness-memory wrote (your own file, or a token put "
        "there by mistake), and an install neither uses, removes nor replaces it, nor the token "
        f"file {token_file} beside it (A-10; `harness-memory uninstall` removes that token "
        f"file, never {record}): move it aside ({move_aside_command(record)}), then run this "
        "install again"
    )


def _recorded_for(place: Path, url: str) -> bool:
    """Whether the record beside the token file ``place`` names the service ``url`` (A-10)."""
    from harness_memory.settings import same_service, token_service

    recorded = token_service(place)
    return bool(recorded) and same_service(str(recorded), url)


def token_file_place(
    named: Path | None, state: Path | None, home: Path, environ: Mapping[str, str]
) -> tuple[Path, Path | None, str | None]:
    """``(where token set writes the token, a token file to remove then, a warning)`` for the
    ``--file`` ``named`` (None: the managed hooks' own in the account's ``state`` dir). A token
    file is never written inside a git work tree (H-7: no ``.gitignore`` stops ``git add -f``
    or ``git commit -a``): the state dir's ``token`` in one goes to
    :func:`~harness_memory.settings.token_kept_outside` (read by the managed hooks there),
    the one in the work tree then removed. Raises :class:`TokenPlaceError` for a ``named``
    file in a work tree, or a state dir whose other place lies in one too (a work tree as
    :func:`~harness_memory.installers.work_trees.work_tree_of` finds it, with the bare
    repositories of ``home`` and ``environ``'s ``GIT_DIR``/``GIT_WORK_TREE``). The other place
    in a work tree kept elsewhere that holds the whole home (a bare dotfiles repository's) is
    taken all the same, with :func:`home_tree_warning`, as an install does
    (:func:`token_place`)."""
    if named is not None or state is None:
        path = named if named is not None else Path(TOKEN_NAME)
        if (tree := work_tree_of(path.absolute().parent, home, environ)) is not None:
            raise TokenPlaceError(
                f"{path} lies in the git work tree {tree}, and a .gitignore does not stop "
                "`git add -f` or `git commit -a` from taking it into a commit: name a file "
                "outside every repository"
            )
        return path, None, None
    own = state / TOKEN_NAME
    tree = work_tree_of(state, home, environ)
    if tree is None:
        return own, None, None
    outside = token_kept_outside(state)
    also = None if outside is None else work_tree_of(outside.parent, home, environ)
    if outside is not None and also is not None and _holds_the_home(also, home):
        return outside, own, home_tree_warning(outside, also)
    if outside is None or also is not None:
        where = "" if outside is None else f", and so does {outside.parent} (in {also})"
        raise TokenPlaceError(
            f"{state}, where the managed hooks read your token, lies in the git work tree "
            f"{tree}{where}; a .gitignore does not stop `git add -f`, `git add -u` or `git "
            "commit -a` from taking it into a commit: keep your home's folders out of every "
            "work tree (dotfiles in a repository of their own folder, linked into the home, "
            "e.g. by GNU Stow, rather than a repository whose work tree is the home)"
        )
    return outside, own, None


def token_readers(
    path: Path, home: Path, environ: Mapping[str, str], *, besides: Path | None = None
) -> list[tuple[str, str]]:
    """``(settings file, what to run so they no longer need it)`` for each installed settings
    file (:func:`~harness_memory.installers.status.installed_hooks`; not ``besides``, whose
    hooks the running install rewrites) whose hooks would lose their token were the token
    file ``path`` removed: a hook command naming it with ``--token-file`` (run its install
    again), or a managed hook, which names none and reads the account's own token file
    (``.claude/harness-memory/token`` in its home, :func:`~harness_memory.settings.
    account_state_dir`) when it is there, else the one ``token set`` keeps outside a work
    tree (:func:`~harness_memory.settings.token_kept_outside`), when ``path`` is the one it
    reads and the other is not there to fall back to (run ``harness-memory token set``)."""
    return [
        (str(hooks.path), f"`{hooks.again}`" if named else MANAGED_TOKEN_SET)
        for hooks, named, _ in _readers(path, home, environ, besides=besides)
    ]


def token_urls(path: Path, home: Path, environ: Mapping[str, str]) -> set[str]:
    """The service URLs (``--url``) of the installed hook commands that would send the token
    in ``path`` (:func:`token_readers`' hooks, the commands among them that read it): what
    ``token set`` records as the service the token is given for (A-10)."""
    return {url for _, url in token_url_readers(path, home, environ)}


def token_url_readers(
    path: Path, home: Path, environ: Mapping[str, str], *, besides: Path | None = None
) -> list[tuple[Path, str]]:
    """``(settings file, --url)`` of each installed hook command that would send the token in
    ``path`` (:func:`token_urls`), leaving out the hooks in ``besides`` (an install's own)."""
    found = _readers(path, home, environ, besides=besides)
    return list(dict.fromkeys((hooks.path, url) for hooks, _, urls in found for url in urls))


def refused_by_other_readers(
    path: Path | None, options: InstallOptions, environ: Mapping[str, str], besides: Path
) -> list[str]:
    """The WARNING of an install (``options``: its ``url``, ``home``) that writes a token for
    the service ``url`` into ``path`` (its record saying ``url``) while other installed hooks
    (not those in ``besides``) read
    that file for another service (A-10): those hooks now refuse it, and the command that
    gives them a token of their own. Empty when no other hooks read it for another service,
    or no token is written (``path`` None). URLs as ``shown_url`` shows them."""
    from memory_core.addresses import shown_url

    from harness_memory.settings import same_service

    url, home = options.url, options.home
    if path is None or not url:
        return []
    others = [
        (where, other)
        for where, other in token_url_readers(path, home, environ, besides=besides)
        if not same_service(other, url)
    ]
    return [
        f"WARNING: {path} is also read by the hooks in {where} for the service at "
        f"{shown_url(other)}: it now holds {shown_url(url)}'s token, recorded so, and those "
        f"hooks refuse it (A-10); give them their own token file, or run `harness-memory token "
        f"set --file {shlex.quote(str(path))} --url URL` with one service's token"
        for where, other in dict.fromkeys(others)
    ]


def _readers(
    path: Path, home: Path, environ: Mapping[str, str], *, besides: Path | None
) -> list[tuple[InstalledHooks, bool, list[str]]]:
    """``(installed hooks, whether they name path, the --url of their commands reading it)``
    for the hooks that would lose their token were ``path`` removed (:func:`token_readers`)."""
    from harness_memory.installers.spec import flag_values
    from harness_memory.installers.status import installed_hooks  # it imports the planners

    state = account_state_dir(environ)
    own = None if state is None else state / TOKEN_NAME
    outside = None if state is None else token_kept_outside(state)
    places: dict[Path, Path | None] = {} if own is None else {own: outside}
    places |= {} if outside is None or own is None else {outside: own}
    other = places.get(path)
    implicit = path in places and (other is None or not other.is_file())  # no fallback then
    found: list[tuple[InstalledHooks, bool, list[str]]] = []
    for hooks in installed_hooks(home, environ):
        if hooks.path == besides:
            continue
        naming = [
            command
            for command in hooks.commands
            if any(
                Path(value).absolute() == path.absolute()
                for value in flag_values(command, "--token-file")
            )
        ]
        reading = naming or [c for c in hooks.commands if _reads_the_accounts_token(c)]
        if naming or (implicit and reading):
            urls = [url for command in reading for url in flag_values(command, "--url")]
            found.append((hooks, bool(naming), urls))
    return found


def _reads_the_accounts_token(command: str) -> bool:
    """Whether the hook ``command`` reads the running account's own token file: a
    ``--flags-only`` command naming no token, token file or state dir (the managed hooks)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    named = ("--token", "--token-file", "--state-dir")
    given = any(word in named or word.startswith(tuple(f"{n}=" for n in named)) for word in words)
    return "--flags-only" in words and not given


def still_read(
    stale: list[Path], home: Path, environ: Mapping[str, str], *, besides: Path
) -> tuple[list[Path], list[str]]:
    """``(the token files of stale to remove, a note for each one kept)``: an install keeps a
    stale token file (:func:`token_plan`) that other installed hooks still read
    (:func:`token_readers`; ``besides`` is the settings file it rewrites), since removing it
    would leave them without a token: Claude Code's user install and the managed hooks share
    ``~/.claude/harness-memory``. The note names them and what to run to move their token
    out of the git work tree."""
    removed: list[Path] = []
    notes: list[str] = []
    for path in stale:
        readers = token_readers(path, home, environ, besides=besides)
        if not readers:  # its service record with it
            served = token_service_file(path)
            removed += [path, *([served] if served.is_file() and not served.is_symlink() else [])]
            continue
        wheres = ", ".join(where for where, _ in readers)
        fixes = " and ".join(dict.fromkeys(fix for _, fix in readers))
        notes.append(f"kept {path}, no longer this install's: the hooks in {wheres} still read it")
        if (tree := work_tree_of(path.parent, home, environ)) is not None:
            notes[-1] += (
                f"; it lies in the git work tree {tree}, where `git add -f` or `git commit -a` "
                f"can take it into a commit: run {fixes} to move their token out of it"
            )
    return removed, notes
