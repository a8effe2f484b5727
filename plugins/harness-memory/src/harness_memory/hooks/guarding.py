"""The P-3 guard for the texts of a tool call in which any word may be a path: a shell command,
an MCP tool's string arguments (harness-neutral; :func:`shell_refusal`).

The harness adapter's :class:`~harness_memory.hooks.tool_writes.ToolWrites` reaches it through
:func:`harness_memory.hooks.tool_guard.write_refusal`, which imports it only for a call that has
texts (H-5). Each text is read the way the shell and the kernel will
(:mod:`harness_memory.hooks.tool_targets`) and every path it names is judged as a file tool's
(:func:`harness_memory.hooks.path_refusal.refusal`, with its Session records and caps).

One tool call is one decision: the kernel's mount table is read once for it
(:func:`harness_memory.mounts.read_mount_table`) and handed to every path judged (and to the walk
that derives the Session's key where no Session record names it), and a command
naming more paths than :data:`~harness_memory.hooks.path_refusal.PATHS_CAP` (or more folders on
their ways than :data:`~harness_memory.hooks.path_refusal.PARTS_CAP`, or one path deeper than
:data:`~harness_memory.hooks.path_refusal.DEPTH_CAP`, or globs reading more folder entries than
:data:`~harness_memory.hooks.tool_targets.GLOB_SCAN_CAP`) is refused unjudged, so the answer
always comes well within the harness's hook timeout (a guard killed by the timeout would let the
call through in Claude Code). A place the command surely writes that the shell builds at run
time is refused whatever it may name (:func:`_run_time_refusal`), and so is a command moving or
removing the home (or a folder above it) that holds the data dir, or unpacking an archive into
it (:func:`_moved_home_refusal`); so is an archive unpacked by its members' own absolute names
or a program writing into a folder a ``cd`` built at run time (:func:`_folder_writer_refusal`),
and ``curl`` or ``wget`` whose settings file names a place it may not write, or is written or
chosen in the same command (:func:`_settings_refusal`).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePath
from typing import NamedTuple

from memory_core.keys import SCOPE_KEY_RULE, USER_SCOPE, real_or_none
from memory_core.layout import AGENTS_DIR, MARKER_FILE, SERVICE_FOLDERS, app_data_dir_of

from harness_memory.guard import (
    below_under_another_name,
    check_write,
    is_usable_path,
    replaceable_ancestor,
    unseen_by_mount,
)
from harness_memory.hooks import claude_code, find_reach, tool_targets
from harness_memory.hooks.archive_members import (
    ARCHIVE_BYTES_CAP,
    EXITS_SCAN_CAP,
    ArchiveLinks,
    exit_reaching,
    member_places,
    own_names_option,
    writes_members,
)
from harness_memory.hooks.git_settings import GIT_SETTINGS_CAP, git_settings
from harness_memory.hooks.glob_match import fnmatch_case
from harness_memory.hooks.in_place import CODE_SUFFIX
from harness_memory.hooks.made_links import unknown_below, unknown_link
from harness_memory.hooks.named_scripts import (
    FOLDERS_CAP,
    SCRIPT_CAP,
    SCRIPT_DEPTH,
    SCRIPT_FOLLOW_CAP,
    SCRIPTS_CAP,
    git_answer_kept_by,
    git_tops,
    linked_words,
    lost_writes,
    nested_scripts,
    non_interactive_part,
    own_folder_spelled,
    read_script,
    script_file,
    script_folders,
    system_startup_file,
    unchangeable,
)
from harness_memory.hooks.package_settings import (
    PACKAGE_SETTINGS_CAP,
    package_settings,
    written_settings,
)
from harness_memory.hooks.path_refusal import (
    PATHS_CAP,
    REFUSAL_PREFIX,
    UNKNOWN_FOLDER,
    could_reach,
    over_caps,
    records_folders,
    records_refusal,
    shown_path,
)
from harness_memory.hooks.pointed_settings import npm_option_files, pointed_files
from harness_memory.hooks.program_settings import (
    SETTINGS_CAP,
    SETTINGS_NAMES,
    SETTINGS_READERS,
    chooses_settings,
    moves_settings,
    read_settings_file,
    settings_places,
)
from harness_memory.hooks.script_writers import ANY_FILE
from harness_memory.hooks.shell_arrays import WORDS_RUN_RE
from harness_memory.hooks.shell_startup import STARTUP_SHELLS, is_interactive, startup_files
from harness_memory.hooks.shell_words import split_words
from harness_memory.hooks.split_substitutions import LOOP_VALUES_CAP
from harness_memory.hooks.tool_targets import (
    MAYBE_PATCHER,
    READ_AS,
    ShellPaths,
    new_text_words,
    shell_paths,
)
from harness_memory.hooks.unread_programs import memory_named
from harness_memory.mounts import MountTable, read_mount_table
from harness_memory.names import NAMES_CAP
from harness_memory.settings import HarnessSettings

__all__ = ["MCP_TEXT_CAP", "TEXT_CAP", "could_name_a_scope", "shell_refusal"]

TEXT_CAP = 128 * 1024
"""The most characters the command texts of one call may hold and be judged: as long as Linux
lets one argument be (``MAX_ARG_STRLEN``; a longer ``bash -c COMMAND`` fails with ``E2BIG``
before it runs). The guard reads a command in time that grows with its length (its words
split in linear time, :mod:`~harness_memory.hooks.shell_words`); measured at load 6-7 on 2
CPUs, 128 KiB of short words (``echo a a …``) took 1.7 s, of statements (``a;a;…``) 6.1 s,
of assignments (``x=1 x=1 …``) 4.8 s, well inside the 30 s the install gives Codex and
Gemini; the cap was 1 MiB, where short words took 23 s and assignments, growing faster than
linearly, 17.6 s at 256 KiB already. A longer text (a command, an MCP tool's string
arguments, both written by a model as its output) is no everyday one; it is refused, saying
why, rather than killed by the timeout (a Claude Code hook that times out lets the call
through)."""
MCP_TEXT_CAP = 1024 * 1024
"""The most characters an MCP tool's string arguments may hold and be judged. They travel as
JSON-RPC, not as one ``bash -c`` argument, so Linux's 128 KiB (:data:`TEXT_CAP`) does not bound
them, and a file of code written through an MCP file server is everyday use (a 200 KB one
into the Workspace was refused under :data:`TEXT_CAP`). Longer ones are refused,
saying to write the file with the harness's own file tool."""


def shell_refusal(
    texts: Iterable[str],
    hook: claude_code.HookInput,
    settings: HarnessSettings,
    *,
    mounts: MountTable | None = None,
    environ: Mapping[str, str] | None = None,
    served: bool = False,
    run_by: tuple[str, ...] = (),
) -> str | None:
    """:func:`~harness_memory.hooks.path_refusal.refusal` for every path a shell command (or other
    text) names, read the way the shell and the kernel will
    (:func:`~harness_memory.hooks.tool_targets.shell_paths`) with ``environ`` (the shell's
    environment: the harness's, this process's, when None); a word this cannot decide is refused
    when its literal part is in the memory root or could still become it (P-3: refuse what could
    reach another scope). ``mounts`` is the decision's mount table (read here when None). Texts
    naming more than the guard judges in time (all of them together:
    :mod:`~harness_memory.hooks.path_refusal`'s ``PATHS_CAP``, ``PARTS_CAP``, ``DEPTH_CAP``), or
    longer than :data:`TEXT_CAP` (:data:`MCP_TEXT_CAP` for an MCP tool's string arguments:
    ``served``), are refused unjudged. ``run_by``: the shell the harness runs the texts with
    (``("bash", "-lc")``), whose startup files may redefine a program (round 57)."""
    located = claude_code._locate(hook, settings, None if mounts is None else mounts.as_read)
    if located is None:
        return None
    memory_root, key, known = located
    texts = list(texts)
    cap = MCP_TEXT_CAP if served else TEXT_CAP
    if (length := sum(map(len, texts))) > cap:
        if served:
            return (
                f"{REFUSAL_PREFIX}the tool's text arguments are {length} characters long, more "
                f"than the {cap} the guard reads within the hook's time limit; write the file "
                "with the harness's own file tool"
            )
        return (
            f"{REFUSAL_PREFIX}the command is {length} characters long, more than the {cap} "
            "the guard reads within the hook's time limit (and than bash takes as one "
            "argument); write long text with the file tool, or split the command"
        )
    table = read_mount_table() if mounts is None else mounts
    environ = os.environ if environ is None else environ
    judge = _Judge(memory_root, key, records_folders(settings), table, environ)
    judge.shell = run_by
    return judge.texts(texts, known)


class _Judge:
    """One decision's memory root, Session key, records folders, mount table and the shell's
    environment, for :func:`shell_refusal` and the commands a program's settings make it run
    (judged as commands of the call, in the folder the program runs in)."""

    __slots__ = (
        "environ",
        "git_kept",
        "interactive",
        "judged",
        "key",
        "memory_root",
        "outer",
        "records",
        "scripts",
        "shell",
        "table",
    )

    def __init__(
        self,
        memory_root: Path,
        key: str | None,
        records: set[str],
        table: MountTable,
        environ: Mapping[str, str],
    ) -> None:
        self.memory_root, self.key, self.records = memory_root, key, records
        self.table, self.environ = table, environ
        self.outer: list[ShellPaths] = []  # what the call's own command names
        self.scripts: set[tuple[str, str, bool]] = set()  # read: (file, folder, cut)
        self.interactive: bool | None = None  # the shell whose startup files are read
        self.shell: tuple[str, ...] = ()  # the harness's shell for the call's own texts
        self.git_kept = False  # the call's own command keeps git's answer (a script may ask)
        self.judged: dict[tuple[str, str, frozenset[str]], str | None] = {}  # _path_refusal's

    def texts(
        self, texts: list[str], known: str | None, depth: int = 0, *, own_code: bool = False
    ) -> str | None:
        """The refusal of ``texts`` run in the folder ``known`` (None: unknown), or None;
        ``own_code``: settings code the call's own words set (:func:`_judged`)."""
        return _judged(self, texts, known, depth, own_code=own_code)


def _judged(
    judge: _Judge, texts: list[str], known: str | None, depth: int, *, own_code: bool = False
) -> str | None:
    """:func:`shell_refusal`'s judgement of ``texts`` run in ``known`` with ``judge``'s
    settings; ``depth`` counts the commands of settings read on the way (at most
    :data:`_SETTINGS_DEPTH`). Code of a startup file or of the user's settings (``depth``,
    not ``own_code``) may ``eval`` a setup tool's output or run a quoted ``"$x"`` set
    elsewhere; code the call's own words put in settings (``own_code``: ``git -c
    alias.x='!eval "$(…)"' x``) is judged as the call's own command (review59b finding 2)."""
    users = depth > 0 and not own_code
    memory_root, key, records, table = judge.memory_root, judge.key, judge.records, judge.table
    environ = judge.environ
    cwd = _UNKNOWN_BASE if known is None else known
    shell = judge.shell if depth == 0 else ()  # the harness's shell runs the call's own texts
    read = [shell_paths(text, cwd, environ, harness_shell=shell) for text in texts]
    if depth == 0:
        judge.outer = read
        judge.git_kept = all(git_answer_kept_by(text, known, environ) for text in texts)
    if known is None and any(_from_unknown_folder(found) for found in read):
        return UNKNOWN_FOLDER
    root = os.path.normpath(Path(memory_root).absolute())
    roots = {root, real_or_none(root) or root}
    paths = dict.fromkeys(path for found in read for path in found.paths)
    words = (found.undecided + found.derived + found.unanchored + found.built for found in read)
    if (reason := over_caps([*paths, *(word for some in words for word in some)])) is not None:
        return reason  # counted once for the whole call: linear in what it names
    unlisted: list[tuple[str, str | None]] = []  # archives it cannot list, where unpacked
    for found in read:
        if users:  # a quoted "$x" named at run time in a startup file or settings: the user's
            found.split = [word for word in found.split if not word.startswith('"')]
            found.extglob_groups = []  # a startup file's own patterns: the user's setup
        if (reason := _run_time_refusal(found, key, roots, records, table)) is not None:
            return reason
        if not users and found.unread_code:  # the call's own (a startup file's is the user's)
            return _unread_code_refusal(found.unread_code[0])
        if (reason := _fed_refusal(found)) is not None:
            return reason
        if (reason := _moved_home_refusal(found, roots, records)) is not None:
            return reason
        if (reason := _find_reach_refusal(found, judge, roots, cwd)) is not None:
            return reason
        if (reason := _folder_writer_refusal(found)) is not None:
            return reason
        if (reason := _unpack_refusal(found, judge, roots, unlisted)) is not None:
            return reason
    for text, found in zip(texts, read, strict=True):
        if (reason := _fed_patch_refusal(found)) is not None:
            return reason
        reason = _settings_refusal(text, found, memory_root, key, records, table, environ)
        if reason is not None:
            return reason
        if (reason := _own_settings_refusal(found, judge, root, depth)) is not None:
            return reason
        if (reason := _script_refusal(found, judge, root, depth)) is not None:
            return reason
    for path in paths:
        if (reason := _path_refusal(path, cwd, judge, roots)) is not None:
            return reason
    for named in dict.fromkeys(path for found in read for path in found.named):
        if named.endswith("/") or os.path.isdir(named):  # noqa: PTH112
            continue  # a folder written into (``cp f dir/``): the name each file takes is named
        decision = check_write(
            named, memory_root=memory_root, workspace_key=key, cwd=cwd, mounts=table, naming=True
        )
        if not decision.allowed:  # a name the service cannot address (K-7)
            return f"{REFUSAL_PREFIX}{decision.reason} ({shown_path(named)})"
    for folder, archive in unlisted:  # after the paths: a folder itself refused says why
        if (reason := _unlisted_refusal(folder, archive, judge, roots)) is not None:
            return reason
    return _unread_program_refusal(texts, read, root, key, records) or _after_linker_refusal(read)


