"""The service on a full disk: what it cannot do is said, never answered as fine.

- R-1: a push the service cannot take. git's own words for it are "unpacker error" /
  "unpack-objects abnormal exit": nothing a user can act on. The service names the cause in its
  answer (a ``remote:`` line, even to ``git push -q``) and the sync's error carries it: the
  service's disk is full, nothing was taken, the machine's writes wait for the next sync.
- A-9, K-5: a Session start in a new Workspace, where ``mkdir`` succeeds but the marker cannot be
  written: the answer names no folder and says why.

The full disk is real: the service runs in a mount namespace of its own (``unshare --mount``,
root) whose data dir is a small tmpfs, filled to the last byte once the agent exists.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_memory.remote import RemoteCopy

from tests.plugin.real_service import TOKEN, RealService
from tests.support.serve import serve

AGENT = "coder"
TMPFS_SIZE = "8m"


def fill(folder: Path) -> None:
    """Write ``folder``'s filesystem full (until the kernel says ENOSPC)."""
    chunk = b"\0" * 65536
    with (folder / "filler").open("wb", buffering=0) as handle:
        while True:
            try:
                handle.write(chunk)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
                if len(chunk) == 1:
                    return
                chunk = chunk[: len(chunk) // 2]


@pytest.fixture
def service_on_a_small_disk(tmp_path: Path) -> Iterator[RealService]:
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or unshare is None:
        pytest.skip("a tmpfs of its own for the service needs root and unshare")
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    mount = f'mount -t tmpfs -o size={TMPFS_SIZE},mode=0700 tmpfs "$0" && exec "$@"'
    prefix = (unshare, "--mount", "--propagation", "private", "sh", "-c", mount, str(data_dir))
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path / "service-home"),
        "MEMORY_API_TOKENS": f"plugin={TOKEN}",
        **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
    }
    served = serve(data_dir, env, log_path=tmp_path / "log", command_prefix=prefix)
    service = RealService(served, TOKEN)
    try:
        yield service
    finally:
        service.stop()


def test_r1_a_push_to_a_full_disk_says_the_services_disk_is_full(
    service_on_a_small_disk: RealService, tmp_path: Path
) -> None:
    service = service_on_a_small_disk
    status, _, body = service.request(
        "POST", "/api/projects/acme/agents", {"id": AGENT, "name": "Coder"}
    )
    assert status == 201, body
    laptop = RemoteCopy(
        url=service.url,
        token=service.token,
        project="acme",
        agent=AGENT,
        state_dir=tmp_path / "laptop",
        timeout=30.0,
    )
    [first] = laptop.sync(None)
    assert first.ok, first.as_json()
    # the service's view of its data dir: the tmpfs, seen through its own mount namespace
    fill(Path(f"/proc/{service.served.process.pid}/root") / str(service.data_dir).lstrip("/"))
    note = laptop.memory_root / "user" / "uv.md"
    note.write_text("---\ndescription: use uv\n---\n" + os.urandom(4096).hex() + "\n", "utf-8")

    [result] = laptop.sync(None)

    assert not result.ok and result.waiting, result.as_json()
    error = result.error or ""
    assert "the disk holding the history is full" in error, error
    assert "free space on the data dir's volume" in error
    assert "unpacker error" in error  # git's words stay, the service's reason beside them


def test_a9_a_session_start_on_a_full_disk_names_no_workspace_scope_and_says_why(
    service_on_a_small_disk: RealService, tmp_path: Path
) -> None:
    """A-9, K-5 on a full disk, where ``mkdir`` still succeeds (a folder takes no data block)
    but the ``.workspace`` marker cannot be written: the Session starts, the folder is not left
    behind without its marker, and the answer says the scope could not be created."""
    service = service_on_a_small_disk
    agent = f"/api/projects/acme/agents/{AGENT}"
    status, _, body = service.request(
        "POST", "/api/projects/acme/agents", {"id": AGENT, "name": "Coder"}
    )
    assert status == 201, body
    seen = Path(f"/proc/{service.served.process.pid}/root") / str(service.data_dir).lstrip("/")
    fill(seen)
    workspace = tmp_path / "workspace"
    workspace.mkdir()

    for _ in range(2):  # and again: nothing of the first attempt makes the second look fine
        status, _, started = service.request(
            "POST", f"{agent}/memory/session-start", {"workspace": str(workspace)}
        )
        assert status == 200, started
        key = started["key"]
        assert started["directories"]["workspace"] is None
        manifest = next(m for m in started["manifests"] if m["scope"] == key)
        assert (
            manifest["uncreated"]
            == "could not write its .workspace marker (No space left on device)"
        )
        assert "Do not write into its Directory" in started["memory"]
        assert not (seen / "agents" / AGENT / "agent_state" / "memory" / key).exists()
