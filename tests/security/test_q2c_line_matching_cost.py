"""Q-2c, V-2, R-2: matching the lines of two versions costs a few passes over them, whatever
they hold, and gives the minimal diff for ordinary text.

``GET …/diff`` of two 32 KB versions of a note of alternating ``a``/``b`` lines took 31 s of
CPU under difflib (a 1 MiB topic file, the cap, would take days), holding the GIL; a push
merging an 80 KB ``MEMORY.md`` of 101 repeated lines took 4.6 s under the scope's lock. A
first bound (difflib only below 500 x 500 differing lines) still took 2.5 s for ``a`` 500 times
against ``a``/``b`` 250 times, and turned two edits far apart in a 1,000-line index into one
replaced block (a merge then kept the old and the edited line). Now the lines are matched by
patience (unique lines as anchors, at most ``MAX_DEPTH`` levels); difflib sees only small
gaps without anchors, within ``DIFFLIB_BUDGET`` pairs of lines in all.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from difflib import SequenceMatcher
from typing import Any

import pytest
from memory_api.store.history.diffs import diff_hunks
from memory_core import line_matching
from memory_core.line_matching import DIFFLIB_BUDGET, MAX_DEPTH, SMALL_REGION, PatienceMatcher
from memory_core.line_merge import merge_lines
from memory_core.scope_files import TOPIC_CAP

from tests.api.conftest import AgentHome, Client, ok_json
from tests.api.test_v1_versions import TOPIC, checkpoint
from tests.api.test_v2_history_and_restore import history_url, write

HEAD = "---\nname: repeats\ndescription: lines that repeat\n---\n"
UNIQUE_INDEX = [f"- [entry {n}](entry-{n}.md) - what entry {n} holds\n" for n in range(1_000)]


def _alternating(first: str, second: str, size: int) -> str:
    """``size`` bytes or so of two one-letter lines, alternating."""
    return f"{first}\n{second}\n" * (size // 4)


@pytest.fixture
def matched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pairs of lines each difflib matching was given (one side's lines times the other's)."""
    pairs: list[int] = []

    class Recording(SequenceMatcher[Any]):
        def __init__(
            self,
            isjunk: Callable[[Any], bool] | None = None,
            a: Sequence[Any] = (),
            b: Sequence[Any] = (),
            autojunk: bool = True,
        ) -> None:
            pairs.append(len(a) * len(b))
            super().__init__(isjunk, a, b, autojunk)

    monkeypatch.setattr(line_matching, "SequenceMatcher", Recording)
    return pairs


def _within_difflib_budget(matched: list[int]) -> bool:
    return all(pairs <= SMALL_REGION for pairs in matched) and sum(matched) <= DIFFLIB_BUDGET


def _applied(old: str, hunks: list[Any]) -> str:
    """``old`` with ``hunks`` applied as ``patch`` applies ``diff -u`` (1-based starts; a hunk
    of no old line starts after its ``old_start``)."""
    lines = old.split("\n")[:-1]
    out: list[str] = []
    at = 0
    for hunk in hunks:
        start = hunk.old_start - 1 if hunk.old_lines else hunk.old_start
        out += lines[at:start]
        out += [line.text for line in hunk.lines if line.kind != "removed"]
        at = start + hunk.old_lines
    out += lines[at:]
    return "\n".join(out) + "\n"


