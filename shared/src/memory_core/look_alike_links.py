"""Web addresses that read as one site and lead to another (I-9, T-5b).

A note that says ``[docs](https://gіthub.com/acme/deploy)`` with a Cyrillic ``і`` (U+0456)
shows a person ``github.com``; an agent that follows it, and a person who clicks it, reach
another host. The same goes for a host drawn wholly in another script's look-alike letters
(``аррӏе.com``, all Cyrillic, under a domain not at home in that script: not ``.ru``), for a
host hidden behind a user name that looks like one (``https://github.com@evil.example/``: the
host is ``evil.example``), for a host whose first labels spell another site
(``https://github.com.evil.io/login`` is a host of ``evil.io``) or that a hosting platform
hands out under a name spelling one (``https://paypal.com.s3.amazonaws.com/``, an S3 bucket
anyone may name so; ``paypal-com.s3.amazonaws.com``), and for a link whose text is
an address of another site than the one it leads to
(``[https://github.com/x](https://evil.example/x)``: the page shows only the text).
:func:`look_alike_links` finds each, by line.

A user name or a link text counts only when it really reads as an address
(:mod:`memory_core.shown_hosts`): a full address, or a bare host name in lower case under a
top-level domain people read as a site's ending, never a product (``Node.js``, ``ASP.NET
Core``, ``Deno.land``), a file (``index.php``, ``App.tsx``), a person (``first.last@``) or an
e-mail address (``jdoe%40corp.com@``). A link text naming a file of the path it leads to
(``[notes.org](https://example.com/notes.org)``) is that file. Hosts are compared as one site
reads them: IDNA and punycode alike (``münchen.de`` is ``xn--mnchen-3ya.de``), NFKC,
case-folded, without a trailing dot or ``www.``, one site when they have one registrable
domain by the Public Suffix List (``docs.github.com`` is ``github.com``; ``bob.github.io`` is
not ``alice.github.io``) or both are one site's own domains
(:mod:`memory_core.site_families`: ``[https://youtu.be/x](https://www.youtube.com/watch?v=x)``,
``[github.com/acme/x](https://raw.githubusercontent.com/acme/x/main/a.sh)``, ``go.dev`` for
``golang.org``), a tenant of such a domain being its tenant's site (``evil.github.io`` is not
GitHub's), or the text names the hosting platform the link's site is under, by any of its tenants'
endpoints (``[readthedocs.io](https://charset-normalizer.readthedocs.io/)``,
``[s3.eu-west-1.amazonaws.com](https://b.s3.amazonaws.com/)``; ``[readthedocs.org]``, where
its tenants moved from, only alone: ``readthedocs.org/x`` is a page of the owner's site). A
public shortener (``bit.ly``) is no site's own: a link text showing it and leading elsewhere
stays a finding.

A host's label is judged as UTS #39 judges an identifier at the "highly restrictive" level: its
letters may be of one script, or Latin with the scripts Japanese, Chinese or Korean write
beside it (Han with Hiragana and Katakana, Han with Bopomofo, Han with Hangul); a label of
another single script is a look-alike when its letters are drawn like ASCII ones
(:func:`~memory_core.confusables.skeleton`: ``аррӏе`` is ``apple``). A label in punycode
(``xn--…``) is judged as the letters it spells.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote

import regex

from memory_core.confusables import skeleton
from memory_core.shown_hosts import (
    address_host,
    named_host,
    registrable,
    same_site,
    site_key,
    spelled,
    spelled_site,
    spelled_tenant,
    user_host,
)

__all__ = ["LookAlikeLink", "look_alike_links"]

# An address: its scheme, an optional user name (up to the last @ before the host) and host.
_ADDRESS = regex.compile(
    r"(?i)\b(?:https?|ftp)://(?:(?P<user>[^/\s?#@<>\[\]()\"'`]*)@)?"
    r"(?P<host>[^/\s?#:@<>\[\]()\"'`|\\]+)"
)
# Where a Markdown link leads: a ``](`` and a web address. A link's text is read back from
# there (:func:`_shown_links`), never searched for forwards from each ``[`` (that scanned to
# the end of the line from every ``[`` without a ``]``: quadratic in a line of ``[a.bc``).
_LINK_TARGET = regex.compile(r"\]\(\s*<?(?P<target>(?i:https?|ftp)://[^\s()<>]+)")
TEXT_CAP = 256
"""The longest link text read as one that shows an address, in characters."""
# Letters of a script of their own (the prolonged sound mark ー is Common: Japanese either way).
_LETTER = regex.compile(r"[\p{L}--[\p{Script=Common}\p{Script=Inherited}]]", regex.V1)
_ALLOWED_WITH_LATIN = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)
_SCRIPTS = (
    "Latin",
    "Cyrillic",
    "Greek",
    "Armenian",
    "Cherokee",
    "Georgian",
    "Han",
    "Hiragana",
    "Katakana",
    "Bopomofo",
    "Hangul",
    "Arabic",
    "Hebrew",
    "Coptic",
    "Lisu",
    "Canadian_Aboriginal",
)
_BY_SCRIPT = {name: regex.compile(rf"\p{{Script={name}}}") for name in _SCRIPTS}
_ASCII_LABEL = regex.compile(r"[a-z0-9-]+")


@dataclass(frozen=True, slots=True)
class LookAlikeLink:
    """One address of a text that reads as another: its 1-based ``line``, the ``host`` as
    written and ``why`` in words (the scripts and letters, or the host it really leads to)."""

    line: int
    host: str
    why: str


def _script(letter: str) -> str:
    """The script of ``letter`` among those that matter for look-alikes; else its Unicode
    name's first word (a script of its own)."""
    for name, pattern in _BY_SCRIPT.items():
        if pattern.match(letter):
            return name
    return unicodedata.name(letter, "UNKNOWN").split()[0].title()


