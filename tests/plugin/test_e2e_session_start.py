"""End to end: the plugin's Session start against the real service process (P-1, P-2, K, I).

The tests share one ``memory-api serve`` per test worker on a free loopback port, each with an
agent of its own (``new_agent``), and seed scopes from ``tests/data/corpus``; the one that stops
the service starts its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_memory import SessionStart
from memory_core.keys import workspace_memory_key
from memory_core.layout import MARKER_FILE, workspaces_dir

from tests.plugin.helpers import first_session_files, names, start
from tests.plugin.real_service import RealService, seed_scope

pytestmark = pytest.mark.e2e

TEMPLATE = """You are Coder.

{{MEMORY}}

# Environment
- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}
- App data dir: {{APP_DATA_DIR}}
- Agent id: {{AGENT_ID}}
"""
USER_LINE = "- [Prefers pnpm](prefers-pnpm.md) — use pnpm, never npm or yarn, in every JS repo"
WORKSPACE_LINE = (
    "- [Testing conventions](testing-conventions.md) — pytest -q from repo root; "
    "fixtures live in tests/conftest.py"
)


async def begin(
    service: RealService, agent: str, workspace: Path, *, template: str = TEMPLATE
) -> SessionStart:
    """Start a Session of ``acme/{agent}`` in ``workspace`` with the service's token."""
    return await start(
        service.url,
        template,
        token=service.token,
        agent=agent,
        workspace=str(workspace),
        session_id="e2e-session",
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "src" / "shop-api"
    path.mkdir(parents=True)
    return path


def tree(root: Path) -> list[str]:
    """Every path under ``root``, relative and sorted."""
    return sorted(str(path.relative_to(root)) for path in root.rglob("*"))


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def real(path: Path) -> str:
    return str(path.resolve())


async def test_k5_persistent_workspace_first_session_creates_scope_and_marker(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, workspace: Path
) -> None:
    result = await begin(shared_service, new_agent, workspace)
    key = workspace_memory_key(workspace)
    assert result.key == key
    assert names(shared_memory_root / key) == first_session_files(workspace)
    assert text(shared_memory_root / key / MARKER_FILE) == real(workspace) + "\n"
    prompt = result.system_prompt
    assert "## User memory" in prompt and USER_LINE in prompt
    assert "## Workspace memory" in prompt
    assert f"(Nothing saved yet: the Workspace memory index ({key}) is empty" in prompt
    assert f"- Workspace Memory Key: {key}\n" in prompt
    assert f"- App data dir: {shared_service.data_dir}\n" in prompt
    assert f"- Agent id: {new_agent}\n" in prompt
    meta = result.session_meta
    assert meta.status == "injected" and meta.workspace_kind == "persistent"
    assert [m.scope for m in meta.manifests] == ["user", key]
    assert meta.directories is not None
    assert meta.directories.workspace == str(shared_memory_root / key)


async def test_i1_both_sections_carry_their_indexes(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, workspace: Path
) -> None:
    key = (await begin(shared_service, new_agent, workspace)).key
    assert key is not None
    seed_scope(shared_memory_root / key, "coding-agent-workspace")
    prompt = (await begin(shared_service, new_agent, workspace)).system_prompt
    user_at, workspace_at = prompt.index("## User memory"), prompt.index("## Workspace memory")
    assert user_at < prompt.index(USER_LINE) < workspace_at < prompt.index(WORKSPACE_LINE)
    assert text(shared_memory_root / key / MARKER_FILE) == real(workspace) + "\n"


async def test_k3_the_same_workspace_through_a_symlink_has_the_same_key(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    workspace: Path,
    tmp_path: Path,
) -> None:
    link = tmp_path / "link-to-shop"
    link.symlink_to(workspace)
    direct = await begin(shared_service, new_agent, workspace)
    through_link = await begin(shared_service, new_agent, link)
    assert through_link.key == direct.key == workspace_memory_key(workspace)
    assert names(shared_memory_root) == {"user", direct.key}
    assert f"- Workspace Memory Key: {direct.key}\n" in through_link.system_prompt


@pytest.mark.parametrize("owner", ["coder", "helper"])
async def test_k4_temporary_workspace_gets_the_user_section_only(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, owner: str
) -> None:
    folder_of = new_agent
    if owner != "coder":  # a subagent in another agent's temporary Workspace
        folder_of = f"{new_agent}-{owner}"
        body = {"id": folder_of, "name": owner.title()}
        status, _, answer = shared_service.request("POST", "/api/projects/acme/agents", body)
        assert status == 201, answer
    temporary = workspaces_dir(shared_service.data_dir, folder_of) / "run-1"
    temporary.mkdir(parents=True)
    result = await begin(shared_service, new_agent, temporary)
    prompt = result.system_prompt
    assert "## User memory" in prompt and USER_LINE in prompt
    assert "## Workspace memory" not in prompt
    assert "- Workspace Memory Key: (none — temporary workspace)\n" in prompt
    assert result.key is None
    assert result.session_meta.workspace_kind == "temporary"
    assert names(shared_memory_root) == {"user"}


async def test_i5_memory_off_injects_nothing_creates_nothing_keeps_files(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    workspace: Path,
    tmp_path: Path,
) -> None:
    key = (await begin(shared_service, new_agent, workspace)).key
    assert key is not None
    seed_scope(shared_memory_root / key, "coding-agent-workspace")
    before = tree(shared_memory_root)
    shared_service.set_memory_enabled(new_agent, False)
    fresh = tmp_path / "src" / "new-project"
    fresh.mkdir()
    for place in (workspace, fresh):
        result = await begin(shared_service, new_agent, place)
        assert "## User memory" not in result.system_prompt
        assert USER_LINE not in result.system_prompt
        assert "- Workspace Memory Key: (none — memory is off)\n" in result.system_prompt
        assert result.key is None
        assert result.session_meta.status == "off"
        assert result.session_meta.error is None
    after = tree(shared_memory_root)
    assert after == before  # nothing created (no scope for new-project), nothing removed


async def test_i5_a_template_without_memory_placeholder_injects_nothing(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, workspace: Path
) -> None:
    template = "You are Coder.\n\n# Environment\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}\n"
    result = await begin(shared_service, new_agent, workspace, template=template)
    key = workspace_memory_key(workspace)
    assert result.system_prompt == template.replace("{{WORKSPACE_MEMORY_KEY}}", key)
    assert result.session_meta.status == "no-placeholder"
    assert result.session_meta.injected is False


async def test_i5_an_agent_template_without_memory_placeholder_injects_nothing(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, workspace: Path
) -> None:
    path = f"/api/projects/acme/agents/{new_agent}/config"
    status, _, _ = shared_service.request(
        "PATCH", path, {"template": "You are Coder. No memory here."}
    )
    assert status == 200
    result = await begin(shared_service, new_agent, workspace)
    assert "## User memory" not in result.system_prompt
    assert result.session_meta.status == "not-injected"
    assert result.session_meta.injected is False


async def test_i4_an_over_cap_index_is_truncated_with_a_note_and_a_manifest(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    platform = tmp_path / "src" / "data-platform"
    platform.mkdir(parents=True)
    key = workspace_memory_key(platform)
    seed_scope(shared_memory_root / key, "large-index")
    result = await begin(shared_service, new_agent, platform)
    prompt = result.system_prompt
    assert "(Truncated: the " in prompt
    assert "Open the full MEMORY.md in this scope's Directory yourself" in prompt
    meta = result.session_meta
    [manifest] = [m for m in meta.manifests if m.scope == key]
    assert manifest.lines_total == 260
    assert manifest.cap_fired in {"lines", "chars"}
    assert manifest.lines_dropped > 0
    assert manifest.lines_kept + manifest.lines_dropped == manifest.lines_total
    assert manifest.headroom_lines == 0 or manifest.headroom_chars == 0
    assert key in meta.truncated
    assert "- [review index 0](note-000-review-index.md)" in prompt
    assert (
        len(text(shared_memory_root / key / "MEMORY.md").splitlines()) == 260
    )  # the file on disk is never changed


async def test_p2_service_stopped_the_session_still_starts_and_says_why(
    real_service: RealService, memory_root: Path, workspace: Path
) -> None:
    real_service.stop()
    result = await begin(real_service, "coder", workspace)
    assert result.system_prompt.startswith("You are Coder.\n")
    assert "## User memory" not in result.system_prompt
    assert "- Workspace Memory Key: (none — memory is off)\n" in result.system_prompt
    meta = result.session_meta
    assert meta.status == "failed-open"
    assert meta.error_kind == "unreachable"
    assert meta.error is not None and real_service.url in meta.error
    assert meta.system_prompt == result.system_prompt


async def test_a10_a_wrong_token_fails_open_with_the_services_detail(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, workspace: Path
) -> None:
    result = await start(
        shared_service.url,
        TEMPLATE,
        token="not-the-token-at-all",
        agent=new_agent,
        workspace=str(workspace),
    )
    meta = result.session_meta
    assert meta.status == "failed-open"
    assert meta.error_kind == "rejected"
    assert meta.error is not None and "401" in meta.error
    assert "(the service refused the token: it is wrong, or was revoked;" in meta.error
    assert names(shared_memory_root) == {"user"}


async def test_p2_an_agent_the_service_does_not_hold_fails_open_saying_what_to_do(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, workspace: Path
) -> None:
    result = await start(
        shared_service.url,
        TEMPLATE,
        project="acme",
        agent="no-such-agent",
        token=shared_service.token,
        workspace=str(workspace),
    )
    meta = result.session_meta
    assert meta.status == "failed-open"
    assert meta.error is not None
    assert "answered 404: no agent 'no-such-agent' in project 'acme'" in meta.error
    assert "`memory-api agent create --data-dir DIR --project P --id A --name NAME`" in meta.error
    # started by hand (no harness's hooks): the install of each harness, every flag it needs
    install = "`harness-memory install HARNESS --project P --agent A --url URL --memory-root ROOT`"
    assert f"run {install} with the right ones" in meta.error
    assert "HARNESS: claude-code, codex or gemini" in meta.error
