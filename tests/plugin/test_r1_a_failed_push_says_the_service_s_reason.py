"""R-1: a push the service took in but could not write says the service's reason.

git shows only the status of a failed POST of a pack ("error: RPC failed; HTTP 503 curl 22 The
requested URL returned error: 503"), never the problem's ``detail`` in its body; it shows the
body of a failed ref list alone, and only as ``text/plain`` (``gitprotocol-http``). The sync
asked the ref list again for a reason, which was answered 200 when only the POST failed: the
user saw the status and no reason. Now the service remembers the problem the machine's POST was
answered with and answers it again to a GET of the same URL from that machine; the sync's
error carries it.

The fault is real: the service's scope folder is made immutable (``chattr +i``, which refuses
even root), so ``git receive-pack`` takes the objects in and the write into the folder fails.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, served_root, synced

__all__ = ["served_root"]  # the fixture, used by name


@contextlib.contextmanager
def immutable(folder: Path) -> Iterator[None]:
    """``folder`` immutable (``chattr +i``) for the ``with`` block; skips the test, saying
    why, where no file system here takes the flag."""
    chattr = shutil.which("chattr")
    if chattr is None:
        pytest.skip("no folder can be made immutable here: chattr is not installed")
    done = subprocess.run([chattr, "+i", str(folder)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"no folder can be made immutable here: {done.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=True)


def test_r1_a_push_the_service_could_not_write_carries_its_reason(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(laptop)
    append(laptop.memory_root / "user" / "uv.md", "---\ndescription: uv\n---\nuse uv\n")

    with immutable(served_root / "user"):
        [result] = laptop.sync(None)

    assert not result.ok and result.waiting
    assert result.error is not None
    assert result.error.startswith("error: RPC failed; HTTP 503"), result.error
    assert result.error.endswith(
        "(the service says: the push could not be written into the scope: Operation not permitted)"
    ), result.error
    assert shared_service.token not in result.error
    [again] = synced(laptop)  # the write waited, and goes with the next sync
    assert again.sent and (served_root / "user" / "uv.md").exists()


def test_r1_the_reason_is_the_machine_s_own_and_forgotten_once_its_push_succeeds(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """Another machine asking is told nothing of the laptop's failure; after the laptop's next
    push succeeds there is no failure to tell of (404, no reason)."""
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    desktop = machine(shared_service, new_agent, tmp_path, "desktop")
    synced(laptop)
    synced(desktop)
    append(laptop.memory_root / "user" / "uv.md", "---\ndescription: uv\n---\nuse uv\n")
    with immutable(served_root / "user"):
        [failed] = laptop.sync(None)
    assert not failed.ok

    said = laptop.service_says("user", "git-receive-pack", exchange=True)
    assert said == "the push could not be written into the scope: Operation not permitted"
    assert desktop.service_says("user", "git-receive-pack", exchange=True) is None
    synced(laptop)
    assert laptop.service_says("user", "git-receive-pack", exchange=True) is None
