"""P-3: a name-only substitution, text piped into a shell and a loop's value, read soundly.

``target`` holds another Workspace's scope folder; ``mk.py`` makes ``lnk`` lead there. The
guard reads ``$(date +%F)``, ``$(nproc)``, ``$(whoami)`` as one harmless name: only while the
command cannot change what they print. A command defining a function or alias, setting
``PATH`` (``./nproc`` found first) or a zone/locale (``date +%Z`` prints a zone name the
command chose) makes them print anything: such a substitution is left to the shell (review
round 55: each form wrote into the other scope). Text piped into a shell is code: it is that
shell's ``-c`` code when plain ``echo`` prints literal words, unknown code otherwise. A loop
or array variable the command fills from a pattern is filled however the command spells it
(a quoted ``;`` in the list, a line continuation, ``a=(*.txt)``, ``set -- *.txt; for f``, a
copy ``g=$f``, a here-document or here-string). Each refused form is refused by every
harness in this process; three are run by one bash, which writes into the other scope.
"""

from __future__ import annotations

from tests.support.guard_cases import (
    Layout,
    bash_writes_through_lnk,
    let_through,
    refused_before_new_writes,
)

MAKES_LINK = "import os; os.symlink(open('target').read().strip(), 'lnk')\n"
"""``mk.py``: makes ``lnk`` lead where the file ``target`` says (no memory named)."""
QUOTED_NAME = "x'+str(__import__('mk'))+'.txt"
"""A file's name holding quotes: put inside ``open('…')`` it imports ``mk``."""

REDEFINED_NAMES = [
    'date() { cat target; }; cp note.md "$(date)/a.md"',
    'PATH=.:$PATH; cp note.md "$(nproc)/b.md"',
    'whoami() { cat target; }; echo x > "$(whoami)/c.md"',
    'date() { cat mk.py; }; python3 -c "$(date)" && echo x > lnk/a.md',
    "export TZ='<mkl>0'; python3 -c \"import $(date +%Z)\" && echo x > lnk/a.md",
    'function hostname { cat target; }; echo x > "$(hostname)/d.md"',
    "alias nproc='cat target'; echo x > \"$(nproc)/e.md\"",
    'hash -p ./nproc nproc; cp note.md "$(nproc)/f.md"',
    "export PATH=.:$PATH; cp note.md `nproc`/g.md",
    'LC_ALL=C TZ=x python3 -c "import $(date +%a)" && echo x > lnk/a.md',
    'python3 -c "import $(date +mk%n)" && echo x > lnk/a.md',
    "date() { cat target; }; export -f date; bash -c 'cp note.md \"$(date)/h.md\"'",
    "export TZ='<mkl>0'; sh -c 'python3 -c \"import $(date +%Z)\"' && echo x > lnk/a.md",
    "bash -c 'date() { cat target; }; cp note.md \"$(date)/i.md\"'",
    "env 'BASH_FUNC_date%%=() { cat target; }' bash -c 'cp note.md \"$(date)/j.md\"'",
    'cp note.md "notes$(date +)/k.md"',
    'echo x > "notes$(date -u +)/l.md"',
    "export TZ=$PWD/zone; cp note.md $(date)",
    "export TZDIR=. TZ=zone; touch $(date)",
    'export TZ=$PWD/zone2; sh -c "$(date)"; echo x > lnk/a.md',
]
"""Name-only substitutions the command redefines (a function, an alias, ``PATH``, ``hash
-p``) or whose output it chooses (``TZ`` with ``%Z``, a locale's day name, ``%n``), or that
print nothing (``date +``: ``notes$(date +)/k.md`` is ``notes/k.md``, review55h), or a bare
``date`` beside a zone the command names (a zone file may name its zone ``<scope>/tz.md`` or
``\npython3 mk.py``: review55i)."""

PIPED_INTO_A_SHELL = [
    "echo cp note.md '$(cat target)/p.md' | bash",
    "echo 'cp note.md \"$(cat target)/b.md\"' | sh",
    "printf 'cp note.md %s/c.md\\n' '$(cat target)' | bash",
    'echo() { command echo cp note.md "$(cat target)/d.md"; }; echo x | bash',
    "echo cp note.md \"'$(cat target)'/e.md\" | bash",
    "echo cp note.md {'$(cat target)',}/f.md | X=1 sh -s",
    "{ echo cp note.md '$(cat target)/g.md'; } | bash",
    "echo cp note.md '$(cat target)/h.md' |& bash",
    "echo cp note.md '$(cat target)/i.md' | tee /dev/null | bash",
    "bash < <(echo cp note.md '$(cat target)/j.md')",
]
"""Text printed into a shell's pipe (or a process substitution it reads), which it runs as
code: plain ``echo``'s read as ``-c`` code, any other printer's unknown."""

