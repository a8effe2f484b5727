"""Q-2b, V-1, V-2 on the web page: a topic file the history cannot keep as it is now — the service
cannot read it (another account's, mode 0600), or it is over its 1 MiB read cap — is never
offered an action the service refuses. Its History says why it cannot be recorded and offers
neither "Record it now" (a checkpoint takes every other file, never this one) nor "Restore this
version" (503); its Delete says why and sends nothing; and a delete the service refuses all the
same (the file grew past the cap after the page was drawn) shows the 409's detail, whole.

The unreadable file is refused by the kernel for real: as root the service runs under
``setpriv`` without the capabilities that bypass file permissions, as in
``tests/security/test_q2b_unreadable_memory_files_for_real.py``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHAT_URL, MODULE_DATA_DIR, SeededDataDirs
from tests.browser.pages import (
    MEMORY_TAB,
    PageFactory,
    confirm_dialog,
    open_memory_tab,
    row,
    user_group,
    viewer,
)
from tests.browser.service import Service
from tests.support.refused_account import refused_prefix
from tests.support.serve import serve

pytestmark = pytest.mark.browser

NOBODY = 65534
FILE = "prefers-pnpm.md"
WHY = {
    "unreadable": "the service cannot read it (Permission denied)",
    "over-cap": "it is larger than 1 MiB",
}
"""What the page says of each kind of file (its history's ``unrecordable``, its listing row's
problem: both begin so)."""
HISTORY_WHY = {
    "unreadable": "(the service cannot read it (Permission denied))",
    "over-cap": "(it is larger than 1 MiB (its read cap))",
}
"""Why, as the History note says it: the history's own ``unrecordable``, not the listing's."""
WHY_RE = {kind: re.compile(re.escape(why)) for kind, why in WHY.items()}


@pytest.fixture
def refused_service(seeded_data_dirs: SeededDataDirs) -> Iterator[Service]:
    """The demo service, run without the capabilities that bypass file permissions, over a
    fresh demo data dir (seeded once per worker, then copied: :class:`SeededDataDirs`)."""
    extra = {"MEMORY_API_CHAT_URL": CHAT_URL}
    data_dir = seeded_data_dirs.fresh(MODULE_DATA_DIR, extra)
    env = {**os.environ, "MEMORY_API_LOG_LEVEL": "WARNING", **extra}
    served = serve(data_dir, env, command_prefix=refused_prefix())
    try:
        yield Service(served)
    finally:
        served.stop()


def _unkeep(service: Service, kind: str, file: str = FILE) -> Path:
    """Make ``file`` of the user scope one the history cannot keep: another account's (mode
    0600), or 1 MiB longer than it was. Returns its path."""
    path = service.scope_dir("user") / file
    if kind == "unreadable":
        os.chown(path, NOBODY, NOBODY)
        path.chmod(0o600)
    else:
        with path.open("a", encoding="utf-8") as grown:
            grown.write("x" * (1 << 20) + "\n")
    return path


def _checkpoint(service: Service) -> None:
    service.call("POST", f"{service.agent_path()}/memory/scopes/user/checkpoint")


UNKEPT = {"unreadable": FILE, "over-cap": "review-style.md"}
"""The file of the user scope made one the history cannot keep, per kind."""


def test_q2b_files_the_history_cannot_keep_are_offered_no_record_restore_or_delete(
    open_page: PageFactory, refused_service: Service
) -> None:
    """On one service (each step on files no other step touches):

    1. a file of each kind (:data:`UNKEPT`): its History says why it cannot be recorded and
       offers neither "Record it now" nor "Restore this version"; its Delete says why and
       sends nothing;
    2. a file whose row was drawn while it could be kept, grown past the cap since: the delete
       is refused (409) and the page shows why, in the service's words, and keeps the row;
    3. the index made unreadable: its History offers no record or restore either.
    """
    service = refused_service
    _checkpoint(service)  # every file has a version: Restore would be offered for it
    paths = {kind: _unkeep(service, kind, file) for kind, file in UNKEPT.items()}
    sizes = {kind: path.stat().st_size for kind, path in paths.items()}
    page = open_page(service)
    panel = viewer(page)

    for kind, file in UNKEPT.items():
        page.goto(MEMORY_TAB + f"/history/user/{file}")
        note = panel.locator(".unkept-note")
        expect(note).to_contain_text(f"The history cannot keep {file} as it is now")
        expect(note).to_contain_text(HISTORY_WHY[kind])
        expect(note).to_contain_text("cannot be recorded")
        expect(panel.get_by_role("button", name="Record it now")).to_have_count(0)
        version = panel.locator("li.version").first
        expect(version).not_to_contain_text("Current")
        version.locator(".version-toggle").click()
        expect(version.locator(".unkept-restore")).to_contain_text(WHY[kind])
        expect(version.get_by_role("button", name="Restore this version")).to_have_count(0)

    open_memory_tab(page)
    for kind, file in UNKEPT.items():
        delete = row(user_group(page), file).get_by_role("button", name="Delete")
        expect(delete).to_have_attribute("aria-disabled", "true")
        expect(delete).to_have_attribute("title", WHY_RE[kind])
        # it stays focusable and says why when pressed (Playwright never clicks aria-disabled)
        delete.focus()
        page.keyboard.press("Enter")
        said = page.locator(".toast.error").filter(has_text=f"cannot keep {file} as it is now")
        expect(said).to_be_visible()
        expect(confirm_dialog(page)).to_have_count(0)
    # nothing was sent: the files are as they were
    assert {kind: path.stat().st_size for kind, path in paths.items()} == sizes

    # 2. Refused by the service all the same: the 409's detail, whole.
    target = row(user_group(page), "time-zone.md")
    grown = _unkeep(service, "over-cap", "time-zone.md")
    target.get_by_role("button", name="Delete").click()
    confirm_dialog(page).get_by_role("button", name="Delete").click()
    toast = page.locator(".toast.error").filter(has_text="Could not delete time-zone.md")
    expect(toast).to_contain_text(
        "Could not delete time-zone.md: 'time-zone.md' was not deleted: the history cannot keep"
    )
    expect(toast).to_contain_text("larger than its read cap")
    expect(toast).to_contain_text("nothing changed")
    expect(target).to_be_visible()
    assert grown.exists()

    # 3. The index the service cannot read.
    index = _unkeep(service, "unreadable", "MEMORY.md")
    page.goto(MEMORY_TAB + "/history/user/MEMORY.md")
    note = panel.locator(".unkept-note")
    expect(note).to_contain_text("The history cannot keep MEMORY.md as it is now")
    expect(note).to_contain_text("Permission denied")
    expect(panel.get_by_role("button", name="Record it now")).to_have_count(0)
    version = panel.locator("li.version").first
    version.locator(".version-toggle").click()
    expect(version.locator(".unkept-restore")).to_contain_text("Permission denied")
    expect(version.get_by_role("button", name="Restore this version")).to_have_count(0)
    assert index.stat().st_uid == NOBODY
