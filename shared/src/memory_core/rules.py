"""Rules on the strings the API accepts, each stated once for its check and its OpenAPI schema.

A :class:`TextRule` is the whole verdict on one kind of string (an id, a file name, a Workspace
path, an agent name): a JSON Schema ``pattern``, an optional ``maxLength`` in code points and an
optional limit in UTF-8 bytes. The service checks a value with :meth:`TextRule.accepts` and the
OpenAPI document prints :meth:`TextRule.json_schema`, so the two cannot disagree (A-11).

Three dialects read a pattern: Python ``re`` (the check), ECMA-262 (what JSON Schema names) and
Rust ``regex`` (validators such as jsonschema-rs). Patterns here keep to what all three read the
same way: anchors ``^``/``$``, classes spelled with ``\\uXXXX`` escapes, groups, bounded
repetition and lookaheads. The one difference that matters, Python's ``$`` also matching before
a final newline, is removed by compiling ``$`` as ``\\Z`` (:func:`python_regex`).

JSON Schema counts ``maxLength`` in code points; K-7 limits file names in bytes of UTF-8. The
byte limit is published as the extension keyword :data:`MAX_UTF8_BYTES_KEYWORD`, beside the
strictest ``maxLength`` that refuses nothing the service accepts (one byte per code point).

>>> ID_RULE = TextRule(pattern="^[a-z]{1,3}$", summary="must be 1-3 letters a-z")
>>> ID_RULE.accepts("abc"), ID_RULE.accepts("abc" + chr(10)), ID_RULE.problem("ABC")
(True, False, 'must be 1-3 letters a-z')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeAlias

from memory_core.hidden_text import HIDDEN_CANDIDATES, ZWSP_WORD_LETTERS, describe_hidden

if TYPE_CHECKING:
    import msgspec

Explain: TypeAlias = Callable[[str], str | None]
"""Names what is wrong with a refused value, or None when its part of the rule holds."""

__all__ = [
    "AGENT_NAME_RULE",
    "CONTROL_CLASS",
    "DRAFT_PROMPT_RULE",
    "FILLED_IN",
    "INDEX_PLACEHOLDER",
    "KNOWN_PLACEHOLDERS",
    "MACHINE_ID_RULE",
    "MACHINE_NAME_MAX",
    "MACHINE_NAME_RULE",
    "MAX_UTF8_BYTES_KEYWORD",
    "MEMORY_PROMPT_RULE",
    "NAME_MAX",
    "SESSION_PLACEHOLDERS",
    "TIMESTAMP_RULE",
    "USER_INDEX_PLACEHOLDER",
    "WHITESPACE",
    "WHITESPACE_CLASS",
    "WORKSPACE_PATH_MAX_BYTES",
    "WORKSPACE_PATH_RULE",
    "WORKSPACE_PROMPT_RULE",
    "TextRule",
    "char_class",
    "marker_problem",
    "placeholder_lookalikes",
    "placeholder_problem",
    "prompt_warnings",
    "python_regex",
    "template_placeholder_problem",
    "utf8_length",
    "workspace_path_problem",
]

MAX_UTF8_BYTES_KEYWORD = "x-maxUtf8Bytes"
"""OpenAPI extension keyword: the most bytes the string may take encoded as UTF-8 (K-7)."""


def char_class(ranges: Iterable[tuple[int, int]]) -> str:
    """Render code point ranges (inclusive) as the inside of a regex class in ``\\uXXXX`` escapes.

    >>> char_class([(0, 31), (0x7F, 0x9F)])
    '\\\\u0000-\\\\u001f\\\\u007f-\\\\u009f'
    """
    parts = []
    for first, last in ranges:
        parts.append(f"\\u{first:04x}" if first == last else f"\\u{first:04x}-\\u{last:04x}")
    return "".join(parts)


_CONTROL_RANGES = ((0x00, 0x1F), (0x7F, 0x9F))
CONTROL_CLASS = char_class(_CONTROL_RANGES)
"""The C0 and C1 control characters (Unicode category ``Cc``, NUL included) as a class body."""

_WHITESPACE_RANGES = (
    (0x09, 0x0D),
    (0x1C, 0x20),
    (0x85, 0x85),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)
WHITESPACE = "".join(chr(c) for first, last in _WHITESPACE_RANGES for c in range(first, last + 1))
"""Every character Python's ``str.strip()`` removes (``str.isspace``), spelled out so a pattern
can name them: ECMA-262's and Rust's ``\\s`` each differ from Python's."""
WHITESPACE_CLASS = char_class(_WHITESPACE_RANGES)
""":data:`WHITESPACE` as a class body."""


def python_regex(pattern: str) -> re.Pattern[str]:
    """Compile a JSON Schema ``pattern`` so that Python's ``search`` reads it as ECMA-262 does.

    ``$`` becomes ``\\Z`` (end of input only). Patterns holding a literal ``\\$`` are refused
    (``ValueError``): none is needed, and keeping them out keeps this translation exact.
    """
    if "\\$" in pattern:
        raise ValueError(f"a rule pattern must not hold a literal '$': {pattern!r}")
    return re.compile(pattern.replace("$", r"\Z"))


