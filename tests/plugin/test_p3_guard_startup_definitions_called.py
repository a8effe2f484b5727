"""P-3: a startup file's definitions the command reaches otherwise than by their literal name
count as the ones it names (round 58).

The guard judges a startup file's definition of a name with the command when the command uses
that name (round 57). Two ways past it, each let through before: a used function calling
another function of the files (``cp() { mycp "$@"; }``, ``mycp`` doing the harm: only
``cp``'s definition was read, F1), and a command spelling the function's name otherwise than
literally (``{cp,x}``, ``c=c; ${c}p``, ``$'\\x63p'``: bash still calls the ``cp`` function,
F2). Each form is refused by the harnesses whose shell runs ``~/.profile`` (Codex CLI's
``bash -lc``, Claude Code's snapshot), allowed by Gemini CLI's ``bash -c`` (which runs none);
one ``bash -lc`` run proves a refused form writes into the other scope; everyday commands
under a home with the usual aliases pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from harness_memory.hooks.called_names import called_patterns

from tests.support.guard_cases import (
    Layout,
    assert_each_refused_by_every_harness,
    fill,
    refusals_by_every_harness,
)

HARM = 'command cp "$1" "$(dirname "$2")/$(cat ~/target).md"'
"""A copy put where ``~/target`` says (the other scope), its text naming no memory."""
COPY = '"{root}/{own}/a.md"'
"""The copy's place as the command names it: the Session's own scope."""
LOGIN = {"codex", "claude-code"}
"""The harnesses whose shell runs ``~/.profile`` before the command."""


def _home(where: Layout, profile: str) -> None:
    """``~/.profile`` holding ``profile`` (filled), ``~/target`` naming the other scope's file
    ``n``, and ``note.md`` in the Workspace."""
    (where.data / "target").write_text(f"../{where.other}/n\n", encoding="utf-8")
    (where.data / ".profile").write_text(fill(profile, where), encoding="utf-8")
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")


def _refusing(where: Layout, command: str) -> set[str]:
    """The harnesses refusing ``command`` (filled)."""
    answers = refusals_by_every_harness(where, fill(command, where))
    return {harness for harness, reason in answers.items() if reason is not None}


@pytest.mark.parametrize(
    ("profile", "command"),
    [
        (f'cp() {{{{ mycp "$@"; }}}}\nmycp() {{{{ {HARM}; }}}}\n', f"cp note.md {COPY}"),
        (f'mycp() {{{{ {HARM}; }}}}\ncp() {{{{ mycp "$@"; }}}}\n', f"cp note.md {COPY}"),
        (
            f'a() {{{{ b "$@"; }}}}\nb() {{{{ c "$@"; }}}}\nc() {{{{ {HARM}; }}}}\n',
            f"a note.md {COPY}",
        ),
        (
            f'a() {{{{ [ -n "$2" ] && b "$@"; }}}}\nb() {{{{ a "" && {HARM}; }}}}\n',
            f"a note.md {COPY}",
        ),
        (f"alias cp=mycp\nmycp() {{{{ {HARM}; }}}}\n", f"cp note.md {COPY}"),
        (
            'cd() {{ builtin cd "$@" && ls; }}\nls() {{ command ls "$@" && pwd; }}\n'
            f"pwd() {{{{ {HARM}; }}}}\n",
            f"cd . && cp note.md {COPY}",
        ),
        (
            "alias pytest='python3 -m pytest'\n"
            'python3() {{ command python3 "$@" && ls; }}\n'
            f"ls() {{{{ {HARM}; }}}}\n",
            "pytest --version",
        ),
    ],
    ids=[
        "function-calls-function",
        "callee-defined-first",
        "three-deep",
        "cycle",
        "alias",
        "wrapper-runs-a-wrapper",  # review58a: each wrapper's own ``&& ls``/``&& pwd`` read
        "module-alias-runs-a-wrapper",
    ],
)
def test_p3_a_startup_function_a_used_one_calls_is_judged_too(
    where: Layout, profile: str, command: str
) -> None:
    """F1: the definitions a used definition calls are read too (cycles and chains bounded)."""
    _home(where, profile)

    assert _refusing(where, command) == LOGIN


@pytest.mark.parametrize(
    "command",
    [
        f"{{{{cp,x}}}} note.md {COPY}",
        f"{{{{c,}}}}p note.md {COPY}",
        f"c=c; ${{{{c}}}}p note.md {COPY}",
        f"c=cp; $c note.md {COPY}",
        f"$'\\x63p' note.md {COPY}",
        f'"c"p note.md {COPY}',
        f"\\cp note.md {COPY}",
        f"c? note.md {COPY}",
        f"{{{{cp,note.md}}}} {COPY}",
    ],
    ids=[
        "brace",
        "brace-part",
        "variable-part",
        "variable",
        "ansi-c",
        "quoted",
        "escaped",
        "glob",
        "brace-with-operand",
    ],
)
def test_p3_a_startup_function_called_by_another_spelling_is_judged(
    where: Layout, command: str
) -> None:
    """F2: a name spelt by brace expansion, an expansion, ANSI-C quoting, quotes or a glob
    matches each startup definition it may be (one wholly built at run time, any)."""
    _home(where, f"cp() {{{{ {HARM}; }}}}\n")

    assert _refusing(where, command) == LOGIN


@pytest.mark.parametrize(
    ("lookup", "command"),
    [("which", f"$(which x) note.md {COPY}"), ("type", f"$(type -P x) note.md {COPY}")],
    ids=["which", "type"],
)
def test_p3_a_command_named_by_a_startup_file_s_lookup_function_is_judged(
    where: Layout, lookup: str, command: str
) -> None:
    """F3: ``which() { echo cp; }`` in a startup file makes ``$(which x) …`` call the files'
    ``cp`` function, a name the command never spells: every definition is read with it."""
    _home(where, f"{lookup}() {{{{ echo cp; }}}}\ncp() {{{{ {HARM}; }}}}\n")

    assert _refusing(where, command) == LOGIN


def test_p3_a_name_wholly_built_at_run_time_in_a_shell_the_command_starts_is_judged(
    where: Layout,
) -> None:
    """``bash -lc '${c:-cp} …'``: the started shell runs ``~/.profile`` in every harness."""
    _home(where, f"cp() {{{{ {HARM}; }}}}\n")

    assert _refusing(where, f"bash -lc '${{{{c:-cp}}}} note.md {COPY}'") == LOGIN | {"gemini"}


def test_p3_a_name_nested_past_the_bound_may_be_any_startup_function(where: Layout) -> None:
    """A command's name inside more substitutions than the reader follows (12 ``$(…)`` deep,
    a name built at run time at the bottom) is read as any name: the files' ``cp`` is judged,
    and the reading ends (no recursion without bound)."""
    _home(where, f"cp() {{{{ {HARM}; }}}}\n")
    nested = "$(" * 12 + "${{c}}p" + ")" * 12

    assert _refusing(where, f"{nested} note.md {COPY}") >= LOGIN


DEBIAN = Path(__file__).resolve().parents[1] / "data" / "startup-files" / "homes" / "debian"
"""Debian's ``/etc/skel`` files (``~/.bashrc`` sourcing ``~/.bash_aliases``)."""
ALIASES = "alias ll='ls -alF'\nalias la='ls -A'\nalias l='ls -CF'\nalias gs='git status'\n"
"""The ``ll``/``la``/``l`` aliases Debian's ``~/.bashrc`` shows, and a ``gs``."""


