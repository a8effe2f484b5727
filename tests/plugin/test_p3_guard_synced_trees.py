"""P-3: ``rsync`` and ``pax`` copying symbolic links, hard-linking, or unpacking into a folder.

``rsync -a d/ out/ && echo x > out/lnk/a.md`` copies ``d/lnk``, a symbolic link into another
scope, as a link (``-a`` holds ``-l``); the write then goes through it. The guard judged
``out/lnk/a.md`` as a plain Workspace path (``out/lnk`` was not there yet) and let it through;
likewise ``-l``, ``--links``, ``-R`` and ``pax -rw`` (which keeps links unless ``-L``), a link
the command made first (``ln -s "$(cat target)" l2 && rsync -a l2 e``), ``rsync
--link-dest=../notes`` (each unchanged file hard-linked from that folder, read from the
destination: the append landed in the other scope's index) and ``pax -r`` (an archive holding
such a link, unpacked into the shell's folder; pax writes ``/…`` and ``../…`` members where
they name, so it is refused as ``cpio -i`` without ``--no-absolute-filenames`` is). Each
refused form is then run by bash, which writes into the other scope. ``rsync -L``/
``--copy-links``/``--no-links`` and ``pax -rw -L`` copy what links lead to, no link: they
pass, and bash writes a plain file in the Workspace.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)

KEEPING_LINKS = [
    "rsync -a d/ out/ && echo x > out/lnk/a.md",
    "rsync -rl d e && echo x > e/d/lnk/a.md",
    "rsync -r --links d/ e/ && echo x > e/lnk/a.md",
    "rsync -l lnk e && echo x > e/a.md",
    "rsync -rl d/ e/ && echo x >> e/m",
    "rsync -aR d e && echo x > e/d/lnk/a.md",
    "rsync -a --no-links --links d/ e/ && echo x > e/lnk/a.md",
    'ln -s "$(cat target)" l2 && rsync -a l2 e && echo x > e/a.md',
    "rsync -rc --link-dest=../notes src/ out/ && echo x >> out/MEMORY.md",
    'rsync -rc --link-dest "$(cat target)" src/ out/ && echo x >> out/MEMORY.md',
    "mkdir o && pax -rw d o && echo x > o/d/lnk/a.md",
    "mkdir o && pax -rw lnk o && echo x > o/lnk/a.md",
    "mkdir o && pax -rw -L -P d o && echo x > o/d/lnk/a.md",
    'pax -rw note.md "$(cat target)"',
    "pax -rf z.pax && echo x > z/lnk/a.md",
    "pax -r < z.pax && echo x > z/lnk/a.md",
    'mkdir dd && pax -rw -s ",^,../notes/," note.md dd',  # -s rewrites where a name lands
    'mkdir dd && pax -rw -s ",note,../notes/a," note.md dd',
]
"""Each was let through (``-L -P``: the last of ``-L``/``-H``/``-P`` wins); ``d`` holds ``lnk`` (to
the other scope) and ``m`` (to its index), ``z.pax`` a folder ``z`` holding such a link
(``../notes``, the Workspace's link to that scope), ``src/MEMORY.md`` is as empty as the other
scope's index, ``target`` names that scope."""


def _prepared(where: Layout) -> None:
    if shutil.which("rsync") is None or shutil.which("pax") is None:
        pytest.fail("rsync and pax must be installed (.ci/run installs them)")
    work, other = where.workspace, where.root / where.other
    (work / "target").write_text(f"{other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "d").mkdir()
    (work / "d" / "lnk").symlink_to(other)
    (work / "d" / "m").symlink_to(other / "MEMORY.md")
    (work / "lnk").symlink_to(other)
    (work / "src").mkdir()
    (work / "src" / "MEMORY.md").write_text("", encoding="utf-8")
    (work / "z").mkdir()
    (work / "z" / "lnk").symlink_to("../notes")  # ustar holds 100 bytes of a link's text
    made = subprocess.run(["pax", "-wf", "z.pax", "z"], cwd=work, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    shutil.rmtree(work / "z")


@pytest.mark.parametrize("command", KEEPING_LINKS)
def test_p3_a_write_through_a_link_rsync_or_pax_copies_is_refused(
    where: Layout, command: str
) -> None:
    _prepared(where)
    index = where.root / where.other / "MEMORY.md"
    if "MEMORY.md" in command or ">> e/m" in command:  # the append changes the index itself
        shell = fill(command, where)
        for harness, reason in refusals_by_every_harness(where, shell).items():
            assert reason is not None, (harness, shell)
            assert reason.startswith("Agent Memory write guard: "), (harness, reason)
        subprocess.run(["bash", "-c", shell], cwd=where.workspace, check=True)
        assert index.read_text(encoding="utf-8") == "x\n", shell
        return
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ("rsync -rL d e && echo x > e/d/lnk/a.md", "e/d/lnk/a.md"),
        ("rsync --copy-links -r d/ e/ && echo x > e/lnk/a.md", "e/lnk/a.md"),
        ("rsync -a --no-links d/ e/ && mkdir e/lnk && echo x > e/lnk/a.md", "e/lnk/a.md"),
        ("mkdir o && pax -rw -L d o && echo x > o/d/lnk/a.md", "o/d/lnk/a.md"),
        ("rsync -a src/ out/ && echo x > out/a.md", "out/a.md"),
        ("rsync -av --delete src/ dist/", "dist/MEMORY.md"),
        ("rsync -rc --link-dest=../src src/ out/ && echo x >> out/MEMORY.md", "out/MEMORY.md"),
        ("rsync -a note.md {root}/{own}/", "{root}/{own}/note.md"),
        ("pax -rw note.md {root}/{own}", "{root}/{own}/note.md"),
        ("pax -wf b.pax note.md", "b.pax"),
    ],
)
def test_p3_copies_keeping_no_link_into_memory_pass(
    where: Layout, command: str, place: str
) -> None:
    """A copy of what links lead to (a plain file then, in the Workspace), of a tree holding
    no link, into the Session's own scope, or an archive written: bash writes there."""
    _prepared(where)
    assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)
