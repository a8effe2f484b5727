"""Bearer tokens (A-10), the pure rules: their shape, their hash, parsing a token spec.

A token is ``mem_`` and 43 URL-safe characters (256 random bits). Only its SHA-256 is ever kept:
with secrets this random a plain hash (no salt, no stretching) makes a leaked record useless, and
lookups compare digests in constant time. :mod:`memory_api.store.tokens` keeps the records on
disk; :mod:`memory_api.settings` parses ``MEMORY_API_TOKENS`` with :func:`parse_token_spec`.
Nothing here does I/O.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

import msgspec
from memory_core.bearer_form import SECRET_BODY, SECRET_CHARS, SECRET_PREFIX, SHORTEST_SECRET
from memory_core.errors import InvalidId
from memory_core.keys import check_project_id

from memory_api.word_shape import reads_as_words

__all__ = [
    "TOKEN_NAME_RULE",
    "TokenEntry",
    "check_secret_sendable",
    "check_token_entry",
    "check_token_name",
    "find_token",
    "hash_secret",
    "hide_secrets",
    "holds_secret",
    "new_secret",
    "parse_token_spec",
]

_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
TOKEN_NAME_RULE = "1-64 characters of A-Z, a-z, 0-9, _ . -, the first a letter or digit"  # noqa: S105
"""What :func:`check_token_name` accepts, as the CLI's refusals say it (A-10)."""
_SHA256_RE = re.compile(r"[0-9a-f]{64}")
_SECRET_RE = re.compile(
    rf"(?<![A-Za-z0-9_]){re.escape(SECRET_PREFIX)}{SECRET_CHARS}{{{SECRET_BODY},}}"
    rf"|{re.escape(SECRET_PREFIX)}(?={SECRET_CHARS}*[a-z])(?={SECRET_CHARS}*[A-Z])"
    rf"{SECRET_CHARS}{{{SECRET_BODY},}}"
)
"""A secret of :func:`new_secret`'s shape, and whatever URL-safe characters follow it (one
mistyped at its end is still nearly all of it). Starting a word (``mem_`` after anything but a
letter, a digit or ``_``: ``/``, ``-``, a quote, a space, as in ``run-mem_…``) any such run is
one; inside a word (``project_mem_search_index_rebuild_after_the_schema_change_v2.md``, an
ordinary name) only a run of both lower- and upper-case letters, as random text is (a fresh
secret lacks one of them fewer than once in a billion), so a secret glued to the text before it
(``sss…mem_<secret>``) is one too. Either way a run whose first 43 characters read as words
(:func:`~memory_api.word_shape.reads_as_words`: an MCP tool's name, ``mcp__claude-mem__get_
recent_context_for_the_current_project``) is none; a secret inside such a run still is
(:func:`hide_secrets`)."""
HIDDEN_SECRET = SECRET_PREFIX + "[masked]"
"""What stands in for a secret in a log line (:func:`hide_secrets`)."""
_NOT_SENDABLE_RE = re.compile(r"[^\x20-\x7e]")
"""A character no ``Authorization`` header carries as written: a line break (CR, LF: it would
end the header), NUL, a tab or another control, and anything outside ASCII (one client sends it
as Latin-1, another as UTF-8, a third refuses to: it matches from some clients only)."""
_CHARACTER_NAMES = {"\n": "a line break (LF)", "\r": "a line break (CR)", "\x00": "NUL"}


