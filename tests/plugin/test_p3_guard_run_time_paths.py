"""P-3: a path the shell builds at run time is refused when what the command spells could name
another scope, and a file the command surely writes is refused when its place is built at run
time at all.

A word with nothing literal before its first expansion (``$(…)/<other>/a.md``,
``$UNSET/<other>/a.md``), the text glued after a command substitution (``$(printf %s /)…``) and
the words inside one (``$(printf '\\x2f%s' '…/<other>/a.md')``) may land anywhere: one naming
another Workspace's key or the marker is refused. Paths built from variables set earlier in the
same command (``D=~/…; echo x > $D/…``) and ``$(echo ~/…)`` were judged already (kept here as
the spec).

A path built wholly at run time with no scope's key in it (``echo x > "$(cat target)"/a.md``,
``d=$(cat target); echo x > $d/a.md``, ``cd "$(cat target)" && echo x > a.md``) names nothing
the guard can judge: what ``target`` holds is known only when the command runs. Such a place
is refused where the command surely writes it: a redirection's target, the operands of
``tee``/``touch``/``truncate``/``rm``/``rmdir``/``unlink``/``shred``, the destination of
``cp``/``mv``/``ln``/``install``/``rsync``, ``dd of=``. Everywhere else a word built at run time
is read as before (``git commit -m "$(cat msg)"``, ``make -j$(nproc)``, ``kill $(lsof …)``,
``cd "$(git rev-parse --show-toplevel)"``), and ``$(mktemp)``, ``$(date +%F)``, ``$(nproc)``
and their kin are read as what they print (a new name in ``$TMPDIR``, one name). Each refused
form is then run by bash, which writes into the other scope: the gap was real. What stays open
(``docs/security.md``): a path a program builds (``python3 -c`` reading a file, a script).
"""

from __future__ import annotations

import subprocess
import tarfile
import zipfile

import pytest

from tests.support.guard_cases import (
    SHELL,
    Layout,
    answer,
    answers_of_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
    refusals_by_every_harness,
)

NEWLY_REFUSED = [
    "echo x > $(printf %s /)$(printf %s {root_tail})/{other}/a.md",
    "echo x > $(printf '\\x2f%s' '{root_tail}/{other}/a.md')",
    "echo x > `printf '\\x2f%s' '{root_tail}/{other}/a.md'`",
    "echo x > $(printf '\\x2f%s' '{root_tail}')/{other}/a.md",
    "echo x > $(printf '\\x2f%s' '{root_tail}/{other}')/.workspace",
]
ALREADY_REFUSED = [
    "echo x > ${{UNSET_VARIABLE:-/}}{root_tail}/{other}/a.md",
    "echo x > $(printf '%s/%s/a.md' {root} {other})",
    "echo x > $(echo ~/agents/coder/agent_state/memory/{other})/a.md",
    "echo x > $(echo ~/agents/coder/agent_state/memory)/{other}/a.md",
    "D=~/agents/coder/agent_state/memory; echo x > $D/{other}/a.md",
    'D=$(printf %s {root}); echo x > "$D/{other}/a.md"',
    "D=`echo {root}`; echo x > $D/{other}/a.md",
    "D={root} bash -c 'echo x > $D/{other}/a.md'",
    "read D <<< {root}; echo x > $D/{other}/a.md",
    "P=/{other}/a.md; echo x > {root}$P",
    "echo x > $(base64 -d <<< $(echo {root}/{other}/a.md | base64))",
]


@pytest.mark.parametrize("command", NEWLY_REFUSED + ALREADY_REFUSED)
def test_p3_paths_built_at_run_time_naming_another_scope_are_refused(
    where: Layout, command: str
) -> None:
    """``NEWLY_REFUSED`` were let through (and bash wrote into the other scope)."""
    assert_refused_by_every_harness_and_bash_writes(where, command)