async def test_q2c_the_diff_of_a_large_topic_file_of_repeated_lines_is_answered(
    client: Client, agent: AgentHome, matched: list[int]
) -> None:
    """An eighth of the 1 MiB cap: difflib alone took minutes of CPU for this one."""
    old = HEAD + _alternating("a", "b", TOPIC_CAP // 8)
    new = HEAD + _alternating("b", "a", TOPIC_CAP // 8)
    write(agent.user, TOPIC, old)
    await checkpoint(client)
    write(agent.user, TOPIC, new)
    await checkpoint(client)

    diff = await ok_json(await client.get(history_url("user", TOPIC, "diff")))

    assert _within_difflib_budget(matched), matched
    assert len(diff["hunks"]) == 1  # no line is unique: after the front matter, one block
    kinds = [line["kind"] for line in diff["hunks"][0]["lines"]]
    assert kinds[:3] == ["context"] * 3 and kinds[-1] == "added"


def test_q2c_a_diff_of_lines_that_all_repeat_still_turns_the_old_text_into_the_new_one(
    matched: list[int],
) -> None:
    old = "same start\n" + _alternating("a", "b", 64_000) + "same end\n"
    new = "same start\n" + _alternating("b", "a", 64_000) + "same end\n"
    hunks = diff_hunks(old, new)
    assert matched == []  # no anchor and far past a small gap: nothing given to difflib
    assert _applied(old, hunks) == new
    assert hunks[0].lines[0].text == "same start" and hunks[-1].lines[-1].text == "same end"


def test_q2c_one_line_against_two_alternating_lines_is_matched_within_the_budget(
    matched: list[int],
) -> None:
    """1 KB each; the first bound gave these 500 x 500 lines to difflib: 2.5 s of CPU."""
    old, new = "a\n" * 500, "a\nb\n" * 250
    hunks = diff_hunks(old, new)
    assert _within_difflib_budget(matched), matched
    assert _applied(old, hunks) == new


def test_q2c_two_edits_far_apart_in_a_large_index_are_two_small_hunks() -> None:
    edited = list(UNIQUE_INDEX)
    edited[10], edited[990] = "- [entry 10](entry-10.md) - edited\n", "- [990](990.md) - edited\n"
    hunks = diff_hunks("".join(UNIQUE_INDEX), "".join(edited))
    assert [(hunk.old_start, hunk.old_lines, hunk.new_lines) for hunk in hunks] == [
        (8, 7, 7),
        (988, 7, 7),
    ]
    assert [line.kind for line in hunks[1].lines].count("removed") == 1


def test_q2c_a_merge_of_edits_far_apart_in_a_large_index_is_the_minimal_one() -> None:
    """Side a edits entries 10 and 990, side b adds one at 500: both changes, nothing else."""
    ours = list(UNIQUE_INDEX)
    ours[10], ours[990] = "- [entry 10](entry-10.md) - edited\n", "- [990](990.md) - edited\n"
    theirs = [*UNIQUE_INDEX[:500], "- [new](new.md) - added at 500\n", *UNIQUE_INDEX[500:]]

    merged = merge_lines(
        "".join(UNIQUE_INDEX).encode(), "".join(ours).encode(), "".join(theirs).encode()
    )

    expected = [*ours[:500], "- [new](new.md) - added at 500\n", *ours[500:]]
    assert merged.decode().splitlines(keepends=True) == expected  # 1,001 lines


class _Counted(str):
    """A line that counts each time it is hashed or compared (the matcher's unit of work)."""

    calls = 0

    def __hash__(self) -> int:
        _Counted.calls += 1
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        _Counted.calls += 1
        return str.__eq__(self, other)


def _nested(depth: int, tag: str) -> list[str]:
    """Lines unique only within the gap between two copies of the line around them."""
    if depth == 0:
        return [tag]
    inner = _nested(depth - 1, tag)
    return [f"level {depth}", *inner, f"level {depth}", *inner]


def _chained(count: int, tag: str) -> list[str]:
    """Each level one line unique only inside the level around it: ``count`` levels deep."""
    lines = [tag]
    for level in reversed(range(count)):
        lines = [f"level {level}", *lines, f"level {level}", f"{tag} {level}"]
    return lines


ADVERSARIAL: dict[str, Callable[[int], tuple[list[str], list[str]]]] = {
    "one line vs two alternating": lambda n: (["a"] * n, ["a", "b"] * (n // 2)),
    "alternating, shifted by one": lambda n: (["a", "b"] * (n // 2), ["b", "a"] * (n // 2)),
    "nested repeats": lambda n: (
        _nested(n.bit_length() - 2, "x"),
        _nested(n.bit_length() - 2, "y"),
    ),
    "levels chained deeper than MAX_DEPTH": lambda n: (
        _chained(n // 3, "x"),
        _chained(n // 3, "y"),
    ),
    "unique anchors between repeats": lambda n: (
        [line for s in range(100) for line in [f"anchor {s}", *["a", "b"] * (n // 200)]],
        [line for s in range(100) for line in [f"anchor {s}", *["b", "a"] * (n // 200)]],
    ),
}


@pytest.mark.parametrize("size", [1_000, 16_000])
@pytest.mark.parametrize("case", sorted(ADVERSARIAL))
def test_q2c_matching_hashes_and_compares_each_line_a_few_times_per_level(
    case: str, size: int, matched: list[int]
) -> None:
    """At most six hashes or comparisons of each line per level, whatever the lines hold."""
    before, after = ADVERSARIAL[case](size)
    a, b = [_Counted(line) for line in before], [_Counted(line) for line in after]
    _Counted.calls = 0

    blocks = PatienceMatcher(None, a, b).get_opcodes()

    assert _Counted.calls <= 6 * (MAX_DEPTH + 1) * (len(a) + len(b)), _Counted.calls
    assert _within_difflib_budget(matched), matched
    assert _rebuilt(a, b, blocks) == after


def test_q2c_any_two_short_texts_are_rebuilt_whole_from_the_matching() -> None:
    chooser = random.Random(46)  # noqa: S311 - test data, not a secret
    for _ in range(500):
        a = [chooser.choice("abcde") for _ in range(chooser.randint(0, 40))]
        b = [chooser.choice("abcde") for _ in range(chooser.randint(0, 40))]
        matcher = PatienceMatcher(None, a, b)
        assert _rebuilt(a, b, matcher.get_opcodes()) == b
        blocks = matcher.get_matching_blocks()
        assert all(a[i : i + size] == b[j : j + size] for i, j, size in blocks)
        assert blocks[-1] == (len(a), len(b), 0)
        assert matcher.ratio() == 2 * sum(size for _, _, size in blocks) / ((len(a) + len(b)) or 1)


def _rebuilt(a: Sequence[str], b: Sequence[str], opcodes: Sequence[Any]) -> list[str]:
    out: list[Hashable] = []
    for tag, i1, i2, j1, j2 in opcodes:
        out += a[i1:i2] if tag == "equal" else b[j1:j2]
    return [str(item) for item in out]


def test_q2c_a_merge_of_a_large_index_of_repeated_lines_keeps_every_added_line(
    matched: list[int],
) -> None:
    lines = [f"- [{n:03d}]({n:03d}.md) - entry\n".encode() for n in range(101)]
    base = b"".join(lines[n % 101] for n in range(40_000))
    chooser = random.Random(2)  # noqa: S311 - test data, not a secret
    ours = base + b"- [ours](ours.md) - added here\n"
    theirs = b"".join(chooser.choice(lines) for _ in range(40_000)) + b"- [theirs](t.md) - there\n"

    merged = merge_lines(base, ours, theirs)

    assert _within_difflib_budget(matched), matched
    assert b"- [ours](ours.md) - added here\n" in merged
    assert merged.startswith(theirs)  # the conflicting region: the standing side's lines
