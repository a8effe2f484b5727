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

__all__ = ["repeated_member", "twice_named"]


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


_pairs_decoder = json.JSONDecoder(object_pairs_hook=_unique_members)
"""The reader of :func:`repeated_member`, made once (``json.loads`` makes one per call)."""


def repeated_member(body: bytes) -> str | None:
    """The first member name that one object of the JSON ``body`` (UTF-8) gives twice, as
    decoded (``"workspace"`` and ``"work\u0073pace"`` are one name); None when every object's
    names are unique, or when this reading does not take ``body`` (the decoder's reading then
    stands). ``body`` is one that a decoder of known fields took already (a flat object, a
    small record), so this second reading is small and shallow."""
    try:  # UTF-8, as msgspec took it (json.loads would also guess UTF-16 and UTF-32)
        _pairs_decoder.decode(body.decode("utf-8"))
    except _RepeatedMember as repeated:
        return str(repeated.args[0])
    except ValueError:  # a reading msgspec took and this one does not: msgspec's stands
        return None
    return None


def twice_named(name: str) -> str:
    """Why a stored record naming the member ``name`` twice (:func:`repeated_member`) is not
    read: said the same way by every record that refuses it."""
    return (
        f"it names the field {name[:100]!r} twice; keep one (a reader of the first and one "
        "of the last disagree on what it says)"
    )
