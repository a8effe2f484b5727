"""K-5, A-3: a ``.workspace`` marker whose line is longer than any Workspace path is no path.

A Session start writes a marker of at most 4096 bytes (the longest Workspace path it takes).
One written by hand or by an agent (which writes in its memory root) could hold 64 KiB on its
line: the overview answered it as the scope's ``workspacePath``, its title, and quoted again in
a marker problem, some 200 KB for one scope (100 MB for a page of 500). Such a marker is read
as not a path, its problem saying how long it is, and no part of it is answered.
"""

from __future__ import annotations

from tests.api.conftest import AgentHome, Client, memory_url, ok_json

KEY = "long-0badc0de"


async def test_k5_a_marker_longer_than_a_workspace_path_is_no_path_and_not_echoed(
    client: Client, agent: AgentHome
) -> None:
    scope = agent.root / KEY
    scope.mkdir(parents=True)
    (scope / "a.md").write_text("---\ndescription: a\n---\nbody\n", encoding="utf-8")
    (scope / ".workspace").write_text("/tmp/" + "a" * 60_000 + "\n", encoding="utf-8")

    response = await client.get(f"{memory_url()}/scopes/{KEY}")
    summary = await ok_json(response)

    assert summary["workspacePath"] is None
    assert summary["markerProblems"] == [
        "marker: its line is 60005 bytes, longer than a Workspace path (at most 4096 bytes); "
        "not a path"
    ]
    assert len(await response.read()) < 4096
