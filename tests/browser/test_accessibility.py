"""W-6: an automated accessibility check (axe-core, from npm) reports no serious or critical
violation on the agents list, the Memory tab, the drawer / bottom sheet (a memory, an index,
findings) and the modals (Edit, Add, a confirm), at desktop and phone sizes.

One walk per size through every state, on one service, keeps the check to a few runs of axe;
the walks open, check and close (the delete is cancelled), so both sizes use the worker's shared
``read_only_service``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import axe_violations
from tests.browser.conftest import DESKTOP, PHONE
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
from tests.browser.service import Service

pytestmark = pytest.mark.browser


def _assert_clean(page: Page, where: str, include: str | None = None) -> None:
    violations = axe_violations(page, include=include)
    assert violations == [], f"axe-core on {where}: {violations}"


def _check_viewer_states(page: Page, size: str, shot: Shot) -> None:
    panel = viewer(page)
    row(workspace_group(page, "shop-api"), "deploy-freeze.md").get_by_role(
        "button", name="View"
    ).click()
    expect(panel.locator(".viewer-body")).to_contain_text("Friday")
    wait_viewer_settled(page)
    shot(page, f"w6-axe-viewer-{size}")
    _assert_clean(page, f"a memory in the viewer ({size})", "dialog.viewer")

    page.goto(
        MEMORY_TAB + "/index/" + str(page.locator(".group").nth(2).get_attribute("data-scope"))
    )
    expect(panel.locator(".index-lines li").first).to_be_visible()
    _assert_clean(page, f"an index in the viewer ({size})", "dialog.viewer")

    shop = page.locator(".group").filter(has=page.locator(".name", has_text="shop-api"))
    page.goto(MEMORY_TAB + "/findings/" + str(shop.get_attribute("data-scope")))
    expect(panel.locator(".finding").first).to_be_visible()
    shot(page, f"w6-axe-findings-{size}")
    _assert_clean(page, f"the findings panel ({size})", "dialog.viewer")
    page.keyboard.press("Escape")
    expect(panel).not_to_have_attribute("open", "")


def _check_modals(page: Page, size: str, shot: Shot) -> None:
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
    page.keyboard.press("Escape")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_w6_axe_finds_nothing_serious_on_any_page_panel_or_modal(
    open_page: PageFactory, read_only_service: Service, shot: Shot, size: str
) -> None:
    page = open_page(read_only_service, DESKTOP if size == "desktop" else PHONE)
    page.goto("/#/")
    expect(page.locator(".agent-card").first).to_be_visible()
    shot(page, f"w6-axe-agents-{size}")
    _assert_clean(page, f"the agents list ({size})")

    open_memory_tab(page)
    expect(workspace_group(page, "shop-api").locator(".row").first).to_be_visible()
    shot(page, f"w6-axe-memory-tab-{size}")
    _assert_clean(page, f"the Memory tab ({size})")

    _check_viewer_states(page, size, shot)
    _check_modals(page, size, shot)
