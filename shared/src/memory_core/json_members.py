"""JSON objects that name one member twice (RFC 8259 4: "the names within an object SHOULD
be unique"; readers disagree on which value counts, the first or the last).

msgspec keeps the last value silently. Where that matters, a JSON text a decoder took is read
again here: a request body (``{"workspace": "/tmp", "workspace": "/etc"}`` started a Session
for ``/etc`` while a reader of the first saw ``/tmp``, :mod:`memory_api.http.jsonio`) and the
records the service keeps on disk that a person may edit (a token file naming ``projects``
twice reached every project while its first ``projects`` named one: A-10a).
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["UncheckedMembers", "repeated_member", "twice_named"]


class _RepeatedMember(Exception):
    """A JSON object names one member twice (``args[0]``, the name)."""


def _unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of :func:`repeated_member`: the object, or :class:`_RepeatedMember`."""
    members: dict[str, Any] = {}
    for name, value in pairs:
        if name in members:
            raise _RepeatedMember(name)
        members[name] = value
    return members


_pairs_decoder = json.JSONDecoder(
    object_pairs_hook=_unique_members, parse_int=str, parse_float=str, parse_constant=str
)
"""The reader of :func:`repeated_member`, made once (``json.loads`` makes one per call). Numbers
stay text: Python's ``int`` refuses more than 4300 digits, which msgspec reads (a value it skips
as an unknown field), and a reading that failed there saw no repeat."""


class UncheckedMembers(ValueError):
    """A JSON text a decoder took that :func:`repeated_member` could not read again, so whether
    it names a member twice is unknown (nested deeper than Python's recursion limit). A stored
    record is then not read (fail closed), a request body refused."""


def repeated_member(body: bytes) -> str | None:
    """The first member name that one object of the JSON ``body`` (UTF-8) gives twice, as
    decoded (``"workspace"`` and ``"work\u0073pace"`` are one name); None when every object's
    names are unique. ``body`` is one that a decoder of known fields took already (a flat
    object, a small record); this second reading takes every such text: numbers of any length
    stay text. Raises :class:`UncheckedMembers` when it still cannot (arrays or objects nested
    some 1000 deep, past the recursion limit), never answering None for a text it did not
    read."""
    try:  # UTF-8, as msgspec took it (json.loads would also guess UTF-16 and UTF-32)
        _pairs_decoder.decode(body.decode("utf-8"))
    except _RepeatedMember as repeated:
        return str(repeated.args[0])
    except RecursionError:
        raise UncheckedMembers(
            "it could not be checked for a field named twice: its values are nested too deep "
            "(keep them under some 900 levels)"
        ) from None
    except ValueError as error:  # not UTF-8 or not JSON: no decoder took it
        raise UncheckedMembers(
            f"it could not be checked for a field named twice: {error}"
        ) from None
    return None


def twice_named(name: str) -> str:
    """Why a stored record naming the member ``name`` twice (:func:`repeated_member`) is not
    read: said the same way by every record that refuses it."""
    return (
        f"it names the field {name[:100]!r} twice; keep one (a reader of the first and one "
        "of the last disagree on what it says)"
    )
