"""The harness's own memory settings (P-2a): flags first, then ``HARNESS_MEMORY_*`` variables.

Where memory lives is decided here and only here, from what the harness's operator configured:
the service URL and token, the project and agent, and where the plugin keeps its per-Session
records. Nothing is ever read from the Workspace, so a cloned repository cannot redirect memory
writes. Only the entry point (``cli.main``) hands ``os.environ`` in.

==========================  =============================================================
variable                    meaning
==========================  =============================================================
HARNESS_MEMORY_URL          the memory service root, e.g. ``http://127.0.0.1:8080``
HARNESS_MEMORY_TOKEN        bearer token (optional against a loopback service without tokens)
HARNESS_MEMORY_TOKEN_FILE   a file holding the bearer token (read when no token is given): what
                            the installed Codex and Gemini CLI hooks name, so the token is on
                            no command line (``ps`` shows every user those)
HARNESS_MEMORY_PROJECT      project id (K-7)
HARNESS_MEMORY_AGENT        agent id (K-7)
HARNESS_MEMORY_TIMEOUT      seconds for each request to the service (default 2, at most 3600)
HARNESS_MEMORY_TEMPLATE     path of a template file (default: the hook's built-in template)
HARNESS_MEMORY_STATE_DIR    where Session records go (default ``~/.claude/harness-memory``,
                            or ``$CLAUDE_CONFIG_DIR/harness-memory``; for a ``--flags-only``
                            hook without ``--state-dir``, see below)
HARNESS_MEMORY_ROOT         memory root for the write guard when no Session record exists
HARNESS_MEMORY_REMOTE       ``on``: remote mode (R-1): memory is a local copy under the state
                            dir, synced with the service over git; the memory root is that
                            copy's (``<state dir>/remote/<project>/agents/<agent>/agent_state/
                            memory``), and ``HARNESS_MEMORY_ROOT`` has no effect (install,
                            status, sync, session-start and a hook warn of one naming
                            another folder; of a ``--memory-root`` too)
==========================  =============================================================

A hook command ``harness-memory install`` writes carries ``--flags-only``: its settings are its
flags, and every ``HARNESS_MEMORY_*`` variable is ignored, the token's too, since a repository's
own settings can set a Session's environment (Claude Code's ``.claude/settings.json`` ``env``,
Gemini CLI's ``.env`` files) and so could move the memory, the Session records the guard trusts
or the template, or send another token (memory off for the Session, P-2a). The token comes from
the 0600 file its ``--token-file`` names (H-7). A hook without ``--state-dir`` (the managed
install's, one command for every user of the machine) keeps its state in
``.claude/harness-memory`` of the account's home as the password database names it, never where
``$HOME`` or ``$CLAUDE_CONFIG_DIR`` point (a repository can set those too), and reads the token
from ``token`` there when no ``--token-file`` is given (:func:`account_state_dir`); for an
account the password database does not know it keeps no state and reads no token file. The
variables it ignored are named in :attr:`HarnessSettings.ignored_env`, for the Session-start
hook to tell the user.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import msgspec
from memory_core.bearer_form import SECRET_BODY, SECRET_CHARS, SECRET_PREFIX, SHORTEST_SECRET
from memory_core.byte_order import decode_marked, not_text
from memory_core.template import TemplateFileError, default_template, read_template_file

from harness_memory.advice import MANAGED_TOKEN_SET, Hooks

__all__ = [
    "DEFAULT_TEMPLATE",
    "DEFAULT_TIMEOUT_S",
    "ENV_PREFIX",
    "MANAGED_TOKEN_SET",
    "MAX_TIMEOUT_S",
    "TOKENS_FOLDER",
    "TOKEN_FILE_NAME",
    "HarnessSettings",
    "MissingSettingsError",
    "SettingsError",
    "TemplateUnreadableError",
    "TokenFileError",
    "TokenShapeError",
    "TokenValueError",
    "account_state_dir",
    "check_token_value",
    "default_state_dir",
    "holds_service_secret",
    "load_settings",
    "managed_folder",
    "move_aside_command",
    "remote_memory_root",
    "same_service",
    "service_digests",
    "service_key",
    "service_url_line",
    "token_kept_outside",
    "token_service",
    "token_service_file",
    "token_shape_problem",
    "token_text",
    "unknown_account_note",
]

ENV_PREFIX = "HARNESS_MEMORY_"
DEFAULT_TIMEOUT_S = 2.0
"""Seconds each request to the service may take by default: a Session start must not wait long
for memory (P-2)."""
DEFAULT_TEMPLATE = default_template()
"""The template when the harness configures none (:func:`memory_core.template.default_template`):
``{{MEMORY}}``, then the Environment section whose ``{{APP_DATA_DIR}}`` and ``{{AGENT_ID}}`` are the
values the prompts' ``<app_data_dir>/agents/<agent_id>/…`` Directory lines refer to (I-2, I-6)."""
MAX_TIMEOUT_S = 3600.0
"""The longest timeout accepted (seconds): longer than any harness waits for a hook, and far
below what a socket can take (``inf`` or ``1e308`` would overflow it mid-request)."""


