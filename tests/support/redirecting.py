"""Two loopback HTTP servers for the tests of a bearer token sent on by a redirect (A-10): one
answering every request with ``302`` to the other, on another address (``127.0.0.2``), which
records the ``Authorization`` header of each request it gets and answers as a memory-api
service would (``/healthz`` ``ok``, any other path an empty project list)."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class Redirecting:
    """``url``: the redirecting server; ``seen``: (path, Authorization or None) of every
    request the other address got."""

    url: str
    seen: list[tuple[str, str | None]] = field(default_factory=list)


@contextmanager
def redirecting_service() -> Iterator[Redirecting]:
    """Serve the pair for the ``with`` block (see the module)."""
    found = Redirecting("")

    class Other(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            found.seen.append((self.path, self.headers.get("Authorization")))
            body: object = {"status": "ok"} if self.path == "/healthz" else {"projects": []}
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            return

    with behind_a_redirect(Other) as (url, _):
        found.url = url
        yield found


@contextmanager
def behind_a_redirect(
    handler: type[http.server.BaseHTTPRequestHandler],
) -> Iterator[tuple[str, http.server.ThreadingHTTPServer]]:
    """Serve ``handler`` on ``127.0.0.2`` behind a server on ``127.0.0.1`` that answers every
    GET and POST with ``302`` to the same path there, for the ``with`` block; gives the
    redirecting server's URL and the other server."""
    other = http.server.ThreadingHTTPServer(("127.0.0.2", 0), handler)

    class Redirect(http.server.BaseHTTPRequestHandler):
        def _redirect(self) -> None:
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.2:{other.server_address[1]}{self.path}")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            self._redirect()

        def do_POST(self) -> None:
            self._redirect()

        def log_message(self, format: str, *args: object) -> None:
            return

    redirect = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in (other, redirect)]
    for thread in threads:
        thread.start()
    try:
        yield f"http://127.0.0.1:{redirect.server_address[1]}", other
    finally:
        for server in (other, redirect):
            server.shutdown()
            server.server_close()
        for thread in threads:
            thread.join()
