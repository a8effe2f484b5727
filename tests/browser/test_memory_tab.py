"""W-2: the Memory tab — the switch, the placeholder hint, the scope groups and their collapse.

The tests that only look at the demo (groups, collapse, a phone's layout) share one service
(``read_only_service``); the others change the agent or its scopes and start their own."""

from __future__ import annotations

import json

import pytest
from memory_core import layout
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.pages import (
    PageFactory,
    Shot,
    group_toggle,
    open_memory_tab,
    user_group,
    workspace_group,
)
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser


def _switch_saves_on_change_and_survives_a_reload(page: Page, service: Service, shot: Shot) -> None:
    """W-2: the switch saves as it changes, says what off means, and a reload shows it off."""
    switch = page.get_by_role("switch", name="Memory")
    expect(switch).to_be_checked()

    switch.click()
    expect(page.locator("#memory-enabled-status")).to_have_text(
        "Memory is off. Every file is kept."
    )
    assert service.config()["memory"]["enabled"] is False
    shot(page, "w2-switch-off")

    page.reload()
    expect(user_group(page).locator(".row").first).to_be_visible()
    expect(page.get_by_role("switch", name="Memory")).not_to_be_checked()
    # Off keeps every file and the tab stays usable.
    expect(user_group(page).locator(".row")).to_have_count(4)


def _switch_failure_reverts_and_shows_the_problem(page: Page, service: Service) -> None:
    """W-2: a save the service refuses turns the switch back and says why."""
    # Someone else changes the config: the page's ETag is now stale.
    service.patch_config({"name": "Renamed elsewhere"})
    switch = page.get_by_role("switch", name="Memory")
    switch.click()
    expect(page.locator("#memory-enabled-status")).to_contain_text("changed elsewhere")
    expect(switch).to_be_checked()
    assert service.config()["memory"]["enabled"] is True


def test_w2_switch_reverts_on_a_failure_and_saves_on_change_surviving_a_reload(
    page: Page, service: Service, shot: Shot
) -> None:
    """One service for both of the switch's outcomes (each checked by a helper): refused (the
    page's ETag stale), then, after a reload reads the config again, saved."""
    open_memory_tab(page)
    _switch_failure_reverts_and_shows_the_problem(page, service)
    page.reload()
    expect(user_group(page).locator(".row").first).to_be_visible()
    _switch_saves_on_change_and_survives_a_reload(page, service, shot)


def _remove_the_placeholder(service: Service) -> None:
    """Save the demo's template without ``{{MEMORY}}``, as another client would."""
    template = service.config()["template"].replace("{{MEMORY}}\n", "").replace("{{MEMORY}}", "")
    service.patch_config({"template": template})
    assert service.overview()["templateHasMemory"] is False


