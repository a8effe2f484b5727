"""P-3: a here-document's body and a here-string's word are data a command reads, not command
text; and a newline ends a command as ``;`` does.

The guard read a body as more of the command: ``tee log.md <<EOF`` took every word of its body
for a file ``tee`` writes, and a body saying ``cd "$(git rev-parse --show-toplevel)" && make >
out.txt`` was refused as a write to a place built at run time, though bash only prints it into
the file. What of here-data still runs or may still be a path stays judged: the command
substitutions an unquoted body or a here-string runs, a body fed to a shell (``bash <<EOF``,
``cat <<EOF | sh``, ``source /dev/stdin``), and each word of the data, which the program
reading it may take as a path (``patch``, ``python -``). Where the guard is not sure it reads
the body as bash does (a line continuation before the delimiter, ``EOF)`` inside ``$(…)``,
``<<`` in arithmetic or a comment), it reads the command as written, as before.

A newline was read as white space: ``true`` then ``cp x "$(cat target)"/a.md`` on the next line
was one ``true`` command whose ``cp`` was an operand, so the run-time destination passed (and
bash wrote into the other scope); a comment holding ``don't`` hid the lines after it the same
way. Each refused form is run by bash, which writes into the other scope; each passing form is
run by bash, which writes only where the guard read it would.
"""

from __future__ import annotations

import subprocess

import pytest
from harness_memory.hooks.here_data import here_data

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answers_of_every_harness,
    fill,
    refusals_by_every_harness,
)


def _prepared(where: Layout) -> None:
    """``target`` holds the other scope's folder, read when a command runs; ``note.md`` is a
    file to copy."""
    (where.workspace / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")


def _bash(where: Layout, command: str) -> set[str]:
    """Run ``command`` with bash in the Workspace; the names it added to the other scope."""
    other = where.root / where.other
    before = {path.name for path in other.iterdir()}
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(where.data)}
    subprocess.run(
        ["bash", "-c", command], cwd=where.workspace, env=environment, capture_output=True
    )
    return {path.name for path in other.iterdir()} - before


DATA_ONLY = [
    "tee out.md <<EOF\n$(git describe 2>/dev/null)\nEOF",
    'cat > out.md <<EOF\nRun: cd "$(git rev-parse --show-toplevel)" && make > out.txt\nEOF',
    "cat >> out.md <<EOF\n## $(date +%F)\n- rm -rf build/, then cp note.md $(cat target)\nEOF",
    "cat <<'EOF' > out.md\necho x > $(cat target)/a.md; mv build /tmp/h\nEOF",
    "cat > out.md <<-EOF\n\ttouch $UNSET_VARIABLE/a.md\n\tEOF",
    'tee -a out.md <<< "$(date) wrote > $(hostname)"',
    "cat <<EOF > out.md\n$(date) > $(echo x)\nEOF",
    "cat <<A > out.md <<B\ntee $(cat target)/a.md\nA\ncp note.md $(cat target)/b.md\nB",
    ": <<'COMMENT'\ncp note.md $(cat target)/a.md\nCOMMENT\ncat note.md > out.md",
    # each read as written until this stop (the reader was unsure), so refused
    "cat > out.md <<EOF\nIn this case run: make > $(cat target)/a.md\nEOF",
    "case $# in 0) echo none;; esac; cat > out.md <<EOF\nmake > $(cat target)/a.md\nEOF",
    "cat > out.md <<EOF\nEOFs: make > $(cat target)/a.md\nEOF",
    "python3 - <<PY > out.md\nPYTHONPATH = 1\nprint('make > $(cat target)/a.md')\nPY",
    "cat > out.md <<EOF\ndocker run \\\n  -v x img > $(cat target)/a.md\nEOF",
    "cat > out.md <<EOF\nEO\\\nFs > $(cat target)/a.md\nEOF",
    'tee out.md <<< "fix: x\n\nRun: make > $(cat target)/a.md"',
    "tee out.md <<< 'one\ntwo: cp note.md $(cat target)/a.md'",
]
"""Bodies and here-strings that speak of writes: bash writes only ``out.md`` (each once
refused)."""


@pytest.mark.parametrize("command", DATA_ONLY)
def test_p3_a_here_documents_body_is_data_not_command_text(where: Layout, command: str) -> None:
    """Each harness's hook lets the command through; bash then runs it once (what it writes
    does not depend on the harness that judged it) and writes nothing into the other scope."""
    _prepared(where)

    answers = answers_of_every_harness(where, command)

    assert answers == dict.fromkeys(SHELL), (command, answers)
    assert _bash(where, command) == set()
    assert (where.workspace / "out.md").exists()


