"""A-3, W-5 at scale (issue 30): an agent with a thousand Workspaces and more.

The Memory tab shows the overview's first page of groups (the user scope, then the Workspaces by
newest activity) with the totals of all of them, and is usable as soon as that page is shown;
the next pages load as the user scrolls to the end of the groups, or from "Show more groups"
(the keyboard's way); the group finder asks the service for the groups whose name or path holds
the text, down to the last of them. Any group is reached through the finder and from its
address. The data (about 4,000 small files) is written once per worker.

The browser only ever holds the pages it asked for, so what it does is the same at 1,000
Workspaces as at 5,000 or 20,000: 1,000 is well past the pages scrolled through here (250
groups), gives the totals a thousands separator and a team folder more groups than one page.
That the service reads only the page however many scopes there are is counted at the store
(``tests/api/test_a3_overview_pages.py::test_a3_only_the_page_is_read``) and measured at 20,000
scopes by ``make bench-scale`` (docs/performance.md).
"""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.axe import axe_violations
from tests.browser.conftest import DEADLINE_MS, PreparedServices
from tests.browser.pages import (
    MEMORY_TAB,
    PageFactory,
    open_memory_tab,
    user_group,
    viewer,
    wait_groups_settled,
    workspace_group,
)
from tests.browser.service import Service

CROWDED_DEADLINE_MS = 3 * DEADLINE_MS
"""The deadline of a wait after a page of groups is appended: each page costs the browser more
the more groups it shows (docs/performance.md), seconds each on a busy 2-core machine. Still only
a deadline: the waits end at their signal."""

pytestmark = pytest.mark.browser

WORKSPACES = 1000
TEAMS = 16
"""The Workspaces sit in ``team-NN/`` folders: searching ``team-07/`` finds 63 of them, from
``repo-0999`` down to ``repo-0007``."""
TEAM_07_NEWEST = 999
FIRST_PAGE = 50  # groups on the overview's first page, and on each one after
MORE_PAGE = 100  # (static/js/views/group-pages.js)
SCROLLED_PAGES = 2
"""Pages the user scrolls to past the first: the second shows that each scroll to the end brings
one page more, as every later one does (a third checked the same, at the cost of the browser
laying out 350 groups instead of 250)."""
ALIKE_GROUPS = (
    f"#memory-groups > .group:nth-child(n+4):nth-child(-n+{FIRST_PAGE}),"
    f" #memory-groups > .group:nth-child(n+{FIRST_PAGE + 4})"
)
"""The groups axe-core leaves out of a check of the finder's 63 groups: all but the first three
of each page (the first page's, and the page "Show more groups" brought, whose first group holds
the focus). Every group is drawn by one function from a scope like the others (``repo-NNNN``,
its path, one memory), so the other 57 are copies of these six for every rule, and axe's cost
grows with the groups it checks (13.5 s of the module's 29 s test on 63 groups, on the 2-CPU
machine under load). The demo's groups, every one of them, are checked on the Memory tab by
``test_accessibility.py``."""
OLDEST = 1_767_225_600  # 2026-01-01T00:00:00Z: older than the demo's scopes, which come first


def _seed_workspaces(service: Service) -> None:
    """1,000 Workspace scopes, ``repo-0000`` … ``repo-0999``, each with its marker, an index
    and one topic file; ``repo-0999`` has the newest activity and ``repo-0000`` the oldest.
    Written directly (about 4,000 small files), as Sessions would have left them."""
    workspaces = service.data_dir / "checkouts"
    for number in range(WORKSPACES):
        name = f"repo-{number:04d}"
        workspace = workspaces / f"team-{number % TEAMS:02d}" / name
        workspace.mkdir(parents=True)
        scope = service.add_workspace_scope(os.path.realpath(workspace))
        (scope / "build.md").write_text(
            f"---\nname: build\ndescription: how {name} builds\n---\nmake {name}\n",
            encoding="utf-8",
        )
        index = scope / "MEMORY.md"
        index.write_text(f"- [build](build.md) — how {name} builds\n", encoding="utf-8")
        when = OLDEST + number
        os.utime(index, (when, when))
        os.utime(scope, (when, when))


@pytest.fixture
def crowded(prepared_services: PreparedServices) -> Service:
    """The demo service with 1,000 Workspaces more, shared by this module's tests (none of
    them changes a memory): the data is written once per worker (see
    :class:`PreparedServices`)."""
    return prepared_services.get("a thousand Workspaces", _seed_workspaces)[0]


def _repo(number: int) -> str:
    return f"repo-{number:04d}"


def _groups(page: Page) -> Locator:
    return page.locator(".group")


def _titles(page: Page) -> list[str]:
    """The names of the ``repo-NNNN`` groups shown, top to bottom."""
    names = _groups(page).locator(".group-title .name").all_text_contents()
    return [name for name in names if name.startswith("repo-")]


def _finder(page: Page) -> Locator:
    return page.get_by_role("searchbox", name="Find a group")


def _wait_page_shown(page: Page) -> None:
    """Wait until no overview page is on its way (the groups box is not ``aria-busy``)."""
    expect(page.locator("#memory-groups[aria-busy]")).to_have_count(0)


def _scroll_to_end(page: Page) -> None:
    """Scroll the line under the groups ("Showing … of … groups") into view, as a user
    scrolling down to the end of the groups does."""
    page.locator(".groups-more").evaluate("el => el.scrollIntoView({ block: 'end' })")


