"""Bearer tokens on disk (A-10): one JSON file per token under ``<app_data_dir>/tokens/``.

Tokens come from two places: ``MEMORY_API_TOKENS`` (hashed when the settings are read) and one
JSON file per token written by ``memory-api token create``. A token file holds
``{"name", "sha256", "projects", "createdAt"}``; the secret itself is never stored (the rules
live in :mod:`memory_api.bearer`).

Every request checks the folder again: its ``stat`` (a changed folder is listed anew with
``os.scandir``) and each token file's; parsed files are cached by their file key
(:mod:`~memory_api.store.stat_cache`), so a token created, edited or revoked by another process
is seen at once (Q-4) while an unchanged folder costs a ``stat`` per file and one for itself.

Fail closed (A-10a). Whether the service runs open on loopback or asks for a token is decided
only from what was *read*: no folder at all, or a folder that lists and holds no token file,
means "no token"; a folder that cannot be stat'ed or listed (no permission, a file in its
place, a symlink loop, a symlink to nothing) or a token file that cannot be read or decoded
(empty, broken JSON, a FIFO, no permission, a symlink to nothing, a field no token record has,
or one named twice, which a reader of the first takes otherwise than the decoder, a
``sha256`` that is not 64 lowercase hex digits: :func:`~memory_api.bearer.check_token_entry`)
is *unreadable*, and :class:`KnownTokens` says so instead of leaving the token out. So is a
token file every account may write, and every file of a token folder every account may write
while there are tokens (anyone could make a token of their own there); and the whole folder,
tokens or none, when another account could have changed what it lists: it has no sticky bit
and every account may write it (one could have removed every token file), or a folder above
it (the data dir, a folder above that) lets every account move it away or put a folder of
their own in its place. The
service then refuses what it cannot judge (503, :mod:`memory_api.http.auth`) until the tokens
read again (on a disk that keeps no permission bits, where every file shows ``0777``, the
reason says what to do instead of ``chmod``: :mod:`memory_api.world_writable`). Since the
folder lives on the data dir, every replica and every restart sees the same state: nothing
about "having had tokens" is kept in a process.
"""

from __future__ import annotations

import codecs
import errno
import logging
import os
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

import msgspec
from memory_core import json_text
from memory_core.account_access import other_writers
from memory_core.atomic import data_folder_mode
from memory_core.counting import counted
from memory_core.json_members import repeated_member, twice_named
from memory_core.keys import check_project_id
from memory_core.wire import utc_timestamp

from memory_api.bearer import (
    TokenEntry,
    check_token_entry,
    check_token_name,
    hash_secret,
    new_secret,
)
from memory_api.errors import Conflict, NotFound
from memory_api.store.containment import NotRegularFileError, read_regular
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.stat_cache import FileKey, StatCache, file_key, is_racy
from memory_api.world_writable import (
    movable_by_others,
    open_to_everyone,
    writable_by_everyone,
)

__all__ = ["TOKENS_DIR", "KnownTokens", "NameTaken", "TokenStore"]

logger = logging.getLogger(__name__)

TOKENS_DIR = "tokens"
ENV_TOKENS = "MEMORY_API_TOKENS (or MEMORY_API_TOKENS_FILE)"
"""Where the environment's tokens come from, as a message names them: both are read into one
list, which no command changes."""
TOKEN_READ_CAP = 64 * 1024
"""A token file is one small JSON object; a FIFO or a huge file under that name is never read
whole (a FIFO would block every request's authentication forever)."""
TOKEN_FILES_CACHED = 10_000
"""Token files whose parse is kept (each a few hundred bytes)."""
INLINE_TOKEN_FILES = 32
"""Up to this many token files, a scan that read none of them is cheap enough (a ``scandir``
and one ``stat`` each) for the event loop: see :attr:`TokenStore.cheap`."""


