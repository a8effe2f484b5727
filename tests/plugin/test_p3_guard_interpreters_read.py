"""P-3: an interpreter's script is read however the interpreter is named, and a project's own
modules are read up to a medium project's size.

``mk.py`` (``mk.js``, ``mk.pl``) makes ``lnk`` lead into another Workspace's scope, its folder
read from ``target`` at run time. An interpreter named by its path (``.venv/bin/python mk.py``,
``/usr/bin/node mk.js``, ``$(command -v python3) mk.py``) was taken for the script itself: the
binary was read, not ``mk.py``, and the write through ``lnk`` was let through. Each is refused
by every harness in this process; a handful is then run by one bash, which writes into the
other scope: the gaps were real.

The modules a script imports were bounded by every name it imports, the standard library's
too: ``python3 main.py && mkdir -p out && echo x > out/a.txt`` was refused when ``main.py``
imported 70 small local modules, or 40 importing 15 standard modules each. Only local files
count toward the bound, which a medium project's few hundred modules stay under; past it the
command is still refused. An interpreter that only checks its script's syntax (``find . -name
'*.sh' -exec bash -n {} \\;``, ``node --check``, ``ruby -c``, ``php -l``) runs none of it and
passes again; ``perl -c`` (its ``BEGIN`` blocks run) stays refused. A name ``find`` or
``xargs`` gives at run time inside a word (``python3 ./{}``, ``mk{}py``) or as xargs' replace
string (``xargs -I X python3 X``, ``sh -c 'python3 X'``) names the interpreter's script at
run time: refused as ``python3 {}`` was. Python's code options in a bundle (``-Sc``, ``-Bm``),
an import after ``;`` or ``:``, ``from pkg import helper`` (``pkg/helper.py``), ``from .
import x``, and code loading a file or module it names as a string (``f = open("mk.py");
exec(f.read())``, ``runpy.run_module("mk")``, ``-m runpy mk``) are read too; code loading only
strings naming no local file passes. node 20's valued options the guard's table lacked
(``--test-reporter spec mk.js``) hid the script; ``node -pe CODE`` and ``perl -Mmkp`` (a
module file beside it) were never read.

Code fed to an interpreter named by its path was let through where the bare name was refused
(``cat mk.py | /usr/bin/python3``, ``… | .venv/bin/python``, ``/usr/bin/python3 <<< "$(cat
mk.py)"``), and so was a here-string built at run time for the bare name too. A file fed on
standard input (``/bin/bash -s < mk.sh``, ``python3 < mk.py``) is read as the same file named
as the script is (``< /dev/null`` feeds none): the first fix refused every file so fed
(``python3 < ok.py``, ``bash < install.sh``), and took a shell's valued option for its script
(``bash -euo pipefail < mk.sh``: ``pipefail``), a device for a file (``python3 /dev/stdin <
mk.py``, ``/dev/fd/3``) and a pattern for a name (``bash < m?.sh``). A link to an
interpreter under another name (``bin/py`` -> ``python3``) was judged as the compiled program
it looked like; it is judged by its target's name, resolved as the kernel does (a copy under
another name cannot be known: it stays a program). Code or a
module named at run time (``xargs -I{} python3 -m {}``, ``python3 -c 'import {}'`` from
``find``, ``python3 -c "$(cat mk.py)"``, ``-c "$x"``) is code the guard cannot read, refused
as a script named at run time is; a variable or a ``$`` bash leaves as written inside code the
command writes is data (``-c 'print("$5")'``, ``-c "print('$USER')"``, ``<<EOF`` with
``print("$HOME")``): the first fix refused each.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from harness_memory.hooks.option_words import interpreter_table, read_options
from harness_memory.hooks.run_texts import commands_run

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answers_of_every_harness,
    bash_writes_through_lnk,
    let_through,
    refusals_by_every_harness,
    refused_before_new_writes,
)

MAKES_LINK = "import os; os.symlink(open('target').read().strip(), 'lnk')\n"
"""``mk.py``: makes ``lnk`` lead where the file ``target`` says (no memory named)."""
_STANDARD = "".join(
    f"import {name}\n"
    for name in [
        "os",
        "sys",
        "json",
        "re",
        "io",
        "abc",
        "csv",
        "math",
        "time",
        "glob",
        "shutil",
        "typing",
        "logging",
        "pathlib",
        "argparse",
    ]
)
"""Fifteen imports of the standard library, as a module's head often has."""

