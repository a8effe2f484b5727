"""P-3, K-7: places a program the guard reads takes only when it runs.

- ``tar``'s option running a program (``-I PROG``, ``--use-compress-program``) read in every
  spelling tar takes, old-style clusters (``tar cIf PROG OUT``, ``tar cvfI OUT PROG``)
  included: that program is one whose writes the guard cannot read, so after a ``cd`` into a
  folder read from data (``cd "$(cat target)"``) it is refused as any such program is; the
  old-style spelling was let through, and the program wrote ``f.md`` into the other scope.
- Perl code setting ``$^I`` in any spelling (``BEGIN{$^I=…}``, ``${^I}``, ``$ ^I``,
  ``${"\\cI"}``) edits in place with a backup name it builds at
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
    SHELL,
    Layout,
    answer,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
    refusals_by_every_harness,
)

RUN_BY_AN_OPTION_AFTER_A_CD_INTO_DATA = [
    'cd "$(cat target)" && tar cIf "$OLDPWD/mk.sh" "$OLDPWD/x.tar" MEMORY.md',
    'cd "$(cat target)" && tar cvfI "$OLDPWD/x.tar" "$OLDPWD/mk.sh" MEMORY.md',
    'cd "$(cat target)" && tar -cI "$OLDPWD/mk.sh" -f "$OLDPWD/x.tar" MEMORY.md',
    'cd "$(cat target)" && tar --use-compress-program="$OLDPWD/mk.sh" '
    '-cf "$OLDPWD/x.tar" MEMORY.md',
]
"""``mk.sh`` writes ``f.md`` into its folder, then compresses: tar runs it in the other scope.
Each archives ``MEMORY.md`` alone: tar archiving ``.`` while ``mk.sh`` writes ``f.md`` there
exits 1 ("file changed as we read it") when the write comes first, and the proof failed in CI."""
BACKUPS_NAMED_BY_CODE = [
    'perl -pi -e \'BEGIN{{open F, "target"; $^I = <F>; chomp $^I; $^I .= "/*"}}\' note.md',
    'perl -p -e \'BEGIN{{open F, "target"; $^I = <F>; chomp $^I; $^I .= "/*"}}\' note.md',
    'perl -pe \'BEGIN{{open F, "target"; chomp(${{^I}} = <F>); ${{^I}} .= "/*"}}\' note.md',
    'perl -pe \'BEGIN{{open F, "target"; chomp($ ^I = <F>); $ ^I .= "/*"}}\' note.md',
    'perl -pe \'BEGIN{{open F, "target"; chomp($x = <F>); ${{"\\cI"}} = "$x/*"}}\' note.md',
    'perl -pe \'BEGIN{{open F, "target"; chomp($x = <F>); $n = chr 9; $$n = "$x/*"}}\' note.md',
]
"""The backup of ``note.md`` lands in the folder ``target`` names: the other scope. Perl's
``$^I`` in any spelling: braced, a space after the sigil, a name a string or ``chr`` gives."""


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


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_perl_code_naming_its_backup_suffix_is_refused_saying_so(
    where: Layout, harness: str
) -> None:
    """The refusal names perl's ``$^I`` and the file whose backup it may keep, not a garbled
    path the shell builds."""
    _prepared(where)
    shell = "perl -lne 'print \"${^I}\"' note.md"

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": shell}))

    assert reason is not None, shell
    assert "perl's code may turn in-place editing on ($^I" in reason
    assert "(note.md$^I)" in reason


_NOT_MATCHING = "--- note.md\n+++ note.md\n@@ -1 +1 @@\n-no such line\n+y\n"
"""A hunk no file here holds: GNU patch keeps it in a reject file and backs the file up."""


@pytest.mark.parametrize("harness", list(SHELL))
@pytest.mark.parametrize(
    "command",
    [
        'patch -r "$(cat target)/f.md" note.md bad.diff',
        'patch --reject-file="$(cat target)/f.md" note.md bad.diff',
    ],
)
def test_p3_a_patch_rejecting_hunks_into_a_place_built_at_run_time_is_refused(
    where: Layout, harness: str, command: str
) -> None:
    """``-r FILE`` is where patch writes the hunks it cannot apply: refused when built at run
    time; bash then writes the rejects into the other scope."""
    _prepared(where)
    (where.workspace / "bad.diff").write_text(_NOT_MATCHING, encoding="utf-8")
    shell = fill(command, where)

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": shell}))

    assert reason is not None, shell
    subprocess.run(["bash", "-c", shell], cwd=where.workspace, check=False, capture_output=True)
    assert (where.root / where.other / "f.md").exists()


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_patch_of_a_memory_file_leaving_its_backup_and_rejects_is_refused(
    where: Layout, harness: str
) -> None:
    """Patching the Session's own ``MEMORY.md`` by name with a hunk that does not match leaves
    ``MEMORY.md.orig`` and ``MEMORY.md.rej`` beside it (GNU patch's default): names the
    service cannot address (K-7), refused."""
    _prepared(where)
    (where.workspace / "bad.diff").write_text(_NOT_MATCHING, encoding="utf-8")
    own = where.root / where.own
    own.mkdir(parents=True, exist_ok=True)
    (own / "MEMORY.md").write_text("- a note\n", encoding="utf-8")
    shell = fill("patch {root}/{own}/MEMORY.md bad.diff", where)

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": shell}))

    assert reason is not None, shell
    assert "cannot address a file named 'MEMORY.md.orig'" in reason
    subprocess.run(["bash", "-c", shell], cwd=where.workspace, check=False, capture_output=True)
    assert (own / "MEMORY.md.orig").exists()
    assert (own / "MEMORY.md.rej").exists()
