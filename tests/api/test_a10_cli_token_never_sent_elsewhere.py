"""A-10: the ``memory-api`` command line's bearer token reaches the service it names, nowhere
else.

``memory-api agent list --url URL --token T`` followed a redirect (a proxy's ``302`` to a
sign-in page on another host) and ``urllib`` sent the ``Authorization`` header on with it: the
other host got the token, and its answer was read as the service's ("no agents", exit 0). A
URL holding a user name and password was echoed whole ("no memory-api service answers at
http://coder:SECRET@…"). Right: a redirect is not followed and is said, naming where it
leads; such a URL is refused without echoing it.
"""

from __future__ import annotations

import pytest
from memory_api.cli import main

from tests.support.redirecting import redirecting_service

TOKEN = "mem_am_the_secret_0123456789abcdef"


def test_a10_a_redirect_is_never_followed_with_the_token(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with redirecting_service() as service:
        status = main(["agent", "list", "--url", service.url, "--token", TOKEN])

        assert status == 1
        said = capsys.readouterr()
        assert "answered a redirect (302) to http://127.0.0.2" in said.err
        assert "no agents" not in said.out
        assert all(sent is None for _, sent in service.seen), service.seen


def test_a10_a_url_holding_a_password_is_refused_never_echoed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = "http://coder:am_the_secret_0123456789@127.0.0.1:9"

    assert main(["agent", "list", "--url", url]) == 1

    said = capsys.readouterr()
    assert "must not hold a user name or password" in said.err
    assert "am_the_secret" not in said.err + said.out


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/am_the_secret_0123456789abcdef/",
        "http://127.0.0.1:9/memory/mem_am_the_secret_FE0zGBRdX8c3HyM9iP63K",
        "ftp://127.0.0.1:9/am_the_secret%5F0123456789abcdef",  # refused before the scheme is
    ],
)
def test_a10_a_url_holding_a_key_in_its_path_is_refused_never_echoed(
    capsys: pytest.CaptureFixture[str], url: str
) -> None:
    """A proxy that takes its secret in the path (``http://host/<key>/``): the URL was echoed
    whole in every message naming the service ("no memory-api service answers at …")."""
    assert main(["agent", "list", "--url", url]) == 1

    said = capsys.readouterr()
    assert "must not hold a secret in its path" in said.err
    assert "am_the_secret" not in said.err + said.out


def test_a10_a_path_of_words_is_a_service_url_like_any(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["agent", "list", "--url", "http://127.0.0.1:9/memory-api-v2"])

    said = capsys.readouterr()
    assert "secret" not in said.err
    assert "no memory-api service answers at http://127.0.0.1:9/memory-api-v2" in said.err
