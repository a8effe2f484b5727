"""P-3: a link the command makes is followed by the words after it.

``ln -s "$(cat target)" lnk && echo x > lnk/a.md`` writes through ``lnk`` into whatever
``target`` names; when the guard answers, ``lnk`` does not exist, so ``lnk/a.md`` was judged a
plain Workspace path and let through, and bash wrote into another scope. A name a command of
the same call makes a link (``ln -s``, ``ln -sf``/``-sT``, ``ln`` (a hard link), ``cp -s``,
``cp -l``) to a place built at run time is now like a folder read from data (``cd "$(cat
f)"``): a later write, unpack, move or ``cd`` through it in the same call is refused, as is a
program the guard does not read given a path through it. A link with a literal target is
followed as the kernel will (a relative target from the link's own folder). Each refused form
is then run by bash, which changes the other scope: the gap was real. Reading through such a
link, and everyday links (``ln -s "$(pwd)/build" out``), pass.
"""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

import pytest
from harness_memory.hooks.tool_targets import shell_paths

from tests.support.guard_cases import (
    Layout,
    answer,
    fill,
    refusal,
    refusals_by_every_harness,
)

RUN_TIME_LINKS = [
    'ln -s "$(cat target)" lnk && echo x > lnk/a.md',
    'ln -sf "$(cat target)" lnk && echo x > lnk/a.md',
    'ln -sT "$(cat target)" lnk && echo x > lnk/a.md',
    'ln --symbolic "$(cat target)" lnk && touch lnk/a.md',
    'X=$(cat target); ln -s -- "$X" lnk && echo x > lnk/a.md',
    "ln -s $(cat target) lnk; cp note.md lnk/",
    'ln -s "$(cat target)" lnk && cp note.md lnk',
    'ln -s "$(cat target)" lnk && tee lnk/a.md < note.md',
    'ln -s "$(cat target)" lnk && echo x > ./lnk/a.md',
    'ln -s "$(cat target)" lnk && echo x > sub/../lnk/a.md',
    'cd sub && ln -s "$(cat ../target)" lnk && echo x > lnk/a.md',
    'mkdir d && ln -s "$(cat target)" d/l && mv note.md d/l/',
    # unpacked through it: by -C, or as a member's folder
    'ln -s "$(cat target)" lnk && tar -xf a.tar -C lnk',
    'ln -s "$(cat target)" lnk; tar -xf b.tar',
    # a cd through it: a relative write, a program the guard does not read
    'ln -s "$(cat target)" lnk && cd lnk && echo x > a.md',
    'ln -s "$(cat target)" lnk; cd lnk; echo x > a.md',
    'ln -s "$(cat target)" lnk && cd lnk && python3 -c \'open("a.md", "w").write("x")\'',
    'ln -s "$(cat target)" lnk && python3 w.py lnk/a.md',
    # a shell inside the command, a link to the link
    'ln -s "$(cat target)" lnk && bash -c "echo x > lnk/a.md"',
    'ln -s "$(cat target)" a && ln -s a b && echo x > b/c.md',
    # the index itself, by a symbolic or a hard link, a tree of links, a hard-linked copy
    'ln -s "$(cat target)/MEMORY.md" m && echo x >> m',
    'ln "$(cat target)/MEMORY.md" m && echo x >> m',
    'cp -rs "$(cat target)" d && echo x >> d/MEMORY.md',
    'cp -al "$(cat target)" d && echo x >> d/MEMORY.md',
    'mkdir t && ln -s "$(cat target)/MEMORY.md" t && echo x >> t/MEMORY.md',
    # a loop's body runs again: its second run writes through the link its first made
    'for i in 1 2; do echo x > lnk/a.md; ln -s "$(cat target)" lnk; done',
    'for i in 1 2; do cp note.md lnk/ 2>/dev/null; ln -sfn "$(cat target)" lnk; done',
    'n=0; while [ $n -lt 2 ]; do tee lnk/a.md < note.md; ln -sfn "$(cat target)" lnk; '
    "n=$((n+1)); done",
    'n=0; until [ $n = 2 ]; do echo x > lnk/a.md; ln -s "$(cat target)" lnk; n=$((n+1)); done',
    'for a in 1; do for b in 1 2; do echo x > lnk/a.md; ln -s "$(cat target)" lnk; done; done',
    'for i in 1 2; do\n  echo x >> lnk/a.md\n  ln -sfn "$(cat target)" lnk\ndone',
]
"""Each was let through; ``target`` holds the other scope's folder."""
LITERAL_LINKS = [
    "mkdir -p d && ln -s ../notes d/l && echo x > d/l/a.md",
]
"""A literal target relative to the link's own folder (``d/../notes``, the Workspace's symlink
into the other scope), not the shell's (``../notes`` from the Workspace is nothing): let
through."""


