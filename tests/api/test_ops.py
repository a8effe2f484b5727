"""A-11 operations: health, readiness that probes the data dir, metrics, OpenAPI, access log."""

from __future__ import annotations

import errno
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from memory_api.app import create_app
from memory_api.http.logs import ACCESS_LOGGER, AccessLogger, configure_logging
from memory_api.http.openapi import OPERATIONS, documented_routes, openapi_json
from memory_api.page_unicode import MODULE_PATH
from memory_api.serve_banner import banner_logger
from memory_api.settings import Settings
from openapi_spec_validator import validate
from prometheus_client.parser import text_string_to_metric_families
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import PROJECT, AgentHome, Client, ok_json


def _names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def _chmod(folder: Path, mode: int) -> None:
    folder.chmod(mode)


async def test_a11_healthz(client: Client) -> None:
    assert await ok_json(await client.get("/healthz")) == {
        "status": "ok",
        "checks": {"process": "ok"},
    }


async def test_a11_readyz_ok_and_leaves_nothing_behind(client: Client, data_dir: Path) -> None:
    before = _names(data_dir)
    body = await ok_json(await client.get("/readyz"))
    assert body["status"] == "ok"
    assert _names(data_dir) == before


async def test_a11_readyz_503_when_data_dir_is_not_a_directory(
    aiohttp_client: AiohttpClient, tmp_path: Path
) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x", encoding="utf-8")
    client = await aiohttp_client(create_app(Settings(data_dir=not_a_dir)))
    response = await client.get("/readyz")
    assert response.status == 503
    assert response.content_type == "application/json"
    body = await response.json()
    assert body["status"] == "fail"
    assert "cannot list the data dir" in body["checks"]["dataDirReadable"]


