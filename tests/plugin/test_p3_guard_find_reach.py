"""P-3: a ``find`` whose actions write through what it finds is judged by what it may find.

``find . -type l -exec cp /etc/hostname {} \\;`` names no file: each ``{}`` is an entry find
meets below ``.``, and in a Workspace holding a symlink ``notes`` into another Workspace's
scope, ``cp`` writes through it. Every harness let these through (its guard read only the
words, and ``-iname``, ``-regex``, ``-newer``, ``-type l``, ``-L`` name no file); bash wrote into
the other scope. Now, where find's expression is anything but ``-name``/``-path`` tests joined
by AND, ``{}`` stands for every entry below its start folders (following links under ``-L``),
judged as a glob that may match any name there: a link into another scope (the memory root,
the data dir) below a start is refused, naming what to do. Where its name tests bound what it
acts on, a link they match is refused (``find . -name notes`` with the link one folder down).
Everyday finds pass: their name tests match no link, ``-type f`` keeps links out, their
actions only read (``grep``), or their Workspace holds no link into memory.
"""

from __future__ import annotations

import subprocess

import pytest
from harness_memory.hooks import find_reach

from tests.support.guard_cases import (
    Layout,
    assert_allowed_by_every_harness_and_bash_writes_there,
    assert_each_refused_by_every_harness,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    let_through,
    refusals_by_every_harness,
    refused_by_some_harness,
)

WRITES_THROUGH_WHAT_IT_FINDS = [
    "find . -type l -exec cp /etc/hostname {{}} \\;",
    "find . -iname NOTES -exec cp /etc/hostname {{}}/a.md \\;",
    "find . -ipath ./NOTES -exec cp /etc/hostname {{}}/a.md \\;",
    "find . -iwholename ./Notes -exec cp /etc/hostname {{}}/a.md \\;",
    "find . -regex '.*/n.tes' -exec cp /etc/hostname {{}}/a.md \\;",
    "find . -iregex '.*/NOTES' -exec cp /etc/hostname {{}}/a.md \\;",
    "find . -lname '*-*' -exec cp /etc/hostname {{}}/a.md \\;",
    "find . -mmin -60 -type l -exec cp /etc/hostname {{}}/a.md \\;",
    "find . -type l -execdir cp /etc/hostname {{}}/a.md \\;",
    "yes | find . -type l -ok cp /etc/hostname {{}}/a.md \\;",
    "yes | find . -type l -okdir cp /etc/hostname {{}}/a.md \\;",
    "find . -type l -exec sh -c 'cp /etc/hostname {{}}/a.md' \\;",
    "find . -name '*.py' -o -type l -exec cp /etc/hostname {{}}/a.md \\;",
    "find . -name '[=-z]otes' -exec cp /etc/hostname {{}}/a.md \\;",
    'for d in .; do find "$d" -type l -exec cp /etc/hostname {{}} \\; ; done',
    "bash -c 'find . -type l -exec cp /etc/hostname {{}}/a.md \\;'",
    "find -L . -name MEMORY.md -exec cp /etc/hostname {{}}.bak \\;",
    "find . -follow -type f -exec cp /etc/hostname {{}}.bak \\;",
]
"""Each let through by every harness before; bash writes a new file into the other scope."""


