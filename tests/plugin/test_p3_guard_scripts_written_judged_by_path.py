"""P-3: which words of a command write a script a shell of the call runs (round 57, review57e).

Round 57 counted a script as written when any writer of the command may write it, but read
the command's words too widely and counted them by adding and subtracting:

- everyday commands were refused: a quoted word of several words naming the script (``echo
  "=== Running run.sh ===" && ./run.sh``, ``git commit -qm "update run.sh"``), a ``sed`` or
  ``awk`` program read as running ``s/ln`` (``sed -e 's/ln -s/ln -sf/g' data.csv``), a copy
  away from the script (``cp run.sh /tmp/``), a reader (``zip``, ``awk 'NR==1' run.sh``),
  ``touch`` (no new text), and a patch only checked (``git apply --check``, ``patch
  --dry-run``);
- a compiler's output glued to ``-o`` cancelled a real write of the script (``cat p.txt >
  s.sh; cc -os.sh -os.sh; bash s.sh``), and a ``make`` target naming a shell script counted as
  a compiled program (``make -B s.sh && bash s.sh``: make's rule may write shell text).

The rule now: a word counts as a write of the script when it IS its path (a redirection's
target, a writer's destination, a word of a program the guard does not read, a ``make``
target), each word on its own (a word written by two programs stays written unless both
give it no new text); a word only quoted in a message, a pattern or data is no write.
"""

from __future__ import annotations

import subprocess

from tests.support.guard_cases import (
    Layout,
    assert_each_refused_by_every_harness,
    refusals_by_every_harness,
)

EVERYDAY = [
    "sed -e 's/ln -s/ln -sf/g' data.csv > out.csv",
    "awk '{gsub(/ln -s/, \"ln -sf\")} 1' data.csv > out.csv",
    "sed -i 's/cp -r/cp -a/' data.csv && echo ok > done.txt",
    "sed -i 's/ln -s /ln -sfn /' data.csv && echo ok > done.txt",
    'echo "=== Running run.sh ===" && ./run.sh',
    'echo "Running ./run.sh now" && ./run.sh',
    'echo "x run.sh" > log.txt && ./run.sh',
    'git commit -qm "update run.sh" && ./run.sh',
    'git tag -a v1 -m "see run.sh" && ./run.sh',
    'gh pr create --title "Fix deploy.sh" && ./deploy.sh',
    'grep "TODO run.sh" -r . && ./run.sh',
    "git apply --check x.diff && ./run.sh",
    "git apply --stat x.diff && ./run.sh",
    "patch --dry-run -p1 < x.diff && ./run.sh",
    "cp run.sh /tmp/ && ./run.sh",
    "rsync -a run.sh /tmp/x/ && ./run.sh",
    "scp run.sh host:/tmp/ && ./run.sh",
    "zip -q b.zip run.sh && ./run.sh",
    "awk 'NR==1' run.sh && ./run.sh",
    "perl -ne print run.sh && ./run.sh",
    "touch run.sh && ./run.sh",
]
"""Everyday commands naming a script they then run without writing new text into it."""

WRITTEN_THEN_RUN = [
    "cat p.txt > s.sh; cc -os.sh -os.sh -os.sh; bash s.sh",
    "cp p.txt s.sh; cc -os.sh -os.sh; bash s.sh",
    "cat p.txt > s.sh; clang -os.sh -os.sh; bash s.sh",
    "cp p.txt s.sh; cc -o s.sh x.c; bash s.sh",
    "make -B s.sh && bash s.sh",
    'echo "python3 s.sh" && cat p.txt > s.sh && bash s.sh',
    'echo "python3 s.sh" ; cat p.txt > s.sh ; chmod +x s.sh ; ./s.sh',
    'echo "ruby s.sh" && tee s.sh < p.txt > /dev/null && bash s.sh',
    "echo \"echo 'zz s.sh'\" && cp p.txt s.sh && bash s.sh",
    'echo "zip a.zip s.sh" && cp p.txt s.sh && bash s.sh',
    'echo "python3 s.sh"; echo "python3 s.sh"; cat p.txt > s.sh; cp p.txt s.sh; bash s.sh',
]
"""A script written by the same command, the write hidden behind a compiler's output, a
``make`` target or a message naming a program that reads it (each let through in round 57:
review57e, review57h)."""


