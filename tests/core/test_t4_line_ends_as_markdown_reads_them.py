"""T-4, I-4: a line of memory text ends where Markdown ends it — LF, CRLF or a lone CR.

``str.splitlines`` also splits at U+2028, U+2029, a form feed, a vertical tab, NEL (U+0085)
and U+001C–U+001E. An index line holding one of them was one line to the pruner and two or
more to other readers, so a delete, a restore or a cap could take or count another entry's
text. Every reader now cuts lines with ``memory_core.markdown`` (``lines_with_ends``,
``line_texts``): one line is one line everywhere, as the model and the harnesses see it.
"""

from __future__ import annotations

import pytest
from memory_core.caps import LINE_CAP
from memory_core.index import index_lines, index_lines_linking, prune_index
from memory_core.injection import cap_indexes, prepare_index
from memory_core.markdown import line_texts, lines_with_ends

# Each of these is a line break to str.splitlines and none to Markdown.
NOT_LINE_ENDS = ["\u2028", "\u2029", "\f", "\x85", "\v", "\x1c", "\x1d", "\x1e"]


def index_with(sep: str) -> str:
    return (
        "# Index\n"
        f"- [Alpha](alpha.md) — first half{sep}second half\n"
        f"- [Beta](beta.md) — beta{sep}- [Gamma](gamma.md) — written after the separator\r\n"
        "- [Delta](delta.md) — delta\n"
    )


def test_t4_the_line_rule_is_lf_crlf_and_a_lone_cr_only() -> None:
    text = "a\r\nb\rc\u2028d\x85e\ff\n"
    assert lines_with_ends(text) == ["a\r\n", "b\r", "c\u2028d\x85e\ff\n"]
    assert line_texts(text) == ["a", "b", "c\u2028d\x85e\ff"]
    assert "".join(lines_with_ends(text)) == text
    assert line_texts("") == lines_with_ends("") == []
    assert line_texts("x\n") == ["x"]


@pytest.mark.parametrize("sep", NOT_LINE_ENDS, ids=ascii)
def test_t4_a_separator_inside_an_index_line_keeps_it_one_line(sep: str) -> None:
    text = index_with(sep)
    assert len(index_lines(text)) == len(line_texts(text)) == 4
    assert index_lines(text)[1] == f"- [Alpha](alpha.md) — first half{sep}second half"


@pytest.mark.parametrize("sep", NOT_LINE_ENDS, ids=ascii)
def test_t4_pruning_removes_the_one_line_and_keeps_every_other_byte(sep: str) -> None:
    text = index_with(sep)
    pruned, removed = prune_index(text, "alpha.md")
    assert removed == [f"- [Alpha](alpha.md) — first half{sep}second half"]
    assert pruned == text.replace(f"- [Alpha](alpha.md) — first half{sep}second half\n", "")
    assert prune_index(text, "delta.md")[0] == text.replace("- [Delta](delta.md) — delta\n", "")
    # The line that links gamma.md after the separator is one line holding two entries: a
    # delete of either takes its own entry with the separator joining it, never the other
    # (tests/core/test_t4_joined_index_lines.py); a restore puts that entry back.
    beta, gamma = "- [Beta](beta.md) — beta", "- [Gamma](gamma.md) — written after the separator"
    assert index_lines_linking(text, "gamma.md") == [gamma]
    assert index_lines_linking(text, "beta.md") == [beta]
    assert prune_index(text, "gamma.md")[0] == text.replace(f"{sep}{gamma}", "")
    assert prune_index(text, "beta.md")[0] == text.replace(f"{beta}{sep}", "")


@pytest.mark.parametrize("sep", NOT_LINE_ENDS, ids=ascii)
def test_i4_the_line_cap_counts_the_lines_the_model_sees(sep: str) -> None:
    text = "".join(f"- [N{n}](n-{n}.md) — one{sep}two{sep}three\n" for n in range(LINE_CAP))
    prepared = prepare_index(text)
    assert prepared.total == LINE_CAP
    assert len(prepared.candidates) == LINE_CAP
    user = cap_indexes(text, None, workspace_key=None)[0]
    assert user.manifest.lines_total == user.manifest.lines_kept == LINE_CAP
    assert user.manifest.cap_fired in {"none", "chars"}


def test_i4_a_lone_cr_ends_a_line_for_the_cap_as_for_the_pruner() -> None:
    text = "- [A](a.md)\r- [B](b.md)\r\n- [C](c.md)\n"
    assert prepare_index(text).total == len(index_lines(text)) == 3
    assert prune_index(text, "b.md") == ("- [A](a.md)\r- [C](c.md)\n", ["- [B](b.md)"])
