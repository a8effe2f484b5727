"""JSON in and out of handlers: msgspec DTOs to ``application/json`` responses, bodies to DTOs.

Decoders are built once per type at module level by the route modules and passed in, so a body
is decoded straight into its Struct: a :class:`~memory_core.wire.RequestBody`, whose unknown
fields are a 422 (only answers ignore unknown fields, for clients older than the service).
Errors are left to the problem middleware: ``msgspec.ValidationError`` → 422,
``msgspec.DecodeError`` → 400, a body over ``client_max_size`` → 413.
"""

from __future__ import annotations

import asyncio
import codecs
import functools
import re
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec
from aiohttp import StreamReader, hdrs, web
from aiohttp.helpers import parse_mimetype
from aiohttp.web_protocol import RequestPayloadError
from memory_core.byte_order import marked_codec, marked_text
from memory_core.json_members import UncheckedMembers, repeated_member
from memory_core.json_text import decode as msgspec_decode
from memory_core.wire import RequestBody

from memory_api.appkeys import get_settings
from memory_api.errors import BadRequest, BodyTimedOut, UnreadableBody
from memory_api.store.entity_tags import Preconditions

__all__ = [
    "check_body_encoding",
    "check_json_headers",
    "json_response",
    "json_text",
    "preconditions",
    "query_flag",
    "read_json",
    "refuse_body",
    "unreadable_body",
]

Body = TypeVar("Body", bound=RequestBody)

_encoder = msgspec.json.Encoder()


