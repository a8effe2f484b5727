"""Schemathesis hooks of the contract fuzz run (loaded through ``tests/api/schemathesis.toml``).

Both teach the fuzzer something the document states in words, and touch only cases it means
to be valid (negative cases are kept as generated: they are meant to be refused anyway):

- ``filter_case``: Schemathesis knows JSON Schema but not the document's ``x-maxUtf8Bytes``
  extension (K-7's limits in bytes of UTF-8), so a case it means to be valid could carry a name
  of 255 code points and 600 bytes. Such cases are dropped, judged by the same validator the
  drift test uses (:func:`tests.support.contract.document_validator`).
- ``before_call``: an ``If-Match`` is the ETag the client last read (A-2); a generated string
  names no ETag the service ever sent and can only get 412. The hook reads the resource's
  current ETag, as a client would, and sends that instead (``*`` is kept). Likewise a restore
  names a version the client read from the file's history (V-2): a generated id names none.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import jsonschema_rs
import schemathesis
from schemathesis import Case as AnyCase
from schemathesis.core import NotSet
from schemathesis.hooks import HookContext
from schemathesis.schemas import APIOperation

from tests.support.contract import body_schema, document_validator, path_parameter_schemas

Case = AnyCase[APIOperation[Any, Any, Any, Any]]
_Validators = tuple[dict[str, jsonschema_rs.Draft202012Validator], jsonschema_rs.Validator | None]
_validators: dict[str, _Validators] = {}


def _validators_of(case: Case) -> _Validators:
    """The validators of the case's path parameters and body, built once per operation."""
    label = case.operation.label
    if label not in _validators:
        document: dict[str, Any] = case.operation.schema.raw_schema
        raw: dict[str, Any] = case.operation.definition.raw
        body = body_schema(raw)
        _validators[label] = (
            {
                name: document_validator(document, schema)
                for name, schema in path_parameter_schemas(raw).items()
            },
            None if body is None else document_validator(document, body),
        )
    return _validators[label]


def _within_documented_bytes(case: Case) -> bool:
    parameters, body = _validators_of(case)
    for name, value in (case.path_parameters or {}).items():
        if name in parameters and not parameters[name].is_valid(value):
            return False
    return body is None or isinstance(case.body, NotSet) or body.is_valid(case.body)


@schemathesis.hook
def filter_case(context: HookContext, case: Case) -> bool:
    """Keep a case unless it is meant to be valid and breaks an ``x-maxUtf8Bytes`` limit."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return True
    return _within_documented_bytes(case)


def _current_etag(case: Case) -> str | None:
    """The ETag a GET of the case's own URL answers now, or None (no such resource)."""
    url = case.operation.schema.get_base_url().rstrip("/") + case.formatted_path
    try:
        # Only the loopback service under test is ever addressed (S310 guards file: URLs).
        with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310
            etag = answer.headers.get("ETag")
    except (urllib.error.URLError, ValueError):
        return None
    return etag if isinstance(etag, str) else None


def _held_version(case: Case) -> str | None:
    """A version that holds the case's file, as a client reads it from the file's history
    before a restore (V-2), or None (no such file, no history)."""
    url = case.operation.schema.get_base_url().rstrip("/")
    url += case.formatted_path.removesuffix("/restore") + "/history"
    try:
        # Only the loopback service under test is ever addressed (S310 guards file: URLs).
        with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310
            history = json.loads(answer.read())
    except (urllib.error.URLError, ValueError):
        return None
    held = [v["version"] for v in history.get("versions", []) if v.get("change") != "deleted"]
    return held[0] if held else None


@schemathesis.hook
def before_call(context: HookContext, case: Case, kwargs: dict[str, Any]) -> None:
    """Send the resource's current ETag as the ``If-Match`` of a case meant to be valid, and
    a version that holds the file as the ``version`` of a restore meant to be valid."""
    meta, headers = case.meta, case.headers
    if meta is None or not meta.generation.mode.is_positive:
        return
    body = case.body
    if case.operation.path.endswith("/restore") and isinstance(body, dict) and "version" in body:
        version = _held_version(case)
        if version is not None:
            body["version"] = version
    if not headers:
        return
    if "If-Match" in headers and headers["If-Match"] != "*":
        etag = _current_etag(case)
        if etag is not None:
            headers["If-Match"] = etag
