"""P-3, K-7: a writer the shell reaches indirectly, given a place built at run time, is refused.

Each form below ran ``cp`` (or a writer's backup) into another Workspace's scope, and the guard
let it through: it read the command's name by its spelling, not as bash resolves it.

- ``hash -p PATH NAME`` binds ``NAME`` to ``PATH``'s program however its options are spelt
  (``-p/bin/cp``, ``-lp``) and after ``builtin`` or ``command``: only ``hash -p /bin/cp c``
  with ``-p`` a word of its own was read;
- a program the command itself made before running it (``ln -s``, ``cp``, ``install`` of a
  writer, then ``./tool`` or ``find -exec "$(pwd)"/tool``) was read by its own name;
- ``set -- cp …`` then ``"$@"`` (``"${@}"``, ``$@``, ``$*``) runs the words ``set`` gave
  (``builtin set``, ``command set`` too); a function whose body sets only shell options
  (``f() { set -e; "$@"; }``) runs its call's words, as a wrapper does; one running some of
  them (``shift``, then ``"$@"``; ``"${@:2}"``) may run any of them;
- ``builtin eval …``, ``command eval …`` and ``eval "$x"`` run the words or the value joined
  (the value of an assignment was read as ``x=cp`` before a command ``note.md``);
- ``xargs cp note.md < target`` (``-a target``, ``-I{}``) gives ``cp`` its destination from
  the names it reads at run time: refused, saying to name the places in the command;
- a backup ``sed -i'notes/new-*'`` keeps lands where its suffix puts it, judged there (one
  whose suffix and file name no memory place, ``sed -i'no*' … tes/a.md``, is refused naming
  ``notes/a.md``; the names a backup takes in the own scope:
  ``test_p3_guard_unaddressable_names.py``).

Such a program may be any writer: each of its words built at run time is a place it may
write, refused as ``cp``'s destination is, with the reason the guard gives for one (write to a
literal path, or run the command that makes the path first). Each refused form is then run by
bash, which writes into the other scope; the everyday look-alikes pass, and bash writes where
the guard was told it would.
"""

from __future__ import annotations

import subprocess

import pytest
from harness_memory.hooks.tool_targets import shell_paths

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusals_by_every_harness,
)

