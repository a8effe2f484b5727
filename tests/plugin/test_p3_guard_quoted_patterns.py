"""P-3: a path whose pattern characters are quoted or escaped is the name bash writes to.

The guard expanded every word holding ``*``, ``?`` or ``[`` against the folders, quoted or not,
and judged only the matches: with a folder ``safe`` and a symlink ``[s]afe`` into another
Workspace's scope beside it, ``echo x > '[s]afe/a.md'`` was judged as ``safe/a.md`` and let
through, while bash, reading the quoted word literally, wrote through the symlink into the
other scope. The word as written is now judged too, whatever its pattern matches. Each case is
run by bash, which writes into the other scope.
"""

from __future__ import annotations

import pytest

from tests.plugin.test_p3_guard_here_documents import _bash
from tests.support.guard_cases import (
    Layout,
    refusals_by_every_harness,
)

QUOTED = [
    "echo x > '[s]afe/a.md'",
    'echo x > "[s]afe/a.md"',
    "echo x > \\[s\\]afe/a.md",
    "cp note.md '[s]afe/'",
    "tee 's?fe/a.md' < note.md",
    "cd '[s]afe' && echo x > a.md",
]


@pytest.mark.parametrize("command", QUOTED)
def test_p3_a_quoted_pattern_is_judged_as_the_name_bash_writes_to(
    where: Layout, command: str
) -> None:
    (where.workspace / "safe").mkdir()
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    for name in ("[s]afe", "s?fe"):
        (where.workspace / name).symlink_to(where.root / where.other)

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None, (harness, command)
        assert reason.startswith("Agent Memory write guard: "), (harness, reason)
    assert _bash(where, command), f"bash wrote nothing into the other scope: {command}"