def _path_refusal(path: str, cwd: str, judge: _Judge, roots: set[str]) -> str | None:
    """The refusal of a write of ``path`` (relative to ``cwd``) where the kernel lands it
    (:func:`~harness_memory.hooks.path_refusal.records_refusal`,
    :func:`~harness_memory.guard.check_write`: through symlinks and ``..``), or None; the
    Session's own scope folder itself passes (``cd``, ``ls``, a copy into it) (P-3). Each
    path judged once per call (``judge.judged``): the startup files a login shell runs name the
    same words (``if``, ``[``, ``PATH``) file after file, and each costs a walk of its folders
    (H-5); nothing the answer depends on changes during the call, the guard only reads."""
    asked = (path, cwd, frozenset(roots))
    if asked not in judge.judged:
        judge.judged[asked] = _judged_path(path, cwd, judge, roots)
    return judge.judged[asked]


def _judged_path(path: str, cwd: str, judge: _Judge, roots: set[str]) -> str | None:
    """:func:`_path_refusal`'s judgement, each time it is asked."""
    memory_root, key, table = judge.memory_root, judge.key, judge.table
    if (reason := records_refusal(path, cwd, judge.records, table)) is not None:
        return reason
    own = {(scope,) for scope in ("user", key) if scope}
    usable = is_usable_path(path)  # else check_write refuses it, never a crash
    if usable and ".." not in PurePath(path).parts and _scope_folder(path, roots, table) in own:
        return None
    decision = check_write(path, memory_root=memory_root, workspace_key=key, cwd=cwd, mounts=table)
    return None if decision.allowed else f"{REFUSAL_PREFIX}{decision.reason} ({shown_path(path)})"


def _after_linker_refusal(read: list[ShellPaths]) -> str | None:
    """The refusal of a command writing into a folder not there yet after a program that may
    make a link ran in it (``ShellPaths.after_linker``: one whose code the guard reads and
    finds making links, or one making links from its arguments,
    :mod:`~harness_memory.hooks.link_texts`): that program may have made the folder, or one
    on its way, a link to anywhere, as ``ln -s "$(cat f)" lnk`` does (P-3). Judged last: any
    other refusal of the same command says more."""
    for found in read:
        for program, shown, word, missing in found.after_linker:
            made = "it" if missing == "which" else "that folder"
            first = "it (touch, mkdir -p)" if missing == "which" else "its folder (mkdir -p)"
            return (
                f"{REFUSAL_PREFIX}the command runs {shown_path(program)}, which may make a link "
                f"({shown_path(shown)}), and then writes {shown_path(word)}, {missing} is not "
                "there "
                f"yet: {shown_path(program)} may make {made} a link to another Workspace's "
                f"memory scope before the write goes through it. Make {first} in a command "
                "of its own first, or run the program in a command of its own"
            )
    return None


_SETTINGS_DEPTH = 2
"""How deep commands a program's settings make it run are judged (a ``!git y`` alias whose
``y`` runs another): past it the settings are not read again (the same files)."""


def _own_settings_refusal(found: ShellPaths, judge: _Judge, root: str, depth: int) -> str | None:
    """The refusal of a command running ``git`` (:func:`_git_settings_refusal`), ``npm`` or
    ``pip`` (:func:`_package_settings_refusal`) whose own settings make it write or run what
    the guard refuses, or that writes them and runs it in the same command, or None (P-3)."""
    if not found.configured or depth >= _SETTINGS_DEPTH:
        return None
    for program in dict.fromkeys(program for program, _, _, _ in found.configured):
        if (named := _names_settings(found, _OWN_SETTINGS_NAMES[program])) is not None:
            return (
                f"{REFUSAL_PREFIX}the command writes {program}'s settings ({shown_path(named)}) "
                f"and runs {program}, which reads them when it starts (they can make it run "
                "a command or write a place no word shows): write them in a command of their "
                f"own (the guard reads them when {program} runs), or give {program} its "
                "options on its command line"
            )
    if (reason := _pointed_settings_refusal(found, judge)) is not None:
        return reason
    if (reason := _git_settings_refusal(found, judge, root, depth)) is not None:
        return reason
    if (reason := _startup_refusal(found, judge, root, depth)) is not None:
        return reason
    return _package_settings_refusal(found, judge, root, depth)


def _pointed_settings_refusal(found: ShellPaths, judge: _Judge) -> str | None:
    """The refusal of a command pointing a program at a settings file by name
    (:func:`~harness_memory.hooks.pointed_settings.pointed_files`: ``PIP_CONFIG_FILE=p.cfg``,
    ``bash --rcfile r.sh``, ``git -c include.path=h.cfg``) that is not on the disk now, is
    named at run time, or is named by another command of the same command line (which may
    write it first: ``printf … > p.cfg; PIP_CONFIG_FILE=p.cfg pip list``): the guard reads
    settings when it judges the command, so what that file will hold cannot be known (P-3).
    A file the harness's own environment names (``PIP_CONFIG_FILE``, ``NPM_CONFIG_USERCONFIG``,
    ``GIT_CONFIG_GLOBAL`` set where the harness runs) that is missing passes unless another
    command of the line names it: the program reads nothing from it, as it would read nothing
    from a missing standard file."""
    for program, base, words, assigned in found.configured:
        home = {"HOME": judge.environ["HOME"]} if "HOME" in judge.environ else {}
        own = pointed_files(program, base, words, {**home, **assigned})
        for file in pointed_files(program, base, words, {**judge.environ, **assigned}):
            known = "$" not in file and is_usable_path(file)
            elsewhere = _named_elsewhere(file, found, base, words, assigned)
            elsewhere = elsewhere or _written_around(file, program, found)
            if known and not elsewhere and (os.path.lexists(file) or file not in own):
                continue  # a missing file the harness's environment names is read by none
            return (
                f"{REFUSAL_PREFIX}the command points {program} at the settings file "
                f"{shown_path(file)}, which is not on the disk yet, is named at run time or is "
                f"written by the same command; {program} reads it when it starts, and the "
                "guard cannot read settings that do not exist yet (they can make it run a "
                "command or write a place no word shows). Write the file in a command of "
                "its own first, or give the options on the command line"
            )
    return None


def _named_elsewhere(
    file: str, found: ShellPaths, base: str, words: list[str], assigned: Mapping[str, str]
) -> bool:
    """Whether the command names ``file`` (absolute) more often (``ShellPaths.paths``, each
    word's parts around ``=``) than the program pointed at it does with its own ``words``
    and ``assigned`` variables: another command of it may write the file first."""
    target = os.path.normpath(file)
    total = sum(1 for path in found.paths if os.path.normpath(path) == target)
    total -= sum(1 for path in found.only_read if os.path.normpath(path) == target)
    own_words = [*words, *(f"{name}={value}" for name, value in assigned.items())]
    own = sum(
        1
        for word in own_words
        for part in word.split("=")
        if part and os.path.normpath(os.path.join(base, part)) == target  # noqa: PTH118
    )
    return total > own


def _written_around(file: str, program: str, found: ShellPaths) -> bool:
    """Whether the command may write the settings file ``file`` (absolute) that ``program``
    reads without naming it: it writes, moves or removes a folder above it (``rm -rf conf &&
    mv staged conf``), unpacks an archive into a folder at or above it (an archive the guard
    lists with a member landing at it or on its way, or any it cannot list), or runs a
    program the guard does not read (``python3 -c '…'``) other than one starting
    ``program`` itself (``python3 -m pip``) or started by it (``bash -lc 'npm test'``); the
    order of the programs is not read, the wider reading (P-3)."""
    target = os.path.normpath(file)
    spellings = {target, os.path.realpath(target)}

    def at_or_above(folder: str) -> bool:
        return any(s == folder or s.startswith(folder.rstrip("/") + "/") for s in spellings)

    folders = [*_written_paths(found), *found.moved, *found.swept]
    if any(at_or_above(os.path.normpath(f)) and os.path.normpath(f) != target for f in folders):
        return True  # the file itself written: counted by :func:`_named_elsewhere`
    for command, archive, into, words in found.unpacked:
        if not writes_members(command, words):
            continue
        for folder in into:
            if not (at_or_above(os.path.normpath(folder)) or at_or_above(os.path.realpath(folder))):
                continue
            places = None
            if archive is not None and command in ("tar", "unzip"):
                places = member_places(command, archive, folder, ArchiveLinks(), words)
            if places is None or any(at_or_above(place) for place in places):
                return True
    launched = program in {os.path.basename(word) for word in found.written}  # noqa: PTH119
    started = {
        part  # a program the reader itself runs (``bash -lc 'npm test'``) runs after it reads
        for configured in found.configured
        if configured[0] == program
        for word in configured[2]
        for part in word.split()
    }
    names = [
        os.path.basename(name)  # noqa: PTH119
        for name in found.programs
        if "=" not in name and "$" not in name and name not in started
    ]
    readers = sum(1 for configured in found.configured if configured[0] == program)
    spelt = [name for name in names if READ_AS.get(name, name) == program]
    others = len(names) - min(readers, len(spelt))  # ``npx`` is read as ``npm``
    return others > 0 and not launched


def _startup_refusal(found: ShellPaths, judge: _Judge, root: str, depth: int) -> str | None:
    """The refusal of a command starting a shell whose startup files
    (:func:`~harness_memory.hooks.shell_startup.startup_files`: ``$BASH_ENV``, ``~/.bashrc``
    with ``-i``, the profiles with ``-l``) the guard cannot read whole, or that run a command
    it refuses (each judged as commands of the call, where the shell starts) or name memory
    it may not write."""
    for shell, base, words, assigned in found.configured:
        if shell not in STARTUP_SHELLS:
            continue
        interactive, judge.interactive = judge.interactive, is_interactive(words)
        try:
            reason = _startup_file_refusal(
                _StartedShell(shell, base, words, assigned), found, judge, root, depth
            )
        finally:
            judge.interactive = interactive
        if reason is not None:
            return reason
    return None


class _StartedShell(NamedTuple):
    """A shell a command starts (``bash -lc '…'``): its name, the folder it starts in, its
    words and the variables assigned to it (``BASH_ENV=x bash -c …``)."""

    shell: str
    base: str
    words: list[str]
    assigned: Mapping[str, str]


def _startup_file_refusal(
    started: _StartedShell, found: ShellPaths, judge: _Judge, root: str, depth: int
) -> str | None:
    """:func:`_startup_refusal` for one shell ``started`` by the command ``found``; what a
    shell that is not interactive skips of a file
    (:func:`~harness_memory.hooks.named_scripts.non_interactive_part`) is not judged. A
    missing file, or a link to nothing (``~/.bashrc`` into dotfiles not checked out), runs
    nothing: bash skips it, unless the command may make where the link points (then refused:
    :func:`_may_make`). The system's ``/etc/profile`` and ``/etc/bash.bashrc``
    (:func:`~harness_memory.hooks.named_scripts.system_startup_file`) are judged as a script
    the call sources (:func:`_script_text_refusal`: the memory they name, and each script they
    source, a ``$HOME/.alias`` or each ``/etc/profile.d/*.sh`` their loop matches, by
    :func:`_script_refusal`'s rules), their own commands not as the call's (H-5: judging
    ``/etc/profile``'s was 167–181 M instructions of a hook process); the home's files, any
    other file (a ``BASH_ENV`` or ``--rcfile`` in ``/etc``), a file in a folder the agent may
    write and a link resolving there are judged as commands."""
    shell, base, words, assigned = started
    environ = {**judge.environ, **assigned}
    for named in startup_files(shell, words, environ):
        file = os.path.join(base, named)  # noqa: PTH118
        if _dangling(file):
            target = os.path.realpath(file)
            cannot = _unjudged_script("source", (named, file, base), target, [found], judge)
            if cannot is None and not _may_make(target, base, [found, *judge.outer]):
                continue
            return (
                f"{REFUSAL_PREFIX}{shell} would first run the startup file {shown_path(file)}, a "
                f"link to {shown_path(target)}, which the same command writes or may make (or a "
                "folder above it); what it runs "
                "cannot be known. Write that file in a command of its own"
            )
        if not os.path.lexists(file):
            continue  # missing: runs nothing
        data = read_settings_file(file, SETTINGS_CAP)
        if data is None:
            return (
                f"{REFUSAL_PREFIX}{shell} would first run a startup file the guard cannot "
                f"read whole ({shown_path(file)}: no regular file, unreadable or longer than "
                f"{SETTINGS_CAP} bytes); what it runs cannot be known. Run the shell "
                "without -i or -l (and without BASH_ENV), or fix that file"
            )
        text = data.decode("utf-8", "surrogateescape")
        text = text if judge.interactive else non_interactive_part(text, environ)
        if system_startup_file(file):  # its commands trusted (H-5); what it sources judged
            reason = _system_startup_refusal(text, (file, base, environ), judge, root, depth)
        else:
            reason = judge.texts([text], base, depth + 1)
            named_memory = memory_named(text, root, judge.key, judge.records)
            if reason is None and named_memory is not None:
                reason = f"it names other memory ({shown_path(named_memory)})"
        if reason is not None:
            return (
                f"{REFUSAL_PREFIX}{shell} first runs {shown_path(file)}, and the guard "
                f"refuses what it runs: {reason.removeprefix(REFUSAL_PREFIX)}"
            )
    return None