HASHED_NAMES = [
    'hash -p/bin/cp tool; tool note.md "$(cat target)"/a.md',
    'hash -lp /bin/cp tool; tool note.md "$(cat target)"/a.md',
    'builtin hash -p /bin/cp tool; tool note.md "$(cat target)"/a.md',
    'command hash -p /bin/cp tool; tool note.md "$(cat target)"/a.md',
    'command -p hash -p /bin/cp tool; tool note.md "$(cat target)"/a.md',
    'if hash -p /bin/cp tool; then tool note.md "$(cat target)"/a.md; fi',
]
"""``hash -p`` as bash's option parser reads it: each name after it runs ``cp``."""
PROGRAMS_MADE_HERE = [
    'ln -s /bin/cp tool; ./tool note.md "$(cat target)"/a.md',
    'cp /bin/cp tool; ./tool note.md "$(cat target)"/a.md',
    'install /bin/cp ./t; ./t note.md "$(cat target)"/a.md',
    'mkdir -p b && cp /bin/cp b/x && b/x note.md "$(cat target)"/a.md',
    'cp /bin/cp tool; $PWD/tool note.md "$(cat target)"/a.md',
    "cp /bin/cp tool; bash -c './tool note.md \"$(cat target)\"/a.md'",
    'ln -s /bin/cp tool; find . -maxdepth 0 -exec "$(pwd)"/tool note.md "$(cat target)"/a.md \\;',
    'cp /bin/cp tool; find . -maxdepth 0 -exec "$(pwd)"/tool note.md "$(cat target)"/a.md \\;',
    'cp /bin/cp tool; find . -maxdepth 0 -exec ./tool note.md "$(cat target)"/a.md \\;',
]
"""A program the command writes before it runs it: it may be any program, ``cp`` among them."""
POSITIONAL_PARAMETERS = [
    'set -- cp note.md "$(cat target)"/a.md; "$@"',
    'set -- cp note.md "$(cat target)"/a.md; "${{@}}"',
    'set -- cp note.md "$(cat target)"/a.md; $@',
    'set -- cp note.md "$(cat target)"/a.md; $*',
    'set cp note.md "$(cat target)"/a.md; env "$@"',
    'f() {{ set -- cp note.md "$(cat target)"/a.md; "$@"; }}; f',
    'f() {{ builtin set -- cp note.md "$(cat target)"/a.md; "$@"; }}; f',
    'f() {{ command set -- cp note.md "$(cat target)"/a.md; "$@"; }}; f',
    'f() {{ set -- "$@" "$(cat target)"/a.md; "$@"; }}; f cp note.md',
]
"""The positional parameters run as a command: the words ``set`` gave them."""
RUNNERS_SETTING_OPTIONS = [
    'f() {{ set -e; "$@"; }}; f cp note.md "$(cat target)"/a.md',
    'run() {{ set -x; "$@"; set +x; }}; run cp note.md "$(cat target)"/a.md',
    'run() {{ set -x; "$@"; {{ set +x; }} 2>/dev/null; }}; run cp note.md "$(cat target)"/a.md',
    'r() {{ set +e; for i in 1 2; do "$@" && break; done; }}; r cp note.md "$(cat target)"/a.md',
    'f() {{ local x=1; set -o pipefail; "$@"; }}; f cp note.md "$(cat target)"/a.md',
    'f() {{ set -euo pipefail; "$@"; }}; f cp note.md "$(cat target)"/a.md',
    'f() {{ set -x > /dev/null; "$@"; }}; f cp note.md "$(cat target)"/a.md',
]
RUNNERS_OF_SOME_ARGUMENTS = [
    'f() {{ shift; "$@"; }}; f x cp note.md "$(cat target)"/a.md',
    'f() {{ local n=$1; shift 2; "$@"; }}; f x y cp note.md "$(cat target)"/a.md',
    'f() {{ "${{@:2}}"; }}; f x cp note.md "$(cat target)"/a.md',
    'f() {{ "$2" "$3" "$4"; }}; f x cp note.md "$(cat target)"/a.md',
]
"""A function running some of its arguments (after ``shift``, from the second): its call may
run any of its words, ``cp`` among them (read as running its first, ``x``, it was let through)."""
"""A function running its arguments whose body sets shell options (``set -e``, ``set -x``,
``set -o pipefail``, ``set -euo pipefail``): the arguments stay its call's, so ``f cp …`` runs
``cp`` as a wrapper's call does (any ``set`` in the body once made the guard read it as no
runner)."""
EVALUATED = [
    "builtin eval cp note.md '\"$(cat target)\"/a.md'",
    "command eval cp note.md '\"$(cat target)\"/a.md'",
    "command -p eval cp note.md '\"$(cat target)\"/a.md'",
    'x=\'cp note.md "$(cat target)"/a.md\'; eval "$x"',
    'x=\'cp note.md "$(cat target)"/a.md\'; builtin eval "$x"',
    'x=\'cp note.md "$(cat target)"/a.md\'; command eval "$x"',
]
"""``eval`` named after what runs a builtin, and the code an assignment holds for it."""
NAMES_XARGS_READS = [
    "xargs cp note.md < target",
    "xargs -a target cp note.md",
    "xargs --arg-file=target cp note.md",
    "cat target | xargs cp note.md",
    "xargs -I{{}} cp note.md {{}}/a.md < target",
    "xargs -I D cp note.md D/a.md < target",
    "xargs -i cp note.md {{}}/a.md < target",
    "xargs --replace cp note.md {{}}/a.md < target",
    "sed 's|$|/a.md|' target | xargs touch",
    "xargs env cp note.md < target",
    "xargs nice -n 1 cp note.md < target",
    "xargs /bin/cp note.md < target",
    "xargs -I{{}} sh -c 'cp note.md {{}}/a.md' < target",
]
"""``xargs`` giving a writer its written place from names it reads at run time: appended (a
copy's destination, ``touch``'s file) or put in for ``-I``'s string (in a shell's text too),
the writer after a wrapper (``env``, ``nice -n 1``) or by its path."""
COMMANDS_XARGS_RUNS = [
    'echo note.md | xargs -I{{}} cp {{}} "$(cat target)"/a.md',
    "printf 'note.md\\0' | xargs -0 -I{{}} cp {{}} \"$(cat target)\"/a.md",
    "xargs -I{{}} tar -cf {{}}/a.md note.md < target",
    "xargs -I{{}} curl -so {{}}/a.md file://$PWD/note.md < target",
    "xargs -I{{}} wget -qO {{}}/a.md http://127.0.0.1:9/ < target; true",
    "xargs -I{{}} sort -o {{}}/a.md note.md < target",
    "xargs -I{{}} dd if=note.md of={{}}/a.md status=none < target",
    "xargs -I{{}} git -C {{}} init -q < target",
    "xargs -I{{}} awk 'BEGIN {{ print 1 > \"{{}}/a.md\" }}' < target",
    "xargs -I{{}} env -C {{}} touch a.md < target",
    "sed 's|^|of=|;s|$|/a.md|' target | xargs dd if=note.md status=none",
    "xargs xargs cp note.md < target",
    "xargs -a target xargs cp note.md",
    "xargs env -S 'cp note.md' < target",
    "ln -s /bin/cp tool; xargs -I{{}} ./tool note.md {{}}/a.md < target",
    "ln -s /bin/cp tool; xargs -I{{}} sh -c './tool note.md {{}}/a.md' < target",
    "cp /bin/cp tool; xargs ./tool note.md < target",
]
"""The command ``xargs`` runs, read as shell text with each name it reads built at run time:
a place any writer's option takes (``tar -cf``, ``curl -o``, ``sort -o``, ``dd of=``, ``git
-C``, ``env -C``), a program's code (``awk``), an ``of=`` the name makes, another ``xargs``
or ``env -S`` it runs, a program the command made before."""
SPLIT_STRINGS = [
    'env -S"cp note.md $(cat target)/a.md"',
    'env --split-string="cp note.md $(cat target)/a.md"',
    'env -vS"cp note.md $(cat target)/a.md"',
    "env -S 'cp note.md' \"$(cat target)\"/a.md",
    "env -vS 'cp note.md' \"$(cat target)\"/a.md",
]
"""``env -S``'s text however its option is spelt (glued, bundled, long), read as the command
it runs, with the words after it appended."""
BACKUPS_ELSEWHERE = [
    ("sed -i'notes/new-*' s/x/y/ note.md", "{workspace}/notes/new-note.md"),
    ("perl -i'notes/new-*' -pe s/x/y/ note.md", "{workspace}/notes/new-note.md"),
    (
        "cp note.md {root}/{own}/a.md; cd {root}/{own} && sed -i'../{other}/*' s/x/y/ a.md",
        "{root}/{own}/../{other}/a.md",
    ),
]
"""A backup ``sed -i``/``perl -i`` keeps where its suffix's ``*`` puts the file's name: through
the Workspace's link, or up from the own scope, into the other scope; and the place it lands.
(Its suffix names the other scope too, read as a place a glued option value may be.)"""
ONLY_THE_BACKUP_ELSEWHERE = [
    ("sed -i'no*' s/x/y/ tes/a.md", "notes/a.md"),
    ("perl -i'no*' -pe s/x/y/ tes/a.md", "notes/a.md"),
    ("perl -pi'no*' -e s/x/y/ tes/a.md", "notes/a.md"),
    ("f=tes/a.md; sed -i'no*' s/x/y/ \"$f\"", "notes/a.md"),
    ("for f in tes/a.md; do perl -pi'no*' -e s/x/y/ \"$f\"; done", "notes/a.md"),
    ("for f in tes/*.md; do sed -i'no*' s/x/y/ \"$f\"; done", "notes/a.md"),
]
"""A backup whose suffix (``no*``) and file (``tes/a.md``, in the Workspace) name no memory
place, but whose name, the suffix with its ``*`` the file's (``notes/a.md``), lands through the
Workspace's link in the other scope: only the backup's own place is refused."""
BACKUP_FOLDERS_ELSEWHERE = [
    'rsync -b --backup-dir="$(cat target)"/bk note.md {root}/{own}/MEMORY.md',
    'rsync --backup-dir="$(cat target)"/bk note.md {root}/{own}/MEMORY.md',
    'patch -b -B "$(cat target)"/ {root}/{own}/MEMORY.md p.diff',
    'patch --backup --prefix="$(cat target)"/ {root}/{own}/MEMORY.md p.diff',
]
"""The backup of a file replaced in the own scope, kept in a folder (``rsync --backup-dir``)
or below a prefix (``patch -B``) the shell builds at run time: into the other scope."""
BACKUPS_IN_THE_OWN_SCOPE = [
    ("cp -b -S '' note.md {root}/{own}/MEMORY.md", "MEMORY.md~"),
    ("cp -b -S a/b note.md {root}/{own}/MEMORY.md", "MEMORY.md~"),
    ("SIMPLE_BACKUP_SUFFIX= cp -b note.md {root}/{own}/MEMORY.md", "MEMORY.md~"),
    ("cp -rb d/. {root}/{own}", "MEMORY.md~"),
    ("cp -r --backup d/. {root}/{own}/", "MEMORY.md~"),
    ("rsync -b note.md {root}/{own}/MEMORY.md", "MEMORY.md~"),
    ("rsync -b --suffix=.bak note.md {root}/{own}/MEMORY.md", "MEMORY.md.bak"),
    ("rsync -rb d/ {root}/{own}/", "MEMORY.md~"),
    ("patch -b {root}/{own}/MEMORY.md p.diff", "MEMORY.md.orig"),
    ("patch --backup {root}/{own}/MEMORY.md p.diff", "MEMORY.md.orig"),
    ("patch -b -z .bak {root}/{own}/MEMORY.md p.diff", "MEMORY.md.bak"),
    ("patch -b --suffix=.old {root}/{own}/MEMORY.md p.diff", "MEMORY.md.old"),
]
"""The backup a writer keeps of the own scope's ``MEMORY.md`` it replaces: coreutils' ``~``
for an empty suffix or one holding ``/``, each file of a recursive copy's source tree (not
the folder's name), ``rsync -b`` (``~``, ``--suffix``), ``patch -b`` (``.orig``, ``-z``): a
name the service cannot address (K-7)."""
LINK_TO_A_WRITER = ['find . -maxdepth 0 -exec ./tool note.md "$(cat target)"/a.md \\;']
"""``find -exec`` running a link already there to ``cp`` (``tool``), read by its own name."""


