"""W-1: the agents list — one card per agent with its memory count, deep-linking to Memory.

The tests that only look use the worker's shared demo service (``read_only_service``); a test
that changes an agent takes a service of its own (``service``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from memory_api.store.agents import NOT_A_FILE_FIX
from memory_core import layout
from playwright.sync_api import Page, expect

from tests.browser.pages import PageFactory, Shot, user_group
from tests.browser.service import Service

pytestmark = pytest.mark.browser


def test_w1_card_shows_the_memory_count_and_deep_links_to_the_memory_tab(
    open_page: PageFactory, read_only_service: Service, shot: Shot
) -> None:
    service = read_only_service
    page = open_page(service)
    agents = service.get("/api/projects/demo/agents")["agents"]
    count = next(agent["memoryCount"] for agent in agents if agent["id"] == "demo")
    assert count > 300  # the user scope plus both seeded Workspaces

    page.goto("/")
    card = page.locator('.agent-card[data-agent="demo"]')
    expect(card).to_have_count(1)
    expect(card.locator("h3")).to_have_text("Demo agent")
    link = card.locator("a.memory-count")
    expect(link).to_have_text(f"{count:,} memories")
    shot(page, "w1-agents-list")

    link.click()
    expect(page).to_have_url(service.url("/#/projects/demo/agents/demo/memory"))
    expect(page.locator('.tabs a[aria-current="page"]')).to_have_text("Memory")
    expect(user_group(page).locator(".row")).to_have_count(4)


def test_w1_project_route_lists_that_projects_agents(
    open_page: PageFactory, read_only_service: Service
) -> None:
    page = open_page(read_only_service)
    page.goto("/#/projects/demo")
    expect(page.locator("h1")).to_have_text("Agents of demo")
    expect(page.locator(".agent-card")).to_have_count(1)


def test_w1_unknown_agent_says_so_in_the_page_s_words(
    open_page: PageFactory, read_only_service: Service
) -> None:
    page = open_page(read_only_service)
    page.goto("/#/projects/demo/agents/nobody/memory")
    expect(page.get_by_role("heading", level=1)).to_have_text("No agent “nobody” in project demo")
    expect(page.locator("main")).not_to_contain_text("no agent 'nobody'")  # the API's words
    page.get_by_role("link", name="Agents of demo").click()
    expect(page.locator(".agent-card")).to_have_count(1)


def test_w1_unknown_project_is_not_a_project_without_agents(
    open_page: PageFactory, read_only_service: Service
) -> None:
    page = open_page(read_only_service)
    page.goto("/#/projects/nowhere")
    expect(page.get_by_role("heading", level=1)).to_have_text("No project “nowhere”")
    expect(page.locator("main")).not_to_contain_text("No agents in this project yet")
    page.get_by_role("link", name="All agents").click()
    expect(page.locator(".agent-card")).to_have_count(1)


def test_w1_what_the_service_cannot_read_is_named_never_dropped_or_counted_as_nothing(
    page: Page, service: Service, tmp_path: Path
) -> None:
    """One service, its data dir broken a step further before each look at the agents list:

    1. A-3: notes copied into the memory root by hand (a folder not named like a scope) and a
       stray file were skipped silently; the card says how many and names each in its title.
    2. Q-2b: an agent whose agent.json is a folder (as unreadable as a file of another
       account) has no project the service knows, so the page names it apart, with why,
       instead of dropping it.
    3. Q-2b: an operator moved the agent's memory root to another disk and left a symlink in
       its place, which the service never follows (A-7): the card said "0 memories". It says
       the count is unknown, and why.
    4. Q-2b: the only agent's agent.json cannot be read: the page said "No agents yet. Create
       one with …"; it names the agent instead.
    """
    root = layout.memory_root(service.data_dir, "demo")
    (root / "notes").mkdir()
    (root / "todo.txt").write_text("x\n", encoding="utf-8")
    (root / "user\u200b").mkdir()  # I-9: looks like the user scope; its mark shows it is not
    page.goto("/")
    card = page.locator('.agent-card[data-agent="demo"]')
    badge = card.locator(".badge-warn.skipped")
    expect(badge).to_have_text("3 entries not read")
    expect(badge).to_have_attribute(
        "title",
        re.compile(
            "^notes: a folder whose name is no scope key.*\ntodo.txt: a regular file"
            ".*\nuser\\[hidden: U\\+200B\\]: a folder",
            re.S,
        ),
    )
    assert "\u200b" not in (badge.get_attribute("title") or "")

    lost = service.data_dir / "agents" / "lost" / "agent.json"
    lost.mkdir(parents=True)
    page.reload()
    section = page.locator(".unreadable-agents")
    expect(section.locator("h2")).to_have_text("Agents whose settings cannot be read")
    expect(section.locator("li")).to_have_text(
        "lost: the stored settings of agent 'lost' (agents/lost/agent.json in the data "
        f"dir) are not a regular file: {NOT_A_FILE_FIX}"
    )
    expect(card).to_have_count(1)

    moved = tmp_path / "bigger-disk" / "memory"
    moved.parent.mkdir()
    root.rename(moved)
    root.symlink_to(moved)
    page.reload()
    expect(card.locator("a.memory-count")).to_have_text("memories unknown")
    expect(card.locator(".badge-warn")).to_have_text("Cannot be read")
    expect(card.locator(".badge-warn")).to_have_attribute(
        "title", re.compile("its memory root is no plain folder")
    )
    expect(card).not_to_contain_text("0 memories")

    lost.rmdir()
    lost.parent.rmdir()
    stored = service.data_dir / "agents" / "demo" / "agent.json"
    stored.rename(stored.with_name("agent.json.kept"))
    stored.mkdir()
    page.reload()
    expect(section.locator("li")).to_have_text(
        "demo: the stored settings of agent 'demo' (agents/demo/agent.json in the data "
        f"dir) are not a regular file: {NOT_A_FILE_FIX}"
    )
    expect(page.locator("main")).not_to_contain_text("No agents yet")