def _prepared(where: Layout) -> None:
    """``run.sh``, ``deploy.sh``, ``data.csv`` and a harmless ``s.sh`` in the Workspace;
    ``p.txt`` and a ``Makefile`` whose rule writes ``s.sh`` copying ``note.md`` into the other
    scope."""
    work = where.workspace
    payload = f"cp note.md {where.root / where.other}/a.md\n"
    for name, text in {
        "run.sh": "echo run\n",
        "deploy.sh": "echo deploy\n",
        "data.csv": "ln -s a b\n",
        "note.md": "x\n",
        "p.txt": payload,
        "s.sh": "echo old\n",
        "Makefile": f"s.sh:\n\tprintf '{payload.strip()}\\n' > s.sh\n",
    }.items():
        (work / name).write_text(text, encoding="utf-8")
    (work / "run.sh").chmod(0o755)
    (work / "deploy.sh").chmod(0o755)


def test_p3_everyday_commands_naming_a_script_they_run_pass(where: Layout) -> None:
    _prepared(where)

    answers = {command: refusals_by_every_harness(where, command) for command in EVERYDAY}

    assert {command: seen for command, seen in answers.items() if any(seen.values())} == {}


def test_p3_a_script_written_beside_a_compiler_output_or_by_make_is_refused(
    where: Layout,
) -> None:
    _prepared(where)

    assert_each_refused_by_every_harness(where, WRITTEN_THEN_RUN, "written by the same command")
    make = subprocess.run(
        ["bash", "-c", "make -B s.sh && bash s.sh"], cwd=where.workspace, capture_output=True
    )
    assert make.returncode == 0, make.stderr
    assert (where.root / where.other / "a.md").exists()


BYPASSES = [
    "cp p.txt link.sh; ./s.sh",
    "cp p.txt s.sh; ./link.sh",
    "find . -name p.txt -exec cp {} s.sh \\; && ./s.sh",
    "git checkout HEAD -- . && ./s.sh",
    "git restore --source=HEAD . && ./s.sh",
    "git checkout-index -a -f && ./s.sh",
    "git clone -q . x && x/s.sh",
    "git worktree add -q wt && bash wt/s.sh",
    "python3 -m zipfile -e a.zip . && bash s.sh",
    "python3 -m tarfile -e b.tar . && bash s.sh",
]
"""A script written by the same command under another spelling: through a link to it (or
run through one), by a ``find`` action's writer, by git rewriting a folder above it or every
file, in a folder git fills (not there when judged: it ran nothing), or unpacked by Python's
archive modules (the repository's committed ``s.sh`` copies ``note.md`` into the other
scope)."""


def _committed(where: Layout) -> None:
    """:func:`_prepared`, with ``link.sh`` a link to ``s.sh`` and a repository whose committed
    ``s.sh`` is ``p.txt``'s text (the work tree's is harmless)."""
    _prepared(where)
    work = where.workspace
    (work / "link.sh").symlink_to("s.sh")
    (work / "s.sh").write_text((work / "p.txt").read_text(encoding="utf-8"), encoding="utf-8")
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "s.sh"], check=True)
    subprocess.run([*git, "commit", "-qm", "s"], check=True)
    (work / "s.sh").write_text("echo old\n", encoding="utf-8")
    (work / "s.sh").chmod(0o755)


def test_p3_a_script_written_under_another_spelling_is_refused(where: Layout) -> None:
    _committed(where)

    assert_each_refused_by_every_harness(where, BYPASSES)
    proof = "\n".join(f"( {command} ) </dev/null" for command in BYPASSES[2:4])
    subprocess.run(["bash", "-c", proof], cwd=where.workspace, capture_output=True, check=False)
    assert (where.root / where.other / "a.md").exists()
