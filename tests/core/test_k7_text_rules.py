"""K-7, A-1, A-9, A-12: each string rule, stated once as a pattern, says what the spec says.

The service checks with :class:`memory_core.rules.TextRule` and the OpenAPI document prints the
same rule, so these tests hold the patterns to the spec's words: each rule is compared, on
random and tricky values, with a plain reading of its requirement written out step by step.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, SupportsIndex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memory_core.hidden_text import HIDDEN_CANDIDATES, ZWSP_WORD_LETTERS, hidden_runs
from memory_core.keys import DRAFT_ID_RULE, ID_RULE, SCOPE_KEY_RULE, TOPIC_FILE_NAME_RULE
from memory_core.rules import (
    _LOOKALIKE,
    AGENT_NAME_RULE,
    CONTROL_CLASS,
    DRAFT_PROMPT_RULE,
    MACHINE_NAME_RULE,
    MAX_UTF8_BYTES_KEYWORD,
    MEMORY_PROMPT_RULE,
    NAME_MAX,
    TEMPLATE_RULE,
    WHITESPACE,
    WORKSPACE_PATH_RULE,
    WORKSPACE_PROMPT_RULE,
    TextRule,
    python_regex,
    template_placeholder_problem,
)

if TYPE_CHECKING:  # typeshed's names for the parser Python 3.11 keeps as re._parser
    import sre_constants as regex_constants
    import sre_parse as regex_parser
else:
    from re import _constants as regex_constants
    from re import _parser as regex_parser

TRICKY = [
    "",
    " ",
    "a",
    "a\n",
    "\na",
    "MEMORY.md",
    "memory.MD",
    ".md",
    "x.md",
    "x.md\n",
    ".x.md",
    "a/b.md",
    "a\\b.md",
    "数据库迁移.md",
    "é" * 127 + ".md",
    "é" * 126 + "a.md",
    "/",
    "/a\tb",
    "/a\x85b",
    "relative",
    " Coder ",
    "\x1cCoder\u3000",
    "C" * NAME_MAX,
    " " + "C" * NAME_MAX + "\n",
    "C" * (NAME_MAX + 1),
    "Co\x00der",
    "user",
    "my-app-a81f32c4",
    "0" * 32,
    "\u2028",
]
UNICODE = st.text(st.characters(codec="utf-8"), max_size=300)


def _is_control(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def _spec_file_name(value: str) -> bool:
    """K-7 in words: ends in .md, not MEMORY.md (T-5b: other cases are topic files), no leading
    '.', no '/', '\\', NUL or control character, at most 255 bytes of UTF-8."""
    return (
        value.endswith(".md")
        and value != "MEMORY.md"
        and not value.startswith(".")
        and "/" not in value
        and "\\" not in value
        and not _is_control(value)
        and len(value.encode("utf-8")) <= 255
    )


def _spec_agent_name(value: str) -> bool:
    """A-1: trimmed of surrounding whitespace, 1-100 characters, no control character and no
    character I-9 may count as hidden (a label must read as what it is)."""
    clean = value.strip()
    hidden = re.search(f"[{HIDDEN_CANDIDATES}]", clean) is not None
    return 0 < len(clean) <= NAME_MAX and not _is_control(clean) and not hidden


def _spec_workspace(value: str) -> bool:
    """A-9: an absolute path, no control character, at most 4096 bytes of UTF-8."""
    return value.startswith("/") and not _is_control(value) and len(value.encode()) <= 4096


def _spec_prompt(value: str) -> bool:
    """A-12: not empty once surrounding whitespace is trimmed."""
    return bool(value.strip())


SPECS: list[tuple[TextRule, Callable[[str], bool]]] = [
    (TOPIC_FILE_NAME_RULE, _spec_file_name),
    (AGENT_NAME_RULE, _spec_agent_name),
    (WORKSPACE_PATH_RULE, _spec_workspace),
    (DRAFT_PROMPT_RULE, _spec_prompt),
    (ID_RULE, lambda value: re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", value) is not None),
    (
        SCOPE_KEY_RULE,
        lambda value: (
            value == "user"
            or re.fullmatch(r"[a-z0-9_][a-z0-9._-]{0,47}-[0-9a-f]{8}", value) is not None
        ),
    ),
    (DRAFT_ID_RULE, lambda value: re.fullmatch(r"[0-9a-f]{32}", value) is not None),
]


def test_whitespace_is_exactly_what_python_strips() -> None:
    spaces = {chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()}
    assert set(WHITESPACE) == spaces


def test_control_class_is_exactly_unicode_cc() -> None:
    controls = {chr(code) for code in range(0x3000) if unicodedata.category(chr(code)) == "Cc"}
    assert {ch for ch in map(chr, range(0x3000)) if re.fullmatch(f"[{CONTROL_CLASS}]", ch)} == (
        controls
    )


def test_python_regex_reads_dollar_as_the_end_of_the_value() -> None:
    assert python_regex("^a$").search("a\n") is None
    assert python_regex("^a$").search("a") is not None
    with pytest.raises(ValueError, match="literal"):
        python_regex("^a\\$$")


def test_a11_a_rule_prints_as_json_schema_with_its_byte_limit() -> None:
    rule = TextRule(pattern="^x+$", summary="x", max_length=4, max_utf8_bytes=4)
    assert rule.json_schema() == {
        "type": "string",
        "pattern": "^x+$",
        "maxLength": 4,
        MAX_UTF8_BYTES_KEYWORD: 4,
    }


@pytest.mark.parametrize(("rule", "spec"), SPECS)
@pytest.mark.parametrize("value", TRICKY)
def test_k7_each_rule_agrees_with_its_spec_on_tricky_values(
    rule: TextRule, spec: Callable[[str], bool], value: str
) -> None:
    assert rule.accepts(value) == spec(value), (rule.summary, value)
    assert (rule.problem(value) is None) == rule.accepts(value)


@pytest.mark.parametrize(("rule", "spec"), SPECS)
@settings(max_examples=150)
@given(data=st.data())
def test_k7_each_rule_agrees_with_its_spec_on_random_values(
    rule: TextRule, spec: Callable[[str], bool], data: st.DataObject
) -> None:
    from_pattern = st.from_regex(python_regex(rule.pattern), alphabet=st.characters(codec="utf-8"))
    value = data.draw(st.one_of(UNICODE, from_pattern))
    assert rule.accepts(value) == spec(value), (rule.summary, value)


def test_k7_refusals_name_the_first_broken_part() -> None:
    assert TOPIC_FILE_NAME_RULE.problem("x" * 300 + ".md") == "is longer than 255 bytes in UTF-8"
    assert TOPIC_FILE_NAME_RULE.problem("MEMORY.md") == "is the scope's index, not a topic file"
    assert TOPIC_FILE_NAME_RULE.problem("Memory.md") is None
    assert AGENT_NAME_RULE.problem(" \t ") == "must not be empty"
    assert AGENT_NAME_RULE.problem("C" * 101) == "must be at most 100 characters"
    assert WORKSPACE_PATH_RULE.problem("src/app") == "must be an absolute path, got 'src/app'"
    assert DRAFT_PROMPT_RULE.problem("\u3000") == "must not be empty"


@pytest.mark.parametrize(
    "name",
    [
        "laptop\u202egpj.exe",  # right-to-left override: shows as "laptopexe.jpg"
        "build\u2066-server",  # a bidirectional isolate
        "ad\u200bmin",  # zero-width space: shows as "admin"
        "ad\u200dmin",  # a joiner between Latin letters: shows as "admin"
        "\ufeffdesk",  # byte order mark
        "desk" + "".join(chr(0xE0000 + ord(c)) for c in "evil"),  # tag characters
        "desk\ufe0f",  # a variation selector after a letter
        "\u2060",
    ],
)
def test_r1_i9_a_machine_name_holds_no_hidden_character(name: str) -> None:
    """A machine name is a label on the page (R-1): nothing in it may make it show as another."""
    assert not MACHINE_NAME_RULE.accepts(name)
    reason = MACHINE_NAME_RULE.problem(name)
    assert reason is not None and reason.startswith("must not hold hidden characters (")
    assert not AGENT_NAME_RULE.accepts(name)  # an agent's name is such a label too
    reason = AGENT_NAME_RULE.problem(name)
    assert reason is not None and reason.startswith("must not hold hidden characters (")


@pytest.mark.parametrize("name", ["laptop", "Büro-PC", "ノートPC", "a", "x" * 64, "dev box 2"])
def test_r1_a_machine_name_of_visible_characters_passes(name: str) -> None:
    assert MACHINE_NAME_RULE.accepts(name)


def test_a2_i9_the_template_rule_refuses_what_is_hidden_wherever_it_stands() -> None:
    """A template keeps tabs, CRLF, emoji sequences, script joiners and direction marks; it is
    refused for controls, zero-width spaces, bidirectional overrides and tag characters."""
    for kept in (
        "# Role\r\n\tindented\n{{MEMORY}}\n",
        "👨\u200d👩\u200d👧 می\u200cخواهم המחיר הוא\u200f 42\n{{MEMORY}}",
    ):
        assert TEMPLATE_RULE.accepts(kept), kept
    for refused, what in (
        ("a\x1b[8mb", "line 1: "),
        ("Thai word break in a Latin word: ad\u200bmin", "line 1: "),
        ("a\nad\u200bmin", "line 2: "),
        ("x\n\ny\u202e", "line 3: "),
        ("run" + "".join(chr(0xE0000 + ord(c)) for c in "sh"), "line 1: 2 tag characters"),
    ):
        reason = TEMPLATE_RULE.problem(refused)
        assert reason is not None and reason.startswith("must not hold hidden characters (")
        assert what in reason


THAI_TEMPLATE = "# บทบาท\nคุณ\u200bเป็น\u200bผู้ช่วย\u200bที่\u200bดี\n{{MEMORY}}\n"
"""A Thai template as a word processor writes it: a zero-width space marks each word break."""


@pytest.mark.parametrize(
    "kept",
    [
        THAI_TEMPLATE,
        "ພາສາ\u200bລາວ",  # Lao
        "မြန်မာ\u200bစာ",  # Myanmar: after a mark (the virama)
        "ភាសា\u200bខ្មែរ",  # Khmer
    ],
)
def test_a2_i9_a_template_keeps_the_word_break_of_thai_lao_myanmar_and_khmer(kept: str) -> None:
    """I-9 keeps a zero-width space alone between two letters of these scripts (their word
    break): so does the template rule, pattern and check alike, and so do the memory prompts."""
    assert TEMPLATE_RULE.problem(kept) is None
    assert python_regex(TEMPLATE_RULE.pattern).search(kept)
    prompt = kept.replace("{{MEMORY}}", "") + "\n{{MEMORY_USER_INDEX}}"
    assert MEMORY_PROMPT_RULE.problem(prompt) is None
    assert not hidden_runs(kept)


@pytest.mark.parametrize(
    "refused",
    [
        "ad\u200bmin",  # between Latin letters
        "คุณ\u200b\u200bเป็น",  # two in a row
        "\u200bคุณ",  # at the start
        "คุณ\u200b",  # at the end
        "คุณ\u200b admin",  # beside a space
        "คุณ\u200badmin",  # Thai then Latin
    ],
)
def test_a2_i9_a_zero_width_space_out_of_its_place_is_refused_in_a_template(
    refused: str,
) -> None:
    reason = TEMPLATE_RULE.problem(refused)
    assert reason is not None and "U+200B" in reason, reason
    assert MEMORY_PROMPT_RULE.problem(refused + "{{MEMORY_USER_INDEX}}") == reason
    assert hidden_runs(refused)


_VISIBLE = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Cf", "Zl", "Zp"))


@settings(max_examples=300)
@given(
    before=st.one_of(_VISIBLE, st.sampled_from(ZWSP_WORD_LETTERS)),
    after=st.one_of(_VISIBLE, st.sampled_from(ZWSP_WORD_LETTERS)),
)
def test_a2_i9_the_template_rule_and_i9_agree_on_every_zero_width_space(
    before: str, after: str
) -> None:
    """One notion of hidden text: a zero-width space between two visible characters passes the
    template rule exactly when I-9 does not count it hidden."""
    text = f"{before}\u200b{after}"
    zwsp_hidden = any(start <= 1 < end for start, end in hidden_runs(text))
    if any(start != 1 for start, _ in hidden_runs(text)):
        return  # a neighbour hidden in its own right (a Khmer inherent vowel): not this rule's
    assert TEMPLATE_RULE.accepts(text) == (not zwsp_hidden), text


_REPEATS = (
    regex_constants.MAX_REPEAT,
    regex_constants.MIN_REPEAT,
    regex_constants.POSSESSIVE_REPEAT,
)


def _parts(argument: object) -> Iterator[regex_parser.SubPattern]:
    """The sub-patterns an opcode's argument holds (a group's, a branch's, a repeat's body, a
    lookaround's), outermost first."""
    if isinstance(argument, regex_parser.SubPattern):
        yield argument
    elif isinstance(argument, tuple | list):
        for item in argument:
            yield from _parts(item)


