"""A-11, K-7: a route's enforced rule and its documented rule never drift apart.

Generic over the document, so a new route or parameter is covered the day it appears: every
path parameter and every string field of every JSON body of every operation is a *target*. For
each target, values are probed one at a time inside the operation's documented example request
(whose other parts are valid), against the real service on a loopback port:

(query parameters too, the day a route documents one)

- the document's verdict: JSON Schema 2020-12 read as ECMA-262 reads patterns, plus the
  ``x-maxUtf8Bytes`` extension (:func:`tests.support.contract.document_validator`);
- the service's verdict: refused when it answers 400 or 422, accepted otherwise (a 404, 409 or
  201 is about state, not about the value's shape).

They must agree on every value: boundary probes derived from the documented example (lengths
around every limit, in ASCII and in 2-, 3- and 4-byte characters, trailing newlines, case and
path tricks), and values Hypothesis draws from the documented patterns and from all of Unicode.
A check the code adds without documenting it, or a rule documented but not enforced, fails here.
Lone surrogates are left out: they are no Unicode text and have no percent-encoding.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memory_core.rules import python_regex, utf8_length

from tests.support.contract import (
    body_schema,
    document_validator,
    path_parameter_schemas,
    seed_examples,
)
from tests.support.serve import ServedProcess, serve
from tests.support.zygote import Zygote

REFUSED = (400, 422)
"""Statuses that say "this value is not acceptable" (problem details, A-11)."""
PADDING = ("a", "é", "数", "😀", " ")
"""Pad characters of 1, 2, 3 and 4 bytes of UTF-8, and a space."""
TRICKS = (
    "",
    " ",
    ".",
    "..",
    "/",
    "user",
    "USER",
    "a.md",
    ".a.md",
    "a.MD",
    "MEMORY.md",
    "memory.md",
    "Memory.MD",
    "a/b.md",
    "a\\b.md",
    "/abs/path",
    "relative/path",
    "\u2028x",
    "数据库迁移.md",
)
MAX_EXAMPLES = 150
"""Hypothesis examples of the random probe (one request each)."""
REPEAT_STRIDE = 6
"""A rule met again on another route is probed with every 6th boundary value (and its example):
the first route gets them all, the others enough to catch a route that checks differently."""
_QUANTIFIER = re.compile(r"\{(\d+)(?:,(\d+))?\}")


@dataclass(frozen=True)
class Target:
    """One documented value of one operation: a path parameter or a body field at ``field``."""

    method: str
    path: str
    location: str  # "path", "query" or "body"
    name: str  # parameter name, or the dotted field path in the body
    field: tuple[str, ...]
    example: str
    schema: str  # the documented string schema, as JSON

    @property
    def rule(self) -> dict[str, Any]:
        """The documented schema of the value."""
        result: dict[str, Any] = json.loads(self.schema)
        return result

    def __str__(self) -> str:
        return f"{self.method} {self.path} {self.location}:{self.name}"


@dataclass(frozen=True)
class Operation:
    """An operation's documented example request and the validators of its parts."""

    method: str
    path: str
    parameters: dict[str, str]  # path parameters by name
    query: dict[str, str]  # query parameters with an example, by name
    body: Any
    validators: dict[str, jsonschema_rs.Draft202012Validator]  # by "location:name", or "body"


def _example_of(media: dict[str, Any]) -> Any:
    examples: dict[str, dict[str, Any]] = media.get("examples", {})
    return next(iter(examples.values()), {}).get("value")


