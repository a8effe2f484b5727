"""P-3: a script reading a path going up (``..``) after a ``cd`` the guard cannot follow.

After ``cd "$(echo sub)"`` a script's relative paths land where the guard cannot know, so a
word going up from there (``../notes/x``, the Workspace's link into another Workspace's
scope) handed to a program that may write it stays refused (``python3 -c "open('../x',
'w')"``, ``sed -n 'w ../x'``: review guard62 B3). Every such word was refused, whatever the
program: ``cat ../README.md``, ``diff ../a ../b``, ``grep x ../notes.txt``, even ``cd ..``,
and the refusal said the script *writes* it. Now a word handed to a program that only reads
the files its words name (``cat``, ``grep``, ``diff``, ``head``…), at a statement of its own
(its output piped only into such readers), passes while nothing may make that name another
program (a function, an alias, ``PATH``, ``hash``, a sourced file, an exported function),
and ``cd``/``pushd``/``popd`` going up write nothing. A word still refused is said as what
it is: a path given to a program, not a write.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.guard_cases import (
    SHELL,
    SYSTEM_PATH,
    Layout,
    answer,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    guarded_layout,
    refusal,
    refusals_by_every_harness,
)

LOST = 'cd "$(echo sub)"\n'
"""A ``cd`` into a folder the guard cannot follow (``sub``, beside the Workspace's ``notes``)."""
READS_UP = {
    "bash a1.sh": f"{LOST}cat ../README.md\necho ok > {{workspace}}/a1.txt\n",
    "bash a2.sh": f"{LOST}diff ../a.txt ../b.txt 2>/dev/null || true\n"
    f"echo ok > {{workspace}}/a2.txt\n",
    "bash a3.sh": f"{LOST}grep x ../notes.txt\necho ok > {{workspace}}/a3.txt\n",
    "bash a4.sh": f"{LOST}grep -c x ../notes.txt | head -1 && wc -l ../a.txt\n"
    f"echo ok > {{workspace}}/a4.txt\n",
    "bash a5.sh": f"{LOST}cat ../notes/MEMORY.md; cd ..\necho ok > {{workspace}}/a5.txt\n",
    "bash a6.sh": f"{LOST}test -f ../a.txt && head -n 3 ../a.txt\necho ok > {{workspace}}/a6.txt\n",
}
"""Scripts only reading up from the lost folder, then writing an absolute path (judged as
ever): what each made is its name with ``.txt``."""


def _layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scripts: dict[str, str]) -> Layout:
    where = guarded_layout(tmp_path, monkeypatch)
    (where.workspace / "sub").mkdir()
    for name, text in {"README.md": "# app\n", "a.txt": "a\n", "b.txt": "b\n"}.items():
        (where.workspace / name).write_text(text, encoding="utf-8")
    (where.workspace / "notes.txt").write_text("x\n", encoding="utf-8")
    for command, text in scripts.items():
        (where.workspace / command.split()[1]).write_text(fill(text, where), encoding="utf-8")
    return where


def test_p3_a_script_reading_up_after_a_cd_it_cannot_follow_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _layout(tmp_path, monkeypatch, READS_UP)

    for command in READS_UP:
        place = command.split()[1].replace(".sh", ".txt")
        assert_allowed_by_every_harness_and_bash_writes_there(where, command, place)


GIVEN_UP = {
    "bash g1.sh": f"{LOST}python3 tool.py ../notes/g1.md\n",
    "bash g2.sh": f"{LOST}sed -n 'w ../notes/g2.md' /etc/hostname\n",
}
"""Words going up handed to programs that may write them: refused, said as handed."""


def test_p3_a_word_going_up_handed_to_a_writer_is_refused_as_handed_not_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _layout(tmp_path, monkeypatch, GIVEN_UP)

    refused = {c: refusals_by_every_harness(where, c) for c in GIVEN_UP}

    assert_each_refused_by_every_harness(where, list(GIVEN_UP), "a path going up (..) from a")
    for seen in refused.values():
        for reason in seen.values():
            assert "it writes ../" not in str(reason), reason
    assert "gives ../notes/g1.md to python3" in str(refused["bash g1.sh"]["codex"])


