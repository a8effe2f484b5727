"""W-6 (with W-3 … W-5): the Memory tab for big agents, the keyboard and the phone.

A viewed memory and every other overlay has an address and Back closes it; focus never drops to
the page after an action; the prompt editors and every group stay a few keystrokes away however
large the scopes; lint findings open from their badge with a one-click bridge to fix them;
credentials are masked in the viewer until revealed.
"""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import PHONE, SharedServices
from tests.browser.pages import (
    MEMORY_TAB,
    PageFactory,
    Shot,
    confirm_dialog,
    open_memory_tab,
    row,
    user_group,
    viewer,
    wait_groups_settled,
    wait_viewer_settled,
    workspace_group,
)
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser

MANY = 300
TAB_BUDGET = 48
"""Tab presses from the tab link to the memory prompt, at most, past the demo's scopes and one of
``MANY`` rows (41 measured with each group's Index, History and Add; 45 since each Workspace
group's header has Forget too, K-5)."""
TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
FOCUSED_IS_BODY = "() => document.activeElement === document.body"


def _seed_big_workspace(service: Service, title: str = "monorepo", count: int = MANY) -> None:
    workspace = service.data_dir / "demo-workspaces" / title
    workspace.mkdir(parents=True)
    scope = service.add_workspace_scope(os.path.realpath(workspace))
    for number in range(count):
        write_topic(
            scope,
            f"fact-{number:04d}.md",
            name=f"fact-{number:04d}",
            description=f"fact number {number}",
            updated_at="2026-11-01",
            body=f"Body {number}.\n",
        )


def _tabs_until(page: Page, selector: str, limit: int) -> int:
    """Press Tab until the element at ``selector`` has the focus; return how many presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => document.activeElement?.matches({selector!r}) ?? false"):
            return presses
    raise AssertionError(f"{selector} not reached in {limit} Tab presses")


def test_w6_prompt_editors_and_every_group_stay_a_few_keystrokes_away(
    page: Page, service: Service, shot: Shot
) -> None:
    _seed_big_workspace(service)
    open_memory_tab(page)
    big = workspace_group(page, "monorepo")
    expect(big.locator("ul.rows")).to_have_attribute("data-total", str(MANY))

    # The jump bar: two Tab presses and Enter from the tab link to the memory prompt.
    page.locator("#tab-memory").focus()
    jump = page.get_by_role("navigation", name="On this tab")
    jump.get_by_role("button", name="Memory prompt", exact=True).evaluate(
        "el => el.dataset.probe = 'jump'"
    )
    assert _tabs_until(page, "[data-probe=jump]", 5) == 2
    page.keyboard.press("Enter")
    expect(page.locator("#memory-prompt-text")).to_be_focused()

    # Tab alone passes a group of 300 rows in one press: the editor and every group are near.
    # (Each group header holds four stops: the toggle, Index, History and Add; a Workspace's
    # a fifth, Forget.)
    page.locator("#tab-memory").focus()
    assert _tabs_until(page, "#memory-prompt-text", TAB_BUDGET) <= TAB_BUDGET
    top = page.evaluate(
        "() => document.querySelector('#memory-prompt').getBoundingClientRect().top + scrollY"
    )
    assert top < 4000, f"the memory prompt starts {top}px down"
    page.locator("#tab-memory").focus()
    last_id = page.locator(".group").last.locator("button.group-toggle").get_attribute("id")
    assert _tabs_until(page, f"#{last_id}", TAB_BUDGET) <= TAB_BUDGET

    # The jump bar reaches the Workspace prompt directly.
    page.get_by_role("navigation", name="On this tab").get_by_role(
        "button", name="Workspace memory prompt"
    ).click()
    expect(page.locator("#workspace-prompt-text")).to_be_focused()

    # Every row stays reachable: arrow keys and End walk the rows, built as they come in view.
    def nth_row(position: int) -> Locator:
        return big.locator(f'.row[aria-posinset="{position}"]')

    nth_row(1).get_by_role("button", name="View").focus()
    page.keyboard.press("ArrowDown")
    expect(nth_row(2).get_by_role("button", name="View")).to_be_focused()
    page.keyboard.press("End")
    expect(nth_row(MANY).get_by_role("button", name="View")).to_be_focused()
    expect(nth_row(MANY)).to_be_in_viewport()
    page.keyboard.press("ArrowRight")
    expect(nth_row(MANY).get_by_role("button", name="Edit")).to_be_focused()
    shot(page, "w6-large-scope-keyboard")


def _switch_keeps_the_focus_so_a_second_space_toggles_again(page: Page, service: Service) -> None:
    """The Memory switch, toggled with Space, keeps the focus: a second Space toggles again, and
    two presses while the first is saving leave the last one's state."""
    switch = page.get_by_role("switch", name="Memory")
    switch.focus()
    page.keyboard.press("Space")
    expect(page.locator("#memory-enabled-status")).to_have_text(
        "Memory is off. Every file is kept."
    )
    expect(switch).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator("#memory-enabled-status")).to_have_text("Memory is on.")
    expect(switch).to_be_focused()
    assert service.config()["memory"]["enabled"] is True

    # Two presses in a row, the second while the first is saving: the last one wins.
    page.keyboard.press("Space")
    page.keyboard.press("Space")
    expect(page.locator("#memory-enabled-status")).to_have_text("Memory is on.")
    expect(switch).to_be_checked()
    expect(switch).to_be_focused()
    assert service.config()["memory"]["enabled"] is True


