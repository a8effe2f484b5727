"""Whether a request body is framed as git's pkt-line protocol, before git reads it (R-1).

Git's smart HTTP (``gitprotocol-http``, framing in ``gitprotocol-common``) posts pkt-lines: each
packet is four hexadecimal digits giving its length, those four included (at most
:data:`LARGE_PACKET_MAX`), then that many bytes less four; ``0000`` is a flush packet, ``0001``
a delimiter and ``0002`` a response end (protocol v2), ``0003`` is no packet. A fetch's wants and
haves (``git-upload-pack``) are pkt-lines from first byte to last; a push (``git-receive-pack``)
sends its commands as pkt-lines up to a flush, then what follows them (push options, the pack)
in its own framing. ``git http-backend`` answers a body that is neither with 200 and nothing
(``zzzz``, random bytes), so the service checks the framing first and says what is wrong.

One push body is a flush packet alone, :data:`PUSH_PROBE`: before a body larger than its
``http.postBuffer`` (1 MiB by default), which it then sends chunked, git probes with it and
gives up on anything but 200 (``probe_rpc`` in git's ``remote-curl.c``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from memory_api.errors import BadRequest

if TYPE_CHECKING:  # backend reads its pkt-lines here: no import back at run time
    from memory_api.store.sync.backend import GitService

__all__ = ["LARGE_PACKET_MAX", "PUSH_PROBE", "check_request", "packets"]

LARGE_PACKET_MAX = 65520
"""The longest pkt-line git sends or reads, its four length digits included."""
PUSH_PROBE = b"0000"
"""The whole body of git's probe before a large push: one flush packet, no command."""
_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")
_FLUSH = 0
_SPECIAL = (0, 1, 2)  # flush, delimiter, response end


def _walk(body: bytes) -> Iterator[tuple[int, int]]:
    """``body``'s pkt-lines from its start, as git's ``packet_length`` reads them (four hex
    digits, either case): each one's offset and length (0, 1 or 2 for the special packets).
    Raises :class:`ValueError` naming the offset and fault where no pkt-line is."""
    at = 0
    while at < len(body):
        digits = body[at : at + 4]
        if len(digits) < 4 or not _HEX_DIGITS.issuperset(digits):
            raise ValueError(f"at byte {at}: {digits!r} is no pkt-line length (4 hex digits)")
        length = int(digits, 16)
        if length not in _SPECIAL and not 4 <= length <= LARGE_PACKET_MAX:
            raise ValueError(f"at byte {at}: pkt-line length {length} is not 4 to 65520")
        if at + max(length, 4) > len(body):
            raise ValueError(f"at byte {at}: a pkt-line of {length} bytes is cut off")
        yield at, length
        at += max(length, 4)


def _packets(body: bytes, *, until_flush: bool) -> int:
    """Walk ``body``'s pkt-lines from its start: the offset after the last one read (after the
    first flush when ``until_flush``). Raises :class:`ValueError` naming the offset and fault."""
    at = 0
    for at, length in _walk(body):
        if until_flush and length == _FLUSH:
            return at + 4
    if until_flush:
        raise ValueError("the commands end with no flush packet (0000)")
    return len(body)


def packets(data: bytes) -> Iterator[bytes]:
    """The payloads of ``data``'s pkt-lines, read as git reads them (a length in upper-case
    hex too: git's ``packet_length``), up to the first flush, delimiter or response end (where
    git's ``packet_read`` ends a list) or the first bytes that are no whole pkt-line. The one
    reader of a push's commands (:func:`memory_api.store.sync.backend.deleted_refs`) and of
    git's answers: a reader stricter than git's would let a command past that git runs."""
    try:
        for at, length in _walk(data):
            if length in _SPECIAL:
                return
            yield data[at + 4 : at + length]
    except ValueError:
        return


def check_request(service: GitService, body: bytes) -> None:
    """Check that ``body`` (decoded of any ``Content-Encoding``) is a request of git's
    ``service``: a fetch's pkt-lines, whole; a push's commands, at least one, pkt-lines up to
    a flush, or git's :data:`PUSH_PROBE`.

    Raises :class:`BadRequest` (400) saying where the framing breaks.
    """
    if not body:
        raise BadRequest(f"the body of {service} is empty: git sends pkt-lines")
    push = service == "git-receive-pack"
    try:
        _packets(body, until_flush=push)
    except ValueError as error:
        raise BadRequest(
            f"the body of {service} is not git's pkt-line protocol ({error})"
        ) from None
    if push and body.startswith(b"0000") and body != PUSH_PROBE:
        raise BadRequest("the body of git-receive-pack names no ref to update")
