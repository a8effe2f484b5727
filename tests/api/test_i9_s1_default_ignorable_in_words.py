"""I-9, S-1, T-5b: every default-ignorable character (Unicode's Default_Ignorable_Code_Point:
drawn as nothing) inside a word is read as nothing, by search and by lint alike.

Search dropped only a hand list of them from what it compares (soft hyphen, CGJ, ZWSP, ZWJ,
variation selectors): ``pass<U+2060>word`` pasted into the search box was two words, ``pass``
and ``word``, and found no note writing ``password``; and lint's look-alike names read
``dep<U+2065>loy.md`` or ``dep<U+FFF0>loy.md`` as another name than ``deploy.md`` (the
reserved default-ignorables were on no list). Now one rule (memory_core.ignorable, from the
``regex`` library's Unicode data) decides for each reader.
"""

from __future__ import annotations

import pytest
from memory_core.lint import lint_names_in_scope

from tests.api.conftest import AgentHome, Client
from tests.api.test_s1_search import files_of, search, topic

IGNORABLE = ["\u00ad", "\u2060", "\ufeff", "\u3164", "\u180e", "\u2065", "\ufff0", "\U0001bca0"]
"""Default-ignorable characters of every kind: a soft hyphen, a word joiner, a BOM, a Hangul
filler (a letter), the Mongolian vowel separator, reserved ones, a Duployan format control."""


@pytest.mark.parametrize("char", IGNORABLE, ids=lambda char: f"U+{ord(char):04X}")
async def test_s1_a_query_with_an_ignorable_inside_a_word_finds_the_word(
    client: Client, agent: AgentHome, char: str
) -> None:
    topic(agent.user, "secrets.md", "secrets", "where the password lives", "nothing")
    topic(agent.user, "other.md", "other", "a pass and a word", "nothing")
    assert files_of(await search(client, f"pass{char}word")) == [("user", "secrets.md")]


@pytest.mark.parametrize("char", IGNORABLE, ids=lambda char: f"U+{ord(char):04X}")
def test_t5b_a_name_with_an_ignorable_inside_looks_like_the_name_without(char: str) -> None:
    names = ["deploy.md", f"dep{char}loy.md"]
    findings = lint_names_in_scope(names, names[1:], "- [D](deploy.md)\n")
    assert [f.code for f in findings if f.code == "look-alike-names"] == ["look-alike-names"]