def _letter_names(letters: str) -> str:
    return ", ".join(f"{char} U+{ord(char):04X} {unicodedata.name(char, '?')}" for char in letters)


# The top-level domains where a host written wholly in a script is at home (as browsers show
# such a host as written): a Cyrillic name under .ru, a Greek one under .gr.
_HOME_DOMAINS = {
    "Cyrillic": frozenset(
        [
            "ru",
            "su",
            "by",
            "ua",
            "kz",
            "kg",
            "bg",
            "mk",
            "rs",
            "me",
            "mn",
            "tj",
            "uz",
            "рф",
            "срб",
            "бг",
            "укр",
            "қаз",
            "мкд",
            "мон",
            "бел",
            "рус",
        ]
    ),
    "Greek": frozenset(["gr", "cy", "ελ", "ευ"]),
}


def _label_problem(label: str, top: str = "") -> str | None:
    """Why a host's label reads as another, or None (see the module docstring); ``top`` is
    the host's top-level domain."""
    letters = _LETTER.findall(label)
    if not letters or label.isascii():
        return None
    by_script: dict[str, list[str]] = {}
    for letter in letters:
        by_script.setdefault(_script(letter), []).append(letter)
    scripts = frozenset(by_script)
    if len(scripts) > 1:
        if any(scripts <= allowed for allowed in _ALLOWED_WITH_LATIN):
            return None
        main = "Latin" if "Latin" in scripts else max(scripts, key=lambda n: len(by_script[n]))
        odd = "".join(dict.fromkeys(c for name in scripts - {main} for c in by_script[name]))
        names = " and ".join(sorted(scripts))
        return f"mixes {names} letters ({_letter_names(odd)})"
    [script] = scripts
    looks = _drawn_as(label)
    if (
        script != "Latin"
        and _ASCII_LABEL.fullmatch(looks)
        and top not in _HOME_DOMAINS.get(script, ())
    ):
        return f"is written in {script} letters drawn like the Latin {looks!r}"
    return None


def _drawn_as(text: str) -> str:
    """``text`` with each letter outside ASCII as the letter it is drawn like (its UTS #39
    prototype, when that is one ASCII character): ``gіthub`` → ``github``."""
    shown = []
    for char in text:
        looks = unicodedata.normalize("NFKC", skeleton(char)).casefold() if char.isalpha() else ""
        shown.append(looks if len(looks) == 1 and looks.isascii() and not char.isascii() else char)
    return "".join(shown)


