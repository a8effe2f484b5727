"""R-1: a machine's local copy whose git cannot say what waits to be sent never says nothing
waits.

The copy's git index is a file git rewrites at each sync; a crash or a full disk can leave it
torn. Every later sync then failed, and ``harness-memory status`` (``RemoteCopy.status``) said
"nothing waits" of a scope whose agent had written a memory since its last sync, which had
never been sent (and the failed sync's own result said ``waiting: false``). Right: changes
may wait, and why it cannot tell is said.
"""

from __future__ import annotations

from pathlib import Path

from tests.plugin.test_r1_hostile_service import _copy, _publish, stand_in

__all__ = ["stand_in"]  # the fixture, used by name


def test_r1_a_copy_whose_index_is_torn_never_says_nothing_waits(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Note](note.md) — d\n", encoding="utf-8")
    _publish(work, "first")
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    note = "---\nname: new\ndescription: d\n---\nbody\n"
    (copy.memory_root / "user" / "new.md").write_text(note, encoding="utf-8")
    (copy.sync_dir / "user.git" / "index").write_bytes(b"DIRC torn")

    (scope,) = copy.status()
    result = copy.sync_scope("user")

    assert scope.waiting
    assert scope.last_error is not None and "index" in scope.last_error
    assert not result.ok and result.waiting
