"""P-3: the write guard reads the harness's environment as bash will, not as the hook has it.

A harness (or CI) may start the hook and its shell without a variable, or with one bash
resets as it starts. The guard read each from its own environment as given, so where bash
makes something else of it a write into another Workspace's scope was let through by the
Claude Code, Codex CLI and Gemini CLI hooks (bash wrote there):

- no ``HOME``: bash's ``~`` is the account's home from the password database (bash 5.2 sets
  no ``$HOME``, under ``bash -lc`` neither), and its ``~/.profile`` and ``~/.bashrc`` are
  read from there; the guard kept ``~/…`` as a relative word and read no startup file;
- an ``OLDPWD`` naming no folder: bash unsets it, so ``~-`` stays a word of its own
  (``mkdir '~-'; echo x > ~-/../notes/a.md`` writes beside the shell); the guard read it as
  that path;
- a ``TMPDIR`` naming no folder: ``mktemp`` fails and prints nothing, so
  ``"$(mktemp)"notes/a.md`` is ``notes/a.md``; the guard read a path in that folder.

Bash's own rules for the rest (``SHELL``, ``IFS``, ``PWD``, ``CDPATH``, ``PATH``, ``BASH_ENV``,
``GLOBIGNORE``) are listed in ``docs/security.md``.
"""

from __future__ import annotations

import os
import pwd
import subprocess
from pathlib import Path

import pytest
from harness_memory.hooks.glob_match import bash_match
from harness_memory.hooks.shell_startup import startup_files

from tests.support.guard_cases import (
    Layout,
    assert_refused_by_every_harness_and_bash_writes,
    fill,
    let_through,
    refusals_by_every_harness,
    refused_by_some_harness,
)


def _account_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """The password database gives this account ``home`` (and bash as its shell), and the
    harness passes no ``HOME``: the guard's view of a harness started so."""
    entry = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*entry[:5], str(home), "/bin/bash"))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: moved)
    monkeypatch.delenv("HOME", raising=False)