class SettingsError(ValueError):
    """A setting is present but unusable (a timeout that is not a positive number)."""


class MissingSettingsError(Exception):
    """The service URL, project or agent is not configured; ``names`` lists the variables."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        super().__init__(f"set {', '.join(names)}")

    def notice(self) -> str:
        """What a hook tells the user (its ``systemMessage``): memory is off, and what to set."""
        return f"Agent Memory is off for this Session: {self}"


_NOT_IN_A_TOKEN = r"[^\x21-\x7e]"  # noqa: S105 (a pattern, no secret)
"""A character no bearer token holds (RFC 6750's token68 is visible ASCII)."""


class TokenFileError(MissingSettingsError):
    """The token file (``--token-file``) cannot be read, is too large, not UTF-8 or empty.

    A :class:`MissingSettingsError`: without its token memory is off for the Session, and a
    hook says so in its ``notice()`` (P-2) instead of asking the service without one.
    """

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__([ENV_PREFIX + "TOKEN_FILE"])
        self.args = (f"cannot read the token file {path}: {reason}",)

    def __str__(self) -> str:
        return str(self.args[0])


SERVICE_RECORD_MAX_BYTES = 4096
"""The most a token file's service record (:func:`token_service_file`) is read of."""


def token_service_file(token_file: Path) -> Path:
    """Where the service a token file's token was given for is recorded (A-10): beside it,
    its name and ``.url`` (``token.url``), one URL on one line, written with the token by
    ``install`` and ``token set``, mode 0600."""
    return token_file.with_name(token_file.name + ".url")


def token_service(token_file: Path) -> str | None:
    """The service URL recorded for the token in ``token_file`` (:func:`token_service_file`);
    None when none is recorded (no such file: a token file from before, or one ``token set``
    could name no service for), ``""`` for a record that is not one (no regular file, not one
    line, longer than :data:`SERVICE_RECORD_MAX_BYTES`, not an http(s) URL: a token written
    there by mistake), which a hook refuses without saying what it holds (A-10). Never raises
    ``OSError``; a link is not followed."""
    try:
        raw = _small_file(token_service_file(token_file), SERVICE_RECORD_MAX_BYTES)
    except FileNotFoundError:
        return None
    text = "" if raw is None else raw.decode("utf-8", "replace").strip()
    return text if service_url_line(text) else ""


def _small_file(path: Path, most: int) -> bytes | None:
    """The bytes of ``path`` when it is a regular file of at most ``most`` bytes, read without
    following a link or waiting on a FIFO; None for anything else or a read error. Raises
    ``FileNotFoundError`` when there is no such file."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    try:
        with os.fdopen(os.open(path, flags), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            raw = handle.read(most + 1)
    except FileNotFoundError:
        raise
    except OSError:
        return None
    return raw if len(raw) <= most else None


def service_url_line(text: str) -> bool:
    """Whether ``text`` (stripped) is what a service record holds (:func:`token_service_file`):
    one ``http://`` or ``https://`` URL naming a host, on one line, no white space or control
    character inside. A record of any other text is not the plugin's (the user's own file,
    or a token put there by mistake): never shown, never replaced (A-10)."""
    from urllib.parse import urlsplit  # only where a record is judged (H-5)

    if not text or not text.isprintable() or any(char.isspace() for char in text):
        return False
    if holds_service_secret(text):  # a token pasted into a URL: never shown as one
        return False
    try:
        parts = urlsplit(text)
        return parts.scheme.lower() in {"http", "https"} and bool(parts.hostname)
    except ValueError:
        return False


def holds_service_secret(text: str) -> bool:
    """Whether ``text`` holds a secret of the service's own shape (``mem_`` and 43 URL-safe
    characters, :mod:`memory_core.bearer_form`; what the service's log masks): such a text is
    never printed, nor kept as a service's URL (A-10). The pattern is compiled on the call,
    never at a hook's import (H-5)."""
    if SECRET_PREFIX not in text:
        return False
    return re.search(f"{re.escape(SECRET_PREFIX)}{SECRET_CHARS}{{{SECRET_BODY}}}", text) is not None


def same_service(url: str, other: str) -> bool:
    """Whether the service URLs ``url`` and ``other`` name the same service: scheme and host in
    any case, the scheme's own port written or not, the path with or without a last ``/``
    (``http://Host:80/api/`` is ``http://host/api``). A URL that cannot be split is only
    itself."""
    return service_key(url) == service_key(other)


