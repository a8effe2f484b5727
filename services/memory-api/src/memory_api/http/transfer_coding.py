"""A request body is framed ``chunked`` or by ``Content-Length``, never in a coding read as plain.

``Transfer-Encoding`` lists the codings applied to the body, the last being ``chunked`` (RFC
9112 6.1). aiohttp undoes ``chunked`` alone and passed the others over: ``Transfer-Encoding:
gzip, chunked`` had its gzip bytes read as the JSON itself ("invalid character (byte 0)",
blaming the client's JSON), and ``foo, chunked`` was served as if plain, a body read otherwise
than its sender (or a proxy in front) framed it. A server that receives a transfer coding it
does not understand should answer 501 (RFC 9112 6.1); :func:`transfer_coding_middleware` does,
naming it, before any route runs (before ``100 Continue`` too: it is one of the request gates,
:data:`memory_api.http.expect.REQUEST_GATES_KEY`). Compression goes in ``Content-Encoding``
(:data:`memory_api.http.jsonio.BODY_ENCODINGS`). aiohttp's parser refuses the rest already
(400): a coding without ``chunked`` last, ``Transfer-Encoding`` beside ``Content-Length``.
"""

from __future__ import annotations

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler

__all__ = ["transfer_coding_middleware", "unknown_transfer_codings"]

_SHOWN = 100
"""Characters of the header quoted in a refusal at most."""


def unknown_transfer_codings(lines: list[str]) -> str | None:
    """The ``Transfer-Encoding`` lines of a request, joined as one list, when they name any
    coding but a single ``chunked`` (RFC 9112 6.1: codings listed over several lines are one
    list); None when they name ``chunked`` alone, or there are none.

    >>> unknown_transfer_codings(["chunked"]), unknown_transfer_codings(["Chunked "])
    (None, None)
    >>> unknown_transfer_codings(["gzip, chunked"])
    'gzip, chunked'
    """
    if not lines:
        return None
    sent = ", ".join(lines)
    codings = [coding.strip().lower() for coding in sent.split(",")]
    return None if codings == ["chunked"] else sent


@web.middleware
async def transfer_coding_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse a request whose ``Transfer-Encoding`` names a coding other than ``chunked``:
    raises ``web.HTTPNotImplemented`` (501) naming it."""
    sent = unknown_transfer_codings(request.headers.getall(hdrs.TRANSFER_ENCODING, []))
    if sent is not None:
        raise web.HTTPNotImplemented(
            text=(
                f"the request's Transfer-Encoding {sent[:_SHOWN]!r} names a coding the service "
                "does not decode (transfer coding rule): send the body chunked alone or with a "
                "Content-Length, compressed if at all with Content-Encoding (gzip, deflate, br "
                "or zstd)"
            )
        )
    return await handler(request)