async def test_a11_readyz_503_when_data_dir_is_not_writable(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(**_: Any) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    response = await client.get("/readyz")
    assert response.status == 503
    body = await response.json()
    assert body == {
        "status": "fail",
        "checks": {"dataDirWritable": "cannot create a file in the data dir: Permission denied"},
    }


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only directory")
async def test_a11_readyz_503_on_a_read_only_data_dir(client: Client, data_dir: Path) -> None:
    _chmod(data_dir, 0o500)
    try:
        assert (await client.get("/readyz")).status == 503
    finally:
        _chmod(data_dir, 0o700)


async def test_a11_metrics_count_requests_by_route_template(
    client: Client, agent: AgentHome
) -> None:
    await client.get(f"/api/projects/{PROJECT}/agents")
    await client.get(f"/api/projects/{PROJECT}/agents/nobody/config")
    response = await client.get("/metrics")
    assert response.status == 200
    assert response.content_type == "text/plain"
    families = {f.name: f for f in text_string_to_metric_families(await response.text())}
    counts = {
        (s.labels["method"], s.labels["route"], s.labels["status"]): s.value
        for s in families["memory_api_requests"].samples
        if s.name == "memory_api_requests_total"
    }
    assert counts[("GET", "/api/projects/{project}/agents", "200")] == 1
    assert counts[("GET", "/api/projects/{project}/agents/{agent}/config", "404")] == 1
    assert counts[("POST", "/api/projects/{project}/agents", "201")] == 1
    assert "memory_api_request_duration_seconds" in families


async def test_a11_metrics_registry_is_per_app(
    aiohttp_client: AiohttpClient, data_dir: Path
) -> None:
    first = await aiohttp_client(create_app(Settings(data_dir=data_dir)))
    second = await aiohttp_client(create_app(Settings(data_dir=data_dir)))
    await first.get("/healthz")
    text = await (await second.get("/metrics")).text()
    assert 'route="/healthz"' not in text


async def test_a11_openapi_is_valid_31_and_names_every_route(client: Client) -> None:
    spec = await ok_json(await client.get("/openapi.json"))
    validate(spec)
    assert spec["openapi"] == "3.1.0"
    app = client.app
    assert app is not None
    routes = documented_routes(app)
    assert len(routes) >= 20
    for method, path in routes:
        assert method.lower() in spec["paths"][path], (method, path)
        assert (method, path) in OPERATIONS, f"{method} {path} has no OpenAPI operation"
    schemas = spec["components"]["schemas"]
    for name in ("AgentConfig", "ConfigPatch", "Problem", "MemoryOverview", "SessionStartResponse"):
        assert name in schemas
    patch = spec["paths"]["/api/projects/{project}/agents/{agent}/config"]["patch"]
    assert patch["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ConfigPatch"
    }
    assert "412" not in patch["responses"] and "4XX" in patch["responses"]


async def test_a11_openapi_document_is_built_once_per_app(client: Client) -> None:
    first = await client.get("/openapi.json")
    second = await client.get("/openapi.json")
    assert await first.read() == await second.read()
    app = client.app
    assert app is not None
    assert openapi_json(app) is openapi_json(app)


async def test_a11_index_and_static_are_served(client: Client) -> None:
    page = await client.get("/")
    assert page.status == 200
    assert page.content_type == "text/html"
    assert "static/" in await page.text()
    assert (await client.get("/static/icon.svg")).status == 200
    assert (await client.get("/static/../settings.py")).status == 404


async def test_w5_the_pages_unicode_module_is_answered_304_on_a_reload(client: Client) -> None:
    """Found: ``static/js/unicode-classes.js`` (20 KB) came whole at each page load, with no
    validator; it now carries an ETag of its body, and a reload naming it gets a 304, as the
    page's files do (``static/js/dom.js``)."""
    for path in (MODULE_PATH, "/static/js/dom.js"):
        first = await client.get(path)
        body = await first.read()
        assert first.status == 200
        etag = first.headers["ETag"]

        reload = await client.get(path, headers={"If-None-Match": etag})
        assert (reload.status, await reload.read(), reload.headers["ETag"]) == (304, b"", etag)
        changed = await client.get(path, headers={"If-None-Match": '"an-older-one"'})
        assert (changed.status, await changed.read()) == (200, body)


@pytest.mark.parametrize(
    "asked",
    [
        "bytes=0-1",
        "BYTES= -3",
        "bytes=4-",
        "bytes=999999999-",
        "bytes=-0",
        "bytes=0-1,4-5",
        "items=0-1",
        "bytes=abc",
        "bytes=5-1",
        "bytes=",
        "bytes 0-1",
        "bytes=1-2x",
    ],
)
@pytest.mark.parametrize("path", ["/static/app.css", "/"])
async def test_a11_the_pages_files_are_served_whole_whatever_range_asks(
    client: Client, path: str, asked: str
) -> None:
    """RFC 9110 14.2 lets a server ignore ``Range``: the page's files are small, and each is
    answered whole (200), never aiohttp's empty 416 for a range it cannot parse."""
    whole = await (await client.get(path)).read()
    response = await client.get(path, headers={"Range": asked})
    assert response.status == 200
    assert "Content-Range" not in response.headers
    assert await response.read() == whole and len(whole) > 10
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/", "/static/icon.svg", "/api/me", "/nowhere"])
async def test_security_headers_on_every_response(client: Client, path: str) -> None:
    response = await client.get(path)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    policy = _policy(response.headers["Content-Security-Policy"])
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]