def _hint_inserts_the_placeholder_in_one_click(page: Page, service: Service, shot: Shot) -> None:
    """W-2: the Memory tab of a template without the placeholder shows the hint bar; its one
    click inserts it, saved, and the Prompt tab shows the new template without a reload."""
    hint = page.locator("#memory-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("{{MEMORY}}")
    shot(page, "w2-hint-bar")

    hint.get_by_role("button", name="Insert placeholder").click()
    # The button gives way to a note that takes the focus (W-6), never the page.
    expect(hint.get_by_role("button", name="Insert placeholder")).to_have_count(0)
    expect(hint.locator("#hint-done")).to_be_focused()
    expect(hint).to_contain_text("Inserted")
    saved = service.config()["template"]
    assert saved.count("{{MEMORY}}") == 1
    assert service.overview()["templateHasMemory"] is True
    # The Prompt tab shows the new template without a reload.
    page.get_by_role("link", name="Prompt").click()
    expect(page.locator("#template-editor-text")).to_have_value(saved)


def test_w2_groups_user_first_then_workspaces_with_their_paths(
    open_page: PageFactory, read_only_service: Service, shot: Shot
) -> None:
    service = read_only_service
    page = open_page(service)
    overview = service.overview()
    open_memory_tab(page)
    groups = page.locator(".group")
    expect(groups).to_have_count(len(overview["scopes"]))
    expect(groups.first).to_have_attribute("data-kind", "user")
    keys = [scope["key"] for scope in overview["scopes"]]
    assert groups.evaluate_all("els => els.map(e => e.dataset.scope)") == keys
    for scope in overview["scopes"][1:]:
        group = workspace_group(page, scope["title"])
        expect(group.locator(".group-title .path")).to_have_text(scope["workspacePath"])
        expect(group.locator(".count")).to_contain_text(str(scope["fileCount"]))
    # Lint counts of the messy Workspace are shown on its header.
    shop = workspace_group(page, "shop-api")
    expect(shop.locator('.lint[data-code="dangling-link"]')).to_have_text("1 dangling link")
    expect(page.locator("#skipped-entries")).to_have_count(0)  # every entry is a scope
    shot(page, "w2-memory-tab")


def test_w2_collapse_is_a_button_and_is_remembered_per_user_project_agent(
    open_page: PageFactory, read_only_service: Service, shot: Shot
) -> None:
    service = read_only_service
    page = open_page(service)
    open_memory_tab(page)
    shop = workspace_group(page, "shop-api")
    toggle = group_toggle(shop)
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(shop.locator(".row").first).to_be_visible()

    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(shop.locator(".group-body")).to_be_hidden()
    shot(page, "w2-group-collapsed")

    page.reload()
    expect(user_group(page).locator(".row").first).to_be_visible()
    shop = workspace_group(page, "shop-api")
    expect(group_toggle(shop)).to_have_attribute("aria-expanded", "false")
    expect(shop.locator(".group-body")).to_be_hidden()
    expect(group_toggle(user_group(page))).to_have_attribute("aria-expanded", "true")

    stored = page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('agent-memory.collapsed'))"
    )
    assert stored == ['agent-memory.collapsed:["local","demo","demo"]']
    key = service.scope_key("workspace", "shop-api")
    assert json.loads(page.evaluate(f"() => localStorage.getItem('{stored[0]}')")) == [key]

    # The keyboard works too: Enter on the focused header expands it again.
    group_toggle(shop).focus()
    page.keyboard.press("Enter")
    expect(group_toggle(shop)).to_have_attribute("aria-expanded", "true")
    expect(shop.locator(".row").first).to_be_visible()


def _no_horizontal_scroll(phone: Page) -> None:
    """W-2: the Memory tab fits a 390 px wide phone: nothing scrolls sideways."""
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390


def _first_memory_without_scrolling(phone: Page) -> None:
    """W-5: the first row started 680 px down a 390×844 screen, under a phone browser's own
    bars; now it lies whole in the top two thirds, with its group's count beside its
    activity."""
    first = user_group(phone).locator(".row").first
    box = first.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 844 * 0.8, f"the first memory ends {box} down"
    expect(user_group(phone).locator(".group-meta .count-inline")).to_have_text("4 memories")
    expect(user_group(phone).locator(".group-head .count")).to_be_hidden()


def test_w2_w5_a_phone_has_no_horizontal_scroll_and_shows_the_first_memory_without_scrolling(
    open_page: PageFactory, read_only_service: Service, shot: Shot
) -> None:
    """One look at the Memory tab on a phone, two checks of its layout (each a helper)."""
    phone = open_page(read_only_service, PHONE)
    open_memory_tab(phone)
    _no_horizontal_scroll(phone)
    shot(phone, "w5-phone-memory-tab")
    _first_memory_without_scrolling(phone)


def _add_orphaned_workspace(service: Service) -> str:
    """A Workspace scope whose folder is gone, with one memory; returns its path."""
    gone = "/nonexistent/agent-memory-test/old-app"
    scope = service.add_workspace_scope(gone)
    write_topic(
        scope,
        "kept-note.md",
        name="kept-note",
        description="still here",
        updated_at="2026-10-10",
        body="Body.\n",
    )
    return gone


def _orphaned_workspace_is_reported_and_still_listed(page: Page, gone: str) -> None:
    """W-2: the orphaned Workspace's group shows its path, says Orphaned, lists its memory."""
    group = workspace_group(page, "old-app")
    expect(group.locator(".group-title .path")).to_have_text(gone)
    expect(group.locator(".group-meta")).to_contain_text("Orphaned")
    expect(group.locator(".row")).to_have_count(1)


def _add_workspace_not_visible(service: Service) -> None:
    """Case orphaned-while-in-use: the Session started where the service cannot see (another
    container), so the scope holds the not-visible flag."""
    scope = service.add_workspace_scope("/nonexistent/agent-memory-test/in-a-container")
    (scope / layout.NOT_VISIBLE_FILE).write_bytes(b"")