READER_MADE_A_WRITER = {
    "bash u1.sh": f'cat() {{ tee -a "$@" </dev/null; }}\n{LOST}cat ../notes/u1.md\n',
    "bash u2.sh": "shopt -s expand_aliases\nalias cat='tee -a'\n"
    f"{LOST}cat ../notes/u2.md </dev/null\n",
    "bash u3.sh": f"{LOST}cat 3<>../notes/u3.md\n",
    "bash u4.sh": f"{LOST}cat <> ../notes/u4.md\n",
    "bash u5.sh": f"{LOST}cat ../w5.txt | bash\n",
    "bash u6.sh": f"{LOST}cat ../w6.txt | grep . | bash\n",
    "bash u7.sh": f'{LOST}eval "$(cat ../w7.txt)"\n',
    "bash u8.sh": f"{LOST}bash <(cat ../w8.txt)\n",
    "bash u9.sh": f"PATH=$PWD/bin:$PATH\n{LOST}cat ../notes/u9.md\n",
    "bash u10.sh": f"hash -p $PWD/bin/cat cat\n{LOST}cat ../notes/u10.md\n",
    "bash u11.sh": f". ./lib.sh\n{LOST}cat ../notes/u11.md\n",
    "bash u12.sh": f"{LOST}x=$(cat ../w12.txt); $x\n",
    "bash u13.sh": f"{LOST}cat ../a.txt > ../notes/u13.md\n",
    'cat() { tee -a "$@" </dev/null; }; export -f cat; bash u14.sh': f"{LOST}cat ../notes/u14.md\n",
    "bash u15.sh": f'function cat {{ tee -a "$@" </dev/null; }}\n{LOST}cat ../notes/u15.md\n',
    "bash u16.sh": f"{LOST}`cat ../w16.txt`\n",
    "bash u17.sh": f"exec 3> >(bash)\n{LOST}cat ../w17.txt >&3\n",
    "bash u18.sh": f"{LOST}if cat ../a.txt; then cat ../notes/u18.md; fi\n",
    "bash u19.sh": f"{LOST}{{\ncat ../w19.txt\n}} | bash\n",
    "bash u20.sh": f"{LOST}if true; then\ncat ../w20.txt\nfi | bash\n",
    "bash u21.sh": f"{LOST}function show {{\ncat ../w21.txt\n}}\nshow | bash\n",
    "bash u22.sh": f"exec > >(bash)\n{LOST}cat ../w22.txt\n",
    "bash u23.sh": f"{LOST}while read -r x; do\ncat ../w23.txt\ndone < /etc/hostname | bash\n",
}
"""A reader's name made another program, a read-write redirection, a reader's output run as
code: each still refused (``w*.txt`` hold ``echo x >> ../notes/….md``; ``lib.sh`` defines
``cat`` as ``tee -a``; ``bin/cat`` is ``tee -a``)."""


def test_p3_a_reader_made_a_writer_or_whose_output_runs_stays_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _layout(tmp_path, monkeypatch, {})
    for command, text in READER_MADE_A_WRITER.items():
        name = next(w for w in command.split() if w.startswith("u") and w.endswith(".sh"))
        (where.workspace / name).write_text(text, encoding="utf-8")
    for at in (5, 6, 7, 8, 12, 16, 17, 19, 20, 21, 22, 23):
        line = f"echo x >> ../notes/w{at}.md\n" if at != 12 else "touch\n"
        (where.workspace / f"w{at}.txt").write_text(line, encoding="utf-8")
    (where.workspace / "lib.sh").write_text('cat() { tee -a "$@" </dev/null; }\n', "utf-8")
    (where.workspace / "bin").mkdir()
    (where.workspace / "bin/cat").write_text('#!/bin/sh\nexec tee -a "$@" </dev/null\n', "utf-8")
    (where.workspace / "bin/cat").chmod(0o755)

    assert_each_refused_by_every_harness(where, list(READER_MADE_A_WRITER))
    assert_refused_by_every_harness_and_bash_writes(where, "bash u1.sh")
    assert_refused_by_every_harness_and_bash_writes(where, "bash u3.sh")
    assert_refused_by_every_harness_and_bash_writes(where, "bash u6.sh")
    assert_refused_by_every_harness_and_bash_writes(where, "bash u19.sh")


def test_p3_a_reader_the_harness_exports_as_a_function_stays_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A function bash imports from its environment (``BASH_FUNC_cat%%``) runs for ``cat``."""
    where = _layout(tmp_path, monkeypatch, {"bash e1.sh": f"{LOST}cat ../notes/e1.md\n"})
    monkeypatch.setenv("BASH_FUNC_cat%%", '() {  tee -a "$@" < /dev/null\n}')

    assert_refused_by_every_harness_and_bash_writes(where, "bash e1.sh")
    assert set(SHELL) == {"claude-code", "codex", "gemini"}


def test_p3_a_reader_a_login_file_exports_as_a_function_stays_refused_for_codex(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex CLI runs the command as ``bash -lc``: ``~/.profile``'s ``export -f cat`` reaches
    the script's bash, whose ``cat`` then writes."""
    where = _layout(tmp_path, monkeypatch, {"bash e2.sh": f"{LOST}cat ../notes/e2.md\n"})
    profile = 'cat() { tee -a "$@" </dev/null; }\nexport -f cat\n'
    (where.data / ".profile").write_text(profile, encoding="utf-8")

    assert refusal(answer(where, "codex", "Bash", {"command": "bash e2.sh"})) is not None
    environment = {"PATH": SYSTEM_PATH, "HOME": str(where.data)}
    subprocess.run(["bash", "-lc", "bash e2.sh"], cwd=where.workspace, env=environment, check=True)
    assert (where.root / where.other / "e2.md").exists(), "bash wrote nothing there"
