"""W-5, I-9: the page's module of Unicode classes is rendered as the service starts, in a
worker thread, so the first page load finds it made; start-up and ``/healthz`` do not wait for
it, and a request for the module that comes first waits for that one rendering."""

from __future__ import annotations

import asyncio
import logging

import pytest
from memory_api import page_unicode
from memory_api.app import create_app
from memory_api.appkeys import UNICODE_AT_START_KEY
from memory_api.page_unicode import MODULE_PATH, unicode_classes_module
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient


async def test_w5_the_module_is_rendered_at_start_without_a_request(
    aiohttp_client: AiohttpClient, settings: Settings
) -> None:
    page_unicode._rendered.cache_clear()  # this process may have rendered it (the zygote)
    app = create_app(settings)
    client = await aiohttp_client(app)

    module = await app[UNICODE_AT_START_KEY].rendered()  # no request asked for it

    assert unicode_classes_module() is module  # the process's one rendering
    answer = await client.get(MODULE_PATH)
    assert (answer.status, await answer.read(), answer.headers["ETag"]) == (
        200,
        module.body,
        module.etag,
    )


async def test_w5_start_up_and_healthz_do_not_wait_for_the_rendering(
    aiohttp_client: AiohttpClient, settings: Settings
) -> None:
    page_unicode._RENDERING.acquire()  # a rendering that cannot end until it is released
    try:
        app = create_app(settings)
        client = await aiohttp_client(app)  # started, the rendering held
        assert (await client.get("/healthz")).status == 200
        asked = asyncio.create_task(client.get(MODULE_PATH))  # waits for the rendering
        rendered = asyncio.create_task(app[UNICODE_AT_START_KEY].rendered())
    finally:
        page_unicode._RENDERING.release()
    module = await rendered
    answer = await asked
    assert (answer.status, await answer.read()) == (200, module.body)


async def test_w5_a_rendering_that_fails_at_start_is_logged_and_the_service_stops_cleanly(
    aiohttp_client: AiohttpClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def fails() -> page_unicode.PageModule:
        raise RuntimeError("no Unicode data")

    monkeypatch.setattr(page_unicode, "_rendered", fails)
    app = create_app(settings)
    client = await aiohttp_client(app)
    with pytest.raises(RuntimeError):
        await app[UNICODE_AT_START_KEY].rendered()
    assert (await client.get("/healthz")).status == 200

    with caplog.at_level(logging.ERROR, logger="memory_api.page_unicode"):
        await client.close()  # the app's cleanup: it raised the rendering's error (review55g)

    assert "could not be rendered at start" in caplog.text