def service_key(url: str) -> str:
    """The one spelling of the service ``url`` names, as :func:`same_service` judges it:
    ``scheme://host:port/path``, scheme and host in lower case, the scheme's own port written,
    no last ``/`` (``http://Host/api/`` gives ``http://host:80/api``); a URL that cannot be
    split is only itself. What an install record keeps a digest of (A-10)."""
    from urllib.parse import urlsplit  # only where a token's service is judged (H-5)

    try:
        parts = urlsplit(url.strip())
        scheme = parts.scheme.lower()
        port = parts.port or {"http": 80, "https": 443}.get(scheme)
    except ValueError:
        return url
    host = (parts.hostname or "").lower()
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}{f':{port}' if port else ''}{parts.path.rstrip('/')}"


def _given_for_another(
    given_for: str, url: str, hooks: Hooks, token_file: Path, install_reads: bool
) -> str:
    """Why a hook for the service at ``url`` refuses a token recorded as given for the one at
    ``given_for`` (A-10), and the command that gives ``url``'s, runnable as printed: ``token set
    --url`` into the hooks' ``token_file`` (``--managed`` for the managed hooks' own; an install
    never replaces a token the user gave for another service), or for a user install's
    ``--token-file`` (``install_reads``) the install again given it; a managed install's
    ``HARNESS_MEMORY_TOKEN_FILE`` is named with ``--file`` (``--managed`` wrote another file,
    and the install was refused again). ``given_for`` as ``shown_url`` shows it, ``url`` as
    :meth:`HarnessSettings.url_as_said` names it."""
    import shlex  # only on this refusal (H-5)

    from memory_core.addresses import shown_url

    before, now = shown_url(given_for), url
    own = hooks.managed and not install_reads
    where = "--managed" if own else f"--file {quoted(token_file)}"
    fix = (
        f"give {now}'s token: {hooks.new_token(now)}"
        if install_reads and not hooks.managed
        else f"run `harness-memory token set {where} --url {shlex.quote(now)}` with {now}'s "
        "token (it reads it from stdin)"
    )
    return (
        f"it holds the token given for the service at {before}, not {now}: a token is never "
        f"sent to another service (A-10); {fix}"
    )


def quoted(path: Path) -> str:
    """``path`` quoted for a POSIX shell, as a command printed for the user names it."""
    import shlex  # only on a refusal (H-5)

    return shlex.quote(str(path))


def _record_says_id_no_secret(state: Path, url: str) -> bool:
    """Whether the install record in the state folder ``state`` (``install.json``) keeps that
    the user said the ids of ``url`` are no secret (``--url-id-not-secret``, A-10). Read as the
    service record beside it is (:func:`token_service`): no link followed, no FIFO waited on,
    a regular file of at most :data:`RECORD_MAX_BYTES`; False for anything else."""
    from memory_core.json_text import loads

    try:
        raw = _small_file(state / "install.json", RECORD_MAX_BYTES)
        said = None if raw is None else loads(raw).get("urlIdNotSecret")
    except (OSError, ValueError, AttributeError):
        return False
    return isinstance(said, list) and not service_digests(url).isdisjoint(said)


def service_digests(url: str) -> set[str]:
    """The SHA-256 digests (hex) an install record may keep of the service ``url``: of its one
    spelling (:func:`service_key`) and, in a record written before that rule, of ``url`` as
    the install was given it (A-10)."""
    import hashlib

    return {hashlib.sha256(text.encode("utf-8")).hexdigest() for text in (url, service_key(url))}


def managed_folder(harness: str, platform: str = sys.platform) -> Path:
    """The system folder where ``harness`` reads its managed settings on ``platform``, as no
    variable moves it: Claude Code's ``/etc/claude-code`` (macOS ``/Library/Application
    Support/ClaudeCode``, Windows ``C:\\ProgramData\\ClaudeCode``), Codex CLI's ``/etc/codex``,
    Gemini CLI's ``/etc/gemini-cli`` (``…/GeminiCli``, ``…\\gemini-cli``), from each harness's
    settings docs; ``harness`` one of ``claude-code``, ``codex``, ``gemini``."""
    if harness == "codex":
        return Path("/etc/codex")
    names = {"claude-code": ("ClaudeCode", "claude-code"), "gemini": ("GeminiCli", "gemini-cli")}
    mac, other = names[harness]
    if platform == "darwin":
        return Path("/Library/Application Support") / mac
    if platform == "win32":
        return Path("C:/ProgramData") / (mac if harness == "claude-code" else other)
    return Path("/etc") / other


def _managed_state(harness: str | None) -> Path | None:
    """The state folder (``harness-memory``) in the managed settings folder ``harness`` reads
    (:func:`managed_folder`): where a managed install there keeps its record. Never one a
    variable moves (``GEMINI_CLI_SYSTEM_SETTINGS_PATH`` a repository may set, P-2a). None for
    no harness."""
    return None if harness is None else managed_folder(harness) / "harness-memory"


RECORD_MAX_BYTES = 1024 * 1024
"""The most of an install record (``install.json``) a refusal reads to name a URL."""


