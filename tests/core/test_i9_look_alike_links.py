"""I-9, T-5b: a web address that reads as another site is reported as ``look-alike-link``.

A person reads ``github.com`` in ``[docs](https://gіthub.com/acme)`` (a Cyrillic ``і``); the
agent that follows it, or a click, reaches another host. Lint said nothing: the hidden-text
rule looks for characters a person cannot see, and these are seen, only as other letters.
Addresses in one script (``münchen.de``, ``яндекс.рф``, ``例え.jp``) and Latin beside the scripts
Japanese, Chinese and Korean write with it are no look-alikes (UTS #39 highly restrictive).

The finding is an error, so it must not fire on ordinary links: a link text or a user name
counts only when it really reads as an address (never a product, a file, a person's name or an
e-mail address), and two hosts are compared as one site reads them (IDNA and punycode alike,
NFKC, case-folded, without a trailing dot, one registrable domain by the Public Suffix List, a
site's own short domain as that site: ``youtu.be`` fired as another site than YouTube's).
Sub-domains and top-level domains are read by the Public Suffix List too: ``alice.github.io``
and ``bob.github.io`` are two sites, ``https://github.com.evil.io`` is a host of ``evil.io``
that reads as ``github.com``, and ``example.museum`` is a host (it was a miss: ``.museum`` was
in no list). A site's sibling domains are that site, though the list calls them others
(``raw.githubusercontent.com`` beside ``github.com``, ``go.dev`` beside ``golang.org``,
``outlook.office.com`` beside ``outlook.com``: each fired), and so is a site under the hosting
platform a link text names (``[readthedocs.io](https://charset-normalizer.readthedocs.io/)``,
from a package's real metadata, fired; ``[readthedocs.org](https://docs.readthedocs.io)`` fired
too, the platform named by the domain its tenants moved from); ``evil.github.io`` still is not
``github.com``, and a platform's tenant named after another site
(``https://paypal.com.s3.amazonaws.com/``, ``paypal-com.s3…``: an S3 bucket anyone may name
so) reads as that site, which passed unflagged. Every
lint of a topic or index runs it, so its cost is linear in the line, whatever brackets the
line holds.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import regex
from memory_core import look_alike_links as module
from memory_core.lint import lint_index, lint_topic
from memory_core.look_alike_links import TEXT_CAP, look_alike_links
from memory_core.topics import parse_topic


@pytest.mark.parametrize(
    ("text", "host", "reads_as"),
    [
        # letters of two scripts in one label
        ("[docs](https://gіthub.com/acme/deploy)", "gіthub.com", "'github.com'"),
        ("see https://раураl.com/login", "раураl.com", "'paypal.com'"),
        ("<https://gοogle.com>", "gοogle.com", "'google.com'"),  # Greek omicron
        # wholly in look-alike letters of another script, as written or in punycode
        ("https://аррӏе.com/id", "аррӏе.com", "'apple.com'"),
        ("https://xn--80ak6aa92e.com/id", "xn--80ak6aa92e.com", "'apple.com'"),
        # a user name that looks like the host, and a link text showing another host
        ("https://github.com@evil.example/x", "evil.example", "'github.com' before an @"),
        ("[https://github.com/x](https://evil.example/x)", "evil.example", "showing 'github.com'"),
        ("[github.com](https://evil.example)", "evil.example", "showing 'github.com'"),
        ("[www.github.com](https://evil.example)", "evil.example", "showing 'github.com'"),
        ("[github.com/acme](https://evil.example/acme)", "evil.example", "showing 'github.com'"),
        ("[https://GitHub.com/x](https://evil.example/x)", "evil.example", "showing 'github.com'"),
        # a port or a percent-encoded slash after the look-alike user name hides nothing
        ("https://apple.com:443@evil.example/", "evil.example", "'apple.com:443' before an @"),
        ("https://github.com%2F@evil.example/", "evil.example", "'github.com%2F' before an @"),
        # a user name is never where a site says where it is hosted: one naming the hosting
        # platform, or the domain its tenants moved from, deceives as any other host does
        (
            "https://readthedocs.org@evil.readthedocs.io/login",
            "evil.readthedocs.io",
            "'readthedocs.org' before an @",
        ),
        (
            "https://readthedocs.io@evil.readthedocs.io/login",
            "evil.readthedocs.io",
            "'readthedocs.io' before an @",
        ),
        ("https://github.io@evil.github.io/", "evil.github.io", "'github.io' before an @"),
        (
            "https://s3.amazonaws.com@evil.s3.amazonaws.com/key",
            "evil.s3.amazonaws.com",
            "'s3.amazonaws.com' before an @",
        ),
        # a public shortener is no site's own: the text promises it, the link goes elsewhere
        ("[https://bit.ly/x](https://evil.example/x)", "evil.example", "showing 'bit.ly'"),
        # sites are registrable domains (Public Suffix List): a sub-domain of a suffix anyone
        # registers under is another's site than any other shown
        ("[alice.github.io](https://bob.github.io/x)", "bob.github.io", "'alice.github.io'"),
        ("[shop.example.co.jp](https://evil.co.jp)", "evil.co.jp", "'shop.example.co.jp'"),
        # a host whose first labels spell another site, as a person reads it up to ".com"
        ("https://github.com.evil.io/login", "github.com.evil.io", "a host of 'evil.io'"),
        ("[GitHub](https://github.com.evil.io/x)", "github.com.evil.io", "'github.com'"),
        ("https://www.paypal.com.login.example/", "www.paypal.com.login.example", "'paypal.com'"),
        ("https://bbc.co.uk.example.org/news", "bbc.co.uk.example.org", "'bbc.co.uk'"),
        ("[https://github.com.evil.io](https://evil.io)", "github.com.evil.io", "'evil.io'"),
        # under any top-level domain the Public Suffix List knows, not only the common ones
        ("[example.museum](https://evil.museum)", "evil.museum", "showing 'example.museum'"),
        ("[news.example.ly](https://evil.example)", "evil.example", "'news.example.ly'"),
        ("[github.com](https://login-github.com/x)", "login-github.com", "'github.com'"),
    ],
)
def test_i9_an_address_drawn_like_another_is_found(text: str, host: str, reads_as: str) -> None:
    [link] = look_alike_links(f"first line\n{text}")
    assert (link.line, link.host) == (2, host)
    assert reads_as in link.why


@pytest.mark.parametrize(
    "text",
    [
        "https://github.com/acme and [docs](https://docs.github.com/x)",
        "[github.com](https://github.com/acme) and [docs.github.com](https://github.com/x)",
        "[deploy.md](https://github.com/acme/notes/blob/main/deploy.md)",
        "[v1.2](https://github.com/acme/releases)",
        "https://münchen.de, https://bücher.de, https://ıstanbul.com.tr",
        "https://яндекс.рф, https://сайт.ru, https://αθηνα.gr, https://ραγ.gr",
        "https://例え.jp, https://ソニー.jp, https://東京tokyo.jp, https://한국.kr",
        "https://user:secret@host.example/ (a user name, not a host)",
        "http://localhost:8080/api and ftp://files.example.org/pub",
        # sub-domains named after a country, a stage or a product are no other site
        "https://shop.de.example.com/ https://api.dev.example.com/ https://docs.aws.amazon.com/",
        "https://en.m.wikipedia.org/wiki/X https://www.google.com.au/ https://a.b.c.d.example.net",
        "http://192.168.1.10:8080/ https://[2001:db8::1]/x",
        # a faculty's host of a university (free-programming-books-ja.md holds this one)
        "http://psycho.edu.yamaguchi-u.ac.jp/wordpress/",
        # an image's alt text is no link text: a badge inside a link to the address shown
        "[![https://x.example/s/](https://img.shields.io/website?url=x)](https://x.example/s/)",
    ],
)
def test_i9_an_address_in_one_script_or_an_allowed_mix_is_not(text: str) -> None:
    assert look_alike_links(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # one host written as IDN and as punycode, in either direction
        "[münchen.de](https://xn--mnchen-3ya.de/)",
        "[https://münchen.de/](https://xn--mnchen-3ya.de/)",
        "[xn--mnchen-3ya.de](https://münchen.de/)",
        # the same host in full-width letters, in capitals, with a port or a trailing dot
        "[ＧＩＴＨＵＢ.com](https://github.com)",
        "[https://GitHub.com/a](https://github.com/a)",
        "[docs.python.org](https://docs.python.org:443/3/)",
        "[foo.example.com](https://foo.example.com.)",
        "[example.com](https://example.com\u3002)",  # an ideographic full stop
        "[www.github.com](https://github.com) and [python.org](https://docs.python.org/3/)",
        # a file name, shown for the file the link opens or for a page about it
        "[index.php](https://example.com/index.php)",
        "[CHANGELOG.rst](https://github.com/acme/app/blob/main/CHANGELOG.rst)",
        "[App.tsx](https://github.com/acme/app/blob/main/src/App.tsx)",
        "[schema.sql](https://example.com/a/schema.sql)",
        "[notes.org](https://example.com/notes.org)",
        "[Main.swift](https://github.com/acme/Main.swift)",
        "[README.md](https://github.com/acme/app)",
        "[setup.py](https://setuptools.pypa.io/en/latest/)",
        # a product's name, a version, words
        "[ASP.NET Core](https://learn.microsoft.com/aspnet/core)",
        "[Deno.land](https://deno.com)",
        "[Socket.IO](https://github.com/socketio/socket.io)",
        "[Node.js](https://nodejs.org) and [Vue.js](https://vuejs.org)",
        "[v1.2](https://github.com/acme/releases) and [e.g. this](https://example.org)",
        "[127.0.0.1:8000](http://localhost:8000/)",
        # a person's name or an e-mail address before the @ is a user name, not a host
        "https://first.last@mail.example.com/",
        "https://jdoe%40corp.com@intranet.corp.com/",
        "ftp://anonymous@ftp.gnu.org/pub and https://git@github.com/acme/app",
        # the same site, or one tenant on two of its owner's endpoints, before the @
        "https://github.com@gist.github.com/x and https://docs.python.org@python.org/",
        "https://requests.readthedocs.org@requests.readthedocs.io/",
        # a site's own short domain is that site (shortened by the site, it leads there)
        "[https://youtu.be/x](https://www.youtube.com/watch?v=x)",
        "[youtu.be/x](https://youtube.com/watch?v=x) and [youtube.com/watch?v=x](https://youtu.be/x)",
        "[x.com/acme](https://twitter.com/acme) and [aka.ms/x](https://learn.microsoft.com/x)",
        "[redd.it/x](https://www.reddit.com/r/y/comments/x)",
        # one registrable domain, whichever side is the sub-domain
        "[docs.github.com](https://github.com/x) and [github.com](https://gist.github.com/x)",
        "[news.ycombinator.com](https://ycombinator.com/x)",
        # a file name under a top-level domain that is also a file ending
        "[lib.rs](https://evil.example) [main.tf](https://x.example) [id_rsa.pub](https://y.example)",
        "[app.zip](https://a.example) [configure.ac](https://b.example) [run.sh](https://c.example)",
    ],
)
def test_i9_a_link_text_or_user_name_that_is_no_other_address_is_no_finding(text: str) -> None:
    assert look_alike_links(text) == []


class _CountingPattern:
    """Stands in for the link-target pattern and counts the link targets it yields: each one
    is where a link text is read back from, at most ``TEXT_CAP`` characters."""

    def __init__(self, pattern: regex.Pattern[str]) -> None:
        self.pattern = pattern
        self.targets = 0

    def finditer(self, line: str) -> Iterator[regex.Match[str]]:
        for match in self.pattern.finditer(line):
            self.targets += 1
            yield match


@pytest.mark.parametrize(
    ("chunk", "links"),
    [
        ("[a.bc ", 0),  # an opening bracket without a closing one: was quadratic, 1 MB > 100 s
        ("[github.com ", 0),
        ("[a](b ", 0),
        ("[x](https://x.org/[a] ", 1),
        ("[github.com](https://evil.example) ", 1),
    ],
)
def test_i9_a_link_text_is_read_back_only_from_each_link_target(
    chunk: str, links: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link text is looked for only at a ``](`` followed by an address, and read back at
    most ``TEXT_CAP`` characters: the work is one bounded read per link, linear in the line
    (counted, never timed)."""
    counting = _CountingPattern(module._LINK_TARGET)
    monkeypatch.setattr(module, "_LINK_TARGET", counting)
    repeats = 20_000
    found = look_alike_links("https://x.org " + chunk * repeats)
    assert counting.targets == links * repeats
    assert len(found) == ("evil" in chunk) * repeats
    assert counting.pattern.pattern.startswith(r"\]\(")  # a match starts only at a ](