@pytest.mark.parametrize(
    "command",
    [
        "ll",
        "la src",
        "gs",
        "git status && git diff --stat",
        "make -j2 test",
        "pip install -e .",
        "npm test",
        "python -m pytest -q",
        "sed -i 's/a/b/' notes.txt",
        'echo done >> "{root}/{own}/log.md"',
        "find . -name '*.py' | xargs grep -n TODO",
        "$(which python3) -m pytest -q",
        "cd src && $(command -v python3) -m pytest -q",
        'for f in *.py; do python3 "$f"; done',
        "mkdir -p src/{{a,b}} && ls src",
        'cp note.md "{root}/{own}/notes-$(date +%F).md"',
    ],
)
def test_p3_everyday_commands_under_the_usual_aliases_pass(where: Layout, command: str) -> None:
    """Commands an agent runs every day, under Debian's default home with ``ll``/``la``/``gs``
    aliases in ``~/.bash_aliases``: allowed by every harness."""
    shutil.copytree(DEBIAN, where.data, dirs_exist_ok=True)
    (where.data / ".bash_aliases").write_text(ALIASES, encoding="utf-8")
    (where.workspace / "note.md").write_text("n\n", encoding="utf-8")

    assert _refusing(where, command) == set()


def test_p3_bash_lc_calls_the_profile_s_function_spelt_by_braces_into_the_other_scope(
    where: Layout,
) -> None:
    """The refused forms are real: ``bash -lc`` runs ``{cp,note.md} a.md`` as ``cp note.md
    a.md``, the profile's ``cp`` calls its ``mycp``, which writes into the other scope."""
    _home(where, f'cp() {{{{ mycp "$@"; }}}}\nmycp() {{{{ {HARM}; }}}}\n')
    environment = {"HOME": str(where.data), "PATH": os.environ["PATH"]}

    subprocess.run(
        ["bash", "-lc", fill(f"{{{{cp,note.md}}}} {COPY}", where)],
        cwd=where.workspace,
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
    )

    assert (where.root / where.other / "n.md").read_text(encoding="utf-8") == "n\n"


