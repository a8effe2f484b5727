"""Logging set-up and the access log (A-11).

``MEMORY_API_LOG_FORMAT=json`` writes one JSON object per line (``python-json-logger``), with the
access log's fields as keys; ``text`` writes plain lines. Access lines name the method, the path
as sent (still percent-encoded, so a decoded newline cannot forge a line) *without its query*,
the route template, status, size, duration and peer, and what the handler noted (a Session
start: the harness's session id quoted, the Workspace kind, key, whether it injected) — never a
header or a body, so a bearer token can never reach a log (A-10); a secret a client put in the
path or the session id instead is masked by the log's handler, in every record of every logger
(:class:`SecretMaskFilter`: the access line, an error line naming the request, a traceback
quoting a file name), and a value cut short is masked before it is cut (:func:`log_quote`). A
request aiohttp's parser refuses is logged as one line naming the refusal, without the
offending bytes the parser quotes (:class:`ParserRefusalFilter`).
"""

from __future__ import annotations

import logging
import sys

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.http_exceptions import HttpProcessingError
from pythonjsonlogger.json import JsonFormatter

from memory_api.bearer import hide_secrets
from memory_api.http.metrics import route_template
from memory_api.settings import LogFormat

__all__ = [
    "ACCESS_LOGGER",
    "ACCESS_NOTE_KEY",
    "AccessLogger",
    "OneLineFormatter",
    "ParserRefusalFilter",
    "SecretMaskFilter",
    "configure_logging",
    "install_parser_refusal_filter",
    "log_quote",
    "note_access",
]

ACCESS_LOGGER = "memory_api.access"
ACCESS_NOTE_KEY = web.RequestKey("access_note", str)
"""What a handler adds to its request's access line (:func:`note_access`)."""
_SERVER_LOGGER = "aiohttp.server"
_TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s"
"""Each line names its process: several service processes may write to one stream."""


def configure_logging(log_format: LogFormat, level: str = "INFO") -> None:
    """Send every log record to stderr as text or JSON lines; replaces the root handlers.

    Records skip what no line prints: the caller's file and line (a walk up the stack per
    record), the thread's and the multiprocessing process's names — the optimisations the
    ``logging`` HOWTO names. The process id stays: every line names its process.
    """
    logging._srcfile = None  # the HOWTO's documented switch
    logging.logThreads = False
    logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(
            JsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
                rename_fields={
                    "asctime": "time",
                    "levelname": "level",
                    "name": "logger",
                    "process": "pid",
                },
            )
        )
    else:
        handler.setFormatter(OneLineFormatter(_TEXT_FORMAT))
    handler.addFilter(SecretMaskFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


_CONTROL_ESCAPES = {
    code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    for code in (*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029)
    if code != 0x09
}
"""Every control character (C0 but tab, DEL, C1) and the Unicode line and paragraph
separators, as the escape a reader sees: no value a record quotes can start a new line."""


class OneLineFormatter(logging.Formatter):
    """The text log's formatter: a record's line (its message with the values it quotes: a
    data dir, a scope key, a path) is one line whatever those values hold, its control
    characters escaped (``\\x0a``), so a value can neither forge a second record nor move the
    terminal (A-11). A traceback appended after the line keeps its own lines."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        """The record's line with its control characters escaped."""
        line = super().formatMessage(record)
        if line.isprintable():  # nearly every line: no control character, nothing to escape
            return line
        return line.translate(_CONTROL_ESCAPES)


class AccessLogger(AbstractAccessLogger):
    """One line per request: ``GET /api/me 200 57B 1.3ms``, with the same values as fields."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        """Write the access line of ``request`` (``time`` is the handling time in seconds)."""
        # The path as sent (still percent-encoded): a decoded %0A would forge a second log line.
        path = request.rel_url.raw_path  # a secret in it is masked by the handler
        fields = {
            "method": request.method,
            "path": path,
            "route": route_template(request),
            "status": response.status,
            "bytes": response.body_length,
            "duration_ms": round(time * 1000, 3),
            "remote": request.remote,
        }
        message = "%s %s %s %dB %.1fms"
        values: list[object] = [
            request.method,
            path,
            response.status,
            response.body_length,
            time * 1000,
        ]
        note = request.get(ACCESS_NOTE_KEY)
        if note is not None:
            fields["note"] = note
            message += " %s"
            values.append(note)
        self.logger.info(message, *values, extra=fields)


def log_quote(value: str, limit: int) -> str:
    """``value`` (one a client chose) as a log line quotes it: its secrets masked, then cut to
    ``limit`` characters, then quoted (``repr``: a line break in it is ``\\n``). Masked first:
    a secret straddling the cut, fewer than its 43 characters left, would be let through by
    the handler's mask (:class:`SecretMaskFilter`) with nearly all of it."""
    return repr(hide_secrets(value)[:limit])


def note_access(request: web.Request, note: str) -> None:
    """Add ``note`` (one line, no newline: quote anything a client chose) to the access line
    of ``request``, at its end and as its ``note`` field: what a handler did, in the request's
    one log record instead of a second record of its own."""
    request[ACCESS_NOTE_KEY] = note


class ParserRefusalFilter(logging.Filter):
    """Log a request aiohttp's HTTP parser refused as one line, without what the client sent.

    aiohttp logs such a refusal with a traceback whose message quotes the offending line: a
    header with a stray control character (``Authorization: Bearer <token>\\x01``) or a request
    line past 8190 bytes (its query string). That would put a bearer token or a query string in
    the log (A-10, A-11), so the record keeps only the peer, the kind of refusal and the status.
    A refusal (a 4xx) is the client's fault, not the service's: it is logged as a warning, so a
    scanner's stream of bad requests does not raise an error line, and alert, per request.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite a parser refusal in place; every other record passes unchanged."""
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            peer = record.args[0] if isinstance(record.args, tuple) and record.args else None
            record.msg = "refused a malformed request from %s: %s (%d)"
            record.args = (peer, type(error).__name__, error.code)
            record.exc_info = None
            record.exc_text = None
            if error.code < 500 and record.levelno > logging.WARNING:
                record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def install_parser_refusal_filter() -> None:
    """Add :class:`ParserRefusalFilter` to aiohttp's server logger once (idempotent)."""
    server_logger = logging.getLogger(_SERVER_LOGGER)
    if not any(isinstance(known, ParserRefusalFilter) for known in server_logger.filters):
        server_logger.addFilter(ParserRefusalFilter())


_RECORD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}
"""The attributes every log record has; any other is a field a caller added (``extra``)."""
_TRACEBACKS = logging.Formatter()
"""Formats a record's exception as every formatter of the log does (:func:`configure_logging`)."""