def _unbounded_repeats(pattern: regex_parser.SubPattern) -> Iterator[regex_parser.SubPattern]:
    """The body of every repeat in ``pattern`` without an upper bound (``*``, ``+``, ``{n,}``),
    inside groups, branches and lookarounds too."""
    for opcode, argument in pattern.data:
        if opcode in _REPEATS and isinstance(argument, tuple) and argument[1] == MAXREPEAT:
            yield argument[2]
        for part in _parts(argument):
            yield from _unbounded_repeats(part)


MAXREPEAT = regex_constants.MAXREPEAT
_LOOKALIKE_WIDTH = 3 + 64 + len("memory") + 64 + 3
"""The most characters a lookalike (with the closing braces searched after it) can span: three
braces, 64 characters either side of its word, and three braces."""


@pytest.mark.parametrize("searched", [_LOOKALIKE, _LOOKALIKE + r"\}{0,2}"])
def test_i1_a_lookalike_is_searched_in_a_bounded_window(searched: str) -> None:
    """Every repeat of the lookalike pattern (as the rule's lookahead and as the wording's
    search) has an upper bound, so each attempt to match it reads at most a few dozen
    characters past where it starts, however long the text, and searching the whole text is
    one pass. Unbounded (``[A-Za-z _-]*memory``), a brace opened and never closed made every
    attempt read on to the end: ``{{memorymemory…`` of 1 MiB was judged in minutes."""
    parsed = regex_parser.parse(searched)
    assert list(_unbounded_repeats(parsed)) == []
    assert parsed.getwidth()[1] <= _LOOKALIKE_WIDTH


