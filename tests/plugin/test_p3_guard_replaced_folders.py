"""P-3: a folder the command removes or moves, then replaces by a link, is judged as the link.

``ln`` makes a link *inside* a folder that stands at its destination, so the guard read
``ln -s ../notes sub/d`` with a folder ``sub/d`` on the disk as making ``sub/d/notes``. But
``rm -rf sub/d && ln -s ../notes sub/d && echo x > sub/d/a.md`` removes that folder first:
``ln`` makes ``sub/d`` itself, its relative target read from ``sub`` (``sub/../notes``, the
Workspace's link into another scope), and bash wrote into that scope; likewise after ``mv``,
``rmdir``, ``find -delete``, and for a folder of the Session's own scope. A folder the
command may have taken away or replaced before (a remover's or mover's operand, one built at
run time, or anything after a program the guard does not read, an unpacker or a linker) is
now taken both ways: as the folder, and as the link's own name.

``mv`` and ``cp -a``/``-d``/``-P``/``-r``/``--no-dereference`` keep a symbolic link as a
link: a relative one (``sub/rel -> notes``, leading nowhere where it stands) moved or copied
into the Workspace's top (``mv sub/rel d2``) leads into the other scope, and bash wrote there
through it; so did a folder holding one (``mv sub/tree tree``, ``tree/up -> ../notes``), a
hard link to the link (``ln sub/rel hard``), ``cpio -p``, ``find -exec mv``, ``xargs mv``
and a rename by code the guard reads (``os.rename``, ``shutil.move``, ``fs.renameSync``,
perl's ``rename``). Each such link is now followed from its new folder, a link made into
another scope is refused as a write there, and a program moving names it finds at run time,
or code renaming, is one that may make links. Each refused form is then run by bash, which
writes into the other scope: the gap was real.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from harness_memory.hooks import made_links
from harness_memory.hooks.made_links import TREE_CAP

from tests.support.guard_cases import (
    Layout,
    answer,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    refusal,
)


def _prepared(where: Layout) -> None:
    """The Workspace with a folder ``sub/d``, a link ``sub/rel -> notes`` (nothing where it
    stands), a folder ``sub/tree`` holding ``up -> ../notes``, ``target`` naming the other
    scope, a note, and a folder ``x`` in the Session's own scope."""
    work = where.workspace
    (work / "sub" / "d").mkdir(parents=True)
    (work / "sub" / "rel").symlink_to("notes")
    (work / "sub" / "tree").mkdir()
    (work / "sub" / "tree" / "up").symlink_to("../notes")
    (work / "target").write_text(f"{where.root / where.other}\n", encoding="utf-8")
    (work / "note.md").write_text("x\n", encoding="utf-8")
    (work / "d").mkdir()
    (where.root / where.own / "x").mkdir()


def _own_x_to_notes(where: Layout) -> str:
    """The relative target from the own scope's folder to the Workspace's ``notes`` link."""
    return os.path.relpath(where.workspace / "notes", where.root / where.own)