def json_response(
    value: Any, *, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    """Encode ``value`` (a DTO, or anything msgspec encodes) as an ``application/json`` response."""
    return web.Response(
        status=status,
        body=_encoder.encode(value),
        content_type="application/json",
        headers=dict(headers or {}),
    )


def preconditions(request: web.Request) -> Preconditions:
    """The ``If-Match`` and ``If-None-Match`` of ``request``, each as every line of it sent
    says it (RFC 9110 §5.3: the lines joined by ``", "`` mean the same; a second line is never
    dropped), for the store to judge under the resource's lock (412 when one fails)."""

    def field(name: str) -> str | None:
        lines = request.headers.getall(name, ())
        return ", ".join(lines) if lines else None

    return Preconditions(field(hdrs.IF_MATCH), field(hdrs.IF_NONE_MATCH))


@functools.lru_cache(maxsize=32)
def json_text(text: str) -> msgspec.Raw:
    """``text`` as a JSON string (quoted and escaped, UTF-8), to be placed as it is in an
    answer (msgspec writes a ``Raw`` unchanged). Pure and memoised by content: a Session start
    answers the same ``memory`` text (some 30 KB) for every request of unchanged indexes, and
    escaping it was an eighth of the request's work. At most 32 texts are kept."""
    return msgspec.Raw(_encoder.encode(text))


BODY_ENCODINGS = ("gzip", "deflate", "br", "zstd")
"""The ``Content-Encoding`` values a request body may carry: aiohttp decodes each (``br`` and
``zstd`` with the ``Brotli`` and ``backports.zstd`` packages); ``identity`` or none means plain."""


def _check_media_type(request: web.Request) -> None:
    """Raise 415 (``web.HTTPUnsupportedMediaType``) unless the body is declared as JSON:
    ``application/json`` or a ``+json`` type, parameters allowed but a ``charset`` only of
    UTF-8 (:func:`_check_charset`).

    A web page of another origin can send a form or a ``text/plain`` ``fetch`` without a CORS
    preflight, but never an ``application/json`` one: so this rule keeps such a page from
    making any change through a JSON route (A-10a, :mod:`memory_api.http.browser_guard`).
    """
    media = request.content_type  # lower-cased, without parameters
    json_suffix = media.startswith("application/") and media.endswith("+json")
    sent = request.headers.get(hdrs.CONTENT_TYPE)
    if media == "application/json" or json_suffix:
        _check_charset(sent or "")
        return
    raise web.HTTPUnsupportedMediaType(
        text=(
            "the request body must be JSON sent with 'Content-Type: application/json'; "
            + ("no Content-Type was sent" if sent is None else f"got {sent[:100]!r}")
            + " (JSON media type rule: a web page of another origin cannot send that type)"
        )
    )


UTF8_LABELS = frozenset(
    ("utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8")
)
"""The ``charset`` values that name UTF-8: the labels of the WHATWG Encoding Standard, which
browsers and most HTTP libraries share (compared without case)."""
ASCII_LABELS = frozenset(("us-ascii", "ascii", "ansi_x3.4-1968"))
"""The ``charset`` values that name ASCII (IANA's ``US-ASCII`` and the names clients in a C
locale send), taken as well: ASCII is a subset of UTF-8, so an ASCII body reads the same
either way; one holding a byte past ASCII is refused (:func:`_ascii_as_declared`), as the
WHATWG standard would read the label as windows-1252 and UTF-8 would only guess."""


def _declared_charsets(content_type: str) -> list[str]:
    """The ``charset`` parameters of ``content_type``, stripped and lower case."""
    charsets = parse_mimetype(content_type).parameters.getall("charset", ())
    return [charset.strip().lower() for charset in charsets]


def _check_charset(content_type: str) -> None:
    """Raise 415 (``web.HTTPUnsupportedMediaType``) for a JSON ``content_type`` whose
    ``charset`` parameters (any number, usually none) name anything but UTF-8
    (:data:`UTF8_LABELS`). RFC 8259 8.1: JSON exchanged between systems is UTF-8, and its media
    type defines no ``charset`` (11), so ``charset=utf-8`` changes nothing and is taken; a body
    said to be Latin-1 or UTF-16 would be read as UTF-8 all the same, its text misread or
    refused as "malformed" with no word of why (A-10a: a JSON body must say it is JSON)."""
    other = [
        charset
        for charset in _declared_charsets(content_type)
        if charset not in UTF8_LABELS | ASCII_LABELS
    ]
    if not other:
        return
    raise web.HTTPUnsupportedMediaType(
        text=(
            f"the request body is declared with charset={other[0][:40]!r}, but JSON is read as "
            "UTF-8 only (RFC 8259 8.1): send the body in UTF-8, with 'Content-Type: "
            "application/json' or 'application/json; charset=utf-8'"
        )
    )


def check_body_encoding(request: web.Request) -> None:
    """Raise 415 (``web.HTTPUnsupportedMediaType``, with ``Accept-Encoding`` naming
    :data:`BODY_ENCODINGS`, RFC 9110 15.5.16) for a ``Content-Encoding`` aiohttp would pass
    through undecoded: an unknown coding, or several stacked, on one line (``gzip, br``) or on
    several (RFC 9110 5.3 makes them one list; aiohttp would decode by one of them only).
    Asked of every body the service reads: JSON (:func:`check_json_headers`) and git's
    pkt-lines (:mod:`memory_api.routes.git_sync`)."""
    lines = request.headers.getall(hdrs.CONTENT_ENCODING, ())
    if not lines:
        return
    sent = ", ".join(lines)
    coding = sent.strip()
    if len(lines) == 1 and coding.isascii() and coding.lower() in (*BODY_ENCODINGS, "identity", ""):
        return
    raise web.HTTPUnsupportedMediaType(
        text=(
            f"the request body's Content-Encoding {sent!r} is not one the service decodes: "
            f"send the body plain or as one of {', '.join(BODY_ENCODINGS)}"
        ),
        headers={"Accept-Encoding": ", ".join(BODY_ENCODINGS)},
    )


def check_json_headers(request: web.Request) -> None:
    """What :func:`read_json` refuses from the headers alone, before a byte of the body: raises
    415 (``web.HTTPUnsupportedMediaType``) for a body not declared JSON or a
    ``Content-Encoding`` the service does not decode. Asked before ``100 Continue`` too
    (:mod:`memory_api.http.expect`)."""
    _check_media_type(request)
    check_body_encoding(request)


async def read_json(request: web.Request, decoder: msgspec.json.Decoder[Body]) -> Body:
    """Read the whole body (bounded by ``client_max_size``) and decode it with ``decoder``.

    The body must be declared JSON (``Content-Type: application/json``; 415 otherwise, see
    :func:`_check_media_type`: a page of another origin cannot send that without asking) and
    its bytes must be JSON. A ``Content-Length`` over the limit is refused before a byte is
    read (413, ``web.HTTPRequestEntityTooLarge``), so a client cannot hold a request open by
    announcing more than it sends; a ``Content-Encoding`` it cannot decode is refused with 415
    (``web.HTTPUnsupportedMediaType``, see :func:`check_body_encoding`). Raises :class:`BadRequest`
    for an empty body or one that cannot be read (data that does not decode in its
    ``Content-Encoding`` or decodes to nothing, a connection lost mid-body),
    :class:`BodyTimedOut` (408) for one still incomplete after the body deadline
    (``MEMORY_API_BODY_TIMEOUT``: :attr:`~memory_api.settings.Settings.body_timeout` seconds),
    ``msgspec.ValidationError`` / ``DecodeError`` for a wrong shape or broken JSON.
    """
    body = await _read_body(request)
    if not body or body.isspace():
        raise BadRequest("the request body is empty; expected a JSON object")
    return _decoded(body, decoder)


async def _read_body(request: web.Request) -> bytes:
    """The bytes of a body declared JSON, decoded from its ``Content-Encoding``, a UTF-8 byte
    order mark leading them skipped (:func:`_unmarked`: a mark alone is an empty body), checked
    ASCII when declared so (:func:`_ascii_as_declared`); raises
    as :func:`read_json` does for everything but an empty body, which is ``b""`` here unless
    compressed data decoded to nothing (:class:`UnreadableBody`)."""
    check_json_headers(request)
    limit = request.client_max_size
    length = request.content_length
    if limit and length is not None and length > limit:
        raise web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=length)
    deadline_s = get_settings(request.app).body_timeout  # MEMORY_API_BODY_TIMEOUT
    try:
        body = _buffered_body(request.content, limit)
        if body is None:
            async with asyncio.timeout(deadline_s):
                body = await request.read()
    except TimeoutError:
        raise BodyTimedOut(
            f"the request body did not arrive within {deadline_s:g} s "
            f"({request.content_length} bytes were announced)"
        ) from None
    except RequestPayloadError as error:
        raise unreadable_body(request, error) from None
    except ConnectionError:  # the client went away mid-body: its fault, not the data dir's
        raise BadRequest("the request body was cut off: the connection was lost") from None
    if not body or body.isspace():
        coding = request.headers.get(hdrs.CONTENT_ENCODING, "").strip().lower()
        if request.content_length and coding not in ("", "identity"):
            # A stream cut before its first block (brotli's ``xx``) decodes to nothing, silently.
            raise UnreadableBody(
                f"the request body cannot be read: its {request.content_length} bytes of "
                f"{coding} data decode to nothing (not {coding} data, or cut off)"
            )
    return _ascii_as_declared(request, _unmarked(body))


