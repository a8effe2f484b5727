"""Every regular expression matches alike on every Python the packages allow (``>=3.11``).

CPython before 3.11.5 (Debian 12 and Ubuntu 23.04 ship 3.11.2) matches a possessive quantifier
wrongly when what it repeats can backtrack (CPython gh-106052): there
``re.fullmatch(r"(?:-+:?)*+", "-:")`` is None and ``re.match(r"(?:\\s+\\w{1,9}(?!\\w)){0,9}+",
" " + "x" * 20)`` matches three characters. On 3.11.2 the guard's definitions search read
``export "$n=1"`` as setting no variable (P-3) and lint missed the table row ``|-:`` (I-8).
CPython 3.11.5 made ``X*+`` the atomic group ``(?>X*)``, which every 3.11 matches right; so
here a possessive quantifier repeats only what cannot backtrack (``-++``, ``[*_]{0,2}+``).
"""

from __future__ import annotations

import ast
import importlib
import re
import warnings
from pathlib import Path
from typing import Any

sre: Any = importlib.import_module("re._constants")
_parser: Any = importlib.import_module("re._parser")
"""CPython's own pattern parser (private, typed by no stub: read through ``Any``)."""
REPO = Path(__file__).parents[2]
TREES = ("shared/src", "services/memory-api/src", "plugins/harness-memory/src", "bench", "tools")
POSSESSIVE_AFTER_GROUP = re.compile(r"(?<![\\(])\)(?:[*+?]|\{\d*(?:,\d*)?\})\+")
"""In a text that is no whole pattern (an f-string's part): a ``)`` closing a group that is
not empty (not ``\\)``, not ``()``), then ``*``, ``+``, ``?`` or ``{m,n}``, then the
possessive ``+``."""
BACKTRACKING = {sre.MAX_REPEAT, sre.MIN_REPEAT, sre.BRANCH, sre.GROUPREF_EXISTS}


def _backtracks(items: Any) -> bool:
    """Whether the parsed pattern ``items`` holds a choice a later failure may take back."""
    for op, value in items:
        if op in BACKTRACKING:
            return True
        if op == sre.SUBPATTERN and _backtracks(value[-1]):
            return True
        if op in (sre.ASSERT, sre.ASSERT_NOT) and _backtracks(value[1]):
            return True
    return False


def _possessive_over_backtracking(items: Any) -> bool:
    """Whether the parsed pattern ``items`` repeats possessively what may backtrack."""
    for op, value in items:
        if op == sre.POSSESSIVE_REPEAT and _backtracks(value[2]):
            return True
        inner = {sre.SUBPATTERN: -1, sre.ATOMIC_GROUP: None, sre.ASSERT: 1, sre.ASSERT_NOT: 1}
        inner |= {sre.MAX_REPEAT: 2, sre.MIN_REPEAT: 2, sre.POSSESSIVE_REPEAT: 2}
        if op in inner and _possessive_over_backtracking(
            value if inner[op] is None else value[inner[op]]
        ):
            return True
        if op == sre.BRANCH and any(_possessive_over_backtracking(b) for b in value[1]):
            return True
    return False


def wrong_on_older_pythons(text: str) -> bool:
    """Whether ``text``, read as a pattern, has a possessive quantifier over what may backtrack
    (a text no pattern parses as: a possessive quantifier after a group)."""
    if not re.search(r"[*+?}]\+", text):  # no possessive quantifier at all: most texts
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a text that is no pattern: "[[x]]"
            parsed = _parser.parse(text)
    except (re.error, OverflowError, RecursionError):
        return POSSESSIVE_AFTER_GROUP.search(text) is not None
    return _possessive_over_backtracking(parsed)


def _texts(source: str) -> list[tuple[int, str]]:
    """Each string constant of ``source`` (f-strings' literal parts too) with its line."""
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_no_possessive_quantifier_repeats_what_may_backtrack() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line}: {text.strip()[:80]}"
        for tree in TREES
        for path in sorted((REPO / tree).rglob("*.py"))
        for line, text in _texts(path.read_text(encoding="utf-8"))
        if wrong_on_older_pythons(text)
    ]

    assert found == [], "write (?>X*) for X*+ where X may backtrack (CPython gh-106052)"


def test_the_check_finds_the_forms_older_pythons_match_wrongly() -> None:
    wrong = [r"(?:-+:?)*+", r"(?:\s+\w{1,9}(?!\w)){0,9}+", r"(ab|cd)++", r"x(?:y(?:z?)++)"]
    wrong += [r"\s+){0,16}+"]  # an f-string's part
    right = [r"(?>(?:-+:?)*)", r"-++:?\s*+", r"[*_]{0,2}+", r"\)++", r"(?:ab)*+", "'()*+,;"]

    assert [p for p in wrong if not wrong_on_older_pythons(p)] == []
    assert [p for p in right if wrong_on_older_pythons(p)] == []
