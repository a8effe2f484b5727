"""P-3, K-7: places a program the guard reads takes only when it runs.

- ``tar``'s option running a program (``-I PROG``, ``--use-compress-program``) read in every
  spelling tar takes, old-style clusters (``tar cIf PROG OUT``, ``tar cvfI OUT PROG``)
  included: that program is one whose writes the guard cannot read, so after a ``cd`` into a
  folder read from data (``cd "$(cat target)"``) it is refused as any such program is; the
  old-style spelling was let through, and the program wrote ``f.md`` into the other scope.
- Perl code setting ``$^I`` (``BEGIN{$^I=…}``) edits in place with a backup name it builds at
  run time (``*`` stands for the file: ``<other scope>/*`` puts the backup there): a place
  the command surely writes, built at run time, refused; it was let through.
- ``patch`` naming no file takes the names from the diff when it runs; GNU patch keeps them
  below its folder (no absolute or ``..`` name). Inside the memory root those names are
  places the guard cannot know, refused as any such place is (``patch -b`` left
  ``MEMORY.md.orig``, a name the service cannot address); in a Workspace it passes.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)

RUN_BY_AN_OPTION_AFTER_A_CD_INTO_DATA = [
    'cd "$(cat target)" && tar cIf "$OLDPWD/mk.sh" "$OLDPWD/x.tar" MEMORY.md',
    'cd "$(cat target)" && tar cvfI "$OLDPWD/x.tar" "$OLDPWD/mk.sh" MEMORY.md',
    'cd "$(cat target)" && tar -cI "$OLDPWD/mk.sh" -f "$OLDPWD/x.tar" MEMORY.md',
    'cd "$(cat target)" && tar --use-compress-program="$OLDPWD/mk.sh" -cf "$OLDPWD/x.tar" .',
]
"""``mk.sh`` writes ``f.md`` into its folder, then compresses: tar runs it in the other scope."""
BACKUPS_NAMED_BY_CODE = [
    'perl -pi -e \'BEGIN{{open F, "target"; $^I = <F>; chomp $^I; $^I .= "/*"}}\' note.md',
    'perl -p -e \'BEGIN{{open F, "target"; $^I = <F>; chomp $^I; $^I .= "/*"}}\' note.md',
]
"""The backup of ``note.md`` lands in the folder ``target`` names: the other scope."""


def _prepared(where: Layout) -> None:
    work = where.workspace
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "mk.sh").write_text('#!/bin/sh\necho x > f.md\nexec gzip "$@"\n', encoding="utf-8")
    (work / "mk.sh").chmod(0o755)
    diff = "--- MEMORY.md\n+++ MEMORY.md\n@@ -0,0 +1 @@\n+- a note\n"
    (work / "memory.diff").write_text(diff, encoding="utf-8")
    (work / "note.diff").write_text(diff.replace("MEMORY.md", "note.md").replace("-0,0", "-1,0"))


@pytest.mark.parametrize("command", RUN_BY_AN_OPTION_AFTER_A_CD_INTO_DATA + BACKUPS_NAMED_BY_CODE)
def test_p3_a_place_a_read_program_takes_when_it_runs_is_refused(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    "command",
    [
        "cd {root}/{own} && patch -b < {workspace}/memory.diff",
        "patch -d {root}/{own} -b < memory.diff",
        "patch --directory={root}/{own} -b -i {workspace}/memory.diff",
    ],
)
def test_p3_a_patch_taking_its_names_from_the_diff_inside_the_memory_root_is_refused(
    where: Layout, command: str
) -> None:
    """Refused; bash then patches the Session's own ``MEMORY.md`` and keeps
    ``MEMORY.md.orig`` beside it, a name the service cannot address (K-7)."""
    _prepared(where)
    shell = fill(command, where)

    reasons = refusals_by_every_harness(where, shell)

    for harness, reason in reasons.items():
        assert reason is not None, (harness, shell)
        assert "could reach the memory root" in reason, (harness, reason)
    subprocess.run(["bash", "-c", shell], cwd=where.workspace, check=True, capture_output=True)
    assert (where.root / where.own / "MEMORY.md.orig").exists()


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ("patch -b < note.diff", "note.md.orig"),
        ("tar cIf gzip out.tgz note.md", "out.tgz"),
        ("tar czf out.tgz note.md", "out.tgz"),
        ("perl -pi.bak -e 's/x/y/' note.md", "note.md.bak"),
        ("cd sub && tar cIf gzip ../out.tgz ../note.md", "out.tgz"),
    ],
)
def test_p3_the_everyday_forms_pass(where: Layout, command: str, place: str) -> None:
    """In the Workspace: a patch, a tar with a compressor, an in-place edit keeping a backup."""
    _prepared(where)
    (where.workspace / "sub").mkdir()
    assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)
