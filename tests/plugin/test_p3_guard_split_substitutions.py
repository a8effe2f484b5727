"""P-3: an unquoted expansion bash splits into a program's name and arguments the guard never
saw is refused; the everyday printers of a path are not (round 58, guard58).

Bash splits the output of an unquoted ``$(…)`` (or backquotes, ``$(<f)``, a variable read at
run time) at white space. As a command's name, the pieces after the first are that program's
arguments: with ``~/w`` holding ``cp note.md <other scope>/x.md``, ``$(cat ~/w)`` runs that
copy, and every harness let it through. As an argument of a program whose options decide where
it writes or what it runs (``find``, ``tar``, ``sed``, ``env``), the pieces are
options the guard never read. Both are refused, by every harness, with a detail saying to
quote the substitution or name the program; a substitution printing a path from a literal
name (``$(which python3)``, ``$(npm bin)``, ``$(dirname "$0")`` …) is allowed unless a startup
file or the command redefines its program. One bash run proves the split writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    guarded_layout,
    refusals_by_every_harness,
)

SAYS = ("unquoted", 'quote it so it is one word ("$(…)")')
"""What every refusal of a split word tells the agent."""


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """The guard's layout with ``note.md`` in the Workspace, ``~/w`` holding a copy into the
    other scope and ``~/t`` a copy's options naming that scope as its target folder."""
    found = guarded_layout(tmp_path, monkeypatch)
    (found.workspace / "note.md").write_text("n\n", encoding="utf-8")
    (found.data / "w").write_text(fill("cp note.md {root}/{other}/x.md\n", found), "utf-8")
    (found.data / "t").write_text(fill("cp -t {root}/{other}\n", found), "utf-8")
    (found.data / "find").write_text(fill("-exec cp {{}} {root}/{other}/ ;\n", found), "utf-8")
    return found


def test_a_program_named_by_an_unquoted_substitution_is_refused(where: Layout) -> None:
    commands = [
        "$(cat ~/w)",
        "`cat ~/w`",
        "$(<~/w)",
        "$(cat ~/t) note.md",
        "$(cat ~/w)/x",
        "read x < ~/w; ${x}",
        "read x < ~/w; $x",
        "x=$(cat ~/w); $x",
        "ls && $(cat ~/w)",
        "if true; then $(cat ~/w); fi",
        "FOO=1 $(cat ~/w)",
        "bash -c '$(cat ~/t) note.md'",
        "sudo -u root sh -ec '`cat ~/w`'",
        "eval '$(cat ~/w)'",
    ]

    assert_each_refused_by_every_harness(where, commands, *SAYS)


def test_options_split_from_an_unquoted_substitution_are_refused(where: Layout) -> None:
    commands = [
        "find . -name note.md $(cat ~/find)",
        "tar $(cat ~/w)",
        "sed $(cat ~/w)",
        "env $(cat ~/w)",
        "sudo $(cat ~/w)",
        "command $(cat ~/w)",
        "exec $(cat ~/w)",
        "nice $(cat ~/w)",
        "cp $(cat ~/t) note.md",
        "cp $(cat ~/w) build/",
        "sudo -- $(cat ~/w)",
    ]

    assert_each_refused_by_every_harness(where, commands, *SAYS)


