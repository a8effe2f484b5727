"""P-3: a writer before a script the call runs counts only for what it really writes.

Round 57 (review57h). The rule refusing a script the same command may write
(``docs/security.md``, round 57) over-refused everyday commands and missed real writes:

- A ``sed -i``/``perl -pi`` program is code, not a place written (``sed -i
  's/run.sh/test.sh/' README.md && ./test.sh``: only ``README.md`` is written); ``git restore
  --staged`` and ``git apply --cached`` write the index only; ``git checkout-index
  --prefix=/tmp/export/`` writes under its prefix; ``patch src/x.c < fix.diff`` writes
  ``src/x.c``. Each passes in
  every harness.
- ``git apply --stat --apply`` applies; only options before ``--`` and not an option's value
  count (a patch file called ``--check`` or ``--dry-run``); ``gunzip``/``gzip -d`` of ``s.sh.gz``
  writes ``s.sh``; a folder copied into the script's folder (``cp -a d/. ./``, ``rsync -a d/
  .``) writes it; ``python3 -m tarfile -e a.tar`` unpacks into the current folder; a compiler's
  response file (``gcc @o.txt``) may hold ``-E``: its output may be text. Each is refused in
  every harness, then run by one bash process, which writes into the other scope.
"""

from __future__ import annotations

import difflib
import gzip
import io
import subprocess
import tarfile

from tests.support.guard_cases import (
    Layout,
    assert_each_refused_by_every_harness,
    refusals_by_every_harness,
)

EVERYDAY = [
    "sed -i 's/run.sh/test.sh/' README.md && ./test.sh",
    "sed -i -e 's/run.sh/test.sh/' README.md && ./test.sh",
    "perl -pi -e 's/run.sh/test.sh/' README.md && ./test.sh",
    'sed -i "s|./run.sh|./run.sh --fast|" Makefile && ./run.sh',
    "git restore --staged run.sh && ./run.sh",
    "git restore --staged . && ./run.sh",
    "git apply --cached fix.diff && ./run.sh",
    "git checkout-index -a -f --prefix=/tmp/export/ && ./run.sh",
    "patch src/x.c < fix.diff && ./run.sh",
    "cp -r d0 . && ./run.sh",
    "rsync -a d0 /tmp/backup/ && ./run.sh",
]
"""Everyday commands writing something other than the script they then run."""

WRITTEN_THEN_RUN = [
    "git apply --stat --apply p{at}.diff ; bash s{at}.sh",
    "git apply -- --check ; bash s{at}.sh",
    "patch -s -p0 -i --dry-run ; bash s{at}.sh",
    "gunzip -f s{at}.sh.gz ; bash s{at}.sh",
    "gzip -df s{at}.sh.gz && ./s{at}.sh",
    "cp -a d{at}/. ./ ; bash s{at}.sh",
    "cp -r d{at}/. . && ./s{at}.sh",
    "rsync -a d{at}/ . ; source s{at}.sh",
    "python3 -m tarfile -e p{at}.tar && ./s{at}.sh",
    "gcc @o{at}.txt -o s{at}.sh x{at}.c ; bash s{at}.sh",
]
"""Forms writing ``s<at>.sh`` (harmless on disk) with text copying ``note.md`` into the other
scope as ``a<at>.md``, then running it: each let through before."""


STILL_REFUSED = [
    "sed -i 's/x/y/w run.sh' README.md && ./run.sh",  # sed's ``w`` writes the file after it
    "perl -pi -e 's/x/@{[qx(cp note.md run.sh)]}/' README.md && ./run.sh",  # code in a string
    "git restore --staged --worktree run.sh && ./run.sh",
    "git checkout-index -f --prefix=./ run.sh && ./run.sh",
    "git ls-files | git checkout-index -f --stdin && ./run.sh",  # names read at run time
    "patch -p0 --dry-run -i fix.diff --posix && patch -p0 -i fix.diff && ./run.sh",
]
"""Forms near the everyday ones that do write the script they run."""


def _payload(where: Layout, at: int) -> str:
    """A line copying ``note.md`` into the other scope as ``a<at>.md``, by its literal path."""
    return f"cp note.md {where.root / where.other}/a{at}.md\n"


