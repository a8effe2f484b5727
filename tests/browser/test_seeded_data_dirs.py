"""The browser tests' demo data dirs: a worker seeds once and copies (:class:`SeededDataDirs`).

A copy moved to another data dir's path must hold exactly what ``memory-api demo seed`` leaves
there: the same files and folders, byte for byte and mode for mode (their times are the first
seed's), the demo Workspaces' scopes keyed by their new real paths (K-1) with markers naming
them (K-5). Otherwise every browser test would look at a demo no seed makes.
"""

from __future__ import annotations

import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.browser.conftest import CHAT_URL, SeededDataDirs
from tests.browser.service import seed

pytestmark = pytest.mark.browser

MOVED = 4000
"""This test's data dir among the worker's (no other test or module takes it: 3000 and up are
:data:`~tests.browser.conftest.PREPARED_DATA_DIRS`, whose services run until the worker ends)."""
SEEDED_FIRST = 4001
"""A data dir asked for first, so the worker has seeded (here or in an earlier test) somewhere
other than :data:`MOVED`."""


def _seed_days() -> re.Pattern[bytes]:
    """An ``updated_at`` date of today or yesterday (UTC): the days a seed clamps the corpus's
    later dates to (``demo._not_in_future``), so two seeds either side of midnight differ there."""
    today = datetime.now(UTC).date()
    days = b"|".join(day.isoformat().encode() for day in (today, today - timedelta(days=1)))
    return re.compile(rb"(?m)^(updated_at:[ \t]*[\"']?)(?:" + days + rb")")


def _tree(data_dir: Path) -> dict[str, tuple[str, bytes | None]]:
    """Every entry below ``data_dir`` by relative path: its mode and, for a file, its bytes
    (an ``updated_at`` the seed set to its own day read as ``<seed day>``)."""
    seed_day = _seed_days()
    tree: dict[str, tuple[str, bytes | None]] = {}
    for folder, names, files in os.walk(data_dir):
        for name in [*names, *files]:
            path = Path(folder, name)
            mode = oct(path.lstat().st_mode)
            data = seed_day.sub(rb"\1<seed day>", path.read_bytes()) if name in files else None
            tree[str(path.relative_to(data_dir))] = (mode, data)
    return tree


def test_a_seed_copied_to_another_data_dir_is_what_a_seed_there_leaves(
    seeded_data_dirs: SeededDataDirs,
) -> None:
    env = {"MEMORY_API_CHAT_URL": CHAT_URL}
    seeded_data_dirs.fresh(SEEDED_FIRST, env)
    moved = seeded_data_dirs.fresh(MOVED, env)
    copied = _tree(moved)

    shutil.rmtree(moved)
    seed(moved, {**os.environ, **env})
    assert copied == _tree(moved)
    markers = [path for path in copied if path.endswith("/.workspace")]
    assert len(markers) == 2, markers  # the demo's two Workspaces, moved
    for path in markers:
        named = copied[path][1] or b""
        assert named.decode().startswith(f"{moved}/demo-workspaces/"), (path, named)
