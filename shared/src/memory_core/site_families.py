"""Which site a host is, for a link whose text shows one host and leads to another (I-9, T-5b).

One site often answers at several registrable domains: GitHub serves a repository's files from
``raw.githubusercontent.com``, Go's documentation moved from ``golang.org`` to ``go.dev``,
Outlook on the web is ``outlook.office.com`` as much as ``outlook.com``, a YouTube link is
shortened as ``youtu.be``. A link text showing one of them and leading to another is that site,
not a look-alike; :data:`SITE_FAMILIES` names each site's own domains (never a public shortener:
``bit.ly`` leads wherever anyone points it).

Some of those domains hand sub-domains out: a Read the Docs project is
``requests.readthedocs.io``, an S3 bucket ``bucket.s3.amazonaws.com``, a GitHub Pages site
``acme.github.io``, each its own registrable domain under the Public Suffix List's private
section. Such a host is its tenant's site, never the owner's: ``[github.com](https://evil.github.io)``
still shows one site and leads to another. A tenant is one whichever of the owner's endpoints
serves it (:data:`TENANT_NAMESPACES`: a bucket in every S3 region and website endpoint, a
project under ``readthedocs.org`` as under ``readthedocs.io``, where it moved); a bucket's
name is all the labels before its endpoint (``a.b.s3.amazonaws.com`` is the bucket ``a.b``,
no tenant of the bucket ``b``).

:func:`site_of` gives a host's site as ``(site, tenant)``: a host of no family is its own
registrable domain with no tenant, as before.

>>> site_of("raw.githubusercontent.com", "githubusercontent.com", "raw.githubusercontent.com")
('github', '')
>>> site_of("evil.github.io", "github.io", "evil.github.io")
('github', 'evil.github.io')
>>> site_of("b.s3.eu-west-1.amazonaws.com",
...         "s3.eu-west-1.amazonaws.com", "b.s3.eu-west-1.amazonaws.com")
('aws', 'b.s3.amazonaws.com')
>>> site_of("s3-evil.s3.amazonaws.com", "s3.amazonaws.com", "s3-evil.s3.amazonaws.com")
('aws', 's3-evil.s3.amazonaws.com')
>>> site_of("a.b.s3.eu-west-1.amazonaws.com",
...         "s3.eu-west-1.amazonaws.com", "b.s3.eu-west-1.amazonaws.com")
('aws', 'a.b.s3.amazonaws.com')
"""

from __future__ import annotations

import regex

__all__ = [
    "S3_ENDPOINT",
    "SITE_FAMILIES",
    "TENANT_NAMESPACES",
    "family_domain",
    "namespace_of",
    "site_of",
]

SITE_FAMILIES: dict[str, frozenset[str]] = {
    "github": frozenset(
        [
            "github.com",
            "githubusercontent.com",
            "githubassets.com",
            "github.io",
            "github.blog",
            "git.io",
            "gh.io",
        ]
    ),
    "go": frozenset(["go.dev", "golang.org"]),
    "google": frozenset(["google.com", "goo.gl", "g.co"]),
    "youtube": frozenset(["youtube.com", "youtu.be", "youtube-nocookie.com"]),
    "microsoft": frozenset(
        [
            "microsoft.com",
            "aka.ms",
            "office.com",
            "office365.com",
            "outlook.com",
            "live.com",
            "microsoftonline.com",
        ]
    ),
    "amazon": frozenset(["amazon.com", "amzn.to"]),
    "aws": frozenset(["amazonaws.com", "aws.amazon.com"]),
    "readthedocs": frozenset(["readthedocs.io", "readthedocs.org", "readthedocs.com"]),
    "twitter": frozenset(["twitter.com", "x.com", "t.co"]),
    "reddit": frozenset(["reddit.com", "redd.it"]),
    "facebook": frozenset(["facebook.com", "fb.me", "fb.com", "fb.watch"]),
    "instagram": frozenset(["instagram.com", "instagr.am"]),
    "linkedin": frozenset(["linkedin.com", "lnkd.in"]),
    "wordpress": frozenset(["wordpress.com", "wp.me"]),
    "apple": frozenset(["apple.com", "apple.co"]),
    "spotify": frozenset(["spotify.com", "spoti.fi"]),
}
"""Each site's own domains (registrable ones, under a top-level or country suffix, or the one
host of another's that is the site: ``aws.amazon.com``), run by the company that runs the site:
a link text showing one and leading to another is one site. A sub-domain one of them hands out
(a private suffix's tenant) stays its tenant's site. Amazon's store is not AWS: anyone's
bucket is under ``s3.amazonaws.com``, so ``[amazon.com](https://s3.amazonaws.com/b/signin)``
leads to another site than it shows."""

_REGION = r"[a-z]{2}(?:-[a-z]+)+-[0-9]+"
"""An AWS region's name: ``us-east-1``, ``eu-west-1``, ``us-gov-west-1``, ``ap-southeast-2``."""

