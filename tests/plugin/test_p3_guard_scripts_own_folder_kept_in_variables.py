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

from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_refused_by_every_harness_and_bash_writes,
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
}
"""``tools`` a link to ``deep/a/tools``, whose real parent ``deep/a`` holds the link ``notes``
into the other scope, the Workspace a folder ``notes`` of its own: ``cd -P tools/..`` enters
``deep/a`` (as ``cd`` does after ``set -P``); ``cd tools/.. && pwd -P`` and ``cd tools/..``
the Workspace (``cd`` drops the ``..`` first)."""


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


@pytest.mark.parametrize("script", ["c", "s"])
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
    "n2.sh": b"#!/bin/bash\necho hi\necho x >> notes/n2.md # \0\n",
}


@pytest.mark.parametrize("command", ["bash n1.sh", ". ./n1.sh", "./n2.sh", "bash n2.sh"])
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
