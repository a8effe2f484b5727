"""What ``memory-api serve`` logs once it listens: aiohttp's banner and the web page's address.

aiohttp hands ``run_app``'s ``print`` one string, ``======== Running on URL, URL ========``, a
line break and ``(Press CTRL+C to quit)``, with each URL as it bound it. The service logs it
one record per line (the text log escapes a line break inside a record, A-11), and after the
``Running on`` line the web page's address as a user pastes it into a browser: the bound port
(``MEMORY_API_PORT=0`` lets the system choose one, which only the bind knows), the host as
:func:`~memory_api.remote.default_url` writes it (``127.1`` → ``127.0.0.1``, a wildcard →
loopback, a name as given). aiohttp's own URL of a wildcard bind (``http://0.0.0.0:8765``,
``http://[::]:8765``) is no address to open: it is marked as every address of this machine.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence

from yarl import URL

from memory_api.remote import default_url

__all__ = ["banner_logger"]

_RUNNING_ON = re.compile(r"(=+ Running on )(?P<urls>.+?)( =+)")
_WILDCARDS = frozenset({"0.0.0.0", "::"})  # noqa: S104 - names compared, nothing bound


def banner_logger(
    page_host: str,
    port: int,
    logger: logging.Logger,
    *,
    tabs: Sequence[tuple[str, str]] = (),
) -> Callable[[str], None]:
    """A ``print`` for ``web.run_app`` that logs its banner to ``logger`` (INFO), each line a
    record, followed after its ``Running on`` line by ``web page: http://HOST:PORT/`` for the
    service bound to ``page_host`` (``MEMORY_API_HOST``), then each of ``tabs`` (a label and
    the page's route, the part after ``#``) as ``LABEL: http://HOST:PORT/#ROUTE``; ``port``
    (``MEMORY_API_PORT``) is used only when the banner names none (``0`` then names no page)."""

    def log_page(bound: int) -> None:
        if bound == 0:
            return
        page = f"{default_url(page_host, bound)}/"
        logger.info("web page: %s", page)
        for label, route in tabs:
            logger.info("%s: %s#%s", label, page, route)

    def log_banner(message: str) -> None:
        lines = [line.strip() for line in message.splitlines() if line.strip()]
        if not any(_RUNNING_ON.fullmatch(line) for line in lines):
            log_page(port)  # a banner of another form: the port asked for
        for line in lines:
            found = _RUNNING_ON.fullmatch(line)
            logger.info("%s", _marked(found) if found else line)
            if found:
                log_page(_bound_port(found["urls"]) or port)

    return log_banner


def _bound_port(urls: str) -> int | None:
    """The port of the first URL of a banner's ``Running on`` list, or None (no port)."""
    try:
        return URL(urls.split(", ")[0]).port
    except ValueError:
        return None


def _marked(found: re.Match[str]) -> str:
    """The ``Running on`` line with each wildcard URL marked as every address."""
    urls = []
    for text in found["urls"].split(", "):
        try:
            host = URL(text).host
        except ValueError:
            host = None
        urls.append(f"{text} (every address of this machine)" if host in _WILDCARDS else text)
    return f"{found[1]}{', '.join(urls)}{found[3]}"