def _system_startup_refusal(
    text: str, started: tuple[str, str, Mapping[str, str]], judge: _Judge, root: str, depth: int
) -> str | None:
    """:func:`_script_text_refusal` of the system's startup file ``text`` a shell runs first
    (``started``: the file, the folder the shell starts in and its environment, with the
    variables the command gives it: a ``HOME=h bash -ic …``'s ``$HOME/.alias`` is ``h``'s),
    as a script the shell sources: the memory it names and the scripts it sources, its own
    commands not as the call's (H-5). What it sources is judged one level below the command,
    as when its text was judged as the call's, and it is not kept as read: sourced again by
    name (``. /etc/bash.bashrc`` after a ``HOME=…``) it is read again, with that environment
    (review rv-fix69j)."""
    file, base, environ = started
    outer, judge.environ = judge.environ, environ
    try:
        return _script_text_refusal(
            text, ("shell", file, "source"), base, judge, root, depth, same_shell=True
        )
    finally:
        judge.environ = outer


def _script_refusal(
    found: ShellPaths, judge: _Judge, root: str, depth: int, *, followed: bool = False
) -> str | None:
    """The refusal of a command, the call's own (``depth`` 0, round 56) or one read from
    settings (a startup file, a git alias, an npm script: ``depth`` above 0; a script they run
    when ``followed``), running a script file (``ShellPaths.scripts``: ``source ./x.sh``,
    ``bash ./x.sh``, ``bash < x.sh``, ``cat x.sh | bash``, ``./x.sh``) that the call's
    command or the settings themselves (not a followed script: its commands are not judged)
    write, that the guard cannot read (no regular file, unreadable, longer than
    :data:`~harness_memory.hooks.named_scripts.SCRIPT_CAP`, past
    :data:`~harness_memory.hooks.named_scripts.SCRIPT_DEPTH` files deep or
    :data:`~harness_memory.hooks.named_scripts.SCRIPTS_CAP` files in all), or whose text
    names memory it may not write (:func:`_script_text_refusal`); None otherwise (P-3).

    A script is judged as one the agent's own command runs (``bash ./x.sh``) is: by the memory
    its text names, not as commands of the call (nvm's ``nvm.sh`` writes places it builds at
    run time; the harness's sandbox fences those). So a script named at run time (``source
    "$(brew --prefix)/etc/bash_completion"``) is not read, nor a missing one (it runs
    nothing), a link to nothing (nor does it, unless the command writes its target), a
    folder, a compiled program, or a file this account can neither write nor replace
    (:func:`~harness_memory.hooks.named_scripts.unchangeable`)."""
    for kind, base, spelled, path, top in found.scripts:
        if path is None:
            continue  # named at run time: fenced as a script the agent's own command runs
        file = script_file(kind, base, path, judge.environ)
        cannot = _unjudged_script(
            kind, (spelled, path, base), file, [] if followed else [found], judge
        )
        if cannot is None and _dangling(file):  # a link to nothing: the shell runs nothing
            target = os.path.realpath(file)  # unless the command writes what it points to
            cannot = _unjudged_script(kind, (spelled, path, base), target, [found], judge)
            if cannot is None:
                continue
        same_shell = kind == "source" and top  # not a shell of its own (``bash -i x.sh``)
        cut = same_shell and judge.interactive is False
        if cannot is None and _skipped_script((file, base, cut), judge):
            continue
        if cannot is None and (depth >= SCRIPT_DEPTH or len(judge.scripts) >= SCRIPTS_CAP):
            cannot = f"is past the {SCRIPT_DEPTH} files deep or {SCRIPTS_CAP} in all it reads"
        if cannot is None:
            judge.scripts.add((file, base, cut))
            language, text = read_script(file, run=kind == "run")
            if language == "unknown":
                cannot = f"is no regular file, unreadable or longer than {SCRIPT_CAP} bytes"
            elif language != "program":  # a compiled one is a program like any other
                text = non_interactive_part(text, judge.environ) if cut else text
                reason = _script_text_refusal(
                    text, (language, file, kind), base, judge, root, depth, same_shell=same_shell
                )
                if reason is not None:
                    return (
                        f"{REFUSAL_PREFIX}{_runner(depth)} the script {shown_path(file)}, and the "
                        f"guard refuses what it runs: {reason.removeprefix(REFUSAL_PREFIX)}"
                    )
        if cannot is not None:
            return (
                f"{REFUSAL_PREFIX}{_runner(depth)} the script {shown_path(spelled)}, which the "
                f"guard cannot judge: it {cannot}. "
                + ("Run the program without those settings, or " if depth else "")
                + _unjudged_script_remedy(cannot, capitalized=not depth)
            )
    return None


def _unjudged_script_remedy(cannot: str, *, capitalized: bool) -> str:
    """What to do about a script the guard cannot judge because it ``cannot`` (a reason of
    :func:`_script_refusal`): one the command writes is read from disk by the next call's
    guard, so write it in a command of its own; one already there that is no readable
    regular file within the cap, or past the scripts the guard follows, is not changed by
    that, so run the commands it holds in the command itself, or make it one the guard
    reads."""
    if "written by the same command" in cannot:
        remedy = "write the script in a command of its own (the next call reads it from disk)"
    elif cannot.startswith("is past"):
        remedy = "run the commands it holds in the command itself, or run fewer scripts from it"
    else:
        remedy = (
            f"make it a readable regular file of at most {SCRIPT_CAP} bytes, or run the "
            "commands it holds in the command itself"
        )
    return remedy[0].upper() + remedy[1:] if capitalized else remedy


def _runner(depth: int) -> str:
    """Who runs a script :func:`_script_refusal` refuses: the call's own command (``depth``
    0: ``bash ./x.sh``, ``. ./x.sh``, ``./x.sh``) or settings it reads (above 0)."""
    return "settings the command reads run" if depth else "the command runs"


def _script_text_refusal(
    text: str,
    script: tuple[str, str, str],
    base: str,
    judge: _Judge,
    root: str,
    depth: int,
    *,
    same_shell: bool,
) -> str | None:
    """The refusal of a script's ``text`` run in ``base`` (``script``: its language, file and
    how it runs, a :func:`_script_refusal` kind): naming memory it may not write
    (:func:`~harness_memory.hooks.unread_programs.memory_named`, linear in its length), or a
    word leading through a link there from a folder a shell script may be in (its ``cd``,
    ``pushd`` and ``popd`` followed: :func:`~harness_memory.hooks.named_scripts.
    script_folders`; more folders than it follows refuse it), or a folder it enters lying in
    memory it may not write at or below the top git names (``cd "$(git rev-parse
    --show-toplevel)"`` where git's ``core.worktree`` points into another scope); for a shell
    script
    (``language`` ``"shell"``) of at most
    :data:`~harness_memory.hooks.named_scripts.SCRIPT_FOLLOW_CAP` bytes, the scripts it runs in
    turn (:func:`_script_refusal`, one level deeper than ``depth``: in the shell that runs its
    startup files when ``same_shell``, sourced; else in a shell of unknown sort); None
    otherwise. Its own commands are not judged (a longer script's scripts not followed)."""
    language, file, kind = script
    shell = language == "shell"
    spelled = own_folder_spelled(text, file, kind) if shell else text  # its folder, read
    named = memory_named(spelled, root, judge.key, judge.records)
    if named is not None:
        return f"it names other memory ({shown_path(named)})"
    roots = {root, real_or_none(root) or root}
    asks = {"asks_git": depth == 0 and judge.git_kept}  # git asked for a top as it will be
    folders = script_folders(text, base, judge.environ, (file, kind), **asks) if shell else [base]
    if folders is None:
        return (
            f"it enters more than {FOLDERS_CAP} folders (cd, pushd, popd), more than the "
            "guard follows to tell where its relative paths land"
        )
    for folder in git_tops(text, base, judge.environ, (file, kind), **asks) if shell else []:
        if (reason := _path_refusal(folder, base, judge, roots)) is not None:
            return f"it cds into {shown_path(folder)}: {reason.removeprefix(REFUSAL_PREFIX)}"
    for word in lost_writes(text, base, judge.environ, (file, kind), **asks) if shell else []:
        return (
            f"it writes {shown_path(word)}, a relative path after a cd into a folder known "
            'only when it runs ($(…), "$1", a variable set in a branch or a function) or '
            'built from words given to it ("$1", "${@:3}") after a cd, which the guard judges '
            "only from the folder the command runs in: where it lands cannot be known before "
            "the command runs, and it could be another Workspace's memory scope"
        )
    for word, folder in linked_words(spelled, folders):  # resolved as the kernel will there
        if (reason := _path_refusal(word, folder, judge, roots)) is not None:
            lands = reason.removeprefix(REFUSAL_PREFIX)
            entered = "" if folder == base else f" (from {shown_path(folder)}, where it cds)"
            return f"it names {shown_path(word)}{entered}, through a link: {lands}"
    if not shell or len(text) > SCRIPT_FOLLOW_CAP:
        return None
    interactive, judge.interactive = judge.interactive, judge.interactive if same_shell else None
    try:
        found = ShellPaths()
        found.scripts = nested_scripts(text, base, judge.environ, (file, kind), **asks)
        return _script_refusal(found, judge, root, depth + 1, followed=True)
    finally:
        judge.interactive = interactive


def _unjudged_script(
    kind: str, words: tuple[str, str, str], file: str, found: list[ShellPaths], judge: _Judge
) -> str | None:
    """Why the script ``file`` (``words``: as spelled, once expanded, and the folder it runs in)
    that a command runs (``kind``: ``source``, ``shell``, ``fed``, ``run``) cannot be judged
    whatever it holds, or None: the ``found`` commands (the settings naming it) or the call's
    own (``judge.outer``; each command counted once: at the call's own level ``found`` is one of
    them) may write it, so the text on disk the guard reads is not the one run. A command may
    write the places of ``ShellPaths.written`` (a redirection's target, by its whole name; a
    writer's written operand, ``tee s.sh``, ``cp x s.sh``, ``dd of=s.sh``, ``sed -i … s.sh``,
    ``curl -o s.sh``; any word of a program the guard does not read, ``python3 -c
    "open('s.sh','w')"``) and ``ShellPaths.revised`` (``git checkout -- s.sh``; any file after
    ``patch``, ``git apply``), and an unpack a member of which may land on it
    (:func:`_unpacks_onto`). Not so a mode or owner changer or a remover alone (``chmod +x
    gradlew && ./gradlew``, ``rm -f app``: ``ShellPaths.textless``), which gives the file no new
    text; a compiler's output or a ``make`` target (``gcc -o app app.c && ./app``:
    ``ShellPaths.compiled``), a compiled program the guard would not read on disk either; a
    shell's own script operand, every shell's (``bash b.sh; bash b.sh``); a command substitution
    running or printing it (``eval "$(/opt/homebrew/bin/brew shellenv)"``, ``eval "$(cat
    s.sh)"``: ``eval`` is given the text, not the file); a program that only reads (``shellcheck
    s.sh``, ``cat s.sh``: :data:`~harness_memory.hooks.unread_programs.ONLY_READERS`), whose
    words are no written places. A git command naming no path (``git pull && ./test.sh``) is no
    writer of it (``hooks.script_writers``).

    Each written word is judged on its own (:func:`_writes_script`), never counted: a word
    that gives no new text (``ShellPaths.textless``, ``compiled``, a shell's operand, a word of
    a data word read as a command: ``echo "Running run.sh"``) cancels only itself, so ``cat
    p.txt > s.sh; cc -os.sh -os.sh; bash s.sh`` stays written. A compiler's output or a
    ``make`` target is no write only of a program run by its path that is missing or compiled
    on disk (:func:`_compiled_or_missing`): ``make -B s.sh && bash s.sh`` runs the text
    make's rule wrote."""
    spelled, path, base = words
    commands = list({id(each): each for each in (*found, *judge.outer)}.values())
    ran = (  # compiled only when a word is written (H-5: one pattern per script read)
        rf"(\$\(|`)\s*(?:(?:cat|head|tail)(?:\s+-[^\s)`]*(?:\s+\d+)?)*\s+|<\s*)?"
        rf"(?:{re.escape(spelled)}|{re.escape(path)})(?=[\s)`|]|$)"
    )  # ``$(./x.sh)``, ``$(cat x.sh)``, ``$(head -n 9 x.sh)``, ``$(< x.sh)``: run or read
    script = (file, base)
    built = kind == "run" and _compiled_or_missing(file)
    for each in commands:
        operands = [o for run in each.scripts if run[0] == "shell" for o in (run[2], run[3] or "")]
        kept = (*each.textless, *(each.compiled if built else ()), *operands)
        redirected = set(each.redirected)  # the whole word: ``> "Deploy notes.md"``, no ``Deploy``
        sure = Counter(each.written) - Counter(each.guessed)  # a writer's, not only a guess
        for word in new_text_words(each.written, kept, redirected):
            if word in redirected:  # a redirection writes text whatever else names its file
                if _writes_script(word, script, whole=True):
                    return "is written by the same command"
            elif not _code_running(word, spelled) and _writes_script(
                re.sub(ran, r"\1", word), script
            ):
                return _written_how(word, sure)
        for word in each.revised:
            if word == ANY_FILE or _writes_script(word, script, below=True):
                return "is written by the same command"
    unpacked = any(_unpacks_onto(file, each, judge) for each in commands)
    return "is written by the same command" if unpacked else None


