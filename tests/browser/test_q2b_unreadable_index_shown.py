"""Q-2b, I-3 on the web page: an index the service cannot read is never shown as no index.

The user scope's ``MEMORY.md`` (or its scope folder) made another account's (mode ``0600``,
refused by the kernel for real), "Show the index" said "This scope has no index yet: the
model is told nothing is saved." under the ``unreadable`` finding: the answer's
``manifest.unreadable`` was not read, and a Session is in fact told the index cannot be read
(I-3). Right: the panel says the index
is there but the service cannot read it, with the reason, and never "no index yet".
"""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import MEMORY_TAB, PageFactory, viewer
from tests.browser.service import Service
from tests.browser.test_q2b_unkept_files import NOBODY, refused_service

pytestmark = pytest.mark.browser

__all__ = ["refused_service"]


SAID = {
    "index": "MEMORY.md is there, but the service cannot read it (Permission denied)",
    "scope-folder": (
        "The service cannot read its scope folder (Permission denied), so whether MEMORY.md "
        "is there cannot be told"
    ),
}
"""What the panel says when the index, or the scope folder holding it, is another account's."""


BADGE = {
    0o711: (
        "Folder cannot be listed: the service cannot list it (Permission denied)",
        "its index is still read",
    ),
    0o700: (
        "Folder cannot be read: the service cannot read it (Permission denied)",
        "nothing in it",
    ),
}
"""The scope's folder badge and what its title says is lost, per mode of a folder another
account keeps: one the service may enter but not list (``0711``), one it may not enter."""


def expect_badge(page: Page, mode: int) -> None:
    """The Memory tab, opened anew, shows the user scope's folder badge :data:`BADGE` gives for
    a folder of ``mode`` another account keeps."""
    page.goto("about:blank")
    page.goto(MEMORY_TAB)
    text, title = BADGE[mode]
    badge = page.locator('.group[data-scope="user"] .badge-danger').first
    expect(badge).to_have_text(text)
    expect(badge).to_have_attribute("title", re.compile(re.escape(title)))


def expect_index_said(page: Page, refused: str) -> None:
    """The user scope's "Show the index", opened anew, says :data:`SAID` of ``refused``: the
    index is there, or may be, and a Session is told it cannot be read, never "no index yet"."""
    page.goto("about:blank")
    page.goto(f"{MEMORY_TAB}/index/user")
    state = viewer(page).locator(".state")
    expect(state).to_contain_text(SAID[refused])
    expect(state).to_contain_text("a Session is told so, never that nothing is saved")
    expect(state).not_to_contain_text("no index yet")


def test_q2b_an_index_or_folder_the_service_cannot_read_is_never_shown_as_no_index(
    open_page: PageFactory, refused_service: Service
) -> None:
    """One service, the user scope refused a step further before each look:

    1. its ``MEMORY.md`` another account's (``0600``): the index panel says it is there but
       cannot be read;
    2. its folder another account's (``0700``, the index the service's again): the index panel
       says whether ``MEMORY.md`` is there cannot be told, and the badge "cannot be read";
    3. its folder one the service may enter but not list (``0711``): the index is still read
       and injected, so the badge says it cannot be listed, never that it cannot be read
       (which reads as nothing in it reaching the model).
    """
    folder = refused_service.scope_dir("user")
    index = folder / "MEMORY.md"
    page = open_page(refused_service)
    was = index.stat()

    os.chown(index, NOBODY, NOBODY)
    index.chmod(0o600)
    expect_index_said(page, "index")

    os.chown(index, was.st_uid, was.st_gid)
    index.chmod(was.st_mode)
    os.chown(folder, NOBODY, NOBODY)
    folder.chmod(0o700)
    expect_index_said(page, "scope-folder")
    expect_badge(page, 0o700)

    folder.chmod(0o711)
    expect_badge(page, 0o711)