WHOLLY_AT_RUN_TIME = [
    'echo x > "$(cat target)"/a.md',
    "echo x >$(cat target)/a.md",
    "echo x > `cat target`/a.md",
    "d=$(cat target); echo x > $d/a.md",
    'd="$(head -n1 target)" && printf x >> "$d/a.md"',
    'cd "$(cat target)" && echo x > a.md',
    "cd `cat target`; echo x | tee a.md",
    'cp note.md "$(cat target)"/a.md',
    'cp -t "$(cat target)" note.md',
    "install -m 644 note.md $(cat target)/a.md",
    'tee "$(cat target)/a.md" < note.md',
    "touch $(cat target)/a.md",
    "dd if=note.md of=$(cat target)/a.md status=none",
    "sudo -n true 2>/dev/null; env LC_ALL=C cp note.md $(cat target)/a.md",
    "sh -c 'echo x > \"$(cat target)\"/a.md'",
    "echo x > $UNSET_VARIABLE$(cat target)/a.md",
    "d=/tmp; read -r d < target; echo x > $d/a.md",
    'printf -v d %s "$(cat target)"; cp note.md $d/a.md',
    "d=/tmp; . ./set-d.sh; echo x > $d/a.md",
    "for d in /tmp; do d=$(cat target); echo x > $d/a.md; done",
    'echo $(echo x > "$(cat target)"/a.md)',
    'v=`tee "$(cat target)"/a.md < note.md`',
    "cp note.md a.md && sed -i s/x/y/ a.md && mv a.md $(cat target)/",
    'sed -i.bak "s/^/x/" "$(cat target)/MEMORY.md"',
    'sed --in-pl=.bak "s/^/x/" "$(cat target)/MEMORY.md"',
    # each let through until this stop: env's folder option, a subshell spelt $((…) ), a
    # backquote nested in one, a ${X:=…} setting a variable known empty, coproc
    'env -C "$(cat target)" touch a.md',
    'env --chdir="$(cat target)" tee a.md < note.md',
    "echo $((cp note.md $(cat target)/a.md) )",
    "echo `cp note.md \\`cat target\\`/a.md`",
    "X=; : ${X:=$(cat target)}; cp note.md $X/a.md",
    'coproc cp note.md "$(cat target)"/a.md; wait',
    # a separator the lexer grouped with an arithmetic command's end (on main too), a line
    # the lexer could not read (a last lone backslash, a quote left open)
    'i=0; (( i++ )); cp note.md "$(cat target)"/a.md',
    'echo $((1<<2)); tee "$(cat target)"/a.md < note.md',
    'cp note.md "$(cat target)"/a.md; echo done \\',
    'cp note.md "$(cat target)"/a.md\necho \'',
    # the last command inside a top-level $(…) was never judged (its ``)`` ended nothing)
    'echo $(cp note.md "$(cat target)"/a.md)',
    ': "$(tee "$(cat target)"/a.md < note.md)"',
    # the condition of if, elif, while, until was read as an operand of the keyword
    'if cp note.md "$(cat target)"/a.md; then :; fi',
    'if false; then :; elif cp note.md "$(cat target)"/a.md; then :; fi',
    'while cp note.md "$(cat target)"/a.md; do break; done',
    'until tee "$(cat target)"/a.md < note.md; do :; done',
    # a wrapper the guard did not know (its command read as an operand), a wrapper's option
    # taken for one taking an argument (sudo's -p), the words eval joins
    'time -p cp note.md "$(cat target)"/a.md',
    'command -p cp note.md "$(cat target)"/a.md',
    'stdbuf -o0 cp note.md "$(cat target)"/a.md',
    'setsid -w cp note.md "$(cat target)"/a.md',
    'ionice -c3 tee "$(cat target)"/a.md < note.md',
    'taskset 1 cp note.md "$(cat target)"/a.md',
    'flock lock cp note.md "$(cat target)"/a.md',
    'chrt -o 0 cp note.md "$(cat target)"/a.md',
    "eval cp note.md '\"$(cat target)\"/a.md'",
    # a command writing its second operand
    'uniq note.md "$(cat target)/a.md"',
    'uniq -f 1 note.md "$(cat target)/a.md"',
    'xxd note.md "$(cat target)/a.md"',
    'split -l 1 note.md "$(cat target)/part-"',
    # a file a program the guard reads writes by an option, a find acting below a start
    # built at run time, a tar's archive, mktemp's: each let through (on main too)
    'find . -maxdepth 0 -fprint "$(cat target)/a.md"',
    'find . -maxdepth 0 -fprint0 "$(cat target)/a.md"',
    'find . -maxdepth 0 -fprintf "$(cat target)/a.md" x',
    'find . -maxdepth 0 -fls "$(cat target)/a.md"',
    'find "$(cat target)" -maxdepth 0 -exec cp note.md {}/a.md \\;',
    'curl -s --output-dir "$(cat target)" -O "file://$PWD/note.md"',
    'curl -s -D "$(cat target)/a.md" "file://$PWD/note.md"',
    'curl -s -c "$(cat target)/a.md" "file://$PWD/note.md"',
    'curl -s --trace-ascii "$(cat target)/a.md" "file://$PWD/note.md"',
    'curl -s --hsts "$(cat target)/a.md" "file://$PWD/note.md"',
    'history -w "$(cat target)/a.md"',
    'curl -s --alt-svc "$(cat target)/a.md" "file://$PWD/note.md"',
    'wget -q -e output_document="$(cat target)/a.md" "file://$PWD/note.md"',
    'tar -cf "$(cat target)"/a.tar note.md',
    'tar -czf "$(cat target)"/a.tgz note.md',
    'tar cf "$(cat target)"/a.tar note.md',
    'tar --file="$(cat target)"/a.tar -c note.md',
    'tar -cvf /dev/null --index-file="$(cat target)/a.md" note.md',
    # -t bundled after flags, glued, or --target-directory shortened as GNU programs take it
    'cp -vt "$(cat target)" note.md',
    'mv -ft "$(cat target)" note.md',
    'install -Dt "$(cat target)" note.md',
    'ln -st "$(cat target)" "$PWD/note.md"',
    'cp -rt"$(cat target)" note.md',
    'cp --target="$(cat target)" note.md',
    'tar -cf /dev/null -g "$(cat target)/snap" note.md',
    'mktemp -p "$(cat target)"',
    'mktemp --tmpdir="$(cat target)"',
    'mktemp --suffix=.md "$(cat target)/aXXXX"',
]
"""Each names no scope: ``target`` holds the other scope's folder, read when the command runs."""


