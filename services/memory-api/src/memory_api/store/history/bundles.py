"""A scope's history as one file, a git bundle, for export and import (V-3).

``memory-api memory export --with-history`` puts ``agent-memory/history/<key>.bundle`` beside
each archived scope (:func:`bundle_bytes`: ``git bundle create`` of the branch); the import
gives it back (:func:`take_bundle`) to a scope that has no history yet, which is what moving an
agent to another service or restoring a backup is. A scope that already has a history of its
own keeps it: two histories are never spliced, the import is recorded on top of the scope's
own, and the report says the archive's history was not taken.

A bundle is read by git itself (``git fetch`` from the file into the empty repository); what it
holds is only ever read back through the routes, by file name, and a restore takes regular
files only, so a bundle made by hand cannot reach outside the scope.

Blocking: run it in a worker thread or from the command line, holding the scope's lock.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from memory_api.store.history.git import BRANCH, HistoryUnavailable, git, init_repository
from memory_api.store.history.repo import read_head

__all__ = ["BUNDLE_CAP", "bundle_bytes", "take_bundle"]

BUNDLE_CAP = 512 * 1024 * 1024
"""The largest bundle an import reads (bytes): far above years of a scope's history."""


def bundle_bytes(repository: Path) -> bytes | None:
    """The bundle of ``repository``'s branch, or None when it has no versions."""
    if not (repository / "HEAD").is_file() or read_head(repository) is None:
        return None
    with tempfile.TemporaryDirectory(dir=repository, prefix="bundle-") as folder:
        path = Path(folder) / "history.bundle"
        git(repository, "bundle", "create", "--quiet", str(path), BRANCH)
        return path.read_bytes()


def take_bundle(repository: Path, data: bytes) -> int:
    """Make the bundle ``data`` the history of ``repository``, which has no versions yet
    (created when missing); returns how many versions it holds. Raises
    :class:`~.git.HistoryUnavailable` when git refuses the bundle (not one, damaged, no
    ``main`` branch) or the repository has versions already (nothing is changed then)."""
    init_repository(repository)
    if read_head(repository) is not None:
        raise HistoryUnavailable("the scope has a history already; the bundle was not taken")
    with tempfile.TemporaryDirectory(dir=repository, prefix="bundle-") as folder:
        path = Path(folder) / "history.bundle"
        path.write_bytes(data)
        git(
            repository, "fetch", "--quiet", "--no-write-fetch-head", str(path), f"{BRANCH}:{BRANCH}"
        )
    return int(git(repository, "rev-list", "--count", BRANCH).strip() or 0)
