"""P-3: a redirection's descriptor is no word of the command, and a program named by a variable
is the one the variable surely holds, or one named at run time.

``ln -s "$(cat target)" lnk 2>/dev/null && echo x > lnk/a.md`` made a link into another scope
and wrote through it: the lexer split ``2>/dev/null`` into ``2``, ``>`` and ``/dev/null``, the
``2`` was read as the ``ln``'s last operand (the link), and ``lnk`` was a plain new folder. Bash
reads a word of digits alone (or ``{NAME}``) right before ``<`` or ``>`` as the redirection's
descriptor, wherever the redirection stands (before the command's name, between operands,
after them), for every operator (``>``, ``>>``, ``<``, ``>&``, ``<&``, ``<>``, ``>|``, ``&>``,
``&>>``); ``<`` and ``<&`` read their word, which is no operand either (``mv sub/rel d2 <
note.md`` made ``note.md`` the destination). Each refused form is run by bash, which writes
into the other scope: the gap was real.
"""

from __future__ import annotations

import pytest

from tests.support.guard_cases import (
    Layout,
    answer,
    assert_refused_and_bash_writes,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
)

LINK = 'ln -s "$(cat target)" lnk'
REDIRECTED_LINKERS = [
    f"{LINK} 2>/dev/null && echo x > lnk/a.md",
    f"{LINK} 2> /dev/null && echo x > lnk/a.md",
    f"{LINK} 2>err && echo x > lnk/a.md",
    f"{LINK} 2>>err && echo x > lnk/a.md",
    f"{LINK} 1>&2 && echo x > lnk/a.md",
    f"{LINK} 3<>err && echo x > lnk/a.md",
    f"{LINK} {{{{fd}}}}>err && echo x > lnk/a.md",
    f"{LINK} 2>|err && echo x > lnk/a.md",
    f"{LINK} < note.md && echo x > lnk/a.md",
    f"{LINK} 0<note.md && echo x > lnk/a.md",
    f"{LINK} <&0 && echo x > lnk/a.md",
    f"{LINK} 0<&- && echo x > lnk/a.md",
    'ln -s "$(cat target)" 2>err lnk && echo x > lnk/a.md',
    "mv sub/rel d2 2>/dev/null; echo x > d2/a.md",
    "mv sub/rel 2>/dev/null d2; echo x > d2/a.md",
    "mv 2>/dev/null sub/rel d2; echo x > d2/a.md",
    "2>/dev/null mv sub/rel d2; echo x > d2/a.md",
    "mv sub/rel d2 2>&1; echo x > d2/a.md",
    "mv sub/rel d2 1>&2-; echo x > d2/a.md",
    "mv sub/rel d2 < note.md; echo x > d2/a.md",
    "mv sub/rel d2 {{fd}}>&2; echo x > d2/a.md",
    "cp -P sub/rel d2 2>/dev/null; echo x > d2/a.md",
    "cp -P sub/rel d2 2> err.log; echo x > d2/a.md",
    "true;2>/dev/null mv sub/rel d2; echo x > d2/a.md",
]
"""Each was let through (``lnk``, ``d2``: a link into the other scope, not followed)."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "sub").mkdir()
    (work / "sub" / "rel").symlink_to("notes")


@pytest.mark.parametrize("command", REDIRECTED_LINKERS)
def test_p3_a_redirection_on_a_linking_command_keeps_its_link_followed(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    "command",
    [
        "make 2>&1 | tee build.log",
        "cp note.md copy.md 2>/dev/null && echo ok > done.txt",
        "mv note.md moved.md 2>err.log; echo ok > done.txt",
        "python3 -c 'print(1)' > out.txt 2>&1",
        "sort < note.md > sorted.txt",
        "exec 3>&1; echo x >&3; echo ok > done.txt",
        "echo a2>x.txt",
        "echo 2 > two.txt",
    ],
)
def test_p3_everyday_redirections_pass(where: Layout, command: str) -> None:
    """Descriptors, their duplicates and input files are no places written."""
    _prepared(where)
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell


TARGETED = '$cmd -s "$(cat target)" lnk && echo x > lnk/a.md'
NAMES_SET_UNSURELY = [
    f"cmd=ln; if false; then cmd=echo; fi; {TARGETED}",
    f"cmd=ln; false && cmd=echo; {TARGETED}",
    f"cmd=ln; true || cmd=echo; {TARGETED}",
    f"cmd=ln; cmd=echo true; {TARGETED}",
    f"cmd=ln; (cmd=echo); {TARGETED}",
    f"cmd=ln; true | cmd=echo; {TARGETED}",
    f"cmd=ln; f() {{{{ cmd=echo; }}}}; {TARGETED}",
    f"cmd=echo; printf -v cmd ln; {TARGETED}",
    f"cmd=echo; read cmd <<< ln; {TARGETED}",
    f"read cmd <<< ln; {TARGETED}",
    f"cmd=echo; declare cmd=ln; {TARGETED}",
    f"cmd=echo; export cmd=ln; {TARGETED}",
    f"cmd=echo; eval cmd=ln; {TARGETED}",
    f"cmd=echo; for cmd in ln; do :; done; {TARGETED}",
    f"cmd=echo; {{{{ cmd=ln; }}}}; {TARGETED}",
    f"cmd=echo; [ -e target ] && cmd=ln; {TARGETED}",
    f"cmd=l; cmd+=n; {TARGETED}",
    'x="ln -s"; $x "$(cat target)" lnk && echo x > lnk/a.md',
    'x="env ln"; $x -s "$(cat target)" lnk && echo x > lnk/a.md',
    'shopt -s expand_aliases; alias l=ln\nl -s "$(cat target)" lnk && echo x > lnk/a.md',
]
"""Each was read as the program of the variable's last value written (``echo``), whatever
the flow; bash ran ``ln``."""


@pytest.mark.parametrize("command", NAMES_SET_UNSURELY)
def test_p3_a_program_named_by_a_variable_set_unsurely_is_named_at_run_time(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_and_bash_writes(where, "claude-code", command)


@pytest.mark.parametrize(
    "command",
    [
        "cmd=ls; $cmd -la && echo ok > listing.txt",
        'EDITOR=true; "$EDITOR" note.md && echo ok > done.txt',
        'PY=python3; "$PY" -c "print(1)" > out.txt',
    ],
)
def test_p3_a_program_named_by_one_plain_assignment_is_that_program(
    where: Layout, command: str
) -> None:
    """Set once, alone, at the top level, to one word: the program it names."""
    _prepared(where)
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell


@pytest.mark.parametrize(
    "command",
    [
        "$CC -o app main.c && mkdir -p bin && mv app bin/",
        '"$PWD"/gen.sh && mkdir -p out && echo x > out/a',
        '"$PYTHON" setup.py build && mkdir -p wheel && echo x > wheel/y',
        '"${{PYTHON:-python3}}" -m build && mkdir -p wheel && echo x > wheel/a',
        "$EDITOR README.md && mkdir -p notes2 && echo x > notes2/a.md",
        'run() {{ echo "+ $*"; "$@"; }}; run make && mkdir -p out && echo x > out/a',
        'f() {{ "$@"; }}; f echo hi > out.txt',
        "man ln && mkdir -p x && echo y > x/z",
        "tldr ln; mkdir -p o && echo x > o/a",
        "pip install ln && mkdir -p out && echo x > out/a.txt",
        "brew install mv && mkdir -p o && echo x > o/a",
    ],
)
def test_p3_everyday_programs_named_through_the_environment_pass(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """A variable the command never sets is the harness's environment's, inherited by the
    hook (``$CC`` set there, ``${PYTHON:-python3}`` unset there); a function running ``"$@"``
    runs what it is called with, where it is called; ``man ln``, ``pip install ln`` show a
    page, install a package. Each was refused as a program named at run time that may be
    ``ln``."""
    monkeypatch.setenv("CC", "cc")
    monkeypatch.setenv("PYTHON", "python3")
    monkeypatch.setenv("EDITOR", "vi")
    _prepared(where)
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell


@pytest.mark.parametrize(
    "command",
    [
        'f() {{ "$@"; }}; f ln -s "$(cat target)" lnk && echo x > lnk/a.md',
        'LN=ln; "${{LN:-echo}}" -s "$(cat target)" lnk && echo x > lnk/a.md',
        '$UNSET_NAME ln -s "$(cat target)" lnk && echo x > lnk/a.md',
        '$(echo /bin)/ln -s "$(cat target)" lnk && echo x > lnk/a.md',
        # a literal last path component names no program: the folder may hold a link the
        # command made, and bash splits an unquoted substitution into words of its own
        'mkdir -p bin && ln -sf /bin/ln bin/git && "$(pwd)/bin"/git -s "$(cat target)" lnk'
        " && echo x > lnk/a.md",
        '$(echo ln -s "$(cat target)" lnk --suffix=)/git && echo x > lnk/a.md',
        # bash's own variables are the shell's, not the environment's
        "$BASH mk.sh; echo x > lnk/a.md",
        'echo ln; $_ -s "$(cat target)" lnk && echo x > lnk/a.md',
        # an element of the variable set
        'cmd=echo; cmd[0]=ln; $cmd -s "$(cat target)" lnk && echo x > lnk/a.md',
    ],
)
def test_p3_a_linker_named_through_a_function_or_the_environment_is_refused(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Each was let through, and bash, running it, wrote into the other scope."""
    (where.workspace / "mk.sh").write_text('ln -s "$(cat target)" lnk\n', encoding="utf-8")
    monkeypatch.delenv("UNSET_NAME", raising=False)
    _prepared(where)
    assert_refused_and_bash_writes(where, "claude-code", command)


