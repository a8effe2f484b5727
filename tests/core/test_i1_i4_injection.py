"""I-1, I-3, I-4, I-8: capped indexes, truncation notes, manifests and the {{MEMORY}} text."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memory_core.hidden_text import show_hidden_lines
from memory_core.index import index_lines
from memory_core.injection import (
    CHAR_CAP,
    INDEX_PLACEHOLDER,
    LINE_CAP,
    USER_INDEX_PLACEHOLDER,
    CappedIndex,
    assemble_memory,
    build_memory_text,
    cap_indexes,
    empty_note,
    memory_sections,
    placed_manifests,
    prepare_index,
)
from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT
from memory_core.rules import MEMORY_PROMPT_RULE, WORKSPACE_PROMPT_RULE, placeholder_problem

KEY = "my-app-a81f32c4"


def _lines(count: int, width: int, prefix: str = "line") -> str:
    return "\n".join(f"{prefix} {i} ".ljust(width, "x") for i in range(count)) + "\n"


def _injected_lines(capped: CappedIndex) -> list[str]:
    """The index lines of ``capped.text`` (the note, after a blank line, excluded)."""
    lines = capped.text.split("\n")
    return lines[: capped.manifest.lines_kept]


def _cost(capped: CappedIndex) -> int:
    return sum(len(line) + 1 for line in _injected_lines(capped))


# --- I-3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("index", [None, "", "\n", "  \n\t\n"])
def test_i3_blank_or_missing_index_injects_nothing_saved_yet(index: str | None) -> None:
    user, workspace = cap_indexes(index, index, workspace_key=KEY)
    assert user.text == empty_note("user")
    assert "Nothing saved yet" in user.text
    assert workspace.text == empty_note(KEY)
    assert KEY in workspace.text
    assert user.manifest.cap_fired == "none"
    assert list(user.dropped) == []


def test_i1_no_workspace_key_means_only_the_user_scope() -> None:
    result = cap_indexes("- [a](a.md)", "- [b](b.md)", workspace_key=None)
    assert [capped.scope for capped in result] == ["user"]


# --- I-4 -------------------------------------------------------------------------------------


def test_i4_small_indexes_pass_whole() -> None:
    user, workspace = cap_indexes("# U\n- [a](a.md)\n", "# W\n- [b](b.md)", workspace_key=KEY)
    assert user.text == "# U\n- [a](a.md)"
    assert workspace.text == "# W\n- [b](b.md)"
    assert list(user.kept) == [1, 2]
    assert list(user.dropped) == []
    assert user.manifest.cap_fired == "none"
    assert user.manifest.headroom_lines == LINE_CAP - 2
    assert user.manifest.headroom_chars == CHAR_CAP - len("# U\n- [a](a.md)\n# W\n- [b](b.md)\n")


def test_i4_line_cap_200_per_scope() -> None:
    (user,) = cap_indexes(_lines(260, 20), None, workspace_key=None)
    assert list(user.kept) == list(range(1, 201))
    assert list(user.dropped) == list(range(201, 261))
    assert user.manifest.cap_fired == "lines"
    assert (user.manifest.lines_total, user.manifest.lines_kept) == (260, 200)
    assert user.manifest.lines_dropped == 60
    assert (user.manifest.headroom_lines, user.manifest.headroom_chars) == (0, 0)
    assert "60 lines were left out" in user.text
    assert "200-line cap" in user.text
    assert "MEMORY.md" in user.text


def test_i4_exactly_200_lines_is_not_cut() -> None:
    (user,) = cap_indexes(_lines(200, 20), None, workspace_key=None)
    assert user.manifest.cap_fired == "none"
    assert user.manifest.headroom_lines == 0
    assert "Truncated" not in user.text


def test_i4_character_backstop_cuts_at_a_line_boundary() -> None:
    (user,) = cap_indexes(_lines(100, 999), None, workspace_key=None)  # 1,000 per line
    assert user.manifest.lines_kept == 25
    assert user.manifest.cap_fired == "chars"
    assert _cost(user) == CHAR_CAP
    assert "75 lines were left out" in user.text
    assert "25,000-character" in user.text


def test_i4_one_huge_index_never_starves_the_other() -> None:
    user, workspace = cap_indexes(_lines(150, 1000), _lines(150, 1000), workspace_key=KEY)
    assert _cost(user) <= CHAR_CAP // 2
    assert _cost(workspace) <= CHAR_CAP // 2
    assert user.manifest.lines_kept == workspace.manifest.lines_kept == 12


def test_i4_a_scope_needing_less_hands_the_rest_to_the_other() -> None:
    small = _lines(10, 100)  # 1,010 characters
    user, workspace = cap_indexes(small, _lines(200, 500), workspace_key=KEY)
    assert user.manifest.cap_fired == "none"
    assert user.manifest.lines_kept == 10
    assert workspace.manifest.cap_fired == "chars"
    assert _cost(workspace) == 47 * 501  # its budget is 25,000 - 1,010 = 23,990
    assert _cost(user) + _cost(workspace) <= CHAR_CAP
    assert CHAR_CAP - _cost(user) - _cost(workspace) < 501  # the next line would not fit


def test_i4_counts_code_points_not_bytes() -> None:
    index = "\n".join("数" * 99 for _ in range(300))  # 3 bytes per character in UTF-8
    (user,) = cap_indexes(index, None, workspace_key=None)
    assert user.manifest.lines_kept == 200  # 200 x 100 = 20,000 code points: fits


def test_i4_a_single_line_longer_than_the_budget_is_left_out_whole() -> None:
    (user,) = cap_indexes("y" * 30_000 + "\nshort\n", None, workspace_key=None)
    assert list(user.kept) == []
    assert list(user.dropped) == [1, 2]
    assert "y" * 100 not in user.text
    assert "2 lines were left out" in user.text
    assert user.manifest.cap_fired == "chars"


def test_i4_file_on_disk_is_never_changed(corpus: Path) -> None:
    path = corpus / "large-index" / "MEMORY.md"
    before = path.read_bytes()
    cap_indexes(before.decode("utf-8"), before.decode("utf-8"), workspace_key=KEY)
    assert path.read_bytes() == before


def test_i4_corpus_large_index_hits_both_caps(corpus: Path) -> None:
    text = (corpus / "large-index" / "MEMORY.md").read_text(encoding="utf-8")
    user_text = (corpus / "user-scope" / "MEMORY.md").read_text(encoding="utf-8")
    (alone,) = cap_indexes(text, None, workspace_key=None)
    assert alone.manifest.cap_fired == "lines"
    user, workspace = cap_indexes(user_text, text, workspace_key=KEY)
    assert user.manifest.cap_fired == "none"
    assert user.text == user_text.rstrip("\n")
    assert workspace.manifest.cap_fired == "chars"
    assert _cost(user) + _cost(workspace) <= CHAR_CAP


# --- I-8 -------------------------------------------------------------------------------------


def test_i8_secrets_in_an_injected_index_are_masked() -> None:
    index = "- [CI](ci.md) — token ghp_0123456789abcdefghijABCDEFGHIJ012345\n"
    (user,) = cap_indexes(index, None, workspace_key=None)
    assert "ghp_0123" not in user.text
    assert "[masked: github-token]" in user.text
    assert list(user.kept) == [1]


# --- properties ------------------------------------------------------------------------------

index_text = st.lists(
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=30)
    | st.integers(min_value=0, max_value=3000).map(lambda n: "w" * n),
    max_size=260,
).map(lambda lines: "\n".join(lines))


@settings(max_examples=150)
@given(user_index=index_text, workspace_index=index_text | st.none())
def test_i4_caps_hold_for_any_indexes(user_index: str, workspace_index: str | None) -> None:
    result = cap_indexes(user_index, workspace_index, workspace_key=KEY)
    total = 0
    for capped, raw in zip(result, [user_index, workspace_index], strict=True):
        lines = index_lines(raw or "")
        manifest = capped.manifest
        assert manifest.lines_kept <= LINE_CAP
        assert manifest.lines_kept + manifest.lines_dropped == manifest.lines_total == len(lines)
        # a prefix: cut at a line boundary
        assert list(capped.kept) == list(range(1, manifest.lines_kept + 1))
        assert list(capped.dropped) == list(range(manifest.lines_kept + 1, len(lines) + 1))
        if raw and raw.strip():
            # whole lines only, each as injected: hidden characters shown escaped (I-9)
            shown = show_hidden_lines(lines[: manifest.lines_kept])
            assert _injected_lines(capped) == shown
            total += _cost(capped)
            if capped.dropped:  # a note after every cut
                assert manifest.cap_fired in ("lines", "chars")
                note = capped.text.rsplit("\n", 1)[-1]
                assert f"{len(capped.dropped)} line" in note
                assert capped.scope in note or "user memory" in note
                assert "MEMORY.md" in note
            else:
                assert manifest.cap_fired == "none"
                assert "Truncated" not in capped.text.rsplit("\n", 1)[-1] or "Truncated" in raw
    assert total <= CHAR_CAP


@settings(max_examples=60)
@given(
    small=st.lists(st.integers(min_value=0, max_value=200), min_size=1, max_size=40),
    huge_lines=st.integers(min_value=0, max_value=400),
    huge_width=st.integers(min_value=1, max_value=3000),
    small_first=st.booleans(),
)
def test_i4_a_small_index_is_never_starved_by_a_huge_one(
    small: list[int], huge_lines: int, huge_width: int, small_first: bool
) -> None:
    small_index = "\n".join("s" * width for width in small)
    huge_index = "\n".join("h" * huge_width for _ in range(huge_lines))
    pair = (small_index, huge_index) if small_first else (huge_index, small_index)
    result = cap_indexes(*pair, workspace_key=KEY)
    small_capped = result[0] if small_first else result[1]
    need = sum(width + 1 for width in small)
    if need <= CHAR_CAP // 2:
        assert not small_capped.dropped  # a scope within its half is always whole
    else:
        assert _cost(small_capped) > CHAR_CAP // 2 - max(small) - 1


# --- I-1 -------------------------------------------------------------------------------------


def test_i1_memory_text_persistent_workspace() -> None:
    user, workspace = cap_indexes("- [u](u.md)", "- [w](w.md)", workspace_key=KEY)
    text = build_memory_text(DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT, user, workspace)
    assert "- [u](u.md)" in text
    assert "- [w](w.md)" in text
    assert (
        text.index("## User memory") < text.index("- [u](u.md)") < text.index("## Workspace memory")
    )
    assert text.index("## Workspace memory") < text.index("- [w](w.md)")
    assert USER_INDEX_PLACEHOLDER not in text
    assert INDEX_PLACEHOLDER not in text


def test_i1_temporary_workspace_gets_no_workspace_section() -> None:
    (user,) = cap_indexes("- [u](u.md)", None, workspace_key=None)
    text = build_memory_text(DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT, user, None)
    assert "## Workspace memory" not in text
    assert "<workspace_memory_key>" not in text
    assert text.endswith("- [u](u.md)")


def test_i1_no_other_substitution_and_no_re_expansion() -> None:
    index = f"- [x](x.md) mentions {INDEX_PLACEHOLDER} and {{{{MEMORY}}}} and {{{{CWD}}}}"
    user, workspace = cap_indexes(index, "- [w](w.md)", workspace_key=KEY)
    prompt = f"P {USER_INDEX_PLACEHOLDER} {INDEX_PLACEHOLDER} {{{{CWD}}}}"
    workspace_prompt = f"W {INDEX_PLACEHOLDER} {USER_INDEX_PLACEHOLDER}"
    text = build_memory_text(prompt, workspace_prompt, user, workspace)
    assert text == (
        f"P {index} {INDEX_PLACEHOLDER} {{{{CWD}}}}\n\nW - [w](w.md) {USER_INDEX_PLACEHOLDER}"
    )


@pytest.mark.parametrize(
    ("prompt", "placeholder", "reason"),
    [
        ("x {{MEMORY_USER_INDEX}} y", USER_INDEX_PLACEHOLDER, None),
        ("x {{MEMORY_INDEX}}", INDEX_PLACEHOLDER, None),
        ("no placeholder", USER_INDEX_PLACEHOLDER, "it holds none"),
        ("{{MEMORY_USER_INDEX}}", INDEX_PLACEHOLDER,
         "it holds '{{MEMORY_USER_INDEX}}' (the memory prompt's) instead"),
        ("{{{MEMORY_INDEX}}}", INDEX_PLACEHOLDER,
         "it also holds '{{{MEMORY_INDEX}}}', which would reach the model as written"),
        ("{{MEMORY_INDEX}}{{MEMORY_INDEX}}{{memory-index}}", INDEX_PLACEHOLDER,
         "it holds it 2 times (the index would be injected 2 times), and '{{memory-index}}' "
         "besides"),
    ],
)  # fmt: skip
def test_i1_a_prompt_holds_its_placeholder_exactly_once_as_written(
    prompt: str, placeholder: str, reason: str | None
) -> None:
    assert placeholder_problem(prompt, placeholder) == reason
    rule = MEMORY_PROMPT_RULE if placeholder == USER_INDEX_PLACEHOLDER else WORKSPACE_PROMPT_RULE
    assert rule.accepts(prompt) is (reason is None)  # the pattern decides; the reason words it
    assert rule.problem(prompt) == reason


def test_i1_manifests_say_where_each_index_went() -> None:
    user, workspace = cap_indexes("- [u](u.md)", "- [w](w.md)", workspace_key=KEY)
    placed = placed_manifests("no placeholder", f"W {INDEX_PLACEHOLDER}", user, workspace)
    assert [(m.scope, m.placement, m.lines_kept) for m in placed] == [
        ("user", "after-prompt", 1),
        (KEY, "placeholder", 1),
    ]
    text = build_memory_text("no placeholder", f"W {INDEX_PLACEHOLDER}", user, workspace)
    assert text == "no placeholder\n\n- [u](u.md)\n\nW - [w](w.md)"


def test_i1_i4_assemble_memory_is_the_capped_and_placed_text_kept_by_content() -> None:
    """``assemble_memory`` answers as capping, sections and manifests do one by one, and hands
    out the same answer again for the same prompts and prepared indexes (memoised by content)."""
    user_text = "- [Style](style.md) — tabs, never spaces\n" * 300
    user = prepare_index(user_text)
    workspace = prepare_index("- [Build](build.md) — make test\n")
    prompt = "Yours:\n{{MEMORY_USER_INDEX}}"
    workspace_prompt = "This Workspace:\n{{MEMORY_INDEX}}"

    assembled = assemble_memory(prompt, workspace_prompt, user, workspace, "app-0123abcd")

    capped = cap_indexes(user, workspace, workspace_key="app-0123abcd")
    sections = memory_sections(prompt, workspace_prompt, capped[0], capped[1])
    assert list(assembled.sections) == sections
    assert assembled.text == "".join(section.text for section in sections)
    manifests = placed_manifests(prompt, workspace_prompt, capped[0], capped[1])
    assert list(assembled.manifests) == manifests
    same_text = prepare_index(user_text)  # another object, the same content
    again = assemble_memory(prompt, workspace_prompt, same_text, workspace, "app-0123abcd")
    assert again is assembled
    without_key = assemble_memory(prompt, workspace_prompt, user, workspace, None)
    assert [manifest.scope for manifest in without_key.manifests] == ["user"]
    assert "make test" not in without_key.text
