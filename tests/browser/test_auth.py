"""A-10 on the page: a 401 asks for a bearer token, stores it, and the page then works.

The tests that only sign in and out share the worker's service with :data:`TOKEN`
(:func:`token_service`): the token a page keeps lives in its own browser context, and nothing
they do changes the service."""

from __future__ import annotations

import json

import pytest
from memory_core.wire import PROBLEM_TYPE_BASE as TYPE_BASE
from playwright.sync_api import Page, expect

from tests.browser.conftest import SharedServices
from tests.browser.pages import MEMORY_TAB, PageFactory, ServiceFactory, Shot, user_group
from tests.browser.service import Service

pytestmark = pytest.mark.browser

TOKEN = "browser-test-secret-7f3a"


@pytest.fixture
def token_service(shared_services: SharedServices) -> Service:
    """The worker's demo service whose one token (``tester``) is :data:`TOKEN`."""
    return shared_services.get(token=TOKEN)


def test_a10_401_asks_for_a_token_then_the_page_works(
    token_service: Service, open_page: PageFactory, shot: Shot
) -> None:
    service = token_service
    page = open_page(service)
    page.goto("/")
    dialog = page.locator("dialog.token-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("bearer token")
    field = dialog.get_by_label("Bearer token")
    expect(field).to_be_focused()
    shot(page, "a10-token-prompt")

    # A wrong token is refused and asked for again, as the token just typed (not "stored").
    field.fill("not-the-token")
    dialog.get_by_role("button", name="Sign in").click()
    expect(page.locator("dialog.token-dialog")).to_contain_text("refused that token")
    expect(page.locator("dialog.token-dialog")).not_to_contain_text("stored")

    page.locator("dialog.token-dialog").get_by_label("Bearer token").fill(TOKEN)
    page.locator("dialog.token-dialog").get_by_role("button", name="Sign in").click()
    expect(page.locator(".agent-card")).to_have_count(1)
    expect(page.locator("#me")).to_contain_text("tester")
    shot(page, "a10-signed-in")

    # Kept for this tab: a reload needs no prompt, and the Memory tab works with the token.
    page.goto(MEMORY_TAB)
    page.reload()
    expect(user_group(page).locator(".row").first).to_be_visible()
    expect(page.locator("dialog.token-dialog")).to_have_count(0)
    assert stored(page) == {"local": None, "session": TOKEN}

    # Sign out forgets it and the prompt comes back.
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("dialog.token-dialog")).to_be_visible()


def stored(page: Page) -> dict[str, str | None]:
    """The token the page keeps in each of the browser's storages for its site."""
    kept = page.evaluate(
        """() => ({
          local: localStorage.getItem('agent-memory.token'),
          session: sessionStorage.getItem('agent-memory.token'),
        })"""
    )
    return {"local": kept["local"], "session": kept["session"]}


def sign_in(page: Page, *, remember: bool) -> None:
    """Answer the token prompt with the right token, ticking "Remember on this device" or not."""
    dialog = page.locator("dialog.token-dialog")
    dialog.get_by_label("Bearer token").fill(TOKEN)
    dialog.get_by_label("Remember on this device").set_checked(remember)
    dialog.get_by_role("button", name="Sign in").click()
    expect(page.locator(".agent-card")).to_have_count(1)


