"""Q-4: ``python -m memory_api.volume_check`` tells a filesystem that holds replicas together.

On one machine the two-host check is played with a holder record naming another host: with the
probe lock really held by another process, the check finds it taken (what NFSv4 or CephFS do
across hosts); with the record but no lock held, it gets the lock and reports the filesystem as
keeping locks per host (what a ``local_lock`` NFS mount or SMB with ``nobrl`` would do).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from memory_api import volume_check
from memory_api.stores import LOCKS_DIR

HOLD_SCRIPT = (
    "import fcntl, sys, time\n"
    "handle = open(sys.argv[1], 'a')\n"
    "fcntl.flock(handle, fcntl.LOCK_EX)\n"
    "print('held', flush=True)\n"
    "time.sleep(30)\n"
)


def _record_holder(data_dir: Path, seconds: float = 30) -> None:
    locks = data_dir / LOCKS_DIR
    locks.mkdir(parents=True, exist_ok=True)
    record = {"host": "replica-a.invalid", "pid": 1, "until": time.time() + seconds}
    (locks / volume_check.HOLDER_FILE).write_text(json.dumps(record), encoding="utf-8")


def test_q4_rename_is_checked_and_the_lock_check_waits_for_a_holder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert volume_check.main(["--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ok   atomic rename")
    assert lines[1].startswith("skip locks across hosts: no hold by another host")
    assert sorted(p.name for p in (tmp_path / LOCKS_DIR).iterdir()) == []


def test_q4_a_lock_held_on_another_host_is_found_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _record_holder(tmp_path)
    lock = tmp_path / LOCKS_DIR / volume_check.LOCK_FILE
    with subprocess.Popen(
        [sys.executable, "-c", HOLD_SCRIPT, str(lock)], stdout=subprocess.PIPE, text=True
    ) as holder:
        try:
            assert holder.stdout is not None
            assert holder.stdout.readline() == "held\n"
            assert volume_check.main(["--data-dir", str(tmp_path)]) == 0
        finally:
            holder.kill()
    assert "ok   locks across hosts: the lock held on replica-a.invalid" in capsys.readouterr().out


def test_q4_a_lock_free_despite_a_live_holder_means_locks_stay_per_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _record_holder(tmp_path)
    assert volume_check.main(["--data-dir", str(tmp_path)]) == 1
    assert "FAIL locks across hosts" in capsys.readouterr().out


def test_q4_a_hold_that_ran_out_is_not_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _record_holder(tmp_path, seconds=-1)
    assert volume_check.main(["--data-dir", str(tmp_path)]) == 0
    assert "has run out" in capsys.readouterr().out


def test_q4_hold_records_this_host_and_cleans_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert volume_check.main(["--data-dir", str(tmp_path), "--hold", "0.1"]) == 0
    assert "ok   held the probe lock for 0.1 s" in capsys.readouterr().out
    assert not (tmp_path / LOCKS_DIR / volume_check.HOLDER_FILE).exists()


def test_q4_unusable_data_dir_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x", encoding="utf-8")
    assert volume_check.main(["--data-dir", str(not_a_dir)]) == 2
    assert "cannot be used" in capsys.readouterr().err
