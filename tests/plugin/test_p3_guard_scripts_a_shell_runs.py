"""P-3: the script file a shell of the call runs is read, and code printed into its pipe is read.

Round 56 (H-3): ``bash evil.sh`` where ``evil.sh`` (on disk) copies a note into another
Workspace's scope, ``sh evil.sh``, ``. ./evil.sh``, ``source evil.sh``, ``bash < evil.sh``,
``cat evil.sh | bash``, ``bash -s -- a < evil.sh``, ``./evil.sh``, ``bash -c "$(cat
evil.sh)"``, ``eval "$(< evil.sh)"``, behind a runner (``nice``, ``timeout``, ``flock``,
``xargs``, ``find -exec``…) or in a group, were let through: the guard read a script only
when settings ran it. So was a script the same command writes from text built at run time
(``printf 'cp note.md %s/a.md' "$(cat target)" > s.sh; bash s.sh``), and code ``printf`` or
``echo -e`` print into a shell's pipe through an escape (``printf 'cp note.md \\x24(cat
target)/a.md' | bash``). Each form is refused here in every harness, then run by one bash
process, which writes into the other scope.

The rule: a script a shell of the call runs (its operand, ``source``/``.``, a file fed on its
standard input, ``$(cat FILE)`` as its ``-c`` or ``eval`` code, a program run by its path) is
read when it exists and is judged by the memory its text names (a script it runs in turn
followed); one past the guard's size cap, no regular file, or written by the same command
(by any of its writers since round 57: ``test_p3_guard_scripts_written_by_any_writer``) is
refused, to be written in a command of its own. Everyday forms pass: scripts naming no other
memory (``bash install.sh``, ``bash -s -- --prefix=/tmp/x < install.sh``, ``chmod +x gradlew &&
./gradlew``), a program the command compiles (``gcc -o app x.c && ./app``), code
``printf``/``echo -e`` print and the guard reads (``printf '%s\\n' a b | bash -n``, ``echo -e
'ls' | bash``).
"""

from __future__ import annotations

import subprocess

import pytest
from harness_memory.hooks.printed_text import echo_text, printf_text

from tests.support.guard_cases import Layout, fill, refusals_by_every_harness

RUN_TIME = '"$(cat target)"/a{at}.md'
"""A place in the other scope, built at run time (``target`` names that scope)."""

SCRIPTS_ON_DISK = [
    "bash evil.sh",
    "sh evil.sh",
    "bash -x ./evil.sh",
    "nice -n 5 bash evil.sh",
    "timeout 5 sh evil.sh",
    "flock f bash evil.sh",
    "env -i bash evil.sh",
    "{ bash evil.sh; }",
    "( bash evil.sh )",
    "if true; then bash evil.sh; fi",
    ". ./evil.sh",
    "source evil.sh",
    "bash < evil.sh",
    "sh -s < evil.sh",
    "bash -s -- a < evil.sh",
    "cat evil.sh | bash",
    "cat evil.sh | nice bash -s",
    "bash /dev/stdin < evil.sh",
    "bash /dev/fd/3 3< evil.sh",
    "chmod +x evil.sh && ./evil.sh",
    "echo x | xargs bash evil.sh",
    "find . -name note.md -exec sh evil.sh {} \\;",
    "find . -name note.md -exec ./evil.sh {} +",
    'bash -c "$(cat evil.sh)"',
    'eval "$(< evil.sh)"',
]
"""Forms running ``evil.sh``, a script on disk copying ``note.md`` into the other scope."""

WRITTEN_THEN_RUN = [
    f"printf 'cp note.md %s\\n' {RUN_TIME} > s{{at}}.sh; bash s{{at}}.sh",
    f"printf 'cp note.md %s\\n' {RUN_TIME} > s{{at}}.sh; . ./s{{at}}.sh",
    f"printf 'cp note.md %s\\n' {RUN_TIME} > s{{at}}.sh; cat s{{at}}.sh | bash",
    f"printf 'cp note.md %s\\n' {RUN_TIME} > s{{at}}.sh; chmod +x s{{at}}.sh; ./s{{at}}.sh",
    "printf 'cp note.md \\x24(cat target)/a{at}.md\\n' | bash",
    "echo -e 'cp note.md \\0044(cat target)/a{at}.md' | bash",
    "printf '%b' 'cp note.md \\x24(cat target)/a{at}.md' | bash -n +n",
]
"""Forms whose script is written by the same command from text built at run time, or printed
into a shell's pipe through an escape: each writes ``a<at>.md`` into the other scope."""

EVERYDAY = [
    "printf '%s\\n' a b | bash -n",
    "echo -e 'ls' | bash",
    "printf 'ls\\n' | bash",
    'echo "print(1)" | python3',
    "bash -s -- arg < install.sh",
    "cat install.sh | bash -s -- --prefix=/tmp/x",
    "bash install.sh; bash install.sh",
    ". ./install.sh",
    "chmod +x install.sh && ./install.sh",
    "gcc -o app x.c && ./app",
    "bash -s < /dev/null",
    'eval "$(cat install.sh)"',
    "for f in *.json; do python3 -c \"import json; json.load(open('$f'))\"; done",
    "nice -n 10 make -j2",
    "find . -name '*.sh' -exec bash -n {{}} \\;",
    "ls *.json | xargs -n1 bash install.sh",
    "timeout 60 python3 -m pytest -q",
    "echo x >> {root}/{own}/MEMORY.md",
]
"""Everyday commands running scripts naming no other memory, or code the guard reads."""


def _prepared(where: Layout) -> None:
    """``note.md``, ``target`` naming the other scope, ``evil.sh`` copying there by its path
    (a new name each run),
    a harmless ``install.sh`` and ``a.json``."""
    work, other = where.workspace, where.root / where.other
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "target").write_text(f"{other}\n", encoding="utf-8")
    (work / "evil.sh").write_text(f'cp note.md "$(mktemp -p {other})"\n', encoding="utf-8")
    (work / "install.sh").write_text("echo installing\nmkdir -p build\n", encoding="utf-8")
    (work / "a.json").write_text("{}\n", encoding="utf-8")


def _let_through(where: Layout, commands: list[str]) -> dict[str, dict[str, str | None]]:
    """Each of ``commands`` (filled) some harness lets through, with every harness's refusal."""
    seen = {command: refusals_by_every_harness(where, command) for command in commands}
    return {command: each for command, each in seen.items() if None in each.values()}


def test_p3_a_script_a_shell_runs_naming_another_scope_is_refused_and_bash_writes_there(
    where: Layout,
) -> None:
    _prepared(where)

    assert _let_through(where, SCRIPTS_ON_DISK) == {}
    for command in SCRIPTS_ON_DISK:
        reasons = refusals_by_every_harness(where, command)
        named = ("evil.sh", "/dev/fd/3")  # a descriptor's code: unknown, never opened here
        assert all(any(name in str(reason) for name in named) for reason in reasons.values())
    proof = "\n".join(f"( {command} ) </dev/null" for command in SCRIPTS_ON_DISK)
    subprocess.run(["bash", "-c", proof], cwd=where.workspace, capture_output=True, check=False)
    copies = [path for path in (where.root / where.other).iterdir() if path.name != "MEMORY.md"]
    assert len(copies) == len(SCRIPTS_ON_DISK)  # one copy per form


def test_p3_a_script_written_or_printed_by_the_same_command_is_refused_and_bash_writes_there(
    where: Layout,
) -> None:
    _prepared(where)
    commands = [command.format(at=at) for at, command in enumerate(WRITTEN_THEN_RUN)]

    assert _let_through(where, commands) == {}
    proof = "\n".join(f"( {command} ) </dev/null" for command in commands)
    subprocess.run(["bash", "-c", proof], cwd=where.workspace, capture_output=True, check=False)
    written = {path.name for path in (where.root / where.other).iterdir()}
    assert written >= {f"a{at}.md" for at in range(len(commands))}


def test_p3_everyday_scripts_and_printed_code_pass(where: Layout) -> None:
    _prepared(where)

    answers = {
        command: refusals_by_every_harness(where, fill(command, where)) for command in EVERYDAY
    }

    assert {command: seen for command, seen in answers.items() if any(seen.values())} == {}


def test_p3_a_script_written_by_the_same_command_is_refused_saying_so(where: Layout) -> None:
    _prepared(where)

    for command in ("echo ls > s.sh; bash s.sh", "echo ls > s.sh; ./s.sh"):
        for reason in refusals_by_every_harness(where, command).values():
            assert reason is not None
            assert "written by the same command" in reason, reason
            assert "Write the script in a command of its own" in reason, reason


PRINTED = [
    ("printf", ["%s\\n", "a", "b"]),
    ("printf", ["%s-%s\\n", "a", "b", "c"]),
    ("printf", ["cp x \\x2fsrv/a.md %d|%b|%%", "12", "q\\ncz"]),
    ("printf", ["\\101\\7\\0"]),
    ("printf", ["%b%s", "x\\cy", "z"]),
    ("printf", ["--", "%i\\n"]),
    ("printf", ["u%d/%i", "0", "-7"]),
    ("echo", ["-ne", "a\\tb\\x2fc\\0101"]),
    ("echo", ["-e", "a\\cb"]),
    ("echo", ["-n", "-x", "y"]),
    ("echo", ["-E", "a\\nb"]),
]
"""``echo`` and ``printf`` words whose printed text the guard computes."""
NOT_COMPUTED = [
    ("printf", ["%5s", "a"]),
    ("printf", ["-v", "x", "%s", "a"]),
    ("printf", ["%d", "1x"]),
    ("printf", ["u%d/x", "010"]),  # bash reads a leading 0 as octal: u8
    ("printf", ["%i", "-010"]),
    ("printf", ["%d", "99999999999999999999999"]),  # past 2**63: bash clamps and warns
    ("printf", ["a\\cb"]),
    ("echo", ["-e", "\\101"]),
]
"""Forms the guard does not compute (bash's versions differ, or a width): None."""


@pytest.mark.parametrize(("printer", "words"), PRINTED)
def test_p3_printed_text_is_what_bash_prints(printer: str, words: list[str]) -> None:
    computed = echo_text(words) if printer == "echo" else printf_text(words)
    printed = subprocess.run(
        ["bash", "-c", f'{printer} "$@"', "_", *words], capture_output=True, check=True
    ).stdout.decode("utf-8", "surrogateescape")

    assert computed == printed


@pytest.mark.parametrize(("printer", "words"), NOT_COMPUTED)
def test_p3_printed_text_the_guard_does_not_compute_is_none(printer: str, words: list[str]) -> None:
    assert (echo_text(words) if printer == "echo" else printf_text(words)) is None
