"""P-3: a value bash puts into an interpreter's code is code unless the guard can tell it.

``mk.py`` makes ``lnk`` lead into another Workspace's scope (its folder read from ``target``
at run time). A value the command fills at run time and puts into the code bash hands an
interpreter, even inside the code's own quotes (``python3 -c "open('$f')"``), holds whatever
a file name, a line or a command's output holds: a quote ends the string and the rest runs as
code (``x'+str(__import__('mk'))+'.txt``). So such code stays unknown to the guard, and the
refusal now says how to write it instead (the value as an argument, ``sys.argv[1]``); a loop
over a pattern's matches (``for f in *.txt``) is such a value too: it passed, and bash ran
``mk`` through a file's name. Code printed into an interpreter's pipe, a here-document holding
a command substitution and a script fed on standard input with arguments stay unknown code: a
first reading of each (round 55) let through forms a reviewer ran with bash into the other
scope (``printf -- 'import mk\\n' | python3``, brace expansion and globs in echo's words, an
``echo`` or ``date`` function, ``./nproc`` on ``PATH``, ``TZ`` with ``date +%Z``, ``bash -s
-- python3 mk.py < run.sh``, ``BASH_ENV``, a later ``<&3``). Each refused form is refused by
every harness in this process; three are run by one bash, which writes into the other scope:
the gaps are real.
"""

from __future__ import annotations

from tests.support.guard_cases import (
    Layout,
    bash_writes_through_lnk,
    fill,
    let_through,
    refusals_by_every_harness,
    refused_before_new_writes,
)

MAKES_LINK = "import os; os.symlink(open('target').read().strip(), 'lnk')\n"
"""``mk.py``: makes ``lnk`` lead where the file ``target`` says (no memory named)."""
QUOTED_NAME = "x'+str(__import__('mk'))+'.txt"
"""A file's name holding quotes: put inside ``open('…')`` it imports ``mk``."""

VALUES_THAT_ARE_CODE = [
    "for f in *.txt; do python3 -c \"open('$f')\" 2>/dev/null; done; echo x > lnk/a.md",
    "echo 'import mk' | python3 && echo x > lnk/a.md",
    "echo -e '\\x69mport mk' | python3 && echo x > lnk/a.md",
    "printf '%b' '\\x69mport mk' | python3 && echo x > lnk/a.md",
    "echo \"import os; os.symlink(open('target').read().strip(), 'lnk')\" | python3"
    " && echo x > lnk/a.md",
    "ls *.txt | while read f; do python3 -c \"open('$f')\"; done; echo x > lnk/a.md",
    "f=\"x'+str(__import__('mk'))+'\"; python3 -c \"open('$f')\"; echo x > lnk/a.md",
    "for f in [x]*.txt; do node -e \"require('fs').statSync('$f')\"; done; echo x > lnk/a.md",
    "echo 'print(1)' | python3 <<< 'import mk' && echo x > lnk/a.md",
    "exec 3<mk.py; echo 'print(1)' | python3 <&3 && echo x > lnk/a.md",
]
"""Values put into code that run as code: a pattern loop's file name holding quotes (it
passed: ``for f in *.txt`` was read as the literal ``*.txt``), code ``echo`` prints into the
pipe (a local module, an escape, a ``printf`` directive, a link text), a line ``read`` gives,
a literal holding quotes; and code fed past the pipe (a here-string, a descriptor), which the
first reading of echo's pipe let through."""
PROVED_BY_BASH = [VALUES_THAT_ARE_CODE[at] for at in (0, 2, 3)]
"""Three of them, run by one bash: each really writes into the other scope."""