def utf8_length(value: str) -> int | None:
    """Bytes of ``value`` in UTF-8, or None when it cannot be encoded (a lone surrogate)."""
    try:
        return len(value.encode("utf-8"))
    except UnicodeEncodeError:
        return None


class TextRule:
    """The complete rule on one kind of string: what the service checks and the document shows.

    ``pattern`` is a JSON Schema pattern (searched, as JSON Schema does; anchor it to match the
    whole value); ``max_length`` is JSON Schema ``maxLength`` in code points; ``max_utf8_bytes``
    the limit in bytes of UTF-8 (a value that cannot be encoded is refused with it). ``summary``
    says the rule in words (the description and the fallback reason); ``explanations`` are
    tried in order on a refused value to name the first thing wrong with it. They only word
    the answer: whether a value passes is decided by :meth:`accepts` alone.

    The pattern is compiled on first use. Treat instances as values; nothing changes them after
    construction.
    """

    __slots__ = ("_regex", "explanations", "max_length", "max_utf8_bytes", "pattern", "summary")

    def __init__(
        self,
        *,
        pattern: str,
        summary: str,
        max_length: int | None = None,
        max_utf8_bytes: int | None = None,
        explanations: tuple[Explain, ...] = (),
    ) -> None:
        if "\\$" in pattern:
            raise ValueError(f"a rule pattern must not hold a literal '$': {pattern!r}")
        self.pattern = pattern
        self.summary = summary
        self.max_length = max_length
        self.max_utf8_bytes = max_utf8_bytes
        self.explanations = explanations
        self._regex: re.Pattern[str] | None = None

    def __repr__(self) -> str:
        return f"TextRule(pattern={self.pattern!r})"

    def accepts(self, value: str) -> bool:
        """Tell whether ``value`` satisfies the rule (pattern, code points and bytes)."""
        if self.max_length is not None and len(value) > self.max_length:
            return False
        if self.max_utf8_bytes is not None:
            size = utf8_length(value)
            if size is None or size > self.max_utf8_bytes:
                return False
        if self._regex is None:
            self._regex = python_regex(self.pattern)
        return self._regex.search(value) is not None

    def problem(self, value: str) -> str | None:
        """Return None when ``value`` is accepted, else the reason it is refused."""
        if self.accepts(value):
            return None
        for explain in self.explanations:
            reason = explain(value)
            if reason is not None:
                return reason
        return self.summary

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of a string following this rule (with the byte-limit extension)."""
        schema: dict[str, Any] = {"type": "string", "pattern": self.pattern}
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        if self.max_utf8_bytes is not None:
            schema[MAX_UTF8_BYTES_KEYWORD] = self.max_utf8_bytes
        return schema

    def meta(self, description: str) -> msgspec.Meta:
        """A ``msgspec.Meta`` that documents the rule on a DTO field (it does not enforce it).

        The store enforces the rule with :meth:`problem`, answering 400 with the reason (422
        for an agent's template and memory prompts, whose every rule answers so: A-2, I-1); the
        decoder only checks the JSON type (422), as for every other field. msgspec is imported
        here, where a DTO module defines its fields: a write guard checks ids with these rules
        and has no use for it (H-5).
        """
        import msgspec

        extra = {key: value for key, value in self.json_schema().items() if key != "type"}
        return msgspec.Meta(description=f"{description} {self.summary}.", extra_json_schema=extra)


def _too_many_bytes(limit: int) -> Explain:
    def explain(value: str) -> str | None:
        size = utf8_length(value)
        if size is None:
            return "must be valid Unicode text"
        return f"must be at most {limit} bytes long" if size > limit else None

    return explain


def _holds_control(value: str) -> str | None:
    if re.search(f"[{CONTROL_CLASS}]", value):
        return "must not hold control characters (newline, tab …)"
    return None


NAME_MAX = 100
"""Characters of an agent name at most, surrounding whitespace not counted (A-1)."""
_NOT_BLANK = f"[^{WHITESPACE_CLASS}{CONTROL_CLASS}]"


WORKSPACE_PATH_MAX_BYTES = 4096
"""The longest Workspace path accepted, in bytes of UTF-8 (PATH_MAX on Linux)."""
WORKSPACE_PATH_RULE = TextRule(
    pattern=f"^/[^{CONTROL_CLASS}]*$",
    summary=(
        "an absolute path (starting with '/') without control characters, at most "
        f"{WORKSPACE_PATH_MAX_BYTES} bytes of UTF-8"
    ),
    max_length=WORKSPACE_PATH_MAX_BYTES,
    max_utf8_bytes=WORKSPACE_PATH_MAX_BYTES,
    explanations=(
        lambda value: "must not hold a NUL character" if "\x00" in value else None,
        _holds_control,
        _too_many_bytes(WORKSPACE_PATH_MAX_BYTES),
        lambda value: None if value.startswith("/") else f"must be an absolute path, got {value!r}",
    ),
)
"""The Workspace path of a Session start or a draft (A-9, A-12): the one path the API takes.

A relative path would be resolved against the service's own working directory, which means
nothing to the harness; a control character would split the one-line ``.workspace`` marker (K-5).
"""


def workspace_path_problem(workspace: str) -> str | None:
    """Why the service refuses ``workspace`` as a Session's Workspace path (A-9, K-5: its
    marker holds the real path, UTF-8, one line), as words after "it", or None: ``"is not
    UTF-8"`` for a folder named in another encoding (Python reads such bytes as lone
    surrogates, which JSON cannot carry), else the :data:`WORKSPACE_PATH_RULE` refusal (a
    control character, not absolute, over 4096 bytes)."""
    if utf8_length(workspace) is None:
        return "is not UTF-8"
    return WORKSPACE_PATH_RULE.problem(workspace)


def marker_problem(raw: bytes) -> tuple[str, str | None]:
    """Judge the bytes ``raw`` of a ``.workspace`` marker that comes from elsewhere (an
    archive's, a machine's push): ``(path, problem)``, the path with its outer whitespace and
    line end stripped, and what keeps it from being one a Session start could have written
    (K-5: the real path, UTF-8, one line) as words after "it" (``"is not UTF-8"``, the
    :data:`WORKSPACE_PATH_RULE` refusal: several lines, a control character, not absolute,
    over 4096 bytes), or None. An empty marker is ``("", None)``: the caller says what none
    means to it.

    >>> marker_problem(b"/src/shop" + bytes([10]))
    ('/src/shop', None)
    >>> marker_problem(b"/src/a" + bytes([27]) + b"b")[1]
    'must not hold control characters (newline, tab …)'
    """
    try:
        path = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return "", "is not UTF-8"
    return path, (WORKSPACE_PATH_RULE.problem(path) if path else None)


DRAFT_PROMPT_RULE = TextRule(
    pattern=f"[^{WHITESPACE_CLASS}]",
    summary="any text that is not only whitespace",
    explanations=(lambda value: "must not be empty",),
)
"""A draft's prompt (A-12): anything but an empty or all-whitespace text."""

