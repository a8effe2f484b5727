"""Bearer tokens (A-10): stored hashed, each limited to some projects or reaching all of them.

Tokens come from two places: ``MEMORY_API_TOKENS`` (hashed when the settings are read) and one
JSON file per token under ``<app_data_dir>/tokens/`` written by ``memory-api token create``.
A token file holds ``{"name", "sha256", "projects", "createdAt"}``; the secret itself is never
stored. Secrets are 256-bit random strings, so a plain SHA-256 (no salt, no stretching) is enough
to make a leaked file useless, and lookups compare digests with :func:`hmac.compare_digest`.

Every request reads the folder again (``os.scandir``); parsed files are cached by their file key
(:mod:`~memory_api.store.stat_cache`), so a token created or revoked by another process is seen
at once (Q-4) while an unchanged folder costs one directory scan.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import msgspec
from memory_core.errors import InvalidId
from memory_core.keys import check_project_id
from memory_core.wire import utc_timestamp

from memory_api.errors import Conflict, NotFound
from memory_api.store.containment import read_regular
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.stat_cache import StatCache, file_key

__all__ = [
    "TOKENS_DIR",
    "TokenEntry",
    "TokenStore",
    "check_token_name",
    "find_token",
    "hash_secret",
    "new_secret",
    "parse_token_spec",
]

logger = logging.getLogger(__name__)

TOKENS_DIR = "tokens"
SECRET_PREFIX = "mem_"  # noqa: S105 - a public marker in front of every secret, not one
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
TOKEN_READ_CAP = 64 * 1024
TOKEN_FILES_CACHED = 10_000
"""Token files whose parse is kept (each a few hundred bytes)."""
"""A token file is one small JSON object; a FIFO or a huge file under that name is never read
whole (a FIFO would block every request's authentication forever)."""


class TokenEntry(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """One known token: its name, the hex SHA-256 of its secret, and its reach.

    ``projects`` is None for a token that reaches every project, else the project ids it may see.
    """

    name: str
    sha256: str
    projects: tuple[str, ...] | None = None
    created_at: str | None = None


def hash_secret(secret: str) -> str:
    """Return the lowercase hex SHA-256 of ``secret`` (UTF-8); never raises.

    Bytes that are not UTF-8 reach Python as lone surrogates (an ``Authorization`` header or an
    environment variable holding raw bytes); ``surrogateescape`` hashes them as the very bytes
    sent, so such a header is simply an unknown token (401), never an encoding error (500).
    """
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


def new_secret() -> str:
    """Return a fresh secret: ``mem_`` and 43 URL-safe characters (256 random bits)."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def check_token_name(name: str) -> str:
    """Return ``name`` if it is a token name (1-64 of ``A-Za-z0-9_.-``), else raise ValueError."""
    if _NAME_RE.fullmatch(name) is None:
        raise ValueError(f"token name {name!r} must be 1-64 characters of A-Z, a-z, 0-9, _ . -")
    return name


def find_token(entries: tuple[TokenEntry, ...], secret: str) -> TokenEntry | None:
    """Return the entry whose hash is ``secret``'s, or None; every digest is compared in constant
    time (:func:`hmac.compare_digest`) and the loop never stops early.
    """
    digest = hash_secret(secret)
    match: TokenEntry | None = None
    for entry in entries:
        if hmac.compare_digest(entry.sha256, digest):
            match = entry
    return match


def parse_token_spec(spec: str) -> tuple[str, tuple[str, ...] | None, str]:
    """Split ``name=secret`` or ``name:proj-a|proj-b=secret`` into (name, projects, secret).

    Raises ValueError (never echoing the secret) for a missing ``=``, a bad name or project id,
    or a secret shorter than 16 characters.
    """
    head, sep, secret = spec.partition("=")
    if not sep:
        raise ValueError("each entry must look like name=secret or name:project|project=secret")
    name, _, reach = head.strip().partition(":")
    check_token_name(name)
    projects: tuple[str, ...] | None = None
    if reach.strip():
        try:
            projects = tuple(check_project_id(p.strip()) for p in reach.split("|"))
        except InvalidId as error:
            raise ValueError(f"token {name!r}: {error}") from None
    if len(secret.strip()) < 16:
        raise ValueError(f"token {name!r}: the secret must be at least 16 characters")
    return name, projects, secret.strip()


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
        self._env = env_tokens
        self._cache: StatCache[str, _Read] = StatCache(max_entries=TOKEN_FILES_CACHED)

    def entries(self) -> tuple[TokenEntry, ...]:
        """Return every token: the environment's first, then the files', sorted by name."""
        found: list[TokenEntry] = []
        seen: set[str] = set()
        try:
            listing = sorted(os.scandir(self._dir), key=lambda item: item.name)
        except FileNotFoundError:
            listing = []
        for item in listing:
            if item.name.startswith(".") or not item.name.endswith(".json"):
                continue
            seen.add(item.path)
            entry = self._read(item)
            if entry is not None:
                found.append(entry)
        self._cache.keep_only(seen)
        return (*self._env, *found)

    def _read(self, item: os.DirEntry[str]) -> TokenEntry | None:
        try:
            stat = item.stat()
        except OSError:
            return None
        key = file_key(stat)
        cached = self._cache.get(item.path, key)
        if cached is not None:
            return cached.entry
        entry: TokenEntry | None
        try:
            raw, _ = read_regular(Path(item.path), TOKEN_READ_CAP, follow_symlinks=True)
            entry = _decoder.decode(raw)
        except (OSError, msgspec.DecodeError) as error:
            logger.warning("ignoring unreadable token file %s: %s", item.name, error)
            entry = None
        self._cache.put(item.path, key, _Read(entry))
        return entry

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
