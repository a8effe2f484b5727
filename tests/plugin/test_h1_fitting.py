"""H-1: the system prompt, packed into a harness's pieces; cut at a line with the note if need be.

Harness-neutral rules (``harness_memory.sections``, ``harness_memory.fitting``), checked with
Claude Code's measured limits (10,000 UTF-16 code units per SessionStart hook entry).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from harness_memory.fitting import HarnessLimits, fit, utf16_units
from harness_memory.hooks.claude_code import CLAUDE_CODE_VERSION, CONTEXT_LIMIT, RECOMMENDED_PARTS
from harness_memory.hooks.claude_code_start import claude_code_limits
from harness_memory.sections import PromptSection, joined, render_sections
from harness_memory.session import DEFAULT_TEMPLATE
from memory_core.injection import CappedIndex, cap_indexes, memory_sections
from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT
from memory_core.template import substitute

from tests.plugin import claude_code_cli

KEY = "billing-1234abcd"
EXTRA = {"{{APP_DATA_DIR}}": "/srv/agent-memory", "{{AGENT_ID}}": "coder"}
KEY_LINE = f"- Workspace Memory Key: {KEY}\n"
PART_RE = re.compile(
    r'<memory-context part="(\d+)" of="(\d+)"[^>]*>\n(.*)\n</memory-context>', re.S
)


def index(lines: int, text: str = "a standing preference about reviews") -> str:
    return "".join(f"- [Note {n:03d}](note-{n:03d}.md) — {text} {n:03d}\n" for n in range(lines))


def rendered(
    user: str | None, workspace: str | None, template: str = DEFAULT_TEMPLATE, prompt: str = ""
) -> tuple[list[PromptSection], list[CappedIndex]]:
    capped = cap_indexes(user, workspace, workspace_key=KEY)
    sections = memory_sections(
        prompt or DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT, capped[0], capped[1]
    )
    return render_sections(template, sections, KEY, EXTRA), capped


def bodies(pieces: list[str]) -> list[str]:
    """Unwrap multi-part pieces (checking their numbers); a single piece is its own body."""
    if len(pieces) == 1:
        return pieces
    found = [PART_RE.fullmatch(piece) for piece in pieces]
    assert all(found), pieces
    assert [(int(m[1]), int(m[2])) for m in found if m] == [
        (n, len(pieces)) for n in range(1, len(pieces) + 1)
    ]
    return [m[3] for m in found if m]


def test_h1_sections_join_to_the_prompt_substitute_gives() -> None:
    memory_text = "{{WORKSPACE_MEMORY_KEY}} and {{AGENT_ID}} stay as written"
    template = "A {{MEMORY}} B {{AGENT_ID}} {{WORKSPACE_MEMORY_KEY}} {{CWD}} {{MEMORY}}"
    sections = render_sections(template, memory_text, KEY, EXTRA)
    assert joined(sections) == substitute(template, memory_text, KEY, EXTRA)


def test_p1_placeholders_are_found_as_substitute_finds_them() -> None:
    template = "{{A}}{{AB}} {{MEMORY}}{{{AGENT_ID}}} {{WORKSPACE_MEMORY_KEY}}{{A}}x{{AB"
    extra = {"{{AB}}": "ab", "{{A}}": "a", "{{AGENT_ID}}": "coder"}
    sections = render_sections(template, "M", "K", extra)
    assert joined(sections) == substitute(template, "M", "K", extra)
    assert joined(sections) == "aab M{coder} Kax{{AB"


def test_i1_memory_sections_join_to_the_memory_text_and_mark_index_lines() -> None:
    sections, capped = rendered(index(3), None)
    text = joined(sections)
    assert capped[0].lines_text in text
    kinds = {(s.kind, s.scope) for s in sections}
    assert ("index", "user") in kinds and ("note", KEY) in kinds  # the empty Workspace note


def test_h1_a_prompt_under_the_limit_is_one_piece_as_it_is() -> None:
    sections, capped = rendered(index(10), index(5))
    delivery = fit(sections, [c.manifest for c in capped], claude_code_limits(RECOMMENDED_PARTS))
    assert delivery.pieces == [joined(sections)]
    assert delivery.cuts == [] and delivery.complete


@pytest.mark.parametrize(
    "text", ["a standing preference about reviews", "😀 café — ünïcödé 𝔘 rule " * 3]
)
def test_h1_indexes_at_the_caps_arrive_whole_in_the_recommended_entries(text: str) -> None:
    sections, capped = rendered(index(260, text), index(240, text))
    assert all(c.manifest.cap_fired != "none" for c in capped)
    delivery = fit(sections, [c.manifest for c in capped], claude_code_limits(RECOMMENDED_PARTS))
    assert delivery.cuts == [] and delivery.complete
    assert all(utf16_units(piece) <= CONTEXT_LIMIT for piece in delivery.pieces)
    assert "\n".join(bodies(delivery.pieces)) == joined(sections)


def test_h1_fewer_entries_than_recommended_cut_ordinary_text_at_the_caps() -> None:
    """The recommended entries are the fewest that carry both indexes at the caps."""
    sections, capped = rendered(index(260), index(240))
    delivery = fit(
        sections, [c.manifest for c in capped], claude_code_limits(RECOMMENDED_PARTS - 1)
    )
    assert {cut.scope for cut in delivery.cuts} == {"user", KEY}


def test_h1_the_worst_case_every_character_astral_is_cut_at_a_line_in_the_recommended_entries() -> (
    None
):
    sections, capped = rendered(index(200, "😀" * 120), index(200, "😀" * 120))
    assert utf16_units(joined(sections)) > 5 * CONTEXT_LIMIT
    delivery = fit(sections, [c.manifest for c in capped], claude_code_limits(RECOMMENDED_PARTS))
    assert {cut.scope for cut in delivery.cuts} == {"user", KEY} and delivery.complete
    assert len(delivery.pieces) == RECOMMENDED_PARTS
    assert all(utf16_units(piece) <= CONTEXT_LIMIT for piece in delivery.pieces)
    text = "\n".join(bodies(delivery.pieces))
    assert KEY_LINE in text
    assert text.count("Claude Code's limit of 10,000 characters per SessionStart hook") == 2
    six = fit(sections, [c.manifest for c in capped], claude_code_limits(6))
    assert six.cuts == [] and len(six.pieces) == 6  # what it would take to carry it whole


def test_h1_utf16_units_count_astral_characters_twice() -> None:
    assert utf16_units("aé—") == 3
    assert utf16_units("😀𝔘") == 4


def test_h1_one_entry_cuts_index_lines_at_a_line_with_the_note_and_keeps_the_key_line() -> None:
    sections, capped = rendered(index(200), index(200))
    delivery = fit(sections, [c.manifest for c in capped], claude_code_limits(1))
    [piece] = delivery.pieces
    assert utf16_units(piece) <= CONTEXT_LIMIT
    assert KEY_LINE in piece and piece.startswith("# Memory")
    assert {cut.scope for cut in delivery.cuts} == {"user", KEY}
    for cut, scope in zip(delivery.cuts, capped, strict=True):
        lines = scope.lines_text.split("\n")
        assert "\n".join(lines[: cut.kept]) + "\n\n(Truncated" in piece  # a prefix, then the note
        assert lines[cut.kept] not in piece
        assert (
            f"shows {cut.kept} of {cut.total} lines; {cut.total - cut.kept} lines were left out "
            "because of the 25,000-character limit for injected indexes and Claude Code's limit "
            "of 10,000 characters per SessionStart hook (1 hook entry configured)"
        ) in piece


def test_h1_the_service_cap_and_the_harness_limit_are_both_named() -> None:
    sections, capped = rendered(index(230), None)
    delivery = fit(sections, [c.manifest for c in capped], claude_code_limits(1))
    [cut] = delivery.cuts
    assert (
        f"{230 - cut.kept} lines were left out because of the 200-line cap and Claude Code's"
    ) in delivery.pieces[0]


def test_h1_the_larger_index_gives_up_lines_first() -> None:
    sections, capped = rendered(index(20), index(200))
    delivery = fit(sections, [c.manifest for c in capped], claude_code_limits(1))
    assert [cut.scope for cut in delivery.cuts] == [KEY]  # the small user index stays whole
    assert capped[0].lines_text in delivery.pieces[0]


def test_h1_instruction_lines_go_only_when_no_index_line_is_left() -> None:
    prompt = "# Memory\n" + "Instruction line that is rather long. " * 2 + "\n"
    prompt = (
        prompt + prompt.splitlines()[1] * 0 + ("x" * 80 + "\n") * 300 + "{{MEMORY_USER_INDEX}}\n"
    )
    sections, capped = rendered(index(50), index(50), prompt=prompt)
    delivery = fit(sections, [c.manifest for c in capped], claude_code_limits(2))
    assert delivery.prompt_lines_cut > 0
    assert {cut.kept for cut in delivery.cuts} == {0}
    text = "\n".join(bodies(delivery.pieces))
    assert KEY_LINE in text and "lines of the memory instructions were left out" in text


def test_h1_a_limit_with_no_room_for_text_is_refused() -> None:
    sections, capped = rendered(index(300), None)
    with pytest.raises(ValueError, match="no room"):
        fit(sections, [c.manifest for c in capped], HarnessLimits(60, 3, "a tiny limit"))


def test_h1_a_template_too_large_for_every_piece_is_cut_and_reported_incomplete() -> None:
    template = (
        "{{MEMORY}}\n" + "y" * 30_000 + "\n- Workspace Memory Key: {{WORKSPACE_MEMORY_KEY}}\n"
    )
    sections, capped = rendered(index(5), None, template=template)
    delivery = fit(sections, [c.manifest for c in capped], claude_code_limits(2))
    assert not delivery.complete
    assert len(delivery.pieces) == 2
    assert all(utf16_units(piece) <= CONTEXT_LIMIT for piece in delivery.pieces)


def test_h1_the_reported_case_a_60_line_index_no_longer_vanishes(tmp_path: Path) -> None:
    """tests/data/cases/claude-code-context-limit: ~6,000 characters of index plus the prompt."""
    case = Path(__file__).parents[1] / "data" / "cases" / "claude-code-context-limit"
    subprocess.run([sys.executable, str(case / "make_user_index.py"), str(tmp_path)], check=True)
    sections, capped = rendered((tmp_path / "MEMORY.md").read_text(encoding="utf-8"), None)
    assert utf16_units(joined(sections)) > CONTEXT_LIMIT  # one hook entry used to get a preview
    whole = fit(sections, [c.manifest for c in capped], claude_code_limits(RECOMMENDED_PARTS))
    assert whole.cuts == [] and "\n".join(bodies(whole.pieces)) == joined(sections)
    cut = fit(sections, [c.manifest for c in capped], claude_code_limits(1))
    [user] = cut.cuts
    assert 0 < user.kept < user.total == 62
    assert "(Truncated: the user memory index shows" in cut.pieces[0]
    assert KEY_LINE.rstrip("\n") in cut.pieces[0]


def test_h1_the_limits_are_those_of_the_claude_code_the_e2e_tests_pin() -> None:
    assert CLAUDE_CODE_VERSION == claude_code_cli.VERSION


@pytest.mark.parametrize("sep", ["\u2028", "\u2029"], ids=ascii)
def test_h1_a_separator_inside_an_index_line_never_splits_it_into_pieces(sep: str) -> None:
    """U+2028 and U+2029 reach the model as written (they are not hidden characters) and end
    no line: pieces are cut at line ends only, so every piece ends with a whole line."""
    for count in range(150, 260, 3):  # the pieces' ends fall at every place of a line
        user = index(count, f"first half{sep}" + "x" * (count % 40) + f"{sep}and a third")
        sections, capped = rendered(user, None)
        delivery = fit(sections, [c.manifest for c in capped], claude_code_limits(3))
        assert delivery.complete and len(delivery.pieces) > 1
        whole = user.split("\n")
        for body in bodies(delivery.pieces):
            notes = [line for line in body.split("\n") if line.startswith("- [Note ")]
            assert all(line in whole for line in notes), count
