"""H-7 with the real Codex CLI 0.171: ``status`` says "Codex cannot read" exactly when Codex
refuses ``hooks.json``.

An ``mcp_tool`` handler and a ``"timeout": null`` beside ours: Codex reads the file and
injects memory, and ``status`` names no problem with it. A ``SubagentStop`` hook with a
``timeout`` of ``"30"``: Codex warns "failed to parse hooks config" and injects nothing, and
``status`` says it cannot read the file (``test_h7_status_reads_hooks_json_as_codex_0171_does.py``
has the in-process cases, each measured so); so for a handler setting both ``commandWindows``
and ``command_windows``, one serde field by its name and its alias.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from memory_core.keys import workspace_memory_key

from tests.plugin.harness_run import run_codex, workspace_with_key
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h3_codex_project_hooks import harness_memory
from tests.support.codex_turns import developer_and_user_text

pytestmark = pytest.mark.e2e

CASES: dict[str, dict[str, Any]] = {
    "read": {
        "Stop": [
            {"hooks": [{"type": "mcp_tool", "server": "notes", "tool": "save"}]},
            {"hooks": [{"type": "command", "command": "true", "timeout": None}]},
        ]
    },
    "refused": {
        "SubagentStop": [{"hooks": [{"type": "command", "command": "true", "timeout": "30"}]}]
    },
    "both-names": {  # one field by its name and its serde alias: "duplicate field"
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "true",
                        "commandWindows": "true.cmd",
                        "command_windows": "true.cmd",
                    }
                ]
            }
        ]
    },
}


def added(change: dict[str, Any], codex_home: Path) -> None:
    hooks_json = codex_home / "hooks.json"
    document = json.loads(hooks_json.read_text(encoding="utf-8"))
    for event, groups in change.items():
        document["hooks"][event] = document["hooks"].get(event, []) + groups
    hooks_json.write_text(json.dumps(document), encoding="utf-8")


async def test_codex_reads_hooks_json_exactly_when_status_says_it_does(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    seen: dict[str, tuple[int, bool, bool]] = {}
    for case, change in CASES.items():
        run_dir = tmp_path / case  # short: the loopback's socket paths
        run_dir.mkdir()
        codex_home = run_dir / "home" / ".codex"
        workspace = workspace_with_key(run_dir)[0]
        fake, status, _, err = await run_codex(
            [],
            shared_service,
            shared_memory_root,
            workspace,
            run_dir,
            agent=new_agent,
            after_install=partial(added, change, codex_home),
        )
        assert status == 0, err[-3000:]
        first = developer_and_user_text(fake.session_turns()[0])
        injected = first.count(f"- Workspace Memory Key: {workspace_memory_key(workspace)}")
        said = harness_memory("status", run_dir / "home", workspace)[1]
        seen[case] = (injected, "failed to parse hooks config" in err, "Codex cannot read" in said)

    assert seen == {
        "read": (1, False, False),
        "refused": (0, True, True),
        "both-names": (0, True, True),
    }
