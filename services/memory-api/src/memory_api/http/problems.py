"""RFC 9457 problem details: the one place where exceptions become HTTP error responses.

Every error the service answers has the same shape, sent as ``application/problem+json``::

    {"type": "about:blank", "title": "Not Found", "status": 404,
     "detail": "no agent 'coder' in project 'acme'", "instance": "/api/projects/acme/agents/coder"}

The map, applied by :func:`problem_middleware`:

=================================  ======  ===================================================
``ServiceError`` subclasses        its own ``status`` (400, 401, 404, 409, 412, 413, 429, 503 …)
                                           and ``problem_type`` (the 401s name which:
                                           ``errors.TokenMissing`` …)
``memory_core.errors.InvalidId``   400     an id or file name failing K-7
``…errors.FileKeptChanging``       409     a file others write kept changing through every
                                           attempt of an edit (``memory_core.file_edit``)
``msgspec.ValidationError``        422     a JSON body of the wrong shape (``… at $.name``)
``msgspec.DecodeError``            400     a body that is not JSON at all
``web.HTTPException`` ≥ 400        its status: router 404/405, body-size 413 and friends
``OSError``                        503     the data dir refused a read or write (no permission,
                                           read-only or full disk): logged with the path,
                                           answered with the reason only, never the path
anything else                      500     logged with a traceback, answered without internals
=================================  ======  ===================================================

``ValidationError`` subclasses ``DecodeError``, so it is caught first.
"""

from __future__ import annotations

import asyncio
import logging
import re
import unicodedata
import uuid
from collections.abc import Mapping
from http import HTTPStatus

import msgspec
from aiohttp import web
from aiohttp.typedefs import Handler
from memory_core.errors import FileKeptChanging, InvalidId
from memory_core.hidden_text import HIDDEN_CANDIDATES
from memory_core.wire import Problem

from memory_api.errors import ServiceError, TooMany, Unauthorized, write_fix
from memory_api.store.containment import FolderNotHeld

__all__ = [
    "PROBLEM_CONTENT_TYPE",
    "PROBLEM_KEY",
    "body_too_large",
    "problem_middleware",
    "problem_response",
    "shown_path",
]

logger = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"
_KEEP_HEADERS = ("Accept-Encoding", "Allow", "Retry-After", "WWW-Authenticate")
_DATA_DIR_ACCESS = "read and write access to the data dir (its owner and mode)"
"""What the service's account needs where a refusal no route names came from (``write_fix``)."""
_encoder = msgspec.json.Encoder()
PROBLEM_KEY = web.ResponseKey("problem", Problem)
"""The :class:`~memory_core.wire.Problem` an answer of :func:`problem_response` holds, as it
was built (``response.get(PROBLEM_KEY)``): for a caller that must know what an answer said
without parsing the body it just encoded (the git routes remember a machine's failed one)."""


_HIDDEN = re.compile(f"[{HIDDEN_CANDIDATES}]")
_URI_PATH_ASCII = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/[]"
)
"""The ASCII characters a path of a URI reference holds as themselves (RFC 3986 3.3, ``[]``
kept as clients send them); every other one, ``%`` and space included, is percent-encoded."""


def shown_path(path: str) -> str:
    """The request path ``path``, as the request sent it (percent-encoded:
    ``request.rel_url.raw_path``), as a problem shows it, in ``instance`` and in a ``detail``
    that echoes it (A-11, I-9): a URI reference naming the same path (RFC 3986/3987), every
    control character, bidirectional control, invisible character
    (:data:`~memory_core.hidden_text.HIDDEN_CANDIDATES`), separator or other unassigned/format
    character, space, ``%`` and ASCII no path holds percent-encoded as its UTF-8 bytes; visible
    letters of any script kept (sent escaped or not). Escapes of bytes that spell no UTF-8
    character, and of ``/``, stay as sent (hex in upper case), so the path shown is the path
    asked for. Never raises: a lone surrogate is shown as the byte it stands for
    (``surrogateescape``) or else as its three bytes (CESU-8).

    >>> shown_path("/api/x%E2%80%AEgpj.md"), shown_path("/api/caf%C3%A9%20100%25")
    ('/api/x%E2%80%AEgpj.md', '/api/café%20100%25')
    >>> shown_path("/api/%ed%a0%80x/a%2Fb/100%")
    '/api/%ED%A0%80x/a%2Fb/100%25'
    """
    shown: list[str] = []
    at = 0
    for run in _ESCAPES.finditer(path):
        shown.extend(map(_shown_char, path[at : run.start()]))
        sent = bytes.fromhex(run.group().replace("%", ""))
        shown.extend(map(_shown_escaped, sent.decode("utf-8", "surrogateescape")))
        at = run.end()
    shown.extend(map(_shown_char, path[at:]))
    return "".join(shown)


_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
"""A run of percent-escapes in a path as sent."""


def _shown_escaped(char: str) -> str:
    """One character of a run of escapes decoded (``surrogateescape``: a byte that spells no
    UTF-8 character stands as U+DC80-U+DCFF) as :func:`shown_path` shows it."""
    if "\udc80" <= char <= "\udcff":
        return f"%{ord(char) - 0xDC00:02X}"  # the byte sent, escaped as it was sent
    return "%2F" if char == "/" else _shown_char(char)


