"""V-3, R-2: the side file naming the new ids retention gave the versions it kept stays within
its bound however many times retention runs, and one that cannot be read is logged.

Each run notes the new id of the newest kept versions (a bounded number) and carries over the
ids an earlier run noted that point at a version kept again (a machine that synced before both
runs is still measured against its version). Those carried ids once came on top of the bound,
so the file grew with every run (5,000 entries, 440 KB, became 12,000 and 1,056,000 bytes after
four runs), past the 1 MiB its reader takes: then no id was found and each new one was silently
lost. Here the bound is five entries and the history is cut four times.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from memory_api.store.history import maintenance
from memory_api.store.history.git import git
from memory_api.store.history.maintenance import Retention, apply_retention, new_id

from tests.api.test_v2_file_history_page_below_renames_reads_the_page import imported, write

BOUND = 5
IDS_FILE = "retention-ids.json"


def test_v3_the_new_ids_of_kept_versions_stay_within_their_bound_run_after_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(maintenance, "_IDS_KEPT", BOUND)
    repository = tmp_path / "user.git"
    made = imported(repository, [write("note.md", f"text {n}") for n in range(12)])

    for keep in (10, 9, 8, 7):
        assert apply_retention(repository, Retention(max_versions=keep)).squashed > 0
        noted = json.loads((repository / IDS_FILE).read_bytes())
        assert len(noted) <= BOUND

    head = git(repository, "rev-parse", "main").decode().strip()
    assert new_id(repository, made[0]) == head  # the head a machine synced at before any run


def test_v3_a_side_file_that_cannot_be_read_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repository = tmp_path / "user.git"
    made = imported(repository, [write("note.md", "text")])
    (repository / IDS_FILE).write_bytes(b"{" + b" " * (1024 * 1024) + b"}")

    with caplog.at_level(logging.WARNING):
        assert new_id(repository, made[0]) is None

    assert any(IDS_FILE in record.getMessage() for record in caplog.records)