TIMESTAMP_RULE = TextRule(
    pattern=(
        "^[1-9][0-9]{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
        "T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$"
    ),
    summary="a UTC time as the API writes them, e.g. 2026-11-29T22:05:19Z",
)
"""A point in time a client sends (V-2: changes ``since``): the wire's timestamp format. A day
past the month's end counts on into the next month (``02-30`` is March 2nd or 1st)."""

USER_INDEX_PLACEHOLDER = "{{MEMORY_USER_INDEX}}"
"""Where the memory prompt takes the user index (I-1)."""
INDEX_PLACEHOLDER = "{{MEMORY_INDEX}}"
"""Where the Workspace prompt takes the Workspace index (I-1)."""
_PLACEHOLDER_OWNERS = {
    USER_INDEX_PLACEHOLDER: "the memory prompt's",
    INDEX_PLACEHOLDER: "the Workspace prompt's",
}


def _any_case(word: str) -> str:
    return "".join(f"[{letter.upper()}{letter.lower()}]" for letter in word)


_MEMORY_WORD = f"(?:{_any_case('memory')}|{_any_case('index')})"
_AROUND = 64
"""At most this many characters a lookalike holds on either side of its memory word (a
placeholder is short; unbounded, a long brace-less run made each check quadratic)."""
_OPEN = "[{\uff5b]"
_CLOSE = "[}\uff5d]"
"""A brace as a placeholder is written: ASCII, or full-width (U+FF5B, U+FF5D), as a Chinese or
Japanese input method types it; written literally in the patterns (ECMA-262, Python re and
jsonschema-rs read a literal character alike)."""
_NO_BRACE = "[^{}\uff5b\uff5d\\n]"
_LOOKALIKE = (
    rf"(?:{_OPEN}{{1,3}}[A-Za-z \t_-]{{0,{_AROUND}}}{_MEMORY_WORD}[A-Za-z \t_-]{{0,{_AROUND}}}"
    rf"{_CLOSE}"
    rf"|{_OPEN}{_OPEN}{_NO_BRACE}{{0,{_AROUND}}}{_MEMORY_WORD}{_NO_BRACE}{{0,{_AROUND}}}{_CLOSE})"
)
"""The start of anything written to be a memory placeholder: one to three braces, then words
(letters, spaces, ``_`` or ``-``, any case and order) of which one is *memory* or *index*, then a
closing brace — ``{{ Memory_Index }}``, ``{{MEMORY_WORKSPACE_INDEX}}``, ``{{USER_INDEX}}``, and
the template's own ``{{MEMORY}}`` and ``{{WORKSPACE_MEMORY_KEY}}``, which a prompt inside
``{{MEMORY}}`` never has filled in (the exact index placeholders are such too); and between
double braces, whatever else stands around such a word on the line: a digit, a dot or a
template engine's syntax (``{{MEM0RY_INDEX}}``, ``{{MEMORY.INDEX}}``, ``{{MEMORY_INDEX2}}``,
``{{ MEMORY_INDEX | trim }}``, ``{{#MEMORY_INDEX}}``): nothing fills those in either."""


