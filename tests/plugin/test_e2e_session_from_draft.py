"""End to end: a draft made through the real service's API (A-12) starts a Session (P-1, W-4, K-5).

The Memory tab pins a Workspace scope's chat by posting the scope's Workspace path with the draft;
the plugin fetches the draft, prepares that Workspace's scope and hands the prompt back unchanged.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_memory import SessionStart
from memory_core.keys import workspace_memory_key
from memory_core.layout import MARKER_FILE

from tests.plugin.helpers import first_session_files, names, run_cli, start
from tests.plugin.real_service import RealService

pytestmark = pytest.mark.e2e

TEMPLATE = (
    "You are Coder.\n\n{{MEMORY}}\n\n"
    "# Environment\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}\n"
)
PROMPT = (
    "Update the Workspace memory `Deploy notes.md` ({{WORKSPACE_MEMORY_KEY}}):\r\n"
    "  deploys now run `make ship` — «über» 数据库迁移; keep {{MEMORY}} and {{AGENT_ID}} literal.  "
)


def marker_of(scope: Path) -> str:
    return (scope / MARKER_FILE).read_text(encoding="utf-8")


def create_draft(
    service: RealService, agent: str, prompt: str, workspace: Path | None = None
) -> str:
    body: dict[str, str] = {"prompt": prompt}
    if workspace is not None:
        body["workspace"] = str(workspace)
    status, _, draft = service.request("POST", f"/api/projects/acme/agents/{agent}/drafts", body)
    assert status == 201, draft
    return str(draft["id"])


async def begin(service: RealService, agent: str, workspace: Path, draft_id: str) -> SessionStart:
    """Start a Session of ``acme/<agent>`` from ``draft_id``, the harness being in
    ``workspace``."""
    return await start(
        service.url,
        TEMPLATE,
        token=service.token,
        agent=agent,
        workspace=str(workspace),
        session_id="e2e-draft",
        draft_id=draft_id,
    )


async def test_a12_w4_a_draft_pinned_to_a_workspace_starts_the_session_in_its_scope(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    pinned = tmp_path / "src" / "shop-api"
    harness_cwd = tmp_path / "src" / "somewhere-else"
    pinned.mkdir(parents=True)
    harness_cwd.mkdir()
    draft_id = create_draft(shared_service, new_agent, PROMPT, pinned)
    result = await begin(shared_service, new_agent, harness_cwd, draft_id)
    key = workspace_memory_key(pinned)
    assert result.key == key
    assert names(shared_memory_root) == {"user", key}  # no scope for the harness's cwd
    assert names(shared_memory_root / key) == first_session_files(pinned)
    assert marker_of(shared_memory_root / key) == str(pinned.resolve()) + "\n"
    assert result.initial_prompt == PROMPT
    assert f"- Workspace Memory Key: {key}\n" in result.system_prompt
    assert "## Workspace memory" in result.system_prompt
    assert "Deploy notes" not in result.system_prompt
    meta = result.session_meta
    assert meta.status == "injected" and meta.draft_error is None
    assert meta.draft_id == draft_id and meta.initial_prompt == PROMPT
    assert meta.workspace == str(pinned) and meta.workspace_source == "draft"


async def test_a12_an_unpinned_draft_keeps_the_harnesss_workspace(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "src" / "my-app"
    workspace.mkdir(parents=True)
    draft_id = create_draft(shared_service, new_agent, "Add a memory: I prefer small commits.")
    result = await begin(shared_service, new_agent, workspace, draft_id)
    assert result.key == workspace_memory_key(workspace)
    assert result.initial_prompt == "Add a memory: I prefer small commits."
    assert result.session_meta.workspace_source == "harness"


async def test_a12_p2_an_unknown_draft_fails_open_with_the_services_404(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "src" / "my-app"
    workspace.mkdir(parents=True)
    unknown = "0123456789abcdef0123456789abcdef"
    result = await begin(shared_service, new_agent, workspace, unknown)
    assert result.initial_prompt is None
    meta = result.session_meta
    assert meta.draft_error_kind == "not-found"
    assert meta.draft_error is not None and "it may have expired" in meta.draft_error
    assert meta.status == "injected"
    assert result.key == workspace_memory_key(workspace)


async def test_a12_cli_shows_the_draft_and_starts_the_session_from_it(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    pinned = tmp_path / "src" / "shop-api"
    pinned.mkdir(parents=True)
    draft_id = create_draft(shared_service, new_agent, PROMPT, pinned)
    flags = ["--url", shared_service.url, "--token", shared_service.token]
    flags += ["--project", "acme", "--agent", new_agent]
    shown = await run_cli("draft", "show", *flags, "--format", "json", draft_id, env={})
    assert shown.returncode == 0, shown.stderr
    assert shown.json()["prompt"] == PROMPT
    assert shown.json()["workspace"] == str(pinned)
    started = await run_cli(
        "session-start", *flags, "--workspace", str(tmp_path), "--draft", draft_id,
        "--format", "json", env={},
    )  # fmt: skip
    assert started.returncode == 0, started.stderr
    assert started.json()["initialPrompt"] == PROMPT
    assert started.json()["key"] == workspace_memory_key(pinned)