def test_i9_a_link_text_longer_than_an_address_is_not_read_as_one() -> None:
    near = "[" + " " * (TEXT_CAP - len("github.com")) + "github.com](https://evil.example)"
    far = "[" + " " * (TEXT_CAP + 1 - len("github.com")) + "github.com](https://evil.example)"
    assert [link.host for link in look_alike_links(near)] == ["evil.example"]
    assert look_alike_links(far) == []


def test_t5b_lint_names_the_line_and_the_field_in_topics_and_the_index() -> None:
    text = (
        "---\nname: runbook\ndescription: Runbook at https://gіthub.com/acme/runbook\n---\n"
        "Deploy steps.\n\nSee [the docs](https://раураl.com/help).\n"
    )
    topic = parse_topic(text.encode(), "runbook.md")
    found = [(f.code, f.severity, f.line) for f in lint_topic(topic)]
    assert found == [("look-alike-link", "error", None), ("look-alike-link", "error", 7)]
    messages = [f.message for f in lint_topic(topic)]
    assert "the frontmatter description links to 'gіthub.com'" in messages[0]
    assert "'github.com'" in messages[0]
    assert "the body links to 'раураl.com'" in messages[1]

    index = "# Memory\n\n- [Runbook](runbook.md) — at https://github.com@evil.example/runbook\n"
    [finding] = [f for f in lint_index(index, ["runbook.md"]) if f.code == "look-alike-link"]
    assert (finding.file, finding.line) == ("MEMORY.md", 3)
    assert "this index line links to 'evil.example'" in finding.message