def _diff(name: str, new: str, *, git: bool) -> str:
    """A unified diff turning ``name``'s ``echo old`` into ``new`` (``a/``, ``b/`` for git)."""
    old, given = (f"a/{name}", f"b/{name}") if git else (name, name)
    return "".join(difflib.unified_diff(["echo old\n"], [new], old, given))


def _prepared(where: Layout) -> None:
    """The everyday files (``run.sh``, ``test.sh``, ``README.md``, ``Makefile``, ``src/x.c``,
    ``fix.diff``, a git repository) and each form's source of ``s<at>.sh``'s new text."""
    work = where.workspace
    for name, text in {"run.sh": "echo run\n", "test.sh": "echo test\n", "note.md": "x\n"}.items():
        (work / name).write_text(text, encoding="utf-8")
        (work / name).chmod(0o755)
    (work / "README.md").write_text("./run.sh\n", encoding="utf-8")
    (work / "Makefile").write_text("all:\n\t./run.sh\n", encoding="utf-8")
    (work / "src").mkdir()
    (work / "src" / "x.c").write_text("int x;\n", encoding="utf-8")
    (work / "fix.diff").write_text(_diff("run.sh", "echo new\n", git=True), encoding="utf-8")
    subprocess.run(["git", "-C", str(work), "init", "-q"], check=True)
    named = {word: at for at, form in enumerate(WRITTEN_THEN_RUN) for word in form.split()}
    for at in range(len(WRITTEN_THEN_RUN)):
        payload = _payload(where, at)
        (work / f"s{at}.sh").write_text("echo old\n", encoding="utf-8")
        (work / f"s{at}.sh").chmod(0o755)
        (work / f"p{at}.diff").write_text(_diff(f"s{at}.sh", payload, git=True), encoding="utf-8")
        (work / f"s{at}.sh.gz").write_bytes(gzip.compress(payload.encode()))
        (work / f"s{at}.sh.gz").chmod(0o755)  # gzip gives the file it writes this mode
        (work / f"d{at}").mkdir()
        (work / f"d{at}" / f"s{at}.sh").write_text(payload, encoding="utf-8")
        (work / f"d{at}" / f"s{at}.sh").chmod(0o755)
        with tarfile.open(work / f"p{at}.tar", "w") as archive:
            member = tarfile.TarInfo(f"s{at}.sh")
            member.size, member.mode = len(payload), 0o755
            archive.addfile(member, io.BytesIO(payload.encode()))
        (work / f"o{at}.txt").write_text("-E -P\n", encoding="utf-8")
        (work / f"x{at}.c").write_text(payload, encoding="utf-8")
    for name, git in (("--check", True), ("--dry-run", False)):  # patch files named as options
        at = named[name]
        (work / name).write_text(_diff(f"s{at}.sh", _payload(where, at), git=git), encoding="utf-8")


def test_p3_everyday_writers_of_other_files_before_a_script_pass(where: Layout) -> None:
    _prepared(where)

    answers = {command: refusals_by_every_harness(where, command) for command in EVERYDAY}

    assert {command: seen for command, seen in answers.items() if any(seen.values())} == {}


def test_p3_real_writes_of_the_script_are_refused_and_bash_writes_there(where: Layout) -> None:
    _prepared(where)
    commands = [form.format(at=at) for at, form in enumerate(WRITTEN_THEN_RUN)]

    assert_each_refused_by_every_harness(where, commands, "written by the same command")
    proof = "\n".join(f"( {command} ) </dev/null" for command in commands)
    subprocess.run(["bash", "-c", proof], cwd=where.workspace, capture_output=True, check=False)
    written = {path.name for path in (where.root / where.other).iterdir()}
    assert written >= {f"a{at}.md" for at in range(len(commands))}


def test_p3_writers_near_the_everyday_ones_writing_the_script_stay_refused(
    where: Layout,
) -> None:
    _prepared(where)

    answers = {command: refusals_by_every_harness(where, command) for command in STILL_REFUSED}

    for command, seen in answers.items():
        for reason in seen.values():
            assert "written by the same command" in str(reason), (command, reason)
