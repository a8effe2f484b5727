"""A-10a, RFC 9110 7.2: a token-less service reads ``Host`` exactly, and answers a value that
is no ``host[:port]`` with 400 saying why instead of guessing at it.

A browser sends only what the WHATWG URL parser leaves of a host: lower-case ASCII (an
internationalised name in its ``xn--`` form), an IPv4 address as four decimal numbers (it
rewrites ``127.1``, ``2130706433`` and ``0x7f.1`` as ``127.0.0.1``), an IPv6 address in
brackets without a zone id, and a port of digits. Anything else comes from a program writing the
header itself, and a loopback rule that guessed at it could be fooled: ``evil.com#.localhost``
ends in ``.localhost`` but is no host name. Each request is spoken over a raw socket, so that
``Host`` is exactly the bytes given (an HTTP client library normalises or refuses some).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from memory_api.app import create_app
from memory_api.bearer import TokenEntry, hash_secret
from memory_api.settings import Settings

AGENTS = "/api/projects/acme/agents"
ANSWER_WAIT_S = 30.0
"""How long an answer may take before the test gives up (a bound, not an assertion)."""
SECRET = "admin-secret-0123456789abcdef"


@pytest.fixture
async def server(data_dir: Path) -> AsyncIterator[TestServer]:
    served = TestServer(create_app(Settings(data_dir=data_dir)))
    await served.start_server()
    try:
        yield served
    finally:
        await served.close()


async def answer_to(
    server: TestServer, host: bytes, more: bytes = b"", *, target: bytes = AGENTS.encode()
) -> tuple[int, dict[str, object]]:
    """Send ``GET /api/…/agents`` (or ``target``) with exactly ``Host: host`` (and the header
    lines ``more``); return the status and the JSON body."""
    reader, writer = await asyncio.open_connection(server.host, server.port)
    try:
        writer.write(b"GET " + target + b" HTTP/1.1\r\nHost: " + host + b"\r\n")
        writer.write(more + b"Connection: close\r\n\r\n")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), ANSWER_WAIT_S)
    finally:
        writer.close()
        await writer.wait_closed()
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)


NOT_A_HOST = [
    ("evil.com#.localhost", "a path, query or fragment ('/', '?', '#') has no place in Host"),
    ("evil.com/.localhost", "a path, query or fragment"),
    ("evil.com?.localhost", "a path, query or fragment"),
    ("evil.com@localhost", "user information ('name@') has no place in Host"),
    ("user:pw@localhost:8765", "user information"),
    ("evil.com\\.localhost", "a backslash has no place in Host (a browser reads it as '/')"),
    ("evil.com%23.localhost", "a host is never percent-encoded"),
    ("local%68ost", "a host is never percent-encoded"),
    ("evil.com .localhost", "a host holds no white space"),
    ("evil.com\t.localhost", "a host holds no white space"),
    ("ev\u0131l.localhost", "a host holds only ASCII: a browser sends an internationalised name"),
    ("xn--a-b.localhost", "the label 'xn--a-b' begins with 'xn--' but is not the ASCII form "
     "of an internationalised name"),
    ("xn--abc-.localhost", "the label 'xn--abc-' begins or ends with '-'"),
    ("xn--.localhost", "the label 'xn--' begins or ends with '-'"),
    ("a_b.localhost", "a host name holds letters, digits, '-' and '.', not '_'"),
    ("evil.com!.localhost", "not '!'"),
    ("localhost..", "a host name has no empty label (no '..', no leading '.')"),
    (".localhost", "no empty label"),
    ("evil..localhost", "no empty label"),
    ("-evil.localhost", "the label '-evil' begins or ends with '-'"),
    ("a" * 64 + ".localhost", "a label of a host name is 63 characters at most"),
    (".".join(["a" * 50] * 5) + ".localhost", "a host name is 253 characters at most"),
    ("localhost:abc", "the port 'abc' is not a number from 0 to 65535"),
    ("localhost:80a", "the port '80a' is not a number"),
    ("localhost:-1", "the port '-1' is not a number"),
    ("localhost:65536", "the port '65536' is not a number from 0 to 65535"),
    ("localhost:8765:80", "an IPv6 address in Host must be in brackets"),
    ("::1", "an IPv6 address in Host must be in brackets ('[::1]:8765')"),
    ("[::1", "an IPv6 address in Host lacks its closing ']'"),
    ("[::1]8765", "'8765' follows the bracketed address; only ':port' may"),
    ("[::1%25lo]", "an IPv6 zone id ('%25eth0') names a network interface, not a host"),
    ("[::1%lo]:8765", "an IPv6 zone id"),
    ("[127.0.0.1]", "[127.0.0.1] is not an IPv6 address"),
    ("127.1", "'127.1' is not an IPv4 address written as four decimal numbers (as browsers "
     "send it: 127.0.0.1)"),
    ("2130706433", "'2130706433' is not an IPv4 address written as four decimal numbers"),
    ("0x7f.1", "'0x7f.1' is not an IPv4 address"),
    ("0x7f000001", "'0x7f000001' is not an IPv4 address"),
    ("127.0.0.01", "'127.0.0.01' is not an IPv4 address"),
    ("127.0.0.1.", "'127.0.0.1.' is not an IPv4 address"),
    ("evil.com.1", "'evil.com.1' is not an IPv4 address"),
    ("127.0.0.256", "'127.0.0.256' is not an IPv4 address"),
]  # fmt: skip


@pytest.mark.parametrize(("host", "reason"), NOT_A_HOST)
async def test_a10a_a_host_header_that_is_no_host_is_400_saying_why(
    server: TestServer, host: str, reason: str
) -> None:
    status, problem = await answer_to(server, host.encode())

    assert status == 400
    assert problem["status"] == 400
    detail = str(problem["detail"])
    shown = host if len(host) <= 100 else host[:100] + "…"  # a long value is quoted cut short
    assert detail.startswith(f"the Host header {shown!r} is not a host name or address with an ")
    assert reason in detail
    assert "answers only requests addressed to a loopback name" in detail


@pytest.mark.parametrize(
    "host",
    ["localhost", "localhost:{port}", "LOCALHOST:{port}", "LocalHost.:{port}", "localhost:",
     "app.localhost:{port}", "my-app.dev.localhost", "xn--80ak6aa92e.localhost:{port}",
     "127.0.0.1:{port}", "127.255.0.9", "[::1]:{port}", "[0:0:0:0:0:0:0:1]",
     "[::ffff:127.0.0.1]:{port}", "localhost:080"],
)  # fmt: skip
async def test_a10a_every_way_a_browser_writes_a_loopback_host_passes(
    server: TestServer, host: str
) -> None:
    """Case and one final dot do not change a host name (RFC 3986 3.2.2); an empty port is no
    port (RFC 3986 3.2.3); ``xn--80ak6aa92e`` is the ASCII form of a Cyrillic label."""
    status, body = await answer_to(server, host.format(port=server.port).encode())

    assert (status, body) == (200, {"agents": []})


@pytest.mark.parametrize(
    "host",
    ["evil.example", "localhost.evil.example:{port}", "xn--lcalhost-nbh:{port}",
     "127.0.0.1.nip.io", "10.0.0.1:{port}", "0.0.0.0", "[::2]", "[::]:{port}", "",  # noqa: S104
     ":{port}", "xn--e1afmkfd.example"],
)  # fmt: skip
async def test_a10a_a_host_that_is_well_formed_but_not_loopback_is_403(
    server: TestServer, host: str
) -> None:
    """``xn--lcalhost-nbh`` looks like ``localhost`` with a Cyrillic o: it is another name."""
    status, problem = await answer_to(server, host.format(port=server.port).encode())

    assert status == 403
    assert "(Host rule: a page using DNS rebinding" in str(problem["detail"])


@pytest.mark.parametrize(
    ("authority", "status"),
    [("evil.example", 403), ("localhost.evil.example:{port}", 403), ("u@localhost", 400),
     ("localhost:{port}", 200), ("127.0.0.1:{port}", 200)],
)  # fmt: skip
async def test_a10a_an_absolute_form_target_is_addressed_to_its_own_host(
    server: TestServer, authority: str, status: int
) -> None:
    """RFC 9112 3.2.2: a request target in absolute form names the host the request is
    addressed to, and ``Host`` is not read (aiohttp's ``request.host`` takes the target's too).
    ``GET http://evil.example/api/… HTTP/1.1`` with ``Host: localhost`` was answered 200."""
    target = f"http://{authority.format(port=server.port)}{AGENTS}".encode()

    answered, _ = await answer_to(server, b"localhost", target=target)

    assert answered == status


