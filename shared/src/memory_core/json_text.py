"""The one reader of JSON files a user or an agent may write (``agent.json``, a harness's
settings, a sync state, a machines list, an import's source, an answer from a peer).

Python's :mod:`json` reads arrays and objects by recursion: a text of some 1000 nested ``[``
(a file of 200 000 ``[`` is 200 KB) raises ``RecursionError``, which no ``except ValueError``
of a reader expects. It escaped as a 500 in the service, a traceback in the plugin's CLI and
a crashed hook. :func:`loads` raises :class:`JsonTooDeep`, a ``ValueError`` like every other
reason a text is no JSON (:class:`json.JSONDecodeError`, bytes that are no UTF-8, an integer
of more than 4300 digits), so each caller's one ``except ValueError`` turns them all into its
own named "damaged / unreadable" error, naming the file.

msgspec has no depth limit of its own either: it recurses too, and raises ``RecursionError``
(not its ``DecodeError``) for arrays nested some 1000 deep, even inside a field it skips. A
Session record of 200 000 ``[`` crashed the post-write hook and made the guard deny every call.
:func:`decode` is the one way the product decodes with msgspec (a record on disk, a draft, a
token file, a request body, a service's answer, a memo row): it raises :class:`DecodedTooDeep`,
a ``msgspec.DecodeError`` (and a :class:`JsonTooDeep`), so each caller's ``except
msgspec.DecodeError`` names it as the damaged file or bad answer it is.
:mod:`memory_core.json_members` reads a text again with the recursion guard of its own.
"""

from __future__ import annotations

import json
from typing import Any, Protocol, TypeVar

import msgspec

__all__ = ["TOO_DEEP", "DecodedTooDeep", "JsonTooDeep", "decode", "loads"]

_T_co = TypeVar("_T_co", covariant=True)

TOO_DEEP = "arrays or objects nested too deep to be read (keep them under some 900 levels)"
"""Why a text nested too deep is not read, said the same way by every reader."""


class JsonTooDeep(ValueError):
    """A JSON text whose arrays or objects nest deeper than Python's recursion limit lets
    :mod:`json` read (``str(error)`` is :data:`TOO_DEEP`). A ``ValueError``, so a caller's
    ``except ValueError`` takes it with every other text that is no JSON; never a
    :class:`json.JSONDecodeError` (the text may be valid JSON)."""


def loads(text: str | bytes | bytearray, **hooks: Any) -> Any:
    """The value of the JSON ``text``, as :func:`json.loads` reads it with ``hooks`` (its
    keyword arguments: ``parse_constant``, ``object_pairs_hook``, ...).

    Raises ``ValueError`` for a text that is no JSON: :class:`json.JSONDecodeError`,
    ``UnicodeDecodeError`` (bytes), :class:`JsonTooDeep` (nested past the recursion limit,
    never ``RecursionError``), or whatever ``ValueError`` a hook raises.
    """
    try:
        return json.loads(text, **hooks)
    except RecursionError:
        raise JsonTooDeep(TOO_DEEP) from None


class DecodedTooDeep(msgspec.DecodeError, JsonTooDeep):
    """A text msgspec could not decode for nesting past Python's recursion limit (``str(error)``
    is :data:`TOO_DEEP`): a ``msgspec.DecodeError``, so a caller's ``except msgspec.DecodeError``
    takes it with every other text that is no record; a :class:`JsonTooDeep` too."""


class _Decoder(Protocol[_T_co]):
    """A msgspec ``json.Decoder`` or ``msgspec.Decoder`` (anything with such a ``decode``)."""

    def decode(self, buf: bytes, /) -> _T_co: ...


def decode(decoder: _Decoder[_T_co], raw: bytes) -> _T_co:
    """``raw`` decoded by the msgspec ``decoder`` (its type, its hooks).

    Raises ``msgspec.DecodeError`` for bytes that are not such a value: msgspec's own
    (``ValidationError`` for a wrong shape), or :class:`DecodedTooDeep` for arrays or objects
    nested past the recursion limit (never ``RecursionError``).
    """
    try:
        return decoder.decode(raw)
    except RecursionError:
        raise DecodedTooDeep(TOO_DEEP) from None