@pytest.mark.parametrize("command", WHOLLY_AT_RUN_TIME)
def test_p3_a_write_to_a_place_built_wholly_at_run_time_is_refused(
    where: Layout, command: str
) -> None:
    """Each was let through (``docs/security.md`` listed it as open); run by bash, each writes
    into the other scope."""
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "set-d.sh").write_text("d=$(cat target)\n", encoding="utf-8")

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None, (harness, command)
        assert "builds at run time" in reason and "could be another Workspace" in reason, harness
    before = set(other.iterdir())
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(where.data)}
    subprocess.run(
        ["bash", "-c", command], cwd=where.workspace, env=environment, capture_output=True
    )
    assert set(other.iterdir()) - before, f"bash wrote nothing into the other scope: {command}"


@pytest.mark.parametrize(
    "command",
    [
        "echo x > $(printf '\\x2f%s' '{root_tail}/{own}/a.md')",
        "echo x > $(printf %s /)$(printf %s {root_tail})/user/a.md",
        "echo x > {root}/{own}/.workspac$(date +e)",
        "echo x > {root}/{own}/notes-$(date +%F-{other}).md",
    ],
)
def test_p3_a_write_built_at_run_time_is_refused_even_into_own_scopes(
    where: Layout, command: str
) -> None:
    """Where it lands is known only when it runs: the own scopes are written by their path."""
    shell = fill(command, where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))
    assert reason is not None and "at run time" in reason, shell