def test_a_loop_variable_over_literal_words_is_each_of_them(where: Layout) -> None:
    """``for x in ls pwd; do $x; done``: unquoted, ``$x`` is each literal word in turn, never
    split into more (round 59: every loop variable was taken as set at run time and refused);
    read as those words, a copy into the other scope so named is refused for where it writes.
    A loop over words built at run time, quoted or holding white space, a variable also read
    from a file, or a command setting ``IFS`` (also by a builtin, its name quoted: ``declare
    I\\FS=:``, or built at run time: ``declare I${z}FS=:``) still split."""
    everyday = [
        "for x in ls pwd; do $x; done",
        "for x in ls pwd; do $x -l; done",
        "for t in unit e2e\ndo make test-$t\ndone",
        'for f in *.md; do wc -l "$f"; done',
        "for f in *.md; do wc -l $f; done",
        'for n in 1 2; do echo "$n" >> {root}/{own}/runs.md; done',
    ]
    split = [
        "for x in $(cat ~/w); do $x; done",
        "for x in 'cp note.md {root}/{other}/x.md'; do $x; done",
        "for x in a b; do :; done; read x < ~/w; $x",
        "IFS=:; for x in cp:note.md:{root}/{other}/x.md; do $x; done",
        # ``IFS`` set by a builtin, its name quoted or built at run time (review of guard59)
        "declare I\\FS=:; for x in cp:note.md:{root}/{other}/x.md; do $x; done",
        "export I''FS=:; for x in cp:note.md:{root}/{other}/x.md; do $x; done",
        "read -r I''FS <<< ,; for x in cp,note.md,{root}/{other}/x.md; do $x; done",
        "z=; declare I${{z}}FS=:; for x in cp:note.md:{root}/{other}/x.md; do $x; done",
    ]
    allowed = {
        command: refusals_by_every_harness(where, fill(command, where)) for command in everyday
    }

    assert {c: seen for c, seen in allowed.items() if any(seen.values())} == {}
    assert_each_refused_by_every_harness(where, [fill(c, where) for c in split], *SAYS)
    assert_each_refused_by_every_harness(
        where,
        [fill("for x in cp; do $x note.md {root}/{other}/x.md; done", where)],
        "another Workspace's memory scope",
    )


PROGRAM_UNKNOWN = ("names the program", "known only at run time")
"""What every refusal of a program named by a variable set at run time tells the agent."""


def test_a_loop_variable_naming_the_program_is_each_literal_word_in_its_place(
    where: Layout,
) -> None:
    """``for x in bash; do "$x" ~/w; done`` runs ``bash ~/w`` (round 59: quoted, ``"$x"`` was a
    program the guard did not follow, and bash ran the copy into the other scope). Quoted or
    not, braced or not, a ``for`` or ``select`` loop's variable over literal words naming the
    program is judged as each word written in its place: as ``bash ~/w``, ``source ~/w``,
    ``xargs cp note.md < ~/t``, ``./s.sh``, each refused for what it runs or writes."""
    script = where.workspace / "s.sh"
    script.write_text(fill("cp note.md {root}/{other}/x.md\n", where), encoding="utf-8")
    script.chmod(0o755)
    commands = [
        'for x in bash; do "$x" ~/w; done',
        'for x in bash; do "${x}" ~/w; done',
        "for x in bash; do $x ~/w; done",
        'for x in ls bash; do "$x" ~/w; done',
        'for x in source; do "$x" ~/w; done',
        'for x in .; do "$x" ~/w; done',
        'for x in xargs; do "$x" cp note.md < ~/t; done',
        'for x in ./s.sh; do "$x"; done',
        "for x in ./s.sh; do $x; done",
        'select x in bash; do "$x" ~/w; done',
        'for d in a b; do for x in pwd bash; do "$x" ~/w; done; done',
        'x=bash; "$x" ~/w',
    ]

    assert_each_refused_by_every_harness(where, commands)
    assert_refused_by_every_harness_and_bash_writes(where, 'for x in bash; do "$x" ~/w; done')