REPLACED = [
    "rm -rf sub/d && ln -s ../notes sub/d && echo x > sub/d/a.md",
    "rm -rf sub/d; ln -sfn ../notes sub/d; cp note.md sub/d/",
    "rm -r sub/d && ln -s ../notes sub/d && tee sub/d/a.md < note.md",
    "rmdir sub/d && ln -s ../notes sub/d && echo x > sub/d/a.md",
    "find sub/d -delete && ln -s ../notes sub/d && echo x > sub/d/a.md",
    "mv sub/d sub/e && ln -s ../notes sub/d && echo x > sub/d/a.md",
    "mkdir old && mv sub/d old/ && ln -s ../notes sub/d && echo x > sub/d/a.md",
    "cmd=ln; rm -rf sub/d && $cmd -s ../notes sub/d && echo x > sub/d/a.md",
    'rm -rf "$(echo sub/d)" && ln -s ../notes sub/d && echo x > sub/d/a.md',
    "python3 -c 'import shutil; shutil.rmtree(\"sub/d\")' && ln -s ../notes sub/d "
    "&& echo x > sub/d/a.md",
    "rm -rf {root}/{own}/x && ln -s UP {root}/{own}/x && echo x > {root}/{own}/x/a.md",
    "rm -rf sub/* && ln -s ../notes sub/d && echo x > sub/d/a.md",
    'rm -rf d && python3 -c \'import os; os.symlink(open("target").read().strip(), "d")\' '
    "&& echo x > d/a.md",
    # removed by a brace expansion, or by what a find finds and removes
    "rm -rf sub/{{d,e}} && ln -s ../notes sub/d && echo x > sub/d/a.md",
    "find sub -mindepth 1 -maxdepth 1 -name d -exec rm -rf {{}} + && ln -s ../notes sub/d "
    "&& echo x > sub/d/a.md",
    "find sub -name d -type d -exec rmdir {{}} \\; ; ln -s ../notes sub/d && echo x > sub/d/a.md",
    "find sub -name d -delete && ln -s ../notes sub/d && echo x > sub/d/a.md",
]
"""Each was let through (``sub/d``, ``d`` and the own scope's ``x`` are folders when the
guard answers); bash wrote into the other scope."""
MOVED_LINKS = [
    "mv sub/rel d2 && echo x > d2/a.md",
    "mv sub/rel . && echo x > rel/a.md",
    "mv -t . sub/rel && echo x > rel/a.md",
    "cp -P sub/rel d2 && echo x > d2/a.md",
    "cp -a sub/rel d2 && echo x > d2/a.md",
    "cp -d sub/rel d2 && echo x > d2/a.md",
    "cp --no-deref sub/rel d2 && echo x > d2/a.md",
    "mv sub/tree tree && cp note.md tree/up/",
    "cp -a sub/tree/. t2 && echo x > t2/up/a.md",
    "cp -r sub/tree t3 && echo x > t3/up/a.md",
    "find sub -name rel -exec mv {{}} . \\; && echo x > rel/a.md",
    "find sub -name rel -exec cp -P {{}} d2 \\; && echo x > d2/a.md",
    "find sub -name rel -print0 | xargs -0 mv -t . && echo x > rel/a.md",
    "ln sub/rel hard && echo x > hard/a.md",
    "mkdir -p n && mv sub/rel n/ && mv n/rel ./n2 && echo x > n2/a.md",
    "cd sub && echo rel | cpio -pd .. && cd .. && echo x > rel/a.md",
    # a program whose code the guard reads renaming the link
    "python3 -c \"import os; os.rename('sub/rel', 'rel')\" && echo x > rel/a.md",
    "python3 -c \"import os; os.replace('sub/rel', 'rel')\" && echo x > rel/a.md",
    "python3 -c \"import shutil; shutil.move('sub/rel', 'rel')\" && echo x > rel/a.md",
    "python3 -c \"from pathlib import Path; Path('sub/rel').rename('rel')\" && echo x > rel/a.md",
    "node -e \"require('fs').renameSync('sub/rel', 'rel')\" && echo x > rel/a.md",
    'perl -e \'rename "sub/rel", "rel"\' && echo x > rel/a.md',
    "python3 -c \"import os as o; o.rename('sub/rel', 'rel')\" && echo x > rel/a.md",
    "python3 -c \"from pathlib import Path; p = Path('sub/rel'); p.rename('rel')\" "
    "&& echo x > rel/a.md",
    'perl -MFile::Copy -e \'move("sub/rel", "rel")\' && echo x > rel/a.md',
    # a link made earlier in the command, inside a folder then moved or copied
    "ln -s ../notes sub/d/up && mv sub/d dd && echo x > dd/up/a.md",
    "ln -s ../notes sub/d/up && cp -a sub/d dd && echo x > dd/up/a.md",
    "ln -s ../notes sub/d/up && cp -r sub/d dd && echo x > dd/up/a.md",
    "ln -s ../notes sub/d/up && mv sub/d dd && cd dd/up && echo x > a.md",
    "mkdir -p s/t && ln -s ../notes s/t/up && mv s/t t && echo x > t/up/a.md",
    # sources named by a pattern, expanded as bash expands them
    "mv sub/tre? tree && cp note.md tree/up/",
    "mv sub/tr* tree && cp note.md tree/up/",
    "cp -a sub/tre* t2 && echo x > t2/up/a.md",
    "cp -a sub/tree/* d/ && echo x > d/up/a.md",
    "mv sub/re? d2 && echo x > d2/a.md",
    "cp -P sub/re* d2 && echo x > d2/a.md",
    # git mv renames on the disk as mv does
    "git init -q . && git add -A && git mv sub/rel rel && echo x > rel/a.md",
    "git init -q . && git add -A && git mv -f sub/tree tree && echo x > tree/up/a.md",
]
"""A relative link moved or copied as a link leads elsewhere from its new folder: each was let
through, and bash wrote into the other scope through it."""


