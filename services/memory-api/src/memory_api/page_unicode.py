"""The web page's module of the service's Unicode character classes (I-9, W-5).

``GET /static/js/unicode-classes.js``: an ES module exporting, for each class of
:data:`memory_core.char_classes.CLASSES`, the body of a ``u``-flag regex character class
(``"\\u{41}-\\u{5a}…"``) that holds exactly the characters this service's Unicode data puts
in it, and the Unicode version that data is. The page's copy of the hidden-text rule
(``static/js/hidden-text.js``) builds its letter, mark and number patterns from it instead of
the browser's ``\\p{L}``/``\\p{M}``, so a mark of a Unicode version newer than the service's is
no mark to either side (and one the browser does not know yet is one to both). Rendered once
per process, in a worker thread as the service starts (:class:`RenderAtStart`: every page load
imports it, and the first one found it unmade), requests that come while it is rendered waiting
for that one rendering; its ETag lets a reload of the page get a 304.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass

from aiohttp import web
from memory_core.char_classes import UNICODE_VERSION, class_ranges

__all__ = ["MODULE_PATH", "PageModule", "RenderAtStart", "unicode_classes_module"]

logger = logging.getLogger(__name__)

MODULE_PATH = "/static/js/unicode-classes.js"
"""Where the page imports the module from: served by the service, no file of ``static/``."""


def _escape(point: int) -> str:
    """``point`` as a regex escape of a ``u``-flag class (``\\u{41}``)."""
    return f"\\u{{{point:x}}}"


def _body(ranges: list[tuple[int, int]]) -> str:
    """The body of a regex character class of ``ranges`` (inclusive code point pairs)."""
    return "".join(
        _escape(first) if first == last else f"{_escape(first)}-{_escape(last)}"
        for first, last in ranges
    )


@dataclass(frozen=True)
class PageModule:
    """A module the service makes for the page: its UTF-8 ``body`` and ``etag``, the quoted
    strong entity tag of that body (a SHA-256 prefix, ``'"…"'``)."""

    body: bytes
    etag: str


_RENDERING = threading.Lock()
"""Held while the module is rendered: a request that comes meanwhile waits for it."""


def unicode_classes_module() -> PageModule:
    """The module (``UNICODE_VERSION`` and one string constant per class), rendered by the first
    call of the process (0.5 s at load 10: blocking; call it in a worker thread), the same object
    after; calls meanwhile wait for that rendering, never render it again.

    >>> module = unicode_classes_module()
    >>> b'export const UNICODE_VERSION = ' in module.body, module is unicode_classes_module()
    (True, True)
    """
    with _RENDERING:
        return _rendered()


@functools.cache
def _rendered() -> PageModule:
    """The module, rendered once (:func:`unicode_classes_module`)."""
    lines = [
        "// Served by the memory service (memory_api.page_unicode): the character classes its",
        "// hidden-text rule judges by, from its own Unicode data. Each is the body of a regex",
        "// character class for the u flag. Never edited: what the service judges, the page does.",
        f"export const UNICODE_VERSION = {json.dumps(UNICODE_VERSION)};",
    ]
    for name, ranges in class_ranges().items():
        lines.append(f"export const {name.upper()} = {json.dumps(_body(ranges))};")
    body = ("\n".join(lines) + "\n").encode()
    return PageModule(body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')


class RenderAtStart:
    """The app's ``cleanup_ctx`` step that renders the module (:func:`unicode_classes_module`)
    in a worker thread as the service starts, so the first page load finds it made (W-5).

    Start-up does not wait for it, nor does any other route (``/healthz`` answers meanwhile); a
    request for the module that comes first waits for this one rendering. The app's cleanup
    waits for it to end (a thread cannot be stopped); a rendering that failed is logged there,
    never raised: the service stops as cleanly as it would without it (each request for the
    module answers 500 meanwhile)."""

    def __init__(self) -> None:
        self._rendering: asyncio.Task[PageModule] | None = None

    async def __call__(self, app: web.Application) -> AsyncIterator[None]:
        """Begin the rendering, then, at cleanup, wait for it."""
        self._rendering = asyncio.create_task(asyncio.to_thread(unicode_classes_module))
        yield
        try:
            await self._rendering
        except Exception:  # the request for it said so already: a stop never fails for it
            logger.exception("the page's Unicode classes module could not be rendered at start")

    async def rendered(self) -> PageModule:
        """The module the start-up rendering made, once made. Raises ``RuntimeError`` before
        the app has started."""
        if self._rendering is None:
            raise RuntimeError("the app has not started: nothing is rendered at start")
        return await asyncio.shield(self._rendering)