def test_a_program_named_by_a_variable_set_at_run_time_is_refused(where: Layout) -> None:
    """Quoted, a variable naming the program is one word, but the program it names is known
    only at run time when the command reads it from a file (``while read x``, ``read x <``)
    or loops it over words that are not literal (a substitution, a glob, a quoted word) or
    over more than 8, or uses it after its loop: refused as unknown, as it is unquoted. (One
    assigned a substitution, ``d=$(echo cp); "$d" a b``, is a program named at run time like
    ``"$(echo cp)"``, judged by its words as before.)"""
    (where.workspace / "a.sh").write_text("echo a\n", encoding="utf-8")
    (where.workspace / "list").write_text("bash\n", encoding="utf-8")
    commands = [
        'for x in $(cat ~/w); do "$x" ~/w; done',
        'for x in *.sh; do "$x" ~/w; done',
        'for x in "bash -e"; do "$x" ~/w; done',
        "for x in 'bash'; do \"$x\" ~/w; done",
        'while read x; do "$x" ~/w; done < list',
        'while read -r x; do "${x}" ~/w; done < list',
        'read x < list; "$x" ~/w',
        'for x in bash; do :; done; "$x" ~/w',
        'for x in 1 2 3 4 5 6 7 8 bash; do "$x" ~/w; done',
    ]

    assert_each_refused_by_every_harness(where, commands, *PROGRAM_UNKNOWN)


def test_everyday_loops_and_programs_named_by_variables_stay_allowed(where: Layout) -> None:
    (where.workspace / "ok.sh").write_text("echo ok\n", encoding="utf-8")
    (where.workspace / "list").write_text("a\nb\n", encoding="utf-8")
    commands = [
        'for x in bash; do "$x" ok.sh; done',
        'for x in ls pwd; do "$x"; done',
        'select x in ls pwd; do "$x"; break; done',
        'x=bash; "$x" ok.sh',
        'for f in *.md; do wc -l "$f"; done',
        'for d in a b; do (cd "$d" && make); done',
        'for t in unit e2e; do npm run "test:$t"; done',
        'while read f; do echo "$f"; done < list',
        'while read -r f; do git add "$f"; done < list',
        'for py in python3; do "$py" -m pytest -q; done',
        '"$PYTHON" -m pytest -q',
    ]
    allowed = {command: refusals_by_every_harness(where, command) for command in commands}

    assert {c: seen for c, seen in allowed.items() if any(seen.values())} == {}


LOOP_PROGRAMS = [
    'for v in 3.11 3.12; do "python$v" -V; done',
    "for v in 3.11 3.12; do python$v -m pytest -q; done",
    "for c in sort uniq; do printf 'b\\na\\n' | \"$c\"; done",
    "for t in ruff mypy; do git ls-files '*.py' | xargs \"$t\"; done",
    "for t in ruff mypy; do git ls-files -z '*.py' | xargs -0 $t check; done",
    'for t in ruff mypy; do true && "$t" .; done',
    'for t in ruff mypy; do false || "$t" .; done',
    'for t in ruff mypy; do echo "$t"; "$t" .; done',
    'for t in ruff mypy; do echo $("$t" --version); done',
    "for t in ruff mypy; do echo `$t --version`; done",
    'for t in ruff mypy; do x=$("$t" --version); echo "$x"; done',
    'for t in ruff mypy; do time "$t" .; done',
    'for t in ruff mypy; do env "$t" .; done',
    'for t in ruff mypy; do nice "$t" .; done',
    'for t in ruff mypy; do command "$t" .; done',
    'for t in ruff mypy; do (exec "$t" .); done',
    'for t in ruff mypy; do if "$t" .; then echo ok; fi; done',
]
"""Loops whose variable names (part of) the program in places other than a command's first
word: a version glued to a name, after a pipe, ``xargs``, ``&&``, ``||``, ``;``, in ``$(…)``
or backquotes, after ``time``, ``env``, ``nice``, ``command``, ``exec``, ``if``."""


