"""P-3: the paths a script's text names are resolved as the kernel will when it runs.

A script the call's own command runs (``bash wq``, ``sh wq``, ``source wq``, ``. ./wq``) is
judged by the memory its text names (``hooks.named_scripts``), but only by its spelling: a
script ``wq`` holding ``cp a notes/x.md``, where ``notes`` is a symlink in the Workspace into
another Workspace's scope, was let through, and bash wrote ``x.md`` there (measured below). Now
each word of a script that leads through a link, from the folder the script runs in, is judged
as the call's own paths are (``harness_memory.guard.check_write``: where it lands): one landing
in memory the Session may not write refuses the command. Words that land anywhere else (the
script's own ``build/`` folder, a link into the Session's own scope) pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_refused_by_every_harness_and_bash_writes,
    guarded_layout,
    let_through,
    refusals_by_every_harness,
)


def _scripts(where: Layout) -> None:
    """A note ``a``, the script ``wq`` copying it through the link ``notes``, ``cdq`` entering
    the link first, and ``build.sh`` writing only into the Workspace's ``build/`` and through a
    link ``mine`` into the Session's own scope."""
    (where.workspace / "a").write_text("x\n", encoding="utf-8")
    (where.workspace / "wq").write_text("cp a notes/x.md\n", encoding="utf-8")
    (where.workspace / "cdq").write_text("cd notes && echo x > y.md\n", encoding="utf-8")
    (where.workspace / "mine").symlink_to(where.root / where.own)
    (where.workspace / "build.sh").write_text(
        "#!/bin/sh\nmkdir -p build && cp a build/a.o\ncp a mine/topic.md\n", encoding="utf-8"
    )


def test_p3_a_script_writing_through_a_link_into_another_scope_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    _scripts(where)
    commands = ["sh wq", "source wq", ". ./wq", "bash ./cdq", "bash -c 'bash wq'"]

    assert let_through(where, commands) == {}
    assert_refused_by_every_harness_and_bash_writes(where, "bash wq")


def test_p3_a_script_refusal_names_the_word_and_where_it_lands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    _scripts(where)

    reasons = set(refusals_by_every_harness(where, "bash wq").values())

    assert len(reasons) == 1
    reason = str(reasons.pop())
    assert "the script" in reason and "notes/x.md" in reason and where.other in reason


def test_p3_a_script_writing_its_own_build_folder_and_own_scope_through_a_link_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    _scripts(where)
    commands = ["bash build.sh", "sh ./build.sh", "source build.sh", "cat wq"]

    assert {c: refusals_by_every_harness(where, c) for c in commands} == {
        c: dict.fromkeys(("claude-code", "codex", "gemini")) for c in commands
    }
