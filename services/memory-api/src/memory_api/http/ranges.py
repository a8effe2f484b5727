"""What a ``Range`` header asks of a file of the web page, as RFC 9110 section 14 reads it.

aiohttp's ``FileResponse`` answers any ``Range`` it cannot parse (another unit, ``bytes=abc``,
two ranges, ``bytes=5-1``) with an empty 416; RFC 9110 says a server ignores a ``Range`` of an
unknown unit or invalid syntax (14.2) and may ignore any other, and answers 416 only for a
valid byte-range set none of whose ranges is satisfiable (15.5.17). :func:`range_request` says
which case a header is, so the page's handler lets aiohttp answer one satisfiable range (206,
the header written as aiohttp parses it), serves the whole file for the rest (200), and raises
the 416 itself (a problem+json with ``Content-Range: bytes */<size>``).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web
from aiohttp.abc import AbstractStreamWriter
from aiohttp.web_request import BaseRequest
from multidict import CIMultiDict

__all__ = ["Asked", "RangeRequest", "file_response", "range_request"]


class RangeRequest(enum.Enum):
    """How to answer a ``Range`` header for a file of a given size."""

    IGNORED = "ignored"
    """No header, another unit, invalid syntax, or several ranges: the whole file (200)."""
    ONE = "one"
    """One satisfiable byte range: that part (206, aiohttp's ``FileResponse``)."""
    UNSATISFIABLE = "unsatisfiable"
    """A valid byte-range set none of whose ranges starts inside the file: 416."""


@dataclass(frozen=True, slots=True)
class Asked:
    """A ``Range`` header's :class:`RangeRequest`; for :attr:`RangeRequest.ONE`, ``header`` the
    range as aiohttp's parser takes it (``bytes=0-1``: no spaces, lower-case unit)."""

    kind: RangeRequest
    header: str = ""


_IGNORED = Asked(RangeRequest.IGNORED)
_BYTE_RANGES = re.compile(r"bytes=(.*)", re.ASCII | re.IGNORECASE | re.DOTALL)
_RANGE_SPEC = re.compile(r"(?:(\d+)-(\d*)|-(\d+))", re.ASCII)
_OWS = " \t"


def _satisfiable(spec: re.Match[str], size: int) -> bool | None:
    """Whether one byte-range-spec selects a byte of a ``size``-byte file; None when it is
    invalid (a last position before the first)."""
    first, last, suffix = spec.groups()
    if suffix is not None:
        return int(suffix) > 0
    if last and int(last) < int(first):
        return None
    return int(first) < size


def range_request(header: str | None, size: int) -> Asked:
    """What the ``Range`` ``header`` (None when absent) asks of a file of ``size`` bytes.

    >>> [range_request(h, 10).kind.name for h in (None, "items=0-1", "bytes=abc", "bytes=5-1")]
    ['IGNORED', 'IGNORED', 'IGNORED', 'IGNORED']
    >>> [range_request(h, 10) for h in ("bytes=0-1", "BYTES= -3")]
    [Asked(kind=<RangeRequest.ONE: 'one'>, header='bytes=0-1'), \
Asked(kind=<RangeRequest.ONE: 'one'>, header='bytes=-3')]
    >>> range_request("bytes=0-1, 4-5", 10).kind.name
    'IGNORED'
    >>> [range_request(h, 10).kind.name for h in ("bytes=10-", "bytes=-0", "bytes=10-12,20-")]
    ['UNSATISFIABLE', 'UNSATISFIABLE', 'UNSATISFIABLE']
    """
    if header is None:
        return _IGNORED
    found = _BYTE_RANGES.fullmatch(header)
    if found is None:
        return _IGNORED  # another unit, or no range unit at all
    elements = [part.strip(_OWS) for part in found.group(1).split(",")]
    found_specs = [_RANGE_SPEC.fullmatch(element) for element in elements if element]
    specs = [spec for spec in found_specs if spec is not None]
    if not specs or len(specs) < len(found_specs):
        return _IGNORED  # a range-set of no range, or one not of bytes' syntax
    verdicts = [_satisfiable(spec, size) for spec in specs]
    if None in verdicts:
        return _IGNORED  # a last position before its first: invalid syntax
    if not any(verdicts):
        return Asked(RangeRequest.UNSATISFIABLE)
    if len(specs) > 1:
        return _IGNORED  # several ranges: the whole file (RFC 9110 lets a server ignore Range)
    return Asked(RangeRequest.ONE, "bytes=" + specs[0].group())


class _FileAsRanged(web.FileResponse):
    """A ``FileResponse`` that reads ``Range`` as ``range_header`` (None: as absent), not as
    the request sent it."""

    def __init__(
        self, path: Path, headers: Mapping[str, str] | None, range_header: str | None
    ) -> None:
        super().__init__(path, headers=headers)
        self._range_header = range_header

    async def prepare(self, request: BaseRequest) -> AbstractStreamWriter | None:
        if self.prepared:
            return None
        kept = CIMultiDict(request.headers)
        kept.popall("Range", None)
        if self._range_header is not None:
            kept["Range"] = self._range_header
        return await super().prepare(request.clone(headers=kept))


def file_response(
    request: web.Request, path: Path, headers: Mapping[str, str] | None = None
) -> web.FileResponse:
    """``path`` answered to ``request`` as :func:`range_request` reads its ``Range``: the
    part asked for (206), the whole file (200), or raises ``HTTPRequestRangeNotSatisfiable``
    (416, carrying ``Content-Range: bytes */<size>``, made a problem+json by the middleware).
    Reads the file's size (``stat``) when a ``Range`` is sent."""
    header = request.headers.get("Range")
    if header is None:
        return web.FileResponse(path, headers=headers)
    size = path.stat().st_size
    asked = range_request(header, size)
    if asked.kind is RangeRequest.UNSATISFIABLE:
        raise web.HTTPRequestRangeNotSatisfiable(
            headers={"Content-Range": f"bytes */{size}"},
            text=f"no range of {header!r} starts inside the file's {size} bytes",
        )
    one = asked.header if asked.kind is RangeRequest.ONE else None
    return _FileAsRanged(path, headers, one)
