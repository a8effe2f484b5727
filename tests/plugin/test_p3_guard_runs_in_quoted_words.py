"""P-3: a program named in a quoted word another program may run is a program that may run.

``mk.py`` makes ``lnk`` lead into another Workspace's scope; each command below runs it in a
way the guard sees only as a quoted word given to some program (``npx -c 'python3 mk.py'``,
``trap '…' DEBUG``, ``export X='…'; eval "$X"``, ``python3 -c "os.system('…')"``), then
writes through ``lnk``. Read as data (a word the program only reads), ``python3 mk.py`` was no
program run, the write was let through, and bash wrote into the other scope. Only a first word
named at run time (``echo "$USER did it"``) is data; everyday commands with one stay allowed
(``tests/plugin/test_p3_everyday_commands.py``).

A script file after an interpreter's option taking a value (``perl -Mautodie mk.pl``,
``python3 -W ignore mk.py``) or after one that is no code option of that interpreter
(``python3 -E``, ``perl -p``) is a script file, read for its links, not inline code.

Each refused form is run by bash where its program is there (and, for ``chroot``/``sg``, the
tests run as root): it really writes into the other scope.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)

MAKES_LINK = "import os; os.symlink(open('target').read().strip(), 'lnk')\n"
"""``mk.py``: makes ``lnk`` lead where the file ``target`` says (no memory named)."""
ROOT = os.geteuid() == 0
"""``chroot /`` and ``sg root`` run only for root (else they fail or ask a password)."""


def _strace_runs() -> bool:
    """Whether ``strace`` is there and may trace here (a container may forbid ptrace)."""
    if shutil.which("strace") is None:
        return False
    probe = ["strace", "-f", "-o", "/dev/null", "true"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def _there(*names: str) -> bool:
    return all(shutil.which(name) for name in names)


STRACE = _strace_runs()
QUOTED_RUNS = [
    ("chroot / sh -c 'cd {workspace} && python3 mk.py' && echo x > lnk/a.md", ROOT),
    ("unshare sh -c 'python3 mk.py' && echo x > lnk/a.md", _there("unshare")),
    ("sg root -c 'python3 mk.py' && echo x > lnk/a.md", ROOT and _there("sg")),
    ("strace -f -o /dev/null sh -c 'python3 mk.py' && echo x > lnk/a.md", STRACE),
    ("npx -c 'python3 mk.py' && echo x > lnk/a.md", _there("npx")),
    ("npm exec -c 'python3 mk.py' && echo x > lnk/a.md", _there("npm")),
    ("make --eval='x: ; python3 mk.py' x && echo x > lnk/a.md", _there("make")),
    ("make -E 'x: ; python3 mk.py' x && echo x > lnk/a.md", _there("make")),
    (  # the pane's own sign, a file: tmux's wait-for can lose it when the session ends first
        "tmux -S tm new-session -d 'python3 mk.py; touch made'; "
        "until [ -e made ]; do sleep 0.1; done; echo x > lnk/a.md",
        _there("tmux"),
    ),
    ("trap 'python3 mk.py 2>/dev/null' DEBUG; echo x > lnk/a.md", True),
    ("trap 'python3 mk.py' ERR; false; echo x > lnk/a.md", True),
    ("mapfile -C 'python3 mk.py #' -c 1 A < note.md; echo x > lnk/a.md", True),
    ("flock f -c 'python3 mk.py' && echo x > lnk/a.md", _there("flock")),
    # a value eval runs later, assigned by a builtin as by a bare assignment
    ("export X='python3 mk.py'; eval \"$X\" && echo x > lnk/a.md", True),
    ("readonly X='python3 mk.py'; eval \"$X\" && echo x > lnk/a.md", True),
    ("typeset X='python3 mk.py'; eval \"$X\" && echo x > lnk/a.md", True),
    ("declare X='python3 mk.py'; eval \"$X\" && echo x > lnk/a.md", True),
    ("f() {{ local X='python3 mk.py'; eval \"$X\"; }}; f && echo x > lnk/a.md", True),
    ("printf -v X '%s' 'python3 mk.py'; eval \"$X\" && echo x > lnk/a.md", True),
    ("export X='$P mk.py'; P=python3; eval \"$X\" && echo x > lnk/a.md", True),
    ("X='$P mk.py'; P=python3; eval \"$X\" && echo x > lnk/a.md", True),
    ("readonly X='$P mk.py'; P=python3; eval \"$X\" && echo x > lnk/a.md", True),
    ("printf -v X '%s' '$P mk.py'; P=python3; eval \"$X\" && echo x > lnk/a.md", True),
    ("a=ev; b=al; X='$P mk.py'; P=python3; $a$b \"$X\" && echo x > lnk/a.md", True),
    ('X=\'$P mk.py\'; P=python3; e""val "$X" && echo x > lnk/a.md', True),
    ("export X='$P mk.py' P=python3; bash -c 'eval \"$X\"' && echo x > lnk/a.md", True),
    # a value adding to its own variable: what follows that first word may name a program
    ('X=true; X="$X;python3 mk.py"; eval "$X" && echo x > lnk/a.md', True),
    ('CMD=true; CMD="$CMD && python3 mk.py"; eval "$CMD" && echo x > lnk/a.md', True),
    ('X="$X python3 mk.py"; eval "$X" && echo x > lnk/a.md', True),
    ('X="${{X}}python3 mk.py"; eval "$X" && echo x > lnk/a.md', True),
    ('X="${{X:-python3 mk.py}}"; eval "$X" && echo x > lnk/a.md', True),
    ('X="${{X:=python3 mk.py}}"; eval "$X" && echo x > lnk/a.md', True),
    ('export X="$X python3 mk.py"; eval "$X" && echo x > lnk/a.md', True),
    # text echoed into a program that runs it
    ("echo 'python3 mk.py' | xargs -I{{}} sh -c '{{}}' && echo x > lnk/a.md", True),
    ("echo 'python3 mk.py' | xargs -0 sh -c && echo x > lnk/a.md", True),
    ("echo 'python3 mk.py' | command sh && echo x > lnk/a.md", True),
    ("echo 'python3 mk.py' | sg root -c sh && echo x > lnk/a.md", ROOT and _there("sg")),
    ("echo 'python3 mk.py' | strace -o /dev/null sh && echo x > lnk/a.md", STRACE),
    ("echo 'python3 mk.py' | unshare sh && echo x > lnk/a.md", _there("unshare")),
    ("echo 'python3 mk.py' | while read -r c; do eval \"$c\"; done && echo x > lnk/a.md", True),
    (
        "echo 'python3 mk.py' | python3 -c 'import os,sys; os.system(sys.stdin.read())' "
        "&& echo x > lnk/a.md",
        True,
    ),
    # an interpreter's code running a shell command
    ("python3 -c \"import os; os.system('python3 mk.py')\" && echo x > lnk/a.md", True),
    ("python3 -c \"import os; os.popen('python3 mk.py').read()\" && echo x > lnk/a.md", True),
    ("perl -e 'system(\"python3 mk.py\")' && echo x > lnk/a.md", _there("perl")),
    ("awk 'BEGIN{{system(\"python3 mk.py\")}}' && echo x > lnk/a.md", _there("awk")),
    ('awk \'BEGIN{{print "python3 mk.py" | "sh"}}\' && echo x > lnk/a.md', _there("awk")),
    (
        "node -e \"require('child_process').execSync('python3 mk.py')\" && echo x > lnk/a.md",
        _there("node"),
    ),
    # judged by the hook alone where the program is not there (or needs a daemon)
    ("sudo -s 'python3 mk.py' && echo x > lnk/a.md", False),
    (
        "docker run --rm -v \"$PWD\":/w -w /w python:3 sh -c 'python3 mk.py' && echo x > lnk/a.md",
        False,
    ),
    ("uv run sh -c 'python3 mk.py' && echo x > lnk/a.md", False),
    ("nix-shell --run 'python3 mk.py' && echo x > lnk/a.md", False),
    ("systemd-run --user --wait sh -c 'python3 mk.py' && echo x > lnk/a.md", False),
    ("emacs --batch --eval '(shell-command \"python3 mk.py\")' && echo x > lnk/a.md", False),
]
"""Each was let through since quoted words were read as data (05b9f107); with whether bash
runs it here."""
SCRIPTS_AFTER_OPTIONS = [
    ("perl -Mautodie mk.pl && echo x > lnk/a.md", _there("perl")),
    ("perl -Mre mk.pl && echo x > lnk/a.md", _there("perl")),
    ("perl -Iinclude mk.pl && echo x > lnk/a.md", _there("perl")),
    ("perl -I include mk.pl && echo x > lnk/a.md", _there("perl")),
    ("perl -p mk.pl note.md && echo x > lnk/a.md", _there("perl")),
    ("perl -F, mk.pl note.md && echo x > lnk/a.md", _there("perl")),
    ("python3 -E mk.py && echo x > lnk/a.md", True),
    ("python3 -W ignore mk.py && echo x > lnk/a.md", True),
    ("python3 -X dev mk.py && echo x > lnk/a.md", True),
    ("ruby -rdate mk.rb && echo x > lnk/a.md", _there("ruby")),
    ("ruby -r date mk.rb && echo x > lnk/a.md", _there("ruby")),
    ("ruby -E UTF-8 mk.rb && echo x > lnk/a.md", _there("ruby")),
]
"""A script file after an option taking a value (``-Mautodie``, ``-W ignore``), or after one
that is no code option of that interpreter (``python3 -E``, ``perl -p``): each was read as
inline code, and its link never seen."""
PRELOADED = [
    ("node --require ./mk.js app.js && echo x > lnk/a.md", _there("node")),
    ("node --import ./mk.js app.js && echo x > lnk/a.md", _there("node")),
    ("node --require ./mk.js -e 1 && echo x > lnk/a.md", _there("node")),
    ("node --loader ./mk.js app.js && echo x > lnk/a.md", _there("node")),
    ("node --experimental-loader ./mk.js app.js && echo x > lnk/a.md", _there("node")),
    ("node -r ./mk.js app.js && echo x > lnk/a.md", _there("node")),
    ("node --require=./mk.js app.js && echo x > lnk/a.md", _there("node")),
    ("node --import=./mk.js app.js && echo x > lnk/a.md", _there("node")),
    ("ruby -r ./mk.rb -e 1 && echo x > lnk/a.md", False),
    ("ruby -r./mk.rb -e 1 && echo x > lnk/a.md", False),
]
"""A file an interpreter loads before its script (``node -r``/``--require``/``--import``/
``--loader``, ruby's ``-r``) is a script that runs: its value was skipped as an option's, and
its link never seen."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "f").write_text("", encoding="utf-8")
    (work / "include").mkdir()
    (work / "mk.py").write_text(MAKES_LINK, encoding="utf-8")
    (work / "mk.pl").write_text(
        'open(my $f, "<", "target"); chomp(my $t = <$f>); symlink($t, "lnk") unless -l "lnk";\n',
        encoding="utf-8",
    )
    (work / "mk.js").write_text(
        "const fs = require('fs');\n"
        "fs.symlinkSync(fs.readFileSync('target', 'utf8').trim(), 'lnk');\n",
        encoding="utf-8",
    )
    (work / "app.js").write_text("", encoding="utf-8")
    (work / "mk.rb").write_text('File.symlink(File.read("target").strip, "lnk")\n', "utf-8")


@pytest.mark.parametrize(("command", "runs"), QUOTED_RUNS + SCRIPTS_AFTER_OPTIONS + PRELOADED)
def test_p3_a_program_run_from_a_quoted_word_or_script_after_options_is_refused(
    where: Layout, command: str, runs: bool
) -> None:
    _prepared(where)
    if runs:
        assert_refused_by_every_harness_and_bash_writes(where, command)
    else:
        refusals = refusals_by_every_harness(where, fill(command, where))
        assert all(refusals.values()), (command, refusals)
