"""P-3: where a script, and the command running it, ``cd`` before a relative path.

A script the guard reads (``bash a.sh``, ``. ./a.sh``) is judged by the memory its words name,
each resolved as the kernel will where it runs (``hooks.named_scripts.linked_words``), but only
from the folder the script starts in: ``cd sub; echo x >> ../notes/a.md`` (``notes`` a link in
the Workspace into another Workspace's scope), ``cd "$(dirname "$0")"`` in ``tools/b.sh``,
``pushd``/``popd``, ``cd ..; … my-app/notes/…`` were let through, and bash wrote into that
scope (measured below). Now the script's ``cd``, ``pushd`` and ``popd`` are followed as the
command's own are (``named_scripts.script_folders``), the script's own folder read where it
names it by ``$0`` or ``BASH_SOURCE``, and each word resolved from every folder it may be in.

The command's own folder, too, was followed only forwards: after ``pushd sub; popd``, ``(cd
sub)``, ``cd sub | true``, ``cd sub &`` or a bare ``pushd`` the guard looked for ``k.sh`` in
``sub`` while bash ran the Workspace's (``tool_targets._ShellFolder`` now keeps where bash is).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    guarded_layout,
    let_through,
    refusals_by_every_harness,
)

SCRIPTS = {
    "a.sh": "cd sub; echo x >> ../notes/a.md\n",
    "tools/b.sh": 'cd "$(dirname "$0")"; echo x >> ../notes/b.md\n',
    "c.sh": "pushd sub >/dev/null; echo x >> ../notes/c.md\n",
    "d.sh": "cd ..; echo x >> my-app/notes/d.md\n",
    "g.sh": "pushd sub; pushd ..; popd; echo x >> ../notes/g.md\n",
    "tools/h.sh": 'cd "${BASH_SOURCE%/*}" && echo x >> ../notes/h.md\n',
    "tools/i.sh": (
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" &>/dev/null && pwd)"\n'
        'cd "$HERE/../sub"\necho x >> ../notes/i.md\n'
    ),
    "tools/j.sh": 'cd "$(dirname "$(readlink -f "$0")")"; echo x >> ../notes/j.md\n',
}
"""Scripts writing through the Workspace's link ``notes`` from a folder they ``cd`` into."""
HARMLESS = {
    "tools/build.sh": 'cd "$(dirname "$0")/.." && mkdir -p out && echo x > out/built.txt\n',
    "sub/k.sh": "echo x > made.txt\n",
    "k.sh": "echo x >> notes/k.md\n",
}
"""A script building in the Workspace's ``out/`` from its own folder; ``sub/k.sh``, harmless,
beside the Workspace's ``k.sh``, which writes through the link."""


def _scripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """The layout with the folders ``sub`` and ``tools`` and the scripts above."""
    where = guarded_layout(tmp_path, monkeypatch)
    for name, text in {**SCRIPTS, **HARMLESS}.items():
        (where.workspace / name).parent.mkdir(exist_ok=True)
        (where.workspace / name).write_text(text, encoding="utf-8")
    return where


def test_p3_a_script_writing_through_a_link_after_its_cd_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)
    commands = [f"bash {name}" for name in SCRIPTS] + [". ./a.sh", "sh tools/b.sh"]

    assert let_through(where, commands) == {}
    assert_refused_by_every_harness_and_bash_writes(where, "bash a.sh")
    assert_refused_by_every_harness_and_bash_writes(where, "bash tools/b.sh")


def test_p3_a_script_refusal_names_the_folder_it_cds_into(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)

    reason = str(refusals_by_every_harness(where, "bash a.sh")["codex"])

    assert "the script" in reason and "a.sh" in reason
    assert "../notes/a.md" in reason and f"{where.workspace / 'sub'}, where it cds" in reason


BACK_HOME = [
    "pushd sub >/dev/null; popd >/dev/null; bash k.sh",
    "(cd sub); bash k.sh",
    "(cd sub && ls); . ./k.sh",
    "cd sub | true; bash k.sh",
    "{ cd sub; } | cat; bash k.sh",
    "cd sub & wait; bash k.sh",
    "x=$(cd sub; pwd); bash k.sh",
    "pushd sub >/dev/null; pushd >/dev/null; bash k.sh",
    "pushd -n sub >/dev/null; bash k.sh",
    'pushd sub >/dev/null; popd >/dev/null; bash -c "echo x >> notes/z.md"',
]
"""Commands back in the Workspace (or never out of it) when they run its ``k.sh`` or code
writing through ``notes``, after a ``cd`` bash leaves behind (``sub/k.sh`` is harmless)."""


