"""P-3: a relative write after the command's opening ``cd "$(git rev-parse --show-toplevel)"`` is
judged in the folder git names, asked of git before the command runs.

It was refused whatever the repository: the folder is built at run time, and ``core.worktree``
can point it anywhere, another Workspace's scope included. The guard now asks git itself, in the
folder the shell starts in and with the harness's environment, when that ``cd`` opens the
command (nothing has run before it that could change git's answer); the folder git prints is
judged like any folder a ``cd`` names. Each case is then run by bash, which writes where the
guard read it would.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from harness_memory.hooks import git_toplevel

from tests.support.guard_cases import (
    Layout,
    answer,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
    refusals_by_every_harness,
)


@pytest.fixture(autouse=True)
def _git_answers_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each case judges where git points, not how fast it answers: git later than
    ``GIT_TIMEOUT`` leaves the folder unknown and the guard refuses; the cases here give git
    all the time it needs, however busy the machine."""
    monkeypatch.setattr(git_toplevel, "GIT_TIMEOUT", 60.0)


def _git(where: Layout, *arguments: str) -> None:
    subprocess.run(["git", *arguments], cwd=where.workspace, check=True, capture_output=True)


def _bash(where: Layout, command: str) -> None:
    environment = {"PATH": os.environ["PATH"], "HOME": str(where.data)}
    subprocess.run(["bash", "-c", command], cwd=where.workspace, env=environment, check=False)


def test_p3_a_write_at_the_top_of_the_workspaces_repository_passes(where: Layout) -> None:
    _git(where, "init", "-q")
    (where.workspace / "src").mkdir()
    command = 'cd "$(git rev-parse --show-toplevel)" && echo x > build.log'

    assert answer(where, "claude-code", "Bash", {"command": command}) is None

    _bash(where, command)
    assert (where.workspace / "build.log").exists()


def test_p3_a_worktree_pointing_into_another_scope_is_refused_where_git_points(
    where: Layout,
) -> None:
    _git(where, "init", "-q")
    _git(where, "config", "core.worktree", str(where.root / where.other))
    command = 'cd "$(git rev-parse --show-toplevel)" && echo x > a.md'

    assert refusal(answer(where, "claude-code", "Bash", {"command": command})) is not None

    _bash(where, command)
    assert (where.root / where.other / "a.md").exists(), "bash wrote nothing there"


@pytest.mark.parametrize(
    "command",
    [
        # git's answer changes before the cd runs: the folder is known only at run time
        'git config core.worktree {root}/{other} && cd "$(git rev-parse --show-toplevel)" && '
        "echo x > a.md",
        'true; cd "$(git rev-parse --show-toplevel)" && echo x > a.md',
    ],
)
def test_p3_a_top_folder_asked_after_other_commands_stays_unknown(
    where: Layout, command: str
) -> None:
    _git(where, "init", "-q")
    shell = fill(command, where)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))

    assert reason is not None and "builds at run time" in reason


def test_p3_a_top_folder_git_cannot_say_stays_unknown(where: Layout) -> None:
    """Not a repository: git prints nothing, and ``cd ""`` stays where it is."""
    command = 'cd "$(git rev-parse --show-toplevel)" && echo x > a.md'

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "builds at run time" in reason


GEMINI_TOP = 'cd "$(git rev-parse --show-toplevel)" && echo x > {name}'
"""A ``run_shell_command`` Gemini CLI runs in its ``dir_path`` (``cd DIR && …`` for the guard)."""


def _gemini(where: Layout, command: str, dir_path: str) -> str | None:
    arguments = {"command": command, "dir_path": dir_path}
    return refusal(answer(where, "gemini", "run_shell_command", arguments))


def test_p3_gemini_in_a_folder_of_the_repository_writes_at_its_top(where: Layout) -> None:
    """With ``dir_path`` a folder of the Workspace's repository, git is asked there: the write
    at the top passes (it was refused: the ``cd`` before it left the folder unknown)."""
    _git(where, "init", "-q")
    (where.workspace / "src").mkdir()
    command = GEMINI_TOP.format(name="build.log")

    assert _gemini(where, command, "src") is None

    _bash(where, f"cd src && {command}")
    assert (where.workspace / "build.log").exists()