def test_a10_remember_on_this_device_is_off_by_default_and_says_where_the_token_is_kept(
    token_service: Service, open_page: PageFactory, shot: Shot
) -> None:
    """The box was ticked by default: a token typed once stayed in the browser's localStorage
    for good, readable by anyone using that browser profile, without the user choosing it. It
    is unticked now (the token kept for the tab, in sessionStorage, gone when it closes), and
    the line under it says where the token is kept either way, for this site by its origin."""
    service = token_service
    page = open_page(service)
    page.goto("/")
    dialog = page.locator("dialog.token-dialog")
    box = dialog.get_by_label("Remember on this device")
    where = dialog.locator("#token-kept-where")
    expect(box).not_to_be_checked()
    expect(box).to_have_attribute("aria-describedby", "token-kept-where")
    expect(where).to_have_text(
        "Kept for this tab only (the browser's session storage): forgotten when the tab closes."
    )
    box.check()
    expect(where).to_have_text(
        f"Kept in this browser's local storage for {service.base_url} until you sign out: "
        "anyone using this browser profile can read it there."
    )
    shot(page, "a10-token-remembered")
    box.uncheck()
    expect(where).to_contain_text("for this tab only")

    sign_in(page, remember=False)
    assert stored(page) == {"local": None, "session": TOKEN}
    other_tab = page.context.new_page()  # the same browser profile: no sessionStorage shared
    other_tab.goto("/")
    expect(other_tab.locator("dialog.token-dialog")).to_be_visible()

    sign_in(other_tab, remember=True)
    assert stored(other_tab) == {"local": TOKEN, "session": None}
    third_tab = page.context.new_page()
    third_tab.goto("/")
    expect(third_tab.locator(".agent-card")).to_have_count(1)
    expect(third_tab.locator("dialog.token-dialog")).to_have_count(0)

    third_tab.get_by_role("button", name="Sign out").click()
    expect(third_tab.locator("dialog.token-dialog")).to_be_visible()
    assert stored(third_tab) == {"local": None, "session": None}


def test_a10_the_token_prompt_tells_an_operator_how_to_make_a_token_and_a_stranger_nothing(
    token_service: Service, open_page: PageFactory
) -> None:
    """The prompt said only "Ask its operator for one", even to the person who runs the
    service: it now also names the command that makes one (README), in the same words for
    everyone, with nothing of this service's own (data dir, token names)."""
    service = token_service
    page = open_page(service)
    page.goto("/")
    dialog = page.locator("dialog.token-dialog")
    expect(dialog).to_contain_text("Ask its operator for one.")
    hint = dialog.locator(".token-operator-hint")

    expect(hint).to_contain_text("Make a token where it runs, with its data dir:")
    # the program as installed: make run's is .venv/bin/memory-api, on no PATH, and refuses to
    # write without the data dir named (round 56's new user ran the bare name: not found)
    commands = hint.locator("code")
    expect(commands.first).to_have_text(
        "MEMORY_API_DATA_DIR=$PWD/.data .venv/bin/memory-api token create --name NAME"
    )
    expect(commands.nth(1)).to_have_text("memory-api token create --name NAME")
    expect(hint).to_contain_text("in the checkout make run serves")
    expect(hint).to_contain_text("--project P")
    shown = dialog.inner_text()
    assert str(service.data_dir) not in shown
    assert "tester" not in shown  # the name of the one token the service has

    dialog.get_by_label("Bearer token").fill("not-the-token")
    dialog.get_by_role("button", name="Sign in").click()
    refused = page.locator("dialog.token-dialog")
    expect(refused).to_contain_text("refused that token (mistyped, or revoked)")
    expect(refused.locator(".token-operator-hint")).to_contain_text("memory-api token list")