S3_ENDPOINT = regex.compile(
    rf"s3(?:[.-]{_REGION}|-website[.-]{_REGION}|\.dualstack\.{_REGION})?\.amazonaws\.com"
)
"""The host of an S3 endpoint, matched whole, its labels fixed: ``s3``, ``s3.<region>``,
``s3-<region>``, ``s3-website-<region>``, ``s3-website.<region>``,
``s3.dualstack.<region>``, each under ``amazonaws.com``. A bucket's host
(``s3-evil.s3.amazonaws.com``: a bucket may be named ``s3-evil``) is never one."""

TENANT_NAMESPACES: tuple[tuple[regex.Pattern[str], str], ...] = (
    (S3_ENDPOINT, "s3.amazonaws.com"),
    (regex.compile(r"readthedocs\.(?:io|org)"), "readthedocs.io"),
)
"""Suffixes under which one tenant name is one tenant, with the suffix it is read under: an S3
bucket's name is one in every region and endpoint (``bucket.s3.eu-west-1.amazonaws.com``,
``bucket.s3-website-us-east-1.amazonaws.com``), and a Read the Docs project moved from
``readthedocs.org`` to ``readthedocs.io`` (the first still redirects)."""

_OWNER = {domain: owner for owner, domains in SITE_FAMILIES.items() for domain in domains}
_EVERY_HOST_OWN = frozenset(["githubusercontent.com"])
"""Family domains the Public Suffix List lists as private suffixes only to keep their hosts'
cookies apart, every host of which the owner runs (``raw.githubusercontent.com``,
``gist.githubusercontent.com``, ``avatars.githubusercontent.com``: GitHub's)."""
_HOSTING = frozenset(["amazonaws.com"])
"""Family domains whose hosts are the owner's customers' unless the Public Suffix List or
:data:`TENANT_NAMESPACES` names them (``ec2-198-51-100-1.compute-1.amazonaws.com`` is someone's
server, each host its own site)."""
_TENANT_DOMAINS = frozenset(["readthedocs.org"])
"""Family domains that hand out sub-domains the Public Suffix List does not list as private
suffixes (``requests.readthedocs.org``, a project's old address)."""


def family_domain(host: str) -> str | None:
    """The domain of :data:`SITE_FAMILIES` ``host`` (a :func:`~memory_core.shown_hosts.site_key`)
    is or is under (``go.dev`` of ``pkg.go.dev``), else None."""
    labels = host.split(".")
    for start in range(len(labels) - 1):
        if (domain := ".".join(labels[start:])) in _OWNER:
            return domain
    return None


def site_of(host: str, suffix: str, registrable: str) -> tuple[str, str]:
    """``(site, tenant)`` of ``host`` (a :func:`~memory_core.shown_hosts.site_key`), given its
    public ``suffix`` and ``registrable`` domain by the Public Suffix List (private section
    included): the family of :data:`SITE_FAMILIES` it is under, with the tenant whose
    sub-domain it is (a host under a private suffix, or one itself: ``acme.github.io``), or
    ``""`` for the owner's own hosts (``docs.github.com``; the endpoints of
    :data:`TENANT_NAMESPACES`, ``s3.amazonaws.com``); else its registrable domain, no tenant."""
    domain = family_domain(host)
    if domain is None:
        return registrable, ""
    owner = _OWNER[domain]
    if domain in _EVERY_HOST_OWN or host == domain:
        return owner, ""
    if domain in _TENANT_DOMAINS:
        tenant = host.removesuffix(f".{domain}").rpartition(".")[2]
        return owner, _one_namespace(f"{tenant}.{domain}")
    if any(pattern.fullmatch(host) for pattern, _ in TENANT_NAMESPACES):
        return owner, ""  # an endpoint of the owner's serving its tenants: s3.amazonaws.com
    if suffix == domain or suffix.endswith(f".{domain}"):  # under a private suffix: a tenant
        if S3_ENDPOINT.fullmatch(suffix) and host != suffix:  # a bucket's name may hold dots
            return owner, f"{host.removesuffix(f'.{suffix}')}.s3.amazonaws.com"
        return owner, _one_namespace(host if host == suffix else registrable)
    return (owner, host) if domain in _HOSTING else (owner, "")


def namespace_of(host: str) -> str:
    """``host`` (a :func:`~memory_core.shown_hosts.site_key`) read in the one namespace of its
    platform's tenants (:data:`TENANT_NAMESPACES`): an endpoint as the suffix it is read under
    (``s3.eu-west-1.amazonaws.com`` → ``s3.amazonaws.com``, ``readthedocs.org`` →
    ``readthedocs.io``), a tenant's host as that tenant's (``b.s3-us-west-2.amazonaws.com`` →
    ``b.s3.amazonaws.com``); any other host as it is."""
    for pattern, one in TENANT_NAMESPACES:
        if pattern.fullmatch(host):
            return one
    return _one_namespace(host)


def _one_namespace(tenant: str) -> str:
    """A tenant's domain under the suffix its namespace is read under
    (:data:`TENANT_NAMESPACES`): ``b.s3.amazonaws.com`` for ``b.s3.eu-west-1.amazonaws.com``."""
    name, _, suffix = tenant.partition(".")
    for pattern, one in TENANT_NAMESPACES:
        if pattern.fullmatch(suffix):
            return f"{name}.{one}"
    return tenant