def test_p3_a_command_back_in_its_folder_after_a_cd_is_judged_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)

    assert let_through(where, BACK_HOME) == {}
    assert_refused_by_every_harness_and_bash_writes(where, BACK_HOME[0])
    assert_refused_by_every_harness_and_bash_writes(where, BACK_HOME[-1])


def test_p3_scripts_and_commands_that_cd_and_write_their_own_folders_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)
    passing = [
        "cd sub && bash k.sh",
        "pushd sub >/dev/null && bash k.sh && popd >/dev/null",
        "pushd sub >/dev/null; popd -n >/dev/null; bash k.sh",
        "(cd sub && bash k.sh)",
    ]

    assert {c: refusals_by_every_harness(where, c) for c in passing} == {
        c: dict.fromkeys(("claude-code", "codex", "gemini")) for c in passing
    }
    assert_allowed_by_every_harness_and_bash_writes_there(
        where, "bash tools/build.sh", "out/built.txt"
    )


STACK_LOST = [
    "pushd sub >/dev/null; dirs -c; popd; bash k.sh",
    "pushd sub >/dev/null; dirs -lc; popd >/dev/null; bash k.sh",
    "pushd sub >/dev/null; (popd); popd; bash k.sh",
    "pushd sub >/dev/null; popd +0; popd; bash k.sh",
]
"""Commands where bash's ``pushd`` stack is no longer the one the guard keeps (``dirs -c``
clears it, a subshell's ``popd`` leaves it, ``+N`` rotates it): bash's ``popd`` fails and it
stays in ``sub``, running ``sub/k.sh`` (which writes through ``../notes``); the guard used to
pop the folder it kept and read the Workspace's harmless ``k.sh``."""


def test_p3_a_popd_after_the_stack_is_lost_leaves_an_unknown_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    (where.workspace / "sub").mkdir()
    (where.workspace / "sub" / "k.sh").write_text("echo x >> ../notes/s.md\n", encoding="utf-8")
    (where.workspace / "k.sh").write_text("echo x > made.txt\n", encoding="utf-8")

    assert let_through(where, STACK_LOST) == {}
    assert_refused_by_every_harness_and_bash_writes(where, STACK_LOST[0])
    assert refusals_by_every_harness(where, "pushd sub && ls && popd") == dict.fromkeys(
        ("claude-code", "codex", "gemini")
    )


MAYBE_MOVED = [
    "f() { cd sub; }; bash k.sh",
    "if false; then cd sub; fi; bash k.sh",
    "false && cd sub; bash k.sh",
    "cd missing; bash k.sh",
    "true || pushd sub; bash k.sh",
    "for d in sub; do cd $d; done 2>/dev/null; . ./k.sh",
]
"""Commands whose ``cd`` may not run (a function never called, a branch not taken, a list
cut short, a folder there is not): bash runs the Workspace's ``k.sh``, writing through
``notes``, where the guard read only the harmless ``sub/k.sh``."""


def test_p3_a_script_after_a_cd_that_may_not_run_is_read_in_both_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)
    passing = ["cd sub && make -n; cd - >/dev/null; git status", "(cd sub && make)"]

    assert let_through(where, MAYBE_MOVED) == {}
    assert_refused_by_every_harness_and_bash_writes(where, MAYBE_MOVED[1])
    assert {c: refusals_by_every_harness(where, c) for c in passing} == {
        c: dict.fromkeys(("claude-code", "codex", "gemini")) for c in passing
    }


def test_p3_a_script_run_after_a_pushd_rotation_is_read_in_each_folder_it_may_be_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)
    (where.workspace / "r.sh").write_text(
        "pushd sub; pushd ../tools; pushd +1; bash k2.sh\n", encoding="utf-8"
    )
    (where.workspace / "sub" / "k2.sh").write_text("echo x >> ../notes/r.md\n", encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, "bash r.sh")


def test_p3_a_script_cd_is_followed_through_cdpath_as_bash_searches_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)
    (where.workspace / "p.sh").write_text("CDPATH=tools; cd sub; bash k3.sh\n", encoding="utf-8")
    (where.workspace / "tools" / "sub").mkdir()
    (where.workspace / "tools" / "sub" / "k3.sh").write_text(
        "echo x >> ../../notes/p.md\n", encoding="utf-8"
    )
    (where.workspace / "sub" / "k3.sh").write_text("echo x > made.txt\n", encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, "bash p.sh")