# Hidden wherever they stand in a template (I-9): C0/C1 controls but tab and the line ends,
# bidirectional embeddings, overrides and isolates, the invisible operators and deprecated
# format controls, and every tag character (a subdivision flag's too); and the zero-width
# space, unless it stands alone between two letters of Thai, Lao, Myanmar or Khmer, where I-9
# keeps it as the word break (its letters: memory_core.hidden_text.ZWSP_WORD_LETTERS).
_ZWSP = "\u200b"
_TEMPLATE_REFUSED = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b\u202a-\u202e\u2060-\u206f\U000e0000-\U000e007f"
)


def _runs(chars: str) -> list[tuple[int, int]]:
    """The code points of ``chars`` (ascending) as inclusive ranges of consecutive ones."""
    ranges: list[tuple[int, int]] = []
    for point in map(ord, chars):
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    return ranges


_WORD_BREAK_LETTER = f"[{char_class(_runs(ZWSP_WORD_LETTERS))}]"
_TEMPLATE_CHAR = f"(?:{_WORD_BREAK_LETTER}\\u200b(?={_WORD_BREAK_LETTER})|[^{_TEMPLATE_REFUSED}])"
"""One step through a template: a character not refused, or a word-break letter with the
zero-width space after it when another such letter follows (no lookbehind: ECMA-262, Python
re and jsonschema-rs read it alike)."""
_TEMPLATE_RUN = f"[{_TEMPLATE_REFUSED}]+"


def _word_break(value: str, start: int, end: int) -> bool:
    """Whether ``value[start:end]`` is one zero-width space between two word-break letters."""
    return (
        value[start:end] == _ZWSP
        and start > 0
        and end < len(value)
        and value[start - 1] in ZWSP_WORD_LETTERS
        and value[end] in ZWSP_WORD_LETTERS
    )


def _template_hidden(value: str) -> str | None:
    found: list[tuple[int, str]] = []
    line, counted = 1, 0  # lines counted on from the last run: one pass, however many runs
    for match in re.finditer(_TEMPLATE_RUN, value):
        if not _word_break(value, match.start(), match.end()):
            line += value.count("\n", counted, match.start())
            counted = match.start()
            found.append((line, match.group()))
    if not found:
        return None
    where = "; ".join(f"line {line}: {describe_hidden(run)}" for line, run in found[:5])
    more = f"; and {len(found) - 5} more" if len(found) > 5 else ""
    return (
        f"must not hold hidden characters ({where}{more}): the model would read what a person "
        "cannot see (I-9)"
    )


def _prompt_pattern(placeholder: str) -> str:
    # Every position outside the one placeholder starts no lookalike: the placeholder stands
    # there exactly once, as written, and nothing else was meant as one (a second copy is a
    # lookalike too). Read alike by Python re, ECMA-262 and jsonschema-rs (lookaheads).
    # Nor is any character hidden wherever it stands (I-9), as in a template.
    walk = rf"(?:(?!{_LOOKALIKE}){_TEMPLATE_CHAR})*"
    return f"^{walk}{re.escape(placeholder)}{walk}$"


def placeholder_problem(prompt: str, placeholder: str) -> str | None:
    """What a prompt holds instead of its ``placeholder`` exactly once, as written (I-1); None
    when it holds just that. Words the refusal of :data:`MEMORY_PROMPT_RULE` and
    :data:`WORKSPACE_PROMPT_RULE` (whose patterns alone decide), e.g. ``it holds
    '{{ MEMORY_USER_INDEX }}' instead``.

    >>> placeholder_problem("# Memory\\n{{MEMORY_INDEX}}\\n", USER_INDEX_PLACEHOLDER)
    "it holds '{{MEMORY_INDEX}}' (the Workspace prompt's) instead"
    """
    count = prompt.count(placeholder)
    lookalikes = re.finditer(_LOOKALIKE + _CLOSE + "{0,2}", prompt)
    others = [
        found for found in dict.fromkeys(m.group(0) for m in lookalikes) if found != placeholder
    ]
    if count == 1 and not others:
        return None
    named = ", ".join(
        repr(found) + (f" ({_PLACEHOLDER_OWNERS[found]})" if found in _PLACEHOLDER_OWNERS else "")
        for found in others
    )
    if count == 0:
        return f"it holds {named} instead" if others else "it holds none"
    if count > 1:
        twice = f"it holds it {count} times (the index would be injected {count} times)"
        return f"{twice}, and {named} besides" if others else twice
    return f"it also holds {named}, which would reach the model as written"


_BRACED = r"\{\{[ \t]*[A-Za-z][A-Za-z0-9 \t_-]*\}\}"
"""A ``{{NAME}}`` of any spelling (``{{MEMROY}}``, ``{{ Memory }}``): nothing fills one in
within a memory prompt, so it reaches the model as written."""