def _save_and_delete_keep_the_focus_on_the_page_controls(page: Page) -> None:
    """Saving the memory prompt leaves the focus in its editor; deleting a memory moves it to
    the next row's Delete, never to the page."""
    editor = page.locator("#memory-prompt-text")
    editor.fill(editor.input_value() + "\nKeep it short.\n")
    page.locator("#memory-prompt").get_by_role("button", name="Save").click()
    confirm_dialog(page).get_by_role("button", name="Save").click()
    expect(page.locator("#memory-prompt .inline-status")).to_have_text("Saved")
    assert not page.evaluate(FOCUSED_IS_BODY)
    expect(editor).to_be_focused()

    group = user_group(page)
    files = group.locator(".row").evaluate_all("rows => rows.map(r => r.dataset.file)")
    row(group, files[0]).get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()
    expect(group.locator(".row")).to_have_count(len(files) - 1)
    expect(row(group, files[1]).get_by_role("button", name="Delete")).to_be_focused()


def test_w6_the_switch_save_and_delete_keep_the_focus_on_the_page_controls(
    page: Page, service: Service
) -> None:
    """One service and one look at the tab for the three page controls that change something:
    the switch, the prompt's Save and a memory's Delete (each checked by a helper)."""
    open_memory_tab(page)
    _switch_keeps_the_focus_so_a_second_space_toggles_again(page, service)
    _save_and_delete_keep_the_focus_on_the_page_controls(page)


def test_w6_a_viewed_memory_has_an_address_and_back_closes_it_first(
    open_page: PageFactory, read_only_service: Service
) -> None:
    service = read_only_service  # views, addresses and an unsent Edit modal: nothing is written
    page = open_page(service)
    page.goto("/#/")
    expect(page.locator(".agent-card").first).to_be_visible()
    open_memory_tab(page)
    row(user_group(page), "prefers-pnpm.md").get_by_role("button", name="View").click()
    panel = viewer(page)
    expect(panel.locator("h2")).to_have_text("prefers-pnpm")
    expect(page).to_have_url(re.compile(re.escape("/memory/view/user/prefers-pnpm.md") + "$"))
    address = page.url
    assert address.endswith("/memory/view/user/prefers-pnpm.md")

    page.go_back()
    expect(panel).not_to_have_attribute("open", "")
    expect(page).to_have_url(re.compile(re.escape("/agents/demo/memory") + "$"))
    page.go_forward()
    expect(panel.locator("h2")).to_have_text("prefers-pnpm")
    page.keyboard.press("Escape")
    expect(panel).not_to_have_attribute("open", "")
    expect(page).to_have_url(re.compile(re.escape("/agents/demo/memory") + "$"))
    page.go_back()
    expect(page.locator(".agent-card").first).to_be_visible()

    # A link opens it, in a fresh tab; closing it leaves the Memory tab's address.
    other = open_page(service)
    other.goto(address.removeprefix(service.base_url))
    expect(viewer(other).locator("h2")).to_have_text("prefers-pnpm")
    expect(viewer(other).locator(".viewer-body")).to_contain_text("pnpm install")
    viewer(other).get_by_role("button", name="Close").click()
    expect(viewer(other)).not_to_have_attribute("open", "")
    expect(other).to_have_url(re.compile(re.escape("/agents/demo/memory") + "$"))

    # The Edit modal and the index have addresses too.
    other.goto(MEMORY_TAB + "/edit/user/prefers-pnpm.md")
    expect(other.locator("dialog.bridge")).to_contain_text("prefers-pnpm")
    other.goto(MEMORY_TAB + "/index/user")
    expect(viewer(other).locator("h2")).to_contain_text("MEMORY.md")


