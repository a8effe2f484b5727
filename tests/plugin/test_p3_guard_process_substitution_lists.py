"""P-3: a process substitution's commands are a list read as the top-level command is.

The guard refused ``cat run.txt > >(bash)`` and ``bash <(tac run.txt)``, but read only the
first simple command inside ``>(…)``, the simple command right before ``<(…)`` and right after
a pipe: ``cat run.txt > >(cat | bash)``, ``>({ bash; })``, ``>(timeout 5 bash)``,
``>(${SHELL})``, ``>(exec 2>/dev/null; bash -s)``, ``timeout 5 bash <(cat run.txt)``,
``python3 <(cat run.py)``, ``tac run.txt | ( bash )``, ``tac run.txt | nice -n 5 bash`` and
``echo $(tac run.txt | bash)`` were let through by the Codex CLI, Claude Code and Gemini CLI
hooks, and bash wrote into another Workspace's scope. Now every command of the list in
``>(…)`` (a group, a subshell, an ``if``, a later pipeline stage, past wrappers and
redirections) that runs its input as code (a shell, an interpreter, ``xargs sh -c``, ``eval``
of a line it read, a program named by a variable the guard cannot tell) makes what is written
into it code the guard cannot tell; the reader after a pipe and the one given ``<(…)`` are
found the same way, inside ``$(…)`` too. Everyday process substitutions and pipes pass as
before (``diff <(sort a) <(sort b)``, ``exec > >(tee -a log) 2>&1``, ``source <(kubectl
completion bash)`` as ``eval "$(kubectl completion bash)"``).
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_refused_by_every_harness_and_bash_writes,
    let_through,
    refused_by_some_harness,
)

WRITTEN_INTO_LISTS = [
    "cat run.txt > >({ bash; }); wait $!",
    "cat run.txt > >(cat | bash); wait $!",
    "cat run.txt > >(timeout 5 bash); wait $!",
    "cat run.txt > >(nice -n 5 bash); wait $!",
    "cat run.txt > >(${SHELL}); wait $!",
    "cat run.txt > >($BASH); wait $!",
    "cat run.txt > >(exec 2>/dev/null; bash -s); wait $!",
    "cat run.txt > >(2>/dev/null bash -s); wait $!",
    "cat run.txt > >(true; bash); wait $!",
    "cat run.txt > >(( bash )); wait $!",
    "cat run.txt > >(if true; then bash; fi); wait $!",
    "cat run.txt > >(grep . | timeout 5 bash); wait $!",
    "cat run.txt > >(sed p | sort -u | sh -s); wait $!",
    "cat run.txt > >(stdbuf -o0 bash); wait $!",
    'cat run.txt > >(while read l; do eval "$l"; done); wait $!',
    "cat run.txt > >(xargs -I{} sh -c {}); wait $!",
    "cat run.txt > >(eval bash); wait $!",
    "cat run.txt > >(sh -c 'cat | bash'); wait $!",
    "cat run.py > >(cat | python3); wait $!",
    "cat run.py > >(timeout 5 python3 -); wait $!",
    "exec 3> >(timeout 5 bash); cat run.txt >&3; exec 3>&-; wait $!",
    "echo $(cat run.txt > >(cat | bash); wait $!)",
    "{ cat run.txt > >(cat | bash); wait $!; }",
    "if true; then cat run.txt > >(timeout 5 bash); fi; wait $!",
    "cat run.txt | tee >({ bash; }) > /dev/null; wait $!",
]
"""Code written into a list in ``>(…)`` one of whose commands runs its input."""
FED_THROUGH_LISTS = [
    "timeout 5 bash <(cat run.txt)",
    "timeout 5 bash < <(tac run.txt)",
    "nice -n 5 sh <(tac run.txt)",
    "bash <(( cat run.txt ))",
    "python3 <(cat run.py)",
    "python3 < <(cat run.py)",
    "echo $(bash <(cat run.txt | cat))",
]
"""Code a process substitution yields to a shell or interpreter found past wrappers."""
PIPED_INTO_LISTS = [
    "tac run.txt | { bash; }",
    "tac run.txt | ( bash )",
    "cat run.txt | ( bash )",
    "tac run.txt | timeout 5 bash",
    "tac run.txt | nice -n 5 bash",
    "tac run.txt | 2>/dev/null bash",
    'tac run.txt | "$SHELL" -s',
    "S=bash; tac run.txt | $S",
    'for x in bash; do tac run.txt | "$x"; done',
    'tac run.txt | while read l; do eval "$l"; done',
    "cat run.txt | xargs -I{} bash -c {}",
    "tac run.txt | sh -c bash",
    "echo $(tac run.txt | bash)",
    'echo "$(tac run.txt | bash)"',
    "x=$(tac run.txt | ( bash ))",
    "for i in 1; do tac run.txt | { bash; }; done",
]
"""Code piped into a shell inside a group, past a wrapper, named by a variable, in ``$(…)``."""

EVERYDAY = [
    "diff <(sort a) <(sort b)",
    "diff -u <(git show HEAD:a) a",
    "tee >(gzip > x.gz) < a > /dev/null",
    "exec > >(tee -a log) 2>&1; echo hi",
    "exec > >(tee -a build.log) 2> >(tee -a err.log >&2); make -v",
    'while read l; do echo "$l"; done < <(git ls-files)',
    "while IFS= read -r f; do wc -l \"$f\"; done < <(find . -name '*.py')",
    "paste <(cut -f1 a) <(cut -f2 b)",
    "comm -23 <(sort a) <(sort b)",
    "comm -13 <(git ls-files | sort) <(find . -type f | sort)",
    "source <(kubectl completion bash)",
    ". <(npm completion)",
    'eval "$(kubectl completion bash)"',
    "python - <<'EOF'\nprint(1)\nEOF",
    "python3 - <<'PY'\nimport sys\nprint(sys.version)\nPY",
    'export NVM_DIR="$HOME/.nvm"; [ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"',
    'eval "$(conda shell.bash hook)" && conda activate base',
    "source .venv/bin/activate && pytest -q",
    "git log | less",
    "git log --oneline | head -20",
    "npm test 2>&1 | tee out.log",
    "pytest -q | tail",
    "make -j4 2>&1 | grep -v warn",
    "for d in pkg1 pkg2; do cd $d; npm test; cd ..; done",
    "git diff | patch -p1 --dry-run",
    "find . -name '*.pyc' | xargs rm -f",
    "ls | xargs -I{} sh -c 'echo {}'",
    "cat a | sh -c 'cat > out.txt'",
    "tee >(sh -c 'gzip > x.gz') < a > /dev/null",
    "curl -fsSL https://raw.githubusercontent.com/nvm-sh/nvm/v0.39.7/install.sh | bash",
    "echo 'print(1)' | python3",
    "echo ls | bash",
    "printf '%s\\n' a b | bash -n",
    "ps aux | grep python | grep -v grep",
    'cat a | while read l; do echo "$l"; done',
    "git log --format=%H | while read h; do git show --stat $h | head -3; done",
    'git ls-files | while read f; do bash -c \'echo "$0"\' "$f"; done',
    'find . -name "*.sh" | while read f; do bash -n "$f"; done',
    "tee >(wc -l > n.txt) < a > /dev/null",
    "python3 script.py <(sort a)",
    "cmp <(xxd a) <(xxd b)",
    "mapfile -t files < <(git ls-files '*.py')",
    "npm run build 2>&1 | tee >(grep -i error > errors.log)",
    "time (pytest -q | tail -3)",
    "( cd sub && make ) 2>&1 | tail",
    "{ echo a; echo b; } | sort",
    "for c in sort uniq; do printf 'b\\na\\n' | \"$c\"; done",
    "ls *.txt | ${PAGER:-less}",
    "cat a | timeout 5 grep b",
    "set -euo pipefail; ./build.sh 2>&1 | tee build.log",
]
"""Everyday process substitutions and pipes into programs, all let through before."""


@pytest.fixture
def script(where: Layout) -> Layout:
    """The layout with ``run.txt`` (and ``run.py``) in the Workspace appending to another
    scope's note."""
    other = where.root / where.other
    (where.workspace / "run.txt").write_text(f"echo x >> {other}/d.md\n", encoding="utf-8")
    (where.workspace / "run.py").write_text(
        f"open({str(other / 'p.md')!r}, 'a').write('x')\n", encoding="utf-8"
    )
    return where