FIRST_READING_LET_THROUGH = [
    "printf -- 'import mk\\n' | python3 && echo x > lnk/a.md",
    "printf -- '%s\\n' 'import mk' | python3 && echo x > lnk/a.md",
    "echo 'import m'{'k #',} | python3 && echo x > lnk/a.md",
    "echo 'import' mk.p[y] | python3; echo x > lnk/a.md",
    "echo() { cat mk.py; }; echo 'print(1)' | python3 && echo x > lnk/a.md",
    "echo 'print(1)' | PYTHONSTARTUP=mk.py python3 -i && echo x > lnk/a.md",
    "date() { cat mk.py; }; python3 <<EOF && echo x > lnk/a.md\n$(date)\nEOF",
    "PATH=.:$PATH; python3 <<EOF && echo x > lnk/a.md\n$(nproc)\nEOF",
    "export TZ='<mkl>0'; python3 <<EOF && echo x > lnk/a.md\nimport $(date +%Z)\nEOF",
    "bash -s -- python3 mk.py < run.sh && echo x > lnk/a.md",
    'bash -s -- a < install.sh <<< "$(cat mk.sh)" && echo x > lnk/a.md',
    "exec 3<mk.sh; bash -s -- a < install.sh <&3 && echo x > lnk/a.md",
    "BASH_ENV=mk.sh bash -s -- a < install.sh && echo x > lnk/a.md",
]
"""Forms a first reading of echo's pipe, of a here-document's substitutions and of a script fed
on standard input let through (review55e: bash wrote through ``lnk`` with each): refused, as
code the guard cannot read."""

EVERYDAY = [
    "python3 -c 'print(\"`x`\")'",
    "for f in $(git ls-files '*.py'); do"
    " python3 -c 'import ast,sys; ast.parse(open(sys.argv[1]).read())' \"$f\"; done",
    "while read l; do python3 -c 'import sys; print(sys.argv[1])' \"$l\"; done < a.txt",
    "V=$(git describe); python3 -c 'import sys; print(sys.argv[1])' \"$V\"",
    "for f in *.json; do python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \"$f\"; done",
]
"""Everyday forms before a write into a new folder or a new topic file: backquotes inside
single-quoted code, and the way the refusal names for a value filled at run time (an
argument, ``sys.argv[1]``)."""

FILLED_VALUES = {
    "for f in $(git ls-files '*.py'); do"
    " python3 -c \"import ast,sys; ast.parse(open('$f').read())\"; done": "$f",
    "while read l; do python3 -c \"print('$l')\"; done < a.txt": "$l",
    "V=$(git describe); python3 -c \"print('$V')\"": "$V",
    "for f in *.json; do python3 -c \"import json; json.load(open('$f'))\"; done": "$f",
}
"""Everyday forms whose value (a file name, a line, a tag) may hold a quote: each stays
refused, by the variable it names."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "mk.py").write_text(MAKES_LINK, encoding="utf-8")
    (work / QUOTED_NAME).write_text("", encoding="utf-8")
    (work / "install.sh").write_text("echo installing\nmkdir -p build\n", encoding="utf-8")
    (work / "run.sh").write_text('"$@"\n', encoding="utf-8")
    (work / "mk.sh").write_text('ln -s "$(cat target)" lnk\n', encoding="utf-8")
    (work / "mkl.py").write_text(MAKES_LINK, encoding="utf-8")
    nproc = work / "nproc"
    nproc.write_text("#!/bin/sh\ncat mk.py\n", encoding="utf-8")
    nproc.chmod(0o755)
    (work / "a.txt").write_text("a\n", encoding="utf-8")
    (work / "a.json").write_text("{}\n", encoding="utf-8")


def test_p3_a_value_put_into_code_or_code_printed_into_a_pipe_is_read_or_refused(
    where: Layout,
) -> None:
    _prepared(where)

    assert let_through(where, VALUES_THAT_ARE_CODE) == {}
    assert let_through(where, FIRST_READING_LET_THROUGH) == {}
    env = {"PATH": "/usr/bin:/bin", "HOME": str(where.root)}
    written = bash_writes_through_lnk(where, PROVED_BY_BASH, env=env)
    assert written >= {f"{at}.md" for at in range(len(PROVED_BY_BASH))}


def test_p3_everyday_code_fed_or_given_values_as_arguments_passes(where: Layout) -> None:
    _prepared(where)

    assert refused_before_new_writes(where, EVERYDAY) == {}


def test_p3_a_value_filled_at_run_time_in_code_is_refused_naming_the_argument_way(
    where: Layout,
) -> None:
    _prepared(where)
    write = fill("echo x >> {root}/{own}/new.md", where)

    for code, name in FILLED_VALUES.items():
        reasons = refusals_by_every_harness(where, f"{code}\n{write}")
        for reason in reasons.values():
            assert reason is not None, code
            assert f"{name} is filled when the command runs" in reason, reason
            assert f"python3 -c 'import sys; …sys.argv[1]…' \"{name}\"" in reason, reason