def test_p3_a_script_is_read_in_the_folders_a_file_it_sources_cds_into(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)
    (where.workspace / "s.sh").write_text(". ./b.sh\necho x >> ../notes/s.md\n", encoding="utf-8")
    (where.workspace / "b.sh").write_text("cd sub\n", encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, "bash s.sh")
    assert let_through(where, [". ./s.sh"]) == {}


def test_p3_a_command_runs_its_script_where_a_file_it_sourced_may_have_cd_ed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)
    (where.workspace / "up.sh").write_text("cd ..\n", encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, "cd sub; . ../up.sh; bash k.sh")
    assert let_through(where, ["cd sub && source ../up.sh && . ./k.sh"]) == {}


LOST_CD_SCRIPTS = {
    "bash r.sh": 'cd "$(echo sub)"; echo x >> ../notes/r.md\n',
    "bash r2.sh": "cd $(echo sub); echo x >> ../notes/r2.md\n",
    "bash r3.sh": "pushd `echo sub`; echo x >> ../notes/r3.md\n",
    "bash p.sh sub": 'cd "$1"; echo x >> ../notes/p.md\n',
    "bash v.sh sub": 'cd "${BASH_ARGV[0]}"; echo x >> ../notes/v.md\n',
    "bash s.sh": "case $x in *) d=sub;; esac\ncd $d; echo x >> ../notes/s.md\n",
    "bash f.sh": 'g() { local d=sub; cd "$d"; }\nd=.; g; cp /etc/hostname ../notes/f.md\n',
    # each below let through by every harness until guardfix62b (review guard62 B3)
    "bash l1.sh": 'cd "$(echo sub)"\nd=..\necho x >> $d/notes/l1.md\n',
    "bash l2.sh": 'cd "$(echo sub)"\necho x >> "$PWD/../notes/l2.md"\n',
    "bash l3.sh": 'cd "$(echo sub)"\nsort -o ../notes/l3.md /etc/hostname\n',
    "bash l4.sh": 'cd "$(echo sub)"\ncp -t ../notes /etc/hostname\n',
    "bash l5.sh": "cd \"$(echo sub)\"\npython3 -c \"open('../notes/l5.md','w')\"\n",
    "bash l6.sh": 'cd "$(echo sub)"\ntruncate -s 0 ../notes/l6.md\n',
    "bash l7.sh": 'cd "$(echo sub)"\nsed -n "w ../notes/l7.md" /etc/hostname\n',
    "bash m2.sh": 'export TMPDIR="$(cat target)"\ncd "$(mktemp -d)"\necho x > m2.md\n',
    "bash m3.sh": 'cd "$(mktemp -p "$(cat target)" -d)"\necho x > m3.md\n',
    "bash m4.sh": 'tmp=$(mktemp -d)\ncd "$tmp"\nln -s "$(cat $OLDPWD/t)" x\necho x > x/m4.md\n',
    "bash c1.sh": "shopt -s cdable_vars\nsub=sub\ncd sub\necho x >> ../notes/c1.md\n",
    "bash k2.sh": 'for d in sub tools; do cd "$d"; echo x >> ../notes/k2.md; done\n',
    "bash p1.sh": '(\ncd "$(echo sub)"\ncase a in a) echo x >> ../notes/p1.md;; esac\n)\n',
    "bash p2.sh": (
        'echo "building (release"\ncd "$(echo sub)"\necho "done :)"\necho x >> ../notes/p2.md\n'
    ),
    "bash p3.sh": '(\ncd "$(echo sub)"\necho "a)"\necho x >> ../notes/p3.md\n)\n',
}
"""Scripts (by the command running them) writing a relative path after a ``cd`` into a folder
the guard cannot work out (review guard61 finding 1): it followed no folder there and judged
``../notes/…`` from the folders it knew, while bash, in ``sub``, wrote through the Workspace's
link ``notes`` into another Workspace's scope."""
LOST_CD_HARMLESS = {
    "bash t.sh": 'cd "$(mktemp -d)" && echo x > /tmp/guard61-t.txt && tar --version\n',
    "bash u.sh": 'cd "$(dirname "$0")" && echo x > built.txt\n',
    "bash w.sh sub": 'cd "$1" && ls -la && git status\n',
    "bash m.sh": 'tmp="$(mktemp -d)"; cd "$tmp" && echo x > a.txt && touch b.txt\n',
    "bash n.sh": 'cd "$(mktemp -d)" && echo x > a.txt\n',
    "bash e.sh sub": '(cd "$1" && ls); echo ok > out.txt\n',
}
"""Scripts whose writes after such a ``cd`` are absolute or none, or in a new temporary folder
(``$(mktemp -d)``, as the command's own ``cd`` there is read), or back from a subshell that
cds, and one whose ``cd`` is its own folder's (followed): judged as before."""


