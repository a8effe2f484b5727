"""P-3: what a command writes into a process substitution running a shell is that shell's code.

``exec 3> >(bash)`` starts a bash reading its script from descriptor 3; ``cat run.txt >&3``
then runs ``run.txt`` (``echo x >> …/d.md`` aimed at another Workspace's memory scope) as
code. The guard judged ``… | bash`` and ``bash <(…)`` but not a ``>(…)``: the Codex CLI,
Claude Code and Gemini CLI hooks let it through, and bash wrote into the other scope. A shell
or interpreter reading its input in ``>(…)`` (``>(bash)``, ``>(sh -s)``, ``>(python3)``,
``>(tee >(bash))``, ``>(. /dev/stdin)``), in a redirection, an ``exec`` descriptor's setup or a
program's operand, is now judged as ``| bash`` with code the guard cannot tell: refused.
A ``>(…)`` running no code (``>(tee log)``, ``>(gzip > o.gz)``, ``>(wc -l)``) passes as before.
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    refusals_by_every_harness,
)

RUN = "exec 3> >(bash); cat run.txt >&3; exec 3>&-; wait $!"
"""The bypass: a script's text written into a bash started on descriptor 3 (closed and
waited for, so bash has written when the command returns)."""

WRITTEN_INTO_CODE = [
    "exec 3> >(bash); cat run.txt >&3",
    "exec 3> >(bash -s); cat run.txt >&3",
    "exec {fd}> >(sh); cat run.txt >&$fd",
    "cat run.txt > >(bash)",
    "cat run.txt >> >(sh -s)",
    "cat run.txt > >(tee >(bash))",
    "cat run.txt | tee >(bash) > /dev/null",
    "cat run.txt 2>&1 > >(env bash)",
    "exec 4> >(python3); echo 'print(1)' >&4",
    "cat run.txt > >(. /dev/stdin)",
    "exec > >(sudo bash); cat run.txt",
]
"""Code written into a shell or interpreter reading its input in a process substitution."""


@pytest.fixture
def script(where: Layout) -> Layout:
    """The layout with ``run.txt`` in the Workspace appending to another scope's note."""
    other = where.root / where.other
    (where.workspace / "run.txt").write_text(f"echo x >> {other}/d.md\n", encoding="utf-8")
    return where


def test_p3_a_script_written_into_a_bash_process_substitution_is_refused(script: Layout) -> None:
    assert_refused_by_every_harness_and_bash_writes(script, RUN)


@pytest.mark.parametrize("command", WRITTEN_INTO_CODE)
def test_p3_code_written_into_a_process_substitution_is_refused_by_every_harness(
    script: Layout, command: str
) -> None:
    reasons = refusals_by_every_harness(script, command)

    assert all(reason and "the code written into >(" in reason for reason in reasons.values()), (
        reasons
    )


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ("echo hi > >(tee out.log > /dev/null); wait $!", "out.log"),
        ("exec 3> >(cat > kept.txt); echo x >&3; exec 3>&-; wait $!", "kept.txt"),
        ("echo x | tee >(wc -l > n.txt) > /dev/null; wait $!", "n.txt"),
        ("echo x > >(gzip > o.gz); wait $!", "o.gz"),
        ("echo 'echo x' > >(bash -n); echo x > checked.txt", "checked.txt"),
        ("diff <(sort run.txt) <(sort run.txt) > same.txt", "same.txt"),
    ],
)
def test_p3_a_process_substitution_running_no_code_passes(
    script: Layout, command: str, place: str
) -> None:
    assert_allowed_by_every_harness_and_bash_writes_there(script, command, place)


@pytest.mark.parametrize("command", ["bash <(cat run.txt)", "sh < <(head -n 5 run.txt)"])
def test_p3_a_file_printed_into_a_shell_read_through_a_process_substitution_is_refused(
    script: Layout, command: str
) -> None:
    """``cat run.txt | bash`` was refused for what ``run.txt`` writes; ``bash <(cat run.txt)``
    ran the same file unread by every harness's hook."""
    assert_refused_by_every_harness_and_bash_writes(script, command)