def _masked(value: object) -> object:
    """``value`` with each secret in it masked (:func:`~memory_api.bearer.hide_secrets`): a
    text, and each text in a list, tuple or mapping (keys too), at any depth the JSON log
    writes; any other value as it is."""
    if isinstance(value, str):
        return hide_secrets(value)
    if type(value) is list:  # exactly: a subclass (a named tuple) is built another way
        return [_masked(item) for item in value]
    if type(value) is tuple:
        return tuple(_masked(item) for item in value)
    if isinstance(value, dict):
        return {_masked(key): _masked(item) for key, item in value.items()}
    return value


class SecretMaskFilter(logging.Filter):
    """The log handler's filter: every secret of the service's shape in a record is masked
    (:func:`~memory_api.bearer.hide_secrets`) before any formatter sees it (A-10): its message
    with the values it quotes (a request path as sent, a session id), each text field a caller
    added (the access line's ``path`` and ``note``), its traceback (an ``OSError`` quoting a file
    name a client chose) and stack. One place for every logger, so no line naming a request
    (an access line, ``data dir error in GET …``, ``unhandled error in …``) can miss it.

    The record is changed in place: its message becomes the formatted, masked text (no
    ``args`` left), its exception the masked traceback text (``exc_text``, no ``exc_info``),
    which the text and the JSON formatters both print as they would the exception.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Mask ``record`` in place; every record passes. A message that cannot be formatted
        (a library's ``"%s %s"`` given one argument) is left as it is, masked with its arguments:
        the handler reports it as logging does ("--- Logging error ---", quoting them), never
        an exception in the code that logged it."""
        try:
            message = record.getMessage()
        except Exception:  # whatever a caller's format raises is logging's own to report
            record.msg = _masked(record.msg)  # masking leaves every % as it was
            record.args = _masked(record.args)  # type: ignore[assignment]
        else:
            record.msg = hide_secrets(message)
            record.args = None
        fields = vars(record)
        for name in fields.keys() - _RECORD_FIELDS:
            fields[name] = _masked(fields[name])
        if record.exc_info is not None and record.exc_info[0] is not None:
            record.exc_text = _TRACEBACKS.formatException(record.exc_info)
            record.exc_info = None
        if record.exc_text:
            record.exc_text = hide_secrets(record.exc_text)
        if record.stack_info:
            record.stack_info = hide_secrets(record.stack_info)
        return True
