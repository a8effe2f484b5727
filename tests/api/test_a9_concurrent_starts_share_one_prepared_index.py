"""A-9, Q-4: Session starts that read one version of an index at the same time keep one
reading of it.

The service keeps each index per file version, split and masked (``ScopeFiles``), and
memoises the injected text by the prepared indexes' content. When the first Session starts
arrive together, each worker thread reads the index: were each to keep its own reading, the
memo would hold one thread's and the cache another's, and every later Session start compared
the two, line by line, to find them equal. Here a second reader runs inside the first one's
read (a thread switch there, made certain) and both must end with the same reading.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.store import scope_files, stat_cache
from memory_api.store.scope_files import ScopeFiles, ScopeIndex
from memory_api.store.scopes import IndexText, read_index_text
from memory_core import layout
from memory_core.injection import PreparedIndex, prepare_index


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the cache keep the index written a moment ago (its 2 s racy window)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


def _scope(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "memory"
    scope = root / "user"
    scope.mkdir(parents=True)
    (scope / layout.INDEX_FILE).write_text("- [Deploy](deploy.md) — how we ship\n", "utf-8")
    return root, scope


def test_a9_two_readers_of_one_index_version_keep_the_first_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, scope = _scope(tmp_path)
    files = ScopeFiles()
    other: list[ScopeIndex | None] = []
    read = read_index_text

    def read_while_another_reads(root: Path, scope: Path) -> IndexText | None:
        if not other:
            other.append(None)
            other[0] = files.read(root, scope)  # another Session start's thread, meanwhile
        return read(root, scope)

    monkeypatch.setattr(scope_files, "read_index_text", read_while_another_reads)
    first = files.read(root, scope)

    assert first is not None
    assert first is other[0]
    assert files.read(root, scope) is first  # and the next Session start gets it too


def test_a9_two_threads_preparing_one_reading_keep_one_prepared_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, scope = _scope(tmp_path)
    entry = ScopeFiles().read(root, scope)
    assert entry is not None
    other: list[PreparedIndex] = []  # the other thread's, once it has prepared
    prepare = prepare_index.__wrapped__  # each thread masks the lines itself

    def prepare_while_another_prepares(raw: str | None, unread: tuple[int, bool]) -> PreparedIndex:
        if not other:
            other.append(prepare(raw, unread))  # a stand-in while the other thread runs
            other[0] = entry.prepared()  # another Session start's thread, meanwhile
        return prepare(raw, unread)

    monkeypatch.setattr(scope_files, "prepare_index", prepare_while_another_prepares)

    assert entry.prepared() is other[0]
    assert entry.prepared() is other[0]
