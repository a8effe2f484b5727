"""W-5 and Q-2: a memory stacking combining characters on one letter never freezes the page.

A browser lays out a stack of combining characters on one base in time growing with its height
squared (Chromium: 30,000 acute accents on one letter 8 s, 10,000 skin tone modifiers 14 s), and
an agent's file under the 1 MiB read cap holds 300,000: the Memory tab froze for minutes on the
row's description before this was fixed. The page shows a stack's first 30 (Unicode's
stream-safe limit, UAX #15: no text anyone writes stacks more) and then a mark naming how many
more the file holds, wherever it shows what an agent wrote (a row, the viewer's body, an index
line); the file is unchanged.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import MEMORY_TAB, open_memory_tab, row, user_group, viewer
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser

ACUTE = "\u0301"
SKIN_TONE = "\U0001f3fb"
STACK = 200_000
"""Combining characters on one letter: 400 kB of UTF-8; the description and the body, twice
that, lie under a topic file's 1 MiB read cap."""
SHOWN = 30
EVERYDAY = [
    "Tiếng Việt, ệ ở ữ",
    "שָׁלוֹם עֲלֵיכֶם",
    "क्षत्रिय, ज्ञान",
    "👍🏽 🧑🏿‍🚀 🏳️‍🌈",
    "Z̷̢̛a̴̡l̸g̵o̶ lite",
    "e" + ACUTE * SHOWN,
]
"""Texts with combining characters as people write them, the tallest stack at the limit."""


def test_w5_a_stack_of_combining_characters_shows_its_first_30_and_a_mark(
    page: Page, service: Service
) -> None:
    scope = service.scope_dir("user")
    write_topic(
        scope,
        "stacked.md",
        name="stacked",
        description="x" + ACUTE * STACK,
        updated_at="2026-12-05",
        body=f"# Stacked\n\ne{ACUTE * STACK} accents\n\nthumbs 👍{SKIN_TONE * 10_000} up\n",
    )
    index = scope / "MEMORY.md"
    index.write_text(
        index.read_text(encoding="utf-8") + f"- [Stacked](stacked.md) — y{ACUTE * STACK}\n",
        encoding="utf-8",
    )
    more = f"[stacked: {STACK - SHOWN:,} more combining characters]"

    open_memory_tab(page)
    target = row(user_group(page), "stacked.md")
    expect(target.locator(".row-desc")).to_have_text("x" + ACUTE * SHOWN + more)

    target.get_by_role("button", name="View").click()
    body = viewer(page).locator(".viewer-body .md")
    expect(body).to_contain_text("e" + ACUTE * SHOWN + more + " accents")
    expect(body).to_contain_text(f"👍{SKIN_TONE * SHOWN}[stacked: 9,970 more combining characters]")

    page.goto(MEMORY_TAB + "/index/user")
    lines = viewer(page).locator(".index-lines")
    expect(lines).to_contain_text("y" + ACUTE * SHOWN + more)
    assert (scope / "stacked.md").read_text(encoding="utf-8").count(ACUTE) == 2 * STACK


def test_w5_combining_characters_as_people_write_them_show_as_written(
    page: Page, service: Service
) -> None:
    open_memory_tab(page)
    shown = page.evaluate(
        """async (texts) => {
             const url = new URL("static/js/hidden-text.js", document.baseURI);
             const { showHidden } = await import(url.href);
             return texts.map((text) => showHidden(text));
           }""",
        EVERYDAY,
    )
    assert shown == EVERYDAY