@pytest.mark.parametrize(
    "text",
    [
        # GitHub serves a repository's files from its own user-content domain
        "[github.com/acme/x](https://raw.githubusercontent.com/acme/x/main/install.sh)",
        "[https://github.com/acme/x/raw/main/a.sh](https://raw.githubusercontent.com/acme/x/a.sh)",
        "[gist.github.com/jdoe/1](https://gist.githubusercontent.com/jdoe/1/raw/a.py)",
        # Go's documentation moved from golang.org to go.dev, which serves both
        "[golang.org/x/tools](https://pkg.go.dev/golang.org/x/tools) [go.dev/doc](https://golang.org/doc)",
        # Outlook on the web answers at office.com, outlook.com and live.com alike
        "[outlook.com](https://outlook.office.com/mail) [office.com](https://outlook.live.com/)",
        # one tenant, whichever of the owner's endpoints serves it
        "[requests.readthedocs.org](https://requests.readthedocs.io/en/latest/)",
        "[b.s3.amazonaws.com/k](https://b.s3.eu-west-1.amazonaws.com/k)",
        "[b.s3.amazonaws.com](https://b.s3-website-us-east-1.amazonaws.com/)",
        # the owner's own endpoints, private suffixes themselves, are the owner's
        "[s3.amazonaws.com](https://s3.us-east-1.amazonaws.com/b/k)",
        "[s3.amazonaws.com](https://s3-website.eu-west-1.amazonaws.com/)",
        "[aws.amazon.com](https://s3.dualstack.us-east-1.amazonaws.com/)",
        "[b.s3.amazonaws.com](https://b.s3-us-west-2.amazonaws.com/)",
        "[aws.amazon.com/s3](https://s3.amazonaws.com/) [readthedocs.org](https://readthedocs.io)",
        # a text naming the platform a site is hosted under: the address ends with what it shows
        # (a package's metadata: "See the docs : [readthedocs.io](https://charset-normalizer…")
        "[readthedocs.io](https://charset-normalizer.readthedocs.io/en/latest/)",
        "[s3.amazonaws.com/bucket](https://bucket.s3.amazonaws.com/key)",
        "[github.io](https://acme.github.io) [netlify.app](https://acme.netlify.app/)",
        # the platform named by another of its tenants' endpoints, or alone by the domain its
        # tenants moved from (readthedocs.org, which serves the owner's own pages too)
        "[readthedocs.org](https://docs.readthedocs.io)",
        "[https://readthedocs.org/](https://requests.readthedocs.io/en/latest/)",
        "[s3.eu-west-1.amazonaws.com](https://b.s3.amazonaws.com/k)",
        "[s3.amazonaws.com](https://b.s3-website-us-east-1.amazonaws.com/)",
        # a bucket's name may hold dots: one bucket, whichever endpoint serves it
        "[x.y.s3.amazonaws.com](https://x.y.s3.eu-west-1.amazonaws.com/k)",
        # tenant names that spell no other site
        "https://acme-org.github.io https://my-blog.netlify.app https://shop.de.s3.amazonaws.com",
    ],
)
def test_i9_a_sites_own_sibling_domains_are_that_site(text: str) -> None:
    assert look_alike_links(text) == []


