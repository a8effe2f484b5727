"""W-5: a scope with thousands of memories stays fast and every row is reachable.

A group builds only the rows in view of its scroll area (a few dozen of 2,000), every row has
the same height so none moves when others are built, the scroll area says there is more, and
any row is reached by scrolling, by the keyboard, through the filter and by its address. Groups
load their rows once near the screen, holding the height those rows will take meanwhile.
The scope of 2,000 is written once per worker for the tests that only read it (``huge_scope``).
"""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.browser.axe import axe_violations
from tests.browser.conftest import DESKTOP, PHONE, PreparedServices
from tests.browser.pages import (
    MEMORY_TAB,
    PageFactory,
    Shot,
    group_toggle,
    open_memory_tab,
    row,
    user_group,
    viewer,
    wait_groups_settled,
    workspace_group,
)
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser

FILES = 2000
"""Thousands of memories (W-5), two of the service's pages of 1,000 (A-5): the rows the page
builds, the keyboard's reach and the pages it asks for are the same at 2,000 as at 3,000 (the
size until round 59), while the files written, listed cold by the service and removed, and the
rows each listing sends, are a third fewer."""
MOST_BUILT = 60
"""More rows than any scroll area shows at once, with its few rows built on either side."""


def _seed_huge_scope(service: Service, title: str = "monorepo", files: int = FILES) -> str:
    workspace = service.data_dir / "demo-workspaces" / title
    workspace.mkdir(parents=True)
    scope = service.add_workspace_scope(os.path.realpath(workspace))
    lines = ["# Memory index", ""]
    for number in range(files):
        name = f"fact-{number:04d}"
        write_topic(
            scope,
            f"{name}.md",
            name=name,
            description=f"fact number {number}",
            # A second apart, newest first on the page: fact-1999 first, fact-0000 last.
            updated_at=f"2026-01-01T00:{number // 60:02d}:{number % 60:02d}Z",
            body=f"Body {number}.\n",
        )
        lines.append(f"- [{name}]({name}.md) — fact number {number}")
    (scope / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return scope.name


@pytest.fixture
def huge_scope(prepared_services: PreparedServices) -> tuple[Service, str]:
    """The demo service with a Workspace scope of 2,000 memories more (``monorepo``) and that
    scope's key, shared by this module's tests that only read it (scrolling, the keyboard, the
    filter, collapsing and addresses change nothing on the service): the 2,000 files are
    written, and listed by the service, once per worker (see :class:`PreparedServices`)."""
    return prepared_services.get("monorepo", _seed_huge_scope)


def _at(group: Locator, position: int) -> Locator:
    """The row at 1-based ``position`` of ``group``'s list (built or not)."""
    return group.locator(f'.row[aria-posinset="{position}"]')


def _scroll_rows(group: Locator, where: str) -> None:
    """Bring ``group``'s rows on screen and scroll them to ``where``: "end" or a pixel offset."""
    group.locator(".rows-viewport").evaluate(
        """(el, where) => {
             el.scrollIntoView({ block: "nearest" });
             el.scrollTop = where === "end" ? el.scrollHeight : Number(where);
           }""",
        where,
    )


def _wheel_until_gone(page: Page, group: Locator, row: Locator) -> None:
    """Turn the mouse wheel up over ``group``'s rows until ``row`` is no longer built. A
    browser busy on a loaded machine may drop or shorten a wheel event (CI saw the list stay
    at its end for the 120 s a single one was given): each turn waits for the row itself,
    and a dropped one is turned again, twelve times at most."""
    group.locator(".rows-viewport").hover()
    for turn in range(12):
        page.mouse.wheel(0, -2000)
        try:
            expect(row).to_have_count(0, timeout=10_000)
            return
        except AssertionError:
            if turn == 11:
                raise


def test_w5_a_scope_of_thousands_builds_only_the_rows_in_view(
    open_page: PageFactory, huge_scope: tuple[Service, str], shot: Shot
) -> None:
    page = open_page(huge_scope[0])
    open_memory_tab(page)
    group = workspace_group(page, "monorepo")
    expect(group.locator(".count")).to_have_text(f"{FILES:,} memories")
    rows = group.locator(".row")
    expect(_at(group, 1)).to_contain_text(f"fact-{FILES - 1:04d}")
    expect(group.locator("ul.rows")).to_have_attribute("data-total", str(FILES))
    assert rows.count() <= MOST_BUILT
    # Screen readers hear where a row sits in the whole list.
    expect(_at(group, 1)).to_have_attribute("aria-setsize", str(FILES))

    # The last row is reached by scrolling the group; still only a screenful is built.
    _scroll_rows(group, "end")
    last = _at(group, FILES)
    expect(last).to_contain_text("fact-0000")
    expect(last).to_be_in_viewport()
    assert rows.count() <= MOST_BUILT
    shot(page, "w5-large-scope-end")
    scope = group.get_attribute("data-scope")
    violations = axe_violations(page, include=f'.group[data-scope="{scope}"]')
    assert violations == [], f"axe-core on a scrolled group of {FILES:,}: {violations}"

    # The mouse wheel over the list scrolls it back and builds the rows it passes.
    _wheel_until_gone(page, group, _at(group, FILES))

    # The filter finds any row, including one deep in the list.
    group.get_by_label("Filter memories").fill("fact-1718")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("fact number 1718")
    group.get_by_label("Filter memories").fill("no such memory")
    expect(rows).to_have_count(0)
    expect(group).to_contain_text("No memory matches")

    # Collapsing such a group is instant and remembered like any other; expanded again, it
    # shows the rows in view of its scroll area (a hidden one loses its position).
    group.get_by_label("Filter memories").fill("")
    _scroll_rows(group, str(1500 * _row_height(group)))
    expect(_at(group, 1501)).to_be_visible()
    group_toggle(group).click()
    expect(group.locator(".group-body")).to_be_hidden()
    group_toggle(group).click()
    top = group.locator(".rows-viewport").evaluate(
        "el => Math.floor(el.scrollTop / parseFloat("
        "getComputedStyle(el.querySelector('.rows')).getPropertyValue('--row-h')))"
    )
    expect(_at(group, top + 1)).to_be_in_viewport()
    expect(_at(group, top + 5)).to_be_in_viewport()


def test_w5_a_huge_scope_s_tab_pages_in_is_busy_until_built_and_its_rows_are_reached(
    open_page: PageFactory, huge_scope: tuple[Service, str]
) -> None:
    """One load of the Memory tab over the scope of 2,000 for four looks at it, each a helper
    run in turn on the same page (none of them changes the service): the first page shows
    before the rest is fetched (A-5), the group is busy until its rows in view are built, the
    keyboard reaches every row and keeps its place, and a row scrolled into view stays under
    the pointer (desktop; the phone's own test below). Until round 60 each loaded the tab
    (and had the service list the 2,000 files) in a browser context of its own."""
    service, key = huge_scope
    page = open_page(service)
    page.add_init_script(BUSY_LOG)
    _the_first_page_shows_before_the_rest_is_fetched(page)
    _the_group_was_busy_until_its_rows_in_view_were_built(page, key)
    _the_keyboard_reaches_every_row_and_keeps_its_place_while_scrolled_away(page)
    _a_row_scrolled_into_view_stays_under_the_pointer(page)


def _the_first_page_shows_before_the_rest_is_fetched(page: Page) -> None:
    """A-5 pages: the group shows the first 1,000 rows while the later pages are asked for
    (held here until the rows are seen), busy until the last; then all 2,000."""
    later_pages = re.compile(r"/scopes/[^/?]+/files\?cursor=")
    held: list[Route] = []

    def hold_the_second_page(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(later_pages, hold_the_second_page)
    page.goto(MEMORY_TAB)
    group = workspace_group(page, "monorepo")
    listed = group.locator("ul.rows")

    expect(listed).to_have_attribute("data-total", "1000")
    expect(_at(group, 1)).to_contain_text("fact-0999")  # the newest of the first page
    expect(group.locator(".group-body")).to_have_attribute("aria-busy", "true")
    assert len(held) == 1

    held[0].continue_()
    expect(listed).to_have_attribute("data-total", str(FILES))
    expect(_at(group, 1)).to_contain_text(f"fact-{FILES - 1:04d}")
    wait_groups_settled(page)


def _the_keyboard_reaches_every_row_and_keeps_its_place_while_scrolled_away(page: Page) -> None:
    """On the tab of the scope of 2,000, shown and settled: End, PageUp and the arrows walk the
    rows; a focused row scrolled far away stays built and focused, and Tab lands on it again."""
    group = workspace_group(page, "monorepo")
    _at(group, 1).get_by_role("button", name="View").focus()
    page.keyboard.press("End")
    expect(_at(group, FILES).get_by_role("button", name="View")).to_be_focused()
    page.keyboard.press("PageUp")
    expect(_at(group, FILES - 10).get_by_role("button", name="View")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(_at(group, FILES - 10).get_by_role("button", name="Edit")).to_be_focused()

    # Scrolled far away, the focused row stays built and keeps the focus; Tab back into the
    # list lands on it again.
    _scroll_rows(group, "0")
    expect(_at(group, 1)).to_be_visible()
    expect(_at(group, FILES - 10).get_by_role("button", name="Edit")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    focused = _at(group, FILES - 10).get_by_role("button", name="Edit")
    expect(focused).to_be_focused()
    expect(focused).to_be_in_viewport()
    page.keyboard.press("Home")
    expect(_at(group, 1).get_by_role("button", name="Edit")).to_be_focused()
    assert group.locator(".row").count() <= MOST_BUILT


def test_w5_a_memory_deep_in_a_huge_scope_opens_from_its_address(
    open_page: PageFactory, huge_scope: tuple[Service, str]
) -> None:
    service, key = huge_scope
    page = open_page(service)
    page.goto(f"{MEMORY_TAB}/view/{key}/fact-0007.md")
    panel = viewer(page)
    expect(panel.locator("h2")).to_have_text("fact-0007")
    expect(panel.locator(".viewer-body")).to_contain_text("Body 7.")
    page.keyboard.press("Escape")
    expect(page).to_have_url(re.compile(re.escape("/agents/demo/memory") + "$"))


def _every_row_has_the_same_height_whatever_it_holds(
    open_page: PageFactory, service: Service, shot: Shot
) -> None:
    """Rows sit at index × height: a long name (``long.md``), a long description, no
    description (``bare.md``), no date or findings badges must not make one row taller than
    another."""
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = open_page(service, viewport)
        open_memory_tab(page)
        boxes = page.locator(".row").evaluate_all(
            """rows => rows.map(row => ({
                 file: row.dataset.file,
                 height: row.getBoundingClientRect().height,
                 step: parseFloat(getComputedStyle(row).getPropertyValue('--row-h')),
                 spills: [...row.children].some(part => part.scrollHeight > part.clientHeight + 1)
                   || row.scrollHeight > row.clientHeight + 1,
               }))"""
        )
        assert {box["file"] for box in boxes} >= {"long.md", "bare.md"}
        heights = {box["height"] for box in boxes}
        assert heights == {boxes[0]["step"]}, f"rows of different heights ({size}): {boxes}"
        assert [box["file"] for box in boxes if box["spills"]] == [], size
        shot(page, f"w5-row-heights-{size}")


def test_w5_a_group_that_scrolls_says_so_and_cuts_through_a_row(
    open_page: PageFactory, read_only_service: Service
) -> None:
    """12 memories, 6 in view: the cut never falls on a row boundary (which looks like the end
    of the list) and a line under the list says which rows are shown."""
    service = read_only_service  # the demo's shop-api group, only looked at and scrolled
    page = open_page(service)
    open_memory_tab(page)
    shop = workspace_group(page, "shop-api")
    listing = service.agent_path() + f"/memory/scopes/{shop.get_attribute('data-scope')}/files"
    total = len(service.get(listing)["files"])
    viewport = shop.locator(".rows-viewport")
    height = viewport.evaluate("el => el.clientHeight")
    step = viewport.evaluate(
        "el => parseFloat(getComputedStyle(el.querySelector('.rows')).getPropertyValue('--row-h'))"
    )
    assert height < total * step, "the test needs a group that scrolls"
    assert height % step == pytest.approx(step / 2), f"cut at {height} px of {step} px rows"
    more = shop.locator(".rows-more")
    expect(more).to_be_visible()
    expect(more).to_have_text(re.compile(rf"^Showing 1–\d+ of {total} memories · scroll"))
    _scroll_rows(shop, "end")
    expect(more).to_have_text(re.compile(rf"^Showing \d+–{total} of {total} memories$"))
    # A group whose rows all fit has no such line.
    expect(user_group(page).locator(".rows-more")).to_be_hidden()


BUSY_LOG = """
window.busyLog = [];
new MutationObserver((records) => {
  for (const record of records) {
    const body = record.target;
    if (!body.classList.contains("group-body")) continue; // the groups box, while a page loads
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
"""Logs every change of a group body's ``aria-busy``, with its rows at that moment (the groups
box is ``aria-busy`` too while a page of groups loads: not logged)."""


def _the_group_was_busy_until_its_rows_in_view_were_built(page: Page, key: str) -> None:
    """The :data:`BUSY_LOG` of the page's load (scope ``key``, shown and settled): busy with
    no rows first, and last not busy, with all 2,000 listed and a screenful of rows built."""
    log = [entry for entry in page.evaluate("window.busyLog") if entry["scope"] == key]
    assert log[0] == {"scope": key, "busy": "true", "rows": 0, "total": None}
    assert log[-1]["busy"] is None and log[-1]["total"] == str(FILES)
    assert 0 < log[-1]["rows"] <= MOST_BUILT


def test_w5_rows_and_groups_keep_their_heights_while_built_and_loaded(
    open_page: PageFactory, service: Service, shot: Shot
) -> None:
    """One service with the rows of every kind and forty Workspaces more for the two checks
    that nothing moves as the tab builds and loads (each checked by a helper): rows of one
    height, and groups that hold their height while their rows load."""
    scope = service.scope_dir("user")
    write_topic(
        scope,
        "long.md",
        name="a-memory-name-" + "that-goes-on-" * 20 + "end",
        description="A description long enough to wrap several times over. " * 8,
        updated_at="2026-11-30",
        body="Body.\n",
    )
    (scope / "bare.md").write_text("No frontmatter at all.\n", encoding="utf-8")
    for number in range(40):
        workspace = service.data_dir / "demo-workspaces" / f"service-{number:02d}"
        workspace.mkdir(parents=True)
        scope = service.add_workspace_scope(os.path.realpath(workspace))
        for fact in range(3):
            write_topic(
                scope,
                f"fact-{fact}.md",
                name=f"fact-{fact}",
                description=f"fact {fact} of service {number}",
                updated_at=f"2026-10-{1 + number % 28:02d}",
                body="Body.\n",
            )
    _groups_far_from_the_screen_load_when_they_come_near_without_moving_anything(open_page(service))
    _every_row_has_the_same_height_whatever_it_holds(open_page, service, shot)


def _groups_far_from_the_screen_load_when_they_come_near_without_moving_anything(
    page: Page,
) -> None:
    """Forty Workspaces: the tab asks for the listings of the groups near the screen only; a
    group keeps the height its rows will take while they load, so nothing below it moves."""
    listings: list[str] = []
    page.on(
        "request", lambda request: listings.append(request.url) if "/files" in request.url else None
    )
    open_memory_tab(page)
    groups = page.locator(".group")
    expect(groups).to_have_count(43)
    asked = len(listings)
    assert asked < 43, f"all {asked} listings were asked for at once"

    last = groups.last
    before = last.evaluate("el => el.getBoundingClientRect().height")
    expect(last.locator(".row")).to_have_count(0)
    last.scroll_into_view_if_needed()
    expect(last.locator(".row").first).to_be_visible()
    wait_groups_settled(page)
    assert last.evaluate("el => el.getBoundingClientRect().height") == before
    assert len(listings) > asked


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
"""Scroll a button into view and return its top over the next four frames."""


def test_w5_a_row_scrolled_into_view_stays_under_the_pointer_on_a_phone(
    open_page: PageFactory, huge_scope: tuple[Service, str]
) -> None:
    """The phone's turn of :func:`_a_row_scrolled_into_view_stays_under_the_pointer` (the
    desktop's runs in the test of the tab's one load above)."""
    page = open_page(huge_scope[0], PHONE)
    open_memory_tab(page)
    _a_row_scrolled_into_view_stays_under_the_pointer(page)


def _a_row_scrolled_into_view_stays_under_the_pointer(page: Page) -> None:
    """Rows are built as they come into view (so thousands stay quick); a row scrolled into
    view must not then move from under the pointer about to click it (the tab shown)."""
    huge = workspace_group(page, "monorepo")
    _scroll_rows(huge, str(1000 * _row_height(huge)))
    expect(_at(huge, 1001)).to_be_visible()
    targets = {
        "a row of a small group": row(workspace_group(page, "shop-api"), "deploy-freeze.md"),
        f"a row deep in a scope of {FILES:,}": _at(huge, 1001),
    }
    for where, target in targets.items():
        tops = target.get_by_role("button", name="View").evaluate(SETTLE)
        assert max(tops) - min(tops) <= 2, f"{where} moved after it was scrolled into view: {tops}"


def _row_height(group: Locator) -> float:
    return float(
        group.locator("ul.rows").evaluate(
            "el => parseFloat(getComputedStyle(el).getPropertyValue('--row-h'))"
        )
    )
