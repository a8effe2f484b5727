"""A-10, Q-4: the token folder is listed again only when it changed, and every change is seen.

Every ``/api/`` request asks :class:`~memory_api.store.tokens.TokenStore` for the tokens. While
the folder's ``stat`` is the one of its last listing the names are reused (one ``stat`` instead
of a ``scandir``); a token file created, edited in place or removed by another process (``memory-api
token create`` / ``revoke``, an operator's editor) is seen by the very next call.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from memory_api.bearer import hash_secret
from memory_api.store import stat_cache, tokens
from memory_api.store.tokens import TokenStore

from tests.support.file_clock import next_file_tick


class _Scans:
    """Counts ``os.scandir`` calls (the test makes none but through the token store)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = os.scandir

        def counting(path: str) -> object:
            self.count += 1
            return real(path)

        monkeypatch.setattr(os, "scandir", counting)


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> _Scans:
    return _Scans(monkeypatch)


def _names(store: TokenStore) -> list[str]:
    return [entry.name for entry in store.entries()]


def test_a10_an_unchanged_folder_is_not_listed_again(
    tmp_path: Path, scans: _Scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))
    store = TokenStore(tmp_path)
    store.create("ops", None)
    assert _names(store) == ["ops"]
    listed = scans.count
    for _ in range(3):
        assert _names(store) == ["ops"]
    assert scans.count == listed


def test_a10_a_folder_changed_within_the_racy_window_is_listed_every_time(
    tmp_path: Path, scans: _Scans
) -> None:
    store = TokenStore(tmp_path)
    store.create("ops", None)  # the folder changed a moment ago: its timestamp may still hold
    scans.count = 0  # create's own look for the name in the folder it made is not counted
    _names(store)
    _names(store)
    assert scans.count == 2


def test_a10_tokens_created_and_revoked_elsewhere_are_seen_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))
    store = TokenStore(tmp_path)
    other = TokenStore(tmp_path)  # another process: the CLI
    assert _names(store) == []  # no folder yet
    next_file_tick(tmp_path)  # the next change gets a new timestamp
    other.create("ops", None)
    assert _names(store) == ["ops"]
    next_file_tick(tmp_path)  # the next change gets a new timestamp
    other.create("bot", ("acme",))
    assert _names(store) == ["bot", "ops"]
    next_file_tick(tmp_path)  # the next change gets a new timestamp
    other.revoke("ops")
    assert _names(store) == ["bot"]


def test_a10_a_token_file_edited_in_place_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))
    store = TokenStore(tmp_path)
    entry, _secret = store.create("bot", ("acme",))
    assert [e.projects for e in store.entries()] == [("acme",)]
    path = tmp_path / tokens.TOKENS_DIR / "bot.json"
    next_file_tick(tmp_path)  # the next change gets a new timestamp
    edited = {"name": "bot", "sha256": hash_secret("x" * 32), "projects": ["beta"]}
    with path.open("r+", encoding="utf-8") as file:  # in place: the folder does not change
        file.truncate(0)
        file.write(json.dumps({**edited, "createdAt": entry.created_at}))
    assert [e.projects for e in store.entries()] == [("beta",)]
