"""W-3 Delete: confirm, then the row and its index line are gone (A-6 prunes the index)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Shot, confirm_dialog, open_memory_tab, row, user_group, viewer
from tests.browser.service import ApiFailure, Service, write_topic

pytestmark = pytest.mark.browser


def _index_text(service: Service, key: str) -> str:
    return str(service.get(service.agent_path() + f"/memory/scopes/{key}/index")["raw"])


def _delete_beside_an_index_that_is_a_folder(page: Page, service: Service) -> None:
    """Step 3: ``MEMORY.md`` made a folder, ``review-style.md`` deleted from its row: refused."""
    scope = service.scope_dir("user")
    index = scope / "MEMORY.md"
    group = user_group(page)
    index.unlink()
    index.mkdir()
    page.reload()
    open_memory_tab(page)
    beside = row(group, "review-style.md")
    beside.get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()
    toast = page.locator(".toast.error")
    expect(toast).to_contain_text("Could not delete review-style.md")
    expect(toast).to_contain_text("MEMORY.md is a folder, not a file")
    expect(toast).to_contain_text("nothing changed")
    expect(beside).to_be_visible()
    assert (scope / "review-style.md").exists()
    assert index.is_dir()


def test_w3_delete_confirms_then_the_row_and_its_index_line_are_gone(
    page: Page, service: Service, shot: Shot
) -> None:
    """Three deletes on one service, each of a file the others leave alone:

    1. from its row, after a confirm (Cancel keeps everything): the row and its index line
       go, the file answers 404;
    2. from the viewer, of a file with a space in its name (its index line written
       ``Deploy%20notes.md``, and linking ``extra.md`` too): the viewer closes, the row, the
       line and the file go, and the toast says ``extra.md`` is no longer in the index (A-6:
       its only entry went with the line, never silently);
    3. A-6, beside a ``MEMORY.md`` that is a folder (or a symlink out of the memory root),
       never read or rewritten: the delete is refused (409, all or nothing), the row and the
       file stay, and the error toast says why.
    """
    scope = service.scope_dir("user")
    assert "time-zone.md" in _index_text(service, "user")
    open_memory_tab(page)
    group = user_group(page)
    target = row(group, "time-zone.md")

    # Cancel keeps everything.
    target.get_by_role("button", name="Delete").click()
    dialog = confirm_dialog(page)
    expect(dialog).to_contain_text("time-zone.md")
    shot(page, "w3-delete-confirm")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(target).to_be_visible()

    target.get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()
    expect(target).to_have_count(0)
    expect(group.locator(".row")).to_have_count(3)
    expect(group.locator(".count")).to_have_text("3 memories")
    expect(page.locator(".toast")).to_contain_text("Deleted time-zone.md")
    shot(page, "w3-deleted")

    assert "time-zone.md" not in _index_text(service, "user")
    with pytest.raises(ApiFailure) as missing:
        service.get(service.agent_path() + "/memory/scopes/user/files/time-zone.md")
    assert missing.value.status == 404

    # 2. From the viewer, a name with a space.
    write_topic(
        scope,
        "Deploy notes.md",
        name="deploy-notes",
        description="how deploys go",
        updated_at="2026-11-20",
        body="Body.\n",
    )
    write_topic(
        scope, "extra.md", name="extra", description="more", updated_at="2026-11-20", body="X\n"
    )
    index = scope / "MEMORY.md"
    index.write_text(
        index.read_text(encoding="utf-8")
        + "- [Deploy notes](Deploy%20notes.md) — how deploys go, see [Extra](extra.md)\n",
        encoding="utf-8",
    )
    page.reload()  # the listing read anew
    open_memory_tab(page)
    spaced = row(group, "Deploy notes.md")
    spaced.get_by_role("button", name="View").click()
    expect(viewer(page).locator(".viewer-body")).to_contain_text("Body.")
    viewer(page).get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()
    expect(viewer(page)).not_to_have_attribute("open", "")
    expect(spaced).to_have_count(0)
    expect(page.locator(".toast").last).to_contain_text("extra.md is no longer in the index")
    assert "Deploy%20notes.md" not in _index_text(service, "user")
    assert not (scope / "Deploy notes.md").exists()

    _delete_beside_an_index_that_is_a_folder(page, service)