@pytest.mark.parametrize(
    ("rule", "placeholder"),
    [(MEMORY_PROMPT_RULE, "{{MEMORY_USER_INDEX}}"), (WORKSPACE_PROMPT_RULE, "{{MEMORY_INDEX}}")],
)
def test_i1_a_prompt_is_judged_in_one_walk_of_bounded_steps(
    rule: TextRule, placeholder: str
) -> None:
    """The prompt rule is ``^ walk placeholder walk $`` and nothing else repeats without bound:
    each walk's step is a lookahead that no lookalike starts there (a bounded window: the test
    above) and then one template character (or a word-break letter with its zero-width space:
    one or two characters), so each character costs a bounded amount of work. A walk cannot
    step over a lookalike, and the placeholder is one, so the first walk ends where the
    placeholder may stand and the second starts once: the judgement is linear in the prompt's
    length. A lookahead holding an unbounded repeat made each step read to the end of a long
    unclosed brace (quadratic)."""
    parsed = regex_parser.parse(python_regex(rule.pattern).pattern)
    walks = list(_unbounded_repeats(parsed))
    assert len(walks) == 2
    assert [code for code in parsed.data if code[0] in _REPEATS] == [
        (regex_constants.MAX_REPEAT, (0, MAXREPEAT, walk)) for walk in walks
    ]  # both walks stand at the top, inside no other repeat or lookaround
    outside: list[tuple[object, object]] = [c for c in parsed.data if c[0] not in _REPEATS]
    assert outside == [
        (regex_constants.AT, regex_constants.AT_BEGINNING),
        *((regex_constants.LITERAL, ord(char)) for char in placeholder),
        (regex_constants.AT, regex_constants.AT_END_STRING),
    ]
    for walk in walks:
        (opcode, lookahead), *step = walk.data
        assert opcode == regex_constants.ASSERT_NOT and isinstance(lookahead, tuple)
        ahead = lookahead[1]
        assert isinstance(ahead, regex_parser.SubPattern)
        assert list(_unbounded_repeats(ahead)) == []
        assert ahead.getwidth()[1] <= _LOOKALIKE_WIDTH
        one_step = regex_parser.SubPattern(parsed.state, step)
        assert list(_unbounded_repeats(one_step)) == []
        assert one_step.getwidth() in {(1, 1), (1, 2)}
    assert re.match(_LOOKALIKE, placeholder)  # a lookalike starts there: no walk steps on it