def test_a_loop_variable_naming_the_program_anywhere_is_each_literal_word_there(
    where: Layout,
) -> None:
    """P-3 (review of round 59): every place a loop's variable names a program is judged as
    each literal word the loop gives, written there: the everyday loops above are allowed by
    every harness (each was refused as a program known only at run time: a version glued to
    ``python``, a program after a pipe once a ``printf`` had run, ``xargs "$t"``, a
    substitution's program), while each such shape naming a writer into the other scope is
    refused, as is a loop over a quoted word (``"python3 -c"``) and the variable after a loop
    over several words (a ``break`` may leave it holding any: bash runs ``bash ~/w``)."""
    allowed = {command: refusals_by_every_harness(where, command) for command in LOOP_PROGRAMS}
    writing = [
        fill(command, where)
        for command in [
            'for v in 3; do "python$v" -c \'open("{root}/{other}/x", "w")\'; done',
            'for c in sort tee; do printf "a\\n" | "$c" {root}/{other}/x.md; done',
            'for t in tee; do echo a | xargs "$t" {root}/{other}/x.md; done',
            'for t in tee; do echo {root}/{other}/x.md | xargs "$t"; done',
            'for t in tee; do true && "$t" {root}/{other}/x.md; done',
            'for t in tee; do echo $(echo a | "$t" {root}/{other}/x.md); done',
            'for t in tee; do echo `"$t" {root}/{other}/x.md`; done',
            'for t in tee; do env "$t" {root}/{other}/x.md; done',
            'for t in tee; do (exec "$t" {root}/{other}/x.md); done',
            'for x in bash; do echo cp note.md {root}/{other}/x.md | "$x"; done',
            'for p in "python3 -c"; do $p \'open("{root}/{other}/x", "w")\'; done',
            'for x in ls bash; do "$x" -c :; break; done; "$x" ~/w',
            'for x in bash ls; do echo "-$x"; break; done; "$x" ~/w',
        ]
    ]

    assert {c: seen for c, seen in allowed.items() if any(seen.values())} == {}
    assert_each_refused_by_every_harness(where, writing)
    assert_refused_by_every_harness_and_bash_writes(
        where, 'for x in bash ls; do "$x" -c :; break; done; "$x" ~/w'
    )


def test_the_split_writes_where_the_guard_did_not_look(where: Layout) -> None:
    assert_refused_by_every_harness_and_bash_writes(where, "$(cat ~/t) note.md")


def test_path_printers_quoted_words_and_file_lists_are_allowed(where: Layout) -> None:
    commands = [
        "$(which python3) -m pytest -q",
        "$(command -v node) x.js",
        '"$(git rev-parse --show-toplevel)"/scripts/x.sh',
        "$(git rev-parse --show-toplevel)/scripts/x.sh",
        "$(npm bin)/eslint .",
        "$(go env GOPATH)/bin/tool",
        "$(brew --prefix)/bin/x",
        "$(pyenv which python) -V",
        '$(dirname "$0")/run.sh',
        '$(dirname "$(realpath "$0")")/run.sh',
        "`which node` x.js",
        "$(poetry env info -p)/bin/python -V",
        '"$(cat ~/w)"',
        "PY=python3; $PY -m pytest -q",
        "$PYTHON -m pytest -q",
        'eval "$(pyenv init -)"',
        "bash -c 'echo $(cat ~/w)'",
        "echo $(cat ~/w) && kill $(pgrep -f no-such-server)",
        "cp -- $(ls *.md) build/",
        "make -j$(nproc) && echo $((1 + 2))",
        'for f in $(ls *.md); do wc -l "$f"; done',
        "cat <<EOF > out.txt\n$(cat ~/w)\nEOF",
    ]

    allowed = {command: refusals_by_every_harness(where, command) for command in commands}

    assert {c: seen for c, seen in allowed.items() if any(seen.values())} == {}


def test_a_redefined_printer_prints_what_its_definition_prints(where: Layout) -> None:
    (where.data / ".profile").write_text("which() { cat ~/w; }\n", encoding="utf-8")

    by_profile = refusals_by_every_harness(where, "$(which python3) -m pytest -q")
    assert_each_refused_by_every_harness(where, ["which() { cat ~/w; }; $(which python3)"], *SAYS)

    assert {harness for harness, reason in by_profile.items() if reason} == {
        "codex",
        "claude-code",
    }  # Gemini CLI's bash -c runs no ~/.profile
