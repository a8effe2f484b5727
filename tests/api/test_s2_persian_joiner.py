"""S-2: a Persian word with a zero-width non-joiner is found typed with it or without it.

Persian writes ``می‌خواهم`` ("I want") and ``کتاب‌ها`` ("books") with a zero-width non-joiner
(U+200C) between a prefix or suffix and its stem, but many keyboards make it hard to type, so
the same word stands in notes, and is typed into the search box, as ``میخواهم``. Searching one
spelling never found the other; each part alone (``خواهم``) was and is found.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import AgentHome, Client
from tests.api.test_s1_search import files_of, search, topic

JOINED = "من می\u200cخواهم دستگاه قهوه را هر جمعه تمیز کنم. کتاب\u200cها در قفسه."
PLAIN = "من میخواهم سرور را دوشنبه به روز کنم. کتابها را مرتب کن."


def marked(hit: dict[str, Any]) -> list[str]:
    """The highlighted pieces of a hit's snippet."""
    return [part["text"] for part in hit["snippet"] if part["hit"]]


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("میخواهم", {"with-joiner.md": ["می\u200cخواهم"], "without-joiner.md": ["میخواهم"]}),
        (
            "می\u200cخواهم",
            {"with-joiner.md": ["می\u200cخواهم"], "without-joiner.md": ["میخواهم"]},
        ),
        ("کتابها", {"with-joiner.md": ["کتاب\u200cها"], "without-joiner.md": ["کتابها"]}),
        ("کتاب\u200cها", {"with-joiner.md": ["کتاب\u200cها"], "without-joiner.md": ["کتابها"]}),
        ("خواهم", {"with-joiner.md": ["خواهم"]}),  # a part: only where the joiner parts it
        ("قهوه", {"with-joiner.md": ["قهوه"]}),
    ],
)
async def test_s2_a_persian_word_is_found_with_or_without_its_joiner(
    client: Client, agent: AgentHome, query: str, found: dict[str, list[str]]
) -> None:
    topic(agent.user, "with-joiner.md", "with-joiner", "یادداشت قهوه", JOINED)
    topic(agent.user, "without-joiner.md", "without-joiner", "یادداشت سرور", PLAIN)
    results = await search(client, query)
    assert sorted(files_of(results)) == sorted(("user", file) for file in found)
    for hit in results["hits"]:
        assert marked(hit) == found[hit["file"]]
