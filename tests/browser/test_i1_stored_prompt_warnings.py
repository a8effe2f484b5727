"""I-1 on the page: a memory prompt stored past the page (``agent.json`` edited by hand, or
saved before the rule) that does not hold its index placeholder exactly once, as written, is
named where the prompts are edited and at the head of the agent's page, in plain words, until
a save puts it right. The config answer's ``memory.promptWarnings`` says so, and the
Session-start hook tells the user; the page said nothing (case prompt-warnings-not-shown)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import axe_violations
from tests.browser.pages import MEMORY_TAB, PROMPT_TAB, Shot, confirm_dialog
from tests.browser.service import Service

pytestmark = pytest.mark.browser

MISSPELT = "# Memory\n\nSave what you learn.\n\n{{MEMROY}}\n"
"""A memory prompt whose index placeholder is misspelt: the user index lands after it."""
EXTRA = "## Workspace memory\n\n{{MEMORY_INDEX}}\n{{MEMROY}}\n"
"""A Workspace prompt with its placeholder and a misspelt one, which reaches the model as is."""


def store_by_hand(service: Service, **memory: str) -> None:
    """Edit the demo agent's ``agent.json`` as an operator would, past the API."""
    path = service.data_dir / "agents" / "demo" / "agent.json"
    stored = json.loads(path.read_bytes())
    stored["memory"].update(memory)
    path.write_text(json.dumps(stored), encoding="utf-8")


def test_i1_misspelt_stored_prompts_are_named_on_the_agent_page_and_in_their_editors(
    page: Page, service: Service, shot: Shot
) -> None:
    """On one service: the memory prompt stored misspelt is named at the head and in its
    editor until a save from the page puts it right; then both prompts stored off the rule
    are each named, and Restore default on one leaves the other named."""
    store_by_hand(service, prompt=MISSPELT)
    assert service.config()["memory"]["promptWarnings"]  # what the page is to show

    page.goto(PROMPT_TAB)
    notice = page.locator("#prompt-warnings")
    expect(notice).to_contain_text(
        "The memory prompt needs fixing: a Session start does not use it as written."
    )
    expect(notice.locator("li")).to_have_count(1)
    expect(notice.locator('li[data-field="prompt"]')).to_contain_text(
        "Memory prompt. It must hold {{MEMORY_USER_INDEX}} exactly once, as written: it holds "
        "none; it holds '{{MEMROY}}', which is no placeholder; a Session start adds the user "
        "index after the prompt"
    )
    shot(page, "i1-stored-prompt-warning-head")
    assert axe_violations(page, include="#prompt-warnings") == []  # W-6

    notice.get_by_role("button", name="Edit the memory prompt").click()
    expect(page).to_have_url(service.url(MEMORY_TAB))
    editor = page.locator("#memory-prompt")
    expect(editor.locator("textarea")).to_be_focused()
    stored = editor.locator(".stored-warning")
    expect(stored).to_contain_text(
        "The saved text needs fixing. It must hold {{MEMORY_USER_INDEX}}"
    )
    expect(stored).to_contain_text("'{{MEMROY}}', which is no placeholder")
    expect(stored).to_contain_text("agent.json edited by hand")
    expect(page.locator("#workspace-prompt .stored-warning")).to_be_hidden()
    stored.scroll_into_view_if_needed()
    shot(page, "i1-stored-prompt-warning-editor")
    assert axe_violations(page, include="#memory-prompt") == []

    # Put right and saved from the page: both notes go.
    editor.locator("textarea").fill(MISSPELT.replace("{{MEMROY}}", "{{MEMORY_USER_INDEX}}"))
    editor.get_by_role("button", name="Save").click()
    confirm_dialog(page).get_by_role("button", name="Save").click()
    expect(editor.locator(".inline-status")).to_have_text("Saved")
    expect(stored).to_be_hidden()
    expect(page.locator("#prompt-warnings")).to_have_count(0)
    assert "promptWarnings" not in service.config()["memory"]

    # Both stored off the rule: each named; restoring one leaves the other.
    store_by_hand(service, prompt=MISSPELT, workspacePrompt=EXTRA)

    page.goto("about:blank")  # the agent's page read anew
    page.goto(MEMORY_TAB)
    notice = page.locator("#prompt-warnings")
    expect(notice).to_contain_text("Two memory prompts need fixing")
    expect(notice.locator("li")).to_have_count(2)
    expect(notice.locator('li[data-field="workspacePrompt"]')).to_contain_text(
        "Workspace memory prompt. It must hold {{MEMORY_INDEX}} exactly once, as written: it "
        "holds '{{MEMROY}}', which is no placeholder; text written as a placeholder reaches the "
        "model as it is."
    )
    workspace = page.locator("#workspace-prompt")
    expect(workspace.locator(".stored-warning")).to_contain_text("'{{MEMROY}}'")
    # The text holds its placeholder, so the editor's own check has nothing to say: only the
    # service's warning tells of the misspelt one.
    expect(workspace.locator(".placeholder-warning")).to_be_hidden()

    notice.get_by_role("button", name="Edit the workspace memory prompt").click()
    expect(workspace.locator("textarea")).to_be_focused()

    workspace.get_by_role("button", name="Restore default").click()
    confirm_dialog(page).get_by_role("button", name="Restore default").click()
    expect(workspace.locator(".stored-warning")).to_be_hidden()
    expect(notice.locator("li")).to_have_count(1)
    expect(notice).to_contain_text("The memory prompt needs fixing")
