"""W-3 Delete: confirm, then the row and its index line are gone (A-6 prunes the index)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import Shot, confirm_dialog, open_memory_tab, row, user_group, viewer
from tests.browser.service import ApiFailure, Service, write_topic

pytestmark = pytest.mark.browser


def _index_text(service: Service, key: str) -> str:
    return str(service.get(service.agent_path() + f"/memory/scopes/{key}/index")["raw"])


def test_w3_delete_confirms_then_the_row_and_its_index_line_are_gone(
    page: Page, service: Service, shot: Shot
) -> None:
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


def test_w3_delete_from_the_viewer_of_a_file_with_a_space_in_its_name(
    page: Page, service: Service
) -> None:
    scope = service.scope_dir("user")
    write_topic(
        scope,
        "Deploy notes.md",
        name="deploy-notes",
        description="how deploys go",
        updated_at="2026-11-20",
        body="Body.\n",
    )
    index = scope / "MEMORY.md"
    index.write_text(
        index.read_text(encoding="utf-8")
        + "- [Deploy notes](Deploy%20notes.md) — how deploys go\n",
        encoding="utf-8",
    )
    open_memory_tab(page)
    target = row(user_group(page), "Deploy notes.md")
    target.get_by_role("button", name="View").click()
    expect(viewer(page).locator(".viewer-body")).to_contain_text("Body.")
    viewer(page).get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()
    expect(viewer(page)).not_to_have_attribute("open", "")
    expect(target).to_have_count(0)
    assert "Deploy%20notes.md" not in _index_text(service, "user")
    assert not (scope / "Deploy notes.md").exists()


def test_w3_a_delete_beside_an_index_that_is_a_folder_says_its_line_was_not_removed(
    page: Page, service: Service
) -> None:
    """A-6: ``MEMORY.md`` a folder (or a symlink out of the memory root) is never read or
    rewritten; the file goes, and the toast says its index line was not removed and why
    (the answer's ``indexProblem``), never a calm "Deleted"."""
    scope = service.scope_dir("user")
    index = scope / "MEMORY.md"
    index.unlink()
    index.mkdir()
    open_memory_tab(page)
    target = row(user_group(page), "time-zone.md")

    target.get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()

    expect(target).to_have_count(0)
    toast = page.locator(".toast.error")
    expect(toast).to_contain_text("Deleted time-zone.md, but its index line was not removed")
    expect(toast).to_contain_text("MEMORY.md is a folder, not a file")
    assert not (scope / "time-zone.md").exists()
    assert index.is_dir()