def _prepared(where: Layout, *, with_tool: bool = False) -> None:
    """``target`` naming the other scope's folder, ``note.md`` to copy, ``files.txt`` listing
    it, a ``tool`` link to ``cp`` when ``with_tool``; the own scope's ``MEMORY.md``, a tree
    ``d`` holding one and a ``p.diff`` changing it."""
    work = where.workspace
    (where.root / where.own / "MEMORY.md").write_text("kept\n", encoding="utf-8")
    (work / "d").mkdir()
    (work / "d" / "MEMORY.md").write_text("y\n", encoding="utf-8")
    (work / "p.diff").write_text("--- a\n+++ b\n@@ -1 +1 @@\n-kept\n+y\n", encoding="utf-8")
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "files.txt").write_text("note.md\n", encoding="utf-8")
    if with_tool:
        (work / "tool").symlink_to("/bin/cp")


@pytest.mark.parametrize(
    "command",
    HASHED_NAMES
    + PROGRAMS_MADE_HERE
    + POSITIONAL_PARAMETERS
    + RUNNERS_SETTING_OPTIONS
    + RUNNERS_OF_SOME_ARGUMENTS
    + EVALUATED
    + NAMES_XARGS_READS
    + [command for command, _ in BACKUPS_ELSEWHERE]
    + COMMANDS_XARGS_RUNS
    + SPLIT_STRINGS
    + BACKUP_FOLDERS_ELSEWHERE,
)
def test_p3_a_writer_reached_indirectly_writing_a_place_built_at_run_time_is_refused(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(("command", "backup"), BACKUPS_ELSEWHERE)
def test_p3_a_backup_elsewhere_is_judged_where_it_lands(
    where: Layout, command: str, backup: str
) -> None:
    found = shell_paths(fill(command, where), str(where.workspace), {"HOME": str(where.data)})

    assert fill(backup, where) in found.paths, found.paths


@pytest.mark.parametrize(("command", "backup"), ONLY_THE_BACKUP_ELSEWHERE)
def test_p3_a_backup_only_landing_in_another_scope_is_refused_naming_it(
    where: Layout, command: str, backup: str
) -> None:
    _prepared(where)
    (where.workspace / "tes").mkdir()
    (where.workspace / "tes" / "a.md").write_text("x\n", encoding="utf-8")
    shell = fill(command, where)

    reasons = refusals_by_every_harness(where, shell)

    for harness, reason in reasons.items():
        assert reason is not None and f"{where.workspace}/{backup})" in reason, (harness, reason)
        assert "another Workspace's memory scope" in reason, (harness, reason)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(("command", "backup"), BACKUPS_IN_THE_OWN_SCOPE)
def test_p3_a_backup_kept_in_the_own_scope_is_refused_and_bash_keeps_it(
    where: Layout, command: str, backup: str
) -> None:
    _prepared(where)
    shell = fill(command, where)

    reasons = refusals_by_every_harness(where, shell)

    for harness, reason in reasons.items():
        assert reason is not None and "(K-7)" in reason and backup in reason, (harness, reason)
    subprocess.run(["bash", "-c", shell], cwd=where.workspace, check=True, capture_output=True)
    assert (where.root / where.own / backup).is_file(), f"bash kept no {backup}: {shell}"


@pytest.mark.parametrize("command", LINK_TO_A_WRITER)
def test_p3_find_running_a_link_to_a_writer_is_refused(where: Layout, command: str) -> None:
    _prepared(where, with_tool=True)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    ("command", "place"),
    [
        ("hash -r; cp note.md copy.md", "copy.md"),
        ("hash; hash -t ls >/dev/null 2>&1; cp note.md copy.md", "copy.md"),
        ("hash -p /bin/cp tool; tool note.md {root}/{own}/a.md", "{root}/{own}/a.md"),
        # ``cp /bin/cp tool; ./tool …`` is refused since round 57: a program run by its path
        # that the same command writes (test_p3_guard_scripts_written_by_any_writer)
        ('set -- a b; echo "$@" > out.md', "out.md"),
        ("set -e -o pipefail; cp note.md copy.md", "copy.md"),
        ('set -- note.md; for f in "$@"; do cp "$f" copy.md; done', "copy.md"),
        ("x='cp note.md copy.md'; eval \"$x\"", "copy.md"),
        ("builtin eval cp note.md {root}/{own}/a.md", "{root}/{own}/a.md"),
        ("find . -maxdepth 1 -name note.md -exec grep -l x {{}} + > hits.txt", "hits.txt"),
        ("xargs grep -l x < files.txt > hits.txt", "hits.txt"),
        ("xargs -a files.txt grep -c x > counts.txt", "counts.txt"),
        ("find . -name note.md -print0 | xargs -0 grep -l x > hits.txt", "hits.txt"),
        ("xargs -I{{}} cp {{}} copy.md < files.txt", "copy.md"),
        ("xargs -I{{}} sh -c 'grep -c x {{}} > count.txt' < files.txt", "count.txt"),
        ('f() {{ echo + "$*"; "$@"; }}; f cp note.md copy.md', "copy.md"),
        ('f() {{ set -x; "$@"; }}; f cp note.md copy.md', "copy.md"),
        ('f() {{ shift; "$@"; }}; f x cp note.md copy.md', "copy.md"),
        ('log() {{ shift; echo "$@"; }}; log x "$(date)" > out.md', "out.md"),
        (
            'run() {{ set -euo pipefail; "$@"; }}; run cp note.md {root}/{own}/a.md',
            "{root}/{own}/a.md",
        ),
        ('f() {{ set -e; "$@"; set +e; }}; f cp note.md copy.md', "copy.md"),
        ("xargs cp -t {root}/{own} < files.txt", "{root}/{own}/note.md"),
        ("find . -name copy.md -print0 | xargs -0 rm -f; cp note.md copy.md", "copy.md"),
        ("find . -name copy.md | xargs rm -f; cp note.md copy.md", "copy.md"),
        ("xargs sed -i.bak s/x/y/ < files.txt", "note.md.bak"),
        ("xargs perl -pi -e s/x/y/ < files.txt; cp note.md copy.md", "copy.md"),
        ("xargs chmod 644 < files.txt; cp note.md copy.md", "copy.md"),
        ("rsync -b note.md {root}/{own}/new.md", "{root}/{own}/new.md"),
        ("echo kept > f.txt; patch -b f.txt p.diff", "f.txt.orig"),
        # its rejected hunks, if any, go where -r says, not to MEMORY.md.rej (K-7)
        (
            "patch -b -Y old- -r /dev/null {root}/{own}/MEMORY.md p.diff",
            "{root}/{own}/old-MEMORY.md",
        ),
        ("xargs -I{{}} echo {{}} < files.txt > names.txt", "names.txt"),
        ("xargs wc -l < files.txt > lines.txt", "lines.txt"),
        ("xargs grep x < files.txt > hits.txt", "hits.txt"),
        ("env -S 'cp note.md' copy.md", "copy.md"),
        ("env -S'cp note.md copy.md'", "copy.md"),
    ],
)
def test_p3_everyday_hash_set_eval_xargs_and_find_exec_pass(
    where: Layout, command: str, place: str
) -> None:
    """Their places are literal: the Workspace and the Session's own scope pass, and bash
    writes there."""
    _prepared(where)
    assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)