@pytest.mark.parametrize("command", WRITES_THROUGH_WHAT_IT_FINDS)
def test_p3_a_find_writing_through_a_link_it_may_find_is_refused(
    where: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(where, command)


def test_p3_the_refusal_names_the_link_and_what_to_do(where: Layout) -> None:
    assert_each_refused_by_every_harness(
        where,
        [fill("find . -type l -exec cp /etc/hostname {{}} \\;", where)],
        f"the symlink {where.workspace}/notes below {where.workspace}",
        "its tests are no -name or -path the guard can match",
        "Add a -name or -path test that leaves it out",
    )


def test_p3_the_refusal_says_only_what_holds_for_the_command(where: Layout) -> None:
    """A find reaches the other scope through a link it meets: the refusal says so, not that
    the command names the scope's folder itself, and offers "leave out -L" only to a find that
    follows links (review rv-fix66f)."""
    plain = refusals_by_every_harness(
        where, fill("find . -type l -exec touch {{}}/a.md \\;", where)
    )
    follows = refusals_by_every_harness(
        where, "find -L . -name MEMORY.md -exec cp /etc/hostname {} \\;"
    )

    for reason in plain.values():
        assert reason is not None
        assert "names that folder itself" not in reason
        assert "leave out -L" not in reason
        assert f"{where.other} is another Workspace's memory scope" in reason
    for reason in follows.values():
        assert reason is not None
        assert "leave out -L" in reason
        assert "names that folder itself" not in reason


def test_p3_a_find_removing_through_a_followed_link_is_refused(where: Layout) -> None:
    """``-L`` walks into ``notes``: ``-delete`` removes the other scope's ``MEMORY.md``."""
    command = "find -L . -name MEMORY.md -delete"

    assert let_through(where, [command]) == {}
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=False, timeout=60)
    assert not (where.root / where.other / "MEMORY.md").exists()


def test_p3_a_link_deeper_down_that_a_name_test_matches_is_refused(where: Layout) -> None:
    """``-name notes`` bounds find's actions, but to a name the link one folder down has; the
    guard judged the word ``notes`` in the Workspace itself, where nothing is so named."""
    (where.workspace / "notes").unlink()
    (where.workspace / "src").mkdir()
    (where.workspace / "src" / "notes").symlink_to(where.root / where.other)

    assert_refused_by_every_harness_and_bash_writes(
        where, "find . -name notes -exec cp /etc/hostname {{}}/a.md \\;"
    )
    assert_each_refused_by_every_harness(
        where,
        ["find src -name 'no*' -exec touch {} +", "find . -path '*/notes' -exec rm -f {} +"],
        "its -name and -path tests match it",
    )


def test_p3_a_find_following_a_link_to_the_data_dir_is_refused(where: Layout) -> None:
    """Under ``-L`` a link to the data dir takes find's actions into every scope."""
    (where.workspace / "notes").unlink()
    (where.workspace / "data").symlink_to(where.data)

    assert_refused_by_every_harness_and_bash_writes(
        where, "find -L . -name MEMORY.md -exec cp /etc/hostname {{}}.bak \\;"
    )


def test_p3_a_find_reading_its_start_folders_at_run_time_is_refused(where: Layout) -> None:
    """``-files0-from t`` takes find's start folders from ``t``: here the other scope's."""
    (where.workspace / "notes").unlink()
    other = where.root / where.other
    (where.workspace / "t").write_bytes(f"{other}\0".encode())

    assert_each_refused_by_every_harness(
        where, ["find -files0-from t -delete"], "find reads its start folders from t"
    )
    assert_refused_by_every_harness_and_bash_writes(
        where, "find -files0-from t -type f -exec cp /etc/hostname {{}}.bak \\;"
    )


EVERYDAY_FINDS = [
    "find . -name '*.pyc' -delete",
    "find . -type f -name '*.py' -exec grep -l x {} +",
    "find . -type f -exec grep -l TODO {} +",
    "find src -type f | xargs wc -l",
    "find . -iname '*.md'",
    "find . -type l",
    "find . -name '*.orig' -exec rm {} \\;",
    "find . -type d -name __pycache__ -exec rm -rf {} +",
    "find . -type f -newer note.md -exec rm -f {} +",
    "find . -type f -name '*.sh' -exec chmod +x {} \\;",
    "find /tmp/x -mtime +7 -delete",
    "find . -maxdepth 1 -type f -print",
    "find . -name '*.py' -exec sed -i 's/a/b/' {} +",
    "find . -name '*.c' -exec clang-format -i {} \\;",
    "find . -type f -exec chmod 644 {} \\;",
    "find . -path ./node_modules -prune -o -type f -exec grep -l x {} +",
]
"""Finds from everyday work, in the Workspace holding the link ``notes``: their name tests
match no link, ``-type f`` or ``-type d`` keeps links out, or their actions only read."""

