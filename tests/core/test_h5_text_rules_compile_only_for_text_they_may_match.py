"""H-5: a Session start shows its template's hidden characters (I-9) and names the text of its
memory prompts written as a placeholder (I-1); a text that cannot hold either (ASCII without a
control character; no brace) is answered without compiling their patterns, the two costliest a
Session-start hook process compiles (about 3 % of its work). Decided in-process."""

from __future__ import annotations

import re
from typing import Any

import pytest
from memory_core.hidden_text import show_hidden
from memory_core.rules import placeholder_lookalikes

PLAIN = "# Memory\n\nYou keep a persistent memory.\tIts index:\n- [Pref](pref.md) — a preference\n"


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The patterns compiled from now on (``re``'s cache emptied first)."""
    patterns: list[str] = []
    compile_pattern = re._compile  # type: ignore[attr-defined]

    def counted(pattern: Any, flags: Any) -> Any:
        if not isinstance(pattern, re.Pattern):
            patterns.append(pattern)
        return compile_pattern(pattern, flags)

    re.purge()
    monkeypatch.setattr(re, "_compile", counted)
    return patterns


def test_h5_a_text_without_a_brace_holds_no_placeholder_lookalike_and_compiles_nothing(
    compiled: list[str],
) -> None:
    assert placeholder_lookalikes(PLAIN) == []
    assert compiled == []
    assert placeholder_lookalikes("a ｛memory｝ b {{MEMROY}}") == ["｛memory｝", "{{MEMROY}}"]


def test_h5_an_ascii_text_without_a_control_character_is_shown_as_it_is_compiling_nothing(
    compiled: list[str],
) -> None:
    assert show_hidden(PLAIN.encode("ascii", "ignore").decode()) == PLAIN.replace("—", "")
    assert compiled == []
    assert show_hidden("two\x1bapprovals\x7f") == "two[hidden: U+001B]approvals[hidden: U+007F]"


def test_h5_the_ascii_characters_shown_as_hidden_are_exactly_the_pattern_s() -> None:
    from memory_core.hidden_text import _ASCII_CANDIDATES, _CANDIDATE

    in_pattern = {chr(code) for code in range(128) if re.fullmatch(_CANDIDATE, chr(code))}
    assert in_pattern == _ASCII_CANDIDATES