STILL_WRITES = [
    # what an unquoted body or a here-string runs
    "cat > out.md <<EOF\n$(cp note.md $(cat target)/a.md)\nEOF",
    "cat > out.md <<EOF\n`cp note.md {root}/{other}/a.md`\nEOF",
    "cat > out.md <<< $(cp note.md $(cat target)/a.md)",
    # a body a shell runs
    "bash <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    "rbash <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    "cat <<'EOF' | sh\ncp note.md $(cat target)/a.md\nEOF",
    "source /dev/stdin <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    "eval \"$(cat <<'EOF'\ncp note.md $(cat target)/a.md\nEOF\n)\"",
    "$BASH <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    # … over several lines: the pipe, the shell or the loop on another line than the operator
    "cat <<'EOF' |\ncp note.md $(cat target)/a.md\nEOF\nsh",
    "cat <<'EOF' \\\n| sh\ncp note.md $(cat target)/a.md\nEOF",
    "bash \\\n<<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    "{{\n  bash\n}} <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    "while read -r l; do\n  eval \"$l\"\ndone <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    # a program handing the body's lines to a shell: sed's e, a make recipe, awk's system
    "sed e <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    "make -f - <<'EOF'\nall:\n\tcp note.md $$(cat target)/a.md\nEOF",
    "awk '{{ system($0) }}' <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    # a shell spelt so that no word of the command names one, or a script the body wrote
    "/bin/[b]ash <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    "b\"as\"h <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    "shopt -s expand_aliases; alias x=bash\nx <<'EOF'\ncp note.md $(cat target)/a.md\nEOF",
    "cat > s.sh <<'EOF'\ncp note.md $(cat target)/a.md\nEOF\nchmod +x s.sh && ./s.sh",
    # a path in the data, which the program reading it writes
    "python3 - <<'PY'\nopen('{root}/{other}/a.md', 'w').write('x')\nPY",
    # not a body for bash: read as command text
    "cat <<EOF\nEO\\\nF\ncp note.md $(cat target)/a.md\nEOF",
    "echo hi # <<EOF\ncp note.md $(cat target)/a.md\nEOF",
    "x=$(cat <<EOF\nfoo\nEOF)\ncp note.md $(cat target)/a.md\nEOF",
    "(( y = 1 << 2 ))\ncp note.md $(cat target)/a.md\n2",
    "echo $(( 1 <<2 ))\ncp note.md $(cat target)/a.md\n2",
    # after a body: the next line is a command again
    "cat <<A <<B\nx\nA\ny\nB\ncp note.md $(cat target)/a.md",
    'echo "$(cat <<EOF\ny\nEOF\n)"\ncp note.md $(cat target)/a.md',
    "exec 3<<EOF\nx\nEOF\ncp note.md $(cat target)/a.md",
    # the readings of this stop: a case's patterns, continued body lines, a line starting with
    # the delimiter, a here-string over several lines
    "case x in x) bash <<'EOF' ;; esac\ncp note.md $(cat target)/a.md\nEOF",
    "case x in x) cat <<'EOF' | sh ;; esac\ncp note.md $(cat target)/a.md\nEOF",
    "cat <<EOF\nx\n\\\nEOF\ncp note.md $(cat target)/a.md\nEOF",
    "cat > out.md <<EOF\nEOFs\n$(cp note.md $(cat target)/a.md)\nEOF",
    'tee out.md <<< "x\n$(cp note.md "$(cat target)"/a.md)"',
    'cat > out.md <<EOF\n$(cp note.md "$(cat target)"/a.md)\nEOF',
]
"""Here-data forms that still write into the other scope when bash runs them."""


@pytest.mark.parametrize("command", STILL_WRITES)
def test_p3_what_here_data_runs_or_names_is_still_judged(where: Layout, command: str) -> None:
    """Each harness's hook refuses the command; bash then runs it once and it writes into the
    other scope."""
    _prepared(where)
    shell = fill(command, where)

    reasons = refusals_by_every_harness(where, shell)

    for harness, reason in reasons.items():
        assert reason is not None and reason.startswith("Agent Memory write guard: "), (
            harness,
            shell,
        )
    assert _bash(where, shell), f"bash wrote nothing into the other scope: {shell}"


NEXT_LINE = [
    'true\ncp note.md "$(cat target)"/a.md',
    'true\ntee "$(cat target)"/a.md < note.md',
    "true\ntouch $(cat target)/a.md",
    "cat <<EOF >/dev/null\nx\nEOF\ncp note.md $(cat target)/a.md",
    "# don't worry, nothing here\ncp note.md $(cat target)/a.md",
    "echo ok # it's fine\ncp note.md $(cat target)/a.md",
    'echo ${x:- #}; cp note.md "$(cat target)"/a.md',  # no comment inside ${…}
    # a body's quote left open (a body read as command text: a case in the command)
    "cat <<EOF\ndon't\nEOF\ntouch $(cat target)/a.md",
    "case x in y) ;; esac; cat <<EOF\ndon't\nEOF\ntouch $(cat target)/a.md",
]
"""A command on a line of its own: each was let through (the lexer read the newline as white
space, or a comment's quote as a quote) and bash wrote into the other scope."""


@pytest.mark.parametrize("command", NEXT_LINE)
def test_p3_a_newline_ends_a_command_for_the_guard_as_for_bash(where: Layout, command: str) -> None:
    """Each harness's hook refuses the command; bash then runs it once and it writes into the
    other scope."""
    _prepared(where)

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None and "builds at run time" in reason, (harness, command)
    assert _bash(where, command), f"bash wrote nothing into the other scope: {command}"


@pytest.mark.parametrize("shell", ["rbash", "bash5.2", "zsh-5.9", "/opt/bin/tcsh", "yash"])
def test_p3_a_body_fed_to_any_shell_stays_command_text(shell: str) -> None:
    """A shell the machine may hold under another name (``rbash``, which Debian installs; a
    name with its version) runs its here-document: the body is read as command text."""
    command = f"{shell} <<'EOF'\ncp note.md $(cat target)/a.md\nEOF"

    assert here_data(command).command == command