EVERYDAY_WITHOUT_A_LINK = [
    "find . -type d -empty -delete",
    "find . -mtime +7 -exec rm {} \\;",
    "find . -type l -delete",
    "find -L . -name '*.tmp' -delete",
    "find . -newer note.md -exec touch {} +",
]
"""Finds acting on every entry, in a Workspace holding no link into memory."""


def test_p3_everyday_finds_pass(where: Layout) -> None:
    (where.workspace / "src").mkdir()
    (where.workspace / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")

    assert refused_by_some_harness(where, EVERYDAY_FINDS) == {}
    (where.workspace / "notes").unlink()
    assert refused_by_some_harness(where, EVERYDAY_WITHOUT_A_LINK) == {}
    assert_allowed_by_every_harness_and_bash_writes_there(
        where, "find . -type f -name '*.md' -exec cp {{}} {{}}.bak \\;", "note.md.bak"
    )


def test_p3_a_find_over_more_entries_than_the_guard_reads_is_judged_by_its_words(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the cap the walk finds nothing and the command's words alone are judged, as
    before the walk: a name test naming the link in the start folder itself is still refused;
    refusing every writing find past the cap refused them all in any repository with a
    ``node_modules`` (review fix66f). Within it, the link is found (the tests above)."""
    for at in range(8):
        (where.workspace / f"f{at}.txt").write_text("x\n", encoding="utf-8")
    monkeypatch.setattr(find_reach, "REACH_CAP", 5)

    for reason in refusals_by_every_harness(
        where, "find . -name notes -exec cp /etc/hostname {} \\;"
    ).values():
        assert reason is not None
    (where.workspace / "notes").unlink()
    everyday = [
        "find . -name '*.pyc' -delete",
        "find . -type f -exec chmod 644 {} +",
        "find . -name '*.orig' -exec rm {} +",
        "find . -newer f0.txt -exec touch {} +",
    ]
    assert refused_by_some_harness(where, everyday) == {}


def test_p3_a_link_in_the_start_folder_is_met_however_big_the_tree_below(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the cap the walk stops, and what it met is judged: the start folder's own entries
    are read first, so ``notes`` beside a folder of more entries than the cap is still found
    (review final66: past the cap the walk threw away all it had read, and 17 of the 18
    forms above passed with a big ``node_modules`` beside the link)."""
    below = where.workspace / "node_modules"
    below.mkdir()
    for at in range(40):
        (below / f"m{at}.js").write_text("x\n", encoding="utf-8")
    top = len(list(where.workspace.iterdir()))
    monkeypatch.setattr(find_reach, "REACH_CAP", top + 5)

    assert_each_refused_by_every_harness(
        where, ["find . -type l -exec cp /etc/hostname {} \\;", "find -L . -name x -delete"]
    )


@pytest.mark.parametrize(
    ("words", "names", "links"),
    [
        (["-type", "f", "-name", "*.py", "-delete"], (("-name", "*.py"),), False),
        (["-iname", "X", "-exec", "rm", "{}", ";"], (("-iname", "X"),), True),
        (["-type", "l", "-delete"], None, True),
        (["-type", "d", "-empty", "-delete"], None, False),
        (["-delete", "-name", "x"], None, True),
        (["-name", "x", "-o", "-name", "y", "-delete"], (("-name", "y"),), True),
        (["-name", "x", "-o", "-type", "f", "-delete"], None, False),
        (["(", "-name", "x", "-o", "-name", "y", ")", "-delete"], None, True),
        (["!", "-name", "x", "-delete"], None, True),
        (["!", "-type", "d", "-delete"], None, True),
        (["-name", "$X", "-delete"], None, True),
        (["-L", ".", "-type", "f", "-name", "x", "-delete"], None, True),
        (["-printf", "-name", "-type", "l", "-delete"], None, True),
        (["-fprintf", "-type", "%p", "-delete"], None, True),
        (["-fprint", "-name", "-name", "x", "-delete"], (("-name", "x"),), True),
        (["-exec", "echo", "-name", "z", "{}", "+", "-delete"], None, True),
        (["-exec", "true", ";", "-name", "x", "-delete"], (("-name", "x"),), True),
        (["-frobnicate", "-name", "x", "-delete"], None, True),
    ],
)
def test_p3_what_a_finds_expression_leaves_its_actions(
    words: list[str], names: tuple[tuple[str, str], ...] | None, links: bool
) -> None:
    """The name tests AND-ed before a writing action on its branch (after the last ``-o``)
    bound it, each primary read with its arity (``-printf -name``: a format, no test); any
    other (none, in a group, negated, a pattern built at run time, ``-L``, a primary the
    guard does not know) leaves every entry; ``-type f`` or ``-type d`` so AND-ed keeps links
    out but under ``-L``."""
    writing = [at for at, word in enumerate(words) if word in ("-delete", "-exec")][-1:]

    read = find_reach.bounds(words, writing, suffixed=False)

    assert (read.names, read.links) == (names, links)


EVERY_ACTION_READ = [
    "find . -type l -exec true \\; -exec cp /etc/hostname {{}} \\;",
    "find . -type l -exec true \\; , -exec cp /etc/hostname {{}} \\;",
    "find . -type l -exec true ';' -exec cp /etc/hostname {{}} \\;",
    "find . -printf -name -type l -exec cp /etc/hostname {{}} \\;",
    "find . -fprint -name -type l -exec cp /etc/hostname {{}} \\;",
    "find . -type l -exec echo -name zzz {{}} + -exec cp /etc/hostname {{}} \\;",
    "find . -fprintf -type %p -exec cp /etc/hostname {{}} \\;",
]
"""Let through by every harness before (an action after the first ``;`` was never read; a
format or an earlier action's word was read as a ``-name`` or ``-type`` test); bash writes
into the other scope."""


@pytest.mark.parametrize("command", EVERY_ACTION_READ)
def test_p3_every_action_of_a_find_is_read_with_each_primarys_arity(
    where: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(where, command)


def test_p3_a_removal_through_a_followed_link_after_a_first_action_is_refused(
    where: Layout,
) -> None:
    command = "find -L . -name MEMORY.md -exec true \\; -delete"

    assert let_through(where, [command]) == {}
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=False, timeout=60)
    assert not (where.root / where.other / "MEMORY.md").exists()


def test_p3_a_separator_after_a_finds_action_still_ends_it(where: Layout) -> None:
    """``find … -exec true \\; ; rm -rf notes/`` : the second ``;`` is bash's, ``rm`` a command."""
    assert_each_refused_by_every_harness(where, ["find . -name x -exec true \\; ; rm -rf notes/"])


def test_p3_a_name_bounded_find_is_walked_to_the_same_cap(where: Layout) -> None:
    """Thousands of entries before the link, within the cap, do not stop the walk (the
    word-only reading let ``cp`` write through ``z/y/notes``)."""
    (where.workspace / "notes").unlink()
    big = where.workspace / "big"
    big.mkdir()
    for at in range(find_reach.REACH_CAP - 100):
        (big / str(at)).touch()
    (where.workspace / "z" / "y").mkdir(parents=True)
    (where.workspace / "z" / "y" / "notes").symlink_to(where.root / where.other)

    assert_refused_by_every_harness_and_bash_writes(
        where, "find . -name notes -exec cp /etc/hostname {{}} \\;"
    )


EVERYDAY_IN_A_BIG_REPO = [
    "find . -path ./node_modules -prune -o -type f -name '*.js' -exec sed -i 's/a/b/' {} +",
    "find . -name node_modules -prune -o -name '*.orig' -delete",
    "find . \\( -name '*.orig' -o -name '*.rej' \\) -delete",
    "find . -mtime +7 -delete",
    "find . ! -path './.git/*' -type f -exec chmod 644 {} +",
    "find . -xtype l -delete",
    "find . -type l -delete",
    "find . -type f -exec grep -l TODO {} +",
    "find . -name '*.orig' -exec rm {} +",
    "find . -name '*.py' -exec sed -i 's/foo/bar/g' {} +",
    "find . -maxdepth 1 -name '*.orig' -exec mv {} out/ \\;",
    "find . -newer x -exec touch {} +",
]
"""Everyday finds in a repository of more than ``REACH_CAP`` entries (a ``node_modules``),
refused by an earlier reading ("more than 50000 entries"): ``-delete`` without ``-L`` removes a
link itself, a ``-type f`` AND-ed before the action keeps links out, and past the cap the walk
finds nothing (review fix66f: 38 such finds were refused in a 59,000-entry repository)."""


def test_p3_everyday_finds_in_a_big_repo_pass(where: Layout) -> None:
    (where.workspace / "notes").unlink()
    (where.workspace / "x").write_text("a\n", encoding="utf-8")
    (where.workspace / "node_modules" / "a").mkdir(parents=True)
    script = f"seq {find_reach.REACH_CAP + 1} | xargs touch"
    subprocess.run(["bash", "-c", script], cwd=where.workspace / "node_modules" / "a", check=True)

    assert refused_by_some_harness(where, EVERYDAY_IN_A_BIG_REPO) == {}


ESCAPED_NAMES = [
    "find . -name 'no\\tes' -exec cp /etc/hostname {{}} \\;",
    "find . -name '\\notes' -exec cp /etc/hostname {{}} \\;",
    "find . -name 'n\\otes' -exec cp /etc/hostname {{}} \\;",
    "find . -name no\\\\tes -exec cp /etc/hostname {{}} \\;",
    "find . -path './no\\tes' -exec cp /etc/hostname {{}} \\;",
]
"""Let through by every harness before: find's fnmatch reads ``\\t`` as ``t`` (no
``FNM_NOESCAPE``), the guard read the backslash as itself; bash writes into the other scope."""


@pytest.mark.parametrize("command", ESCAPED_NAMES)
def test_p3_a_backslash_in_a_name_test_is_matched_as_find_matches_it(
    where: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(where, command)


def test_p3_a_non_ascii_name_under_iname_may_match(where: Layout) -> None:
    """``İ`` folds to ``i`` for find under UTF-8; ``str.casefold`` makes it ``i̇``."""
    (where.workspace / "notes").unlink()
    (where.workspace / "\u0130").symlink_to(where.root / where.other)

    assert_each_refused_by_every_harness(
        where, ["find . -iname i -exec cp /etc/hostname {} \\;"], "the symlink"
    )
    assert refused_by_some_harness(where, ["find . -iname '*.md' -exec cp x {} \\;"]) == {}


WRITERS_THE_GUARD_DOES_NOT_READ = [
    "find . -type l -exec mkdir {{}}/d \\;",
    "find . -type l -exec zip -q {{}}/z.zip /etc/hostname \\;",
    "find . -type l -exec env zip -q {{}}/z.zip /etc/hostname \\;",
    "find . -type l -exec shuf -o {{}}/s.md /etc/hostname \\;",
    "find . -type l -exec sqlite3 {{}}/db 'select 1' \\;",
    "find . -type l -exec openssl rand -out {{}}/o.bin 4 \\;",
    'find . -type l -exec python3 -c \'import sys; open(sys.argv[1]+"/p.md","w")\' {{}} \\;',
    "find . -type l -exec node -e "
    '\'require("fs").writeFileSync(process.argv[1]+"/n","x")\' {{}} \\;',
    "find . -type l -exec xargs cp /etc/hostname {{}}/x.md \\; < /dev/null",
    "find . -type l -exec sh -c 'zip -q \"$1\"/z.zip /etc/hostname' _ {{}} \\;",
    "find . -type l -execdir zip -q {{}}/z.zip /etc/hostname \\;",
    "yes | find . -type l -ok zip -q {{}}/z.zip /etc/hostname \\;",
]
"""Let through by every harness before (the guard took an action to write only where its
reading of the command surely wrote); bash writes into the other scope. Now any program
given ``{}`` but a pure reader (``grep``, ``cat``, ``wc``…: ``find_reach.PURE_READERS``)
writes through what it finds."""


@pytest.mark.parametrize("command", WRITERS_THE_GUARD_DOES_NOT_READ)
def test_p3_a_program_given_what_find_finds_writes_through_it_unless_it_only_reads(
    where: Layout, command: str
) -> None:
    assert_refused_by_every_harness_and_bash_writes(where, command)


def test_p3_pure_readers_given_what_find_finds_pass(where: Layout) -> None:
    readers = [
        "find . -type l -exec cat {} +",
        "find . -exec grep -l x {} +",
        "find . -exec wc -l {} +",
        "find . -exec ls -ld {} \\;",
        "find . -exec sha256sum {} +",
        "find . -exec test -d {} \\; -print",
        "find . -name '*.js' -exec node --check {} \\;",
    ]
    assert refused_by_some_harness(where, readers) == {}


def test_p3_a_hard_link_a_writing_find_reaches_is_refused(where: Layout) -> None:
    """``-type f`` keeps symlinks out, not a second name of the other scope's ``MEMORY.md``:
    ``cp`` writes every name of the file (judged as ``cp x hl`` is)."""
    (where.workspace / "notes").unlink()
    index = where.root / where.other / "MEMORY.md"
    index.write_text("keep\n", encoding="utf-8")
    (where.workspace / "hl").hardlink_to(index)
    command = "find . -type f -exec cp /etc/hostname {} \\;"

    assert_each_refused_by_every_harness(where, [command], "the file", "has other names")
    assert refused_by_some_harness(where, ["find . -type f -name '*.py' -exec cp x {} \\;"]) == {}
    subprocess.run(["bash", "-c", command], cwd=where.workspace, check=False, timeout=60)
    assert index.read_text(encoding="utf-8") != "keep\n"


BUILT_AT_RUN_TIME = [
    "mkdir -p src; find {{src,.}} -maxdepth 1 -type l -exec cp /etc/hostname {{}} \\;",
    'find "${{X:-.}}" -type l -exec cp /etc/hostname {{}} \\;',
    "find -files0-from <(printf '.\\0') -type l -exec cp /etc/hostname {{}} \\;",
    'A=(-type l -exec cp /etc/hostname {{}} \\;); find . "${{A[@]}}"',
    'f() {{ find "$@"; }}; f . -type l -exec cp /etc/hostname {{}} \\;',
]
"""Let through by every harness before (a start folder or expression word the guard does not
expand was left out); bash writes into the other scope. Each counts as any folder or any
action now."""


@pytest.mark.parametrize("command", BUILT_AT_RUN_TIME)
def test_p3_a_find_built_at_run_time_is_refused(where: Layout, command: str) -> None:
    assert_refused_by_every_harness_and_bash_writes(where, command)


def test_p3_a_find_with_values_built_at_run_time_that_only_reads_passes(where: Layout) -> None:
    everyday = [
        'find . -name "$X" -print',
        'find "$HOME/src" -name "*.py" -exec grep -l x {} +',
        'for d in src lib; do find "$d" -name "*.pyc" -delete; done',
        "find {src,lib} -name '*.orig' -delete",
    ]
    assert refused_by_some_harness(where, everyday) == {}
