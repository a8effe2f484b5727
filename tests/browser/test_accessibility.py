"""W-6: an automated accessibility check (axe-core) reports no serious or critical violation on
the agents list, the Memory tab, the drawer, the bottom sheet and the modals, at desktop and
phone sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import axe_violations
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.pages import (
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
from tests.browser.service import Service

pytestmark = pytest.mark.browser

SIZES = pytest.mark.parametrize("size", ["desktop", "phone"])


def _open(open_page: PageFactory, service: Service, size: str) -> Page:
    return open_page(service, DESKTOP if size == "desktop" else PHONE)


def _assert_clean(page: Page, where: str, include: str | None = None) -> None:
    violations = axe_violations(page, include=include)
    assert violations == [], f"axe-core on {where}: {violations}"


@SIZES
def test_w6_agents_list_has_no_serious_axe_violation(
    open_page: PageFactory, service: Service, shot: Shot, size: str
) -> None:
    page = _open(open_page, service, size)
    page.goto("/#/")
    expect(page.locator(".agent-card").first).to_be_visible()
    shot(page, f"w6-axe-agents-{size}")
    _assert_clean(page, f"the agents list ({size})")


@SIZES
def test_w6_memory_tab_has_no_serious_axe_violation(
    open_page: PageFactory, service: Service, shot: Shot, size: str
) -> None:
    page = _open(open_page, service, size)
    open_memory_tab(page)
    expect(workspace_group(page, "shop-api").locator(".row").first).to_be_visible()
    shot(page, f"w6-axe-memory-tab-{size}")
    _assert_clean(page, f"the Memory tab ({size})")


@SIZES
def test_w6_viewer_drawer_and_sheet_have_no_serious_axe_violation(
    open_page: PageFactory, service: Service, shot: Shot, size: str
) -> None:
    page = _open(open_page, service, size)
    open_memory_tab(page)
    row(workspace_group(page, "shop-api"), "deploy-freeze.md").get_by_role(
        "button", name="View"
    ).click()
    expect(viewer(page).locator(".viewer-body")).to_contain_text("Friday")
    wait_viewer_settled(page)
    shot(page, f"w6-axe-viewer-{size}")
    _assert_clean(page, f"the viewer ({size})", "dialog.viewer")
    workspace = workspace_group(page, "data-platform")
    page.keyboard.press("Escape")
    workspace.get_by_role("button", name="Show the index").click()
    expect(viewer(page).locator(".index-lines li").first).to_be_visible()
    wait_viewer_settled(page)
    _assert_clean(page, f"the index view ({size})", "dialog.viewer")


@SIZES
def test_w6_modals_have_no_serious_axe_violation(
    open_page: PageFactory, service: Service, shot: Shot, size: str
) -> None:
    page = _open(open_page, service, size)
    open_memory_tab(page)
    user = user_group(page)
    row(user, "prefers-pnpm.md").get_by_role("button", name="Edit").click()
    expect(page.locator("dialog.bridge")).to_be_visible()
    shot(page, f"w6-axe-edit-modal-{size}")
    _assert_clean(page, f"the Edit modal ({size})", "dialog.bridge")
    page.keyboard.press("Escape")
    user.get_by_role("button", name="Add a memory").click()
    expect(page.locator("dialog.bridge")).to_be_visible()
    _assert_clean(page, f"the Add modal ({size})", "dialog.bridge")
    page.keyboard.press("Escape")
    row(user, "time-zone.md").get_by_role("button", name="Delete").click()
    expect(confirm_dialog(page)).to_be_visible()
    _assert_clean(page, f"the confirm dialog ({size})", "dialog.confirm-dialog")
