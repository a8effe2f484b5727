"""P-3: a link-making call whose program is named at run time, or spelt otherwise, is a linker.

``cmd=ln; $cmd -s "$(cat target)" lnk && echo x > lnk/a.md`` runs ``ln``: the guard took the
command's name as written (``$cmd``), a program it does not read and found making no link,
so ``lnk/a.md`` was a plain Workspace path, and bash wrote into another scope through the
link; likewise ``"$cmd"``, ``${c}n``, ``"$@"`` after ``set --`` or in a function, an array's
``"${a[@]}"``, ``$(echo ln)``, a backquote, and a wrapper named by a variable. A name whose
known value the command set is now read as that program (``ln``, ``env``); one the guard
cannot read may be any program, ``ln`` among them: a write after it into a place not there
yet (or taken away earlier in the command) is refused, as after ``xargs ln -s``. ``find …
-exec`` running ``ln``, ``mv`` or a link-keeping ``cp`` on names it finds is the same kind.
The forms already refused (a shell fed ``ln`` on its input, ``xargs``, ``env``, ``command``,
``/bin/ln``, ``\\ln``, quotes inside the name, wrappers, long options shortened as
``getopt_long`` takes them: ``--sym``, ``--no-t``, ``cp --li``) are kept here as cases. Each
refused form is then run by bash, which writes into the other scope: the gap was real.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.support.guard_cases import (
    Layout,
    answer,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
)

NAMED_AT_RUN_TIME = [
    'cmd=ln; $cmd -s "$(cat target)" lnk && echo x > lnk/a.md',
    'cmd=ln; "$cmd" -s "$(cat target)" lnk && echo x > lnk/a.md',
    'c=l; ${{c}}n -s "$(cat target)" lnk && echo x > lnk/a.md',
    'f() {{ "$@"; }}; f ln -s "$(cat target)" lnk && echo x > lnk/a.md',
    'set -- ln -s; "$@" "$(cat target)" lnk && echo x > lnk/a.md',
    'a=(ln -s); "${{a[@]}}" "$(cat target)" lnk && echo x > lnk/a.md',
    '$(echo ln) -s "$(cat target)" lnk && echo x > lnk/a.md',
    '`echo ln` -s "$(cat target)" lnk && echo x > lnk/a.md',
    'w=env; $w ln -s "$(cat target)" lnk && echo x > lnk/a.md',
]
"""Each was let through; ``target`` holds the other scope's folder."""
SPELT_OTHERWISE = [
    "printf 'ln -s %s lnk' \"$(cat target)\" | sh && echo x > lnk/a.md",
    'echo "ln -s $(cat target) lnk" | bash; echo x > lnk/a.md',
    "xargs ln -s < pair && echo x > lnk/a.md",
    "xargs -a pair ln -s && echo x > lnk/a.md",
    'find . -maxdepth 1 -name target -exec sh -c \'ln -s "$(cat "$1")" lnk\' _ {{}} \\; '
    "&& echo x > lnk/a.md",
    'env ln -s "$(cat target)" lnk && echo x > lnk/a.md',
    'env -i ln -s "$(cat target)" lnk && echo x > lnk/a.md',
    'command ln -s "$(cat target)" lnk && echo x > lnk/a.md',
    '/bin/ln -s "$(cat target)" lnk && echo x > lnk/a.md',
    '\\ln -s "$(cat target)" lnk && echo x > lnk/a.md',
    "l''n -s \"$(cat target)\" lnk && echo x > lnk/a.md",
    'nice ln -s "$(cat target)" lnk && echo x > lnk/a.md',
    'timeout 5 ln -s "$(cat target)" lnk && echo x > lnk/a.md',
    "eval 'ln -s \"$(cat target)\" lnk' && echo x > lnk/a.md",
    'f() {{ ln -s "$(cat target)" lnk; }}; f && echo x > lnk/a.md',
    # long options shortened as getopt_long takes them
    'ln --sym "$(cat target)" lnk && echo x > lnk/a.md',
    'ln --sy "$(cat target)" lnk && echo x > lnk/a.md',
    'ln -s --no-t "$(cat target)" lnk && echo x > lnk/a.md',
    'ln -sf --no-d "$(cat target)" lnk && echo x > lnk/a.md',
]
"""Refused already before this change (kept as cases of the kind)."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "pair").write_text(f"{where.root / where.other} lnk\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")


@pytest.mark.parametrize("command", NAMED_AT_RUN_TIME + SPELT_OTHERWISE)
def test_p3_a_link_maker_named_at_run_time_or_spelt_otherwise_is_refused(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    "command",
    [
        'cp --sym "$(cat target)/MEMORY.md" m && echo x >> m',
        'cp --li "$(cat target)/MEMORY.md" m && echo x >> m',
        'cp -r --sym "$(cat target)" d2 && echo x >> d2/MEMORY.md',
    ],
)
def test_p3_a_copy_making_links_by_a_shortened_option_is_refused(
    where: Layout, command: str
) -> None:
    """``cp --sym``/``--li`` (``--symbolic-link``, ``--link`` shortened) link the other
    scope's index, and the append lands in it (bash changes its bytes)."""
    _prepared(where)
    index = where.root / where.other / "MEMORY.md"
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None and reason.startswith("Agent Memory write guard: "), command
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True, capture_output=True)
    assert index.read_text(encoding="utf-8") == "x\n", command


@pytest.mark.parametrize(
    "command",
    [
        'busybox ln -s "$(cat target)" lnk && echo x > lnk/a.md',
        'strace -f -o /dev/null ln -s "$(cat target)" lnk && echo x > lnk/a.md',
        'doas ln -s "$(cat target)" lnk && echo x > lnk/a.md',
        'ln -s --target-d=sub "$(cat target)" && echo x > sub/a.md',
        'ln -s --targ sub "$(cat target)" && echo x > sub/a.md',
    ],
)
def test_p3_link_makers_that_need_another_setup_are_refused(where: Layout, command: str) -> None:
    """``busybox``, ``strace`` (a program the guard does not read, given ``ln`` as a word:
    it was let through, and ran it), ``doas`` (not installed everywhere), and ``-t``
    shortened (``--target-d=``, ``--targ``): the link's name is known only at run time."""
    _prepared(where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None and reason.startswith("Agent Memory write guard: "), command


@pytest.mark.parametrize(
    "command",
    [
        '[[ "$(git branch --show-current)" > "main" ]] && echo later > /tmp/order.txt',
        'echo "$(cat target)/a" > out.txt',
        'EDITOR=true; "$EDITOR" note.md && echo ok > done.txt',
        "$HOME/bin/tool --version; echo ok > out.txt",
        "cmd=ls; $cmd -la && echo ok > listing.txt",
        'run() {{ "$@"; }}; run npm test',
        "find . -name '*.pyc' -exec rm {{}} \\; && echo ok > clean.txt",
    ],
)
def test_p3_everyday_commands_named_at_run_time_pass(where: Layout, command: str) -> None:
    """A program named by a known variable that makes no link, a test's operand, and a write
    after a program named at run time into a place that is there already (``done.txt`` in
    the Workspace: a new file, whose folder stands)."""
    _prepared(where)
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell
