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

import urllib.request

import pytest
from memory_api import remote
from memory_api.cli import main
from memory_api.remote import Remote

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


def test_a10_the_token_is_never_sent_on_even_by_an_opener_that_follows_redirects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bearer token is an unredirected header: should a redirect ever be followed (an
    opener that follows them), the other address still never gets it."""
    monkeypatch.setattr(remote, "_opener", urllib.request.build_opener)
    with redirecting_service() as service:
        assert Remote(service.url, TOKEN).agents(None) == []
        assert service.seen == [("/api/projects", None)]


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:9/?token=am_the_secret_S3cretValue", "http://127.0.0.1:9/#am_the_secret"],
)
def test_a10_a_url_holding_a_query_or_fragment_is_refused_never_echoed(
    capsys: pytest.CaptureFixture[str], url: str
) -> None:
    """``--url http://127.0.0.1:9/?token=…`` was taken, and its secret echoed in "no
    memory-api service answers at …": refused as the plugin refuses it, shown as ``?***``."""
    assert main(["agent", "list", "--url", url]) == 1

    said = capsys.readouterr()
    assert "must not hold a query or fragment" in said.err
    assert "am_the_secret" not in said.err + said.out


def test_a10_a_tenant_id_in_the_path_is_taken_and_shown_masked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A UUID in the path (a tenant's id) is no key to refuse; messages show it as ``***``."""
    tenant = "123e4567-e89b-12d3-a456-426614174000"
    main(["agent", "list", "--url", f"http://127.0.0.1:9/tenants/{tenant}/memory"])

    said = capsys.readouterr()
    assert "no memory-api service answers at http://127.0.0.1:9/tenants/***/memory" in said.err
    assert tenant not in said.err + said.out


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


@pytest.mark.parametrize("path", ["memory-api-v2", "agentMemoryV2Service", "MemoryApiProdEuWest1"])
def test_a10_a_path_of_words_is_a_service_url_like_any(
    capsys: pytest.CaptureFixture[str], path: str
) -> None:
    main(["agent", "list", "--url", f"http://127.0.0.1:9/{path}"])

    said = capsys.readouterr()
    assert "secret" not in said.err
    assert f"no memory-api service answers at http://127.0.0.1:9/{path}" in said.err
