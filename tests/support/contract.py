"""The OpenAPI document's own verdict on a value: JSON Schema 2020-12 plus ``x-maxUtf8Bytes``.

JSON Schema has no limit in bytes, so the document states K-7's UTF-8 limits with the extension
keyword ``x-maxUtf8Bytes`` (see :mod:`memory_core.rules`). :func:`document_validator` builds a
jsonschema-rs validator that reads the extension too; jsonschema-rs reads ``pattern`` the way
ECMA-262 does (``$`` is the end of the value), which Python's ``jsonschema`` would not. Both the
drift test and the Schemathesis hooks judge values with it, so they agree with each other and
with any client that honours the extension.
"""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import jsonschema_rs
from memory_api.http.openapi_examples import PARAMETER_EXAMPLES
from memory_core import layout
from memory_core.rules import MAX_UTF8_BYTES_KEYWORD, utf8_length

from tests.support.serve import ServedProcess

__all__ = [
    "MaxUtf8Bytes",
    "body_schema",
    "document_validator",
    "path_parameter_schemas",
    "post_json",
    "seed_examples",
]

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"


class MaxUtf8Bytes:
    """jsonschema-rs keyword class for ``x-maxUtf8Bytes``: strings of at most N bytes of UTF-8.

    A string that cannot be encoded (a lone surrogate) fails as well.
    """

    def __init__(self, parent_schema: dict[str, Any], value: int, schema_path: list[Any]) -> None:
        self.limit = value

    def validate(self, instance: Any) -> None:
        """Raise ``ValueError`` when ``instance`` is a string over the limit."""
        if not isinstance(instance, str):
            return
        size = utf8_length(instance)
        if size is None or size > self.limit:
            raise ValueError(f"takes more than {self.limit} bytes of UTF-8")


def document_validator(
    document: dict[str, Any], schema: dict[str, Any]
) -> jsonschema_rs.Draft202012Validator:
    """A validator for ``schema`` (a fragment of ``document``; its ``#/components`` refs resolve).

    The fragment is validated as the root of a copy of the document's components, so a
    ``{"$ref": "#/components/schemas/AgentCreate"}`` finds its target.
    """
    root = {**schema, "components": document.get("components", {})}
    return jsonschema_rs.Draft202012Validator(
        root, keywords={MAX_UTF8_BYTES_KEYWORD: MaxUtf8Bytes}, validate_formats=True
    )


def path_parameter_schemas(
    operation: dict[str, Any], location: str = "path"
) -> dict[str, dict[str, Any]]:
    """The schema of every parameter ``in`` ``location`` of an OpenAPI operation, by name."""
    return {
        parameter["name"]: parameter.get("schema", {})
        for parameter in operation.get("parameters", [])
        if parameter.get("in") == location
    }


def body_schema(operation: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON request body schema of an OpenAPI operation object, or None without a body."""
    content = operation.get("requestBody", {}).get("content", {})
    media = content.get("application/json")
    return None if media is None else dict(media.get("schema", {}))


def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to ``url`` (a loopback service) and return the decoded answer."""
    request = urllib.request.Request(  # noqa: S310 - only http://127.0.0.1 URLs are built here
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310
        result: dict[str, Any] = json.loads(answer.read())
        return result


def get_json(url: str) -> dict[str, Any]:
    """GET ``url`` and decode the JSON answer (loopback only)."""
    with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310
        result: dict[str, Any] = json.loads(answer.read())
        return result


def seed_examples(service: ServedProcess, workspace: Path) -> dict[str, list[str]]:
    """Create the agent the document's examples name, with two scopes of sample notes.

    The user scope gets ``tests/data/corpus/user-scope``; ``workspace`` (created) becomes a
    Workspace scope through a Session start and gets ``coding-agent-workspace``. Returns the
    real names of each path parameter (``project``, ``agent``, ``key``, ``file``, ``name``)
    and the version of each scope a checkpoint recorded (``version``, V-1).
    """
    project, agent = PARAMETER_EXAMPLES["project"], PARAMETER_EXAMPLES["agent"]
    base = f"{service.base_url}/api/projects/{project}/agents"
    post_json(base, {"id": agent, "name": "Coding agent"})
    workspace.mkdir()
    started = post_json(f"{base}/{agent}/memory/session-start", {"workspace": str(workspace)})
    key = started["key"]
    files: list[str] = []
    for scope, sample in (("user", "user-scope"), (key, "coding-agent-workspace")):
        target = layout.scope_dir(service.data_dir, agent, scope)
        for path in sorted((CORPUS / sample).iterdir()):
            shutil.copyfile(path, target / path.name)
            if path.name != layout.INDEX_FILE:
                files.append(path.name)
    # V-1: a version of each scope, so the versions routes meet real ones (and real names)
    post_json(f"{base}/{agent}/memory/checkpoint", {})
    versions = [
        version["version"]
        for scope in ("user", key)
        for version in get_json(f"{base}/{agent}/memory/scopes/{scope}/changes")["versions"]
    ]
    return {
        "project": [project],
        "agent": [agent],
        "key": ["user", key],
        "file": files,
        "name": [*files, layout.INDEX_FILE],
        "version": versions,
    }