def _not_visible_workspace_is_not_called_orphaned(page: Page) -> None:
    """K-6a: the page must not offer a Workspace the service cannot see as gone."""
    meta = workspace_group(page, "in-a-container").locator(".group-meta")
    expect(meta).to_contain_text("Not visible from the service")
    expect(meta).not_to_contain_text("Orphaned")


def _save_a_memory_meanwhile(service: Service) -> None:
    """An agent saves ``likes-tea.md`` in the user scope while the tab is shown."""
    write_topic(
        service.scope_dir("user"),
        "likes-tea.md",
        name="likes-tea",
        description="prefers tea",
        updated_at="2026-11-28",
        body="Tea.\n",
    )


def _refresh_showed_the_memory_saved_meanwhile(page: Page) -> None:
    """W-2: after Refresh the user group holds the memory saved meanwhile, newest first."""
    group = user_group(page)
    expect(group.locator(".row")).to_have_count(5)
    expect(group.locator(".count")).to_have_text("5 memories")
    expect(group.locator(".row").first).to_have_attribute("data-file", "likes-tea.md")


def test_w2_k6a_a3_what_the_tab_names_a_refresh_and_the_placeholder_hint_on_one_service(
    page: Page, service: Service, shot: Shot
) -> None:
    """What the service finds in the memory folder but cannot use as it is, one look at the tab,
    which also checks (each by a helper; until round 60 each had a service) that a Refresh
    shows a memory an agent saved meanwhile (the Refresh that shows the 22 entries more), and,
    last (it leaves for the Prompt tab), the hint of a template without ``{{MEMORY}}`` (W-2).

    K-6a: two Workspaces whose folders the service cannot find, one gone (orphaned) and one
    whose Session ran where the service cannot see, each group checked by a helper.

    A-3: the agent card said "3 entries not read", but the Memory tab, where a user looks for
    the notes they copied in, named none. It names each above the groups with why, its name as
    text (markup stays text, a control character escaped as the service names it: ``\\x1b``, a
    hidden one as its mark, I-9), and counts past the 20."""
    gone = _add_orphaned_workspace(service)
    _add_workspace_not_visible(service)
    root = layout.memory_root(service.data_dir, "demo")
    (root / "notes").mkdir()
    (root / '<img src="x" onerror="document.title=1">').write_text("x\n", encoding="utf-8")
    (root / "\x1b[31mred").write_text("x\n", encoding="utf-8")
    _remove_the_placeholder(service)
    open_memory_tab(page)
    expect(user_group(page).locator(".row")).to_have_count(4)
    _orphaned_workspace_is_reported_and_still_listed(page, gone)
    _not_visible_workspace_is_not_called_orphaned(page)

    notice = page.get_by_role("note").filter(has_text="of the memory folder not read")
    expect(notice).to_contain_text("3 entries of the memory folder not read")
    expect(notice.locator("li .entry-name")).to_have_text(
        ['<img src="x" onerror="document.title=1">', "\\x1b[31mred", "notes"]  # as shown, by name
    )
    expect(notice.locator("li").nth(2)).to_contain_text(
        "notes: a folder whose name is no scope key ('user' or a Workspace key): never read"
    )
    expect(notice.locator("img")).to_have_count(0)
    expect(notice.locator(".skipped-more")).to_have_count(0)
    shot(page, "a3-memory-tab-entries-not-read")

    for number in range(22):
        (root / f"stray-{number:02}.txt").write_text("x\n", encoding="utf-8")
    _save_a_memory_meanwhile(service)
    page.get_by_role("button", name="Refresh", exact=True).click()
    _refresh_showed_the_memory_saved_meanwhile(page)
    expect(notice).to_contain_text("25 entries of the memory folder not read")
    expect(notice.locator("li")).to_have_count(20)
    expect(notice.locator(".skipped-more")).to_have_text("…and 5 more.")

    scopes = {scope["key"] for scope in service.overview()["scopes"]}
    for entry in root.iterdir():
        if entry.name not in scopes and not entry.name.startswith("."):
            entry.rmdir() if entry.is_dir() else entry.unlink()
    page.get_by_role("button", name="Refresh", exact=True).click()
    expect(page.locator("#skipped-entries")).to_have_count(0)
    _hint_inserts_the_placeholder_in_one_click(page, service, shot)
