"""R-1: a local copy whose sync folder cannot be read is said to be unreadable, never empty.

``RemoteCopy.status`` listed the sync folder with ``Path.glob``, which answers nothing for a
folder it may not read, and took a folder ``is_dir`` could not stat as none: a copy with
scopes synced and changes waiting to go back (another account's after a restore, a mode
changed by hand) was shown by ``harness-memory sync --status`` and ``harness-memory status``
as "no scope synced yet", exit 0. Its state file read the same way: one that could not be read
said "last sync never" of every scope, and a FIFO there hung the status. Right (fail closed):
the copy's state cannot be read, naming the folder or file and why; ``sync --status`` exits 1,
``status`` marks it a PROBLEM; a copy that has no sync folder yet is still "no scope synced".
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from harness_memory.cli_sync import remote_status
from harness_memory.installers.status import _remote_lines
from harness_memory.remote import (
    SYNC_STATE_READ_CAP,
    CopyUnreadable,
    RemoteCopy,
    host_name,
    machine_identity,
)

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.test_r1_hostile_service import _copy, _publish, stand_in
from tests.support.refused_account import refused_prefix
from tests.support.serve import code_under_test

__all__ = ["stand_in"]  # the fixture, used by name

NOTE = "---\nname: new\ndescription: d\n---\nbody\n"


def _synced(url: str, work: Path, tmp_path: Path, *, written: bool = True) -> RemoteCopy:
    """A copy whose user scope synced once, and (``written``) a note written since, which
    waits to go back (the stand-in takes no push)."""
    (work / "MEMORY.md").write_text("- [Note](note.md) — d\n", encoding="utf-8")
    _publish(work, "first")
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    if written:
        (copy.memory_root / "user" / "new.md").write_text(NOTE, encoding="utf-8")
    return copy


def _status_refused(url: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``harness-memory sync --status`` of the copy under ``tmp_path/laptop``, run as an
    account the kernel holds to the files' modes."""
    return _status(url, tmp_path, refused_prefix())


