"""Q-2b: ``memory-api agent list`` through a service (``--url`` / ``MEMORY_API_PORT``) names
the agents the service answers ``unreadable``, and exits 1, as on the data dir.

Before, the list through a service dropped them without a word and exited 0, while the same
command on the data dir named each and exited 1.
"""

from __future__ import annotations

from typing import Any

import pytest
from memory_api.cli import main
from memory_api.remote import Remote

PROBLEM = "the stored settings of agent 'lost' (agents/lost/agent.json in the data dir) are invalid"
ANSWERS: dict[str, Any] = {
    "/healthz": {"status": "ok"},
    "/api/projects": {"projects": ["acme"], "unreadable": [{"id": "lost", "problem": PROBLEM}]},
    "/api/projects/acme/agents": {
        "agents": [
            {
                "id": "coder",
                "project": "acme",
                "name": "Coder",
                "memoryEnabled": True,
                "memoryCount": 2,
            }
        ],
        "unreadable": [{"id": "lost", "problem": PROBLEM}],
    },
}


@pytest.mark.parametrize("named", [[], ["--project", "acme"]])
def test_q2b_agent_list_through_a_service_names_unreadable_agents(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], named: list[str]
) -> None:
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    monkeypatch.setattr(Remote, "_call", lambda self, method, path, body, **_: ANSWERS[path])

    status = main(["agent", "list", "--url", "http://127.0.0.1:9", *named])

    said = capsys.readouterr()
    assert [line.split()[:2] for line in said.out.splitlines()[1:]] == [["acme", "coder"]]
    assert said.err.count(f"agent lost (project unknown): {PROBLEM}") == 1
    assert status == 1