def _string_fields(
    document: dict[str, Any], schema: dict[str, Any], prefix: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every string-typed property of an object schema (refs followed): its path and schema."""
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    for name, property_schema in schema.get("properties", {}).items():
        branches = property_schema.get("anyOf", [property_schema])
        for branch in branches:
            if branch.get("type") == "string":
                yield (*prefix, name), branch
            elif "$ref" in branch or branch.get("type") == "object":
                yield from _string_fields(document, branch, (*prefix, name))


PARAMETER_LOCATIONS = ("path", "query")


def _operations(document: dict[str, Any]) -> Iterator[tuple[Operation, list[Target]]]:
    for path, methods in document["paths"].items():
        for method, raw in methods.items():
            examples: dict[str, dict[str, str]] = {location: {} for location in PARAMETER_LOCATIONS}
            validators, targets = {}, []
            for location in PARAMETER_LOCATIONS:
                schemas = path_parameter_schemas(raw, location)
                for parameter in raw.get("parameters", []):
                    name, example = parameter["name"], parameter.get("example")
                    if parameter["in"] != location or example is None:
                        continue
                    examples[location][name] = example
                    validators[f"{location}:{name}"] = document_validator(document, schemas[name])
                    rule = _json(schemas[name])
                    targets.append(
                        Target(method.upper(), path, location, name, (name,), example, rule)
                    )
            schema = body_schema(raw)
            body = None
            if schema is not None:
                validators["body"] = document_validator(document, schema)
                body = _example_of(raw["requestBody"]["content"]["application/json"])
                for field, rule_schema in _string_fields(document, schema):
                    example = _get(body, field) or "x"
                    targets.append(
                        Target(
                            method.upper(),
                            path,
                            "body",
                            ".".join(field),
                            field,
                            example,
                            _json(rule_schema),
                        )
                    )
            operation = Operation(
                method.upper(), path, examples["path"], examples["query"], body, validators
            )
            yield operation, targets


def _json(schema: dict[str, Any]) -> str:
    return json.dumps(schema, sort_keys=True)


def _get(body: Any, field: tuple[str, ...]) -> Any:
    for name in field:
        body = body.get(name) if isinstance(body, dict) else None
    return body


def _with(body: Any, field: tuple[str, ...], value: str) -> Any:
    copy = json.loads(json.dumps(body))
    node = copy
    for name in field[:-1]:
        node = node.setdefault(name, {})
    node[field[-1]] = value
    return copy


def _encode_segment(value: str) -> str:
    # "." and ".." would be resolved away as path segments; escape them like everything else.
    return quote(value, safe="").replace(".", "%2E")


class Contract:
    """The document, its operations and targets, and the service that must agree with it."""

    def __init__(self, service: ServedProcess, document: dict[str, Any]) -> None:
        self.service = service
        self.operations: dict[tuple[str, str], Operation] = {}
        self.targets: list[Target] = []
        for operation, targets in _operations(document):
            self.operations[(operation.method, operation.path)] = operation
            self.targets.extend(targets)

    def request(self, target: Target | None, operation: Operation, value: str = "") -> int:
        """Send the operation's example with ``value`` at ``target``; return the status."""
        parameters, query = dict(operation.parameters), dict(operation.query)
        body = operation.body
        if target is not None and target.location == "path":
            parameters[target.name] = value
        elif target is not None and target.location == "query":
            query[target.name] = value
        elif target is not None:
            body = _with(body, target.field, value)
        url = self.service.base_url + operation.path.format(
            **{name: _encode_segment(v) for name, v in parameters.items()}
        )
        if query:
            url += "?" + urlencode(query, quote_via=quote)
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(  # noqa: S310 - loopback only
            url, data=data, method=operation.method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310
                return int(answer.status)
        except urllib.error.HTTPError as error:
            return int(error.code)

    def documented(self, target: Target, operation: Operation, value: str) -> bool:
        """The document's verdict on ``value`` at ``target``."""
        if target.location in PARAMETER_LOCATIONS:
            return bool(operation.validators[f"{target.location}:{target.name}"].is_valid(value))
        return bool(
            operation.validators["body"].is_valid(_with(operation.body, target.field, value))
        )

    def disagreement(self, target: Target, value: str) -> str | None:
        """None when the document and the service agree on ``value``, else what differs."""
        if utf8_length(value) is None or (target.location == "path" and value == ""):
            return None  # no percent-encoding / no route: the router, not a rule, answers
        operation = self.operations[(target.method, target.path)]
        documented = self.documented(target, operation, value)
        status = self.request(target, operation, value)
        enforced = status not in REFUSED
        if documented == enforced:
            return None
        verdict = "allows" if documented else "refuses"
        return f"{target}: the document {verdict} {value!r}, the service answered {status}"


@pytest.fixture(scope="module")
def contract(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Contract]:
    root = tmp_path_factory.mktemp("contract")
    service = serve(root / "data", dict(os.environ), zygote=Zygote.shared())
    try:
        seed_examples(service, root / "shop-api")
        with urllib.request.urlopen(f"{service.base_url}/openapi.json") as answer:  # noqa: S310
            document = json.loads(answer.read())
        yield Contract(service, document)
    finally:
        service.stop()


def _limits(rule: dict[str, Any]) -> set[int]:
    """Every length the documented schema names: maxLength, x-maxUtf8Bytes, ``{m,n}`` counts."""
    limits = {rule[key] for key in ("maxLength", "x-maxUtf8Bytes") if key in rule}
    for low, high in _QUANTIFIER.findall(rule.get("pattern", "")):
        limits.add(int(high or low))
    return limits


def _boundary_values(target: Target) -> Iterator[str]:
    example = target.example
    yield example
    yield from TRICKS
    yield from (f"{example}\n", f"\n{example}", f"{example} ", f" {example}", example.upper())
    yield f"{example}\x00"
    yield f"{example[:1]}\x7f{example[1:]}"
    # Around each limit, counted from the limit itself and from the limit plus a fixed part of
    # the example's length (a pattern's {0,63} after one first character allows 64).
    lengths = sorted(
        {1, 2}
        | {
            limit + extra + delta
            for limit in _limits(target.rule)
            for extra in (0, 1, 2, len(example))
            for delta in (-1, 0, 1)
        }
    )
    for pad in PADDING:
        for length in lengths:
            # Padding after the first character keeps a documented prefix and suffix in place.
            missing = length - len(example)
            if missing >= 0:
                yield example[:1] + pad * missing + example[1:]
            else:
                yield example[:length]


def test_a11_every_operation_example_is_accepted(contract: Contract) -> None:
    refused = [
        f"{method} {path}: {status}"
        for (method, path), operation in contract.operations.items()
        if (status := contract.request(None, operation)) in REFUSED
    ]
    assert refused == []


def test_a11_every_path_parameter_and_body_field_is_a_target(contract: Contract) -> None:
    names = {(target.location, target.name) for target in contract.targets}
    assert {("path", name) for name in ("project", "agent", "key", "file", "draft")} <= names
    assert {("body", name) for name in ("id", "name", "workspace", "prompt")} <= names


def test_a11_k7_documented_and_enforced_rules_agree_on_boundary_values(
    contract: Contract,
) -> None:
    seen: set[tuple[str, str, str]] = set()
    disagreements: list[str] = []
    for target in contract.targets:
        values = list(dict.fromkeys(_boundary_values(target)))
        rule = (target.location, target.name, target.schema)
        if rule in seen:
            values = [target.example, *values[1::REPEAT_STRIDE]]
        seen.add(rule)
        disagreements.extend(
            found for value in values if (found := contract.disagreement(target, value))
        )
    assert disagreements == []


@st.composite
def _probe(draw: st.DrawFn, targets: list[Target], documents: dict[str, str]) -> tuple[Target, str]:
    target = draw(st.sampled_from(targets))
    pattern = documents.get(str(target))
    strategies = [st.text(max_size=300)]
    if pattern is not None:
        strategies.append(st.from_regex(python_regex(pattern)))
    return target, draw(st.one_of(strategies))


def test_a11_k7_documented_and_enforced_rules_agree_on_random_values(
    contract: Contract, documented_patterns: dict[str, str]
) -> None:
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(_probe(contract.targets, documented_patterns))
    def agree(probe: tuple[Target, str]) -> None:
        target, value = probe
        assert contract.disagreement(target, value) is None

    agree()


@pytest.fixture(scope="module")
def documented_patterns(contract: Contract) -> dict[str, str]:
    """The documented ``pattern`` of each target that has one, by the target's name."""
    return {str(t): t.rule["pattern"] for t in contract.targets if "pattern" in t.rule}


def test_a11_drift_is_caught_when_the_code_checks_more_than_documented(
    contract: Contract,
) -> None:
    """The test itself bites: a documented target judged by a looser document disagrees."""
    target = next(t for t in contract.targets if t.location == "path" and t.name == "file")
    operation = contract.operations[(target.method, target.path)]
    anything = jsonschema_rs.Draft202012Validator({"type": "string"})
    loose = Operation(
        operation.method,
        operation.path,
        operation.parameters,
        operation.query,
        operation.body,
        {**operation.validators, "path:file": anything},
    )
    contract.operations[(target.method, target.path)] = loose
    try:
        assert contract.disagreement(target, "notes.txt") is not None
    finally:
        contract.operations[(target.method, target.path)] = operation