def placeholder_lookalikes(text: str) -> list[str]:
    """Everything in ``text`` written to be a placeholder: a memory placeholder of any
    spelling (braces around *memory* or *index* words: ``{{ MEMORY_USER_INDEX }}``,
    ``{MEMORY_INDEX}``, ``{{memory}}``) or any ``{{NAME}}`` (``{{MEMROY}}``), once each, in
    order of first appearance; exact placeholders included.

    >>> placeholder_lookalikes("a {{ MEMORY_USER_INDEX }} b {{MEMROY}} c {memory_index}")
    ['{{ MEMORY_USER_INDEX }}', '{{MEMROY}}', '{memory_index}']
    """
    # Each one opens with a brace (_OPEN, _BRACED): a text without one is answered without
    # compiling the pattern, about 2 % of a Session-start hook process (H-5).
    if "{" not in text and "\uff5b" not in text:
        return []
    pattern = f"{_LOOKALIKE}{_CLOSE}{{0,2}}|{_BRACED}"
    return list(dict.fromkeys(m.group(0) for m in re.finditer(pattern, text)))


def prompt_warnings(prompt: str, workspace_prompt: str) -> list[str]:
    """What a person must be told of an agent's stored memory prompts (I-1): one line per
    prompt that does not hold its index placeholder exactly once, as written, or holds other
    text written as a placeholder, or holds it out of a reader's sight (in an HTML comment or a
    code block: :func:`~memory_core.placeholder_sight.placeholder_out_of_sight`, refused on
    save), for one edited by hand in ``agent.json`` or stored before the rule, naming what it
    holds and what a Session start then does. Empty for the defaults.

    >>> prompt_warnings("# Memory\\n{{ MEMORY_USER_INDEX }}\\n", "{{MEMORY_INDEX}}")[0][:60]
    'memory.prompt must hold {{MEMORY_USER_INDEX}} exactly once, '
    """
    from memory_core.placeholder_sight import placeholder_out_of_sight

    warnings: list[str] = []
    for field, text, placeholder, scope in (
        ("memory.prompt", prompt, USER_INDEX_PLACEHOLDER, "user"),
        ("memory.workspacePrompt", workspace_prompt, INDEX_PLACEHOLDER, "Workspace"),
    ):
        others = [found for found in placeholder_lookalikes(text) if found != placeholder]
        hidden = placeholder_out_of_sight(text, placeholder)
        if text.count(placeholder) == 1 and not others and hidden is None:
            continue
        problem = placeholder_problem(text, placeholder) or hidden or ""
        missed = [found for found in others if repr(found) not in problem]
        if missed:  # no memory word in it ({{MEMROY}}): the rule's lookalikes miss it
            names = ", ".join(repr(found) for found in missed)
            problem += ("; " if problem else "") + f"it holds {names}, which is no placeholder"
        then = f"; a Session start adds the {scope} index after the prompt"
        warnings.append(
            f"{field} must hold {placeholder} exactly once, as written: {problem}"
            f"{then if placeholder not in text else ''}; text written as a placeholder "
            "reaches the model as it is"
        )
    return warnings


_DOUBLE_BRACED = r"\{\{([^{}\n]{1,64})\}\}"


def _template_typos(template: str) -> dict[str, str]:
    """Each ``{{NAME}}`` of ``template`` (as written, once each, in order) written for a
    placeholder memory owns but not as it is, and that placeholder
    (:mod:`memory_core.placeholder_typos`): nothing fills it in, so it reaches the model as
    written and the memory it was meant for is not there. Each distinct one is judged once.

    >>> _template_typos("{{CWD}} {{MEMROY}} {{MEMORY}} {{MEMO}} {{WORKSPACE_MEMORY_KYE}}")
    {'{{MEMROY}}': '{{MEMORY}}', '{{WORKSPACE_MEMORY_KYE}}': '{{WORKSPACE_MEMORY_KEY}}'}
    """
    from memory_core.placeholder_typos import misspelt_placeholders

    found = re.finditer(_DOUBLE_BRACED, template)
    return misspelt_placeholders((match.group(0), match.group(1)) for match in found)


_PLAIN_NAME = r"\{\{([A-Za-z0-9 \t_-]{1,64})\}\}"


def _names_another_thing(lookalike: str) -> bool:
    """Whether a lookalike of a template (text with the word *memory* or *index* in braces) is
    a plain ``{{NAME}}`` of another thing than memory: no typo of a placeholder memory owns,
    and a word of its own beside memory's (``{{WORKSPACE_MEMORY_URL}}``, ``{{SEARCH_INDEX}}``;
    not ``{{MEMORY_USER_INDEX}}``, ``{{ Memory }}`` nor ``{{MEMORY | trim}}``).

    >>> _names_another_thing("{{WORKSPACE_MEMORY_TOKEN}}"), _names_another_thing("{{USER_INDEX}}")
    (True, False)
    """
    from memory_core.placeholder_typos import memory_words_only

    plain = re.fullmatch(_PLAIN_NAME, lookalike)
    return plain is not None and not memory_words_only(plain.group(1))


