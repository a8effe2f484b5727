"""W-4: Edit and Add open a bridging modal — the target, the requirement / content field, a live
prompt preview, Copy, and Open a new chat through a draft (A-12) pinning the Workspace."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import SharedServices
from tests.browser.pages import (
    PageFactory,
    Shot,
    open_memory_tab,
    row,
    user_group,
    workspace_group,
)
from tests.browser.service import Service

pytestmark = pytest.mark.browser


def test_w4_edit_and_add_preview_the_prompt_and_open_a_chat_through_a_draft(
    page: Page, service: Service, shot: Shot
) -> None:
    """One service and one look at the Memory tab (each modal only makes a draft, A-12):

    1. Edit previews a short prompt naming the file and the ask, copies it, and opens a new
       chat through a draft pinning the Workspace;
    2. Add requires content, words the prompt by what was pasted (an address or a text), and
       pins no Workspace for the user scope.
    """
    scope = service.scope("workspace", "shop-api")
    key, workspace = scope["key"], scope["workspacePath"]
    open_memory_tab(page)
    row(workspace_group(page, "shop-api"), "deploy-freeze.md").get_by_role(
        "button", name="Edit"
    ).click()
    modal = page.locator("dialog.bridge")
    expect(modal).to_be_visible()
    expect(modal.locator("#bridge-target")).to_have_text(f"…/memory/{key}/deploy-freeze.md")
    field = modal.get_by_label("What should change? (optional)")
    expect(field).to_be_focused()
    preview = modal.locator("#bridge-preview")
    expect(preview).to_contain_text(f"…/memory/{key}/deploy-freeze.md")

    field.fill("Staging deploys are frozen on Fridays too.")
    expect(preview).to_contain_text("Staging deploys are frozen on Fridays too.")
    expect(preview).to_contain_text(workspace)
    prompt = preview.inner_text()
    shot(page, "w4-edit-modal")

    modal.get_by_role("button", name="Copy").click()
    expect(modal.locator(".inline-status")).to_have_text("Prompt copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == prompt

    with page.context.expect_page() as opened:
        modal.get_by_role("button", name="Open a new chat").click()
    chat = opened.value
    chat.wait_for_url("**/chat/**")
    url = urlsplit(chat.url)
    draft_id = url.path.rsplit("/", 1)[-1]
    assert parse_qs(url.query) == {"project": ["demo"], "agent": ["demo"]}
    draft = service.get(service.agent_path() + f"/drafts/{draft_id}")
    assert draft["prompt"] == prompt
    assert draft["workspace"] == workspace
    expect(modal.locator("#bridge-chat-link")).to_be_visible()

    page.keyboard.press("Escape")
    expect(modal).to_have_count(0)

    # 2. Add, to the user scope.
    user_group(page).get_by_role("button", name="Add a memory").click()
    modal = page.locator("dialog.bridge")
    expect(modal.locator("#bridge-target")).to_have_text("User memory")
    field = modal.get_by_label("Content or source (required)")
    modal.get_by_role("button", name="Copy").click()
    assert field.evaluate("el => el.validity.valid") is False
    expect(modal.locator(".inline-status")).to_have_text("")

    field.fill("https://example.com/team-handbook")
    preview = modal.locator("#bridge-preview")
    expect(preview).to_have_text(
        "Read https://example.com/team-handbook and save what is worth keeping into "
        "your user memory."
    )
    field.fill("I prefer tabs over spaces in Go files.")
    expect(preview).to_have_text(
        "Save this into your user memory:\n\nI prefer tabs over spaces in Go files."
    )
    shot(page, "w4-add-modal")

    with page.context.expect_page() as opened:
        modal.get_by_role("button", name="Open a new chat").click()
    chat = opened.value
    chat.wait_for_url("**/chat/**")
    draft_id = urlsplit(chat.url).path.rsplit("/", 1)[-1]
    draft = service.get(service.agent_path() + f"/drafts/{draft_id}")
    assert draft["workspace"] is None
    assert draft["prompt"].endswith("I prefer tabs over spaces in Go files.")


def test_w4_open_a_new_chat_is_hidden_without_a_chat_url(
    shared_services: SharedServices, open_page: PageFactory
) -> None:
    # The Edit modal is only opened: nothing is saved, so the worker's service without a chat
    # address serves (the W-6 check of what the modal says instead reads it too).
    service = shared_services.get(env={"MEMORY_API_CHAT_URL": ""})
    assert service.get("/api/me")["chatUrlTemplate"] is None
    page = open_page(service)
    open_memory_tab(page)
    row(user_group(page), "prefers-pnpm.md").get_by_role("button", name="Edit").click()
    modal = page.locator("dialog.bridge")
    expect(modal.get_by_role("button", name="Copy")).to_be_visible()
    expect(modal.get_by_role("button", name="Open a new chat")).to_have_count(0)


def test_w5_bridge_modal_keeps_focus_inside_and_returns_it_on_escape(
    open_page: PageFactory, read_only_service: Service
) -> None:
    page = open_page(read_only_service)  # the modal is only opened and closed: nothing is saved
    open_memory_tab(page)
    edit = row(user_group(page), "prefers-pnpm.md").get_by_role("button", name="Edit")
    edit.focus()
    page.keyboard.press("Enter")
    modal = page.locator("dialog.bridge")
    expect(modal).to_be_visible()
    inside = "() => document.querySelector('dialog.bridge').contains(document.activeElement)"
    for _ in range(12):
        page.keyboard.press("Tab")
        assert page.evaluate(inside)
    for _ in range(12):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(inside)
    page.keyboard.press("Escape")
    expect(modal).to_have_count(0)
    expect(edit).to_be_focused()