def _written_how(word: str, sure: Counter[str]) -> str:
    """How the same command writes a script its written ``word`` names: surely, when a writer
    is given it (``sure``: ``cp x s.sh``, ``tee s.sh``), else as a program the guard does not
    read that is given it may (``python3 fmt.py pytest``): the word names the script's file
    only by its name, and such a program may write a file of that name anywhere."""
    if sure[word]:
        return "is written by the same command"
    shown = word if len(word) <= 80 else word[:77] + "..."
    return (
        f"may be written by the same command, as a program the guard does not read is given "
        f"its name ({shown}) and may write a file of that name anywhere"
    )


def _compiled_or_missing(file: str) -> bool:
    """Whether the script ``file`` is missing or a compiled program on disk
    (:func:`~harness_memory.hooks.named_scripts.read_script`: ``"program"``): what a compiler
    or ``make`` builds there is one the guard does not read either."""
    return not os.path.lexists(file) or read_script(file, run=True)[0] == "program"


def _writes_script(
    word: str, script: tuple[str, str], *, whole: bool = False, below: bool = False
) -> bool:
    """Whether the written ``word`` (as written: a redirection's target when ``whole``, else a
    writer's operand or a word of a program the guard does not read) writes the script
    ``script`` (its file and the folder the command runs in): it is a file of the script's
    name (:func:`_ends_in`; a word holding white space only where code punctuation bounds the
    name, ``open('s.sh', 'w')``, never a message's ``"Running run.sh"``), and, when absolute,
    that file itself, not another of its name (``cp run.sh /tmp/``); or, a literal path,
    the same file by its real path (a link to it: ``cp p.txt link.sh; ./s.sh``), or with
    ``below`` a folder above it (``git checkout HEAD -- .``)."""
    file, base = script
    name = PurePath(file).name
    real = os.path.realpath(file)
    place = os.path.normpath(os.path.join(base, os.path.expanduser(word)))  # noqa: PTH111, PTH118
    literal = word != "" and not re.search(_RUN_TIME_CHARS, word) and not re.search(r"\s", word)
    if literal and os.path.realpath(place) == real:
        return True
    if below and literal and real.startswith(os.path.realpath(place).rstrip("/") + "/"):
        return True
    if whole:
        return PurePath(word).name == name
    for piece in _path_pieces(word):
        if not _ends_in(piece, name):
            continue
        absolute = os.path.expanduser(piece.split(":", 1)[-1])  # noqa: PTH111
        if not absolute.startswith("/") or re.search(_RUN_TIME_CHARS, absolute):
            return True
        there = os.path.normpath(absolute)
        if there == os.path.normpath(file) or os.path.realpath(there) == real:
            return True
    return False


def _path_pieces(word: str) -> list[str]:
    """The parts of a written ``word`` that may be a path: the word, or, when it holds white
    space (a message, a pattern, code), only its parts holding code punctuation (quotes,
    ``=``, ``(``, ``>``: ``shutil.copy('p', 's.sh')``); a part bounded by white space alone
    is prose (``"Fix deploy.sh"``), and a command in it is read as one besides."""
    if not re.search(r"\s", word):
        return [word]
    return [
        piece
        for part in word.split()
        if re.search(_PATH_SPLIT_RE, part)
        for piece in re.split(_PATH_SPLIT_RE, part)
        if piece
    ]


def _code_running(word: str, spelled: str) -> bool:
    """Whether a word a program is given (``word``) is code whose first command is the script
    run as ``spelled``, not a place: the guard reads such a word as shell code too, and a
    ``sed``/``perl`` script (``'s/ *$/!/'``) then runs ``s/``, which that word does not
    write. ``spelled`` must end a command there (white space or ``;|&()<>`` after it): ``>
    ./s.sh`` and ``cp p ./s.sh`` still write ``./s.sh``."""
    after = word[len(spelled) : len(spelled) + 1]
    return word.startswith(spelled) and after != "" and after in " \t\n;|&()<>"


def _unpacks_onto(file: str, found: ShellPaths, judge: _Judge) -> bool:
    """Whether an unpack of the commands ``found`` (``tar -x``, ``unzip``: its members written)
    may write the script ``file``: a member lands on it (:func:`~harness_memory.hooks.
    archive_members.member_places`, as the unpack refusal lists them), or the archive cannot
    be listed and ``file`` lies below the folder it is unpacked into. Read only where a
    command both unpacks and runs a script (``tar -xf a.tar && ./s.sh``)."""
    place = os.path.normpath(os.path.abspath(file))  # noqa: PTH100
    set_here = _options_set_here(found) if found.unpacked else set()
    for command, archive, folders, words in found.unpacked:
        if not writes_members(command, words):
            continue
        options = None if command in set_here else _environment_options(command, judge.environ)
        for folder in folders:
            places = None
            if archive is not None and options is not None:
                places = member_places(command, archive, folder, ArchiveLinks(), [*options, *words])
            real = os.path.realpath(place)
            if places is None and real.startswith(os.path.realpath(folder).rstrip("/") + "/"):
                return True
            if places is not None and real in places:
                return True
    return False


def _skipped_script(script: tuple[str, str, bool], judge: _Judge) -> bool:
    """Whether the script (its file, the folder it runs in, and whether only what a shell
    that is not interactive runs of it is read) is not read: missing or a folder (it runs
    nothing), read so already in this decision, or one this account can neither write nor
    replace (:func:`~harness_memory.hooks.named_scripts.unchangeable`). A root agent may
    write any other: a script it put in ``/usr/share`` and a line sourcing it it added to
    ``~/.bashrc`` are read, so is its own ``. /etc/profile``."""
    file = script[0]
    if script in judge.scripts or not os.path.lexists(file) or os.path.isdir(file):  # noqa: PTH112
        return True
    return unchangeable(file)


_RUN_TIME_CHARS = r"[$`*?\[]"
"""Characters making a written word a place known only at run time (or a pattern)."""


def _may_make(target: str, base: str, found: list[ShellPaths]) -> bool:
    """Whether the commands ``found`` (standing in ``base``) may make the missing ``target``
    (an absolute path) exist: they run a program the guard does not read, or write a place
    built at run time, ``target`` itself or a folder above it (``ln -sfn ~/realdots
    ~/dotfiles``, ``mv``/``cp -r`` of a folder there). Linear in the written words."""
    above = {target, *map(str, PurePath(target).parents)} - {"/"}
    for each in found:
        if each.programs:
            return True
        for word in each.written:
            if re.search(_RUN_TIME_CHARS, word):
                return True
            place = os.path.normpath(os.path.join(base, word))  # noqa: PTH118
            if place in above or os.path.realpath(place) in above:
                return True
    return False


def _dangling(file: str) -> bool:
    """Whether ``file`` is a symbolic link whose target does not exist (``~/.bash_aliases``
    pointing into dotfiles not checked out): ``source`` of it runs nothing."""
    return os.path.islink(file) and not os.path.exists(file)  # noqa: PTH110, PTH114


def _ends_in(word: str, name: str) -> bool:
    """Whether a place a command writes (``word``, as written) is a file called ``name``
    (:func:`_names_settings`' reading: by its last part, a shell pattern matching too)."""
    for piece in re.split(_PATH_SPLIT_RE, word.lower()):
        parts = tuple(part for part in piece.split("/") if part not in ("", "."))
        if _ends_as(parts, (name.lower(),), below=False):
            return True
    return False


_OWN_SETTINGS_NAMES = {
    "git": (".gitconfig", "git/config", ".git/config", "config.worktree", ".git/hooks/"),
    "npm": (".npmrc", "npmrc"),
    "pip": ("pip.conf", "pip.ini"),
    **dict.fromkeys(
        STARTUP_SHELLS, (".bashrc", ".bash_profile", ".bash_login", ".profile", "bash.bashrc")
    ),
}
"""Each program's settings files as the last parts of their paths (``~/.gitconfig``,
``~/.config/git/config``, ``.git/config``, ``~/.npmrc``, ``~/.config/pip/pip.conf``, the
shells' startup files); one ending in ``/`` is a folder anything below which is a setting
(git's hooks)."""
_PATH_SPLIT_RE = r"[\s'\"=:;,()<>|&{}]+"
"""What ends a path inside a word a program is given (``open(".npmrc", "w")``,
``--log=x/pip.conf``)."""


def _names_settings(found: ShellPaths, names: tuple[str, ...]) -> str | None:
    """The first place a command writes (``ShellPaths.written``: a redirection's target, a
    writer's destination, a word of a program whose writes the guard cannot read) that is
    one of the settings files ``names`` (:data:`_OWN_SETTINGS_NAMES`), by its last parts
    alone, or None: ``src/git/config.ts``, ``~/.cache/pip/`` and ``source ~/.profile`` name
    none."""
    wanted = [(tuple(name.lower().strip("/").split("/")), name.endswith("/")) for name in names]
    for word in found.written:
        for piece in re.split(_PATH_SPLIT_RE, word.lower()):
            parts = tuple(part for part in piece.split("/") if part not in ("", "."))
            if any(_ends_as(parts, name, below=below) for name, below in wanted):
                return word
    return None


def _ends_as(parts: tuple[str, ...], name: tuple[str, ...], *, below: bool) -> bool:
    """Whether a path's ``parts`` end as ``name``'s (each part of the path may be a shell
    pattern: ``~/.np*rc``; a ``*`` matches no leading dot), or, ``below``, hold them with at
    most one part after (a file in that folder)."""

    def alike(part: str, wanted: str) -> bool:
        if part == wanted:
            return True
        dotted = not wanted.startswith(".") or part.startswith(".")
        return dotted and any(c in part for c in "*?[") and fnmatch_case(wanted, part)

    ends = [len(parts), len(parts) - 1] if below else [len(parts)]
    return any(
        end >= len(name) and all(map(alike, parts[end - len(name) : end], name)) for end in ends
    )