def move_aside_command(record: Path) -> str:
    """The command, in backticks, that moves the user's own file ``record`` aside (A-10):
    ``mv -n`` to ``NAME.mine`` (``-n``: a file of that name already there is never
    overwritten; the ``mv`` then leaves both, and the message says to pick another name)."""
    aside = quoted(record.with_name(record.name + ".mine"))
    return (
        f"`mv -n {quoted(record)} {aside}`; -n never overwrites a {aside} already there: "
        "if one is, pick another name"
    )


def _unreadable_record(token_file: Path, url: str, hooks: Hooks) -> str:
    """Why a hook refuses a token beside a ``token.url`` that is not a service record the
    plugin writes (:func:`token_service` ``""``: the user's own file of that name, or a token
    put there by mistake), never saying what it holds: it is not used nor replaced, and the
    token is sent nowhere while it is there (A-10); the way on, runnable as printed: move it
    aside (a name the user picks; nothing of it is removed), then ``token set --url``."""
    import shlex  # only on this refusal (H-5)

    record = token_service_file(token_file)
    now = url
    where = "--managed" if hooks.managed else f"--file {quoted(token_file)}"
    return (
        f"{record} is not a service record harness-memory wrote (one http(s) URL on one line): "
        "your own file, or a token put there by mistake; harness-memory neither uses nor "
        "replaces it, and sends this token to no service while it is there, since whose it is "
        f"is not known (A-10): move it aside ({move_aside_command(record)}), then give {now}'s "
        f"token: `harness-memory token set {where} --url {shlex.quote(now)}` (it reads it from "
        "stdin)"
    )


def _readable_by_others(path: Path) -> str:
    """Why a token file others may read is refused, with the one command that makes it
    owner-only, its path quoted for the shell (H-7): every reader says it, ``status`` too,
    which changes nothing itself."""
    import shlex  # only on this refusal: a hook process never loads it otherwise (H-5)

    return f"other users may read it: make it owner-only: `chmod 600 {shlex.quote(str(path))}`"


class TokenValueError(SettingsError):
    """A token given as a value (``--token``, ``HARNESS_MEMORY_TOKEN``) holds a byte that is
    not UTF-8; the message names where it came from and the byte, never the token."""

    def __init__(self, source: str, odd: str) -> None:
        byte = os.fsencode(odd)
        super().__init__(
            f"the token from {source} holds the byte {byte!r}, which is not UTF-8: no bearer "
            "token holds it (one token on one line)"
        )


def check_token_value(token: str, source: str) -> str:
    """Return ``token`` (from ``source``, as a message names it) unless it holds a byte that is
    not UTF-8 (Python keeps one from the environment or the command line as a lone surrogate),
    raising :class:`TokenValueError` then, or :class:`TokenShapeError` for a text that is not
    one token of the service's form, by the rule ``token set`` applies (:func:`token_shape_problem`:
    16 characters or more, no white space inside, visible ASCII): the install wrote its hooks
    into the settings, then ended in a ``UnicodeEncodeError`` traceback with no token file
    written (a torn install), kept a pasted ``NAME=value`` line as the token (every Session a
    401), or, with ``--no-check``, a five-character token ``token set`` refuses (H-7, A-10)."""
    try:
        token.encode("utf-8")
    except UnicodeEncodeError as error:
        raise TokenValueError(source, token[error.start]) from None
    if (problem := token_shape_problem(token.strip())) is not None:
        raise TokenShapeError(source, problem)
    return token


class TokenShapeError(TokenValueError):
    """A token given as a value (``--token``, ``HARNESS_MEMORY_TOKEN``) is not one token
    (:func:`token_shape_problem`: a pasted ``NAME=`` line, two lines, quotes); the message
    names where it came from and its shape, never the token (H-7)."""

    def __init__(self, source: str, problem: str) -> None:
        SettingsError.__init__(self, f"the token from {source} {problem}")


SERVICE_FORM = (
    "a token is mem_ and 43 more characters (as `memory-api token create` makes them), or a "
    "MEMORY_API_TOKENS secret of 16 or more"
)
"""What the service takes as a bearer token (A-10), as ``token set``'s refusals say it."""


