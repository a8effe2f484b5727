"""Reading a ``Host`` header as a host and a port, or saying why it is neither (A-10a).

The loopback rule of :mod:`memory_api.http.browser_guard` trusts the name in ``Host``, so the
name must be read exactly, and a value that is no host at all refused (RFC 9110 7.2: 400)
rather than guessed at. What is taken is what a browser sends and what RFC 3986/9110 call a
host (``uri-host [":" port]``), narrowed to names DNS and ``/etc/hosts`` can hold:

- a host name of letters, digits and hyphens, in dot-separated labels of 1-63 characters that
  neither begin nor end with a hyphen (RFC 1123), 253 characters at most; any case (a host name
  is case-insensitive: ``LOCALHOST`` names ``localhost``) and one final dot (``localhost.`` is
  the absolute form of the same name). A label ``xn--…`` must be the ASCII form of an
  internationalised label (Punycode that decodes to one): a browser sends ``xn--`` forms and
  nothing else outside ASCII;
- an IPv4 address as four decimal numbers (RFC 3986 ``IPv4address``: ``127.0.0.1``, no leading
  zero). A name whose last label is a number (``127.1``, ``2130706433``, ``0x7f.1``) is read by
  a browser as an address and sent as ``127.0.0.1``; written otherwise it is refused, since
  programs read the short forms differently;
- an IPv6 address in brackets (``[::1]``), without a zone id (``%25eth0``: it names a network
  interface, not a host, and browsers never send one);
- then, optionally, ``:`` and a port of at most five digits, 65535 at most (RFC 3986 lets it
  be empty: ``localhost:`` is ``localhost``).

Refused, each with its reason: user information (``user@``), a path, query or fragment
(``/``, ``?``, ``#``), a backslash, percent-encoding, white space, control characters, bytes
outside ASCII, an empty label (``a..b``, ``.localhost``), a port that is not a number.
"""

from __future__ import annotations

import functools
import ipaddress
import re
import string
from dataclasses import dataclass

__all__ = ["HostHeader", "InvalidHost", "read_host"]

_MAX_NAME = 253
_MAX_LABEL = 63
_MAX_PORT = 65535
_NAME_CHARS = frozenset(string.ascii_lowercase + string.digits + "-.")
_PORT_RE = re.compile(r"[0-9]{0,5}")
_NUMBER_RE = re.compile(r"[0-9]+|0x[0-9a-f]*")
"""A label a browser reads as a number (the WHATWG URL standard's "ends in a number")."""
_IDN_PREFIX = "xn--"

_REASONS = (
    ("@", "user information ('name@') has no place in Host"),
    ("/?#", "a path, query or fragment ('/', '?', '#') has no place in Host"),
    ("\\", "a backslash has no place in Host (a browser reads it as '/')"),
    ("%", "a host is never percent-encoded (a browser decodes it before sending)"),
    (" \t", "a host holds no white space"),
)


class InvalidHost(ValueError):
    """A ``Host`` value that is no ``host[:port]``; the message says why, in plain words."""


@dataclass(frozen=True, slots=True)
class HostHeader:
    """A ``Host`` header read: ``name`` lower-case, without brackets or final dot (``localhost``,
    ``127.0.0.1``, ``::1``); ``address`` the IP address when it is one; ``port`` or None."""

    name: str
    address: ipaddress.IPv4Address | ipaddress.IPv6Address | None
    port: int | None