def _package_settings_refusal(
    found: ShellPaths, judge: _Judge, root: str, depth: int
) -> str | None:
    """The refusal of a command running ``npm`` or ``pip`` whose settings
    (:func:`~harness_memory.hooks.package_settings.package_settings`) cannot be read whole,
    name a place for it to write that the guard refuses (``prefix``, ``cache``, ``target``
    …), a program to run that it refuses (``script-shell``), or memory it may not write."""
    for program, base, words, assigned in found.configured:
        if program not in ("npm", "pip"):
            continue
        options = npm_option_files(words) if program == "npm" else {}
        written = [  # ``npm config set …`` in the same command: read as if on the disk
            pair
            for other, _, its_words, _ in found.configured
            if other == program
            for pair in written_settings(program, its_words)
        ]
        environ = {**judge.environ, **assigned, **options}
        settings = package_settings(program, base, environ, written)
        for setting in settings.run_time:
            return (
                f"{REFUSAL_PREFIX}the command sets {program}'s setting {shown_path(setting)} to a "
                "value built at run time: where it makes "
                f"{program} write, or what it makes it run, is known only when the command "
                "runs, and could be another Workspace's memory scope. Set it to a literal "
                "path (run the command that finds it first and use what it printed)"
            )
        if settings.unknown is not None:
            return (
                f"{REFUSAL_PREFIX}{program} would read a settings file the guard cannot read "
                f"whole ({shown_path(settings.unknown)}: no regular file, unreadable or longer "
                f"than {PACKAGE_SETTINGS_CAP} bytes); where it writes cannot be known. Fix "
                "or remove that file"
            )
        for setting, place in settings.places:
            if (reason := records_refusal(place, base, judge.records, judge.table)) is not None:
                return reason
            decision = check_write(
                place, memory_root=judge.memory_root, workspace_key=judge.key, mounts=judge.table
            )
            if not decision.allowed:
                return (
                    f"{REFUSAL_PREFIX}{decision.reason} ({shown_path(place)}, where {program}'s "
                    f"setting {setting} says it writes)"
                )
        if reason := _run_setting_refusal(program, settings.commands, judge, base, depth):
            return reason
        said = f"{program}'s settings name", f"{program} may write there"
        if reason := _settings_name_memory(settings.text, root, judge, said, "its settings"):
            return reason
    return None


def _git_settings_refusal(found: ShellPaths, judge: _Judge, root: str, depth: int) -> str | None:
    """The refusal of a command running ``git`` whose settings (files, variables, ``-c``:
    :func:`~harness_memory.hooks.git_settings.git_settings`) the guard cannot read whole,
    make it run a command the guard refuses (``alias.x = !sh -c '…'``, ``core.fsmonitor``,
    judged as a command run where ``git`` runs), or name memory it may not write (with its
    hook scripts: ``core.worktree``, a hook writing into another scope) (P-3)."""
    for program, base, words, assigned in found.configured:
        if program != "git":
            continue
        settings = git_settings(words, base, {**judge.environ, **assigned})
        if settings.unknown is not None:
            return (
                f"{REFUSAL_PREFIX}git would read settings the guard cannot read whole "
                f"({shown_path(settings.unknown)}: no regular file, unreadable, longer than "
                f"{GIT_SETTINGS_CAP} bytes, too many files, or a place set to a value built "
                "at run time); what they make git run or write cannot be known. Fix or "
                "remove that file, set a literal place, or run git with "
                "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null"
            )
        if reason := _git_repository_refusal(settings.repository, judge):
            return reason
        for folder in settings.folders:  # where git is run, and its work tree's top
            commands, own = settings.commands, settings.own
            if reason := _run_setting_refusal(program, commands, judge, folder, depth, own):
                return reason
        said = (
            "git's settings or hook scripts name",
            "git may write there (core.worktree, an alias, a hook)",
        )
        out = "the settings, or run the command without git"
        if reason := _settings_name_memory(settings.text, root, judge, said, out):
            return reason
    return None


def _git_repository_refusal(repository: str | None, judge: _Judge) -> str | None:
    """The refusal of a ``git`` run whose repository folder (``GIT_DIR``, ``--git-dir`` or
    ``.git`` from the folder git runs in, a ``gitdir:`` file followed) is memory the command
    may not write: git writes its objects, index and refs there (P-3). None else."""
    if repository is None:
        return None
    decision = check_write(
        repository, memory_root=judge.memory_root, workspace_key=judge.key, mounts=judge.table
    )
    if decision.allowed:
        return None
    return (
        f"{REFUSAL_PREFIX}{decision.reason} ({shown_path(repository)}, the repository git "
        "uses there: it writes its objects, index and refs in it)"
    )


def _settings_name_memory(
    texts: list[str], root: str, judge: _Judge, said: tuple[str, str], out: str
) -> str | None:
    """The refusal of settings ``texts`` (a program's settings files, git's hook scripts) that
    name memory the command may not write (:func:`memory_named`), in ``said``'s words (what
    names it, what the program may do there), telling to take it out of ``out``; None when
    they name none (P-3)."""
    named = memory_named("\n".join(texts), root, judge.key, judge.records)
    if named is None:
        return None
    return (
        f"{REFUSAL_PREFIX}{said[0]} another Workspace's memory scope, the memory root outside "
        "the user scope and this Session's scope, or the Session records "
        f"({shown_path(named)}); {said[1]}. Take that out of {out}"
    )


def _run_setting_refusal(
    program: str,
    commands: list[tuple[str, str]],
    judge: _Judge,
    base: str,
    depth: int,
    own: list[tuple[str, str]] | None = None,
) -> str | None:
    """The refusal of the first of ``commands`` (each a setting of ``program``'s and the
    command it makes the program run: ``alias.x``, ``script-shell``) the guard refuses,
    judged as a command of the call run in ``base`` (one settings level deeper than
    ``depth``), or None. One of ``own`` (set by the call's own words: ``git -c
    alias.x='!eval "$(…)"' x``) is the call's code, judged as its own command is (``eval`` of
    unread output, a quoted program variable: refused), not as the user's settings."""
    for setting, command in commands:
        mine = own is not None and (setting, command) in own
        if (reason := judge.texts([command], base, depth + 1, own_code=mine)) is not None:
            return (
                f"{REFUSAL_PREFIX}{program}'s setting {shown_path(setting)} makes it run "
                f"{shown_path(command)}, and the guard refuses that command: "
                f"{reason.removeprefix(REFUSAL_PREFIX)}"
            )
    return None


def _unread_program_refusal(
    texts: list[str], read: list[ShellPaths], root: str, key: str | None, records: set[str]
) -> str | None:
    """The refusal of a command running a program whose writes the guard cannot read
    (``python3 -c``, ``perl -e``, ``awk``, ``git apply``, ``xargs``, a script) whose text names
    memory it may not write (:func:`~harness_memory.hooks.unread_programs.memory_named`): that
    program may build its path from what the text gives it (P-3)."""
    for text, found in zip(texts, read, strict=True):
        if found.programs and (named := memory_named(text, root, key, records)) is not None:
            return (
                f"{REFUSAL_PREFIX}the command runs {shown_path(found.programs[0])}, a program "
                "whose writes the guard cannot read (it may build a path at run time), and "
                "its text names another Workspace's memory scope, the memory root outside "
                f"the user scope and this Session's scope, or the Session records "
                f"({shown_path(named)}); write memory files with the file tools or a literal "
                "path inside the user scope or this Session's Workspace scope, and run the "
                "program without naming other memory"
            )
    return None


_UNKNOWN_BASE = "/\x00"
"""The base relative words are read from when the harness's working folder is unknown
(:func:`~harness_memory.hooks.claude_code.working_folder`): no path holds a NUL, so a word
anchored there is a relative one."""


def _from_unknown_folder(found: ShellPaths) -> bool:
    """Whether a command read from :data:`_UNKNOWN_BASE` names a path relative to it."""
    words = [*found.paths, *found.undecided, *found.derived, *found.written_at_run_time]
    return any(word.startswith(_UNKNOWN_BASE) for word in words) or bool(found.unanchored)


def _unread_code_refusal(code: str) -> str:
    """The refusal of the call's own ``eval`` (or ``source <(…)``) of the output of ``code``,
    a command substitution whose output the guard cannot read before it runs
    (``ShellPaths.unread_code``, review59 finding 8). Code a startup file or a script the
    call runs evaluates so (``eval "$(tool init bash)"`` in ``~/.bashrc``) is the user's
    setup, not refused for this."""
    return (
        f"{REFUSAL_PREFIX}the command runs as code what {code} prints (eval, source of <(…), "
        "an interpreter's -c/-e code or a pipe into it), which the guard cannot read before it "
        "runs: it may write anywhere, another Workspace's memory scope among them. Run the "
        'commands themselves, or their file (bash FILE, eval "$(cat FILE)")'
    )


def _extglob_refusal(group: str) -> str:
    """The refusal of a command holding an ``extglob`` group (``group``: its opening, as
    written) where that option may be on (``ShellPaths.extglob_groups``): the guard reads
    neither what it matches nor the commands inside it, and fails closed (P-3)."""
    return (
        f"{REFUSAL_PREFIX}the command holds an extglob pattern ({group!r}…) where the "
        "extglob option may be on (shopt -s extglob, bash -O extglob, BASHOPTS, a startup "
        "file): the guard does not read what such a pattern matches or runs, so it may "
        "reach another Workspace's memory scope. Name the files, or use plain globs "
        "(*, ?, [...]) without extglob"
    )


def _run_time_refusal(
    found: ShellPaths, key: str | None, roots: set[str], records: set[str], table: MountTable
) -> str | None:
    """The refusal of a word :func:`shell_refusal` cannot resolve before the command runs (a
    prefix built at run time, a pattern expansion, a path with nothing literal before it, a
    relative path after an unknown ``cd``) that could reach the memory root, the Session
    records or the service's folders, or name another scope; None when none could."""
    for prefix in found.undecided:
        if could_reach(prefix, roots, table):
            return (
                f"{REFUSAL_PREFIX}a path built at run time ($VAR, $(…), `…`) that could "
                f"reach the memory root ({shown_path(prefix)}…); name memory files by their "
                "literal path inside the user scope or this Session's Workspace scope"
            )
        if could_reach(prefix, records, table):
            return (
                f"{REFUSAL_PREFIX}a path built at run time ($VAR, $(…), `…`) that could "
                f"reach the hooks' Session records ({shown_path(prefix)}…); only the hooks "
                "write them"
            )
        if could_reach(prefix, _service_folders(roots), table):
            return (
                f"{REFUSAL_PREFIX}a path built at run time ($VAR, $(…), `…`) that could "
                f"reach the memory service's own folders of its data dir ({shown_path(prefix)}…); "
                "only the service writes them"
            )
    for folder in found.derived:
        if any(_lies_in(folder, spelled, table) for spelled in (roots, records)) or _lies_in(
            folder, _service_folders(roots), table
        ):
            return (
                f"{REFUSAL_PREFIX}a path a pattern expansion (${{VAR/…}}, ${{VAR%…}}) makes "
                f"at run time from a folder of the memory root, the Session records or the "
                f"service's own folders ({shown_path(folder)}/…); name memory files by their "
                "literal path inside the user scope or this Session's Workspace scope"
            )
    for word in found.built:
        if could_name_a_scope(word, key, globs=False):
            return (
                f"{REFUSAL_PREFIX}a path built at run time with nothing literal before it "
                "($(…)/…, $VAR/…, text inside $(…) or `…`) naming another scope or the "
                f"marker ({shown_path(word)}); name memory files by their literal path inside "
                "the user scope or this Session's Workspace scope"
            )
    if found.extglob_groups:
        return _extglob_refusal(found.extglob_groups[0])
    if found.over_scan:
        return (
            f"{REFUSAL_PREFIX}a glob in the command (or a name printed at run time, "
            "$(date +%F), matched against the entries already in its folder) reads more than "
            f"{tool_targets.GLOB_SCAN_CAP} folder entries or matches too many, more than the "
            "guard reads within the hook's time limit; name the files, or narrow the pattern "
            "(a folder before the first *, fewer * levels)"
        )
    for word in _process_links_at_run_time(found):
        return (
            f"{REFUSAL_PREFIX}the command writes through a process link whose name is known "
            f"only at run time ({shown_path(word)}: a variable or a glob after /proc/ or "
            "/dev/, which may name the shell's own folder, /proc/self/cwd, after a cd): where "
            "it lands cannot be known before the command runs, and it could be another "
            "Workspace's memory scope. Spell the link literally, or write to a literal path"
        )
    for word in found.written_at_run_time:
        if re.match(WORDS_RUN_RE, word) and found.given_refused:
            return _given_refusal(found.given_refused[0])
        return _written_at_run_time(word, found)
    for word in found.unanchored:
        if could_name_a_scope(word, key):
            return (
                f"{REFUSAL_PREFIX}a relative path after a cd into a folder that cannot be "
                "known before the command runs ($(…), an unset variable, find -execdir) "
                "or after a folder the shell holds open (/proc/self/fd/N, /dev/fd/N) "
                f"naming another scope, the marker or a pattern ({shown_path(word)}); name "
                "memory files by their literal path inside the user scope or this Session's "
                "Workspace scope"
            )
    for word in found.split:
        return _split_refusal(word)
    return None


def _process_links_at_run_time(found: ShellPaths) -> list[str]:
    """The places the command surely writes (``ShellPaths.written`` but its guesses: a
    program the guard does not read may only read them, ``python3 x.py /proc/$$/status``)
    through ``/proc/`` or ``/dev/`` with a glob or an expansion after it
    (``/proc/$D/../other/a.md``, ``/proc/self/c[w]d/../other/``): which process link they
    pass through, and so where they land, is known only at run time (P-3, review guard61
    finding 3). Reads (``ls /proc/$$/fd``) are no writes."""
    sure = Counter(found.written) - Counter(found.guessed)
    return [word for word in sure if _may_pass_a_process_link(word)]


