"""P-3: git porcelain writing files in a folder, or at a place, built at run time.

``git -C "$(cat target)" restore MEMORY.md`` rewrites the index of the repository ``target``
names: the guard read ``git``'s words only for its settings and ``git mv``, so a folder given
to ``-C``, ``--work-tree``, ``--git-dir`` or ``-c core.worktree`` built at run time was let
through with ``restore``, ``checkout``, ``mv``, ``reset --hard``, ``stash``; and so was a place
git's own command writes: ``worktree add``, ``clone``, ``init``, ``bundle create``, ``archive
-o``, ``format-patch -o``, ``checkout-index --prefix``, ``config -f``, ``diff --output`` (bash
wrote into the other scope each time). Such a folder is a place written at run time unless
git's command only reads (``status``, ``log``, ``diff``…); such a place is one always. The
everyday calls in the Workspace's own repository pass, and bash runs them there.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
    refusals_by_every_harness,
)

_GIT = ["git", "-c", "user.email=a@example.com", "-c", "user.name=a"]

IN_A_FOLDER_BUILT_AT_RUN_TIME = [
    'git -C "$(cat target)" restore MEMORY.md',
    'git -C "$(cat target)" checkout -- .',
    'git -C "$(cat target)" mv MEMORY.md moved.md',
    "d=$(cat target); git -C $d reset -q --hard",
    'git -C "$(cat target)" -c core.x=1 restore .',
    'git --work-tree="$(cat target)" --git-dir="$(cat target)/.git" restore .',
    'git --work-tree "$(cat target)" checkout HEAD -- own.md',
    'git --work-tree="$(cat target)" restore --source=HEAD own.md',
    'git -C "$(cat target)" stash -q',
    'GIT_WORK_TREE="$(cat target)" git checkout HEAD -- own.md',
    'export GIT_WORK_TREE="$(cat target)"; git checkout HEAD -- own.md',
    'env GIT_WORK_TREE="$(cat target)" git checkout HEAD -- own.md',
    'GIT_INDEX_FILE="$(cat target)/idx" git add own.md',
    # own.md changed first: git hashes (and writes) only a file it cannot tell is unchanged
    'echo more >> own.md; GIT_OBJECT_DIRECTORY="$(cat target)" git add own.md',
]
"""Each was let through; ``target`` names the other scope, a git repository whose index was
changed since its commit; the Workspace is a repository holding ``own.md``."""
PLACES_BUILT_AT_RUN_TIME = [
    'git worktree add -q "$(cat target)"/wt',
    'git worktree add -q "$(cat target)/$(basename "$PWD")-feature"',
    'git clone -q . "$(cat target)"/c',
    'git init -q "$(cat target)"/i',
    'git bundle create "$(cat target)"/b HEAD',
    'git archive -o "$(cat target)"/a.tar HEAD',
    'git format-patch -q -o "$(cat target)" --root',
    'git checkout-index -a --prefix="$(cat target)"/',
    'git config -f "$(cat target)"/c k.v 1',
    'git config --fil "$(cat target)"/c k.v 1',
    'git config --fil="$(cat target)"/c k.v 1',
    'git -C "$(cat target)" config --fil c k.v 1',
    'git checkout-index -a --pref="$(cat target)"/',
    'git diff --output="$(cat target)"/d.md HEAD',
    'git log --output "$(cat target)"/l.md',
    'git -C "$(cat target)" diff --output=a.md HEAD',
    'git -C "$(cat target)" log -1 --output=a.md',
    'git -C "$(cat target)" show --output a.md',
    'git -C "$(cat target)" diff --no-index --output=a.md MEMORY.md MEMORY.md',
]
"""Each was let through; each writes the place named."""


def _prepared(where: Layout) -> None:
    work, other = where.workspace, where.root / where.other
    (work / "target").write_text(f"{other}\n", encoding="utf-8")
    for repository, name in ((other, "MEMORY.md"), (work, "own.md")):
        (repository / name).write_text("committed\n", encoding="utf-8")
        _git(repository, "init", "-q")
        _git(repository, "add", name)
        _git(repository, "commit", "-qm", "first")
    (other / "MEMORY.md").write_text("changed since\n", encoding="utf-8")


def _git(folder: Path, *words: str) -> None:
    subprocess.run([*_GIT, *words], cwd=folder, check=True, capture_output=True)


@pytest.mark.parametrize("command", IN_A_FOLDER_BUILT_AT_RUN_TIME + PLACES_BUILT_AT_RUN_TIME)
def test_p3_git_writing_in_a_folder_or_at_a_place_built_at_run_time_is_refused(
    where: Layout, command: str
) -> None:
    _prepared(where)
    other = where.root / where.other
    if command in IN_A_FOLDER_BUILT_AT_RUN_TIME and not ("own.md" in command or " mv " in command):
        # git rewrites files there (the index, MEMORY.md): new bytes, not new names
        index = other / ".git" / "index"
        before = (index.read_bytes(), (other / "MEMORY.md").read_bytes())
        shell = fill(command, where)
        for harness, reason in refusals_by_every_harness(where, shell).items():
            assert reason is not None, (harness, shell)
            assert reason.startswith("Agent Memory write guard: "), (harness, reason)
        subprocess.run(["bash", "-c", shell], cwd=where.workspace, check=True)
        after = (index.read_bytes(), (other / "MEMORY.md").read_bytes())
        assert after != before, f"bash changed nothing in the other scope: {shell}"
        return
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ('git status && git add -A && git commit -qm "$(cat own.md)" --allow-empty', ".git"),
        ('git -C "$(cat target)" status', ".git"),
        ('git -C "$(cat target)" log --oneline', ".git"),
        ('git -C "$(git rev-parse --show-toplevel)" restore own.md', "own.md"),
        ('git checkout -q -b "topic-$(date +%F)"', ".git"),
        ("git worktree add -q ../wt2", "../wt2/own.md"),
        (
            'git worktree add -q "../$(basename "$PWD")-feature" -b feature',
            "../my-app-feature/own.md",
        ),
        ("git archive -o out.tar HEAD", "out.tar"),
        ("git format-patch -q -o patches --root", "patches"),
        ("git diff --output=changes.diff HEAD", "changes.diff"),
        ("git clone -q . {root}/{own}/c", "{root}/{own}/c/own.md"),
    ],
)
def test_p3_git_in_its_own_repository_passes(
    where: Layout, command: str, place: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Everyday git in the Workspace's repository, reading another folder named at run time,
    or writing a place known here: bash writes there."""
    _prepared(where)
    for name in ("GIT_AUTHOR", "GIT_COMMITTER"):  # who bash's ``git commit`` says commits
        monkeypatch.setenv(f"{name}_NAME", "a")
        monkeypatch.setenv(f"{name}_EMAIL", "a@example.com")
    assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_git_in_a_folder_an_inherited_variable_names_is_judged_by_its_value(
    where: Layout, harness: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``git -C "$REPO_DIR" restore own.md``: a variable the command never sets is the
    environment's, which the hook inherits as the shell does; naming the Workspace it
    passes, naming the other scope it is refused, and unset (the shell's startup files may
    set it: any folder) it is refused as every folder known only at run time is."""
    _prepared(where)
    shell = 'git -C "$REPO_DIR" restore own.md'
    answers = {}
    for name, folder in (("workspace", where.workspace), ("other", where.root / where.other)):
        monkeypatch.setenv("REPO_DIR", str(folder))
        answers[name] = refusal(answer(where, harness, SHELL[harness][1], {"command": shell}))
    monkeypatch.delenv("REPO_DIR")
    unset = refusal(answer(where, harness, SHELL[harness][1], {"command": shell}))
    assert answers["workspace"] is None
    assert answers["other"] is not None and unset is not None
