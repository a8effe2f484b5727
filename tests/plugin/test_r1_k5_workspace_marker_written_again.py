"""R-1, K-5: a Workspace scope's ``.workspace`` marker gone from the service comes back.

The marker is all that ties a scope to its Workspace. On the service's machine a Session start
writes a missing one again; a machine's Session sync does the same for its copy and sends it.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.plugin.real_service import RealService
from tests.plugin.test_r1_remote_sync import append, machine, served_root, synced

__all__ = ["served_root"]  # the fixture, used by name


def test_r1_k5_a_workspace_marker_gone_from_the_service_is_written_again_by_the_next_session(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """A Workspace scope removed on the service (a forget), then sent an edit by a machine that
    still had it: the push that brings the scope back writes its marker too, so no side ever
    fetches the marker as deleted. A marker gone from a machine's copy all the same (removed by
    hand) is written again by that machine's next Session sync, which says so and sends it, so
    the scope is tied to its Workspace on every side."""
    workspace = tmp_path / "src" / "shop"
    workspace.mkdir(parents=True)
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    desktop = machine(shared_service, new_agent, tmp_path, "desktop")
    key = laptop.workspace_key(str(workspace))
    synced(laptop, str(workspace))
    append(laptop.memory_root / key / "deploy.md", "---\ndescription: deploy\n---\nmake\n")
    append(laptop.memory_root / key / "MEMORY.md", "- [Deploy](deploy.md) deploy\n")
    synced(laptop, str(workspace))
    synced(desktop, str(workspace))
    for entry in (served_root / key).iterdir():  # the scope removed on the service
        entry.unlink()
    (served_root / key).rmdir()
    append(desktop.memory_root / key / "deploy.md", "with care\n")
    synced(desktop, str(workspace))
    synced(laptop, str(workspace))
    marker = os.path.realpath(workspace) + "\n"
    assert (served_root / key / ".workspace").read_text(encoding="utf-8") == marker
    assert (laptop.memory_root / key / ".workspace").read_text(encoding="utf-8") == marker

    (laptop.memory_root / key / ".workspace").unlink()  # gone from the laptop's copy by hand
    results = synced(laptop, str(workspace))

    assert (laptop.memory_root / key / ".workspace").read_text(encoding="utf-8") == marker
    said = [line for result in results for line in result.outcomes if ".workspace" in line]
    assert said and "was gone" in said[0] and "written again" in said[0]
    assert (served_root / key / ".workspace").read_text(encoding="utf-8") == marker
    assert (served_root / key / "deploy.md").read_text(encoding="utf-8").endswith("with care\n")
    synced(desktop, str(workspace))
    assert (desktop.memory_root / key / ".workspace").read_text(encoding="utf-8") == marker
    assert not any(scope.waiting for scope in laptop.status())
