"""A-11: a service upgraded before its clients; answers may gain fields, requests may not.

A team upgrades the central service first and each developer's plugin later. Every answer the
service documents still decodes, into its own wire type, when a newer service adds a field to
every object of it (the plugin and the CLI decode with those types), and ``memory-api agent
list --url`` lists the agents such a service answers; every request body with an
unknown field is refused with a 422 naming the field, at the real service; and the OpenAPI
document says both: ``additionalProperties: false`` in every request body's schemas, in no
answer's.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import msgspec
import pytest
from memory_api.cli import main
from memory_api.http.openapi import OPERATIONS
from memory_api.http.openapi_examples import EXAMPLES, PARAMETER_EXAMPLES
from memory_core import wire

from tests.api.conftest import AgentHome, Client, expect_problem, ok_json
from tests.support.newer_fields import UNKNOWN_FIELD, with_unknown_fields

ANSWERED = [
    pytest.param(method, path, id=f"{method} {path}")
    for (method, path), operation in OPERATIONS.items()
    if operation.response is not None and (method, path) in EXAMPLES
]
WITH_BODY = [
    pytest.param(method, path, id=f"{method} {path}")
    for (method, path), operation in OPERATIONS.items()
    if operation.body is not None
]


@pytest.mark.parametrize(("method", "path"), ANSWERED)
def test_a11_every_answer_with_fields_of_a_newer_service_decodes_as_without_them(
    method: str, path: str
) -> None:
    kind = OPERATIONS[(method, path)].response
    assert kind is not None
    example = EXAMPLES[(method, path)].response_json()
    newer = msgspec.json.encode(with_unknown_fields(example, kind))
    assert UNKNOWN_FIELD.encode() in newer
    assert msgspec.json.decode(newer, type=kind) == msgspec.convert(example, kind)


@pytest.mark.parametrize(("method", "path"), WITH_BODY)
async def test_a11_every_request_body_with_an_unknown_field_is_422_naming_it(
    client: Client, agent: AgentHome, method: str, path: str
) -> None:
    example = EXAMPLES[(method, path)].request_json()
    url = path.format(**PARAMETER_EXAMPLES)
    body = {**example, "extraSetting": True}
    response = await client.request(method, url, json=body)
    await expect_problem(response, 422, "unknown field `extraSetting`")


def _component(document: dict[str, Any], schema: dict[str, Any]) -> str | None:
    ref = schema.get("$ref")
    return None if ref is None else str(ref).rsplit("/", 1)[-1]


def _reachable(document: dict[str, Any], name: str) -> Iterator[str]:
    """``name`` and every component schema its schema refers to, at any depth."""
    seen: set[str] = set()
    stack = [name]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        yield current
        nodes: list[Any] = [document["components"]["schemas"][current]]
        while nodes:
            node = nodes.pop()
            if isinstance(node, dict):
                found = _component(document, node)
                if found is not None:
                    stack.append(found)
                nodes.extend(node.values())
            elif isinstance(node, list):
                nodes.extend(node)


async def test_a11_the_document_refuses_unknown_body_fields_and_allows_new_answer_fields(
    client: Client,
) -> None:
    document = await ok_json(await client.get("/openapi.json"))
    schemas = document["components"]["schemas"]
    bodies: set[str] = set()
    answers: set[str] = set()
    for operations in document["paths"].values():
        for operation in operations.values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None and (name := _component(document, body["schema"])):
                bodies.update(_reachable(document, name))
            for status, response in operation["responses"].items():
                for content in response.get("content", {}).values():
                    if status.startswith("2") and (name := _component(document, content["schema"])):
                        answers.update(_reachable(document, name))
    assert bodies & answers == set()
    assert {"ConfigPatch", "MemoryPatch", "SessionStartRequest"} <= bodies
    assert {"SessionStartResponse", "ScopeManifest", "RecordResult", "RecordedScope"} <= answers
    assert [name for name in bodies if schemas[name].get("additionalProperties") is not False] == []
    assert [name for name in answers if "additionalProperties" in schemas[name]] == []
    assert "clients ignore fields they do not know" in document["info"]["description"]


class _NewerService(BaseHTTPRequestHandler):
    """Answers ``GET`` of a path of :attr:`answers` with it, as a newer service would."""

    answers: ClassVar[dict[str, Any]] = {}

    def do_GET(self) -> None:
        body = msgspec.json.encode(self.answers[self.path])
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test reads the command's output, not the stub's."""


@pytest.fixture
def newer_service() -> Iterator[tuple[str, dict[str, Any]]]:
    """A stub service on loopback: its URL and the answers it gives, by path."""
    answers: dict[str, Any] = {}
    handler = type("Handler", (_NewerService,), {"answers": answers})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", answers
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _newer(answer: wire.Answer) -> Any:
    return with_unknown_fields(msgspec.to_builtins(answer), type(answer))


def test_a11_the_cli_lists_the_agents_a_newer_service_answers(
    newer_service: tuple[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, answers = newer_service
    coder = wire.AgentSummary(
        id="coder", project="acme", name="Coder", memory_enabled=True, memory_count=3
    )
    answers["/healthz"] = _newer(wire.Health(status="ok", checks={}))
    answers["/api/projects"] = _newer(wire.ProjectList(projects=["acme"]))
    answers["/api/projects/acme/agents"] = _newer(wire.AgentList(agents=[coder]))
    assert main(["agent", "list", "--url", url]) == 0
    assert capsys.readouterr().out.splitlines()[1].split() == ["acme", "coder", "on", "3", "Coder"]


def test_a11_the_cli_says_which_answer_a_service_got_wrong(
    newer_service: tuple[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, answers = newer_service
    answers["/healthz"] = {"status": "ok", "checks": {}}
    answers["/api/projects"] = {"projects": "acme"}  # a field retyped: no client can read it
    assert main(["agent", "list", "--url", url]) == 1
    assert capsys.readouterr().err == (
        f"memory-api: {url} answered no ProjectList: Expected `array`, got `str` - at "
        "`$.projects`\n"
    )
