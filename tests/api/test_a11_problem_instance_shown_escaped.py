"""A-11, I-9: a problem's ``instance`` and the path a ``detail`` echoes are shown escaped.

``instance`` was the request's decoded path as sent: a client's ``%E2%80%AE`` (RIGHT-TO-LEFT
OVERRIDE), ``%1B`` (an escape that starts a terminal sequence) or ``%0A`` reached the JSON as
the characters themselves, and a person reading the answer (a terminal, a log of answers, a
page) saw text reordered or hidden. The path is now given as a URI reference names it (RFC
3986/3987): each control, bidirectional control, invisible character, space and ``%`` as its
UTF-8 bytes percent-encoded, visible letters of any script kept; the same text a ``detail``
echoes ("nothing is served at …").
"""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from memory_api.http.problems import shown_path
from yarl import URL

from tests.api.conftest import PROJECT, Client, expect_problem


@pytest.mark.parametrize(
    ("sent", "shown"),
    [
        ("/api/x%E2%80%AEgpj.md", "/api/x%E2%80%AEgpj.md"),  # U+202E RIGHT-TO-LEFT OVERRIDE
        ("/api/a%1B%5B8mb", "/api/a%1B[8mb"),  # ESC [8m: a terminal hides what follows
        ("/api/a%0Ab%09c", "/api/a%0Ab%09c"),  # a line break and a tab
        ("/api/a%E2%80%8Bb", "/api/a%E2%80%8Bb"),  # U+200B ZERO WIDTH SPACE
        ("/api/100%25%20done", "/api/100%25%20done"),  # a % and a space, as they are sent
        ("/api/caf%C3%A9/%D7%A9", "/api/café/ש"),  # visible letters of any script kept
    ],
)
async def test_a11_a_problem_shows_the_path_escaped(client: Client, sent: str, shown: str) -> None:
    response = await client.get(URL(sent, encoded=True))
    body = await expect_problem(response, 404, f"nothing is served at {shown}")

    assert body["instance"] == shown
    assert unquote(shown) == unquote(sent)  # the same path, named unambiguously


@pytest.mark.parametrize(
    ("sent", "shown", "bytes_named"),
    [
        ("/api/%ED%A0%80x", "/api/%ED%A0%80x", "%ED%A0%80"),  # a lone surrogate (CESU-8)
        ("/api/a%FF%C3b%C3%A9", "/api/a%FF%C3bé", "%FF%C3"),  # a stray byte, a cut character
    ],
)
async def test_a11_bytes_that_are_no_utf8_are_shown_as_the_escapes_sent(
    client: Client, sent: str, shown: str, bytes_named: str
) -> None:
    # they were shown as %25ED%25A0%2580: the escapes of "%ED", another path
    response = await client.get(URL(sent, encoded=True))
    body = await expect_problem(response, 400, f"the request's path holds {bytes_named},")

    assert body["instance"] == shown
    assert unquote(shown, errors="surrogateescape") == unquote(sent, errors="surrogateescape")


async def test_a11_a_405_echoes_the_path_escaped(client: Client) -> None:
    path = f"/api/projects/{PROJECT}/agents/co%E2%80%AEder/config"
    response = await client.delete(URL(path, encoded=True))
    body = await expect_problem(response, 405, f"DELETE is not allowed on {path};")

    assert body["instance"] == path


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("/a\ud800b", "/a%ED%A0%80b"),  # a lone surrogate no byte stands for: its CESU-8 bytes
        ("/a\udcffb", "/a%FFb"),  # one a byte stands for (surrogateescape): that byte
        ("/a%zz%4", "/a%25zz%254"),  # a % that starts no escape is a % of the name
    ],
)
def test_a11_shown_path_never_raises(path: str, shown: str) -> None:
    assert shown_path(path) == shown