def _bash_without_home(home: Path, command: str, cwd: Path) -> None:
    """Run ``bash -c command`` in ``cwd`` with no ``HOME``, in a user and mount namespace whose
    ``/etc/passwd`` gives its root account ``home``: bash as a harness without ``HOME`` runs
    it for an account whose home that is."""
    passwd = cwd.parent / "passwd"
    lines = Path("/etc/passwd").read_text(encoding="utf-8").splitlines()
    fields = [line.split(":") for line in lines if not line.startswith("root:")]
    passwd.write_text(
        f"root:x:0:0:root:{home}:/bin/bash\n" + "".join(":".join(f) + "\n" for f in fields),
        encoding="utf-8",
    )
    wrapper = 'mount --bind "$0" /etc/passwd && exec env -u HOME bash -c "$1"'
    subprocess.run(
        ["unshare", "-U", "-m", "-r", "sh", "-c", wrapper, str(passwd), command],
        cwd=cwd,
        check=True,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


TILDE_WRITES = [
    "echo x > ~/{tail}/{other}/a.md",
    "cp note.md ~/{tail}/{other}/b.md",
    "cd ~/{tail}/{other} && echo x > c.md",
    "echo x | tee ~/{tail}/{other}/d.md",
]
"""Writes naming another scope through ``~`` (``{tail}``: the memory root below the home)."""


def test_p3_tilde_is_the_accounts_home_where_the_harness_passes_no_home(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    _account_home(monkeypatch, where.data)
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    tail = where.root.relative_to(where.data)
    commands = [fill(c.replace("{tail}", str(tail)), where) for c in TILDE_WRITES]

    assert let_through(where, commands) == {}

    _bash_without_home(where.data, commands[0], where.workspace)
    assert (where.root / where.other / "a.md").exists(), "bash wrote no a.md: no bypass"


@pytest.mark.parametrize(
    ("file", "command"),
    [
        (".bash_profile", "bash -lc ls"),
        (".profile", "bash --login -c ls"),
        (".bashrc", "bash -ic ls"),
    ],
)
def test_p3_a_shell_reads_the_accounts_startup_files_where_the_harness_passes_no_home(
    where: Layout, monkeypatch: pytest.MonkeyPatch, file: str, command: str
) -> None:
    """Codex CLI's own shell is ``bash -lc``: without ``HOME`` it still runs the account's
    profile, and so does any ``bash -lc``/``bash -ic`` a command starts."""
    home = where.data.parent / "home"
    home.mkdir()
    _account_home(monkeypatch, home)
    other = where.root / where.other
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    (home / file).write_text(f'cd {where.workspace}\ncp note.md "$(cat target)"/a.md\n')

    for harness, reason in refusals_by_every_harness(where, command).items():
        assert reason is not None and "first runs" in reason, (harness, reason)
    _bash_without_home(home, command, where.workspace)
    assert (other / "a.md").exists(), f"nothing landed: no bypass ({command})"


def test_p3_an_empty_home_is_where_bash_reads_its_startup_files() -> None:
    """``HOME=`` (set, empty): bash's ``~/.bashrc`` is ``/.bashrc`` (strace: bash 5.2 opens
    it); the guard named no file. Without ``HOME``, the password database's home."""
    assert startup_files("bash", ["-ic"], {"HOME": ""}) == ["/etc/bash.bashrc", "/.bashrc"]
    assert startup_files("bash", ["-lc"], {"HOME": ""})[1:] == [
        "/.bash_profile",
        "/.bash_login",
        "/.profile",
    ]
    home = pwd.getpwuid(os.getuid()).pw_dir.rstrip("/")
    assert startup_files("bash", ["-ic"], {}) == ["/etc/bash.bashrc", f"{home}/.bashrc"]


@pytest.mark.parametrize("gone", ["missing", "file", ""])
def test_p3_an_oldpwd_naming_no_folder_is_unset_as_bash_starts(
    where: Layout, monkeypatch: pytest.MonkeyPatch, gone: str
) -> None:
    (where.data.parent / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("OLDPWD", str(where.data.parent / gone) if gone else "")

    assert_refused_by_every_harness_and_bash_writes(
        where, "mkdir -p '~-' && echo x > ~-/../notes/a.md"
    )


def test_p3_oldpwd_naming_a_folder_is_kept(where: Layout, monkeypatch: pytest.MonkeyPatch) -> None:
    """An ``OLDPWD`` bash keeps still names where ``~-`` and ``cd -`` go."""
    monkeypatch.setenv("OLDPWD", str(where.root / where.other))

    assert let_through(where, ["echo x > ~-/a.md", "cd - && echo x > a.md"]) == {}


def test_p3_a_tmpdir_naming_no_folder_makes_mktemp_print_nothing(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(where.data.parent / "gone"))

    assert_refused_by_every_harness_and_bash_writes(where, 'echo x > "$(mktemp)"notes/a.md')


@pytest.mark.parametrize("folder", ["/proc", "read-only"])
def test_p3_a_tmpdir_where_mktemp_makes_no_file_makes_it_print_nothing(
    where: Layout, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    """A ``TMPDIR`` that is a folder where no file can be made (``/proc``, even as root; one
    the user may not write) is as one naming no folder: ``mktemp`` fails."""
    if folder == "read-only":
        if os.geteuid() == 0:
            folder = "/proc/self"  # root writes every folder's mode: a pseudo file system
        else:
            (where.data.parent / "ro").mkdir(mode=0o555)
            folder = str(where.data.parent / "ro")
    monkeypatch.setenv("TMPDIR", folder)

    assert_refused_by_every_harness_and_bash_writes(where, 'echo x > "$(mktemp)"notes/a.md')


EVERYDAY = [
    "git status",
    "cd src && pytest -q || true",
    "npm test || true",
    "ls ~/x || true",
    'out=$(mktemp); git status > "$out"',
    "cd - >/dev/null; ls",
    "bash -lc 'ls'",
]
"""Everyday commands: they pass however the harness's environment holds these variables."""


@pytest.mark.parametrize(
    "environment",
    [{"HOME": None, "OLDPWD": "/nowhere"}, {"HOME": ""}],
    ids=["no-home-stale-oldpwd", "empty-home"],
)
def test_p3_everyday_commands_pass_whatever_the_environment_holds(
    where: Layout, monkeypatch: pytest.MonkeyPatch, environment: dict[str, str | None]
) -> None:
    home = where.data.parent / "home"
    home.mkdir()
    _account_home(monkeypatch, home)
    monkeypatch.setenv("HOME", str(home))
    (where.workspace / "src").mkdir()
    for name, value in environment.items():
        if value is None:
            monkeypatch.delenv(name)
        else:
            monkeypatch.setenv(name, value)

    assert refused_by_some_harness(where, EVERYDAY) == {}


GLOB_OPTION_WRITES = [
    ("dotglob", "echo x | tee */MEMORY.md"),
    ("nocaseglob", "echo x | tee L[N]K/MEMORY.md"),
    ("nocaseglob", "cp note.md L[N]K/"),
    ("globstar", "cp note.md **/"),
    ("nullglob", 'cp note.md "$(cat target)" dst*'),
    ("extglob", "echo x | tee +(l)Nk/MEMORY.md"),
]
"""An option bash turns on from an inherited ``BASHOPTS``, and a write that reaches another
scope only through what the option makes a glob match (``.lnk``, ``lNk``, ``sub/deep/lnk``:
links into it) or drop (``dst*``: ``cp`` then writes where ``$(cat target)`` says)."""


def _glob_layout(where: Layout, option: str) -> None:
    """The Workspace without its ``notes`` link, with the one link into the other scope that
    only ``option`` makes a glob reach: ``.lnk`` (``dotglob``), ``lNk`` (``nocaseglob``,
    ``extglob``) or ``sub/deep/lnk`` (``globstar``); ``target`` names a file there."""
    other = where.root / where.other
    (where.workspace / "notes").unlink()
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "target").write_text(f"{other}/a.md\n", encoding="utf-8")
    link = {"dotglob": ".lnk", "globstar": "sub/deep/lnk", "nullglob": None}.get(option, "lNk")
    if link is not None:
        (where.workspace / link).parent.mkdir(parents=True, exist_ok=True)
        (where.workspace / link).symlink_to(other)


def _assert_bash_changes_the_other_scope(where: Layout, command: str) -> None:
    """Bash (this process's environment) run on ``command`` in the Workspace adds or changes a
    file of the other scope (``tee`` overwrites its ``MEMORY.md``; ``cp … **/`` also fails on
    the folders it is given, so its exit status is not asked)."""
    other = where.root / where.other
    before = {path.name: path.read_bytes() for path in other.iterdir()}
    subprocess.run(["bash", "-c", command], cwd=where.workspace, capture_output=True, timeout=60)
    after = {path.name: path.read_bytes() for path in other.iterdir()}
    assert after != before, f"bash wrote nothing into the other scope: {command}"


@pytest.mark.parametrize(("option", "command"), GLOB_OPTION_WRITES)
def test_p3_a_glob_is_read_with_the_options_an_inherited_bashopts_turns_on(
    where: Layout, monkeypatch: pytest.MonkeyPatch, option: str, command: str
) -> None:
    _glob_layout(where, option)
    monkeypatch.setenv("BASHOPTS", option)

    assert let_through(where, [command]) == {}
    _assert_bash_changes_the_other_scope(where, command)


@pytest.mark.parametrize(
    ("option", "command"), [each for each in GLOB_OPTION_WRITES if each[0] != "extglob"]
)
def test_p3_a_glob_is_read_with_the_options_the_command_turns_on(
    where: Layout, option: str, command: str
) -> None:
    """The same options turned on by the command itself (``extglob`` takes effect only on a
    line read after it)."""
    _glob_layout(where, option)
    command = f"shopt -s {option}; {command}"

    assert let_through(where, [command]) == {}
    _assert_bash_changes_the_other_scope(where, command)


EVERYDAY_GLOBS = [
    "ls *.md",
    "cat src/*.py || true",
    "rm -f *.pyc",
    "grep -l x -- *.md",
    'for f in *.md; do wc -l "$f"; done',
    "cp note.md sub/",
]
"""Everyday globs: they pass with every glob option on (``rm -f *.pyc`` matches ``a.pyc``)."""


def test_p3_everyday_globs_pass_with_every_glob_option_on(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "a.pyc").write_bytes(b"")
    (where.workspace / "sub").mkdir()
    monkeypatch.setenv("BASHOPTS", "dotglob:globstar:nocaseglob:nullglob")

    assert refused_by_some_harness(where, EVERYDAY_GLOBS) == {}


def test_p3_dollar_zero_is_the_harness_shells_name(where: Layout) -> None:
    """``$0`` in the harness's ``bash -c`` is ``bash``, a value of no environment: read as
    unset, ``tac run.txt | "$0" -s`` was a reader judged as nothing, and bash ran the code."""
    other = where.root / where.other
    (where.workspace / "run.txt").write_text(f"echo x >> {other}/d.md\n", encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, 'tac run.txt | "$0" -s')


def _dot_layout(where: Layout, link: str) -> None:
    """The Workspace's ``notes`` link renamed ``link`` (``.lnk``, ``lNk``)."""
    (where.workspace / "notes").rename(where.workspace / link)


EXTGLOB_WRITES = [
    ("notes", ": extglob 'x@('; echo x > notes/a.md; : ')'"),
    ("notes", 'echo "extglob x@(" > /dev/null; echo x > notes/a.md # )'),
    ("notes", '!(cp note.md "$(cat target)") # extglob'),
    ("notes", 'shopt -s extglob\necho z@("$(echo x > notes/a.md)")'),
    ("notes", "shopt -s extglob\necho z@(<(echo x > notes/a.md))"),
    (".lnk", "shopt -s extglob\necho x | tee @(.lnk)/MEMORY.md"),
    ("lNk", "shopt -s extglob\necho '@('\necho x | tee +(l)Nk/MEMORY.md"),
    ("lNk", "shopt -s ext''glob\necho x | tee +(l)Nk/MEMORY.md"),
    ("lNk", "bash -O extglob -c 'echo x | tee +(l)Nk/MEMORY.md'"),
    ("lNk", "shopt -s extglob # don't\necho x | tee +(l)Nk/MEMORY.md # won't"),
    ("lNk", 'shopt -s extglob\necho "$(echo "\'")"; echo x | tee +(l)Nk/MEMORY.md; echo "\'"'),
    ("lNk", "shopt -s extglob\n: 'a\n'; echo x | tee +(l)Nk/MEMORY.md #'"),
    ("lNk", "shopt -s extglob\necho \\$'x\\' ; echo x | tee +(l)Nk/MEMORY.md ; # '"),
    ("lNk", 'shopt -s extglob # "\necho "\'" ; echo x | tee +(l)Nk/MEMORY.md ; # \''),
    ("lNk", "shopt -s extglob\necho \"${x:-'\"'}\" ; echo x | tee +(l)Nk/MEMORY.md ; # '"),
]
"""Writes into another scope through a command holding an ``extglob`` group where the option
may be on (its link named ``notes``, ``.lnk`` or ``lNk``): the group was read as ``*`` before
the lexer, quotes, comments and the commands inside it ignored (review of guardenv65)."""


@pytest.mark.parametrize(("link", "command"), EXTGLOB_WRITES)
def test_p3_a_command_holding_an_extglob_group_is_refused_where_extglob_may_be_on(
    where: Layout, link: str, command: str
) -> None:
    other = where.root / where.other
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "target").write_text(f"{other}/b.md\n", encoding="utf-8")
    if link != "notes":
        _dot_layout(where, link)

    for harness, reason in refusals_by_every_harness(where, command).items():
        assert reason is not None, (harness, command)
    _assert_bash_changes_the_other_scope(where, command)


EVERYDAY_WITH_EXTGLOB_ON = [
    "python3 -c 'print(2*(3+4))'",
    "git log -1 --format='%h +(x)' || true",
    "echo 'a*(b)' && echo done",
]
"""Everyday commands of one plain line whose group openers bash reads as text (single quotes).
Still refused while extglob may be on (fail closed): such an opener in code a program may run
as shell commands in a list (``awk 'BEGIN{print 2*(3)}' </dev/null``, ``node -e '…' ||
true``), or in a text whose quotes are subtler (``$'…'``, a comment, several lines)."""


def test_p3_an_extglob_opener_in_single_quotes_is_text_where_startup_files_turn_extglob_on(
    where: Layout,
) -> None:
    """A startup file naming ``shopt -s extglob`` (bash-completion's, even after an
    interactive-only return) made every command holding ``*(`` in its quoted code refused by
    Claude Code and Codex (review of fix65g); quoted, it is no group to bash."""
    for startup in (".bashrc", ".profile", ".bash_profile"):
        (where.data / startup).write_text("shopt -s extglob\n", encoding="utf-8")

    assert refused_by_some_harness(where, EVERYDAY_WITH_EXTGLOB_ON) == {}


def test_p3_without_extglob_a_bang_group_is_a_subshell_read_as_before(where: Layout) -> None:
    """With no ``extglob`` named, ``!(…)`` is bash's ``! ( … )``: its commands are read."""
    other = where.root / where.other
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    (where.workspace / "target").write_text(f"{other}/b.md\n", encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, '!(cp note.md "$(cat target)") || true')


EVERYDAY_WITHOUT_EXTGLOB = [
    "git status",
    "[ ! -f x ] && echo none",
    "echo $((1+2)) > sum.txt",
    "shopt -s extglob; ls *.md",
    'for f in *.md; do echo "$f"; done',
    "git log --format='%h (%s)' -3 || true",
]
"""Everyday commands: no ``extglob`` group, or no ``extglob`` named; they pass."""


def test_p3_everyday_commands_pass_without_an_extglob_group(where: Layout) -> None:
    """Refused now, and acceptable (fail closed): an everyday ``extglob`` command itself,
    ``shopt -s extglob; rm -rf !(keep)``."""
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")

    assert refused_by_some_harness(where, EVERYDAY_WITHOUT_EXTGLOB) == {}
    assert refused_by_some_harness(where, ["shopt -s extglob; rm -rf !(keep)"]) != {}


OPTIONS_AS_BASH_READS_THEM = [
    ("dotglob", "shopt -s dot''glob; echo x | tee */MEMORY.md"),
    ("dotglob", "env BASHOPTS=dot''glob bash -c 'echo x | tee */MEMORY.md'"),
    ("dotglob", "GLOBIGNORE=x; echo x | tee */MEMORY.md"),
    ("nocaseglob", 'shopt -s "nocase"glob; echo x | tee L[N]K/MEMORY.md'),
    ("nocaseglob", "shopt -s $'\\x6eocaseglob'; cp note.md L[N]K/"),
    ("globstar", "shopt -s glob\\star; cp note.md **/"),
    ("nullglob", "shopt -s null''glob; cp note.md \"$(cat target)\" dst*"),
    ("nullglob", 'shopt -s nullglob; GLOBIGNORE=dst; cp note.md "$(cat target)" dst*'),
]
"""A glob option the command turns on as bash reads it (quotes and escapes removed, ``$'…'``
decoded; ``GLOBIGNORE`` turning ``dotglob`` on and removing names), and a write reaching
another scope only through it (:func:`_glob_layout`)."""


@pytest.mark.parametrize(("option", "command"), OPTIONS_AS_BASH_READS_THEM)
def test_p3_an_option_is_named_as_bash_reads_its_name(
    where: Layout, option: str, command: str
) -> None:
    _glob_layout(where, option)
    if "GLOBIGNORE=dst" in command:  # matched here, then ignored by bash
        (where.workspace / "dst").write_text("", encoding="utf-8")

    assert let_through(where, [command]) == {}
    _assert_bash_changes_the_other_scope(where, command)


def test_p3_a_reader_named_by_a_variable_bash_sets_as_it_runs_is_refused_without_a_crash(
    where: Layout,
) -> None:
    """``"${BASH_ARGV0}"`` (``bash``) is held as its own ``${BASH_ARGV0}``: read again and
    again, it raised RecursionError in every harness; now a program named at run time."""
    other = where.root / where.other
    (where.workspace / "run.txt").write_text(f"echo x >> {other}/d.md\n", encoding="utf-8")

    for harness, reason in refusals_by_every_harness(
        where, 'tac run.txt | "${BASH_ARGV0}"'
    ).items():
        assert reason is not None and "Traceback" not in reason, (harness, reason)
        assert "RecursionError" not in reason, (harness, reason)
    _assert_bash_changes_the_other_scope(where, 'tac run.txt | "${BASH_ARGV0}"')


DOLLAR_ZERO_RUNS = [
    '"$0" run.txt',
    '"$0" -s < run.txt',
    'exec "$0" run.txt',
    '"$0" <<< "$(tac run.txt)"',
    "${{0}} run.txt",
]
"""``$0`` (``bash``) as a command's name running ``run.txt``, which appends into the other
scope: each let through by every harness (``bash run.txt`` was refused)."""


@pytest.mark.parametrize("command", DOLLAR_ZERO_RUNS)
def test_p3_dollar_zero_is_bash_as_any_commands_name(where: Layout, command: str) -> None:
    other = where.root / where.other
    (where.workspace / "run.txt").write_text(f"echo x >> {other}/d.md\n", encoding="utf-8")

    assert_refused_by_every_harness_and_bash_writes(where, command)


BRACKET_WRITES = [
    "echo x | tee [[:alpha:]]otes/MEMORY.md",
    "cp note.md [[:alnum:]]otes/",
    "echo x | tee [^x]otes/MEMORY.md",
    "echo x | tee [!x]otes/MEMORY.md",
    "echo x | tee [[=n=]]otes/MEMORY.md",
    "shopt -s nocaseglob; echo x >> [b-N]otes/MEMORY.md",
    'echo x >> ["^"n]otes/MEMORY.md',
    'echo x >> [n"-"a]otes/MEMORY.md',
    "echo x >> [a-[.z.]]otes/MEMORY.md",
    "shopt -s nocaseglob; echo x >> [![:upper:]]otes/MEMORY.md",
    "echo x >> [:-~]otes/MEMORY.md",
    'echo x >> [n"]"]otes/MEMORY.md',
    "echo x >> [n\\]]otes/MEMORY.md",
    'echo x >> [x"]"n]otes/MEMORY.md',
    "echo x >> [n\\\\]otes/MEMORY.md",
    "echo x >> [n'\\']otes/MEMORY.md",
    'echo x >> [n"]""]"]otes/MEMORY.md',
    'echo x >> [n"]"\\\\]otes/MEMORY.md',
    'echo x >> n[o"]""]"]tes/MEMORY.md',
    'echo x >> [n][o"]""]"]tes/MEMORY.md',
    "echo x >> [=-z]otes/MEMORY.md",
    "echo x | tee [n=]otes/MEMORY.md",
    "cp note.md [=-o]otes/",
    "echo x >> [.-z]otes/MEMORY.md",
    "echo x >> [:-z]otes/MEMORY.md",
    "echo x >> [[:alpha:]-z]otes/MEMORY.md",
    "echo x >> [\\<-z]otes/MEMORY.md",
    "echo x | tee [n\\;]otes/MEMORY.md",
    'echo x >> [\\"-z]otes/MEMORY.md',
]
"""Writes through ``notes`` by a bracket expression bash reads and ``fnmatch`` does not (a
POSIX class, ``[^…]`` negating, an equivalence class), or one whose quotes the guard no longer
sees (``["^"n]`` is a set to bash, ``[n"-"a]`` three characters), a range under ``nocaseglob``,
one ending in a collating symbol, one starting at ``:`` (a crash): each unread, so
maybe matching (review of fix65g); a quoted ``]`` or backslash in a set, read both ways
(review lead65), several at once too (review final65); a ``=`` in a set or starting a range
(``[=-z]``, ``[n=]``, ``[\\<-z]``, ``[n\\;]``): the word was split there as an assignment's
or a redirection's, so neither piece was a pattern (review fix65g, open in lead65; ``[.-z]``,
``[:-z]`` were read already)."""


@pytest.mark.parametrize("command", BRACKET_WRITES)
def test_p3_a_bracket_expression_is_matched_as_bash_matches_it(where: Layout, command: str) -> None:
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")

    assert let_through(where, [command]) == {}
    _assert_bash_changes_the_other_scope(where, command)


def test_p3_a_bracket_expression_matching_no_link_passes(where: Layout) -> None:
    """``[xy]otes`` and ``[12]*`` (plain sets) match no link here: everyday globs still pass.
    One the guard does not read (``[[:digit:]]*``, ``[^n]otes``) may match the link, so it is
    refused where the Workspace holds one (fail closed)."""
    (where.workspace / "xotes").mkdir()

    assert refused_by_some_harness(where, ["echo x > [xy]otes/a.md", "ls [12]*"]) == {}


@pytest.mark.parametrize(
    ("name", "pattern", "matched"),
    [
        ("notes", "[nx]otes", True),
        ("xotes", "[ny]otes", False),
        ("notes", "[^x]otes", None),
        ("xotes", "[!x]otes", None),
        ("notes", "[[:alpha:]]otes", None),
        ("notes", "[a-z]otes", None),
        ("-otes", "[n-a]otes", None),
        ("a]", "[]a]]", True),
        ("[x", "[x", True),
        ("lNk", "l[n]k", False),
        ("notes", "[[=n=]]otes", None),
        ("notes", "[[:word:]]otes", None),
    ],
)
def test_p3_a_glob_part_is_read_as_bash_reads_it(
    name: str, pattern: str, matched: bool | None
) -> None:
    """bash 5.2's answers (``[[ name == pattern ]]``) for plain sets, None where the guard does
    not read the pattern (a negation, a range, a class, an equivalence class: the word reaches
    it with its quotes removed): it then may match."""
    assert bash_match(name, pattern) is matched
    assert bash_match("lNk", "l[n]k", nocase=True)


STARTUP_OPTION_WRITES = [
    ("dotglob", ".bashrc", "bash -ic 'echo x | tee */MEMORY.md'"),
    ("globstar", ".bashrc", "bash -ic 'cp note.md **/'"),
    ("nocaseglob", ".profile", "bash -lc 'echo x | tee L[N]K/MEMORY.md'"),
    ("extglob", ".bashrc", "bash -ic 'echo x | tee +(l)Nk/MEMORY.md'"),
]
"""A glob option a startup file the guard reads turns on (``~/.bashrc`` under ``bash -ic``,
``~/.profile`` under ``bash -lc``), and a write reaching another scope only through it."""


@pytest.mark.parametrize(("option", "file", "command"), STARTUP_OPTION_WRITES)
def test_p3_a_glob_is_read_with_the_options_a_startup_file_turns_on(
    where: Layout, option: str, file: str, command: str
) -> None:
    _glob_layout(where, option)
    (where.data / file).write_text(f"shopt -s {option}\n", encoding="utf-8")

    assert let_through(where, [command]) == {}
    _assert_bash_changes_the_other_scope(where, command)


def test_p3_a_dot_pattern_may_match_the_parent_without_globskipdots(where: Layout) -> None:
    """``shopt -u globskipdots`` (bash 5.1's default): ``.?`` matches ``..``, so
    ``.?/my-app/notes/`` reaches the other scope from a folder of the Workspace."""
    (where.workspace / "sub").mkdir()
    (where.workspace / "note.md").write_text("x\n", encoding="utf-8")
    command = "cd sub && shopt -u globskipdots && cp ../note.md .?/notes/"

    assert let_through(where, [command]) == {}
    _assert_bash_changes_the_other_scope(where, command)


def test_p3_a_find_name_bracket_expression_is_read_as_find_reads_it(where: Layout) -> None:
    """``find -name '[^x]otes'`` matches ``notes`` (fnmatch(3) negates with ``^`` too): a
    ``-delete`` through it reaches the other scope's files by the link ``notes`` followed."""
    command = "find -L . -path './[^x]otes/*' -name '[^x]EMORY.md' -delete"

    assert let_through(where, [command]) == {}
    other = where.root / where.other
    subprocess.run(["bash", "-c", command], cwd=where.workspace, capture_output=True, timeout=60)
    assert not (other / "MEMORY.md").exists(), "find deleted nothing: no bypass"