def test_p3_a_program_named_by_the_environment_is_its_value(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$LINKER`` set to ``ln`` in the harness's environment (the shell's too) runs ``ln``."""
    monkeypatch.setenv("LINKER", "ln")
    _prepared(where)
    command = '$LINKER -s "$(cat target)" lnk && echo x > lnk/a.md'
    shell = fill(command, where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))
    assert reason is not None and reason.startswith("Agent Memory write guard: "), shell


@pytest.mark.parametrize(
    ("command", "advice"),
    [
        ("cmd=ln; false && cmd=echo; $cmd -s x y; echo ok > new.txt", "Make it (touch"),
        ("cmd=ln; false && cmd=echo; $cmd -s x y; echo ok > new/a.txt", "Make its folder"),
    ],
)
def test_p3_a_write_after_a_linker_is_told_what_to_make_first(
    where: Layout, command: str, advice: str
) -> None:
    """A plain file not there yet is made first (``touch``), not its folder, which stands."""
    _prepared(where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None and advice in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        'echo x > "$PWD/notes/a.md"',
        'cd sub && echo x > "$PWD/../notes/a.md"',
        'cd sub && cd .. && echo x > "$OLDPWD/rel/../../notes/a.md"',
    ],
)
def test_p3_pwd_is_the_shells_folder_not_the_hooks(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """The hook's own ``PWD`` named another folder than the Workspace the command runs in:
    ``$PWD`` was read as that one, so ``$PWD/notes/a.md`` passed and bash, which sets
    ``PWD`` to the folder it starts in when the inherited one names another, wrote into the
    other scope through the Workspace's ``notes`` link."""
    monkeypatch.setenv("PWD", "/tmp")
    _prepared(where)
    shell = fill(command, where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))
    assert reason is not None and reason.startswith("Agent Memory write guard: "), shell
