"""P-3: ``sed -i`` and ``perl -i`` rewrite their files, not their scripts.

``sed -i 's/[[:space:]]*$//' src/app.py`` was refused as a write to a place the shell builds
at run time: the guard's words carry no quoting, so the script (``sed``'s first operand, the
argument of ``-e``) was read as a file operand and its ``$`` (an end of line, in single quotes)
as an expansion. Coding agents send such edits all day. The script is now set apart from the
files (:func:`harness_memory.hooks.in_place.edited_files`); a file operand built at run time
is refused as before, whichever way the script is given, and bash really edits the other
scope's ``MEMORY.md`` with each refused form.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from harness_memory.hooks.in_place import sed_prints_only

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    answers_of_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    refusal,
    refusals_by_every_harness,
)

EVERYDAY_EDITS = [
    ("sed -i 's/[[:space:]]*$//' app.py", "x = 1\n"),
    ("sed -i -e 's/ *$/!/' app.py", "x = 1!\n"),
    ('sed -i "s/^x = .*$/x = 3/" app.py', "x = 3\n"),
    ("sed -i.bak -E 's/(1) +$/\\1/' app.py", "x = 1\n"),
    ("sed -ri 's/\\s+$//' app.py", "x = 1\n"),
    ("sed -i '/^$/d' app.py", "x = 1   \n"),
    ("sed -i '$a\\y = 2' app.py", "x = 1   \ny = 2\n"),
    ("sed --expression='s/ *$//' -i app.py", "x = 1\n"),
    ("perl -pi -e 's/ +$//' app.py", "x = 1\n"),
    ("perl -i -pe 's/1 *$/4/' app.py", "x = 4\n"),
    ("perl -0pi -e 's/\\s+$/\\n/' app.py", "x = 1\n"),
    ("perl -i.orig -ne 'print if /\\S$/ || 1' app.py", "x = 1   \n"),
]
"""Edits whose script holds a ``$``, each with what bash leaves in ``app.py`` (``x = 1   ``)."""


@pytest.mark.parametrize(("command", "edited"), EVERYDAY_EDITS)
def test_p3_an_in_place_edit_whose_script_holds_a_dollar_passes(
    where: Layout, command: str, edited: str
) -> None:
    """Each was refused as a run-time write; bash edits only the file named."""
    app = where.workspace / "app.py"
    app.write_text("x = 1   \n", encoding="utf-8")

    assert answers_of_every_harness(where, command) == dict.fromkeys(SHELL), command
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True)
    assert app.read_text(encoding="utf-8") == edited


@pytest.mark.parametrize(
    "command",
    [
        "sed -i 's/$/ x/' \"$(cat target)/MEMORY.md\"",
        "sed -i -e 's/$/ x/' \"$(cat target)/MEMORY.md\"",
        "sed -ie 's/$/ x/' \"$(cat target)/MEMORY.md\"",  # -i with the suffix e
        "sed --expression='s/$/ x/' -i \"$(cat target)/MEMORY.md\"",
        "sed --expr 's/$/ x/' -i \"$(cat target)/MEMORY.md\"",
        'sed -i -f fix.sed "$(cat target)/MEMORY.md"',
        "perl -pi -e 's/$/ x/' \"$(cat target)/MEMORY.md\"",
        "perl -i.bak -pe 's/$/ x/' \"$(cat target)/MEMORY.md\"",
        "perl -0pi -e 's/$/ x/' \"$(cat target)/MEMORY.md\"",
        "perl -pi -e 's/$/ x/' app.py \"$(cat target)/MEMORY.md\"",
    ],
)
def test_p3_an_in_place_edit_of_a_file_built_at_run_time_is_still_refused(
    where: Layout, command: str
) -> None:
    """Run by bash, each rewrites the other scope's index."""
    memory = where.root / where.other / "MEMORY.md"
    memory.write_text("- [a](a.md)\n", encoding="utf-8")
    (where.workspace / "target").write_text(f"{memory.parent}\n", encoding="utf-8")
    (where.workspace / "fix.sed").write_text("s/$/ x/\n", encoding="utf-8")
    (where.workspace / "app.py").write_text("x = 1\n", encoding="utf-8")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "builds at run time" in reason, command
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True)
    assert memory.read_text(encoding="utf-8") == "- [a](a.md) x\n"


