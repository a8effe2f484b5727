"""S-1: the Memory tab's search box — ranked hits from every scope, matched words marked,
a hit opens in the viewer, a change on disk is found by the next search, keyboard-usable."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.pages import Shot, open_memory_tab, viewer
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser


def search_box(page: Page) -> Locator:
    """The search field (found by its label, as a screen reader user would)."""
    return page.get_by_role("searchbox", name="Search memories")


def hits(page: Page) -> Locator:
    """The hit buttons, best first."""
    return page.locator("#memory-search-results .search-open")


def test_s1_search_box_finds_marks_and_opens(page: Page, service: Service, shot: Shot) -> None:
    open_memory_tab(page)
    search_box(page).fill("pnpm")
    first = hits(page).first
    expect(first).to_have_attribute("data-file", "prefers-pnpm.md")
    expect(first.locator("mark").first).to_have_text("pnpm", ignore_case=True)
    expect(page.locator("#memory-search-status")).to_contain_text("match")
    shot(page, "s1-search-results")
    first.click()
    panel = viewer(page)
    expect(panel).to_have_attribute("open", "")
    expect(panel.locator("h2")).to_have_text("prefers-pnpm")
    page.keyboard.press("Escape")
    expect(panel).not_to_have_attribute("open", "")
    expect(first).to_be_focused()  # focus returns to the hit that opened it


def test_s1_search_sees_a_change_on_disk_and_clears_with_escape(
    page: Page, service: Service
) -> None:
    open_memory_tab(page)
    box = search_box(page)
    box.fill("zeppelin")
    expect(page.locator("#memory-search-status")).to_have_text("No memory matches “zeppelin”.")
    expect(hits(page)).to_have_count(0)
    key = service.scope_key("workspace")
    write_topic(
        service.scope_dir(key),
        "airships.md",
        name="airships",
        description="hangar notes",
        updated_at="2026-11-30",
        body="The <b>zeppelin</b> lands at dawn.",
    )
    box.press("Enter")  # searches again at once
    expect(hits(page)).to_have_count(1)
    hit = hits(page).first
    expect(hit).to_have_attribute("data-scope", key)
    expect(hit.locator(".search-snippet")).to_contain_text("<b>")  # user text stays text
    expect(hit.locator(".search-snippet b")).to_have_count(0)
    box.press("Escape")
    expect(box).to_have_value("")
    expect(page.locator("#memory-search-results")).to_be_hidden()


def test_s1_search_error_is_shown_with_retry(page: Page, service: Service) -> None:
    open_memory_tab(page)
    search_box(page).fill("x" * 501)  # too long: the service answers 400 with a detail
    alert = page.locator("#memory-search-results [role=alert]")
    expect(alert).to_contain_text("at most 500 characters")
    expect(alert.get_by_role("button", name="Retry")).to_be_visible()


def test_s1_more_hits_on_request(page: Page, service: Service) -> None:
    open_memory_tab(page)
    search_box(page).fill("the")  # in most of the demo's 300-odd memories
    expect(hits(page)).to_have_count(20)
    expect(page.locator("#memory-search-status")).to_contain_text("the best 20 shown")
    page.get_by_role("button", name="Show up to 100").click()
    expect(hits(page)).to_have_count(100)
    expect(page.get_by_role("button", name="Show up to 100")).to_have_count(0)