_UNCLOSED = r"[{\uff5b]{2,3}+([^{}\uff5b\uff5d\r\n]*+)(?![}\uff5d])"
"""Two or three opening braces (ASCII or full-width) and what follows up to the end of the line
(LF, CR or CRLF) or the next brace, when that is not a closing one: a placeholder never
closed."""
_UNCLOSED_NAMED = 3
"""At most this many placeholders never closed are named in a problem; the rest are counted."""


def _refused_lookalikes(text: str) -> tuple[list[str], dict[str, str]]:
    """The closed placeholders rule's judgement of ``text`` (I-1): each text written as a
    memory placeholder that nothing fills in, as written, once each, in order (a lookalike of
    one, not memory's own nor another thing's ``{{NAME}}``, or a typo of one), and of those the
    typos with the placeholder each was meant for (:func:`_template_typos`).

    >>> _refused_lookalikes("{{MEMORY}} {{memory_index}} {{MEMROY}} {{USER}} {{SEARCH_INDEX}}")
    (['{{memory_index}}', '{{MEMROY}}'], {'{{MEMROY}}': '{{MEMORY}}'})
    """
    from memory_core.placeholder_typos import MEMORY_OWN

    typos = _template_typos(text)
    found = re.finditer(_LOOKALIKE + _CLOSE + "{0,2}", text)
    lookalikes = [m.group(0) for m in found]
    others = [m for m in dict.fromkeys(lookalikes) if m not in MEMORY_OWN]
    others = [m for m in others if not _names_another_thing(m)]
    return list(dict.fromkeys([*others, *typos])), typos


def _memorys_if_closed(opened: str) -> bool:
    """Whether ``opened`` (a placeholder never closed: braces and a name, ``{{MEMORY``) closed
    with ``}}`` is memory's: one memory fills in (``{{MEMORY}}``) or one the closed rule refuses
    (:func:`_refused_lookalikes`: ``{{memory}}``, ``{{MEMROY}}``). Any other (``{{user}}``,
    ``{{KEY}}``, ``{{CWD}}``) is allowed closed, so it is left alone never closed too.

    >>> [_memorys_if_closed(x) for x in ("{{MEMORY", "{{ memroy", "{{user", "{{WORKSPACE")]
    [True, True, False, False]
    """
    from memory_core.placeholder_typos import MEMORY_OWN

    closed = opened + "}}"
    return closed in MEMORY_OWN or bool(_refused_lookalikes(closed)[0])


def _unclosed_placeholders(template: str) -> tuple[list[str], int]:
    """The ``{{NAME`` of ``template`` never closed (no ``}}`` before the line ends or the next
    brace) whose first word (a name of at most 64 characters), closed, would be memory's
    (:func:`_memorys_if_closed`): nothing fills it in, so it reaches the model as written and
    injects nothing (I-1). Each distinct one is judged once and named once, at its first line
    (lines end at LF, CRLF or CR: :func:`~memory_core.decoding.line_of`), in order, as
    ``'{{MEMORY' on line 2 (meant for {{MEMORY}}?)``; at most :data:`_UNCLOSED_NAMED` are
    named. Returns those named and how many more there are. One pass over ``template``.

    >>> _unclosed_placeholders("Be kind.\\r{{MEMORY\\r{{CWD\\r{{user\\r{{MEMORY}}")
    (["'{{MEMORY' on line 2 (meant for {{MEMORY}}?)"], 0)
    """
    # only here: decoding imports dataclasses (and inspect), which no guard process pays (H-5)
    from memory_core.decoding import line_of
    from memory_core.placeholder_typos import intended

    judged: dict[str, bool] = {}
    named: list[str] = []
    more = 0
    line, counted = 1, 0
    first_word = re.compile(r"[ \t]*([\w-]{1,64})(?![\w-])").match
    for match in re.finditer(_UNCLOSED, template):
        word = first_word(match.group(1))
        if word is None:
            continue
        shown = match.group(0)[: match.start(1) - match.start(0) + word.end()]
        if shown in judged:
            continue  # judged and, when memory's, named or counted at its first line
        judged[shown] = refused = _memorys_if_closed(shown)
        if not refused:
            continue
        if len(named) == _UNCLOSED_NAMED:
            more += 1
            continue
        line += line_of(template[counted : match.start()]) - 1  # never inside a CRLF: a brace
        counted = match.start()
        own = intended(word.group(1))
        meant = f" (meant for {own}?)" if own is not None else ""
        named.append(f"{shown!r} on line {line}{meant}")
    return named, more


SESSION_PLACEHOLDERS = ("{{APP_DATA_DIR}}", "{{AGENT_ID}}")
"""The placeholders a Session start fills in besides memory's (the data dir and the agent id
of the Environment section, :mod:`memory_core.template`)."""
KNOWN_PLACEHOLDERS = ("{{MEMORY}}", "{{WORKSPACE_MEMORY_KEY}}", *SESSION_PLACEHOLDERS)
"""Every placeholder the service fills in an agent's template, as written (I-1, A-2)."""
FILLED_IN = (*KNOWN_PLACEHOLDERS, "{{CWD}}")
"""Every placeholder a template's text is filled in for, as a refusal lists them: the service's
(:data:`KNOWN_PLACEHOLDERS`) and the Session's working folder, ``{{CWD}}`` (the default
template's ``- CWD:`` line, :data:`memory_core.template.CWD_PLACEHOLDER`)."""


