"""Fixtures for the web page tests (W-1 … W-5): headless Chromium driving the real service.

The service runs as a subprocess (see :mod:`tests.browser.service`) and the tests use
Playwright's sync API, so no event loop of pytest-asyncio is involved. Without
``/usr/bin/chromium`` the tests skip loudly, except under ``CI=true`` where they fail.
Screenshots of each state land in ``artifacts/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar, cast

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)

from tests.browser.pages import PageFactory, ServiceFactory, Shot
from tests.browser.service import REPO, Service, relocate_seed, seed, start_service

T = TypeVar("T")

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
CHAT_URL = "/chat/{draftId}?project={project}&agent={agent}"
DEADLINE_MS = 120_000
"""How long a wait on one of the page's signals (a row shown, ``aria-busy`` gone) may take
before the test fails. Only a deadline against a page that never gives the signal: every wait
ends as soon as its signal comes. Playwright's 5 s default, then 20 s, failed waits on a 2-core
machine running other builds beside the suite (load ~29)."""
expect.set_options(timeout=DEADLINE_MS)


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    reason = (
        f"!!! BROWSER TESTS NOT RUN: {CHROMIUM} is missing. Install Chromium "
        "(e.g. `apt-get install chromium`) to test the web page (W-5). !!!"
    )
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(reason)
    pytest.skip(reason=reason)


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the browser tests.

    Package scope, not session: Playwright's sync API runs its own event loop on this thread,
    and it must be stopped before pytest-asyncio runs the async tests of the other packages.
    """
    _require_chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
        )
        yield launched
        launched.close()


NOT_SEEDED = frozenset({"MEMORY_API_CHAT_URL", "MEMORY_API_TOKENS", "MEMORY_API_HISTORY"})
"""Settings only the running service reads (the page's chat address, the bearer tokens, whether
it keeps a history: ``demo seed`` records no version either way): a seed under any of them
leaves the same files, byte for byte and mode for mode (compared file by file), so
:class:`SeededDataDirs` seeds once whatever they say (a seed only checks that the tokens are
well formed, and the service started over the copy checks them again)."""


class SeededDataDirs:
    """Fresh demo data dirs, each as ``memory-api demo seed`` leaves it, seeded once per worker.

    The n-th data dir of every test of this worker lives at one path, ``<base>/data-<n>``. The
    first one asked for with a given environment is seeded (some 300 files written and fsynced:
    1.5 to 3 s, more on a busy machine) and a copy of it kept; every later one, at that path or
    another, is that copy put back (mtimes kept), moved to its path as :func:`relocate_seed`
    does: exactly the files a seed of its own there would have left (seeded with the settings
    the seed reads: :data:`NOT_SEEDED` are not among them), which
    ``test_seeded_data_dirs.py`` compares file by file.
    """

    def __init__(self, base: Path) -> None:
        self._base = base
        self._seeded: dict[frozenset[tuple[str, str]], tuple[Path, Path]] = {}

    def fresh(self, number: int, extra: dict[str, str]) -> Path:
        """The data dir ``<base>/data-<number>``, freshly seeded with ``extra`` in the
        environment; whatever an earlier test left there is gone."""
        data_dir = self._base / f"data-{number}"
        shutil.rmtree(data_dir, ignore_errors=True)
        seeding = frozenset(
            (name, value) for name, value in extra.items() if name not in NOT_SEEDED
        )
        kept = self._seeded.get(seeding)
        if kept is None:
            seed(data_dir, {**os.environ, **extra})
            copy = self._base / "seeded" / str(len(self._seeded))
            shutil.copytree(data_dir, copy, symlinks=True)
            self._seeded[seeding] = (copy, data_dir)
        else:
            copy, seeded_at = kept
            shutil.copytree(copy, data_dir, symlinks=True)
            relocate_seed(data_dir, seeded_at)
        return data_dir


@pytest.fixture(scope="session")
def seeded_data_dirs(tmp_path_factory: pytest.TempPathFactory) -> SeededDataDirs:
    """This worker's :class:`SeededDataDirs`."""
    return SeededDataDirs(tmp_path_factory.mktemp("browser-data"))


