"""S-2: search matches the text a reader sees, Markdown rendered.

Chinese and Japanese have no spaces, so bold, a link or a code span always sits inside a run
of characters: a reader of the Memory tab sees ``成语接龙`` in ``[成语](https://x)接龙``, and a
search for it finds it, marked on the characters shown. Latin has the same gap
(``**data**base`` is ``database``). A link's target stays searchable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from memory_api.store import search_index, search_markup, search_text
from memory_api.store.search import MemorySearch
from memory_api.store.search_markup import reader_form

from tests.api.conftest import AgentHome, Client
from tests.api.test_s1_search import search, topic


def _marked(parts: list[dict[str, Any]]) -> list[str]:
    return [part["text"] for part in parts if part["hit"]]


async def test_s2_markdown_inside_a_run_hides_no_word(client: Client, agent: AgentHome) -> None:
    """The reviewer's repro and every kind of inline markup: one hit each, marked on what a
    reader sees (the markup between the pieces of a match stays unmarked)."""
    bodies = {
        "link.md": "[成语](https://x)接龙 与 `しり`とり",
        "bold.md": "**成语**接龙 and 喝*咖啡*",
        "latin.md": "**data**base, ~~str~~ike, <kbd>Ctrl</kbd>, <b>ta</b>gged, esc\\*aped\\*",
        "more.md": "![图](pic.png)片 and <https://example.org/a_b> and 登`录`",
    }
    for file_name, body in bodies.items():
        topic(agent.user, file_name, file_name.removesuffix(".md"), "about games", body)
    expected = {
        "成语接龙": ("link.md", "bold.md"),
        "喝咖啡": ("bold.md",),
        "しりとり": ("link.md",),
        "database": ("latin.md",),
        "strike": ("latin.md",),
        "图片": ("more.md",),
        "登录": ("more.md",),
    }
    # the page renders no HTML (markdown-it ``html: false``): a reader sees a tag as written
    assert (await search(client, "tagged"))["total"] == 0
    [tag] = (await search(client, "kbd"))["hits"]
    assert (tag["file"], _marked(tag["snippet"])) == ("latin.md", ["kbd", "kbd"])
    for query, files in expected.items():
        results = await search(client, query)
        assert results["total"] == len(files), (query, results)
        assert {hit["file"] for hit in results["hits"]} == set(files), query
        for hit in results["hits"]:
            assert "".join(_marked(hit["snippet"])) == query, (query, hit["snippet"])
    [link] = (await search(client, "成语接龙 しりとり"))["hits"]
    assert _marked(link["snippet"]) == ["成语", "接龙", "しり", "とり"]
    assert "".join(part["text"] for part in link["snippet"]).startswith("[成语](https://x)接龙")


async def test_s2_a_link_target_is_still_found_where_it_is_written(
    client: Client, agent: AgentHome
) -> None:
    """Searching a URL finds the note linking it, marked in the link as written (its text too,
    ``the docs``); a code block
    is not markup (``**a**b`` there is found as ``a``, not as ``ab``); snake_case and a lone
    ``*`` keep their words apart."""
    topic(agent.user, "links.md", "links", "refs", "see [the docs](https://docs.example.org/x) ok")
    topic(
        agent.user, "code.md", "code", "snippet", "```\nprint(**kwargs**sep)\n```\nuser_name *.txt"
    )
    [hit] = (await search(client, "docs.example.org"))["hits"]
    assert hit["file"] == "links.md"
    assert _marked(hit["snippet"]) == ["docs", "docs", "example", "org"]
    assert [h["file"] for h in (await search(client, "kwargs"))["hits"]] == ["code.md"]
    assert (await search(client, "kwargssep"))["total"] == 0
    assert [h["file"] for h in (await search(client, "user"))["hits"]] == ["code.md"]
    assert (await search(client, "usernametxt"))["total"] == 0


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("**成语**接龙 and 喝*咖啡*", "成语接龙 and 喝咖啡"),
        ("~~str~~ike, esc\\*aped\\*", "strike, esc*aped*"),
        ("<https://example.org/a_b>", "https://example.org/a_b"),
        # tags are text: the page renders no HTML, a reader sees them as written
        ("<b>ta</b>gged <kbd>Ctrl</kbd> 登<br/>录", "<b>ta</b>gged <kbd>Ctrl</kbd> 登<br/>录"),
        ('[成语](https://x "t")接龙', '成语接龙\n\nhttps://x "t"'),
        # a URL holding balanced parentheses, as CommonMark allows
        (
            "[成语](https://en.wikipedia.org/wiki/X_(y))接龙",
            "成语接龙\n\nhttps://en.wikipedia.org/wiki/X_(y)",
        ),
        # one tilde is no strikethrough to markdown-it: shown as written
        ("~single~ and ~~dou~~ble", "~single~ and double"),
        # not markup: a lone star, snake_case, a word glued to underscores, a code block
        ("user_name file*.txt __init__py", "user_name file*.txt __init__py"),
        ("```\n**a**b [c](d)\n```\n**e**f", "```\n**a**b [c](d)\n```\nef"),
        ("`**a**`b", "**a**b"),
    ],
)
def test_s2_the_reader_form_is_the_text_rendered(written: str, read: str) -> None:
    """What a reader sees, and where each character of it is written: every piece maps back
    onto the same characters of the text as written."""
    form, pieces = reader_form(written)
    assert form == read
    if pieces is None:
        assert written == read
        return
    for at, char in enumerate(form):
        if char != "\n":
            assert written[pieces.place(at)] == char, (at, char)
    spans = pieces.spans(0, len(form))  # the whole form: its pieces, apart, in order
    assert sum(end - start for start, end in spans) == len(form)
    assert all(start < end for start, end in spans)


@pytest.mark.parametrize("shape", ["*a", "a_", "[a](b)", "`a` "])
def test_s2_reading_markup_is_bounded_however_much_a_text_holds(
    shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 1 MB text of nothing but markup costs a bounded number of markup tokens read (the
    first MARKUP_TOKENS; the rest is read as written), on one line or many; a text within the
    bound is read whole."""
    read: list[int] = []
    real = search_markup._TOKEN.finditer

    class Counting:
        def finditer(self, text: str, start: int, end: int) -> Iterator[re.Match[str]]:
            for token in real(text, start, end):
                read.append(1)
                yield token

    monkeypatch.setattr(search_markup, "_TOKEN", Counting())
    for text in (shape * (1_000_000 // len(shape)), (shape * 20 + "\n") * 12_000):
        read.clear()
        form, _pieces = reader_form(text)
        assert len(read) <= search_markup.MARKUP_TOKENS + 1
        assert form.startswith(reader_form(shape * 20)[0].split("\n")[0])  # read as shown
        assert shape * 20 in form  # and the rest as written


async def test_s2_a_match_across_markup_counts_once_in_the_score(
    client: Client, agent: AgentHome
) -> None:
    """``**data**base`` is one ``database`` to a reader, marked in two pieces: it scores as
    the same word written plainly, not as two."""
    topic(agent.user, "split.md", "note", "about", "**data**base")
    topic(agent.user, "plain.md", "note", "about", "database")
    hits = (await search(client, "database"))["hits"]
    assert sorted(hit["file"] for hit in hits) == ["plain.md", "split.md"]
    assert hits[0]["score"] == hits[1]["score"]


def test_s2_indexing_reads_each_field_as_shown_once(
    agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Indexing a topic reads each of its fields (name, description, body) as a reader sees
    it once, for its words and for its length alike: reading Markdown is the costly part."""
    topic(agent.user, "big.md", "big", "large", "*a" * 100)
    read: list[str] = []
    real = search_text.visible_text

    def counting(text: str) -> str:
        read.append(text)
        return real(text)

    monkeypatch.setattr(search_index, "visible_text", counting)
    results = MemorySearch(agent.data_dir).search(
        agent.id, agent.root, "zebra", scope=None, limit=5
    )
    assert results.total == 0
    assert len(read) == 3
