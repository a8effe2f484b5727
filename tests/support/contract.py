"""The OpenAPI document's own verdict on a value: JSON Schema 2020-12 plus ``x-maxUtf8Bytes``.

JSON Schema has no limit in bytes, so the document states K-7's UTF-8 limits with the extension
keyword ``x-maxUtf8Bytes`` (see :mod:`memory_core.rules`). :func:`document_validator` builds a
jsonschema-rs validator that reads the extension too; jsonschema-rs reads ``pattern`` the way
ECMA-262 does (``$`` is the end of the value), which Python's ``jsonschema`` would not. Both the
drift test and the Schemathesis hooks judge values with it, so they agree with each other and
with any client that honours the extension.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
from memory_core.rules import MAX_UTF8_BYTES_KEYWORD, utf8_length

__all__ = ["MaxUtf8Bytes", "body_schema", "document_validator", "path_parameter_schemas"]


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


def path_parameter_schemas(operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The schema of every path parameter of an OpenAPI operation object, by name."""
    return {
        parameter["name"]: parameter.get("schema", {})
        for parameter in operation.get("parameters", [])
        if parameter.get("in") == "path"
    }


def body_schema(operation: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON request body schema of an OpenAPI operation object, or None without a body."""
    content = operation.get("requestBody", {}).get("content", {})
    media = content.get("application/json")
    return None if media is None else dict(media.get("schema", {}))
