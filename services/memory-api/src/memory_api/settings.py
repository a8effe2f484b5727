"""The service's settings, read once from environment variables by the entry point (A-11).

Only :meth:`Settings.from_env` looks at the environment; everything else receives a
:class:`Settings`. Variables (all optional):

=========================  ====================================================================
``MEMORY_API_DATA_DIR``    the data dir (default ``$XDG_DATA_HOME/agent-memory``, i.e.
                           ``~/.local/share/agent-memory``; ``make run`` sets ``<repo>/.data``)
``MEMORY_API_HOST``        address or name to bind (default ``127.0.0.1``; ``[::1]`` is read
                           as ``::1``); loopback when every address it resolves to is
                           (``memory_api.http.bind_address``)
``MEMORY_API_PORT``        TCP port (default ``8765``)
``MEMORY_API_TOKENS``      bearer tokens, comma-separated ``name=secret`` (every project) or
                           ``name:proj-a|proj-b=secret`` (those projects); hashed at load (A-10);
                           set, it must hold a token (empty or blank too is refused, A-10a)
``MEMORY_API_TOKENS_FILE`` a file of more such entries, one per line or comma-separated, ``#``
                           comment lines (a mounted Kubernetes or Compose secret, deploy.md);
                           a regular file holding at least one token, that not every account
                           may write unless on a read-only mount (A-10a)
``MEMORY_API_LOG_FORMAT``  ``text`` (default) or ``json`` (one JSON object per line)
``MEMORY_API_LOG_LEVEL``   ``DEBUG``, ``INFO`` (default), ``WARNING`` …
``MEMORY_API_CHAT_URL``    chat address with ``{draftId}``, ``{project}``, ``{agent}`` (W-4)
``MEMORY_API_DRAFT_TTL``   seconds a draft is kept (default 3600, A-12)
``MEMORY_API_MAX_BODY``    largest request body in bytes (default 1 MiB)
``MEMORY_API_MAX_AGENTS_PER_PROJECT``  agents one project may hold, created over the API
                           (default 1000; 0: no cap; 409 beyond, A-10)
``MEMORY_API_URL``         for the CLI: the running service its ``agent`` commands go through
                           (default ``http://MEMORY_API_HOST:MEMORY_API_PORT`` when one answers)
``MEMORY_API_TOKEN``       for the CLI: the bearer token it sends to that service (A-10)
``MEMORY_API_HISTORY``     ``on`` (default) keeps every change as a version (V-1), ``off`` none
``MEMORY_API_HISTORY_MAX_AGE_DAYS``  retention: versions older than this are squashed by
                           ``memory-api history prune`` (default 365; 0: no age limit, V-3)
``MEMORY_API_HISTORY_MAX_VERSIONS``  retention: versions kept per scope (default 10000; 0: no
                           limit)
``MEMORY_API_ALLOWED_HOSTS`` host names, comma-separated, that a service listening only on
                           loopback answers besides loopback names (``localhost``,
                           ``127.0.0.1``, ``[::1]``) and its bind host's own name: e.g. the
                           public name a reverse proxy on this machine passes (A-10a); set,
                           it holds a service bound beyond loopback to the same rule (a
                           container published on the host's loopback)
``MEMORY_API_SYNC_MAX_PUSH``  largest push a machine may send over git, in bytes (default 64 MiB,
                           R-1)
``MEMORY_API_SYNC_TIMEOUT``   seconds one git fetch or push may take (default 120, R-1)
``MEMORY_API_MAX_CONNECTIONS_PER_CLIENT``  connections one client (its IP address, an IPv6
                           one by its /64) may hold open at once (default 32; 0: no such cap;
                           loopback peers are not capped so: :mod:`memory_api.http.connections`)
``MEMORY_API_HEADER_TIMEOUT``  seconds a request's line and headers may take to arrive
                           (default 20; 408 and closed beyond)
``MEMORY_API_BODY_TIMEOUT``  seconds a JSON request body still on its way when its route reads
                           it may take to arrive whole (default 30; 408 and closed beyond)
``MEMORY_API_IDLE_TIMEOUT``  seconds a kept-alive connection may stay idle between requests
                           (default 75)
=========================  ====================================================================

``MEMORY_API_WORKERS`` is no longer read: ``memory-api serve`` is one process (replicas serve
more, docs/deploy.md). Its value is kept as :attr:`Settings.retired_workers` so that ``serve``
says so at start instead of ignoring it in silence.

A malformed value raises :class:`SettingsError` naming the variable.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from memory_core.account_access import other_readers, other_writers
from memory_core.addresses import bind_host
from memory_core.file_kind import file_kind

from memory_api.bearer import TokenEntry, hash_secret, parse_token_spec
from memory_api.world_writable import keeps_modes, movable_by_others, open_to_everyone

__all__ = [
    "LogFormat",
    "Settings",
    "SettingsError",
    "default_data_dir",
    "port_number",
    "resolved_data_dir",
]

LogFormat = Literal["text", "json"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
DEFAULT_DRAFT_TTL = 3600.0
MAX_PORT = 65535
"""The largest TCP port; ``MEMORY_API_PORT`` and ``serve --port`` are 0 (any) to this."""
DEFAULT_MAX_AGENTS_PER_PROJECT = 1000
DEFAULT_MAX_BODY = 1024 * 1024
DEFAULT_HISTORY_MAX_AGE_DAYS = 365
DEFAULT_HISTORY_MAX_VERSIONS = 10_000
DEFAULT_SYNC_MAX_PUSH = 64 * 1024 * 1024
DEFAULT_SYNC_TIMEOUT = 120
DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 32
DEFAULT_HEADER_TIMEOUT = 20
DEFAULT_BODY_TIMEOUT = 30
DEFAULT_IDLE_TIMEOUT = 75


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot use; the message names it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """Everything the service is configured with; immutable once built.

    ``env_tokens`` hold only hashes (A-10): the secrets from ``MEMORY_API_TOKENS`` are hashed at
    load and dropped. ``draft_ttl`` is in seconds, ``max_body`` in bytes.
    """

    data_dir: Path
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    env_tokens: tuple[TokenEntry, ...] = field(default=())
    log_format: LogFormat = "text"
    log_level: str = "INFO"
    chat_url: str | None = None
    draft_ttl: float = DEFAULT_DRAFT_TTL
    max_body: int = DEFAULT_MAX_BODY
    max_agents_per_project: int = DEFAULT_MAX_AGENTS_PER_PROJECT
    """Agents one project may hold when a client creates one over the API (A-10: a project's
    token may create agents, each with its own drafts, A-12); 0: no cap."""
    data_dir_named: bool = True
    """Whether ``data_dir`` was named (``MEMORY_API_DATA_DIR``) rather than the default; the
    CLI writes into a default data dir only when told to (:mod:`memory_api.command_place`)."""
    service_url: str | None = None
    """``MEMORY_API_URL``: the running service the CLI's ``agent`` commands go through."""
    service_token: str | None = None
    """``MEMORY_API_TOKEN``: the bearer token the CLI sends to that service."""
    history: bool = True
    """Whether every change to memory is kept as a version (V-1)."""
    history_max_age_days: int = DEFAULT_HISTORY_MAX_AGE_DAYS
    """Retention (V-3): versions older than this many days are squashed; 0: no age limit."""
    history_max_versions: int = DEFAULT_HISTORY_MAX_VERSIONS
    """Retention (V-3): versions kept per scope; 0: no limit."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names (lower-case, no port) a service listening only on loopback answers besides
    loopback ones, with or without tokens (A-10a)."""
    sync_max_push: int = DEFAULT_SYNC_MAX_PUSH
    """Bytes of a machine's push over git at most (R-1)."""
    sync_timeout: float = float(DEFAULT_SYNC_TIMEOUT)
    """Seconds one git fetch or push may take (R-1)."""
    max_connections_per_client: int = DEFAULT_MAX_CONNECTIONS_PER_CLIENT
    """Connections one client (its IP address; an IPv6 one by its /64) may hold open at once;
    0: no such cap. Loopback peers are no client of their own (Q-2c)."""
    header_timeout: float = float(DEFAULT_HEADER_TIMEOUT)
    """Seconds a request's line and headers may take to arrive (a slowloris's trickle)."""
    body_timeout: float = float(DEFAULT_BODY_TIMEOUT)
    """Seconds a JSON request body still on its way when its route reads it may take to arrive
    whole (a body announced longer than sent, or trickled); 408 and closed beyond."""
    idle_timeout: float = float(DEFAULT_IDLE_TIMEOUT)
    """Seconds a kept-alive connection may stay idle between requests."""
    tokens_file_warning: str | None = None
    """Set when the ``MEMORY_API_TOKENS_FILE`` file is readable by every account (its mode
    lets others read, ``0644``/``0444``): what ``serve`` logs as a warning, naming the file and
    its mode. Not refused: a mounted Kubernetes Secret is ``0644`` unless ``defaultMode`` says
    otherwise, and refusing would take a running deployment down on an upgrade. (One every
    account may write is refused: :class:`SettingsError` from :meth:`Settings.from_env`.)"""
    retired_workers: str | None = None
    """The value of ``MEMORY_API_WORKERS`` when set (not blank): no longer read, since the
    service is one process; ``serve`` logs a warning saying how to run more."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Build settings from ``environ`` (default ``os.environ``); may raise SettingsError."""
        env = os.environ if environ is None else environ
        data_dir = env.get("MEMORY_API_DATA_DIR", "").strip()
        return cls(
            data_dir=(
                resolved_data_dir(data_dir, "MEMORY_API_DATA_DIR")
                if data_dir
                else default_data_dir(env)
            ),
            host=bind_host(env.get("MEMORY_API_HOST", "")) or DEFAULT_HOST,
            port=_port(env.get("MEMORY_API_PORT", "")),
            env_tokens=_env_tokens(env),
            log_format=_log_format(env.get("MEMORY_API_LOG_FORMAT", "text")),
            log_level=_log_level(env.get("MEMORY_API_LOG_LEVEL", "INFO")),
            chat_url=_chat_url(env.get("MEMORY_API_CHAT_URL", "")),
            draft_ttl=float(_int(env, "MEMORY_API_DRAFT_TTL", int(DEFAULT_DRAFT_TTL), low=1)),
            max_body=_int(env, "MEMORY_API_MAX_BODY", DEFAULT_MAX_BODY, low=1024),
            max_agents_per_project=_int(
                env, "MEMORY_API_MAX_AGENTS_PER_PROJECT", DEFAULT_MAX_AGENTS_PER_PROJECT, low=0
            ),
            data_dir_named=bool(data_dir),
            service_url=_service_url(env.get("MEMORY_API_URL", "")),
            service_token=env.get("MEMORY_API_TOKEN", "").strip() or None,
            history=_switch(env, "MEMORY_API_HISTORY"),
            history_max_age_days=_int(
                env, "MEMORY_API_HISTORY_MAX_AGE_DAYS", DEFAULT_HISTORY_MAX_AGE_DAYS, low=0
            ),
            history_max_versions=_int(
                env, "MEMORY_API_HISTORY_MAX_VERSIONS", DEFAULT_HISTORY_MAX_VERSIONS, low=0
            ),
            allowed_hosts=_allowed_hosts(env.get("MEMORY_API_ALLOWED_HOSTS", "")),
            sync_max_push=_int(env, "MEMORY_API_SYNC_MAX_PUSH", DEFAULT_SYNC_MAX_PUSH, low=1024),
            sync_timeout=float(
                _int(env, "MEMORY_API_SYNC_TIMEOUT", DEFAULT_SYNC_TIMEOUT, low=1, high=3600)
            ),
            max_connections_per_client=_int(
                env,
                "MEMORY_API_MAX_CONNECTIONS_PER_CLIENT",
                DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
                low=0,
            ),
            header_timeout=float(
                _int(env, "MEMORY_API_HEADER_TIMEOUT", DEFAULT_HEADER_TIMEOUT, low=1, high=3600)
            ),
            body_timeout=float(
                _int(env, "MEMORY_API_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT, low=1, high=3600)
            ),
            idle_timeout=float(
                _int(env, "MEMORY_API_IDLE_TIMEOUT", DEFAULT_IDLE_TIMEOUT, low=1, high=86400)
            ),
            retired_workers=env.get("MEMORY_API_WORKERS", "").strip() or None,
            tokens_file_warning=tokens_file_warning(env.get("MEMORY_API_TOKENS_FILE", "").strip()),
        )


def default_data_dir(env: Mapping[str, str]) -> Path:
    """Return ``$XDG_DATA_HOME/agent-memory`` (``~/.local/share/agent-memory`` without it)."""
    xdg = env.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return resolved_data_dir(str(base / "agent-memory"), "XDG_DATA_HOME")


def resolved_data_dir(named: str, named_by: str) -> Path:
    """The data dir ``named`` (``~`` expanded) as a real path, its symlinks resolved.

    Raises :class:`SettingsError` naming ``named_by`` (``MEMORY_API_DATA_DIR``, ``--data-dir``)
    and the path when a symlink loop lies on its way (``Path.resolve`` raised ``RuntimeError:
    Symlink loop``, a traceback from every command): no folder can ever be there as named, as
    :func:`~memory_api.stores.unusable_data_dir` says for ``serve`` (exit 2)."""
    path = Path(named).expanduser()
    try:
        return path.resolve()
    except (RuntimeError, OSError):  # 3.13 raises OSError(ELOOP)
        raise SettingsError(
            f"{named_by}: the data dir {path} cannot be a folder (a symlink loop lies on its "
            "way); name another, or remove the loop"
        ) from None


def port_number(text: str) -> int | None:
    """The TCP port ``text`` names: decimal ASCII digits (spaces around them ignored), 0 (the
    kernel chooses) to :data:`MAX_PORT`; None for anything else (``+80``, ``8_0``, ``0x50``,
    ``99999``, which the socket layer took modulo 65536). How ``MEMORY_API_PORT`` and
    ``serve --port`` are both read (A-11).

    >>> port_number(" 8765 "), port_number("+80"), port_number("65536")
    (8765, None, None)
    """
    digits = text.strip()
    if not (digits.isascii() and digits.isdecimal()):
        return None
    value = int(digits)
    return value if value <= MAX_PORT else None


def _port(raw: str) -> int:
    """``MEMORY_API_PORT`` (:func:`port_number`); :data:`DEFAULT_PORT` when unset or blank.
    Raises :class:`SettingsError` naming the variable for anything else."""
    if not raw.strip():
        return DEFAULT_PORT
    port = port_number(raw)
    if port is None:
        raise SettingsError(
            f"MEMORY_API_PORT must be a whole number from 0 to {MAX_PORT}, got {raw.strip()[:40]!r}"
        )
    return port


def _int(
    env: Mapping[str, str], name: str, default: int, *, low: int, high: int | None = None
) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be an integer, got {raw!r}") from None
    if value < low or (high is not None and value > high):
        bounds = f">= {low}" if high is None else f"between {low} and {high}"
        raise SettingsError(f"{name} must be {bounds}, got {value}")
    return value


TOKENS_FILE_CAP = 1024 * 1024
"""A tokens file longer than this (bytes) is refused rather than read: it is a few lines."""


def _env_tokens(env: Mapping[str, str]) -> tuple[TokenEntry, ...]:
    """The tokens of ``MEMORY_API_TOKENS`` and of the file ``MEMORY_API_TOKENS_FILE`` names.

    A variable that is set but yields no token raises :class:`SettingsError`: the operator asked
    for tokens, and starting without any would open the service (A-10a). Set but empty or blank
    (a ``${TOKENS}`` with nothing in it, in an env file, a systemd unit or Compose) is such a
    variable too: only an unset one means no tokens.
    """
    _refuse_set_but_empty(env)
    raw = env.get("MEMORY_API_TOKENS", "")
    entries = _tokens(raw, "MEMORY_API_TOKENS")
    if raw.strip() and not entries:
        raise SettingsError(
            f"MEMORY_API_TOKENS holds no token: give name=secret entries, or {_UNSET_MEANS}"
        )
    path = env.get("MEMORY_API_TOKENS_FILE", "").strip()
    if path:
        _refuse_writable_by_everyone(path)
        from_file = _tokens(_tokens_file_text(Path(path)), "MEMORY_API_TOKENS_FILE")
        if not from_file:
            raise SettingsError(
                f"MEMORY_API_TOKENS_FILE: {path} holds no token (only blank or comment lines): "
                "add a name=secret line, or unset MEMORY_API_TOKENS_FILE to run without it"
            )
        entries += from_file
    names = [entry.name for entry in entries]
    if len(set(names)) != len(names):
        raise SettingsError("MEMORY_API_TOKENS, MEMORY_API_TOKENS_FILE: token names must be unique")
    return entries


_UNSET_MEANS = (
    "unset it: then the service takes the data dir's token files (`memory-api token create` "
    "makes one), and with none it runs open, on loopback only"
)
"""What unsetting a token variable means, as every command's refusal says it (A-10a)."""


def _refuse_set_but_empty(env: Mapping[str, str]) -> None:
    """Raise :class:`SettingsError` when a token variable is set but empty or blank (A-10a)."""
    for name in ("MEMORY_API_TOKENS", "MEMORY_API_TOKENS_FILE"):
        if name in env and not env[name].strip():
            raise SettingsError(
                f"{name} is set but empty (perhaps a ${{VARIABLE}} with nothing in it): give "
                f"tokens, or {_UNSET_MEANS}"
            )


def _refuse_writable_by_everyone(path: str) -> None:
    """Raise :class:`SettingsError` when every account on the machine may write the tokens file
    at ``path`` (followed through symlinks, as a mounted Secret is one): anyone could add a
    token of their own, which this start would take, as a token file of the token folder every
    account may write is never trusted (A-10a); so is a file below a folder every account may
    write, or another account owns or its group may write
    (:func:`~memory_api.world_writable.movable_by_others`: that account could put a file of
    its own in its place). A file on a read-only mount is fine whatever its mode (a
    Kubernetes Secret's volume). On a disk that keeps no permission bits (every
    file ``0777``: exFAT, FAT, WSL drvfs), where ``chmod o-w`` does nothing, the message says
    to move the file instead. A path that cannot be looked at passes here: reading it then
    fails with its own error, as does one that is no regular file."""
    try:
        info = Path(path).stat()
    except OSError:
        return
    mode = info.st_mode
    if not stat.S_ISREG(mode):
        return  # a FIFO, device or folder is refused by its kind when read
    if not open_to_everyone(path, mode):
        written = other_writers(path, info)
        if written is not None:
            raise SettingsError(
                f"MEMORY_API_TOKENS_FILE: {path} {written}: another account may write it, so "
                "it could add a token of their own, which this start would take; keep it "
                "owned by the service's user (or root) and written by no other account."
            )
        movable = movable_by_others(path)
        if movable is not None and not movable[1].startswith("cannot be looked at"):
            folder, why = movable
            raise SettingsError(
                f"MEMORY_API_TOKENS_FILE: {path} lies below {folder}, which {why} (a file of "
                "tokens this start would take); or keep the file in a folder only its owner "
                "may write."
            )
        return
    said = (
        f"MEMORY_API_TOKENS_FILE: {path} can be written by every account (mode "
        f"{stat.S_IMODE(mode):04o}): anyone on this machine could add a token of their own, "
        "which this start would take. "
    )
    if keeps_modes(path):
        raise SettingsError(f"{said}Make it owner-only (chmod o-w {path}, or chmod 600 it).")
    raise SettingsError(
        f"{said}Its disk keeps no permission bits (exFAT, FAT, WSL drvfs, a Windows bind mount: "
        "chmod changes nothing there): move the file to a disk that keeps them, or give the "
        "tokens in MEMORY_API_TOKENS."
    )


def tokens_file_warning(path: str) -> str | None:
    """Why the tokens file at ``path`` (followed through symlinks, as a mounted Secret is one)
    is too open, or None: its mode lets every account on the machine read the plain secrets
    (the "other" read bit; one they may write stops the start: see
    :func:`_refuse_writable_by_everyone`), or another account may read them: its owner, a
    group it shares, an ACL entry (:func:`~memory_core.account_access.other_readers`). The
    service's own group is fine: a Kubernetes Secret mounted ``0440`` with ``fsGroup`` (the
    pod's ``runAsGroup``) is read by the service through it. None for no path, or one that
    cannot be looked at (reading it then fails with its own error)."""
    if not path:
        return None
    try:
        info = Path(path).stat()
    except OSError:
        return None
    mode = stat.S_IMODE(info.st_mode)
    if not mode & stat.S_IROTH:
        readers = other_readers(path, info)
        if readers is None:
            return None
        return (
            f"MEMORY_API_TOKENS_FILE {path} {readers}: anyone who may read it can read its "
            "secrets. Make it owner-only (chmod 600), or group-only for the service's own "
            "group (0440); in Kubernetes set the Secret volume's defaultMode to 0400, or to "
            "0440 with the pod's fsGroup equal to its runAsGroup."
        )
    return (
        f"MEMORY_API_TOKENS_FILE {path} is readable by every account (mode {mode:04o}): anyone "
        "on this machine can read its secrets. Make it owner-only (chmod 600), or "
        "group-only for the service's group (0440); in Kubernetes set the Secret volume's "
        "defaultMode (0400, or 0440 with fsGroup)."
    )


def _tokens_file_text(path: Path) -> str:
    """The entries of a tokens file: ``#`` comment lines dropped, lines joined with commas. A
    leading byte order mark (what Windows editors write at the start of UTF-8) is no part of
    the first entry."""
    raw = _read_named_file(path, "MEMORY_API_TOKENS_FILE", cap=TOKENS_FILE_CAP)
    try:
        text = raw.decode("utf-8-sig")  # UTF-8, a leading BOM dropped
    except UnicodeDecodeError:
        raise SettingsError(f"MEMORY_API_TOKENS_FILE: {path} is not UTF-8") from None
    # Whole-line comments only: a secret may hold a "#".
    return ",".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _read_named_file(path: Path, variable: str, *, cap: int) -> bytes:
    """Return the bytes (at most ``cap``) of the regular file that ``variable`` names.

    A FIFO, socket, device or folder is refused before it is opened for reading (a FIFO would
    block the start for ever, a device may never end), and the open itself never blocks
    (``O_NONBLOCK``); a file that is swapped between the check and the open is refused too.
    Raises :class:`SettingsError` naming ``variable`` and ``path`` when the file cannot be read,
    is not a regular file, or is longer than ``cap`` bytes.
    """
    try:
        mode = path.stat().st_mode  # follows links: a mounted Secret is one
        if not stat.S_ISREG(mode):
            raise SettingsError(_not_regular(variable, path, mode))
        flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
        descriptor = os.open(path, flags)
        with os.fdopen(descriptor, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if not stat.S_ISREG(mode):
                raise SettingsError(_not_regular(variable, path, mode))
            raw = handle.read(cap + 1)
    except OSError as error:
        raise SettingsError(f"{variable}: cannot read {path}: {error.strerror or error}") from None
    if len(raw) > cap:
        raise SettingsError(f"{variable}: {path} is over {cap} bytes")
    return raw


def _not_regular(variable: str, path: Path, mode: int) -> str:
    kind = file_kind(mode)
    return f"{variable}: {path} is {kind}, not a regular file: name a file holding the entries"


def _tokens(raw: str, source: str) -> tuple[TokenEntry, ...]:
    entries: list[TokenEntry] = []
    for spec in (part.strip() for part in raw.split(",")):
        if not spec:
            continue
        try:
            name, projects, secret = parse_token_spec(spec)
        except ValueError as error:
            raise SettingsError(f"{source}: {error}") from None
        entries.append(TokenEntry(name=name, sha256=hash_secret(secret), projects=projects))
    return tuple(entries)


def _switch(env: Mapping[str, str], name: str) -> bool:
    """``on`` (the default, also ``true``, ``1``, ``yes``) or ``off`` (``false``, ``0``, ``no``)."""
    raw = env.get(name, "").strip().lower()
    if raw in ("", "on", "true", "1", "yes"):
        return True
    if raw in ("off", "false", "0", "no"):
        return False
    raise SettingsError(f"{name} must be 'on' or 'off', got {raw!r}")


_HOST_NAME_RE = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")


def _allowed_hosts(raw: str) -> tuple[str, ...]:
    """The names of ``MEMORY_API_ALLOWED_HOSTS``: lower-cased, final dot dropped, no port."""
    names: list[str] = []
    for part in (part.strip().lower().rstrip(".") for part in raw.split(",")):
        if not part:
            continue
        if len(part) > 253 or _HOST_NAME_RE.fullmatch(part) is None:
            raise SettingsError(
                f"MEMORY_API_ALLOWED_HOSTS: {part!r} is not a host name (letters, digits, "
                "hyphens and dots; no port, no scheme)"
            )
        names.append(part)
    return tuple(dict.fromkeys(names))


def _log_format(raw: str) -> LogFormat:
    value = raw.strip().lower() or "text"
    if value == "text":
        return "text"
    if value == "json":
        return "json"
    raise SettingsError(f"MEMORY_API_LOG_FORMAT must be 'text' or 'json', got {raw!r}")


def _log_level(raw: str) -> str:
    value = raw.strip().upper() or "INFO"
    if value not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise SettingsError(f"MEMORY_API_LOG_LEVEL must be a logging level name, got {raw!r}")
    return value


def _service_url(raw: str) -> str | None:
    value = raw.strip().rstrip("/")
    if not value:
        return None
    if not value.startswith(("http://", "https://")):
        raise SettingsError(f"MEMORY_API_URL must be an http(s) URL, got {raw!r}")
    return value


def _chat_url(raw: str) -> str | None:
    value = raw.strip()
    if not value:
        return None
    if not value.startswith(("http://", "https://", "/")):
        raise SettingsError("MEMORY_API_CHAT_URL must be an http(s) URL or an absolute path")
    if "{draftId}" not in value:
        raise SettingsError("MEMORY_API_CHAT_URL must hold the {draftId} placeholder")
    return value