def _phone_sheet_keeps_its_actions_on_screen_and_crumbs_readable(
    open_page: PageFactory, service: Service, shot: Shot, title: str
) -> None:
    """On a phone: the crumbs show only the agent, in full, beside the product's link; the
    sheet of the memory ``title`` (a long name, a long description) keeps Edit in a chat and
    Delete on screen."""
    phone = open_page(service, PHONE)
    open_memory_tab(phone)
    crumbs = phone.locator("#crumbs > :visible")
    expect(crumbs).to_have_count(1)
    expect(crumbs).to_have_text("demo")
    assert crumbs.evaluate("el => el.scrollWidth <= el.clientWidth")
    expect(phone.get_by_role("link", name="Agent Memory")).to_be_visible()

    row(user_group(phone), f"{title}.md").get_by_role("button", name="View").click()
    sheet = viewer(phone)
    expect(sheet.locator(".viewer-body")).to_contain_text("Body.")
    wait_viewer_settled(phone)
    for name in ("Edit in a chat", "Delete"):
        box = sheet.get_by_role("button", name=name).bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= PHONE["height"], f"{name} is off screen: {box}"
    shot(phone, "w6-phone-sheet-long-title")


def _groups_keep_their_places_after_a_delete(page: Page, service: Service) -> None:
    """Deleting the first memory of the last group (the Memory tab shown) leaves the groups in
    their order once the overview's refresh has landed."""
    wait_groups_settled(page)
    groups = page.locator(".group")
    expect(groups).to_have_count(3)
    before = groups.evaluate_all("els => els.map(e => e.dataset.scope)")
    last = page.locator(".group").last
    expect(last.locator(".row").first).to_be_visible()
    count = service.get(service.agent_path() + "/memory/scopes/" + before[-1] + "/files")
    file = last.locator(".row").first.get_attribute("data-file")
    last.locator(".row").first.get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()
    expect(page.locator(".toast").filter(has_text=f"Deleted {file}")).to_be_visible()
    # The overview refresh (which used to re-sort the groups) has landed: the count says so.
    expect(last.locator(".count")).to_have_text(f"{len(count['files']) - 1} memories")
    assert groups.evaluate_all("els => els.map(e => e.dataset.scope)") == before


def _credentials_are_masked_until_revealed_and_findings_open_from_the_badge(
    page: Page, shot: Shot
) -> None:
    """``deploy-bot.md`` holds a GitHub token: its badge and its group's say so, the badge opens
    its Findings with a "Fix this memory" that never quotes the token, and the viewer masks it
    until Reveal."""
    target = row(user_group(page), "deploy-bot.md")
    badge = target.locator("button.findings-btn")
    expect(badge).to_contain_text("1 likely credential")
    expect(badge).to_have_class("badge findings-btn sev-error")
    secret_header = user_group(page).locator('.lint[data-code="secret"]')
    expect(secret_header).to_have_text("1 likely credential")
    expect(secret_header).to_have_class("badge lint sev-error")

    badge.click()
    expect(page).to_have_url(re.compile(re.escape("/memory/findings/user/deploy-bot.md") + "$"))
    panel = viewer(page)
    finding = panel.locator('.finding[data-code="secret"]')
    expect(finding).to_contain_text("error")
    expect(finding).to_contain_text("Line 8")
    shot(page, "w6-findings-panel")
    panel.get_by_role("button", name="Fix this memory").click()
    modal = page.locator("dialog.bridge")
    requirement = modal.locator("#bridge-field").input_value().split("\n")
    assert requirement[0] == "Fix what the memory lint reports for it:"
    assert requirement[1].startswith("- Line 8: likely credential (github-token)")
    assert requirement[1].endswith("[error, secret]")
    assert requirement[2].endswith("[warning, unindexed]")
    assert TOKEN not in modal.inner_text()
    expect(modal.locator("#bridge-preview")).to_contain_text("Line 8: likely credential")
    expect(page).to_have_url(re.compile(re.escape("/memory/fix/user/deploy-bot.md") + "$"))
    page.keyboard.press("Escape")
    expect(modal).to_have_count(0)

    target.get_by_role("button", name="View").click()
    body = panel.locator(".viewer-body")
    expect(body).to_contain_text("GITHUB_TOKEN=[masked: github-token]")
    assert TOKEN not in body.inner_text()
    expect(panel.locator(".secret-note")).to_contain_text("masked below")
    shot(page, "w6-viewer-masked")
    panel.get_by_role("button", name="Reveal").click()
    expect(body).to_contain_text(TOKEN)
    expect(panel.get_by_role("button", name="Mask again")).to_be_focused()
    panel.get_by_role("button", name="Mask again").click()
    expect(body).to_contain_text("[masked: github-token]")