PRINTING_ONLY = [
    ["-n", "1,20p"],
    ["-n", "/^\\[remote/,/^\\[/p"],
    ["-e", "s/^/  /", "-e", "/token/d"],
    ["-nE", "/^(index|extra)/p"],
    ["s/a/b/g;s|w|e|2"],
    ["y/abc/xyz/"],
    ["-n", "/w/{p;q}"],
    ["1a w out.txt"],
    ["--sandbox", "w out.txt"],
    ["-s", "-n", "$!N;l 5;="],
    [":a;N;$!ba;s/\\n/ /g"],
    ["-n", "/x/bend;p;:end"],
    ["-n", "s/[[:space:]]*w$//p"],
    ["-e", "1a\\", "-e", "w out.txt"],
]
"""``sed`` words (before its files) whose scripts write nothing but the output: a ``w`` or
``e`` inside a regex, a replacement or ``a``'s text is no command (the last one is
``--sandbox``, where GNU sed itself refuses writing commands)."""
WRITING = [
    ["-n", "w out.txt"],
    ["s/a/b/w out.txt"],
    ["-n", "1,$ W out.txt"],
    ["1e touch out.txt"],
    ["s/.*/touch out.txt/e"],
    ["-i", "1d"],
    ["-f", "script.sed"],
    ["--in-place=.bak", "1d"],
    ["-n", "1p;w out.txt"],
    ["--follow-symlinks", "-n", "p"],
    ["-n", "wout.txt"],
    ["s/a/b/wout.txt"],
    ["-n", "/zzz/b;w out.txt"],
    ["-n", "1!b;w out.txt"],
    ["-n", ":a;w out.txt"],
    ["-n", "/x/T;W out.txt"],
    ["-n", "/zzz/b;s/a/b/w out.txt"],
    ["-n", "1{/zzz/bx};w out.txt"],
    ["-n", "/zzz/b x w out.txt"],
    ["-n", "v;w out.txt"],
    ["-n", "s/[/]/g;a/;w out.txt"],
    ["-n", "/[/]/b;w out.txt"],
]
"""``sed`` words that may write a file or run a program: refused as writers. GNU sed ends a
label (``b``, ``t``, ``T``, ``:``, ``v``) at white space, ``;``, ``#`` or ``}``, and a bracket
expression in a regex holds its delimiter (``s/[/]/g;a/`` is one ``s``)."""


@pytest.mark.parametrize(
    ("words", "prints"), [(w, True) for w in PRINTING_ONLY] + [(w, False) for w in WRITING]
)
def test_p3_a_sed_that_only_prints_is_told_from_one_that_writes(
    tmp_path: Path, words: list[str], prints: bool
) -> None:
    """:func:`~harness_memory.hooks.in_place.sed_prints_only` reads the scripts; each one
    read as printing only, run by GNU sed on a file, leaves the folder as it was."""
    operands = [(word, False) for word in [*words, "f.txt"]]

    assert sed_prints_only(operands) is prints, words
    if prints:
        (tmp_path / "f.txt").write_text("a w b\n", encoding="utf-8")
        before = sorted(path.name for path in tmp_path.iterdir())
        subprocess.run(["sed", *words, "f.txt"], cwd=tmp_path, capture_output=True, timeout=30)
        assert sorted(path.name for path in tmp_path.iterdir()) == before, words


@pytest.mark.parametrize("words", [w for w in WRITING if "out.txt" in w[-1] and "e" not in w[-1]])
def test_p3_each_sed_read_as_a_writer_does_write_with_gnu_sed(
    tmp_path: Path, words: list[str]
) -> None:
    """Run by GNU sed, each script read as writing creates ``out.txt`` (opened as sed reads
    the script): the reading matches the program's."""
    (tmp_path / "f.txt").write_text("a w b\n", encoding="utf-8")
    subprocess.run(["sed", *words, "f.txt"], cwd=tmp_path, capture_output=True, timeout=30)
    assert (tmp_path / "out.txt").exists(), words


