"""S-2: a query finds a word whatever its case, in every script that has case.

SQLite's ``unicode61`` folds case by its own table, which leaves out the letters given a case
pair since (Cherokee's small letters, Georgian Mtavruli) and every cased letter above plane 0
(Osage, Adlam, Old Hungarian, Warang Citi, Medefaidrin, Vithkuqi): search folds those itself.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import AgentHome, Client
from tests.api.test_s1_search import search, topic


def marked(parts: list[dict[str, Any]]) -> list[str]:
    """The highlighted pieces of some marked parts."""
    return [part["text"] for part in parts if part["hit"]]


CASED = [
    # Cherokee: written in capitals, its small letters typed by newer keyboards
    ("ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ", "ᏣᎳᎩ"),
    # Georgian: Mtavruli (capitals, for titles) and Mkhedruli are one alphabet
    ("ᲥᲐᲠᲗᲣᲚᲘ ᲔᲜᲐ", "ᲥᲐᲠᲗᲣᲚᲘ"),
    # letters above plane 0
    ("𐒰𐓂𐒻 language", "𐒰𐓂𐒻"),  # Osage
    ("𞤀𞤣𞤤𞤢𞤥 script", "𞤀𞤣𞤤𞤢𞤥"),  # Adlam
    ("𐲀𐲁𐲂 runes", "𐲀𐲁𐲂"),  # Old Hungarian
    ("𑢠𑢡𑢢 letters", "𑢠𑢡𑢢"),  # Warang Citi
    ("𖹀𖹁𖹂 letters", "𖹀𖹁𖹂"),  # Medefaidrin
    ("𐕰𐕱𐕲 letters", "𐕰𐕱𐕲"),  # Vithkuqi
    # Latin letters given a small form late
    ("the Ꞵeta and Ꞗ letters", "Ꞵeta"),
]


@pytest.mark.parametrize(("body", "word"), CASED)
@pytest.mark.parametrize("typed", [str.lower, str.upper])
async def test_s2_a_word_is_found_in_either_case(
    client: Client, agent: AgentHome, body: str, word: str, typed: Any
) -> None:
    """Written in capitals or small letters, typed in the other: found and marked as written."""
    for written, name in ((body, "as-written.md"), (body.lower(), "small.md")):
        topic(agent.user, name, name.removesuffix(".md"), "a note", written)
    results = await search(client, typed(word))
    assert sorted(hit["file"] for hit in results["hits"]) == ["as-written.md", "small.md"]
    for hit in results["hits"]:
        written = word if hit["file"] == "as-written.md" else word.lower()
        assert marked(hit["snippet"]) == [written]
