"""W-5: a scope with thousands of memories stays usable — every row is rendered (no silent
first-N), the last one can be reached by scrolling, and the filter finds any of them."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.pages import (
    MEMORY_TAB,
    PageFactory,
    Shot,
    group_toggle,
    open_memory_tab,
    row,
    workspace_group,
)
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser

FILES = 3000


def _seed_huge_scope(service: Service) -> str:
    workspace = service.data_dir / "demo-workspaces" / "monorepo"
    workspace.mkdir(parents=True)
    scope = service.add_workspace_scope(os.path.realpath(workspace))
    lines = ["# Memory index", ""]
    for number in range(FILES):
        name = f"fact-{number:04d}"
        write_topic(
            scope,
            f"{name}.md",
            name=name,
            description=f"fact number {number}",
            updated_at=f"2026-{1 + number % 12:02d}-{1 + number % 28:02d}",
            body=f"Body {number}.\n",
        )
        lines.append(f"- [{name}]({name}.md) — fact number {number}")
    (scope / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return scope.name


def test_w5_thousands_of_rows_are_all_rendered_and_reachable(
    page: Page, service: Service, shot: Shot
) -> None:
    _seed_huge_scope(service)
    page.goto(MEMORY_TAB)
    group = workspace_group(page, "monorepo")
    expect(group.locator(".count")).to_have_text(f"{FILES:,} memories")
    rows = group.locator(".row")
    expect(rows).to_have_count(FILES, timeout=30_000)
    expect(group.locator("ul.rows")).to_have_attribute("data-rendered", str(FILES))

    # The oldest (last) row is in the DOM and scrolls into view.
    last = rows.last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    shot(page, "w5-large-scope-end")

    # The filter finds any row, including one deep in the list.
    group.get_by_label("Filter memories").fill("fact-2718")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("fact number 2718")
    group.get_by_label("Filter memories").fill("no such memory")
    expect(rows).to_have_count(0)
    expect(group).to_contain_text("No memory matches")

    # Collapsing such a group is instant and remembered like any other.
    group_toggle(group).click()
    expect(group.locator(".group-body")).to_be_hidden()


BUSY_LOG = """
window.busyLog = [];
new MutationObserver((records) => {
  for (const record of records) {
    const body = record.target;
    const list = body.querySelector("ul.rows");
    window.busyLog.push({
      scope: body.closest(".group").dataset.scope,
      busy: body.getAttribute("aria-busy"),
      rows: list.children.length,
      total: list.dataset.total ?? null,
    });
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["aria-busy"] });
"""
"""Logs every change of a group body's ``aria-busy``, with its rows at that moment."""


def test_w5_a_group_is_busy_until_its_last_row_is_rendered(page: Page, service: Service) -> None:
    key = _seed_huge_scope(service)
    page.add_init_script(BUSY_LOG)
    page.goto(MEMORY_TAB)
    group = workspace_group(page, "monorepo")
    expect(group.locator("ul.rows")).to_have_attribute("data-rendered", str(FILES), timeout=30_000)
    expect(group.locator(".group-body")).not_to_have_attribute("aria-busy", "true")

    log = [entry for entry in page.evaluate("window.busyLog") if entry["scope"] == key]
    assert log[0]["busy"] == "true" and log[0]["rows"] < FILES
    assert log[-1] == {"scope": key, "busy": None, "rows": FILES, "total": str(FILES)}
    early = [entry for entry in log if entry["busy"] is None and entry["rows"] < FILES]
    assert early == [], "the group stopped being busy before its last row was rendered"


SETTLE = """async (button) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  button.scrollIntoView({ block: "end" });
  const ys = [button.getBoundingClientRect().y];
  for (let i = 0; i < 4; i++) {
    await frame();
    ys.push(button.getBoundingClientRect().y);
  }
  return ys;
}"""
"""Scroll a button into view and return its top over the next four frames, in which rows that
came near the view are laid out."""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_w5_a_row_scrolled_into_view_stays_under_the_pointer(
    open_page: PageFactory, service: Service, size: str
) -> None:
    """Rows far from view are laid out only when they come near (so thousands stay quick); a
    row scrolled into view must not then move from under the pointer about to click it."""
    _seed_huge_scope(service)
    page = open_page(service, DESKTOP if size == "desktop" else PHONE)
    open_memory_tab(page)
    huge = workspace_group(page, "monorepo")
    expect(huge.locator("ul.rows")).to_have_attribute("data-rendered", str(FILES), timeout=30_000)
    targets = {
        "a row of a small group": row(workspace_group(page, "shop-api"), "deploy-freeze.md"),
        "a row deep in a scope of 3,000": row(huge, "fact-1000.md"),
    }
    for where, target in targets.items():
        tops = target.get_by_role("button", name="View").evaluate(SETTLE)
        assert max(tops) - min(tops) <= 2, f"{where} moved after it was scrolled into view: {tops}"