def token_shape_problem(token: str, *, pasted_only: bool = False) -> str | None:
    """What keeps ``token`` (stripped, not empty) from being one bearer token the service
    takes (A-10), said by its shape only, never its text: more than one line, white space or
    a control character inside, a ``NAME=`` (``HARNESS_MEMORY_TOKEN=mem_…``), ``export`` or
    ``Bearer`` before it, quotes around it, a character outside visible ASCII (no
    ``Authorization`` header carries it), fewer than 16 characters (``mem_short``: the
    service makes ``mem_`` and 43 more, and takes a ``MEMORY_API_TOKENS`` secret of 16 or
    more). ``pasted_only`` (an install's ``--token``, ``HARNESS_MEMORY_TOKEN``, which a service
    with no tokens takes whatever they are) asks only for more than one line and what a paste
    puts around a token (``NAME=``, ``export``, ``Bearer``, quotes). None for a token of that
    form. Never raises."""
    lines = [line for line in token.replace("\r\n", "\n").replace("\r", "\n").split("\n") if line]
    if len(lines) > 1:  # LF, CRLF, CR: a line end in a file (T-4's rule), blank lines not counted
        return f"holds {len(lines)} lines: give the one token alone"
    words = token.split()
    if len(words) > 1 and words[0] in {"export", "Bearer"}:
        return f"holds `{words[0]} ` before the token: give the token alone"
    if not pasted_only and (len(words) > 1 or any(not c.isprintable() for c in token)):
        return "holds white space or a control character inside: give the one token alone"
    head, equals, tail = token.partition("=")
    if equals and _names_a_variable(head, tail):
        return "holds `NAME=` before the token: give the token alone"
    if len(token) > 1 and token[0] == token[-1] and token[0] in "\"'`":
        return "is in quotes: give the token alone"
    if pasted_only:
        return None
    if not token.isascii():
        where = next(place for place, char in enumerate(token, 1) if not char.isascii())
        return (
            f"holds a character outside ASCII (character {where}), which no Authorization "
            "header carries"
        )
    if len(token) < SHORTEST_SECRET:
        return f"is {len(token)} characters: {SERVICE_FORM}"
    return None


def _names_a_variable(head: str, tail: str) -> bool:
    """Whether ``head=tail`` is a variable's assignment rather than a secret holding ``=``:
    ``head`` a shell name and ``tail`` a token of the service's own (``mem_…``), or ``head``
    an upper-case name of a token (``HARNESS_MEMORY_TOKEN``, ``MEMORY_API_TOKENS``)."""
    name = head.replace("_", "a")
    if not (head and tail and name.isascii() and name.isalnum() and not head[0].isdigit()):
        return False
    return tail.startswith(SECRET_PREFIX) or (head.isupper() and "TOKEN" in head)


TOKEN_FILE_MAX_BYTES = 64 * 1024
"""The most a token file may hold: a bearer token is far shorter; a FIFO or ``/dev/zero`` given
by mistake is not read for ever."""


def token_text(raw: bytes) -> str:
    """The text of a token file's bytes ``raw`` (read as at most :data:`TOKEN_FILE_MAX_BYTES`
    ``+ 1``), as the hooks, ``install --token-file`` and ``token set``'s stdin all read it:
    in the encoding its byte order mark names, without the mark (a file PowerShell or Notepad
    saved), UTF-8 without one; surrounding white space (the final line end) cut. Raises
    ``ValueError`` saying why not: larger than :data:`TOKEN_FILE_MAX_BYTES`, or not the text
    it says (naming its encoding and the byte at fault: a UTF-16 file an ``echo >>`` added a
    line end to is no UTF-8, :func:`~memory_core.byte_order.not_text`)."""
    if len(raw) > TOKEN_FILE_MAX_BYTES:
        raise ValueError(f"larger than {TOKEN_FILE_MAX_BYTES} bytes")
    try:
        return decode_marked(raw).strip()
    except UnicodeDecodeError as error:
        raise ValueError(not_text(error)) from None


class TemplateUnreadableError(Exception):
    """The configured template file cannot be read (missing, unreadable, not UTF-8, too large,
    not a regular file)."""