def _policy(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy header as {directive: its sources}."""
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in directives}


async def test_a10_the_page_s_policy_is_a_header_no_page_may_frame_and_no_form_leaves(
    client: Client,
) -> None:
    """The page's policy was only its ``<meta>``, which cannot say ``frame-ancestors`` and left
    ``form-action`` open: sent as a header it holds both, and scripts, styles and fetches stay
    the page's own; nothing but the page itself may load anything."""
    page = _policy((await client.get("/")).headers["Content-Security-Policy"])
    assert page == {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'none'"],
        "frame-ancestors": ["'none'"],
    }
    for path in ("/api/me", "/static/icon.svg", "/static/js/main.js", "/nowhere"):
        other = _policy((await client.get(path)).headers["Content-Security-Policy"])
        assert other["default-src"] == ["'none'"], path


async def test_a11_access_log_has_no_authorization_value(
    aiohttp_client: AiohttpClient, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "very-secret-token-value-123456"
    server = TestServer(create_app(Settings(data_dir=data_dir)))
    await server.start_server(
        access_log_class=AccessLogger, access_log=logging.getLogger(ACCESS_LOGGER)
    )
    client: TestClient[Any, None] = await aiohttp_client(server)
    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        response = await client.get(
            f"/api/projects/{PROJECT}/agents?token={secret}",
            headers={"Authorization": f"Bearer {secret}"},
        )
        # a query parameter the operation does not list is refused; its value is
        # neither logged nor echoed
        assert response.status == 400
        assert secret not in await response.text()
    records = [r for r in caplog.records if r.name == ACCESS_LOGGER]
    assert records
    record = records[-1]
    assert record.getMessage().startswith(f"GET /api/projects/{PROJECT}/agents 400")
    assert record.__dict__["route"] == "/api/projects/{project}/agents"
    everything = json.dumps({k: str(v) for k, v in record.__dict__.items()})
    assert secret not in everything
    assert "Bearer" not in everything


def test_a11_json_logs_are_one_object_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    switches = logging._srcfile, logging.logThreads, logging.logMultiprocessing
    try:
        configure_logging("json", "INFO")
        logging.getLogger(ACCESS_LOGGER).info(
            "GET / 200", extra={"method": "GET", "path": "/", "status": 200}
        )
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
        logging._srcfile, logging.logThreads, logging.logMultiprocessing = switches
    line = capsys.readouterr().err.strip().splitlines()[-1]
    record = json.loads(line)
    assert record["message"] == "GET / 200"
    assert record["level"] == "INFO"
    assert record["logger"] == ACCESS_LOGGER
    assert record["status"] == 200


@pytest.mark.parametrize(
    "value", ["/srv/data\nINFO forged: tokens off", "a\x1b[2Jb", "a\u2028b\x85c"]
)
def test_a11_a_text_log_record_is_one_line_whatever_its_values_hold(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    """A data dir (or a key, a path) holding a line break started a second, forged record in
    the text log, and an escape sequence reached the operator's terminal; both are escaped now.
    A traceback after the line keeps its own lines."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    switches = logging._srcfile, logging.logThreads, logging.logMultiprocessing
    try:
        configure_logging("text", "INFO")
        logging.getLogger("memory_api").info("data dir: %s", value)
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("memory_api").exception("failed in %s", value)
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
        logging._srcfile, logging.logThreads, logging.logMultiprocessing = switches
    lines = capsys.readouterr().err.splitlines()
    assert len([line for line in lines if " INFO memory_api[" in line]) == 1
    first = lines[0]
    assert first.endswith("data dir: " + value.translate(_ESCAPED)) and "\x1b" not in first
    assert lines[1].split(": ", 1)[1] == "failed in " + value.translate(_ESCAPED)
    assert lines[2] == "Traceback (most recent call last):"
    assert lines[-1] == "ValueError: boom"


_ESCAPED = {0x0A: "\\x0a", 0x1B: "\\x1b", 0x2028: "\\u2028", 0x85: "\\x85"}


def test_a11_the_start_up_banner_is_lines_of_the_log_not_an_escaped_line_break(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """aiohttp hands ``serve`` its banner as one string with a line break in it; each of its
    lines is a record of its own, so the text log shows no ``\\x0a`` where the break was."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    switches = logging._srcfile, logging.logThreads, logging.logMultiprocessing
    try:
        configure_logging("text", "INFO")
        log_banner = banner_logger("127.0.0.1", 8765, logging.getLogger("memory_api"))
        log_banner("======== Running on http://127.0.0.1:8765 ========\n(Press CTRL+C to quit)\n")
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
        logging._srcfile, logging.logThreads, logging.logMultiprocessing = switches
    said = [line.split(": ", 1)[1] for line in capsys.readouterr().err.splitlines()]
    assert said == [
        "======== Running on http://127.0.0.1:8765 ========",
        "web page: http://127.0.0.1:8765/",
        "(Press CTRL+C to quit)",
    ]


async def test_a11_app_prepares_the_data_dir_folders(client: Client, data_dir: Path) -> None:
    assert {"agents", "drafts", "tokens", "locks"} <= set(_names(data_dir))


def test_openapi_routes_table_has_no_stale_entries(data_dir: Path) -> None:
    app: web.Application = create_app(Settings(data_dir=data_dir))
    assert set(OPERATIONS) == set(documented_routes(app))
