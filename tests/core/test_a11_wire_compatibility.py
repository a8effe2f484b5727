"""A-11: the wire's compatibility rule, so the central service is upgraded before the plugins.

Answers may gain fields and clients ignore fields they do not know; a request with an unknown
field is refused, naming it. Every DTO of ``memory_core.wire`` is a request body or an answer,
never both, and never holds one of the other kind.
"""

from __future__ import annotations

import inspect as pyinspect
import re
from collections.abc import Iterator

import msgspec
import pytest
from memory_core import wire
from msgspec import inspect

from tests.support.newer_fields import UNKNOWN_FIELD, with_unknown_fields

DTOS: list[type[wire.Wire]] = [
    member
    for _, member in pyinspect.getmembers(wire, pyinspect.isclass)
    if issubclass(member, wire.Wire) and member not in (wire.Wire, wire.RequestBody, wire.Answer)
]
REQUESTS = {dto for dto in DTOS if issubclass(dto, wire.RequestBody)}
ANSWERS = {dto for dto in DTOS if issubclass(dto, wire.Answer)}


def _structs(kind: type[wire.Wire]) -> Iterator[type[msgspec.Struct]]:
    """``kind`` and every Struct its fields hold, at any depth."""
    stack: list[inspect.Type] = [inspect.type_info(kind)]
    seen: set[type] = set()
    while stack:
        info = stack.pop()
        if isinstance(info, inspect.StructType):
            if info.cls in seen:
                continue
            seen.add(info.cls)
            yield info.cls
            stack.extend(field.type for field in info.fields)
        elif isinstance(info, inspect.Metadata):
            stack.append(info.type)
        elif isinstance(info, inspect.UnionType):
            stack.extend(info.types)
        elif isinstance(info, inspect.ListType | inspect.VarTupleType):
            stack.append(info.item_type)
        elif isinstance(info, inspect.DictType):
            stack.append(info.value_type)


def test_a11_every_dto_is_a_request_body_or_an_answer_never_both() -> None:
    assert len(DTOS) > 40
    assert [dto.__name__ for dto in DTOS if (dto in REQUESTS) == (dto in ANSWERS)] == []
    assert {dto.__name__ for dto in REQUESTS} == {
        "AgentCreate",
        "ConfigPatch",
        "MemoryPatch",
        "SessionStartRequest",
        "DraftCreate",
        "RestoreRequest",
        "RecordRequest",
    }


@pytest.mark.parametrize("dto", [pytest.param(dto, id=dto.__name__) for dto in DTOS])
def test_a11_a_dto_holds_only_dtos_of_its_own_kind(dto: type[wire.Wire]) -> None:
    own = wire.RequestBody if issubclass(dto, wire.RequestBody) else wire.Answer
    assert [part.__name__ for part in _structs(dto) if not issubclass(part, own)] == []


def test_a11_request_bodies_forbid_unknown_fields_and_answers_ignore_them() -> None:
    assert all(dto.__struct_config__.forbid_unknown_fields for dto in REQUESTS)
    assert not any(dto.__struct_config__.forbid_unknown_fields for dto in ANSWERS)


def _session_start_answer() -> wire.SessionStartResponse:
    manifest = wire.ScopeManifest(
        scope="user",
        lines_total=1,
        lines_kept=1,
        lines_dropped=0,
        cap_fired="none",
        headroom_lines=199,
        headroom_chars=24_000,
    )
    return wire.SessionStartResponse(
        enabled=True,
        injected=True,
        memory="- [Prefers pnpm](prefers-pnpm.md) — use pnpm\n",
        workspace_memory_key="my-app-1c7ddc51",
        key="my-app-1c7ddc51",
        workspace_kind="persistent",
        directories=wire.SessionDirectories(
            app_data_dir="/srv", memory_root="/srv/memory", user="/srv/memory/user", workspace=None
        ),
        manifests=[manifest],
        template_has_memory=True,
        sections=[wire.MemorySection(kind="index", scope="user", text="- [Prefers pnpm](…)")],
    )


def test_a11_an_answer_with_fields_of_a_newer_service_decodes_as_without_them() -> None:
    answer = _session_start_answer()
    newer = with_unknown_fields(msgspec.to_builtins(answer), wire.SessionStartResponse)
    raw = msgspec.json.encode(newer)
    assert raw.count(UNKNOWN_FIELD.encode()) == 4  # the answer, its directories, manifest, section
    assert msgspec.json.decode(raw, type=wire.SessionStartResponse) == answer


def test_a11_an_answer_still_refuses_a_known_field_of_the_wrong_type() -> None:
    newer = with_unknown_fields(
        msgspec.to_builtins(_session_start_answer()), wire.SessionStartResponse
    )
    newer["injected"] = "yes"
    with pytest.raises(msgspec.ValidationError, match=r"\$\.injected"):
        msgspec.json.decode(msgspec.json.encode(newer), type=wire.SessionStartResponse)


@pytest.mark.parametrize(
    ("body", "kind", "where"),
    [
        ({"workspace": "/w", "extra": 1}, wire.SessionStartRequest, "`extra`"),
        ({"memory": {"enabled": True, "extra": 1}}, wire.ConfigPatch, "`extra` - at `$.memory`"),
        ({"version": "a" * 40, "extra": 1}, wire.RestoreRequest, "`extra`"),
    ],
)
def test_a11_a_request_body_with_an_unknown_field_is_refused_naming_it(
    body: dict[str, object], kind: type[wire.RequestBody], where: str
) -> None:
    with pytest.raises(msgspec.ValidationError, match=re.escape(f"unknown field {where}")):
        msgspec.json.decode(msgspec.json.encode(body), type=kind)
