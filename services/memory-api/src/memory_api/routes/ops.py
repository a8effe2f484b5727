"""Operations endpoints (A-11): ``/healthz``, ``/readyz``, ``/metrics``, ``/openapi.json``.

None of them needs a token. ``/healthz`` says the process answers; ``/readyz`` really probes
the data dir (listable, and a file can be created, written, read back and removed in it) and
the bearer tokens (readable, A-10a), and answers 503 when one fails, so a load balancer stops
sending traffic to a process whose volume went away, turned read-only, or whose tokens cannot
be read (every ``/api/`` request would answer 503 then). ``/healthz`` stays 200 in those cases:
restarting the process would not fix the disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from pathlib import Path

from aiohttp import web
from memory_core.wire import Health

from memory_api.appkeys import get_metrics, get_settings, get_token_store
from memory_api.http.jsonio import json_response
from memory_api.http.metrics import CONTENT_TYPE_LATEST
from memory_api.http.openapi import openapi_json

__all__ = ["probe_data_dir", "routes"]

routes = web.RouteTableDef()
_PROBE = b"memory-api readiness probe\n"


def probe_data_dir(data_dir: Path) -> dict[str, str]:
    """Check that ``data_dir`` is a readable, writable directory; return problems by check name.

    An empty result means ready. Blocking: writes and removes one small dot-file.
    """
    problems: dict[str, str] = {}
    try:
        next(data_dir.iterdir(), None)
    except OSError as error:
        problems["dataDirReadable"] = f"cannot list the data dir: {error.strerror or error}"
        return problems
    try:
        fd, name = tempfile.mkstemp(dir=data_dir, prefix=".readyz.", suffix=".tmp")
    except OSError as error:
        problems["dataDirWritable"] = f"cannot create a file in the data dir: {error.strerror}"
        return problems
    try:
        with os.fdopen(fd, "r+b") as handle:
            handle.write(_PROBE)
            handle.flush()
            handle.seek(0)
            if handle.read() != _PROBE:
                problems["dataDirWritable"] = "a file written to the data dir read back wrong"
    except OSError as error:
        problems["dataDirWritable"] = f"cannot write a file in the data dir: {error.strerror}"
    finally:
        with contextlib.suppress(OSError):
            Path(name).unlink()
    return problems


@routes.get("/healthz")
async def healthz(request: web.Request) -> web.Response:
    """Liveness: 200 while the process serves requests."""
    return json_response(Health(status="ok", checks={"process": "ok"}))


@routes.get("/readyz")
async def readyz(request: web.Request) -> web.Response:
    """Readiness: 200 when the data dir is readable and writable and the bearer tokens can be
    read, else 503 with the reasons (``tokensReadable``: the reason without file names)."""
    problems = await asyncio.to_thread(probe_data_dir, get_settings(request.app).data_dir)
    known = await asyncio.to_thread(get_token_store(request.app).known)
    if known.summary is not None:
        problems["tokensReadable"] = (
            f"{known.summary}; the API answers 503 where it cannot judge a token until then"
        )
    if problems:
        return json_response(Health(status="fail", checks=problems), status=503)
    checks = {"dataDirReadable": "ok", "dataDirWritable": "ok", "tokensReadable": "ok"}
    return json_response(Health(status="ok", checks=checks))


@routes.get("/metrics")
async def metrics(request: web.Request) -> web.Response:
    """Prometheus text exposition of this process's request metrics."""
    body = get_metrics(request.app).render()
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


@routes.get("/openapi.json")
async def openapi(request: web.Request) -> web.Response:
    """The OpenAPI 3.1 description of every route, schemas generated from the wire DTOs."""
    return web.Response(body=openapi_json(request.app), content_type="application/json")
