"""Q-2c, V-2, R-2: matching the lines of two versions costs what differs, never what repeats.

``GET …/diff`` of two 32 KB versions of a note of alternating ``a``/``b`` lines took 31 s of
CPU under difflib (a 1 MiB topic file, the cap, would take days), holding the GIL; a push
merging an 80 KB ``MEMORY.md`` of 101 repeated lines took 4.6 s under the scope's lock. One
request from anyone who can make two versions of a file (a token, a machine, the agent's
file tools) stalled the service. Now difflib matches at most ``MATCH_BUDGET`` pairs of lines
(those between the lines both texts start and end with); past that, they are one replaced
block: a diff that still turns the old text into the new one, a merge that keeps every line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from difflib import SequenceMatcher
from typing import Any

import pytest
from memory_api.store.history.diffs import diff_hunks
from memory_core import line_matching
from memory_core.line_matching import MATCH_BUDGET, BoundedMatcher
from memory_core.line_merge import merge_lines
from memory_core.scope_files import TOPIC_CAP

from tests.api.conftest import AgentHome, Client, ok_json
from tests.api.test_v1_versions import TOPIC, checkpoint
from tests.api.test_v2_history_and_restore import history_url, write

HEAD = "---\nname: repeats\ndescription: lines that repeat\n---\n"


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

    assert all(pairs <= MATCH_BUDGET for pairs in matched), matched
    assert len(diff["hunks"]) == 1  # the lines after the front matter: one replaced block
    kinds = [line["kind"] for line in diff["hunks"][0]["lines"]]
    assert kinds[:3] == ["context"] * 3 and kinds[-1] == "added"


def test_q2c_a_diff_past_the_budget_still_turns_the_old_text_into_the_new_one(
    matched: list[int],
) -> None:
    old = "same start\n" + _alternating("a", "b", 64_000) + "same end\n"
    new = "same start\n" + _alternating("b", "a", 64_000) + "same end\n"
    hunks = diff_hunks(old, new)
    assert matched == []  # far past the budget: nothing given to difflib
    assert _applied(old, hunks) == new
    assert hunks[0].lines[0].text == "same start" and hunks[-1].lines[-1].text == "same end"


def test_q2c_within_the_budget_the_lines_are_matched_as_difflib_matches_them() -> None:
    """Texts that neither start nor end alike are difflib's alone; any two are rebuilt whole."""
    chooser = random.Random(46)  # noqa: S311 - test data, not a secret
    for _ in range(300):
        a = [chooser.choice("abcde") for _ in range(chooser.randint(0, 40))]
        b = [chooser.choice("abcde") for _ in range(chooser.randint(0, 40))]
        for autojunk in (False, True):
            bounded = BoundedMatcher(None, a, b, autojunk).get_opcodes()
            assert _rebuilt(a, b, bounded) == b
            if a and b and a[0] != b[0] and a[-1] != b[-1]:
                assert bounded == SequenceMatcher(None, a, b, autojunk).get_opcodes()


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

    assert all(pairs <= MATCH_BUDGET for pairs in matched), matched
    assert b"- [ours](ours.md) - added here\n" in merged
    assert merged.startswith(theirs)  # the conflicting region: the standing side's lines
