"""A request's query names only parameters its route takes, each once (A-11).

A route read the parameters it knows and passed over the rest, and took the first of a
parameter given twice: ``?limt=5`` (a typo) calmly answered the default page of 100, and
``?limit=5&limit=500`` answered 5 where a proxy or a log reader sees 500.
:func:`query_names_middleware` answers both 400, naming the parameter and what the route
takes, from the query parameters each operation documents (:data:`memory_api.http.openapi.
OPERATIONS`): what the OpenAPI document lists is exactly what is taken. Only ``/api/`` is
checked: git's smart HTTP is not listed there (its one parameter, ``service``, is refused
given twice by its route: :func:`repeated_refusal`), and the page and the operations endpoints hold
nothing a query changes (a link may carry ``?utm_source=``, a prober its own marks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler

from memory_api.errors import BadRequest
from memory_api.http.openapi import OPERATIONS

__all__ = ["query_names_middleware", "query_refusal", "repeated_refusal"]

_API = "/api/"
_SHOWN = 40
"""Characters of a parameter name quoted at most."""


def _shown(name: str) -> str:
    return repr(name if len(name) <= _SHOWN else name[:_SHOWN] + "…")


def repeated_refusal(name: str, count: int) -> str:
    """Why a query giving the parameter ``name`` ``count`` (2 or more) times is refused: a
    route takes the first where a proxy or log reader may take the last."""
    return f"the query parameter {_shown(name)} is given {count} times: give it once"


def query_refusal(sent: Iterable[str], taken: Iterable[str]) -> str | None:
    """Why a query naming ``sent`` (every name, repeats included) is refused by a route taking
    the parameters ``taken``; None when each sent name is taken and given once.

    >>> query_refusal(["limit"], ["limit", "before"]) is None
    True
    >>> query_refusal(["limt"], ["limit", "before"])
    "this route takes no query parameter 'limt': it takes before, limit"
    >>> query_refusal(["limit", "limit"], ["limit"])
    "the query parameter 'limit' is given 2 times: give it once"
    """
    names = sorted(set(taken))
    for name, count in Counter(sent).items():
        if name not in names:
            takes = ", ".join(names) if names else "none"
            return f"this route takes no query parameter {_shown(name)}: it takes {takes}"
        if count > 1:
            return repeated_refusal(name, count)
    return None


@web.middleware
async def query_names_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse a request to a documented route whose query names a parameter the route does not
    take, or one twice: raises :class:`~memory_api.errors.BadRequest` (400) saying which."""
    resource = request.match_info.route.resource
    if request.query and resource is not None and request.path.startswith(_API):
        method = hdrs.METH_GET if request.method == hdrs.METH_HEAD else request.method
        operation = OPERATIONS.get((method, resource.canonical))
        if operation is not None:
            sent = (name for name, _ in request.query.items())
            refusal = query_refusal(sent, (q[0] for q in operation.query))
            if refusal is not None:
                raise BadRequest(refusal)
    return await handler(request)
