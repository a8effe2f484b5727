"""V-3: a history is called damaged only for what git says of its objects, never for a name.

A Workspace scope's history is named after the Workspace's folder (``corruption-lab`` gives
``corruption-lab-<hash>.git``), and git quotes that path in its messages. A transient refusal
(a ref lock another git holds) once read as "damaged" because the path held ``corrupt``, and
the answer told the operator to move the healthy history aside.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.store.history.git import (
    HistoryDamaged,
    HistoryUnavailable,
    git,
    init_repository,
)

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
IDENTITY = (("user.name", "t"), ("user.email", "t@example.invalid"))


def a_commit(repository: Path) -> str:
    """A version with an empty tree, as its id."""
    git(repository, "hash-object", "-w", "-t", "tree", "--stdin", stdin=b"")
    made = git(repository, "commit-tree", "-m", "x", EMPTY_TREE, config=IDENTITY)
    return made.decode().strip()


@pytest.mark.parametrize("folder", ["corruption-lab", "inflate-api", "packfile-tools"])
def test_v3_a_ref_lock_in_a_history_named_with_a_damage_word_is_no_damage(
    tmp_path: Path, folder: str
) -> None:
    repository = tmp_path / f"{folder}-1a2b3c4d.git"
    init_repository(repository)
    commit = a_commit(repository)
    (repository / "refs" / "heads").mkdir(parents=True, exist_ok=True)
    (repository / "refs" / "heads" / "main.lock").write_bytes(b"")  # another git holds it

    with pytest.raises(HistoryUnavailable) as raised:
        git(repository, "update-ref", "refs/heads/main", commit)

    assert not isinstance(raised.value, HistoryDamaged), str(raised.value)
    assert "main.lock" in str(raised.value)


def test_v3_an_emptied_object_is_still_damage(tmp_path: Path) -> None:
    repository = tmp_path / "plain-1a2b3c4d.git"
    init_repository(repository)
    commit = a_commit(repository)
    (repository / "objects" / commit[:2] / commit[2:]).chmod(0o600)
    (repository / "objects" / commit[:2] / commit[2:]).write_bytes(b"")

    with pytest.raises(HistoryDamaged):
        git(repository, "cat-file", "-p", commit)


def test_v3_a_service_whose_working_folder_was_removed_reads_its_history_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git reads its working folder before anything else. The service's was removed under it
    (a deploy folder replaced while it runs): every git said "Unable to read current working
    directory", which holds a damage sign, and every healthy history was called damaged,
    telling the operator to restore it from a backup."""
    repository = tmp_path / "data" / "user.git"
    init_repository(repository)
    commit = a_commit(repository)
    gone = tmp_path / "deployed"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()

    git(repository, "update-ref", "refs/heads/main", commit)

    assert git(repository, "rev-parse", "refs/heads/main").decode().strip() == commit