def _may_pass_a_process_link(word: str) -> bool:
    """Whether ``word``, an absolute path holding an expansion or a glob, may pass through a
    process link (``/proc/…``, ``/dev/fd/…``) the guard cannot name (P-3): its literal folders
    before the first such character lead to ``/proc`` or ``/dev`` (spelled, with ``..``, or
    through a link), or the first folder itself holds it and may be one of them (``/pro[c]/``,
    ``/p?oc/``, ``/*/``, ``/$X/``: review guard62 B4). Not under ``/dev/tcp/`` or ``/dev/udp/``
    when no such folder exists: bash opens a socket for a redirection there and any other
    open fails, whatever the variables after it hold (``/dev/tcp/$HOST/$PORT``)."""
    cut = min((word.find(char) for char in "$`*?[" if char in word), default=-1)
    if cut < 0 or not word.startswith("/"):
        return False
    literal = word[:cut]
    parts = [part for part in literal[: literal.rfind("/")].split("/") if part not in ("", ".")]
    if ".." in parts:
        return True
    if not parts:
        first = next(part for part in word.split("/") if part not in ("", "."))
        return any(char in first for char in "$`") or any(
            fnmatch_case(name, first) for name in ("proc", "dev")
        )
    real = [part for part in os.path.realpath("/" + "/".join(parts)).split("/") if part]
    for folders in (parts, real):
        if folders[:1] == ["proc"] or (folders[:1] == ["dev"] and not _socket(folders)):
            return True
    return False


def _socket(folders: list[str]) -> bool:
    """Whether ``folders`` (``dev`` first) name bash's ``/dev/tcp`` or ``/dev/udp``, absent
    from the file system (a path below it opens no file)."""
    return folders[1:2] in (["tcp"], ["udp"]) and not os.path.lexists("/dev/" + folders[1])


def _split_refusal(word: str) -> str:
    """The refusal of ``word`` in ``ShellPaths.split``: an unquoted expansion bash splits
    into a program and its arguments (``$(cat f)``), or, quoted (``"$x"``), a variable naming
    the program whose value is read at run time or is one of a loop's after it (P-3)."""
    if word.startswith('"'):
        return (
            f"{REFUSAL_PREFIX}{word} names the program, and the variable holds a value known "
            "only at run time (read from a file or a pipe, or a loop over words that are not "
            f"literal: $(…), a glob, a quoted word, or over more than {LOOP_VALUES_CAP}; or a "
            "loop's variable after its loop or set again in it), so the guard cannot tell what "
            "it runs; write the program in the command itself, or name it inside a loop over "
            'literal names (for x in ls pwd; do "$x"; done)'
        )
    return (
        f"{REFUSAL_PREFIX}an unquoted {word} is split by the shell into words that may be "
        "a program and its arguments the guard never sees (the output of a command or a "
        'variable read at run time); quote it so it is one word ("$(…)"), put -- before '
        "a list of file names (cp -- $(ls *.c) build/), or write the program and its "
        "options in the command itself"
    )


def _given_refusal(word: str) -> str:
    """The refusal of ``word``, given to code a downloader fetched (``curl … | bash -s --
    -y --prefix ~/.local``) and not judged as a place: a home path, a pattern, a quote, a
    list or a glued option may name any place, another Workspace's memory scope among them
    (``tool_targets._Writes._fetched_given``) (P-3)."""
    kind = "a word built at run time, a pattern, a quote, a list or a glued option"
    if word.lstrip("-").split("=")[-1].startswith("~") or word.startswith("~"):
        kind = "a home path (~)"
    return (
        f"{REFUSAL_PREFIX}the code piped from a downloader into the shell is given "
        f"{shown_path(word)}, {kind}: the guard cannot tell which place the installer "
        "writes with it, another Workspace's memory scope among them. Give it plain "
        "options and literal folders ($HOME/.local, not ~/.local; build, not b*)"
    )


def _written_at_run_time(word: str, found: ShellPaths) -> str:
    """The refusal of ``word``, a place the command writes that is known only at run time:
    words run as the command's name (:data:`~harness_memory.hooks.shell_arrays.WORDS_RUN_RE`:
    ``"${a[@]}"``, ``"$@"``), perl's in-place backups under a suffix its code sets
    (:data:`~harness_memory.hooks.in_place.CODE_SUFFIX`), or a path the shell builds."""
    if re.match(WORDS_RUN_RE, word):
        return (
            f"{REFUSAL_PREFIX}the command's name is words known only at run time "
            f"({shown_path(word)}: an array filled at run time or outside its literal "
            "assignments, the positional parameters of code the guard cannot read, or "
            "after eval); any program may run with them and write anywhere, another "
            "Workspace's memory scope among them. Name the program and its places in the "
            "command, or fill the array from literal words only (a=(cp x y); a+=(z))"
            f"{_too_big(found)}"
        )
    if word.endswith(CODE_SUFFIX):
        return (
            f"{REFUSAL_PREFIX}perl's code may turn in-place editing on ($^I, in any "
            f"spelling) and keep each file it reads under a backup name it sets at run time "
            f"({shown_path(word)}); it could land in another Workspace's memory scope. Use "
            f"perl -i.SUFFIX, or write the output to a literal path{_too_big(found)}"
        )
    return (
        f"{REFUSAL_PREFIX}the command writes a path the shell builds at run time "
        f"({shown_path(word)}: $(…), `…`, a variable set from one or unset, a relative "
        "path after a cd into such a folder, or a path through a link the command makes "
        'to such a place: ln -s "$(…)" lnk); where it lands cannot be known before the '
        "command runs, and it could be another Workspace's memory scope. Write to a "
        "literal path (a $(mktemp) or $(date …) in it is read), or run the command that "
        f"makes the path first and use what it printed{_too_big(found)}"
    )


def _fed_refusal(found: ShellPaths) -> str | None:
    """The refusal of an ``xargs`` giving a writer its written places from names it reads at
    run time (``ShellPaths.fed``: ``xargs cp note.md < list``, ``xargs -I{} cp x {}/a.md``);
    None when the command has none."""
    for fed in found.fed:
        return (
            f"{REFUSAL_PREFIX}the command's xargs gives a writer the places it writes from "
            f"names it reads at run time ({shown_path(fed)}: standard input, -a FILE, -I {{}}); "
            "where they land cannot be known before the command runs, and it could be "
            "another Workspace's memory scope. Name the places in the command (a literal "
            "path, a for loop over a glob), or print the list first and write to the paths "
            "it printed"
        )
    return None


def _fed_patch_refusal(found: ShellPaths) -> str | None:
    """The refusal of a command running Codex's ``apply_patch`` with a patch the guard cannot
    read before it runs (``ShellPaths.fed_patches``: a pipe from another program, ``xargs``,
    ``"$P"``, a file the command writes first, one over the cap or read through a per-process
    link, a file line built at run time), in any folder: a patch's file lines may be absolute
    (``*** Add File: /…/other-scope/x.md``), so which files it writes, their scope and whether
    the memory service can address their names (K-7) are known only when it runs. A patch the
    guard reads (a here-document, the argument, a literal file it fits) is judged by its file
    lines instead (P-3)."""
    for start, how in found.fed_patches:
        runs = "may run" if how.startswith(MAYBE_PATCHER) else "runs"
        return (
            f"{REFUSAL_PREFIX}the command {runs} apply_patch with a patch the guard cannot read "
            f"before it runs ({how}; from {shown_path(start)}), and a patch's file lines may name "
            "any place, another Workspace's memory scope included: neither their scope nor "
            "whether the memory service can address their names (K-7) can be checked. Give "
            "the patch in the command (apply_patch <<'EOF' … EOF) or in a file it reads "
            "(apply_patch < patch.txt), or use the apply_patch tool"
        )
    return None


def _settings_refusal(
    text: str,
    found: ShellPaths,
    memory_root: Path,
    key: str | None,
    records: set[str],
    table: MountTable,
    environ: Mapping[str, str],
) -> str | None:
    """The refusal of a command running ``curl`` or ``wget`` (with ``environ``, the shell's
    environment) whose settings file names a place
    it may not write (:func:`~harness_memory.hooks.program_settings.settings_places`: a plain
    ``curl URL`` with ``output = …`` in ``~/.curlrc`` writes there), or that the guard cannot
    read whole; of one choosing another settings file (``HOME=. curl URL``, ``export
    WGETRC=…``) or writing or naming one (``printf … > ~/.curlrc; curl URL``): what the
    program then reads is not yet on the disk the guard reads. None otherwise (P-3)."""
    for program in dict.fromkeys(program for program, _ in found.settings_readers):
        for name, shown, run_time in found.settings_moved:
            if moves_settings(program, name) and (run_time or chooses_settings(program, name)):
                return (
                    f"{REFUSAL_PREFIX}the command sets {shown_path(shown)} and runs {program}, "
                    f"which then writes where {name} (or the settings file it chooses) says: "
                    "that is known only when the command runs, and could be another "
                    f"Workspace's memory scope; give {program} its options and places on its "
                    "command line, as literal paths"
                )
    readers = [program for program, _ in found.settings_readers if program in SETTINGS_READERS]
    if not readers:
        return None
    program = readers[0]
    if named := _settings_named(text, found):
        return (
            f"{REFUSAL_PREFIX}the command names a settings file of curl or wget ({named[0]}) "
            f"and runs {program}, which reads it when it starts (output = … makes it write "
            "there): write the settings file in a command of its own (the guard reads it when "
            f"{program} runs), or give the options on {program}'s command line"
        )
    for reader, base in dict.fromkeys(found.settings_readers):
        if reader not in SETTINGS_READERS:
            continue
        places = settings_places(reader, environ, base)
        if places is None:
            return (
                f"{REFUSAL_PREFIX}{reader} would read a settings file the guard cannot read "
                "whole, or one taking settings or values from elsewhere (config = …, "
                "variable, %output{…}, use_askpass): where it writes cannot be known; run "
                "curl -q or wget --no-config, or take those lines out"
            )
        for place in dict.fromkeys(places):
            if (reason := records_refusal(place, base, records, table)) is not None:
                return reason
            decision = check_write(place, memory_root=memory_root, workspace_key=key, mounts=table)
            if not decision.allowed:
                return (
                    f"{REFUSAL_PREFIX}{decision.reason} ({shown_path(place)}, where the settings "
                    f"file of {reader} says it writes)"
                )
    return None


def _settings_named(text: str, found: ShellPaths) -> list[str]:
    """The settings files' names (:data:`~harness_memory.hooks.program_settings.
    SETTINGS_NAMES`) a command names where it may write them: a word of a command other
    than one only reading (``cat ~/.curlrc`` is no write: :data:`~harness_memory.hooks.
    unread_programs.ONLY_READERS`), a redirection's target, as written and with its known
    variables expanded; a pattern matching one's name (``~/.c*rc``); the whole text when it
    holds a here-document (a program may take its script from it)."""
    folded = [word.lower() for word in found.mentioned]
    folded += [text.lower()] if "<<" in text else []
    named = [name for name in SETTINGS_NAMES if any(name in each for each in folded)]
    patterns = [word.rsplit("/", 1)[-1] for word in folded if any(c in word for c in "*?[")]
    for pattern in patterns:
        named += [
            file
            for file in (".curlrc", "_curlrc", "curlrc", ".wgetrc", ".wget2rc", "wget2rc")
            if fnmatch_case(file, pattern)
        ]
    return named


def _folder_writer_refusal(found: ShellPaths) -> str | None:
    """The refusal of a command unpacking an archive by its members' own absolute or ``..``
    names (``tar -xP``, ``unzip -:``), or running a program that writes into its folder by
    itself (``curl -O``, ``tar -x``) after a ``cd`` into a folder known only at run time: where
    either writes is not in the command's text (P-3). None when it does neither."""
    for option in found.unbounded:
        return _own_names_refusal(option)
    for program in found.lost_programs:
        return (
            f"{REFUSAL_PREFIX}the command runs {shown_path(program)}, a program whose writes the "
            "guard cannot read (a relative path it opens lands in its folder), after a cd "
            "into a folder known only when it runs ($(…), an unset variable): that could "
            "be another Workspace's memory scope. cd into a literal folder (run the command "
            "that finds it first and use what it printed)"
        )
    for program, word in found.linked_programs:
        return (
            f"{REFUSAL_PREFIX}the command runs {shown_path(program)}, a program whose writes the "
            f"guard cannot read, on {shown_path(word)}, a path through a link the command makes "
            'to a place read from data when it runs (ln -s "$(cat f)" lnk): that could be '
            "another Workspace's memory scope. Link to a literal path (run the command that "
            "finds it first and use what it printed)"
        )
    for program in found.run_in_unknown:
        return (
            f"{REFUSAL_PREFIX}the command runs {shown_path(program)} after a cd into a folder "
            "known only when it runs ($(…), an unset variable), and it writes into its folder "
            "with no word of the command naming the place (curl -O, wget, tar -x, unzip, "
            "split): that could be another Workspace's memory scope. cd into a literal folder "
            "(run the command that finds it first and use what it printed), or name the place "
            "(curl -o, tar -C, unzip -d) by a literal path"
        )
    return None


