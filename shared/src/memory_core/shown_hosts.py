"""Which host a piece of text names, and whether two hosts are one site (I-9, T-5b).

:mod:`memory_core.look_alike_links` asks two questions of short texts: does a link's text show
a person an address (``[github.com](…)``, ``[https://github.com/x](…)``), and does the user name
before an ``@`` of an address look like a host (``https://github.com@evil.example/``)? Only a
text that really reads as an address counts, so that ordinary links raise nothing:

- a full address with a scheme (``https://…``, ``ftp://…``): its host, in any case;
- else a bare host name, optionally with ``:port`` and a path (``docs.python.org/3``), written
  in lower case as an address bar shows it (``Deno.land``, ``ASP.NET``, ``Socket.IO`` and
  ``ＧＩＴＨＵＢ.com`` are names), of labels of letters and digits joined by single hyphens,
  under a top-level domain (one the Public Suffix List knows: ``.com``, ``.museum``, ``.ly``,
  or one in another script: ``.рф``, ``.中国``) that is no common file ending
  (:data:`FILE_ENDINGS`). A file name (``index.php``, ``App.tsx``, ``CHANGELOG.rst``,
  ``README.md``, ``setup.py``) or a version (``v1.2``) ends otherwise.

A host is read as one site reads it (:func:`site_key`): NFKC-normalised, case-folded, with
punycode labels spelled in their letters (``xn--mnchen-3ya.de`` is ``münchen.de``), the
ideographic full stops ``。．｡`` read as dots, without a trailing dot (the fully qualified
``foo.example.com.``) or a leading ``www.``. Two hosts are one site (:func:`same_site`) when
they have one registrable domain by the Public Suffix List (the ``publicsuffixlist`` package's
bundled copy, never fetched): ``docs.github.com`` and ``github.com`` are one site,
``alice.github.io`` and ``bob.github.io`` two (``github.io`` is a suffix anyone registers
under, as ``co.uk`` is), and ``github.com.evil.io`` is a host of ``evil.io``. A site's own
domains are that site (:mod:`memory_core.site_families`: ``youtu.be`` is YouTube's,
``raw.githubusercontent.com`` GitHub's, ``go.dev`` is ``golang.org``), a tenant of them its
tenant's (``evil.github.io``, ``requests.readthedocs.io``).

A host whose first labels spell another site (:func:`spelled_site`: ``github.com.evil.io``,
``www.paypal.com.login.example``) reads as that site to a person, who stops at the first
``.com``: its labels before its registrable domain end in ``.com``, ``.net`` or ``.org`` or a
second-level suffix (``.co.uk``, ``.com.au``), with a label before it. A country code there is
no such ending (``shop.de.example.com`` is a country's shop of ``example.com``), nor ``edu``
(``psycho.edu.yamaguchi-u.ac.jp`` is a faculty's host of a university). So does a site a hosting
platform hands out under a name that spells another site (:func:`spelled_tenant`:
``paypal.com.s3.amazonaws.com``, ``paypal-com.s3.amazonaws.com``, ``bbc.co.uk.github.io``):
anyone may take such a name there.
"""

from __future__ import annotations

import ipaddress
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import unquote

import regex

from memory_core.site_families import namespace_of, site_of

if TYPE_CHECKING:
    from publicsuffixlist import PublicSuffixList

__all__ = [
    "FILE_ENDINGS",
    "SITE_ENDINGS",
    "address_host",
    "named_host",
    "registrable",
    "same_site",
    "site_key",
    "spelled",
    "spelled_site",
    "spelled_tenant",
    "user_host",
]

FILE_ENDINGS = frozenset(
    [
        "md", "py", "pl", "sh", "rs", "so", "pm", "ml", "tf", "cc", "cl", "in", "pro", "mobi",
        "zip", "mov", "ps", "mk", "ac", "pub", "properties", "sc", "cr", "sv", "gs", "mm", "mo",
        "re", "as", "gd", "st", "ts", "java", "cpp", "go", "rb", "txt", "php", "lua", "dart",
    ]
)  # fmt: skip
"""Top-level domains that are also common file endings (``README.md``, ``setup.py``,
``run.sh``, ``lib.rs``, ``main.tf``, ``configure.ac``, ``id_rsa.pub``, ``app.properties``,
``archive.zip``; a few are no domain today and are named in case one is delegated): a bare
name under one reads as a file far more often than as a host, so it is not judged as a link
text (a miss, never a false finding)."""

