"""S-1: the Memory tab's search box — ranked hits from every scope, matched words marked,
a hit opens in the viewer, a change on disk is found by the next search, keyboard-usable.
The tests that only search use the worker's shared demo service (``read_only_service``, and the
index its first search builds); the one that writes a file takes a service of its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.pages import PageFactory, Shot, open_memory_tab, viewer
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser


def search_box(page: Page) -> Locator:
    """The search field (found by its label, as a screen reader user would)."""
    return page.get_by_role("searchbox", name="Search memories")


def hits(page: Page) -> Locator:
    """The hit buttons, best first."""
    return page.locator("#memory-search-results .search-open")


def test_s1_the_search_box_on_the_demo(
    open_page: PageFactory, read_only_service: Service, shot: Shot
) -> None:
    """One look at the Memory tab of the worker's shared demo service, searched in turn (each
    search only reads): hits found, marked and opened; an error with Retry; more hits on
    request; the demo ranked with each text shown once; a word inside Chinese text; a live
    query sent as still being typed."""
    page = open_page(read_only_service)
    open_memory_tab(page)

    # S-1: hits found and marked; a hit opens in the viewer, and focus comes back to it.
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

    # S-1: an error is shown with Retry.
    search_box(page).fill("x" * 501)  # too long: the service answers 400 with a detail
    alert = page.locator("#memory-search-results [role=alert]")
    expect(alert).to_contain_text("at most 500 characters")
    expect(alert.get_by_role("button", name="Retry")).to_be_visible()

    # Issue 26: ``deploy`` on the demo gave 220 hits scored 0.0, the hand-written
    # ``deploy-freeze`` fifth, and each hit showed its description twice.
    search_box(page).fill("deploy")
    first = hits(page).first
    expect(first).to_have_attribute("data-file", "deploy-freeze.md")
    expect(first.locator(".row-name mark")).to_have_text("deploy")
    expect(first.locator(".row-desc mark")).to_have_text("deploys")
    expect(first.locator(".search-snippet mark").first).to_have_text("deploys")
    expect(hits(page)).to_have_count(20)
    for index in range(20):
        hit = hits(page).nth(index)
        description = hit.locator(".row-desc").inner_text()
        snippet = hit.locator(".search-snippet")
        if snippet.count():
            assert description not in snippet.inner_text(), f"hit {index} shows it twice"

    # S-2, cjk-substring-search: ``回滚`` sits inside ``所有迁移脚本必须提供回滚步骤``.
    search_box(page).fill("回滚")
    expect(hits(page)).to_have_count(1)
    hit = hits(page).first
    expect(hit).to_have_attribute("data-file", "db-migrations.md")
    expect(hit.locator(".row-desc mark")).to_have_text("回滚")
    expect(hit.locator(".search-snippet mark")).to_have_text("回滚")

    # S-2: typing runs the search with ``typing=true`` (a Korean last syllable the input
    # method has not finished is then opened by the service); Enter runs it as typed in
    # full, without.
    with page.expect_request(lambda request: "/memory/search?" in request.url) as typed:
        search_box(page).fill("pnpm")
    assert "typing=true" in typed.value.url
    with page.expect_request(lambda request: "/memory/search?" in request.url) as entered:
        search_box(page).press("Enter")
    assert "typing" not in entered.value.url
    expect(hits(page).first).to_have_attribute("data-file", "prefers-pnpm.md")

    # S-1: more hits on request (last: the 100 asked for may hold for the searches after).
    search_box(page).fill("the")  # in most of the demo's 300-odd memories
    expect(hits(page)).to_have_count(20)
    expect(page.locator("#memory-search-status")).to_contain_text("the best 20 shown")
    page.get_by_role("button", name="Show up to 100").click()
    expect(hits(page)).to_have_count(100)
    expect(page.get_by_role("button", name="Show up to 100")).to_have_count(0)


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

    # Q-2b: a scope with a file in its folder's place is named as not searched, never "no hit".
    folder = service.scope_dir(key)
    folder.rename(folder.with_name(".moved-away"))
    folder.write_text("not a folder\n", encoding="utf-8")
    box.fill("zeppelin")
    box.press("Enter")
    expect(page.locator("#memory-search-status")).to_have_text(
        f"No memory matches “zeppelin”. 1 scope the service cannot read was not searched: {key}."
    )