def _session_typos(template: str) -> dict[str, str]:
    """Each ``{{NAME}}`` of ``template`` that is surely a typo of a Session's own placeholder,
    mapped to the placeholder it was meant for: nothing fills it in, and the model is told
    ``{{AGNET_ID}}`` as its id. Surely: written in the placeholder's own style (upper case,
    digits, ``_`` or ``-``, no space) outside code spans and fenced blocks (a Jinja or
    Handlebars example keeps its ``{{ agent.id }}``), and the placeholder with ``-`` for its
    ``_``, two neighbours swapped, one character missing or one doubled; a changed or added
    letter may be another name (``{{AGENT_IP}}``, ``{{AGENT_IN}}``, ``{{AGENT_IDS}}``): kept.

    >>> _session_typos("{{AGENT_ID}} {{AGNET_ID}} {{AGENT_IDS}} {{APP-DATA-DIR}} `{{AGNET_ID}}`")
    {'{{AGNET_ID}}': '{{AGENT_ID}}', '{{APP-DATA-DIR}}': '{{APP_DATA_DIR}}'}
    """
    if "{{" not in template:
        return {}
    prose = re.sub(r"(?ms)^[ \t]*(`{3,}|~{3,}).*?(^[ \t]*\1|\Z)", "", template)
    prose = re.sub(r"(`+)[^`]*?\1", "", prose)  # inline code spans
    found: dict[str, str] = {}
    for written in dict.fromkeys(re.findall(r"\{\{[A-Z0-9_-]{1,64}\}\}", prose)):
        if written in KNOWN_PLACEHOLDERS:
            continue
        for own in SESSION_PLACEHOLDERS:
            if _sure_typo(written[2:-2], own[2:-2]):
                found[written] = own
                break
    return found


def _sure_typo(name: str, own: str) -> bool:
    """Whether ``name`` is ``own`` written with ``-`` for ``_``, two neighbouring characters
    swapped, one character missing, or one doubled (:func:`_session_typos`)."""
    name = name.replace("-", "_")
    if name == own:
        return True
    if len(name) == len(own):
        at = [i for i, (a, b) in enumerate(zip(name, own, strict=True)) if a != b]
        swapped = len(at) == 2 and at[1] == at[0] + 1  # the rest equal; the two exchanged
        return swapped and name[at[0]] == own[at[1]] and name[at[1]] == own[at[0]]
    short, long_ = (name, own) if len(name) < len(own) else (own, name)
    if len(long_) != len(short) + 1:
        return False
    gap = next(
        (i for i, (a, b) in enumerate(zip(short, long_, strict=False)) if a != b), len(short)
    )
    if short != long_[:gap] + long_[gap + 1 :]:
        return False
    return len(name) < len(own) or name[gap] in {name[gap - 1 : gap], name[gap + 1 : gap + 2]}


def template_placeholder_problem(template: str) -> str | None:
    """What an agent's template holds that would not reach the model as meant (I-1, A-2):
    ``{{MEMORY}}`` more than once (the memory would be injected that many times), or text
    written as a memory placeholder that nothing fills in (``{{ MEMORY }}``, ``{{memory}}``,
    ``{{MEMORY_USER_INDEX}}``, a typo of one: ``{{MEMROY}}``, ``{{MEM0RY}}``, each named with
    the placeholder it was meant for; it reaches the model as written, and a misspelt
    ``{{MEMORY}}`` injects nothing); None when it holds neither. A template without
    ``{{MEMORY}}`` is one (I-5), and the harness's own placeholders (``{{CWD}}``, ``{{MEMO}}``)
    are left for it.

    >>> template_placeholder_problem("{{MEMORY}}\\n{{MEM0RY}}\\n")[:60]
    "it holds '{{MEM0RY}}' (a typo of {{MEMORY}}?), which nothing"
    """
    problems = []
    if (count := template.count("{{MEMORY}}")) > 1:
        problems.append(
            f"it holds {{{{MEMORY}}}} {count} times (the memory would be injected {count} times)"
        )
    others, typos = _refused_lookalikes(template)
    if others:
        named = ", ".join(
            f"{other!r} (a typo of {typos[other]}?)" if other in typos else repr(other)
            for other in others
        )
        problems.append(
            f"it holds {named}, which nothing fills in: it would reach the model as written"
        )
    if session := _session_typos(template):
        named = ", ".join(f"{typo!r} (a typo of {own}?)" for typo, own in session.items())
        problems.append(
            f"it holds {named}, which nothing fills in: it would reach the model as written"
        )
    unclosed, more = _unclosed_placeholders(template)
    if unclosed:
        which = "which is" if len(unclosed) == 1 else "each"
        and_more = f" and {more} more" if more else ""
        problems.append(
            f"it holds {', '.join(unclosed)}{and_more}, {which} never closed: nothing fills it "
            "in, it would reach the model as written; close it with }}"
        )
    return "; ".join(problems) or None