@pytest.mark.parametrize(
    ("text", "host"),
    [
        # a sub-domain one of the site's domains hands out is its tenant's site, not the owner's
        ("[github.com](https://evil.github.io/)", "evil.github.io"),
        ("[github.com/acme](https://acme.github.io/)", "acme.github.io"),
        ("[readthedocs.org/x](https://requests.readthedocs.io/)", "requests.readthedocs.io"),
        ("[docs.readthedocs.io](https://requests.readthedocs.io/)", "requests.readthedocs.io"),
        ("[aws.amazon.com/s3](https://bucket.s3.amazonaws.com/)", "bucket.s3.amazonaws.com"),
        (
            "[a.s3.amazonaws.com](https://b.s3.eu-west-1.amazonaws.com/)",
            "b.s3.eu-west-1.amazonaws.com",
        ),
        ("[github.com](https://x-8080.app.github.dev/)", "x-8080.app.github.dev"),  # a codespace
        # another bucket whose name ends as this one's
        ("[x.y.s3.amazonaws.com](https://z.y.s3.amazonaws.com/k)", "z.y.s3.amazonaws.com"),
        # a bucket may be named like an endpoint: its host is never taken for one
        (
            "[aws.amazon.com](https://s3-evil.s3.amazonaws.com/login.html)",
            "s3-evil.s3.amazonaws.com",
        ),
        (
            "[aws.amazon.com](https://s3-evil.s3-website-us-east-1.amazonaws.com/)",
            "s3-evil.s3-website-us-east-1.amazonaws.com",
        ),
        (
            "[aws.amazon.com](https://s3.us-east-1.s3.amazonaws.com/)",
            "s3.us-east-1.s3.amazonaws.com",
        ),
        # Amazon's store is not AWS, where anyone's bucket is
        (
            "[amazon.com](https://s3.amazonaws.com/evil-bucket/signin.html)",
            "s3.amazonaws.com",
        ),
        # a customer's server under the owner's hosting domain is the customer's
        (
            "[aws.amazon.com](https://ec2-1-2-3-4.compute-1.amazonaws.com)",
            "ec2-1-2-3-4.compute-1.amazonaws.com",
        ),
        (
            "[ec2-1-1-1-1.compute-1.amazonaws.com](https://ec2-2-2-2-2.compute-1.amazonaws.com)",
            "ec2-2-2-2-2.compute-1.amazonaws.com",
        ),
        # a name drawn like a family's domain, or one spelled before another's, is no sibling
        ("[github.com](https://githib.com/acme)", "githib.com"),
        ("[go.dev](https://go.dev.evil.io/doc)", "go.dev.evil.io"),
        ("[outlook.com](https://outlook.com.evil.io/)", "outlook.com.evil.io"),
        (
            "[raw.githubusercontent.com](https://githubusercontent.evil.io/)",
            "githubusercontent.evil.io",
        ),
    ],
)
def test_i9_a_look_alike_of_a_site_with_sibling_domains_is_still_found(
    text: str, host: str
) -> None:
    assert [link.host for link in look_alike_links(text)] == [host]


