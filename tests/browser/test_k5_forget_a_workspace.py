"""K-5, W-3: a Workspace group has Forget: a group with memories says to delete them first; an
empty one asks to confirm, then leaves the list, the focus on the group that took its place."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import confirm_dialog, open_memory_tab, workspace_group
from tests.browser.service import Service

pytestmark = pytest.mark.browser


def test_k5_forget_an_empty_workspace_after_a_confirm(
    page: Page, service: Service, tmp_path: Path
) -> None:
    checkout = tmp_path / "readme-checkout"
    checkout.mkdir()
    scope = service.add_workspace_scope(os.path.realpath(checkout))
    open_memory_tab(page)

    workspace_group(page, "shop-api").locator(".forget-btn").click()
    expect(page.locator(".toast.error")).to_contain_text("delete them first")
    expect(confirm_dialog(page)).to_have_count(0)

    group = workspace_group(page, "readme-checkout")
    group.locator(".forget-btn").click()
    expect(confirm_dialog(page)).to_contain_text(os.path.realpath(checkout))
    confirm_dialog(page).get_by_role("button", name="Forget").click()

    expect(group).to_have_count(0)
    expect(page.locator(".toast").last).to_contain_text("Forgot the Workspace memory")
    expect(page.locator(":focus")).to_have_class("group-toggle")
    assert not scope.exists()