class _LinesCounted(str):
    """A text that counts the characters its ``count("\\n", …)`` reads: the work of placing
    each hidden run on its line."""

    scanned = 0

    def count(
        self, sub: str, start: SupportsIndex | None = None, end: SupportsIndex | None = None, /
    ) -> int:
        if sub == "\n":
            self.scanned += len(range(len(self))[start:end])
        return super().count(sub, start, end)


@pytest.mark.parametrize("rule", [MEMORY_PROMPT_RULE, TEMPLATE_RULE])
def test_i9_each_hidden_run_is_placed_on_its_line_in_one_pass(rule: TextRule) -> None:
    """The refusal of a text with hidden characters names the line of each (the first five).
    Every run found was placed by counting the lines from the text's start: a prompt of
    ``\\x01a`` repeated (a hidden character every other one) took 19 s at 256 KiB, minutes of
    a worker at the request's 1 MiB. Lines are counted on from the run before: the line ends
    read are at most the text's length (counted, not timed)."""
    text = _LinesCounted("{{MEMORY_USER_INDEX}}\n" + "\x01a\n" * 2_000)

    reason = rule.problem(text)

    assert reason is not None
    assert reason.startswith(
        "must not hold hidden characters (line 2: 1 control character (U+0001); line 3: 1 "
        "control character (U+0001); line 4: "
    )
    assert "line 6: 1 control character (U+0001); and 1995 more)" in reason
    assert text.scanned <= len(text)


@pytest.mark.parametrize("run", ["memory", "index ", "MEMORY_"])
@pytest.mark.parametrize("braces", ["{", "{{", "{{{"])
def test_i1_a_long_unclosed_placeholder_is_no_lookalike(run: str, braces: str) -> None:
    """A prompt of a request's full size (1 MiB) that opens braces and never closes them
    (``{{memorymemory…``) holds no lookalike: the prompt with its placeholder once passes, and
    a template holding it is told of the placeholder alone. (It was judged in time quadratic
    in its length, minutes of a worker for one PATCH: the two tests above hold the patterns to
    a linear judgement, without a clock.)"""
    prompt = "{{MEMORY_USER_INDEX}}\n" + braces + run * (1024 * 1024 // len(run))
    assert MEMORY_PROMPT_RULE.problem(prompt) is None
    unclosed = (
        f"; it holds {braces + 'index'!r} on line 2, which is never closed: nothing fills it "
        "in, it would reach the model as written; close it with }}"
        if run == "index " and len(braces) > 1  # its first word, a placeholder word, is named
        else ""
    )
    assert template_placeholder_problem(prompt) == (
        "it holds '{{MEMORY_USER_INDEX}}', which nothing fills in: it would reach the model "
        "as written" + unclosed
    )
