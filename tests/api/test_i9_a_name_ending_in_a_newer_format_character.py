"""I-9, K-7: a topic file name that goes on after ``.md`` with a character nobody sees is said
so, also one of a Unicode version newer than this Python's data.

``notes.md`` then U+1343F (an Egyptian hieroglyph format control of Unicode 15, unassigned to
Python 3.11's Unicode 14) was judged by ``unicodedata.category`` alone and named for another
fault; it is an unseen format character like U+200B.
"""

from __future__ import annotations

from memory_api.store.scopes import _goes_on_after_md


def test_i9_a_topic_name_ending_in_a_newer_format_character_is_said_to_go_on_after_md() -> None:
    assert _goes_on_after_md("notes.md\U0001343f")
    assert _goes_on_after_md("notes.md\u200b") and not _goes_on_after_md("notes.md")
