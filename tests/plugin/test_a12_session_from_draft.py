"""A-12 in the plugin: a Session starts from a draft of the chat bridge, and fails open without it.

The draft's prompt is the Session's first user message, returned verbatim; a Workspace the draft
pins (W-4) is the Session's Workspace; a draft that cannot be fetched never stops the Session.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from aiohttp.test_utils import unused_port
from harness_memory import (
    BadServiceAnswerError,
    MemoryClient,
    ServiceRejectedError,
    ServiceUnreachableError,
)
from memory_core.errors import InvalidId

from tests.plugin.helpers import HARNESS_WORKSPACE, start
from tests.plugin.scripted_service import USER_INDEX_LINE, ScriptedService

TEMPLATE = (
    "You are Coder.\n\n{{MEMORY}}\n"
    "# Environment\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}\n"
)
PINNED_WORKSPACE = "/home/ada/src/shop-api"
PROMPT = (
    "Update memory `Deploy notes.md` in Workspace {{WORKSPACE_MEMORY_KEY}}:\n"
    "  {{MEMORY}} stays literal — «über» 数据库 \\n {{AGENT_ID}}\r\ntrailing  "
)
UNKNOWN_ID = "0123456789abcdef0123456789abcdef"


async def test_a12_the_drafts_prompt_comes_back_verbatim_as_the_first_user_message(
    service: ScriptedService,
) -> None:
    draft = service.add_draft(PROMPT)
    result = await start(service.url, TEMPLATE, session_id="s-1", draft_id=draft.id)
    assert result.initial_prompt == PROMPT  # no placeholder inside it was filled
    assert PROMPT not in result.system_prompt and "Deploy notes" not in result.system_prompt
    assert USER_INDEX_LINE in result.system_prompt
    assert result.key == "my-app-1c7ddc51"
    meta = result.session_meta
    assert meta.status == "injected" and meta.error is None
    assert meta.draft_id == draft.id
    assert meta.initial_prompt == PROMPT
    assert meta.draft_error is None and meta.draft_error_kind is None
    assert meta.workspace == HARNESS_WORKSPACE and meta.workspace_source == "harness"
    assert service.draft_calls == [f"acme/coder/{draft.id}"]
    assert service.workspaces == [HARNESS_WORKSPACE]


async def test_a12_w4_the_workspace_the_draft_pins_wins_over_the_harnesss(
    service: ScriptedService,
) -> None:
    draft = service.add_draft("Add a memory about the release checklist", PINNED_WORKSPACE)
    result = await start(service.url, TEMPLATE, session_id="s-1", draft_id=draft.id)
    assert service.workspaces == [PINNED_WORKSPACE]
    assert result.session_meta.workspace == PINNED_WORKSPACE
    assert result.session_meta.workspace_source == "draft"
    assert result.initial_prompt == "Add a memory about the release checklist"


@pytest.mark.parametrize("case", ["expired", "unknown", "another agent's"])
async def test_a12_p2_a_draft_that_is_gone_fails_open_into_the_harnesss_workspace(
    service: ScriptedService, case: str
) -> None:
    if case == "expired":
        draft_id = service.add_draft(PROMPT, PINNED_WORKSPACE, expires_in=timedelta(seconds=-1)).id
    elif case == "unknown":
        draft_id = UNKNOWN_ID
    else:
        draft_id = service.add_draft(PROMPT, PINNED_WORKSPACE, agent="helper").id
    result = await start(service.url, TEMPLATE, session_id="s-1", draft_id=draft_id)
    assert result.initial_prompt is None
    meta = result.session_meta
    assert meta.draft_id == draft_id
    assert meta.draft_error_kind == "not-found"
    assert meta.draft_error is not None and "expired or unknown" in meta.draft_error
    assert draft_id in meta.draft_error
    assert meta.initial_prompt is None
    # memory is unaffected: the Session starts in the harness's Workspace with its memory
    assert meta.status == "injected" and meta.error is None
    assert USER_INDEX_LINE in result.system_prompt
    assert meta.workspace == HARNESS_WORKSPACE and meta.workspace_source == "harness"
    assert service.workspaces == [HARNESS_WORKSPACE]


async def test_a12_p2_service_down_the_session_starts_without_draft_and_memory() -> None:
    url = f"http://127.0.0.1:{unused_port()}"
    result = await start(url, TEMPLATE, token=None, draft_id=UNKNOWN_ID)
    assert result.initial_prompt is None
    assert result.system_prompt.startswith("You are Coder.\n")
    assert "- Workspace Memory Key: (none — memory is off)\n" in result.system_prompt
    meta = result.session_meta
    assert meta.status == "failed-open" and meta.error_kind == "unreachable"
    assert meta.draft_error_kind == "unreachable"
    assert meta.draft_error is not None and url in meta.draft_error
    assert meta.draft_id == UNKNOWN_ID and meta.workspace == HARNESS_WORKSPACE


async def test_a12_p2_a_slow_service_is_waited_for_once_not_twice(
    service: ScriptedService,
) -> None:
    service.behaviour = "slow"
    draft = service.add_draft(PROMPT)
    result = await start(service.url, TEMPLATE, session_id="s-1", draft_id=draft.id, timeout_s=0.2)
    meta = result.session_meta
    assert meta.draft_error_kind == "timeout" and meta.error_kind == "timeout"
    assert meta.status == "failed-open"
    assert result.initial_prompt is None
    assert service.calls == []  # no Session-start request after the draft request timed out


@pytest.mark.parametrize("draft_id", ["../../etc/passwd", UNKNOWN_ID.upper(), UNKNOWN_ID[:-1], ""])
async def test_a12_a_malformed_draft_id_is_refused_before_any_request(
    service: ScriptedService, draft_id: str
) -> None:
    result = await start(service.url, TEMPLATE, session_id="s-1", draft_id=draft_id)
    meta = result.session_meta
    assert meta.draft_error_kind == "invalid-id"
    assert meta.draft_error is not None and "32 lowercase hex digits" in meta.draft_error
    assert service.draft_calls == []
    assert meta.status == "injected"
    assert result.initial_prompt is None


async def test_a12_without_a_draft_the_record_says_none_was_asked_for(
    service: ScriptedService,
) -> None:
    result = await start(service.url, TEMPLATE, session_id="s-1")
    assert result.initial_prompt is None
    meta = result.session_meta
    assert meta.draft_id is None and meta.draft_error is None and meta.initial_prompt is None
    assert meta.workspace_source == "harness"
    assert service.draft_calls == []


async def test_client_get_draft_returns_the_draft_with_the_bearer_token(
    service: ScriptedService,
) -> None:
    stored = service.add_draft(PROMPT, PINNED_WORKSPACE)
    client = MemoryClient(service.url, token="secret-token")
    draft = await asyncio.to_thread(client.get_draft, "acme", "coder", stored.id)
    assert draft == stored


async def test_client_get_draft_raises_the_same_named_errors(service: ScriptedService) -> None:
    client = MemoryClient(service.url)
    with pytest.raises(ServiceRejectedError) as caught:
        await asyncio.to_thread(client.get_draft, "acme", "coder", UNKNOWN_ID)
    assert caught.value.status == 404
    assert "it may have expired" in caught.value.detail
    for bad in ("not-a-draft", UNKNOWN_ID + "0", "a/b"):
        with pytest.raises(InvalidId, match="draft"):
            client.get_draft("acme", "coder", bad)
    with pytest.raises(InvalidId, match="agent"):
        client.get_draft("acme", "../etc", UNKNOWN_ID)
    assert service.draft_calls == [f"acme/coder/{UNKNOWN_ID}"]
    down = MemoryClient(f"http://127.0.0.1:{unused_port()}")
    with pytest.raises(ServiceUnreachableError):
        await asyncio.to_thread(down.get_draft, "acme", "coder", UNKNOWN_ID)


async def test_client_get_draft_refuses_an_answer_that_is_not_the_draft_asked_for(
    service: ScriptedService,
) -> None:
    other = service.add_draft(PROMPT)
    service.drafts[UNKNOWN_ID] = other  # a confused service answering with another draft
    client = MemoryClient(service.url)
    with pytest.raises(BadServiceAnswerError, match="when asked for"):
        await asyncio.to_thread(client.get_draft, "acme", "coder", UNKNOWN_ID)