@functools.lru_cache(maxsize=256)
def read_host(value: str) -> HostHeader:
    """Read a ``Host`` header value (surrounding white space dropped); raises
    :class:`InvalidHost` for anything but ``host[:port]`` as the module describes.

    >>> read_host("LocalHost.:8765")
    HostHeader(name='localhost', address=None, port=8765)
    >>> read_host("[::1]").address
    IPv6Address('::1')
    >>> read_host("127.1")
    Traceback (most recent call last):
    ...
    memory_api.http.host_header.InvalidHost: '127.1' is not an IPv4 address written as four ...
    """
    text = value.strip()
    _refuse_characters(text)
    if text.startswith("["):
        inside, bracket, rest = text[1:].partition("]")
        if not bracket:
            raise InvalidHost("an IPv6 address in Host lacks its closing ']'")
        if rest and not rest.startswith(":"):
            raise InvalidHost(f"{rest!r} follows the bracketed address; only ':port' may")
        return HostHeader(inside.lower(), _ipv6(inside), _port(rest[1:]) if rest else None)
    name, colon, port = text.partition(":")
    if ":" in port:
        raise InvalidHost("an IPv6 address in Host must be in brackets ('[::1]:8765')")
    lower = name.lower()
    address = _ipv4(lower) if _ends_in_number(lower) else None
    if address is None:
        _check_host_name(lower)
    return HostHeader(lower.removesuffix("."), address, _port(port) if colon else None)


def _refuse_characters(text: str) -> None:
    """Raise :class:`InvalidHost` naming the first kind of character no host holds."""
    if text.startswith("[") and "%" in text:
        raise InvalidHost(
            "an IPv6 zone id ('%25eth0') names a network interface, not a host, and no "
            "browser sends one"
        )
    for characters, reason in _REASONS:
        if any(character in text for character in characters):
            raise InvalidHost(reason)
    if not text.isascii():
        raise InvalidHost(
            "a host holds only ASCII: a browser sends an internationalised name in its 'xn--' form"
        )
    if not text.isprintable():
        raise InvalidHost("a host holds no control characters")


def _port(text: str) -> int | None:
    if _PORT_RE.fullmatch(text) is None or (text and int(text) > _MAX_PORT):
        raise InvalidHost(f"the port {text!r} is not a number from 0 to {_MAX_PORT}")
    return int(text) if text else None


def _ends_in_number(name: str) -> bool:
    labels = name.removesuffix(".").split(".")
    return _NUMBER_RE.fullmatch(labels[-1]) is not None


def _ipv4(name: str) -> ipaddress.IPv4Address:
    try:
        return ipaddress.IPv4Address(name)
    except ValueError:
        raise InvalidHost(
            f"{name!r} is not an IPv4 address written as four decimal numbers (as browsers "
            "send it: 127.0.0.1)"
        ) from None


def _ipv6(text: str) -> ipaddress.IPv6Address:
    try:
        return ipaddress.IPv6Address(text)
    except ValueError:
        raise InvalidHost(f"[{text}] is not an IPv6 address") from None


def _check_host_name(name: str) -> None:
    """Raise :class:`InvalidHost` unless ``name`` (lower-case) is a host name as the module
    describes; an empty name passes (RFC 9110 7.2: a target without authority)."""
    if not name:
        return
    if len(name.removesuffix(".")) > _MAX_NAME:
        raise InvalidHost(f"a host name is {_MAX_NAME} characters at most")
    stray = sorted(set(name) - _NAME_CHARS)
    if stray:
        shown = " ".join(repr(character) for character in stray)
        raise InvalidHost(f"a host name holds letters, digits, '-' and '.', not {shown}")
    for label in name.removesuffix(".").split("."):
        _check_label(label)


def _check_label(label: str) -> None:
    if not label:
        raise InvalidHost("a host name has no empty label (no '..', no leading '.')")
    if len(label) > _MAX_LABEL:
        raise InvalidHost(f"a label of a host name is {_MAX_LABEL} characters at most")
    if label.startswith("-") or label.endswith("-"):
        raise InvalidHost(f"the label {label!r} begins or ends with '-'")
    if label.startswith(_IDN_PREFIX):
        encoded = label[len(_IDN_PREFIX) :]
        try:
            decoded = encoded.encode("ascii").decode("punycode")
        except UnicodeError:
            decoded = ""
        if decoded.isascii() or decoded.encode("punycode") != encoded.encode("ascii"):
            raise InvalidHost(
                f"the label {label!r} begins with 'xn--' but is not the ASCII form of an "
                "internationalised name"
            )
