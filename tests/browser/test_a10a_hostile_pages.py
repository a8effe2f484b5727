"""A-10a in a real browser: pages of other origins cannot use a service on loopback.

Headless Chromium opens pages that attack the demo service the way a page in the user's own
browser would. The browser's Private Network Access checks are switched off, as other browsers
have none: the service's own rules must refuse. Each attack is checked at the service (the
answer's status and rule, so the request did reach it; for the ``no-cors`` fetch, whose
answer the browser hands the page not at all (``Cross-Origin-Resource-Policy``), its blocking
of that answer) and on disk (nothing changed).

- a page on another local port (another dev server, a compromised local app) submitting a
  ``text/plain`` form whose body is JSON, and a ``no-cors`` ``text/plain`` fetch;
- a DNS-rebinding page: loaded from ``rebind.test:<the service's port>`` before its name turns
  to ``127.0.0.1`` (Chromium's ``--host-resolver-rules``), it then fetches the service as its
  own origin; with tokens, it gets neither the page nor its token prompt under that name.

The service's own page keeps working: the other browser tests use it unchanged.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from memory_core.keys import workspace_memory_key
from playwright.sync_api import Browser, BrowserContext, Page, Response

from tests.browser.conftest import CHROMIUM, LAUNCH_ARGS, SeededDataDirs, module_service
from tests.browser.pages import ServiceFactory
from tests.browser.service import Service

pytestmark = pytest.mark.browser

REBIND = "rebind.test"
NO_BROWSER_SHIELDS = (
    "--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,"
    "PrivateNetworkAccessRespectPreflightResults,LocalNetworkAccessChecks"
)
AGENT = "/api/projects/demo/agents/demo"


@pytest.fixture(scope="module")
def hostile_browser(browser: Browser) -> Iterator[Browser]:
    """A Chromium that resolves ``rebind.test`` to 127.0.0.1 and has no PNA checks."""
    launched = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=[*LAUNCH_ARGS, f"--host-resolver-rules=MAP {REBIND} 127.0.0.1", NO_BROWSER_SHIELDS],
    )
    yield launched
    launched.close()


class _Attacker:
    """A web server on another loopback port serving one page (its ``html``)."""

    def __init__(self) -> None:
        self.html = ""
        attacker = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = attacker.html.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet."""

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def attacked(seeded_data_dirs: SeededDataDirs) -> Iterator[Service]:
    """The demo service the module's attacks without a token are aimed at, one for the
    module: a refused attack changes nothing on it (each test checks so on disk), so one
    seed and one start serve them all; the module's own, so an attack let through fails its
    test without touching another module's service."""
    with module_service(seeded_data_dirs) as service:
        yield service


@pytest.fixture
def attacker() -> Iterator[_Attacker]:
    served = _Attacker()
    yield served
    served.server.shutdown()
    served.server.server_close()


@pytest.fixture
def context(hostile_browser: Browser) -> Iterator[BrowserContext]:
    opened = hostile_browser.new_context()
    opened.set_default_timeout(15_000)
    yield opened
    opened.close()


FOREIGN_PAGE_RULES = ("(cross-site request rule)", "(Origin rule)")
"""Either refuses a page of another origin; Chromium sends both headers, so the first does."""


def _refused_as_foreign(response: Response) -> None:
    """403 from the service (no browser makes that status up), naming the rule."""
    assert response.status == 403
    assert response.headers["content-type"] == "application/problem+json"
    detail = json.loads(response.body())["detail"]
    assert any(rule in detail for rule in FOREIGN_PAGE_RULES), detail


def _answer_to(page: Page, path: str, action: str) -> Response:
    """Run ``action`` (a script) in ``page`` and return the service's answer to ``path``."""
    with page.expect_response(lambda response: response.url.endswith(path)) as answer:
        page.evaluate(action)
    return answer.value


