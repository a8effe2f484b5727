"""P-3: a command git's alias runs is judged where git runs it, and ``eval`` of a file's text
unquoted as quoted (round 59).

- git runs an alias's ``!`` command from the top of the work tree, not from the folder it is
  started in: ``cd sub && git -c alias.c='!cp note.md notes/a.md' c`` copies into the top's
  ``notes`` (a link into another Workspace's scope), while the guard judged ``sub/notes/a.md``
  and let it through. The commands git's settings make it run are now judged in the folder git
  is started in (after ``-C``) and at its work tree's top (``--work-tree``, ``core.worktree``,
  the folder holding ``.git``).
- ``eval $(cat ~/w)`` (and `` eval `cat ~/w` ``, ``eval $(< ~/w)``) runs the file's words
  joined again, as ``eval "$(cat ~/w)"`` runs its text; only the quoted form was read as the
  script it is, so ``~/w`` holding a copy into the other scope was let through.

Each refused form is refused by every harness, and one bash run proves it writes into the other
scope; the everyday forms pass, and bash writes where the guard was told it would.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)


@pytest.fixture
def repository(where: Layout) -> Layout:
    """The Workspace a git repository with a folder ``sub``, ``note.md`` at its top (beside
    the link ``notes`` into the other scope)."""
    subprocess.run(["git", "init", "-q", str(where.workspace)], check=True)
    (where.workspace / "sub").mkdir()
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")
    return where


ALIASED_COPIES = [
    "cd sub && git -c alias.c='!cp note.md notes/a.md' c",
    "cd sub && git -c alias.c='!cp ../note.md notes/a.md' c",
    "git -C sub -c alias.c='!cp note.md notes/a.md' c",
    "cd sub && git --work-tree=.. -c alias.c='!cp note.md notes/a.md' c",
    "cd sub && git c",
]
"""A copy an alias runs from the work tree's top into ``notes`` (the other scope); the last
with the alias in the repository's own ``config``."""


def test_p3_an_alias_command_is_judged_at_the_work_tree_s_top(repository: Layout) -> None:
    config = repository.workspace / ".git" / "config"
    config.write_text(config.read_text() + "[alias]\n\tc = !cp note.md notes/a.md\n")

    assert_each_refused_by_every_harness(
        repository, ALIASED_COPIES, "git's setting alias.c", "another Workspace's memory scope"
    )


def test_p3_git_runs_the_alias_from_the_top_into_the_other_scope(repository: Layout) -> None:
    assert_refused_by_every_harness_and_bash_writes(repository, ALIASED_COPIES[0])


def test_p3_everyday_aliases_from_a_sub_folder_pass(repository: Layout) -> None:
    everyday = [
        "cd sub && git status",
        "cd sub && git -c alias.st=status st",
        "cd sub && git -c alias.l='!ls -la' l",
        "cd sub && git -c alias.c='!echo ok >> {root}/{own}/log.md' c",
    ]

    answers = {c: refusals_by_every_harness(repository, fill(c, repository)) for c in everyday}

    assert {c: seen for c, seen in answers.items() if any(seen.values())} == {}
    assert_allowed_by_every_harness_and_bash_writes_there(
        repository, "cd sub && git -c alias.c='!cp note.md copy.md' c", "copy.md"
    )


EVALUATED_FILES = [
    "eval $(cat ~/w)",
    "eval `cat ~/w`",
    'eval "`cat ~/w`"',
    "eval $(< ~/w)",
    "eval $(cat ~/w); echo done",
    "if true; then eval $(cat -- ~/w); fi",
]
"""``eval`` given the text of ``~/w`` (a copy into the other scope), unquoted or in
backquotes."""


@pytest.fixture
def evaluated(where: Layout) -> Layout:
    """``~/w`` holding a copy of ``note.md`` into the other scope, ``~/ok`` a listing."""
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")
    (where.data / "w").write_text(fill("cp note.md {root}/{other}/x.md\n", where), "utf-8")
    (where.data / "ok").write_text("ls -la\n", encoding="utf-8")
    return where


def test_p3_eval_of_a_file_s_text_unquoted_is_judged_as_its_script(evaluated: Layout) -> None:
    assert_each_refused_by_every_harness(
        evaluated, EVALUATED_FILES, "runs the script", "names other memory"
    )


def test_p3_eval_of_a_file_s_words_writes_into_the_other_scope(evaluated: Layout) -> None:
    assert_refused_by_every_harness_and_bash_writes(evaluated, EVALUATED_FILES[0])


def test_p3_everyday_evals_pass(evaluated: Layout) -> None:
    everyday = [
        "eval $(cat ~/ok)",
        'eval "$(cat ~/ok)"',
        "eval $(ssh-agent -s) && ssh-add -l; true",
        'eval "$(pyenv init -)"',
        "eval `dircolors -b`",
    ]

    answers = {c: refusals_by_every_harness(evaluated, c) for c in everyday}

    assert {c: seen for c, seen in answers.items() if any(seen.values())} == {}


def test_p3_a_script_already_there_is_not_told_to_be_written_in_a_command_of_its_own(
    evaluated: Layout,
) -> None:
    """A script the guard cannot read (a FIFO: no regular file) is already there: writing it
    in a command of its own changes nothing, so the refusal says what does; one the command
    writes is still told to be written in a command of its own (round 59)."""
    os.mkfifo(evaluated.workspace / "s.sh")

    for reason in refusals_by_every_harness(evaluated, "bash s.sh").values():
        assert reason is not None
        assert "is no regular file" in reason, reason
        assert "in a command of its own" not in reason, reason
        assert "Make it a readable regular file of at most 1048576 bytes" in reason, reason
    for reason in refusals_by_every_harness(evaluated, "echo ls > t.sh; bash t.sh").values():
        assert "Write the script in a command of its own" in str(reason), reason