def _prompt_rule(placeholder: str, scope: str) -> TextRule:
    return TextRule(
        pattern=_prompt_pattern(placeholder),
        summary=(
            f"must hold {placeholder} exactly once, as written, where the {scope} index goes, "
            "and nothing else written as an index placeholder, and no character hidden "
            "wherever it stands (I-9, as a template)"
        ),
        explanations=(_template_hidden, lambda value: placeholder_problem(value, placeholder)),
    )


MEMORY_PROMPT_RULE = _prompt_rule(USER_INDEX_PLACEHOLDER, "user")
"""``memory.prompt`` (A-2, I-1): its index placeholder once, so the user index reaches the model
exactly once; ``null`` (the default) always passes."""
WORKSPACE_PROMPT_RULE = _prompt_rule(INDEX_PLACEHOLDER, "Workspace")
"""``memory.workspacePrompt`` (A-2, I-1), as :data:`MEMORY_PROMPT_RULE` for ``{{MEMORY_INDEX}}``."""

MACHINE_ID_RULE = TextRule(
    pattern="^[a-z0-9][a-z0-9-]{0,63}$",
    summary="1-64 characters a-z, 0-9 and '-', not starting with '-'",
)
"""The id a machine syncing a local copy gives itself (R-1): its push ref is
``refs/machines/<id>``, so it is a safe ref-name component."""

MACHINE_NAME_MAX = 64
"""Characters of a machine name at most (R-1)."""
_NAME_CHAR = f"(?![{HIDDEN_CANDIDATES}])[^{CONTROL_CLASS}]"
_NAME_EDGE = f"(?![{HIDDEN_CANDIDATES}]){_NOT_BLANK}"


def _holds_hidden(value: str) -> str | None:
    hidden = "".join(re.findall(f"[{HIDDEN_CANDIDATES}]", value))
    if not hidden:
        return None
    return (
        f"must not hold hidden characters ({describe_hidden(hidden)}): "
        "they make a name show as another (I-9)"
    )


AGENT_NAME_RULE = TextRule(
    # Surrounding whitespace is trimmed before storing; what remains is 1-100 characters
    # without control or hidden characters, starting and ending with a visible one.
    pattern=(
        f"^[{WHITESPACE_CLASS}]*{_NAME_EDGE}"
        f"(?:(?:{_NAME_CHAR}){{0,{NAME_MAX - 2}}}{_NAME_EDGE})?[{WHITESPACE_CLASS}]*$"
    ),
    summary=(
        f"1-{NAME_MAX} characters without control characters or hidden characters "
        "(bidirectional controls, zero-width characters, tag characters …) once surrounding "
        "whitespace is trimmed"
    ),
    explanations=(
        lambda value: "must not be empty" if not value.strip(WHITESPACE) else None,
        lambda value: _holds_control(value.strip(WHITESPACE)),
        lambda value: _holds_hidden(value.strip(WHITESPACE)),
        lambda value: (
            f"must be at most {NAME_MAX} characters"
            if len(value.strip(WHITESPACE)) > NAME_MAX
            else None
        ),
    ),
)
"""An agent's display name (A-1, A-2); the stored name is ``value.strip(WHITESPACE)``. It shows
on the page beside every other agent's and goes into the default template, so like a machine
name it holds no character I-9 may count as hidden (a right-to-left override, a zero-width
space, tag characters): a name must read as what it is."""

TEMPLATE_RULE = TextRule(
    pattern=f"^{_TEMPLATE_CHAR}*$",
    summary=(
        "text without hidden characters: control characters other than tab and line ends, "
        "zero-width spaces (but one between two letters of Thai, Lao, Myanmar or Khmer, their "
        "word break), bidirectional embeddings, overrides or isolates, invisible operators, "
        "tag characters (I-9)"
    ),
    explanations=(_template_hidden,),
)
"""An agent's system prompt template (A-1, A-2): refused, as an agent name is, when it holds a
character that is hidden wherever it stands (I-9), tag characters included (the "rules file
backdoor" spells commands with them). Characters hidden only out of place (a joiner between two
emoji or in a Persian word is not; a direction mark, a soft hyphen) pass, and like anything
stored before this rule or written by hand reach the model escaped (the plugin's rendering)."""

MACHINE_NAME_RULE = TextRule(
    pattern=f"^{_NAME_EDGE}(?:(?:{_NAME_CHAR}){{0,{MACHINE_NAME_MAX - 2}}}{_NAME_EDGE})?$",
    summary=(
        f"1-{MACHINE_NAME_MAX} characters without control characters, outer whitespace or "
        "hidden characters (bidirectional controls, zero-width characters, tag characters …)"
    ),
    explanations=(_holds_control, _holds_hidden),
)
"""The name a machine shows on the page (R-1): its host name unless the user sets one. Every
character I-9 may count as hidden is refused, even where a text would keep it (an emoji's joiner):
a name is a label that must read as what it is."""
