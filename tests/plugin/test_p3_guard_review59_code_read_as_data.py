"""P-3: code the guard read as data, and places it judged elsewhere than bash runs them (review59).

A reviewer of round 59 found each form below let through by every harness (Claude Code's
Bash, Codex's shell, Gemini's ``run_shell_command``) while bash wrote into another Workspace's
scope (``notes``, the Workspace's link into it):

- a quote in a comment (``echo start # don't``) opened a quoted word for the reading of which
  names a command runs: the next lines became one data word of ``echo``, and ``~/bin/cp``,
  first on the login shell's ``PATH``, was not judged for the ``cp`` they run (finding 3);
- a ``sed`` script with the delimiter inside a bracket expression (``s/[/]/;s/;e cp /p/g``)
  was read as substitutions only, while GNU sed runs its ``e`` command (finding 4), and
  ``sed``'s ``e`` command runs its text as shell code (finding 9);
- a here-document fed to an interpreter whose code runs its standard input (``python3 -c
  '…os.system(sys.stdin.read())' <<'EOF'``, ``perl -e 'system(<STDIN>)'``) was read as data
  (finding 5);
- git's alias command was judged at the wrong top: ``<main>/.git/worktrees`` in a linked
  worktree (finding 6), the folder a ``-c core.worktree=.`` names, which git ignores for an
  alias's command (finding 7);
- ``eval`` of a command substitution reading a file was read as that file's script only in a
  few exact spellings (finding 8).

Each is refused now (by every harness whose shell runs it), one bash run per kind proves the
write into the other scope, and the everyday forms nearby stay allowed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)

HELD_CP = '#!/bin/sh\necho pwned > "$(cat ~/tgt)"\n'
"""A ``cp`` in ``~/bin`` writing into the file ``~/tgt`` names: in the other scope."""


def _refusing(where: Layout, command: str) -> set[str]:
    """The harnesses refusing ``command`` (filled)."""
    answers = refusals_by_every_harness(where, fill(command, where))
    return {harness for harness, reason in answers.items() if reason is not None}


def _allowed(where: Layout, commands: list[str]) -> dict[str, set[str]]:
    """Each of ``commands`` (filled) some harness refuses, with the harnesses refusing it."""
    refusing = {command: _refusing(where, command) for command in commands}
    return {command: seen for command, seen in refusing.items() if seen}


@pytest.fixture
def held(where: Layout) -> Layout:
    """``~/.profile`` puts ``~/bin`` first on ``PATH``; ``~/bin/cp`` is :data:`HELD_CP`;
    ``note.md`` in the Workspace."""
    (where.data / ".profile").write_text('PATH="$HOME/bin:$PATH"\n', encoding="utf-8")
    (where.data / "bin").mkdir()
    (where.data / "bin" / "cp").write_text(HELD_CP, encoding="utf-8")
    (where.data / "bin" / "cp").chmod(0o755)
    (where.data / "tgt").write_text(f"{where.root / where.other / 'evil.md'}\n", "utf-8")
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")
    return where


def _login_shell_writes(where: Layout, command: str) -> bool:
    """Whether ``bash -lc`` (Codex's shell) running ``command`` (filled) in the Workspace
    writes ``evil.md`` into the other scope."""
    subprocess.run(
        ["bash", "-lc", fill(command, where)],
        cwd=where.workspace,
        env={**os.environ, "HOME": str(where.data)},
        check=False,
        capture_output=True,
    )
    return (where.root / where.other / "evil.md").exists()


COMMENTED = "echo start # don't\ncp note.md \"{root}/{own}/a.md\"\necho end # it's"
"""A copy into the Session's own scope between two comments holding an apostrophe each."""
BRACKETED_SED = "sed 's/[/]/;s/;e cp /p/g' note.md"
"""A substitution of ``[/]`` by ``;s``, then sed's ``e`` command running ``cp /p/g``."""


@pytest.mark.parametrize("command", [COMMENTED, BRACKETED_SED, "sed -n '1e cp a b' note.md"])
def test_p3_a_held_program_named_after_a_comment_or_in_a_sed_script_is_judged(
    held: Layout, command: str
) -> None:
    """Codex and Claude Code, whose shells read ``~/.profile``, refuse each (both let each
    through before); Gemini's ``bash -c`` reads no startup file."""
    assert _refusing(held, command) >= {"codex", "claude-code"}


def test_p3_a_commented_command_runs_the_held_program(held: Layout) -> None:
    assert _login_shell_writes(held, COMMENTED)


def test_p3_a_bracketed_sed_delimiter_runs_the_held_program(held: Layout) -> None:
    assert _login_shell_writes(held, BRACKETED_SED)


def test_p3_everyday_comments_and_sed_scripts_stay_allowed(held: Layout) -> None:
    everyday = [
        "# don't forget\ngit status",
        "git status # it's clean",
        "sed -i '/^#/d' Makefile",
        "sed -i 's/[/]/_/g' Makefile",
        "sed -i 's/cp/mv/' Makefile",
        "sed -i 's|a|b|g;s/x/y/' Makefile",
        'git commit -m "fix #12: don\'t cp twice"',
        "git commit -m \"$(cat <<'EOF'\nfix: don't cp\nEOF\n)\"",
    ]

    assert _allowed(held, everyday) == {}


@pytest.fixture
def copies(where: Layout) -> Layout:
    """``note.md`` in the Workspace, ``~/t`` naming ``notes/a.md`` (in the other scope),
    ``~/w`` a copy into the other scope, ``~/w2`` too (run by sed's ``e``), ``~/ok`` a
    listing."""
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")
    (where.data / "t").write_text("notes/a.md\n", encoding="utf-8")
    (where.data / "w").write_text(fill("cp note.md {root}/{other}/x.md\n", where), "utf-8")
    (where.data / "w2").write_text(fill("cp note.md {root}/{other}/y.md\n", where), "utf-8")
    (where.data / "ok").write_text("ls -la\n", encoding="utf-8")
    return where


FED_INTERPRETERS = [
    "python3 -c 'import os,sys;os.system(sys.stdin.read())' <<'EOF'\n"
    'cp note.md "$(cat ~/t)"\nEOF',
    "perl -e 'system(<STDIN>)' <<'EOF'\ncp note.md \"$(cat ~/t)\"\nEOF",
    "python3 -c 'import os;os.system(input())' <<< 'cp note.md \"$(cat ~/t)\"'",
]
"""A here-document (or here-string) whose text an interpreter's code runs as a command."""


def test_p3_a_here_document_an_interpreter_runs_is_code(copies: Layout) -> None:
    assert_each_refused_by_every_harness(copies, FED_INTERPRETERS)


def test_p3_a_here_document_python_runs_writes_into_the_other_scope(copies: Layout) -> None:
    assert_refused_by_every_harness_and_bash_writes(copies, FED_INTERPRETERS[0])


def test_p3_everyday_here_documents_stay_allowed(copies: Layout) -> None:
    everyday = [
        "git commit -F - <<'EOF'\nfix: don't cp twice\nEOF",
        "git commit -m \"$(cat <<'EOF'\nfix: don't cp\nEOF\n)\"",
        "cat >> \"{root}/{own}/notes.md\" <<'EOF'\nit's the cp tool\nEOF",
        "cat <<'EOF' | tee -a \"{root}/{own}/notes.md\"\nrun cp twice\nEOF",
        "python3 - <<'EOF'\nprint(1)\nEOF",
        "for f in src tests; do ruff check $f; done",
    ]

    assert _allowed(copies, everyday) == {}


EVALUATED = [
    "eval -- $(cat ~/w)",
    "eval $(cat ~/w 2>/dev/null)",
    "eval $(cat<~/w)",
    "eval $(cat $HOME/w)",
    'eval "$(cat $HOME/w)"',
    'eval "$(head -n 9 ~/w)"',
    "eval $(cat ~/w | cat)",
    "eval ' '$(cat ~/w)",
    'eval "$(sed -n 1p ~/w)"',
    ". <(cat ~/w)",
    "source <(cat ~/w | cat)",
]
"""``eval`` (or ``.`` of a process substitution) of code a command substitution reads from
``~/w`` (a copy into the other scope), in spellings the exact reading missed."""


def test_p3_eval_of_code_read_at_run_time_is_refused(copies: Layout) -> None:
    assert_each_refused_by_every_harness(copies, EVALUATED)


def test_p3_eval_of_a_file_read_by_head_writes_into_the_other_scope(copies: Layout) -> None:
    assert_refused_by_every_harness_and_bash_writes(copies, EVALUATED[5])


def test_p3_everyday_evals_stay_allowed(copies: Layout) -> None:
    everyday = [
        'eval "$(ssh-agent -s)"',
        "eval $(ssh-agent -s) && ssh-add -l; true",
        'eval "$(pyenv init -)"',
        "eval `dircolors -b`",
        'eval "$(cat ~/ok)"',
        'eval "$(cat $HOME/ok)"',
        "eval $(cat ~/ok 2>/dev/null)",
        'eval "$(head -n 9 ~/ok)"',
    ]

    assert _allowed(copies, everyday) == {}


def test_p3_sed_s_e_command_is_judged_as_shell_code(copies: Layout) -> None:
    """``sed -n '1e sh ~/w2'`` runs ``~/w2`` (a copy into the other scope) by a shell."""
    assert_refused_by_every_harness_and_bash_writes(copies, "sed -n '1e sh ~/w2' note.md")


def _git(*words: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *words],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def linked(where: Layout, tmp_path: Path) -> Layout:
    """The Workspace a linked worktree of ``tmp_path/main`` (its ``.git`` a ``gitdir:`` file),
    with a folder ``sub`` and ``note.md`` at its top beside ``notes``."""
    main = tmp_path / "main"
    main.mkdir()
    _git("init", "-q", cwd=main)
    _git("commit", "-q", "--allow-empty", "-m", "start", cwd=main)
    _git("worktree", "add", "-q", "--detach", str(tmp_path / "linked"), cwd=main)
    admin = main / ".git" / "worktrees" / "linked"
    (where.workspace / ".git").write_text(f"gitdir: {admin}\n", encoding="utf-8")
    (admin / "gitdir").write_text(f"{where.workspace / '.git'}\n", encoding="utf-8")
    (where.workspace / "sub").mkdir()
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")
    return where


ALIASED = "cd sub && git -c alias.c='!cp note.md notes/a.md' c"


def test_p3_an_alias_in_a_linked_worktree_is_judged_at_its_top(linked: Layout) -> None:
    assert_refused_by_every_harness_and_bash_writes(linked, ALIASED)


def test_p3_an_alias_is_judged_at_the_top_git_uses_not_only_core_worktree(
    where: Layout,
) -> None:
    subprocess.run(["git", "init", "-q", str(where.workspace)], check=True)
    (where.workspace / "sub").mkdir()
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")
    command = "cd sub && git -c core.worktree=. -c alias.c='!cp note.md notes/a.md' c"

    assert_refused_by_every_harness_and_bash_writes(where, command)
    assert _allowed(where, ["cd sub && git -c core.worktree=. status"]) == {}
