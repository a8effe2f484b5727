"""P-3: everyday installers given options, archives piped into ``tar``, and loops over a
Workspace's folders are judged by where they can write.

A downloaded installer is let through as fetched code (``curl -fsSL URL | sh``), and so is it
given plain options (``| sh -s -- -y``): they were refused as "words known only at run time"
although the command names them. A word given to it that is built at run time, a pattern, a
glued short option, a list, or a value naming another Workspace's scope stays refused: the
installer (here a stand-in for the download, the tests have no network) writes where told.

``gunzip -c``, ``zcat``, ``bzip2 -dc``, ``gzip -cd`` and ``xz -dc`` write only to their output,
yet were taken for programs writing their words, which a ``tar -x`` unpacking beside them
made refused. GNU tar (1.34 here) drops ``..`` members and a leading ``/`` and will not write
a member through a symlink member of the same archive, but writes a member ``notes/a.md``
through a symlink ``notes`` already in the folder it unpacks into: an archive read from a
pipe into a folder holding a link into another scope stays refused, and bash proves why.

A ``for d in */`` loop passes where no folder is a link into memory; where one is, the loop
names another scope's folder, as ``cd notes && make test`` does, and stays refused, now
saying so (it said "not in the memory root itself").
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    guarded_layout,
    refusals_by_every_harness,
    refused_by_some_harness,
)

RUSTUP = "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs"

INSTALLERS = [
    f"{RUSTUP} | sh -s -- -y",
    f"{RUSTUP} | bash -s -- -y",
    f"{RUSTUP} | sh -s -- -y --default-toolchain stable --profile minimal",
    "curl -fsSL https://example.com/install.sh | bash -s -- --no-modify-path",
    "curl -sSf https://get.example.com | sh -s -- --yes --prefix=$HOME/.local",
    "wget -qO- https://example.com/install.sh | bash -s -- --version 1.2",
]
"""Installers as their READMEs give them: fetched code given plain options."""

HOSTILE_INSTALLERS = [
    f'{RUSTUP} | sh -s -- "$(cat t)"',
    f"{RUSTUP} | sh -s -- --prefix={{root}}/{{other}}",
    f"{RUSTUP} | sh -s -- --prefix=notes",
    f"{RUSTUP} | sh -s -- notes",
    f"{RUSTUP} | sh -s -- notes/a.md",
    f"{RUSTUP} | sh -s -- $UNSET_VARIABLE",
    f"{RUSTUP} | sh -s -- --prefix=$UNSET_VARIABLE",
    f'x=$(cat t); {RUSTUP} | bash -s -- "$x"',
    f"X=notes; {RUSTUP} | bash -s -- --prefix=$X",
    f"{RUSTUP} | sh -s -- --prefix=${{{{UNSET_VARIABLE:-notes}}}}",
    f"{RUSTUP} | sh -s -- ../../data/agents/coder/agent_state/memory/{{other}}",
    f"{RUSTUP} | sh -s -- no*",
    f"{RUSTUP} | sh -s -- --prefix=no*",
    f"{RUSTUP} | sh -s -- -pnotes",
    f"{RUSTUP} | sh -s -- --prefix=x:notes",
    f"{RUSTUP} | sh -s -- --prefix=notes,x",
    f"{RUSTUP} | sh -s -- --prefix=$PWD/notes",
    f"cd ..; {RUSTUP} | sh -s -- my-app/notes",
    f"{RUSTUP} | sh -s -- --scope={{other}}",
    f"{RUSTUP} | sh -s -- --prefix=x:notes",
    f"{RUSTUP} | sh -s -- --prefix=notes,x",
    f"{RUSTUP} | sh -s -- --prefix=$PWD/notes",
    f"cd ..; {RUSTUP} | sh -s -- my-app/notes",
    f"{RUSTUP} | sh -s -- --scope={{other}}",
    f"{RUSTUP} | sh -s -- P=~/agents/coder/agent_state/memory/{{other}}",
    f"{RUSTUP} | sh -s -- --prefix=${{{{HOME}}}}/agents/coder/agent_state/memory/{{other}}",
    f"{RUSTUP} | sh -s -- -y <<< 'cp note.md \"$1\"/a.md'",
    f"{RUSTUP} | tee log | sh -s -- -y",
    f"cd notes && {RUSTUP} | sh -s -- -y",
    f"alias curl='cat t'; {RUSTUP} | sh -s -- -y",
    f"PATH=.:$PATH; {RUSTUP} | sh -s -- notes",
    f"{RUSTUP} | {{{{ sh -s -- notes; }}}}",
    f"curl() {{{{ cat t; }}}}; {RUSTUP} | sh -s -- -y",
    "base64 -d f | sh -s -- -y",
    "curl file:///tmp/x | sh -s -- -y",
]
"""The same form writing into another Workspace's scope, or given code or words the guard
cannot read: a run-time word, a value naming the other scope (as written, through the link
``notes``, by ``..``, ``$HOME``, a variable, a default, a pattern, a glued short option), a
here-string or another program in place of the download, a ``curl`` the command defines."""

_INSTALLER = (
    "for a; do case $a in --prefix=*) p=${a#--prefix=};; -*) ;; *) p=$a;; esac; done\n"
    'mkdir -p "$p" && echo installed > "$p/installed.md"\n'
)
"""What the stand-in download is: an installer writing into the folder it is given."""


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """A :class:`Layout` in its environment, the other scope a folder ``t`` names."""
    found = guarded_layout(tmp_path, monkeypatch)
    (found.workspace / "t").write_text(str(found.root / found.other), encoding="utf-8")
    return found


def test_p3_an_installer_given_plain_options_passes_in_every_harness(where: Layout) -> None:
    assert refused_by_some_harness(where, INSTALLERS) == {}


def test_p3_an_installer_given_a_place_in_another_scope_stays_refused(
    where: Layout, tmp_path: Path
) -> None:
    assert_each_refused_by_every_harness(where, [fill(c, where) for c in HOSTILE_INSTALLERS])
    # bash, the download stood in for, writes where the installer is told
    stand_in = tmp_path / "bin"
    stand_in.mkdir()
    (stand_in / "curl").write_text(f"#!/bin/sh\ncat <<'EOF'\n{_INSTALLER}EOF\n", encoding="utf-8")
    (stand_in / "curl").chmod(0o755)
    env = {"PATH": f"{stand_in}:/usr/bin:/bin", "HOME": str(where.data)}
    other = where.root / where.other
    for command in (f"{RUSTUP} | sh -s -- --prefix=notes", f'{RUSTUP} | sh -s -- "$(cat t)"'):
        (other / "installed.md").unlink(missing_ok=True)
        subprocess.run(["bash", "-c", command], cwd=where.workspace, env=env, check=True)
        assert (other / "installed.md").read_text(encoding="utf-8") == "installed\n", command
    (other / "installed.md").unlink()
    into_build = INSTALLERS[0].replace("-y", "--prefix=build")
    assert refused_by_some_harness(where, [into_build]) == {}
    subprocess.run(
        ["bash", "-c", into_build],
        cwd=where.workspace,
        env=env,
        check=True,
    )
    assert (where.workspace / "build" / "installed.md").exists()
    assert sorted(path.name for path in other.iterdir()) == ["MEMORY.md"]


def _archives(folder: Path, member: str) -> None:
    """``x.tar.gz``, ``x.tar.bz2``, ``x.tar.xz`` in ``folder``, each of one file ``member``."""
    plain = io.BytesIO()
    with tarfile.open(fileobj=plain, mode="w") as archive:
        info = tarfile.TarInfo(member)
        info.size = 3
        archive.addfile(info, io.BytesIO(b"hi\n"))
    for suffix, compress in (("gz", gzip.compress), ("bz2", bz2.compress), ("xz", lzma.compress)):
        (folder / f"x.tar.{suffix}").write_bytes(compress(plain.getvalue()))


UNPACKS = [
    "gunzip -c x.tar.gz | tar -x",
    "zcat x.tar.gz | tar xf -",
    "bzip2 -dc x.tar.bz2 | tar -x",
    "gzip -cd x.tar.gz | tar xvf -",
    "xz -dc x.tar.xz | tar -x",
]


@pytest.mark.parametrize("command", UNPACKS)
def test_p3_an_archive_piped_into_tar_in_a_folder_without_links_passes(
    where: Layout, command: str
) -> None:
    (where.workspace / "notes").unlink()
    _archives(where.workspace, "out/a.txt")

    assert_allowed_by_every_harness_and_bash_writes_there(where, command, "out/a.txt")


HOSTILE_UNPACKS = [
    *UNPACKS,
    "gunzip -c x.tar.gz | tar -x -C notes/",
    "zcat x.tar.gz | tar -x -C {root}/{other}",
    'd=notes; gunzip -c x.tar.gz | tar -x -C "$d"',
    'gunzip -c x.tar.gz | tar -x -C "$(cat t)"',
    "cd notes && gunzip -c ../x.tar.gz | tar -x",
    "gunzip -c x.tar.gz | (cd notes && tar -x)",
    "gunzip -c x.tar.gz | tar -x -C no*",
    "gunzip -c x.tar.gz | tar -x -C ../../data/agents/coder/agent_state/memory/{other}",
    "zcat x.tar.gz | tar -xP",
    "zcat x.gz > notes/a.md",
    "gunzip -c x.gz | tee notes/a.md",
    "gunzip -f notes/a.md.gz",
]
"""Archives piped into ``tar`` where a member may reach another scope: beside the link
``notes`` (a member ``notes/a.md`` goes through it), into it by its name, a variable, a
run-time folder, a ``cd``, a pattern, ``..``, by absolute names; and the decompressor's own
output into the other scope."""


def test_p3_an_archive_piped_into_tar_beside_a_link_into_another_scope_stays_refused(
    where: Layout,
) -> None:
    assert_each_refused_by_every_harness(where, [fill(c, where) for c in HOSTILE_UNPACKS])
    _archives(where.workspace, "notes/piped.md")

    assert_refused_by_every_harness_and_bash_writes(where, "gunzip -c x.tar.gz | tar -x")


LOOPS = [
    'for d in */; do (cd "$d" && git status -s); done',
    'for d in */; do (cd "$d" && make test); done',
    'for d in */; do cd "$d" && git status -s; cd ..; done',
]


def test_p3_a_loop_over_folders_without_links_into_memory_passes(where: Layout) -> None:
    (where.workspace / "notes").unlink()
    for folder in ("api", "web"):
        (where.workspace / folder).mkdir()

    assert refused_by_some_harness(where, LOOPS) == {}


def test_p3_a_loop_whose_pattern_takes_a_link_into_another_scope_says_so(where: Layout) -> None:
    refused = {command: refusals_by_every_harness(where, command) for command in LOOPS}

    for seen in refused.values():
        for reason in seen.values():
            assert reason is not None
            assert f"{where.other} is another Workspace's memory scope" in reason, reason
    assert_refused_by_every_harness_and_bash_writes(
        where, 'for d in */; do (cd "$d" && touch looped.md); done'
    )