@pytest.mark.parametrize("command", REPLACED + MOVED_LINKS)
def test_p3_a_folder_replaced_by_a_link_or_a_link_moved_is_refused(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(
        where, command.replace("UP", _own_x_to_notes(where))
    )


@pytest.mark.parametrize(
    "command",
    [
        "mv sub/rel d2",
        "cp -a sub/tree t2",
        "ln -s ../notes sub/l",
    ],
)
def test_p3_a_link_made_into_another_scope_is_refused_without_a_write(
    where: Layout, command: str
) -> None:
    """The link itself leads into the other scope: made, it is a way in, as ``ln -s notes x``
    naming the scope is."""
    _prepared(where)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None and reason.startswith("Agent Memory write guard: "), command


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf build && mkdir build && cp -r sub/d/. build/ && echo ok > build/stamp",
        "mv d d.old && mkdir d && echo x > d/index.html",
        "rm -rf dist && ln -s sub/d dist && echo hi > dist/x.txt",
        "rm -rf sub/d && ln -s ../d sub/d && echo hi > sub/d/x.txt",
        "mv sub/tree sub/tree2 && ls sub/tree2/up",
        "cp -a sub/d sub/d2 && echo x > sub/d2/a.txt",
        'for f in *.md; do mv "$f" d/; done',
        "find . -name '*.orig' -exec rm {{}} \\; && echo ok > done.txt",
        "rm -rf {root}/{own}/x.md && echo x > {root}/{own}/x.md",  # no folder: K-7, P-3
        "ln -s {root}/{own} mine && echo x > mine/a.md",
        "mkdir -p src && cp note.md src/a.js && find src -name '*.js' -exec cp {{}} d/ \\; "
        "&& echo ok > d/stamp",
        "mkdir -p src dist && ls src | xargs -r cp -t dist/ && echo ok > dist/stamp",
        "rm -rf dist && mkdir dist && cp -r sub/d/. dist/ && echo ok > dist/stamp",
        "mv sub/d* dd && echo ok > dd/x.txt",
        "git mv sub/d sub/e",
    ],
)
def test_p3_everyday_removals_moves_and_links_pass(where: Layout, command: str) -> None:
    """Folders removed and made again, links into the Workspace or the Session's own scope,
    moves and link-keeping copies of folders whose links stay clear of other memory."""
    _prepared(where)
    shell = fill(command, where)
    assert answer(where, "claude-code", "Bash", {"command": shell}) is None, shell


@pytest.mark.parametrize(
    "command",
    [
        "mv big big2 && echo x > big2/a.md",
        "cp -a a/b/big/. sub/d/ && echo x > sub/d/up/a.md",
        "cp -a a/b/big sub/d/ && echo x > sub/d/big/up/a.md",
    ],
)
def test_p3_a_moved_folder_holding_more_entries_than_are_read_is_a_place_known_at_run_time(
    where: Layout, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """Past :data:`TREE_CAP` entries the links of a moved or copied folder are not all read: a
    write into it (however its destination is spelt: ``dir/.``) is refused as through a link
    to a place known only at run time, the refusal naming the folder; fewer are read. The cap
    is lowered here: at its real size (50,000) an everyday ``public/`` is read whole."""
    monkeypatch.setattr(made_links, "TREE_CAP", 40)
    _prepared(where)
    for big in (where.workspace / "big", where.workspace / "a" / "b" / "big"):
        big.mkdir(parents=True)
        (big / "up").symlink_to("../../notes")
        for n in range(made_links.TREE_CAP + 1):
            (big / f"f{n}").touch()
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None and "builds at run time" in reason, command
    assert "a folder of over 40 entries the guard does not read for links" in reason, reason
    small = "mv sub/d sub/d3 && echo x > sub/d3/a.md"
    assert answer(where, "claude-code", "Bash", {"command": small}) is None
    assert TREE_CAP >= 50_000


def test_p3_a_moved_folder_under_the_cap_is_read_whole_once_per_move(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder under :data:`TREE_CAP` entries (an everyday ``public/`` of thousands at its
    real size, 50,000: asserted above) is read whole for its links: moved or copied, a write
    into it passes; one holding a link into another scope, copied as ``dir/.``, is refused by
    where that link leads from its new folder. Counted, not timed, with the cap lowered to 60
    and folders of 50: each move or copy lists every entry of its folder once (work linear in
    the folder, all of it read), and nothing of a folder the command does not take."""
    monkeypatch.setattr(made_links, "TREE_CAP", 60)
    _prepared(where)
    public = where.workspace / "public"
    big = where.workspace / "a" / "b" / "big"
    for folder in (public, big):
        folder.mkdir(parents=True)
        for n in range(50 - (folder == big)):
            (folder / f"f{n}").touch()
    (big / "up").symlink_to("../../notes")
    listed: list[tuple[str, int]] = []
    scandir = os.scandir

    def counted(path: str) -> Any:
        """``os.scandir`` noting how many entries of ``public``/``big`` each call lists."""
        if os.path.normpath(path) not in (str(public), str(big)):
            return scandir(path)
        with scandir(path) as entries:
            read = list(entries)
        listed.append((Path(os.path.normpath(path)).name, len(read)))
        return iter(read)

    monkeypatch.setattr(os, "scandir", counted)
    for command in (
        "mv public assets && echo ok > assets/manifest.json",
        "cp -a public out && echo ok > out/v.txt",
    ):
        listed.clear()
        assert answer(where, "claude-code", "Bash", {"command": command}) is None, command
        assert listed == [("public", 50)], (command, listed)
    listed.clear()
    linked = "cp -a a/b/big/. sub/d/ && echo x > sub/d/up/a.md"
    reason = refusal(answer(where, "claude-code", "Bash", {"command": linked}))
    assert reason is not None and "builds at run time" not in reason, reason
    assert listed == [("big", 50)], listed
