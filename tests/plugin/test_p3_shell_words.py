"""P-3, H-5: the guard splits a command into the words Python's POSIX ``shlex`` gives, in time
linear in its length: a command of one long word under the guard's size cap is judged, where
``shlex`` took two minutes on a 1 MiB word (past every hook's time limit)."""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable

import pytest
from harness_memory.hooks import guarding
from harness_memory.hooks.shell_words import PUNCTUATION, split_words

from tests.support.guard_cases import SHELL, Layout, answer, refusal

_PIECES = [*"ab é'\"\\;&|()<>\t\n\r#~-./*?=$`{}\x0b\x0c\u00a0", "''", '""', '\\"', "\\\\", "&&"]
"""What generated lines are made of: every character class the lexers tell apart."""


def _command_lexer(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=PUNCTUATION)
    lexer.whitespace_split = True
    lexer.commenters = ""
    return list(lexer)


def _outcome(split: Callable[[str], list[str]], text: str) -> tuple[str, object]:
    try:
        return "words", split(text)
    except ValueError as error:
        return "error", str(error)


@pytest.mark.parametrize(
    "text",
    [
        'cp \'a b\' "c\\"d" e\\ f>out;ls',
        "a&&b||c |& d 2>&1 >>log <in (x) ;;",
        "'' \"\" x''y \"a\\b\\\\c\\$d\" \\",
        "echo 'never closed",
        'echo "never closed',
        'echo "ends in \\',
        "tab\there\r\nnew line # no comment",
    ],
)
def test_words_and_errors_are_shlex_s_for_written_lines(text: str) -> None:
    assert _outcome(lambda t: split_words(t, punctuation=PUNCTUATION), text) == _outcome(
        _command_lexer, text
    )
    assert _outcome(split_words, text) == _outcome(shlex.split, text)


def test_words_and_errors_are_shlex_s_for_generated_lines() -> None:
    """Both ways of splitting (a command line; a variable's value, as :func:`shlex.split`)."""
    rnd = random.Random(53)  # noqa: S311 -- the same lines on every run
    for _ in range(4000):
        text = "".join(rnd.choice(_PIECES) for _ in range(rnd.randint(0, 16)))
        assert _outcome(lambda t: split_words(t, punctuation=PUNCTUATION), text) == _outcome(
            _command_lexer, text
        ), text
        assert _outcome(split_words, text) == _outcome(shlex.split, text), text


def test_a_command_of_one_long_word_under_the_cap_is_judged(where: Layout) -> None:
    """One quoted word of nearly :data:`~harness_memory.hooks.guarding.TEXT_CAP` characters
    written into another Workspace's scope is judged and refused (``shlex`` took two minutes
    to split it, and the hook was killed by its time limit)."""
    harness, tool = "claude-code", SHELL["claude-code"][1]
    other = where.root / where.other / "notes.md"
    long = "x" * (guarding.TEXT_CAP - 200)

    assert refusal(answer(where, harness, tool, {"command": f"echo '{long}' > {other}"}))