def test_a3_a_thousand_workspaces_show_a_first_page_then_more_as_the_user_scrolls(
    open_page: PageFactory, crowded: Service
) -> None:
    page = open_page(crowded)
    total = WORKSPACES + 3  # the demo's user scope and two Workspaces
    open_memory_tab(page)
    _wait_page_shown(page)

    # Usable on the first page: the user scope and the newest Workspaces, totals of them all.
    groups = _groups(page)
    expect(groups).to_have_count(FIRST_PAGE)
    expect(groups.first).to_have_attribute("data-kind", "user")
    expect(page.locator("#memories-summary")).to_contain_text(f"{total - 1:,} Workspaces")
    expect(page.locator("#more-groups-text")).to_have_text(
        f"Showing {FIRST_PAGE} of {total:,} groups"
    )
    expect(workspace_group(page, _repo(WORKSPACES - 1)).locator(".row")).to_have_count(1)
    expect(_finder(page)).to_be_visible()

    # Scrolling to the end of the groups loads the next page, newest activity first, and no
    # more than the user scrolls to; it moves no focus.
    for pages in range(1, SCROLLED_PAGES + 1):
        _scroll_to_end(page)
        expect(groups).to_have_count(FIRST_PAGE + pages * MORE_PAGE)
        _wait_page_shown(page)
        expect(page.locator("#more-groups-text")).to_have_text(
            f"Showing {FIRST_PAGE + pages * MORE_PAGE} of {total:,} groups"
        )
    shown = FIRST_PAGE + SCROLLED_PAGES * MORE_PAGE
    newest = [_repo(number) for number in reversed(range(WORKSPACES))]
    assert _titles(page) == newest[: shown - 3]
    assert len(set(groups.evaluate_all("els => els.map(el => el.dataset.scope)"))) == shown
    assert page.evaluate("document.activeElement === document.body")

    # A group of the last page loads its memories once scrolled to, like any other. It is
    # named, not ``groups.last``: scrolling to it may append the next page, whose last group
    # nobody scrolled to.
    last = workspace_group(page, newest[shown - 4])
    last.scroll_into_view_if_needed()
    expect(last.locator(".row")).to_have_count(1, timeout=CROWDED_DEADLINE_MS)
    wait_groups_settled(page)


def test_a3_any_of_a_thousand_groups_is_found_by_name_or_path_and_reached_to_the_last(
    open_page: PageFactory, crowded: Service
) -> None:
    page = open_page(crowded)
    open_memory_tab(page)
    _wait_page_shown(page)
    finder = _finder(page)
    groups = _groups(page)
    status = page.locator("#group-search-status")
    end = page.locator(".groups-more")

    # By name: one far beyond the first page.
    finder.fill(_repo(123))
    expect(status).to_have_text(f"1 group matches “{_repo(123)}”.")
    expect(groups).to_have_count(1)
    expect(workspace_group(page, _repo(123)).locator(".row")).to_have_count(1)
    expect(end).to_be_hidden()

    # The oldest hundred: the first page, then the rest by scrolling, down to the oldest of all
    # 1,000, whose memories load like any other group's.
    finder.fill("repo-00")
    expect(status).to_have_text("100 groups match “repo-00”.")
    expect(groups).to_have_count(FIRST_PAGE)
    _wait_page_shown(page)
    _scroll_to_end(page)
    expect(groups).to_have_count(100)
    expect(end).to_be_hidden()
    assert _titles(page) == [_repo(number) for number in reversed(range(100))]
    oldest = workspace_group(page, _repo(0))
    oldest.scroll_into_view_if_needed()
    expect(oldest.locator(".row")).to_have_count(1)

    # By path: 63 Workspaces sit in team-07/; the first page shows 50, the keyboard the rest
    # ("Show more groups"), and the focus goes on to the first group that page brought.
    finder.fill("team-07/")
    expect(status).to_have_text("63 groups match “team-07/”.")
    expect(groups).to_have_count(FIRST_PAGE)
    _wait_page_shown(page)
    page.locator("#more-groups").focus()
    page.keyboard.press("Enter")
    expect(groups).to_have_count(63)
    expect(end).to_be_hidden()
    next_one = TEAM_07_NEWEST - FIRST_PAGE * TEAMS  # the 51st newest of team-07: 999, 983, …
    focused = workspace_group(page, _repo(next_one)).locator("button.group-toggle")
    expect(focused).to_be_focused()
    assert _titles(page) == [_repo(number) for number in range(TEAM_07_NEWEST, 0, -TEAMS)]
    violations = axe_violations(page, include=".memories", exclude=ALIKE_GROUPS)
    assert violations == [], f"axe-core on a group search: {violations}"

    # Nothing matches: said so; Escape clears the finder and the first page is back.
    finder.fill("no such workspace")
    expect(status).to_have_text("No group matches “no such workspace”.")
    expect(groups).to_have_count(0)
    finder.press("Escape")
    expect(finder).to_have_value("")
    expect(groups).to_have_count(FIRST_PAGE)
    expect(user_group(page)).to_be_visible()
    expect(status).to_have_text("")


def test_a3_a_memory_of_a_group_not_yet_loaded_opens_from_its_address(
    open_page: PageFactory, crowded: Service
) -> None:
    page = open_page(crowded)
    found = crowded.get(crowded.agent_path() + f"/memory?limit=1&q={_repo(0)}")
    key = found["scopes"][0]["key"]
    page.goto(f"{MEMORY_TAB}/view/{key}/build.md")
    panel = viewer(page)
    expect(panel.locator("h2")).to_have_text("build")
    expect(panel.locator(".viewer-body")).to_contain_text(f"make {_repo(0)}")
    page.keyboard.press("Escape")
    expect(page).to_have_url(re.compile(re.escape("/agents/demo/memory") + "$"))
    expect(_groups(page)).to_have_count(FIRST_PAGE)
