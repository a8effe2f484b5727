"""The A-9 Session-start answer, decoded with the standard ``json`` for a hook process (H-5).

msgspec (with the ``typing`` module it imports) costs a hook process about twice what starting
Python does. :func:`decode_session_start` reads the same answer as
``memory_core.wire.SessionStartResponse`` with ``json`` and checks every field the plugin uses
against that DTO's types, so a hook fails open on nonsense exactly as the msgspec client does.
The result is the answer as JSON values (camelCase names, as on the wire) with only the DTO's
fields: what a Session record (:mod:`harness_memory.records`) stores of it verbatim.
"""

from __future__ import annotations

import json

from harness_memory.errors import BadServiceAnswerError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["decode_session_start", "session_start_request"]

_WORKSPACE_KINDS = ("persistent", "temporary", "off")
_CAPS = ("none", "lines", "chars")
_SECTION_KINDS = ("prompt", "index", "note")

_STR = (str,)
_OPT_STR = (str, type(None))
_BOOL = (bool,)

_DIRECTORIES = {"appDataDir": _STR, "memoryRoot": _STR, "user": _OPT_STR, "workspace": _OPT_STR}
_MANIFEST_NUMBERS = ("linesTotal", "linesKept", "linesDropped", "headroomLines", "headroomChars")
_TOP = {
    "enabled": _BOOL,
    "injected": _BOOL,
    "memory": _STR,
    "workspaceMemoryKey": _STR,
    "key": _OPT_STR,
    "templateHasMemory": _BOOL,
}


def session_start_request(workspace: str, session_id: str | None) -> bytes:
    """The JSON body of ``POST …/memory/session-start`` (A-9), as ``SessionStartRequest``.

    It asks for the answer's ``sections``: a hook cuts the text at line boundaries (H-1).
    """
    body = {"workspace": workspace, "sessionId": session_id, "sections": True}
    return json.dumps(body).encode()


def decode_session_start(raw: bytes) -> dict[str, Any]:
    """Decode an A-9 answer; raise :class:`BadServiceAnswerError` when it is not one.

    Checked as ``SessionStartResponse`` declares: the flags are booleans, the texts strings (or
    null where optional), ``workspaceKind``, every manifest's ``capFired`` and every section's
    ``kind`` one of their values, the manifests' counts whole numbers. ``sections`` defaults to
    an empty list. Fields the DTO does not declare are left out.
    """
    try:
        answer = _session_start(json.loads(raw))
    except (ValueError, RecursionError) as error:
        raise BadServiceAnswerError(
            f"memory service answer is not a Session start: {error}"
        ) from None
    return answer


def _session_start(document: object) -> dict[str, Any]:
    body = _object(document, "the answer")
    answer = {name: _field(body, name, kinds, "the answer") for name, kinds in _TOP.items()}
    answer["workspaceKind"] = _choice(body, "workspaceKind", _WORKSPACE_KINDS, "the answer")
    directories = _object(body.get("directories"), "directories")
    answer["directories"] = {
        name: _field(directories, name, kinds, "directories")
        for name, kinds in _DIRECTORIES.items()
    }
    answer["manifests"] = [_manifest(item) for item in _list(body, "manifests", required=True)]
    answer["sections"] = [_section(item) for item in _list(body, "sections", required=False)]
    return answer


def _manifest(item: object) -> dict[str, Any]:
    manifest = _object(item, "a manifest")
    out: dict[str, Any] = {"scope": _field(manifest, "scope", _STR, "a manifest")}
    for name in _MANIFEST_NUMBERS:
        value = manifest.get(name)
        if type(value) is not int:
            raise ValueError(f"a manifest's {name} must be a whole number, got {value!r}")
        out[name] = value
    out["capFired"] = _choice(manifest, "capFired", _CAPS, "a manifest")
    if "unreadable" in manifest:  # an index that is there but cannot be read (Q-2b)
        out["unreadable"] = _field(manifest, "unreadable", _STR, "a manifest")
    return out


def _section(item: object) -> dict[str, Any]:
    section = _object(item, "a section")
    return {
        "kind": _choice(section, "kind", _SECTION_KINDS, "a section"),
        "scope": _field(section, "scope", _OPT_STR, "a section"),
        "text": _field(section, "text", _STR, "a section"),
    }


def _object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be an object, got {type(value).__name__}")
    return value


def _list(body: dict[str, Any], name: str, *, required: bool) -> list[Any]:
    if name not in body and not required:
        return []
    value = body.get(name)
    if not isinstance(value, list):
        raise ValueError(f"{name} must be an array, got {type(value).__name__}")
    return value


def _field(body: dict[str, Any], name: str, kinds: tuple[type, ...], what: str) -> Any:
    if name not in body:
        raise ValueError(f"{what} lacks {name}")
    value = body[name]
    if type(value) not in kinds:
        raise ValueError(f"{what}'s {name} has the wrong type ({type(value).__name__})")
    return value


def _choice(body: dict[str, Any], name: str, values: tuple[str, ...], what: str) -> str:
    value = body.get(name)
    if value not in values:
        raise ValueError(f"{what}'s {name} must be one of {', '.join(values)}, got {value!r}")
    return str(value)
