"""JSON in and out of handlers: msgspec DTOs to ``application/json`` responses, bodies to DTOs.

Decoders are built once per type at module level by the route modules and passed in, so a body
is decoded straight into its Struct (unknown fields are a 422 because every DTO forbids them).
Errors are left to the problem middleware: ``msgspec.ValidationError`` → 422,
``msgspec.DecodeError`` → 400, a body over ``client_max_size`` → 413.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec
from aiohttp import web
from aiohttp.web_protocol import RequestPayloadError

from memory_api.errors import BadRequest

__all__ = ["json_response", "read_json"]

T = TypeVar("T")

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


async def read_json(request: web.Request, decoder: msgspec.json.Decoder[T]) -> T:
    """Read the whole body (bounded by ``client_max_size``) and decode it with ``decoder``.

    The ``Content-Type`` is not enforced (a ``fetch`` without headers sends ``text/plain``);
    the bytes must be JSON. A ``Content-Length`` over the limit is refused before a byte is
    read (413, ``web.HTTPRequestEntityTooLarge``), so a client cannot hold a request open by
    announcing more than it sends. Raises :class:`BadRequest` for an empty body or one that
    cannot be read (a ``Content-Encoding`` whose data does not decode, a connection lost
    mid-body),
    ``msgspec.ValidationError`` / ``DecodeError`` for a wrong shape or broken JSON.
    """
    limit = request.client_max_size
    length = request.content_length
    if limit and length is not None and length > limit:
        raise web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=length)
    try:
        body = await request.read()
    except RequestPayloadError as error:
        reason = str(error).strip().splitlines()[-1].strip() or "it is malformed"
        raise BadRequest(f"the request body cannot be read: {reason}") from None
    except ConnectionError:  # the client went away mid-body: its fault, not the data dir's
        raise BadRequest("the request body was cut off: the connection was lost") from None
    if not body.strip():
        raise BadRequest("the request body is empty; expected a JSON object")
    return decoder.decode(body)
