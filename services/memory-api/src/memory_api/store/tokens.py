"""Bearer tokens on disk (A-10): one JSON file per token under ``<app_data_dir>/tokens/``.

Tokens come from two places: ``MEMORY_API_TOKENS`` (hashed when the settings are read) and one
JSON file per token written by ``memory-api token create``. A token file holds
``{"name", "sha256", "projects", "createdAt"}``; the secret itself is never stored (the rules
live in :mod:`memory_api.bearer`).

Every request checks the folder again: its ``stat`` (a changed folder is listed anew with
``os.scandir``) and each token file's; parsed files are cached by their file key
(:mod:`~memory_api.store.stat_cache`), so a token created, edited or revoked by another process
is seen at once (Q-4) while an unchanged folder costs a ``stat`` per file and one for itself.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import msgspec
from memory_core.keys import check_project_id
from memory_core.wire import utc_timestamp

from memory_api.bearer import TokenEntry, check_token_name, hash_secret, new_secret
from memory_api.errors import Conflict, NotFound
from memory_api.store.containment import read_regular
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.stat_cache import FileKey, StatCache, file_key, is_racy

__all__ = ["TOKENS_DIR", "TokenStore"]

logger = logging.getLogger(__name__)

TOKENS_DIR = "tokens"
TOKEN_READ_CAP = 64 * 1024
TOKEN_FILES_CACHED = 10_000
"""Token files whose parse is kept (each a few hundred bytes)."""
INLINE_TOKEN_FILES = 32
"""Up to this many token files, a scan that read none of them is cheap enough (a ``scandir``
and one ``stat`` each) for the event loop: see :attr:`TokenStore.cheap`."""
"""A token file is one small JSON object; a FIFO or a huge file under that name is never read
whole (a FIFO would block every request's authentication forever)."""


@dataclass(frozen=True, slots=True)
class _Read:
    """A token file as last read: its entry, or None when it was unreadable (warned once)."""

    entry: TokenEntry | None


_decoder = msgspec.json.Decoder(TokenEntry)
_encoder = msgspec.json.Encoder()


class TokenStore:
    """The tokens of one app data dir plus those from the environment.

    Methods are blocking (small files): the service calls :meth:`entries` through
    ``asyncio.to_thread``, the CLI calls :meth:`create` and :meth:`revoke` directly.
    """

    def __init__(self, data_dir: Path, env_tokens: tuple[TokenEntry, ...] = ()) -> None:
        self._dir = data_dir / TOKENS_DIR
        self._dir_name = os.fspath(self._dir)
        self._env = env_tokens
        self._cache: StatCache[str, _Read] = StatCache(max_entries=TOKEN_FILES_CACHED)
        self._cheap = False
        self._listed: tuple[FileKey, tuple[str, ...]] | None = None
        """The folder's ``stat`` and the token files' paths of the last listing worth keeping."""

    @property
    def cheap(self) -> bool:
        """Whether the last :meth:`entries` scanned at most :data:`INLINE_TOKEN_FILES` files and
        parsed none (all were cached): the next one is likely as cheap, so the service may call
        it on the event loop instead of in a worker thread. False before the first scan."""
        return self._cheap

    def entries(self) -> tuple[TokenEntry, ...]:
        """Return every token: the environment's first, then the files', sorted by name.

        A folder without token files (the usual open service on loopback) costs one ``stat``
        of the folder and answers the environment's tuple as it is."""
        paths, listed = self._token_paths()
        if listed:  # the folder was listed anew: forget the files it no longer holds
            self._cache.keep_only(paths)
        if not paths:
            self._cheap = True
            return self._env
        found: list[TokenEntry] = []
        misses = 0
        for path in paths:
            entry, missed = self._read(path)
            misses += missed
            if entry is not None:
                found.append(entry)
        self._cheap = len(paths) <= INLINE_TOKEN_FILES and misses == 0
        return (*self._env, *found)

    def _token_paths(self) -> tuple[tuple[str, ...], bool]:
        """The token files' paths, sorted by name, and whether the folder was listed for them
        (else they are the last listing's, the folder being unchanged since).

        Creating, removing or renaming a file in a folder sets its mtime and ctime, so while
        the folder's ``stat`` is the one of the last listing (and that listing was not taken
        within the racy window of :mod:`~memory_api.store.stat_cache`, in which a change could
        keep the folder's timestamp) the names are the same: one ``stat`` instead of a
        ``scandir`` per request. A file changed in place is seen by its own ``stat`` (`_read`).
        """
        try:
            info = os.stat(self._dir_name)  # noqa: PTH116 - no Path per request
        except OSError:
            self._listed = None
            return (), True
        key = file_key(info)
        if self._listed is not None and self._listed[0] == key:
            return self._listed[1], False
        try:
            listing = sorted(os.scandir(self._dir_name), key=lambda item: item.name)
        except OSError:
            self._listed = None
            return (), True
        paths = tuple(
            item.path
            for item in listing
            if not item.name.startswith(".") and item.name.endswith(".json")
        )
        self._listed = None if is_racy(key) else (key, paths)
        return paths, True

    def _read(self, path: str) -> tuple[TokenEntry | None, bool]:
        """The token of one file and whether it had to be read (not cached)."""
        try:
            stat = os.stat(path)  # noqa: PTH116 - no Path per request
        except OSError:
            return None, True
        key = file_key(stat)
        cached = self._cache.get(path, key)
        if cached is not None:
            return cached.entry, False
        entry: TokenEntry | None
        try:
            raw, _ = read_regular(Path(path), TOKEN_READ_CAP, follow_symlinks=True)
            entry = _decoder.decode(raw)
        except (OSError, msgspec.DecodeError) as error:
            logger.warning("ignoring unreadable token file %s: %s", Path(path).name, error)
            entry = None
        self._cache.put(path, key, _Read(entry))
        return entry, True

    def create(self, name: str, projects: tuple[str, ...] | None) -> tuple[TokenEntry, str]:
        """Create a token file and return (entry, secret); the secret is shown only this once.

        Raises ValueError for a bad name or project id, :class:`Conflict` when the name is taken
        (by a file or by ``MEMORY_API_TOKENS``).
        """
        check_token_name(name)
        if projects is not None:
            projects = tuple(dict.fromkeys(check_project_id(p) for p in projects))
        if any(entry.name == name for entry in self._env):
            raise Conflict(f"token {name!r} is already defined in MEMORY_API_TOKENS")
        secret = new_secret()
        entry = TokenEntry(
            name=name,
            sha256=hash_secret(secret),
            projects=projects,
            created_at=utc_timestamp(datetime.now(UTC)),
        )
        self._dir.mkdir(parents=True, exist_ok=True)
        if not create_new_bytes(self._dir / f"{name}.json", _encoder.encode(entry), mode=0o600):
            raise Conflict(f"token {name!r} exists already")
        return entry, secret

    def revoke(self, name: str) -> None:
        """Delete the token file ``name``; raises :class:`NotFound` when there is none."""
        check_token_name(name)
        try:
            (self._dir / f"{name}.json").unlink()
        except FileNotFoundError:
            raise NotFound(f"no token named {name!r} in {self._dir}") from None
