"""W-2 and A-2: the prompt editors save only after a confirm, restore defaults, and a stale
ETag (412) tells the user the settings changed elsewhere."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import PROMPT_TAB, PageFactory, Shot, confirm_dialog, open_memory_tab
from tests.browser.service import Service

pytestmark = pytest.mark.browser


def test_a2_stale_etag_shows_changed_elsewhere_and_reload_then_the_template_saves_with_if_match(
    page: Page, service: Service, shot: Shot
) -> None:
    """One service and one look at the prompt tab: a save over a change made elsewhere is
    refused (412) and Reload shows that change; the next save, with the ETag Reload brought,
    goes through."""
    page.goto(PROMPT_TAB)
    text = page.locator("#template-editor-text")
    expect(text).not_to_have_value("")
    text.fill("My edit.\n")
    service.patch_config({"template": "Their edit.\n"})

    page.get_by_role("button", name="Save").click()
    confirm_dialog(page).get_by_role("button", name="Save").click()
    problem = page.locator("#template-editor .alert-error")
    expect(problem).to_contain_text("changed elsewhere")
    shot(page, "a2-changed-elsewhere")
    assert service.config()["template"] == "Their edit.\n", "a stale save overwrote the change"

    problem.get_by_role("button", name="Reload").click()
    expect(text).to_have_value("Their edit.\n")
    expect(problem).to_have_count(0)

    # W-2: saved with If-Match (the reloaded ETag), after the confirm.
    text.fill("You are terse.\n\n{{MEMORY}}\n")
    page.get_by_role("button", name="Save").click()
    confirm_dialog(page).get_by_role("button", name="Save").click()
    expect(page.locator("#template-editor .inline-status")).to_have_text("Saved")
    assert service.config()["template"] == "You are terse.\n\n{{MEMORY}}\n"


def _a_prompt_without_its_placeholder_is_refused(page: Page, service: Service, shot: Shot) -> None:
    """Step 2: each memory prompt saved without its placeholder: the 422's detail, nothing saved."""
    page.reload()
    open_memory_tab(page)
    for editor_id, written, needs in (
        ("#workspace-prompt", "## Workspace memory\n\nNo index here.", "{{MEMORY_INDEX}}"),
        ("#memory-prompt", "# Memory\n{{ MEMORY_USER_INDEX }}\n", "{{MEMORY_USER_INDEX}}"),
    ):
        editor = page.locator(editor_id)
        editor.locator("textarea").fill(written)
        expect(editor.locator(".placeholder-warning")).to_contain_text(needs)
        editor.get_by_role("button", name="Save").click()
        confirm_dialog(page).get_by_role("button", name="Save").click()
        problem = editor.locator(".alert-error")
        expect(problem).to_contain_text(f"must hold {needs} exactly once")
        expect(editor.locator("textarea")).to_have_value(written)
    expect(page.locator("#memory-prompt .alert-error")).to_contain_text(
        "'{{ MEMORY_USER_INDEX }}' instead"
    )
    shot(page, "i1-prompt-without-placeholder-refused")
    memory = service.config()["memory"]
    assert memory["promptIsDefault"] is True
    assert memory["workspacePromptIsDefault"] is True


