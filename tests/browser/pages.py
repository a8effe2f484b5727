"""Locators for the web page, so the tests read like the spec rather than like CSS."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from tests.browser.service import Service

Shot = Callable[[Page, str], Path]
"""``shot(page, name)`` saves ``artifacts/screenshots/<name>.png``."""
PageFactory = Callable[..., Page]
"""``open_page(service, viewport=DESKTOP)`` opens a page in a fresh browser context."""
ServiceFactory = Callable[..., Service]
"""``make_service(token=None, env=None)`` starts a seeded service on a free port."""

MEMORY_TAB = "/#/projects/demo/agents/demo/memory"
PROMPT_TAB = "/#/projects/demo/agents/demo/prompt"


def open_memory_tab(page: Page) -> None:
    """Go to the demo agent's Memory tab and wait until the user scope's rows are shown and
    every expanded group has stopped loading (see :func:`wait_groups_settled`)."""
    page.goto(MEMORY_TAB)
    expect(user_group(page).locator(".row").first).to_be_visible()
    wait_groups_settled(page)


def wait_groups_settled(page: Page) -> None:
    """Wait until no group body is ``aria-busy``: every expanded group has its listing and has
    rendered all its rows. Until then a group above can still grow and move the rows below it
    from under a click."""
    expect(page.locator(".group-body[aria-busy]")).to_have_count(0)


def user_group(page: Page) -> Locator:
    """The user scope's group."""
    return page.locator('.group[data-kind="user"]')


def workspace_group(page: Page, title: str) -> Locator:
    """The group of the Workspace whose basename is ``title``."""
    return page.locator('.group[data-kind="workspace"]').filter(
        has=page.locator(".group-title .name", has_text=title)
    )


def group_toggle(group: Locator) -> Locator:
    """The header button that collapses and expands ``group``."""
    return group.locator("button.group-toggle")


def row(group: Locator, file: str) -> Locator:
    """The row of topic file ``file`` in ``group``."""
    return group.locator(f'.row[data-file="{file}"]')


def viewer(page: Page) -> Locator:
    """The View panel (drawer on desktop, bottom sheet on a phone)."""
    return page.locator("dialog.viewer")


def wait_viewer_settled(page: Page) -> None:
    """Wait until the viewer's open animation (slide-in) has finished, so its box is final."""
    page.wait_for_function(
        "() => document.querySelector('dialog.viewer').getAnimations().length === 0"
    )


def confirm_dialog(page: Page) -> Locator:
    """The open confirm dialog."""
    return page.locator("dialog.confirm-dialog[open]")
