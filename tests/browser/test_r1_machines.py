"""R-1 on the page: each scope names the machines keeping a local copy and when each synced."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from harness_memory.remote import RemoteCopy, machine_identity
from playwright.sync_api import Page, expect

from tests.browser.pages import open_memory_tab, user_group
from tests.browser.service import Service

pytestmark = pytest.mark.browser


def test_r1_the_user_scope_names_the_machine_that_synced_it(
    page: Page, service: Service, tmp_path: Path
) -> None:
    copy = RemoteCopy(
        url=service.base_url,
        token=service.token,
        project="demo",
        agent="demo",
        state_dir=tmp_path / "laptop",
        timeout=30.0,
    )
    [result] = copy.sync(None)
    assert result.ok, result.as_json()
    _, name = machine_identity(copy.remote_dir)
    [scope] = service.get(service.agent_path() + "/memory/machines")["scopes"]
    principal = scope["machines"][0]["principal"]
    open_memory_tab(page)
    badge = user_group(page).locator(".machines")
    expect(badge).to_contain_text(f"Synced on {name} (")
    pattern = rf"^{re.escape(name)} \({re.escape(principal)}\): last sync \d{{4}}-"
    expect(badge).to_have_attribute("title", re.compile(pattern))


def test_r1_two_machines_of_one_host_name_are_told_apart_by_their_ids(
    page: Page, service: Service, tmp_path: Path
) -> None:
    """Two machines named alike (containers, VMs made from one image: both ``vm``) read as one
    machine listed twice; where names repeat, each carries the start of its id: the shortest
    start, of at least 6 hex digits, that tells it from the others (ids alike in their first 6
    read as one machine again)."""
    shown = []
    for machine, machine_id in (
        ("laptop", "0c2c16a1" + "0" * 24),
        ("desktop", "0c2c16a2" + "0" * 24),
    ):
        remote_dir = tmp_path / machine / "remote"
        remote_dir.mkdir(parents=True)
        (remote_dir / "machine-id").write_text(machine_id + "\n", encoding="ascii")
        copy = RemoteCopy(
            url=service.base_url,
            token=service.token,
            project="demo",
            agent="demo",
            state_dir=tmp_path / machine,
            timeout=30.0,
        )
        [result] = copy.sync(None)
        assert result.ok, result.as_json()
        assert copy.machine_id == machine_id
        shown.append(f"{copy.machine[1]} #{machine_id[:8]}")
    open_memory_tab(page)
    badge = user_group(page).locator(".machines")
    for label in shown:
        expect(badge).to_contain_text(f"{label} (")
        expect(badge).to_have_attribute("title", re.compile(rf"{label} \("))
