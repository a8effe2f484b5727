"""P-3: everyday git variables, piped scripts and loops pass; their writes into another scope
do not.

Four everyday commands were refused (each measured refused before): ``GIT_DIR=.git git
status`` (any literal git variable was read as choosing settings the guard does not read),
``cat script.sh | bash -s -- arg`` (a fed script using ``$1`` made its words a command the
guard cannot read, where ``bash script.sh arg`` passed), ``for t in ruff mypy; do "$t" .;
done; "$t" --version`` (a loop's variable after its loop was any of its words) and
``printf -v name …`` (taken as setting any variable, so every loop's variable was unknown).
Now ``GIT_DIR``, ``GIT_WORK_TREE``, ``GIT_INDEX_FILE`` and ``GIT_OBJECT_DIRECTORY`` with a
literal value are judged by where they point, as ``--git-dir`` is
(``program_settings.GIT_PLACES``); a readable fed script is judged as ``bash script.sh arg``
(``tool_targets._fed_plainly``); a script, fed, a shell's operand, ``source``'s or run by
its path, using ``$@``/``$1`` and given a word built at run time has its text read as the
command's own after ``set --`` of those words (``tool_targets._Writes._read_given``), so
``bash script.sh "$(cat VERSION)"`` with ``echo hello "$1"`` passes (refused by the first
form of this rule, which took any such script for words known only at run time) while
``bash run.sh cp n "$(cat t)/a.md"``, ``cp n "$1"``, ``echo x > "$1"`` and ``shift; "$@"``
are refused where they write (``source /dev/stdin "$(cat t)/u.md" < cp.sh`` was let through
and bash wrote into the other scope), and one running a word as code (``eval "$1"``) or too
long to read keeps its words unknown; a loop whose body surely runs for every
word leaves its last in the variable (``loop_words``: no ``break``/``return``, the name never
assigned, the loop neither piped, in the background nor in a subshell); ``printf -v NAME``
with a literal name sets that one (``tool_targets._sets_any``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_refused_by_every_harness_and_bash_writes,
    guarded_layout,
    let_through,
    refusals_by_every_harness,
)

EVERYDAY = [
    "GIT_DIR=.git git status",
    "GIT_WORK_TREE=. git status",
    "export GIT_DIR=.git; git log -1",
    "GIT_DIR=.git GIT_WORK_TREE=. git diff --stat",
    "GIT_INDEX_FILE=.git/index.tmp git add -A",
    "GIT_PAGER=cat git log -1",
    "GIT_TRACE=1 git status",
    "cat script.sh | bash -s -- arg",
    "bash -s -- --prefix=/tmp/x < script.sh",
    'cat script.sh | sh -s -- "$(date +%F)"',
    "cat script.sh | bash",
    'for t in ruff mypy; do "$t" .; done; "$t" --version',
    'for t in ruff mypy; do "$t" . || break; done',
    "printf -v name '%s' x; for t in ruff mypy; do \"$t\" .; done",
    'for t in ruff mypy; do printf -v stamp \'%s\' "$t"; "$t" .; done',
    "pushd sub && make && popd",
    "pushd build >/dev/null; make; popd >/dev/null",
    "pushd sub; popd; git status",
    "(cd sub && make)",
    "make -C sub",
    "make -C sub all",
    "npm --prefix sub test",
    "npm test",
    "git status",
    "pytest -q",
    "cd sub && git status && cd -",
    'for d in sub build; do (cd "$d" && ls); done',
    'for f in *.sh; do bash -n "$f"; done',
    "git -C sub status",
    'cd "$(git rev-parse --show-toplevel)" && ls',
    'for py in 3.11 3.12; do "python$py" -V; done',
    "bash script.sh arg | tee out.log",
    'bash script.sh "$(cat t)"',
    'bash script.sh "$(cat VERSION)"',
    'bash script.sh "$(git describe --tags)"',
    'bash script.sh "$(git describe --tags --always)"',
    './script.sh "$(cat VERSION)"',
    '. ./script.sh "$(cat VERSION)"',
    'sh script.sh "$(cat VERSION)" | tee out.log',
    'bash -s -- "$(cat VERSION)" < script.sh',
    'source /dev/stdin "$(cat VERSION)" < script.sh',
    "git --work-tree=. --git-dir=.git status",
    "pushd sub && ls && popd",
    "cd sub && make -n; cd - >/dev/null; git status",
    "cd sub && GIT_DIR=../.git git status",
]
"""Everyday commands around git's variables, piped scripts, loops and folder changes."""
INTO_ANOTHER_SCOPE = [
    "GIT_DIR=notes/r git init",
    "GIT_DIR={root}/{other}/r git init",
    "export GIT_INDEX_FILE=notes/i; git add -A",
    "GIT_OBJECT_DIRECTORY=notes/o git status",
    "cd sub && GIT_DIR=../notes/r git init",
    'cat run.sh | bash -s -- cp n "$(cat t)/a.md"',
    'bash -s -- cp n "$(cat t)/b.md" < run.sh',
    "cat run.sh | bash -s -- cp n notes/c.md",
    'bash run.sh cp n "$(cat t)/i.md"',
    'sh run.sh cp n "$(cat t)/j.md"',
    '. ./run.sh cp n "$(cat t)/k.md"',
    'bash cp.sh "$(cat t)/l.md"',
    "bash cp.sh notes/m.md",
    './cp.sh "$(cat t)/n.md"',
    'bash redirect.sh "$(cat t)/o.md"',
    'bash shift.sh x cp n "$(cat t)/p.md"',
    "bash shift.sh x cp n notes/q.md",
    'bash eval.sh "cp n $(cat t)/r.md"',
    'cat cp.sh | bash -s -- "$(cat t)/s.md"',
    'source /dev/stdin "$(cat t)/u.md" < cp.sh',
    'for t in cp echo; do "$t" x; break; done; "$t" n "$(cat t)/d.md"',
    't=cp; for t in ls echo; do "$t" x; done | cat; "$t" n e.md',
    't=cp; for t in ls echo; do "$t" x; done & "$t" n e.md',
    't=cp; (for t in ls echo; do "$t" x; done); "$t" n e.md',
    't=cp; { for t in ls echo; do "$t" x; done; } | cat; "$t" n e.md',
    'for t in cp echo; do "$t" x; t=cp; done; "$t" n "$(cat t)/f.md"',
    'f() { for t in cp echo; do "$t" x; return; done; }; f; "$t" n e.md',
    "printf -v t '%s' cp; \"$t\" n notes/g.md",
    'printf -v t \'%s\' "$(cat t)"; cp n "$t/h.md"',
]
"""The same shapes writing into the other scope (or running a program the guard cannot tell
where it may: ``"$t"`` after a loop bash may leave early or in a subshell)."""
SCRIPTS = {
    "cp.sh": 'cp n "$1"\n',
    "redirect.sh": 'echo x > "$1"\n',
    "shift.sh": 'shift; "$@"\n',
    "eval.sh": 'eval "$1"\n',
}
"""Scripts writing where their first word says, running their words after the first, or
running their first as code."""


