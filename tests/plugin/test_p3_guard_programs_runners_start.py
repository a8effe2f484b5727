"""P-3: a script started through a program running its words is read as one the shell starts.

``mk.py`` makes ``lnk`` lead into another Workspace's scope (its folder read from ``target`` at
run time); ``python3 mk.py && echo x > lnk/a.md`` is refused, as the guard reads ``mk.py``.
Each form below started the same script through something the guard did not read before
round 53, and the write through ``lnk`` was let through: ``find``'s ``-exec``/``-ok``
actions (``;``, ``';'`` and ``+``), the command ``xargs`` runs (``xargs -0 sh -c`` gives the
shell code read at run time), a git ``!`` alias (``-c alias.x=…``), ``sed``'s ``e`` command, a
recipe ``make --eval``/``-sE`` defines, ``exec(open("mk.py").read())``, a module imported by
an imported module, ``trap`` text running a program named by a variable, and an
interpreter's valued options hiding the script (``python3 -bW ignore mk.py``, ``node --title
x mk.js``, ``--input-type commonjs``); then ``sed``'s ``e`` after ``1,+1`` or ``\\,x,``
addresses and in a ``-f`` script file, and a git alias given by ``--config-env``. (Forms the
guard refused already, ``-execdir``, ``python3 -X dev``, ``node -r ./mk.js``, ``make -E
$'x:\\n\\t…'``, were no gap and are not among them.) Each is refused by every harness in this
process; a handful is then run by one bash, which writes into the other scope: the gaps were
real. The everyday forms of the same runners, followed by a write into a folder they or
``mkdir`` make, pass.
"""

from __future__ import annotations

import pytest
from harness_memory.hooks import link_texts, shell_statements
from harness_memory.hooks.option_words import (
    FIND_ENDS,
    FIND_RUNNING,
    interpreter_table,
    read_options,
)
from harness_memory.hooks.run_texts import commands_run, texts_run

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answers_of_every_harness,
    bash_writes_through_lnk,
    let_through,
)

MAKES_LINK = "import os; os.symlink(open('target').read().strip(), 'lnk')\n"
"""``mk.py``: makes ``lnk`` lead where the file ``target`` says (no memory named)."""

