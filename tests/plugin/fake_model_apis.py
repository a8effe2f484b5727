"""Loopback stand-ins for the model APIs of Codex CLI and Gemini CLI: record, script, answer.

- :class:`FakeResponses`: the OpenAI Responses API as Codex CLI uses it — ``POST
  /v1/responses`` answered with a server-sent event stream (``response.created``, one
  ``response.output_item.done`` per scripted item, ``response.completed``).
- :class:`FakeGemini`: the Gemini API — ``POST /v1beta/models/{model}:generateContent`` (JSON)
  and ``:streamGenerateContent?alt=sse`` (one ``data:`` event), ``:countTokens``.

Each records every request body and answers the Session's own turns (the requests that offer
tools) from a script of turns, one per request, then a closing text; side requests (routing,
titles) get a short answer. Nothing here reaches the internet.
"""

from __future__ import annotations

import contextlib
import inspect
import json
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.test_utils import unused_port

__all__ = ["FakeGemini", "FakeResponses", "Json", "Turn", "serve_app"]

Json = dict[str, Any]
Turn = list[Json] | Callable[[Json], list[Json] | Awaitable[list[Json]]]
"""One scripted turn: its output items (or parts), or a function of the request giving them
(or an awaitable of them: a turn that waits for something outside the CLI first)."""


@dataclass
class _RecordingApi(ABC):
    """A model API stand-in that records every request body; ``turns[n]`` script the n-th turn
    of the Session (its requests that offer tools)."""

    turns: Sequence[Turn]
    requests: list[Json] = field(default_factory=list)

    async def turn(self, number: int, body: Json) -> list[Json] | None:
        """The scripted answer of the Session's ``number``-th turn (None past the script); a
        callable turn is given the request, to answer what the CLI just said."""
        if not 0 <= number < len(self.turns):
            return None
        scripted = self.turns[number]
        if not callable(scripted):
            return scripted
        answer = scripted(body)
        return await answer if inspect.isawaitable(answer) else answer

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        self.add_routes(app)
        app.router.add_route("*", "/{tail:.*}", _not_found)
        return app

    @abstractmethod
    def add_routes(self, app: web.Application) -> None:
        """Add this API's own routes to ``app``."""

    def session_turns(self) -> list[Json]:
        """The bodies of the Session's own requests (those offering tools), in order."""
        return [body for body in self.requests if body.get("tools")]


@dataclass
class FakeResponses(_RecordingApi):
    """The Responses API stand-in; ``turns[n]`` are the output items of the n-th Session turn."""

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/responses", self._responses)

    async def _responses(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        number = len(self.session_turns()) - 1
        items = (await self.turn(number, body) if body.get("tools") else None) or []
        if not items:
            items = [_message(f"m{len(self.requests)}", "Done.")]
        rid = f"resp_{len(self.requests)}"
        events: list[Json] = [{"type": "response.created", "response": {"id": rid}}]
        events += [{"type": "response.output_item.done", "item": item} for item in items]
        usage = {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}
        events.append({"type": "response.completed", "response": {"id": rid, "usage": usage}})
        text = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
        return web.Response(text=text, content_type="text/event-stream")


def _message(item_id: str, text: str) -> Json:
    return {
        "type": "message",
        "role": "assistant",
        "id": item_id,
        "content": [{"type": "output_text", "text": text}],
    }


@dataclass
class FakeGemini(_RecordingApi):
    """The Gemini API stand-in; ``turns[n]`` are the ``parts`` of the n-th Session turn."""

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/v1beta/models/{call}", self._models)

    async def _models(self, request: web.Request) -> web.StreamResponse:
        call = request.match_info["call"]
        body = await request.json()
        if call.endswith(":countTokens"):
            return web.json_response({"totalTokens": 1})
        self.requests.append(body)
        number = len(self.session_turns()) - 1
        if not body.get("tools"):  # routing and other side requests
            parts: list[Json] = [{"text": '{"reasoning": "simple", "model_choice": "flash"}'}]
        else:
            parts = await self.turn(number, body) or [{"text": "Done."}]
        answer = {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 1,
                "candidatesTokenCount": 1,
                "totalTokenCount": 2,
            },
        }
        if call.endswith(":streamGenerateContent"):
            return web.Response(
                text=f"data: {json.dumps(answer)}\r\n\r\n", content_type="text/event-stream"
            )
        return web.json_response(answer)


async def _not_found(request: web.Request) -> web.Response:
    return web.json_response({"error": {"message": f"no {request.path} here"}}, status=404)


@contextlib.asynccontextmanager
async def serve_app(make: Callable[[], web.Application]) -> AsyncIterator[int]:
    """Serve an app on a free loopback port for the block; yields the port."""
    runner = web.AppRunner(make())
    await runner.setup()
    try:
        port = unused_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        yield port
    finally:
        await runner.cleanup()