@pytest.mark.parametrize(
    ("text", "host", "why"),
    [
        (
            "see https://paypal.com.s3.amazonaws.com/login.html",
            "paypal.com.s3.amazonaws.com",
            "is the site named 'paypal.com' under 's3.amazonaws.com', which reads as "
            "'paypal.com': it is whoever took that name there",
        ),
        (
            "[sign in](https://paypal-com.s3.amazonaws.com/index.html)",
            "paypal-com.s3.amazonaws.com",
            "is the site named 'paypal-com' under 's3.amazonaws.com', which reads as "
            "'paypal.com': it is whoever took that name there",
        ),
        (
            "[paypal.com](https://www.paypal.com.s3-website-us-east-1.amazonaws.com/)",
            "www.paypal.com.s3-website-us-east-1.amazonaws.com",
            "is the site named 'www.paypal.com' under 's3-website-us-east-1.amazonaws.com', "
            "which reads as 'paypal.com': it is whoever took that name there",
        ),
        (
            "https://bbc.co.uk.github.io/news",
            "bbc.co.uk.github.io",
            "is the site named 'bbc.co.uk' under 'github.io', which reads as 'bbc.co.uk': it "
            "is whoever took that name there",
        ),
    ],
)
def test_i9_a_platforms_tenant_named_after_another_site_reads_as_that_site(
    text: str, host: str, why: str
) -> None:
    """Anyone may take a name under a hosting platform (an S3 bucket, a GitHub Pages site):
    one spelling another site (``paypal.com``, or ``paypal-com`` with a hyphen for the dot)
    reads as that site to a person, who stops at its ``.com``, as ``www.paypal.com.evil.io``
    does; a bucket's name may hold dots, so its last label is no site of its own."""
    assert [(link.host, link.why) for link in look_alike_links(text)] == [(host, why)]
