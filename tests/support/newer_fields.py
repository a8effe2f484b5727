"""A wire DTO's JSON as a newer peer would send it: an unknown field in every object a Struct reads.

A service upgraded before its clients answers fields the clients do not know, at any depth (a
new field of ``RecordedScope`` inside a ``RecordResult``, of ``ScopeManifest`` inside a Session
start); a client sends such a field in a request when it is newer than the service, or mistyped.
:func:`with_unknown_fields` adds :data:`UNKNOWN_FIELD` to every JSON object that decodes into a
Struct (found with ``msgspec.inspect``), never to a ``dict`` field, whose keys are data.
"""

from __future__ import annotations

from typing import Any

from msgspec import inspect

__all__ = ["UNKNOWN_FIELD", "UNKNOWN_VALUE", "with_unknown_fields"]

UNKNOWN_FIELD = "fieldFromANewerVersion"
UNKNOWN_VALUE: Any = {"since": "2027-01-01", "parts": [1, "two", {"three": None}], "on": True}
"""Nested and of every JSON kind, so a decoder must skip a whole value, not one token."""


def with_unknown_fields(value: Any, kind: Any) -> Any:
    """``value`` (JSON-ready builtins of a ``kind``, e.g. ``msgspec.to_builtins(dto)``) with
    :data:`UNKNOWN_FIELD` first in every object a Struct decodes, at every depth."""
    return _walk(value, inspect.type_info(kind))


def _walk(value: Any, info: inspect.Type) -> Any:
    if isinstance(info, inspect.Metadata):
        return _walk(value, info.type)
    if isinstance(info, inspect.UnionType):
        for branch in info.types:
            if _fits(value, branch):
                return _walk(value, branch)
        return value
    if isinstance(info, inspect.StructType) and isinstance(value, dict):
        fields = {field.encode_name: field.type for field in info.fields}
        walked = {name: _walk(item, fields[name]) for name, item in value.items()}
        return {UNKNOWN_FIELD: UNKNOWN_VALUE, **walked}
    if isinstance(info, inspect.ListType | inspect.VarTupleType) and isinstance(value, list):
        return [_walk(item, info.item_type) for item in value]
    if isinstance(info, inspect.DictType) and isinstance(value, dict):
        return {key: _walk(item, info.value_type) for key, item in value.items()}
    return value


def _fits(value: Any, info: inspect.Type) -> bool:
    """Whether ``value`` is the JSON kind of ``info`` (an object, an array), where it matters."""
    while isinstance(info, inspect.Metadata):
        info = info.type
    if isinstance(value, dict):
        return isinstance(info, inspect.StructType | inspect.DictType)
    if isinstance(value, list):
        return isinstance(info, inspect.ListType | inspect.VarTupleType)
    return False
