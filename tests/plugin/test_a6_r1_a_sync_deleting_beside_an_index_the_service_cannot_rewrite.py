"""A-6, R-1: a sync whose push deletes a file beside an index the service cannot rewrite says
why it was refused, keeps the machine's change, and sends it once the index is fixed.

The service refuses such a push whole (409: the file would go and a line linking it stay in a
``MEMORY.md`` nobody can prune). git shows only "RPC failed; HTTP 409", so the sync asks the
service for its reason, as it does for a 5xx: the result says the fix, then the file and why.
The change waits on the machine (nothing is lost, nothing fetched over it), each later sync
tries it once more and says the same, and once ``MEMORY.md`` on the service is a regular file
again, the next sync sends it and both sides end without the file and its line.
"""

from __future__ import annotations

from pathlib import Path

from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, served_root, synced

__all__ = ["served_root"]  # the fixture, used by name

LINE = "- [F](f.md) the file deleted\n"
OTHER = "- [G](g.md) a file kept\n"
F_TEXT = "---\ndescription: f\n---\nbody of f\n"


def test_a6_r1_a_refused_delete_is_said_kept_on_the_machine_and_sent_once_fixed(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    user = served_root / "user"
    append(user / layout.INDEX_FILE, LINE + OTHER)
    append(user / "f.md", F_TEXT)
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(laptop)
    outside = tmp_path / "dotfiles" / layout.INDEX_FILE
    outside.parent.mkdir()
    outside.write_text(LINE + OTHER, encoding="utf-8")
    (user / layout.INDEX_FILE).unlink()
    (user / layout.INDEX_FILE).symlink_to(outside)
    copy = laptop.memory_root / "user"
    (copy / "f.md").unlink()
    (copy / layout.INDEX_FILE).write_text(OTHER, encoding="utf-8")

    [refused] = laptop.sync(None)
    [again] = laptop.sync(None)

    for result in (refused, again):
        assert not result.ok and result.waiting and not result.refused
        assert result.error is not None and "HTTP 409" in result.error, result.error
        assert result.error.endswith(
            "(the service says: the push was not taken, and the machine keeps its change: make "
            "MEMORY.md on the service's machine a regular file of the scope's folder, no "
            "symlink, at most 16777216 bytes (or remove it), then sync again. The push deletes "
            "'f.md', but scope user's MEMORY.md on the service could not be written (it is a "
            "symlink there, which is never written through), so its index lines could not be "
            "removed, and a delete is all or nothing)"
        ), result.error
    assert (user / "f.md").read_text(encoding="utf-8") == F_TEXT
    assert outside.read_text(encoding="utf-8") == LINE + OTHER
    assert not (copy / "f.md").exists()  # the machine's change waits, never fetched over
    assert (copy / layout.INDEX_FILE).read_text(encoding="utf-8") == OTHER

    (user / layout.INDEX_FILE).unlink()
    (user / layout.INDEX_FILE).write_text(LINE + OTHER, encoding="utf-8")
    [sent] = synced(laptop)

    assert sent.sent and not sent.waiting
    assert not (user / "f.md").exists()
    assert (user / layout.INDEX_FILE).read_text(encoding="utf-8") == OTHER
    assert (copy / layout.INDEX_FILE).read_text(encoding="utf-8") == OTHER