SED_WRITES_ELSEWHERE = [
    "sed -n 'wnotes/pwn.md' f.txt",
    "sed 's/a/b/wnotes/pwn.md' f.txt",
    "sed -n 'Wnotes/pwn.md' f.txt",
    "sed -n '/zzz/b;w{root}/{other}/pwn.md' f.txt",
    "sed -n '1!b;w{root}/{other}/pwn.md' f.txt",
    "sed -n ':a;w{root}/{other}/pwn.md' f.txt",
    "sed -n '/x/T;W{root}/{other}/pwn.md' f.txt",
    "sed -n '/zzz/b;s/a/b/w{root}/{other}/pwn.md' f.txt",
    "sed -n '1{{/zzz/bx}};w{root}/{other}/pwn.md' f.txt || true",
    "sed -n 's/[/]/g;a/;wnotes/pwn.md' f.txt",
    "sed -n -e '/x/bx' -e ':x' -e 'wnotes/pwn.md' f.txt",
    "sed -i 's/a/b/wnotes/pwn.md' f.txt",
    'R={root}; sed -n "1{{s/a/b/;}};w$R/{other}/pwn.md" f.txt',
]
"""``sed`` commands whose ``w``/``W``/``s///w`` names a file in another scope, glued to the
command, after a label or through the Workspace's link to that scope."""


@pytest.mark.parametrize("command", SED_WRITES_ELSEWHERE)
def test_p3_a_sed_writing_into_another_scope_is_refused(where: Layout, command: str) -> None:
    """Each was allowed; refused now, and bash writes ``pwn.md`` into the other scope."""
    (where.workspace / "f.txt").write_text("a\n", encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, command)


def test_p3_a_sed_writing_a_file_named_at_run_time_is_refused(where: Layout) -> None:
    """``w`` glued to a name built at run time: refused as such; bash writes there."""
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.workspace / "f.txt").write_text("a\n", encoding="utf-8")
    command = 'sed -n "w$(cat target)/pwn.md" f.txt'

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "builds at run time" in reason, reason
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True)
    assert (other / "pwn.md").exists()


SED_SCRIPTS_BUILT_AT_RUN_TIME = [
    'sed -n "$(cat script)" f.txt',
    'sed -n -e "$(cat script)" f.txt',
    'S=$(cat script); sed -n "$S" f.txt',
    'sed -n "1p;$(cat script)" f.txt',
    'sed "s|a|$(cat replacement)|" f.txt',
    "sed -n `cat script` f.txt",
    'S=$(cat script); sed -n "${S}" f.txt',
    'sed -n "${X:-$(cat script)}" f.txt',
    'sed -n "$(( 1 ))p;$(cat script)" f.txt',
]
"""A ``sed`` script the shell builds at run time from data: ``script`` holds ``w`` and a file
in another scope; ``replacement`` closes the ``s`` early, adds its ``w`` flag and makes the rest
a comment."""


@pytest.mark.parametrize("command", SED_SCRIPTS_BUILT_AT_RUN_TIME)
def test_p3_a_sed_script_built_at_run_time_is_refused(where: Layout, command: str) -> None:
    """Its ``w`` is in data the guard cannot read, not in the command: the file it writes is
    known only at run time, as ``w$(cat target)``'s is. Each was allowed; refused now, and
    bash writes ``pwn.md`` into the other scope."""
    other = where.root / where.other
    (where.workspace / "f.txt").write_text("a\n", encoding="utf-8")
    (where.workspace / "script").write_text(f"w{other}/pwn.md\n", encoding="utf-8")
    (where.workspace / "replacement").write_text(f"b|w{other}/pwn.md\n#", encoding="utf-8")

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None and "builds at run time" in reason, (harness, reason)
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True, capture_output=True)
    assert (other / "pwn.md").exists(), command


@pytest.mark.parametrize(
    "command",
    [
        'sed -n "${N}p" f.txt',
        'sed -n "${start},${end}p" f.txt',
        'sed -n "$((n+1))p" f.txt',
        'sed "${LINE}d" f.txt > g.txt',
        'cat f.txt | sed "s/^/${PREFIX}/"',
        'n=2; sed -n "$((n+1))p" f.txt',
    ],
)
def test_p3_a_sed_script_holding_a_variable_or_arithmetic_passes(
    where: Layout, command: str
) -> None:
    """A variable the command does not assign (the caller's line number or prefix, ``$N`` or
    ``${N}`` alike) and arithmetic (``$((n+1))``) put a number or plain text into the script,
    never a command: these printing ``sed``s were refused once ``${…}`` was read as data."""
    (where.workspace / "f.txt").write_text("a\nb\nc\n", encoding="utf-8")

    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
