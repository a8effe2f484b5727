"""P-3: a followed script's own folder as bash finds it: kept in a variable, named by a relative
``$0`` after the script's ``cd``, printed by ``cd … && pwd`` (logical) or ``pwd -P`` (physical),
and the script's text as bash reads it (NUL bytes dropped), its patterns matched.

Review stop 67 found each let through by every harness while bash wrote into another
Workspace's scope through the Workspace's link ``notes``: the guard read ``"$(dirname "$0")"``
and its like only where the script spelled them at the write (``ROOT="$(cd "$(dirname "$0")/.."
&& pwd)"; echo x >> "$ROOT/notes/p.md"`` was a word built at run time), took ``$0`` as the
script's absolute path where bash keeps it as run (``tools/x.sh``, relative to the folder bash
is in after a ``cd``), resolved ``$(cd "$d/.." && pwd)`` as the kernel does (through a link)
where bash's logical ``cd`` drops the ``..`` first, skipped a word holding a NUL byte (bash
drops the byte and runs the word) and a word holding a pattern (``notes/*.md``: bash matches
it, or writes the name as spelled when nothing matches).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harness_memory.hooks.named_scripts import KEPT_CAP

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    guarded_layout,
)

KEPT = {
    "tools/k1.sh": 'ROOT="$(cd "$(dirname "$0")/.." && pwd)"\necho x >> "$ROOT/notes/k1.md"\n',
    "tools/k2.sh": 'DIR=$(dirname "$0")\necho x >> $DIR/../notes/k2.md\n',
    "tools/k3.sh": 'HERE="${BASH_SOURCE%/*}"\necho x >> "${HERE}/../notes/k3.md"\n',
    "tools/k4.sh": 'readonly ROOT="$(cd "$(dirname "$0")/.." && pwd)"\n'
    'echo x >> "$ROOT/notes/k4.md"\n',
    "tools/k5.sh": 'f() {\n  local here="${BASH_SOURCE[0]%/*}"\n'
    '  echo x >> "$here/../notes/k5.md"\n}\nf\n',
    "tools/k6.sh": 'export ROOT=$(cd "$(dirname "$0")/.." && pwd -P)\n'
    'echo x >> "$ROOT"/notes/k6.md\n',
    "tools/k7.sh": 'ROOT="$(cd "$(dirname "$0")/.." && pwd)"\nNOTES="$ROOT/notes"\n'
    'echo x >> "$NOTES/k7.md"\n',
    "tools/k8.sh": 'declare -r HERE=`dirname "$0"`; cp /etc/hostname "$HERE/../notes/k8.md"\n',
    "tools/k9.sh": 'UP="$(cd "$(dirname "$0")" && pwd)"/..\necho x >> "$UP"/notes/k9.md\n',
    "tools/k10.sh": 'A="$(dirname "$0")"\nROOT="$A/out"\n'
    'ROOT="$A/.."\necho x >> "$ROOT/notes/k10.md"\n',
    "tools/k11.sh": 'ROOT=$(cd "$(dirname "$0")/.." ; pwd)\necho x >> "$ROOT/notes/k11.md"\n',
    "tools/k12.sh": 'ROOT="$(realpath "$(dirname "$0")/..")"\necho x >> "$ROOT/notes/k12.md"\n',
    "tools/k13.sh": 'ROOT=$(dirname "$(dirname "$0")")\necho x >> "$ROOT/notes/k13.md"\n',
    "tools/k14.sh": 'D="$(dirname "$0")"\nfor f in a; do echo x >> "$D/../notes/k14$f.md"; done\n',
    "tools/k15.sh": 'cd "$(dirname "$0")"\nROOT=$(pwd)\necho x >> "$ROOT/../notes/k15.md"\n',
    "tools/k16.sh": 'cd "$(dirname "$0")/.."\necho x >> "$PWD/notes/k16.md"\n',
}
"""Scripts keeping their own folder in a variable (plain, ``readonly``, ``local``, ``export``,
``declare -r``; one variable built from another, or given another such value later; the
folder printed by ``cd …; pwd``, ``realpath``, a second ``dirname``; ``$(pwd)`` and
``$PWD`` after the script's ``cd`` into its own folder) and writing through
``notes`` with it (a word also naming another variable after the folder: ``k14``)."""
KEPT_HARMLESS = {
    "tools/build.sh": 'ROOT="$(cd "$(dirname "$0")/.." && pwd)"\nmkdir -p "$ROOT/out"\n'
    'echo x > "$ROOT/out/x.txt"\n',
    "tools/make.sh": 'cd "$(dirname "$0")/.." && mkdir -p out && echo x > out/made.txt\n',
    "tools/here.sh": 'HERE="${BASH_SOURCE%/*}"\necho x > "$HERE/here.txt"\n',
    "tools/pwd.sh": 'cd "$(dirname "$0")/.." && mkdir -p out && echo x > "$PWD/out/pwd.txt"\n',
}
"""Everyday twins: a build script writing ``out/`` from its root, one ``cd``-ing there first,
one writing beside itself, one writing ``out/`` by ``$PWD`` after its ``cd``."""


def _layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scripts: dict[str, str]) -> Layout:
    where = guarded_layout(tmp_path, monkeypatch)
    for name, text in scripts.items():
        (where.workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (where.workspace / name).write_bytes(text.encode())
    return where


@pytest.mark.parametrize("script", sorted(KEPT))
def test_p3_a_script_writing_through_its_own_folder_kept_in_a_variable_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    where = _layout(tmp_path, monkeypatch, KEPT)

    assert_refused_by_every_harness_and_bash_writes(where, f"bash {script}")


@pytest.mark.parametrize(
    ("script", "place"),
    [
        ("tools/build.sh", "out/x.txt"),
        ("tools/make.sh", "out/made.txt"),
        ("tools/here.sh", "tools/here.txt"),
        ("tools/pwd.sh", "out/pwd.txt"),
    ],
)
def test_p3_a_script_writing_its_own_tree_from_a_variable_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, place: str
) -> None:
    where = _layout(tmp_path, monkeypatch, KEPT_HARMLESS)

    assert_allowed_by_every_harness_and_bash_writes_there(where, f"bash {script}", place)


SELF_BUILT = {
    "tools/up.sh": 'D=$(dirname "$0")\nD="$D/.."\nmkdir -p "$D/out"\necho x > "$D/out/up.txt"\n',
    "tools/gdb.sh": "scriptpath=`dirname $0`\n"
    'if [ "`echo ${scriptpath} | cut -b1`" != "/" ] ; then\n'
    '  scriptpath="`pwd`/${scriptpath}"\nfi\nmkdir -p out; echo x > out/gdb.txt\n',
}
"""Scripts giving a variable keeping their own folder a value built from itself (``D="$D/.."``;
gdb's ``create-web-ari-in-src.sh``: ``scriptpath="`pwd`/${scriptpath}"``), writing their own
tree: guard68 put each value into the reassignment again without end, and every harness
waited out its time limit, then refused (review stop 68)."""


@pytest.mark.parametrize(
    ("script", "place"), [("tools/up.sh", "out/up.txt"), ("tools/gdb.sh", "out/gdb.txt")]
)
def test_p3_a_variable_built_from_its_own_value_is_read_once_and_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, place: str
) -> None:
    where = _layout(tmp_path, monkeypatch, SELF_BUILT)

    assert_allowed_by_every_harness_and_bash_writes_there(where, f"bash {script}", place)


def test_p3_a_script_keeping_its_own_folder_in_more_values_than_read_is_refused_unjudged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`KEPT_CAP` own folders kept, the guard stops counting and refuses, whatever
    the machine's speed (a counted cap, no time limit)."""
    kept = "".join(f'D{n}="$(dirname "$0")/{n}"\n' for n in range(KEPT_CAP + 1))
    where = _layout(tmp_path, monkeypatch, {"tools/many.sh": f'{kept}echo x > "$D0/x.txt"\n'})

    assert_each_refused_by_every_harness(
        where, [fill("bash tools/many.sh", where)], f"more than {KEPT_CAP} values"
    )


def test_p3_a_relative_0_after_the_scripts_cd_is_read_from_where_bash_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _layout(
        tmp_path, monkeypatch, {"tools/up.sh": 'cd ..; echo x >> "$(dirname "$0")/up.md"\n'}
    )
    (where.workspace.parent / "tools").symlink_to(where.root / where.other)

    assert_refused_by_every_harness_and_bash_writes(where, "bash tools/up.sh")


def test_p3_a_relative_0_after_the_scripts_cd_into_its_own_tree_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _layout(
        tmp_path, monkeypatch, {"tools/in.sh": 'cd ..; echo x > "$(dirname "$0")/in.txt"\n'}
    )
    (where.workspace.parent / "tools").mkdir()

    assert_allowed_by_every_harness_and_bash_writes_there(
        where, "bash tools/in.sh", "../tools/in.txt"
    )


def test_p3_a_logical_cd_pwd_is_read_as_bash_prints_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tools`` a link to a folder two deep: ``tools/..`` is ``deep/a`` for the kernel, but
    ``cd tools/.. && pwd`` prints the Workspace (bash's logical ``cd``), whose ``notes`` leads
    into the other scope."""
    where = _layout(
        tmp_path,
        monkeypatch,
        {
            "deep/a/tools/l.sh": 'ROOT="$(cd "$(dirname "$0")/.." && pwd)"\n'
            'echo x >> "$ROOT/notes/l.md"\n'
        },
    )
    (where.workspace / "tools").symlink_to(where.workspace / "deep" / "a" / "tools")

    assert_refused_by_every_harness_and_bash_writes(where, "bash tools/l.sh")


PHYSICAL = {
    "deep/a/tools/p.sh": 'ROOT="$(cd -P "$(dirname "$0")/.." && pwd)"\n'
    'echo x >> "$ROOT/notes/p.md"\n',
    "deep/a/tools/q.sh": 'ROOT="$(cd "$(dirname "$0")/.." && pwd -P)"\n'
    'echo x >> "$ROOT/notes/q.md"\n',
    "deep/a/tools/c.sh": 'cd -P "$(dirname "$0")/.." && echo x >> notes/c.md\n',
    "deep/a/tools/s.sh": 'set -P\ncd "$(dirname "$0")/.."\necho x >> notes/s.md\n',
    "deep/a/tools/d.sh": 'cd "$(dirname "$0")/.." && echo x >> notes/d.md\n',
    "deep/a/tools/s2.sh": 'set -Pe\ncd "$(dirname "$0")/.."\necho x >> notes/s2.md\n',
    "deep/a/tools/s3.sh": 'set -euPo pipefail\ncd "$(dirname "$0")/.."\necho x >> notes/s3.md\n',
    "deep/a/tools/c2.sh": 'cd -eP "$(dirname "$0")/.." && echo x >> notes/c2.md\n',
    "deep/a/tools/c3.sh": 'cd -LP "$(dirname "$0")/.." && echo x >> notes/c3.md\n',
}
"""``tools`` a link to ``deep/a/tools``, whose real parent ``deep/a`` holds the link ``notes``
into the other scope, the Workspace a folder ``notes`` of its own: ``cd -P tools/..`` enters
``deep/a`` (as ``cd`` does after ``set -P``); ``cd tools/.. && pwd -P`` and ``cd tools/..``
the Workspace (``cd`` drops the ``..`` first). ``set -P`` bundled with other options
(``-Pe``, ``-euPo pipefail``) and ``cd``'s ``-P`` bundled, or last of ``-L`` and ``-P``
(``-eP``, ``-LP``), are physical too (review stop 68)."""


def _physical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    where = _layout(tmp_path, monkeypatch, PHYSICAL)
    (where.workspace / "deep" / "a" / "notes").symlink_to(where.root / where.other)
    (where.workspace / "tools").symlink_to(where.workspace / "deep" / "a" / "tools")
    (where.workspace / "notes").unlink()
    (where.workspace / "notes").mkdir()
    return where


def test_p3_a_physical_cd_pwd_is_read_where_the_kernel_resolves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _physical(tmp_path, monkeypatch)

    assert_refused_by_every_harness_and_bash_writes(where, "bash tools/p.sh")


@pytest.mark.parametrize("script", ["c", "s", "s2", "s3", "c2", "c3"])
def test_p3_a_physical_cd_is_followed_where_the_kernel_resolves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    where = _physical(tmp_path, monkeypatch)

    assert_refused_by_every_harness_and_bash_writes(where, f"bash tools/{script}.sh")


def test_p3_a_logical_cd_then_pwd_p_writing_its_own_tree_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _physical(tmp_path, monkeypatch)

    assert_allowed_by_every_harness_and_bash_writes_there(where, "bash tools/q.sh", "notes/q.md")
    assert_allowed_by_every_harness_and_bash_writes_there(where, "bash tools/d.sh", "notes/d.md")


NUL = {
    "n1.sh": b"echo hi\necho x >> no\0tes/n1.md\n",
    "n2.sh": b"#!/bin/bash\necho hi\necho x >> no\0tes/n2.md\n",
    "n3.sh": b"#!/bin/sh\n\0\necho x >> notes/n3.md\n",
}
"""A NUL inside a word (bash drops it); one on the line after ``#!/bin/sh`` (bash would call
the file binary, but ``sh`` is dash on Debian, which runs it: review stop 68)."""


@pytest.mark.parametrize("command", ["bash n1.sh", ". ./n1.sh", "./n2.sh", "bash n2.sh", "./n3.sh"])
def test_p3_a_script_holding_a_nul_byte_is_read_as_bash_runs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    for name, data in NUL.items():
        (where.workspace / name).write_bytes(data)
        (where.workspace / name).chmod(0o755)

    assert_refused_by_every_harness_and_bash_writes(where, command)


GLOBS = {
    "g1.sh": "echo x >> notes/*.txt\n",
    "g2.sh": "cp /etc/hostname no*/.\n",
    "g3.sh": "cd .. && cp /etc/hostname */notes/.\n",
    "g4.sh": "ln -s /etc/hostname note?/.\n",
    "g5.sh": "shopt -s globstar\ncd ../.. && cp /etc/hostname **/notes/.\n",
    "g6.sh": "d=.\ncp /etc/hostname no*/$d\n",
}
"""Scripts writing through ``notes`` by a pattern: matching nothing (bash writes ``*.txt`` as
spelled), or a folder matching the link (``no*/.``, ``note?/.``, ``*/notes/.`` from the
folder above, ``**/notes/.`` any folders deep under ``globstar``, ``no*/$d``: bash matches
a path only where all of it is there)."""


@pytest.mark.parametrize("script", sorted(GLOBS))
def test_p3_a_pattern_through_the_link_in_a_script_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    where = _layout(tmp_path, monkeypatch, GLOBS)

    assert_refused_by_every_harness_and_bash_writes(where, f"bash {script}")


PATTERNS_READ = (
    "mkdir -p out\n"
    'for d in */; do echo "$d"; done > out/dirs.txt\n'
    'case "$PWD" in */*) echo in-a-folder;; esac\n'
    "if [[ $PWD == */* ]]; then echo nested; fi\n"
    "# copy */. from here\n"
    "sed -e 's/x*//g' /dev/null > out/sed.txt\n"
)
"""A script whose patterns bash matches against a string (``case``, ``[[ == ]]``), stand in
a comment or quotes, or match no folder's path (``*/``: the folders themselves), in the
Workspace holding the link ``notes``: it passes (real bash-completion holds such words). A
pattern matching a path through the link (``ls -d */.``) is refused as that path spelled is
(``ls -d notes/.``): the guard judges the memory a script's words name."""


def test_p3_a_pattern_in_a_scripts_own_tree_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _layout(tmp_path, monkeypatch, {"logs.sh": PATTERNS_READ})

    assert_allowed_by_every_harness_and_bash_writes_there(where, "bash logs.sh", "out/sed.txt")


PATTERNS_MATCHING_NOTHING_THERE = (
    "mkdir -p build\n"
    'for p in */package.json; do echo "$p"; done > build/list.txt\n'
    'case "$0" in */t.sh | t.sh) echo hit;; esac\n'
    "wc -l */*.json > build/count.txt\n"
    "tar czf build/dist.tgz */dist\n"
    "rm -rf */node_modules ./*/cache\n"
    "echo x > build/done.txt\n"
)
"""An everyday script in the Workspace holding the link ``notes`` (and packages ``pkg-a``,
``pkg-b``) whose patterns have a folder part matching ``notes`` but name no path there
(``notes/package.json``, ``notes/dist``, ``notes/node_modules`` are not there; bash matches a
pattern only against paths that exist whole), and a ``case`` pattern followed by `` |``:
guard68 matched the folder part alone, judged ``notes/node_modules`` and refused it."""


def test_p3_a_pattern_naming_nothing_through_the_link_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = _layout(tmp_path, monkeypatch, {"tools/t.sh": PATTERNS_MATCHING_NOTHING_THERE})
    for package in ("pkg-a", "pkg-b"):
        for folder in ("dist", "node_modules", "cache"):
            (where.workspace / package / folder).mkdir(parents=True)
        (where.workspace / package / "package.json").write_text("{}\n", encoding="utf-8")

    assert_allowed_by_every_harness_and_bash_writes_there(
        where, "bash tools/t.sh", "build/done.txt"
    )
    assert not (where.workspace / "pkg-a" / "node_modules").exists()


def test_p3_sourcing_debians_gettext_sh_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``. gettext.sh`` (found on ``PATH``) holds ``gettext.sh | */gettext.sh | *\\gettext.sh)``,
    a ``case`` pattern followed by `` |``; a system without it runs the stand-in written here."""
    where = guarded_layout(tmp_path, monkeypatch)
    stand_in = where.workspace / "bin" / "gettext.sh"
    stand_in.parent.mkdir()
    stand_in.write_text(
        'case "$0" in\n  gettext.sh | */gettext.sh | *\\\\gettext.sh)\n    echo run;;\nesac\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("PATH", f"{os.environ['PATH']}:{stand_in.parent}")

    assert_allowed_by_every_harness_and_bash_writes_there(
        where, ". gettext.sh; mkdir -p out; echo x > out/a.txt", "out/a.txt"
    )
