"""A request's path and query are UTF-8 text once percent-decoded, or it is refused (K-7).

RFC 3986 2.5 leaves the meaning of percent-encoded bytes to the scheme; every id and file name
of this service is UTF-8 (K-7). What aiohttp does with bytes that are not left a name unsaid:
in a path it keeps them percent-encoded, so ``…/files/%FF.md`` named the file whose name is
the text ``%FF.md`` (which ``%25FF.md`` names too): a client that encoded ``ÿ.md`` in Latin-1
read or deleted another file. In a query it put U+FFFD in their place: a search for ``%FF``
searched for ``�`` and calmly found nothing. :func:`url_text_middleware` answers both 400,
naming the bytes, before any route runs.
"""

from __future__ import annotations

import re

from aiohttp import web
from aiohttp.typedefs import Handler

from memory_api.errors import BadRequest

__all__ = ["not_utf8", "url_text_middleware"]

_ENCODED_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_SHOWN = 60
"""Characters of a refused run quoted at most."""


def not_utf8(raw: str) -> str | None:
    """The first run of percent-encoded bytes in ``raw`` (a path or query as sent) that is not
    UTF-8 (overlong forms and surrogates included), or None when every run is.

    >>> not_utf8("/files/%C3%A9t%C3%A9.md"), not_utf8("/files/%FF%FE.md")
    (None, '%FF%FE')
    """
    if "%" not in raw:  # nothing percent-encoded (most paths): no pattern run along it
        return None
    for run in _ENCODED_RUN.finditer(raw):
        try:
            bytes.fromhex(run.group().replace("%", "")).decode("utf-8")
        except UnicodeDecodeError:
            return run.group()
    return None


@web.middleware
async def url_text_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse a request whose path or query holds percent-encoded bytes that are not UTF-8:
    raises :class:`~memory_api.errors.BadRequest` (400) naming them."""
    url = request.rel_url
    for part, raw in (("path", url.raw_path), ("query", url.raw_query_string)):
        found = not_utf8(raw)
        if found is not None:
            shown = found if len(found) <= _SHOWN else found[:_SHOWN] + "…"
            raise BadRequest(
                f"the request's {part} holds {shown}, percent-encoded bytes that are not UTF-8 "
                "text: names and words are sent as UTF-8, percent-encoded (RFC 3986 2.5)"
            )
    return await handler(request)