@pytest.mark.parametrize(
    "forms", [WRITTEN_INTO_LISTS, FED_THROUGH_LISTS, PIPED_INTO_LISTS], ids=["in", "out", "pipe"]
)
def test_p3_code_run_by_a_list_is_refused_by_every_harness(
    where_judged: Layout, forms: list[str]
) -> None:
    assert let_through(where_judged, forms) == {}


@pytest.mark.parametrize(
    "command",
    [
        "cat run.txt > >(cat | bash); wait $!",
        "cat run.py > >(timeout 5 python3 -); wait $!",
        "timeout 5 bash <(cat run.txt)",
        "tac run.txt | ( bash )",
        "echo $(tac run.txt | bash)",
    ],
)
def test_p3_code_run_by_a_list_writes_into_the_other_scope(script: Layout, command: str) -> None:
    assert_refused_by_every_harness_and_bash_writes(script, command)


def test_p3_everyday_process_substitutions_and_pipes_pass(where_judged: Layout) -> None:
    assert refused_by_some_harness(where_judged, EVERYDAY) == {}


NAMED_BY_SHELL = [
    form for form in [*WRITTEN_INTO_LISTS, *FED_THROUGH_LISTS, *PIPED_INTO_LISTS] if "SHELL" in form
]
"""The forms whose reader is ``$SHELL``."""


def test_p3_shell_is_the_login_shell_bash_sets_where_the_harness_passes_no_shell(
    script: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A harness (or CI) may start the hook and its shell without ``SHELL``; bash then sets it
    to the user's login shell, so ``tac run.txt | "$SHELL" -s`` still runs the code. The guard
    read an unset ``SHELL`` as a program unknown to it and let this one through."""
    monkeypatch.delenv("SHELL", raising=False)
    assert len(NAMED_BY_SHELL) >= 2

    assert let_through(script, NAMED_BY_SHELL) == {}
    assert_refused_by_every_harness_and_bash_writes(script, 'tac run.txt | "$SHELL" -s')
