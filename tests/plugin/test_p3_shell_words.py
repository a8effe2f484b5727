"""P-3, H-5: the guard splits a command into the words Python's POSIX ``shlex`` gives, in time
linear in its length: a command of one long word under the guard's size cap is judged, where
``shlex`` took two minutes on a 1 MiB word (past every hook's time limit)."""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable
from typing import NoReturn

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


class _ShlexSplitCalled(AssertionError):
    """``shlex`` asked to split a command's words, which it does in quadratic time."""


@pytest.fixture
def no_shlex_splitting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``shlex.split`` and ``shlex.shlex`` raise for the test, wherever the guard imported
    ``shlex`` from (every module of it uses ``shlex.…``); what each was asked to split is
    listed, so that a guard that swallowed the error still fails the test."""
    asked: list[str] = []

    def refuse(text: object = "", *_: object, **__: object) -> NoReturn:
        asked.append(str(text)[:40])
        raise _ShlexSplitCalled(str(text)[:40])

    monkeypatch.setattr(shlex, "split", refuse)
    monkeypatch.setattr(shlex, "shlex", refuse)
    return asked


@pytest.mark.parametrize(
    ("harness", "command"),
    [
        ("claude-code", "echo '{long}' > {other}"),
        ("codex", "cd '{long}' && cat \"$(git rev-parse --show-toplevel)\"/notes.md > {other}"),
    ],
    ids=["an echo's word", "the folder cd enters before git's top folder"],
)
def test_a_command_of_one_long_word_under_the_cap_is_judged(
    where: Layout, no_shlex_splitting: list[str], harness: str, command: str
) -> None:
    """A command with one quoted word of nearly :data:`~harness_memory.hooks.guarding.TEXT_CAP`
    characters that writes into another Workspace's scope is refused, its words split by
    :func:`split_words`, never by ``shlex`` (its time grows with a word's length squared: two
    minutes for a 1 MiB word, and the hook was killed by its time limit, letting the call
    through). The reason may be the long word itself (a word past ``PATH_MAX`` is refused as a
    file whose other names cannot be told) rather than the other scope: either refuses."""
    other = where.root / where.other / "notes.md"
    long = "x" * (guarding.TEXT_CAP - 200)
    tool = SHELL[harness][1]

    reason = refusal(
        answer(where, harness, tool, {"command": command.format(long=long, other=other)})
    )

    assert no_shlex_splitting == []
    assert reason is not None