@pytest.fixture
def make_service(seeded_data_dirs: SeededDataDirs) -> Iterator[ServiceFactory]:
    """Start seeded services over fresh data dirs: ``make_service(token=…, env=…)``."""
    started: list[Service] = []

    def make(*, token: str | None = None, env: dict[str, str] | None = None) -> Service:
        extra = {"MEMORY_API_CHAT_URL": CHAT_URL, **(env or {})}
        if token:
            extra["MEMORY_API_TOKENS"] = f"tester={token}"
        data_dir = seeded_data_dirs.fresh(len(started), extra)
        service = start_service(data_dir, extra, token)
        started.append(service)
        return service

    yield make
    for service in started:
        service.stop()


@pytest.fixture
def service(make_service: ServiceFactory) -> Service:
    """The demo service without tokens (the API is open on loopback)."""
    return make_service()


MODULE_DATA_DIR = 1000
"""The number of the data dir of a module's own service among the worker's seeded ones (a
module-scoped fixture's, or one a module's tests start themselves beside :func:`service`).
Modules share it: pytest ends a module's fixtures before the first test of the next module, so
no two modules' services are up at once, and each gets the demo seed back fresh
(:meth:`SeededDataDirs.fresh`): a worker seeds it once, not once per module (each seed writes
and fsyncs some 300 files: 1.5 to 3 s, more on a busy machine)."""


@contextlib.contextmanager
def module_service(seeded_data_dirs: SeededDataDirs) -> Iterator[Service]:
    """The demo service (the page's chat address set, no tokens) over a fresh
    :data:`MODULE_DATA_DIR`, for the ``with`` block of a module-scoped fixture whose tests
    share it; stopped after it. Raises RuntimeError when it never becomes ready."""
    extra = {"MEMORY_API_CHAT_URL": CHAT_URL}
    service = start_service(seeded_data_dirs.fresh(MODULE_DATA_DIR, extra), extra)
    try:
        yield service
    finally:
        service.stop()


SHARED_DATA_DIRS = 2000
"""The number of the first data dir of :class:`SharedServices` among the worker's seeded ones
(:func:`make_service` numbers a test's services from 0; a module's own service takes
:data:`MODULE_DATA_DIR`, below this one)."""


class SharedServices:
    """Demo services started once per worker and kept to its end, one per set of settings
    (token, environment), for the tests that change nothing on them: they read, search, open
    and close, sign in and out, and what the browser keeps (a token, collapsed groups, when
    the user last looked) lives in each page's own context. One seed, one service start and
    one search index per worker and setting instead of a start per test (scoped per module,
    a service was stopped and started again whenever the worker's tests moved between
    modules); a test that writes a file, saves, deletes or restores takes :func:`service` or
    :func:`make_service`."""

    def __init__(self, seeded: SeededDataDirs) -> None:
        self._seeded = seeded
        self._started: dict[tuple[str | None, frozenset[tuple[str, str]]], Service] = {}

    def get(self, *, token: str | None = None, env: dict[str, str] | None = None) -> Service:
        """The worker's service with ``token`` (None: the API open on loopback) and ``env`` on
        top of the demo's, as :func:`make_service` would start it; started on first use."""
        extra = {"MEMORY_API_CHAT_URL": CHAT_URL, **(env or {})}
        if token:
            extra["MEMORY_API_TOKENS"] = f"tester={token}"
        key = (token, frozenset(extra.items()))
        if key not in self._started:
            number = SHARED_DATA_DIRS + len(self._started)
            data_dir = self._seeded.fresh(number, extra)
            self._started[key] = start_service(data_dir, extra, token)
        return self._started[key]

    def stop(self) -> None:
        """Stop every service started."""
        for service in self._started.values():
            service.stop()


@pytest.fixture(scope="session")
def shared_services(seeded_data_dirs: SeededDataDirs) -> Iterator[SharedServices]:
    """This worker's :class:`SharedServices`, stopped at its end."""
    services = SharedServices(seeded_data_dirs)
    yield services
    services.stop()


@pytest.fixture(scope="session")
def read_only_service(shared_services: SharedServices) -> Service:
    """The demo service of :func:`service`, shared by this worker's tests that change nothing
    on it (see :class:`SharedServices`)."""
    return shared_services.get()