def _written_paths(found: ShellPaths) -> list[str]:
    """The absolute paths of ``found.paths`` that spell a word of ``found.written`` (a
    redirection's target, a copy's destination, a word of a program the guard does not
    read, but not an unpacking program's own words: ``jar xf a.jar``), as anchored in each
    folder the command may be in; a word built at run time is refused elsewhere. Linear in
    the paths' parts (H-5)."""
    own = {word for _, _, _, words in found.unpacked for word in words}  # ``jar xf a.jar``'s
    words = {os.path.normpath(word) for word in found.written if word and "$" not in word} - {
        os.path.normpath(word) for word in own if word
    }
    if not words:
        return []
    chosen: list[str] = []
    for path in dict.fromkeys(found.paths):
        folded = os.path.normpath(path)
        parts = folded.split("/")
        tails = {"/".join(parts[at:]) for at in range(1, len(parts))}
        if folded in words or not tails.isdisjoint(words):
            chosen.append(path)
    return chosen


def _own_names_refusal(option: str) -> str:
    """The refusal of an unpack by its members' own absolute or ``..`` names, given by
    ``option`` (``tar -P``, ``unzip -:``, ``cpio -i`` without ``--no-absolute-filenames``,
    ``jar -P``, ``7z -spf``, ``unrar -ep3``) (P-3)."""
    return (
        f"{REFUSAL_PREFIX}the command unpacks an archive by its members' own absolute or "
        f"'..' names ({shown_path(option)}): where they land is written in the archive, not "
        "the command, and could be another Workspace's memory scope; unpack without it "
        "(cpio: with --no-absolute-filenames), into a literal folder"
    )


def _moved_home_refusal(found: ShellPaths, roots: set[str], records: set[str]) -> str | None:
    """The refusal of a command renaming (``mv``), removing (``rm -r``), hard-linking
    (``cp -al``), unpacking an archive into (``tar -x``, ``unzip``: its members' names may reach
    any folder below) or acting on every file below (``find … -delete``/``-exec``) the account's
    home or a folder above it that holds the data dir (or the memory root, or the hooks'
    state dir): renamed away (where this account may: its parent is writable), written inside
    and moved back, or swept whole, it reaches every scope without naming one (P-3). The guard
    spares the home and its parents for every other command (``cd ~``, ``cp x ~/``); folders
    below the home are judged for every word already (:func:`~harness_memory.guard.
    replaceable_ancestor`). A ``find`` whose actions reach only names matching its ``-name``
    patterns (``find ~ -name '*.pyc' -delete``) is spared when no file or folder of the data
    dir and the state dir, nor a folder on their way, matches them (:func:`_names_match`).
    None when no operand is such a folder."""
    home = os.path.normpath(Path.home())
    data_dirs = [app_data_dir_of(Path(root)) for root in roots]
    held = [os.fspath(found) for found in data_dirs if found is not None] or sorted(roots)
    folders = [*held, *(os.path.dirname(folder) for folder in records)]  # noqa: PTH120
    sifted = [path for path, names in found.sifted if _names_match(folders, names)]
    for path, renamed in [
        *((path, True) for path in found.moved),
        *((p, False) for p in [*found.swept, *sifted]),
    ]:
        if not is_usable_path(path):
            continue  # judged (and refused) as a path like every other word
        spelled = os.path.normpath(path)
        real = real_or_none(path)  # as spelled: the kernel follows ``lnk`` before its ``..``
        for spelling in dict.fromkeys((spelled, real or spelled)):
            if spelling != home and not home.startswith(spelling.rstrip("/") + "/"):
                continue
            inside = spelling.rstrip("/") + "/"
            if renamed and replaceable_ancestor((spelling,), folders, spare_home=False):
                return (
                    f"{REFUSAL_PREFIX}the command moves {shown_path(spelling)}, which holds the "
                    "memory service's data dir (or the hooks' Session records) and which this "
                    "account may rename: moving it away and back reaches every scope without "
                    "naming one; move the folders you mean inside it"
                )
            if not renamed and any(folder.startswith(inside) for folder in folders):
                return (
                    f"{REFUSAL_PREFIX}the command removes, hard-links, unpacks an archive "
                    f"into or acts on every file below {shown_path(spelling)}, which holds the "
                    "memory service's data dir (or the hooks' Session records): that reaches "
                    "every scope without naming one; name the folders you mean inside it"
                )
    return None


def _find_reach_refusal(found: ShellPaths, judge: _Judge, roots: set[str], cwd: str) -> str | None:
    """The refusal of a ``find`` whose actions write through what they find
    (``ShellPaths.reached``) when what they may act on reaches where this Session may not
    write: a symlink below a start folder (into another Workspace's scope, the memory root,
    the data dir, the Session records) that its ``-name``/``-path`` tests let through, or any
    such link where its tests are none the guard matches (``-type l``, ``-regex``,
    ``-newer``, ``-o``, ``!``, ``-L``); with no such name test, also a start (or a
    folder a followed link leads to) holding the data dir, the memory root or the records;
    and start folders read at run time (``-files0-from FILE``).
    Past :data:`~harness_memory.hooks.find_reach.REACH_CAP` entries the walk stops, and
    what it met (the start folder's own entries first) is judged (a link deeper in a bigger
    tree: an open limit, P-3)."""
    held = [*_held_folders(roots, judge.records), *roots]
    held_set = set(held)
    for start, shown, bounds in found.reached:
        if not start:
            return (
                f"{REFUSAL_PREFIX}find reads its start folders from {shown_path(shown)} at run "
                'time (-files0-from, a word bash builds: a variable, an array, "$@"), and its '
                "actions write through what it finds there: they may be another Workspace's "
                "memory scope; name the start folders and the expression in the command"
            )
        why = bounds.why
        walked = None
        cap, files = find_reach.REACH_CAP, bounds.files
        if bounds.links or bounds.follow:
            walked = find_reach.links_below(start, follow=bounds.follow, cap=cap, files=files)
        elif files:  # ``-type f -exec cp x {} \;``: a file with other names, past the cap unread
            walked = find_reach.links_below(start, follow=False, cap=cap, files=True)._replace(
                links=[]
            )
        links, targets, named = walked or ([], [], [])
        if reason := _hard_linked_refusal(named, bounds, (start, shown), (cwd, judge, roots)):
            return reason
        if bounds.names is None:
            for folder in (start, *targets):
                if (holding := _folder_holding(folder, held)) is not None:
                    return (
                        f"{REFUSAL_PREFIX}find's actions may act on every entry below "
                        f"{shown_path(holding)} ({why}), which holds the memory root, the "
                        "memory service's data dir or the hooks' Session records: that reaches "
                        "every scope without naming one; start find in the folders you mean, "
                        "or add a -name or -path test"
                    )
        for link in links:
            names = bounds.names
            if names is not None and not find_reach.matches(link, start, shown, names):
                continue
            if not _lies_in(link, held_set, judge.table):
                continue  # ``node_modules/.bin/tsc``: judged (a walk) only if it may reach memory
            if (reason := _path_refusal(link, cwd, judge, roots)) is not None:
                return (
                    f"{REFUSAL_PREFIX}find's actions may act on the symlink "
                    f"{shown_path(link)} below {shown_path(start)} ({why}), and through it "
                    f"write where this Session may not: {reason.removeprefix(REFUSAL_PREFIX)}. "
                    "Add a -name or -path test that leaves it out (or -type f), or start find "
                    "in a folder holding no such link"
                    + (" (or leave out -L)" if bounds.follow else "")
                )
    return None


def _hard_linked_refusal(
    named: list[str],
    bounds: find_reach.Bounds,
    where: tuple[str, str],
    judging: tuple[str, _Judge, set[str]],
) -> str | None:
    """The refusal of a ``find`` whose action writes through each regular file it finds when
    one its name tests let through (``named``: files with other names) is judged as
    ``cp x FILE`` is (a hard link into another scope: "has other names"); None otherwise."""
    start, shown = where
    for path in named:
        if bounds.names is not None and not find_reach.matches(path, start, shown, bounds.names):
            continue
        if (reason := _path_refusal(path, *judging)) is not None:
            return (
                f"{REFUSAL_PREFIX}find's actions write through the file {shown_path(path)} "
                f"below {shown_path(start)}: {reason.removeprefix(REFUSAL_PREFIX)}"
            )
    return None


def _folder_holding(folder: str, held: list[str]) -> str | None:
    """``folder`` (spelled or resolved) when one of the ``held`` folders is it or lies below
    it; None otherwise."""
    if not is_usable_path(folder):
        return None
    spelled = os.path.normpath(folder)
    for spelling in dict.fromkeys((spelled, real_or_none(folder) or spelled)):
        inside = spelling.rstrip("/") + "/"
        if any(each == spelling or each.startswith(inside) for each in held):
            return spelling
    return None


def _unpack_refusal(
    found: ShellPaths, judge: _Judge, roots: set[str], unlisted: list[tuple[str, str | None]]
) -> str | None:
    """The refusal of a command unpacking an archive (``tar -x``, ``unzip``) a member of
    which lands where the guard refuses a write (:func:`~harness_memory.hooks.
    archive_members.member_places`: through a symlink on the disk or an earlier symlink
    member, or below the home into the data dir), or one it cannot list unpacked into the
    home or a folder above it that holds the data dir (or the Session records): its members'
    names may reach every scope. An archive it cannot list unpacked elsewhere passes, but no
    later unpack of the same command may reach into that folder (its symlinks are not
    known: ``tar -x < links.tar && tar -xf files.tar``) (P-3)."""
    if not found.unpacked:
        return None
    held = _held_folders(roots, judge.records)
    links = ArchiveLinks()
    unknown: list[str] = []  # the folders an archive the guard cannot list was unpacked into
    set_here = _options_set_here(found)
    for command, archive, folders, words in found.unpacked:
        option = own_names_option(command, words) if writes_members(command, words) else None
        if option is not None:
            return _own_names_refusal(option)
        options = None if command in set_here else _environment_options(command, judge.environ)
        for folder in folders:
            places = None
            if archive is not None and options is not None:
                places = member_places(command, archive, folder, links, [*options, *words])
            reached = [folder] if places is None else places
            if (reason := _made_link_refusal(found, reached, below=places is None)) is not None:
                return reason
            if places is None:
                if (spelling := _holding(folder, held)) is not None:
                    return (
                        f"{REFUSAL_PREFIX}the command unpacks an archive into "
                        f"{shown_path(spelling)}, "
                        "which holds the memory service's data dir (or the hooks' Session "
                        "records), and the guard cannot list it "
                        f"({shown_path(archive or 'its standard input')}): its members' names may "
                        "reach every scope. Unpack it into "
                        "a folder of its own (tar -C, unzip -d), or from a file the guard can "
                        f"read (tar, gzip, bzip2, xz or zip, at most {ARCHIVE_BYTES_CAP} bytes, "
                        "without --transform)"
                    )
                writes = writes_members(command, words)
                if writes:
                    unlisted.append((folder, archive))  # judged after the command's paths
                if (
                    reason := _after_unknown(unknown, [folder], archive, both_ways=True)
                ) is not None:
                    return reason
                if writes:
                    unknown.append(os.path.realpath(folder))
                continue
            if len(places) > PATHS_CAP:
                return over_caps(places)
            if (reason := _after_unknown(unknown, places, archive, both_ways=False)) is not None:
                return reason
            for place in places:
                reason = records_refusal(place, folder, judge.records, judge.table)
                if reason is not None:
                    return reason
                decision = check_write(
                    place,
                    memory_root=judge.memory_root,
                    workspace_key=judge.key,
                    mounts=judge.table,
                )
                if not decision.allowed:
                    return (
                        f"{REFUSAL_PREFIX}{decision.reason} ({shown_path(place)}, where a member "
                        f"of {shown_path(archive or '')} lands when it is unpacked)"
                    )
    return _through_unpacked_refusal(found, judge, links, unknown)