LOOP_VALUES = [
    "for f in 'a;' *.txt; do python3 -c \"open('$f')\" 2>/dev/null; done; echo x > lnk/a.md",
    "for f in \\\n *.txt; do python3 -c \"open('$f')\" 2>/dev/null; done; echo x > lnk/a.md",
    "a=(*.txt); for i in 0 1 2; do python3 -c \"open('${a[$i]}')\" 2>/dev/null; done;"
    " echo x > lnk/a.md",
    "set -- *.txt; for f; do python3 -c \"open('$f')\" 2>/dev/null; done; echo x > lnk/a.md",
    "for f in *.txt; do g=$f; python3 -c \"open('$g')\" 2>/dev/null; done; echo x > lnk/a.md",
    "for f in *.txt; do python3 - <<EOF 2>/dev/null\nopen('$f')\nEOF\ndone; echo x > lnk/a.md",
    "for f in *.txt; do python3 <<< \"open('$f')\" 2>/dev/null; done; echo x > lnk/a.md",
]
"""A value filled from a pattern's matches put into an interpreter's code, however the
command spells the loop or the copy."""

PROVED_BY_BASH = [REDEFINED_NAMES[0], REDEFINED_NAMES[4], PIPED_INTO_A_SHELL[0]]
"""Three of them, run by one bash: each really writes into the other scope."""

EVERYDAY = [
    'git commit -m "release $(date +%F)"',
    "make -j$(nproc)",
    "mkdir -p build-$(date +%Y%m%d) && cp a build-$(date +%Y%m%d)/",
    'mkdir -p out && echo "built by $(whoami) on $(hostname)" > out/stamp',
    "tar czf backup-$(date +%F).tgz src",
    'for f in *.py; do black "$f"; done',
    'for f in src/*.py; do python -m py_compile "$f"; done',
    "cat x.sh | bash -n",
    "echo hello | bash -n",
    "echo y | bash x.sh",
    "diff <(echo a) <(echo b)",
    'echo "built $(date -u +%FT%TZ)" >> logs/build-$(date +%Y%m%d).log',
    "LC_ALL=C cp x.sh x.sh.bak-$(date +%F)",
    "export TZ=UTC; mkdir -p runs/$(date +%F) && cp x.sh runs/$(date +%F)/",
]
"""Everyday forms the name-only reading and the loop reading exist for; a zone or a locale
changes no digit field of ``date`` (review55h: refused by a first reading)."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "mk.py").write_text(MAKES_LINK, encoding="utf-8")
    (work / "mkl.py").write_text(MAKES_LINK, encoding="utf-8")
    (work / QUOTED_NAME).write_text("", encoding="utf-8")
    (work / "note.md").write_text("note\n", encoding="utf-8")
    (work / "a.txt").write_text("a\n", encoding="utf-8")
    (work / "x.sh").write_text("echo hi\n", encoding="utf-8")
    nproc = work / "nproc"
    nproc.write_text("#!/bin/sh\ncat target\n", encoding="utf-8")
    nproc.chmod(0o755)


def test_p3_a_name_only_substitution_the_command_can_redefine_is_left_to_the_shell(
    where: Layout,
) -> None:
    _prepared(where)

    assert let_through(where, REDEFINED_NAMES) == {}
    env = {"PATH": "/usr/bin:/bin", "HOME": str(where.root)}
    written = bash_writes_through_lnk(where, PROVED_BY_BASH, env=env)
    assert written >= {"a.md", "1.md", "p.md"}


def test_p3_text_piped_into_a_shell_is_judged_as_its_code(where: Layout) -> None:
    _prepared(where)

    assert let_through(where, PIPED_INTO_A_SHELL) == {}


def test_p3_a_value_filled_from_a_pattern_is_filled_however_the_loop_is_spelt(
    where: Layout,
) -> None:
    _prepared(where)

    assert let_through(where, LOOP_VALUES) == {}


def test_p3_everyday_name_only_substitutions_and_loops_pass(where: Layout) -> None:
    _prepared(where)

    assert refused_before_new_writes(where, EVERYDAY) == {}
