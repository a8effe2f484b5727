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

from memory_api.errors import BadRequest
from memory_api.store.sync.backend import GitService

__all__ = ["LARGE_PACKET_MAX", "PUSH_PROBE", "check_request"]

LARGE_PACKET_MAX = 65520
"""The longest pkt-line git sends or reads, its four length digits included."""
PUSH_PROBE = b"0000"
"""The whole body of git's probe before a large push: one flush packet, no command."""
_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")
_FLUSH = 0
_SPECIAL = (0, 1, 2)  # flush, delimiter, response end


def _packets(body: bytes, *, until_flush: bool) -> int:
    """Walk ``body``'s pkt-lines from its start: the offset after the last one read (after the
    first flush when ``until_flush``). Raises :class:`ValueError` naming the offset and fault."""
    at = 0
    while at < len(body):
        digits = body[at : at + 4]
        if len(digits) < 4 or not _HEX_DIGITS.issuperset(digits):
            raise ValueError(f"at byte {at}: {digits!r} is no pkt-line length (4 hex digits)")
        length = int(digits, 16)
        if length in _SPECIAL:
            at += 4
            if until_flush and length == _FLUSH:
                return at
            continue
        if not 4 <= length <= LARGE_PACKET_MAX:
            raise ValueError(f"at byte {at}: pkt-line length {length} is not 4 to 65520")
        if at + length > len(body):
            raise ValueError(f"at byte {at}: a pkt-line of {length} bytes is cut off")
        at += length
    if until_flush:
        raise ValueError("the commands end with no flush packet (0000)")
    return at


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
