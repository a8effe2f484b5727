"""T-5b on the web page: two memories whose names are drawn alike from letters of other scripts
(``prefers-pnpm.md`` and ``prefers-pnрm.md`` with a Cyrillic ``р``) each carry a look-alike
finding that names the other and the character that differs; the page shows lint findings as
the service words them, so it needs nothing of its own for this one.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import open_memory_tab, row, user_group, viewer
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser

LATIN = "prefers-pnpm.md"
CYRILLIC = "prefers-pn\u0440m.md"  # U+0440 CYRILLIC SMALL LETTER ER for the second p


def test_t5b_names_drawn_alike_across_scripts_show_their_finding(
    page: Page, service: Service
) -> None:
    for file_name in (LATIN, CYRILLIC):
        write_topic(
            service.scope_dir("user"),
            file_name,
            name="prefers-pnpm",
            description="the user installs with pnpm",
            updated_at="2026-12-01",
            body="Use pnpm, not npm.\n",
        )
    open_memory_tab(page)
    target = row(user_group(page), CYRILLIC)
    badge = target.locator("button.findings-btn")
    expect(badge).to_have_class("badge findings-btn sev-warning")

    badge.click()
    expect(page).to_have_url(re.compile(re.escape(quote(CYRILLIC, safe="")) + "$"))
    finding = viewer(page).locator('.finding[data-code="look-alike-names"]')
    expect(finding).to_contain_text("warning")
    expect(finding).to_contain_text(f"'{LATIN}'")
    said = "U+0440 CYRILLIC SMALL LETTER ER '\u0440', which looks like 'p'"
    expect(finding).to_contain_text(said)
    expect(user_group(page).locator('.lint[data-code="look-alike-names"]')).to_have_text(
        "2 look-alike file names"
    )