RUN_BY_PATH = [
    ".venv/bin/python mk.py && echo x > lnk/a.md",
    "/usr/bin/python3 mk.py && echo x > lnk/a.md",
    "/usr/bin/python3 -c 'import mk' && echo x > lnk/a.md",
    "/usr/bin/node mk.js && echo x > lnk/a.md",
    "/usr/bin/perl mk.pl && echo x > lnk/a.md",
    "$(command -v python3) mk.py && echo x > lnk/a.md",
    "venv/bin/python mk.py && echo x > lnk/a.md",
    "perl -c mk.pl && echo x > lnk/a.md",
    "node -c -e \"require('./mk.js')\" && echo x > lnk/a.md",
    "find . -name mk.py -exec python3 ./{} \\; && echo x > lnk/a.md",
    "find . -maxdepth 0 -exec python3 mk{}py \\; && echo x > lnk/a.md",
    "echo mk.py | xargs -I{} python3 ./{} && echo x > lnk/a.md",
    "echo mk.py | xargs -I X python3 X && echo x > lnk/a.md",
    "echo mk.py | xargs --replace=X sh -c 'python3 X' && echo x > lnk/a.md",
    "echo mk.py | xargs -n1 -I@ python3 @ && echo x > lnk/a.md",
    "python3 -Sc 'import mk' && echo x > lnk/a.md",
    "python3 -bbc 'import mk' && echo x > lnk/a.md",
    "python3 -Bm mk && echo x > lnk/a.md",
    "python3 -c 'import json;import mk' && echo x > lnk/a.md",
    "python3 -c 'if 1: import mk' && echo x > lnk/a.md",
    "python3 -c 'from pkg import helper' && echo x > lnk/a.md",
    "python3 -c 'import rel' && echo x > lnk/a.md",
    "python3 -c 'exec(open(file=\"mk.py\").read())' && echo x > lnk/a.md",
    "python3 -c 'f = open(\"mk.py\"); exec(f.read())' && echo x > lnk/a.md",
    "python3 -c 'import runpy; runpy.run_module(\"mk\")' && echo x > lnk/a.md",
    "python3 -m runpy mk && echo x > lnk/a.md",
    "node --test-reporter spec mk.js && echo x > lnk/a.md",
    "node --disable-proto delete mk.js && echo x > lnk/a.md",
    "node -pe \"require('./mk.js')\" && echo x > lnk/a.md",
    "perl -I . -Mmkp -e 1 && echo x > lnk/a.md",
    "cat mk.sh | /bin/bash && echo x > lnk/a.md",
    "bash -n +n mk.sh && echo x > lnk/a.md",
    "bash -n -o noexec +o noexec mk.sh && echo x > lnk/a.md",
]
"""Each was let through (the last three by guardfix53's own rules: review53j); each runs
``mk.py`` (``mk.js``, ``mk.pl``, ``mk.sh``) before the write."""
FED_OR_NAMED_AT_RUN_TIME = [
    "cat mk.py | /usr/bin/python3 && echo x > lnk/a.md",
    "cat mk.py | .venv/bin/python && echo x > lnk/a.md",
    "cat mk.py | /usr/bin/python3 - && echo x > lnk/a.md",
    '/usr/bin/python3 <<< "$(cat mk.py)" && echo x > lnk/a.md',
    'python3 <<< "$(cat mk.py)" && echo x > lnk/a.md',
    "/bin/bash -s < mk.sh && echo x > lnk/a.md",
    "sh < mk.sh && echo x > lnk/a.md",
    "bin/py mk.py && echo x > lnk/a.md",
    "bin/py -c 'import mk' && echo x > lnk/a.md",
    "echo mk | xargs -I{} python3 -m {} && echo x > lnk/a.md",
    "echo mk | xargs -I{} python3 -c 'import {}' && echo x > lnk/a.md",
    "find . -maxdepth 1 -name mk.py -exec python3 -c 'import runpy; runpy.run_path(\"{}\")' \\; "
    "&& echo x > lnk/a.md",
    'python3 -c "$(cat mk.py)" && echo x > lnk/a.md',
    'x="$(cat mk.py)"; python3 -c "$x" && echo x > lnk/a.md',
    "cat mk.py | python3 - arg && echo x > lnk/a.md",
    "/usr/bin/python3 -u - arg < mk.py && echo x > lnk/a.md",
]
"""Each was let through but the ``find`` form (refused already, proved beside them): code fed on
standard input to an interpreter named by its path, a here-string built at run time, a script
redirected into a shell, a link ``bin/py`` to ``python3``
(``sys.executable``), code or a module named at run time, ``-`` naming standard input as the
script with arguments after it (``arg`` was taken for the script)."""
FED_PROVED_BY_BASH = [FED_OR_NAMED_AT_RUN_TIME[at] for at in (0, 3, 5, 8, 10, 12, 13, 15)]
"""A handful of the forms above, run by one bash: each really writes into the other scope."""
FED_PAST_OPTIONS_OR_BY_A_DEVICE = [
    "bash -euo pipefail < mk.sh && echo x > lnk/a.md",
    "bash -o errexit < mk.sh && echo x > lnk/a.md",
    "bash -O extglob < mk.sh && echo x > lnk/a.md",
    "sh -o errexit < mk.sh && echo x > lnk/a.md",
    "bash --rcfile /dev/null < mk.sh && echo x > lnk/a.md",
    "cat mk.sh | bash -euo pipefail && echo x > lnk/a.md",
    "python3 /dev/stdin < mk.py && echo x > lnk/a.md",
    "python3 /dev/fd/0 < mk.py && echo x > lnk/a.md",
    "python3 /proc/self/fd/0 < mk.py && echo x > lnk/a.md",
    "exec 3<mk.py; python3 /dev/fd/3 && echo x > lnk/a.md",
    "cat mk.py | python3 /dev/stdin && echo x > lnk/a.md",
    "bash /dev/stdin < mk.sh && echo x > lnk/a.md",
    "node /dev/stdin < mk.js && echo x > lnk/a.md",
    "perl /dev/stdin < mk.pl && echo x > lnk/a.md",
    "bash < m?.sh && echo x > lnk/a.md",
    "python3 - < m?.py && echo x > lnk/a.md",
    "python3 - <<'PY'\nimport runpy; runpy.run_path(\"mk.py\")\nPY\necho x > lnk/a.md",
    "python3 <<'PY'\nimport mk\nPY\necho x > lnk/a.md",
    "python3 <<< 'import mk' && echo x > lnk/a.md",
    'python3 <<< $\'import os\\nos.sym\\x6cink(open("target").read().strip(), "lnk")\' '
    "&& echo x > lnk/a.md",
]
"""Each was let through (guard54's review): a shell's valued option taken for its script
(``pipefail``), a script named by a device reading standard input or a descriptor, a file
fed by a pattern bash expands to ``mk.sh`` (``mk.py``), a local module loaded by code in a
here-document or here-string (read as code given inline is), a here-string's link text spelt
in bash's ``$'…'`` escapes."""
FED_PAST_PROVED_BY_BASH = [
    FED_PAST_OPTIONS_OR_BY_A_DEVICE[at] for at in (0, 5, 6, 9, 12, 14, 15, 17)
]
"""A handful of the forms above, run by one bash: each really writes into the other scope."""
LINKED_TO_ANOTHER = [
    "bin/node -c 'import mk' && echo x > lnk/a.md",
    "bin/node mk.py && echo x > lnk/a.md",
    "bin/e python3 mk.py && echo x > lnk/a.md",
    "bin/t 5 python3 mk.py && echo x > lnk/a.md",
    "echo mk.py | bin/x python3 && echo x > lnk/a.md",
    "echo 1 | bin/s 'e python3 mk.py' && echo x > lnk/a.md",
]
"""Each was let through (guard54's review): a link named like one interpreter leading to
another (``bin/node`` -> ``python3``: judged as node, its ``-c`` a syntax check), or to a
program running its words (``env``, ``timeout``, ``xargs``, ``sed``: judged as a compiled
program)."""
LINKED_PROVED_BY_BASH = [LINKED_TO_ANOTHER[at] for at in (0, 2, 4, 5)]
"""A handful of the forms above, run by one bash: each really writes into the other scope."""
FILLED_OR_SPELT_ANOTHER_WAY = [
    'X=$(cat mk.py); python3 -c "pass;$X" && echo x > lnk/a.md',
    'X=$(cat mk.py); python3 -c "${X}#" && echo x > lnk/a.md',
    "X=$(cat mk.py); python3 -c \"exec('''$X''')\" && echo x > lnk/a.md",
    'X=mk; python3 -c "import $X" && echo x > lnk/a.md',
    "X=mk; python3 -c \"__import__('$X')\" && echo x > lnk/a.md",
    "X='import mk'; python3 -c \"pass;$X\" && echo x > lnk/a.md",
    'read -r X < mk.py; python3 -c "pass;$X" && echo x > lnk/a.md',
    'for m in mk; do python3 -c "import $m"; done && echo x > lnk/a.md',
    'X=$(cat mk.py); python3 <<< "pass;$X" && echo x > lnk/a.md',
    "X=$(cat mk.py); python3 <<EOF\npass\n$X\nEOF\necho x > lnk/a.md",
    "python3 /dev/./stdin < mk.py && echo x > lnk/a.md",
    "python3 //dev/stdin < mk.py && echo x > lnk/a.md",
    "python3 /dev/fd/./0 < mk.py && echo x > lnk/a.md",
    "python3 /proc/self/fd/../fd/0 < mk.py && echo x > lnk/a.md",
    "cat mk.py | python3 /dev/./stdin && echo x > lnk/a.md",
    'X=""$(cat mk.py); python3 -c "pass;$X" && echo x > lnk/a.md',
    'Y=; X=$Y$(cat mk.py); python3 -c "pass;$X" && echo x > lnk/a.md',
    ': ${X:=$(cat mk.py)}; python3 -c "pass;$X" && echo x > lnk/a.md',
    'X=$(cat mk.py); Y=X; python3 -c "pass;${!Y}" && echo x > lnk/a.md',
    'X=$(cat mk.py); declare -n Y=X; python3 -c "pass;$Y" && echo x > lnk/a.md',
    'printf -vX %s "$(cat mk.py)"; python3 -c "pass;$X" && echo x > lnk/a.md',
    'X=""$(cat mk.py); python3 <<< "pass;$X" && echo x > lnk/a.md',
    "IFS= read -rd '' < mk.py; python3 -c \"pass;$REPLY\" && echo x > lnk/a.md",
    'mapfile < mk.py; IFS=; python3 -c "pass;${MAPFILE[*]}" && echo x > lnk/a.md',
    'echo "$(cat mk.py)" >/dev/null; python3 -c "pass;$_" && echo x > lnk/a.md',
    "X='import mk'; python3 -c \"pass;$X\" && echo x > lnk/a.md",
    "mkdir -p d1/d2 dev && ln -s d1/d2 L && cp mk.py dev/stdin && "
    "python3 $PWD/L/../../dev/stdin < ok.py && echo x > lnk/a.md",
    "python3 <<< import\\ mk && echo x > lnk/a.md",
    'python3 <<< im"port mk" && echo x > lnk/a.md',
    'python3 <<< "import "mk && echo x > lnk/a.md',
]
"""Each was let through (guardfix54's review, review54k): code a variable this command filled
(a command substitution, ``read``, a literal holding code or naming a local module, a ``for``
word), then (review54l) one filled however else (an empty literal before ``$(…)``, ``:=``, a
name reference, ``printf -vX``, ``$REPLY``, ``$MAPFILE``, ``$_``), put inside written code or
a here-text; a device named with ``.``, ``//`` or through ``..`` past a symlink; a
here-string whose quotes bash takes out inside the word."""
FILLED_PROVED_BY_BASH = [FILLED_OR_SPELT_ANOTHER_WAY[at] for at in (0, 3, 8, 10, 15, 22, 26, 28)]
"""A handful of the forms above, run by one bash: each really writes into the other scope."""
CODE_WITH_DATA_OR_FED_A_FILE = [
    "python3 -c 'print(\"price: $5\")'",
    "python3 -c 'import os; print(os.path.expandvars(\"$TERM\"))'",
    "python3 -c 'import string; print(string.Template(\"$who\").substitute(who=1))'",
    "python3 -c \"print('$USER')\"",
    'V=3; python3 -c "print($V)"',
    'python3 - <<EOF\nprint("$TERM")\nEOF\n:',
    'python3 - <<EOF\nprint("\\$x")\nEOF\n:',
    'node - <<EOF\nconsole.log("$TERM")\nEOF\n:',
    "python3 <<< \"print('$TERM')\"",
    "python3 < ok.py",
    "node < ok.js",
    "bash < install.sh",
    "sh < install.sh",
    "bash -euo pipefail < install.sh",
    "python3 /dev/stdin < ok.py",
    "bin/e python3 ok.py && bin/t 5 python3 ok.py && echo a.txt | bin/x wc -l",
    "F=ok.py; python3 -c \"import ast; ast.parse(open('$F').read())\"",
    "for f in ok.py a.json; do python3 -c \"print(len(open('$f').read()))\"; done",
    'MSG="hello world"; python3 -c "print(\'$MSG\')"',
    'URL="http://localhost:8000/api?x=1"; python3 -c "print(\'$URL\')"',
    'N=5; python3 -c "print($N + 2)"',
]
"""Everyday code holding a ``$`` or a backquote bash leaves as written, or a variable bash puts
in as data, and a readable file making no link fed on standard input: each passed before
guard54, which took any ``$`` in Python's code for code built at run time and any file fed on
standard input for code it could not read. Each is followed by a write into a new folder, and
by a new topic file in the Session's own scope. (``$TERM``, not ``$HOME``: here ``HOME`` is the
memory's data folder, which code may not name.)"""
PROVED_BY_BASH = [RUN_BY_PATH[at] for at in (0, 2, 3, 5, 10, 12, 15, 19, 23, 26, 28, 29, 30, 31)]
"""A handful of the forms above, run by one bash: each really writes into the other scope."""
EVERYDAY_BY_PATH = [
    ".venv/bin/python ok.py && mkdir -p out && echo x > out/a.txt",
    "/usr/bin/python3 -m pytest -q tests; mkdir -p out && echo x > out/a.txt",
    "$(which python3) ok.py && mkdir -p out && echo x > out/a.txt",
    "/usr/bin/env python3 ok.py && mkdir -p out && echo x > out/a.txt",
    "./node_modules/.bin/eslint . ; mkdir -p out && echo x > out/a.txt",
    "/usr/bin/node ok.js && mkdir -p out && echo x > out/a.txt",
    ".venv/bin/python -c 'import json, sys; print(sys.path)' && mkdir -p out && echo > out/a",
    "python3 main.py && mkdir -p out && echo x > out/a.txt",
    "python3 wide.py && mkdir -p out && echo x > out/a.txt",
    "find . -name '*.sh' -exec bash -n {} \\; && mkdir -p out && echo x > out/a.txt",
    "find . -name '*.sh' -exec sh -nv {} \\; && mkdir -p out && echo x > out/a.txt",
    "find . -name '*.js' -exec node --check {} \\; && mkdir -p out && echo x > out/a.txt",
    "find . -name '*.rb' -exec ruby -c {} \\; && mkdir -p out && echo x > out/a.txt",
    "find . -name '*.php' -exec php -l {} \\; && mkdir -p out && echo x > out/a.txt",
    "bash -n mk.sh && node -c mk.js && mkdir -p out && echo x > out/a.txt",
    "find . -name '*.txt' | xargs -I F sh -c 'wc -l F' && mkdir -p out && echo x > out/a.txt",
    "find . -name '*.txt' -exec sh -c 'echo {}' \\; && mkdir -p out && echo x > out/a.txt",
    "find . -name '*.py' -exec python3 -m py_compile ./{} \\; && mkdir -p out && echo > out/a",
    "ls *.py | xargs -I % cp % /tmp/ && mkdir -p out && echo x > out/a.txt",
    "python3 -Sc 'print(1)' && python3 -Bm json.tool a.json && mkdir -p out && echo > out/a",
    "python3 -c 'import json;import sys; print(json.dumps(1))' && mkdir -p out && echo > out/a",
    "python3 -c 'exec(\"print(1)\")' && mkdir -p out && echo x > out/a.txt",
    "python3 -c 'from os import path; print(path.sep)' && mkdir -p out && echo x > out/a.txt",
    "python3 -c 'import json; print(json.load(open(\"a.json\")))' && mkdir -p out && echo > out/a",
    "python3 -c 'exec(open(\"ok.py\").read())' && mkdir -p out && echo x > out/a.txt",
    "python3 -m runpy ok && mkdir -p out && echo x > out/a.txt",
    "node --test-reporter spec ok.js && node -pe '1 + 1' && mkdir -p out && echo > out/a",
    "perl -Mstrict -MData::Dumper -we 'print 1' && mkdir -p out && echo x > out/a.txt",
    "sed -i 's/version/release/g' a.txt && mkdir -p out && echo x > out/a.txt",
    "sed -n 's|/usr/e|x|p' a.txt && bash -nv mk.sh && mkdir -p out && echo x > out/a.txt",
    "sed -i 's/\\/home/\\/export/' a.txt && mkdir -p out && echo x > out/a.txt",
    "sed 's/http:\\/\\/a.example/https:\\/\\/a.example/' a.txt && mkdir -p out && echo > out/a",
    "echo hi | python3 -c 'import sys; print(sys.stdin.read())' && mkdir -p out && echo > out/a",
    "echo hi | /usr/bin/python3 -c 'import sys; print(sys.stdin.read())' && mkdir o && echo > o/a",
    "cat a.json | /usr/bin/python3 -m json.tool && mkdir -p out && echo x > out/a.txt",
    "cat a.json | .venv/bin/python -m json.tool && mkdir -p out && echo x > out/a.txt",
    "bash -s < /dev/null && /bin/bash -s < /dev/null && mkdir -p out && echo x > out/a.txt",
    'echo "$(command -v python3)" && test -x "$(which python3)" && mkdir -p out && echo > out/a',
    '"$(command -v python3)" --version && mkdir -p out && echo x > out/a.txt',
    ".venv/bin/python -m pip --version && mkdir -p out && echo x > out/a.txt",
    "bin/py ok.py && bin/py -m json.tool a.json && mkdir -p out && echo x > out/a.txt",
    "echo ok.py | xargs -I{} python3 -m py_compile {} && mkdir -p out && echo x > out/a.txt",
    "python3 - <<'PY'\nprint(1)\nPY\nmkdir -p out && echo x > out/a.txt",
    "python3 - a b <<'PY'\nimport sys; print(sys.argv)\nPY\nmkdir -p out && echo x > out/a.txt",
]
"""Everyday uses, each followed by a write into a folder made there; ``main.py`` imports 300
local modules, each importing 15 standard ones, ``wide.py`` 70 small ones. An interpreter
that only checks its script's syntax (``bash -n``, ``node --check``, ``ruby -c``, ``php -l``)
runs none of it (``perl -c`` runs its ``BEGIN`` blocks: refused above)."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "mk.py").write_text(MAKES_LINK, encoding="utf-8")
    (work / "mk.js").write_text(
        "const fs = require('fs');\n"
        "fs.symlinkSync(fs.readFileSync('target', 'utf8').trim(), 'lnk');\n",
        encoding="utf-8",
    )
    (work / "mk.pl").write_text(
        "open my $f, '<', 'target'; my $t = <$f>; chomp $t; symlink($t, 'lnk');\n",
        encoding="utf-8",
    )
    (work / "ok.py").write_text("print('ok')\n", encoding="utf-8")
    (work / "mk.sh").write_text('ln -s "$(cat target)" lnk\n', encoding="utf-8")
    (work / "ok.js").write_text("console.log('ok');\n", encoding="utf-8")
    (work / "a.txt").write_text("a\n", encoding="utf-8")
    (work / "mkp.pm").write_text(
        "package mkp;\nopen my $f, '<', 'target';\n"
        "my $t = <$f>; chomp $t; symlink($t, 'lnk');\n1;\n",
        encoding="utf-8",
    )
    (work / "a.json").write_text("{}\n", encoding="utf-8")
    (work / "pkg").mkdir()
    (work / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (work / "pkg" / "helper.py").write_text(MAKES_LINK, encoding="utf-8")
    (work / "rel").mkdir()
    (work / "rel" / "__init__.py").write_text("from . import helper\n", encoding="utf-8")
    (work / "rel" / "helper.py").write_text(MAKES_LINK, encoding="utf-8")
    for venv in (".venv", "venv"):
        (work / venv / "bin").mkdir(parents=True)
        (work / venv / "bin" / "python").symlink_to(sys.executable)
    (work / "bin").mkdir()
    (work / "bin" / "py").symlink_to(sys.executable)  # a link named as no interpreter is
    (work / "bin" / "node").symlink_to("py")  # named as another interpreter
    for name, program in [("e", "env"), ("t", "timeout"), ("x", "xargs"), ("s", "sed")]:
        (work / "bin" / name).symlink_to(shutil.which(program) or program)
    (work / "run.sh").write_text("python3 mk.py\n", encoding="utf-8")
    (work / "install.sh").write_text("echo installing\nmkdir -p build\n", encoding="utf-8")
    package = work / "app"
    package.mkdir()
    for at in range(300):
        (package / f"m{at}.py").write_text(_STANDARD, encoding="utf-8")
        (work / f"w{at}.py").write_text("x = 1\n", encoding="utf-8")
    imports = "".join(f"from app import m{at}\nimport app.m{at}\n" for at in range(300))
    (work / "main.py").write_text(imports, encoding="utf-8")
    (work / "wide.py").write_text("".join(f"import w{at}\n" for at in range(70)), "utf-8")


def _assert_refused_and_written_by_bash(
    where: Layout, commands: list[str], proved: list[str]
) -> None:
    """Every harness refuses each of ``commands`` in the prepared Workspace; one bash running
    ``proved`` (a handful of them) then writes through ``lnk`` into the other scope each time."""
    _prepared(where)
    assert let_through(where, commands) == {}
    env = {"PATH": "/usr/bin:/bin", "HOME": str(where.root)}
    written = bash_writes_through_lnk(where, proved, env=env)
    assert written >= {f"{at}.md" for at in range(len(proved))}


def test_p3_an_interpreter_named_by_its_path_runs_its_script_which_is_read(
    where: Layout,
) -> None:
    _assert_refused_and_written_by_bash(where, RUN_BY_PATH, PROVED_BY_BASH)


def test_p3_code_fed_to_an_interpreter_or_named_at_run_time_is_code_not_read(
    where: Layout,
) -> None:
    _assert_refused_and_written_by_bash(where, FED_OR_NAMED_AT_RUN_TIME, FED_PROVED_BY_BASH)


def test_p3_a_script_fed_past_shell_options_or_named_by_a_device_is_read(
    where: Layout,
) -> None:
    _assert_refused_and_written_by_bash(
        where, FED_PAST_OPTIONS_OR_BY_A_DEVICE, FED_PAST_PROVED_BY_BASH
    )


def test_p3_code_a_variable_filled_or_a_device_spelt_another_way_is_read(
    where: Layout,
) -> None:
    _assert_refused_and_written_by_bash(where, FILLED_OR_SPELT_ANOTHER_WAY, FILLED_PROVED_BY_BASH)


def test_p3_a_link_to_another_interpreter_or_a_runner_is_judged_as_its_target(
    where: Layout,
) -> None:
    _assert_refused_and_written_by_bash(where, LINKED_TO_ANOTHER, LINKED_PROVED_BY_BASH)


def test_p3_code_holding_data_or_a_fed_file_making_no_link_passes(where: Layout) -> None:
    _prepared(where)

    assert refused_before_new_writes(where, CODE_WITH_DATA_OR_FED_A_FILE, mode=">") == {}


def test_p3_everyday_interpreters_by_path_and_medium_projects_pass(where: Layout) -> None:
    _prepared(where)
    answers = {command: answers_of_every_harness(where, command) for command in EVERYDAY_BY_PATH}

    assert answers == {command: dict.fromkeys(SHELL) for command in EVERYDAY_BY_PATH}


def test_p3_a_project_with_more_modules_than_the_guard_reads_is_refused(where: Layout) -> None:
    work = where.workspace
    Path(work / "huge").mkdir()
    for at in range(600):
        (work / "huge" / f"m{at}.py").write_text("x = 1\n", encoding="utf-8")
    (work / "main.py").write_text(
        "".join(f"import huge.m{at}\n" for at in range(600)), encoding="utf-8"
    )

    refused = refusals_by_every_harness(where, "python3 main.py && echo x > out/a.txt")

    assert all(refused.values()), refused
    assert all("more local modules than the guard reads" in str(r) for r in refused.values())


def test_p3_xargs_replace_string_is_the_name_it_reads() -> None:
    assert commands_run("xargs", ["-I", "X", "sh", "-c", "python3 X"]) == [
        ["sh", "-c", "python3 {}", "{}"]
    ]
    assert commands_run("xargs", ["--replace=@", "cp", "@", "/tmp/"]) == [
        ["cp", "{}", "/tmp/", "{}"]
    ]
    assert commands_run("xargs", ["-n1", "python3"]) == [["python3", "{}"]]


NODE_VALUED = [
    ("--disable-proto", "delete"),
    ("--heapsnapshot-signal", "SIGUSR2"),
    ("--max-http-header-size", "9000"),
    ("--experimental-default-type", "commonjs"),
    ("--test-reporter", "spec"),
    ("--test-reporter-destination", "stdout"),
    ("--test-name-pattern", "x"),
    ("--test-concurrency", "1"),
    ("--test-timeout", "100"),
    ("--test-shard", "1/1"),
    ("--heapsnapshot-near-heap-limit", "1"),
    ("--inspect-publish-uid", "stderr"),
    ("--env-file-if-exists", "a.txt"),
]
"""node options taking the next word as their value (node 20 runs ``ok.js`` after each)."""


def test_p3_node_options_taking_a_value_are_read_so_as_node_reads_them(where: Layout) -> None:
    _prepared(where)
    operands = {
        option: read_options([option, value, "ok.js"], interpreter_table("node")).operands
        for option, value in NODE_VALUED
    }

    assert operands == {option: [2] for option, _ in NODE_VALUED}
    script = "".join(f"node {option} {value} ok.js\n" for option, value in NODE_VALUED)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(where.root)}
    ran = subprocess.run(["bash", "-c", script], cwd=where.workspace, env=env, capture_output=True)
    assert ran.stdout.decode().split() == ["ok"] * len(NODE_VALUED)


def test_p3_a_folder_python_runs_by_m_is_a_package_and_one_it_does_not_is_no_package(
    where: Layout,
) -> None:
    """``python3 -m build`` beside setuptools' ``build/`` folder (no ``__init__.py``, no
    ``__main__.py``: Python runs the installed ``build``) and ``python3 -m venv venv`` beside
    an earlier ``venv/`` were refused as "a local package"; a folder Python does run for ``-m``
    (``__main__.py`` in it, or a package) is still refused before a write through ``lnk``."""
    work = where.workspace
    (work / "build" / "lib").mkdir(parents=True)
    (work / "venv" / "bin").mkdir(parents=True)
    (work / "tool").mkdir()
    (work / "tool" / "__main__.py").write_text(MAKES_LINK, encoding="utf-8")
    everyday = [
        "python3 -m build && mkdir -p out && echo x > out/a.txt",
        "python3 -m venv venv && mkdir -p out && echo x > out/a.txt",
    ]

    answers = {command: answers_of_every_harness(where, command) for command in everyday}
    refused = refusals_by_every_harness(where, "python3 -m tool && echo x > lnk/a.md")

    assert answers == {command: dict.fromkeys(SHELL) for command in everyday}
    assert all("-m tool, a local package" in str(reason) for reason in refused.values()), refused
