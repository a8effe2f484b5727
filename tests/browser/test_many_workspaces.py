"""A-3, W-5 at scale (issue 30): an agent with 5,000 Workspaces.

The Memory tab shows the overview's first page of groups (the user scope, then the Workspaces by
newest activity) with the totals of all of them, and is usable as soon as that page is shown;
the next pages load as the end of the groups comes near the screen or from "Show more groups"
(the keyboard's way); the group finder asks the service for the groups whose name or path holds
the text. Every group is reachable each of these ways, and from its address.
"""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.axe import axe_violations
from tests.browser.pages import (
    MEMORY_TAB,
    open_memory_tab,
    user_group,
    viewer,
    wait_groups_settled,
    workspace_group,
)
from tests.browser.service import Service

pytestmark = pytest.mark.browser

WORKSPACES = 5000
TEAMS = 80
"""The Workspaces sit in ``team-NN/`` folders: searching ``team-07/`` finds 63 of them."""
FIRST_PAGE = 50
OLDEST = 1_767_225_600  # 2026-01-01T00:00:00Z: older than the demo's scopes, which come first


def _seed_workspaces(service: Service) -> None:
    """5,000 Workspace scopes, ``repo-0000`` … ``repo-4999``, each with its marker, an index
    and one topic file; ``repo-4999`` has the newest activity and ``repo-0000`` the oldest.
    Written directly (about 20,000 small files), as Sessions would have left them."""
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


def _repo(number: int) -> str:
    return f"repo-{number:04d}"


def _groups(page: Page) -> Locator:
    return page.locator(".group")


def _finder(page: Page) -> Locator:
    return page.get_by_role("searchbox", name="Find a group")


def _wait_page_shown(page: Page) -> None:
    """Wait until no overview page is on its way (the groups box is not ``aria-busy``)."""
    expect(page.locator("#memory-groups[aria-busy]")).to_have_count(0)


def test_a3_five_thousand_workspaces_show_a_first_page_then_every_group_by_scrolling(
    page: Page, service: Service
) -> None:
    _seed_workspaces(service)
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

    # Scrolling down loads the next pages, newest activity first, until the oldest Workspace.
    shown = groups.count()
    while page.locator(".groups-more").is_visible():
        page.keyboard.press("End")
        page.wait_for_function(
            "n => document.querySelectorAll('.group').length > n "
            "|| document.querySelector('.groups-more').hidden",
            arg=shown,
        )
        _wait_page_shown(page)
        grown = groups.count()
        assert grown > shown or page.locator(".groups-more").is_hidden()
        shown = grown
    expect(groups).to_have_count(total)
    oldest = workspace_group(page, _repo(0))
    expect(groups.last).to_have_attribute("data-scope", oldest.get_attribute("data-scope") or "")
    titles = groups.locator(".group-title .name").all_text_contents()
    repos = [title for title in titles if title.startswith("repo-")]
    assert repos == [_repo(number) for number in reversed(range(WORKSPACES))]
    assert len(set(groups.evaluate_all("els => els.map(el => el.dataset.scope)"))) == total

    # The last group loads its memories once scrolled to, like any other.
    page.keyboard.press("End")
    expect(oldest.locator(".row")).to_have_count(1)
    expect(oldest).to_be_in_viewport()
    wait_groups_settled(page)


def test_a3_any_of_five_thousand_groups_is_found_by_name_or_path_and_reached_by_keyboard(
    page: Page, service: Service
) -> None:
    _seed_workspaces(service)
    open_memory_tab(page)
    _wait_page_shown(page)
    finder = _finder(page)
    groups = _groups(page)

    # By name: one of the oldest, far beyond the first page.
    finder.fill(_repo(123))
    expect(groups).to_have_count(1)
    found = workspace_group(page, _repo(123))
    expect(found.locator(".row")).to_have_count(1)
    expect(page.locator("#group-search-status")).to_have_text(f"1 group matches “{_repo(123)}”.")
    expect(page.locator(".groups-more")).to_be_hidden()

    # By path: 63 Workspaces sit in team-07/; the first page shows 50, the keyboard the rest,
    # and the focus goes on to the first group it brought.
    finder.fill("team-07/")
    expect(page.locator("#group-search-status")).to_have_text("63 groups match “team-07/”.")
    expect(groups).to_have_count(FIRST_PAGE)
    _wait_page_shown(page)
    page.locator("#more-groups").focus()
    page.keyboard.press("Enter")
    expect(groups).to_have_count(63)
    expect(page.locator(".groups-more")).to_be_hidden()
    next_one = 4967 - FIRST_PAGE * TEAMS  # the 51st newest of team-07: 4967, 4887, …
    expect(workspace_group(page, _repo(next_one)).locator("button.group-toggle")).to_be_focused()
    titles = groups.locator(".group-title .name").all_text_contents()
    assert titles == [_repo(number) for number in range(4967, 0, -TEAMS)]
    violations = axe_violations(page, include="#memories")
    assert violations == [], f"axe-core on a group search: {violations}"

    # Nothing matches: said so; Escape clears the finder and every group is back, page by page.
    finder.fill("no such workspace")
    expect(page.locator("#group-search-status")).to_have_text(
        "No group matches “no such workspace”."
    )
    expect(groups).to_have_count(0)
    finder.press("Escape")
    expect(finder).to_have_value("")
    expect(groups).to_have_count(FIRST_PAGE)
    expect(user_group(page)).to_be_visible()
    expect(page.locator("#group-search-status")).to_have_text("")


def test_a3_a_memory_of_a_group_not_yet_loaded_opens_from_its_address(
    page: Page, service: Service
) -> None:
    _seed_workspaces(service)
    found = service.get(service.agent_path() + f"/memory?limit=1&q={_repo(0)}")
    key = found["scopes"][0]["key"]
    page.goto(f"{MEMORY_TAB}/view/{key}/build.md")
    panel = viewer(page)
    expect(panel.locator("h2")).to_have_text("build")
    expect(panel.locator(".viewer-body")).to_contain_text(f"make {_repo(0)}")
    page.keyboard.press("Escape")
    expect(page).to_have_url(re.compile(re.escape("/agents/demo/memory") + "$"))
    expect(_groups(page)).to_have_count(FIRST_PAGE)