def _ascii_as_declared(request: web.Request, body: bytes) -> bytes:
    """``body``, after checking that one declared ASCII (:data:`ASCII_LABELS`) holds only
    ASCII bytes; raises :class:`BadRequest` naming the first other byte and its offset."""
    if body.isascii():
        return body
    declared = _declared_charsets(request.headers.get(hdrs.CONTENT_TYPE, ""))
    ascii_label = next((charset for charset in declared if charset in ASCII_LABELS), None)
    if ascii_label is None:
        return body
    offset = next(index for index, byte in enumerate(body) if byte > 0x7F)
    raise BadRequest(
        f"the request body is declared charset={ascii_label!r} but holds the byte "
        f"0x{body[offset]:02X} (offset {offset}), which is not ASCII: send the body in UTF-8 "
        "with 'Content-Type: application/json' or 'application/json; charset=utf-8'"
    )


def unreadable_body(request: web.Request, error: RequestPayloadError) -> UnreadableBody:
    """The :class:`UnreadableBody` (400, connection closed) to raise for ``error``, which
    aiohttp's read of ``request``'s body raised: data that does not decode in its
    ``Content-Encoding``. Every reader of a body turns it into this one problem (it was a 500
    where one did not). Nothing more of the body can be read: it is marked at its end, so
    aiohttp does not try to drain it after the answer (which raised the same error again,
    logged as unhandled)."""
    request.content.feed_eof()
    reason = str(error).strip().splitlines()[-1].strip() or "it is malformed"
    return UnreadableBody(f"the request body cannot be read: {reason}")


def _unmarked(body: bytes) -> bytes:
    """``body`` without a UTF-8 byte order mark it starts with: RFC 8259 8.1 lets a reader
    ignore it, and Windows tools write it (Notepad, PowerShell's ``Out-File -Encoding utf8``),
    so ``curl --data-binary @body.json`` sends it. Raises :class:`BadRequest` naming the
    encoding for a mark of UTF-16 or UTF-32: JSON is read as UTF-8 only (RFC 8259 8.1)."""
    codec = marked_codec(body)
    if codec is None:
        return body
    if codec == "utf-8":
        return body[len(codecs.BOM_UTF8) :]
    raise BadRequest(
        f"the request body is {marked_text(body)}, but JSON is read as UTF-8 only (RFC 8259 "
        "8.1): send the body in UTF-8"
    )


