"""A-11: the usual answers carry only fields that plugins built before answers ignored unknown
fields know, so a team's older plugins still get memory from an upgraded service.

Plugins built before ``wire.Answer`` (stop 39) decode with ``forbid_unknown_fields``: one field
they do not know and the whole answer is refused — the Session start then injects no memory
("Object contains unknown field `sections`", measured with the plugin of 4189964 against the
service of 6826dbe). So a field added since to an answer the plugin reads is sent only when it
is not its default (``omit_defaults``). :data:`OLDER_PLUGIN_FIELDS` pins, per answer type the
plugin decodes, the fields the first plugin that decoded it knew (the commit in its comment);
each type's usual answer (every field with a default left at it) may carry no other, and keeps
every one of them (a field is never removed).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from memory_core import wire
from msgspec import inspect

PLUGIN_ANSWERS: list[type[wire.Answer]] = [
    wire.SessionStartResponse,
    wire.Draft,
    wire.RecordResult,
    wire.AgentConfig,
    wire.Me,
    wire.ProjectList,
    wire.AgentList,
]
"""What ``harness_memory.client.MemoryClient`` decodes (its ``_call`` answer types)."""

OLDER_PLUGIN_FIELDS: dict[str, set[str]] = {
    "AgentConfig": {"id", "memory", "name", "project", "template"},  # ae8b52d
    "AgentList": {"agents"},  # ae8b52d
    "AgentSummary": {"id", "memoryCount", "memoryEnabled", "name", "project"},  # ae8b52d
    "Draft": {"agent", "createdAt", "expiresAt", "id", "project", "prompt", "workspace"},  # ae8b52d
    "FileChange": {"change", "file"},  # be467a4
    "Me": {"chatUrlTemplate", "name", "projects"},  # ae8b52d
    "MemoryConfig": {  # ae8b52d
        "enabled",
        "prompt",
        "promptIsDefault",
        "workspacePrompt",
        "workspacePromptIsDefault",
    },
    "MemorySection": {"kind", "scope", "text"},  # 70b433c
    "ProjectList": {"projects"},  # ae8b52d
    "RecordResult": {"scopes"},  # be467a4
    "RecordedScope": {"files", "scope", "version"},  # be467a4
    "ScopeManifest": {  # ae8b52d
        "capFired",
        "headroomChars",
        "headroomLines",
        "linesDropped",
        "linesKept",
        "linesTotal",
        "scope",
    },
    "SessionDirectories": {"appDataDir", "memoryRoot", "user", "workspace"},  # ae8b52d
    "SessionStartResponse": {  # ae8b52d
        "directories",
        "enabled",
        "injected",
        "key",
        "manifests",
        "memory",
        "templateHasMemory",
        "workspaceKind",
        "workspaceMemoryKey",
    },
    "SkippedEntry": {"name", "problem"},  # 7a64516 (sent only in AgentSummary.skipped, when any)
    "UnreadableAgentEntry": {"id", "problem"},  # 68b0086
    "UnrecordableFile": {"file", "why"},  # d55517e
}


def _reached(kinds: list[type[wire.Answer]]) -> dict[str, type[msgspec.Struct]]:
    """Every Struct the ``kinds`` hold, at any depth, by name."""
    found: dict[str, type[msgspec.Struct]] = {}
    stack: list[inspect.Type] = [inspect.type_info(kind) for kind in kinds]
    while stack:
        info = stack.pop()
        if isinstance(info, inspect.StructType):
            if info.cls.__name__ in found:
                continue
            found[info.cls.__name__] = info.cls
            stack += [field.type for field in info.fields]
        elif isinstance(info, inspect.UnionType):
            stack += list(info.types)
        elif isinstance(info, (inspect.ListType, inspect.DictType)):
            stack += [info.item_type] if isinstance(info, inspect.ListType) else [info.value_type]
    return found


def _usual(info: inspect.Type) -> Any:
    """A value of ``info``: a Struct with its required fields only (the rest at their
    defaults), a list of one, a union's first kind that is not None."""
    if isinstance(info, inspect.StructType):
        values = {field.name: _usual(field.type) for field in info.fields if field.required}
        return info.cls(**values)
    if isinstance(info, inspect.UnionType):
        kinds = [kind for kind in info.types if not isinstance(kind, inspect.NoneType)]
        return _usual(kinds[0]) if kinds else None
    if isinstance(info, inspect.ListType):
        return [_usual(info.item_type)]
    if isinstance(info, inspect.LiteralType):
        return info.values[0]
    simple = {
        inspect.StrType: "x",
        inspect.BoolType: True,
        inspect.IntType: 1,
        inspect.FloatType: 1.5,
        inspect.DictType: {},
        inspect.NoneType: None,
    }
    return simple[type(info)]


REACHED = _reached(PLUGIN_ANSWERS)


def test_a11_every_answer_type_the_plugin_reads_has_its_older_fields_pinned() -> None:
    assert set(REACHED) == set(OLDER_PLUGIN_FIELDS)


@pytest.mark.parametrize("name", sorted(OLDER_PLUGIN_FIELDS))
def test_a11_the_usual_answer_carries_only_fields_an_older_plugin_knows(name: str) -> None:
    kind = REACHED[name]
    sent = msgspec.json.decode(msgspec.json.encode(_usual(inspect.type_info(kind))))
    assert set(sent) <= OLDER_PLUGIN_FIELDS[name], f"{name}: send them only when not default"
    assert OLDER_PLUGIN_FIELDS[name] <= set(kind.__struct_encode_fields__)  # none removed
