"""I-9, T-5b: a web address that reads as another site is reported as ``look-alike-link``.

A person reads ``github.com`` in ``[docs](https://gіthub.com/acme)`` (a Cyrillic ``і``); the
agent that follows it, or a click, reaches another host. Lint said nothing: the hidden-text
rule looks for characters a person cannot see, and these are seen, only as other letters.
Addresses in one script (``münchen.de``, ``яндекс.рф``, ``例え.jp``) and Latin beside the scripts
Japanese, Chinese and Korean write with it are no look-alikes (UTS #39 highly restrictive).
"""

from __future__ import annotations

import pytest
from memory_core.lint import lint_index, lint_topic
from memory_core.look_alike_links import look_alike_links
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
    ],
)
def test_i9_an_address_in_one_script_or_an_allowed_mix_is_not(text: str) -> None:
    assert look_alike_links(text) == []


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