def test_w2_the_memory_prompt_editors_save_only_after_a_confirm_and_what_they_may_save(
    page: Page, service: Service, shot: Shot
) -> None:
    """The memory tab's editors on one service, each step on the page read anew, every step
    leaving both memory prompts their defaults (saved and restored, or refused):

    1. W-2: the memory prompt saves after the confirm (Cancel saves nothing), and Restore
       default puts the default back;
    2. I-1, case prompt-without-index-placeholder: the service refuses the save (422) and the
       editor shows why, keeping the unsaved text; nothing is saved;
    3. W-2: saving one setting (the Memory switch) keeps unsaved text in the other editors.
    """
    open_memory_tab(page)
    editor = page.locator("#memory-prompt")
    text = editor.locator("textarea")
    expect(editor.locator(".badge")).to_have_text("Default")
    custom = "# Memory\n\nKeep notes short.\n\n## User memory\n\n{{MEMORY_USER_INDEX}}\n"
    text.fill(custom)

    # Cancel first: nothing is saved.
    editor.get_by_role("button", name="Save").click()
    expect(confirm_dialog(page)).to_be_visible()
    shot(page, "w2-prompt-save-confirm")
    confirm_dialog(page).get_by_role("button", name="Cancel").click()
    expect(confirm_dialog(page)).to_have_count(0)
    assert service.config()["memory"]["promptIsDefault"] is True

    editor.get_by_role("button", name="Save").click()
    confirm_dialog(page).get_by_role("button", name="Save").click()
    expect(editor.locator(".inline-status")).to_have_text("Saved")
    expect(editor.locator(".badge")).to_have_text("Customized")
    memory = service.config()["memory"]
    assert memory["prompt"] == custom
    assert memory["promptIsDefault"] is False
    shot(page, "w2-prompt-saved")

    editor.get_by_role("button", name="Restore default").click()
    confirm_dialog(page).get_by_role("button", name="Restore default").click()
    expect(editor.locator(".badge")).to_have_text("Default")
    memory = service.config()["memory"]
    assert memory["promptIsDefault"] is True
    expect(text).to_have_value(memory["prompt"])

    _a_prompt_without_its_placeholder_is_refused(page, service, shot)

    # 3. The Memory switch saved, the memory prompt's draft kept.
    page.reload()
    open_memory_tab(page)
    draft = "# Memory\n\nHalf-written, not saved yet.\n\n{{MEMORY_USER_INDEX}}\n"
    page.locator("#memory-prompt textarea").fill(draft)

    switch = page.get_by_role("switch", name="Memory")
    switch.click()
    expect(page.locator("#memory-enabled-status")).to_have_text(
        "Memory is off. Every file is kept."
    )
    assert service.config()["memory"]["enabled"] is False

    expect(page.locator("#memory-prompt textarea")).to_have_value(draft)
    assert service.config()["memory"]["promptIsDefault"] is True


def test_a1_the_template_editor_says_what_each_placeholder_is_replaced_by(
    open_page: PageFactory, read_only_service: Service
) -> None:
    """A new agent's prompt names {{APP_DATA_DIR}} and {{AGENT_ID}} too: the editor says what
    fills them, as it does for {{MEMORY}} and {{WORKSPACE_MEMORY_KEY}}. (Only read: the
    worker's shared service.)"""
    page = open_page(read_only_service)
    page.goto(PROMPT_TAB)
    help_text = page.locator("#template-editor-help")
    expect(help_text).to_contain_text("{{MEMORY}} is replaced by the memory prompts and indexes")
    expect(help_text).to_contain_text("{{WORKSPACE_MEMORY_KEY}} by the Session's Workspace")
    expect(help_text).to_contain_text(
        "{{APP_DATA_DIR}} and {{AGENT_ID}} are replaced by the data dir and the agent's id at "
        "each Session start."
    )


def test_w2_the_prompt_tab_says_which_harnesses_use_the_template(
    open_page: PageFactory, read_only_service: Service, shot: Shot
) -> None:
    """The template never reaches Claude Code, Codex CLI or Gemini CLI (their hooks add only
    the memory: tests/plugin/test_w2_template_reach.py); the tab says so, and no longer calls
    it "the agent's system prompt" as if every harness used it. (The save is cancelled:
    nothing is written, so the worker's shared service.)"""
    service = read_only_service
    page = open_page(service)
    stored = service.config()
    page.goto(PROMPT_TAB)
    editor = page.locator("#template-editor")
    note = editor.locator("#template-reach")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Used as the system prompt by harnesses that take it from")
    expect(note).to_contain_text("Not by Claude Code, Codex CLI or Gemini CLI.")
    expect(note).to_contain_text("without {{MEMORY}} they get no memory either")
    expect(editor).not_to_contain_text("The agent's system prompt.")
    editor.locator("textarea").fill("You are terse.\n\n{{MEMORY}}\n")
    editor.get_by_role("button", name="Save").click()
    expect(confirm_dialog(page)).to_contain_text("Claude Code, Codex CLI and Gemini CLI keep")
    shot(page, "w2-prompt-tab-template-reach")
    confirm_dialog(page).get_by_role("button", name="Cancel").click()
    expect(confirm_dialog(page)).to_be_hidden()
    assert service.config() == stored, "a cancelled save changed the agent's config"
