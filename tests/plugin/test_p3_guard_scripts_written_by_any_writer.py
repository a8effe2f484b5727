"""P-3: a script a shell of the call runs counts as written by the same command whatever writes it.

Round 57 (review56g): the round-56 rule refuses a script the same command writes, but a
program run by its path (``./s.sh``) counted as written only when the shell's own redirection
wrote it, and git, ``patch`` and the unpackers never counted. So ``tee``, ``dd of=``, ``cp``,
``mv``, ``install``, ``ln -sf``, ``sed -i``, ``curl -o``, ``python3 -c "…copy…"`` writing
``s.sh`` before ``./s.sh``, and ``git checkout -- s.sh``, ``patch -p0 < d.diff``, ``tar -x``,
``unzip`` before ``bash s.sh``, ``source s.sh`` or ``sh < s.sh`` were let through: the guard
read the harmless ``s.sh`` on disk, and bash ran the new text, which copies a note into
another Workspace's scope. Each form is refused here in every harness, then run by one bash
process, which writes into the other scope.

The rule: a script a shell of the call runs counts as written when any part of the command
may write it (``ShellPaths.written``: a redirection, a writer's written operand, a word of a
program the guard does not read; ``ShellPaths.revised``: a git command rewriting it by path,
any file after ``patch``/``git apply``; a member of an archive unpacked), refused saying to
write it in a command of its own. Everyday forms pass: a mode change, a removal, a compiler's
output or a ``make`` target (programs the guard would not read on disk either), git naming
no path (``git pull && ./run-tests.sh``: the decision of ``docs/security.md``), and programs
that only read (``shellcheck s.sh && bash s.sh``, refused before round 57).
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import zipfile

from tests.support.guard_cases import (
    Layout,
    assert_each_refused_by_every_harness,
    fill,
    refusals_by_every_harness,
)

WRITTEN_THEN_RUN = [
    "tee s{at}.sh < p{at}.txt > /dev/null; chmod +x s{at}.sh; ./s{at}.sh",
    "dd if=p{at}.txt of=s{at}.sh status=none; chmod +x s{at}.sh; ./s{at}.sh",
    "cp p{at}.txt s{at}.sh; ./s{at}.sh",
    "mv p{at}.txt s{at}.sh; ./s{at}.sh",
    "install p{at}.txt s{at}.sh; ./s{at}.sh",
    "ln -sf p{at}.txt s{at}.sh; ./s{at}.sh",
    "sed -i -f p{at}.txt s{at}.sh; ./s{at}.sh",
    'curl -so s{at}.sh "file://$PWD/p{at}.txt"; chmod +x s{at}.sh; ./s{at}.sh',
    "python3 -c \"import shutil; shutil.copy('p{at}.txt', 's{at}.sh')\"; ./s{at}.sh",
    "git checkout -- s{at}.sh; ./s{at}.sh",
    "patch -s -p0 < p{at}.diff; bash s{at}.sh",
    "tar -xf p{at}.tar; source s{at}.sh",
    "unzip -oq p{at}.zip; sh < s{at}.sh",
]
"""Forms writing ``s<at>.sh`` (harmless on disk) with text copying ``note.md`` into the other
scope as ``a<at>.md``, then running it: each let through before round 57."""

EVERYDAY = [
    "chmod +x gradlew && ./gradlew build",
    "gcc -o app app.c && ./app",
    "rm -f app && gcc -O2 -o app app.c && ./app",
    "go build -o app . && ./app",
    "make && ./build/app",
    "make app && ./app",
    "./configure && make",
    "python3 gen.py; python3 gen.py",
    "python3 manage.py migrate && ./manage.py check",
    "git pull && ./run-tests.sh",
    "git fetch && git checkout main && bash run-tests.sh",
    "npm ci && npm test",
    "pip install -e . && pytest",
    "shellcheck run-tests.sh && bash run-tests.sh",
    "bash -n run-tests.sh && bash run-tests.sh",
    "cat run-tests.sh && ./run-tests.sh",
    "head run-tests.sh; wc -l run-tests.sh; ./run-tests.sh",
    "grep -n make run-tests.sh; diff run-tests.sh gen.py; ./run-tests.sh",
    "git diff run-tests.sh && ./run-tests.sh",
    "echo x >> {root}/{own}/MEMORY.md && ./run-tests.sh",
]
"""Everyday commands running a script, program or build after another program."""

STILL_REFUSED = [
    "python3 check.py run-tests.sh && bash run-tests.sh",  # python3 may write what it names
    "python3 -c \"open('s.sh', 'w')\" s.sh; ./s.sh",  # code, not a script given first
    "git checkout -- run-tests.sh && ./run-tests.sh",  # git naming the script rewrites it
    "gcc -E -P -o s.sh x.c && ./s.sh",  # a compiler told to write text builds no program
    "cp /bin/cp tool; ./tool note.md copy.md",  # a copy is written, whatever its source
]
"""Forms refused as writing the script they run, whose writer may rewrite it."""


def _payload(where: Layout, at: int) -> str:
    """A line copying ``note.md`` into the other scope as ``a<at>.md``, by its literal path."""
    return f"cp note.md {where.root / where.other}/a{at}.md\n"


def _prepared(where: Layout) -> None:
    """``note.md``, a harmless ``s<at>.sh`` and ``run-tests.sh``, and each form's source of the
    new text: ``p<at>.txt`` (a ``sed`` script for ``sed -f``), the repository's committed
    ``s<at>.sh``, a diff, a tar and a zip archive."""
    work = where.workspace
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "run-tests.sh").write_text("echo testing\n", encoding="utf-8")
    forms = {form.split()[0]: at for at, form in enumerate(WRITTEN_THEN_RUN)}
    for at in range(len(WRITTEN_THEN_RUN)):
        (work / f"p{at}.txt").write_text(_payload(where, at), encoding="utf-8")
        (work / f"s{at}.sh").write_text(_payload(where, at), encoding="utf-8")
        (work / f"p{at}.txt").chmod(0o755)
        (work / f"s{at}.sh").chmod(0o755)
    (work / f"p{forms['sed']}.txt").write_text(f"1i {_payload(where, forms['sed'])}")
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", f"s{forms['git']}.sh"], check=True)
    subprocess.run([*git, "commit", "-qm", "s"], check=True)
    data = {at: _payload(where, at).encode() for at in (forms["tar"], forms["unzip"])}
    with tarfile.open(work / f"p{forms['tar']}.tar", "w") as archive:
        member = tarfile.TarInfo(f"s{forms['tar']}.sh")
        member.size, member.mode = len(data[forms["tar"]]), 0o755
        archive.addfile(member, io.BytesIO(data[forms["tar"]]))
    with zipfile.ZipFile(work / f"p{forms['unzip']}.zip", "w") as archive:
        archive.writestr(f"s{forms['unzip']}.sh", data[forms["unzip"]])
    patched = forms["patch"]
    diff = (
        f"--- s{patched}.sh\n+++ s{patched}.sh\n@@ -1 +1 @@\n-echo old\n+{_payload(where, patched)}"
    )
    (work / f"p{patched}.diff").write_text(diff, encoding="utf-8")
    for at in range(len(WRITTEN_THEN_RUN)):  # what the guard reads on disk: harmless
        (work / f"s{at}.sh").write_text("echo old\n", encoding="utf-8")


def test_p3_a_script_any_writer_of_the_command_writes_is_refused_and_bash_writes_there(
    where: Layout,
) -> None:
    _prepared(where)
    commands = [form.format(at=at) for at, form in enumerate(WRITTEN_THEN_RUN)]

    assert_each_refused_by_every_harness(
        where,
        commands,
        "written by the same command",
        "Write the script in a command of its own",
    )
    proof = "\n".join(f"( {command} ) </dev/null" for command in commands)
    subprocess.run(["bash", "-c", proof], cwd=where.workspace, capture_output=True, check=False)
    written = {path.name for path in (where.root / where.other).iterdir()}
    assert written >= {f"a{at}.md" for at in range(len(commands))}


def test_p3_everyday_programs_before_a_script_pass(where: Layout) -> None:
    _prepared(where)

    answers = {
        command: refusals_by_every_harness(where, fill(command, where)) for command in EVERYDAY
    }

    assert {command: seen for command, seen in answers.items() if any(seen.values())} == {}


def test_p3_a_writer_naming_the_script_it_runs_is_refused_saying_what_to_do(
    where: Layout,
) -> None:
    _prepared(where)

    for command in STILL_REFUSED:
        for reason in refusals_by_every_harness(where, command).values():
            assert reason is not None, command
            assert "written by the same command" in reason, reason
            assert "Write the script in a command of its own" in reason, reason