@pytest.mark.parametrize(
    "command",
    [
        "echo x > {root}/{own}/notes-$(date +%F).md",
        "out=$(mktemp); echo x > {root}/user/a.md; cp {root}/user/a.md $out",
        "echo $(date) > /tmp/guard-test-out.txt",
        "cp $(git ls-files 2>/dev/null) /tmp/guard-test-out/ || true",
        "ls $(pwd)/*.md $UNSET_VARIABLE/*.tmp",
        "tar -czf backup-$(date +%F).tgz src/",
        "echo x > `mktemp`",
        "docker logs $(docker ps -q --filter name=web-1a2b3c4) > logs.txt",
        'uniq -c "$(git ls-files 2>/dev/null | head -1)" || true',
        'split -l 1000 "$(ls *.log 2>/dev/null | head -1)" "$(mktemp -d)/part-" || true',
        "find \"$(git rev-parse --show-toplevel 2>/dev/null || pwd)\" -name '*.md'",
        'tar -xzf "$(ls *.tgz 2>/dev/null | head -1)" -O > /dev/null || true',
        'tar -czf "/tmp/backup-$(date +%F).tgz" note.md',
        'chown -R "$(id -u)":"$(id -g)" .',
        'curl -sS -H "Authorization: Bearer $(cat .token)" -o /tmp/out.json https://example.org',
        'mkdir -p "$(dirname build/out/app.js)" && mktemp -p /tmp x.XXXX',
    ],
)
def test_p3_run_time_paths_into_own_scopes_or_elsewhere_pass(where: Layout, command: str) -> None:
    """What names no other scope passes (``web-1a2b3c4`` has 7 hex digits, no key's 8)."""
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell


UNPACKED_AT_RUN_TIME = [
    'tar -x -C "$(cat target)" -f a.tar',
    'tar xf a.tar --directory="$(cat target)"',
    'unzip -q a.zip -d "$(cat target)"',
    'patch -d "$(cat target)" -p0 < new.diff',
    'sort -o "$(cat target)/sorted.md" note.md',
    'curl -s -o "$(cat target)/fetched.md" "file://$PWD/note.md"',
    # the option at the end of a bundle of flags, or its value glued after it in one
    'curl -sLo "$(cat target)/fetched.md" "file://$PWD/note.md"',
    'curl -so"$(cat target)/fetched.md" "file://$PWD/note.md"',
    'curl -sc "$(cat target)/cookies.md" "file://$PWD/note.md"',
    'wget -qO "$(cat target)/fetched.md" "file://$PWD/note.md"',
    'sort -uo "$(cat target)/sorted.md" note.md',
    'tar -xvC "$(cat target)" -f a.tar',
    'unzip -qd "$(cat target)" a.zip',
    # a long option shortened, as GNU programs take it
    'tar -xf a.tar --dir="$(cat target)"',
    'tar -x --direc "$(cat target)" -f a.tar',
    'sort --out="$(cat target)/sorted.md" note.md',
    'wget -q --output-doc="$(cat target)/fetched.md" "file://$PWD/note.md"',
]
"""A place a command writes into (or to) because an option names it (``tar -x -C``,
``unzip -d``, ``patch -d``, ``sort -o``, ``curl -o``), built at run time, the option alone or
bundled after flags (``curl -sLo``, ``wget -qO``, ``sort -uo``, ``tar -xvC``, ``unzip -qd``)
or a long one shortened (``tar --dir=``, ``sort --out=``): each was let through."""


@pytest.mark.parametrize("command", UNPACKED_AT_RUN_TIME)
def test_p3_a_place_an_option_names_built_at_run_time_is_refused(
    where: Layout, command: str
) -> None:
    other = where.root / where.other
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "new.diff").write_text(
        "--- /dev/null\n+++ new.md\n@@ -0,0 +1 @@\n+x\n", encoding="utf-8"
    )
    (where.workspace / "unpacked.md").write_text("x\n", encoding="utf-8")
    with tarfile.open(where.workspace / "a.tar", "w") as archive:
        archive.add(where.workspace / "unpacked.md", arcname="unpacked.md")
    with zipfile.ZipFile(where.workspace / "a.zip", "w") as archive:
        archive.write(where.workspace / "unpacked.md", arcname="unpacked.md")

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "builds at run time" in reason, command
    before = set(other.iterdir())
    subprocess.run(["bash", "-c", command], cwd=where.workspace, capture_output=True, check=False)
    assert set(other.iterdir()) - before, f"bash wrote nothing into the other scope: {command}"