def _shown_char(char: str) -> str:
    if char in _URI_PATH_ASCII or (
        not char.isascii()
        and unicodedata.category(char)[0] not in "CZ"
        and not _HIDDEN.fullmatch(char)
    ):
        return char
    try:
        sent = char.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate no byte stands for
        sent = char.encode("utf-8", "surrogatepass")
    return "".join(f"%{byte:02X}" for byte in sent)


def body_too_large(limit: int) -> str:
    """The ``detail`` of a 413: the body is over ``limit`` bytes."""
    return f"the request body is larger than the limit of {limit} bytes"


def problem_response(
    status: int,
    detail: str,
    *,
    title: str | None = None,
    instance: str | None = None,
    headers: Mapping[str, str] | None = None,
    problem_type: str = "about:blank",
) -> web.Response:
    """Build an ``application/problem+json`` response; ``title`` defaults to the status phrase,
    ``problem_type`` (the ``type`` a client matches, RFC 9457) to ``about:blank``. The problem
    is kept on the response under :data:`PROBLEM_KEY`. ``instance`` (the request's path as
    sent, percent-encoded: ``request.rel_url.raw_path``) is given as :func:`shown_path` shows
    it, whoever passes it."""
    problem = Problem(
        type=problem_type,
        title=title or _phrase(status),
        status=status,
        detail=detail,
        instance=None if instance is None else shown_path(instance),
    )
    response = web.Response(
        status=status,
        body=_encoder.encode(problem),
        content_type=PROBLEM_CONTENT_TYPE,
        headers=dict(headers or {}),
    )
    response[PROBLEM_KEY] = problem
    return response


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _http_detail(request: web.Request, error: web.HTTPException) -> str:
    if error.status == 404:
        if not request.path.startswith("/"):  # CONNECT host:port, OPTIONS *: no path at all
            return (
                f"the {request.method} request's target is not a path (as CONNECT host:port and "
                "OPTIONS * are not): this service serves paths only, such as /api/projects"
            )
        return f"nothing is served at {shown_path(request.rel_url.raw_path)}"
    if error.status == 405:
        allowed = error.headers.get("Allow", "")
        where = shown_path(request.rel_url.raw_path)
        return f"{request.method} is not allowed on {where}; allowed: {allowed or 'none'}"
    if error.status == 413:
        return body_too_large(request.client_max_size)
    text = (error.text or "").strip()
    if text and not text.startswith(f"{error.status}:"):
        return text
    return error.reason


@web.middleware
async def problem_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Turn every error raised below into a problem+json response (see the module table)."""
    logged_path = request.rel_url.raw_path  # as sent: no decoded newline forges a log line
    instance = logged_path  # as sent too: shown_path keeps the escapes of bytes no UTF-8
    try:
        return await handler(request)
    except ServiceError as error:
        headers = {"WWW-Authenticate": 'Bearer realm="memory-api"'}
        if isinstance(error, TooMany):
            headers = {"Retry-After": str(error.retry_after)}
        # The title is the status phrase: RFC 9457 4.2.1 for "about:blank", and as constant
        # for each of the service's own types (memory_core.wire.PROBLEM_TYPE_BASE) as 3.1.3 asks.
        response = problem_response(
            error.status,
            error.detail,
            instance=instance,
            headers=headers if isinstance(error, Unauthorized | TooMany) else None,
            problem_type=error.problem_type,
        )
        if error.closes_connection:
            response.force_close()
        return response
    except InvalidId as error:
        return problem_response(400, str(error), instance=instance)
    except FileKeptChanging as error:
        return problem_response(409, str(error), instance=instance)
    except msgspec.ValidationError as error:
        return problem_response(422, f"the request body is invalid: {error}", instance=instance)
    except msgspec.DecodeError as error:
        return problem_response(
            400, f"the request body is not valid JSON: {error}", instance=instance
        )
    except web.HTTPException as error:
        if error.status < 400:
            raise
        headers = {name: error.headers[name] for name in _KEEP_HEADERS if name in error.headers}
        return problem_response(
            error.status, _http_detail(request, error), instance=instance, headers=headers
        )
    except asyncio.CancelledError:
        raise
    except FolderNotHeld as error:  # the service's setting, known at start: no incident
        logger.warning("%s %s refused: %s", request.method, logged_path, error.strerror)
        return problem_response(503, FolderNotHeld.detail, instance=instance)
    except OSError as error:
        incident = uuid.uuid4().hex[:12]
        logger.exception(
            "data dir error in %s %s (incident %s)", request.method, logged_path, incident
        )
        reason = error.strerror or type(error).__name__
        fix = write_fix(error, _DATA_DIR_ACCESS)
        return problem_response(
            503,
            f"the data dir could not be used ({reason}): {fix}, then try again; the log names "
            f"incident {incident}",
            instance=instance,
        )
    except Exception:
        incident = uuid.uuid4().hex[:12]
        logger.exception(
            "unhandled error in %s %s (incident %s)", request.method, logged_path, incident
        )
        return problem_response(
            500,
            f"the service failed to handle this request; the log names incident {incident}",
            instance=instance,
        )
