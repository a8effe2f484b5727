"""P-3: a backslash ending a comment continues no line (review58f).

Bash removes a backslash-newline (a line continuation) only outside single quotes and outside a
comment: a ``#`` starting a word, outside quotes, makes the rest of its line a comment, its last
backslash included, and the next line is a command of its own. The guard removed every
backslash-newline, so ``true # \\`` joined the next line into the comment, and the write on it
(``echo n > <other scope>/n.md``) was never judged: every harness let it through, and bash wrote
into the other scope.
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)


@pytest.mark.parametrize(
    "command",
    [
        'true # \\\necho n > "{root}/{other}/n.md"',
        'echo x # \\\ncp note.md "{root}/{other}/n.md"',
        'echo x # it\'s \\\necho n > "{root}/{other}/n.md"',
        'echo x; # "\\\necho n > "{root}/{other}/n.md"',
        '(true #\\\necho n > "{root}/{other}/n.md")',
    ],
    ids=["true", "echo-cp", "apostrophe-in-comment", "quote-in-comment", "subshell"],
)
def test_p3_a_comment_ending_in_a_backslash_hides_no_line(where: Layout, command: str) -> None:
    """The line after a comment ending in a backslash is judged: every harness refuses its
    write into the other scope."""
    answers = refusals_by_every_harness(where, fill(command, where))

    assert None not in answers.values(), answers


def test_p3_bash_runs_the_line_after_a_comment_ending_in_a_backslash(where: Layout) -> None:
    """The refused form is a real bypass: bash ends the comment at the newline and writes."""
    assert_refused_by_every_harness_and_bash_writes(
        where, 'true # \\\necho n > "{root}/{other}/n.md"'
    )


@pytest.mark.parametrize(
    "command",
    [
        'echo a#b \\\n  >> "{root}/{other}/n.md"',
        'x=1; echo ${{#x}} $# \\\n  >> "{root}/{other}/n.md"',
        'echo "a # b" \\\n  >> "{root}/{other}/n.md"',
        'echo a\\ #b \\\n  >> "{root}/{other}/n.md"',
    ],
    ids=["hash-inside-a-word", "length-and-count", "hash-quoted", "hash-after-escaped-space"],
)
def test_p3_a_hash_inside_a_word_or_quotes_starts_no_comment(where: Layout, command: str) -> None:
    """A ``#`` inside a word (``a#b``, ``${#x}``, ``$#``, after an escaped space) or in quotes
    starts no comment: the backslash-newline after it still joins the write on the next line,
    which every harness judges (and refuses, it writes into the other scope)."""
    answers = refusals_by_every_harness(where, fill(command, where))

    assert None not in answers.values(), answers


def test_p3_a_continued_write_into_the_own_scope_after_a_hash_in_a_word_is_allowed(
    where: Layout,
) -> None:
    """``echo a#b \\`` then ``>> own/a.md``: one command writing into the Session's own scope,
    allowed by every harness, and bash writes there."""
    assert_allowed_by_every_harness_and_bash_writes_there(
        where, 'echo a#b \\\n  >> "{root}/{own}/a.md"', "{root}/{own}/a.md"
    )
