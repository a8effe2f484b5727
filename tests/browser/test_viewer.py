"""W-3 View: the body in a right drawer on desktop and a bottom sheet with half and full snap
points on a phone; rendered safely, frontmatter stripped; keyboard-operable. The tests that only
view the demo (or fail a delete at the page's own route) share one service
(``read_only_service``); the one that writes a file starts its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.pages import (
    MEMORY_TAB,
    PageFactory,
    Shot,
    confirm_dialog,
    open_memory_tab,
    row,
    user_group,
    viewer,
    wait_viewer_settled,
    workspace_group,
)
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser

AT_HALF = (
    "() => { const sheet = document.querySelector('dialog.viewer');"
    " return sheet.getAnimations().length === 0"
    " && Math.abs(sheet.getBoundingClientRect().height - 844 / 2) < 3; }"
)
"""The sheet has settled at its half snap point (half of the 844px phone viewport)."""

LINES_OF_TEXT = (
    "els => els.map(el => { const range = document.createRange(); range.selectNodeContents(el);"
    " return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; })"
)
"""How many lines each element's text occupies (distinct tops of its line boxes)."""


def _the_index_marks_the_lines_the_injection_drops(page: Page, service: Service) -> None:
    """Step 2: the data-platform Workspace's index in the viewer, then closed."""
    group = workspace_group(page, "data-platform")
    group.get_by_role("button", name="Show the index").click()
    panel = viewer(page)
    index = service.get(
        service.agent_path()
        + f"/memory/scopes/{service.scope_key('workspace', 'data-platform')}/index"
    )
    dropped = [line for line in index["lines"] if not line["kept"]]
    assert dropped
    expect(panel.locator(".index-lines li")).to_have_count(len(index["lines"]))
    expect(panel.locator(".index-lines li.dropped")).to_have_count(len(dropped))
    # T-5a: every finding shows its severity (label and colour class)
    for severity in ("error", "warning", "info"):
        count = sum(finding["severity"] == severity for finding in index["findings"])
        expect(panel.locator(f".problems li.sev-{severity}")).to_have_count(count)
    first = index["findings"][0]
    expect(panel.locator(".problems li").first.locator(".sev")).to_have_text(first["severity"])
    # Each label is one line: a squeezed flex item once broke "WARNING" into "WARNI" / "NG".
    lines_per_label = panel.locator(".problems li .sev").evaluate_all(LINES_OF_TEXT)
    assert lines_per_label and set(lines_per_label) == {1}, lines_per_label
    page.keyboard.press("Escape")
    expect(panel).not_to_have_attribute("open", "")


def _a_failed_deletes_toast_shows_over_the_viewer(page: Page) -> None:
    """Step 4: ``prefers-pnpm.md`` viewed, its DELETE answered 503 by the page's own route."""
    row(user_group(page), "prefers-pnpm.md").get_by_role("button", name="View").click()
    panel = viewer(page)
    expect(panel.locator(".viewer-body")).to_contain_text("pnpm")
    page.route(
        "**/files/prefers-pnpm.md",
        lambda route: (
            route.fulfill(
                status=503,
                content_type="application/problem+json",
                body='{"title": "Unavailable", "status": 503, "detail": "the disk is busy"}',
            )
            if route.request.method == "DELETE"
            else route.fallback()
        ),
    )
    panel.get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()
    toast = page.locator(".toast.error")
    expect(toast).to_contain_text("Could not delete prefers-pnpm.md: the disk is busy")
    expect(panel).to_have_attribute("open", "")
    on_top = toast.evaluate(
        """el => { const r = el.getBoundingClientRect();
                   const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                   return el.contains(hit); }"""
    )
    assert on_top, "the toast is hidden behind the open viewer"


def test_w3_view_renders_user_content_as_text_never_markup(page: Page, service: Service) -> None:
    write_topic(
        service.scope_dir("user"),
        "tricky.md",
        name="tricky",
        description="<img src=x onerror=alert(1)>",
        updated_at="2026-11-01",
        body="# Heading <b>bold?</b>\n\n<script>window.pwned = 1</script>\n\n"
        "[click](javascript:window.pwned=2) and **strong** text\n",
    )
    open_memory_tab(page)
    group = user_group(page)
    expect(row(group, "tricky.md").locator(".row-desc")).to_have_text(
        "<img src=x onerror=alert(1)>"
    )
    row(group, "tricky.md").get_by_role("button", name="View").click()
    body = viewer(page).locator(".viewer-body")
    expect(body).to_contain_text("<script>window.pwned = 1</script>")
    expect(body.locator(".md h3")).to_have_text("Heading <b>bold?</b>")
    expect(body.locator("strong")).to_have_text("strong")
    assert body.locator("script, img, b").count() == 0
    assert body.locator('a[href^="javascript"]').count() == 0
    assert page.evaluate("() => window.pwned") is None


