"""Logging set-up and the access log (A-11).

``MEMORY_API_LOG_FORMAT=json`` writes one JSON object per line (``python-json-logger``), with the
access log's fields as keys; ``text`` writes plain lines. Access lines name the method, the path
as sent (still percent-encoded, so a decoded newline cannot forge a line) *without its query*,
the route template, status, size, duration and peer — never a header or a body, so a bearer
token can never reach a log (A-10).
"""

from __future__ import annotations

import logging
import sys

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from pythonjsonlogger.json import JsonFormatter

from memory_api.http.metrics import route_template
from memory_api.settings import LogFormat

__all__ = ["ACCESS_LOGGER", "AccessLogger", "configure_logging"]

ACCESS_LOGGER = "memory_api.access"
_TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s"
"""Each line names its process: with ``serve --workers N`` several write to one stream."""


def configure_logging(log_format: LogFormat, level: str = "INFO") -> None:
    """Send every log record to stderr as text or JSON lines; replaces the root handlers."""
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
        handler.setFormatter(logging.Formatter(_TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


class AccessLogger(AbstractAccessLogger):
    """One line per request: ``GET /api/me 200 57B 1.3ms``, with the same values as fields."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        """Write the access line of ``request`` (``time`` is the handling time in seconds)."""
        # The path as sent (still percent-encoded): a decoded %0A would forge a second log line.
        path = request.rel_url.raw_path
        fields = {
            "method": request.method,
            "path": path,
            "route": route_template(request),
            "status": response.status,
            "bytes": response.body_length,
            "duration_ms": round(time * 1000, 3),
            "remote": request.remote,
        }
        self.logger.info(
            "%s %s %s %dB %.1fms",
            request.method,
            path,
            response.status,
            response.body_length,
            time * 1000,
            extra=fields,
        )
