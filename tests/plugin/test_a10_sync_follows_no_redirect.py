"""A-10, R-1: a machine's sync never sends its bearer token to an address the service URL
redirects to.

git follows a redirect of its first request (``http.followRedirects=initial``) and then sends
every later request to where it led, with each ``http.extraHeader``: the sync's token. A service
URL answering ``302`` to another host (a proxy's sign-in page, a moved service, ``https`` to
``http``) that speaks git's smart HTTP got ``POST …/git-upload-pack`` with ``Authorization:
Bearer …``, and the copy took its versions as the service's (the sync said ok). The service's
own CLI follows no redirect for that reason (``memory-api --url``); the sync now neither: it
fails naming the redirect, and the other address gets nothing.

The other address here is ``git http-backend`` on ``127.0.0.2`` (git's own smart HTTP), behind
a server on ``127.0.0.1`` that answers every request with ``302`` to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from harness_memory.remote import REDIRECT_NOT_FOLLOWED

from tests.plugin.test_r1_hostile_service import _Backend, _copy, _git, _publish
from tests.support.redirecting import behind_a_redirect

INDEX = b"- [Note](note.md) - kept on the other host\n"


@dataclass
class _Redirected:
    """``url``: the service URL (it redirects); ``seen``: (method, path, Authorization or None)
    of every request the other address got."""

    url: str
    seen: list[tuple[str, str, str | None]] = field(default_factory=list)


@pytest.fixture
def redirected(tmp_path: Path) -> Iterator[_Redirected]:
    """A service URL redirecting every request to a git smart HTTP server elsewhere that holds
    a version of the scope (``MEMORY.md``: :data:`INDEX`)."""
    served = tmp_path / "served"
    served.mkdir()
    _git("init", "-q", "--bare", "scope.git", cwd=served)
    work = tmp_path / "work"
    work.mkdir()
    _git("init", "-q", cwd=work)
    (work / "MEMORY.md").write_bytes(INDEX)
    _publish(work, "on the other host")
    found = _Redirected("")

    class Other(_Backend):
        def _answer(self) -> None:
            found.seen.append((self.command, self.path, self.headers.get("Authorization")))
            super()._answer()

    with behind_a_redirect(Other) as (url, other):
        other.root = served  # type: ignore[attr-defined]  # before any request reaches it
        found.url = url
        yield found


@pytest.mark.parametrize("written", [False, True], ids=["fetch", "push then fetch"])
def test_a10_a_sync_sends_nothing_to_where_a_redirect_leads(
    redirected: _Redirected, tmp_path: Path, written: bool
) -> None:
    copy = _copy(redirected.url, tmp_path)
    if written:  # a memory written on this machine: the sync pushes it first
        scope = copy.memory_root / "user"
        scope.mkdir(parents=True)
        (scope / "MEMORY.md").write_text("- [Mine](mine.md) - written here\n", encoding="utf-8")

    result = copy.sync_scope("user")

    assert redirected.seen == [], "requests reached the address the redirect led to"
    assert not result.ok
    assert result.error is not None
    assert "302" in result.error and REDIRECT_NOT_FOLLOWED in result.error, result.error
    taken = copy.memory_root / "user" / "MEMORY.md"
    assert not taken.exists() or taken.read_bytes() != INDEX


def test_a10_asking_the_service_why_follows_no_redirect(
    redirected: _Redirected, tmp_path: Path
) -> None:
    """After a failed exchange the copy asks the service for its reason (``service_says``): a
    redirect's target is not the service, so nothing is asked there and it says nothing."""
    copy = _copy(redirected.url, tmp_path)

    said = copy.service_says("user")

    assert said is None
    assert redirected.seen == []