def test_p3_gemini_in_another_repository_is_judged_where_its_git_points(
    where: Layout, tmp_path: Path
) -> None:
    """``dir_path`` a repository whose ``core.worktree`` points into another scope, beside a
    Workspace that is a repository too: git is asked in ``dir_path``, as the shell will, so
    the write is refused where it lands (asked in the Workspace, git would have named the
    Workspace and the write passed)."""
    _git(where, "init", "-q")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=elsewhere, check=True)
    subprocess.run(
        ["git", "config", "core.worktree", str(where.root / where.other)], cwd=elsewhere, check=True
    )
    command = GEMINI_TOP.format(name="a.md")

    reason = _gemini(where, command, str(elsewhere))

    assert reason is not None and where.other in reason
    _bash(where, f"cd {elsewhere} && {command}")
    assert (where.root / where.other / "a.md").exists(), "bash wrote nothing there"


@pytest.mark.parametrize("dir_path", ["src/..", "-"])
def test_p3_gemini_in_a_folder_the_guard_does_not_resolve_as_bash_stays_unknown(
    where: Layout, dir_path: str
) -> None:
    """``..`` (bash's ``cd`` reads it by the name, the kernel by the folder) and ``-``: git is
    not asked, and a relative write after the ``cd`` stays refused."""
    _git(where, "init", "-q")
    (where.workspace / "src").mkdir()

    reason = _gemini(where, GEMINI_TOP.format(name="a.md"), dir_path)

    assert reason is not None and "builds at run time" in reason


def test_p3_a_worktree_changed_between_the_answer_and_the_run_is_not_seen(where: Layout) -> None:
    """Open, and said so in ``docs/security.md``: git is asked when the guard answers, the
    shell asks again when the command runs. A process the agent started in an earlier call (a
    background ``(sleep 1; git config core.worktree "$(cat target)") &``, which names no
    memory) can change ``core.worktree`` in between; the write then lands where git points at
    run time. Only a sandbox fences it (as for any file a concurrent process changes between
    a check and a use). Asked after the change, the guard refuses the same command."""
    _git(where, "init", "-q")
    command = 'cd "$(git rev-parse --show-toplevel)" && echo x > a.md'

    assert answer(where, "claude-code", "Bash", {"command": command}) is None
    _git(where, "config", "core.worktree", str(where.root / where.other))  # the other process
    _bash(where, command)

    assert (where.root / where.other / "a.md").exists()
    assert refusal(answer(where, "claude-code", "Bash", {"command": command})) is not None


@pytest.mark.parametrize(
    ("command", "place", "there"),
    [
        ('rm -f "$(git rev-parse --show-toplevel)/build.log"', "build.log", False),
        ('rm -rf "$(git rev-parse --show-toplevel)"/build', "build", False),
        ('cp note.md "$(git rev-parse --show-toplevel)/docs/"', "docs/note.md", True),
        ('cd "$(git rev-parse --show-toplevel)/src" && echo x > out.log', "src/out.log", True),
        ('tee "$(git rev-parse --show-toplevel)/top.log" < note.md > /dev/null', "top.log", True),
    ],
)
def test_p3_a_write_to_a_path_below_the_top_git_names_passes(
    where: Layout, command: str, place: str, there: bool
) -> None:
    """Each was refused as a place built at run time (``docs/security.md`` listed
    ``rm "$(git rev-parse --show-toplevel)/x"`` as refused by design): git is asked for it
    as for an opening ``cd``, when only literal words stand before it."""
    _git(where, "init", "-q")
    for folder in ("src", "docs", "build"):
        (where.workspace / folder).mkdir()
    (where.workspace / "build.log").write_text("x\n", encoding="utf-8")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command

    _bash(where, command)
    assert (where.workspace / place).exists() is there


@pytest.mark.parametrize(
    "command",
    [
        'cp note.md "$(git rev-parse --show-toplevel)/a.md"',
        'tee "$(git rev-parse --show-toplevel)"/a.md < note.md',
        'cd "$(git rev-parse --show-toplevel)/" && echo x > a.md',
    ],
)
def test_p3_a_path_below_a_worktree_in_another_scope_is_refused_where_git_points(
    where: Layout, command: str
) -> None:
    _git(where, "init", "-q")
    _git(where, "config", "core.worktree", str(where.root / where.other))
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")

    assert refusal(answer(where, "claude-code", "Bash", {"command": command})) is not None

    _bash(where, command)
    assert (where.root / where.other / "a.md").exists(), "bash wrote nothing there"


@pytest.mark.parametrize(
    "command",
    [
        'X=1 rm "$(git rev-parse --show-toplevel)/x"',
        'rm "$(cat other)" "$(git rev-parse --show-toplevel)/x"',
        'true; rm "$(git rev-parse --show-toplevel)/x"',
    ],
)
def test_p3_a_top_folder_after_an_assignment_or_another_expansion_stays_unknown(
    where: Layout, command: str
) -> None:
    """Each could change git's answer before the substitution runs."""
    _git(where, "init", "-q")
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None and "builds at run time" in reason


