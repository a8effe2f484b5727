"""P-3: a call the write guard cannot judge within its time is refused, not left to the harness.

A harness kills a hook that outlives its timeout, and Claude Code then runs the call ("a
timed-out command hook doesn't block the tool call"); the install gives Codex CLI's and Gemini
CLI's hooks 30 s. The guard's readers are linear in a command's length, but a model's command of
tens of kilobytes of statements took over 20 s on a busy machine: the guard stops judging at
its own limit (``harness_memory.cli.GUARD_TIME_S``) and refuses, saying why and what to do.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from harness_memory import cli

from tests.support.guard_cases import guarded_layout, refusals_by_every_harness

SLOW = "echo a; " * 4000
"""A command that writes nothing, allowed when judged, which takes the guard seconds."""


# The guard's limit is an alarm whose exception lands wherever the guard is: between open()
# making a file object and the `with` that would close it, the object is left to the garbage
# collector, which warns of it. A hook process ends right after its refusal; the test's worker
# does not, so that one warning is not a leak of the guard's (seen once in a CI run at load 8).
@pytest.mark.filterwarnings(
    "ignore:Exception ignored in. <_io.FileIO:pytest.PytestUnraisableExceptionWarning"
)
def test_a_call_the_guard_cannot_judge_within_its_time_is_refused_by_every_harness(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    handler = signal.getsignal(signal.SIGALRM)
    monkeypatch.setattr(cli, "GUARD_TIME_S", 0.01)

    refusals = refusals_by_every_harness(where, SLOW)

    for harness, reason in refusals.items():
        assert reason is not None, f"{harness} let a call through that it could not judge"
        assert "could not judge this call within 0.01 s" in reason, reason
        assert "split it into shorter commands" in reason, reason
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0), "the guard's alarm was left set"
    assert signal.getsignal(signal.SIGALRM) is handler

    monkeypatch.setattr(cli, "GUARD_TIME_S", 20.0)
    assert refusals_by_every_harness(where, "echo a; echo b") == dict.fromkeys(refusals)
