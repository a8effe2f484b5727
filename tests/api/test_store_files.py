"""Store primitives of the platform half: exclusive create (Q-2), token files (A-10, Q-4)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from memory_api.bearer import TokenEntry, find_token, hash_secret
from memory_api.errors import Conflict, NotFound
from memory_api.store.exclusive import create_new_bytes
from memory_api.store.tokens import TokenStore


def test_q2_create_new_bytes_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "note.md"
    assert create_new_bytes(target, b"first")
    assert not create_new_bytes(target, b"second")
    assert target.read_bytes() == b"first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["note.md"]


def test_q2_concurrent_creates_have_one_winner(tmp_path: Path) -> None:
    target = tmp_path / "token.json"
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda i: create_new_bytes(target, b"%d" % i), range(16)))
    assert results.count(True) == 1
    winner = results.index(True)
    assert target.read_bytes() == b"%d" % winner
    assert [p.name for p in tmp_path.iterdir()] == ["token.json"]


def test_q2_create_new_bytes_into_a_missing_folder_raises_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    with pytest.raises(FileNotFoundError):
        create_new_bytes(tmp_path / "missing" / "x.md", b"x")
    assert list(tmp_path.iterdir()) == []


def test_a10_recreated_token_invalidates_the_old_secret(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    _, old = store.create("ci", None)
    assert find_token(store.entries(), old) is not None
    store.revoke("ci")
    _, new = store.create("ci", ("acme",))
    entries = store.entries()
    assert find_token(entries, old) is None
    found = find_token(entries, new)
    assert found is not None and found.projects == ("acme",)


def test_a10_env_token_names_are_reserved(tmp_path: Path) -> None:
    store = TokenStore(tmp_path, (TokenEntry(name="admin", sha256=hash_secret("x" * 20)),))
    with pytest.raises(Conflict, match="MEMORY_API_TOKENS"):
        store.create("admin", None)
    with pytest.raises(NotFound):
        store.revoke("nobody")


def test_a10_duplicate_projects_are_folded(tmp_path: Path) -> None:
    entry, _ = TokenStore(tmp_path).create("bot", ("acme", "acme", "globex"))
    assert entry.projects == ("acme", "globex")