def test_w3_view_is_a_bottom_sheet_with_half_and_full_snap_points_on_a_phone(
    open_page: PageFactory, read_only_service: Service, shot: Shot
) -> None:
    phone = open_page(read_only_service, PHONE)
    phone.goto(MEMORY_TAB)
    group = workspace_group(phone, "shop-api")
    target = row(group, "deploy-freeze.md")
    expect(target).to_be_visible()
    target.get_by_role("button", name="View").click()
    sheet = viewer(phone)
    expect(sheet).to_have_attribute("data-mode", "sheet")
    expect(sheet).to_have_attribute("data-snap", "half")
    expect(sheet.locator(".viewer-body")).to_contain_text("Friday")
    phone.wait_for_function(AT_HALF)
    box = sheet.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] == pytest.approx(844, abs=2)
    assert box["width"] == pytest.approx(390, abs=1)
    shot(phone, "w3-view-sheet-half")

    # Drag the handle up: full.
    handle = sheet.locator(".viewer-handle")
    grip = handle.bounding_box()
    assert grip is not None
    x, y = grip["x"] + grip["width"] / 2, grip["y"] + grip["height"] / 2
    phone.mouse.move(x, y)
    phone.mouse.down()
    phone.mouse.move(x, y - 150, steps=8)
    phone.mouse.move(x, 40, steps=8)
    phone.mouse.up()
    expect(sheet).to_have_attribute("data-snap", "full")
    phone.wait_for_function(
        "() => { const sheet = document.querySelector('dialog.viewer');"
        " return sheet.getAnimations().length === 0 && sheet.getBoundingClientRect().top < 20; }"
    )
    shot(phone, "w3-view-sheet-full")

    # The handle is a button: keyboard moves between the snap points.
    handle.focus()
    phone.keyboard.press("ArrowDown")
    expect(sheet).to_have_attribute("data-snap", "half")
    phone.keyboard.press("Enter")
    expect(sheet).to_have_attribute("data-snap", "full")
    phone.keyboard.press("Enter")
    expect(sheet).to_have_attribute("data-snap", "half")

    # Drag down from half: closed.
    phone.wait_for_function(AT_HALF)
    grip = handle.bounding_box()
    assert grip is not None
    x, y = grip["x"] + grip["width"] / 2, grip["y"] + grip["height"] / 2
    phone.mouse.move(x, y)
    phone.mouse.down()
    phone.mouse.move(x, y + 200, steps=8)
    phone.mouse.move(x, 830, steps=8)
    phone.mouse.up()
    expect(sheet).not_to_have_attribute("open", "")


def test_w3_the_viewer_on_desktop_a_memory_an_index_one_gone_and_a_failed_delete(
    open_page: PageFactory, read_only_service: Service, shot: Shot
) -> None:
    """One desktop page on the worker's shared demo service (each step only views, or fails a
    delete at the page's own route: nothing reaches the service):

    1. W-3: a memory opens in a right drawer, frontmatter stripped, its size in bytes, its
       ``[[links]]`` followed; Escape closes it and gives focus back;
    2. W-3: "Show the index" marks the lines the injection drops and each finding's severity;
    3. W-5: a memory deleted since the list was read (by an agent, in another tab) will not
       come back on Retry: the viewer says it is gone and offers none;
    4. W-5: a failed delete from the viewer leaves the viewer open, and its toast shows over
       it (the page behind a modal dialog sits below it in the top layer, and is inert).
    """
    service = read_only_service
    page = open_page(service)
    open_memory_tab(page)
    view_button = row(user_group(page), "prefers-pnpm.md").get_by_role("button", name="View")
    view_button.click()
    panel = viewer(page)
    expect(panel).to_have_attribute("open", "")
    expect(panel).to_have_attribute("data-mode", "drawer")
    expect(panel.locator("h2")).to_have_text("prefers-pnpm")
    body = panel.locator(".viewer-body")
    expect(body).to_contain_text("pnpm install")
    expect(body).not_to_contain_text("updated_at")  # frontmatter stripped
    expect(body.locator("code").first).to_have_text("pnpm install")
    # A memory of a few hundred bytes reads as such, not as "1 KB".
    listing = service.get(service.agent_path() + "/memory/scopes/user/files")
    size = next(f["size"] for f in listing["files"] if f["file"] == "prefers-pnpm.md")
    assert size < 1024
    expect(panel.locator(".viewer-meta")).to_contain_text(f"{size} B")
    # [[review-style]] becomes a link that opens that memory.
    expect(body.get_by_role("button", name="review-style")).to_be_visible()

    wait_viewer_settled(page)
    box = panel.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] == pytest.approx(1280, abs=2)
    assert box["height"] == pytest.approx(860, abs=2)
    assert box["x"] > 500
    shot(page, "w3-view-drawer")

    body.get_by_role("button", name="review-style").click()
    expect(panel.locator("h2")).to_have_text("review-style")

    page.keyboard.press("Escape")
    expect(panel).not_to_have_attribute("open", "")
    expect(view_button).to_be_focused()

    _the_index_marks_the_lines_the_injection_drops(page, service)

    # 3. A memory that is gone.
    page.goto(MEMORY_TAB + "/view/user/deleted-meanwhile.md")
    panel = viewer(page)
    expect(panel.locator(".alert-error")).to_contain_text("it is not there any more")
    expect(panel.get_by_role("button", name="Retry")).to_have_count(0)
    page.keyboard.press("Escape")
    expect(panel).not_to_have_attribute("open", "")

    _a_failed_deletes_toast_shows_over_the_viewer(page)
