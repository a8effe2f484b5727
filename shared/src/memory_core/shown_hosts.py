"""Which host a piece of text names, and whether two hosts are one site (I-9, T-5b).

:mod:`memory_core.look_alike_links` asks two questions of short texts: does a link's text show
a person an address (``[github.com](…)``, ``[https://github.com/x](…)``), and does the user name
before an ``@`` of an address look like a host (``https://github.com@evil.example/``)? Only a
text that really reads as an address counts, so that ordinary links raise nothing:

- a full address with a scheme (``https://…``, ``ftp://…``): its host, in any case;
- else a bare host name, optionally with ``:port`` and a path (``docs.python.org/3``), written
  in lower case as an address bar shows it (``Deno.land``, ``ASP.NET``, ``Socket.IO`` and
  ``ＧＩＴＨＵＢ.com`` are names), of labels of letters and digits joined by single hyphens,
  under a top-level domain people read as a site's ending (:data:`SITE_ENDINGS`, or one in
  another script: ``.рф``, ``.中国``). A file name (``index.php``, ``App.tsx``,
  ``CHANGELOG.rst``, ``README.md``, ``setup.py``) or a version (``v1.2``) ends otherwise.

Two hosts are one site (:func:`site_key`) when they are equal once NFKC-normalised,
case-folded, with punycode labels spelled in their letters (``xn--mnchen-3ya.de`` is
``münchen.de``), the ideographic full stops ``。．｡`` read as dots, without a trailing dot (the
fully qualified ``foo.example.com.``) or a leading ``www.``.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import unquote

import regex

__all__ = [
    "SITE_ENDINGS",
    "address_host",
    "named_host",
    "same_site",
    "site_key",
    "spelled",
    "user_host",
]

SITE_ENDINGS = frozenset(
    [
        "com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "io", "co", "dev",
        "app", "ai", "me", "tv", "xyz", "online", "site", "tech", "cloud", "shop", "store",
        "eu", "asia", "uk", "de", "fr", "nl", "be", "ch", "at", "li", "lu", "it", "es", "pt",
        "ie", "se", "no", "dk", "fi", "is", "ee", "lv", "lt", "cz", "sk", "hu", "ro", "bg",
        "gr", "cy", "mt", "si", "hr", "ba", "ru", "ua", "by", "kz", "ge", "tr", "il", "ae",
        "sa", "qa", "eg", "za", "ng", "ke", "us", "ca", "mx", "br", "ar", "pe", "uy", "ve",
        "au", "nz", "jp", "cn", "hk", "tw", "kr", "sg", "th", "vn", "id", "ph", "pk", "bd",
        "lk", "np", "ir",
    ]
)  # fmt: skip
"""ASCII top-level domains read as a site's ending: the generic ones people meet and the
country codes of most sites. A conservative list: a top-level domain that is also a common
file ending (``.md`` Moldova, ``.py`` Paraguay, ``.pl``, ``.sh``, ``.rs``, ``.in``, ``.ml``,
``.so``, ``.pm``, ``.tf``, ``.cc``, ``.cl``, ``.pro``, ``.mobi``) is left out, as ``README.md``
and ``setup.py`` name files far more often than hosts; a host under one of those is not judged
as a link text (a miss, never a false finding)."""

_LABEL = regex.compile(r"[^\W_]+(?:-+[^\W_]+)*")
_PORT = regex.compile(r":\d{1,5}$")
_SCHEME = regex.compile(r"(?i)(?:https?|ftp)://")
_OTHER_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
_WRAPPING = " \t<>`"


def spelled(label: str) -> str:
    """A label as its letters: a punycode label (``xn--…``) decoded, else as written."""
    if label.startswith("xn--"):
        try:
            return label.encode("ascii").decode("idna")
        except UnicodeError:
            return label
    return label


def site_key(host: str) -> str:
    """``host`` as one site reads it (see the module docstring): ``WWW.Xn--Mnchen-3ya.DE.``
    and ``münchen.de`` are both ``münchen.de``."""
    folded = unicodedata.normalize("NFKC", host.translate(_OTHER_DOTS)).casefold().strip(".")
    letters = ".".join(spelled(label) for label in folded.split("."))
    key = unicodedata.normalize("NFKC", letters).casefold()
    return key.removeprefix("www.")


def same_site(shown: str, real: str) -> bool:
    """Whether a host shown as ``shown`` is the site ``real`` leads to: the same
    :func:`site_key`, or one a sub-domain of the other (``python.org`` for
    ``docs.python.org``, ``docs.github.com`` for ``github.com``)."""
    one, other = site_key(shown), site_key(real)
    return one == other or one.endswith(f".{other}") or other.endswith(f".{one}")


def address_host(address: str) -> str:
    """The host of ``address`` (``scheme://[user@]host[:port][/…]``) as written, without a
    user name or port: ``evil.example`` of ``https://github.com@evil.example:8443/x``."""
    authority = address.split("://", 1)[-1]
    for end in "/?#\\":
        authority = authority.split(end, 1)[0]
    host = authority.rpartition("@")[2]
    if host.startswith("["):  # an IPv6 address
        return host.split("]", 1)[0] + "]"
    return _PORT.sub("", host)


def _bare_host(text: str, *, any_case: bool) -> str | None:
    """The host a bare name (``github.com``, ``docs.python.org/3``, ``example.com:8080``)
    names, or None: see the module docstring; ``any_case`` lets it be written in capitals
    (it stands inside an address)."""
    for end in "/?#":
        text = text.split(end, 1)[0]
    host = _PORT.sub("", unicodedata.normalize("NFKC", text).translate(_OTHER_DOTS))
    if not any_case and host != host.lower():
        return None
    labels = host.rstrip(".").split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels):
        return None
    top = spelled(labels[-1].lower())
    if top.isascii() and top not in SITE_ENDINGS:
        return None
    return host


def named_host(text: str) -> str | None:
    """The host a link's text shows a person, or None when the text is no address (see the
    module docstring): ``github.com`` for ``[https://github.com/x]`` and ``[github.com]``;
    None for ``[Node.js]``, ``[ASP.NET Core]``, ``[index.php]`` or ``[v1.2]``."""
    text = text.strip(_WRAPPING)
    if _SCHEME.match(text):
        host = address_host(text)
        return host or None
    if any(char.isspace() for char in text):
        return None
    return _bare_host(text, any_case=False)


def user_host(user: str) -> str | None:
    """The host the user name before an address's ``@`` reads as, or None: ``github.com`` of
    ``github.com``, ``apple.com:443`` or ``github.com%2F``; None of a person's name
    (``first.last``, ``git``), an e-mail address (``jdoe%40corp.com``) or ``user:password``."""
    decoded = unquote(user).rstrip("/")
    return _bare_host(decoded, any_case=True) if "@" not in decoded else None