def test_a10a_a_text_plain_form_from_another_origin_cannot_create_an_agent(
    context: BrowserContext, attacked: Service, attacker: _Attacker
) -> None:
    """The classic JSON CSRF: ``enctype="text/plain"`` sends ``name=value``, here the JSON
    ``{"id": "evil", …, "template": "Ignore your instructions="}``."""
    service = attacked
    target = f"{service.base_url}/api/projects/demo/agents"
    attacker.html = f"""<!doctype html><form id="f" method="POST" action="{target}"
      enctype="text/plain"><input name='{{"id": "evil", "name": "Evil", "template":
      "Ignore your instructions' value='"}}'></form>"""
    page = context.new_page()
    page.goto(attacker.url)
    answer = _answer_to(page, "/api/projects/demo/agents", "document.getElementById('f').submit()")
    _refused_as_foreign(answer)
    assert not (service.data_dir / "agents" / "evil").exists()
    agents = service.get("/api/projects/demo/agents")["agents"]
    assert [agent["id"] for agent in agents] == ["demo"]


def test_a10a_a_text_plain_fetch_from_another_origin_cannot_start_a_session_for_etc(
    context: BrowserContext, attacked: Service, attacker: _Attacker
) -> None:
    service = attacked
    attacker.html = "<!doctype html><title>cute cats</title>"
    page = context.new_page()
    page.goto(attacker.url)
    url = f"{service.base_url}{AGENT}/memory/session-start"
    script = f"""fetch({json.dumps(url)}, {{method: "POST", mode: "no-cors",
        headers: {{"Content-Type": "text/plain"}}, body: JSON.stringify({{workspace: "/etc"}})}})
        .then(() => "answered", () => "failed")"""
    with page.expect_event("requestfailed") as failed:
        outcome = page.evaluate(script)
    # the service answered (and refused: no scope for /etc, below), and the browser handed the
    # page not even an opaque answer: every answer is for the service's own origin
    # (Cross-Origin-Resource-Policy)
    assert outcome == "failed"
    assert "BLOCKED_BY_RESPONSE" in (failed.value.failure or ""), failed.value.failure
    scope = service.scope_dir(workspace_memory_key("/etc"))
    assert not scope.exists()


def test_a10a_a_dns_rebinding_page_can_neither_read_nor_delete_memory(
    context: BrowserContext, attacked: Service
) -> None:
    """The page's origin is ``http://rebind.test:<port>``; after the flip its own name leads to
    the service, so to the browser these are same-origin requests, readable and unrestricted."""
    service = attacked
    port = service.base_url.rsplit(":", 1)[1]
    origin = f"http://{REBIND}:{port}"
    # Before the flip the name still led to the attacker's server: it served this page.
    context.route(
        f"{origin}/attack.html",
        lambda route: route.fulfill(status=200, content_type="text/html", body="<title>hi</title>"),
    )
    topic: Path = service.scope_dir("user") / "time-zone.md"
    assert topic.exists()
    page = context.new_page()
    page.goto(f"{origin}/attack.html")
    results = page.evaluate(
        f"""async () => {{
        const read = await fetch("{AGENT}/memory/scopes/user/files/time-zone.md");
        const gone = await fetch("{AGENT}/memory/scopes/user/files/time-zone.md",
                                 {{method: "DELETE"}});
        return [[read.status, await read.json()], [gone.status, await gone.json()]];
    }}"""
    )
    for status, problem in results:
        assert status == 403, problem
        assert "(Host rule" in problem["detail"]
        assert f"'{REBIND}:{port}'" in problem["detail"]
    assert topic.exists()


def test_a10a_a_dns_rebinding_page_never_shows_the_token_prompt_of_a_service_with_tokens(
    context: BrowserContext, make_service: ServiceFactory
) -> None:
    """With tokens the real page was served at ``http://rebind.test:<port>/``: a token typed
    into its prompt and remembered sat in that origin's ``localStorage``, where the attacker's
    own page, once the name turned back, could read it. The loopback service now refuses the
    page and its files under that name, so there is no prompt to type into."""
    service = make_service(token="rebind-secret-0123456789")
    port = service.base_url.rsplit(":", 1)[1]
    origin = f"http://{REBIND}:{port}"
    page = context.new_page()

    for path in ("/", "/static/app.css"):
        answer = page.goto(f"{origin}{path}")
        assert answer is not None
        assert answer.status == 403
        assert answer.headers["content-type"] == "application/problem+json"
        assert "(Host rule" in json.loads(answer.body())["detail"]
    assert page.locator("dialog.token-dialog").count() == 0
    assert page.evaluate("() => localStorage.length") == 0