def _workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """The layout, its Workspace a git repository with ``sub`` and ``build`` (each with a
    ``Makefile``), ``script.sh`` (``echo hello "$1"``), ``run.sh`` (``"$@"``), the
    :data:`SCRIPTS`, ``VERSION``, a note ``n`` and ``t`` naming the other scope."""
    where = guarded_layout(tmp_path, monkeypatch)
    work = where.workspace
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    for folder in ("sub", "build"):
        (work / folder).mkdir()
        (work / folder / "Makefile").write_text("all:\n\techo hi\n", encoding="utf-8")
    (work / "package.json").write_text('{"scripts": {"test": "echo ok"}}', encoding="utf-8")
    (work / "script.sh").write_text('#!/bin/sh\necho hello "$1"\n', encoding="utf-8")
    (work / "script.sh").chmod(0o755)
    (work / "run.sh").write_text('"$@"\n', encoding="utf-8")
    for name, text in SCRIPTS.items():
        (work / name).write_text(text, encoding="utf-8")
        (work / name).chmod(0o755)
    (work / "VERSION").write_text("1.2.3\n", encoding="utf-8")
    (work / "n").write_text("x\n", encoding="utf-8")
    (work / "t").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    return where


def test_p3_everyday_git_variables_piped_scripts_and_loops_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _workspace(tmp_path, monkeypatch)

    refused = {c: r for c in EVERYDAY if any((r := refusals_by_every_harness(where, c)).values())}

    assert refused == {}