def test_p3_a_script_run_through_a_link_the_command_makes_stays_refused(where: Layout) -> None:
    """F4, decided: ``ln -s run.sh r && ./r`` stays refused ("write the script in a command of
    its own"): a write through the new link (``> r``) rewrites ``run.sh``, the text on disk the
    guard would read as the one run."""
    (where.workspace / "run.sh").write_text("echo ok\n", encoding="utf-8")
    commands = [
        "ln -s run.sh r && ./r",
        fill("ln -s run.sh r && printf 'cp note.md {root}/{other}/x.md' > r && ./r", where),
    ]

    assert_each_refused_by_every_harness(where, commands, "in a command of its own")


def test_p3_a_run_of_globs_and_expansions_is_one_any_part() -> None:
    """review58d 1: a run of ``*``, ``?`` and expansions is one part (``.*`` once, not 30
    nested ones whose ``fullmatch`` against a defined name backtracked exponentially: ``ls
    ******…%`` took 44 s), and a part between two stars is matched where it first fits."""
    stars = called_patterns("ls " + "*" * 30 + "%").patterns
    mixed = called_patterns("echo ?*$(x)?${y}*%").patterns

    assert [p.pattern.count(".*") for p in stars] == [1]
    assert [p.fullmatch("ab%") is not None for p in mixed] == [True]
    assert [p.fullmatch("a%") is not None for p in mixed] == [False]
    assert called_patterns("ls " + "*a" * 40 + "%").patterns[0].fullmatch("a" * 60) is None


@pytest.mark.parametrize(
    ("command", "names", "environ"),
    [
        ("CC=gcc; $CC -o x x.c", {"gcc"}, {}),
        ("${PYTHON:-python3} -m pytest -q", {"python3"}, {}),
        ("${PYTHON:-python3} -m pytest -q", {"python3.12"}, {"PYTHON": "python3.12"}),
        ("$PYTHON -m pytest -q", set(), {}),
        ("$SHELL -c 'ls'", set(), {"SHELL": "/bin/bash"}),
        ("$EDITOR note.md", {"vi"}, {"EDITOR": "vi"}),
        ("$EDITOR note.md", set(), {}),
    ],
)
def test_p3_a_variable_the_command_or_the_harness_sets_is_read_as_its_value(
    command: str, names: set[str], environ: dict[str, str]
) -> None:
    """review58d 2: a command's name held by a variable the command assigns (``CC=gcc; $CC``),
    or the harness's environment sets (unset: empty), is its value (a default when unset), not
    any name: ``$PYTHON -m pytest`` reads no definition but ``PYTHON``'s."""
    defined = ["gcc", "python3", "python3.12", "vi", "cp", "ls"]
    called = called_patterns(command, environ, [""])

    assert not called.any
    assert {n for n in defined if any(p.fullmatch(n) for p in called.patterns)} == names


@pytest.mark.parametrize(
    ("command", "startup"),
    [
        ("$C note.md", "export C=cp\n"),
        ("read C; $C note.md", ""),
        ("C=$(cat f); $C note.md", ""),
        ("$1 note.md", ""),
        ("${C/x/c}p note.md", ""),
    ],
)
def test_p3_a_variable_a_startup_file_or_input_sets_may_be_any_name(
    command: str, startup: str
) -> None:
    """review58d 2: a variable a startup file sets (``export C=cp``), the command reads
    (``read C``) or builds at run time, a positional one or an edited one may be any name."""
    called = called_patterns(command, {"C": "vi"}, [startup])

    assert called.any or any(p.fullmatch("cp") for p in called.patterns)