PREPARED_DATA_DIRS = 3000
"""The number of the first data dir of :class:`PreparedServices` among the worker's seeded ones
(after :func:`make_service`'s, :data:`MODULE_DATA_DIR` and :class:`SharedServices`')."""


class PreparedServices:
    """Demo services with a large data set written on top (a scope of thousands of memories, a
    thousand Workspaces), one per data set, started on a worker's first test that asks for it
    and kept to the worker's end, for the tests that only read them (they scroll, filter, open
    and close; what the browser keeps lives in each page's own context).

    Scoped per module, such a service was written, listed cold and removed again each time the
    worker came back to its module: ``--dist worksteal`` hands a module's tests to a worker in
    several runs, between other modules' (the durations of a full run before round 59 show the
    3,000-memory scope's setup in four of its module's tests). Each data set's thousands of
    files are removed at the worker's end, on the worker, not after the last test of the run."""

    def __init__(self, seeded: SeededDataDirs) -> None:
        self._seeded = seeded
        self._started: dict[str, tuple[Service, object]] = {}

    def get(self, name: str, prepare: Callable[[Service], T]) -> tuple[Service, T]:
        """The worker's service of data set ``name`` and what ``prepare`` (which writes the
        data set into the demo's data dir of a just-started service) returned for it; started
        and prepared on first use. Raises what ``prepare`` or :func:`start_service` raise."""
        if name not in self._started:
            extra = {"MEMORY_API_CHAT_URL": CHAT_URL}
            number = PREPARED_DATA_DIRS + len(self._started)
            service = start_service(self._seeded.fresh(number, extra), extra)
            try:
                self._started[name] = (service, prepare(service))
            except BaseException:
                _remove(service)
                raise
        service, prepared = self._started[name]
        return service, cast("T", prepared)

    def stop(self) -> None:
        """Stop every service started and remove its data dir."""
        for service, _ in self._started.values():
            _remove(service)


def _remove(service: Service) -> None:
    """Stop ``service`` and remove its data dir (its thousands of files go on this worker)."""
    service.stop()
    shutil.rmtree(service.data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def prepared_services(seeded_data_dirs: SeededDataDirs) -> Iterator[PreparedServices]:
    """This worker's :class:`PreparedServices`, stopped (their data removed) at its end."""
    services = PreparedServices(seeded_data_dirs)
    yield services
    services.stop()


def _console_error(message: ConsoleMessage, errors: list[str]) -> None:
    """Keep console errors (a CSP violation, a failed module import); answers with a 4xx status
    are expected (401, 404, 412) and shown by the page itself."""
    if message.type == "error" and not message.text.startswith("Failed to load resource"):
        errors.append(message.text)


@pytest.fixture
def open_page(browser: Browser) -> Iterator[PageFactory]:
    """Open pages: ``open_page(service, viewport=DESKTOP)``. Each gets its own browser context
    (fresh storage), clipboard access, and fails the test on any script or console error."""
    opened: list[tuple[BrowserContext, list[str]]] = []

    def make(service: Service, viewport: ViewportSize = DESKTOP) -> Page:
        context = browser.new_context(viewport=viewport, base_url=service.base_url)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=service.base_url)
        context.set_default_timeout(DEADLINE_MS)
        errors: list[str] = []
        opened.append((context, errors))
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: _console_error(message, errors))
        return page

    yield make
    for context, _ in opened:
        context.close()
    failures = [error for _, errors in opened for error in errors]
    assert failures == [], f"the page raised script errors: {failures}"


@pytest.fixture
def page(open_page: PageFactory, service: Service) -> Page:
    """A desktop-sized page (1280×860) against :func:`service`."""
    return open_page(service)


@pytest.fixture
def phone(open_page: PageFactory, service: Service) -> Page:
    """A phone-sized page (390×844) against :func:`service`."""
    return open_page(service, PHONE)


@pytest.fixture
def shot() -> Shot:
    """Save a full-page screenshot as ``artifacts/screenshots/<name>.png``; return its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), animations="disabled")
        return path

    return take
