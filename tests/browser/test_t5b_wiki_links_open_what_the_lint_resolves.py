"""T-5b, W-3: a ``[[link]]`` in a body opens the file the lint resolves it to, or shows missing.

The page opened ``[[name]]`` as ``name.md``: ``[[Review Style]]`` and ``[[./prefers-pnpm]]``
(links the lint reads as ``review-style.md`` and ``prefers-pnpm.md``, no finding) opened nothing
("it is not there any more"), and ``[[no-such-note]]`` (a ``dangling-wiki-link``) was a button
to a 404. The service answers the file each link opens (``linkFiles``), as its lint resolves it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import open_memory_tab, row, user_group, viewer
from tests.browser.service import Service, write_topic

pytestmark = pytest.mark.browser


def test_t5b_a_wiki_link_opens_the_file_the_lint_resolves_or_names_it_or_shows_it_missing(
    page: Page, service: Service
) -> None:
    """Three bodies, each with the links of one kind, on one service and one look at the
    Memory tab (each body only read: the links of one never touch another's files).

    - ``links.md``: ``[[Review Style]]`` and ``[[./prefers-pnpm|pnpm]]`` open the topic files
      the lint reads them as, ``[[no-such-note]]`` is shown missing and is no button;
    - ``folder-links.md``: ``[[notes/deploy]]`` names ``notes/deploy.md``, which is there:
      the page names it, never "missing", and offers no button to a topic file it is not;
    - ``bare-links.md``: ``[[feb]]`` with no topic file so named opens
      ``archive/2026/feb.md``, as Obsidian does for a name unique in the vault and as the lint
      reads it (no ``dangling-wiki-link``): the page names that note, never "missing".
    """
    scope = service.scope_dir("user")
    (scope / "notes").mkdir()
    (scope / "notes" / "deploy.md").write_text("the long notes\n", encoding="utf-8")
    (scope / "archive" / "2026").mkdir(parents=True)
    (scope / "archive" / "2026" / "feb.md").write_text("February\n", encoding="utf-8")
    for file, description, text in (
        (
            "links.md",
            "links written as people write them",
            "See [[Review Style]], [[./prefers-pnpm|pnpm]] and [[no-such-note]].\n",
        ),
        (
            "folder-links.md",
            "a link into a sub-folder",
            "See [[notes/deploy|the deploy notes]] and [[notes/gone]].\n",
        ),
        (
            "bare-links.md",
            "a bare name of a note in a sub-folder",
            "See [[feb|February's notes]] and [[mar]].\n",
        ),
    ):
        write_topic(
            scope, file, name=file[:-3], description=description, updated_at="2026-12-01", body=text
        )
    open_memory_tab(page)
    panel = viewer(page)
    body = panel.locator(".viewer-body")

    row(user_group(page), "links.md").get_by_role("button", name="View").click()
    missing = body.locator(".wikilink.missing")
    expect(missing).to_have_text("[[no-such-note]]")
    expect(missing).to_have_attribute("title", "[[no-such-note]] names no topic file of this scope")
    assert body.get_by_role("button", name="no-such-note").count() == 0
    body.get_by_role("button", name="Review Style").click()
    expect(panel.locator("h2")).to_have_text("review-style")
    page.keyboard.press("Escape")
    row(user_group(page), "links.md").get_by_role("button", name="View").click()
    body.get_by_role("button", name="pnpm").click()
    expect(panel.locator("h2")).to_have_text("prefers-pnpm")
    page.keyboard.press("Escape")
    expect(panel).not_to_have_attribute("open", "")

    row(user_group(page), "folder-links.md").get_by_role("button", name="View").click()
    expect(panel.locator("h2")).to_have_text("folder-links")
    there = body.locator(".wikilink.in-folder")
    expect(there).to_have_text("the deploy notes")
    expect(there).to_have_attribute("title", "notes/deploy.md, in a sub-folder of this scope")
    expect(body.locator(".wikilink.missing")).to_have_text("[[notes/gone]]")
    assert body.get_by_role("button", name="the deploy notes").count() == 0
    page.keyboard.press("Escape")
    expect(panel).not_to_have_attribute("open", "")

    row(user_group(page), "bare-links.md").get_by_role("button", name="View").click()
    expect(panel.locator("h2")).to_have_text("bare-links")
    expect(there).to_have_text("February's notes")
    expect(there).to_have_attribute("title", "archive/2026/feb.md, in a sub-folder of this scope")
    expect(body.locator(".wikilink.missing")).to_have_text("[[mar]]")


def test_t5b_a_link_past_the_walks_bound_says_so_on_the_page(page: Page, service: Service) -> None:
    """The service's walk of the sub-folders stops at 10,000 entries: a ``[[2026/Feb]]`` whose
    note lies past them is shown missing with what the lint says of it (not looked up that
    far), never "names no topic file"."""
    scope = service.scope_dir("user")
    (scope / "archive").mkdir()
    for number in range(10_001):
        (scope / "archive" / f"old-{number}.md").write_bytes(b"")
    (scope / "zz" / "2026").mkdir(parents=True)
    (scope / "zz" / "2026" / "feb.md").write_text("February\n", encoding="utf-8")
    write_topic(
        scope,
        "links.md",
        name="links",
        description="a link past the walk's bound",
        updated_at="2026-12-01",
        body="See [[2026/Feb]].\n",
    )
    open_memory_tab(page)
    row(user_group(page), "links.md").get_by_role("button", name="View").click()
    missing = viewer(page).locator(".viewer-body .wikilink.missing")
    expect(missing).to_have_text("[[2026/Feb]]")
    expect(missing).to_have_attribute(
        "title",
        "[[2026/Feb]] was not found: this scope's sub-folders were not looked up past 10,000 "
        "entries",
    )