def _through_unpacked_refusal(
    found: ShellPaths, judge: _Judge, links: ArchiveLinks, unknown: list[str]
) -> str | None:
    """The refusal of a command writing a path through a symlink an archive it unpacks makes
    (``tar -xf a.tar && echo x > lnk/a.md``, a member ``lnk -> <other scope>``): judged
    where the link leads (``links``: the listed archives' symlink members); or writing a path
    below a folder in ``unknown`` (real), where an archive the guard cannot list is unpacked
    (any member there may be such a link, so where the path lands is known only when the
    command runs). Order is not read: a path the command writes before the unpack is judged
    the same, the wider reading. None when no written path goes through either (P-3)."""
    written = _written_paths(found)
    for path in written if links.links else []:
        for spelled in dict.fromkeys((os.path.normpath(path), os.path.realpath(path))):
            pointed = links.links.get(spelled)  # the link itself: written through to its file
            place = links.landing(spelled if pointed is None else pointed)
            if place == spelled:
                continue
            decision = check_write(
                place, memory_root=judge.memory_root, workspace_key=judge.key, mounts=judge.table
            )
            if not decision.allowed:
                return (
                    f"{REFUSAL_PREFIX}{decision.reason} ({shown_path(place)}, where "
                    f"{shown_path(path)} lands through a symlink an archive the command unpacks "
                    "makes)"
                )
    for path in written if unknown else []:
        real = os.path.realpath(path)
        folder = next((f for f in unknown if real.startswith(f.rstrip("/") + "/")), None)
        if folder is not None:
            return (
                f"{REFUSAL_PREFIX}the command writes {shown_path(path)} below "
                f"{shown_path(folder)}, "
                "where it unpacks an archive the guard cannot list: any member there may be "
                "a symlink the write goes through, so where it lands is known only when the "
                "command runs, and it could be another Workspace's memory scope. Write it in "
                "a command of its own after the unpack"
            )
    return None


def _too_big(found: ShellPaths) -> str:
    """What the refusal of a write built at run time adds when the command moves or copies a
    folder too big to read for its links (``MadeLink.why``): a write into it is taken as
    through a link to a place known only at run time; empty when it moves none (P-3)."""
    why = next((link.why for link in found.links.values() if link.why), None)
    if why is None:
        return ""
    return (
        f". The command moves or copies {shown_path(why)}: a write into it is taken as through "
        "such a link; move or copy the folder in a command of its own, then write into it"
    )


def _made_link_refusal(found: ShellPaths, places: list[str], *, below: bool) -> str | None:
    """The refusal of an unpack whose member lands at one of ``places`` (``below``: anywhere
    below the one folder an archive the guard cannot list fills) through a link the command
    makes to a place built at run time (``ln -s "$(cat f)" lnk; tar -xf a.tar`` with a
    member ``lnk/a.md``), or None (P-3)."""
    for place in places if found.links else []:
        link = unknown_below(place, found.links) if below else unknown_link(place, found.links)
        if link is not None:
            return (
                f"{REFUSAL_PREFIX}the command unpacks an archive whose members may land through "
                f"a link the command makes to a place built at run time ({shown_path(place)}, "
                f"through a link to {shown_path(link.spelt)}): where they land cannot be known "
                "before the command runs, and it could be another Workspace's memory scope. "
                "Link to a literal path, or unpack into a folder of its own"
            )
    return None


def _unlisted_refusal(
    folder: str, archive: str | None, judge: _Judge, roots: set[str]
) -> str | None:
    """The refusal of an archive the guard cannot list (``archive``: None for standard input)
    unpacked into ``folder``, when a member of any name could reach the memory root, the
    Session records or the service's own folders from there
    (:func:`~harness_memory.hooks.archive_members.exit_reaching`: the folder itself, a symlink
    or a mount below it); None when none can (P-3)."""
    places = [roots, judge.records, _service_folders(roots)]

    def reaches(place: str) -> bool:
        return any(could_reach(place, folders, judge.table) for folders in places if folders)

    points = [mount.point for mount in judge.table.mounts]
    reached, through = exit_reaching(folder, reaches, points)
    if not reached:
        return None
    where = (
        f"through {shown_path(through)}, which could lead into memory"
        if through is not None
        else f"and what lies below {shown_path(folder)} cannot all be read (more than "
        f"{EXITS_SCAN_CAP} entries, or a folder it may not read): unpack it into a fresh "
        "folder instead (mkdir x && tar -C x …, unzip -d x), which holds nothing yet"
    )
    return (
        f"{REFUSAL_PREFIX}the command unpacks an archive the guard cannot list "
        f"({shown_path(archive or 'its standard input')}) into {shown_path(folder)}: its "
        "members may "
        f"take any name there, {where}. Unpack it into a folder of its own holding no symlink "
        "(tar -C, unzip -d), or from a file the guard can read (tar, gzip, bzip2, xz or zip, "
        f"at most {ARCHIVE_BYTES_CAP} bytes, without --transform)"
    )


_OPTION_VARIABLES = {"tar": ("TAR_OPTIONS",), "unzip": ("UNZIP", "UNZIPOPT")}
"""The variables an unpacking program takes options from before its own words."""


def _options_set_here(found: ShellPaths) -> set[str]:
    """The unpacking programs (``tar``, ``unzip``) whose option variables
    (:data:`_OPTION_VARIABLES`) the command sets to a value that may move a member (built at
    run time, or other than :func:`_moves_no_member`'s): their archives are unknown, since
    which of their runs the value reaches is not read here."""
    moved: set[str] = set()
    for command, names in _OPTION_VARIABLES.items():
        for name, shown, run_time in found.settings_moved:
            if name in names and (run_time or not _moves_no_member(command, shown)):
                moved.add(command)
    return moved


_KEEPING_TAR_OPTIONS = frozenset(
    {"--no-same-owner", "--no-same-permissions", "--same-owner", "-p", "--numeric-owner"}
    | {"--preserve-permissions", "--no-overwrite-dir", "--keep-old-files", "-k", "-v", "-m"}
    | {"--skip-old-files", "--overwrite", "--verbose", "--touch", "--delay-directory-restore"}
    | {"--ignore-zeros", "-i", "--wildcards", "--no-wildcards", "--totals", "--exclude-vcs"}
)
"""``TAR_OPTIONS`` words that change no member's place (owners, modes, what is kept)."""
_KEEPING_TAR_PREFIXES = ("--warning=", "--exclude=", "--quoting-style=")
_KEEPING_UNZIP_RE = r"^-[qonufaCLXVbKMT]+$"
"""``UNZIP`` words that change no member's place (quiet, overwrite, case, modes)."""


def _moves_no_member(command: str, assignment: str) -> bool:
    """Whether the literal value of ``assignment`` (``TAR_OPTIONS=…``, ``export UNZIP=…``)
    holds only options that change no member's place (:data:`_KEEPING_TAR_OPTIONS`,
    :data:`_KEEPING_UNZIP_RE`): then it is read as none."""
    try:
        words = split_words(assignment.partition("=")[2])
    except ValueError:
        return False
    if command == "unzip":
        return all(re.match(_KEEPING_UNZIP_RE, word) for word in words)
    return all(
        word in _KEEPING_TAR_OPTIONS or word.startswith(_KEEPING_TAR_PREFIXES) for word in words
    )


def _environment_options(command: str, environ: Mapping[str, str]) -> list[str] | None:
    """The words ``tar`` takes from ``TAR_OPTIONS`` (``unzip`` from ``UNZIP`` and
    ``UNZIPOPT``) in ``environ`` before its own (``--strip-components``, ``--transform``,
    ``-j`` change where members land); None when they cannot be split."""
    value = " ".join(environ.get(name, "") for name in _OPTION_VARIABLES.get(command, ()))
    if not value.strip():
        return []
    try:
        return split_words(value)
    except ValueError:
        return None


def _after_unknown(
    unknown: list[str], places: list[str], archive: str | None, *, both_ways: bool
) -> str | None:
    """The refusal of an unpack whose ``places`` (its members', or with ``both_ways`` the
    folder it unpacks into, whose members may reach any folder below or above it) pass into
    a folder of ``unknown``, where an archive the guard cannot list was unpacked earlier in
    the command (its symlinks may lead anywhere); None otherwise."""
    for folder in unknown:
        inside = folder.rstrip("/") + "/"
        for place in places:
            real = os.path.realpath(place) if both_ways else place
            above = both_ways and inside.startswith(real.rstrip("/") + "/")
            if real == folder or real.startswith(inside) or above:
                return (
                    f"{REFUSAL_PREFIX}the command unpacks an archive the guard cannot list "
                    f"into {shown_path(folder)} and then unpacks "
                    f"{shown_path(archive or 'its standard input')} there: the first one's "
                    "symlinks are not known, and the second's members may pass through them "
                    "into another scope. Unpack them in commands of their own, or from files "
                    "the guard can read"
                )
    return None


def _held_folders(roots: set[str], records: set[str]) -> list[str]:
    """The data dirs of the memory ``roots`` (the roots when none is known) and the folders
    holding the Session ``records``: what a folder above them holds."""
    data_dirs = [app_data_dir_of(Path(root)) for root in roots]
    held = [os.fspath(found) for found in data_dirs if found is not None] or sorted(roots)
    return [*held, *(os.path.dirname(folder) for folder in records)]  # noqa: PTH120


def _holding(path: str, folders: list[str]) -> str | None:
    """``path`` (spelled or resolved) when it is the home or a folder above it holding one of
    ``folders``; None otherwise."""
    if not is_usable_path(path):
        return None
    home = os.path.normpath(Path.home())
    spelled = os.path.normpath(path)
    for spelling in dict.fromkeys((spelled, real_or_none(path) or spelled)):
        if spelling != home and not home.startswith(spelling.rstrip("/") + "/"):
            continue
        inside = spelling.rstrip("/") + "/"
        if any(folder.startswith(inside) for folder in folders):
            return spelling
    return None


def _names_match(folders: list[str], names: tuple[tuple[bool, str], ...]) -> bool:
    """Whether a file or folder below ``folders`` (or one of the folders on their way) has a
    name matching every ``-name`` pattern (``-iname``: in any letter case) of a ``find``, as
    :func:`fnmatch.fnmatchcase` reads them (``*`` matches a leading dot, as GNU find's does).
    True past :data:`~harness_memory.names.NAMES_CAP` entries or when a folder in them cannot
    be read: a read error never widens access."""

    def matches(name: str) -> bool:
        return all(
            fnmatch_case(
                name if exact else name.casefold(), pattern if exact else pattern.casefold()
            )
            for exact, pattern in names
        )

    seen = 0
    for folder in folders:
        if any(matches(part) for part in PurePath(folder).parts[1:]):
            return True
        pending = [folder]
        while pending:
            try:
                with os.scandir(pending.pop()) as entries:
                    for entry in entries:
                        seen += 1
                        if seen > NAMES_CAP or matches(entry.name):
                            return True
                        if entry.is_dir(follow_symlinks=False):
                            pending.append(entry.path)
            except FileNotFoundError:
                continue
            except OSError:
                return True
    return False


_GLOB = frozenset("*?[")


def could_name_a_scope(word: str, key: str | None, *, globs: bool = True) -> bool:
    """Whether a relative ``word`` whose folder is unknown could name a file of another scope
    (P-3): a part shaped like a Workspace key (K-7) other than ``key``, the ``.workspace``
    marker (any letter case), or, with ``globs``, a glob (it could match any of them)."""
    for part in PurePath(word).parts:
        if (globs and _GLOB.intersection(part)) or part.casefold() == MARKER_FILE:
            return True
        if part not in (key, USER_SCOPE) and SCOPE_KEY_RULE.accepts(part):
            return True
    return False


def _service_folders(roots: set[str]) -> set[str]:
    """The memory service's own top folders of the data dir that holds the memory root (spelled
    and resolved, :data:`memory_core.layout.SERVICE_FOLDERS`) but ``agents/``: the memory root
    lies in it, so a prefix that could reach it is refused already, and temporary Workspaces
    (``agents/<id>/workspaces/``), where agents work, lie in it too."""
    folders: set[str] = set()
    for root in roots:
        data_dir = app_data_dir_of(Path(root))
        if data_dir is not None:
            folders.update(
                os.fspath(data_dir / name) for name in SERVICE_FOLDERS if name != AGENTS_DIR
            )
    return folders


def _scope_folder(path: str, roots: set[str], mounts: MountTable) -> tuple[str, ...] | None:
    """``path``'s parts below the memory root (spelled ``roots``) when it lands there, by its
    real path or under another name (a bind mount of the root or of a scope folder); None
    when it lands elsewhere or where cannot be known."""
    real = real_or_none(path)
    if real is None:
        return None
    for root in roots:
        if PurePath(real).is_relative_to(root):
            return PurePath(real).relative_to(root).parts
    for root in roots:
        if (found := below_under_another_name(real, root, mounts)) is not None:
            return found
    return None


def _lies_in(folder: str, roots: set[str], mounts: MountTable) -> bool:
    """Whether ``folder`` is one of ``roots`` or lies below one, spelled, resolved or under
    another name in this decision's ``mounts`` (unlike :func:`could_reach`, a folder holding a
    root is not in it)."""
    real = real_or_none(folder)
    if real is None:
        return True  # a symlink on its way cannot be read: it could lead anywhere
    for root in roots:
        for spelled in (os.path.normpath(folder), real):
            if f"{spelled}/".startswith(root.rstrip("/") + "/"):
                return True
        if below_under_another_name(real, root, mounts) is not None:
            return True
        if unseen_by_mount(real, root, mounts):
            return True
    return False
