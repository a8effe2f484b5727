"""One plain-HTTP/1.1 request over a socket, for a hook process's one call to the service (H-5).

``http.client`` imports ``ssl`` and the ``email`` package (together about twice what starting
Python costs, measured with ``bench/hook_cost.py``) to make one request a Session-start hook makes
over loopback. :func:`exchange` sends that request itself: ``Connection: close``, a
``Content-Length`` body, and reads the answer to the end, whether it carries a
``Content-Length``, is ``chunked`` or runs to the close; ``1xx`` interim answers are skipped.
It uses CPython's ``_socket`` module directly: ``socket`` converts the platform's constants into
``enum`` classes on import, which costs a hook process more than the request itself. ``https``
stays with ``http.client`` (:mod:`harness_memory.service_call`).

Errors: ``TimeoutError`` once ``deadline`` has passed, :class:`HttpProtocolError` for an answer
that is not HTTP/1.x, ``OSError`` for everything the network does.
"""

from __future__ import annotations

import _socket
import time

__all__ = ["MAX_ANSWER_BYTES", "HttpProtocolError", "exchange"]

MAX_ANSWER_BYTES = 64 * 1024 * 1024
"""The largest answer read (head and body); the service's largest, an A-9 answer, is below 1 MB."""

_CHUNK = 64 * 1024
_MAX_HEAD = 64 * 1024


class HttpProtocolError(OSError):
    """The peer's answer is not well-formed HTTP/1.x, or is over :data:`MAX_ANSWER_BYTES`."""


def exchange(
    host: str,
    port: int,
    method: str,
    target: str,
    headers: dict[str, str],
    body: bytes | None,
    deadline: float,
) -> tuple[int, str, bytes]:
    """Send one request to ``host:port`` and read the whole answer: ``(status, reason, body)``.

    ``target`` is the request target (``/api/…``); ``headers`` are sent as given, after ``Host``
    (with the port unless it is 80), ``Connection: close``, ``Accept-Encoding: identity`` and,
    with a ``body``, ``Content-Length``. ``deadline`` is a ``time.monotonic()`` instant for the
    whole exchange, DNS lookup aside. Raises as the module says.
    """
    lines = [f"{method} {target} HTTP/1.1", f"Host: {_host_header(host, port)}"]
    lines += ["Connection: close", "Accept-Encoding: identity"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")
    sock = _connect(host, port, deadline)
    try:
        sock.sendall(request)
        return _answer(_Reader(sock, deadline))
    finally:
        sock.close()


def _host_header(host: str, port: int) -> str:
    name = f"[{host}]" if ":" in host else host
    return name if port == 80 else f"{name}:{port}"


def _left(deadline: float) -> float:
    """Seconds left before ``deadline``; ``TimeoutError`` once it has passed."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's time budget is spent")
    return left


def _connect(host: str, port: int, deadline: float) -> _socket.socket:
    """A connected TCP socket to the first address of ``host`` that answers."""
    failure: OSError | None = None
    # A str host is IDNA-encoded first, which imports the idna codec and stringprep; an ASCII
    # name (every IP address, "localhost") needs no encoding.
    name: str | bytes = host.encode("ascii") if host.isascii() else host
    for family, kind, proto, _, address in _socket.getaddrinfo(name, port, 0, _socket.SOCK_STREAM):
        sock = _socket.socket(family, kind, proto)
        try:
            sock.settimeout(_left(deadline))
            sock.connect(address)
        except OSError as error:
            sock.close()
            if isinstance(error, TimeoutError):
                raise
            failure = error
            continue
        return sock
    raise failure or OSError(f"no address found for {host!r}")


class _Reader:
    """Buffered reads from a socket, each bounded by what is left of the deadline."""

    def __init__(self, sock: _socket.socket, deadline: float) -> None:
        self._sock = sock
        self._deadline = deadline
        self._buffer = b""
        self._read = 0
        self.closed = False

    def _fill(self) -> bool:
        """Read once more from the socket; False once the peer has closed the connection."""
        if self.closed:
            return False
        self._sock.settimeout(_left(self._deadline))
        data = self._sock.recv(_CHUNK)
        self._read += len(data)
        if self._read > MAX_ANSWER_BYTES:
            raise HttpProtocolError(f"answer longer than {MAX_ANSWER_BYTES} bytes")
        if not data:
            self.closed = True
            return False
        self._buffer += data
        return True

    def until(self, marker: bytes, limit: int = _MAX_HEAD) -> bytes:
        """The bytes up to and including ``marker``; :class:`HttpProtocolError` without one."""
        while True:
            at = self._buffer.find(marker)
            if at >= 0:
                taken, self._buffer = (
                    self._buffer[: at + len(marker)],
                    self._buffer[at + len(marker) :],
                )
                return taken
            if len(self._buffer) > limit or not self._fill():
                raise HttpProtocolError("the answer ended inside its head")

    def exactly(self, size: int) -> bytes:
        """The next ``size`` bytes; :class:`HttpProtocolError` when the answer ends before."""
        while len(self._buffer) < size:
            if not self._fill():
                raise HttpProtocolError(f"the answer ended {size - len(self._buffer)} bytes short")
        taken, self._buffer = self._buffer[:size], self._buffer[size:]
        return taken

    def rest(self) -> bytes:
        """Everything until the peer closes the connection."""
        while self._fill():
            pass
        taken, self._buffer = self._buffer, b""
        return taken


def _answer(reader: _Reader) -> tuple[int, str, bytes]:
    """Read the status line, the headers and the body of the final (non-1xx) answer."""
    while True:
        status, reason, headers = _head(reader)
        if not 100 <= status < 200:
            break
    if status in (204, 304):
        return status, reason, b""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return status, reason, _chunked(reader)
    length = headers.get("content-length")
    if length is None:
        return status, reason, reader.rest()
    if not length.strip().isdigit():
        raise HttpProtocolError(f"bad Content-Length {length!r}")
    return status, reason, reader.exactly(int(length))


def _head(reader: _Reader) -> tuple[int, str, dict[str, str]]:
    """The status line and the headers (names lowercased) of one answer."""
    head = reader.until(b"\r\n\r\n").decode("latin-1")
    status_line, *fields = head[:-4].split("\r\n")
    version, _, rest = status_line.partition(" ")
    code, _, reason = rest.partition(" ")
    if not version.startswith("HTTP/1.") or len(code) != 3 or not code.isdigit():
        raise HttpProtocolError(f"not an HTTP/1.x status line: {status_line[:80]!r}")
    headers: dict[str, str] = {}
    for field in fields:
        name, colon, value = field.partition(":")
        if not colon:
            raise HttpProtocolError(f"bad header line {field[:80]!r}")
        headers[name.strip().lower()] = value.strip()
    return int(code), reason.strip(), headers


def _chunked(reader: _Reader) -> bytes:
    """A ``Transfer-Encoding: chunked`` body, trailers skipped."""
    chunks: list[bytes] = []
    while True:
        size_line = reader.until(b"\r\n").decode("latin-1")
        size_text = size_line.split(";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise HttpProtocolError(f"bad chunk size {size_text[:20]!r}") from None
        if size == 0:
            while reader.until(b"\r\n") != b"\r\n":
                pass  # a trailer field
            return b"".join(chunks)
        chunks.append(reader.exactly(size))
        if reader.exactly(2) != b"\r\n":
            raise HttpProtocolError("a chunk does not end with CRLF")