def _status(url: str, tmp_path: Path, prefix: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """``harness-memory sync --status`` of the copy under ``tmp_path/laptop``, behind the
    words of ``prefix``: its own process, as a user runs it."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "HARNESS_MEMORY_URL": url, "HARNESS_MEMORY_PROJECT": "acme",
           "HARNESS_MEMORY_AGENT": "coder", "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "laptop"),
           **code_under_test()}  # fmt: skip
    return subprocess.run(
        [*prefix, HARNESS_MEMORY, "sync", "--status"],
        env=env, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize("which", ["sync folder", "its parent", "state file"])
def test_r1_sync_status_of_a_copy_it_may_not_read_says_so_and_exits_1(
    stand_in: tuple[str, Path], tmp_path: Path, which: str
) -> None:
    url, work = stand_in
    copy = _synced(url, work, tmp_path)
    refused = {
        "sync folder": copy.sync_dir,
        "its parent": copy.sync_dir.parent,
        "state file": copy.sync_dir / "sync-state.json",
    }[which]
    assert refused.exists()
    mode = refused.stat().st_mode & 0o7777
    refused.chmod(0)
    try:
        done = _status_refused(url, tmp_path)
    finally:
        refused.chmod(mode)

    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "no scope synced" not in done.stdout and "last sync never" not in done.stdout
    assert "its state cannot be read" in done.stdout
    assert f"{refused if which != 'its parent' else copy.sync_dir}" in done.stdout
    assert "Permission denied" in done.stdout
    assert done.stderr == ""


def test_r1_a_sync_folder_that_is_a_file_is_unreadable_not_empty(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    copy = _synced(url, work, tmp_path)
    moved = copy.sync_dir.with_name("sync.moved")
    copy.sync_dir.rename(moved)
    copy.sync_dir.write_bytes(b"not a folder")

    with pytest.raises(CopyUnreadable, match=r"sync folder .* cannot be read \(Not a directory\)"):
        copy.status()
    lines, known = remote_status(copy)
    said, healthy = _remote_lines(tmp_path / "laptop", url, "acme", "coder")

    assert not known and len(lines) == 1 and "no scope synced" not in lines[0]
    assert not healthy and said == [f"PROBLEM: {lines[0]}"]


@pytest.mark.parametrize("what", ["fifo", "folder", "not json", "over the cap"])
def test_r1_a_state_file_that_cannot_be_read_is_named_and_never_hangs(
    stand_in: tuple[str, Path], tmp_path: Path, what: str
) -> None:
    url, work = stand_in
    copy = _synced(url, work, tmp_path, written=False)
    state = copy.sync_dir / "sync-state.json"
    state.unlink()
    if what == "fifo":
        os.mkfifo(state)  # opened blocking, no status would ever answer
    elif what == "folder":
        state.mkdir()
    elif what == "over the cap":  # JSON, but no state this plugin wrote: never read whole
        state.write_bytes(b'{"pad": "' + b"x" * SYNC_STATE_READ_CAP + b'"}')
    else:
        state.write_bytes(b"{torn")

    with pytest.raises(CopyUnreadable, match=r"the sync state .*sync-state\.json cannot be read"):
        copy.status()
    if what == "over the cap":
        with pytest.raises(CopyUnreadable, match=f"larger than {SYNC_STATE_READ_CAP} bytes"):
            copy.status()
    synced = copy.sync_scope("user")  # its note read without waiting on the FIFO, then written

    assert synced.ok, synced.as_json()
    if what != "folder":  # a note written anew in its place: the status reads again
        [scope] = copy.status()
        assert scope.last_sync is not None and not scope.waiting


def test_r1_a_copy_with_no_sync_folder_yet_has_no_scope_synced(tmp_path: Path) -> None:
    copy = _copy("http://127.0.0.1:9", tmp_path)

    assert copy.status() == []
    assert remote_status(copy) == ([f"remote copy {copy.memory_root}: no scope synced yet"], True)


def test_r1_a_readable_copy_still_shows_each_scope_and_what_waits(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    copy = _synced(url, work, tmp_path)

    lines, known = remote_status(copy)

    assert known
    # the machine as the Memory tab names it where two share a host name
    machine_id, name = machine_identity(copy.remote_dir)
    assert lines[0].endswith(f"(this machine: {name} #{machine_id[:6]}):"), lines[0]
    assert any(line.startswith("  user: last sync 20") for line in lines), lines
    assert any("changes wait to go back" in line for line in lines), lines


@pytest.mark.parametrize("name", ["machine-id", "sync/user.synced"])
def test_r1_a_fifo_among_the_copy_s_own_files_never_holds_a_sync(
    stand_in: tuple[str, Path], tmp_path: Path, name: str
) -> None:
    """The machine's id and the note a Session-start sync leaves for the parallel hook
    entries of its Session were read with a blocking open: a FIFO there held every sync."""
    url, work = stand_in
    copy = _synced(url, work, tmp_path, written=False)
    fifo = {"machine-id": copy.remote_dir / "machine-id",
            "sync/user.synced": copy.sync_dir / "user.synced"}[name]  # fmt: skip
    fifo.unlink()
    os.mkfifo(fifo)
    copy = _copy(url, tmp_path)  # reads its machine id anew

    since = None if name == "machine-id" else 0.0  # a parallel entry reads the note
    [result] = copy.sync(None, fresh_since=since)

    assert result.skipped == (name != "machine-id"), result.as_json()
    if name == "machine-id":
        assert result.ok and fifo.is_file()  # a new id, written as a file in its place
    else:
        assert not result.ok and result.error == "the sync of a parallel hook entry left no result"


def test_r1_a_sync_leaves_a_state_file_it_may_not_read_as_it_is(
    stand_in: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sync notes its scope's last sync in the state file it read: one this account may not
    read (another account's notes, a mode changed by hand) was taken as empty and replaced by
    this scope's note alone, dropping every other scope's. It is left as it is; a state file
    that is torn is still replaced, the notes being for people and the sync not needing them."""
    url, work = stand_in
    copy = _synced(url, work, tmp_path, written=False)
    state = copy.sync_dir / "sync-state.json"
    kept = b'{"workspace-elsewhere": {"lastSync": "2026-01-02T03:04:05Z"}}'
    state.write_bytes(kept)
    real_open = os.open

    def refusing(path: str | Path, flags: int, mode: int = 0o777, **kwargs: int | None) -> int:
        if os.fspath(path) == os.fspath(state):
            raise PermissionError(13, "Permission denied", os.fspath(state))
        return real_open(path, flags, mode, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(os, "open", refusing)
        assert copy.sync_scope("user").ok
    assert state.read_bytes() == kept

    state.write_bytes(b'{"torn')
    assert copy.sync_scope("user").ok
    assert "user" in state.read_text(encoding="utf-8")


@pytest.mark.parametrize("kept", ["a folder", "missing", "not an id"])
def test_r1_the_status_reads_the_machine_id_and_never_makes_one(
    stand_in: tuple[str, Path], tmp_path: Path, kept: str
) -> None:
    """The status named this machine by reading its id as a sync does, which makes and writes a
    new id where none can be read: with a folder at ``machine-id`` ``sync --status`` and
    ``status`` crashed (IsADirectoryError); with none it wrote one. A diagnosis writes nothing:
    it says there is no id yet, or why the id cannot be read, and still shows every scope."""
    url, work = stand_in
    _synced(url, work, tmp_path)
    path = tmp_path / "laptop" / "remote" / "machine-id"
    path.unlink()
    if kept == "a folder":
        path.mkdir()
    elif kept == "not an id":
        path.write_bytes(b"NOT AN ID\n")
    copy = RemoteCopy(url=url, token=None, project="acme", agent="coder",
                      state_dir=tmp_path / "laptop", timeout=30.0, looks_only=True)  # fmt: skip

    lines, known = remote_status(copy)
    problems, fine = _remote_lines(copy.remote_dir.parent, url, "acme", "coder")

    said = {"a folder": "machine id unreadable: not a regular file",
            "missing": "no machine id yet",
            "not an id": "machine id unreadable: it holds no machine id"}[kept]  # fmt: skip
    assert known and fine, (lines, problems)
    assert lines[0].endswith(f"(this machine: {host_name()}; {said}):"), lines[0]
    assert any(line.startswith("  user: last sync 20") for line in lines), lines
    assert problems == lines
    assert path.is_dir() if kept == "a folder" else (kept == "missing") != path.exists()
    if kept == "a folder":  # the command as a user runs it: its own process, exit 0
        shown = _status(url, tmp_path, ())
        assert (shown.returncode, shown.stdout) == (0, "".join(f"{line}\n" for line in lines))
