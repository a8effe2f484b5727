"""S-2: a Hebrew word is found after the prefixes written onto it.

Hebrew writes "the", "and", "in", "to", "from", "as" and "that" as one-letter prefixes of the
next word (``ה ו ב ל מ כ ש``), up to three of them: a note saying ``מכונת הקפה`` ("the coffee
machine") was not found by ``קפה`` ("coffee"), nor one saying ``ובבית`` ("and in the house") by
``בית``. A word is still not found inside another where no prefix stands before it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import AgentHome, Client
from tests.api.test_s1_search import files_of, search, topic

COFFEE = "יש לנקות את מכונת הקפה בכל יום שישי. הפריסה ביום שני, ובבית אין קפה."
DEPLOY = "לפני הפריסה מריצים את הבדיקות. שמירת הגיבוי בשרת הראשי."


def marked(hit: dict[str, Any]) -> list[str]:
    """The highlighted pieces of a hit's snippet."""
    return [part["text"] for part in hit["snippet"] if part["hit"]]


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("קפה", {"coffee-machine.md": ["קפה", "קפה"]}),  # after ה, and standing alone
        ("הקפה", {"coffee-machine.md": ["הקפה"]}),
        ("בית", {"coffee-machine.md": ["בית"]}),  # after ו and ב
        ("פריסה", {"coffee-machine.md": ["פריסה"], "deploy.md": ["פריסה"]}),
        ("גיבוי", {"deploy.md": ["גיבוי"]}),
        ("שרת", {"deploy.md": ["שרת"]}),  # after ב
        ("ראשי", {"deploy.md": ["ראשי"]}),  # after ה
        ("יקות", {}),  # inside בדיקות, after no prefix: not a word of it
    ],
)
async def test_s2_a_hebrew_word_is_found_after_its_prefixes(
    client: Client, agent: AgentHome, query: str, found: dict[str, list[str]]
) -> None:
    topic(agent.user, "coffee-machine.md", "coffee-machine", "ניקוי המכונה", COFFEE)
    topic(agent.user, "deploy.md", "deploy", "נוהל", DEPLOY)
    results = await search(client, query)
    assert sorted(files_of(results)) == sorted(("user", file) for file in found)
    for hit in results["hits"]:
        assert marked(hit) == found[hit["file"]]