def test_a10_the_token_prompt_says_why_once_and_knows_a_401_by_its_type(
    token_service: Service, open_page: PageFactory
) -> None:
    """The prompt's first line says why it asks (no token; a token refused); under it the
    service's own 401 detail repeated that in an HTTP client's words ("send 'Authorization:
    Bearer <token>'", "not known to this service"). Only a detail that says more is shown, and
    a detail is known by its problem type, never by its words (one page, its 401s answered by
    the service, then by the page's own routes)."""
    service = token_service
    page = open_page(service)
    page.goto("/")
    dialog = page.locator("dialog.token-dialog")
    expect(dialog).to_contain_text("This service needs a bearer token. Ask its operator")
    expect(dialog.locator(".alert")).to_have_count(0)
    assert "Authorization" not in dialog.inner_text()

    dialog.get_by_label("Bearer token").fill("not-the-token")
    dialog.get_by_role("button", name="Sign in").click()
    refused = page.locator("dialog.token-dialog")
    expect(refused).to_contain_text("The service refused that token (mistyped, or revoked)")
    expect(refused.locator(".alert")).to_have_count(0)
    assert "not known to this service" not in refused.inner_text()

    other = "no bearer token is configured and this service listens beyond loopback"
    answer_401(page, other, TYPE_BASE + "no-token-configured")
    refused.get_by_label("Bearer token").fill("another-token")
    refused.get_by_role("button", name="Sign in").click()
    expect(page.locator("dialog.token-dialog .alert-warn")).to_have_text(other)

    # The prompt knows a 401 by its problem type, not its wording: the prompt left out the
    # service's detail by matching its exact words, so a reworded detail showed twice, and a
    # proxy's own 401 in those words was hidden. It matches the problem's ``type`` (RFC 9457)
    # now: a reworded detail of a known kind stays hidden, and a 401 of another kind (no
    # ``type``: ``about:blank``) is shown, whatever its words.
    page.unroute("**/api/**")

    answer_401(page, "that token is revoked or mistyped", TYPE_BASE + "bearer-token-unknown")
    dialog.get_by_label("Bearer token").fill("not-the-token")
    dialog.get_by_role("button", name="Sign in").click()
    refused = page.locator("dialog.token-dialog")
    expect(refused).to_contain_text("The service refused that token (mistyped, or revoked)")
    expect(refused.locator(".alert")).to_have_count(0)

    a_proxy_s = "this service needs a bearer token: send 'Authorization: Bearer <token>'"
    page.unroute("**/api/**")
    answer_401(page, a_proxy_s, None)
    refused.get_by_label("Bearer token").fill("another-token")
    refused.get_by_role("button", name="Sign in").click()
    expect(page.locator("dialog.token-dialog .alert-warn")).to_have_text(a_proxy_s)


def answer_401(page: Page, detail: str, problem_type: str | None) -> None:
    """Answer every API request of ``page`` with a 401 problem of ``problem_type`` (none: the
    member left out, ``about:blank``) and ``detail``."""
    problem = {"title": "Unauthorized", "status": 401, "detail": detail}
    if problem_type is not None:
        problem["type"] = problem_type
    page.route(
        "**/api/**",
        lambda route: route.fulfill(
            status=401, content_type="application/problem+json", body=json.dumps(problem)
        ),
    )


def test_a10_cancelled_token_prompt_leaves_a_clear_error(
    token_service: Service, open_page: PageFactory
) -> None:
    service = token_service
    page = open_page(service)
    page.goto("/")
    page.locator("dialog.token-dialog").get_by_role("button", name="Cancel").click()
    expect(page.locator(".alert-error")).to_contain_text("bearer token")
    expect(page.locator(".alert-error").get_by_role("button", name="Retry")).to_be_visible()


def test_a10_a_token_for_another_project_is_named_on_the_missing_agent_page(
    make_service: ServiceFactory, open_page: PageFactory
) -> None:
    """The service answers 404 for a project the token does not reach, worded like a missing
    agent (A-10); the page knows the signed-in token's reach (/api/me) and says it, instead of
    "deleted or renamed" for an agent that is there."""
    service = make_service(env={"MEMORY_API_TOKENS": f"alice:acme={TOKEN}"})
    page = open_page(service)
    page.goto(MEMORY_TAB)  # the demo agent, in project demo
    dialog = page.locator("dialog.token-dialog")
    dialog.get_by_label("Bearer token").fill(TOKEN)
    dialog.get_by_role("button", name="Sign in").click()

    missing = page.locator(".not-found")
    expect(missing).to_contain_text("No agent “demo” in project demo")
    expect(missing).to_contain_text(
        "The token you signed in with (alice) reaches only acme: sign out and sign in with one "
        "for demo, or the address is mistyped."
    )
    expect(missing).not_to_contain_text("deleted or renamed")


def test_a10_an_agent_missing_where_the_token_reaches_is_said_missing(
    token_service: Service, open_page: PageFactory
) -> None:
    service = token_service
    page = open_page(service)
    page.goto("/#/projects/demo/agents/nobody/memory")
    dialog = page.locator("dialog.token-dialog")
    dialog.get_by_label("Bearer token").fill(TOKEN)
    dialog.get_by_role("button", name="Sign in").click()

    missing = page.locator(".not-found")
    expect(missing).to_contain_text("No agent “nobody” in project demo")
    expect(missing).to_contain_text("It may have been deleted or renamed")