@pytest.mark.parametrize(
    "command",
    [
        'tar -czf /tmp/guard-test-out.tgz -C "$(git rev-parse --show-toplevel)" .',
        "tar -cf - -C $(pwd) . | wc -c",
        'sort -o "$(mktemp)" note.md',
        'curl -fsSLo /tmp/out.json "https://example.org/$(cat path)"',
        'wget -qO- "https://example.org/$(cat path)" | tar -xz -C /tmp/unpacked',
        'sort -uo sorted.txt "$(ls *.txt | head -1)"',
    ],
)
def test_p3_an_option_naming_a_place_read_or_known_passes(where: Layout, command: str) -> None:
    """``tar -c -C`` reads there; ``$(mktemp)`` is read as a new name in ``$TMPDIR``."""
    assert answer(where, "claude-code", "Bash", {"command": command}) is None


@pytest.mark.parametrize(
    "command",
    [
        'find "$(cat target)" -name MEMORY.md -delete',
        'find -- "$(cat target)" -name MEMORY.md -delete',
        'chmod 000 "$(cat target)"/MEMORY.md',
        'chmod --reference=locked "$(cat target)"/MEMORY.md',
    ],
)
def test_p3_removing_or_locking_a_file_at_a_place_built_at_run_time_is_refused(
    where: Layout, command: str
) -> None:
    """Each was let through; run by bash, each takes the other scope's ``MEMORY.md`` away or
    leaves it unreadable to the service (``find -delete`` below a start built at run time,
    ``chmod`` of an operand built at run time, or of every one with ``--reference``)."""
    memory = where.root / where.other / "MEMORY.md"
    (where.workspace / "target").write_text(f"{memory.parent}\n", encoding="utf-8")
    (where.workspace / "locked").touch(mode=0o000)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "builds at run time" in reason, command
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True)
    assert not memory.exists() or memory.stat().st_mode & 0o777 == 0, command


_WRITE_ITS_ARGUMENT = "import sys; open(sys.argv[1], 'w').write('x')"
"""A program whose writes the guard cannot read: it writes the path it is given."""


def test_p3_a_run_time_path_through_a_symlink_and_dot_dot_is_judged_where_the_kernel_lands(
    where: Layout,
) -> None:
    """``lnk -> <other scope>/sub/deeper``: ``lnk/../$(cat name)`` lands in ``<other>/sub``
    (the kernel follows ``lnk`` before its ``..``), as ``notes/$(cat name)`` (``notes`` is a
    symlink to the other scope) does, which was refused; the prefix was folded to the
    Workspace first and let through. Run by bash, the program writes into the other scope."""
    other = where.root / where.other
    (other / "sub" / "deeper").mkdir(parents=True)
    (where.workspace / "lnk").symlink_to(other / "sub" / "deeper")
    (where.workspace / "build" / "x").mkdir(parents=True)
    (where.workspace / "out").symlink_to(where.workspace / "build" / "x")
    (where.workspace / "name").write_text("a.md\n", encoding="utf-8")
    (where.workspace / "w.py").write_text(_WRITE_ITS_ARGUMENT, encoding="utf-8")
    command = 'python3 w.py lnk/../"$(cat name)"'

    reasons = refusals_by_every_harness(where, command)

    for harness, reason in reasons.items():
        assert reason is not None and "could reach the memory root" in reason, (harness, reason)
    beside = 'python3 w.py out/../"$(cat name)"'  # ``out`` leads outside memory
    assert answers_of_every_harness(where, beside) == dict.fromkeys(SHELL)
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=True)
    assert (other / "sub" / "a.md").read_text(encoding="utf-8") == "x"
