"""R-2, V-1: a push into a memory root on a disk that caches attributes is recorded and read.

The service writes a pushed file by linking a hidden temp file to its name and removing the
temp name (``create_new_bytes``: "create only if absent"). On a FUSE disk with libfuse's
defaults the kernel keeps the attributes it was given for a second: the new
name still showed two links after the temp name was gone, so the service took the note for a
file named outside its folder (A-7): the push's record left it out (its version was recorded
later, by the next fetch, as "found"), and reading it through the API was refused. The disk here
is a real FUSE file system (:mod:`tests.support.short_names_disk`) keeping attributes as libfuse
does by default; the link count is now asked of the file system before a file is refused.
"""

from __future__ import annotations

from pathlib import Path

from memory_core import layout

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, served_root, synced
from tests.support.short_names_disk import FUSE_CACHE_SECONDS, short_names_disk

__all__ = ["served_root"]  # the fixture, used by name

NOTE = "---\ndescription: how we ship\n---\nship on Fridays\n"


def test_r2_a_note_pushed_onto_a_caching_disk_is_the_push_s_version_and_readable(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    served_root.mkdir(parents=True, exist_ok=True)
    with short_names_disk(tmp_path, at=served_root, cache_seconds=FUSE_CACHE_SECONDS):
        laptop = machine(shared_service, new_agent, tmp_path, "laptop")
        synced(laptop)
        append(laptop.memory_root / "user" / "deploys.md", NOTE)
        append(laptop.memory_root / "user" / layout.INDEX_FILE, "- [Deploys](deploys.md) ship\n")

        [result] = synced(laptop)

        base = f"/api/projects/acme/agents/{new_agent}/memory/scopes/user"
        status, _, changes = shared_service.request("GET", f"{base}/changes")
        assert status == 200, changes
        assert changes["versions"], "the push was taken, and no version of it recorded"
        newest = changes["versions"][0]
        assert newest["author"]["source"] == "sync", newest
        assert {change["file"] for change in newest["files"]} == {"deploys.md", "MEMORY.md"}
        status, _, body = shared_service.request("GET", f"{base}/files/deploys.md")
        assert status == 200, body
        assert result.ok and result.outcomes == []