def _scope(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` (by its path there) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _prepared(where: Layout) -> Path:
    """The Workspace of ``where`` with ``target`` naming the other scope's folder, a note, a
    folder, a program writing its argument, and two archives (``b.tar``'s member in ``lnk/``)."""
    other = where.root / where.other
    work = where.workspace
    (work / "target").write_text(f"{other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "sub").mkdir()
    (work / "w.py").write_text("import sys; open(sys.argv[1], 'w').write('x')", encoding="utf-8")
    (work / "unpacked.md").write_text("x\n", encoding="utf-8")
    with tarfile.open(work / "a.tar", "w") as archive:
        archive.add(work / "unpacked.md", arcname="unpacked.md")
    with tarfile.open(work / "b.tar", "w") as archive:
        archive.add(work / "unpacked.md", arcname="lnk/b.md")
    return other


@pytest.mark.parametrize("command", RUN_TIME_LINKS + LITERAL_LINKS)
def test_p3_a_write_through_a_link_made_in_the_same_command_is_refused(
    where: Layout, command: str
) -> None:
    other = _prepared(where)

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None, (harness, command)
        assert reason.startswith("Agent Memory write guard: "), harness
    before = _scope(other)
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True, capture_output=True)
    assert _scope(other) != before, f"bash changed nothing in the other scope: {command}"


@pytest.mark.parametrize(
    "command",
    [
        'ln -s "$(cat target)" lnk && echo x > lnk/a.md',
        "ln -s $(cat target) lnk; cp note.md lnk/",
        'ln -s "$(cat target)" lnk && tar -xf a.tar -C lnk',
        'ln -s "$(cat target)" lnk && cd lnk && echo x > a.md',
    ],
)
def test_p3_the_refusal_says_the_place_is_built_at_run_time(where: Layout, command: str) -> None:
    """The reason names the link as a place built at run time, as ``cd "$(cat f)"``'s is."""
    _prepared(where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None and "builds at run time" in reason, command


@pytest.mark.parametrize(
    "command",
    [
        'ln -s "$(pwd)/build" out && ls out/',
        'mkdir -p build && ln -sfn "$(pwd)/build" latest && ls latest/',
        "ln -sf ../shared/x.py x.py && python3 x.py",
        'ln -s "$(brew --prefix)/bin/python3" venv/bin/python && venv/bin/python --version',
        'ln -s "$(pwd)/build" out && python3 gen.py --out out/',
        'ln -s "$(cat target)" lnk && cat lnk/MEMORY.md',
        "ln -s build/x out && echo x > out/a.md",
        "ln -s {root}/{own} m && echo x > m/a.md",
        "ln -s {root}/user u && cp note.md u/",
        'ln -s "$(cat target)" lnk; echo x > other.md',
    ],
)
def test_p3_everyday_links_and_reads_through_them_pass(where: Layout, command: str) -> None:
    """A link to a folder printed by a program that knows it, read through, or with a literal
    target in the Workspace or the Session's own scopes; a write elsewhere after one."""
    _prepared(where)
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell


def test_p3_more_links_than_are_kept_leave_every_later_write_unknown(where: Layout) -> None:
    """Past the cap of links one command keeps, a write after them is taken as through one
    to a place built at run time (each word is compared with every link kept)."""
    _prepared(where)
    made = "".join(f"ln -s note.md l{n}; " for n in range(70))
    reason = refusal(answer(where, "claude-code", "Bash", {"command": made + "echo x > y.md"}))
    assert reason is not None and "builds at run time" in reason
    fewer = "".join(f"ln -s note.md l{n}; " for n in range(10))
    assert answer(where, "claude-code", "Bash", {"command": fewer + "echo x > y.md"}) is None


@pytest.mark.parametrize(
    "command",
    [
        # ``ln -sf`` onto a link made to a folder makes the new link inside that folder, and
        # ``lnk`` still leads to the other scope: its name is a place built at run time
        'ln -s "$(cat target)" lnk && ln -sf "$PWD/sub" lnk && echo x > lnk/a.md',
        'ln -s "$(cat target)" lnk && ln -s note.md lnk/ && echo x > lnk/a.md',
    ],
)
def test_p3_a_link_made_onto_a_link_made_to_a_folder_is_refused(
    where: Layout, command: str
) -> None:
    other = _prepared(where)
    shell = command.replace("$PWD", str(where.workspace))

    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))

    assert reason is not None and "builds at run time" in reason, shell
    before = _scope(other)
    subprocess.run(["bash", "-c", shell], cwd=where.workspace, check=True, capture_output=True)
    assert _scope(other) != before, shell


def test_p3_a_link_made_from_a_folder_that_cannot_be_known_is_read_without_a_crash() -> None:
    """Relative words from an unknown folder are anchored at a name holding a NUL: looking
    the link's folder up raised ValueError (a guard that crashes lets the call through)."""
    found = shell_paths('ln -s "$(cat t)" l && echo x > l/a.md', "/\x00", {})
    assert found.written_at_run_time == ["l/a.md"]


def test_p3_a_listed_archive_none_of_whose_members_pass_through_such_a_link_passes(
    where: Layout,
) -> None:
    """Only a member landing through the link is refused (``b.tar``'s ``lnk/b.md``, above);
    ``a.tar``'s ``unpacked.md`` lands beside it, in the Workspace."""
    _prepared(where)
    command = 'ln -s "$(cat target)" lnk; tar -xf a.tar'
    assert answer(where, "claude-code", "Bash", {"command": command}) is None