_COMMON_ENDINGS = frozenset(
    [
        "com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "io", "co", "dev",
        "app", "ai", "me", "tv", "xyz", "online", "site", "tech", "cloud", "shop", "store",
    ]
)  # fmt: skip
SITE_ENDINGS = _COMMON_ENDINGS
"""The generic top-level domains people meet most (kept for callers: any top-level domain the
Public Suffix List knows, but :data:`FILE_ENDINGS`, now reads as a site's ending)."""

_SPELLED_ENDINGS = frozenset(["com", "net", "org"])
"""The endings that make a host's first labels read as a site of their own
(:func:`spelled_site`); a country code does not (``de.example.com`` is common), nor ``edu`` or
``gov``, which name a faculty or an office under a university's or a country's domain
(``psycho.edu.yamaguchi-u.ac.jp``)."""

_HYPHEN_ENDINGS = frozenset(["com"])
"""The endings a tenant name written with a hyphen for the dot reads as (``paypal-com`` as
``paypal.com``): ``com`` is no word of a name, where ``net`` and ``org`` are (``home-net``,
``acme-org``: a GitHub organisation's ``acme-org.github.io``)."""

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


@lru_cache(maxsize=1)
def _suffixes() -> PublicSuffixList:
    """The Public Suffix List, read from the package's bundled copy on first use (~0.15 s,
    once per process: only a lint with a web address pays it; the hooks never do)."""
    from publicsuffixlist import PublicSuffixList  # paid on first use only

    return PublicSuffixList()


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


@lru_cache(maxsize=4096)
def registrable(host: str) -> str:
    """The registrable domain of ``host`` read as one site (:func:`site_key`): its public
    suffix and one label more (``docs.github.com`` → ``github.com``, ``a.b.github.io`` →
    ``b.github.io``, ``www.bbc.co.uk`` → ``bbc.co.uk``); a host that is a suffix itself, an IP
    address or a single label is its own."""
    key = site_key(host)
    if not key or _is_address(key):
        return key
    return _text(_suffixes().privatesuffix(key)) or key


def _text(found: object) -> str | None:
    """A Public Suffix List answer for a ``str`` domain: a ``str``, or None (it answers bytes
    labels only for labels given as bytes)."""
    return found if isinstance(found, str) else None


def same_site(shown: str, real: str, *, alone: bool = False, platform: bool = True) -> bool:
    """Whether a host shown as ``shown`` is the site ``real`` leads to: one registrable domain
    (:func:`registrable`: ``python.org`` for ``docs.python.org``; not ``alice.github.io`` for
    ``bob.github.io``, nor ``github.com`` for ``github.com.evil.io``), or one site's own
    domains (:mod:`memory_core.site_families`: ``raw.githubusercontent.com`` is GitHub's,
    ``go.dev`` and ``golang.org`` one site, ``youtu.be`` YouTube's) and one tenant of them
    (``evil.github.io`` is not GitHub's own, ``bucket.s3.eu-west-1.amazonaws.com`` is
    ``bucket.s3.amazonaws.com``); or ``shown`` names a hosting platform (a suffix of the Public
    Suffix List's private section) that ``real`` is a site under: ``[readthedocs.io](https://
    charset-normalizer.readthedocs.io/)`` says where the docs are hosted, and the address a
    browser shows ends with what the text shows (``[alice.github.io]`` for ``bob.github.io``
    does not). A platform's tenants are read in their one namespace
    (:func:`~memory_core.site_families.namespace_of`): ``[s3.eu-west-1.amazonaws.com]`` names
    the platform of ``b.s3.amazonaws.com``; so does a text showing ``alone`` (no path) a domain
    the platform's tenants moved from, which serves the owner's own pages too
    (``[readthedocs.org]`` for ``docs.readthedocs.io``, not ``[readthedocs.org/x]``).

    ``platform`` false (a user name before an ``@``, I-9: a deception wherever it stands, never
    where a site says where it is hosted) leaves the hosting platform out: only one registrable
    domain or one site's own domains are the same site (``readthedocs.org@evil.readthedocs.io``
    and ``github.io@evil.github.io`` are not)."""
    shown_key, real_key = site_key(shown), site_key(real)
    if shown_key == real_key:
        return True  # the usual link text, its own address: no list read
    if platform and _under_platform(shown_key, real_key, alone=alone):
        return True
    return _site(shown) == _site(real)


def _under_platform(shown_key: str, real_key: str, *, alone: bool) -> bool:
    """Whether ``real_key`` is a site under the hosting platform ``shown_key`` names, both
    read in their tenants' one namespace (see :func:`same_site`)."""
    if real_key.endswith(f".{shown_key}") and _is_platform(shown_key):
        return True
    if not (alone or _is_platform(shown_key)):
        return False
    platform = namespace_of(shown_key)
    return namespace_of(real_key).endswith(f".{platform}") and _is_platform(platform)


@lru_cache(maxsize=1)
def _icann_suffixes() -> PublicSuffixList:
    """The Public Suffix List's ICANN section alone (the bundled copy, read on first use)."""
    from publicsuffixlist import PublicSuffixList  # paid on first use only

    return PublicSuffixList(only_icann=True)


@lru_cache(maxsize=1024)
def _is_platform(key: str) -> bool:
    """Whether ``key`` (a :func:`site_key`) is a suffix of the Public Suffix List's private
    section, one a hosting platform hands its users' sites out under (``readthedocs.io``,
    ``github.io``, ``s3.amazonaws.com``, ``netlify.app``), not a top-level or country one."""
    return bool(_suffixes().is_public(key)) and not _icann_suffixes().is_public(key)


@lru_cache(maxsize=4096)
def _site(host: str) -> tuple[str, str]:
    """``(site, tenant)`` of ``host`` (:func:`~memory_core.site_families.site_of`)."""
    key = site_key(host)
    if not key or _is_address(key):
        return key, ""
    suffix = _text(_suffixes().publicsuffix(key)) or key
    return site_of(key, suffix, registrable(key))


@lru_cache(maxsize=4096)
def spelled_site(host: str) -> str | None:
    """The site the first labels of ``host`` spell when that is not the site it is
    (``github.com`` of ``github.com.evil.io``, ``paypal.com`` of ``www.paypal.com.login.io``,
    ``bbc.co.uk`` of ``bbc.co.uk.example.org``), else None: see the module docstring."""
    key = site_key(host)
    if key.count(".") < 3 or _is_address(key):
        return None
    owner = registrable(key)
    head = key.removesuffix(owner).rstrip(".")
    if not head or head == key or "." not in head:
        return None
    suffix = _text(_suffixes().publicsuffix(head, accept_unknown=False))
    if suffix is None or (suffix not in _SPELLED_ENDINGS and "." not in suffix):
        return None
    spelled_as = _text(_suffixes().privatesuffix(head, accept_unknown=False))
    return spelled_as if spelled_as and spelled_as != owner else None


@lru_cache(maxsize=4096)
def spelled_tenant(host: str) -> tuple[str, str, str] | None:
    """``(tenant, site, platform)`` when ``host`` is a site under a hosting platform's suffix
    (:func:`_is_platform`: ``s3.amazonaws.com``, ``github.io``) whose tenant name, the name
    anyone may take there, spells another site: ``paypal.com`` of
    ``paypal.com.s3.amazonaws.com`` (an S3 bucket's name may hold dots) or of
    ``paypal.com.github.io``, and ``paypal-com`` (a hyphen for the dot) of
    ``paypal-com.s3.amazonaws.com``, each read as ``paypal.com`` (:data:`_HYPHEN_ENDINGS`);
    else None. The name spells a
    site as :func:`spelled_site`'s first labels do: ending in ``.com``, ``.net`` or ``.org``
    (or a second-level suffix, dotted) with a label before it."""
    key = site_key(f"x.{host}").removeprefix("x.")  # as site_key reads it, a ``www.`` kept
    if _is_address(key):
        return None
    platform = _text(_suffixes().publicsuffix(key)) or key
    if platform == key or not _is_platform(platform):
        return None
    tenant = key.removesuffix(f".{platform}")
    dotted = tenant
    if "." not in tenant and tenant.rpartition("-")[2] in _HYPHEN_ENDINGS:
        dotted = ".".join(tenant.rsplit("-", 1))
    suffix = _text(_suffixes().publicsuffix(dotted, accept_unknown=False))
    if suffix is None or suffix == dotted:
        return None
    if suffix not in _SPELLED_ENDINGS and ("." not in suffix or "." not in tenant):
        return None
    spelled_as = _text(_suffixes().privatesuffix(dotted, accept_unknown=False))
    return (tenant, spelled_as, platform) if spelled_as else None


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
    if top.isascii() and (top in FILE_ENDINGS or not _known_ending(top)):
        return None
    return host


@lru_cache(maxsize=1024)
def _known_ending(top: str) -> bool:
    """Whether ``top`` is a top-level domain the Public Suffix List knows (``museum``, ``ly``,
    ``gg``); the common ones are known without reading the list."""
    return (
        top in _COMMON_ENDINGS or _text(_suffixes().publicsuffix(top, accept_unknown=False)) == top
    )


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