STARTED_BY_RUNNERS = [
    "find . -maxdepth 0 -exec python3 mk.py \\; && echo x > lnk/a.md",
    "find . -maxdepth 0 -exec python3 mk.py ';' && echo x > lnk/a.md",
    "find . -maxdepth 0 -exec python3 mk.py {} + && echo x > lnk/a.md",
    "find . -maxdepth 0 -ok python3 mk.py \\; && echo x > lnk/a.md",
    "echo | xargs python3 mk.py && echo x > lnk/a.md",
    "printf 'python3 mk.py\\0' | xargs -0 sh -c && echo x > lnk/a.md",
    "git -c alias.x='!python3 mk.py' x && echo x > lnk/a.md",
    "git config alias.x '!python3 mk.py' && git x && echo x > lnk/a.md",
    "echo | sed 'e python3 mk.py' && echo x > lnk/a.md",
    "echo | sed -e '1e python3 mk.py' && echo x > lnk/a.md",
    "make --eval='x: ; @python3 mk.py' x && echo x > lnk/a.md",
    "make -sE 'x: ; @python3 mk.py' x && echo x > lnk/a.md",
    "python3 -c 'exec(open(\"mk.py\").read())' && echo x > lnk/a.md",
    "python3 -c 'import runpy; runpy.run_path(\"mk.py\")' && echo x > lnk/a.md",
    "python3 top.py && echo x > lnk/a.md",
    "python3 -c 'import top' && echo x > lnk/a.md",
    "P=python3; trap '$P mk.py' ERR; false; echo x > lnk/a.md",
    "python3 -bW ignore mk.py && echo x > lnk/a.md",
    "echo | sed -n '1e python3 mk.py' && echo x > lnk/a.md",
    "python3 --check-hash-based-pycs default mk.py && echo x > lnk/a.md",
    "node --title x mk.js && echo x > lnk/a.md",
    "python3 -c '__import__(\"mk\")' && echo x > lnk/a.md",
    "A='!python3 mk.py' git --config-env=alias.x=A x && echo x > lnk/a.md",
    "echo | sed '1,+1e python3 mk.py' && echo x > lnk/a.md",
    "echo | sed '\\,x,!e python3 mk.py' && echo x > lnk/a.md",
    "echo | sed -f run.sed && echo x > lnk/a.md",
    "find . -name mk.py -exec python3 {} \\; && echo x > lnk/a.md",
    "echo mk.py | xargs python3 && echo x > lnk/a.md",
    "node --input-type commonjs mk.js && echo x > lnk/a.md",
]
"""Each was let through; each runs ``mk.py`` (``mk.js``; ``top.py`` imports ``helper1``,
which imports ``helper2``, the one making the link) before the write through ``lnk``; a
script ``find`` or ``xargs`` gives an interpreter by a name found at run time may be it."""
PROVED_BY_BASH = [
    STARTED_BY_RUNNERS[0],
    STARTED_BY_RUNNERS[5],
    STARTED_BY_RUNNERS[6],
    STARTED_BY_RUNNERS[9],
    STARTED_BY_RUNNERS[10],
    STARTED_BY_RUNNERS[17],
]
"""A handful of the forms above, run by one bash: each really writes into the other scope."""
EVERYDAY_RUNNERS = [
    "find . -name '*.py' -exec grep -l TODO {} + && mkdir -p out && echo x > out/a.txt",
    "find src -name '*.py' -exec python3 -m py_compile {} \\; && mkdir -p out && cp ok.py out/",
    "find . -name '*.sh' -exec chmod +x {} \\; && mkdir -p out && echo x > out/a.txt",
    "find . -name '*.tmp' -print0 | xargs -0 rm -f && mkdir -p out && echo x > out/a.txt",
    "xargs rm -f /tmp/a.tmp /tmp/b.tmp < /dev/null && mkdir -p out && echo x > out/a.txt",
    "git ls-files | xargs grep -l TODO; mkdir -p out && echo x > out/a.txt",
    "git -c user.name=x -c user.email=x@y log -n 1; mkdir -p out && echo x > out/a.txt",
    "git config alias.lg 'log --oneline' && mkdir -p out && echo x > out/a.txt",
    "git -c alias.st='!git status' st; mkdir -p out && echo x > out/a.txt",
    "sed -e 's/a/b/' ok.py > /tmp/o.txt && mkdir -p out && cp ok.py out/",
    "sed -n '1~2p;1,+1p' -f fix.sed ok.py > /tmp/o.txt && mkdir -p out && echo x > out/a.txt",
    "git --config-env=user.name=U log -n 1; mkdir -p out && echo x > out/a.txt",
    "make -C build; mkdir -p out && echo x > out/a.txt",
    "make --eval='hi: ; @echo hi' hi && mkdir -p out && echo x > out/a.txt",
    "python3 -c 'import sys; print(sys.version)' && mkdir -p out && cp ok.py out/",
    "python3 -c 'exec(open(\"ok.py\").read())' && mkdir -p out && echo x > out/a.txt",
    "python3 -bW ignore ok.py && mkdir -p out && echo x > out/a.txt",
    "python3 -X dev -W error top_ok.py && mkdir -p out && echo x > out/a.txt",
    "node --watch-path=src --title x ok.js; mkdir -p out && echo x > out/a.txt",
    "trap 'rm -f /tmp/g53.tmp' EXIT; mkdir -p out && echo x > out/a.txt",
    "find . -name '*.txt' -exec sh -c 'wc -l \"$1\"' _ {} \\; && mkdir -p out && echo > out/a",
    "find . -name '*.txt' -print0 | xargs -0 -n1 sh -c 'wc -l \"$1\"' _ && mkdir o && echo > o/a",
    "find . -name '*.txt' | xargs -I{} sh -c 'wc -l {}' && mkdir -p out && echo x > out/a.txt",
    "find . -type d -name __pycache__ -exec rm -rf {} + && mkdir -p out && echo x > out/a.txt",
    "git ls-files -z '*.py' | xargs -0 python3 -m ruff check && mkdir -p out && echo x > out/a",
]
"""Everyday uses of the same runners, each followed by a write into a folder made there."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "mk.py").write_text(MAKES_LINK, encoding="utf-8")
    (work / "mk.js").write_text(
        "const fs = require('fs');\n"
        "fs.symlinkSync(fs.readFileSync('target', 'utf8').trim(), 'lnk');\n",
        encoding="utf-8",
    )
    (work / "app.js").write_text("console.log(1);\n", encoding="utf-8")
    (work / "helper2.py").write_text(MAKES_LINK, encoding="utf-8")
    (work / "helper1.py").write_text("import helper2\n", encoding="utf-8")
    (work / "top.py").write_text("import helper1\n", encoding="utf-8")
    (work / "ok.py").write_text("print('ok')\n", encoding="utf-8")
    (work / "ok.js").write_text("console.log('ok');\n", encoding="utf-8")
    (work / "top_ok.py").write_text("import json\nimport ok\n", encoding="utf-8")
    (work / "run.sed").write_text("1e python3 mk.py\n", encoding="utf-8")
    (work / "fix.sed").write_text("s/a/b/\n", encoding="utf-8")
    (work / "src").mkdir()
    (work / "build").mkdir()


def test_p3_scripts_runners_start_are_read_and_each_refused_form_writes_through(
    where: Layout,
) -> None:
    _prepared(where)
    assert let_through(where, STARTED_BY_RUNNERS) == {}
    # one bash runs the handful, each writing its own file through the link it makes
    written = bash_writes_through_lnk(where, PROVED_BY_BASH, check=True)
    assert written >= {f"{at}.md" for at in range(len(PROVED_BY_BASH))}


def test_p3_everyday_runners_followed_by_a_new_folder_pass(where: Layout) -> None:
    _prepared(where)
    answers = {command: answers_of_every_harness(where, command) for command in EVERYDAY_RUNNERS}

    assert answers == {command: dict.fromkeys(SHELL) for command in EVERYDAY_RUNNERS}


@pytest.mark.parametrize(
    ("interpreter", "words", "script_at"),
    [
        ("python3", ["-bW", "ignore", "mk.py"], 2),
        ("python3.12", ["-bWignore", "mk.py"], 1),
        ("python3", ["-X", "dev", "-W", "error", "mk.py"], 4),
        ("python3", ["--check-hash-based-pycs", "default", "mk.py"], 2),
        ("node", ["--title", "x", "mk.js"], 2),
        ("node", ["--title=x", "mk.js"], 1),
        ("node", ["--watch", "mk.js"], 1),  # a flag, not a shortened ``--watch-path``
        ("nodejs", ["-r", "./pre.js", "mk.js"], 2),
        ("ruby", ["-rjson", "-I", "lib", "mk.rb"], 3),
        ("perl", ["-wI", "lib", "mk.pl"], 2),
        ("php", ["-d", "x=1", "mk.php"], 2),
    ],
)
def test_p3_an_interpreters_script_is_its_first_operand_by_its_own_option_table(
    interpreter: str, words: list[str], script_at: int
) -> None:
    read = read_options(words, interpreter_table(interpreter))

    assert read.operands[:1] == [script_at]


def test_p3_the_commands_a_runner_runs_from_its_words() -> None:
    assert commands_run("find", [".", "-exec", "python3", "mk.py", ";", "-print"]) == [
        ["python3", "mk.py"]
    ]
    assert commands_run("find", [".", "-ok", "a", "{}", "+", "-execdir", "b", "\\;"]) == [
        ["a", "{}"],
        ["b"],
    ]
    assert commands_run("xargs", ["-0", "-n", "1", "python3", "mk.py"]) == [
        ["python3", "mk.py", "{}"]
    ]
    assert commands_run("xargs", ["-0"]) == []
    assert texts_run("git", ["-c", "alias.x=!python3 mk.py", "-c", "user.name=x", "x"]) == [
        "python3 mk.py"
    ]
    assert texts_run("git", ["config", "--global", "alias.y", "!make all"]) == ["make all"]
    assert texts_run("git", ["config", "alias.lg", "log --oneline"]) == []
    assert texts_run("sed", ["-n", "-e", "1e date", "-e", "s/a/b/", "f"]) == ["date"]
    assert texts_run("sed", ["/x/e python3 mk.py", "f"]) == ["python3 mk.py"]
    assert texts_run("sed", ["-e", "s/e x/y/", "-e", "/e /p", "f"]) == []
    assert texts_run("make", ["--eval=x: ; @python3 mk.py", "x"]) == ["python3 mk.py"]
    assert texts_run("make", ["-E", "x:\n\t-$(PY) mk.py $$HOME"]) == ['"$(:)" mk.py $HOME']
    assert texts_run("make", ["-C", "build", "all"]) == []


def test_p3_one_set_of_find_actions_running_a_command() -> None:
    assert shell_statements._FIND_ACTIONS == FIND_RUNNING
    assert {*FIND_ENDS, "+"} == link_texts._ARGUMENTS_END