async def test_a10a_a_service_with_tokens_does_not_read_host(data_dir: Path) -> None:
    """With tokens, bound beyond loopback, a proxy in front may name the service as it likes,
    even in a way no browser would (``memory_api``, a compose service): the token is what is
    checked."""
    tokens = (TokenEntry(name="admin", sha256=hash_secret(SECRET)),)
    settings = Settings(data_dir=data_dir, host="::", env_tokens=tokens)
    served = TestServer(create_app(settings))
    await served.start_server()
    try:
        bearer = f"Authorization: Bearer {SECRET}\r\n".encode()
        named = await answer_to(served, b"memory_api:8765", bearer)
        without_token = await answer_to(served, b"memory_api:8765")
    finally:
        await served.close()
    assert named == (200, {"agents": []})
    assert without_token[0] == 401


@pytest.mark.parametrize(
    ("first", "second"), [(b"localhost", b"evil.example"), (b"evil.example", b"localhost")]
)
async def test_a10a_two_host_headers_are_400_whichever_comes_first(
    server: TestServer, first: bytes, second: bytes
) -> None:
    """Which one counts is a guess a proxy in front may guess otherwise: neither is taken."""
    status, problem = await answer_to(server, first, b"Host: " + second + b"\r\n")

    assert status == 400
    assert "a header that may be sent only once (Host" in str(problem["detail"])


@pytest.mark.parametrize(
    "forwarded",
    [b"X-Forwarded-Host: localhost\r\n", b"Forwarded: host=localhost\r\n",
     b"X-Forwarded-Host: localhost\r\nX-Forwarded-For: 127.0.0.1\r\nForwarded: for=127.0.0.1\r\n"],
)  # fmt: skip
async def test_a10a_forwarding_headers_never_stand_in_for_host(
    server: TestServer, forwarded: bytes
) -> None:
    """A rebinding page may add any header to its own origin's requests: only ``Host`` (or an
    absolute-form target) says where a request is addressed, so naming a loopback host in
    ``X-Forwarded-Host`` or ``Forwarded`` lets nothing through, and naming another one there
    refuses nothing."""
    refused, _ = await answer_to(server, b"evil.example", forwarded)
    answered, _ = await answer_to(server, b"localhost", forwarded.replace(b"localhost", b"evil"))

    assert (refused, answered) == (403, 200)