def test_w6_without_a_chat_the_modal_says_how_to_use_copy(
    shared_services: SharedServices, open_page: PageFactory, shot: Shot
) -> None:
    # The Edit modal is only opened: nothing is saved, so the worker's service without a chat
    # address serves (test_bridge.py's check that it hides "Open a new chat" reads it too).
    service = shared_services.get(env={"MEMORY_API_CHAT_URL": ""})
    page = open_page(service)
    open_memory_tab(page)
    group = workspace_group(page, "shop-api")
    row(group, "deploy-freeze.md").get_by_role("button", name="Edit").click()
    note = page.locator("dialog.bridge #bridge-no-chat")
    expect(note).to_contain_text("Copy it")
    expect(note).to_contain_text(service.scope("workspace", "shop-api")["workspacePath"])
    expect(note).to_contain_text("MEMORY_API_CHAT_URL")
    shot(page, "w6-edit-without-chat")


def _a_file_whose_only_note_is_the_listing_cut_offers_no_fix(page: Page) -> None:
    """The listing cuts ``long-notes.md``'s description past 1,000 characters and says so; the
    file itself is whole and has nothing to fix, so its Findings offer no "Fix this memory" (it
    opened the bridge with an empty list for the agent)."""
    row(user_group(page), "long-notes.md").locator("button.findings-btn").click()

    panel = viewer(page)
    section = panel.locator('.finding-file[data-file="long-notes.md"]')
    expect(section).to_contain_text("listed cut to the first 1000")
    expect(section.get_by_role("button", name="Fix this memory")).to_have_count(0)


def test_w6_findings_the_phone_sheet_and_the_groups_after_a_delete_on_one_service(
    open_page: PageFactory, page: Page, service: Service, shot: Shot
) -> None:
    """One service for three looks, each checked by a helper, none touching what another reads
    (until round 60 each had a service): on one look at the tab, two files' Findings (a memory
    holding a credential, and one whose only note is the listing's cut; then that one's fix
    address), then the groups' places after a delete in the last group; the phone's sheet of
    a memory with a long name in a browser context of its own."""
    user = service.scope_dir("user")
    title = "a-very-long-memory-name-" + "that-keeps-going-" * 12 + "end"
    write_topic(
        user,
        f"{title}.md",
        name=title,
        description="A description that is also long enough to wrap " * 6,
        updated_at="2026-11-29",
        body="Body.\n",
    )
    write_topic(
        user,
        "deploy-bot.md",
        name="deploy-bot",
        description="how the deploy bot logs in",
        updated_at="2026-11-29",
        body=f"Deploy with the bot.\n\nGITHUB_TOKEN={TOKEN}\n",
    )
    write_topic(
        user,
        "long-notes.md",
        name="long-notes",
        description="deploy " + "x" * 5_000,
        updated_at="2026-11-29",
        body="Deploy notes.\n",
    )
    with (user / "MEMORY.md").open("a", encoding="utf-8") as index:
        index.write("- [long-notes](long-notes.md) — the deploy notes, long\n")
    open_memory_tab(page)
    _credentials_are_masked_until_revealed_and_findings_open_from_the_badge(page, shot)
    page.keyboard.press("Escape")
    expect(viewer(page)).not_to_have_attribute("open", "")
    _a_file_whose_only_note_is_the_listing_cut_offers_no_fix(page)

    # Found: its fix address, typed or bookmarked, opened the chat bridge asking the agent to
    # "Fix what the memory lint reports for it:" followed by nothing.
    page.goto(f"{MEMORY_TAB}/fix/user/long-notes.md")
    expect(page.locator(".toast")).to_contain_text("Nothing to fix in long-notes.md")
    expect(page.locator("dialog.bridge[open]")).to_have_count(0)
    expect(page).to_have_url(re.compile(re.escape("/memory") + "$"))
    _groups_keep_their_places_after_a_delete(page, service)
    _phone_sheet_keeps_its_actions_on_screen_and_crumbs_readable(open_page, service, shot, title)