class HarnessSettings(msgspec.Struct, frozen=True, kw_only=True):
    """Resolved settings; ``None`` means "not configured" (the caller decides if that is fatal).

    ``timeout`` is in seconds for each request to the service; ``state_dir`` holds the Session
    records (None: none are kept, :func:`account_state_dir`); ``memory_root`` is the root the
    write guard protects and the offline fallback reads (H-4). ``token_file`` names a file
    holding the token, read by :meth:`bearer_token` when ``token`` is not given (only a Session
    start reads it; the write guard never calls the service). ``remote`` is remote mode (R-1):
    the Session's scopes are a local copy under ``state_dir``, synced with the service
    (:mod:`harness_memory.remote`).
    """

    url: str | None
    token: str | None
    project: str | None
    agent: str | None
    timeout: float = DEFAULT_TIMEOUT_S
    template_file: Path | None = None
    state_dir: Path | None
    memory_root: Path | None = None
    token_file: Path | None = None
    remote: bool = False
    ignored_env: tuple[str, ...] = ()
    """``HARNESS_MEMORY_*`` variables set in the environment but ignored (``flags_only``)
    because they say something other than the hook's flags, sorted."""
    token_source: str | None = None
    """Where the token comes from, as a refusal names it (``--token``, ``HARNESS_MEMORY_TOKEN``,
    ``--token-file PATH``, ``HARNESS_MEMORY_TOKEN_FILE PATH``, ``the token file PATH`` of the
    state dir); None when no token is configured (or the settings were not loaded)."""
    url_id_said: bool = False
    """Whether the hook was told the id in :attr:`url` is no secret (its
    ``--url-id-not-secret``, written by an install given it): its refusals name the URL whole."""
    managed_hooks: bool = False
    """Whether these are the managed hooks' settings (``--flags-only`` and no ``--state-dir``:
    the account's own folder), whose 401 names ``token set --managed`` (H-7)."""
    install_reads: bool = False
    """Whether an install reads :attr:`token_file` (its ``--token-file``, for its check): a
    token of another service is refused naming the install again, not ``token set``."""
    harness: str | None = None
    """The harness whose hook runs with these settings (``hook codex …``, set by the hook's
    command line after :func:`load_settings`); None for a command run by hand. With
    :attr:`managed_hooks` it says whose hooks a message advises (:attr:`hooks`)."""

    @property
    def hooks(self) -> Hooks:
        """Whose hooks these settings are (:class:`~harness_memory.advice.Hooks`): the commands
        a refusal's message names are theirs (A-10, H-7)."""
        return Hooks(self.harness, self.managed_hooks)

    def missing(self) -> list[str]:
        """Name the variables a Session start still needs (URL, project, agent)."""
        needed = {"URL": self.url, "PROJECT": self.project, "AGENT": self.agent}
        return [ENV_PREFIX + name for name, value in needed.items() if not value]

    def required(self) -> tuple[str, str, str]:
        """URL, project and agent; :class:`MissingSettingsError` when one is not configured."""
        if not (self.url and self.project and self.agent):
            raise MissingSettingsError(self.missing())
        return self.url, self.project, self.agent

    def bearer_token(self) -> str | None:
        """The bearer token: ``token`` when given, else the text of ``token_file`` (surrounding
        whitespace, such as the final newline, stripped), else None.

        Raises :class:`TokenFileError` when the file cannot be read, is no regular file, may be
        read by other users (group or others bits: a token file is 0600, H-7), is larger than
        :data:`TOKEN_FILE_MAX_BYTES`, is not UTF-8 (nor text its byte order mark names: a file
        PowerShell or Notepad saved is read without the mark), holds only whitespace, or holds
        a character an ``Authorization`` header cannot carry as a token (white space or a line
        break inside it, a control or non-ASCII character): sent, it failed as "service
        unreachable".
        """
        if self.token is not None or self.token_file is None:
            return self.token
        try:  # O_NONBLOCK: opening a FIFO nobody writes must not wait
            with os.fdopen(os.open(self.token_file, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
                mode = os.fstat(handle.fileno()).st_mode
                if not stat.S_ISREG(mode):
                    raise TokenFileError(self.token_file, "not a regular file")
                if stat.S_IMODE(mode) & 0o077:
                    raise TokenFileError(self.token_file, _readable_by_others(self.token_file))
                raw = handle.read(TOKEN_FILE_MAX_BYTES + 1)
        except OSError as error:
            raise TokenFileError(self.token_file, error.strerror or str(error)) from error
        try:  # a file saved with a byte order mark (Notepad, PowerShell) is read without it
            token = token_text(raw)
        except ValueError as error:
            raise TokenFileError(self.token_file, str(error)) from None
        if not token:
            raise TokenFileError(self.token_file, "it is empty")
        if (odd := re.search(_NOT_IN_A_TOKEN, token)) is not None:
            raise TokenFileError(
                self.token_file,
                f"it holds {odd.group()!r}, which no bearer token holds (one token on one line)",
            )
        given_for = token_service(self.token_file) if self.url else None
        if self.url and given_for == "":
            now = self.url_as_said(self.url)
            raise TokenFileError(
                self.token_file, _unreadable_record(self.token_file, now, self.hooks)
            )
        if self.url and given_for is not None and not same_service(given_for, self.url):
            now, reads = self.url_as_said(self.url), self.install_reads
            raise TokenFileError(
                self.token_file,
                _given_for_another(given_for, now, self.hooks, self.token_file, reads),
            )
        return token

    def url_as_said(self, url: str) -> str:
        """``url`` as a command printed for the user names it (A-10): ``shown_url``, but with
        its ids shown when the user said they are no secret: the hook's
        ``--url-id-not-secret`` (:attr:`url_id_said`), or for hooks installed before it the
        install record (``install.json``) in the state dir or the token file's folder; the
        command is then runnable as printed. Managed hooks installed before they carried the
        word are read in the install record of the managed settings folder where their harness
        reads them (:func:`_managed_state`: the system's, never one a variable moves). A
        password or key stays hidden."""
        from memory_core.addresses import shown_url

        folders = [self.state_dir, self.token_file.parent if self.token_file else None]
        if self.hooks.managed and not self.url_id_said:
            folders.append(_managed_state(self.hooks.harness))
        said = self.url_id_said or any(
            _record_says_id_no_secret(folder, url) for folder in folders if folder is not None
        )
        return shown_url(url, ids=not said)

    def read_template(self) -> str:
        """Return the template file's text (UTF-8); without a file, the built-in template.

        The built-in one is :data:`DEFAULT_TEMPLATE`, with the data dir and agent id left as
        ``{{APP_DATA_DIR}}`` and ``{{AGENT_ID}}`` for the Session start to fill. Raises
        :class:`TemplateUnreadableError` when the configured file cannot be read: also when it
        is no regular file (a FIFO nobody writes would block, ``/dev/zero`` never ends) or is
        longer than :data:`memory_core.template.TEMPLATE_FILE_MAX_BYTES`.
        """
        if self.template_file is None:
            return DEFAULT_TEMPLATE
        try:
            return read_template_file(self.template_file)
        except TemplateFileError as error:
            raise TemplateUnreadableError(str(error)) from error
        except OSError as error:
            raise TemplateUnreadableError(
                f"cannot read the template file {self.template_file}: {error}"
            ) from error


def default_state_dir(environ: Mapping[str, str]) -> Path:
    """Return the plugin's state dir inside Claude Code's own config dir (never the Workspace)."""
    config = environ.get("CLAUDE_CONFIG_DIR")
    base = Path(config) if config else Path(environ.get("HOME") or Path.home()) / ".claude"
    return base / "harness-memory"


TOKEN_FILE_NAME = "token"  # noqa: S105 (a file name, not a password)
"""The token file's name in a state dir: the installers write it (mode 0600, H-7), and a
``--flags-only`` hook without ``--token-file`` reads it from :func:`account_state_dir`."""


TOKENS_FOLDER = ("harness-memory", "tokens")
"""The folders in the user's config folder (``~/.config``) that hold the token files kept out
of git work trees (H-7): the only place outside a state dir where the plugin writes a token
(:mod:`harness_memory.installers.token_place` owns the rules; the hooks read it here)."""


def token_kept_outside(state_dir: Path) -> Path | None:
    """Where ``harness-memory token set`` keeps the token of the state dir ``state_dir`` when
    that lies in a git work tree (a home, or a ``~/.claude``, kept in git: no ``.gitignore``
    stops ``git add -f``; H-7): for ``<home>/.claude/harness-memory`` (the managed hooks',
    :func:`account_state_dir`), ``<home>/.config/harness-memory/tokens/managed``, derived from
    that path alone (no variable moves it, P-2a). None for any other state dir.

    >>> str(token_kept_outside(Path("/home/ada/.claude/harness-memory")))
    '/home/ada/.config/harness-memory/tokens/managed'
    """
    if state_dir.parts[-2:] != (".claude", "harness-memory"):
        return None
    return state_dir.parent.parent.joinpath(".config", *TOKENS_FOLDER, "managed")


def account_state_dir(
    environ: Mapping[str, str],
    *,
    platform: str = sys.platform,
    local_app_data: Callable[[], str | None] | None = None,
) -> Path | None:
    """The state dir of a ``--flags-only`` hook that names none (the managed install's), in
    the running account's own folder as the system gives it: ``.claude/harness-memory`` in
    the home directory of its password database entry (POSIX), ``harness-memory`` in its
    Local AppData known folder (``platform`` ``win32``: ``local_app_data``, by default
    :func:`~harness_memory.windows_folders.local_app_data`). No environment variable moves
    it (``environ`` is not read): a repository's settings can set ``HOME``,
    ``CLAUDE_CONFIG_DIR`` and ``LOCALAPPDATA`` for a Session, and the Session records there
    tell the write guard which scope the Session may write (P-2a, P-3).

    None for an account the system gives no such folder (a container's bare uid, an entry
    without a home): its only home would be ``$HOME``, which the agent's repository may set, so
    it has no state dir: its hooks keep no Session records (the guard takes the Workspace from
    the hook's ``cwd``, as for a Session without one) and read no token file
    (:func:`unknown_account_note` says why)."""
    del environ  # what a repository may set is never read (see above)
    if platform == "win32":
        if local_app_data is None:
            from harness_memory import windows_folders  # ctypes: only where it is needed

            local_app_data = windows_folders.local_app_data
        folder = local_app_data()
        return Path(folder) / "harness-memory" if folder else None
    try:
        import pwd  # POSIX only
    except ImportError:
        return None
    try:
        home = pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        return None
    return Path(home) / ".claude" / "harness-memory" if home else None


def unknown_account_note(platform: str = sys.platform) -> str:
    """Why an account the system gives no folder of its own has no state dir, and the fix."""
    if platform == "win32":
        return (
            "Windows gives this account no Local AppData folder, so the managed hooks keep "
            "no Session records and read no token file for it: its only other folder would "
            "be one an environment variable names, which a repository's settings can set. "
            "Run the coding agent as an account with a profile"
        )
    return (
        f"this account (uid {os.getuid()}) has no entry in the password database, so the "
        "managed hooks keep no Session records and read no token file for it: its only home "
        "would be $HOME, which a repository's settings can set. Give the account an entry "
        "with its home (useradd, or a passwd line in the container image)"
    )


def remote_memory_root(state_dir: Path, project: str, agent: str) -> Path:
    """The memory root of remote mode's local copy (R-1, :class:`harness_memory.remote.
    RemoteCopy`): ``<state_dir>/remote/<project>/agents/<agent>/agent_state/memory``, shaped like
    the service's so the offline reader (H-4) and the write guard (P-3) treat it as any root."""
    return state_dir / "remote" / project / "agents" / agent / "agent_state" / "memory"


_SWITCH = {"on": True, "1": True, "true": True, "yes": True}
_SWITCH |= {"off": False, "0": False, "false": False, "no": False}


def load_settings(
    flags: Mapping[str, str | None], environ: Mapping[str, str], *, flags_only: bool = False
) -> HarnessSettings:
    """Merge command-line ``flags`` (``url``, ``token``, …; None = not given) over ``environ``.

    With ``flags_only`` (an installed hook's ``--flags-only``) no ``HARNESS_MEMORY_*`` variable
    is read, the token's neither: a setting is its flag or its default, and the variables that
    say otherwise are listed in ``ignored_env`` (P-2a); ``url_id_not_secret`` is a flag only.
    Without ``state_dir`` the state dir is then :func:`account_state_dir`, and without
    ``token``/``token_file`` the token file is its :data:`TOKEN_FILE_NAME` when there is one.

    Raises :class:`SettingsError` for a timeout that is not a number of seconds in
    (0, :data:`MAX_TIMEOUT_S`] and a ``remote`` value other than on/off (1/0, true/false, yes/no).
    In remote mode the root is the local copy's (:func:`remote_memory_root`), whatever
    ``--memory-root`` or ``HARNESS_MEMORY_ROOT`` say: the copy is what syncs with the service
    (:class:`harness_memory.remote.RemoteCopy`), and what the guard must guard.
    """

    ignored: list[str] = []

    def pick(name: str) -> str | None:
        value = flags.get(name)
        variable = ENV_PREFIX + name.upper()
        if flags_only:
            if environ.get(variable) and environ[variable] != value:
                ignored.append(variable)
        elif value is None:
            value = environ.get(variable)
        return value or None

    raw_timeout = pick("timeout")
    try:
        timeout = float(raw_timeout) if raw_timeout is not None else DEFAULT_TIMEOUT_S
    except ValueError as error:
        raise SettingsError(f"timeout must be a number of seconds, got {raw_timeout!r}") from error
    if not timeout > 0:
        raise SettingsError(f"timeout must be positive, got {raw_timeout!r}")
    if not timeout <= MAX_TIMEOUT_S:
        raise SettingsError(
            f"timeout must be at most {MAX_TIMEOUT_S:g} seconds, got {raw_timeout!r}"
        )
    template = pick("template")
    given_state_dir = pick("state_dir")
    state_dir: Path | None
    if given_state_dir:
        state_dir = Path(given_state_dir)
    else:
        state_dir = account_state_dir(environ) if flags_only else default_state_dir(environ)
    token, token_file = pick("token"), pick("token_file")
    own_token_file = None if state_dir is None else state_dir / TOKEN_FILE_NAME
    if flags_only and token is None and token_file is None and own_token_file is not None:
        outside = token_kept_outside(own_token_file.parent)  # token set's, beside a work tree
        if not os.path.lexists(own_token_file) and outside is not None:
            own_token_file = outside
        token_file = str(own_token_file) if os.path.lexists(own_token_file) else None
    switch = (pick("remote") or "off").lower()
    if switch not in _SWITCH:
        raise SettingsError(f"remote must be on or off, got {switch!r}")
    project, agent = pick("project"), pick("agent")
    memory_root = Path(root) if (root := pick("root")) else None
    if _SWITCH[switch] and state_dir is None:
        raise SettingsError(f"remote mode needs --state-dir: {unknown_account_note()}")
    if _SWITCH[switch] and project and agent and state_dir is not None:  # the copy's
        memory_root = remote_memory_root(state_dir, project, agent)
    return HarnessSettings(
        url=pick("url"),
        token=token,
        project=project,
        agent=agent,
        timeout=timeout,
        template_file=Path(template) if template else None,
        state_dir=state_dir,
        memory_root=memory_root,
        token_file=Path(token_file) if token_file else None,
        remote=_SWITCH[switch],
        ignored_env=tuple(sorted(ignored)),
        token_source=_token_source(flags, token, token_file, own_token_file),
        url_id_said=bool(flags.get("url_id_not_secret")),
        managed_hooks=flags_only and not given_state_dir,
    )


def _token_source(
    flags: Mapping[str, str | None], token: str | None, token_file: str | None, own: Path | None
) -> str | None:
    """Where :func:`load_settings` took the token from, named as the user gave it."""
    if token is not None:
        return "--token" if flags.get("token") else ENV_PREFIX + "TOKEN"
    if token_file is None:
        return None
    if flags.get("token_file"):
        return f"--token-file {token_file}"
    if token_file == str(own):
        return f"the token file {token_file}"
    return f"{ENV_PREFIX}TOKEN_FILE {token_file}"