@dataclass(frozen=True, slots=True)
class KnownTokens:
    """Every token the service could read, and whether some could not be read (A-10a).

    ``entries``: the environment's tokens first, then the token files', sorted by file name.
    ``unreadable``: None when every token was read; else why not, for the log (file names
    relative to the data dir, never a secret). ``summary``: the same without names, for a
    client or ``/readyz``.
    """

    entries: tuple[TokenEntry, ...]
    unreadable: str | None = None
    summary: str | None = None

    @property
    def configured(self) -> bool:
        """Whether the service is in token mode: a token was read, or one may exist that cannot
        be read. Never False from a read error, so a read error never opens the API."""
        return bool(self.entries) or self.unreadable is not None


@dataclass(frozen=True, slots=True)
class _Read:
    """A token file as last read: its entry, or why it could not be read."""

    entry: TokenEntry | None
    problem: str | None = None


class _FolderProblem(NamedTuple):
    """Why the token folder cannot be trusted: ``logged`` naming the folder at fault (for the
    service's log), ``said`` without it (for a client and ``/readyz``)."""

    logged: str
    said: str


_decoder = msgspec.json.Decoder(TokenEntry)
_encoder = msgspec.json.Encoder()


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def _gone(path: str) -> _Read:
    """A token file found missing: revoked since the listing (no token), unless its name is
    still there as a symlink to nothing (a secret mount gone, a moved target): that is a token
    which cannot be read, never a missing one (A-10a)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return _Read(None)
    except OSError as error:
        return _Read(None, _reason(error))
    return _Read(None, "a symlink to a missing file")


class NameTaken(Conflict):
    """A token file of the data dir holds a token of the name to create (409): the command
    line says the way on (another name, or a rotation: the new token, then the revoke)."""


def _refused(distrust: str) -> Conflict:
    """``token create``'s refusal of a token folder the service trusts no token file of
    (``distrust``: :meth:`TokenStore.distrusted`, the folder at fault and the fix)."""
    return Conflict(
        f"{distrust}; the service trusts no token file there, so it would never accept "
        "a token made now: none was made. Fix that, then run this again"
    )


def _unmake(made: list[Path]) -> None:
    """Remove the folders ``made`` (topmost first) that a refused ``token create`` made: each
    that is still empty (one another account put something in is left as it is)."""
    for folder in reversed(made):
        try:
            folder.rmdir()
        except OSError:
            return  # not empty: the folders above it are not either


def _written_by_others(folder: str, info: os.stat_result) -> str | None:
    """Why another account may write the token folder ``folder`` (its ``stat`` ``info``), so
    may have removed its token files or put its own in it, or None
    (:func:`~memory_core.account_access.other_writers`; its "other" bit is judged apart)."""
    why = other_writers(folder, info)
    if why is None:
        return None
    return f"{why}: another account may remove its token files or put its own in it"


def _missing_folder(path: str) -> str | None:
    """Why the token folder found missing cannot be read, or None when there is truly none
    (never made, or removed: no token file). Its name still there as a symlink to nothing (a
    secret mount gone, a moved target) is a folder that cannot be read, never a missing one: it
    opened a loopback service to every local caller while its tokens were out of reach
    (A-10a)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot be looked at ({_reason(error)})"
    return "is a symlink to a missing folder"


def _linked_out(path: str) -> str | None:
    """Why the token file ``path``, a symlink, is not trusted, or None: a folder the kernel
    walks to its target, link by link, lets another account replace that file or move it away
    (:func:`~memory_api.world_writable.movable_by_others`), so that account could put a token
    of its own there, as in a token folder it may write (A-10a). A link whose whole way is
    owner-only (a Kubernetes Secret's ``..data`` inside the token folder, on a read-only
    mount) passes. Said with the folder for the log; the part before " (" is what a client
    reads."""
    movable = movable_by_others(path)
    if movable is None:
        return None
    folder, why = movable
    return (
        f"a symlink to a file another account could replace (its target lies below {folder}, "
        f"which {why})"
    )


