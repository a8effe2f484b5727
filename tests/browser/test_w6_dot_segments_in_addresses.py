"""W-6: an address whose project, agent, scope or file is ``.`` or ``..`` names nothing.

The page built its API paths from the address's parts, percent-encoded; but a URL resolves a
``..`` segment (``%2e%2e`` too) as "up", so ``#/projects/../agents/demo/memory`` asked
``/api/agents/demo/config``, and ``…/memory/history/user/..`` asked the scope's
``…/scopes/user/history`` instead of a file's: a link someone sent turned the page's requests
(a Delete, a Restore, a checkpoint among them) into another route's. No project, agent, scope
or file can be called ``.`` or ``..``, so such an address is no page, and nothing is asked.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Request, expect

from tests.browser.pages import MEMORY_TAB, PageFactory
from tests.browser.service import Service

pytestmark = pytest.mark.browser

ADDRESSES = [
    "/#/projects/../agents/demo/memory",
    "/#/projects/demo/agents/../memory",
    "/#/projects/demo/agents/%2e%2e/prompt",
    f"{MEMORY_TAB}/view/user/..",
    f"{MEMORY_TAB}/history/user/..",
    f"{MEMORY_TAB}/changes/..",
    f"{MEMORY_TAB}/view/./notes.md",
]


def test_w6_an_address_naming_dot_or_dot_dot_is_no_page_and_asks_nothing(
    open_page: PageFactory, read_only_service: Service
) -> None:
    """Each address opened anew in one page (the worker's shared demo service: only addresses
    are opened, nothing is saved); any request past ``/api/me`` fails the test."""
    page = open_page(read_only_service)
    asked: list[str] = []

    def note(request: Request) -> None:
        path = urlsplit(request.url).path
        if path.startswith("/api/"):
            asked.append(f"{request.method} {path}")

    page.on("request", note)
    for address in ADDRESSES:
        page.goto("about:blank")  # a fresh load of the page for each address
        asked.clear()
        page.goto(address)
        expect(page.locator("main")).to_contain_text("There is no page at this address.")
        expect(page.locator(".me-name")).to_be_visible()  # the caller is shown: all asks done
        assert asked == ["GET /api/me"], address