class TokenEntry(
    msgspec.Struct, frozen=True, kw_only=True, rename="camel", forbid_unknown_fields=True
):
    """One known token: its name, the hex SHA-256 of its secret, and its reach.

    ``projects`` is None for a token that reaches every project, else the project ids it may see.
    Decoding a token file refuses a field it does not know: a misspelt ``project`` would
    otherwise leave ``projects`` unset, a token meant for one project reaching every one
    (A-10a); :func:`check_token_entry` checks the values.
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


def hide_secrets(text: str) -> str:
    """``text`` with each secret of the service's own shape (``mem_`` and 43 URL-safe
    characters or more) replaced by :data:`HIDDEN_SECRET`, for a log line quoting text a
    client chose (a path, a session id): a client that sent its token in the wrong place
    (``/api/projects/<token>/agents``) must not have it written where others read (A-10).

    >>> hide_secrets("/api/projects/mem_" + "x" * 43 + "/agents")
    '/api/projects/mem_[masked]/agents'
    """
    if SECRET_PREFIX not in text:  # nearly every log line: a substring test, not the pattern
        return text
    return _SECRET_RE.sub(_hidden, text)


def _hidden(found: re.Match[str]) -> str:
    """What stands for one run :data:`_SECRET_RE` found: :data:`HIDDEN_SECRET`, or the run
    itself when it reads as words, with any secret after its own ``mem_`` hidden."""
    run = found.group()
    start = len(SECRET_PREFIX)
    if not reads_as_words(run[start : start + SECRET_BODY]):
        return HIDDEN_SECRET
    return run[:start] + _SECRET_RE.sub(_hidden, run[start:])


def holds_secret(text: str) -> bool:
    """Whether ``text`` holds a secret of the service's shape (what :func:`hide_secrets` masks).

    >>> holds_secret("run-mem_" + "x" * 43), holds_secret("project_mem_" + "x" * 43)
    (True, False)
    """
    return hide_secrets(text) != text


def check_token_name(name: str) -> str:
    """Return ``name`` if it is a token name (:data:`TOKEN_NAME_RULE`), else raise ValueError
    saying the rule."""
    if _NAME_RE.fullmatch(name) is None:
        raise ValueError(f"token name {name!r} must be {TOKEN_NAME_RULE}")
    return name


def check_token_entry(entry: TokenEntry) -> TokenEntry:
    """Return ``entry`` (as read from a token file) if it can be a token, else raise ValueError
    saying which field is wrong, never echoing ``sha256`` (A-10a). ``sha256`` must be 64
    lowercase hex digits (what :func:`hash_secret` gives; anything else matches no secret),
    ``name`` a token name (see :func:`check_token_name`), each of ``projects`` a project id.
    """
    if _SHA256_RE.fullmatch(entry.sha256) is None:
        # never echoed: an operator may have put the secret itself there
        raise ValueError(
            "sha256 must be the 64 lowercase hex digits of the secret's SHA-256 (as "
            f"'memory-api token create' writes it), not {len(entry.sha256)} other characters"
        )
    check_token_name(entry.name)
    for project in entry.projects or ():
        try:
            check_project_id(project)
        except InvalidId as error:
            raise ValueError(f"projects: {error}") from None
    return entry


def find_token(entries: tuple[TokenEntry, ...], secret: str) -> TokenEntry | None:
    """Return the entry whose hash is ``secret``'s, or None; every digest is compared in constant
    time (:func:`hmac.compare_digest`, as bytes: it refuses a ``str`` outside ASCII) and the loop
    never stops early.
    """
    digest = hash_secret(secret).encode()
    match: TokenEntry | None = None
    for entry in entries:
        if hmac.compare_digest(entry.sha256.encode("utf-8", "surrogateescape"), digest):
            match = entry
    return match


def parse_token_spec(spec: str) -> tuple[str, tuple[str, ...] | None, str]:
    """Split ``name=secret`` or ``name:proj-a|proj-b=secret`` into (name, projects, secret).

    Raises ValueError (never echoing the secret) for a missing ``=``, a bad name or project id,
    a ``:`` naming no project (a token meant to reach some never reaches every one), a
    secret shorter than 16 characters, or one holding a character an ``Authorization`` header
    cannot carry (:func:`check_secret_sendable`).
    """
    head, sep, secret = spec.partition("=")
    if not sep:
        raise ValueError("each entry must look like name=secret or name:project|project=secret")
    name, colon, reach = head.strip().partition(":")
    check_token_name(name)
    projects: tuple[str, ...] | None = None
    if colon and not reach.strip():  # "ci:=…": a reach meant, none written; never every project
        raise ValueError(
            f"token {name!r}: no project after ':'; name them (name:proj-a|proj-b=secret), or "
            "drop the ':' for a token that reaches every project"
        )
    if reach.strip():
        try:
            projects = tuple(check_project_id(p.strip()) for p in reach.split("|"))
        except InvalidId as error:
            raise ValueError(f"token {name!r}: {error}") from None
    if len(secret.strip()) < SHORTEST_SECRET:
        raise ValueError(
            f"token {name!r}: the secret must be at least {SHORTEST_SECRET} characters"
        )
    check_secret_sendable(name, secret.strip())
    return name, projects, secret.strip()


def check_secret_sendable(name: str, secret: str) -> None:
    """Raise ValueError when ``secret`` (of token ``name``) holds a character no client can send
    in ``Authorization: Bearer <secret>``: a line break, NUL, a tab or another control, or one
    outside ASCII (only space and ``!`` to ``~`` pass). Such a token could never be used; the
    error names the character by code point and its place, never the secret (A-10a)."""
    found = _NOT_SENDABLE_RE.search(secret)
    if found is None:
        return
    char = found.group()
    what = _CHARACTER_NAMES.get(char, "a control character" if char.isascii() else "non-ASCII")
    raise ValueError(
        f"token {name!r}: the secret holds {what} (U+{ord(char):04X}) at character "
        f"{found.start() + 1}, which an Authorization header cannot carry: use only visible "
        "ASCII characters (as 'memory-api token create' makes them)"
    )