def test_p3_the_same_shapes_writing_into_another_scope_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _workspace(tmp_path, monkeypatch)
    commands = [
        c.replace("{root}", str(where.root)).replace("{other}", where.other)
        for c in INTO_ANOTHER_SCOPE
    ]

    assert let_through(where, commands) == {}
    assert_refused_by_every_harness_and_bash_writes(where, "GIT_DIR=notes/r git init")
    assert_refused_by_every_harness_and_bash_writes(
        where, 'cat run.sh | bash -s -- cp n "$(cat t)/a.md"'
    )
    assert_refused_by_every_harness_and_bash_writes(where, 'bash run.sh cp n "$(cat t)/i.md"')


def test_p3_a_script_given_a_word_built_at_run_time_writing_where_it_says_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _workspace(tmp_path, monkeypatch)

    assert_refused_by_every_harness_and_bash_writes(where, 'bash shift.sh x cp n "$(cat t)/p.md"')
    assert_refused_by_every_harness_and_bash_writes(
        where, 'source /dev/stdin "$(cat t)/u.md" < cp.sh'
    )


GITFILES = {
    "g": "gitdir: {root}/{other}/r\n",
    "h": "gitdir: notes/r\n",
    "wt/.git": "gitdir: ../notes/r\n",
    "bad": "not a gitdir line\n",
}
"""``gitdir:`` files naming a bare repository in the other scope (``notes/r``), absolutely,
relative to the file's folder, as a work tree's ``.git``; and one git cannot read."""
THROUGH_A_GITFILE = [
    "GIT_DIR=g git hash-object -w n",
    "git --git-dir=g hash-object -w n",
    "GIT_DIR=h git hash-object -w n",
    "cd wt && git hash-object -w ../n",
    "git -C wt hash-object -w ../n",
    "GIT_DIR=bad git status",
    "export GIT_DIR=../notes/r; cd sub && git hash-object -w ../n",
    "export GIT_DIR=notes/r; git hash-object -w n",
]
"""git writing into the repository a ``gitdir:`` file names (once judged by the file's own
place), or one a relative ``GIT_DIR`` names from the folder git runs in (once judged from
the folder ``export`` ran in)."""


def test_p3_git_is_judged_by_the_repository_a_gitdir_file_or_relative_git_dir_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _workspace(tmp_path, monkeypatch)
    subprocess.run(["git", "init", "-q", "--bare", "notes/r"], cwd=where.workspace, check=True)
    for name, text in GITFILES.items():
        (where.workspace / name).parent.mkdir(exist_ok=True)
        text = text.replace("{root}", str(where.root)).replace("{other}", where.other)
        (where.workspace / name).write_text(text, encoding="utf-8")

    objects = where.root / where.other / "r" / "objects"
    before = set(objects.rglob("*"))

    assert let_through(where, THROUGH_A_GITFILE) == {}
    for proof in (THROUGH_A_GITFILE[0], THROUGH_A_GITFILE[-2]):  # bash writes the object there
        subprocess.run(["bash", "-c", proof], cwd=where.workspace, check=True, capture_output=True)
        assert set(objects.rglob("*")) - before, proof
        for made in sorted(set(objects.rglob("*")) - before, reverse=True):
            made.rmdir() if made.is_dir() else made.unlink()
    assert refusals_by_every_harness(where, "export GIT_DIR=.git; git log -1") == dict.fromkeys(
        ("claude-code", "codex", "gemini")
    )
