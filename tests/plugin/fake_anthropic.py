"""A stand-in for the Anthropic Messages API on loopback, for driving the real Claude Code CLI.

It records every request and answers ``POST /v1/messages`` from a script: a function that gets the
request body and returns the assistant's content blocks (text and ``tool_use``) plus a stop
reason, or an awaitable of them (a turn that waits for something outside the CLI first).
Streaming requests get Server-Sent Events in the order the real API sends them
(``message_start``, ``content_block_start``, ``content_block_delta``, ``content_block_stop``,
``message_delta``, ``message_stop``); other requests get one JSON message. ``count_tokens`` and
any other path are answered with plausible small bodies so the CLI never stalls on them.
"""

from __future__ import annotations

import inspect
import itertools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

Block = dict[str, Any]
Answer = tuple[list[Block], str]
Script = Callable[[dict[str, Any]], Answer | Awaitable[Answer]]


@dataclass
class RecordedRequest:
    """One request as the stand-in saw it: method, path and the decoded JSON body (or None)."""

    method: str
    path: str
    body: Any


@dataclass
class FakeAnthropic:
    """The stand-in's state: the script and every request it received, in order."""

    script: Script
    requests: list[RecordedRequest] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def app(self) -> web.Application:
        """Build the aiohttp application; every path is recorded."""
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        return app

    def message_requests(self) -> list[dict[str, Any]]:
        """Bodies of the ``POST /v1/messages`` requests, in order."""
        return [
            r.body
            for r in self.requests
            if r.method == "POST" and r.path == "/v1/messages" and isinstance(r.body, dict)
        ]

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self.requests.append(RecordedRequest(request.method, request.path, body))
        if request.path == "/v1/messages/count_tokens":
            return web.json_response({"input_tokens": 100})
        if request.path == "/v1/messages" and request.method == "POST" and isinstance(body, dict):
            answer = self.script(body)
            blocks, stop_reason = await answer if inspect.isawaitable(answer) else answer
            message_id = f"msg_stub_{next(self._ids)}"
            model = str(body.get("model", "claude-stub"))
            if body.get("stream"):
                return await _stream(request, message_id, model, blocks, stop_reason)
            return web.json_response(_message(message_id, model, blocks, stop_reason))
        if request.path == "/v1/models":
            return web.json_response({"data": [], "has_more": False})
        return web.json_response({})


def _message(message_id: str, model: str, blocks: list[Block], stop_reason: str) -> Block:
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 20},
    }


async def _stream(
    request: web.Request, message_id: str, model: str, blocks: list[Block], stop_reason: str
) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)

    async def send(event: str, data: Block) -> None:
        await response.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())

    start = _message(message_id, model, [], stop_reason)
    start["stop_reason"] = None
    start["usage"] = {"input_tokens": 100, "output_tokens": 1}
    await send("message_start", {"type": "message_start", "message": start})
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        await send(
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": opening},
        )
        await send(
            "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        )
        await send("content_block_stop", {"type": "content_block_stop", "index": index})
    await send(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": 20},
        },
    )
    await send("message_stop", {"type": "message_stop"})
    await response.write_eof()
    return response