class TokenStore:
    """The tokens of one data dir plus those from the environment.

    Methods are blocking (small files): the service calls :meth:`known` through
    ``asyncio.to_thread`` (or on the event loop while :attr:`cheap`), the CLI calls
    :meth:`create` and :meth:`revoke` directly.
    """

    def __init__(self, data_dir: Path, env_tokens: tuple[TokenEntry, ...] = ()) -> None:
        self._dir = data_dir / TOKENS_DIR
        self._dir_name = os.fspath(self._dir)
        self._env = env_tokens
        self._env_only = KnownTokens(env_tokens)
        self._cache: StatCache[str, _Read] = StatCache(max_entries=TOKEN_FILES_CACHED)
        self._cheap = False
        self._listed: tuple[FileKey, tuple[str, ...]] | None = None
        """The folder's ``stat`` and the token files' paths of the last listing worth keeping."""
        self._links: frozenset[str] = frozenset()
        """Which of the last listing's token files are symlinks (:meth:`_linked_out`)."""
        self._reported: str | None = None
        """The unreadable state last logged (None: all readable), so a state is logged once."""

    @property
    def cheap(self) -> bool:
        """Whether the last :meth:`known` scanned at most :data:`INLINE_TOKEN_FILES` files and
        parsed none (all were cached): the next one is likely as cheap, so the service may call
        it on the event loop instead of in a worker thread. False before the first scan."""
        return self._cheap

    def entries(self) -> tuple[TokenEntry, ...]:
        """Every token that could be read (see :meth:`known` for those that could not)."""
        return self.known().entries

    def known(self) -> KnownTokens:
        """Every token: the environment's first, then the files', sorted by name, and whether
        some could not be read (A-10a).

        A folder without token files (the usual open service on loopback) costs one ``stat``
        of the folder and one of each folder above it (:meth:`_movable`). A change between
        readable and unreadable is logged once (an error when it turns unreadable, a notice
        when it reads again), not once per request.
        """
        paths, listed, folder_problem = self._token_paths()
        if listed:  # the folder was listed anew: forget the files it no longer holds
            self._cache.keep_only(paths)
        if not paths and folder_problem is None:  # the usual open service: nothing to build
            self._cheap = True
            self._report(self._env_only)
            return self._env_only
        found: list[TokenEntry] = []
        problems: dict[str, str] = {}  # file name -> why it cannot be read
        misses = 0
        for path in paths:
            read, missed = self._read(path)
            misses += missed
            if read.entry is not None and path in self._links:
                linked_out = _linked_out(path)
                read = read if linked_out is None else _Read(None, linked_out)
            if read.entry is not None:
                found.append(read.entry)
            elif read.problem is not None:
                problems[Path(path).name] = read.problem
        self._cheap = len(paths) <= INLINE_TOKEN_FILES and misses == 0
        known = self._known(found, folder_problem, problems)
        self._report(known)
        return known

    def _known(
        self,
        found: list[TokenEntry],
        folder_problem: str | _FolderProblem | None,
        problems: dict[str, str],
    ) -> KnownTokens:
        entries = (*self._env, *found) if found else self._env
        if isinstance(folder_problem, str):
            folder_problem = _FolderProblem(folder_problem, folder_problem)
        if folder_problem is not None:
            return KnownTokens(
                entries,
                f"{TOKENS_DIR}/ {folder_problem.logged}",
                f"the token folder {folder_problem.said}",
            )
        if problems:
            named = "; ".join(f"{TOKENS_DIR}/{name}: {why}" for name, why in problems.items())
            count = len(problems)
            files = counted(count, "token file")
            reasons = ", ".join(sorted({why.partition(" (")[0] for why in problems.values()}))
            return KnownTokens(entries, named, f"{files} cannot be read ({reasons})")
        return KnownTokens(entries)

    def _report(self, known: KnownTokens) -> None:
        """Log a change of the unreadable state once (see :meth:`known`)."""
        if known.unreadable == self._reported:
            return
        self._reported = known.unreadable
        if known.unreadable is None:
            logger.warning("bearer tokens read again: /api/ answers as its tokens say")
        elif known.entries:
            logger.error(
                "some bearer tokens cannot be read (%s); a request whose token is not among the "
                "readable ones is refused with 503 until they can be read",
                known.unreadable,
            )
        else:
            logger.error(
                "the bearer tokens cannot be read (%s); every /api/ request is refused with 503 "
                "until they can be read: fix the token folder's permissions or contents",
                known.unreadable,
            )

    def _token_paths(self) -> tuple[tuple[str, ...], bool, str | _FolderProblem | None]:
        """The token files' paths, sorted by name, whether the folder was listed for them
        (else they are the last listing's, the folder being unchanged since), and why the folder
        could not be read (None: it was read, or it does not exist) or another account could
        have made it hold what it holds (:func:`~memory_api.world_writable.movable_by_others`:
        a folder above it every account may write; or it has no sticky bit and every account
        may write it, so one may have removed its token files).

        Creating, removing or renaming a file in a folder sets its mtime and ctime, so while
        the folder's ``stat`` is the one of the last listing (and that listing was not taken
        within the racy window of :mod:`~memory_api.store.stat_cache`, in which a change could
        keep the folder's timestamp) the names are the same: one ``stat`` instead of a
        ``scandir`` per request. A file changed in place is seen by its own ``stat`` (`_read`).
        """
        try:
            info = os.stat(self._dir_name)  # noqa: PTH116 - no Path per request
        except FileNotFoundError:
            self._listed = None
            return (), True, _missing_folder(self._dir_name) or self._movable()
        except OSError as error:
            self._listed = None
            return (), True, f"cannot be looked at ({_reason(error)})"
        if not stat.S_ISDIR(info.st_mode):
            self._listed = None
            return (), True, "is not a folder"
        key = file_key(info)
        if self._listed is not None and self._listed[0] == key:
            paths, listed = self._listed[1], False
        else:
            try:
                paths = self._listing()
            except OSError as error:
                self._listed = None
                return (), True, f"cannot be listed ({_reason(error)})"
            self._listed = None if is_racy(key) else (key, paths)
            listed = True
        if open_to_everyone(self._dir_name, info.st_mode) and (
            paths or self._env or not info.st_mode & stat.S_ISVTX
        ):  # no file in it is trusted, nor (no sticky bit) that none is left in it
            return (), True, writable_by_everyone(self._dir_name, info.st_mode)
        written = _written_by_others(self._dir_name, info)
        if written is not None:  # another account may have emptied it, or put its own in it
            self._listed = None
            return (), True, written
        movable = self._movable()
        if movable is not None:  # whatever it lists, another account may have made it so
            self._listed = None
            return (), True, movable
        return paths, listed, None

    def _listing(self) -> tuple[str, ...]:
        """The paths of the token folder's token files (``*.json``, not hidden), sorted by
        name, whether or not the folder is trusted. Raises OSError when it cannot be listed."""
        listing = sorted(os.scandir(self._dir_name), key=lambda item: item.name)
        files = [item for item in listing if not item.name.startswith(".")]
        files = [item for item in files if item.name.endswith(".json")]
        self._links = frozenset(item.path for item in files if item.is_symlink())
        return tuple(item.path for item in files)

    def distrusted(self) -> str | None:
        """Why the service trusts no token file of the token folder, naming the folder at fault
        and the fix, or None: another account could have moved the folder away or put its own
        in its place (:meth:`_movable`), every account may write it, or another account may
        (its owner, a group the service's user shares, an ACL entry:
        :func:`~memory_core.account_access.other_writers`) (A-10a). A folder that cannot be
        looked at is left to the command's own error."""
        movable = self._movable()
        if movable is not None:
            return f"the token folder {self._dir} {movable.logged}"
        try:
            info = os.stat(self._dir_name)  # noqa: PTH116 - as the listing's
        except OSError:
            return None
        if not stat.S_ISDIR(info.st_mode):
            return None
        if open_to_everyone(self._dir_name, info.st_mode):
            said = writable_by_everyone(self._dir_name, info.st_mode)
            return f"the token folder {self._dir} {said}"
        written = _written_by_others(self._dir_name, info)
        return None if written is None else f"the token folder {self._dir} {written}"

    def _movable(self) -> _FolderProblem | None:
        """Why another account could have moved the token folder away or put its own in its
        place (:func:`~memory_api.world_writable.movable_by_others`), or None."""
        movable = movable_by_others(self._dir_name)
        if movable is None:
            return None
        folder, why = movable
        return _FolderProblem(
            f"lies below {folder}, which {why}", f"lies below a folder which {why}"
        )

    def _read(self, path: str) -> tuple[_Read, bool]:
        """The token of one file and whether it had to be read (not cached).

        A file gone since the listing (revoked meanwhile) is no token; any other failure (a
        symlink left pointing at nothing included) is a problem named in the answer, never a
        silently missing token (A-10a).
        """
        try:
            info = os.stat(path)  # noqa: PTH116 - no Path per request
        except FileNotFoundError:
            return _gone(path), True
        except OSError as error:
            return _Read(None, _reason(error)), True
        key = file_key(info)
        cached = self._cache.get(path, key)
        if cached is not None:
            return cached, False
        read: _Read
        try:
            raw, opened = read_regular(Path(path), TOKEN_READ_CAP, follow_symlinks=True)
            written = other_writers(path, opened)
            if open_to_everyone(path, opened.st_mode):  # anyone could put their hash in
                read = _Read(None, writable_by_everyone(path, opened.st_mode))
            elif written is not None:  # that account could put its hash in
                read = _Read(None, f"another account may write it, so it is not trusted: {written}")
            else:
                # a record edited by hand in a Windows editor starts with a BOM (RFC 8259 8.1)
                raw = raw.removeprefix(codecs.BOM_UTF8)
                read = _Read(check_token_entry(json_text.decode(_decoder, raw)))
                if (twice := repeated_member(raw)) is not None:  # read by its last, silently
                    read = _Read(None, f"not a token record ({twice_named(twice)})")
        except FileNotFoundError:
            return _gone(path), True
        except NotRegularFileError:
            read = _Read(None, "not a regular file")
        except OSError as error:
            read = _Read(None, _reason(error))
        except (msgspec.DecodeError, ValueError) as error:  # UncheckedMembers too: fail closed
            read = _Read(None, f"not a token record ({error})")
        self._cache.put(path, key, read)
        return read, True

    def create(self, name: str, projects: tuple[str, ...] | None) -> tuple[TokenEntry, str]:
        """Create a token file and return (entry, secret); the secret is shown only this once
        (:meth:`create_closing`, which says too whether the data dir had no token)."""
        entry, secret, _ = self.create_closing(name, projects)
        return entry, secret

    def create_closing(
        self, name: str, projects: tuple[str, ...] | None
    ) -> tuple[TokenEntry, str, bool]:
        """Create a token file and return (entry, secret, whether the data dir had no token
        before: its service was open and now is not, A-10); the secret is shown only this once.

        The name and projects are checked first; then the token folder and the data dir above
        it are made where they are not yet (:meth:`_make_folder`), before the folders on the
        way are judged (:meth:`distrusted`): a data dir not made yet in a sticky folder every
        account may write (``/tmp``) is an entry anyone could make first, and was refused
        naming ``/tmp`` with "chmod o-w it"; made now, it is this user's, which the sticky bit
        keeps. A refusal removes the folders it made (A-10a).

        Raises ValueError for a bad name or project id, :class:`Conflict` when the name is taken
        (by a file or by ``MEMORY_API_TOKENS``), a file is where the token folder should be, or
        the service trusts no token file of the folder (:meth:`distrusted`: its secret would
        never be accepted; nothing is written), OSError when the folder cannot be made and the
        service would trust it (no permission to write the folder above it).
        """
        check_token_name(name)
        if projects is not None:
            projects = tuple(dict.fromkeys(check_project_id(p) for p in projects))
        made = self._make_folder()
        try:
            if (distrust := self.distrusted()) is not None:
                raise _refused(distrust)
            was_open = not self.known().configured
            entry, secret = self._write(name, projects)
        except BaseException:
            _unmake(made)
            raise
        return entry, secret, was_open

    def _write(self, name: str, projects: tuple[str, ...] | None) -> tuple[TokenEntry, str]:
        """Write the token file of a new token ``name`` in the made, trusted token folder and
        return (entry, secret). Raises :class:`Conflict` as :meth:`create_closing` says."""
        if any(entry.name == name for entry in self._env):
            raise Conflict(  # the variable's own: no revoke here could free the name
                f"token {name!r} is already defined in MEMORY_API_TOKENS: pick another --name; "
                f"to make a token file of that name, take {name!r} out of MEMORY_API_TOKENS "
                "(and restart the service) first"
            )
        if held := [path for path in self._files_of(name) if Path(path).name != f"{name}.json"]:
            raise NameTaken(  # two secrets of one name: a revoke by it would remove both
                f"a token named {name!r} exists already, in {TOKENS_DIR}/{Path(held[0]).name}"
            )
        secret = new_secret()
        entry = TokenEntry(
            name=name,
            sha256=hash_secret(secret),
            projects=projects,
            created_at=utc_timestamp(datetime.now(UTC)),
        )
        try:
            created = create_new_bytes(
                self._dir / f"{name}.json", _encoder.encode(entry), mode=0o600
            )
        except (FileExistsError, NotADirectoryError):  # a file where the folder should be
            raise self._not_a_folder() from None
        if not created:
            raise NameTaken(f"token {name!r} exists already")
        return entry, secret

    def _make_folder(self) -> list[Path]:
        """Make the token folder, and the folders above it (the data dir), where they are not
        yet; return the folders made, the topmost first (an existing folder, or a symlink to
        one, is kept as it is).

        Raises :class:`Conflict` when one cannot be made and the service would trust no token
        file there (:meth:`distrusted`: another account's folder, or its symlink, is in the
        way; that reason, not "Permission denied"), else when a file is in the token folder's
        place; OSError when it cannot be made otherwise. Whatever it made is removed first."""
        missing: list[Path] = []
        folder = self._dir
        while not os.path.lexists(folder) and folder != folder.parent:
            missing.append(folder)
            folder = folder.parent
        made: list[Path] = []
        try:
            for path in reversed(missing):
                try:  # owner-only as every folder the service makes: a new data dir too
                    path.mkdir(data_folder_mode())
                except FileExistsError:  # made meanwhile (another command): kept if a folder
                    if not path.is_dir():
                        raise
                    continue
                made.append(path)
            if not self._dir.is_dir():  # a file, or a symlink to none, in its place
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(self._dir))
        except OSError as error:
            _unmake(made)
            if (distrust := self.distrusted()) is not None:
                raise _refused(distrust) from None
            if isinstance(error, FileExistsError | NotADirectoryError):
                raise self._not_a_folder() from None
            raise
        return made

    def _not_a_folder(self) -> Conflict:
        way = self._dir  # the nearest entry there: the token folder's, or one above it
        while not os.path.lexists(way) and way != way.parent:
            way = way.parent
        if way == self._dir:
            return Conflict(
                f"the token folder {self._dir} is not a folder (a file is in its place): move "
                "that file aside and run the command again"
            )
        return Conflict(  # never the path below it, which is no file
            f"the token folder {self._dir} cannot be made: {way} is on its way and is not a "
            "folder: move that file aside (or name another data dir) and run the command again"
        )

    def _files_of(self, name: str) -> list[str]:
        """The token files holding the token ``name`` (:meth:`_holding`), sorted."""
        return self._holding(name)[0]

    def _holding(self, name: str) -> tuple[list[str], set[str]]:
        """The token files holding the token ``name``: ``<name>.json`` (whatever it holds),
        every other whose record is named ``name`` (a copy an operator made of a token file, a
        file renamed by hand) and every one holding the same secret under another name (a copy
        whose name was edited: ``ci-old`` answering ``ci``'s secret), sorted; and the hashes of
        the secrets they hold (``sha256`` hex). The folder is listed whether or not it is
        trusted (:meth:`distrusted`): deleting a token file only narrows access."""
        paths, _, problem = self._token_paths()
        if problem is not None:  # listed all the same when it can be
            try:
                paths = self._listing()
            except OSError:
                paths = ()
        own = f"{name}.json"
        entries = {path: self._read(path)[0].entry for path in paths}
        secrets = {
            entry.sha256
            for path, entry in entries.items()
            if entry is not None and (entry.name == name or Path(path).name == own)
        }
        held = [
            path
            for path, entry in entries.items()
            if Path(path).name == own
            or (entry is not None and (entry.name == name or entry.sha256 in secrets))
        ]
        return held, secrets

    def last_token(self, name: str) -> bool:
        """Whether revoking the token ``name`` (:meth:`revoke`) would leave the data dir with
        no token, reopening the service to local callers without one (A-10, A-10a). False when
        no file holds it (the revoke says so) or a token file cannot be read (it counts as a
        token: a read error never opens the API)."""
        check_token_name(name)
        held, secrets = self._holding(name)
        known = self.known()
        if not held or known.unreadable is not None:
            return False
        return not any(e.name != name and e.sha256 not in secrets for e in known.entries)

    def revoke(self, name: str) -> tuple[str, ...]:
        """Delete every token file holding the token ``name`` (:meth:`_files_of`: a copy left
        behind kept the token passing after a revoke that said it was done); return their
        names. Raises :class:`NotFound` when none holds it (saying so only when every token
        file could be read: else naming those that could not), :class:`Conflict` when ``name`` is
        in ``MEMORY_API_TOKENS`` (no file can revoke it: nothing is deleted) or a file is where
        the token folder should be, or when a token of ``MEMORY_API_TOKENS`` holds the secret
        of a file holding ``name`` under another name (deleting the files would leave that
        secret answering: nothing is deleted either). Token files that cannot be read may hold
        it too: see :attr:`KnownTokens.unreadable` after."""
        check_token_name(name)
        if any(entry.name == name for entry in self._env):
            raise Conflict(
                f"token {name!r} is defined in {ENV_TOKENS}, which no command changes: "
                "remove it there and restart the service (no token file was deleted)"
            )
        if self._dir.exists() and not self._dir.is_dir():
            raise self._not_a_folder()
        held, secrets = self._holding(name)
        if same := [entry.name for entry in self._env if entry.sha256 in secrets]:
            raise Conflict(
                f"the secret of token {name!r} is also token {same[0]!r} of {ENV_TOKENS}, "
                "which no command changes, and goes on answering as it: remove that entry "
                "there, restart the service, then run this again (no token file was deleted)"
            )
        removed: list[str] = []
        for path in held:
            try:
                os.unlink(path)  # noqa: PTH108 - the listing's own path strings
            except FileNotFoundError:
                continue  # revoked meanwhile by another process
            removed.append(Path(path).name)
        if not removed:
            unreadable = self.known().unreadable
            if unreadable is not None:  # never "no such token": one of them may be it
                raise NotFound(
                    f"no token file this command can read holds token {name!r}, but some "
                    f"cannot be read ({unreadable}) and one may hold it: nothing was revoked; "
                    "fix or remove them (or run this as the service's account), then run this "
                    "again"
                )
            raise NotFound(f"no token named {name!r} in {self._dir}")
        return tuple(removed)