TOP_SCRIPTS = {
    "t1.sh": 'cd "$(git rev-parse --show-toplevel)"; echo x > out1.txt\n',
    "t4.sh": 'ROOT=$(git rev-parse --show-toplevel); cd "$ROOT"; echo x > out4.txt\n',
    "t8.sh": "cd `git rev-parse --show-toplevel`/src; echo x > out8.txt\n",
}
"""Scripts going to the top of their repository before writing there, as build and release
scripts do (more spellings: ``test_p3_everyday_scripts.py``): a relative write after that
``cd`` was refused as after a ``cd`` the guard cannot follow, though the same ``cd`` typed is
followed (git asked)."""


def test_p3_a_script_writing_at_the_top_its_git_names_passes(where: Layout) -> None:
    """Run from a folder below the top too, where git is asked as bash will ask it; bash
    writes at the top."""
    _git(where, "init", "-q")
    (where.workspace / "src").mkdir()
    for name, text in TOP_SCRIPTS.items():
        (where.workspace / name).write_text(text, encoding="utf-8")
    commands = ["cd src && bash ../t1.sh", "cd src && bash ../t4.sh", "bash t8.sh"]

    refused = {c: refusals_by_every_harness(where, c) for c in commands}

    assert {c: seen for c, seen in refused.items() if any(seen.values())} == {}
    _bash(where, "(cd src && bash ../t1.sh) && bash t8.sh")
    assert (where.workspace / "out1.txt").exists() and (where.workspace / "src/out8.txt").exists()


@pytest.mark.parametrize(
    "text",
    [
        'cd "$(git rev-parse --show-toplevel)"; echo x >> notes/a.md\n',
        'ROOT="$(git rev-parse --show-toplevel)"\ncd "$ROOT"\ncp /etc/hostname notes/a.md\n',
    ],
)
def test_p3_a_script_at_its_git_top_is_judged_there(where: Layout, text: str) -> None:
    """Followed to the top, the script's relative writes are judged from there: through the
    Workspace's link ``notes`` into another Workspace's scope is refused (bash writes there)."""
    _git(where, "init", "-q")
    (where.workspace / "src").mkdir()
    (where.workspace / "src/w.sh").write_text(text, encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, "cd src && bash w.sh")