@pytest.mark.parametrize(
    "command",
    [
        f"[[:lower:]]p note.md {COPY}",
        f"c[[:alpha:]] note.md {COPY}",
        f"shopt -s extglob\nc@(p|x) note.md {COPY}",
        f"shopt -s extglob\n+(c)p note.md {COPY}",
        f"shopt -s nocaseglob\nC? note.md {COPY}",
    ],
    ids=["class-first", "class-last", "extglob-at", "extglob-plus", "nocaseglob"],
)
def test_p3_a_startup_function_called_by_a_class_or_extended_glob_is_judged(
    where: Layout, command: str
) -> None:
    """review58d 3a: a bracket expression holding a class (``[[:lower:]]``, ending at its
    own ``]``) is one character, an extended glob's group (``@(p|x)``, ``+(c)``) any text,
    and a glob under ``nocaseglob`` matches names of either case. An extended glob's group
    where ``extglob`` may be on, and a class (the guard reads plain sets alone: its word
    reaches the matcher with its quotes removed), are refused by every harness, unread."""
    _home(where, f"cp() {{{{ {HARM}; }}}}\n")
    every = {"claude-code", "codex", "gemini"}
    unread = "extglob" in command or "[[:" in command

    assert _refusing(where, command) == (every if unread else LOGIN)


@pytest.mark.parametrize(
    "calling",
    ['{{my,}}cp "$@"', "$'\\x6dycp' \"$@\"", 'my?? "$@"', 'c=mycp; $c "$@"'],
    ids=["brace", "ansi-c", "glob", "variable"],
)
def test_p3_a_startup_function_a_used_one_calls_by_another_spelling_is_judged(
    where: Layout, calling: str
) -> None:
    """review58d 3b: a used definition calling another by a spelling other than its name
    (``cp() { {my,}cp "$@"; }``, ``$'\\x6dycp'``, ``my??``) is read as the command's words
    are (F1 with F2)."""
    _home(where, f"cp() {{{{ {calling}; }}}}\nmycp() {{{{ {HARM}; }}}}\n")

    assert _refusing(where, f"cp note.md {COPY}") == LOGIN


@pytest.mark.parametrize(
    "command",
    [
        f". <(printf 'c%s ' p note.md {COPY})",
        f"source /dev/stdin <<< \"$(printf 'c%s' p) note.md {COPY}\"",
        f'source "$(echo /dev/stdin)" <<< "$(printf \'c%s\' p) note.md {COPY}"',
    ],
    ids=["process-substitution", "stdin", "named-at-run-time"],
)
def test_p3_code_built_at_run_time_and_sourced_may_call_any_startup_function(
    where: Layout, command: str
) -> None:
    """review58d 3d: code the command builds and sources (``. <(printf 'c%s' p …)``,
    ``source /dev/stdin <<< …``, one named by a substitution) may call any name: every startup
    definition is judged with it. Round 59 (review59 finding 8): code a process substitution
    prints (``. <(printf …)``), from a program that is no known generator of shell setup, is
    refused by every harness, Gemini's too, whatever the startup files define. Round 60: so is
    code a here-string a substitution builds feeds ``source /dev/stdin``: a command that
    sources code may redefine the program printing it (``printf``), which then prints what its
    definition prints (:mod:`~harness_memory.hooks.code_sources`)."""
    _home(where, f"cp() {{{{ {HARM}; }}}}\n")

    printed = command.startswith((". <(", "source /dev/stdin"))
    assert _refusing(where, command) == ({*LOGIN, "gemini"} if printed else LOGIN)


def test_p3_a_command_named_by_a_lookup_program_on_the_profile_s_path_is_judged(
    where: Layout,
) -> None:
    """review58d 3c: a ``which`` program in a folder the profile puts first on ``PATH``
    (``~/bin/which`` printing ``cp``) is a redefined lookup too: ``$(which x) …`` may call
    the files' ``cp`` function."""
    _home(where, f'PATH="$HOME/bin:$PATH"\ncp() {{{{ {HARM}; }}}}\n')
    (where.data / "bin").mkdir()
    (where.data / "bin" / "which").write_text("#!/bin/sh\necho cp\n", encoding="utf-8")
    (where.data / "bin" / "which").chmod(0o755)

    assert _refusing(where, f"$(which x) note.md {COPY}") == LOGIN