def test_p3_a_script_writing_a_relative_path_after_a_cd_it_cannot_follow_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)
    for command, text in {**LOST_CD_SCRIPTS, **LOST_CD_HARMLESS}.items():
        (where.workspace / command.split()[1]).write_text(text, encoding="utf-8")

    passing = {c: refusals_by_every_harness(where, c) for c in LOST_CD_HARMLESS}

    assert_each_refused_by_every_harness(
        where, list(LOST_CD_SCRIPTS), "a relative path after a cd into a folder known only"
    )
    assert passing == {c: dict.fromkeys(("claude-code", "codex", "gemini")) for c in passing}
    assert_refused_by_every_harness_and_bash_writes(where, "bash r.sh")
    assert_refused_by_every_harness_and_bash_writes(where, "bash r2.sh")
    assert_refused_by_every_harness_and_bash_writes(where, "bash l3.sh")
    assert_refused_by_every_harness_and_bash_writes(where, "bash p1.sh")


def test_p3_a_script_cd_into_each_of_a_loops_folders_in_a_subshell_is_judged_in_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``for p in sub tools; do (cd "$p" && …); done``: each pass starts from the script's
    folder, so each folder the loop names is judged as a ``cd`` into it (the same in the loop
    itself, its passes adding up, stays unknown: ``k2.sh`` above). Through ``sub``'s
    ``../notes`` link it is refused, and bash writes into the other scope."""
    where = _scripts(tmp_path, monkeypatch)
    text = 'for p in tools sub; do (cd "$p" && echo x >> ../notes/k1.md); done\n'
    (where.workspace / "k1.sh").write_text(text, encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, "bash k1.sh")


GIVEN_AFTER_CD = {
    "bash q1.sh x y ../notes/q1.md": 'cd sub; echo x >> "${@:3}"\n',
    "bash q2.sh x ../notes/q2.md y": 'cd sub; echo x >> "${@:2:1}"\n',
    "bash q3.sh x y ../notes/q3.md": "cd sub; echo x >> ${*:3}\n",
    "bash q4.sh ../notes/q4.md": 'cd sub && cp /etc/hostname "$1"\n',
    # each below let through by every harness until guardfix62b (review guard62 B3)
    "bash q5.sh ../notes/q5.md": 'f="$1"\ncd sub\ncp /etc/hostname "$f"\n',
    "bash q6.sh ../notes/q6.md": 'for a; do cd sub; echo x >> "$a"; done\n',
    "bash q7.sh ../notes/q7.md": 'cd sub\necho x >> "${BASH_ARGV[0]}"\n',
    "bash q8.sh -o ../notes/q8.md": (
        "while getopts o: opt; do case $opt in o) out=$OPTARG;; esac; done\n"
        'cd sub\necho x > "$out"\n'
    ),
}
"""Scripts writing words given to them (a slice of them, or one) after a ``cd`` (review guard61
finding 2): the guard judged ``../notes/…`` from the Workspace, where it names no memory, while
bash, in ``sub``, wrote through the link ``notes`` into another Workspace's scope."""


def test_p3_a_script_writing_words_given_to_it_after_a_cd_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _scripts(tmp_path, monkeypatch)
    for command, text in GIVEN_AFTER_CD.items():
        (where.workspace / command.split()[1]).write_text(text, encoding="utf-8")
    (where.workspace / "o.sh").write_text('echo x >> "$1"\n', encoding="utf-8")

    assert_each_refused_by_every_harness(
        where, list(GIVEN_AFTER_CD), "built from words given to it"
    )
    assert refusals_by_every_harness(where, "bash o.sh out.txt") == dict.fromkeys(
        ("claude-code", "codex", "gemini")
    )
    assert_refused_by_every_harness_and_bash_writes(where, "bash q1.sh x y ../notes/q1.md")
    assert_refused_by_every_harness_and_bash_writes(where, "bash q5.sh ../notes/q5.md")