def _decoded(body: bytes, decoder: msgspec.json.Decoder[Body]) -> Body:
    """``body`` decoded by ``decoder``; a lone surrogate escape or a member name given twice
    in one object is a :class:`BadRequest` naming it, other errors are msgspec's
    (:func:`read_json`). ``body`` is without its byte order mark (:func:`_read_body`)."""
    try:
        decoded = msgspec_decode(decoder, body)
    except msgspec.DecodeError:
        if (lone := lone_surrogate(body)) is not None:
            raise BadRequest(
                f"the request body holds the escape {lone} alone, half of a UTF-16 surrogate "
                "pair, which is no character (text cut inside an emoji or another character "
                "outside the Basic Multilingual Plane?); send whole characters"
            ) from None
        raise
    try:
        twice = repeated_member(body)
    except UncheckedMembers as error:
        raise BadRequest(f"the request body is refused: {error}") from None
    if twice is not None:
        raise BadRequest(
            f"the request body names the member {twice[:100]!r} more than once in one object; "
            "send each field once (JSON member names must be unique, RFC 8259 4: readers "
            "disagree on which value counts, the first or the last)"
        )
    return decoded


class _NoFields(RequestBody, frozen=True):
    """The only body a route that takes none accepts: an empty JSON object ``{}``."""


_no_fields = msgspec.json.Decoder(_NoFields)


async def refuse_body(request: web.Request) -> None:
    """Refuse a request body on a route that defines none (``POST …/template-placeholder``,
    ``…/checkpoint``; ``DELETE`` of a memory file): a body it would ignore is a client's
    mistake (a parameter it thinks it sent), never silently dropped.

    No body, or an empty JSON object ``{}`` (what the web UI and earlier clients send), pass.
    A body not declared JSON or in a ``Content-Encoding`` the service does not decode is a 415
    (``web.HTTPUnsupportedMediaType``, as on every JSON route: a page of another origin cannot
    send JSON unasked); any other JSON, or bytes that are not JSON, a :class:`BadRequest` (400)
    saying the route takes no body; over ``client_max_size`` a 413, slow a 408, as
    :func:`read_json`.
    """
    if not request.body_exists:
        return
    body = await _read_body(request)
    if not body or body.isspace():
        return
    try:
        _decoded(body, _no_fields)
    except (msgspec.DecodeError, BadRequest) as error:
        got = "" if isinstance(error, BadRequest) else f" ({error})"
        raise BadRequest(
            f"{request.method} {_route_name(request)} takes no request body: send none (or an "
            f"empty JSON object {{}}); the body sent is not one{got}"
        ) from None


def _route_name(request: web.Request) -> str:
    """The route's path template (``/api/projects/{project}/…``), else the request's path."""
    info = request.match_info.route.resource
    return info.canonical if info is not None else request.path


_SURROGATE_ESCAPE = re.compile(
    rb"\\u([dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?"  # a high half, and its low?
    rb"|\\u([dD][c-fC-F][0-9a-fA-F]{2})"  # a low half on its own
)
"""A UTF-16 surrogate escape in JSON text: a high half (and the low half after it, if any),
or a low half not after a high one."""


def lone_surrogate(body: bytes) -> str | None:
    """The first ``\\uD800``…``\\uDFFF`` escape in the JSON ``body`` not in a high-low pair,
    as written (None: none). JSON can spell one, but it is no character: msgspec refuses it,
    after a high half at a string's end with "Input data was truncated", which blamed the
    connection. (An escaped backslash before ``u`` is not told apart: the answer stays 400.)"""
    for found in _SURROGATE_ESCAPE.finditer(body):
        if found.group(1) is not None and found.group(2) is None:
            return "\\u" + found.group(1).decode("ascii")
        if found.group(3) is not None:
            return "\\u" + found.group(3).decode("ascii")
    return None


def _buffered_body(content: StreamReader, limit: int) -> bytes | None:
    """The whole body when every byte of it has arrived already, else None ("await it").

    A small JSON body usually comes in the packet of its headers, so the parser has seen its
    end (``is_eof``) before the handler runs: taking it with ``read_nowait`` skips the loop of
    awaited ``readany`` calls and the copies of :meth:`aiohttp.web.BaseRequest.read` (both
    are documented ``StreamReader`` methods). The ``client_max_size`` rule stays: a buffered
    body over ``limit`` bytes (one that grew when decompressed) raises
    ``web.HTTPRequestEntityTooLarge`` as ``read`` would; an error the parser met (a
    ``Content-Encoding`` that does not decode, a lost connection) is raised as ``read`` raises
    it. The body is consumed: ``request.read()`` afterwards would give ``b""``.
    """
    if not content.is_eof():
        return None
    body = content.read_nowait()
    if limit and len(body) > limit:
        raise web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=len(body))
    return body


def query_flag(request: web.Request, name: str) -> bool:
    """A boolean query parameter: absent or ``false`` is False, ``true`` is True.

    Raises :class:`~memory_api.errors.BadRequest` (400) for any other value.
    """
    value = request.query.get(name, "false")
    if value not in ("true", "false"):
        raise BadRequest(f"query parameter {name!r} must be true or false, not {value[:40]!r}")
    return value == "true"