def _host_problem(host: str) -> str | None:
    """Why ``host`` reads as another, or None."""
    folded = unicodedata.normalize("NFKC", host).casefold().rstrip(".")
    top = spelled(folded.rsplit(".", 1)[-1])
    for label in folded.split("."):
        problem = _label_problem(spelled(label), top)
        if problem is not None:
            looks = ".".join(_drawn_as(spelled(part)) for part in folded.split("."))
            return f"{problem}: it reads as {looks!r}"
    return None


def _line_problems(line: str) -> list[tuple[str, str]]:
    """``(host, why)`` of each look-alike address on one line, one per address: its host
    drawn like another, else a user name before its ``@`` that reads as another host, else a
    link text showing another host."""
    found: dict[int, tuple[str, str]] = {}
    for match in _ADDRESS.finditer(line):
        host, user = match.group("host"), match.group("user")
        problem = _host_problem(host)
        if problem is None and (spelled_as := spelled_site(host)) is not None:
            problem = f"starts with {spelled_as!r}: it is a host of {registrable(host)!r}"
        if problem is None and (taken := spelled_tenant(host)) is not None:
            name, spelled_as, platform = taken
            problem = (
                f"is the site named {name!r} under {platform!r}, which reads as {spelled_as!r}: "
                "it is whoever took that name there"
            )
        shown = user_host(user) if user and problem is None else None
        if problem is None and shown is not None and not same_site(shown, host, platform=False):
            problem = f"puts {user!r} before an @: its host is {host!r}"
        if problem is not None:
            found[match.start()] = (host, problem)
    for text, at, target in _shown_links(line):
        shown = named_host(text)
        real = address_host(target)
        alone = _shows_host_alone(text)
        if at in found or shown is None or not real or same_site(shown, real, alone=alone):
            continue
        if _names_a_file_of(text, target):
            continue
        found[at] = (real, f"is behind a link text showing {site_key(shown)!r}")
    return [found[at] for at in sorted(found)]


def _shown_links(line: str) -> Iterator[tuple[str, int, str]]:
    """``(text, at, target)`` of each Markdown link of ``line`` to a web address: its text,
    where its target starts and the target. Found from each ``](`` and read back to the
    nearest ``[`` at most :data:`TEXT_CAP` characters before it (one without a ``]``
    between): linear in the line, whatever brackets it holds. An image (``![alt](src)``) is
    no link: its alt text is shown only in its place, and its source is fetched, never opened
    (``[![https://x.example](https://img.shields.io/…)](https://x.example)``, a badge)."""
    for match in _LINK_TARGET.finditer(line):
        end = match.start()
        start = line.rfind("[", max(0, end - TEXT_CAP - 1), end)
        if start >= 0 and "]" not in line[start + 1 : end] and line[start - 1 : start] != "!":
            yield line[start + 1 : end], match.start("target"), match.group("target")


def _shows_host_alone(text: str) -> bool:
    """Whether a link's ``text`` shows a host and nothing after it (``readthedocs.org``,
    ``https://readthedocs.org/``), not a page of it (``readthedocs.org/x``)."""
    shown = text.strip(" \t<>`").split("://", 1)[-1].rstrip("/")
    return not any(mark in shown for mark in "/?#")


def _names_a_file_of(text: str, target: str) -> bool:
    """Whether a link's ``text`` names a segment of its ``target``'s path: the file the link
    opens (``[index.php](https://example.com/index.php)``, ``[notes.org](…/notes.org)``)."""
    path = target.split("://", 1)[-1].partition("/")[2]
    for end in "?#":
        path = path.split(end, 1)[0]
    segments = {_folded(unquote(segment)) for segment in path.split("/")}
    return _folded(text.strip(" \t<>`")) in segments - {""}


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def look_alike_links(text: str) -> list[LookAlikeLink]:
    """Each web address of ``text`` that reads as another (see the module docstring), by
    1-based line (split on ``\\n``), in order; one finding per address.

    >>> [link.why.split(":")[0] for link in look_alike_links("see https://g\\u0456thub.com/x")]
    ['mixes Cyrillic and Latin letters (і U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I)']
    >>> look_alike_links("see https://github.com/x and https://例え.jp and https://яндекс.рф")
    []
    """
    if "://" not in text:
        return []
    found: list[LookAlikeLink] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if "://" in line:
            found.extend(LookAlikeLink(number, host, why) for host, why in _line_problems(line))
    return found
