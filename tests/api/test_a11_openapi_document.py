"""A-11: the OpenAPI document reads as the API's manual and states every rule it enforces.

Every operation carries an example request (when it takes a body) and an example answer, each
valid against the schema it illustrates; every path parameter carries its K-7 rule and an
example; a limit in bytes (``x-maxUtf8Bytes``) comes with the strictest honest ``maxLength``.
The last test keeps what the Schemathesis run found fixed: a Workspace path this machine cannot
even look up (a component over 255 bytes) is an ordinary Workspace, not a data dir error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from memory_core.rules import MAX_UTF8_BYTES_KEYWORD

from tests.api.conftest import AgentHome, Client, memory_url, ok_json
from tests.support.contract import body_schema, document_validator, path_parameter_schemas


@pytest.fixture
async def document(client: Client) -> dict[str, Any]:
    return await ok_json(await client.get("/openapi.json"))


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path}", operation


def _schemas(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every schema object anywhere in the document (components and inline)."""
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("type") == "string":
                yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


async def test_a11_every_operation_has_an_example_answer_valid_for_its_schema(
    document: dict[str, Any],
) -> None:
    missing, invalid = [], []
    for label, operation in _operations(document):
        for status, response in operation["responses"].items():
            if not status.startswith("2"):
                continue
            for media, content in response.get("content", {}).items():
                examples = content.get("examples", {})
                if not examples:
                    missing.append(f"{label} {status} {media}")
                validator = document_validator(document, content["schema"])
                invalid += [
                    f"{label} {status} {name}"
                    for name, example in examples.items()
                    if not validator.is_valid(example["value"])
                ]
    assert missing == []
    assert invalid == []


async def test_a11_every_request_body_has_a_valid_example(document: dict[str, Any]) -> None:
    missing, invalid = [], []
    for label, operation in _operations(document):
        schema = body_schema(operation)
        if schema is None:
            continue
        examples = operation["requestBody"]["content"]["application/json"].get("examples", {})
        if not examples:
            missing.append(label)
        validator = document_validator(document, schema)
        invalid += [
            label for example in examples.values() if not validator.is_valid(example["value"])
        ]
    assert missing == []
    assert invalid == []


async def test_k7_every_path_parameter_has_its_rule_and_a_valid_example(
    document: dict[str, Any],
) -> None:
    problems = []
    for label, operation in _operations(document):
        schemas = path_parameter_schemas(operation)
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "path":
                continue
            name, schema = parameter["name"], schemas[parameter["name"]]
            if "pattern" not in schema:
                problems.append(f"{label} {{{name}}}: no rule")
            if not document_validator(document, schema).is_valid(parameter.get("example")):
                problems.append(f"{label} {{{name}}}: no valid example")
    assert problems == []


async def test_k7_a_byte_limit_comes_with_the_strictest_honest_max_length(
    document: dict[str, Any],
) -> None:
    limited = [schema for schema in _schemas(document) if MAX_UTF8_BYTES_KEYWORD in schema]
    assert len(limited) >= 3, "the file name, and the Workspace path of two bodies"
    # One byte per code point is the most a value may hold: an ASCII value of exactly the byte
    # limit is accepted, so a smaller maxLength would refuse it.
    assert all(schema["maxLength"] == schema[MAX_UTF8_BYTES_KEYWORD] for schema in limited)


async def test_k6a_workspace_path_too_long_to_look_up_is_a_scope_not_visible_not_an_error(
    client: Client, agent: AgentHome
) -> None:
    workspace = "/" + "w" * 300  # one component over NAME_MAX: ENAMETOOLONG on any lookup
    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": workspace})
    )
    assert started["workspaceKind"] == "persistent"
    overview = await ok_json(await client.get(memory_url()))
    scope = next(s for s in overview["scopes"] if s["key"] == started["key"])
    assert scope["workspacePath"] == workspace
    # the service could not see it at its Session start: not visible, never called gone (K-6a)
    assert (scope["orphaned"], scope["notVisible"]) == (False, True)