_TOP_CD = 'cd "$(git rev-parse --show-toplevel)"; echo x > '
_SET_TOP = 'git config core.worktree "$(cat target)"'
_CFG = (
    "W=$(cat target)\nprintf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n"
    '\\tworktree = %s\\n\' "$W" '
)
"""A script writing ``.git/config`` anew with ``core.worktree`` pointing into another scope."""
GIT_TOP_MAY_CHANGE = {
    "bash s1.sh": f"{_SET_TOP}\n{_TOP_CD}s1.md\n",
    "bash s2.sh": f'export GIT_WORK_TREE="$(cat target)"\n{_TOP_CD}s2.md\n',
    "bash s3.sh": f". ./env.sh\n{_TOP_CD}s3.md\n",
    "bash w.sh; bash s4.sh": f"{_TOP_CD}s4.md\n",
    "for i in 1 2; do bash s5.sh; done": f"{_TOP_CD}s5.md; {_SET_TOP}\n",
    "bash s6.sh": f"for i in 1 2; do {_TOP_CD}s6.md; {_SET_TOP}; done\n",
    "bash -l s7.sh": f"{_TOP_CD}s7.md\n",
    'GIT_WORK_TREE="$(cat target)" bash s8.sh': f"{_TOP_CD}s8.md\n",
    "bash s9.sh > cfg": f"{_TOP_CD}s9.md\n",
    "bash s10.sh | tee .git/description": f"{_TOP_CD}s10.md\n",
    # before guardfix62b each below was let through by every harness (review guard62 B1/B2)
    "bash s11.sh": f"git() {{ cat target; }}\n{_TOP_CD}s11.md\n",
    "bash s12.sh": f"if {_SET_TOP}; then :; fi\n{_TOP_CD}s12.md\n",
    "bash s13.sh": f"! {_SET_TOP}\n{_TOP_CD}s13.md\n",
    "bash s14.sh": f"{{ {_SET_TOP}; }}\n{_TOP_CD}s14.md\n",
    "bash s15.sh": f'export GIT\\_WORK\\_TREE="$(cat target)"\n{_TOP_CD}s15.md\n',
    "bash s16.sh": f'declare -n r=GIT_WORK_TREE\nexport r="$(cat target)"\n{_TOP_CD}s16.md\n',
    "bash s17.sh": f'set -a\nW=$(cat target)\nprintf -v GIT\\_WORK\\_TREE %s "$W"\n{_TOP_CD}s17.md',
    "bash s18.sh": f'shopt -s expand_aliases\ndeclare BASH_ALIASES[git]="cat t #"\n{_TOP_CD}s18.md',
    "bash s29.sh": f'shopt -s expand_aliases\nalias git="cat target #"\n{_TOP_CD}s29.md',
    "bash s19.sh": f"hash -p bin/fg git\n{_TOP_CD}s19.md\n",
    "bash s20.sh": f"trap 'hash -p bin/fg git' ERR\nfalse\n{_TOP_CD}s20.md\n",
    "bash s21.sh": f"trap 'hash -p bin/fg git' DEB\\UG\n{_TOP_CD}s21.md\n",
    "bash s22.sh": f'printf -v P\\ATH %s "$PWD/bin:$PATH"\n{_TOP_CD}s22.md\n',
    "bash s23.sh": f"{_CFG}>& .git/config\n{_TOP_CD}s23.md\n",
    "bash s24.sh": f"{_CFG}>&.git/config\n{_TOP_CD}s24.md\n",
    "bash s25.sh": f"{_CFG}>\\.git/config\n{_TOP_CD}s25.md\n",
    "bash s26.sh": f"{_CFG}1<>.git/config\n{_TOP_CD}s26.md\n",
    "export GIT\\_WORK\\_TREE=$(cat target); bash s27.sh": f"{_TOP_CD}s27.md\n",
    "hash -p bin/fg git; source s28.sh": f"{_TOP_CD}s28.md\n",
}
"""A script's ``cd "$(git rev-parse --show-toplevel)"`` after a command that could change git's
answer (a setting, git's variables, a sourced file, another script the call runs first, a
loop running it again, a login shell's startup files): the top is known only at run time, and
a relative write after it stays refused, as typed after another command. So does a call
writing git's own files (``cfg`` a link to ``.git/config``) as it runs the script. Since
guardfix62b only a strict allowlist may stand before the ``cd`` (``named_scripts.
_git_answer_kept``): a function named ``git``, a command after a keyword, an escaped or
indirect name (``GIT\\_WORK\\_TREE``, a nameref, ``printf -v``), ``hash -p``, a ``trap``, an
alias, a redirection into ``.git/config`` past the old check each leave the top unknown."""


def test_p3_a_script_whose_git_top_may_change_before_its_cd_stays_unknown(
    where: Layout,
) -> None:
    _git(where, "init", "-q")
    (where.workspace / "target").write_text(str(where.root / where.other), encoding="utf-8")
    (where.workspace / "env.sh").write_text("true\n", encoding="utf-8")
    (where.workspace / "w.sh").write_text(f"{_SET_TOP}\n", encoding="utf-8")
    (where.workspace / "cfg").symlink_to(".git/config")
    (where.workspace / "bin").mkdir()
    for fake in ("bin/fg", "bin/git"):
        (where.workspace / fake).write_text("#!/bin/sh\ncat target\n", encoding="utf-8")
        (where.workspace / fake).chmod(0o755)
    for command, text in GIT_TOP_MAY_CHANGE.items():
        name = next(w for w in command.replace(";", " ").split() if w[:1] == "s" and "." in w)
        (where.workspace / name).write_text(text, encoding="utf-8")

    assert_each_refused_by_every_harness(
        where, list(GIT_TOP_MAY_CHANGE), "a cd into a folder known only"
    )
    proofs = (
        ("bash w.sh; bash s4.sh", "s4.md"),
        ("bash s6.sh", "s6.md"),
        ("bash s12.sh", "s12.md"),
    )
    for command, written in proofs:
        _bash(where, command)
        assert (where.root / where.other / written).exists(), "bash wrote nothing there"
        _git(where, "config", "--unset", "core.worktree")


def test_p3_a_script_at_a_git_top_in_another_scope_is_refused_where_git_points(
    where: Layout,
) -> None:
    _git(where, "init", "-q")
    _git(where, "config", "core.worktree", str(where.root / where.other))
    (where.workspace / "s.sh").write_text(TOP_SCRIPTS["t4.sh"], encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, "bash s.sh")
