"""P-3: a program's options are read as its own option parser reads them, by one reader.

``tar -xvCnotes -f a.tar`` unpacks into ``notes`` (``C`` glued after other short flags, its
value glued after it); the guard read it as ``-x`` with the value ``vCnotes`` and let it
through, and tar wrote through the Workspace's link into another scope. Three readers of
option values existed, each reading a different part of getopt; now one
(:func:`~harness_memory.hooks.option_words.read_options`) reads every program's options by
its own table of the options taking a value: short bundles with a value glued or in the next
word, ``--opt=value`` and ``--opt value`` (shortened too), ``--`` ending the options, and
tar's old style. Each refused form is then run by the real program, which writes where the
guard said: the gap was real.
"""

from __future__ import annotations

import tarfile
import zipfile

import pytest
from harness_memory.hooks.option_words import option_values, read_options, table_for

from tests.support.guard_cases import (
    Layout,
    answer,
    assert_refused_by_every_harness_and_bash_writes,
)

GLUED_AFTER_FLAGS = [
    "tar -xvCnotes -f a.tar",
    "tar -x -vCnotes -f a.tar",
    "tar -xvf a.tar -vCnotes",
    "tar -f a.tar -xvCnotes",
    "tar xvCf notes a.tar",  # the old style: C and f take the next words in turn
    "tar -xf a.tar --dir=notes",
    "tar -xf a.tar --direc notes",
    "unzip -oqdnotes a.zip",
    "sort -uonotes/s.md note.md",
    "cp -vtnotes note.md",
    "mv -vtnotes moved.md",
    "install -vtnotes note.md",
    "install --strip -tnotes /bin/true",  # --strip, not a start of --strip-program
    "mktemp --tmpdir -pnotes",  # --tmpdir takes a value only after "="
]
"""Each writes into ``notes``, the Workspace's symlink into another scope."""


def _prepared(where: Layout) -> None:
    """A note, a file to move, a tar archive and a zip archive each holding ``unpacked.md``."""
    work = where.workspace
    for name in ("note.md", "moved.md", "unpacked.md"):
        (work / name).write_text("x\n", encoding="utf-8")
    with tarfile.open(work / "a.tar", "w") as archive:
        archive.add(work / "unpacked.md", arcname="unpacked.md")
    with zipfile.ZipFile(work / "a.zip", "w") as archive:
        archive.write(work / "unpacked.md", arcname="unpacked.md")


@pytest.mark.parametrize("command", GLUED_AFTER_FLAGS)
def test_p3_an_option_value_glued_in_a_bundle_is_read_where_the_program_writes(
    where: Layout, command: str
) -> None:
    _prepared(where)
    assert_refused_by_every_harness_and_bash_writes(where, command)


@pytest.mark.parametrize(
    "command",
    [
        "tar -xvCbuild -f a.tar",
        "tar xvCf build a.tar",
        "tar -xvfa.tar -Cbuild",
        "unzip -oqdbuild a.zip",
        "cp -vtbuild note.md",
        "sort -uobuild/s.md note.md",
    ],
)
def test_p3_the_same_options_into_a_plain_folder_pass(where: Layout, command: str) -> None:
    _prepared(where)
    (where.workspace / "build").mkdir()
    assert answer(where, "claude-code", "Bash", {"command": command}) is None, command


@pytest.mark.parametrize(
    ("program", "words", "wanted", "values"),
    [
        ("tar", ["-xvCdir", "-f", "a.tar"], ("-C", "--directory"), ["dir"]),
        ("tar", ["-xvC", "dir"], ("-C", "--directory"), ["dir"]),
        ("tar", ["-xfCdir.tar"], ("-C", "--directory"), []),  # f takes the rest: Cdir.tar
        ("tar", ["-xfCdir.tar"], ("-f", "--file"), ["Cdir.tar"]),
        ("tar", ["xzfC", "a.tgz", "dir"], ("-C", "--directory"), ["dir"]),
        ("tar", ["xzfC", "a.tgz", "dir"], ("-f", "--file"), ["a.tgz"]),
        ("tar", ["-x", "--dir=dir", "--file", "a.tar"], ("-C", "--directory"), ["dir"]),
        ("tar", ["-x", "--checkpoint", "-f", "a.tar"], ("-f", "--file"), ["a.tar"]),
        ("tar", ["-xf", "a.tar", "--", "-Cdir"], ("-C", "--directory"), []),
        ("tar", ["-xf", "a.tar", "-", "-Cdir"], ("-C", "--directory"), ["dir"]),
        ("curl", ["-sLo", "out", "URL"], ("-o", "--output"), ["out"]),
        ("curl", ["-dxo", "URL"], ("-o", "--output"), []),  # -d takes "xo"
        ("curl", ["-soout", "URL"], ("-o", "--output"), ["out"]),
        ("wget", ["-qO", "f", "URL"], ("-O", "--output-document"), ["f"]),
        ("cp", ["-vt/dir", "a"], ("-t", "--target-directory"), ["/dir"]),
        ("cp", ["--target=/dir", "a"], ("-t", "--target-directory"), ["/dir"]),
        ("npm", ["--userconfig", "u.rc", "test"], ("--userconfig",), ["u.rc"]),
        ("find", [".", "-fprint", "out", "-name", "x"], ("-fprint",), ["out"]),
        ("cpio", ["-idDdir"], ("-D", "--directory"), ["dir"]),
        # a whole option's name wins over a longer one it starts
        ("install", ["--strip", "-tdir", "a"], ("-t", "--target-directory"), ["dir"]),
        ("curl", ["--head", "-oout", "URL"], ("-o", "--output"), ["out"]),
        ("wget", ["--hsts", "-Of", "URL"], ("-O", "--output-document"), ["f"]),
        ("wget", ["--hsts-file", "h", "-Of", "URL"], ("-O", "--output-document"), ["f"]),
        ("patch", ["--version", "-oout"], ("-o", "--output"), ["out"]),
        ("patch", ["--backup", "-oout"], ("-o", "--output"), ["out"]),
        ("tar", ["-x", "--strip", "1", "-Cdir"], ("-C", "--directory"), ["dir"]),
        # a start of several names: each valued one, the next word also read on
        ("curl", ["--outp", "out", "-oo", "URL"], ("-o", "--output"), ["out", "o"]),
        # a value only after "="
        ("mktemp", ["--tmpdir", "-pdir"], ("-p", "--tmpdir"), ["dir"]),
        ("mktemp", ["--tmpdir=dir", "x.XXX"], ("-p", "--tmpdir"), ["dir"]),
        ("tar", ["--one-top-level", "-xCdir"], ("-C", "--directory"), ["dir"]),
        ("tar", ["--occurrence", "-xCdir"], ("-C", "--directory"), ["dir"]),
        ("tar", ["--totals", "-xCdir"], ("-C", "--directory"), ["dir"]),
        ("tar", ["--one-top-level=top", "-x"], ("--one-top-level",), ["top"]),
    ],
)
def test_p3_one_reader_reads_each_program_as_its_parser_does(
    program: str, words: list[str], wanted: tuple[str, ...], values: list[str]
) -> None:
    found = [value for _, value in option_values(words, table_for(program), wanted)]
    assert found == values


def test_p3_the_reader_gives_operands_and_flags() -> None:
    read = read_options(["-sfn", "--", "-x", "lnk"], table_for("ln"))
    assert [["-sfn", "--", "-x", "lnk"][at] for at in read.operands] == ["-x", "lnk"]
    assert read.flags == {"s", "f", "n"}
