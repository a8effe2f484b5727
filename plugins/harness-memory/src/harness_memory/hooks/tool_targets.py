"""The paths a coding agent's tool call would write, for the P-3 guard and the post-write
hook (V-1), harness-neutral.

Each harness adapter turns one tool call into a
:class:`~harness_memory.hooks.tool_writes.ToolWrites`: the paths a file tool or a
patch names, and the texts (a shell command, an MCP tool's arguments) in which any word may be
a path. The guard judges them before the call runs, the post-write hook after it ran.

Codex CLI and Gemini CLI write files through tools that take no single ``file_path``:

- a patch (Codex's ``apply_patch``) names every file it adds, updates, deletes or moves to on
  ``*** Add File:``, ``*** Update File:``, ``*** Delete File:`` and ``*** Move to:`` lines,
  indented ones included: Codex trims a header before it reads it
  (:func:`~harness_memory.hooks.tool_writes.patch_targets`).
  The ``apply_patch`` program a shell runs takes its patch as its argument or on its standard
  input: a literal file there (``apply_patch < p.diff``, ``cat p.diff | apply_patch``) is read
  before the command runs, unless the command writes it or runs a program first that may; a
  patch known only when it runs (a pipe from another program, ``xargs``, ``find -exec``,
  ``"$P"``, a file over the cap or read through ``/proc/self``, a file line built at run
  time, a ``cat`` the command defines) is returned in ``fed_patches`` with the folder it runs
  in, which the guard refuses in any folder (a file line may be an absolute path into any
  scope); a program named at run time given standard input is read as ``apply_patch``;
- a shell command (Claude Code's ``Bash``, Codex's ``Bash``/``exec_command``, Gemini's
  ``run_shell_command``), and any text an MCP tool takes, can name a path anywhere.
  :func:`shell_paths` reads it the way the shell and the kernel will: words split and unquoted
  as bash does (``$'…'``, ``$"…"``, line continuations), a word holding white space read again
  as a command (``sh -c '…'``, ``eval``), a short option glued to a path taken as that path,
  ``~`` forms and known variables expanded (the environment, and assignments
  earlier in the command), braces expanded (``{a,b}``, ``{1..3}``), globs expanded against the
  filesystem (the word as written judged too: its pattern may have been quoted), relative
  words taken from the working directory (followed through ``cd``). Each
  resulting path goes to :func:`harness_memory.guard.check_write`, which folds ``//``, ``/./``
  and ``..`` and resolves symlinks, so ``…/./memory/…``, ``…//memory/…``, a glob, a brace or a
  Workspace symlink into another scope is judged where it lands.

A default (``${NAME:-word}`` and its kin ``-``, ``=``, ``:=``, ``+``, ``:+``) is picked as bash
picks it, in a word and in an assignment's value alike (``out=${OUT:-dist}; cp a "$out/"``,
``: "${OUT:=dist}"``): the variable's value when an assignment earlier in the command or the
harness's environment (the one the shell starts with) sets it, else the default's word (its
literal text and plain variables: ``${PREFIX:-$HOME/.local}``). The place picked is then judged
as a literal path is, so a default or an environment value naming another scope, the marker or
a name the service cannot address (K-7) is refused, and a build folder passes. A default still
undecided is one holding a command substitution or an operator, of a variable assigned one, of
a positional parameter (``${1:-dist}``: a function's argument), or whose value holds an
expansion; a place written through it is refused as built at run time. Only an assignment bash
surely runs before the word, in the shell that expands it, decides a variable: a statement of
its own, not after ``&&``/``||``, outside a pipeline and the background, and only in the group
it stands in; a prefix (``X=dist true``), a branch, a subshell, a function's body, ``read X``,
``unset X`` and the like leave it undecided (:func:`~harness_memory.hooks.shell_statements.
unsettled_names`), never the environment's value. A known limit: a variable the harness's
environment lacks may still be set by the shell's startup files (``~/.profile`` under Codex's
``bash -lc``, ``BASH_ENV``); it is read as unset, its default picked (``out=${OUT:-dist}``
passes), as a script the guard cannot read is not read: of the same class, the user's own
files.

A word that cannot be decided here — command substitution (``$(…)``, backquotes), a variable
neither set nor assigned, ``${…}`` with an operator — is returned apart with its literal
prefix; the guard refuses it when that prefix is inside the memory root or could still become
it. A word with nothing literal before its first expansion (``$(…)/<key>/a.md``,
``$X/<key>/a.md``), the literal text glued after a command substitution (``$(…)<rest>``) and the
words inside one (``$(printf '\x2f%s' 'm/<key>/a.md')``) may become a path anywhere: they are
returned in ``built``, and the guard refuses one naming another scope's key or the marker.

A place the command surely writes (a redirection's target, a :data:`WRITERS` operand, a
:data:`DESTINATION_WRITERS` destination, ``dd of=``) that the shell builds at run time from what
cannot be read here is returned in ``written_at_run_time``, whatever it names: the guard refuses
it. ``$(mktemp)`` and name-only substitutions (``$(date +%F)``, ``$(nproc)``) are read as what
they print first, and a ``for`` loop's variable over words read here takes those values. A
link the command makes (``ln -s "$(cat f)" lnk``, :mod:`~harness_memory.hooks.made_links`)
makes a place through it built at run time too, for the words after it; one with a literal
target is followed where the kernel will. Globs
are expanded by a counted scan (:data:`GLOB_SCAN_CAP` entries per command). The programs the
command runs whose writes the guard cannot read are returned in ``programs``
(:mod:`~harness_memory.hooks.unread_programs`: the guard refuses one where the text names memory
it may not write). What stays unseen: a path such a program builds from what the text does not
show (a file it reads, ``xargs -I{}`` fed from one) — the harness README says what fences those.
"""

from __future__ import annotations

import enum
import errno
import functools
import itertools
import os
import posixpath
import pwd
import re
import shutil
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from pathlib import Path, PurePath
from typing import NamedTuple

from memory_core.keys import real_or_none

from harness_memory.hooks.archive_members import archive_operand, unlisted_unpack
from harness_memory.hooks.bash_quoting import bash_quoting
from harness_memory.hooks.code_sources import CODE_PRINTERS as _CODE_PRINTERS
from harness_memory.hooks.code_sources import DOWNLOADERS, stage_unread, unread_substitution
from harness_memory.hooks.definitions import (
    Definitions,
    plain_text,
    read_definitions,
    with_ansi_c_decoded,
)
from harness_memory.hooks.find_reach import (
    Bounds,
    Reach,
    bounds,
    find_actions,
    follows,
    leading_options,
    only_reads,
    parsed,
)
from harness_memory.hooks.git_toplevel import with_toplevel
from harness_memory.hooks.glob_match import bash_match, fnmatch_case
from harness_memory.hooks.here_data import (
    OPERATOR_CAP,
    SHELLS,
    HereData,
    closing_bracket,
    here_data,
    is_arithmetic,
)
from harness_memory.hooks.in_place import (
    backup_name,
    backup_suffix,
    code_edits_in_place,
    edited_files,
    sed_prints_only,
    sed_written_files,
)
from harness_memory.hooks.link_texts import (
    RUNNERS,
    link_text,
    links_by_arguments,
    local_imports,
    reads_text,
)
from harness_memory.hooks.loop_words import loop_names, loops_unrolled
from harness_memory.hooks.made_links import (
    LINK_MAKERS,
    MadeLink,
    MadeLinks,
    add_links,
    followed,
    made_links,
    unknown_link,
)
from harness_memory.hooks.named_scripts import (
    FOLDER_CHANGER_RE,
    SCRIPT_FOLLOW_CAP,
    SCRIPT_SHELLS,
    read_script,
    script_file,
    script_folders,
)
from harness_memory.hooks.option_words import (
    CP_TREE,
    FIND_RUNNING,
    INTERPRETERS,
    TABLES,
    ReadOptions,
    cp_flags,
    interpreter_table,
    option_values,
    read_options,
    table_for,
)
from harness_memory.hooks.piped_code import PipedCode, piped_code, substitution_opened
from harness_memory.hooks.program_settings import (
    PROGRAM_VARIABLES,
    is_settings_variable,
)
from harness_memory.hooks.run_texts import commands_run, sed_script_files, texts_run
from harness_memory.hooks.run_time_names import existing_names
from harness_memory.hooks.script_writers import (
    GIT_VALUED,
    PATCHERS,
    also_written,
    built_programs,
    git_rewritten,
    only_read,
    patched,
    python_unpacked,
    sed_run_texts,
)
from harness_memory.hooks.shell_arrays import WORDS_RUN_RE, arrays_spelt
from harness_memory.hooks.shell_comments import WORD_ENDS as _WORD_ENDS
from harness_memory.hooks.shell_comments import comment_at
from harness_memory.hooks.shell_operands import STDIN_SCRIPTS, shell_run
from harness_memory.hooks.shell_startup import (
    STARTUP_SHELLS,
    script_operand,
    shell_home,
    startup_files,
)
from harness_memory.hooks.shell_statements import CHOICES_CAP, Scopes, read_names
from harness_memory.hooks.shell_words import PUNCTUATION, split_words
from harness_memory.hooks.split_substitutions import split_words_run, without_printers
from harness_memory.hooks.startup_definitions import (
    StartupTexts,
    startup_definitions_text,
    startup_redefines,
    startup_texts,
)
from harness_memory.hooks.synced_trees import SYNCERS, rsync_options, synced
from harness_memory.hooks.tool_writes import patch_files
from harness_memory.hooks.unread_programs import (
    ONLY_READERS,
    PROGRAM_OPTIONS,
    READ_PROGRAMS,
    RUNNING_VARIABLES,
    is_read,
    writes_operands,
)
from harness_memory.hooks.wrapped_commands import ASSIGNMENT_RE as _ASSIGNMENT_RE
from harness_memory.hooks.wrapped_commands import DURATION_RE as _DURATION_RE
from harness_memory.hooks.wrapped_commands import WRAPPER_ARGUMENTS as _WRAPPER_ARGUMENTS
from harness_memory.hooks.wrapped_commands import WRAPPER_OPERANDS as _WRAPPER_OPERANDS
from harness_memory.hooks.wrapped_commands import WRAPPERS as _WRAPPERS
from harness_memory.hooks.wrapped_commands import past_wrappers as _past_wrappers

__all__ = [
    "DESTINATION_WRITERS",
    "GLOB_SCAN_CAP",
    "IN_PLACE_EDITORS",
    "MAYBE_PATCHER",
    "OPTION_DESTINATIONS",
    "READ_AS",
    "WRITERS",
    "ShellPaths",
    "extglob_groups",
    "new_text_words",
    "shell_paths",
]

MAYBE_PATCHER = "its program is named at run time, so it may be apply_patch"
"""How a fed patch is said when the program given it is named at run time (``$PAGER`` unset,
``"$@"``): read as ``apply_patch`` (fail closed), and said so, since the command names none."""

# Characters that end a path inside one shell word: assignments (OUT=/x), redirections (>/x),
# separators the lexer left attached, command substitution, quotes the fallback split kept.
_WORD_SPLIT_RE = r"[=<>;|&()'\"]+"
_VARIABLE_RE = r"\$(?:\{(?P<braced>[^}]*)\}|(?P<plain>[A-Za-z_][A-Za-z0-9_]*))"
_UNBRACED_VARIABLE_RE = r"\$(?:(?P<braced>(?!))|(?P<plain>[A-Za-z_][A-Za-z0-9_]*))"
""":data:`_VARIABLE_RE` where no ``}`` follows: its ``braced`` group never matches."""
_NAME_RE = r"^[A-Za-z_][A-Za-z0-9_]*$"
_GLUED_OPTION_RE = r"(?s)^-(?P<letters>[A-Za-z]+)[^A-Za-z]*[/~]"
"""A short option (or a few) glued to a path holding a ``/`` (``-t/dir``, ``-vo../x``): each
rest after an option letter may be the path the program writes."""
_SEPARATORS = {";", "&&", "||", "|", "&", "(", ")", "{", "}", "then", "do", "else", "!", "\n"}
_CD_WORDS = {"cd", "pushd"}
_UNKNOWN_FOLDER_WORDS = {"-execdir", "-okdir"}
"""``find`` options that run their command in each found file's folder."""
_GLOB_CHARS = r"[*?\[]"
_PATTERN_CHARS = r"[*?\[{]"
"""A glob's characters or a brace expansion's ``{``: a removed word holding one may take any
name in its folder (``rm -rf sub/{d,e}``)."""
_PUNCTUATION = r"^[;&|()<>]+$"
"""A token the lexer made of punctuation characters alone (``)``, ``);``, ``&&`` …)."""
_GLUED_SEPARATOR = r"^\)+(?:;|&&|\|\||\|&?|&(?!>))"
"""A ``)`` the lexer glued to the separator after it (``);``, ``)&&``, ``)|``): it ends the
command too (``eval $(cat s); echo x > a.md``), unlike ``)>`` or ``)&>`` (a redirection)."""


def _separates(word: str) -> bool:
    """Whether the lexer's ``word`` ends a simple command: a separator (:data:`_SEPARATORS`)
    alone or glued after a ``)`` (:data:`_GLUED_SEPARATOR`)."""
    return word in _SEPARATORS or (
        re.match(_PUNCTUATION, word) is not None and bool(re.match(_GLUED_SEPARATOR, word))
    )


_BRACE_CAP = 256  # words one brace expression may become; past it the word is undecided


class ShellPaths:
    """What a command names: ``paths`` (absolute, after every expansion the shell would make),
    ``undecided`` (the absolute literal prefix of each word that cannot be decided here) and
    ``unanchored`` (relative words met after the shell went into a folder that cannot be
    decided here: ``cd $(…)``, ``find … -execdir``; they may land anywhere) and ``derived``
    (the folder a variable's known value lies in when a pattern expansion, ``${X/a/b}``,
    ``${X%…}``, may change the rest of it at run time: the result may name anything in it) and
    ``built`` (text that becomes part of a path built at run time, with nothing literal before
    it: a word starting with an expansion, the text glued after ``$(…)`` or a backquote, every
    word inside a command substitution; it may land anywhere).

    ``written_at_run_time`` holds the words the command surely writes (a redirection's target,
    an operand of a file-writing command: :data:`WRITERS`) whose place the shell builds at
    run time from what this cannot read (``$(…)``, a backquote, a variable set from one or
    unset, a relative path after a ``cd`` into such a folder): where they land cannot be known.
    ``fed`` holds each ``xargs`` handing a writer the guard reads the places it writes from
    the names it reads at run time (:func:`_fed_places`: ``xargs cp note.md < list``).
    ``fed_patches`` holds, for each Codex ``apply_patch`` run with a patch the guard cannot
    read before it runs (:meth:`_Writes.note_fed_patch`), the literal start of the places it
    may write (its folder, a file line's path before what is built at run time) and how the
    patch reaches it.
    ``split`` holds each unquoted expansion bash splits into words of a command's name or
    of options the guard never read (:func:`~harness_memory.hooks.split_substitutions.
    split_words_run`: ``$(cat f)``, ``find . $(cat f)``), as written. ``unread_code`` holds
    each command substitution whose output ``eval`` or ``source`` runs as code, neither printed
    by a :data:`_CODE_PRINTERS` program nor one file's text read exactly (:func:`_code_files`),
    as spelt: code known only at run time (review59 finding 8).
    ``over_scan`` is True when a glob read more folder entries than :data:`GLOB_SCAN_CAP`, or
    a name printed at run time matched past what the guard reads (:func:`_add_existing_names`).
    ``moved`` holds the absolute paths a command renaming what it names takes as operands
    (``mv ~ /tmp/x``; not its destination, which it moves things into), and ``swept`` those a
    command removing, hard-linking or acting on everything below takes (``rm -rf ~``,
    ``cp -al ~ /tmp/x``, ``find ~ … -delete``/``-exec``: :data:`MOVERS`), as known here;
    ``sifted`` holds a ``find``'s start folders whose actions reach only names matching its
    ``-name``/``-iname`` patterns (each with whether letter case counts), ANDed.
    ``programs`` holds the programs the command runs whose writes the guard cannot read
    (:func:`~harness_memory.hooks.unread_programs.is_read`: ``python3``, ``./run.sh``), as
    spelled. ``settings_readers`` holds each program run whose written places a variable or a
    settings file of its own changes (``curl``'s ``.curlrc``, ``wget``'s ``.wgetrc``, ``tar``'s
    ``TAR_OPTIONS``: :data:`~harness_memory.hooks.program_settings.PROGRAM_VARIABLES`) with
    the folder it runs in, and ``settings_moved`` each assignment of such a variable (its
    name, as spelled, and whether its value is built at run time: ``HOME=…``, ``export
    TMPDIR="$(…)"``, ``read TMPDIR``). ``run_in_unknown`` holds the programs the guard
    reads that write into their folder by themselves (:data:`FOLDER_WRITERS`: ``curl -O``,
    ``tar -x``) run after a ``cd`` into a folder known only at run time, and
    ``lost_programs`` the programs the guard does not read run there; ``unbounded`` the
    unpacking commands that take absolute or ``..`` names from their archive (``tar -xP``,
    ``unzip -:``). ``unpacked`` holds each extracting ``tar`` or ``unzip``: its name, the
    archive it reads (absolute; None for its standard input, a ``$`` left in one built at run
    time), the folders it unpacks into (its members may reach any folder below them) and
    its words (``--strip-components``, ``--transform``). ``mentioned`` holds every word of a
    command other than ``git`` or one only reading
    (:data:`~harness_memory.hooks.unread_programs.ONLY_READERS`) and every redirection's
    target, as written and expanded; ``written`` only the places the command may write: a
    redirection's target, a file-writing command's written operands (a copy's destination,
    and the name each source takes in a destination folder), and every word of a program
    whose writes the guard cannot read (``python3 -c '…'``; not ``source`` or ``.``, which
    read), each as written and expanded (``~`` and known variables). ``only_read`` holds the
    paths of the words of commands that only read them
    (:data:`~harness_memory.hooks.unread_programs.ONLY_READERS`: ``cat r.sh``), each also in
    ``paths``. ``named`` holds the absolute paths of the files the command creates or rewrites
    by that name, known here (a redirection's target, ``tee``'s, ``touch``'s, ``cp``'s
    destination and the name a source takes in a destination folder; not what ``rm`` removes):
    the guard holds each name to K-7 in a scope it may write. ``scripts`` holds each script file
    a command runs: how (``source`` for ``.`` and
    ``source``, ``shell`` for a shell's script operand, ``bash x.sh``, ``run`` for a program
    named by its path, ``./x.sh``), the folder it runs in, the word as spelled and the path
    (``fed`` for a file fed to a shell reading its code from standard input: ``bash < x.sh``,
    ``cat x.sh | bash``; ``~`` and known variables expanded, relative as written; None when
    built at run time)
    and whether the command runs it itself (False: a command inside one of its words, ``bash
    -ic 'source ./x.sh'``, whose shell may be another sort). ``links`` holds the links the
    command makes (``ln -s``, ``cp -s``, ``ln``), keyed by the link's absolute path
    (:func:`~harness_memory.hooks.made_links.made_links`): a later word through one is judged
    where it leads, or as built at run time when its target is; ``linked_programs`` each
    program the guard does not read run on a word through such a link whose target is read
    from data (``ln -s "$(cat f)" l && python3 w.py l/a.md``), with that word.
    ``after_linker`` holds each place written after a program that may make a link ran in the
    command (``linker``, the first: the program and what shows it may,
    :mod:`~harness_memory.hooks.link_texts`), which or whose folder is not there yet (the
    program may have made it a link), with that program, what shows it and which of the two
    is missing (``"which"``, ``"whose folder"``). ``textless`` holds those of
    ``written`` a mode or owner changer (:data:`MODE_CHANGERS`: ``chmod +x gradlew``), ``touch``
    or a remover (``rm -f app``) writes, or an interpreter runs as its script (``python3 mk.py``),
    as written and expanded: it gives them no new text (a
    script the command runs after it is read from disk as ever, or is gone); ``compiled``
    those only a compiler or ``make`` writes as the program it builds
    (:func:`~harness_memory.hooks.script_writers.built_programs`: ``gcc -o app``), as
    written; ``redirected`` those the shell
    itself writes by a redirection (``> s.sh``), as written and expanded. ``revised`` holds the
    files a git command rewrites by path or a patch writes (:func:`~harness_memory.hooks.
    script_writers.git_rewritten`: ``git checkout -- s.sh``; ``*`` for ``patch``, ``git
    apply``: any file), expanded where known, besides ``written``. ``guessed`` holds the words
    of ``written`` a program the guard does not read is given (it may write any of them): in a
    data word read as a command (``echo "Running run.sh"``) they are ``textless`` too, no
    program running there. ``replaced_unknown`` is
    True once a command removed or moved a place built at run time (``rm -rf "$(cat f)"``):
    any folder may be gone after it.
    A plain class: ``dataclasses`` imports ``inspect``, too much for a guard process (H-5)."""

    __slots__ = (
        "after_linker",
        "budget",
        "built",
        "compiled",
        "configured",
        "derived",
        "extglob_groups",
        "fed",
        "fed_patches",
        "given_refused",
        "guessed",
        "linked_programs",
        "linker",
        "links",
        "lost_programs",
        "mentioned",
        "moved",
        "named",
        "only_read",
        "over_scan",
        "paths",
        "programs",
        "reached",
        "redirected",
        "replaced_unknown",
        "revised",
        "run_in_unknown",
        "scripts",
        "settings_moved",
        "settings_readers",
        "sifted",
        "split",
        "swept",
        "textless",
        "unanchored",
        "unbounded",
        "undecided",
        "unpacked",
        "unread_code",
        "written",
        "written_at_run_time",
    )

    def __init__(self) -> None:
        self.built: list[str] = []
        self.derived: list[str] = []
        self.paths: list[str] = []
        self.undecided: list[str] = []
        self.unanchored: list[str] = []
        self.written_at_run_time: list[str] = []
        self.fed: list[str] = []
        self.fed_patches: list[tuple[str, str]] = []
        self.given_refused: list[str] = []  # words given to fetched code it cannot judge
        self.moved: list[str] = []
        self.swept: list[str] = []
        self.sifted: list[tuple[str, tuple[tuple[bool, str], ...]]] = []
        self.reached: list[Reach] = []
        self.programs: list[str] = []
        self.settings_readers: list[tuple[str, str]] = []
        self.settings_moved: list[tuple[str, str, bool]] = []
        self.run_in_unknown: list[str] = []
        self.unbounded: list[str] = []
        self.configured: list[tuple[str, str, list[str], dict[str, str]]] = []
        self.mentioned: list[str] = []
        self.written: list[str] = []
        self.textless: list[str] = []
        self.guessed: list[str] = []
        self.compiled: list[str] = []
        self.redirected: list[str] = []
        self.revised: list[str] = []
        self.named: list[str] = []
        self.lost_programs: list[str] = []
        self.unpacked: list[tuple[str, str | None, list[str], list[str]]] = []
        self.only_read: list[str] = []
        self.scripts: list[tuple[str, str, str, str | None, bool]] = []
        self.links = MadeLinks()  # with the real paths looked up for them: one per path
        self.linked_programs: list[tuple[str, str]] = []
        self.after_linker: list[tuple[str, str, str, str]] = []
        self.linker: tuple[str, str] | None = None
        self.replaced_unknown = False
        self.over_scan = False
        self.split: list[str] = []
        self.unread_code: list[str] = []
        self.extglob_groups: list[str] = []
        self.budget = _ScanBudget()

    def take(self, inner: ShellPaths) -> None:
        """Add what ``inner`` (a command read inside a word of this one) names."""
        self.paths.extend(inner.paths)
        self.undecided.extend(inner.undecided)
        self.unanchored.extend(inner.unanchored)
        self.derived.extend(inner.derived)
        self.built.extend(inner.built)
        self.written_at_run_time.extend(inner.written_at_run_time)
        self.fed.extend(inner.fed)
        self.fed_patches.extend(inner.fed_patches)
        self.given_refused.extend(inner.given_refused)
        self.moved.extend(inner.moved)
        self.swept.extend(inner.swept)
        self.sifted.extend(inner.sifted)
        self.reached.extend(inner.reached)
        self.programs.extend(inner.programs)
        self.settings_readers.extend(inner.settings_readers)
        self.settings_moved.extend(inner.settings_moved)
        self.run_in_unknown.extend(inner.run_in_unknown)
        self.unbounded.extend(inner.unbounded)
        self.configured.extend(inner.configured)
        self.mentioned.extend(inner.mentioned)
        self.written.extend(inner.written)
        self.textless.extend(inner.textless)
        self.guessed.extend(inner.guessed)
        self.compiled.extend(inner.compiled)
        self.redirected.extend(inner.redirected)
        self.revised.extend(inner.revised)
        self.named.extend(inner.named)
        self.lost_programs.extend(inner.lost_programs)
        self.unpacked.extend(inner.unpacked)
        self.only_read.extend(inner.only_read)
        self.scripts.extend((*script[:4], False) for script in inner.scripts)
        add_links(self.links, inner.links)
        self.linked_programs.extend(inner.linked_programs)
        self.after_linker.extend(inner.after_linker)
        self.linker = self.linker or inner.linker
        self.replaced_unknown = self.replaced_unknown or inner.replaced_unknown
        self.over_scan = self.over_scan or inner.over_scan
        self.split.extend(inner.split)
        self.extglob_groups.extend(inner.extglob_groups)


def new_text_words(
    written: Iterable[str], textless: Iterable[str], redirected: Collection[str] = ()
) -> Iterator[str]:
    """The words of ``written`` (a command's :attr:`ShellPaths.written`, as written and
    expanded) that may give their file new text, in their order: each word of ``textless``
    (:attr:`ShellPaths.textless`, ``compiled``, a shell's script operand: each as often as
    it stands) cancels one equal written word, once, so ``cat p.txt > s.sh; cc -os.sh
    -os.sh`` keeps the redirection's. A word of ``redirected`` (:attr:`ShellPaths.
    redirected`) is never cancelled and cancels nothing: the shell writes text there
    whatever else names its file. Lazy: a caller stopping at its first word reads no
    further."""
    kept = Counter(textless)
    for word in written:
        if word not in redirected and kept[word] > 0:
            kept[word] -= 1
        else:
            yield word


_FOLDERS_CAP = 64
"""How many folders a command's ``cd``s are followed into; past it the shell's folder is taken
as unknown (each relative word is judged against every folder: a cap keeps that linear)."""
_OPERATOR_CAP = 16
"""How many ``${…}`` one word may hold for their defaults and patterns to be read; a word
holding more is refused as a path that could lead anywhere."""
_INNER_DEPTH = 4
"""How deep commands inside words (``sh -c '…'`` inside ``eval "…"`` …) are read at most."""
_GLUED_TAIL_RE = r"[)`](?P<tail>[^\s;&|<>()`'\"$]+)"
"""Literal text glued after a command substitution's end (``$(…)rest``, `` `…`rest``): the
lexer splits it from the substitution, but the shell makes one word of both."""


def shell_paths(
    command: str,
    cwd: str,
    environ: Mapping[str, str],
    *,
    _depth: int = 0,
    _lost: bool = False,
    _budget: _ScanBudget | None = None,
    _links: Mapping[str, MadeLink] | None = None,
    _outer: _Writes | None = None,
    harness_shell: tuple[str, ...] = (),
) -> ShellPaths:
    """Every path ``command`` names, read as bash run in ``cwd`` with ``environ``.

    A relative word is taken from ``cwd`` and from every directory a ``cd``/``pushd`` names
    (whichever the shell is in at the word). Bash's quoting is read first (:func:`~harness_memory.
    hooks.bash_quoting.bash_quoting`:
    ``$'…'``, ``$"…"``, a line continuation). A word holding white space once unquoted, and the
    words an ``eval`` joins (``eval cp x '"$(…)"/a.md'``), may be a command another shell runs
    (``sh -c '…'``, ``ssh host '…'``): read too, as run where they stand (:func:`_read_inner`).
    A short option glued to a path (``cp -t/dir``) names that path too; after a ``cd`` into a
    folder not decided here (or ``find … -execdir``) relative words are also in ``unanchored``.
    A command the lexer cannot split (an unclosed quote) is split at white space.
    ``harness_shell``: the shell the harness runs the command with (``("bash", "-lc")``), whose
    startup files, with those of the shells the command starts, may redefine a program a
    substitution runs (:func:`_startup_distrusts`). Never raises."""
    own = command
    startup = None if _outer is not None else startup_texts(own, cwd, environ, harness_shell)
    if startup is not None and not _depth:  # what the startup files define of its names, first
        command = startup_definitions_text(startup) + own
    definitions = read_definitions(command)
    given = _NamesRead.ALL if _outer is None else _outer.names_read
    names = _names_read(definitions, command, environ, given)
    trusted = startup is not None and names is not _NamesRead.NONE  # an inner one's: its holder's
    if trusted and startup is not None and _startup_distrusts(own, startup):
        names = _NamesRead.NONE
    here, command, environ = _command_text(
        command, cwd, environ, nested=bool(_depth or _lost), names=names
    )
    options = _glob_options(own, environ) | (_budget.options if _budget else frozenset())
    options |= _startup_glob_options(startup)
    spellings = _name_spellings(command)
    found, tails = _found_for(spellings[0], _budget, _links)
    found.budget.options |= options
    if "extglob" in options:  # a group the lexer splits at its ``(``: refused, unread
        found.extglob_groups += extglob_groups(own) or extglob_groups(bash_quoting(own))
    if _outer is None:
        found.split.extend(_split_words(own, command, environ, (startup, names)))
    read = (_cat_read(definitions, environ, _outer), names)
    for spelling in spellings:
        reading = _Reading(spelling, here.texts, cwd, environ, tails, _depth, _lost, _outer, read)
        unrolled, unread = loops_unrolled(_shell_words(spelling))
        found.split.extend(f'"${name}"' for name in unread)  # past the cap: a program unknown
        for words in arrays_spelt(_loops_run_twice(unrolled)):
            _read_words(words, reading, found)
    if _outer is None:  # the places of the commands inside it are in ``found`` too
        _add_existing_names(found)
    return found


def _split_words(
    command: str,
    defining: str,
    environ: Mapping[str, str],
    read: tuple[StartupTexts | None, _NamesRead],
) -> list[str]:
    """The unquoted expansions of the top-level ``command`` (here-documents' bodies left
    out) bash splits into words of a command's name or of options the guard never read
    (:func:`~harness_memory.hooks.split_substitutions.split_words_run`), a printer trusted
    when neither the command with the startup definitions it uses (``defining``), the
    environment nor a startup file run around it (``read``: the startup files' texts) may
    redefine its program, a name-only substitution when the guard reads it as one name
    (``read``: :func:`_names_read`)."""
    if "$" not in command and "`" not in command:
        return []
    startup, names = read
    definitions = read_definitions(without_printers(defining))
    redefined = _environment_redefines(environ)

    def trusted(program: str) -> bool:
        if redefined or definitions.redefines(program):
            return False
        return startup is None or not startup_redefines(startup, (program,))

    def named(inner: str) -> bool:
        if names is _NamesRead.NONE or (re.match(_DATE_NAME_RE, inner) and "+" not in inner):
            return False  # a bare ``date`` prints its zone's name, which may be any text
        return any(re.match(each, inner) for each in (_NAME_ONLY_RE, _DATE_NAME_RE, _MKTEMP_RE))

    return split_words_run(here_data(command).command, trusted, named)


def _add_existing_names(found: ShellPaths) -> None:
    """Add to ``found.paths`` (and ``named``) each path a place the command writes named with
    a name printed at run time (:data:`_RUN_TIME_NAME`; one of ``found.named`` or spelling a
    word of ``found.written`` holding a ``/``) names through an entry already in its folder
    (:func:`~harness_memory.hooks.run_time_names.existing_names`: ``notes@/a.md`` through a
    link ``notes2026-12-06`` the agent made before), the entries read charged to the
    command's scan budget; past it, or past the spellings it reads, ``found.over_scan`` is set
    (the guard refuses the command: the place may be any entry there). Words only read
    or given as data (a here-document's) are left as they are."""
    words = {
        posixpath.normpath(word) for word in found.written if _RUN_TIME_NAME in word and "/" in word
    }  # a bare word may be any program's data (``echo "$(whoami) ran"`` read as a command)
    named = [path for path in found.named if _RUN_TIME_NAME in path]
    written = [
        path
        for path in found.paths
        if _RUN_TIME_NAME in path
        and any(path == word or path.endswith(f"/{word}") for word in words)
    ]
    for path in dict.fromkeys([*named, *written]):
        spellings, read = existing_names(path, _RUN_TIME_NAME, max(found.budget.left, 0))
        found.budget.left -= read
        if spellings is None:
            found.over_scan = True  # the guard cannot tell: it refuses (review56e)
            continue
        found.paths.extend(spellings)
        if path in named:
            found.named.extend(spellings)


class _Reading(NamedTuple):
    """What one reading of a command (:func:`_read_words`) is read with: its text and
    here-documents (each with whether the shell expands it), the folder and environment it
    runs in, the links' tails, how deep in other shells' code, whether in a folder known
    only at run time, the reader of the command holding it, and whether its ``cat`` and
    its name-only substitutions are the programs they seem (:func:`_cat_read`,
    :func:`_names_read`: read once a command)."""

    command: str
    texts: list[tuple[str, bool]]
    cwd: str
    environ: Mapping[str, str]
    tails: set[str]
    depth: int
    lost: bool
    outer: _Writes | None
    programs_read: tuple[bool, _NamesRead]


def _writes_for(reading: _Reading, found: ShellPaths) -> _Writes:
    """The reader of one reading of a command's words (:func:`_read_words`), told what the
    command's text says about them: the variable its interpreter code is read for, its
    here-texts, whether ``cat`` and the name-only substitutions are the programs they seem."""
    command, texts, _, environ, tails, depth, lost, outer, programs_read = reading
    writes = _Writes(found, tails, environ, cd_data=lost, outer=outer)
    writes.depth = depth
    writes.code_variable = _code_variable(command, depth)
    writes.here_text = "\n".join(_here_spellings(text) for text, _ in texts)  # code too
    writes.here_built = _here_texts_built(texts, command)
    writes.text = command  # its spellings: which ``$`` bash expands in an interpreter's code
    writes.cat_read, writes.names_read = programs_read
    return writes


def _inside_reader(found: ShellPaths, environ: Mapping[str, str], depth: int) -> _Writes:
    """The reader of the commands inside a command's ``$(…)`` and backquotes, ``depth``
    shells' code deep (:func:`shell_paths`)."""
    inside = _Writes(found, set(), environ)
    inside.depth = depth
    return inside


def _read_words(words: list[str], reading: _Reading, found: ShellPaths) -> None:
    """Add to ``found`` every path one reading of a command names (:func:`shell_paths`): its
    ``words``, each literal array's expansion spelt as one of its values (:func:`~harness_
    memory.hooks.shell_arrays.arrays_spelt`), read with ``reading``."""
    command, texts, cwd, environ, _, _depth, _lost, _outer, _ = reading
    writes = _writes_for(reading, found)
    inside = _inside_reader(found, environ, _depth)  # ``$(…)``'s and `…`'s commands write too
    words = _readers_set((writes, inside), words, command, top_level=not (_depth or _lost))
    scopes = Scopes(words, environ, writes.choices, command)  # what assignments reach each word
    known = _outer.folders_given() if _outer is not None else {}  # None: undecidable
    folder = _ShellFolder(bases := [cwd], writes.maybe_bases)  # where bash is, and may be
    shell = (bases, known, environ)  # the folders the shell may be in, assignments, environment
    previous: str | None = None
    programs = len(found.programs)  # those run before this reading
    fed = len(found.fed_patches)
    lost = entered = settled = _lost  # in a folder known only at run time (after a cd into it)
    held: dict[int, tuple[bool, bool, bool, str]] = {}  # before each word: a subshell's end
    substituting, quoted_back, chdir = 0, False, False  # in ``$(`` (how deep), `…`, ``env -C``
    code = _CodeRun()  # output run as code (``eval "$(…)"``), until its command ends
    last = ""  # the word before, separators included
    evaluating: list[str] | None = None  # the words of an ``eval`` so far
    for at, word in enumerate(words):
        held[at] = (lost, entered, settled, bases[-1])
        settled = settled or (entered and _separates(word) and not substituting)
        writes.folder_unknown = inside.folder_unknown = settled  # after the cd's word
        closing, substituting, quoted_back = _opened(word, last, substituting, quoted_back, inside)
        if not (substituting or quoted_back) and writes.in_case_pattern(word, previous):
            writes.take_choices(scopes.after(at, known))
            last, previous = word, None
            continue  # a pattern is matched against the case's word, never a path
        if substituting or quoted_back or "`" in word:
            found.built.append(word)  # text the command substitution's output is made of
            _see_inside(inside, word, quoted_back, known, environ, lost=lost, base=bases[-1])
        if closing:  # the end of a top-level ``$(…)``; ``);``, ``)|`` also end the command
            inside.end()  # and the last command inside it
            writes.closed_substitution()
            if word.strip(")"):
                writes.end()
        elif not substituting and not quoted_back:
            writes.see(word, known, environ, lost=lost, base=bases[-1])
        last = word
        evaluating, inner = _evaluated(evaluating, word, previous, reader=writes)
        shell_code = writes.shell_code(word, code.outputs)
        code_word = shell_code or (evaluating is not None and evaluating[-1:] == [word])
        run = code.see(previous, words, at, evaluating=bool(evaluating))  # ``eval "$(cat s)"``
        _note_code_file(found, (words, at), (bases[-1], known, environ), code=code_word, run=run)
        inner += _code_in(word, code=shell_code, given=(words, at + 1)) + writes.sed_code(word)
        _carry_linker(found, writes, inside)  # one made in ``$(…)``, ``bash -c '…'``
        data = not (shell_code or evaluating is not None or writes.may_run(word, previous))
        _read_inner(found, inner, (bases[-1], environ, _depth, lost), outer=writes, data=data)
        if (word in _PIPES_AND_FEEDS or substitution_opened(word)) and not quoted_back:
            where = (bases[-1], environ, _depth, lost)  # in ``$(…)`` too: ``$(… | bash)``
            _read_piped_code(found, piped_code(words, at, command, environ), where, outer=writes)
        chdir = word == "env" or (chdir and not _separates(word))
        folders = (*shell, (inside if substituting or quoted_back else writes).prefixed)
        into = _folder_moved((found, writes), (words, at, previous), folder, chdir, folders)
        if into is not None:  # a cd (or env -C) into a folder, known only at run time or not
            entered = into or entered
            settled = settled or (entered and previous not in _CD_WORDS)  # env -C: at once
        if at in scopes.subshells:  # a folder entered in ``( … )`` or ``$(…)`` is left there
            lost, entered, settled = folder.left(held[scopes.subshells[at]])
        folder.see(word, previous)
        if code.ended(word, substituting=substituting):  # its code may have gone anywhere
            entered = writes.cd_into("$", known, environ, followed=False) or entered
            settled = settled or entered
            known.update(dict.fromkeys(known))
        lost = lost or entered or word in _UNKNOWN_FOLDER_WORDS
        scopes.before(at, known)
        _note_assignments(word, previous, known, environ)
        writes.take_choices(scopes.after(at, known))
        _add_word(found, word, bases, known, environ, lost=lost, readers=(writes, inside))
        previous = _followed(previous, word)
    writes.end()
    inside.end()
    evaluated = [" ".join(evaluating or [])]
    _read_inner(found, evaluated, (bases[-1], environ, _depth, lost), outer=writes)
    _add_here_data(found, texts, bases, known, environ, lost=lost)
    if any(re.search(_PATCHER_RE, program) for program in found.programs[programs:]):
        _note_patched(found, [(command, True), *texts], bases)
    _note_fed_patches(found, writes, [(command, True), *texts], bases[-1], fed=fed)


_CODE_FILE_RE = r"^(?:\$\(|`)\s*(?:cat\s+(?:--\s+)?|<\s*)([^\s$`*?\[\]{}()|;&<>'\"\\]+)\s*(?:\)|`)$"
"""Code that is one file's text: ``$(cat FILE)``, ``$(< FILE)``, `` `cat FILE` `` (a literal
name)."""


def _unquoted_code_file(words: list[str], at: int) -> str | None:
    """``eval``'s first word ``words[at]`` when it is one file's text unquoted, as
    :data:`_CODE_FILE_RE` reads it: `` `cat s` `` (the lexer gives `` `cat``, ``s` ``) or
    ``$(cat s)``, ``$(< s)`` (``$``, ``(``, ``cat``, ``s``, ``)``). ``eval $(cat s)`` runs
    the file's words joined again, as ``eval "$(cat s)"`` runs its text (P-3). None else."""
    if not at or words[at - 1] != "eval":
        return None
    for length in range(2, 7):  # `` `cat s` `` to ``$ ( cat -- s )``
        joined = " ".join(words[at : at + length])
        if words[at : at + 2] in (["$", "("], ["$", "(<"]):
            joined = "$" + " ".join(words[at + 1 : at + length])
        joined = re.sub(r"(?<=[)`])[;&|]+$", "", joined)  # ``eval $(cat s);``: its end
        if len(words) >= at + length and re.match(_CODE_FILE_RE, joined):
            return joined
    return None


def _note_code_file(
    found: ShellPaths,
    spelt: tuple[list[str], int],
    where: tuple[str, Mapping[str, str | None], Mapping[str, str]],
    *,
    code: bool,
    run: str | None = None,
) -> None:
    """Keep the file whose text the word ``spelt`` (the command's words and its index) is,
    when it is a shell's ``-c`` code or ``eval``'s (``code``: ``bash -c "$(cat s.sh)"``,
    ``eval "$(< s.sh)"``) or ``eval``'s first word unquoted (:func:`_unquoted_code_file`:
    ``eval $(cat s.sh)``), as a script fed to a shell (``ShellPaths.scripts``, ``fed``):
    judged as ``bash < s.sh`` is, run in ``where`` (its folder, assignments, environment)
    (P-3)."""
    _note_run_time_code(found, run, spelt, where)  # what ``eval`` runs from output, ``run``
    words, at = spelt
    word = _unquoted_code_file(words, at) or (words[at] if code else "")
    if not word.startswith(("$(", "`")):  # what :data:`_CODE_FILE_RE` opens with (H-5)
        return
    if (match := re.match(_CODE_FILE_RE, word)) is None:
        return
    base, known, environ = where
    expanded = _expand(match.group(1), known, environ)
    path = None if expanded is None else _tilde(expanded, environ)
    found.scripts.append(("fed", base, match.group(1), path, True))


_PIPES_AND_FEEDS = frozenset({"|", "|&", "<("})
"""Words after which a shell may read code a printer prints (:func:`_read_piped_code`)."""


def _read_piped_code(
    found: ShellPaths,
    piped: PipedCode | None,
    at: tuple[str, Mapping[str, str], int, bool],
    *,
    outer: _Writes,
) -> None:
    """Judge the code a printer gives a shell through a pipe (:func:`~harness_memory.hooks.
    piped_code.piped_code`: ``echo cp x '$(cat f)/a.md' | bash``) as that shell's ``-c`` code,
    read where it stands (``at``: as :func:`_read_inner`'s, read after ``outer``), or,
    when the guard cannot tell the text, as a write to a place known only at run time: that
    code may write anywhere (P-3)."""
    if piped is None:
        return
    if piped.code is None:
        into = f"written into >({piped.shell} …)" if piped.written else "printed into"
        into = into if piped.written else f"{into} {piped.shell}'s pipe"
        found.written_at_run_time.append(f"$(the code {into})")
        return
    _read_inner(found, [piped.code], at, outer=outer)


def _note_fed_patches(
    found: ShellPaths, writes: _Writes, texts: list[tuple[str, bool]], base: str, *, fed: int
) -> None:
    """Note in ``found.fed_patches`` a patch tool run given no patch of its own (it reads
    standard input the command does not give it), and then (or when one was noted past the
    first ``fed``) each file line ``texts`` (the command and its here-documents) show, from
    ``base``: it may be given to that tool."""
    patches = sum(any(patch_files(text)) for text, _ in texts)
    if writes.bare_patchers > patches or (writes.bare_patchers and writes.stdin_elsewhere):
        found.fed_patches.append(
            (f"{base}/", "it reads standard input the command does not give it")
        )
    if len(found.fed_patches) > fed:  # a file line the command shows may be given to it
        for text, _ in texts:
            for path in itertools.chain(*patch_files(text)):
                found.fed_patches.append((posixpath.join(base, path), _BUILT_LINE))


class _NamesRead(enum.Enum):
    """Which name-only substitutions (:data:`_NAME_ONLY_RE`) a command cannot change the
    output of (:func:`_names_read`)."""

    ALL = "all"
    NO_BARE_DATE = "no bare date"  # the command sets a zone or a locale: ``date``'s own format
    NONE = "none"  # the command may redefine any program a substitution runs


def _names_read(
    definitions: Definitions, command: str, environ: Mapping[str, str], given: _NamesRead
) -> _NamesRead:
    """Which name-only substitutions in ``command`` print what their program prints: none
    when the command (``definitions``: :func:`~harness_memory.hooks.definitions.
    read_definitions`), or the one holding it (``given``: its reading), redefines a program
    one runs (a function or alias of its name) or changes how names are found or what runs
    as a program starts (``source``, ``eval``, ``fc``, ``ulimit``,
    ``PATH``, ``hash``, ``enable``, ``LD_PRELOAD``, ``BASH_ENV``: :class:`~harness_memory.
    hooks.definitions.Definitions`), or when the environment holds exported functions,
    ``BASH_ENV`` or a relative ``PATH`` folder (``PATH=.:$PATH`` finds a ``./nproc`` the
    command wrote; ``date() { cat f; }`` prints any path). A zone or locale the command sets
    changes no digit field of ``date`` (:data:`_DATE_NAME_RE`) but makes a bare ``date`` print
    its zone's name, which a zone file the command names may spell as any text (``/``,
    ``..``, a newline, code: review55i): then a bare ``date`` is no name
    (:attr:`_NamesRead.NO_BARE_DATE`). Read from the text, failing closed: a mention is a
    setting."""
    if given is _NamesRead.NONE:
        return given
    if any(definitions.redefines(name) for name in _NAME_PRINTERS) or _environment_redefines(
        environ
    ):
        return _NamesRead.NONE
    if _sets_zone(plain_text(command)) or given is _NamesRead.NO_BARE_DATE:
        return _NamesRead.NO_BARE_DATE
    return _NamesRead.ALL


def _startup_distrusts(command: str, startup: StartupTexts) -> bool:
    """Whether a startup file run around ``command`` (``startup``: the harness's shell's and
    those of the shells it starts, :func:`~harness_memory.hooks.startup_definitions.
    startup_texts`) may redefine a program a name-only substitution of ``command`` runs
    (:func:`~harness_memory.hooks.startup_definitions.startup_redefines`; round 57). Only
    when the command holds such a substitution does the verdict depend on them."""
    return _trusts_a_name(command) and startup_redefines(startup, _NAME_PRINTERS)


def _trusts_a_name(command: str) -> bool:
    """Whether ``command`` holds a substitution :func:`_read_substitutions` may read as text
    (a name-only one, ``$(basename "$PWD")``, ``$(mktemp)``)."""
    if "$(" not in command and "`" not in command:
        return False
    if re.search(_BASENAME_RE, command):
        return True
    return any(
        re.match(_NAME_ONLY_RE, inner)
        or re.match(_DATE_NAME_RE, inner)
        or re.match(_MKTEMP_RE, inner)
        for inner in map(_substituted, re.finditer(_SUBSTITUTION_RE, command))
    )


def _environment_redefines(environ: Mapping[str, str]) -> bool:
    """Whether ``environ`` may make a program the shell runs by name another one: exported
    functions (``BASH_FUNC_date%%``), ``BASH_ENV`` (a script run as a shell starts) or a
    relative or empty ``PATH`` folder (``.``: the shell's folder, which a ``cd`` changes and
    where the command may write a ``./nproc``); ``PATH`` the hook's when ``environ`` has none."""
    if "BASH_ENV" in environ or any(key.startswith("BASH_FUNC_") for key in environ):
        return True
    path = environ.get("PATH") or os.environ.get("PATH", os.defpath)
    return any(not folder.startswith("/") for folder in path.split(":"))


_NAME_PRINTERS = ("date", "nproc", "whoami", "hostname", "id", "uname", "git", "basename", "mktemp")
"""The programs a substitution read as text here runs (:func:`_read_substitutions`)."""


def _cat_read(definitions: Definitions, environ: Mapping[str, str], outer: _Writes | None) -> bool:
    """Whether a ``cat`` in a command (``definitions``: what it defines) is the program
    printing its files: nothing in it, in the command holding it (``outer``) or in the
    environment (``export -f cat``: ``BASH_FUNC_cat%%``) may make ``cat`` another program (a
    function or alias of its name, ``PATH``, a sourced file: :class:`~harness_memory.hooks.
    definitions.Definitions`). Else it may print anything."""
    if outer is not None and not outer.cat_read:
        return False
    return not definitions.redefines("cat") and not any(
        name.startswith("BASH_FUNC_cat") for name in environ
    )


_ZONE_SET_RE = r"(?:^|(?<=[\s;&|(){}`'\"]))(?:TZ|TZDIR|LANG|LANGUAGE|LC_[A-Z]+|LOCPATH)\b"
"""A zone or locale named other than as ``$NAME``: the text a bare ``date`` prints (its zone's
name, the locale's words) may be the command's choice."""


def _sets_zone(plain: str) -> bool:
    """Whether ``plain`` names a variable of :data:`_ZONE_SET_RE`; the pattern compiled only
    for a text holding one of their names (H-5)."""
    if not any(name in plain for name in ("TZ", "LANG", "LC_", "LOCPATH")):
        return False
    return re.search(_ZONE_SET_RE, plain) is not None


_PATCHER_RE = r"(?:^|/)apply_?patch$"
"""Codex CLI's patch tool as a command (``apply_patch``, ``applypatch``): Codex applies ``[cd
DIR &&] apply_patch <<'EOF' …`` run through its shell tool (``bash -lc`` too) as the patch
tool, in ``DIR``; any other shell runs a program so named (one applying the patch: Codex puts
one on the shell's ``PATH``), which takes its patch as its argument or, given none, on its
standard input (``apply_patch < p.diff``, ``cat p.diff | apply_patch``)."""
_PATCH_RUNNERS = frozenset({"xargs", "parallel", "find", "watch"})
"""Programs running the program their words name with words they read or find at run time
(``xargs apply_patch``, ``find … -exec apply_patch {} +``)."""


def _note_patched(found: ShellPaths, texts: list[tuple[str, bool]], bases: list[str]) -> None:
    """Keep in ``found.named`` every file a patch in ``texts`` (the command and its
    here-documents, each with whether bash expands it) writes by its name and in
    ``found.paths`` every one it removes or renames (:func:`patch_files`), a relative one from
    each folder in ``bases``: the first held to K-7 as the patch tool's files are, the others
    judged as any path is. A file line bash expands holding ``$`` or a backquote names a file
    built at run time: its literal start goes to ``found.fed_patches``."""
    named: dict[str, None] = {}
    touched: dict[str, None] = {}
    for text, expands in texts:
        written, gone = patch_files(text)
        named.update(dict.fromkeys(written))
        touched.update(dict.fromkeys(gone))
        for path in [*written, *gone] if expands else []:
            if re.search(_RUN_TIME_NAME_RE, path):  # ``*** Add File: $X/a.md``
                start = path[: _first_expansion(path)]
                found.fed_patches.extend(
                    (start if start.startswith("/") else f"{base}/{start}", _BUILT_LINE)
                    for base in bases
                )
    for targets, kept in ((named, found.named), (touched, found.paths)):
        for target in targets:
            if target.startswith("/"):
                kept.append(target)
            else:
                kept.extend(f"{base}/{target}" for base in bases)


def _runs_patcher(command: str | None, words: list[str]) -> bool:
    """Whether the runner ``command`` (:data:`_PATCH_RUNNERS`) with ``words`` (its words after
    its name) runs Codex's ``apply_patch``: the program ``xargs`` runs (its first operand,
    past wrappers), one a ``find`` runs (after ``-exec``, ``-execdir``, ``-ok``, ``-okdir``),
    any word of ``parallel`` or ``watch``. ``find . -name apply_patch`` and ``xargs grep
    apply_patch`` run no patch."""
    if command == "xargs":
        starts = read_options(words, TABLES["xargs"]).operands[:1]
    elif command == "find":
        starts = [at + 1 for at, word in enumerate(words) if word in FIND_RUNNING]
    elif command in _PATCH_RUNNERS:
        return any(re.search(_PATCHER_RE, word.split(" ", 1)[0]) for word in words)
    else:
        return False
    places = (_past_wrappers(words, start) for start in starts)
    return any(re.search(_PATCHER_RE, words[at]) for at in places if at < len(words))


_PER_PROCESS_RE = r"^/(?:proc|dev/fd|dev/std(?:in|out|err))(?:/|$)"
"""A place the kernel gives each process its own view of: ``/proc`` (``/proc/self``,
``/proc/thread-self``, a process id), ``/dev/fd``, ``/dev/stdin``."""
_LINK_HOPS = 40
"""How many symbolic links a path may pass through (the kernel's own limit)."""


def _per_process(path: str) -> bool:
    """Whether the absolute normalised ``path`` is, or leads through a symbolic link to, a
    place the kernel gives per process (:data:`_PER_PROCESS_RE`): read by the hook, it is the
    hook's, not the shell's (``/proc/self/cwd/p.diff``, a link to ``/dev/stdin``). Each
    folder is resolved as the kernel resolves it, one link at a time; past
    :data:`_LINK_HOPS` links, True."""
    pending, done, hops = path.split("/"), "", 0
    while pending:
        part = pending.pop(0)
        if part in ("", "."):
            continue
        done = posixpath.dirname(done) if part == ".." else f"{done}/{part}"
        if re.match(_PER_PROCESS_RE, done):
            return True
        try:
            target = os.readlink(done)  # noqa: PTH115 (a str, one hop)
        except OSError:
            continue
        hops += 1
        if hops > _LINK_HOPS:
            return True
        pending = target.split("/") + pending
        done = "" if target.startswith("/") else posixpath.dirname(done)
    return False


_BUILT_LINE = "a file line is built at run time"
"""How a patch reaches ``apply_patch`` when a file line it shows may be given at run time."""


def _readers_set(
    readers: tuple[_Writes, _Writes], words: list[str], command: str, *, top_level: bool
) -> list[str]:
    """Give the reader of the commands inside ``$(…)`` what the top-level one knows (the
    programs run before, the here-documents), and both how ``command`` (as ``words``) names
    programs: its variables set unsurely (:func:`_names_set_unsurely`) and its functions
    running their arguments (:func:`_function_runners`, whose ``words`` are returned, each
    literal array's expansion spelt as its words: :func:`~harness_memory.hooks.shell_arrays.
    arrays_spelt`); ``top_level``: no word of another command read again."""
    writes, inside = readers
    inside.linker, inside.here_text = writes.linker, writes.here_text
    inside.here_built, inside.text, inside.holder = writes.here_built, writes.text, writes
    words, runners, unread, evaluators = _function_runners(words)
    unsure = _names_set_unsurely(words, command) | {f"alias {name}" for name in unread} | unread
    loops = loop_names(words)
    for reader in readers:
        reader.unsure_names, reader.runners, reader.evaluators = unsure, runners, evaluators
        reader.loop_names = loops
    writes.top_level = top_level
    return words


_RUN_TIME_VALUES = (
    "_",
    "BASHPID",
    "BASH_ARGC",
    "BASH_ARGV",
    "BASH_ARGV0",
    "BASH_COMMAND",
    "BASH_EXECUTION_STRING",
    "BASH_LINENO",
    "BASH_REMATCH",
    "BASH_SOURCE",
    "BASH_SUBSHELL",
    "COPROC",
    "DIRSTACK",
    "EPOCHREALTIME",
    "EPOCHSECONDS",
    "EUID",
    "FUNCNAME",
    "GROUPS",
    "HISTCMD",
    "LINENO",
    "MAPFILE",
    "OPTARG",
    "OPTIND",
    "PIPESTATUS",
    "PPID",
    "RANDOM",
    "REPLY",
    "SECONDS",
    "SHLVL",
    "SRANDOM",
    "UID",
)
"""Variables bash sets itself as it runs, whatever its environment holds: ``$_`` the previous
command's last word (the hook's ``_`` is its own program's path), ``$RANDOM``, ``$LINENO``,
``$BASH_REMATCH``, ``$SHLVL`` one more … Their value is known only at run time, so each is
read as itself (``$_``: a ``$`` in a value is undecided), never from the hook's environment.
``BASH_ENV``, ``BASH_FUNC_*``, ``SHELLOPTS`` and ``BASHOPTS`` are not among them (bash reads
those from its environment), nor ``$BASH`` (read as the shell: ``_SHELL_OWN_NAME_RE``)."""


def _started_in(environ: Mapping[str, str], cwd: str) -> Mapping[str, str]:
    """``environ`` as the shell started in ``cwd`` has it: bash keeps an inherited ``PWD``
    only when it names ``cwd`` (a path through a link, perhaps), else sets it to ``cwd``; the
    hook's own ``PWD`` may name another folder than the one the command runs in. A ``SHELL``
    the environment lacks is the login shell bash sets (:func:`login_shell`). An ``OLDPWD``
    naming no folder (empty, gone, a file) bash unsets as it starts: ``~-`` then stays a
    word of its own and ``cd -`` fails where it stands (``mkdir '~-'; echo x > ~-/../a.md``
    writes beside it). The variables bash sets as it runs (:data:`_RUN_TIME_VALUES`) hold
    themselves: undecided (P-3)."""
    inherited = environ.get("PWD")
    try:
        kept = inherited is not None and Path(inherited).samefile(cwd)
    except (OSError, ValueError):
        kept = False
    run_time = {name: f"${{{name}}}" for name in _RUN_TIME_VALUES}
    shell = {} if "SHELL" in environ else {"SHELL": login_shell()}
    started = {**environ, **shell, **run_time}
    if not _is_folder_name(environ.get("OLDPWD"), cwd):
        started.pop("OLDPWD", None)
    return started if kept else {**started, "PWD": cwd}


def _makes_files_in(folder: str, cwd: str) -> bool:
    """Whether ``mktemp`` can make a file in ``folder`` (from ``cwd``): a folder the user may
    write and enter (``os.access``), on no read-only file system, not in ``/proc`` or ``/sys``
    (where even root makes none: ``TMPDIR=/proc mktemp`` fails printing nothing, so
    ``"$(mktemp)"notes/a.md`` was ``notes/a.md``). Never raises (P-3)."""
    if not _is_folder_name(folder, cwd):
        return False
    path = os.path.realpath(os.path.join(cwd, folder))  # noqa: PTH118
    if path.split("/")[1] in ("proc", "sys") or not os.access(path, os.W_OK | os.X_OK):
        return False
    try:
        return not os.statvfs(path).f_flag & os.ST_RDONLY
    except OSError:
        return False


def _is_folder_name(value: str | None, cwd: str) -> bool:
    """Whether ``value`` names a folder from ``cwd`` (bash's ``file_isdir``); never raises."""
    try:
        return bool(value) and os.path.isdir(os.path.join(cwd, value or ""))  # noqa: PTH112, PTH118
    except (ValueError, UnicodeError):
        return False


def login_shell() -> str:
    """The shell bash puts in ``$SHELL`` when its environment has none: the user's login
    shell from the password database, ``/bin/sh`` when it names none or the user has no
    entry (bash's ``get_current_user_info``). ``"$SHELL" -s`` after a pipe is that shell
    reading the pipe as code even where the harness passes no ``SHELL`` (P-3)."""
    try:
        return pwd.getpwuid(os.getuid()).pw_shell or "/bin/sh"
    except KeyError:
        return "/bin/sh"


def _followed(previous: str | None, word: str) -> str | None:
    """The word the next word follows, as reading it needs: None after a separator (a new
    command); still ``cd`` after its option (``cd -P``, ``cd --``: the folder is next)."""
    if previous in _CD_WORDS and word.startswith("-") and word != "-":
        return previous
    return None if _separates(word) else word


def _opened(
    word: str, last: str, substituting: int, quoted_back: bool, inside: _Writes
) -> tuple[bool, int, bool]:
    """:func:`_substitution_at` of the lexer's ``word`` (after ``last``, ``substituting`` deep
    in ``$(`` and ``quoted_back`` before it), telling ``inside`` (the reader of the commands
    inside ``$(…)`` and backquotes) when a top-level one opens at ``word``
    (:meth:`_Writes.opened_substitution`)."""
    opening = not (substituting or quoted_back)
    closing, substituting, quoted_back = _substitution_at(word, last, substituting, quoted_back)
    if opening and (substituting or quoted_back or "`" in word):
        inside.opened_substitution()
    return closing, substituting, quoted_back


def _substitution_at(
    word: str, last: str, substituting: int, quoted_back: bool
) -> tuple[bool, int, bool]:
    """Where the lexer's ``word`` (after ``last``) stands: whether it closes a top-level
    ``$(…)`` (``)``, or ``);`` as the lexer groups them), and after it how many ``$(`` deep
    the reading is and whether inside backquotes."""
    closing = bool(
        substituting > 0 and substituting <= word.count(")") and re.match(_PUNCTUATION, word)
    )
    if word == "(" and last.endswith("$"):
        substituting += 1
    elif substituting and re.match(_PUNCTUATION, word):
        substituting = max(0, substituting - word.count(")"))
    if word.count("`") % 2:
        quoted_back = not quoted_back
    return closing, substituting, quoted_back


def _carry_linker(found: ShellPaths, writes: _Writes, inside: _Writes) -> None:
    """Let a program that may make links, met inside a word (``$(…)``, ``bash -c '…'``: kept in
    ``found.linker``), count for the words after it in ``writes``, and ``writes``' for those in
    ``inside`` (:meth:`_Writes._after_linker`)."""
    writes.linker = writes.linker or found.linker
    inside.linker = inside.linker or writes.linker


def _folder_moved(
    reading: tuple[ShellPaths, _Writes],
    spelt: tuple[list[str], int, str | None],
    folder: _ShellFolder,
    chdir: bool,
    shell: tuple[list[str], dict[str, str | None], Mapping[str, str], Mapping[str, str | None]],
) -> bool | None:
    """:func:`_entered_at` for the word ``spelt`` (the words, its index, the word before),
    with ``pushd``'s stack kept in ``folder``: a ``pushd`` into a folder keeps the one it
    left (``pushd -n`` one it does not enter, kept as unknown); ``popd`` and a bare
    ``pushd`` (or ``+N``, ``-N``) go to one it kept
    (:meth:`_ShellFolder.stack_moved`: None when bash moves none, True when that folder is
    unknown, as a ``cd`` into a folder built at run time)."""
    words, at, previous = spelt
    word, bases, known, environ = words[at], shell[0], shell[1], shell[2]
    if previous == "dirs":
        folder.dirs_run(list(itertools.takewhile(lambda each: not _operands_end(each), words[at:])))
        return None
    if previous == "popd" or (
        previous == "pushd" and (_operands_end(word) or word[:1] == "+" or word[1:].isdigit())
    ):
        operands = list(itertools.takewhile(lambda each: not _operands_end(each), words[at:]))
        moved = folder.stack_moved(previous, operands)
        if not moved:
            return moved
        return reading[1].cd_into("$", known, environ, followed=False)
    if previous == "pushd" and words[at - 1] == "-n":
        folder.stack.append(None)  # kept on the stack, not entered (as an unknown one)
        return None
    before = bases[-1]
    into = _entered_at(reading, words, at, previous, chdir=chdir, shell=shell)
    if into is not None and previous in _CD_WORDS:
        folder.entered(before, words, at)
    if into is not None and previous == "pushd":
        folder.pushed(before, known=not into)
    return into


def _operands_end(word: str) -> bool:
    """Whether the lexer's ``word`` ends a ``pushd``'s or ``popd``'s operands: a separator or
    a redirection (``pushd >/dev/null``)."""
    return _separates(word) or re.match(r"^[0-9]*[<>]", word) is not None


def _entered_at(
    reading: tuple[ShellPaths, _Writes],
    words: list[str],
    at: int,
    previous: str | None,
    *,
    chdir: bool,
    shell: tuple[list[str], dict[str, str | None], Mapping[str, str], Mapping[str, str | None]],
) -> bool | None:
    """Read a ``cd``/``pushd`` operand or ``env -C`` folder at ``words[at]`` (after
    ``previous``; ``chdir``: inside an ``env`` command): None when the shell enters no folder
    there; else whether the folder is known only at run time (``cd "$(cat f)"``, a link the
    command made to one: ``ln -s "$(…)" l; cd l``), a known one added to the folders the
    shell may be in. ``reading``: what the command names and the reader of its writes;
    ``shell``: those folders, the command's assignments, the environment and the ``cd``'s
    prefix assignments (``CDPATH= cd sub``: its ``CDPATH``, for that ``cd`` only)."""
    if (folder := _entered_folder(previous, words[at], chdir=chdir)) is None:
        return None
    (found, writes), (bases, known, environ, prefixed) = reading, shell
    linked = _made_link(found, folder, bases[-1], known, environ)  # ``ln -s "$(…)" l``
    before = len(bases)
    # ``shopt -s cdable_vars``: ``cd NAME`` may go where the variable ``NAME`` says
    valued = "cdable_vars" in words[:at] and not folder.startswith(("/", "."))
    looked = {**known, "CDPATH": prefixed["CDPATH"]} if "CDPATH" in prefixed else known
    entered_known = linked is None and not valued and _enter(folder, bases, looked, environ)
    if previous in _CD_WORDS:  # the shell's own folder: ``$PWD`` and ``$OLDPWD`` follow it
        known["OLDPWD"] = known["PWD"] if "PWD" in known else environ.get("PWD", bases[-1])
        known["PWD"] = bases[-1] if entered_known and len(bases) == before + 1 else None
    spelt = _substitution_spelt(words, at) if folder == "$" else folder  # ``cd $(…)``
    spelt = spelt if linked is None else linked.spelt  # what the link's target is
    return writes.cd_into(spelt, known, environ, followed=entered_known)


LOOP_WORDS_CAP = 20_000
"""The most words a command's loops are read as run twice for; a longer command's loop bodies
are read once more only as far as that many words (every word is still read once)."""


def _loops_run_twice(words: list[str]) -> list[str]:
    """``words`` with the body of each outermost loop (``do`` … ``done`` of ``for``,
    ``while``, ``until``, ``select``) read twice, a line break between: a loop's body may run
    again, and its second run meets what its first made (``for i in 1 2; do echo x >
    lnk/a.md; ln -s "$(cat f)" lnk; done`` writes through the link the first run made). An
    inner loop is inside its outer one's copy, so every word of a loop is read after every
    other. At most :data:`LOOP_WORDS_CAP` words are added; linear in the words."""
    if "do" not in words:
        return words
    twice: list[str] = []
    depth = 0
    start = 0
    added = 0
    for at, word in enumerate(words):
        twice.append(word)
        if word == "do":
            depth += 1
            start = at + 1 if depth == 1 else start
        elif word == "done" and depth:
            depth -= 1
            if depth == 0 and added < LOOP_WORDS_CAP:
                body = words[start:at][: LOOP_WORDS_CAP - added]
                added += len(body)
                twice[-1:] = ["\n", *body, "\n", "done"]
    return twice


def _command_text(
    command: str,
    cwd: str,
    environ: Mapping[str, str],
    *,
    nested: bool,
    names: _NamesRead,
) -> tuple[HereData, str, Mapping[str, str]]:
    """``command``'s here-data (:func:`~harness_memory.hooks.here_data.here_data`: a
    here-document's body is data, not command text) and its text as the lexer reads it:
    ``"$(git rev-parse --show-toplevel)"`` read as the folder git prints (unless
    ``nested``: a command read inside another), subshells, backquotes and command
    substitutions spelt for the lexer; and ``environ`` as the shell in ``cwd`` has it
    (:func:`_started_in`: its ``PWD``). ``names``: which name-only substitutions are read as
    one name (:func:`_names_read`: of the whole command and the one holding it)."""
    environ = _started_in(environ, cwd)
    here = here_data(command)
    text = here.command if nested else with_toplevel(here.command, cwd, environ)
    spelt = _backquotes_spelt(_subshells_spelt(text))
    return here, _read_substitutions(spelt, environ, names), environ


def _found_for(
    command: str, budget: _ScanBudget | None, links: Mapping[str, MadeLink] | None
) -> tuple[ShellPaths, set[str]]:
    """A :class:`ShellPaths` to fill reading ``command`` (its text once quoting and
    substitutions are read), sharing ``budget`` (one for the whole command) and knowing the
    ``links`` the command around this one made before it, with the literal tails glued after
    its command substitutions (``$(…)rest``: built at run time) in it and returned."""
    found = ShellPaths()
    found.budget = found.budget if budget is None else budget
    add_links(found.links, links or {})
    found.built.extend(tails := [m.group("tail") for m in re.finditer(_GLUED_TAIL_RE, command)])
    return found, set(tails)


def _add_word(
    found: ShellPaths,
    word: str,
    bases: list[str],
    known: Mapping[str, str | None],
    environ: Mapping[str, str],
    *,
    lost: bool,
    readers: tuple[_Writes, _Writes],
) -> None:
    """Add the paths ``word`` names (:func:`_add_pieces`), to ``found.only_read`` too when
    one of ``readers`` (the top-level commands, those inside ``$(…)``) took it as an operand
    of a command that only reads (``cat r.sh``: a read, no write)."""
    named = len(found.paths)
    _add_pieces(found, word, bases, known, environ, lost=lost)
    if any(reader.reading for reader in readers):
        found.only_read.extend(found.paths[named:])
        for reader in readers:
            reader.reading = False


_CASE_WORD, _CASE_IN, _CASE_PATTERN, _CASE_BODY = "word", "in", "pattern", "body"
"""The parts of a ``case WORD in PATTERN) COMMANDS ;; … esac`` a word may be in."""
_CASE_ENDS = (";;", ";&", ";;&")


def _in_case_pattern(cases: list[str], word: str, previous: str | None) -> bool:
    """Follow ``case`` commands (``cases``: one part of each, innermost last) at ``word``
    (``previous`` the word before it in its simple command, None at a command's start):
    whether ``word`` is part of a pattern list (``in``, ``(``, a pattern, ``|``, the ``)``
    ending it, a line's end between them), which the shell matches against the case's word
    and never reads as a path (``case $- in *i*)`` in Debian's ``.bashrc``: the ``*`` once
    became every name in the folder); a pattern holding ``$`` or a backquote is read as any
    word is (its command substitutions run when it is matched)."""
    part = cases[-1] if cases else None
    if word == "case" and previous is None and part in (None, _CASE_BODY):
        cases.append(_CASE_WORD)
        return False
    if part == _CASE_WORD:
        cases[-1] = _CASE_IN
        return False  # the word matched: expanded as any word is
    if part == _CASE_IN:
        if word != "in":  # not a case bash runs (a syntax error): read every word
            cases.pop()
            return False
        cases[-1] = _CASE_PATTERN
        return True
    if part == _CASE_PATTERN:
        if word == "esac":
            cases.pop()
            return False
        if re.match(_PUNCTUATION, word) and word.startswith(")"):  # ``)``, ``);;``: the list's end
            cases[-1] = _CASE_PATTERN if word[1:].startswith(_CASE_ENDS) else _CASE_BODY
        return "$" not in word and "`" not in word  # ``$(…)`` in a pattern runs: read it
    if part == _CASE_BODY:
        if re.match(_PUNCTUATION, word) and word.startswith(_CASE_ENDS):  # ``;;``, ``;&``, ``;;&``
            cases[-1] = _CASE_PATTERN
        elif word == "esac" and previous is None:
            cases.pop()
    return False


_FOLDER_PRINTERS = frozenset(
    {"git", "dirname", "basename", "pwd", "mktemp", "realpath", "readlink", "npm", "pnpm"}
    | {"yarn", "go", "rustc", "brew", "xcrun", "pyenv", "rbenv", "nodenv", "asdf"}
)
"""Programs whose output a ``cd "$(…)"`` takes that print a folder of their own knowledge (a
repository's top, a word's folder, a package manager's root), not data an earlier call
wrote (``cat target``)."""
_FOLDER_PRINTING = (
    "poetry env info -p",
    "poetry env info --path",
    "pipenv --venv",
    "pipenv --where",
    "pyenv prefix",
    "pyenv root",
    "rbenv prefix",
    "rbenv root",
    "nodenv prefix",
    "bundle show",
    "bundle info --path",
    "nvm which",
    "go env GOPATH",
    "go env GOROOT",
    "go env GOMODCACHE",
    "rustc --print sysroot",
    "rustup which",
    "npm root",
    "npm prefix",
    "pnpm root",
    "yarn global dir",
    "gem env home",
    "conda info --base",
    "brew --prefix",
    "xcode-select -p",
)
"""Commands of programs that may write or print data otherwise, each printing a folder of its
own knowledge and writing nothing (a virtual environment's, a version manager's, a Go or Rust
toolchain's, a package manager's root): ``cd "$(poetry env info -p)"``, ``cd "$(pipenv
--venv)"``. A command substitution running one of them (with any further words: ``bundle show
rails``) is a folder printer as :data:`_FOLDER_PRINTERS` are."""
_SUBSTITUTED_RE = r"(?:\$\(|`|\|\||&&|;|\|)\s*(?P<name>[^\s()`;|&<>]+)(?P<rest>[^()`;|&<>]*)"
"""A program a command substitution runs: after its opening, or after ``||``, ``&&``, ``;`` or
``|`` inside it."""


def _substitution_spelt(words: list[str], at: int) -> str:
    """The command substitution an unquoted ``$`` at ``words[at]`` opens, spelt again from
    the lexer's words (``$``, ``(``, ``git``, …, ``)``), up to :data:`_INNER_WORDS` words."""
    depth = 0
    spelt = ["$"]
    for word in words[at + 1 : at + 1 + _INNER_WORDS]:
        depth += word.count("(") - word.count(")") if re.match(_PUNCTUATION, word) else 0
        spelt.append(word)
        if depth <= 0:
            break
    inner = " ".join(spelt[2:-1]).replace("$ (", "$(").replace("` ", "`")
    return f"$({inner})" if len(spelt) > 2 else "$"


_INNER_WORDS = 64
"""The most words of an unquoted ``cd $(…)`` read to tell what it runs; past them it is data."""


def _named_folder(word: str, known: Mapping[str, str | None], *, unsure: bool) -> bool:
    """Whether the folder a ``cd`` into ``word`` (known only at run time) takes comes from a
    program printing folders of its own knowledge (:data:`_FOLDER_PRINTERS`,
    :data:`_FOLDER_PRINTING`: ``cd
    "$(git rev-parse --show-toplevel)"``, ``cd "$(dirname "$0")/.."``) or a variable neither
    set nor assigned (``cd ${PROJECT_ROOT:-.}``; not after ``read``, ``source`` or ``eval``:
    ``unsure``), rather than from data a file or a variable set from one holds (``cd
    "$(cat target)"``, ``d=$(cat f); cd "$d"``, ``cd `cat f```): a program the guard does not
    read run in the latter is refused."""
    if word in ("$", "`") or ("`" in word and not re.search(_SUBSTITUTED_RE, word)):
        return False  # the lexer split the substitution off: what runs is not in the word
    for match in re.finditer(_SUBSTITUTED_RE, word):
        name = match.group("name").rsplit("/", 1)[-1]
        said = " ".join([name, *match.group("rest").replace('"', " ").split()])
        printing = any(said == each or said.startswith(each + " ") for each in _FOLDER_PRINTING)
        if name not in _FOLDER_PRINTERS and not printing:
            return False
    names = [m.group("braced") or m.group("plain") for m in _variables(word)]
    if names and unsure:
        return False
    return all(name is None or name.split(":")[0].split("-")[0] not in known for name in names)


def _entered_folder(previous: str | None, word: str, *, chdir: bool) -> str | None:
    """The folder the shell goes into at ``word`` after ``previous``: a ``cd``/``pushd``
    operand, or, inside an ``env`` command (``chdir``), its ``-C``/``--chdir`` folder."""
    if previous == "cd" and _separates(word):
        return "~"  # a bare ``cd``: ``HOME``, the command's own or the environment's
    if previous in _CD_WORDS and not word.startswith("-") and not _separates(word):
        return word
    if previous in _CD_WORDS and word == "-":
        return "$OLDPWD"  # the folder before: the command's own ``OLDPWD``, or bash's
    return _env_folder(previous, word) if chdir else None


_ASSIGNED_FIRST_RE = r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*"


class _CodeRun:
    """Whether the command being read runs code the guard cannot read (:func:`_run_time_code`)
    that no :data:`_CODE_PRINTERS` program printed, until that command's end; and what each
    variable the command assigned from a command substitution holds (``x=$(cat s); eval
    "$x"`` runs ``cat s``'s output as ``eval "$(cat s)"`` does)."""

    def __init__(self) -> None:
        self.ran = False
        self.outputs: dict[str, str] = {}  # variable name -> the substitution it was assigned

    def see(
        self, previous: str | None, words: list[str], at: int, *, evaluating: bool = False
    ) -> str | None:
        """Read ``words[at]`` (after ``previous``; ``evaluating``: among an ``eval``'s words):
        an assignment, or code run from output, which it returns (:func:`_run_time_code`)."""
        if (assignment := re.match(_ASSIGNMENT_RE, words[at])) is not None:
            name, value = assignment.group("name"), assignment.group("value")
            if value == "$" and words[at + 1 : at + 2] == ["("]:
                self.outputs[name] = _substitution_spelt(words, at)
            elif "$(" in value or "`" in value or "<(" in value:
                self.outputs[name] = value
            else:
                self.outputs.pop(name, None)
        code = _run_time_code(previous, words, at, self.outputs, evaluating=evaluating)
        self.ran = self.ran or (code is not None and not _code_printed(code))
        return code

    def ended(self, word: str, *, substituting: int) -> bool:
        """Whether ``word`` ends the command whose code ran (then no longer running)."""
        if self.ran and _separates(word) and not substituting:
            self.ran = False
            return True
        return False


def _held_in(word: str, outputs: Mapping[str, str]) -> str | None:
    """``word`` (a shell's ``-c`` code) with each variable the command assigned from a
    substitution (``outputs``, :class:`_CodeRun`) spelt as that substitution (``c=$(… |
    base64 -d); bash -c "$c"`` runs ``$(… | base64 -d)``'s output as code), or None when it
    uses none."""
    names = {m.group("braced") or m.group("plain") for m in _variables(word)}
    if not names & set(outputs):
        return None
    return re.sub(
        r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: outputs.get(m.group(1), m.group(0)), word
    )


_STDIN_FILE_RE = r"^(?:/dev/stdin|/dev/fd/\d+|/proc/(?:self|\d+|\$\$|\$BASHPID)/fd/\d+)$"
"""Files that are an open file descriptor (standard input, or one a redirection or ``<(…)``
opened): ``source /dev/stdin < s`` runs what it reads, data the guard did not read."""


def _run_time_code(
    previous: str | None,
    words: list[str],
    at: int,
    outputs: Mapping[str, str],
    *,
    evaluating: bool = False,
) -> str | None:
    """The command substitution whose output the shell runs as code at ``words[at]`` after
    ``previous``: ``eval "$(…)"``, ``eval `…```, ``source <(…)``, ``. "$(…)"`` (spelt
    ``$(…)``, ``$`` when not known), one in any later word of an ``eval`` (``evaluating``:
    ``eval -- $(…)``, ``eval ' '$(…)``), ``eval "$x"`` of a variable in ``outputs`` (what
    the command assigned it from), ``source /dev/stdin`` (the file descriptor's path), or
    None. The guard cannot read that code: it may ``cd`` anywhere, set any variable, make
    links."""
    word = words[at]
    sourcing = previous in _SOURCING
    if evaluating and previous != "eval" and not sourcing:
        if "$(" not in word and not word.endswith("$") and not word.startswith("`"):
            return None  # no substitution opens here (`` -b` ``: one closes)
        previous = "eval"  # a later word of the eval's: run as code as its first is
    if previous != "eval" and not sourcing:
        return None
    if sourcing and re.match(_STDIN_FILE_RE, word):
        return word
    names = [m.group("braced") or m.group("plain") for m in _variables(word)]
    if from_output := [outputs[name] for name in names if name in outputs]:
        return " ".join(from_output)
    if word == "<(" and sourcing:
        return _substitution_spelt(["$", "(", *words[at + 1 :]], 0)
    if word == "$":
        return _substitution_spelt(words, at)
    if previous == "eval" and word.endswith("$") and words[at + 1 : at + 2] == ["("]:
        return _substitution_spelt(["$", *words[at + 1 :]], 0)  # ``eval ' '$(…)``
    if word.startswith(("$(", "`")) or (previous == "eval" and ("$(" in word or "`" in word)):
        return word
    return None


def _code_printed(code: str) -> bool:
    """Whether every program the command substitution ``code`` runs is a
    :data:`_CODE_PRINTERS` one (by its last name: ``/opt/homebrew/bin/brew shellenv``; after
    leading assignments: ``SHELL=/bin/sh lesspipe``)."""
    names = []
    for match in re.finditer(_SUBSTITUTED_RE, code):
        said = re.sub(_ASSIGNED_FIRST_RE, "", (match.group("name") + match.group("rest")).strip())
        names.append(said.split(" ", 1)[0].strip("'\"").rsplit("/", 1)[-1])
    return bool(names) and all(name in _CODE_PRINTERS for name in names)


_CODE_READERS_RE = r"(?:cat|head|tail)"
"""Programs printing a file's text (or its first or last lines) for :func:`_code_files`."""
_CODE_FILE_WORD_RE = r"(?:~|\$HOME|\$\{HOME\})?[\w./@%+,:-]+"
"""A file's name read exactly: literal, or below the home (``~/w``, ``$HOME/w``)."""
_SUBSTITUTION_BODY_RE = (
    r"(?s)\s*(?:\$\(|`)(?P<body>[^`$()'\"\\;&]*(?:\$HOME[^`$()'\"\\;&]*)*)[)`]\s*"
)
"""A command substitution's text holding no quote, escape, list, nested substitution or
variable but ``$HOME``, for :func:`_code_files`."""
_QUIET_RE = r"\d*>{1,2}\s*/dev/null|\d*>&\d"
"""A redirection of a reader's other output away (``2>/dev/null``, ``2>&1``)."""
_NUMBER_OPTION_RE = r"-[nc]\s*\d+|-\d+|--(?:lines|bytes)=\d+|--"
"""An option of ``head``/``tail`` counting lines or bytes (``-n 9``, ``-5``), or ``--``."""


def _code_files(code: str) -> list[str] | None:
    """The files whose text the command substitution ``code`` (``$(…)``, `` `…` ``) prints,
    when it is one reading of them this reads exactly: ``cat``, ``head`` or ``tail`` (with
    ``-n N``) of names or ``< NAME`` (:data:`_CODE_FILE_WORD_RE`), its other output sent
    away, piped through more such readers only (``cat ~/w | cat``); None for anything else
    (another program, a variable, a quote, a nested substitution)."""
    match = re.fullmatch(_SUBSTITUTION_BODY_RE, code)
    if match is None:
        return None
    files: list[str] = []
    for index, part in enumerate(match.group("body").split("|")):
        text = re.sub(_QUIET_RE, " ", part)
        text = re.sub(rf"<\s*({_CODE_FILE_WORD_RE})", lambda m: f" {m.group(1)} ", text)
        redirected = re.findall(rf"<\s*{_CODE_FILE_WORD_RE}", part)
        text = re.sub(rf"(?<!\S){_NUMBER_OPTION_RE}(?!\S)", " ", text)
        words = text.split()
        program = words.pop(0) if words and re.fullmatch(_CODE_READERS_RE, words[0]) else None
        if program is None and not (index == 0 and redirected and len(words) == 1):
            return None  # not a reader, nor ``$(< FILE)``
        if any("<" in word or ">" in word or word.startswith("-") for word in words):
            return None
        if index and words:
            return None  # a reader after a pipe reads the pipe only
        if not all(re.fullmatch(_CODE_FILE_WORD_RE, word) for word in words):
            return None
        files += words
    return files or None


def _note_run_time_code(
    found: ShellPaths,
    code: str | None,
    spelt: tuple[list[str], int],
    where: tuple[str, Mapping[str, str | None], Mapping[str, str]],
) -> None:
    """Note what ``eval`` or ``source`` runs from ``code`` (:func:`_run_time_code`, at the
    word ``spelt``: the command's words and its index), run in ``where`` (its folder,
    assignments, environment): nothing for what :data:`_CODE_PRINTERS` print
    (``eval "$(ssh-agent -s)"``); each file whose text it is, read exactly
    (:func:`_code_files`: ``eval "$(head -n 9 ~/w)"``, ``eval $(cat ~/w 2>/dev/null)``), as a
    script fed to a shell, judged as ``bash < FILE`` is; any other code as code known only at
    run time (``ShellPaths.unread_code``: ``eval "$(curl …)"``, ``eval "$(python3 gen.py)"``),
    which the guard refuses (review59 finding 8: a few exact spellings only were read)."""
    words, at = spelt
    sourced = at > 0 and words[at - 1] in _SOURCING and words[at] != "<("
    if code is None or _code_printed(code) or sourced:
        return  # ``source "$(dirname s)/s.sh"``: a file named at run time, no printed code
    code = _unquoted_code_file(["eval", *words[at:]], 1) or code  # ``$(< s)``, `` `cat s` ``
    files = _code_files(code)
    if files is None:
        found.unread_code.append(code)
        return
    base, known, environ = where
    for name in files:
        expanded = _expand(name, known, environ)
        path = None if expanded is None else _tilde(expanded, environ)
        found.scripts.append(("fed", base, name, path, True))


def _evaluated(
    evaluating: list[str] | None, word: str, previous: str | None, *, reader: _Writes
) -> tuple[list[str] | None, list[str]]:
    """Follow an ``eval``'s words: the words so far (None outside one) after ``word``, and the
    command it runs once its simple command ends (bash joins its words with spaces and reads
    them again: ``eval cp note.md '"$(cat f)"/a.md'`` copies to the place ``f`` names).
    ``reader`` tells whether ``word`` is the command's name, after what runs it (``builtin
    eval``, ``command -p eval``, ``X=1 eval``), not only the first word of a command, and
    whether that name is ``eval`` however reached (``e=eval; $e …``, ``f() { eval "$@"; }``)."""
    named = reader.named_now
    if evaluating is None or (named and reader.evaluates):
        starts = (word == "eval" and (previous is None or named)) or (named and reader.evaluates)
        return ([] if starts else None), []
    if word in _SEPARATORS or re.match(_PUNCTUATION, word):
        return None, [" ".join(evaluating)]
    evaluating.append(word)
    return evaluating, []


def _code_in(word: str, *, code: bool, given: tuple[list[str], int]) -> list[str]:
    """The command another shell may run from ``word`` (one holding white space once unquoted:
    ``sh -c '…'``'s text, an ``ssh`` command; or any, when it is a shell's ``-c`` ``code``:
    ``bash -c '"$@"' _ cp …``), as a list of none or one: an assignment's value alone (``x='cp
    note.md "$(cat f)"/a.md'; eval "$x"`` runs ``cp``, not ``x=cp``). A shell's code is read
    after ``set -- …`` of the words after it (``given``: the command's words and where those
    start, :func:`_code_arguments`), as bash gives them to it as its positional parameters."""
    if not code and not any(char.isspace() for char in word):
        return []
    assigned = re.match(_ASSIGNMENT_RE, word)
    rest = _own_value_rest(word)
    text = word if assigned is None else assigned.group("value") if rest is None else rest
    return [f"set -- {_code_arguments(*given)}\n{text}" if code else text]


def _code_arguments(words: list[str], start: int) -> str:
    """The words after a shell's ``-c`` code (``words`` from ``start``, as the lexer leaves
    them; never copied: a word-by-word slice made reading a long command quadratic) up to the
    end of its simple command, past the first (``$0``), quoted again as shell text: a word
    built at run time stays so (``bash -c '"$@"' _ ls -la`` runs ``ls -la``; ``_ cp x
    "$(cat f)"/a.md`` a copy to a place known only at run time), and so is a ``find``
    action's ``{}``, a name it finds."""
    arguments: list[str] = []
    for at in range(start, len(words)):
        word = words[at]
        if _separates(word) or re.match(_REDIRECTION_RE, word) or re.match(_PUNCTUATION, word):
            break
        arguments.append(_fed_word(word, "$" in word or "`" in word, ["{}"]))
    return " ".join(arguments[1:])


def _read_inner(
    found: ShellPaths,
    texts: list[str],
    at: tuple[str, Mapping[str, str], int, bool],
    *,
    outer: _Writes,
    data: bool = False,
) -> None:
    """Add what each of ``texts`` (a command another shell or ``eval`` runs, standing in
    ``at``'s folder, with its environment, this many commands deep, and whether in a folder
    known only at run time) names to ``found``, up to :data:`_INNER_DEPTH` commands deep,
    read after what ``outer`` (the command holding it) did: a program that may make links ran
    before it (``python3 mk.py && bash -c '…'``), a file it wrote (``cp /bin/cp t; bash -c
    './t …'``).

    ``data``: the text is a word given to a program the guard knows runs no shell command of
    it (``echo "$USER did it"``, ``git commit -m "$T fix"``, awk's ``$1``): its first word
    named at run time (``$USER``) is no program that may make links (P-3); read so, every
    later write of a new file was refused. Nor is a program it names by a path that is not
    there and that the command does not write (``sed 's/ln -s/ln -sf/'``: ``s/ln``), or by
    a path to a link maker read by its name (``grep "/bin/ln -s"``: as ``grep "ln -s"``).
    Every program it names by name stays one that may run: many programs run a word as
    shell text (``npx -c``, ``make --eval``, ``trap``, ``sg -c``, ``python3 -c
    "os.system('…')"``, a pipe into a shell), so ``'python3 mk.py'`` given to any is read as
    run, as before."""
    base, environ, depth, lost = at
    for text in texts:
        if depth < _INNER_DEPTH and text.strip():
            inner = shell_paths(
                text,
                base,
                environ,
                _depth=depth + 1,
                _lost=lost,
                _budget=found.budget,
                _links=found.links,
                _outer=outer,
            )
            made = inner.linker
            if data:  # ``echo "Running run.sh"``: a program the text names writes nothing,
                # nor runs a path not there (``/ln -s``); a word marked already counts once
                # (``"python3 s.sh"``: an interpreter's script), else it cancels a real write
                unmarked = Counter(inner.guessed) - Counter(inner.textless)
                inner.textless.extend(unmarked.elements())
                inner.scripts = [run for run in inner.scripts if not _no_data_script(run, outer)]
                inner.extglob_groups = []  # ``git log --format='%h +(x)'``: no shell parses it
            if data and made is not None and made != outer.linker and _data_name(made, at, outer):
                # named by the text itself, not a program run before it
                inner.after_linker = [seen for seen in inner.after_linker if seen[:2] != made]
                inner.linker = None
            found.take(inner)


def _no_data_script(script: tuple[str, str, str, str | None, bool], outer: _Writes) -> bool:
    """Whether a ``script`` a data word read as a command runs by its path (``awk
    '{gsub(/ln -s/, …)}'``: ``/ln``) is none: named by a path not there that the command does
    not write by a writer the guard reads, so it runs nothing (:func:`_data_name`)."""
    kind, base, _, path, _ = script
    if kind != "run" or path is None:
        return False
    there = os.path.lexists(os.path.join(base, path))  # noqa: PTH118
    return not (there or outer.wrote(os.path.basename(path)))  # noqa: PTH119


def _data_name(
    made: tuple[str, str], at: tuple[str, Mapping[str, str], int, bool], outer: _Writes
) -> bool:
    """Whether the program ``made[0]`` a data word names (:func:`_read_inner`; ``at``: its
    folder first) is no program that may run: named at run time (``$USER did it``), or by a
    path (holding ``/``) to a file not there that the command does not write (``s/ln -s``,
    ``fix/ln -s``), or to a link maker known by its name (``/bin/ln``: its words are read)."""
    program, why = made
    if why == _RUN_NAMED:
        return True
    if "/" not in program or "$" in program or "`" in program:
        return False

    name = os.path.basename(program)  # noqa: PTH119
    there = os.path.lexists(os.path.join(at[0], _tilde(program, at[1])))  # noqa: PTH118
    return why == name or not (there or outer.wrote(name))


def _add_here_data(
    found: ShellPaths,
    texts: Iterable[tuple[str, bool]],
    bases: list[str],
    known: dict[str, str | None],
    environ: Mapping[str, str],
    *,
    lost: bool,
) -> None:
    """Judge each word of the here-documents' bodies and here-strings ``texts`` (each with
    whether the shell expands it) as a path a program reading it may use."""
    for text, expands in texts:
        for piece in re.split(_DATA_SPLIT_RE, text):
            if piece:
                _add_data(found, piece, bases, known, environ, expands=expands, lost=lost)


def _note_assignments(
    word: str, previous: str | None, known: dict[str, str | None], environ: Mapping[str, str]
) -> None:
    """Record in ``known`` what ``word`` assigns: a ``for`` or ``select`` loop's name
    (undecidable), an
    assignment ``NAME=value`` (its value expanded, a default picked as the shell picks it:
    :func:`_defaults_decided`), and a ``${X:=word}`` that sets X to its word when X is unset
    (or, with ``:``, empty) here (undecidable when that word is)."""
    if previous in ("for", "select") and re.match(_NAME_RE, word):
        known[word] = None
    if (assignment := re.match(_ASSIGNMENT_RE, word)) is not None:
        value = _defaults_decided(assignment.group("value"), known, environ, split=False)
        known[assignment.group("name")] = value
    for assigning in re.finditer(_ASSIGNING_DEFAULT_RE, word):
        name = assigning.group("name")
        value = known[name] if name in known else environ.get(name)
        if value is None or (value == "" and assigning.group("colon")):
            end = word.find("}", assigning.end())
            known[name] = None if end < 0 else _expand(word[assigning.end() : end], known, environ)


_ASSIGNING_DEFAULT_RE = r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<colon>:?)="
"""``${NAME:=word}`` and ``${NAME=word}``: they assign ``word`` to ``NAME`` when it is unset
(or, with ``:``, empty)."""
_DATA_SPLIT_RE = r"[\s=<>;|&()'\"]+"
"""Where a path ends in here-data: white space, and what ends one in a shell word."""


def _add_data(
    found: ShellPaths,
    piece: str,
    bases: list[str],
    known: Mapping[str, str | None],
    environ: Mapping[str, str],
    *,
    expands: bool,
    lost: bool,
) -> None:
    """Add a word of here-data (:mod:`~harness_memory.hooks.here_data`) as a path the program
    reading it may take: literally (bash expands no glob, brace or ``~`` there; ``~`` is
    expanded all the same, as a program may), its variables expanded where bash expands them
    (``expands``); a word built at run time is judged by its literal start or, with none, by
    what it names (:func:`_undecided`)."""
    word = _expand(piece, known, environ) if expands else piece
    if word is None:
        _undecided(found, piece, _first_expansion(piece), bases, environ)
        return
    path = _tilde(word, environ)
    if PurePath(path).is_absolute():
        found.paths.append(path)
        return
    if lost:
        found.unanchored.append(path)
    found.paths.extend(f"{base}/{path}" for base in bases)


def _shell_words(command: str) -> list[str]:
    """``command`` split into words and separators as bash splits it (quotes read, ``;&|()<>``
    as punctuation, a newline as ``;``). When the lexer cannot split it (a quote left open:
    perhaps a here-document body's ``don't`` read as command text), each line is split on its
    own, at white space when even that line cannot be, so no line's command is hidden."""
    try:
        return _lexed(_lines_separated(bash_quoting(command)))
    except ValueError:
        words: list[str] = []
        for line in bash_quoting(command).split("\n"):
            words.extend(_line_words(_lines_separated(line)))
            words.append(";")
        return words


def _line_words(line: str) -> list[str]:
    """One line's words when the whole command cannot be lexed: as the lexer splits the line,
    with a quote it leaves open closed at its end or a last lone backslash dropped (bash runs
    what stands before them), or at white space when none of those lexes."""
    for spelled in (line, line + "'", line + '"', line.removesuffix("\\")):
        try:
            return _lexed(spelled)
        except ValueError:
            continue
    return line.split()


def _lexed(text: str) -> list[str]:
    """``text`` split by the lexer as bash splits a line (a redirection's descriptor left out:
    :func:`_descriptors_dropped`; words as ``shlex`` gives them, in linear time:
    :func:`~harness_memory.hooks.shell_words.split_words`); ``ValueError`` at a quote left
    open."""
    return split_words(_descriptors_dropped(text), punctuation=PUNCTUATION)


_DESCRIPTOR_RE = r"(?:[0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\})(?=[<>])"
"""A redirection's descriptor as bash reads it: a word of digits alone, or ``{NAME}`` (bash
stores the descriptor it opens in ``NAME``), right before ``<`` or ``>`` (``2>err``,
``1>&2``, ``3<>f``, ``{fd}>log``); glued to other text (``a2>x``) or spaced from the operator
(``2 >x``) it is a word of its own."""
_DESCRIPTOR_NAME_RE = r"(?:^|[\s;&|()])\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\}[<>]"
"""A ``{NAME}`` redirection's variable: set at run time, to the descriptor bash opens."""


def _descriptors_dropped(text: str) -> str:
    """``text`` with each redirection's descriptor (:data:`_DESCRIPTOR_RE`) outside quotes
    left out: the lexer splits ``2>/dev/null`` into ``2``, ``>``, ``/dev/null``, and the ``2``
    was read as a word of the command (``ln -s "$(cat f)" lnk 2>/dev/null`` made ``2`` the
    link, so ``lnk`` was not followed). Which descriptor a redirection opens changes no
    place it writes; quotes and escapes are read as the lexer reads them."""
    if "<" not in text and ">" not in text:
        return text
    out: list[str] = []
    quote = ""
    at = 0
    starts = True  # at the start of a word
    while at < len(text):
        char = text[at]
        if (
            not quote
            and starts
            and (found := re.compile(_DESCRIPTOR_RE).match(text, at)) is not None
        ):
            out.append(" ")  # ``;2>x``: the lexer would glue ``;`` and ``>``
            at = found.end()
            starts = False
            continue
        if char == "\\" and quote != "'":
            out.append(text[at : at + 2])
            at += 2
            starts = False
            continue
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        starts = not quote and char in _WORD_ENDS
        out.append(char)
        at += 1
    return "".join(out)


_SET_BY_ANY = ("HOME", "OLDPWD", "PWD", "CDPATH", "IFS")
"""The variables a place may take without a ``$`` in it (``~``, ``cd -``, ``~+``, ``cd sub``,
a split), undecided after a command that may set any variable (:meth:`_Writes._sets_any`)."""
_IFS = " \t\n"
"""The characters bash splits an unquoted expansion's value at (``IFS`` unset)."""
_STARTING = {"IFS": _IFS}
"""Variables bash sets when it starts, whatever its environment holds."""
_NAMING_BUILTINS = frozenset(
    {"read", "printf", "mapfile", "readarray", "getopts", "unset", "for", "select"}
    | {"declare", "typeset", "local", "export", "readonly", "let"}
)
"""Commands whose words may name variables they set (or unset) at run time."""
_GROUP_OPENERS = frozenset({"{", "if", "while", "until", "for", "select", "case"})
_GROUP_CLOSERS = frozenset({"}", "fi", "done", "esac"})
_PLAIN_BEFORE = frozenset({";", "\n"})
_PLAIN_AFTER = frozenset({";", "\n", "&&", "||"})


_ARGUMENTS_RUN = frozenset({"$@", "${@}", "$*", "${*}"})
"""A function body's command run as its arguments (``"$@"``, quotes read by the lexer)."""
_SET_BEFORE = frozenset(_SEPARATORS | {"builtin", "command"})
"""The words after which a ``set`` runs as the builtin (``builtin set -- …``, ``command set``)."""


def _function_runners(
    words: list[str],
) -> tuple[list[str], frozenset[str], frozenset[str], frozenset[str]]:
    """``words`` with each command of a function's body that runs its arguments (``f() {
    "$@"; }``, ``function run { echo "+ $*"; "$@"; }``: :data:`_ARGUMENTS_RUN`) spelt ``:``
    (it runs nothing where the function is defined), and the names of those functions: a
    call runs its arguments (``run make`` runs ``make``), read as a wrapper's are. A body that
    sets its own first (``f() { set -- "$@" "$(cat t)"/a.md; "$@"; }``: :func:`_positional_set`
    gives words) runs those: its ``"$@"`` kept as is, read as the words ``set`` gave, and the
    function a runner still (its call's words may be among them). A ``set`` of options alone
    (``set -e``, ``set -o pipefail``, ``set +x``) leaves the arguments as they were. Third, the
    functions whose body runs some of its arguments, not all in order (``shift``, then
    ``"$@"``; ``"${@:2}"``, ``"$2"``): a call may run any of its words, read as an alias the
    command defines is (each word built at run time a place it may write). Fourth, the
    functions whose body hands its arguments to ``eval`` (``f() { eval "$@"; }``, spelt ``eval
    :`` there; or a variable holding them: ``local c="$*"; eval "$c"``): a call is read as an
    ``eval`` of its words. A body calling such a function with its arguments (``g() { f "$@";
    }``) is one of the same kind (:func:`_chained`); a body's ``"$@"`` followed by words of its
    own (``"$@" "$(cat t)"/a.md``) is kept and read where it stands."""
    out = list(words)
    runners: set[str] = set()
    unread: set[str] = set()
    evaluators: set[str] = set()
    shifting: set[str] = set()  # the functions whose body runs ``shift``
    carriers: set[str] = set()  # the variables a body assigns its arguments to
    calls: list[tuple[str, str, int]] = []  # a body's commands: function, name, where next
    stack: list[tuple[str, int]] = []  # the functions whose body is open, at which depth
    setting: set[int] = set()  # the depths of those whose body ran ``set``
    depth = 0
    previous = ";"
    for at, word in enumerate(words):
        if word == "{":
            depth += 1
            name = _function_named(words, at)
            if name is not None:
                stack.append((name, depth))
        elif word == "}" and depth:
            if stack and stack[-1][1] == depth:
                setting.discard(stack.pop()[1])
            depth -= 1
        elif word == "set" and stack and previous in _SET_BEFORE and _sets_positional(words, at):
            setting.add(stack[-1][1])
        elif word == "shift" and stack and previous in _SET_BEFORE:
            shifting.add(stack[-1][0])
        elif stack and previous == "eval" and (word in _ARGUMENTS_RUN or _carried(word, carriers)):
            out[at] = ":"
            evaluators.add(stack[-1][0])
        elif stack and word in _ARGUMENTS_RUN and previous in _SEPARATORS:
            if stack[-1][1] not in setting and _ends_command(words, at + 1):
                out[at] = ":"  # ``"$@" "$(cat t)"/a.md``: its own words kept, read here
            runners.add(stack[-1][0])
        elif stack and re.match(_POSITIONAL_RE, word) and previous in _SEPARATORS:
            unread.add(stack[-1][0])
        elif stack and previous in _SEPARATORS and at + 1 < len(words):
            calls.append((stack[-1][0], word, at + 1))  # ``g() { f "$@"; }``
        if stack and (carried := re.match(_ARGUMENTS_HELD_RE, word)) is not None:
            carriers.add(carried.group("name"))  # ``local c="$*"``: ``eval "$c"`` runs them
        previous = word
    _chained([(name, called, words[at]) for name, called, at in calls], runners, unread, evaluators)
    for _, called, at in calls:  # ``f "$@"`` in a body runs nothing where it is defined
        if called in runners | evaluators and words[at] in _ARGUMENTS_RUN:
            out[at] = ":" if _ends_command(words, at + 1) else out[at]
    unread |= shifting & runners
    return out, frozenset(runners - unread), frozenset(unread), frozenset(evaluators)


_ARGUMENTS_HELD_RE = r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)=.*\$(?:[@*]|\{[@*]\})"
"""A function body's assignment holding its arguments (``c="$*"``, ``local c=$@``)."""


def _carried(word: str, carriers: set[str]) -> bool:
    """Whether ``word`` is one variable (``$c``, ``${c}``) among ``carriers``, which hold a
    function's arguments."""
    return re.match(_LONE_VARIABLE_RE, word) is not None and word.strip('"${}') in carriers


def _ends_command(words: list[str], at: int) -> bool:
    """Whether the simple command ends at ``words[at]`` (the end, a separator or a
    redirection: ``"$@" > log`` runs the arguments alone)."""
    return (
        at >= len(words) or _separates(words[at]) or re.match(_PUNCTUATION, words[at]) is not None
    )


def _chained(
    calls: list[tuple[str, str, str]], runners: set[str], unread: set[str], evaluators: set[str]
) -> None:
    """Add to ``runners``, ``unread`` and ``evaluators`` each function whose body calls one
    of them with its arguments (``calls``: the function, the name its body's command
    starts with, the word after it): ``f() { "$@"; }; g() { f "$@"; }``: ``g cp …`` runs
    ``cp …`` too, in whichever order they are defined. At most one pass per call."""
    for _ in range(len(calls)):
        grown = False
        for function, called, given in calls:
            if given not in _ARGUMENTS_RUN and called not in evaluators | unread:
                continue
            for kind in (runners, unread, evaluators):
                if called in kind and function not in kind:
                    kind.add(function)
                    grown = True
        if not grown:
            return


def _sets_positional(words: list[str], at: int) -> bool:
    """Whether the ``set`` at ``words[at]`` gives the positional parameters words (``set --
    "$@" x``, ``set cp x y``), read from its words up to the end of its command, a
    redirection (``>``, ``2>&1`` lexed apart) and its target left out."""
    said: list[tuple[str, bool]] = []
    end = at + 1
    while end < len(words) and not _separates(words[end]):
        if re.match(_PUNCTUATION, words[end]):
            end += 2  # ``set +x > /dev/null``: the redirection's target is no word of ``set``
            continue
        said.append((words[end], False))
        end += 1
    return bool(_positional_set(said))


def _function_named(words: list[str], at: int) -> str | None:
    """The function whose body the ``{`` at ``words[at]`` opens (``NAME() {``, ``NAME ( ) {``,
    ``function NAME {``, ``function NAME() {``), or None."""
    before = words[max(0, at - 4) : at]
    while before[-1:] == ["()"] or before[-2:] == ["(", ")"]:
        before = before[:-1] if before[-1] == "()" else before[:-2]
        if before and re.match(_NAME_RE, before[-1]):
            return before[-1]
    if before[-2:-1] == ["function"] and re.match(_NAME_RE, before[-1]):
        return before[-1]
    return None


def _names_set_unsurely(words: list[str], command: str) -> frozenset[str]:
    """The variables ``words`` (``command`` lexed) may set otherwise than by one plain assignment
    standing alone at the top level (``cmd=ln;``): assigned twice or with ``+=``, in a
    branch, a loop, a group, a subshell, a pipeline or a function's body (``false &&
    cmd=echo``, ``(cmd=echo)``, ``f() { cmd=echo; }``), before a command (``cmd=echo
    true``), by a builtin (``read cmd``, ``printf -v cmd``, ``declare``, ``for cmd in``), by
    ``${cmd:=…}``, an element (``cmd[0]=ln``) or a ``{cmd}>`` redirection; and ``alias
    NAME`` for each alias defined (``alias l=ln``) or name hashed to a program (``hash -p
    /bin/cp c``). The value such a variable holds when it names a program is known only at
    run time. Linear in the words."""
    counts: Counter[str] = Counter()
    unsure = {
        m.group("name")
        for m in (re.finditer(_DESCRIPTOR_NAME_RE, command) if "{" in command else ())  # H-5
    }
    depth, previous, builtin = 0, ";", ""
    for at, word in enumerate(words):
        after = words[at + 1] if at + 1 < len(words) else ";"
        if re.match(_PUNCTUATION, word):
            depth = max(0, depth + word.count("(") - word.count(")"))
        elif word in _GROUP_OPENERS and previous in _SEPARATORS:
            depth += 1
        elif word in _GROUP_CLOSERS:
            depth = max(0, depth - 1)
        builtin = "" if _separates(word) else builtin or (word if previous in _SEPARATORS else "")
        unsure.update(m.group("name") for m in re.finditer(_ASSIGNING_DEFAULT_RE, word))
        if builtin in _NAMING_BUILTINS and word != builtin:
            unsure.update(_names_in(word))
        if builtin == "alias" and word != builtin:
            unsure.add(f"alias {word.partition('=')[0]}")
            unsure.add(word.partition("=")[0])
        if (element := re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\[[^\]]*\]\+?=", word)) is not None:
            unsure.add(element.group(1))  # ``cmd[0]=ln``: ``$cmd`` is its element 0
        if (assigned := re.match(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?)=", word)) is not None:
            name = assigned.group(1)
            counts[name] += 1
            alone = previous in _PLAIN_BEFORE and after in _PLAIN_AFTER
            if assigned.group(2) or depth or not alone:
                unsure.add(name)
        previous = word
    unsure.update(name for name, count in counts.items() if count > 1)
    unsure.update(each for name in _hashed_names(words) for each in (f"alias {name}", name))
    return frozenset(unsure)


def _names_in(word: str) -> set[str]:
    """The names a builtin's argument ``word`` may set (``declare I\\FS=:`` and ``read -r
    I''FS`` set ``IFS``: bash removes quotes and backslashes before the builtin reads its
    name); ``IFS`` too when a name is built at run time (``declare I${z}FS=:``), as it
    decides how every unquoted expansion after it splits."""
    names = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", word))
    names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", re.sub(r"[\\'\"]", "", word)))
    name, assigns, _ = word.partition("=")
    if assigns and re.search(r"[$`]", name):
        names.add("IFS")
    return names


_BUILTIN_RUNNERS = frozenset({"builtin", "command", "if", "elif", "while", "until", "time"})
"""Words that run the builtin after them (``builtin hash``, ``command -p hash``, ``if hash``)."""


def _hashed_names(words: list[str]) -> set[str]:
    """The names each ``hash -p PATH NAME…`` among ``words`` binds to the program at ``PATH``,
    its options read as bash reads them (:data:`~harness_memory.hooks.option_words.TABLES`:
    ``hash -p/bin/cp c``, ``hash -lp /bin/cp c``), after ``builtin`` or ``command`` too:
    each name then runs that program, as an alias the command defines does. Linear in the
    words: the leading words of a command are stepped over by index, never sliced off (one
    copy of the rest per ``X=1`` made 1 MiB of ``x=1 x=1 …`` quadratic)."""
    names: set[str] = set()
    command: list[str] = []
    for word in [*words, ";"]:
        if not _separates(word):
            command.append(word)
            continue
        start = 0
        while start < len(command) and (
            command[start] in _BUILTIN_RUNNERS
            or command[start].startswith("-")
            or re.match(_ASSIGNMENT_RE, command[start])
        ):
            start += 1  # ``builtin``, ``command -p``, ``X=1``
        if command[start : start + 1] == ["hash"] and _hash_binds(command[start + 1 :]):
            read = read_options(command[start + 1 :], TABLES["hash"])
            names.update(command[start + 1 + at] for at in read.operands)
        command = []
    return names


def _hash_binds(words: list[str]) -> bool:
    """Whether ``hash`` run with ``words`` binds names to a program's path: its ``-p``, read
    as bash reads its options (:data:`~harness_memory.hooks.option_words.TABLES`: ``-p/bin/cp``,
    ``-lp /bin/cp``)."""
    return any(name == "-p" for name, _, _ in read_options(words, TABLES["hash"]).values)


def _subshells_spelt(command: str) -> str:
    """``command`` with each ``$((`` that bash reads as a command substitution of a subshell
    (``$((cp x "$(cat f)"/a.md) )``: no adjacent ``))`` closes it) spelt ``$( (``, so the
    command inside is read as one; an arithmetic ``$((1 + 2))`` stays as written. A command
    holding more than :data:`~harness_memory.hooks.here_data.OPERATOR_CAP` of them has each
    read as a substitution (its text read as commands: refused, never let through)."""
    if "$((" not in command:
        return command
    pieces = command.split("$((")
    if len(pieces) > OPERATOR_CAP:
        return "$( (".join(pieces)
    out = [pieces[0]]
    at = len(pieces[0])
    for piece in pieces[1:]:
        out.append("$((" if is_arithmetic(command, at) else "$( (")
        out.append(piece)
        at += 3 + len(piece)
    return "".join(out)


def _backquotes_spelt(command: str) -> str:
    """``command`` with the escaped backquotes inside a backquoted command (a command
    substitution nested in one) spelt ``$(`` and ``)`` in turn: the lexer kept them as plain
    backquotes, so the destination of a ``cp`` nested that way passed. Left as written when
    the nested ones do not pair."""
    if "\\`" not in command:
        return command
    out: list[str] = []
    at = 0
    quote = ""
    while at < len(command):
        char = command[at]
        if char == "\\" and quote != "'":
            out.append(command[at : at + 2])
            at += 2
        elif char == "'" and quote != '"':
            quote = "" if quote else "'"
            out.append(char)
            at += 1
        elif char == '"' and quote != "'":
            quote = "" if quote else '"'
            out.append(char)
            at += 1
        elif char == "`" and quote != "'":
            end = at + 1
            while end < len(command) and command[end] != "`":
                end += 2 if command[end] == "\\" else 1
            inner = command[at + 1 : end].split("\\`")
            if len(inner) % 2:  # nested ones pair: alternately open and close
                inner = [
                    piece + ("" if n == len(inner) - 1 else "$(" if n % 2 == 0 else ")")
                    for n, piece in enumerate(inner)
                ]
            out.append("`" + "".join(inner) + command[end : end + 1])
            at = end + 1
        else:
            out.append(char)
            at += 1
    return "".join(out)


def _lines_separated(command: str) -> str:
    """``command`` as bash splits it into commands at its lines: each newline outside quotes
    spelt ``;`` (bash ends a command there; the lexer took it for white space, so ``true`` then
    ``cp x "$(cat f)"/a.md`` on the next line was read as one ``true`` command, its ``cp`` an
    operand) and each comment (a ``#`` starting a word, to the end of its line) left out, as
    bash ignores it (a ``don't`` in one opened a quote for the lexer). A newline after ``&&``,
    ``||`` or ``|`` (blank lines and comments between) ends nothing: bash reads the list on
    (``false &&`` then ``X=dist`` on the next line: the assignment never runs)."""
    if "\n" not in command and "#" not in command:
        return command
    out: list[str] = []
    quote = ""
    at = 0
    last = ""  # the last two characters that were not white space
    while at < len(command):
        char = command[at]
        if char == "\\" and quote != "'":
            out.append(command[at : at + 2])
            last = (last + command[at : at + 2])[-2:]
            at += 2
            continue
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif command.startswith("${", at):  # a ``#`` or newline inside is the word's own
            end = closing_bracket(command, at + 1) or len(command)  # unclosed: to the end
            out.append(command[at:end])
            last = command[end - 2 : end]
            at = end
            continue
        elif char == "\n":
            char = " " if last in ("&&", "||", "|&") or last.endswith("|") else " ; "
        elif char == "#" and comment_at(command, at):  # not after ``\ `` (review59b)
            end = command.find("\n", at)
            at = len(command) if end == -1 else end
            continue
        out.append(char)
        last = (last + char.strip())[-2:]
        at += 1
    return "".join(out)


def _env_folder(previous: str | None, word: str) -> str | None:
    """The folder an ``env`` option names for the command it runs (``-C DIR``, ``-CDIR``,
    ``--chdir DIR``, ``--chdir=DIR``), given the word before ``word``; None for any other
    word."""
    if previous in ("-C", "--chdir"):
        return word
    if word.startswith("--chdir="):
        return word.removeprefix("--chdir=")
    if word.startswith("-C") and len(word) > 2:
        return word[2:]
    return None


def _made_link(
    found: ShellPaths,
    word: str,
    base: str,
    known: Mapping[str, str | None],
    environ: Mapping[str, str],
) -> MadeLink | None:
    """The link made earlier in the command to a place built at run time that ``word`` (as
    the shell in ``base`` takes it) passes through (``ln -s "$(cat f)" l && … l/a.md``), or
    None (none, or ``word`` itself built at run time: judged as such)."""
    if not found.links:
        return None
    expanded = _expand(word, known, environ)
    if expanded is None:
        return None
    path = _tilde(expanded, environ)
    return unknown_link(path if PurePath(path).is_absolute() else f"{base}/{path}", found.links)


def _enter(
    word: str, bases: list[str], known: Mapping[str, str | None], environ: Mapping[str, str]
) -> bool:
    """``cd word``: push the folders it may lead to onto ``bases``; False when the folder
    cannot be decided here (built at run time, or past :data:`_FOLDERS_CAP`: relative words are
    then unanchored)."""
    target = _expand(word, known, environ)
    if target is None or len(bases) >= _FOLDERS_CAP:
        return False
    folders = _cd_folders(_tilde(target, environ), bases[-1], known, environ)
    bases.extend(folders or [])
    return folders is not None


class _ShellFolder:
    """The folder the shell is in, ``bases[-1]`` of the folders it may be in (P-3), kept
    where bash leaves one a ``cd`` entered: ``popd`` and a bare ``pushd`` go to the folder
    ``pushd`` kept (:meth:`stack_moved`); the end of a subshell (``( … )``, ``$(…)``), each
    stage of a pipe and a list put in the background (``cd sub | cat``, ``cd sub &``) go
    back to the folder before it (:meth:`left`, :meth:`see`). A script, a shell's ``-c``
    code or a pipe's code after it is read there (``pushd sub; popd; bash k.sh`` runs the
    Workspace's ``k.sh``, not ``sub/k.sh``)."""

    def __init__(self, bases: list[str], maybe: list[str]) -> None:
        self.bases = bases
        self.stack: list[str | None] = []  # ``pushd``'s folders, None where unknown
        self.starts = [bases[-1], bases[-1]]  # the current list's and pipeline's folders
        self.piped = False  # the current pipeline holds a ``|``
        self.groups: list[tuple[list[str], bool]] = []  # each open ``{``/``(``'s, outside it
        self.unknown = False  # bash's stack may differ from ``stack`` (``dirs -c``, ``+N``)
        self.maybe = maybe  # folders bash stays in where a ``cd`` may not run (:meth:`entered`)
        self.compound = 0  # how deep in ``if``/``while``/``for``/``case`` bodies, ``{ … }``

    def back_to(self, folder: str) -> None:
        """Make ``folder`` (one the shell was in) the folder it is in again."""
        if self.bases[-1] != folder:
            if folder in self.bases:
                self.bases.remove(folder)
            self.bases.append(folder)

    def left(self, held: tuple[bool, bool, bool, str]) -> tuple[bool, bool, bool]:
        """Back to the folder of ``held`` (what :func:`_read_words` held before a subshell:
        whether lost, entered, settled, and the folder) at its end; the rest of it."""
        self.back_to(held[3])
        return held[:3]

    def see(self, word: str, previous: str | None) -> None:
        """Take a word of the command (after ``previous``): a group's bounds (``{``, ``}``,
        each ``(`` and ``)``), a pipe, a list's end, a ``&``."""
        opens = word.endswith("(") and re.match(_PUNCTUATION, word) is not None
        if opens or (word == "{" and (previous is None or _separates(previous))):
            self.groups.append((list(self.starts), self.piped))
            self.starts, self.piped = [self.bases[-1], self.bases[-1]], False
            return
        if word == "}" or (word.startswith(")") and re.match(_PUNCTUATION, word)):
            self.starts, self.piped = self.groups.pop() if self.groups else (self.starts, False)
            word = word.lstrip(")")
        if previous is None and word in ("if", "while", "until", "for", "select", "case", "{"):
            self.compound += 1
        elif previous is None and word in ("fi", "done", "esac", "}"):
            self.compound = max(0, self.compound - 1)
        if word in ("|", "|&"):
            self.piped = True
            self.back_to(self.starts[1])  # each stage starts where the pipeline did
        elif word == "&":
            self.back_to(self.starts[0])  # the list ran in a subshell of its own
        if word in ("&", ";", "&&", "||", "\n", ";;"):
            if self.piped:
                self.back_to(self.starts[1])  # its last stage, too, ran in a subshell
            self.piped = False
            self.starts[1] = self.bases[-1]
            if word in ("&", ";", "\n", ";;"):
                self.starts[0] = self.bases[-1]

    def entered(self, before: str, words: list[str], at: int) -> None:
        """A ``cd``/``pushd`` whose folder is ``words[at]`` left ``before``: unless it surely
        runs and succeeds (first in its list, outside a function, group or compound command,
        into a folder there is), bash may still be in ``before`` (``false && cd sub``, ``f()
        { cd sub; }``, ``cd missing``), kept in :attr:`maybe`: a script run after it is read
        there too (P-3)."""
        start = at - 1
        while start > 0 and words[start] not in _CD_WORDS:
            start -= 1
        first = start == 0 or words[start - 1] in (";", "\n", "(")
        sure = first and not self.compound and os.path.isdir(self.bases[-1])  # noqa: PTH112
        if not sure and before != self.bases[-1] and before not in self.maybe:
            self.maybe.append(before)

    def pushed(self, before: str, *, known: bool) -> None:
        """A ``pushd`` into a folder (``known`` or not) from ``before``: kept on the stack."""
        self.stack.append(before if known else None)
        self.unknown = self.unknown or bool(self.groups or self.piped)

    def dirs_run(self, operands: list[str]) -> None:
        """A ``dirs`` with ``operands``: one that clears the stack (``-c``, ``-lc``) leaves
        bash's stack other than the one kept here (it may run or not, in a subshell or not),
        so every later ``popd`` goes to a folder known only at run time."""
        if any(word[:1] == "-" and "c" in word[1:] for word in operands):
            self.unknown = True

    def stack_moved(self, name: str, operands: list[str]) -> bool | None:
        """Follow ``popd`` or a bare ``pushd`` (``name``) with its ``operands``: None when
        bash moves no folder (an empty stack, ``-n``); else whether the folder it goes to
        is unknown (one kept unknown, a rotation of the stack: ``+N``, ``-N``, or any after
        the stack became unknown: ``dirs -c``, a ``popd`` in a subshell, P-3)."""
        if self.unknown or any(word[:1] == "+" or word[1:].isdigit() for word in operands):
            self.unknown = True  # bash's stack is no longer the one kept here
            return True
        if self.groups or self.piped:
            self.unknown = True  # a subshell's ``popd`` leaves the outer stack as it was
        if not self.stack:
            return None  # ``popd`` fails: bash stays where it is
        if "-n" in operands:
            if name == "popd":
                self.stack.pop()  # ``popd -n`` drops the folder under the top, enters none
            return None
        target = self.stack.pop()
        if name == "pushd":
            self.stack.append(self.bases[-1])
        if target is None:
            return True
        self.back_to(target)
        return False


def _add_pieces(
    found: ShellPaths,
    word: str,
    bases: list[str],
    known: Mapping[str, str | None],
    environ: Mapping[str, str],
    *,
    lost: bool,
) -> None:
    """Add the paths of ``word``'s pieces (split at ``=``, quotes and shell punctuation:
    :data:`_WORD_SPLIT_RE`), and the path a short option glued to a piece names (``-t/dir``).
    A word holding an equivalence class or a collating symbol (``[[=n=]]otes/a.md``), or a
    ``=`` (``<``, ``;``…) after a ``[`` and before a ``]`` (``[=-z]otes``, ``[n=]otes``: a
    bracket expression holding it, a range from it), is a piece whole too: those characters
    are the pattern's (:func:`_bracketed_split`)."""
    pieces = re.split(_WORD_SPLIT_RE, word)
    whole = "[[=" in word or "[[." in word or _bracketed_split(word)
    for piece in [*pieces, word] if whole else pieces:
        if piece:
            _add(found, piece, bases, known, environ, lost=lost)
            if (glued := re.match(_GLUED_OPTION_RE, piece)) is not None:
                for at in range(glued.start("letters") + 1, glued.end("letters") + 1):
                    _add(found, piece[at:], bases, known, environ, lost=lost)


def _bracketed_split(word: str) -> bool:
    """Whether ``word`` holds a character :data:`_WORD_SPLIT_RE` splits at (``=``, ``<``,
    ``;``, a quote…) after a ``[`` with a ``]`` after it, and no ``$(`` or backquote: the
    character may be a member of a bracket expression (``[=-z]otes``, ``[\\<-z]otes`` are
    bash's ranges from ``=`` and ``<`` to ``z``, so they match ``notes``), not an
    assignment's or a redirection's. Split there, neither piece was a pattern that matched,
    so ``echo x > [=-z]otes/a.md`` wrote through a link ``notes`` into another scope (P-3).
    Linear."""
    opened = word.find("[")
    if opened < 0 or "$(" in word or "`" in word:
        return False
    inside = re.search(_WORD_SPLIT_RE, word[opened + 1 :])
    return inside is not None and word.rfind("]") > opened + 1 + inside.start()


def _see_inside(
    inside: _Writes,
    word: str,
    quoted_back: bool,
    known: dict[str, str | None],
    environ: Mapping[str, str],
    *,
    lost: bool,
    base: str,
) -> None:
    """Feed ``inside`` (the commands inside ``$(…)`` and backquotes) one word of one: a
    ``(`` or ``)`` begins or ends a command there, and so does a backquote (the text after an
    opening one, ``v=`tee``, and before a closing one is the word inside)."""
    if word.count("`") % 2:
        before, _, after = word.partition("`") if not quoted_back else word.rpartition("`")
        piece = after if quoted_back else before
        if quoted_back:
            inside.end()
        if piece:
            inside.see(piece, known, environ, lost=lost, base=base)
        if not quoted_back:
            inside.end()
        return
    inside.see(word.strip("`"), known, environ, lost=lost, base=base)
    if word in ("(", ")") or word.startswith(")"):
        inside.end()


WRITERS = frozenset({"tee", "touch", "truncate", "rm", "rmdir", "unlink", "shred"})
"""Commands that write (or remove) every file operand they are given."""
DESTINATION_WRITERS = frozenset({"cp", "mv", "ln", "install", "rsync"})
"""Commands that write their last operand (or the folder after ``-t``); ``mv`` also removes
its sources, which stay judged as every other word is."""
IN_PLACE_EDITORS = frozenset({"sed", "perl"})
"""Commands that rewrite their file operands when given ``-i`` (``sed -i``, ``perl -pi``); their
script is no file (:func:`~harness_memory.hooks.in_place.edited_files`)."""
_FIND_ACTIONS = FIND_RUNNING | {"-delete"}
"""``find`` actions that write (or run a command on) every file below its start folders."""
_FIND_WIDENING = frozenset({"-o", "-or", "!", "-not", "(", ")", ",", "-L", "-follow"})
"""``find`` words after which a ``-name`` test no longer bounds what its actions reach."""


_FIND_OPERATORS = frozenset({"!", "("})
"""``find``'s operators that the shell's lexer gives as separators (``\\!``, ``\\(``)."""


def _reads_only(command: list[str], found: ShellPaths) -> bool:
    """Whether a ``find`` action's ``command``, a shell given its code as a word the guard
    reads (``sh -c 'wc -l "$1"' _ {}``), runs no program but pure readers there (``found``:
    what the guard read in it; ``sh -c 'zip -q "$1"/z.zip x' _ {}`` runs ``zip``)."""
    program = os.path.basename(command[0]) if command else ""  # noqa: PTH119
    options = list(itertools.takewhile(lambda word: word.startswith("-"), command[1:]))
    inline = any(re.fullmatch(r"-[a-z]*c[a-z]*", word) for word in options)
    if program not in ("sh", "bash", "dash", "zsh", "ksh") or not inline:
        return False
    return all(ran in (command[0], program) or only_reads([ran]) for ran in found.programs)


def _find_built_at_run_time(words: list[str]) -> str | None:
    """The word of a ``find`` (its ``words`` as the shell gives them, expanded where known)
    that may be any of its primaries, actions among them, as bash builds it at run time: a
    word of its expression no primary takes as its value holding a ``$`` or a backquote
    (``"${A[@]}"``, a function's ``"$@"``), or ``-files0-from`` with its file lost to a
    process substitution (``<(…)``); None when there is none."""
    if words[-1:] == ["-files0-from"]:
        return "-files0-from <(…)"
    many = next((w for w in words if re.search(r"\$[@*]|\$\{[^}]*\[[@*]\]", w)), None)
    if many is not None or parsed(words) is not None:
        return many  # ``find . -name "$X"``: a value, no action
    return next((word for word in words if re.search(r"[$`]", word)), None)


def _finds_on(word: str) -> bool:
    """Whether ``word``, after a ``find`` action's ``;``, is more of find's expression (a
    primary, ``,``, ``!``, a parenthesis, a separator ending it): a command named ``-exec``
    runs nowhere, so reading it as find's fails closed."""
    return word.startswith("-") or word in (",", "!", "(", ")", *_SEPARATORS)


def _find_starts(moving: list[str]) -> list[str]:
    """A ``find``'s start folders among its words (options as written, operands anchored):
    those after its leading options (``-H``, ``-L``, ``-P``, ``-D debug``, ``-O3``, then
    ``--``) and before its expression."""
    at = len(leading_options(moving))
    at += moving[at : at + 1] == ["--"]  # ``find -- DIR``: the options' end
    return list(
        itertools.takewhile(
            lambda word: not word.startswith("-") and word not in _FIND_OPERATORS,
            moving[at:],
        )
    )


def _find_matches(name: str, names: tuple[tuple[bool, str], ...]) -> bool:
    """Whether ``name`` matches every ``-name`` (exact) / ``-iname`` pattern of ``names``
    (:func:`_find_names`), as :func:`fnmatch.fnmatchcase` reads them."""
    return all(
        fnmatch_case(name if exact else name.casefold(), each if exact else each.casefold())
        for exact, each in names
    )


def _find_names(words: list[str]) -> tuple[tuple[bool, str], ...] | None:
    """The ``-name``/``-iname`` patterns (with whether letter case counts) of a ``find`` whose
    words (as the shell gives them) are tests joined by AND only, each action
    (:data:`_FIND_ACTIONS`) after one of them, so that its actions reach only files (and
    folders) matching every one; None when there is none, one is built at run time, or
    another word (``-o``, ``!``, a parenthesis, ``-L``) may widen what it reaches."""
    if _FIND_WIDENING.intersection(words):
        return None
    found = [
        (at, test == "-name", pattern)
        for at, (test, pattern) in enumerate(itertools.pairwise(words))
        if test in ("-name", "-iname")
    ]
    actions = [at for at, word in enumerate(words) if word in _FIND_ACTIONS]
    if not found or min(actions, default=0) < found[0][0]:
        return None
    if any("$" in pattern or "`" in pattern for _, _, pattern in found):
        return None
    return tuple((exact, pattern) for _, exact, pattern in found)


_OPERAND_WRITERS = WRITERS | DESTINATION_WRITERS | IN_PLACE_EDITORS
_SOURCING = (".", "source")
"""Builtins running a file's commands: their operands are read, not written."""
_STARTUP_VARIABLES = ("BASH_ENV", "ENV")
"""Variables naming a file every shell started after them runs first (a sourced script)."""


def _spellings(word: str, known: Mapping[str, str | None], environ: Mapping[str, str]) -> list[str]:
    """``word`` as written and expanded (known variables, then ``~``; "" when undecided)."""
    expanded = _expand(word, known, environ)
    return [word, "" if expanded is None else _tilde(expanded, environ)]


MOVERS = frozenset({"mv", "rm", "rmdir", "unlink", "rename"})
_REMOVERS = frozenset({"rm", "rmdir", "unlink", "shred"})
"""Writers whose operands are taken away, not written by that name."""
"""Commands that move or remove the folders they name: naming the account's home (or a folder
above it) they can take the memory root away and put it back (:attr:`ShellPaths.moved`);
``cp -l`` (``-al``, ``--link``) too, which gives every file in them a second name."""
_MULTI_CALL = frozenset({"busybox", "toybox"})
"""Multi-call binaries: the word after one names the applet it runs (a :data:`_WRAPPERS`
member), unless it is an option of the binary's own (``busybox --install -s DIR`` makes a
link per applet in ``DIR``, ``--list``): then the binary is the command, and ``--install``'s
links are judged as files named like its applets written in ``DIR`` (:meth:`_Writes.
_note_applets`)."""
_SEPARATING_RE = r"[;&|()]"
"""A character that ends a simple command, in a token of punctuation the lexer grouped."""
_REDIRECTION_RE = r"^(?:[&<]?>[>|&]?|<&?|<<[<-]?)$"
"""A redirection operator as the lexer splits it: ``>``, ``>>``, ``>|``, ``&>``, ``&>>``,
``<>``, ``>&`` (which write their word), ``<``, ``<&`` and a ``<<``, ``<<-`` or ``<<<``
here-data did not take (which read it); its descriptor is left out before
(:func:`_descriptors_dropped`). The word after it is no operand of the command."""
_DESCRIPTOR_WORD_RE = r"^(?:[0-9]+-?|-)$"
"""The word after ``>&`` or ``<&`` that names a descriptor (``2``, ``2-``: moved, ``-``:
closed), not a file."""
_SETTERS = frozenset({"source", ".", "eval", "mapfile", "readarray", "getopts"})
"""Commands that may set any variable (a sourced file, ``eval``) or one named at run time
(``getopts "$o"``): after one, a write place holding ``$`` is taken as built at run time,
whatever the guard knew of the variable (``HOME`` included). So is a ``read`` that may set
any variable (``read "$v"``, ``read 'a[2]'``, ``command read X``: :meth:`_Writes._sets_any`),
a ``printf`` given ``-v`` (or a first word known only at run time: ``printf "$o" …``; one
printing, ``printf 'b\\na\\n' | "$c"``, sets none), and a
``set`` that gives the positional parameters (``set -- $X``); one that only sets the shell's
options (``set -e``, ``set -euo pipefail``, ``set -o errexit``, ``set +x``) sets no variable:
a command can only end sooner under it, never write elsewhere."""
_VARIABLE_SETTERS = frozenset(
    {"export", "declare", "typeset", "local", "readonly", "read", "printf", "mapfile"}
    | {"readarray"}
)
"""Builtins whose operands name variables they set (``export PATH=…``, ``read PATH``,
``printf -v PATH``): one naming a :data:`~harness_memory.hooks.unread_programs.
RUNNING_VARIABLES` runs a program the guard does not read."""
_LONE_VARIABLE_RE = r'^"?\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})"?$'
"""A text that is one variable, as ``eval "$x"`` runs it: code from data (read as such by the
run-time code rules: ``x="$(pyenv init -)"; eval "$x"`` passes), not a program's name."""


def _code_variable(text: str, depth: int) -> bool:
    """Whether ``text``, read inside another command (``depth``), is one variable alone: the
    code ``eval "$x"`` runs (:data:`_LONE_VARIABLE_RE`)."""
    return bool(depth) and re.match(_LONE_VARIABLE_RE, text.strip()) is not None


_SHELL_ZERO = frozenset({"$0", "${0}"})
"""``$0`` as a command's name: ``bash`` in the harness's ``bash -c``/``bash -lc`` (P-3)."""
_RUN_TIME_NAME_RE = r"\$[{(A-Za-z_@*0-9!#?$-]|`"
"""An expansion in a command's name (``$cmd``, ``"$@"``, ``${a[@]}``, ``$(…)``, a backquote):
the program it runs is known only then, unless a known value gives it."""
_SHELL_FOLDER_RE = r'^\$\((?:dirname\s+"?\$0"?|pwd|pyenv\s+root)\)(?=/)'
"""A command's name in the shell's own folder, or its shell's (``"$(dirname "$0")"/tool``:
``$0`` of the harness's ``bash -c`` is ``bash`` or its path; ``"$(pwd)"/bin/x``), or one
``pyenv which X`` prints (:func:`_looked_up`: trusted as a name found in ``PATH`` is)."""
_SHELL_HOMES = ("/bin", "/usr/bin", "/usr/local/bin")
"""Folders ``$0`` of the harness's shell may name: where ``bash`` is installed."""


_ENVIRONMENT_NAME_RE = (
    r"^\$(?:(?P<plain>[A-Za-z_][A-Za-z0-9_]*)|\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"(?:(?P<colon>:?)-(?P<default>[A-Za-z0-9._/+-]*))?\})$"
)
"""A command's name that is one variable, plain or with a literal default (``$CC``,
``${PYTHON:-python3}``)."""
_SHELL_OWN_NAME_RE = (
    r"^(?:BASH\w*|_|PPID|RANDOM|SRANDOM|SECONDS|LINENO|HOSTNAME|HOSTTYPE|MACHTYPE"
    r"|OSTYPE|SHELLOPTS|SHLVL|UID|EUID|GROUPS|FUNCNAME|EPOCHSECONDS|EPOCHREALTIME|REPLY|OPTARG"
    r"|OPTIND|COMP_\w+|DIRSTACK|HISTCMD|PIPESTATUS|IFS)$"
)
"""Variables bash sets itself (``$BASH``, ``$_``, ``$RANDOM`` …): their value in the shell is
not the hook's environment's, so a command named by one is named at run time. ``$PWD`` and
``$OLDPWD`` are not among them: the guard follows them from the folder bash starts in and its
``cd`` (``_started_in``)."""
READ_AS = {"wget2": "wget", "npx": "npm", "pnpm": "npm", "pip3": "pip"}
"""Programs read as another: GNU Wget2 run by its own name takes Wget's options and reads the
settings files ``wget`` (as Wget2) reads; ``npx`` and ``pnpm`` read ``.npmrc``, ``pip3``
``pip.conf``."""
CONFIGURED = frozenset({"git", "npm", "npx", "pnpm", "pip", "pip3"})
"""Programs whose own settings files make them run commands or write places their words do
not show (:mod:`~harness_memory.hooks.git_settings`, :mod:`~harness_memory.hooks.
package_settings`; ``python3 -m pip`` too): each run is kept in ``ShellPaths.configured``
with its folder and words, for the guard to read those settings."""
_PYTHON_RE = r"^python[0-9.]*$"


def _keeps_words(command: str) -> bool:
    """Whether a command's words (expanded where known) are kept for what it reads besides:
    its settings (:data:`CONFIGURED`, ``python3 -m pip``), its startup files (a shell:
    :data:`~harness_memory.hooks.shell_startup.STARTUP_SHELLS`), its archive (``tar``,
    ``unzip``)."""
    return (
        command in CONFIGURED
        or command in STARTUP_SHELLS
        or command in ("tar", "unzip")
        or command in UNPACKED_AS
        or re.match(_PYTHON_RE, command) is not None
    )


class _Writes:
    """Follows one command's simple commands for the words they surely write: a redirection's
    target and a file-writing command's operands (:data:`WRITERS`, :data:`DESTINATION_WRITERS`,
    ``dd of=``); each one whose place is built at run time (:func:`_built_at_run_time`) goes
    to ``found.written_at_run_time``. ``tails`` are the texts glued after a command
    substitution's end (``$(…)/a.md``), which the lexer splits from it."""

    __slots__ = (
        "_after_pipe",
        "_assigned",
        "_base",
        "_bound",
        "_cases",
        "_cat_feed",
        "_cd_data",
        "_closed",
        "_command",
        "_config_words",
        "_environ",
        "_exported",
        "_fetched",
        "_found",
        "_inputs",
        "_known",
        "_leading",
        "_looked_up",
        "_loop",
        "_loops",
        "_moving",
        "_name_tested",
        "_name_unread",
        "_named_at",
        "_named_at_path",
        "_operand",
        "_operands",
        "_piped",
        "_positional",
        "_positional_state",
        "_prefixed",
        "_program",
        "_redirect",
        "_renamed",
        "_run_data",
        "_run_lost",
        "_run_named",
        "_said",
        "_script_words",
        "_skip",
        "_spellings",
        "_split",
        "_stdin",
        "_tails",
        "_test",
        "_unread_names",
        "_unsure",
        "_valued",
        "_words",
        "_wrapper",
        "_written_names",
        "_written_seen",
        "bare_patchers",
        "cat_read",
        "code_variable",
        "depth",
        "evaluators",
        "folder_unknown",
        "here_built",
        "here_text",
        "holder",
        "linker",
        "loop_names",
        "maybe_bases",
        "named_now",
        "names_read",
        "outer",
        "reading",
        "runners",
        "stdin_elsewhere",
        "text",
        "top_level",
        "unsure_names",
    )

    def __init__(
        self,
        found: ShellPaths,
        tails: set[str],
        environ: Mapping[str, str],
        *,
        cd_data: bool = False,
        outer: _Writes | None = None,
    ) -> None:
        self._found = found
        self.depth = 0  # how many shells' code deep its command is (:func:`shell_paths`)
        self._cd_data = cd_data  # a cd went into a folder read from data (:func:`_named_folder`)
        self.outer = outer  # the command this one is read inside (``bash -c '…'``)
        self.holder: _Writes | None = None  # the reader of the command whose $(…) this reads
        # a program that may make links, ran already (in ``outer`` too)
        self.linker: tuple[str, str] | None = None if outer is None else outer.linker
        self.code_variable = False  # the text is one variable ``eval`` runs as code
        self.here_text = ""  # the command's here-documents' bodies
        self.here_built = False  # and whether one is built at run time (:func:`_here_built`)
        self.text = ""  # the command's text as the lexer reads it (:func:`_live_spellings`)
        self._spellings: Mapping[str, str] | None = None  # its :func:`_live_spellings`
        self._tails = tails
        self._environ = environ  # the shell's environment (``~`` in ``tar -C ~``)
        self._command: str | None = None
        self._config_words: list[str] = []  # the words of a program reading settings of its own
        self._assigned: dict[str, str] = {}  # literal settings variables before its name
        self._prefixed: dict[str, str | None] = {}  # every assignment before it: its value
        self._exported: dict[str, str] = {}  # literal settings variables exported so far
        self._program: list[str] = []  # the command's name as spelled, then its options
        self._operand: str | None = None  # its first operand
        self._valued = False  # the next word is the value of its last option (``-W ignore``)
        self._named_at = 0
        self._named_at_path = 0  # how many of ``found.paths`` came before the name
        self._operands: list[tuple[str, bool]] = []  # (word, built at run time)
        self._positional: list[tuple[str, bool]] = []  # the words ``set -- …`` set as $1…
        self._positional_state = "none"  # "set": by a ``set`` read; "unknown": not read
        self._bound: set[str] = set()  # names ``hash``, ``eval``, a run-time name may bind
        self._said: list[str] = []  # its words as written and expanded (not git's, source's)
        self._unread_names: Counter[str] = Counter()  # base names of unread programs' words
        self._written_names: Counter[str] = Counter()  # those of ``found.written``'s words …
        self._written_seen = 0  # … counted so far (it only grows: counted once each)
        self._script_words: list[str] = []  # a shell's or ``source``'s words, as written
        self._known: dict[str, str | None] = {}  # the command's assignments so far (live)
        self.reading = False  # the word seen last is an operand of a command only reading
        self._cases: list[str] = []  # the ``case`` commands the word is in, each at its part
        self._redirect = ""  # the redirection operator whose word comes next
        self._stdin: str | None = None  # the file ``<`` feeds the command
        self._inputs = 0  # the command's redirections reading (``<``, ``<&``, ``<<<``, ``<<``)
        self._closed = False  # the word before closed a command substitution
        self._skip = False
        self._wrapper = ""  # the last wrapper before the command's name (``sudo``)
        self._looked_up = False  # ``command -v NAME``: the name is looked up, never run
        self._split: list[str] = []  # ``env -S``'s text, "" while its value is to come
        self._leading = 0  # the operands it takes before that name
        self._loops: dict[str, list[str] | None] = {}  # a for loop's name: its values
        self._loop: tuple[str, list[str] | None] | None = None  # the one being read
        self._base, self.maybe_bases = "", list[str]()  # and where it may be instead (``cd``)
        self._moving: list[str] = []  # a mover's options and operands (absolute)
        self._words: list[str] = []  # a mover's words as the shell gives them (not anchored)
        self._test = False  # inside ``[[ … ]]`` or ``(( … ))``
        self._name_tested = False  # the command's name was met there (no command, then)
        self._unsure = False  # a command that sets variables at run time has run
        self._renamed = False  # the command's name is a variable's value (``r=read; $r X``)
        self.unsure_names: frozenset[str] = frozenset()  # :func:`_names_set_unsurely`
        self.loop_names: frozenset[str] = frozenset()  # :func:`~.loop_words.loop_names`
        self.runners: frozenset[str] = frozenset()  # functions running their arguments
        self.evaluators: frozenset[str] = frozenset()  # functions ``eval``-ing them
        self.top_level = False  # the command is no word of another read again
        self._name_unread = False  # the command's name is an alias the command defines
        self.folder_unknown = False  # the shell went into a folder known only at run time
        self._run_lost = False  # the command named runs in such a folder
        self._run_named = False  # the command's name is spelled with an expansion (``$(…)``)
        self.named_now = False  # the word seen last was the command's name
        self._after_pipe = False  # the word seen last was a ``|``
        self._piped = self._fetched = False  # it reads the pipe; what a downloader fetched
        self._cat_feed: list[str] = []  # the files the command before it printed (``cat f``)
        self.stdin_elsewhere = False  # a group, a loop or ``exec`` given standard input
        self.bare_patchers = 0  # apply_patch runs given no patch of their own (here-data?)
        self.cat_read = True  # ``cat`` prints its files (no function or alias of that name)
        self.names_read = _NamesRead.ALL  # a name-only $(…) prints one name (:func:`_names_read`)

    @property
    def choices(self) -> Mapping[str, list[str] | None]:
        """The values each variable may hold (a ``for`` loop's, a branch's), live."""
        return self._loops

    @property
    def prefixed(self) -> Mapping[str, str | None]:
        """The current command's prefix assignments (``CDPATH=. cd sub``): each value as
        expanded, None when known only at run time."""
        return self._prefixed

    def folders_given(self) -> dict[str, str | None]:
        """The folder variables (``HOME``, ``OLDPWD``, ``PWD``, ``CDPATH``) this command set,
        in the shell or for its program (``HOME=… bash -c``), as code it runs inherits them
        (``eval '… ~/a.md'``, ``bash -c``); None: known only at run time."""
        given = {**self._known, **self._prefixed}
        return {name: given[name] for name in _SET_BY_ANY if name != "IFS" and name in given}

    def take_choices(self, choices: Mapping[str, list[str] | None]) -> None:
        """Take the values each variable in ``choices`` may hold after a group or an unsure
        assignment (:class:`~harness_memory.hooks.shell_statements.Scopes`), as a ``for``
        loop's values are taken: a word holding it is judged with each; None: no longer."""
        for name, values in choices.items():
            if values is None:
                self._loops.pop(name, None)
            else:
                self._loops[name] = values

    def in_case_pattern(self, word: str, previous: str | None) -> bool:
        """Whether the top-level ``word`` (after ``previous``) is part of a ``case``'s pattern
        list (:func:`_in_case_pattern`); the command before ends at the list's ``)``."""
        pattern = _in_case_pattern(self._cases, word, previous)
        if pattern and self._cases[-1] == _CASE_BODY:
            self.end()  # the pattern's ``)``: its commands come next
        return pattern

    def opened_substitution(self) -> None:
        """A top-level ``$(…)`` or backquote opens in the command :attr:`holder` reads, read by
        this reader: its subshell starts with the values the command's loops give their
        variables there (``for t in ruff mypy; do echo $("$t" -V); done``, each loop read once
        per word: :mod:`~harness_memory.hooks.loop_words`), none an earlier one's set."""
        self._loops = {} if self.holder is None else dict(self.holder.choices)

    def closed_substitution(self) -> None:
        """The lexer met the ``)`` ending a command substitution at the top level."""
        self._closed = True

    def see(
        self,
        word: str,
        known: dict[str, str | None],
        environ: Mapping[str, str],
        *,
        lost: bool,
        base: str,
    ) -> None:
        """Take the command's next top-level word (separators too), the shell in ``base``."""
        glued, self._closed = self._closed and word in self._tails, False
        self._base, self._known, self.reading, self.named_now = base, known, False, False
        self._note_input(word)
        if self._find_goes_on(word, known, environ, base):
            return
        if word in _SEPARATORS and not glued:  # ``${C:-$(echo cp)}``: its ``}`` ends no group
            self.end()
            return
        if word in ("[[", "((") or (self._test and word in ("]]", "))")):
            self._test = word in ("[[", "((")  # ``>`` compares there
            return
        if self._test and word.startswith("))") and re.match(_PUNCTUATION, word):
            self._test = False
            self.end()  # ``));``: the lexer groups the separator with the end
            return
        if re.match(_REDIRECTION_RE, word) and not self._test:
            self._redirect = word
            return
        if re.match(_PUNCTUATION, word) and re.search(_SEPARATING_RE, word) and not self._test:
            self.end()  # ``);``, ``;;``, ``|&``, ``>(``: a separator the lexer grouped
            return
        if self._redirect:
            self._see_redirected(word, known, environ, lost=lost)
            return
        if self._command == "for":
            self._read_loop(word, known, environ)
            return
        if glued and self._operands:  # ``$(…)/a.md``: one word, built at run time
            self._operands[-1] = (self._operands[-1][0] + word, True)
            return
        if self._command is None:
            self._take_name(word)
            return
        if self._command in MOVERS or self._command in ("cp", "find"):
            self._see_moving(word, known, environ, base)
        if self._command not in ("git", *_SOURCING):
            self._said.extend(_spellings(word, known, environ))
        if self._command == "dd" and word.startswith("of="):
            self._found.written.extend(_spellings(word[3:], known, environ))
            if self._built(word[3:], known, environ, lost=lost):
                self._found.written_at_run_time.append(word)
            else:
                self._note_named(word[3:])
        elif (
            self._command == "dd"
            and not re.match(_DD_OPERAND_RE, word)
            and self._built(word, known, environ, lost=lost)
        ):  # ``xargs dd if=x`` fed ``of=…``, ``dd "$(cat f)"``: an ``of=`` made at run time
            self._found.written_at_run_time.append(word)
        elif (
            self._command in _OPERAND_WRITERS
            or self._command in _PLACED_OUTPUTS
            or self._command in SYNCERS
            or self._command in ("git", "set", "xargs")
            or self._run_named
        ):
            self._operands.append((word, self._built(word, known, environ, lost=lost)))
        if _keeps_words(self._command):
            expanded = _expand(word, known, environ)
            self._config_words.append(word if expanded is None else expanded)
        if self._command != "git" and self._command not in ONLY_READERS:
            self._found.mentioned.append(word)
            self._found.mentioned.append(_expand(word, known, environ) or "")
        self.reading = self._command in ONLY_READERS
        if self._command in _SOURCING or self._command in STARTUP_SHELLS:
            self._script_words.append(word)
        self._see_program(word)

    def _note_input(self, word: str) -> None:
        """Follow where standard input comes from at ``word``: the command after a pipe reads
        it (``cat p | apply_patch``); a group, loop or ``exec`` given one passes it on to
        every command in it (``cat p | while …``, ``{ …; } < p``, ``exec < p``)."""
        if self._after_pipe:
            self._after_pipe, self._piped = False, True
            self.stdin_elsewhere = self.stdin_elsewhere or word in _GROUP_OPENERS or word == "("
        if self._test:
            return
        if word == "|" or (
            re.match(_PUNCTUATION, word) and word.endswith(("|", "|&")) and "||" not in word
        ):
            self._after_pipe = True
        reads = (
            word.startswith("<") and not word.startswith("<<") and re.match(_REDIRECTION_RE, word)
        )
        if reads and self._command in (None, "exec"):
            self.stdin_elsewhere = True

    def _see_redirected(
        self,
        word: str,
        known: Mapping[str, str | None],
        environ: Mapping[str, str],
        *,
        lost: bool,
    ) -> None:
        """Take the word of a redirection (:data:`_REDIRECTION_RE`): a descriptor after
        ``>&``/``<&`` (:data:`_DESCRIPTOR_WORD_RE`) names no file; ``<`` and the other reading
        ones read theirs (``<`` feeds it to the command: ``python3 < mk.py`` runs its code);
        the others write theirs (judged as a written place)."""
        operator, self._redirect = self._redirect, ""
        self._inputs += operator.startswith("<")  # ``<``, ``<&3``, ``<<<``: each a feed
        if operator in (">&", "<&") and re.match(_DESCRIPTOR_WORD_RE, word):
            return
        self._found.mentioned.append(word)
        self._found.mentioned.append(_expand(word, known, environ) or "")
        if operator == "<<<" and self._runs_fed_code():
            self.note_unread_code(word, in_shell=True)  # ``bash <<< "$(… | base64 -d)"``
        if operator.startswith("<") and operator != "<>":
            self._stdin = word if operator == "<" else self._stdin
            return
        self._found.written.extend(_spellings(word, known, environ))
        self._found.redirected.extend(_spellings(word, known, environ))
        if self._built(word, known, environ, lost=lost):
            self._found.written_at_run_time.append(word)
        else:
            self._after_linker(word)
            self._note_named(word)

    def _note_named(self, word: str) -> None:
        """Keep in ``found.named`` the absolute path of a file the command creates or rewrites
        by the name ``word`` (expanded where known; not built at run time)."""
        expanded = _expand(word, self._known, self._environ)
        if expanded is None or expanded in ("", "-"):
            return
        for each in _braces(expanded) or [expanded]:  # ``{user,KEY}/a.md``: each name
            path = _tilde(each, self._environ)
            if not re.search(_GLOB_CHARS, path):  # a pattern names what is there already
                self._found.named.append(path if path.startswith("/") else f"{self._base}/{path}")

    def _find_goes_on(
        self, word: str, known: dict[str, str | None], environ: Mapping[str, str], base: str
    ) -> bool:
        """Take ``word`` as a ``find``'s when it is a ``;`` ending one of its actions (``\\;``,
        ``';'``: the lexer gives it as bash's separator; ``-exec true \\; -exec cp x {} \\;``:
        find reads on); end the ``find`` when, after such a ``;``, ``word`` is no more of its
        expression (``find … -exec x {} \\; ; rm y``, :func:`_finds_on`). Find's operators the lexer
        gives as separators (``!``, ``( … )``) are taken too. Whether taken."""
        if self._command == "find" and self._words[-1:] == [";"] and not _finds_on(word):
            self.end()
        opened = self._words.count("(") > self._words.count(")")  # ``\( … \)`` of a find
        if self._command == "find" and (word in _FIND_OPERATORS or (word == ")" and opened)):
            self._words.append(word)
            self._moving.append(word)
            return True
        if not (self._command == "find" and word == ";" and self._find_running()):
            return False
        self._see_moving(word, known, environ, base)
        self._said.append(word)
        self._operands.append((word, False))
        return True

    def _find_running(self) -> bool:
        """Whether the ``find`` read so far has an action running a command that no ``;`` or
        ``+`` after ``{}`` ended yet: a ``;`` now (``\\;``, ``';'``: the lexer gives it as
        bash's separator) is the action's end, and find reads on after it."""
        running = False
        for at, word in enumerate(self._words):
            if not running:
                running = word in FIND_RUNNING
            elif word == ";" or (word == "+" and self._words[at - 1 : at] == ["{}"]):
                running = False
        return running

    def _see_moving(
        self, word: str, known: Mapping[str, str | None], environ: Mapping[str, str], base: str
    ) -> None:
        """Keep a word of a mover, ``cp`` or ``find`` (:meth:`_note_moves`); a mover's operand
        built at run time may take any folder away (``rm -rf "$(cat f)"``)."""
        expanded = _expand(word, known, environ)
        self._words.append(word if expanded is None else expanded)
        if word.startswith("-"):
            self._moving.append(word)
        elif expanded is not None:
            self._moving.append(os.path.join(base, _tilde(expanded, environ)))  # noqa: PTH118
        elif self._command in MOVERS:
            self._found.replaced_unknown = True

    def _take_name(self, word: str) -> None:
        """Take a word before the command's name is known: an assignment, a wrapper
        (:data:`_WRAPPERS`), its options, their arguments (:data:`_WRAPPER_ARGUMENTS`) and its
        leading operands (:data:`_WRAPPER_OPERANDS`, a ``timeout``'s duration), or the name."""
        spelt, word = word, self._program_word(word)
        if not word:
            return  # ``$CC`` unset: an empty name, so the next word is the command's name
        name = self._linked_program(word) or word.rsplit("/", 1)[-1]
        name = "wget" if name == "wget2" else name
        name = "eval" if name in self.evaluators else name  # ``f() { eval "$@"; }; f …``
        if self._skip:  # the argument of a wrapper's option (``sudo -u root``)
            self._skip = False
            if self._split[-1:] == [""]:  # ``env -S 'cp x'``
                self._split[-1] = spelt
            return
        if (assigned := re.match(_ASSIGNMENT_RE, word)) is not None:
            value = _expand(assigned.group("value"), self._known, self._environ)
            self._prefixed[assigned.group("name")] = value  # the program's environment
            self._note_startup_variable(word)
            self._loops.pop(assigned.group("name"), None)  # no longer the loop's values
            if assigned.group("name") in RUNNING_VARIABLES:  # ``PATH=.:$PATH ls``
                self._found.programs.append(word)
            if is_settings_variable(assigned.group("name")):  # ``HOME=. curl URL``
                self._found.settings_moved.append(_setting(word, word))
                self._note_setting(word, self._assigned)
            return
        if name in _WRAPPERS or name in self.runners:
            self._wrapper, self._leading = name, _WRAPPER_OPERANDS.get(name, 0)
            return
        if self._leading and not word.startswith("-"):
            self._leading -= 1  # ``taskset MASK``, ``flock FILE``, ``chrt PRIORITY``
            return
        own = self._wrapper in _MULTI_CALL and word.startswith("-")
        if own:  # ``busybox --install -s DIR``: the binary runs with options of its own
            name = word = self._wrapper
        elif word.startswith("-") or re.match(_DURATION_RE, word):
            looks = self._wrapper == "command" and re.match(r"^-[pvV]*[vV]", word) is not None
            self._looked_up = self._looked_up or looks
            self._skip = word in _WRAPPER_ARGUMENTS.get(self._wrapper, frozenset())
            if self._wrapper == "env":
                self._skip = self._env_option(spelt)
            return  # a wrapper's option or a timeout's duration
        self._command, self._program, self._operand = name, [word, *[spelt] * own], None
        self._valued = False
        self._renamed = spelt != word
        self.named_now = True
        self._name_unread = name in self._bound or (
            name in self.unsure_names and f"alias {name}" in self.unsure_names
        )
        self._name_tested = self._test
        self._run_lost = self.folder_unknown
        self._run_data = self.folder_unknown and self._cd_data
        # ``$(echo cp)``, ``$x``; an alias or hashed name the command defines: ``alias c=cp``
        self._named_at_path = len(self._found.paths)  # the words before its name
        self._run_named = name == "$" or self._built_name(word) or self._name_unread
        self._named_at = len(self._found.programs)  # before the programs in its words
        self._unsure = self._unsure or name in _SETTERS

    def shell_code(self, word: str, outputs: Mapping[str, str]) -> bool:
        """Whether ``word``, just seen, is the code a shell runs (``bash -c CODE``, ``sh -ec
        CODE``, ``bash -o errexit -c CODE``, ``zsh -c CODE``: :func:`~harness_memory.hooks.
        shell_operands.shell_run`; :data:`~harness_memory.hooks.here_data.SHELLS`), or one a
        ``find`` action runs (``-exec sh -c CODE _ {} \\;``); such code's substitution
        printing text the guard cannot read is noted (:meth:`note_unread_code`), a variable
        in ``outputs`` (assigned from one) read as that substitution."""
        command = self._command
        if command != "find" and command not in SHELLS and command not in STARTUP_SHELLS:
            return False  # before any copy of the words: this runs at every word
        words = self._said[::2]
        if self._command == "find":
            actions = [at for at, each in enumerate(words) if each in FIND_RUNNING]
            words = words[actions[-1] + 1 :] if actions else []
            shell = os.path.basename(words[0]) if words else ""  # noqa: PTH119
            words = words[1:] if shell in SHELLS or shell in STARTUP_SHELLS else []
        code = bool(words) and words[-1] == word and shell_run(words).code == len(words) - 1
        if code:  # ``bash -c "$(… | base64 -d)"``: code no text of the call holds
            self.note_unread_code(word, in_shell=True)
            if (held := _held_in(word, outputs)) is not None:  # ``c=$(…); bash -c "$c"``
                self.note_unread_code(held, in_shell=True)
        return code

    def note_unread_code(self, code: str, *, in_shell: bool = False) -> None:
        """Note in ``ShellPaths.unread_code`` the first command substitution bash expands in
        ``code``, an interpreter's code operand (a shell's ``-c``, ``python3 -c``, ``node
        -e``), that prints text the guard cannot read ahead (:func:`~harness_memory.hooks.
        code_sources.unread_substitution`: ``bash -c "$(echo Y3A… | base64 -d)"``), as its
        spelling in the command's text says (:func:`_live_spellings`, read once a command)."""
        if "$(" not in code and "`" not in code:
            return
        if self._spellings is None:
            self._spellings = _live_spellings(self.text)
        spelling = self._spellings.get(code, code)
        if (unread := unread_substitution(spelling, self.redefines, in_shell=in_shell)) is not None:
            self._found.unread_code.append(unread)

    def redefines(self, name: str) -> bool:
        """Whether ``name`` may run another program than the one of that name here: a function,
        an alias or a name lookup this command or one holding it defines
        (:meth:`~harness_memory.hooks.definitions.Definitions.redefines`), or the environment's
        (:func:`_environment_redefines`): ``date(){ cat t; }; bash -c "$(date)"``."""
        reader: _Writes | None = self
        while reader is not None:
            if read_definitions(reader.text).redefines(name):
                return True
            reader = reader.outer
        return _environment_redefines(self._environ)

    def _runs_fed_code(self) -> bool:
        """Whether the command so far (its name and words) runs its standard input as shell
        code: a shell given no ``-c`` code and no script but its standard input (``bash``,
        ``sh -s``, ``bash /dev/stdin``), ``source /dev/stdin`` or ``. /dev/stdin``."""
        command, words = self._command, self._said[::2]
        if command in _SOURCING:
            sourced = self._script_words[:1]  # ``source``'s operand
            return bool(sourced) and _as_kernel_names(sourced[0]) in STDIN_SCRIPTS
        if command not in SHELLS and command not in SCRIPT_SHELLS:
            return False
        run = shell_run(words)
        script = None if run.script is None else _as_kernel_names(words[run.script])
        return run.code is None and (script is None or script in STDIN_SCRIPTS)

    def sed_code(self, word: str) -> list[str]:
        """The command lines ``word``, just seen, runs when it is a word of ``sed``'s holding
        an ``e`` command (:func:`~harness_memory.hooks.script_writers.sed_run_texts`), each
        read as a shell's ``-c`` code; none else."""
        if self._command != "sed" or "e" not in word:
            return []
        return sed_run_texts(word)

    def may_run(self, word: str, previous: str | None) -> bool:
        """Whether ``word``, seen now (after ``previous``), may be run as shell text: it holds
        a command substitution (``"$(python3 mk.py)"``), feeds a program's standard input
        (``<<< …``), the program named may run its words so (a shell, ``su``, ``ssh``,
        ``sudo``: :data:`~harness_memory.hooks.here_data.SHELLS`; a program running commands,
        :data:`~harness_memory.hooks.link_texts.RUNNERS`: ``watch``, ``xargs``, ``find``;
        ``eval``, ``flock``, ``script``, ``runuser``), or it is a value assigned (``x='…'``,
        by :data:`_DECLARERS` or ``printf -v``), which ``eval "$x"`` may run (one adding to
        the variable's own value, ``CFLAGS="$CFLAGS -O2"``, is read past it: :func:`_code_in`).
        Else it is data (``echo "$USER did it"``): its first word named at run time is no
        program run (:func:`_read_inner`); one it names by name still is."""
        if self.sed_code(word):
            return True  # ``sed '1e sh x'``: shell code its ``e`` command runs
        if "$(" in word or "`" in word or previous == "<<<":
            return True
        command = self._command
        if command in _TEXT_RUNNERS:
            return True
        printed = command == "printf" and any(said.startswith("-v") for said in self._said[::2])
        return command is None or command in _DECLARERS or printed

    @property
    def evaluates(self) -> bool:
        """Whether the command named last is ``eval`` (``e=eval; $e …``, a function handing
        its arguments to it): its words are joined and read again."""
        return self._command == "eval"

    def _env_option(self, word: str) -> bool:
        """Read ``env``'s option ``word`` by its own table: whether it takes the next word;
        the text ``-S``/``--split-string`` splits into the command it runs (glued:
        ``-S'cp x'``, ``-vS'cp x'``, ``--split-string=…``) kept, "" when the next word is it."""
        read = read_options([word, ""], TABLES["env"])
        for name, at, value in read.values:
            if name in ("-S", "--split-string"):
                self._split.append(value if at == 0 else "")
        return any(at == 1 for _, at, _ in read.values)

    def _built_name(self, word: str) -> bool:
        """Whether the command's name ``word`` (as the lexer gives it, quotes read) is built
        at run time (:data:`_RUN_TIME_NAME_RE`) or is a path to a file the command wrote
        before it (``cp /bin/cp tool; ./tool``, ``install /bin/cp ./t``, ``ln -s … tool``:
        :meth:`_writes_script`), so it may be any program: every such name
        but a literal one in the shell's folder or its shell's (:data:`_SHELL_FOLDER_RE`:
        ``"$(dirname "$0")"/tool``, a program called ``tool``, judged as one so named is)
        at the top level, in a folder known here, named by no word before it (a link the
        command may make), and in none of those folders a link to a program the guard reads
        (``./tool`` -> ``cp``: then it may be ``cp``). ``"$(cat
        f)"/tool`` may be any program: a link in the folder ``f`` names may lead to ``cp``;
        ``bash -c '"$(dirname "$0")"/t …' bin/sh`` gives ``$0``."""
        if not re.search(_RUN_TIME_NAME_RE, word):  # ``ln -s /bin/cp tool; ./tool``: made here
            bare = "/" not in word and self._on_set_path(word)  # ``PATH=.:$PATH tool``
            return bare or self.wrote(word.rstrip("/").rsplit("/", 1)[-1])
        shell = re.match(_SHELL_FOLDER_RE, word)
        if shell is None or not self.top_level or self.folder_unknown:
            return True
        rest = word[shell.end() :]
        if re.search(_RUN_TIME_NAME_RE, rest) or not rest.rstrip("/"):
            return True
        name = rest.rsplit("/", 1)[-1]
        before = self._found.paths[: self._named_at_path]
        if any(os.path.basename(path) == name for path in before):  # noqa: PTH119
            return True  # ``ln -s /bin/ln bin/git && "$(pwd)/bin"/git``: made by the command
        folders = [".", *(_SHELL_HOMES if "dirname" in shell.group(0) else ())]
        return any(self._linked_program(folder + rest, named=False) for folder in folders)

    def _on_set_path(self, name: str) -> bool:
        """Whether the bare command name ``name`` may run another program than its own through
        a ``PATH`` the command set (``PATH=.:$PATH tool``, ``export PATH=$PWD/b:$PATH``): one
        built at run time may hold any folder; a folder it adds (not in the environment's)
        may hold a link by that name to a program the guard reads under another name
        (``tool`` -> ``cp``), which then runs. A name found nowhere there is the same program."""
        if "PATH" not in self._known:
            return False
        value = self._known["PATH"]
        if value is None:
            return True
        inherited = set(self._environ.get("PATH", "").split(":"))
        added = [folder or "." for folder in value.split(":") if folder not in inherited]
        if any(self._made_folder(each) for each in added):
            return True  # ``ln -s bin lnk; PATH=lnk:$PATH tool``: it may hold any program
        return any(self._linked_program(f"{each}/{name}", named=False) for each in added)

    def _made_folder(self, folder: str) -> bool:
        """Whether the command so far (or one it is read inside) makes ``folder`` (as spelt in
        a ``PATH``) a link or writes it or into it (``ln -s bin lnk``, ``cp -r bin b2``): what
        it holds when the program runs is not what the guard can read now."""
        path = os.path.normpath(os.path.join(self._base, _tilde(folder, self._environ)))  # noqa: PTH118
        if path in self._found.links:
            return True
        for word in self._found.written:
            written = os.path.normpath(os.path.join(self._base, word))  # noqa: PTH118
            if written == path or written.startswith(path + os.sep):
                return True
        return self.outer is not None and self.outer._made_folder(folder)

    def _runs_unread(self, word: str) -> bool:
        """Whether ``word``, the program a ``find`` action runs, may be any program: named
        at run time or made by the command (:meth:`_built_name`), or a link to one the guard
        reads under another name (``-exec ./tool …`` with ``tool`` -> ``cp``)."""
        return self._built_name(word) or self._linked_program(word, named=False) is not None

    def _linked_program(self, word: str, *, named: bool = True) -> str | None:
        """The program a literal path ``word`` names (``./tool``, ``bin/x``) when it is a link
        to one whose writes the guard reads under another name (``ln -s /bin/cp tool``:
        ``./tool note.md "$(cat f)"/a.md`` runs ``cp``, which writes its last word), or to an
        interpreter under a name no interpreter has (``bin/py`` -> ``python3``: ``bin/py
        mk.py`` runs ``mk.py``, read as ``python3 mk.py``'s is), resolved as the kernel does
        (``os.path.realpath``); None for a bare name, a path built at run time or to a
        program of its own name. A copy of an interpreter under another name (``cp
        /usr/bin/python3 bin/py``) is no link: nothing on disk names the interpreter it is,
        so it is judged as the compiled program it looks like (P-3, a known limit)."""
        if "/" not in word or "$" in word or "`" in word or (named and self._command is not None):
            return None
        try:
            real = os.path.realpath(os.path.join(self._base, _tilde(word, self._environ)))  # noqa: PTH118
        except (OSError, ValueError):
            return None
        name = os.path.basename(real)  # noqa: PTH119
        spelt = word.rsplit("/", 1)[-1]
        # not ``.venv/bin/python`` -> ``python3.11``, ``/bin/sh`` -> ``dash``: the same language
        interpreter = reads_text(name) and _language(name) != _language(spelt)
        runs = name in _WRAPPERS or name in _LINKED_RUNNERS  # ``bin/e`` -> ``env``: its words run
        read = name in READ_PROGRAMS or interpreter or runs
        return name if name != spelt and read else None

    def _program_word(self, word: str) -> str:
        """A word that may be the command's name as the shell runs it: ``cmd=ln; $cmd -s …``
        is ``ln`` when the command surely set ``cmd`` once, to one word; a name set otherwise
        (:func:`_names_set_unsurely`: twice, in a branch, a subshell, a function, by a builtin,
        after a ``source`` or ``eval``), a value bash splits into words (``x="env ln"``), or
        one named at run time (``"$@"``, ``$UNSET``) is kept as written: it may be any program
        (:meth:`_link_maker`). A ``for`` loop's variable holding one word there is that word
        (``for x in bash; do "$x" ~/w``, each loop over several read as one per word:
        :mod:`~harness_memory.hooks.loop_words`); one of a loop's names holding another value
        (after its loop, set again, after ``source``) is kept and put in ``found.split``: a
        program known only at run time, refused. ``$0`` of the harness's own ``bash -c`` (the
        top level, no ``BASH_ARGV0`` assigned) is ``bash`` (:data:`_SHELL_ZERO`: ``"$0"
        run.txt`` runs the script)."""
        if word in _SHELL_ZERO and self.top_level and "BASH_ARGV0" not in self.text:
            return "bash"
        if not re.search(_RUN_TIME_NAME_RE, word) or re.match(_ASSIGNMENT_RE, word):
            return word
        names = {m.group("braced") or m.group("plain") for m in _variables(word)}
        looped = None if self._unsure else _through_loops(word, self._loops)
        if looped is not None and len(looped) == 1:
            if (value := self._loop_value(word)) is None:
                self._found.split.append(word)  # ``IFS=:; for x in cp:a:b``: it may split
            else:  # ``for x in bash; do "$x" ~/w``: ``bash`` (:mod:`.loop_words`)
                word, names = value, names - self._loops.keys()
        elif names & self.loop_names:  # after its loop, set again, after ``source``: unknown
            self._found.split.append(f'"{word}"')
        if self._unsure or names & self.unsure_names:
            return word
        if any(name and re.match(_SHELL_OWN_NAME_RE, name) for name in names):
            return word  # ``$_``, ``$BASH``: the shell's own value, not the environment's
        expanded = _expand(word, self._known, self._environ)
        if expanded is None and (inherited := re.match(_ENVIRONMENT_NAME_RE, word)) is not None:
            expanded = self._inherited(inherited)
        if expanded is None or any(char in _IFS for char in expanded):
            return word
        return expanded

    def _loop_value(self, word: str) -> str | None:
        """``word`` with the one value the loops around it give its loop variables there
        (``"$x"``, ``python$v``: each loop read once per word, :mod:`~harness_memory.hooks.
        loop_words`); None when they give it none or several, when a command before may have
        set any variable (``source``, ``eval``) or when ``IFS`` may split the value into other
        words (``IFS=:; for x in cp:a:b``)."""
        looped = None if self._unsure else _through_loops(word, self._loops)
        if looped is None or len(looped) != 1 or "IFS" in self.unsure_names:
            return None
        return None if _split_elsewhere("$", self._known, split=True) else looped[0]

    def _inherited(self, spelt: re.Match[str]) -> str | None:
        """The value of a command's name that is one variable the command never sets
        (:data:`_ENVIRONMENT_NAME_RE`: ``$CC``, ``"${PYTHON:-python3}"``): the shell's
        environment's, which the hook inherits from the harness as the shell does (its default
        if it has one); None when the command sets it, when bash sets it itself
        (:data:`_SHELL_OWN_NAME_RE`: ``$BASH``, ``$_``), or when the environment lacks it and
        no default is given (the shell's may hold it, from the user's startup files: it may
        name any program)."""
        name = spelt.group("name") or spelt.group("plain")
        if name in self._known or re.match(_SHELL_OWN_NAME_RE, name):
            return None
        value = self._environ.get(name)
        default = spelt.group("default")
        if default is not None and (value is None or (value == "" and spelt.group("colon"))):
            return default
        return value

    def cd_into(
        self,
        folder: str,
        known: Mapping[str, str | None],
        environ: Mapping[str, str],
        *,
        followed: bool,
    ) -> bool:
        """Whether a ``cd`` into ``folder`` (``followed``: known here) goes into a folder known
        only at run time; one read from data (:func:`_named_folder`) is remembered."""
        unfollowed = not (followed or self.looped(folder, known, environ))
        named = _named_folder(folder, known, unsure=self._unsure)
        self._cd_data = self._cd_data or (unfollowed and not named)
        return unfollowed

    def looped(
        self, word: str, known: Mapping[str, str | None], environ: Mapping[str, str]
    ) -> bool:
        """Whether ``word`` is known once a ``for`` loop's variable in it takes each of its
        values (``cd "$d"`` in ``for d in packages/*``: each a folder judged as a path)."""
        places = _through_loops(word, self._loops)
        return places is not None and all(_expand(p, known, environ) for p in places)

    def _see_program(self, word: str) -> None:
        """Note a word of the command named: its options before its first operand (a shell's
        ``-c``: ``bash -c '…'``), and the program a ``find`` action runs (``-exec python3 …``:
        the word after the action), or an option does (``tar --to-command=./x.sh``:
        :data:`~harness_memory.hooks.unread_programs.PROGRAM_OPTIONS`)."""
        if self._operand is None and (word.startswith("-") or self._valued):
            self._program.append(word)  # an option, or the value of one (``python3 -W ignore``)
            self._valued = not self._valued and _takes_value(self._program[0], word)
        elif self._operand is None:
            self._operand = word
        if self._command == "find" and self._words[-2:-1] in [[action] for action in FIND_RUNNING]:
            self._found.programs.extend([] if is_read(word) else [word])
        options = PROGRAM_OPTIONS.get(self._command or "", ())
        name = word.partition("=")[0]
        shortened = name not in _WHOLE_NAMES and any(_abbreviates(name, o) for o in options)
        if word.startswith(options) or shortened or _bundles(self._command or "", word, options):
            self._found.programs.append(f"{self._command} {word}")
        naming = self._command in _VARIABLE_SETTERS and not word.startswith("-")
        if naming and word.split("=", 1)[0] in RUNNING_VARIABLES:
            self._found.programs.append(f"{self._command} {word}")  # ``export PATH=.:$PATH``
            self._note_startup_variable(word)
        if naming and is_settings_variable(word.split("=", 1)[0]):  # ``export HOME=.``
            self._found.settings_moved.append(_setting(word, f"{self._command} {word}"))
            self._note_setting(word, self._exported if self._command == "export" else {})

    def _note_startup_variable(self, word: str) -> None:
        """Keep the file an assignment ``word`` of ``BASH_ENV`` or ``ENV`` names as a script
        sourced (``ShellPaths.scripts``): every shell started after it runs that file first."""
        name, equals, value = word.partition("=")
        if equals and value and name in _STARTUP_VARIABLES:
            expanded = _expand(value, self._known, self._environ)
            path = None if expanded is None else _tilde(expanded, self._environ)
            self._found.scripts.append(("source", self._base, value, path, True))

    @staticmethod
    def _note_setting(word: str, into: dict[str, str]) -> None:
        """Keep the literal value of a settings variable's assignment ``word`` in ``into``
        (``HOME=/tmp/ci-home npm ci``: npm then reads that home's ``.npmrc``)."""
        name, _, value = word.partition("=")
        if "$" not in value and "`" not in value:
            into[name] = value

    def _read_loop(
        self, word: str, known: Mapping[str, str | None], environ: Mapping[str, str]
    ) -> None:
        """Take a word of ``for NAME in WORDS``: the values a loop variable takes, each word
        expanded as the shell will (braces, known variables, globs from the shell's folder);
        None when one cannot be decided here (``for f in $(…)``, ``for f; do``)."""
        if self._loop is None:
            self._loop = (word, None) if re.match(_NAME_RE, word) else None
            return
        name, values = self._loop
        if word == "in" and values is None:
            self._loop = (name, [])
            return
        if values is None or len(values) > _BRACE_CAP:
            self._loop = (name, None)
            return
        for each in _braces(word) or [word]:
            expanded = _expand(each, known, environ)
            if expanded is None:
                self._loop = (name, None)
                return
            expanded = _tilde(expanded, environ)
            if not re.search(_GLOB_CHARS, expanded):
                values.append(expanded)
                continue
            relative = not PurePath(expanded).is_absolute()
            anchored = f"{self._base}/{expanded}" if relative else expanded
            matches = _glob(anchored, self._found)
            cut = len(self._base) + 1 if relative else 0
            values.extend(match[cut:] if match != anchored else expanded for match in matches)

    def _built(
        self,
        word: str,
        known: Mapping[str, str | None],
        environ: Mapping[str, str],
        *,
        lost: bool,
    ) -> bool:
        """Whether the place ``word`` names is built at run time (:func:`_built_at_run_time`),
        unless its only expansions are loop variables whose values are known
        (:meth:`_read_loop`): then each place it takes is judged as a path and it is not."""
        if self._unsure and "$" in word:
            return True  # a variable a sourced file, ``eval`` or ``read`` may have set
        if self._may_vanish(word, known, environ):
            return True  # ``nullglob``: ``cp x "$(cat f)" dst*`` writes where ``$(cat f)`` says
        if _made_link(self._found, word, self._base, known, environ) is not None:
            return True  # through a link made to a place built at run time: ``ln -s "$(…)" l``
        if not _built_at_run_time(word, known, environ, lost=lost):
            return False
        places = _through_loops(word, self._loops)
        if places is None or lost:
            return True
        for place in places:
            expanded = _expand(place, known, environ)
            if expanded is None:
                return True
            path = _tilde(expanded, environ)
            absolute = PurePath(path).is_absolute()
            self._found.paths.append(path if absolute else f"{self._base}/{path}")
        return False

    def _may_vanish(
        self, word: str, known: Mapping[str, str | None], environ: Mapping[str, str]
    ) -> bool:
        """Whether bash may remove the written ``word``: ``nullglob`` may be on
        (:func:`_glob_options`) and its pattern matches nothing here (or more than the scan
        budget reads). The word before it then takes its place (``cp`` writes into its last
        operand), so where the command writes is known only at run time (P-3)."""
        if "nullglob" not in self._found.budget.options:
            return False
        expanded = _expand(word, known, environ)
        if expanded is None:
            return False  # built at run time already
        path = _tilde(expanded, environ)
        if not re.search(_GLOB_CHARS, path):
            return False
        if _GLOBIGNORE in self._found.budget.options:
            return True  # its patterns unread: may remove every name the glob matches
        try:
            return not _scan(os.path.join(self._base, path), self._found.budget)  # noqa: PTH118
        except _OverScan:
            return True

    def _note_reads(self, command: str | None) -> list[str]:
        """Keep what the command ended reads besides its words: a program's own settings or
        startup files (:data:`CONFIGURED`, :data:`~harness_memory.hooks.shell_startup.
        STARTUP_SHELLS`, ``python3 -m pip``) with its folder, words and literal settings
        variables; gives the command's words (expanded where known)."""
        words, self._config_words = self._config_words, []
        assigned, self._assigned = self._exported | self._assigned, {}
        if command in CONFIGURED or command in STARTUP_SHELLS:
            read_as = READ_AS.get(command or "", command or "")
            self._found.configured.append((read_as, self._base, words, assigned))
        elif command and re.match(_PYTHON_RE, command) and words[:2] == ["-m", "pip"]:
            self._found.configured.append(("pip", self._base, words[2:], assigned))
            self._found.settings_readers.append(("pip", self._base))
        return words

    def _note_script(
        self,
        command: str | None,
        program: list[str],
        spoken: tuple[list[str], list[str]],
        feed: list[str] | None,
    ) -> None:
        """:meth:`_note_script_files`, given the words a shell or ``source`` reads as its
        script and its arguments (``spoken``: those, and the command's words as written); then
        a shell script it noted that uses its positional parameters (``"$@"``, ``$1``…) given
        a word built at run time (``bash run.sh cp n "$(cat t)/a.md"``, ``./run.sh …``, ``.
        ./run.sh …``) has its text read as the command's own, after ``set --`` of the words
        it is given (:meth:`_read_given`): only where it runs them or writes where they say is
        a place known only at run time (``bash script.sh "$(cat VERSION)"`` with ``echo hello
        "$1"`` writes nothing) (P-3)."""
        words, said = spoken
        before = len(self._found.scripts)
        self._note_script_files(command, program, words, feed)
        given = words if command in _SOURCING else said
        built = {
            w for w in given if self._built(w, self._known, self._environ, lost=self._run_lost)
        }
        for kind, base, spelled, path, _ in self._found.scripts[before:]:
            if kind == "fed" or path is None or not built - {spelled}:
                continue  # fed: judged by :meth:`_fed_plainly`; named at run time: unknown
            file = script_file(kind, base, _tilde(path, self._environ), self._environ)
            language, text = read_script(file, run=kind == "run")
            if language == "shell" and re.search(_POSITIONAL_USE_RE, text):
                arguments = _script_arguments(command, words, said, kind=kind)
                if not self._read_given(text, arguments, base):
                    self._found.written_at_run_time.append("$@")
                    return

    def _read_given(self, text: str, arguments: list[str] | None, base: str) -> bool:
        """Read the shell script ``text`` run in ``base`` as commands of the call, its
        positional parameters ``arguments`` (as written: a word holding ``$`` or a backquote
        stays built at run time, a literal one literal), as a shell's ``-c`` code given words
        is (:func:`_code_in`); False when it is not read (longer than
        :data:`~harness_memory.hooks.named_scripts.SCRIPT_FOLLOW_CAP`, the arguments not
        known, or :data:`_INNER_DEPTH` shells deep): its words then stay unknown (P-3)."""
        if arguments is None or len(text) > SCRIPT_FOLLOW_CAP or self.depth + 1 >= _INNER_DEPTH:
            return False
        if re.search(_TEXT_RUN_RE, text):
            return False  # ``eval "$1"``, ``bash -c "$1"``: built text run as code
        quoted = " ".join(_fed_word(w, "$" in w or "`" in w, []) for w in arguments)
        at = (base, self._environ, self.depth, self._run_lost)
        _read_inner(self._found, [f"set -- {quoted}\n{text}"], at, outer=self)
        return True

    def _note_script_files(
        self, command: str | None, program: list[str], words: list[str], feed: list[str] | None
    ) -> None:
        """Keep the script file the command ended runs (``ShellPaths.scripts``): ``source``'s
        or ``.``'s operand, a shell's script operand
        (:func:`~harness_memory.hooks.shell_startup.script_operand`), or the program itself
        when named by its path; each value a ``for`` loop's variable in it takes. A shell (or
        ``source``) reading its code from standard input (``bash``, ``sh -s a``, ``bash
        /dev/stdin``) runs each file ``feed`` gives it (:func:`_literal_feed`: ``bash <
        mk.sh``, ``cat mk.sh | bash``) as a script; given none the guard can name (a pipe, a
        here-string) that code is read elsewhere (:mod:`~harness_memory.hooks.piped_code`),
        and the device (``/dev/stdin``) is never read as a file here (P-3). An interpreter's
        code given inline is read for what its substitutions print (``python3 -c "$(base64 -d
        <<< …)"``: :meth:`note_unread_code`)."""
        name = command or ""
        if program and self._operand and reads_text(name) and _inline_code(name, program):
            self.note_unread_code(self._operand, in_shell=name in SHELLS)
        script = _script_word(command, program, words)
        if script is None and command in SCRIPT_SHELLS and (operand := script_operand(words)):
            script = ("shell", operand)  # ``zsh mk.sh``, ``ksh mk.sh``: as ``bash mk.sh``
        if _reads_code_from_stdin(command, words, script):
            for word in feed or []:
                self._add_script("fed", word, word)
            return
        if script is None:
            return
        kind, word = script
        for each in _through_loops(word, self._loops) or [word]:
            self._add_script(kind, word, each)

    def _take_feed(
        self, command: str | None, feed: list[str] | None, spoken: tuple[list[str], list[str]]
    ) -> tuple[list[str] | None, bool]:
        """The files fed to the command ended (:func:`_literal_feed`) and whether the words
        (as written: ``spoken``, ``source``'s own then the command's) the shell ``command``
        reading them is given are judged as they are for a script operand
        (:meth:`_fed_plainly`); its reading redirections are counted anew for the next
        command."""
        words = spoken[0] if command in _SOURCING else spoken[1]
        fed = _literal_feed(feed)
        built = fed is not None and any(
            self._built(word, self._known, self._environ, lost=self._run_lost) for word in words
        )
        given = None  # the positional parameters (``bash -s -- a``: ``a``), when one is built
        if built and command in _SOURCING:
            given = [word for word in words if word != "--"][1:]  # ``source /dev/stdin a``
        elif built and (command in SHELLS or command in STARTUP_SHELLS):
            given = shell_run(words).given
        plain = self._fed_plainly(fed, redirected=self._stdin is not None, built=(built, given))
        fetched = feed == [] and self._fetched and not self._inputs and not self.stdin_elsewhere
        self._inputs = 0
        return fed, plain or (fetched and self._fetched_given(command, words))

    def _note_printed(self, command: str | None, words: list[str]) -> None:
        """Keep what the command ended (its ``words`` as written, after its name) prints into
        a pipe after it: the files a plain ``cat`` prints (none from a ``cat`` the command
        defines), and whether it is code a downloader fetched (``curl -fsSL URL``:
        :func:`~harness_memory.hooks.code_sources.stage_unread`)."""
        printed = command == "cat" and not any(word.startswith("-") for word in words)
        printed = printed and self.cat_read  # a ``cat`` the command defines may print anything
        self._cat_feed = words if printed else []
        fetched = command in DOWNLOADERS and not stage_unread([command, *words], self.redefines)
        self._fetched = bool(fetched)

    def _fetched_given(self, command: str | None, words: list[str]) -> bool:
        """Whether the shell ``command`` run with ``words`` (as written), reading code a
        downloader fetched from its pipe (``curl -fsSL URL | sh -s -- -y``), is given only
        words the guard judges: options of one letter or a long name (``-y``,
        ``--no-modify-path``), and values (``stable``, ``--prefix=$HOME/.local``'s
        ``$HOME/.local``) spelt without a pattern, quote, ``~`` or anything built at run time,
        each judged as a place the command writes. The fetched code itself is let through as
        ``| sh`` is (:mod:`~harness_memory.hooks.code_sources`); what it is given no longer
        counts as words known only at run time (:func:`_code_given_unread`), unless one is
        (``"$(cat f)"``, ``-pnotes``, ``*``: then still refused) (P-3)."""
        if command not in SHELLS and command not in STARTUP_SHELLS:
            return False
        values: list[str] = []
        for word in shell_run(words).given:
            if re.fullmatch(_GIVEN_OPTION_RE, word):
                continue
            spelt = re.fullmatch(_GIVEN_VALUE_RE, word)
            if spelt is None or self._built(word, self._known, self._environ, lost=self._run_lost):
                self._found.given_refused.append(word)  # named in the refusal (guarding)
                return False
            values.append(spelt.group("value"))
        for value in values:
            _add(self._found, value, [self._base], self._known, self._environ, lost=self._run_lost)
        return True

    def _fed_plainly(
        self, fed: list[str] | None, *, redirected: bool, built: tuple[bool, list[str] | None]
    ) -> bool:
        """Whether the one file ``fed`` names (:func:`_literal_feed`, on standard input) is a
        script the guard reads, judged as ``bash FILE WORDS`` is (``cat run.sh | bash -s --
        arg``): the words a shell running it is given are then judged as that script's
        operands are, its text by the memory it names. Not so when its text runs its
        positional parameters as a command (:data:`_POSITIONAL_RUN_RE`: ``"$@"`` in ``run.sh``,
        ``bash -s -- python3 mk.py < run.sh``): those words stay a command the guard cannot
        read. One that uses them (``$1``…) given a word built at run time (``built``: whether
        one is, and the words a shell is given, as written; ``bash -s -- "$(cat VERSION)" <
        script.sh``) has its text read as the command's own (:meth:`_read_given`); one too
        long to, or whose words are not told, keeps them a command the guard cannot read.
        ``redirected``: fed by ``<`` (its one reading redirection), else by a ``cat`` before
        the pipe (none)."""
        if fed is None or len(fed) != 1 or self._inputs != redirected or self.stdin_elsewhere:
            return False  # ``< install.sh <<< "$(cat mk.sh)"``, ``<&3``: another input
        if self._found.configured and self._runs_startup_files(self._found.configured[-1]):
            return False  # ``BASH_ENV=mk.sh bash -s -- a < install.sh``: it is given them too
        expanded = _expand(fed[0], self._known, self._environ)
        if expanded is None:
            return False
        file = script_file("shell", self._base, _tilde(expanded, self._environ), self._environ)
        language, text = read_script(file, run=False)
        if language != "shell" or re.search(_POSITIONAL_RUN_RE, text):
            return False  # ``"$@"`` runs them: a command the guard cannot read
        if not built[0] or not re.search(_POSITIONAL_USE_RE, text):
            return True
        return self._read_given(text, built[1], self._base)

    def _runs_startup_files(self, started: tuple[str, str, list[str], dict[str, str]]) -> bool:
        """Whether the shell ``started`` (``ShellPaths.configured``'s last: its name, folder,
        words and assignments) runs a startup file first (``BASH_ENV``, ``-i``, ``-l``)."""
        shell, _, words, assigned = started
        if shell not in STARTUP_SHELLS:
            return False
        return bool(startup_files(shell, words, {**self._environ, **assigned}))

    def _add_script(self, kind: str, word: str, value: str) -> None:
        """Keep the script ``word`` (taking the value ``value``) run as ``kind`` in the
        command's folder, expanded as the shell will (None when built at run time). A
        descriptor's name (``/dev/fd/3``, ``/proc/self/fd/3``: :data:`_INPUT_DEVICE_RE`) is no
        file the guard may open (it would read its own descriptor): its code is unknown, may
        write anywhere, and is refused as such; ``/dev/null`` runs nothing."""
        kernel = _as_kernel_names(value)
        if kernel == "/dev/null":
            return
        if re.match(_INPUT_DEVICE_RE, kernel):
            self._found.written_at_run_time.append(f"$(the code a shell reads from {value})")
            return
        expanded = _expand(value, self._known, self._environ)
        path = None if expanded is None else _tilde(expanded, self._environ)
        for base in dict.fromkeys([self._base, *self.maybe_bases]):  # ``false && cd sub``
            self._found.scripts.append((kind, base, word, path, True))
        if kind == "source" and path is not None:
            self._sourced_folders(script_file(kind, self._base, path, self._environ))

    def _sourced_folders(self, file: str) -> None:
        """Keep the folders a sourced ``file``'s ``cd``s may leave the shell in as ones it
        may be in (``cd sub; . ../b.sh; bash k.sh`` with ``b.sh`` ``cd ..``: a script run
        after it is read there too, P-3)."""
        language, text = read_script(file, run=False)
        if language != "shell" or not re.search(FOLDER_CHANGER_RE, text):
            return
        folders = script_folders(text, self._base, self._environ, (file, "source")) or []
        self.maybe_bases.extend(f for f in folders if f not in (self._base, *self.maybe_bases))

    def _link_maker(
        self,
        command: str,
        program: list[str],
        said: list[str],
        script_words: list[str],
        wrapper: str,
    ) -> tuple[str, str] | None:
        """Whether the program the command ended runs (``program``: its name as spelled and
        options; ``said``: its words as written and expanded) may make a link, by what the
        guard reads of it (:mod:`~harness_memory.hooks.link_texts`): the program, and what
        shows it may; None when nothing read shows it (``npm``, ``make``, a compiled binary:
        fenced by the harness's sandbox as for every place such a program writes). Read: a
        program known to make links from its arguments (``xargs ln -s``, ``stow``); an
        interpreter's words and here-documents (``python3 -c``, ``node -e``, ``perl -e``,
        ``python3 - <<'PY'``); the script file it, a shell, ``source`` or the program named by
        its path runs (``python3 mk.py``, ``bash mk.sh``, ``./mk.sh``), or, when the command
        writes a file of that name before it runs (its text not yet there), that script; a
        local module or code on standard input (:meth:`_code_elsewhere`; not under the
        ``wrapper`` ``command``, whose ``-v`` only names the program). A file fed on standard
        input (``python3 < mk.py``, ``/bin/bash -s < mk.sh``) is code read from standard input
        as a pipe's is (``cat mk.sh | bash -s``), however its text reads (a shell script's own
        commands are not read as the call's); ``< /dev/null`` (no regular file) feeds none."""
        if self._named_at_run_time(program[0], said):
            return program[0], _RUN_NAMED
        if _documents(command, said[::2]):
            return None  # ``man ln``, ``pip install ln``: a page shown, a package installed
        if (by := links_by_arguments(command, [*program[1:], *said])) is not None:
            return program[0], by
        for preload in _preloaded(program):
            if (loaded := self._preload_links(program[0], preload)) is not None:
                return loaded
        if _checks_only(command, program, said):
            return None  # ``bash -n mk.sh``, ``node --check mk.js``: its script never runs
        interpreted = reads_text(command)
        if interpreted and (shown := link_text(" ".join([*said, self.here_text]))) is not None:
            return program[0], shown
        script = _script_word(command, program, script_words)
        inline = _inline_code(command, program)  # its operand is code or a module, no file
        operand = self._script_operand(command, program, script_words)
        if script is not None and re.match(_INPUT_DEVICE_RE, kernel := _as_kernel_names(script[1])):
            if ".." in script[1].split("/"):
                return program[0], f"{script[1]}, a descriptor named through '..'"
            operand, script = kernel, None  # ``bash /dev/stdin < mk.sh``: standard input
        elif operand is not None and re.match(
            _INPUT_DEVICE_RE, kernel := _as_kernel_names(operand)
        ):
            if ".." in operand.split("/"):
                return program[0], f"{operand}, a descriptor named through '..'"
            operand = kernel  # ``python3 /dev/./stdin``, ``//dev/stdin``
        fed = operand is None or operand in STDIN_SCRIPTS
        if fed and interpreted and not inline and self._stdin is not None:
            operand = self._stdin  # ``python3 < mk.py``, ``bash -s < mk.sh``: code fed in
            if re.search(_GLOB_CHARS, operand) and (operand := self._one_match(operand)) is None:
                return program[0], f"{self._stdin}, a file fed by a pattern"
        elif operand is not None and re.match(_INPUT_DEVICE_RE, operand) and interpreted:
            return program[0], f"{operand}, code read from a descriptor"
        if script is None and interpreted and operand not in (None, "-") and not inline:
            script = ("run", operand or "")  # ``python3 mk.py``: in the shell's folder
        if script is None:
            reads = interpreted and wrapper != "command"
            return self._code_elsewhere(
                command, program, said[::2], interpreted=reads, inline=inline, operand=operand
            )
        if (expanded := _expand(script[1], self._known, self._environ)) is None:
            # an interpreter's or shell's script named at run time (``python3 "$(cat nm)"``);
            # a program itself so named is fenced by the sandbox as any unread program
            named = interpreted or script[0] != "run"
            return (program[0], f"{script[1]}, a script named at run time") if named else None
        file = script_file(script[0], self._base, _tilde(expanded, self._environ), self._environ)
        name = os.path.basename(file)  # noqa: PTH119
        if self._writes_script(name):
            return program[0], f"{script[1]}, a script the command writes"
        if not os.path.isfile(file):  # noqa: PTH113
            return None  # missing (it runs nothing), a folder, ``/dev/null``
        return self._script_links(program[0], script[1], file, run=script[0] == "run")

    def _script_operand(self, command: str, program: list[str], words: list[str]) -> str | None:
        """The word naming the script of the interpreter ``command`` (``program``: its name
        and options before its first operand; ``words``: a shell's words, as written): ``-``
        for standard input (``python3 - arg``: :func:`_dash_script`; a shell reading its
        standard input, ``bash -euo pipefail``, ``bash -s a``: bash's own reading of its
        options, :func:`~harness_memory.hooks.shell_operands.shell_run`, so ``pipefail`` is
        ``-o``'s value, no script), else its first operand (None: none)."""
        if command in STARTUP_SHELLS and (run := shell_run(words)).code is None:
            return "-" if run.stdin and run.script is None else self._operand
        return "-" if _dash_script(command, program) else self._operand

    def _one_match(self, pattern: str) -> str | None:
        """The one file a pattern fed on standard input names (``bash < m?.sh``: bash expands
        it, in the shell's folder as it is when the guard answers), or None when it matches
        none or several (bash refuses an ambiguous redirect), or past the scan budget: then
        the code fed is unknown (P-3)."""
        expanded = _expand(pattern, self._known, self._environ)
        if expanded is None:
            return None
        relative = not PurePath(expanded).is_absolute()
        try:
            found = _scan(f"{self._base}/{expanded}" if relative else expanded, self._found.budget)
        except _OverScan:
            return None
        return found[0] if len(found) == 1 else None

    def _runs_linker(self, name: str, command: str, said: list[str]) -> tuple[str, str] | None:
        """The program that may make a link among those ``command`` runs from its words
        (``said``: each as the lexer gives it, then its value, "" when built at run time:
        quoted so unless it holds white space, code a shell there reads again, ``sh -c 'wc
        -l "$1"'``;
        :mod:`~harness_memory.hooks.run_texts`: ``find -exec python3 mk.py \\;``, ``xargs
        python3 mk.py``, ``git -c alias.x='!python3 mk.py' x``, ``sed 'e python3 mk.py'``,
        ``make --eval='x: ; @python3 mk.py'``), each read as a command the shell runs here
        (:meth:`_read_run`), or None (P-3). The names ``find`` and ``xargs`` give it at run
        time are ``{}`` (``-exec grep -l TODO {} +``), but ``{}`` given to an interpreter, alone
        or in a word (``-exec python3 {} \\;``, ``python3 ./{}``, ``xargs -I X python3 X``,
        ``xargs -0 sh -c``, ``sh -c 'python3 {}'``): its script or code is then named only at
        run time. A shell given its code (``-exec
        sh -c CODE _ {}``) is left to the reading of a shell's code. ``name``: the command's
        name as spelled, a ``find`` running a link maker (``-exec ln -s``)."""
        words = said[::2]
        pairs = zip(words, said[1::2], strict=False)
        built = {word for word, value in pairs if not (value or any(c.isspace() for c in word))}
        running = command == "find" and FIND_RUNNING & set(words)
        if running and (by := links_by_arguments("find", words)) is not None:
            return name, by  # ``find … -exec ln -s {} l \;``, ``-exec mv {} . \;``
        texts = []
        for each in commands_run(command, words):
            program = os.path.basename(each[0])  # noqa: PTH119
            code = shell_run(each[1:]).code if program in SHELLS else None
            if code is not None and "{}" not in each[code + 1]:
                continue  # ``-exec sh -c CODE``: its code read as a shell's already
            if code is not None and each[code + 1] != "{}":  # ``sh -c 'python3 {}'``: its code
                texts.append(each[code + 1].replace("{}", _FED))
                continue
            fed = ["{}"] if reads_text(program) else []
            quoted = (_fed_word(word, word in built, fed if "{}" in word else []) for word in each)
            texts.append(" ".join(quoted))
        if command == "sed":  # ``sed -f script.sed``: its ``e`` commands, read from the file
            for spelled in sed_script_files(words):
                if (shown := self._sed_file_runs(name, spelled)) is not None:
                    return shown
        for text in [*texts, *texts_run(command, words)]:
            if (made := self._read_run(text).linker) is not None:
                return made
        return None

    def _sed_file_runs(self, name: str, spelled: str) -> tuple[str, str] | None:
        """Whether the ``sed`` script file ``spelled`` (``sed -f FILE``) runs a program that
        may make a link by its ``e`` commands (:func:`~harness_memory.hooks.run_texts.
        texts_run`), each read as a command the shell runs; one named at run time, or that
        the guard cannot read, may (P-3). A missing file runs nothing."""
        if (expanded := _expand(spelled, self._known, self._environ)) is None:
            return name, f"{spelled}, a sed script named at run time"
        file = script_file("run", self._base, _tilde(expanded, self._environ), self._environ)
        if not os.path.lexists(file):
            return None
        kind, text = read_script(file, run=False)
        if kind == "unknown":
            return name, f"{spelled}, a sed script the guard cannot read"
        for run in texts_run("sed", ["-e", text]):
            if (made := self._read_run(run).linker) is not None:
                return made
        return None

    def _preload_links(self, name: str, value: str) -> tuple[str, str] | None:
        """Whether the file ``value`` names, which the interpreter ``name`` loads before its
        script (``node -r ./mk.js``, ``ruby -r ./mk.rb``: :func:`_preloaded`), may make a
        link: read as a script is (P-3). A module name with no such file in the shell's folder
        (``dotenv/config``, ``tsx``) is a package, not read, as before."""
        if (expanded := _expand(value, self._known, self._environ)) is None:
            return name, f"{value}, a script named at run time"
        file = script_file("run", self._base, _tilde(expanded, self._environ), self._environ)
        if self._writes_script(os.path.basename(file)):  # noqa: PTH119
            return name, f"{value}, a script the command writes"
        for each in (file, *(file + ext for ext in _PRELOAD_SUFFIXES)):
            if os.path.isfile(each):  # noqa: PTH113
                return self._script_links(name, value, each, run=True)
        return None

    def _named_at_run_time(self, name: str, said: list[str]) -> bool:
        """Whether the command's name ``name`` is an expansion the guard cannot read
        (``"$@"``, ``$UNSET``, ``${a[@]}``), or a command substitution (the lexer gives it as
        ``$``) followed by words of its own (``$(echo ln) -s …``; not the text glued after
        one inside a word read again, ``"$(cat f)/a"``): it may run any program, ``ln`` too."""
        if self._name_tested or self.code_variable:
            return False  # a test's operand (``[[ "$(git …)" > main ]]``), ``eval "$x"``'s code
        if self._name_unread:
            return True  # an alias the command defines (``alias l=ln``)
        if name != "$":
            return self._built_name(name)
        if self.top_level:
            return True  # ``$(npm bin)/eslint``, ``$(echo ln -s … --suffix=)/git``: any program
        return any(word not in self._tails and word != "$" for word in said[::2])

    def wrote(self, name: str) -> bool:
        """Whether the command so far, or one it is read inside (``bash -c '…'``), writes a
        file called ``name`` by a writer the guard reads (:meth:`_writes_script`)."""
        return self._writes_script(name) or (self.outer is not None and self.outer.wrote(name))

    def _writes_script(self, name: str) -> bool:
        """Whether the command so far writes a file called ``name`` (a script's base name) by
        a writer the guard reads (a redirect, ``cp``/``mv``/``tee``'s target), not only as a
        word of a program it does not read (``python3 gen.py; python3 gen.py``: ``gen.py``
        is read, not written)."""
        written = self._found.written
        self._written_names.update(
            os.path.basename(word.rstrip("/"))  # noqa: PTH119
            for word in written[self._written_seen :]
        )
        self._written_seen = len(written)
        return self._written_names[name] > self._unread_names[name]

    def _code_elsewhere(
        self,
        command: str,
        program: list[str],
        words: list[str],
        *,
        interpreted: bool,
        inline: bool,
        operand: str | None,
    ) -> tuple[str, str] | None:
        """Whether an interpreter (``program``) run with no script file may make a link by
        code the guard cannot read in its words: a local module (``python3 -m helper``, read
        as its file, or a local package: a folder holding ``__init__.py`` or ``__main__.py``;
        setuptools' ``build/`` or a ``venv/`` folder shadows no ``-m build``, ``-m venv``), or
        code it reads on standard input (``python3 <
        helper.py``, ``cat helper.py | python3``: no operand, no here-document; ``words``: all
        its words, as written: ``python3 -m runpy mk`` runs the module ``mk``), however the
        interpreter is named (``python3``, ``/usr/bin/python3``, ``.venv/bin/python``:
        ``command``, the name it is judged by), or built at run time in a here-string
        (``python3 <<< "$(cat mk.py)"``). Code or a module named at run time is code the guard
        cannot read (:func:`_code_named_at_run_time`: ``xargs -I{} python3 -m {}``, ``python3
        -c "$(cat mk.py)"``). None for code given inline (already read), a module not in the
        shell's folder (``python3 -m pytest``), or a program the guard does not read as code
        (``npm``). ``operand``: its script's word (:meth:`_script_operand`; ``-``: none)."""
        if not interpreted:
            return None
        names_module = bool(re.match(_PYTHON_MODULE_RE, program[-1]))
        spelt = _live_spellings(self.text)
        variables = _code_variables(self.text)
        code = self._operand or ""
        if inline and _code_named_at_run_time(code, spelt, variables.filled, module=names_module):
            named = _filled_names(spelt.get(code, code), variables.filled)
            return program[0], f"{self._operand}, {_built_code_reason(program[0], named)}"
        if inline:
            module = self._operand if re.match(_PYTHON_MODULE_RE, program[-1]) else None
            if module is None:  # code given inline, read already: the modules it loads
                seen = _with_literals(code, variables.literals)
                if seen != code and (shown := link_text(seen)) is not None:
                    return program[0], shown
                return _modules_links(program[0], self._base, seen, None)
            if module == "runpy" and module in words[:-1]:  # ``-m runpy mk``: runs ``mk``
                module = words[words.index(module) + 1].removesuffix(".py")
            if not re.match(_PYTHON_RE, command):
                return None
            path = os.path.join(self._base, *module.split("."))  # noqa: PTH118
            if os.path.isfile(f"{path}.py"):  # noqa: PTH113
                return self._script_links(program[0], f"-m {module}", f"{path}.py", run=False)
            if any(  # a package, or a folder Python runs as one: not setuptools' build/, a venv/
                os.path.isfile(os.path.join(path, name))  # noqa: PTH113, PTH118
                for name in ("__init__.py", "__main__.py")
            ):
                return program[0], f"-m {module}, a local package"
            return None
        quiet = {"-V", "--version", "-h", "--help", "-v"}
        if operand not in (None, "-") or quiet & set(program[1:]):
            return None
        if not self.here_text or self.here_built:
            named = _filled_names(self.here_text, variables.filled) if self.here_built else []
            return program[0], _built_code_reason(program[0], named) if named else _STDIN_CODE
        # the here-document's code, read already: the local modules it loads (``import mk``); a
        # here-string's word keeps its quotes (``<<< 'import mk'``, ``<<< im"port mk"``,
        # ``<<< import\\ mk``): each line is read as written and with them taken out
        lines = _with_literals(self.here_text, variables.literals).split("\n")
        unquoted = [re.sub(_QUOTING_RE, "", line) for line in lines]
        return _modules_links(program[0], self._base, "\n".join([*lines, *unquoted]), None)

    def _script_links(
        self, name: str, spelled: str, file: str, *, run: bool
    ) -> tuple[str, str] | None:
        """Whether the script ``file`` (run as ``spelled`` by the program ``name``) may make a
        link by its text (:func:`~harness_memory.hooks.link_texts.link_text`) or that of a
        module beside it it loads (:func:`~harness_memory.hooks.link_texts.local_imports`,
        one level: ``import helper`` with ``helper.py`` in its folder, ``require('./x')``);
        a script the guard cannot read may."""
        language, text = read_script(file, run=run)
        if language == "unknown":
            return name, f"{spelled}, a script the guard cannot read"
        if language == "program":
            return None
        if (shown := link_text(text)) is not None:
            return name, f"{shown} in {spelled}"
        return _modules_links(name, os.path.dirname(file), text, spelled)  # noqa: PTH120

    def end(self) -> None:
        """The simple command ended: judge its operands."""
        command, operands = self._command, self._operands
        self._command, self._operands, self._redirect, self._skip = None, [], "", False
        wrapper, self._wrapper, self._leading = self._wrapper, "", 0
        program, self._program = self._program, []
        said, self._said = self._said, []
        run_named, self._run_named = self._run_named, False
        script_words, self._script_words = self._script_words, []
        piped, self._piped = self._piped, False
        feed = [self._stdin] if self._stdin is not None else self._cat_feed if piped else None
        looked_up, self._looked_up = self._looked_up, False
        if not looked_up:  # ``command -v apply_patch`` runs none
            self.note_fed_patch(command, said, feed, unknown=run_named)
        self._read_split(program, said)
        config_words = self._note_reads(command)
        fed, plain = self._take_feed(command, feed, (script_words, said[::2]))
        self._note_printed(command, said[::2])  # what a pipe after it gives
        self._note_script(command, program, (script_words, said[::2]), fed)
        unread = bool(program) and not _writes_nothing_unread(program, self._operand, operands)
        maker = None  # read before its words count as written (``python3 mk.py``: ``mk.py``)
        if unread and self.linker is None:
            maker = self._link_maker(command or "", program, said, script_words, wrapper)
        if maker is None and self.linker is None:
            git = [each for word in config_words for each in (word, word)]  # its own words
            given = git if command == "git" else said
            maker = self._runs_linker(program[0] if program else "", command or "", given)
        self._stdin = None
        if unread:
            self._note_unread_writes(command or "", said, config_words)
            self._unread_names.update(os.path.basename(word.rstrip("/")) for word in said)  # noqa: PTH119
            self._found.programs.insert(self._named_at, program[0])
            if self._run_data:  # ``cd "$(cat f)" && python3 -c 'open("a.md", "w")'``
                self._found.lost_programs.append(program[0])
            self._note_linked(program[0], said)
        reader = READ_AS.get(command or "", command)
        if reader in PROGRAM_VARIABLES and not _settings_skipped(reader, program, operands):
            self._found.settings_readers.append((reader, self._base))
        if (
            self._run_lost
            and command in FOLDER_WRITERS
            and (command != "tar" or _extracts(operands))
        ):
            self._found.run_in_unknown.append(program[0])
        self._note_glued_values(command, operands)
        self._note_option_programs(command, said[::2])
        self._note_patched_folder(command, operands)
        unpacker = self._note_unpack(command, operands, config_words)
        if command in LINK_MAKERS:
            self._note_links(command, operands)
        elif command == "git" and "mv" in config_words:
            self._note_git_mv(config_words)
        if self._loop is not None:
            self._loops[self._loop[0]] = self._loop[1]
            self._loop = None
        moving, self._moving = self._moving, []
        words, self._words = self._words, []
        self._note_moves(command, moving, words)
        written = self._written_by(command, unpacker, operands, (program, said, run_named))
        wrapped = wrapper in ("command", "builtin") or run_named or self._renamed
        if self._sets_any(command, wrapped, said[::2]):  # any variable, ``HOME`` for ``~`` too
            self._unsure = True
            self._known.update(dict.fromkeys(_SET_BY_ANY))
        if not self._note_applets(command, program, said):  # ``busybox --install -s`` runs no sh
            given = script_words if command in _SOURCING else said[::2]
            written += _code_given_unread(command, given, fed=plain)
        self._note_unseen(command, said, run_named=run_named)
        self._found.written_at_run_time.extend(word for word, built in written if built)
        named_before = len(self._found.named)  # a backup is of a file there before the writer
        self._note_written(command, written, operands, said)
        self._note_backups(command or "", operands, written, named_before)
        self._note_kept_backups(command or "", operands, written, named_before)
        if command == "sed":
            self._note_sed_files(operands, said)
        if maker is not None:  # after its own writes: later ones meet it
            self.linker = maker
            self._found.linker = self._found.linker or maker
        self._prefixed = {}

    def note_fed_patch(
        self, command: str | None, said: list[str], feed: list[str] | None, *, unknown: bool
    ) -> None:
        """Read the patch an ``apply_patch`` the command ended runs (``said``: its words as
        written and expanded) takes from elsewhere than its words or here-data: from ``feed``,
        the files on its standard input (``apply_patch < p.diff``, ``cat p.diff |
        apply_patch``; empty: a pipe from another program), read now and their files named as
        the patch tool's are, unless the command wrote one or ran a program before it that
        may have. A patch known only when it runs (a pipe, ``xargs``, ``find -exec``,
        ``"$P"``, a file the guard cannot read) keeps its folder in ``found.fed_patches``; a
        runner's files are named too (``xargs -0 apply_patch < p.diff``). One given no patch
        at all is counted (``bare_patchers``): its here-data holds it, or its shell's input.
        A command whose name is ``unknown`` (built at run time: ``$ap`` with ``ap`` set in a
        loop) may be ``apply_patch``: given standard input, it is read as one."""
        words = said[::2]
        runner = _runs_patcher(command, words)
        named = command is not None and re.search(_PATCHER_RE, command) is not None
        if not (runner or named or (unknown and feed is not None and not words)):
            return
        if not runner and words:
            if "" in said[1::2]:
                self._fed_patch("its argument is built at run time")
            return
        text = None if not feed else self._fed_text(feed)
        if text is not None:
            written, gone = patch_files(text)
            self._found.named.extend(posixpath.join(self._base, name) for name in written)
            self._found.paths.extend(posixpath.join(self._base, name) for name in gone)
        if runner:
            self._fed_patch(f"{command} gives it words read at run time")
        elif feed is None:
            self.bare_patchers += 1
        elif text is None:
            source = f"read from {' '.join(feed) or 'a pipe'}"
            self._fed_patch(source if named else f"{MAYBE_PATCHER}; {source}")

    def _fed_text(self, files: list[str]) -> str | None:
        """The text of ``files`` (words as written, from the shell's folder) as a program
        reading them will find it, or None when that cannot be known now: a name built at run
        time, a folder known only then, a file the command writes, a program run before that
        may, one named with a ``..`` after a symbolic link (the kernel leaves the link's
        target, not the folder the name spells), one reached through a place the kernel gives
        per process (:func:`_per_process`:
        ``/proc/self/cwd/p.diff`` is the hook's folder here, the shell's then), or one that is
        no regular file of at most :data:`~harness_memory.hooks.named_scripts.SCRIPT_CAP`
        bytes (a longer one is never read in part)."""
        places = (posixpath.join(self._base, word) for word in self._found.written if word)
        written = set(map(os.path.normpath, places))
        texts = []
        for word in files:
            expanded = _expand(word, self._known, self._environ)
            if expanded is None or self._run_lost or self._found.programs:
                return None
            raw = posixpath.join(self._base, _tilde(expanded, self._environ))
            path = os.path.normpath(raw)  # as written; the kernel takes a ``..`` after a link
            if ".." in raw.split("/") and (  # None: a name on its way cannot be looked at
                (real := real_or_none(raw)) is None or real != real_or_none(path)
            ):
                return None  # from the link's target (``lnk/../r.diff``, lnk -> /): not as read
            unknown = path in written or _per_process(path)
            language, text = ("unknown", "") if unknown else read_script(path, run=False)
            if language == "unknown":
                return None
            texts.append(text)
        return "".join(texts)

    def _note_applets(self, command: str | None, program: list[str], said: list[str]) -> bool:
        """Whether the command ended is ``busybox --install [-s] [DIR]`` (or toybox's): it
        makes a link (``-s``: symbolic) per applet in ``DIR`` (none given: the system's own
        folders), each named as its applet (``sh``, ``cp``: no name a scope file takes, K-7),
        so ``DIR/sh`` is kept as a place it writes (``found.paths`` and ``found.named``), or,
        when ``DIR`` is built at run time, in ``found.written_at_run_time``."""
        if command not in _MULTI_CALL or program[1:2] != ["--install"]:
            return False
        for word, expanded in zip(said[::2], said[1::2], strict=True):
            if word.startswith("-"):
                continue
            if not expanded:
                self._found.written_at_run_time.append(word)
                return True
            place = posixpath.join(self._base, expanded, "sh")
            self._found.paths.append(place)
            self._found.named.append(place)
            return True
        return True

    def _note_unread_writes(self, command: str, said: list[str], words: list[str]) -> None:
        """Keep what the command ended, run unread, may write: any place its words name
        (``said``: as written and expanded), and for the scripts the call runs
        (:mod:`~harness_memory.hooks.script_writers`) the program a compiler or ``make``
        builds, any file for a patcher, and a git command's files it rewrites by path
        (``words``: git's words, expanded). An interpreter's script given first (``python3
        manage.py migrate``) it reads: no new text, as a shell's script operand."""
        self._found.written.extend(said)
        self._found.guessed.extend(said)
        if said[:1] == [self._operand] and any(re.match(rule, command) for rule, _ in INTERPRETERS):
            self._found.textless.extend(said[:2])
        self._found.textless.extend(only_read(command, said))
        spelled = dict(zip(said[::2], said[1::2], strict=False))
        built = built_programs(command, said[::2])
        self._found.compiled.extend(w for b in built for w in (b, spelled.get(b, "")))
        self._found.revised.extend(patched(said[::2]) if command in PATCHERS else [])
        if command == "git":
            self._found.revised.extend(git_rewritten(words))
        if command.startswith("python"):
            self._found.revised.extend(python_unpacked(said[::2]))

    def _fed_patch(self, how: str) -> None:
        """Keep the folder ``apply_patch`` runs in (unknown after a ``cd`` into a folder known
        only at run time: ``/``) as the start of what a patch it gets by ``how`` writes."""
        folder = "/" if self._run_lost else f"{self._base.rstrip('/')}/"
        self._found.fed_patches.append((folder, how))

    def _written_by(
        self,
        command: str | None,
        unpacker: str | None,
        operands: list[tuple[str, bool]],
        named: tuple[list[str], list[str], bool],
    ) -> list[tuple[str, bool]]:
        """The places the simple command ``command`` (read as ``unpacker`` when it unpacks)
        writes with its ``operands`` (each with whether built at run time), ``named`` its
        name and options, its words as written and expanded, and whether its name is built
        at run time: by its own table (:func:`_operand_places`, :func:`_placed_outputs`),
        what ``find -exec`` runs writes, every word built at run time of a program named at
        run time. The words ``set`` gives the positional parameters are kept, and what the
        command ``xargs`` runs writes from the names it reads is fed (:func:`_fed_places`); the
        files a decompressor writes and the folders a recursive copy fills are kept as revised
        (:func:`~harness_memory.hooks.script_writers.also_written`)."""
        program, said, run_named = named
        written = _operand_places(command, unpacker, operands)
        if command == "find":  # ``-exec cp {} "$(cat f)"/a.md \;``: what the writer it runs writes
            written.extend(_found_places(operands, self._runs_unread))
            self._note_found_scripts([word for word, _ in operands])
        if run_named and self._named_at_run_time(program[0], said):
            # ``$(echo cp) note.md "$(cat f)"/a.md``: any program, ``cp`` among them, may
            # write each of its words; one built at run time lands where no one can tell
            written.extend((word, built) for word, built in operands if built)
            written.extend(self._words_run(program[0]))  # ``set -- cp x "$(cat f)"/a.md; "$@"``
        if command == "set" and (given := _positional_set(operands)):
            self._positional, self._positional_state = given, "set"
        if command == "set" and (given or any(word == "--" for word, _ in operands)):
            self._unsure = True  # ``set -- $X``: $1, $@ … hold words known only at run time
        if command == "xargs":  # the program it runs judged as a loop gives it (``xargs "$t"``)
            looped = [(self._loop_value(word) or word, built) for word, built in operands]
            self._found.fed.extend(_fed_places(looped, self._read_xargs_run))
        written.extend(_placed_outputs(command or "", operands))
        self._found.revised.extend(also_written(command or "", said[::2]))  # ``gunzip s.sh.gz``
        return written

    @staticmethod
    def _sets_any(command: str | None, wrapped: bool, words: list[str]) -> bool:
        """Whether the simple command ``command`` (``wrapped``: run by a wrapper or named by a
        variable; ``words``: its words as written) may set any variable, one the guard cannot
        name: a ``read`` naming other than literal plain names (``read "$v"``, ``read X[0]``,
        ``read -ad``: :func:`~harness_memory.hooks.shell_statements.read_names`), one run by
        ``command``, ``builtin`` or a variable (``r=read; $r X``), or a name reference
        (``declare -n R=X``: assigning ``R`` assigns ``X``), or a ``printf`` whose first word
        is an option or known only at run time (``printf "$o" X``) but for ``-v NAME`` with a
        literal plain name (``printf -v stamp '%s' x``: it sets that one, read as the
        statements' reader reads ``read NAME``: :mod:`~harness_memory.hooks.shell_statements`)."""
        if command in ("declare", "typeset", "local"):
            return any(re.match(r"^-[A-Za-z]*n", word) for word in words)
        if command == "printf":
            named = words[:1] == ["-v"] and len(words) > 2 and re.match(_NAME_RE, words[1])
            if not words or words[0] == "--" or named:
                return False
            return re.match(r"^-|.*[$`]", words[0]) is not None
        return command == "read" and (wrapped or read_names(words) is None)

    def _words_run(self, name: str) -> list[tuple[str, bool]]:
        """The places built at run time a command's name ``name`` brings: the words ``set``
        gave the positional parameters (``"$@"``, ``$1``) when the guard read what set them
        last (nothing at the top level: none); else, for one giving several words
        (:data:`~harness_memory.hooks.shell_arrays.WORDS_RUN_RE`: a shell's ``-c`` code's
        ``"$@"``, one after ``eval``, an array filled at run time), the name itself: words
        known only at run time, any of them a place written."""
        read = self._positional_state == "set" or (
            self._positional_state == "none" and self.top_level
        )
        positional = re.match(_POSITIONAL_RE, name) is not None
        if positional and (read or not re.match(WORDS_RUN_RE, name)):
            return [each for each in self._positional if each[1]]
        return [(name, True)] if re.match(WORDS_RUN_RE, name) else []

    def _note_unseen(self, command: str | None, said: list[str], *, run_named: bool) -> None:
        """Keep what ``command`` (named at run time or not; ``said``: its words as written and
        expanded) may have changed unseen: the positional parameters (``eval set -- …``, a
        sourced file, any program named at run time), and the names it may bind to a program
        (``hash -p /bin/cp c`` reached through a variable, ``$(echo hash)``, ``eval 'hash -p
        …'``): a later command so named may run any program, as an alias the command defines
        may."""
        if run_named or command in ("eval", *_SOURCING):
            self._positional_state = "unknown"
        hashing = command == "hash" and _hash_binds(said[::2])
        if run_named or command == "eval" or hashing:
            for word in said[::2]:
                self._bound.update(part for part in word.split() if re.match(_NAME_RE, part))

    def _read_split(self, program: list[str], said: list[str]) -> None:
        """Read the command an ``env -S TEXT`` runs (:meth:`_env_option`) as shell text: its
        text split, the command's words after it appended (``env -S 'cp x' "$(cat f)"`` runs
        ``cp x "$(cat f)"``: ``program``'s name, then ``said``'s words as written)."""
        split, self._split = self._split, []
        if split:
            words = [*program[:1], *said[::2]]
            rest = [_fed_word(each, "$" in each or "`" in each, []) for each in words]
            self._found.take(self._read_run(" ".join([*split, *rest])))

    def _note_found_scripts(self, words: list[str]) -> None:
        """Keep the script each ``find`` action (``-exec``, ``-ok``; ``words``: find's) runs
        by a shell (``-exec bash s.sh {} \\;``, its script operand) or by its path
        (``-exec ./s.sh {} +``), as the command's own (``ShellPaths.scripts``); one naming
        what it finds (``{}``) is no file of the command, and ``-execdir``'s relative ones are
        in each found file's folder, not read here."""
        action: list[str] | None = None
        for word in [*words, ";"]:
            if action is None:
                action = [word] if word in FIND_RUNNING else None
            elif word not in (";", "+", "\\;"):
                action.append(word)
            elif len(action) > 1:
                self._note_action_script(action[0], action[1:])
                action = None
            else:
                action = None

    def _note_action_script(self, action: str, command: list[str]) -> None:
        """:meth:`_note_found_scripts` for one ``action`` running ``command`` (its words); and,
        outside ``-execdir``, the places its command writes that give new text, a found file
        (``{}``) aside, as files it rewrites (``ShellPaths.revised``: ``-exec cp {} s.sh``
        writes ``s.sh``)."""
        if not action.endswith("dir"):
            text = " ".join(_fed_word(word, "$" in word or "`" in word, []) for word in command)
            found = self._read_run(text)
            for word in new_text_words(found.written, (*found.textless, *found.compiled)):
                if word and "{}" not in word:
                    self._found.revised.append(word)
            self._found.revised.extend(found.revised)
        name = os.path.basename(command[0])  # noqa: PTH119
        if name in SCRIPT_SHELLS:
            kind, script = "shell", script_operand(command[1:])
        else:
            kind, script = "run", command[0] if "/" in command[0] else None
        relative = action.endswith("dir") and not (script or "").startswith("/")
        if script is None or "{}" in script or relative:
            return
        self._add_script(kind, script, script)

    def _read_xargs_run(self, text: str) -> ShellPaths:
        """:meth:`_read_run` of the command an ``xargs`` runs, keeping the scripts it runs
        (``xargs bash s.sh``: ``ShellPaths.scripts``, read as a command's own are)."""
        found = self._read_run(text)
        self._found.scripts.extend((*script[:4], False) for script in found.scripts)
        return found

    def _read_run(self, text: str) -> ShellPaths:
        """What the command ``text`` (one ``xargs`` or ``env -S`` runs) names, read where the
        shell is and after what this command did before (a program it made, a link:
        :func:`shell_paths`)."""
        return shell_paths(
            text,
            self._base,
            self._environ,
            _depth=_INNER_DEPTH - 1,
            _budget=self._found.budget,
            _links=self._found.links,
            _outer=self,
        )

    def _note_moves(self, command: str | None, moving: list[str], words: list[str]) -> None:
        """Keep in ``found`` what the simple command ``command`` (its options and operands
        ``moving``, all its ``words``) takes away: ``mv``'s sources (``moved``), what a mover
        or ``cp -al`` (second names) sweeps, and what ``find … -delete`` sifts (``sifted``:
        its starts and the names it matches) or sweeps (its starts, when no name is read).
        A name ``mv`` takes away is no longer one the command leaves (``found.named``, K-7):
        ``grep -v x MEMORY.md > MEMORY.md.tmp && mv MEMORY.md.tmp MEMORY.md``."""
        read = read_options(moving, table_for(command or ""), ("-t", "--target-directory"))
        targeted = any(name in ("-t", "--target-directory") for name, _, _ in read.values)
        paths = [word for word in moving if not word.startswith("-")]
        if command in ("mv", "cp") and not targeted:
            paths = paths[:-1]  # the destination: moved into, not away
        linking = bool(read.flags & {"l", "--link"})
        if command in ("mv", "rename"):
            self._found.moved.extend(paths)
            if command == "mv":  # a temporary name moved onto its own (K-7 judges that one)
                gone = {os.path.normpath(path) for path in paths}
                named = self._found.named
                named[:] = [path for path in named if os.path.normpath(path) not in gone]
        elif command in MOVERS or (command == "cp" and linking):  # ``cp -al``: second names
            self._found.swept.extend(paths)
        elif command == "find" and _FIND_ACTIONS.intersection(moving):
            starts = _find_starts(moving)
            if (names := _find_names(words)) is not None:
                self._found.sifted.extend((start, names) for start in starts or [self._base])
            else:
                self._found.swept.extend(starts or [self._base])
        if command == "find":
            self._note_find_reach(words)

    def _note_find_reach(self, words: list[str]) -> None:
        """Keep in ``found.reached`` each start folder of a ``find`` (``words``: as the shell
        gives them) whose actions write through what it finds, with what they may act on
        (:func:`~harness_memory.hooks.find_reach.bounds`): ``-delete``, an ``-exec``/``-ok``
        whose command, read as this command reads it, surely writes a place built from
        ``{}`` (``cp x {}``, ``tee {}/a.md``, ``sh -c 'cp x "$1"' _ {}``; not ``grep -l x
        {}``, ``node --check {}``, ``sh -c 'wc -l "$1"' _ {}``: a program the guard does not
        read is judged by its text, as everywhere), an ``-execdir``/``-okdir`` whose command
        surely writes any place (it runs in each found entry's folder: ``-execdir touch a.md
        ;``).
        A start built at run time is judged as a word written at run time already; start
        folders read from a file (``-files0-from FILE``) are kept as a start ``""`` shown as
        ``FILE``."""
        # ``-delete`` removes a link itself, unless find follows it; from folders read at run
        # time (``-files0-from``) it removes what is there
        deleting = follows(words) or "-files0-from" in words
        writing = [at for at, word in enumerate(words) if word == "-delete" and deleting]
        suffixed = False
        for at, action, command in find_actions(words):
            if not (action.endswith("dir") or any("{}" in word for word in command)):
                continue  # ``-exec touch stamp \;``: its words are judged as any command's
            text = " ".join(_fed_word(word, "$" in word or "`" in word, ["{}"]) for word in command)
            found = self._read_run(text)
            sure = set(found.written[::2]) - set(found.guessed[::2])  # not a guess at ``node {}``
            given = any("{}" in word for word in command)  # ``mkdir {}/d``: not only read
            below = any("{}/" in word for word in command)  # ``{}/a.md``: below what it finds
            if found.written_at_run_time or (action.endswith("dir") and sure):
                writing.append(at)
                # ``{}/a.md``, or code given ``{}`` (``sh -c '… "$1"/a.md'``), not ``sed -i``
                suffixed = suffixed or _runs_code(command) or below
            elif given and not only_reads(command) and not _reads_only(command, found):
                writing.append(at)  # ``zip -q {}/z.zip``, ``python3 w.py {}``: through it
                suffixed = suffixed or below
        built = _find_built_at_run_time(words)
        if not writing and built is None:
            return
        files = any(words[at] != "-delete" for at in writing)  # ``cp x {}``: a hard link too
        read = bounds(words, writing, suffixed=suffixed, files=files)
        if built is not None:  # ``find . "${A[@]}"``: any action, on any folder
            read = Bounds(None, True, True, f"its words are built at run time: {built}", True)
            self._found.reached.append(Reach("", built, read))
        if "-files0-from" in words:  # its start folders read from a file at run time
            at = words.index("-files0-from") + 1
            self._found.reached.append(Reach("", words[at] if at < len(words) else "-", read))
        for start, shown in self._find_start_folders(words):
            self._found.reached.append(Reach(start, shown, read))

    def _find_start_folders(self, words: list[str]) -> list[tuple[str, str]]:
        """A ``find``'s start folders among its ``words`` (:func:`_find_starts`; none: the
        shell's folder, ``.``), each absolute and as find prints it (expanded, a loop
        variable's each value, a pattern's each match); one built at run time, or relative
        after a ``cd`` into a folder known only at run time, is left out (refused as a place
        written at run time)."""
        folders: list[tuple[str, str]] = []
        starts = _find_starts(words) or ["."]
        looped = [each for word in starts for each in _through_loops(word, self._loops) or [word]]
        braced = [each for word in looped for each in _braces(word) or [word]]  # ``{src,.}``
        for word in braced:  # ``for d in src lib; do find "$d" -type l -delete; done``
            expanded = _expand(word, self._known, self._environ)
            if expanded is None:  # ``"${X:-.}"``: any folder
                folders.append(("", word))
                continue
            if self._run_lost and not expanded.startswith(("/", "~")):
                continue
            shown = _tilde(expanded, self._environ)
            start = os.path.normpath(os.path.join(self._base, shown))  # noqa: PTH118
            if not re.search(_GLOB_CHARS, shown):
                folders.append((start, shown))
                continue
            try:
                found = _scan(start, self._found.budget)
            except _OverScan:
                self._found.over_scan = True
                found = []
            cut = 0 if PurePath(shown).is_absolute() else len(self._base.rstrip("/")) + 1
            folders.extend((match, match[cut:]) for match in found)
        return folders

    def _after_linker(self, word: str) -> None:
        """Keep in ``found.after_linker`` a place the command writes (``word``, not built at
        run time) after a program that may make links (:meth:`_link_maker`) ran in it, when
        it or the folder it lands in is not there yet: that program may have made it, or a
        folder on its way, a link to anywhere (``python3 -c 'os.symlink(…, "lnk")' && echo x >
        lnk/a.md``; ``python3 mk.py && cp x lnk``, ``… && tar -xf a.tar -C lnk``: the link
        itself named as the place written), as ``ln -s "$(cat f)" lnk`` does
        (:mod:`~harness_memory.hooks.made_links`). A place there already is taken as what it
        is (``python3 mk.py && echo x >> notes.md``); after a program whose text shows no
        link, or is not read (``npm run build && mkdir -p dist && echo ok > dist/stamp``), the
        write passes."""
        if self.linker is None or self._run_lost:
            return
        expanded = _expand(word, self._known, self._environ)
        if expanded is None:
            return
        path = os.path.join(self._base, _tilde(expanded, self._environ))  # noqa: PTH118
        folder = os.path.dirname(path.rstrip("/") or "/")  # noqa: PTH120
        if not os.path.isdir(folder) or self._gone(folder):  # noqa: PTH112
            self._found.after_linker.append((*self.linker, word, "whose folder"))
        elif not os.path.lexists(path) or self._gone(path):
            self._found.after_linker.append((*self.linker, word, "which"))

    def _note_glued_values(self, command: str | None, operands: list[tuple[str, bool]]) -> None:
        """Judge as paths the values glued into a word of a program with an option table
        (:data:`~harness_memory.hooks.option_words.TABLES`): ``tar -xvCnotes``'s ``notes``,
        ``cp -vtDIR``'s ``DIR``; a value in a word of its own is judged as every word is."""
        if command not in TABLES:
            return
        words = [word for word, _ in operands]
        for _, at, value in read_options(words, TABLES[command]).values:
            if value and at < len(words) and words[at] != value and not operands[at][1]:
                _add(
                    self._found,
                    value,
                    [self._base],
                    self._known,
                    self._environ,
                    lost=self._run_lost,
                )

    def _note_option_programs(self, command: str | None, words: list[str]) -> None:
        """Keep each program an option of ``command`` runs (:data:`~harness_memory.hooks.
        unread_programs.PROGRAM_OPTIONS`), read from its ``words`` as the program reads them
        (``tar cIf PROG OUT``, tar's old style; ``-cI PROG``, ``--use-compress-program=PROG``):
        a program the guard does not read, and, run after a ``cd`` into a folder read from
        data, one whose relative writes land there (``ShellPaths.lost_programs``)."""
        options = PROGRAM_OPTIONS.get(command or "", ())
        if not options or command not in TABLES:
            return
        for _, value in option_values(words, TABLES[command], options):
            self._found.programs.append(f"{command} {value}")
            if self._run_data:
                self._found.lost_programs.append(value)

    def _note_patched_folder(self, command: str | None, operands: list[tuple[str, bool]]) -> None:
        """A ``patch`` naming no file to patch takes its names from the diff, which it reads
        when it runs: any name below its folder (``-d DIR``, else the shell's; GNU patch
        refuses absolute and ``..`` names). That folder is kept as the literal start of a
        place known only at run time (``ShellPaths.undecided``): refused inside the memory
        root, as any such place is (P-3, K-7), and passing in a Workspace."""
        if command != "patch" or read_options([w for w, _ in operands], TABLES["patch"]).operands:
            return
        folders = _option_values(command, operands, ("-d", "--directory"))
        for folder, built in folders or [(self._base, False)]:
            expanded = None if built else _expand(folder, self._known, self._environ)
            if expanded is None:
                self._found.written_at_run_time.append(folder)
                continue
            place = os.path.join(self._base, _tilde(expanded, self._environ))  # noqa: PTH118
            self._found.undecided.append(place.rstrip("/") + "/")

    def _is_there(self, name: str, named_before: int) -> bool:
        """Whether the file ``name`` (literal, from the shell's folder) may be there when the
        command reaches it: on the disk now, or named by a write before (the first
        ``named_before`` of ``found.named``), so a writer keeping backups keeps one of it."""
        path = _tilde(name, self._environ)
        path = os.path.normpath(path if path.startswith("/") else f"{self._base}/{path}")
        named = (os.path.normpath(each) for each in self._found.named[:named_before])
        return "$" in name or "`" in name or os.path.lexists(path) or path in named

    def _given(self, words: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
        """Each of ``words`` (a written file's word, with whether it is built at run time)
        as bash gives it to the writer: a ``for`` loop's variable once per value it takes
        (``for f in src/*.py``), known variables expanded (``f=src/a.py; … "$f"``,
        ``"$PWD/a"``); ``(word, True)`` for one built at run time or not expanded here."""
        given: list[tuple[str, bool]] = []
        for word, built in words:
            if built:
                given.append((word, True))
                continue
            for each in _through_loops(word, self._loops) or [word]:
                expanded = _expand(each, self._known, self._environ)
                given.append((word, True) if expanded is None else (expanded, False))
        return given

    def _backup_settings(self) -> tuple[str, str]:
        """The backup suffix and kind the coreutils writers read from the environment, as
        the command set them (``SIMPLE_BACKUP_SUFFIX``, ``VERSION_CONTROL``), or ""."""
        names = ("SIMPLE_BACKUP_SUFFIX", "VERSION_CONTROL")
        suffix, control = (
            self._assigned.get(name)
            or self._prefixed.get(name)
            or self._exported.get(name)
            or self._known.get(name)
            or self._environ.get(name)
            or ""
            for name in names
        )
        return suffix, control

    def _note_backups(
        self,
        command: str,
        operands: list[tuple[str, bool]],
        written: list[tuple[str, bool]],
        named_before: int,
    ) -> None:
        """Judge each backup the command keeps of a file it replaces as a written path and a
        name it leaves (K-7: ``a.md~`` in a scope is a file the service cannot address), one
        built at run time as such a place: ``sed -i.bak``/``perl -i.bak`` of each file it
        edits (:func:`~harness_memory.hooks.in_place.backup_suffix`), ``cp -b``'s (``mv``,
        ``ln``, ``install``: :func:`_backup_suffix`) of its destination, or of each name a
        source takes in a destination folder, when that file may be there (:meth:`_is_there`,
        among the first ``named_before`` names the command writes: a new file has no backup)."""
        if command in IN_PLACE_EDITORS and (edited := backup_suffix(command, operands)):
            suffix, by = edited
            backups = [
                (backup_name(file, suffix), built or by) for file, built in self._given(written)
            ]
        elif written and (kept := _backup_suffix(command, operands, self._backup_settings())):
            suffix, by = kept
            folder, sources = _copied_into(command, operands)
            place = _tilde(_expand(folder, self._known, self._environ) or folder, self._environ)
            if place.endswith("/") or _may_be_folder(Path(self._base) / place):
                replaced = [(f"{place.rstrip('/')}/{PurePath(src).name}", built)
                            for src, built in self._given(sources)]  # fmt: skip
            else:
                replaced = self._given(written[-1:])
            backups = [
                (name + suffix, built or by)
                for name, built in replaced
                if built or self._is_there(name, named_before)
            ]
        else:
            return
        for name, built in backups:
            self._note_backup(name, built)

    def _note_kept_backups(
        self,
        command: str,
        operands: list[tuple[str, bool]],
        written: list[tuple[str, bool]],
        named_before: int,
    ) -> None:
        """Judge the backups :meth:`_note_backups` does not name, as it judges those: of each
        file a recursive ``cp -b`` replaces in a destination folder (the files of its source
        tree, read on the disk: ``cp -rb d/. DIR``), an ``rsync -b``'s (:func:`_rsync_backups`)
        and a ``patch -b``'s (:func:`_patch_backups`), each kept when the replaced file may be
        there (:meth:`_is_there`; ``patch -b`` keeps one, empty, of a new file too). A tree
        that cannot be read (not there yet, past the scan budget) may replace any name: its
        backups are taken as places built at run time (K-7)."""
        kept: list[tuple[str | None, str, bool]] = []
        if command == "cp" and CP_TREE & cp_flags([word for word, _ in operands]):
            suffix = _backup_suffix(command, operands, self._backup_settings())
            if suffix is not None:
                folder, sources = _copied_into(command, operands)
                landed = self._landed(folder, [(source, "into") for source, _ in sources])
                kept = [(name, name + suffix[0], built or suffix[1]) for name, built in landed]
        elif command == "rsync" and written and _rsync_keeps(words := [w for w, _ in operands]):
            read = synced(command, words)
            kept = _rsync_backups(words, self._landed(read.destination or "", read.copies))
        elif command == "patch":
            kept = _patch_backups(operands, self._backup_settings())
        for replaced, backup, built in kept:
            if built or replaced is None or self._is_there(replaced, named_before):
                self._note_backup(backup, built)

    def _landed(self, folder: str, copies: list[tuple[str, str]]) -> list[tuple[str, bool]]:
        """The files a copy of ``copies`` (each source as written, with how it lands: as
        :attr:`~harness_memory.hooks.synced_trees.Synced.copies` reads them) into ``folder``
        makes or replaces, each with whether it is known only at run time: ``folder`` itself
        when it is no folder, else each source's files below it by their path in the source
        (a folder's tree read on the disk, counted against the scan budget; one that cannot be
        read: ``folder/…``, built at run time)."""
        place = _tilde(folder, self._environ)
        if "$" in place or "`" in place:
            return [(folder, True)]
        if not (place.endswith("/") or _may_be_folder(Path(self._base) / place)):
            return [(folder, False)]
        landed: list[tuple[str, bool]] = []
        for source, how in copies:
            spelt = _tilde(source, self._environ)
            last = spelt.rstrip("/").rsplit("/", 1)[-1]
            into = "" if how == "fills" or last in (".", "") else last
            if how == "path":
                into = spelt.strip("/")
            below = f"{place.rstrip('/')}/{into}".rstrip("/")
            files = None if "$" in spelt or "`" in spelt else self._tree_files(spelt)
            if files is None:
                landed.append((f"{below}/…", True))
            else:
                landed.extend((f"{below}/{name}".rstrip("/"), False) for name in files)
        return landed

    def _tree_files(self, source: str) -> list[str] | None:
        """The files below ``source`` (from the shell's folder) by their path in it (``[""]``
        for a file), each entry counted against the scan budget; None when it cannot be read
        or the budget runs out."""
        path = Path(self._base) / source
        if path.is_file():
            return [""]
        if not path.is_dir():
            return None
        files: list[str] = []
        folders = [""]  # a stack, not os.walk: it recurses (Python 3.11), and a tree may be deep
        while folders:
            folder = folders.pop()
            try:
                entries = list(os.scandir(path / folder))
            except OSError:
                return None
            self._found.budget.left -= len(entries)
            if self._found.budget.left < 0:
                return None
            for entry in entries:
                named = f"{folder}/{entry.name}".lstrip("/")
                is_folder = entry.is_dir(follow_symlinks=False)
                (folders if is_folder else files).append(named)
        return files

    def _note_backup(self, name: str, built: bool) -> None:
        """Judge the backup ``name`` a writer keeps as a written path and a name the command
        leaves (K-7), or as a place built at run time when ``built``."""
        if built or "$" in name or "`" in name:
            self._found.written_at_run_time.append(name)
            return
        path = _tilde(name, self._environ)
        path = path if path.startswith("/") else f"{self._base}/{path}"
        self._found.paths.append(path)
        self._found.paths.extend(followed(path, self._found.links)[0])
        self._found.written.extend([name, path])
        self._note_named(name)

    def _note_sed_files(self, operands: list[tuple[str, bool]], said: list[str]) -> None:
        """Judge the files a ``sed``'s scripts write (``w FILE``, ``s///w FILE``:
        :func:`~harness_memory.hooks.in_place.sed_written_files`, its scripts read as written
        and expanded: ``said`` holds the pairs) as written paths: a literal name where the
        kernel opens it (from the shell's folder), one built at run time (or relative after a
        ``cd`` into a folder known only then) refused as such."""
        spelled = dict(zip(said[::2], said[1::2], strict=False))
        expanded = [(spelled.get(word) or word, built) for word, built in operands]
        assigned = self._known.keys()
        names = dict.fromkeys(
            [*sed_written_files(operands, assigned), *sed_written_files(expanded, assigned)]
        )
        for name, built in names:
            relative = not PurePath(name).is_absolute()
            if built or (relative and self._run_lost):
                self._found.written_at_run_time.append(name)
            elif name not in ("/dev/stdout", "/dev/stderr"):  # sed's own output
                path = f"{self._base}/{name}" if relative else name
                self._found.paths.append(path)
                self._found.paths.extend(followed(path, self._found.links)[0])
                self._found.written.extend([name, path])

    def _note_linked(self, program: str, said: list[str]) -> None:
        """Keep ``program`` (one the guard does not read) when a piece of its words ``said``
        (as written and expanded) names a path through a link made earlier in the command
        to a place read from data (``ln -s "$(cat f)" l``; not from a program printing
        folders: ``ln -s "$(brew --prefix)/bin" b``)."""
        if not self._found.links:
            return
        for word in said[1::2]:
            for piece in re.split(_WORD_SPLIT_RE, word):
                path = _tilde(piece, self._environ) if piece else ""
                if not path or "$" in path:
                    continue
                anchored = path if PurePath(path).is_absolute() else f"{self._base}/{path}"
                link = unknown_link(anchored, self._found.links)
                if link is not None and not _named_folder(link.spelt, self._known, unsure=True):
                    self._found.linked_programs.append((program, piece))
                    return

    def _note_git_mv(self, words: list[str]) -> None:
        """Read ``git mv`` (``words``: git's words after its name, expanded) as ``mv``: it
        renames on the disk as ``mv`` does, a symbolic link or a folder holding one among
        them (its options ``-f``, ``-k``, ``-n``, ``-v``, ``--`` read as ``mv``'s flags; git's
        own options before ``mv`` are not read: the words after it are taken from the
        shell's folder)."""
        moving = words[words.index("mv") + 1 :]
        self._note_links("mv", [(word, False) for word in moving])
        anchored = [word if word.startswith("-") else f"{self._base}/{word}" for word in moving]
        self._note_moves("mv", anchored, moving)

    def _alternatives(self, word: str, built: bool) -> list[list[tuple[str, str | None]]]:
        """What an operand ``word`` of ``ln``/``cp``/``mv`` may become, each a list of words
        (as written, and expanded: None when built at run time): itself expanded (``~``,
        known variables); a ``for`` loop's variable once per value it takes (``for f in
        *.md; do mv "$f" d/``); a pattern, its matches as bash sorts them, and itself (its
        characters may have been quoted: then bash takes it literally)."""
        expanded = None if built else _expand(word, self._known, self._environ)
        values = [expanded] if expanded is not None or built else None
        looped = _through_loops(word, self._loops) or [word]
        values = values or [_expand(each, self._known, self._environ) for each in looped]
        spelt = [None if each is None else _tilde(each, self._environ) for each in values]
        found: list[list[tuple[str, str | None]]] = []
        for each in spelt:
            if each is not None and re.search(_GLOB_CHARS, each):
                pattern = each if each.startswith("/") else f"{self._base}/{each}"
                try:
                    matches = sorted(_scan(pattern, self._found.budget))
                except _OverScan:
                    self._found.over_scan = True
                    matches = []
                if matches:
                    found.append([(match, match) for match in matches])
            found.append([(word, each)])
        return found

    def _note_links(self, command: str, operands: list[tuple[str, bool]]) -> None:
        """Keep the links ``ln``, ``cp`` or ``mv`` with ``operands`` makes (``found.links``),
        each operand read as each of the words it may become (:meth:`_alternatives`)."""
        runs: list[list[tuple[str, str | None]]] = [[]]
        for word, built in operands:
            alternatives = self._alternatives(word, built)
            runs = [[*run, *each] for run in runs for each in alternatives][:_BRACE_CAP]
        for words in runs:
            made = made_links(
                command, words, self._base, self._found.links, replaced=self._replaced
            )
            add_links(self._found.links, made)
            # a link made into memory is a write there: judged where it leads (``mv sub/rel
            # d`` with ``rel -> ../notes``, ``ln -s ../notes sub/l``: from the link's folder)
            self._found.paths.extend(dict.fromkeys(m.place for m in made.values() if m.place))

    def _gone(self, place: str) -> bool:
        """Whether the absolute ``place`` may have been removed or moved away by a command
        before (``rm -rf d``, ``mv d e``, ``find d -delete``, one of a place built at run
        time): whatever stands there now may be something else when the next word runs."""
        if self._found.replaced_unknown:
            return True
        place = os.path.normpath(place)
        for start, names in self._found.sifted:  # ``find sub -name d -exec rm -rf {} +``
            start = os.path.normpath(start)
            if place == start or place.startswith(start.rstrip("/") + "/"):
                parts = [os.path.basename(start), *place[len(start) :].split("/")]  # noqa: PTH119
                if any(part and _find_matches(part, names) for part in parts):
                    return True
        for each in (*self._found.swept, *self._found.moved):
            # ``rm -rf sub/*``, ``rm -rf sub/{d,e}``: any name below ``sub``
            pattern = re.search(_PATTERN_CHARS, each)
            gone = os.path.normpath(
                each[: pattern.start()].rpartition("/")[0] or "/" if pattern else each
            )
            if place == gone or place.startswith(gone.rstrip("/") + "/"):
                return True
        return False

    def _replaced(self, place: str) -> bool:
        """Whether the absolute ``place`` may be other than it is on the disk by now: gone
        (:meth:`_gone`), or a program the guard does not read, an unpacking command or one
        that may make links ran before (``python3 -c 'shutil.rmtree("d")'``, ``tar -xf``)."""
        found = self._found
        return bool(found.programs or found.unpacked or self.linker) or self._gone(place)

    def _note_unpack(
        self, command: str | None, operands: list[tuple[str, bool]], config_words: list[str]
    ) -> str | None:
        """Note an unpacking command's archive and the folders it fills (tar, unzip, or one the
        guard cannot list); returns the unpacker's name (``bsdtar`` read as ``tar``)."""
        unpacker = UNPACKED_AS.get(command or "", command)
        if (unpacker == "tar" and _extracts(operands)) or unpacker == "unzip":
            folders = _unpacked_into(unpacker, operands, self._base, self._environ)
            archive = archive_operand(unpacker, config_words)
            if archive is not None and archive != "-" and "$" not in archive:
                archive = os.path.join(self._base, _tilde(archive, self._environ))  # noqa: PTH118
            self._found.unpacked.append((unpacker, archive, folders, config_words))
            self._found.unbounded.extend(_unbounded(unpacker, operands))
        elif unpacker in _UNLISTED and (unpacked := unlisted_unpack(unpacker, config_words)):
            archive, named = unpacked
            if archive is not None and "$" not in archive:
                archive = os.path.join(self._base, _tilde(archive, self._environ))  # noqa: PTH118
            folders = [folder for folder in named if "$" not in folder and "`" not in folder]
            self._found.written_at_run_time.extend(f for f in named if f and f not in folders)
            folders = [os.path.join(self._base, _tilde(f, self._environ)) for f in folders]  # noqa: PTH118
            folders = folders if named else [self._base]
            self._found.unpacked.append((unpacker, archive, folders, config_words))
        return unpacker

    def _note_written(
        self,
        command: str | None,
        written: list[tuple[str, bool]],
        operands: list[tuple[str, bool]],
        said: list[str],
    ) -> None:
        """Keep in ``found.written`` the places the command ended writes: ``written`` (as
        written and expanded: ``said`` holds the pairs), and for a copy into a folder
        (``cp x ~/``, ``-t DIR``, ``pax -rw x DIR``) the name each source takes there
        (:func:`_copied_into`)."""
        spelled = dict(zip(said[::2], said[1::2], strict=False))
        naming = command not in _REMOVERS
        for word, built in written:
            self._found.written.extend([word, spelled.get(word, "")])
            if command in MODE_CHANGERS or command == "touch" or not naming:
                self._found.textless.extend([word, spelled.get(word, "")])
            if not built:
                self._after_linker(word)
                if naming and not word.startswith("-"):
                    self._note_named(word)
        if (command not in DESTINATION_WRITERS and command != "pax") or not written:
            return
        folder, sources = _copied_into(command or "", operands)
        place = _tilde(spelled.get(folder, "") or folder, self._environ)
        if not (place.endswith("/") or _may_be_folder(Path(self._base) / place)):
            return
        for source, whole in sources:
            name = (spelled.get(source, "") or source).rstrip("/")
            name = name.lstrip("/") if whole else name.rsplit("/", 1)[-1]
            self._found.written.append(f"{place.rstrip('/')}/{name}")
            if "$" not in name and "`" not in name:
                self._note_named(f"{place.rstrip('/')}/{name}")


_KEEPING_NONE = frozenset({"none", "off"})
_NUMBERED = frozenset({"numbered", "t"})


def _backup_suffix(
    command: str, operands: list[tuple[str, bool]], settings: tuple[str, str]
) -> tuple[str, bool] | None:
    """The suffix a :data:`DESTINATION_WRITERS` command (``cp``, ``mv``, ``ln``, ``install``;
    its options read by its own table) gives the backup of a file it replaces, with whether
    it is built at run time; None when it keeps none. It keeps one with ``-b``,
    ``--backup[=KIND]`` or ``-S SUFFIX`` (which implies it; coreutils 9): ``.~1~`` when
    numbered (``--backup=t``, else ``settings``' ``VERSION_CONTROL``), else ``-S``'s suffix,
    ``settings``' ``SIMPLE_BACKUP_SUFFIX`` or ``~``."""
    if command not in DESTINATION_WRITERS or command == "rsync":
        return None
    read = read_options([word for word, _ in operands], table_for(command))
    values = {
        name: (value, operands[at][1]) for name, at, value in read.values if at < len(operands)
    }
    keeps = read.flags & {"b", "--backup"} or values.keys() & {"--backup", "-S", "--suffix"}
    kind = values.get("--backup", (settings[1], False))[0]
    if not keeps or kind in _KEEPING_NONE:
        return None
    if kind in _NUMBERED:
        return (".~1~", False)
    suffix, built = values.get("-S") or values.get("--suffix") or (settings[0], False)
    return (suffix, True) if built else (_simple_suffix(suffix), False)


def _simple_suffix(suffix: str) -> str:
    """The simple backup suffix coreutils and GNU patch use for ``suffix``: ``~`` for an
    empty one or one holding ``/`` (``cp -b -S ''`` keeps ``a.md~``)."""
    return suffix if suffix and "/" not in suffix else "~"


def _rsync_keeps(words: list[str]) -> bool:
    """Whether an ``rsync`` with ``words`` keeps backups: ``-b``, ``--backup`` or
    ``--backup-dir`` (which implies it, rsync 3.2)."""
    options, valued = rsync_options(words)
    return bool(set(options) & {"-b", "--backup"} or "--backup-dir" in valued)


def _rsync_backups(
    words: list[str], replaced: list[tuple[str, bool]]
) -> list[tuple[str | None, str, bool]]:
    """The backups an ``rsync`` with ``words`` keeps of the files it ``replaced`` (each with
    whether known only at run time), each as (the file, its backup, whether known only at
    run time): none without ``-b``/``--backup``/``--backup-dir``; beside the file with
    ``--suffix`` (``~`` by default), or below ``--backup-dir`` (read from the file's folder
    when relative) by the file's name with ``--suffix`` (none by default)."""
    if not _rsync_keeps(words):
        return []
    valued = rsync_options(words)[1]
    folders = valued.get("--backup-dir", [])
    suffix = (valued.get("--suffix") or ["" if folders else "~"])[-1]
    kept: list[tuple[str | None, str, bool]] = []
    for name, built in replaced:
        backup = name + suffix
        if folders:
            parent, _, last = name.rpartition("/")
            folder = folders[-1] if folders[-1].startswith("/") else f"{parent}/{folders[-1]}"
            backup = f"{folder.rstrip('/')}/{last}{suffix}"
        by = built or any("$" in each or "`" in each for each in [*folders[-1:], suffix])
        kept.append((name, backup, by))
    return kept


def _patch_backups(
    operands: list[tuple[str, bool]], settings: tuple[str, str]
) -> list[tuple[str | None, str, bool]]:
    """The backup a ``patch`` (its ``operands``, read by its own table) keeps of the file it
    names (its first operand), as (the file, its backup, whether known only at run time): with
    ``-b``/``--backup`` or a backup name option, or when a hunk does not match (GNU patch's
    default, off with ``--no-backup-if-mismatch`` or ``--posix``); ``-B``/``--prefix`` put
    before its path, ``-Y``/``--basename-prefix`` before its last name, ``-z``/``--suffix``
    after it (else ``settings``' ``SIMPLE_BACKUP_SUFFIX``, else ``.orig``). The rejected hunks
    go to ``FILE.rej`` unless ``-r``/``--reject-file`` names their place (a written place of
    its own: :data:`OPTION_DESTINATIONS`)."""
    words = [word for word, _ in operands]
    read = read_options(words, TABLES["patch"])
    if not read.operands:
        return []
    names = {"-B": "--prefix", "-Y": "--basename-prefix", "-z": "--suffix", "-r": "--reject-file"}
    values = {names.get(name, name): (value, operands[at][1] if at < len(operands) else False)
              for name, at, value in read.values}  # fmt: skip
    named = values.keys() & {"--prefix", "--basename-prefix", "--suffix"}
    file, built = operands[read.operands[0]]
    rejected: list[tuple[str | None, str, bool]] = (
        [] if "--reject-file" in values else [(None, f"{file}.rej", built)]
    )
    if read.flags & {"--no-backup-if-mismatch", "--posix"} and not (
        read.flags & {"b", "--backup"} or named
    ):
        return rejected
    prefix, by_prefix = values.get("--prefix", ("", False))
    base, by_base = values.get("--basename-prefix", ("", False))
    default = "" if named - {"--suffix"} else _simple_suffix(settings[0] or ".orig")
    suffix, by_suffix = values.get("--suffix", (default, False))
    parent, _, last = file.rpartition("/")
    backup = f"{prefix}{parent}{'/' if parent else ''}{base}{last}{suffix}"
    return [(None, backup, built or by_prefix or by_base or by_suffix), *rejected]


def _copied_into(
    command: str, operands: list[tuple[str, bool]]
) -> tuple[str, list[tuple[str, bool]]]:
    """The folder a :data:`DESTINATION_WRITERS` command or ``pax -rw`` with ``operands`` may
    copy into (its last operand, or ``-t DIR``), and its sources, each with whether it lands
    there by its whole path (``pax``, ``rsync -R``) rather than by its last name, K-7's names.
    Read as the program reads its words (:func:`~harness_memory.hooks.option_words.read_options`,
    :func:`~harness_memory.hooks.synced_trees.synced`): an option's value (``install -m 644``,
    ``cp -S .bak``, ``rsync --chmod F644``) and the ``-t`` folder are no source; a source
    whose contents ``rsync`` copies (``d/``) lands by names read where it is judged."""
    words = [word for word, _ in operands]
    if command in SYNCERS:
        read = synced(command, words)
        kept = [(source, how == "path") for source, how in read.copies if how != "fills"]
        return read.destination or "", kept
    options = read_options(words, table_for(command), ("-t", "--target-directory"))
    files = [words[at] for at in options.operands]
    target = [v for name, _, v in options.values if name in ("-t", "--target-directory")]
    if target:
        return target[-1], [(file, False) for file in files]
    return (files[-1] if files else ""), [(file, False) for file in files[:-1]]


_DD_OPERAND_RE = r"^[a-z]+="
"""A ``dd`` operand whose key is literal (``if=x``, ``bs=1M``): one built whole at run time
may be ``of=PLACE``."""
_POSITIONAL_RE = r"^\$\{?[@*1-9]"
"""A command's name made of the positional parameters (``"$@"``, ``"${@}"``, ``$*``, ``$1``,
``${@:2}``): it runs the words ``set --`` gave them."""


_GIVEN_OPTION_RE = r"-[A-Za-z0-9]|--[A-Za-z0-9][A-Za-z0-9-]*"
"""A word given to fetched code that is an option and no value (``-y``, ``--no-modify-path``);
a longer bundle (``-pnotes``) may be an option with its value glued."""
_GIVEN_VALUE_RE = r"(?:--[A-Za-z0-9][A-Za-z0-9-]*=)?(?P<value>[A-Za-z0-9_.@%/${}+][\w.@%/${}+-]*)"
"""A word given to fetched code that is a value, alone or after a long option's ``=``
(``stable``, ``1.2``, ``--prefix=$HOME/.local``): no pattern, quote, ``~``, backquote, nor a
``,`` or ``:`` (a list the code may split: ``x:notes``)."""


def _code_given_unread(
    command: str | None, words: list[str], *, fed: bool
) -> list[tuple[str, bool]]:
    """The words a shell or ``source`` run with ``words`` (as written) gives code the guard
    cannot read with them (``bash -s … <<< '"$@"'``, ``bash /dev/stdin …``, ``source
    /dev/stdin …``, ``-c "$c"``, a ``-c`` code with quoting or escapes the lexer keeps):
    ``$@``, words known only at run time run as a command (none when none are given). Code
    from standard input ``fed`` a file the guard names (``bash -s -- a < install.sh``,
    :func:`_literal_feed`) is that script's, judged as ``bash install.sh a`` is."""
    if command in _SOURCING:
        code, given, stdin = None, words[1:], bool(words) and words[0] in STDIN_SCRIPTS
    elif command in SHELLS or command in STARTUP_SHELLS:
        code, _, stdin, given = shell_run(words)
    else:
        return []
    unread = (stdin and not fed) or (
        code is not None and re.search(_UNREAD_CODE_RE, words[code]) is not None
    )
    return [("$@", True)] if unread and given else []


def _script_arguments(
    command: str | None, words: list[str], said: list[str], *, kind: str
) -> list[str] | None:
    """The words (as written) a script run as ``kind`` is given as its positional
    parameters: ``source``'s (``words``: its own) after its operand, a shell's (``words``:
    its options and operands) after its script operand, a program's run by its path
    (``said``) all of them; None when they cannot be told."""
    if kind == "source" and command in _SOURCING:
        return [w for w in words if w != "--"][1:] if words else None
    if kind == "shell" and (command in SHELLS or command in STARTUP_SHELLS):
        run = shell_run(words)
        return run.given if run.script is not None else None
    return said if kind == "run" else None


def _literal_feed(feed: list[str] | None) -> list[str] | None:
    """The files fed to a command's standard input (``< mk.sh``'s word, the files a ``cat``
    before its pipe prints), when each is spelled without anything bash expands at run time
    or as a pattern; else None (no feed, or one read as code the guard cannot name)."""
    if not feed or any(re.search(_RUN_TIME_FEED_RE, word) for word in feed):
        return None
    return feed


_POSITIONAL_USE_RE = r"\$\{?[@*1-9]|\$\{?#|\bshift\b|\bgetopts\b"
"""A script's use of its positional parameters (``"$@"``, ``$*``, ``$1``, ``${2}``, ``$#``,
``shift``, ``getopts``): words given to it may be run or read as options."""
_POSITIONAL_RUN_RE = (
    r"(?m)(?:^|[;&|({]|\b(?:then|do|else|exec|command|builtin|eval|time|nohup|env|xargs))"
    r"[ \t]*\"?\$\{?[@*0-9]"
)
"""A script's positional parameters run as a command (``"$@"``, ``exec "$@"``, ``$1 …`` at
a command's start): words given to it are a command it runs."""
_TEXT_RUN_RE = (
    r"\b(?:eval|source|trap)\b|(?:^|[\s;&|(])\.[ \t]"
    r"|\b(?:ba|da|z|k|fi)?sh[ \t]+(?:-[A-Za-z]+[ \t]+)*-[A-Za-z]*c"
    r"|\b(?:python[0-9.]*|node|perl|ruby|php|deno|bun)\b[^\n]*[ \t]-[A-Za-z]*[ce]\b"
)
"""What in a script may run a word it is given as code the guard reads nowhere (``eval
"$1"``, ``source "$1"``, ``. "$1"``, ``bash -c "$1"``, ``python3 -c "$1"``): given a word
built at run time, its words stay unknown (:meth:`_Writes._read_given`)."""
_RUN_TIME_FEED_RE = r"[$`*?\[]"
"""What makes a fed file's word known only at run time (an expansion or a pattern)."""


def _reads_code_from_stdin(
    command: str | None, words: list[str], script: tuple[str, str] | None
) -> bool:
    """Whether ``command`` with ``words`` (a shell's or ``source``'s, as written) reads its
    code from standard input: a shell given no ``-c`` code and no script other than a name of
    its standard input (``bash``, ``sh -s a``, ``bash /dev/stdin``, ``source /dev/stdin``;
    ``script`` is :func:`_script_word`'s answer)."""
    if command in _SOURCING or command in SCRIPT_SHELLS:
        if script is not None:
            return _as_kernel_names(script[1]) in STDIN_SCRIPTS
        return command not in _SOURCING and shell_run(words).code is None
    return False


def _positional_set(operands: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The words ``set`` (its ``operands``, each with whether it is built at run time) makes
    the positional parameters: those after ``--``, or from its first word that is no option,
    each ``o`` of a bundle taking the next word as an option's name, as bash reads it (``set
    -e -o pipefail`` and ``set -euo pipefail`` set none; ``set -- cp x y`` and ``set cp x y``
    set three)."""
    at = 0
    while at < len(operands):
        word = operands[at][0]
        if word == "--":
            return operands[at + 1 :]
        if not word.startswith(("-", "+")):
            return operands[at:]
        at += 1 + word.count("o")
    return []


_UNREAD_CODE_RE = r"\\|^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$|^\$\(|^`"
"""A shell's ``-c`` code the guard cannot read as it runs: a backslash the lexer kept (``-c
"\\"\\$@\\""``), a variable's value (``-c "$c"``), a command substitution's output."""
_FED = '"$(:)"'
"""What a name ``xargs`` reads at run time is read as in the command it runs: a word built then."""


_FED_CHANGERS = _REMOVERS | IN_PLACE_EDITORS | {"chmod", "chown", "chgrp"}
"""Writers that take away or change only the files the names ``xargs`` appends already reach
(``find … | xargs -0 rm -f``, ``xargs sed -i``, ``xargs chmod +x``: fenced by the harness's
sandbox, as the harness README says), as a copy's sources into its ``-t DIR`` are."""
_FED_BESIDE_RE = r"^\$\(:\)[^/$`]*$"
"""A place an appended name reaches: the name itself, or a backup beside it (``sed -i.bak``)."""


def _replace_strings(words: list[str], read: ReadOptions) -> list[str]:
    """The strings an ``xargs`` (its option ``words``, ``read`` by its own table) puts each name
    it reads in for: ``-I R``, ``--replace[=R]``, ``-i[R]`` (``{}`` when none is given)."""
    strings = [value or "{}" for name, _, value in read.values if name in ("-I", "--replace")]
    if "--replace" in read.flags:
        strings.append("{}")
    if "i" in read.flags:  # ``-i`` takes its value glued only: ``-iX``, ``-0iX``
        glued = [word.split("i", 1)[1] for word in words if re.match(r"^-[^-]*i", word)]
        strings.extend(each or "{}" for each in glued)
    return strings


def _fed_word(word: str, built: bool, replacing: list[str]) -> str:
    """``word`` of the command ``xargs`` runs, quoted again as shell text, each of ``replacing``
    in it read as a word built at run time (:data:`_FED`); a ``word`` built already stays so."""
    pieces = [word]
    for each in replacing:
        pieces = [part for piece in pieces for part in piece.split(each)]
    if built:
        return '"' + "$(:)".join(pieces) + '"'
    import shlex  # only here: its import compiles a pattern every shell guard paid for (H-5)

    return _FED.join(shlex.quote(piece) if piece else "" for piece in pieces) or "''"


def _fed_places(
    operands: list[tuple[str, bool]], read_run: Callable[[str], ShellPaths]
) -> list[str]:
    """The places an ``xargs`` (its ``operands``, read by its own option table) makes the
    command it runs write from the names it reads at run time (standard input, ``-a FILE``),
    each shown as ``xargs COMMAND …``: the command is read as shell text by ``read_run``
    (:func:`shell_paths` where ``xargs`` runs, after what the command did before), each
    replace string (``-I{}``), else one name appended, read as a word built at run time
    (:data:`_FED`); every place it writes so built is fed (K-7), but the appended name
    itself (or a backup beside it) when a :data:`_FED_CHANGERS` writer changes it or a copy
    takes it into its ``-t DIR``."""
    words = [word for word, _ in operands]
    read = read_options(words, TABLES["xargs"])
    if not read.operands:
        return []
    start = read.operands[0]
    replacing = _replace_strings(words[:start], read)
    text = " ".join(_fed_word(word, built, replacing) for word, built in operands[start:])
    found = read_run(text if replacing else f"{text} {_FED}")
    at = _past_wrappers(words, start)
    writer = words[at].rsplit("/", 1)[-1] if at < len(words) else ""
    targeted = _option_values(writer, operands[at + 1 :], ("-t", "--target-directory"))
    reached = writer in _FED_CHANGERS or (writer in DESTINATION_WRITERS and bool(targeted))
    places = [
        place
        for place in found.written_at_run_time
        if not (reached and not replacing and re.match(_FED_BESIDE_RE, place))
    ]
    if places or found.fed:
        return [f"xargs {' '.join(words[start:])} …"]
    return []


def _operand_places(
    command: str | None, unpacker: str | None, operands: list[tuple[str, bool]]
) -> list[tuple[str, bool]]:
    """The operands (each with whether it is built at run time) the command ``command`` (read
    as ``unpacker`` when it unpacks) writes by its own table: a :data:`WRITERS` operand, the
    files ``sed -i``/``perl -i`` edit, a :data:`DESTINATION_WRITERS` destination (and ``-t``
    folder), an unpacker's folder option, ``pax -rw``'s destination folder, a
    :data:`SECOND_OPERAND_WRITERS` second operand."""
    written: list[tuple[str, bool]] = []
    in_place = (
        any(
            _abbreviates(word.partition("=")[0], "--in-place")  # --in-pl=.bak too
            or (word[1:2] not in ("", "-") and "i" in word[1:])
            for word, _ in operands
            if word.startswith("-")
        )
        or code_edits_in_place(command or "", operands)
    )  # ``perl -p -e 'BEGIN{$^I=…}'``
    if command in WRITERS:
        written = [(word, built) for word, built in operands if not word.startswith("-")]
    elif command in IN_PLACE_EDITORS and in_place:  # ``sed -i 's/ *$//' f``: f alone
        written = edited_files(command, operands)
    elif command in DESTINATION_WRITERS:
        files = [(word, built) for word, built in operands if not word.startswith("-")]
        written = files[-1:]
        # rsync's ``-t`` keeps times: only cp, mv, ln and install take a target folder
        if command != "rsync":
            written.extend(_option_values(command, operands, ("-t", "--target-directory")))
    if unpacker in OPTION_DESTINATIONS and (unpacker != "tar" or _extracts(operands)):
        written = _option_values(unpacker, operands, OPTION_DESTINATIONS[unpacker or ""])
    elif command == "pax":  # ``pax -rw FILE… DIR``: its destination folder
        copied = synced("pax", [word for word, _ in operands])
        # names rewritten by ``-s`` (``,^,../notes/,``) or read from its input land anywhere
        unknown = copied.unknown is not None
        written = [
            (word, built or unknown) for word, built in operands if word == copied.destination
        ][-1:]
    if command in SECOND_OPERAND_WRITERS:
        written = _plain_operands(operands, SECOND_OPERAND_WRITERS[command])[1:2]
    if command == "git":  # its literal words are judged as paths already
        written = [(word, built) for word, built in _git_folders(operands) if built]
    return written


def _runs_code(command: list[str]) -> bool:
    """Whether a ``find`` action's ``command`` (its words) runs code that may build any place
    from the names it is given (``sh -c 'cp x "$1"/a.md' _ {}``, ``python3 mk.py {}``, a
    script by its relative path, a program named at run time): a word naming a shell or an
    interpreter (:func:`~harness_memory.hooks.link_texts.reads_text`, after ``env`` too)."""
    program = command[0] if command else ""
    if re.search(r"[$`]", program) or (program.count("/") and not program.startswith("/")):
        return True
    return any(reads_text(os.path.basename(word)) for word in command)  # noqa: PTH119


def _found_places(
    operands: list[tuple[str, bool]], named_at_run_time: Callable[[str], bool]
) -> list[tuple[str, bool]]:
    """The words built at run time that a ``find`` action (``-exec``, ``-execdir``, ``-ok``,
    ``-okdir``) gives a writer the guard reads (``cp``, ``tee``, ``rsync``…) or a program
    named at run time (``named_at_run_time``: ``$(echo cp)``, ``"$(pwd)"/tool`` or
    ``./tool`` the command made before): places it may write, as if the writer ran them."""
    places: list[tuple[str, bool]] = []
    running: str | None = None
    for word, built in operands:
        if running is None:
            running = "" if word in FIND_RUNNING else None
        elif not running:
            running = "$" if named_at_run_time(word) else (word.rsplit("/", 1)[-1] or "$")
        elif word in (";", "+", "\\;"):
            running = None
        elif (
            built
            and "{}" not in word
            and (  # ``{}``: what it finds, judged as swept
                running in _OPERAND_WRITERS
                or running in SYNCERS
                or running == "$"  # ``-exec $(echo cp) …``: the lexer's word for ``$(…)``
                or re.search(_RUN_TIME_NAME_RE, running)
            )
        ):
            places.append((word, built))
    return places


_GIT_READERS = frozenset(
    {
        "status", "log", "diff", "show", "rev-parse", "ls-files", "ls-tree", "cat-file",
        "describe", "blame", "grep", "shortlog", "rev-list", "show-ref", "for-each-ref",
        "name-rev", "whatchanged", "version", "help", "var", "check-ignore", "check-attr",
        "merge-base", "diff-tree", "diff-files", "diff-index", "count-objects", "cherry",
        "range-diff", "annotate", "show-branch", "ls-remote", "verify-commit", "verify-tag",
    }
)  # fmt: skip
"""git's commands that write no file of the work tree (``status`` at most refreshes the
index's stat data): run in a folder known only at run time, they change nothing there."""
_GIT_FOLDER_OPTIONS = ("-C", "--git-dir", "--work-tree")


def _git_folders(operands: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The places a ``git`` call with ``operands`` (its words after its name, each with
    whether it is built at run time) writes that its words name: the folders it works in by
    its own options before its command (``-C DIR``, ``--git-dir[=]DIR``, ``--work-tree[=]DIR``,
    ``-c core.worktree=DIR``) when its command may write the work tree's files (any but
    :data:`_GIT_READERS`: ``git -C "$(cat f)" restore .`` rewrites files where ``f`` says;
    a reader too when it writes a place, ``diff --output=a.md``, relative to that folder),
    and its command's own places (:func:`_git_command_places`)."""
    folders: list[tuple[str, bool]] = []
    at = 0
    while at < len(operands):
        word, built = operands[at]
        name, equals, value = word.partition("=")
        if not word.startswith("-"):
            places = _git_command_places(word, operands[at + 1 :])
            # a reader writing its output (``diff --output=a.md``) writes it in the folder
            return places if word in _GIT_READERS and not places else [*folders, *places]
        valued = name in GIT_VALUED and not equals and at + 1 < len(operands)
        taken = operands[at + 1] if valued else None
        at += 2 if taken is not None else 1
        value, built = taken if taken is not None else (value, built)
        setting = name == "-c" and value.partition("=")[0].lower() == "core.worktree"
        if name in _GIT_FOLDER_OPTIONS or setting:
            folders.append((word if taken is None else taken[0], built))
    return folders


_GIT_PLACING = frozenset({"worktree", "clone", "init", "bundle", "pack-objects", "merge-file"})
"""git's commands whose operands name places they make or write (``worktree add DIR``,
``clone URL DIR``, ``init DIR``, ``bundle create FILE``, ``pack-objects BASE``, ``merge-file
FILE``): every operand of theirs built at run time is taken as such a place."""
_GIT_OUTPUTS = {
    "archive": ("-o", "--output"),
    "format-patch": ("-o", "--output-directory", "--output"),
    "index-pack": ("-o",),
    "checkout-index": ("--prefix",),
    "config": ("-f", "--file"),
    "clone": ("--separate-git-dir",),
    "init": ("--separate-git-dir",),
}
"""Options by which a git command writes the place they name (the ``--output`` of the
commands showing diffs is read for every command)."""


def _git_command_places(command: str, operands: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The places git's ``command`` given ``operands`` (each with whether it is built at run
    time) writes: :data:`_GIT_PLACING`'s operands, :data:`_GIT_OUTPUTS`' values and any
    command's ``--output`` (``git diff --output=FILE``), each as ``-o VALUE``, ``-oVALUE``,
    ``--opt=VALUE`` or ``--opt VALUE``, a long one shortened to any start of its name as
    git's option parser takes a unique one (:func:`~harness_memory.hooks.option_words.
    read_options`: ``git config --fil FILE``), each word the value is in."""
    options = (*_GIT_OUTPUTS.get(command, ()), "--output")
    words = [word for word, _ in operands]
    valued = {at for _, at, _ in read_options(words, table_for("git"), options).values}
    return [
        (word, built)
        for at, (word, built) in enumerate(operands)
        if at in valued or (command in _GIT_PLACING and built)
    ]


_IMPORTS_READ = 512
"""How many local module files (:func:`~harness_memory.hooks.link_texts.local_imports`'
names that are files) the guard reads for one script or inline code, modules those load
included: a medium project's few hundred modules are read; one loading more may make a link
(P-3). Only names that are files count: the standard library's (``import os``) are no files
beside the code, and counting them refused a small project's ``python3 main.py``."""


def _modules_links(name: str, folder: str, code: str, loader: str | None) -> tuple[str, str] | None:
    """Whether a module that ``code`` loads (:func:`~harness_memory.hooks.link_texts.
    local_imports`: found in ``folder`` or beside the module loading it), or one such a
    module loads in turn (``top.py`` imports ``helper1``, which imports ``helper2``), may
    make a link by its text, for the program ``name``; a module the guard cannot read may,
    and so does code loading more than :data:`_IMPORTS_READ` module files. ``loader``: the
    script's spelling whose code it is, None for code given inline. Each file is read once."""
    loading = f"{loader}, loading" if loader is not None else "loading"
    pending = [(folder, code)]
    read: set[str] = set()
    while pending:
        here, text = pending.pop()
        for each in local_imports(text):
            places = {os.path.normpath(os.path.join(where, each)) for where in (here, folder)}  # noqa: PTH118
            for module in places - read:
                if not os.path.isfile(module):  # noqa: PTH113
                    continue
                read.add(module)
                if len(read) > _IMPORTS_READ:
                    return name, f"{loading} more local modules than the guard reads"
                kind, loaded = read_script(module, run=False)
                if kind == "unknown":
                    return name, f"{loading} {each}, a module the guard cannot read"
                if (shown := link_text(loaded)) is not None:
                    return name, f"{shown} in {each}, loaded by {loader or 'its code'}"
                pending.append((os.path.dirname(module), loaded))  # noqa: PTH120
    return None


_TEXT_RUNNERS = SHELLS | RUNNERS | {"eval", "flock", "script", "runuser", "trap"}
"""Programs that may run a word given to them as shell text (:meth:`_Writes.may_run`)."""
_DECLARERS = frozenset({"export", "declare", "typeset", "local", "readonly"})
"""Builtins whose operands are assignments (``export X='…'``): values ``eval "$X"`` may run."""
_RUN_NAMED = "a program named at run time, which may be ln"
"""Why a program named at run time (``$X …``, ``$(echo ln) …``) may make a link."""
_STDIN_CODE = "code read from standard input"
"""Why an interpreter given no script nor code (``python3``, ``cat mk.py | node``,
``/usr/bin/python3 < mk.py``, ``python3 <<< "$(cat mk.py)"``) may make a link."""
_LINKED_RUNNERS = frozenset({"xargs", "sed", "git", "make", "parallel", "busybox"})
"""Programs running commands their words name (:meth:`_Writes._runs_linker`), judged by that
name when a link under another name leads to one (``bin/x`` -> ``xargs``)."""
_SAME_LANGUAGE = {"nodejs": "node", "pypy": "python", "gawk": "awk", "mawk": "awk", "nawk": "awk"}
"""Interpreters' names (their version digits left off) that run one language."""


def _language(name: str) -> str:
    """The language the interpreter called ``name`` runs, as a key: ``python3.11`` and
    ``python`` are ``python``, ``nodejs`` is ``node``, every POSIX-like shell is ``sh`` (a link
    ``bin/node`` -> ``python3`` runs Python: judged as its target, P-3)."""
    base = name.rstrip("0123456789.") or name
    return "sh" if base in SHELLS else _SAME_LANGUAGE.get(base, base)


_WHOLE_EXPANSION_RE = r"\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[^}]*\}|[0-9@*#?!$-])?"
"""A word that is one expansion (matched whole): ``$x``, ``${x:-…}``, ``$1``, ``$@``, or a lone
``$`` (the lexer splits an unquoted ``$(…)`` after it)."""
_SUBSTITUTION_OPEN_RE = r"\$\(|`"
"""A command substitution's start in a word bash expands."""
_LIVE_BACKQUOTE_RE = r"(?:^|[^\\])(?:\\\\)*`"
"""A backquote no backslash escapes (an even number of them before it)."""
_LIVE_NAME_RE = r"\$\{?[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*])"
"""A variable or positional parameter a ``$`` expands (``$X``, ``${X}``, ``${#X}``, ``$1``)."""
_PLAIN_NAME_RE = r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))"
"""A variable's plain expansion (``$X``, ``${X}``): the one a literal value is spelt for."""
_ESCAPED_DOLLAR_RE = r"\\\$"
"""A ``\\$`` in an expanded here-document: a ``$`` bash leaves as written."""
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_NAME_WORD_RE = rf"(?<![-\w$]){_NAME}"
_ASSIGNED_RE = rf"({_NAME})(?:\[[^\]]*\])?(?:\+?=|:[=?+-])"
"""A name given a value (``X=``, ``X+=``, ``A[1]=``, ``${X:=…}``)."""
_COMMAND_START = r"(?:^|(?<=[\s;&|({`]))"
"""Where a command's name starts: a builtin's (``read X``), not Python's ``f.read()``."""
_RUN_TIME_SOURCE_RE = (
    r"\$\(|`|\$\{!|=~|\bprintf\s+-v|"
    + _COMMAND_START
    + r"(?:read|mapfile|readarray|select|getopts|eval|source|\.|coproc|declare|typeset|local"
    + r"|export)(?=\s|$)"
)
"""What may give a variable a value known only at run time (a command substitution, a builtin
that reads or sets names, ``eval``, a sourced file, a name reference)."""
_READ_INTO_RE = (
    _COMMAND_START
    + r"(?:read|mapfile|readarray|getopts|select)(?=\s)([^;&|\n]*)|\bprintf\s+-v([^;&|\n]*)"
)
"""A builtin that sets the names after it (``read -r X``, ``mapfile A``, ``printf -vX``)."""
_BASH_FILLED = frozenset({"REPLY", "MAPFILE", "_", "BASH_REMATCH", "OPTARG", "COPROC"})
"""Variables bash fills by itself (``read`` with no name, ``mapfile``, the last word, ``=~``)."""
_SET_LITERAL_RE = rf"({_NAME})(?:\[[^\]]*\])?\+?=(\"[^\"]*\"|'[^']*'|[^\s;&|()]*)"
"""An assignment and its literal value (``X=mk``, ``X='import mk'``)."""
_FOR_IN_RE = rf"\bfor\s+({_NAME})(?:\s+in\s+([^;\n]*)|(?=[\s;]))"
"""A ``for`` loop's name and the words it takes (none: ``for f; do``, the positional
parameters)."""
_LOOP_UNREAD_RE = r"[\"'\\$`]"
"""A ``for`` list the text reading cannot split as bash does (a quote, which may hold a ``;``
ending the regex's list early; a line continuation; an expansion): its name is filled."""
_FILLED_FROM_RE = (
    rf"(?<![\w$])({_NAME})(?:\[[^\]]*\])?\+?=(?:\(|\"[^\"]*[$`]|'[^']*[$`]|[^\s;&|()]*[$`])"
)
"""A name given an array (``a=(*.txt)``) or a value holding an expansion (``g=$f``,
``g="${a[0]}"``, ``g=x$f``, ``g="a $f"``): filled, failing closed, whatever the expansion
held (review56: ``g=x$f`` was kept as the literal text ``x$f``)."""
_LOOP_PATTERN_RE = r"[*?\[]"
"""A ``for`` word bash may expand as a pattern (a ``*``, ``?`` or ``[``; quoted too, the
wider reading): its values are the names of the files it matches, any of which may hold a
quote (``x'+__import__('mk')+'.txt``)."""
_MOST_SPELLINGS = 32
"""The most literal values a variable's code is read with; one with more is unknown."""
_QUOTING_RE = r"[\"']|\\(?=.)"
"""Quotes and a backslash escaping the next character: bash takes them out of a word."""
_INPUT_DEVICE_RE = r"/(?:dev/(?:stdin|fd/[0-9]+)|proc/[^/]+/fd/[0-9]+)"
"""A name that is a descriptor the program has open (matched whole, normalised): standard input
(``/dev/stdin``, ``/dev/fd/0``, ``/proc/self/fd/0``: :data:`STDIN_SCRIPTS`) or another one."""
_LEADING_NAME_RE = r"^[A-Za-z_][A-Za-z0-9_]*"


def _own_value_rest(word: str) -> str | None:
    """What follows the variable's own value when ``word`` assigns a variable a value starting
    with it (``CFLAGS="$CFLAGS -O2"`` gives `` -O2``, ``X="${X};python3 mk.py"`` gives
    ``;python3 mk.py``, ``PATH=${PATH:-}:/x`` gives ``:/x``), else None: that first word is
    the value before, no program; the rest is shell text ``eval "$X"`` may run (P-3). A
    default that is not empty (``${X:-python3 mk.py}``, ``${X:=…}``) may be the value."""
    assigned = re.match(_ASSIGNMENT_RE, word)
    if not assigned:
        return None
    value = assigned.group("value").lstrip("\"'")
    own = re.match(
        rf"\$(?:{assigned.group('name')}(?![A-Za-z0-9_])|\{{{assigned.group('name')}(?::?-)?\}})",
        value,
    )
    return None if own is None else value[own.end() :]


_CODE_OPTIONS = (
    (r"^(?:python|pypy)[0-9.]*$", frozenset({"-c", "-m"})),
    (r"^(?:node|nodejs|bun)$", frozenset({"-e", "-p", "-pe", "--eval", "--print"})),
    (r"^perl[0-9.]*$", frozenset({"-e", "-E"})),
    (r"^(?:ruby|lua)[0-9.]*$", frozenset({"-e"})),
    (r"^php[0-9.]*$", frozenset({"-r"})),
)
"""Each interpreter's options after which its operand is code or a module, not a script file
(``python3 -c``, ``python3 -m pytest``, ``node -e``/``-p``, ``perl -E``, ``php -r``). Only its
own: one table for all took ``python3 -E mk.py`` (ignore the environment), ``perl -p mk.pl``,
``perl -c mk.pl`` (its ``BEGIN`` blocks run), ``ruby -r date mk.rb`` and ``ruby -E UTF-8
mk.rb`` for code given inline, and the script file was never read for links (P-3)."""


def _takes_value(interpreter: str, word: str) -> bool:
    """Whether the option ``word`` of the program spelled ``interpreter`` takes the next word as
    its value, read by the interpreter's own table
    (:func:`~harness_memory.hooks.option_words.interpreter_table`): ``python3 -W ignore``,
    ``-bW ignore``, ``node --title x`` (not ``-Wignore``, ``--title=x``, ``-b``)."""
    table = interpreter_table(os.path.basename(interpreter))  # noqa: PTH119
    return any(at == 1 for _, at, _ in read_options([word, ""], table).values)


_PRELOADS = (
    (
        r"^(?:node|nodejs|bun)$",
        ("--require", "--import", "--loader", "--experimental-loader", "-r"),
    ),
    (r"^ruby[0-9.]*$", ("-r",)),
    (r"^perl[0-9.]*$", ("-M", "-m")),
)
"""Each interpreter's options whose value is a file it loads and runs before its script
(``node -r ./mk.js``, ``--require=./mk.js``, ``--import``, ``--loader``, ``ruby -r ./mk.rb``,
``-r./mk.rb``, ``perl -Mmkp``: ``mkp.pm``, ``-MA::B=x``: ``A/B.pm``)."""
_PRELOAD_SUFFIXES = (".js", ".cjs", ".mjs", ".rb", ".pm")
"""What node and ruby add to a preloaded name given without its suffix (``-r ./mk``)."""


def _preloaded(program: list[str]) -> list[str]:
    """The values of the preloading options (:data:`_PRELOADS`) among the interpreter
    ``program``'s words (its name as spelled, then its options and their values), read by
    its own table (:func:`~harness_memory.hooks.option_words.interpreter_table`): separate
    (``-r ./mk.js``), after ``=`` (``--require=./mk.js``) or glued to a short one
    (``-r./mk.rb``)."""
    name = os.path.basename(program[0]) if program else ""  # noqa: PTH119
    options = [o for rule, each in _PRELOADS if re.match(rule, name) for o in each]
    if not options:
        return []
    read = option_values(program[1:], interpreter_table(name), options)
    if name.startswith("perl"):  # ``-MA::B=x``, ``-M-warnings``: the module's file
        read = [
            (o, v.lstrip("-").split("=")[0].split()[0].replace("::", "/"))
            for o, v in read
            if v.strip("-")
        ]
    return [value for _, value in read if value]


_BUNDLED_CODE_RE = {
    "python": r"^-[bBdEiIOPqRsSuvx]*[cm]$",
    "pypy": r"^-[bBdEiIOPqRsSuvx]*[cm]$",
    "perl": r"^-[acdfhlnpsStTuUvwWX0-9]*[eE]$",
    "ruby": r"^-[acdhlnpsSvwWy0-9]*e$",
}
"""A bundle of python's, perl's or ruby's one-letter options ending in the one taking code
(``python3 -Sc``, ``-Bm mk``, ``perl -ne``, ``-lane``, ``-pe``, ``-l0e``): switches taking no
value (or digits), then ``c``/``m`` or ``e``. One taking a
value takes the rest of the bundle (``-Mautodie``, ``-Iinclude``, ``-rdate``, ``-F,``, ``-pie``:
``-i`` with the backup suffix ``e``), so the first operand after it is a script file, read
for links (P-3); read as code, ``perl -Mautodie mk.pl``'s link was never seen."""
_PYTHON_MODULE_RE = r"^-[bBdEiIOPqRsSuvx]*m$"
"""Python's ``-m`` alone or ending a bundle (``-Bm``): its operand a module."""
_AWK_RE = r"^[gmn]?awk$"
_AWK_FILE_RE = r"^(?:-f|-E|--file|--exec)(?:=|$)|^-[fE]."
"""An awk option naming its program's file (``-f prog.awk``, ``-fprog.awk``, gawk's
``--file=``, ``-E``/``--exec``): its first operand is then no program text."""


def _dash_script(command: str, program: list[str]) -> bool:
    """Whether the interpreter ``command`` (``program``: its name and the options before its
    first operand) is given ``-`` as its script: its code on standard input, the words after
    it its arguments (``cat mk.py | python3 - arg``, ``node - arg``, ``perl - arg``; the
    lexer takes a lone ``-`` for an option). A shell's ``-`` ends its options instead: ``bash
    - x.sh`` runs ``x.sh``."""
    return len(program) > 1 and program[-1] == "-" and command not in SHELLS


def _code_named_at_run_time(
    code: str, spelt: Mapping[str, str], filled: frozenset[str], *, module: bool
) -> bool:
    """Whether the ``code`` (or, ``module``, the module name) an interpreter is given inline
    is itself built at run time: a name ``find`` or ``xargs`` gives (``-I{} python3 -m {}``,
    ``python3 -c 'import {}'``: :data:`_FED`), a word that is one expansion (``-c "$x"``,
    ``-c "$(cat mk.py)"``) or holds a command substitution (``-c "import $(cat nm)"``), or a
    module name holding any expansion (``-m "$m"``), as bash expands it (``spelt``:
    :func:`_live_spellings`, the code as the lexer gives it -> its spelling, each ``$`` and
    backquote bash leaves as written hidden). A literal ``$`` inside code written in the
    command is data (``-c 'print("$5")'``), and so is a variable the command gives no value
    that may be code (``-c "print('$USER')"``), but not one it fills at run time (``filled``:
    :func:`_fills_code`). The code then run is unknown, as a script named at run time is (P-3)."""
    if _FED.strip('"') in code:
        return True
    spelling = spelt.get(code, code)
    if module:
        return re.search(_RUN_TIME_NAME_RE, spelling) is not None
    if re.fullmatch(_WHOLE_EXPANSION_RE, spelling) or re.search(_SUBSTITUTION_OPEN_RE, spelling):
        return True
    return _fills_code(spelling, filled)


def _fills_code(text: str, filled: frozenset[str]) -> bool:
    """Whether code ``text`` (each ``$`` bash leaves as written hidden) expands a variable the
    command fills at run time (``filled``: :func:`_code_variables`), a name reference
    (``${!Y}``) or a positional parameter (``$1``, ``$@``): ``X=$(cat mk.py); python3 -c
    "pass;$X"`` runs ``mk.py``'s code (review54k). Another variable (``$USER``, ``$HOME``, one
    set to a literal, read with it: :func:`_with_literals`) is data here; one exported by an
    earlier call cannot be seen (a known limit, P-3)."""
    return "${!" in text or bool(_filled_names(text, filled))


def _filled_names(text: str, filled: frozenset[str]) -> list[str]:
    """The variables code ``text`` expands whose value the command fills at run time
    (``filled``), and the positional parameters it expands (``1``, ``@``), in order, each
    once: what :func:`_fills_code` finds, for the refusal to name."""
    return list(
        dict.fromkeys(
            name
            for name in re.findall(_LIVE_NAME_RE, text)
            if name in filled or not (name[0].isalpha() or name[0] == "_")
        )
    )


_ARGUMENT_READ = (
    (r"^(?:python|pypy)[0-9.]*$", "python3 -c 'import sys; …sys.argv[1]…' \"$V\""),
    (r"^(?:node|nodejs|bun)$", "node -e '…process.argv[1]…' \"$V\""),
    (r"^perl[0-9.]*$", "perl -e '…$ARGV[0]…' \"$V\""),
    (r"^ruby[0-9.]*$", "ruby -e '…ARGV[0]…' \"$V\""),
)
"""How each interpreter's inline code reads a value given as an argument, not put into it."""


def _built_code_reason(program: str, named: list[str]) -> str:
    """Why code an interpreter (``program``, as spelled) runs is refused when it is built at
    run time; ``named``: the variables filled at run time it expands (:func:`_filled_names`),
    none for code built otherwise (``-c "$(cat mk.py)"``). A value put into code, even inside
    its quotes, may hold the quote that ends them (a file name, a line, a tag may hold ``'``:
    ``f="x'+__import__('mk')+'"``) and then runs as code; given as an argument it stays data:
    the refusal says how (P-3)."""
    if not named:
        return "code named at run time"
    shown = ", ".join(f"${name}" for name in named)
    base = os.path.basename(program)  # noqa: PTH119
    how = next(
        (spelt for name, spelt in _ARGUMENT_READ if re.match(name, base)), "the program's arguments"
    )
    return (
        f"code built at run time: {shown} is filled when the command runs and put into the "
        "code, where its value (a file name, a line, a command's output) may be code, or "
        "hold a quote that ends a string and runs the rest as code; pass the value as an "
        f"argument instead: {how.replace('$V', f'${named[0]}')}"
    )


class _Variables(NamedTuple):
    """What a command does to the variables its interpreters' code may expand (P-3)."""

    filled: frozenset[str]
    """Names whose value is known only at run time: every name the command gives a value
    when it holds anything that may fill one at run time (:data:`_RUN_TIME_SOURCE_RE`), and
    those bash fills itself (:data:`_BASH_FILLED`)."""
    literals: Mapping[str, list[str]]
    """Otherwise, each name set to literal values (``X=mk``, ``for f in a.py b.py``) -> them."""


_NO_VARIABLES = _Variables(_BASH_FILLED, {})


@functools.lru_cache(maxsize=8)
def _code_variables(command: str) -> _Variables:
    """The variables ``command`` gives a value (:class:`_Variables`). Where it holds a command
    substitution, a ``read``, ``mapfile``, ``select``, ``printf -v``, ``eval``, a sourced file
    or a name reference anywhere, every name it assigns, loops over or reads into is filled at
    run time (``X=""$(cat mk.py)``, ``: ${X:=$(…)}``, ``printf -vX``, ``for f in $(ls)``):
    which of them holds what cannot be told from the text. A name set only to literal values
    keeps them, read as code in its place (``X='import mk'``, ``X=mk; -c "import $X"``); a
    name with more than :data:`_MOST_SPELLINGS` values, or looping over a pattern's matches
    (``for f in *.txt``: file names, :data:`_LOOP_PATTERN_RE`), is filled (unknown), and so,
    failing closed, is a loop whose list the text reading cannot split (:data:`_LOOP_UNREAD_RE`:
    ``for f in 'a;' *.txt``, a line continuation), one over the positional parameters (``for
    f; do``), an array and a name given a value starting with an expansion (``a=(*.txt)``,
    ``g=$f``: :data:`_FILLED_FROM_RE`). Kept
    for the few last commands: each interpreter in a command asks again (a long command's
    text is read once, not once an interpreter)."""
    if "$" not in command and "for" not in command and "=(" not in command:
        return _NO_VARIABLES  # a loop's text may hold no ``$``: its here-string's is data
    command = command.replace("\\\n", "")  # a line continuation joins ``g=\`` to ``$f``
    loops = list(re.finditer(_FOR_IN_RE, command))
    if re.search(_RUN_TIME_SOURCE_RE, command):
        names = {match[1] for match in re.finditer(_ASSIGNED_RE, command)}
        names.update(match[1] for match in loops)
        for match in re.finditer(_READ_INTO_RE, command):
            names.update(re.findall(_NAME_WORD_RE, match[1] or match[2] or ""))
        return _Variables(_BASH_FILLED | names, {})
    literals: dict[str, list[str]] = {}
    for match in re.finditer(_SET_LITERAL_RE, command):
        literals.setdefault(match[1], []).append(match[2].strip("\"'"))
    matched = {match[1] for match in re.finditer(_FILLED_FROM_RE, command)}  # ``g=$f``, ``a=(…)``
    for match in loops:  # ``for f in *.txt``: the names of files, which may hold a quote
        if match[2] is None or re.search(_LOOP_UNREAD_RE, match[2]):
            matched.add(match[1])  # ``for f; do``, ``for f in 'a;' *.txt``: not read here
            continue
        words = [word for word in match[2].split() if word != "do"]
        if any(re.search(_LOOP_PATTERN_RE, word) for word in words):
            matched.add(match[1])
        literals.setdefault(match[1], []).extend(word.strip("\"'") for word in words)
    many = matched | {name for name, values in literals.items() if len(values) > _MOST_SPELLINGS}
    kept = {name: values for name, values in literals.items() if name not in many}
    return _Variables(_BASH_FILLED | many, kept)


def _with_literals(text: str, literals: Mapping[str, list[str]]) -> str:
    """``text`` (an interpreter's code), then once more for each literal value a variable it
    expands was given (:attr:`_Variables.literals`), spelt in its place: the code bash may run,
    read for links and local modules (``X=mk; python3 -c "import $X"`` loads ``mk``)."""
    names = {a or b for a, b in re.findall(_PLAIN_NAME_RE, text)} & literals.keys()
    if not names:
        return text
    spellings = [text]
    for at in range(max(len(literals[name]) for name in names)):

        def spelt(match: re.Match[str], at: int = at) -> str:
            values = literals.get(match[1] or match[2])
            return match[0] if not values else values[min(at, len(values) - 1)]

        spellings.append(re.sub(_PLAIN_NAME_RE, spelt, text))
    return "\n".join(spellings)


def _as_kernel_names(word: str) -> str:
    """``word`` (a script's name) with ``.``, ``..`` and repeated slashes folded by its text
    (``/dev/./stdin``, ``//dev/stdin`` -> ``/dev/stdin``), to tell a descriptor's name. The
    kernel follows a symlink before a ``..`` (``L/../../dev/stdin`` may be a file of the
    Workspace): a name holding ``..`` that folds to a descriptor is unknown to the caller."""
    folded = os.path.normpath(word)
    return "/" + folded.lstrip("/") if folded.startswith("//") else folded


def _here_spellings(text: str) -> str:
    """A here-document's body or here-string's word (``text``) as read for link texts: as
    written, and, when it holds ``$'…'``, also as bash decodes a here-string's ANSI-C quoting
    (:func:`bash_quoting`): ``<<< $'…sym\\x6cink…'`` runs ``symlink`` (P-3)."""
    return f"{text}\n{bash_quoting(text)}" if "$'" in text else text


def _here_texts_built(texts: list[tuple[str, bool]], command: str) -> bool:
    """Whether one of ``command``'s here-texts (``texts``: each with whether bash expands it)
    is code built at run time (:func:`_here_built`)."""
    filled = _code_variables(command).filled if texts else _BASH_FILLED
    return any(expands and _here_built(text, filled) for text, expands in texts)


def _here_built(text: str, filled: frozenset[str]) -> bool:
    """Whether an expanded here-document's body or a here-string's word (``text``, as
    :func:`~harness_memory.hooks.here_data.here_data` gives it: each command substitution a
    backquote) is code built at run time: one it holds, not escaped (``python3 <<< "$(cat
    mk.py)"``), or the whole text one expansion (``<<< "$x"``), or a variable the command
    fills at run time (``filled``: ``X=$(cat mk.py); python3 <<< "pass;$X"``,
    :func:`_fills_code`). Another variable in written code is data (``<<EOF`` with
    ``print("$HOME")``, ``\\$x``) (P-3)."""
    whole = re.fullmatch(_WHOLE_EXPANSION_RE, text.strip().strip('"').strip())
    live = re.sub(_ESCAPED_DOLLAR_RE, "", text)
    return bool(whole or re.search(_LIVE_BACKQUOTE_RE, text) or _fills_code(live, filled))


@functools.lru_cache(maxsize=8)
def _live_spellings(command: str) -> Mapping[str, str]:
    """Each word of ``command`` (as :func:`_shell_words` reads it; none when it cannot be
    lexed) -> its spelling with each ``$`` and backquote bash leaves as written (single
    quotes, a backslash) spelt NUL: what bash expands in it. A word spelt twice keeps the
    spelling with more expansions (P-3)."""
    text = _lines_separated(bash_quoting(command))
    try:
        pairs = zip(
            _lexed(text),
            split_words(_descriptors_dropped(text), punctuation=PUNCTUATION, dead="\0"),
            strict=True,
        )
    except ValueError:
        return {}
    spelt: dict[str, str] = {}
    for word, spelling in pairs:
        if _expansions(spelling) >= _expansions(spelt.get(word, "")):
            spelt[word] = spelling
    return spelt


def _expansions(spelling: str) -> int:
    """How many ``$`` and backquotes ``spelling`` holds."""
    return spelling.count("$") + spelling.count("`")


def _inline_code(command: str, program: list[str]) -> bool:
    """Whether the first operand of the interpreter ``command`` (``program``: its name as
    spelled, then its options before that operand) is code or a module, not a script file:
    after its :data:`_CODE_OPTIONS` (``python3 -c``, ``node -e``), after perl's or ruby's bundle
    ending in ``e`` (``perl -ne``, ``-lane``), and awk's unless an option names its program's
    file (``awk '{print $1}'``; ``awk -f prog.awk``: a file). Taken for a script's name,
    ``'{print $1}'`` was one named at run time and ``'print if /x/'`` one the command wrote,
    so the next new file the command wrote was refused (P-3)."""
    last = program[-1]
    if any(re.match(name, command) and last in options for name, options in _CODE_OPTIONS):
        return True
    bundled = next(
        (rule for name, rule in _BUNDLED_CODE_RE.items() if command.startswith(name)), None
    )
    if bundled is not None and re.match(bundled, last):
        return True
    return bool(re.match(_AWK_RE, command)) and not any(
        re.match(_AWK_FILE_RE, option) for option in program[1:]
    )


_CHECKING_OPTIONS = (
    (r"^(?:ba|da|k|z|)sh$", r"^-[A-Za-z]*n[A-Za-z]*$"),
    (r"^(?:node|nodejs)$", r"^(?:-c|--check)$"),
    (r"^ruby[0-9.]*$", r"^-c$"),
    (r"^php[0-9.]*$", r"^(?:-l|--syntax-check)$"),
)
"""Each interpreter's option by which it only checks its script's syntax, running none of it:
a shell's ``-n`` (alone or in a bundle, ``-nv``), ``node --check``/``-c``, ``ruby -c``, ``php
-l``. Not ``perl -c``: its ``BEGIN`` blocks and ``use`` lines run."""
_NODE_CODE = frozenset({"-e", "--eval", "-p", "-pe", "--print"})


def _checks_only(command: str, program: list[str], words: list[str]) -> bool:
    """Whether the interpreter ``command`` (``program``: its name as spelled and its options
    before its first operand) only checks its script's syntax (:data:`_CHECKING_OPTIONS`:
    ``bash -n mk.sh``, ``node --check mk.js``), so its script makes no link; node given code
    (``node -c -e …``) may run it, and so may a shell given ``+n`` or ``-o``/``+o`` anywhere in
    its ``words`` (as written: ``bash -n +n mk.sh`` runs it, its reader of options stopping at
    ``+n``). ``find . -name '*.sh' -exec bash -n {} \\;`` was
    refused as running a script named at run time (P-3)."""
    options = program[1:]
    if command.startswith("node") and _NODE_CODE & set(options):
        return False
    if any(
        word.startswith("+") or (word[:1] == "-" != word[1:2] and "o" in word) for word in words
    ):
        return False  # ``+n``, ``-o``/``+o noexec`` may switch checking off again: runs it
    return any(
        re.match(name, command) and any(re.match(check, word) for word in options)
        for name, check in _CHECKING_OPTIONS
    )


def _script_word(
    command: str | None, program: list[str], words: list[str]
) -> tuple[str, str] | None:
    """The script file a command runs, as its kind (``source``, ``shell``, ``run``) and word:
    ``source``'s or ``.``'s operand (``words``: their words, or a shell's, as written), a
    shell's script operand (:func:`~harness_memory.hooks.shell_startup.script_operand`), or
    the program itself when named by its path (``program``: its name as spelled first) unless
    that names an interpreter: ``.venv/bin/python mk.py``, ``/usr/bin/node mk.js``, a link
    ``bin/py`` to ``python3`` run their script, judged by the name the command is known by
    (``command``: the interpreter's base name, or its link's target's) as ``python3 mk.py``
    is (P-3)."""
    word: str | None
    if command in _SOURCING:
        kind, word = "source", next((each for each in words if each != "--"), None)
    elif command in STARTUP_SHELLS:
        kind, word = "shell", script_operand(words)
    elif program and "/" in program[0] and not reads_text(command or ""):
        kind, word = "run", program[0]
    else:
        return None
    return None if word is None else (kind, word)


_DOCUMENTERS = frozenset({"man", "tldr", "info", "whatis", "apropos", "help"})
"""Programs showing the documentation of the programs their words name."""
_INSTALLERS = frozenset({"pip", "pip3", "npm", "pnpm", "yarn", "brew", "apt", "apt-get"})
"""Package managers: ``install NAME`` names a package, not a program run."""


def _documents(command: str, words: list[str]) -> bool:
    """Whether ``command`` with ``words`` (as written) shows documentation (``man ln``) or
    installs, adds or removes packages (``pip install ln``, ``brew install mv``): a word
    ``ln`` or ``mv`` there names a page or a package, and runs no such program."""
    if command in _DOCUMENTERS:
        return True
    actions = {"install", "add", "remove", "uninstall", "info", "show", "search"}
    first = next((word for word in words if not word.startswith("-")), "")
    return command in _INSTALLERS and first in actions


def _writes_nothing_unread(
    program: list[str], operand: str | None, operands: list[tuple[str, bool]]
) -> bool:
    """Whether the guard reads every place the command ``program`` (its name as spelled and
    its options before its first ``operand``; ``operands``: all its words) writes
    (:func:`~harness_memory.hooks.unread_programs.is_read`), or it writes none: ``sed``
    found on ``PATH`` with a script that only prints (:func:`~harness_memory.hooks.in_place.
    sed_prints_only`: ``sed -n 1,20p .git/config`` is a reader like ``head``)."""
    if is_read(program[0], program[1:], operand):
        return True
    return program[0] == "sed" and sed_prints_only(operands)


SECOND_OPERAND_WRITERS: dict[str, frozenset[str]] = {
    "uniq": frozenset({"-f", "-s", "-w"}),
    "xxd": frozenset({"-c", "-g", "-l", "-o", "-s", "-n", "-cols", "-len", "-seek"}),
    "split": frozenset({"-a", "-b", "-C", "-l", "-n", "-t"}),
}
"""Commands that write to (or, ``split``, into names starting with) their second operand
(``uniq IN OUT``, ``xxd IN OUT``, ``split IN PREFIX``), with their options taking the next
word: a place built at run time there is refused as a ``cp`` destination is (P-3)."""


def _plain_operands(
    operands: list[tuple[str, bool]], taking: frozenset[str]
) -> list[tuple[str, bool]]:
    """``operands`` but options and the words the ``taking`` ones take (``-f 1``)."""
    plain: list[tuple[str, bool]] = []
    skip = False
    for word, built in operands:
        if skip or word.startswith("-"):
            skip = not skip and word in taking
            continue
        plain.append((word, built))
    return plain


OPTION_DESTINATIONS: dict[str, tuple[str, ...]] = {
    "tar": ("-C", "--directory"),
    "bsdtar": ("-C", "--directory"),
    "unzip": ("-d",),
    "patch": ("-d", "--directory", "-o", "--output", "-r", "--reject-file"),
    "sort": ("-o", "--output"),
    "curl": ("-o", "--output"),
    "wget": ("-O", "--output-document", "-P", "--directory-prefix"),
}
"""Commands that write into (or to) the place an option names: ``tar -x -C DIR`` (``bsdtar``
too) and ``unzip -d DIR`` unpack there, ``patch -d DIR`` patches the files below it (``-r FILE``
keeps its rejected hunks in FILE), ``patch -o``,
``sort -o``, ``curl -o`` and ``wget -O`` write the file named (``wget -P``: into the folder).
A place the shell builds at run time there is refused as a ``cp`` destination is (P-3);
``tar`` only when it extracts."""


OUTPUT_OPTIONS: dict[str, tuple[str, ...]] = {
    "find": ("-fprint", "-fprint0", "-fprintf", "-fls"),
    "curl": (
        "--output-dir",
        "-D",
        "--dump-header",
        "-c",
        "--cookie-jar",
        "--trace",
        "--trace-ascii",
        "--libcurl",
        "--stderr",
        "--etag-save",
        "--hsts",
        "--alt-svc",
    ),
    "wget": (
        "-o",
        "--output-file",
        "-a",
        "--append-output",
        "-e",
        "--execute",
        "--save-cookies",
        "--warc-file",
        "--hsts-file",
        "--rejected-log",
    ),
    "mktemp": ("-p", "--tmpdir"),
    "sort": ("-T", "--temporary-directory"),
    "tar": ("--index-file", "-g", "--listed-incremental"),
    "history": ("-w", "-a"),
}
"""Options of programs the guard reads (:data:`~harness_memory.hooks.unread_programs.
READ_PROGRAMS`) naming a file they write besides their output or one :data:`OPTION_DESTINATIONS`
names: ``find -fprint FILE`` (``-fprint0``, ``-fprintf``, ``-fls``), ``curl --output-dir DIR
-O`` and the header, cookie, trace, C-code, HSTS and Alt-Svc files it saves, ``wget -o LOG`` and
a wgetrc command (``-e output_document=FILE``), ``mktemp -p DIR``, ``sort -T DIR``, ``history -w
FILE``, the listing ``tar --index-file`` and the snapshot ``tar -g`` write. A place built at run
time there is refused as a ``cp`` destination is (P-3): each was let through, and bash wrote
into another scope."""
EVERY_OPERAND_WRITERS: dict[str, frozenset[str]] = {
    "mktemp": frozenset({"-p", "--suffix"}),
}
"""Programs making each plain operand (``mktemp --suffix=.md TEMPLATE`` makes an empty topic
file), with their options taking the next word. ``mkdir`` is not one: an empty folder, and
``mkdir -p "$(dirname "$f")"`` is everyday work (``docs/security.md``)."""
COMPRESSOR_VALUES = frozenset({"-S", "--suffix", "-T", "-F", "-C", "-M", "--files", "--files0"})
"""The options of ``gzip``, ``xz``, ``lzma`` and ``bzip2`` taking the next word: without
``-c``, a test or a listing they replace each plain operand by its (de)compressed file
(:func:`~harness_memory.hooks.unread_programs.writes_operands`), as ``rm`` removes it."""
CODECS = frozenset({"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma"})
"""The (de)compressors writing their operands (:data:`COMPRESSOR_VALUES`)."""
MODE_CHANGERS: dict[str, frozenset[str]] = {
    "chmod": frozenset(),
    "chown": frozenset(),
    "chgrp": frozenset(),
}
"""Programs changing the mode or owner of each plain operand after the first (the mode, the
owner; every one with ``--reference=FILE``): ``chmod 000 "$(cat f)"/MEMORY.md`` leaves the
service unable to read another scope."""
_TAR_CREATING = frozenset({"--create", "--append", "--update", "--concatenate", "--catenate"})


def _placed_outputs(command: str, operands: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The places ``command`` given ``operands`` writes besides those :class:`_Writes`'s
    tables for operands name: :data:`OUTPUT_OPTIONS`' values, :data:`EVERY_OPERAND_WRITERS`'
    and :data:`MODE_CHANGERS`' operands, a ``find``'s start folders when it acts on what it
    finds (``find "$(cat f)" -delete``), a ``tar``'s archive when it creates one (``-cf``,
    ``czf``, ``--file=``); each with whether it is built at run time."""
    written = _option_values(command, operands, OUTPUT_OPTIONS.get(command, ()))
    if command in EVERY_OPERAND_WRITERS:
        written.extend(_plain_operands(operands, EVERY_OPERAND_WRITERS[command]))
    if command in MODE_CHANGERS:
        plain = _plain_operands(operands, MODE_CHANGERS[command])
        referenced = any(word.startswith("--reference") for word, _ in operands)
        written.extend(plain if referenced else plain[1:])
    if command == "find" and _FIND_ACTIONS.intersection(word for word, _ in operands):
        starts = set(_find_starts([word for word, _ in operands]))
        written.extend((word, built) for word, built in operands if word in starts)
    if command == "tar" and _creates(operands):
        written.extend(_tar_archives(operands))
    options = [word for word, _ in operands if word.startswith("-") and word != "-"]
    if writes_operands(command, options):  # ``gzip "$(cat f)/MEMORY.md"`` replaces it
        written.extend(_plain_operands(operands, COMPRESSOR_VALUES))
    return written


UNPACKED_AS = {
    "bsdtar": "tar",
    **dict.fromkeys(("7z", "7za", "7zz", "7zr"), "7z"),
    **dict.fromkeys(("unrar", "rar"), "unrar"),
    "cpio": "cpio",
    "jar": "jar",
    "pax": "pax",
}
"""Unpacking programs read as another: ``bsdtar`` takes ``tar``'s options (``-x``, ``-f``,
``-C``; its ``-s`` renames members, so such an archive is unknown); the 7-Zip programs,
``unrar``, ``cpio`` and ``jar`` by :func:`~harness_memory.hooks.archive_members.
unlisted_unpack`, their archives never listed."""
_UNLISTED = frozenset({"7z", "unrar", "cpio", "jar", "pax"})
FOLDER_WRITERS = frozenset({"curl", "wget", "tar", "unzip", "split"})
"""Programs the guard reads that may write into the folder they run in with no word naming
the place: ``curl -O``/``-J``, ``wget URL``, ``tar -x`` and ``unzip`` (the archive's names),
``split`` (``xaa``…)."""


_WHOLE_NAMES = frozenset({"--checkpoint", "--strip"})
"""Long options that are the start of a :data:`~harness_memory.hooks.unread_programs.
PROGRAM_OPTIONS` one and options of their own (``tar --checkpoint=10``, ``install --strip``):
getopt takes a whole name as itself, never as the longer option shortened."""


def _setting(word: str, shown: str) -> tuple[str, str, bool]:
    """An assignment of a :data:`~harness_memory.hooks.program_settings.SETTINGS_VARIABLES`
    variable (``TMPDIR=…``, or the name alone, which ``read``/``printf -v`` set): its name,
    ``shown`` and whether its value is built at run time (``$``, a backquote, or set so)."""
    name, equals, value = word.partition("=")
    return name, shown, not equals or "$" in value or "`" in value


def _settings_skipped(command: str, program: list[str], operands: list[tuple[str, bool]]) -> bool:
    """Whether ``command`` reads no settings file of its own: ``curl -q``/``--disable`` as its
    first argument (``program``: its name, then its leading options), ``wget --no-config``."""
    if command == "curl":
        return len(program) > 1 and (program[1][:2] == "-q" or program[1] == "--disable")
    return command == "wget" and any(word == "--no-config" for word, _ in operands)


def _unpacked_into(
    command: str, operands: list[tuple[str, bool]], base: str, environ: Mapping[str, str]
) -> list[str]:
    """The folders an extracting ``tar`` or ``unzip`` given ``operands`` unpacks into, run in
    ``base`` with ``environ`` (its ``HOME`` for ``~``): its ``-C``/``--directory``/``-d``
    folders known here (one built at run time is judged elsewhere), else ``base``."""
    values = _option_values(command, operands, OPTION_DESTINATIONS[command])
    folders: list[str] = []
    for value, built in values:
        if not built and value:
            folders.append(os.path.join(base, _tilde(value, environ)))  # noqa: PTH118
    return folders if values else [base]


def _unbounded(command: str, operands: list[tuple[str, bool]]) -> list[str]:
    """The option by which ``tar -x`` or ``unzip`` writes the archive's absolute or ``..``
    names as they are (``tar -P``/``--absolute-names``, in a bundle or tar's old style;
    ``unzip -:``), as a list of at most one."""
    flags = read_options([word for word, _ in operands], table_for(command)).flags
    if command == "unzip":  # each read as the program does: -P's letter, not a value's
        return ["unzip -:"] if ":" in flags else []
    named = [name for name in ("--absolute-names", "-P") if {name, name[1:]} & flags]
    return [f"tar {name}" for name in named][:1]


def _creates(operands: list[tuple[str, bool]]) -> bool:
    """Whether a ``tar`` with these operands writes its archive (``-c``, ``-r``, ``-u``,
    ``-A``, in a bundle or tar's old style, or their long names)."""
    flags = read_options([word for word, _ in operands], table_for("tar")).flags
    return bool(flags & _TAR_CREATING) or bool(flags & set("cruA"))


def _tar_archives(operands: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The archives a ``tar`` names: ``-f FILE``, ``--file FILE``, ``--file=FILE``, in a
    bundle (``-czf FILE``, ``-cfFILE``) or tar's old style (``czf FILE``)."""
    return _option_values("tar", operands, ("-f", "--file"))


_PLACED_OUTPUTS = (
    OPTION_DESTINATIONS.keys()
    | SECOND_OPERAND_WRITERS.keys()
    | OUTPUT_OPTIONS.keys()
    | EVERY_OPERAND_WRITERS.keys()
    | MODE_CHANGERS.keys()
    | CODECS
)


def _option_values(
    command: str | None, operands: list[tuple[str, bool]], options: tuple[str, ...]
) -> list[tuple[str, bool]]:
    """The values ``operands`` give ``options`` of ``command`` (``-C DIR``, ``-CDIR``,
    ``-xvCDIR``, ``--directory DIR``, ``--dir=DIR``, ``curl -sLo FILE``), read as its own
    parser reads them (:func:`~harness_memory.hooks.option_words.option_values`), each with
    whether it is built at run time (the word holding it is)."""
    if not options:
        return []
    words = [word for word, _ in operands]
    values = option_values(words, table_for(command or ""), options)
    return [(value, operands[at][1]) for at, value in values if at < len(operands)]


def _bundles(command: str, word: str, options: tuple[str, ...]) -> bool:
    """Whether ``word`` is a bundle of ``command``'s short flags holding one of its short
    ``options`` (read by its own table, :func:`~harness_memory.hooks.option_words.
    read_options`): ``hash -lp PATH``, ``curl -sK FILE``, ``rsync -ave CMD``."""
    short = tuple(option for option in options if len(option) == 2)
    if not short or not word.startswith("-") or word.startswith("--"):
        return False
    read = read_options([word], table_for(command), short)
    return any(name in short for name, _, _ in read.values)


def _abbreviates(name: str, option: str) -> bool:
    """Whether ``name`` is ``option`` shortened, as GNU programs take a long option (``cp
    --target=DIR``, ``tar --dir DIR``, ``wget --output-doc=FILE``: any start of it past
    ``--``)."""
    return option.startswith("--") and len(name) > 2 and option.startswith(name)


def _extracts(operands: list[tuple[str, bool]]) -> bool:
    """Whether a ``tar`` with these operands extracts (``-x``, ``xzf``, ``-xzf``,
    ``--extract``, ``--get``)."""
    flags = read_options([word for word, _ in operands], table_for("tar")).flags
    return bool(flags & {"x", "--extract", "--get"})  # a letter of a value is none


_LOOP_VARIABLE_RE = (
    r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>%%?)(?P<suffix>[^}*?\[/$`\\]*))?\}"
    r"|(?P<plain>[A-Za-z_][A-Za-z0-9_]*))"
)
"""A loop variable as a path may use it: ``$f``, ``${f}``, ``${f%.js}`` (a literal suffix
off, so the place stays in the value's folder)."""


def _through_loops(word: str, loops: Mapping[str, list[str] | None]) -> list[str] | None:
    """The words ``word`` becomes for each value of the loop variables in it (``$f``,
    ``${f}``, ``${f%.js}``, ``${f%%.js}``; other variables stay for :func:`_expand`): one
    variable's every value, or of two or more each combination while they are at most
    :data:`~harness_memory.hooks.shell_statements.CHOICES_CAP` (``"dist/$os-$arch"``); None
    when it holds none, one whose values are unknown, or more combinations."""
    names = {
        found.group("braced") or found.group("plain")
        for found in re.finditer(_LOOP_VARIABLE_RE, word)
    }
    looping = sorted(names & loops.keys())
    valued = [loops[name] for name in looping]
    if not looping or any(values is None for values in valued):
        return None
    combinations = list(itertools.product(*(values or [] for values in valued)))
    if len(looping) > 1 and len(combinations) > CHOICES_CAP:
        return None

    def put(value: dict[str, str]) -> str:
        def one(found: re.Match[str]) -> str:
            name = found.group("braced") or found.group("plain")
            if name not in value:
                return found.group(0)
            suffix = found.group("suffix") or ""
            held = value[name]
            return held[: -len(suffix)] if suffix and held.endswith(suffix) else held

        return re.sub(_LOOP_VARIABLE_RE, one, word)

    return [put(dict(zip(looping, each, strict=True))) for each in combinations]


def _built_at_run_time(
    word: str, known: Mapping[str, str | None], environ: Mapping[str, str], *, lost: bool
) -> bool:
    """Whether the place ``word`` names is built when the command runs from what cannot be
    read here: an expansion :func:`_expand` cannot decide (``$(…)``, a backquote, a variable
    neither in the environment nor assigned a known value) that is no default the shell
    decides from known values (``${TMPDIR:-/tmp}``), or a relative word after a ``cd`` into
    a folder known only at run time (``lost``)."""
    expanded = _expand(word, known, environ)
    if expanded is None:
        expanded = _defaults_decided(word, known, environ)
        if expanded is None:
            return True
    return lost and not PurePath(_tilde(expanded, environ)).is_absolute()


def _defaults_decided(
    word: str, known: Mapping[str, str | None], environ: Mapping[str, str], *, split: bool = True
) -> str | None:
    """``word`` with every ``${NAME:-word}`` (and its kin ``-``, ``:=``, ``=``, ``:+``, ``+``)
    replaced by what the shell picks from the variable's known value (the environment, or a
    known assignment; a variable neither has is unset, as for every word the guard reads);
    None when a variable was assigned a value known only at run time, its value holds an
    expansion (bash never expands a value again), or anything else in ``word`` (the default's
    own ``$HOME`` included) stays undecided, or ``IFS`` may split the value picked
    (:func:`_split_elsewhere`: ``IFS=@; cp ${X:-.}``). ``split``: as :func:`_expand`."""
    if _split_elsewhere(word, known, split=split):
        return None
    undecided = False

    def pick(match: re.Match[str]) -> str:
        nonlocal undecided
        name, operator, default = match.group("name"), match.group("op"), match.group("word")
        value = known[name] if name in known else environ.get(name)
        if (name in known and value is None) or (value and ("$" in value or "`" in value)):
            undecided = True
            return ""
        present = value is not None and (value != "" or ":" not in operator)
        if "+" in operator:
            return default if present else ""
        return value if present and value is not None else default

    replaced = re.sub(_DEFAULT_PICK_RE, pick, word)
    return None if undecided else _expand(replaced, known, environ, split=split)


_DEFAULT_PICK_RE = (
    r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<op>:?[-=+])"
    r"(?P<word>(?:[^}$`]|\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\})*)\}"
)
"""A default the shell picks (:func:`_defaults_decided`): its word literal text and plain
variables (``${PREFIX:-$HOME/.local}``), expanded after the pick; no substitution, no
operator of its own."""


_SUBSTITUTION_RE = r"\$\((?P<dollar>[^()`$]*)\)|`(?P<back>[^`$()]*)`"
"""A command substitution holding a plain command (no nested expansion)."""
_NAME_ONLY_RE = (
    r"^\s*(?:nproc|whoami|hostname|id\s+-[nr]*[ug][nr]*|uname(?:\s+-[smrnpi])?"
    r"|git\s+rev-parse\s+(?:--short\s+)?HEAD)\s*$"
)
"""Substitutions whose output is one name with no ``..`` and no literal text of the command's
own (a count, an account or host name, a commit id): ``id`` with one of ``-u``/``-g`` (``id
-r``, ``id -ug`` fail and print nothing), ``uname`` with one field but ``-o`` (``GNU/Linux``)
or ``-v`` (spaces); unless the command redefines the program (:func:`_names_read`)."""
_DATE_NAME_RE = (
    r"^\s*date(?:\s+(?:-u\s+)?(?P<q>['\"]?)\+[-_:T]*%[YCyGgmdHIMSjsuwUVWNFTRz]"
    r"(?:%[YCyGgmdHIMSjsuwUVWNFTRz]|[-_:T])*(?P=q))?\s*$"
)
"""A ``date`` printing a name of digits and ``-_:T+`` (its fields ``%Y``, ``%m``, ``%F``,
``%s`` …): not ``%Z`` (a zone name the command may choose), ``%n``/``%t`` (a newline, a
tab), ``%D`` (``/``), ``%e`` (a space) or a locale's names (``%a``, ``%b``, ``%p``, ``%c``),
nor ``date +`` with no field (it prints nothing: ``notes$(date +)/a.md`` is ``notes/a.md``);
digits whatever zone or locale the command sets. A bare ``date`` (``> out-$(date).log``) prints
the day, the time and the zone's name: a name unless the command sets a zone or a locale
(:func:`_names_read`: a zone file may name its zone ``../../x``)."""
_BASENAME_RE = r'\$\(\s*basename\s+(?P<q>"?)(?:\$PWD|\$\{PWD\}|\$HOME|\$\{HOME\})(?P=q)\s*\)'
"""``$(basename "$PWD")`` (or ``$HOME``): one name, the last of a folder's path, read as a
name-only substitution is (``git worktree add "../$(basename "$PWD")-feature"``: a sibling
folder of the shell's)."""
_MKTEMP_RE = r"^\s*mktemp(?:\s+-[dqu]+)*\s*$"
"""``mktemp`` without a template: a new name in ``$TMPDIR`` (``/tmp`` when unset)."""
_RUN_TIME_NAME = "@"
"""What a name-only substitution is read as: one name, no ``/``, and a character no scope key,
``user`` or the marker holds, so a scope or marker name completed by it is never one the
guard allows (``…/my-app-1a2b3c4$(date +%-d)`` is no Session's scope)."""


def _substituted(match: re.Match[str]) -> str:
    """The command a :data:`_SUBSTITUTION_RE` match runs (``$(…)``'s or a backquote's)."""
    inner = match.group("dollar")
    return match.group("back") if inner is None else inner


def _read_substitutions(command: str, environ: Mapping[str, str], names: _NamesRead) -> str:
    """``command`` with the command substitutions whose output this can tell put in as text:
    a name-only one (:data:`_NAME_ONLY_RE`: ``$(date +%F)``, ``$(nproc)``; :data:`_BASENAME_RE`)
    as one name (:data:`_RUN_TIME_NAME`; one that may print nothing, :data:`_MAY_BE_EMPTY_RE`,
    as :data:`_NAME_OR_NOTHING`, read both ways: :func:`_name_spellings`), a program lookup that
    opens the command (nothing the command runs before it could redefine what it finds) as
    the program's path (:func:`_looked_up`; not a lookup that is the whole text, a word read
    again as a command: ``echo "$(command -v python3)"`` prints the path, and read as
    ``/usr/bin/python3`` run alone it was an interpreter reading code on standard input), and
    ``$(mktemp)``/``$(mktemp -d)`` as a path in the temporary folder (``$TMPDIR``, unless the
    command sets it; not when it names no folder: ``mktemp`` then fails printing nothing, so
    ``"$(mktemp)"notes/a.md`` is ``notes/a.md``). So ``> logs/build-$(date +%F).log`` and
    ``out=$(mktemp); … > "$out"``
    name a known place; every other substitution stays for the shell. ``names``: which
    name-only substitutions the command, and the one holding it, cannot redefine
    (:func:`_names_read`, read once for the whole command: a definition after a substitution
    reaches it too, bash expanding a command's words before its redirections and ``fc -s``
    running a line again; review56e). A name-only substitution is read as a name only when
    its program is the system's (:func:`_system_program`), a lookup keeps its own rule
    (nothing runs before it)."""
    if "$(" not in command and "`" not in command:
        return command
    whole = names
    systems: dict[str, bool] = {}  # each program's :func:`_system_program`, asked once

    def system(name: str) -> bool:
        if name not in systems:
            systems[name] = _system_program(name, environ)
        return systems[name]

    if whole is not _NamesRead.NONE and system("basename"):
        command = re.sub(_BASENAME_RE, lambda match: _name_at(match, whole, basename=True), command)

    def text(match: re.Match[str]) -> str:
        inner = _substituted(match)
        if re.match(_NAME_ONLY_RE, inner) or re.match(_DATE_NAME_RE, inner):
            return _name_at(match, whole, system=system)
        tmp = environ.get("TMPDIR") or "/tmp"  # noqa: S108
        if re.match(_MKTEMP_RE, inner) and "TMPDIR" not in command:
            if whole is not _NamesRead.NONE and _makes_files_in(tmp, environ.get("PWD", "/")):
                return f"{tmp.rstrip('/')}/tmp.XXXXXXXXXX"  # noqa: S108 (read, never made)
            return match.group(0)
        quoted = command[match.start() - 1 : match.start()] == '"'
        if command[: match.start()].strip(' \t"'):  # something runs first: it may redefine
            return match.group(0)  # the lookup (``PA""TH=…``, a function, a sourced file)
        if not command[match.end() :].strip(' \t"'):
            return match.group(0)  # the lookup alone: its path printed, no program run
        return _looked_up(inner, environ, quoted=quoted) or match.group(0)

    return re.sub(_SUBSTITUTION_RE, text, command)


def _name_at(
    match: re.Match[str],
    names: _NamesRead,
    *,
    system: Callable[[str], bool] | None = None,
    basename: bool = False,
) -> str:
    """What the name-only substitution ``match`` is read as (:func:`_read_substitutions`):
    :data:`_RUN_TIME_NAME`, or :data:`_NAME_OR_NOTHING` for one that may print nothing, when
    the command cannot redefine its program (``names``: :func:`_names_read`) and that program
    is the system's (``system``: :func:`_system_program` asked of a name; a ``basename`` was
    checked by the caller); else the substitution, left to the shell. A bare
    ``date`` is no name beside a zone or a locale the command sets."""
    inner = "basename" if basename else _substituted(match)
    if names is _NamesRead.NONE:
        return match.group(0)
    if names is _NamesRead.NO_BARE_DATE and re.match(_DATE_NAME_RE, inner) and "+" not in inner:
        return match.group(0)  # bare: the zone's name
    if system is not None and not system(inner.split()[0]):
        return match.group(0)
    return _NAME_OR_NOTHING if basename or re.match(_MAY_BE_EMPTY_RE, inner) else _RUN_TIME_NAME


_MAY_BE_EMPTY_RE = r"^\s*(?:whoami|hostname|git\s|id\s+-\w*n|uname\s+-\w*n)"
"""Name-only substitutions that may print nothing: ``git rev-parse HEAD`` outside a
repository (or beside a ``GIT_DIR`` that names none), ``whoami``/``id -un`` for an account
without a name, ``hostname``/``uname -n`` on a host without one; a ``basename`` of an empty
variable (or ``/``). Read as a name, ``notes$(git rev-parse HEAD)/a.md`` was a fresh folder;
printing nothing it is ``notes/a.md``, through a link into another scope (review56)."""
_NAME_OR_NOTHING = "\x00"
"""What a name-only substitution that may print nothing is spelt as in the text, until
:func:`_name_spellings` reads it both ways."""


def _name_spellings(command: str) -> list[str]:
    """The spellings of ``command`` the guard reads (:func:`shell_paths`): each
    :data:`_NAME_OR_NOTHING` as one name (:data:`_RUN_TIME_NAME`) and, when there is one, as
    nothing (what the program printed when it failed)."""
    if _NAME_OR_NOTHING not in command:
        return [command]
    return [
        command.replace(_NAME_OR_NOTHING, _RUN_TIME_NAME),
        command.replace(_NAME_OR_NOTHING, ""),
    ]


_SYSTEM_UID = 0
"""The owner of a system program and of its folder."""


def _system_program(name: str, environ: Mapping[str, str]) -> bool:
    """Whether ``name`` run by the shell (found in ``environ``'s ``PATH``, the hook's when it
    has none) is a program of the system, not one the agent may have written or may still
    write (``~/.local/bin/date``, ``./bin/nproc`` put first on ``PATH``, a folder before the
    found one where the agent may put a ``date`` as the command runs): found, the file it
    resolves to and that file's folder owned by root and writable by no one else, outside the
    home folder, the shell's folder and the temporary folders, and every ``PATH`` folder up to
    the found one one the agent cannot write into (a folder not there yet: its nearest
    ancestor there; review56e). For an agent running as root (who may write anywhere) the
    folders up to the found one must all be standard system folders
    (:data:`_SYSTEM_FOLDERS`). Only then is its output read as a name (:func:`_name_at`). A
    file that cannot be read about is none (failing closed)."""
    path = environ.get("PATH") or os.environ.get("PATH", os.defpath)
    found = shutil.which(name, path=path)
    if found is None:
        return False  # nothing runs: the substitution prints nothing
    real = Path(found).resolve()
    home = environ.get("HOME") or os.environ.get("HOME", "")
    written = (home, environ.get("PWD", ""), environ.get("TMPDIR", ""), *_TEMPORARY_FOLDERS)
    if any(folder.rstrip("/") and real.is_relative_to(folder) for folder in written):
        return False
    try:
        stats = [real.stat(), real.parent.stat()]
    except OSError:
        return False
    if not all(st.st_uid == _SYSTEM_UID and not st.st_mode & 0o022 for st in stats):
        return False
    found_in = str(Path(found).parent)
    searched = [*itertools.takewhile(lambda folder: folder != found_in, path.split(":")), found_in]
    if os.geteuid() == _SYSTEM_UID:
        return all(os.path.normpath(folder) in _SYSTEM_FOLDERS for folder in searched)
    return not any(_agent_may_write(folder) for folder in searched)


_SYSTEM_FOLDERS = frozenset(
    {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}
)
"""The folders a program is trusted in when the agent runs as root (:func:`_system_program`)."""


def _agent_may_write(folder: str) -> bool:
    """Whether the agent (this process's account) may make or replace an entry in ``folder``,
    or in the nearest folder above it that is there when it is not (it may make it)."""
    at = Path(folder or ".").absolute()
    while not at.is_dir() and at != at.parent:
        at = at.parent
    return os.access(at, os.W_OK)


_TEMPORARY_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")  # noqa: S108
"""Folders any account may write into."""


_LOOKUP_RE = (
    r"^\s*(?P<by>which|command\s+-v|type\s+-P|pyenv\s+which)\s+(?P<name>[A-Za-z0-9_.+-]+)\s*$"
)
"""A substitution that only looks a program up and prints its path (``which python3``,
``command -v node``, ``type -P make``, ``pyenv which python``)."""
_LITERAL_PATH_RE = r"^/[A-Za-z0-9_./+-]+$"
"""An absolute path the lexer reads as one word, as written."""


def _looked_up(inner: str, environ: Mapping[str, str], *, quoted: bool) -> str | None:
    """The path a program lookup ``inner`` (:data:`_LOOKUP_RE`) prints, as text for the
    lexer: ``$(which python3) -m pytest`` runs ``python3`` (judged as that program), never
    any writer, as ``$(echo cp)`` may be. ``which``/``command -v``/``type -P`` are read as
    the program found in ``PATH`` (the environment's; absolute folders only) is spelt;
    ``pyenv which X`` as ``X`` in pyenv's root, a folder it prints (``"$(pyenv root)"/…/X``;
    in double quotes, ``quoted``, without quotes of its own).
    Asked only for a lookup that opens the command (:func:`_read_substitutions`): nothing the
    command runs can redefine it first. None (left to the shell, any program) when the
    environment may (exported functions, ``BASH_ENV``) or the program is not found (an empty
    output: the next word would be the command's name)."""
    looked = re.match(_LOOKUP_RE, inner)
    if looked is None or _environment_redefines(environ):
        return None
    path = environ.get("PATH") or os.environ.get("PATH", os.defpath)
    name = looked.group("name")
    if looked.group("by").startswith("pyenv"):
        root = "$(pyenv root)" if quoted else '"$(pyenv root)"'
        return f"{root}/versions/{_RUN_TIME_NAME}/bin/{name}"
    found = shutil.which(name, path=path)
    if found is None or not re.match(_LITERAL_PATH_RE, found):
        return None
    return found


def _cd_folders(
    target: str, base: str, known: Mapping[str, str | None], environ: Mapping[str, str]
) -> list[str] | None:
    """The folders ``cd target`` run in ``base`` may go into: ``base/target`` and, for a
    relative target not starting with ``.``, each folder of ``CDPATH`` (assigned in the
    command or in the environment) joined with it, as bash looks it up; an undecidable
    ``CDPATH`` entry is left out (its words are judged as any other); None when the command
    set ``CDPATH`` to a value known only at run time (``CDPATH=$(dirname "$(cat f)")``): the
    folder is then undecided."""
    folders = [os.path.normpath(PurePath(base, target))]
    cdpath = known.get("CDPATH", environ.get("CDPATH"))
    searched = not PurePath(target).is_absolute() and not target.startswith(".")
    if searched and "CDPATH" in known and (cdpath is None or "$" in cdpath):
        return None
    if cdpath and searched:
        for entry in cdpath.split(":"):
            if entry:
                folders.append(os.path.normpath(PurePath(base, _tilde(entry, environ), target)))
    return folders


def _add(
    found: ShellPaths,
    piece: str,
    bases: list[str],
    known: Mapping[str, str | None],
    environ: Mapping[str, str],
    *,
    lost: bool = False,
) -> None:
    """Add what one word (or part of one) names, after every expansion the shell makes;
    ``lost``: the shell may be in a folder this cannot know (relative words go to
    ``unanchored`` too). A path through the shell's own process links (``/proc/self/cwd``,
    ``/proc/$$/fd/3``, ``/dev/fd/3``) is judged where the shell will be, not where this
    process is: ``…/cwd/rest`` as the relative word ``rest``; a folder opened on a descriptor
    cannot be known here, so ``rest`` after one is ``unanchored``."""
    _add_process_link(found, piece, bases, known, environ, lost=lost)
    braced = _braces(piece)
    if braced is None:  # a brace expression too large to expand: judged by what precedes it
        _undecided(found, piece, piece.find("{"), bases, environ)
        return
    for word in braced:
        expanded = _expand(word, known, environ)
        if expanded is None:
            _undecided(found, word, _first_expansion(word), bases, environ)
            if word.count("${") > _OPERATOR_CAP:  # not a command anyone types: refused
                found.undecided.append("/")
                continue
            for alternative in _operator_alternatives(word, known, environ):
                _add(found, alternative, bases, known, environ, lost=lost)
            if (folder := _pattern_folder(word, known, environ)) is not None:
                found.derived.append(folder)
            continue
        path = _tilde(expanded, environ)
        if path != piece:  # a link spelt by a variable or a brace (``D=self/cwd; /proc/$D``)
            _add_process_link(found, path, bases, known, environ, lost=lost)
        if lost and not PurePath(path).is_absolute():
            found.unanchored.append(path)
        for base in [""] if PurePath(path).is_absolute() else bases:
            anchored = f"{base}/{path}" if base else path
            if re.search(_GLOB_CHARS, path):  # expanded against the filesystem, as the shell does
                found.paths.extend(_glob(anchored, found))
            else:
                found.paths.append(anchored)
                found.paths.extend(followed(anchored, found.links)[0] if found.links else [])


def _add_process_link(
    found: ShellPaths,
    path: str,
    bases: list[str],
    known: Mapping[str, str | None],
    environ: Mapping[str, str],
    *,
    lost: bool,
) -> None:
    """Add what follows a process link ``path`` passes through (:func:`_process_link`), as
    the shell reaches it: after a working directory, the rest as a relative word (``.`` when
    none); after a descriptor, the rest as ``unanchored`` (a folder opened on it cannot be
    known here). Nothing when ``path`` passes through none (P-3)."""
    link = _process_link(path) if _may_be_process_link(path) else None
    if link is not None:
        cwd, rest = link
        if cwd:
            _add(found, rest or ".", bases, known, environ, lost=lost)
        elif rest:
            found.unanchored.append(rest)


_LITERAL_NAME = frozenset("$`*?[{~\\'\"")
"""Characters a path component known only at run time holds (an expansion, a
glob, a quote)."""


def _process_link(piece: str) -> tuple[bool, str] | None:
    """The process link the absolute ``piece`` passes through, read component by component
    as the kernel walks it, and what follows it: ``(True, rest)`` for a working directory
    (``/proc/<pid>/cwd``, a task's), ``(False, rest)`` for a descriptor (``/proc/<pid>/fd/N``,
    ``/dev/fd/N``, ``/dev/stdin``); None when it passes through none. ``.`` and empty
    components are dropped; ``..`` goes up lexically in the folders of ``/``, ``/proc`` and
    ``/dev`` (``/dev/fd`` is ``/proc/self/fd``, ``/proc/thread-self`` a task of ``self``);
    ``/proc/<pid>/root`` is ``/``; any other folder is left as the kernel leaves it, through
    its links (:func:`os.path.realpath`; one known only at run time: None). Resolved by the
    guard a process link would name the guard's own folders, not the shell's (P-3):
    ``/./proc/self/cwd/../x``, ``/proc/self/root/proc/self/cwd/../x`` are ``../x`` from the
    shell's folder."""
    parts, walked = piece.split("/"), list[str]()
    for at in range(1, len(parts)):
        part = parts[at]
        if part in ("", "."):
            continue
        if part == ".." and walked and walked[0] not in ("proc", "dev"):
            if any(_LITERAL_NAME.intersection(name) for name in walked):
                return None
            walked = os.path.realpath("/" + "/".join(walked)).split("/")[1:]
        walked = walked[:-1] if part == ".." else [*walked, part]
        walked = _process_folder(walked)
        kind = _process_link_kind(walked)
        if kind is not None:
            return kind, "/".join(parts[at + 1 :]).lstrip("/")
    return None


def _process_folder(walked: list[str]) -> list[str]:
    """The walked components ``walked`` as the kernel's links in ``/proc`` and ``/dev`` leave
    them: ``/proc/<pid>/root`` (a task's too) is ``/``, ``/dev/fd`` is ``/proc/self/fd``,
    ``/proc/thread-self`` is ``/proc/self/task/self``."""
    if walked == ["dev", "fd"]:
        return ["proc", "self", "fd"]
    if walked == ["proc", "thread-self"]:
        return ["proc", "self", "task", "self"]
    if walked[:1] == ["proc"] and walked[-1:] == ["root"] and len(walked) in (3, 5):
        return [] if len(walked) == 3 or walked[2] == "task" else walked
    return walked


def _process_link_kind(walked: list[str]) -> bool | None:
    """Whether the walked components ``walked`` name a process's working directory (True),
    one of its descriptors (False) or neither (None)."""
    if walked[:1] == ["dev"]:
        return False if walked[1:] in (["stdin"], ["stdout"], ["stderr"]) else None
    task = walked[2:3] == ["task"]
    own = walked[4:] if task else walked[2:]
    if walked[:1] != ["proc"] or (task and len(walked) < 5):
        return None
    if own == ["cwd"]:
        return True
    return False if len(own) == 2 and own[0] == "fd" else None


def _may_be_process_link(piece: str) -> bool:
    """Whether ``piece`` holds what each path :func:`_process_link` finds holds (a leading
    ``/`` and ``proc/`` or ``dev/``): it is walked only then (H-5)."""
    return piece.startswith("/") and ("proc/" in piece or "dev/" in piece)


_DEFAULT_OPERATOR_RE = r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*):?[-=+?](?P<word>[^}]*)\}"
"""``${NAME:-word}``, ``${NAME-word}``, ``${NAME:=word}``, ``${NAME:+word}`` …: the word or
the variable's value, whichever the shell picks at run time."""
_PATTERN_OPERATOR_RE = r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:[/#%^,:@][^}]*)\}"
# (a default operator is matched first: ``:-`` is a default, ``:1:2`` a pattern)
"""``${NAME/pattern/text}``, ``${NAME%suffix}``, ``${NAME:1:3}`` …: text made from the
variable's value at run time."""


def _operator_alternatives(
    word: str, known: Mapping[str, str | None], environ: Mapping[str, str]
) -> list[str]:
    """The words ``word`` may become when its first ``${…}`` holds an operator: for a default
    (``${NAME:-word}`` and its kin) the operator's own word and, when known, the variable's
    value; for a pattern (``${NAME%/}``, ``${NAME/a/b}``) the variable's known value, each put
    in the expansion's place. A literal path in a default, or after a pattern on a known
    path, is judged, never passed as 'nothing literal to anchor it'. Empty when none applies."""
    first = _first_expansion(word)
    found = re.compile(_DEFAULT_OPERATOR_RE).match(word, first) or re.compile(
        _PATTERN_OPERATOR_RE
    ).match(word, first)
    if found is None:
        return []
    head, tail = word[: found.start()], word[found.end() :]
    alternatives = [head + found.group("word") + tail] if "word" in found.groupdict() else []
    value = known.get(found.group("name"), environ.get(found.group("name")))
    if value and "$" not in value:  # a value is not expanded again
        alternatives.append(head + value + tail)
    return alternatives


def _pattern_folder(
    word: str, known: Mapping[str, str | None], environ: Mapping[str, str]
) -> str | None:
    """The folder a pattern expansion at the start of ``word`` may name anything in: the
    folder holding the variable's known absolute value (``X=/m/own; ${X/own/other}``: ``/m``);
    None when ``word`` starts with no such expansion."""
    found = re.match(_PATTERN_OPERATOR_RE, word)
    if found is None or re.match(_DEFAULT_OPERATOR_RE, word):
        return None
    value = known.get(found.group("name"), environ.get(found.group("name")))
    if not value or "$" in value or not value.startswith("/"):
        return None
    return str(PurePath(os.path.normpath(value)).parent)


GLOB_SCAN_CAP = 100_000
"""The most folder entries the globs of one command may read (P-3). A pattern is expanded
against the filesystem as the shell will (``/*/*/*/*`` reads every folder four deep); each
entry costs a microsecond or so, so the cap keeps a scan well within the hook's time limit,
and a command whose globs read more is refused, saying why. Counted, never timed: the same
command gets the same answer on every machine."""


class _ScanBudget:
    """How many folder entries the globs of one command may still read
    (:data:`GLOB_SCAN_CAP`), and the glob options bash may have on as it reads them
    (:func:`_glob_options`)."""

    __slots__ = ("left", "options")

    def __init__(self) -> None:
        self.left = GLOB_SCAN_CAP
        self.options: frozenset[str] = frozenset()


_GLOB_OPTIONS = ("dotglob", "extglob", "globstar", "nocaseglob", "nullglob")
"""The shell options that change what a glob matches: names starting with ``.`` (``dotglob``),
``@(…)``/``+(…)``/``!(…)`` patterns, ``**`` through every folder below (``globstar``), either
letter case, and a word matching nothing removed (``nullglob``)."""


def _glob_options(
    command: str, environ: Mapping[str, str], *, decode: bool = True
) -> frozenset[str]:
    """The glob options (:data:`_GLOB_OPTIONS`) bash may have on running ``command`` with
    ``environ``: each one an inherited ``BASHOPTS`` lists (bash turns them on as it starts,
    before any startup file: measured, bash 5.2 as root too) and each one the command's text
    names as bash reads it, its quotes and escapes removed and ``$'…'`` decoded (``shopt -s
    dot''glob``, ``"nocase"glob``, ``glob\\star``, ``bash -O dotglob -c …``: maybe on where
    the word is read, so read as on). A ``shopt`` or ``BASHOPTS`` beside a word built at run
    time (``shopt -s $o``) may turn on any of them: all read as on. A ``GLOBIGNORE`` the
    command assigns turns ``dotglob`` on and removes names its patterns match, unknown here
    (``_GLOBIGNORE``: any glob may then match nothing). An exported ``BASHOPTS=nocaseglob``
    made ``tee L[N]K/MEMORY.md`` write through a link ``lNk`` the guard's case-exact glob never
    matched, and ``shopt -s dot''glob`` a ``*`` reach ``.lnk`` (P-3). ``decode`` False (a
    startup file's text, perhaps a long library): its ANSI-C quoting is decoded only where
    it names ``shopt`` or ``BASHOPTS`` (a prompt library's ``)$'`` decoded whole cost 12
    Python lines a byte)."""
    inherited = environ.get("BASHOPTS", "").split(":")
    plain = plain_text(command)
    if "$'" in command and (decode or "shopt" in plain or "BASHOPTS" in plain):
        plain = plain_text(with_ansi_c_decoded(command))  # ``$'\\x6eocaseglob'``
    named = frozenset(name for name in _GLOB_OPTIONS if name in inherited or name in plain)
    if ("shopt" in plain or "BASHOPTS" in plain) and ("$" in plain or "`" in plain):
        named = frozenset(_GLOB_OPTIONS)  # ``shopt -s $o``: any of them
    if "GLOBIGNORE" in plain:
        named |= {"dotglob", _GLOBIGNORE}
    if "globskipdots" in plain:  # ``shopt -u globskipdots``: ``.?`` may match ``..``
        named |= {_KEEP_DOTS}
    return named


def _startup_glob_options(startup: StartupTexts | None) -> frozenset[str]:
    """The glob options the startup files run around a command may turn on
    (:func:`_glob_options` of their texts: ``shopt -s globstar`` in ``~/.bashrc`` under
    ``bash -ic``, ``~/.profile`` under Codex CLI's ``bash -lc``, a ``BASH_ENV`` file: each
    file the guard reads; not one it could not read, a None text). They run before the
    command's first line, so an ``extglob`` they turn on reads its groups too (P-3)."""
    if startup is None:
        return frozenset()
    return _glob_options("\n".join(text for text in startup.texts if text), {}, decode=False)


_KEEP_DOTS = "no globskipdots"
"""The mark in a command's glob options (:func:`_glob_options`) of a ``globskipdots`` it may
turn off: a pattern starting with ``.`` may then match ``.`` and ``..``."""

_GLOBIGNORE = "GLOBIGNORE"
"""The mark in a command's glob options (:func:`_glob_options`) of a ``GLOBIGNORE`` it sets:
its patterns are not read, so any glob may lose every name it matches here."""

_EXTGLOB_OPENER_RE = r"[?*+@!]\("
"""The opening of an ``extglob`` group: ``?(``, ``*(``, ``+(``, ``@(``, ``!(``."""


def extglob_groups(text: str) -> list[str]:
    """Each ``extglob`` group opening in ``text`` (``@(``, ``+(`` …: :data:`_EXTGLOB_OPENER_RE`)
    with up to 20 characters after it, wherever it stands but in single quotes of a plain
    line (:func:`_literal_text_blanked`), where bash reads it as text (``python3 -c
    'print(2*(3+4))'``); in double quotes and comments too (a superset, failing closed). The
    guard does not read what such a group matches, nor where it ends: the lexer splits
    ``+(x)`` at its ``(``, and the words and commands inside it (``z@("$(…)")``, ``@(<(…))``)
    are bash's to read. Linear in ``text`` (H-5)."""
    if "(" not in text:
        return []
    unquoted = _literal_text_blanked(text)
    return [text[m.start() : m.end() + 20] for m in re.finditer(_EXTGLOB_OPENER_RE, unquoted)]


_QUOTING_SUBTLE = ("\n", "#", "\\", "<<", "`", "$(", "${", "$'", '$"', "$$")
"""Marks of a text whose quotes the simple reading of :func:`_literal_text_blanked` may get
wrong: a quote spanning lines, one in a comment or a here-document's body (no quote to bash),
an escape, quotes nested in ``$(…)``, backquotes or ``${…}``, ANSI-C or locale quoting."""


def _literal_text_blanked(text: str) -> str:
    """``text`` with its single-quoted parts blanked, each character a space (so indexes
    stay), where bash's quoting of it is plain: one line holding none of
    :data:`_QUOTING_SUBTLE`, so each ``'`` outside double quotes opens or closes a quote of
    literal text, as it does for bash. Any other text is returned as it is (every opener in it
    counts: fail closed). A reading of quotes across lines, comments, ``\\$'`` and ``"${x:-'"'}"``
    hid a live opener from the guard (review lead65, P-3). Linear."""
    if any(mark in text for mark in _QUOTING_SUBTLE):
        return text
    out = list(text)
    quote, start = "", 0
    for at, char in enumerate(text):
        if not quote and char in "'\"":
            quote, start = char, at
        elif char == quote:
            if quote == "'":
                out[start : at + 1] = " " * (at + 1 - start)
            quote = ""
    return "".join(out)


class _OverScan(Exception):
    """A glob read past :data:`GLOB_SCAN_CAP` entries."""


def _glob(pattern: str, found: ShellPaths) -> list[str]:
    """What the shell makes of a word with a pattern: its matches, and the word itself; and,
    for a file that does not exist yet, its folder's matches (``cp f /m/mem?ry/x/`` and
    ``echo > /m/mem?ry/x/new.md`` alike reach the folders the pattern names). The word itself
    is kept whatever matches, since its pattern characters may have been quoted or escaped
    (``'[s]afe/a.md'``, ``\\[s]afe``): then bash takes it literally, matches or not (a symlink
    ``[s]afe`` into another scope beside a folder ``safe``). Past the command's scan budget
    (:data:`GLOB_SCAN_CAP`) ``found.over_scan`` is set (the guard refuses the command)."""
    head, _, tail = pattern.rpartition("/")
    try:
        matches = _scan(pattern, found.budget)
        if re.search(_GLOB_CHARS, head):
            matches += [f"{folder}/{tail}" for folder in _scan(head, found.budget)]
    except _OverScan:
        found.over_scan = True
        matches = []
    return [*matches, pattern] if pattern not in matches else matches


def _scan(pattern: str, budget: _ScanBudget) -> list[str]:
    """The existing paths ``pattern`` matches, as :func:`glob.glob` finds them (a name
    starting with ``.`` only for a part starting with ``.``; a trailing ``/`` keeps folders),
    each folder entry read counted against ``budget``: :class:`_OverScan` past it. A folder
    that cannot be read matches nothing, as for the shell; one whose absolute path is past
    ``PATH_MAX`` keeps the part as spelt, judged as a name that cannot be known."""
    folders = ["/" if pattern.startswith("/") else ""]
    parts = [part for part in pattern.split("/") if part]
    for index, part in enumerate(parts):
        inner = index < len(parts) - 1
        folders_only = inner or pattern.endswith("/")
        if part == "**" and "globstar" in budget.options:
            folders = [below for f in folders for below in _globstar(f, budget, inner=inner)]
            continue
        if not re.search(_GLOB_CHARS, part):
            folders = [folder + part + ("/" if inner else "") for folder in folders]
            continue
        matched: list[str] = []
        for folder in folders:
            try:
                for entry in _counted_entries(folder, budget):
                    name = entry.name
                    if not _glob_matches(name, part, budget.options):
                        continue
                    if folders_only and not _is_folder(entry):
                        continue
                    matched.append(folder + name + ("/" if inner else ""))
            except OSError as error:  # unreadable: matches nothing, as for the shell
                if error.errno == errno.ENAMETOOLONG:
                    # past PATH_MAX from "/", which bash lists from its cwd: the part as
                    # spelt, so real_path meets the name it cannot look at (UnseenName)
                    matched.append(folder + part + ("/" if inner else ""))
            except (UnicodeEncodeError, ValueError):  # NUL, a surrogate
                continue
            matched += _dot_names(folder, part, budget.options, inner=inner)
        folders = matched
    found = [path for path in folders if _exists(path)]
    return [path + "/" for path in found] if pattern.endswith("/") else found


def _dot_names(folder: str, part: str, options: frozenset[str], *, inner: bool) -> list[str]:
    """``.`` and ``..`` in ``folder`` where the glob ``part`` may match them: bash skips them
    (``globskipdots``, on by default since bash 5.2) unless the command turns it off
    (:data:`_KEEP_DOTS`): then ``.?/notes/`` is ``../notes/`` (P-3)."""
    if _KEEP_DOTS not in options or not part.startswith("."):
        return []
    dots = [name for name in (".", "..") if bash_match(name, part) is not False]
    return [folder + name + ("/" if inner else "") for name in dots]


def _glob_matches(name: str, part: str, options: frozenset[str]) -> bool:
    """Whether bash with the glob ``options`` (:func:`_glob_options`) may match the folder
    entry ``name`` by the pattern ``part``: a name starting with ``.`` only for a part
    starting with ``.`` unless ``dotglob``; either letter case under ``nocaseglob`` (an
    ``extglob`` group is never matched: the command holding one is refused,
    :func:`extglob_groups`), a bracket expression as bash reads it (``[^x]``, ``[[:alpha:]]``:
    :func:`~harness_memory.hooks.glob_match.bash_match`; one it does not read matches)."""
    if name.startswith(".") and not part.startswith(".") and "dotglob" not in options:
        return False
    matched = bash_match(name, part, nocase="nocaseglob" in options)
    return matched is None or matched  # unread (``[[=n=]]``): may match, each name judged


def _globstar(folder: str, budget: _ScanBudget, *, inner: bool) -> list[str]:
    """What ``**`` matches in ``folder`` under ``globstar``: ``folder`` itself and every
    folder below it (``inner``, each with its ``/``), or every entry below it, as bash walks
    them: into no link, but a link to a folder is itself matched (``cp x **/`` copies
    through ``sub/deep/lnk/``: measured, bash 5.2), and a name starting with ``.`` only
    under ``dotglob``. Each entry read counts against ``budget`` (:class:`_OverScan`)."""
    found = [folder] if inner else []
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            listed = _counted_entries(current, budget)
        except (OSError, UnicodeEncodeError, ValueError):  # unreadable: nothing below it
            continue
        for entry in listed:
            if entry.name.startswith(".") and "dotglob" not in budget.options:
                continue
            path = current + entry.name
            if _is_folder(entry):
                found.append(path + "/" if inner else path)
                if not entry.is_symlink():
                    pending.append(path + "/")
            elif not inner:
                found.append(path)
    return found


def _counted_entries(folder: str, budget: _ScanBudget) -> list[os.DirEntry[str]]:
    """The entries of ``folder`` (``""``: the shell's own), each counted against ``budget``:
    :class:`_OverScan` past it; ``OSError`` (and ``ValueError`` for a NUL) as
    :func:`os.scandir` raises it."""
    listed: list[os.DirEntry[str]] = []
    with os.scandir(folder or ".") as entries:
        for entry in entries:
            budget.left -= 1
            if budget.left < 0:
                raise _OverScan
            listed.append(entry)
    return listed


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether a folder entry is (or leads to) a folder, or may be: True too when the look
    fails but not with ``ENOENT``/``ENOTDIR`` (a symlink whose absolute path is past
    ``PATH_MAX``: bash follows it from the folder it stands in), so the match is judged."""
    try:
        return entry.is_dir()
    except OSError as error:
        return error.errno not in _MISSING_ERRNOS


def _may_be_folder(path: Path) -> bool:
    """Whether ``path`` is a folder (a copy lands in it by each source's name) or may be one:
    True too when the look fails but not with ``ENOENT``/``ENOTDIR`` (``ENAMETOOLONG`` past
    ``PATH_MAX``), so the names a copy makes in it are judged (and refused when where they lead
    cannot be known, P-3), not the guard failing on the look. A symlink loop answers False
    (:meth:`Path.is_dir` swallows ``ELOOP``), where :func:`_is_folder` answers True: the copy
    then names the loop itself, which bash fails on too."""
    try:
        return path.is_dir()
    except OSError as error:
        return error.errno not in _MISSING_ERRNOS


def _exists(path: str) -> bool:
    """Whether ``path`` names something (a dangling symlink too), as :func:`glob.glob` asks;
    True too when the look fails but not with ``ENOENT``/``ENOTDIR`` (``ENAMETOOLONG``: the
    absolute path is past ``PATH_MAX``, where bash matches from the folder it stands in). Such
    a match is kept and judged by what it names (``real_path`` refuses one it cannot see, P-3);
    dropping it left the pattern's own text, missing, folded by its spelling."""
    try:
        os.lstat(path.rstrip("/") or "/")
    except OSError as error:
        return error.errno not in _MISSING_ERRNOS
    except (UnicodeEncodeError, ValueError):
        return False
    return True


_MISSING_ERRNOS = frozenset({errno.ENOENT, errno.ENOTDIR})
"""The answers of a look-up that say a path names nothing; any other is no answer."""


def _undecided(
    found: ShellPaths, word: str, cut: int, bases: list[str], environ: Mapping[str, str]
) -> None:
    """Note the literal text of ``word`` before ``cut``, anchored, as an undecided path; a word
    with nothing literal before it is noted as ``built`` (its rest may name a scope)."""
    prefix = _tilde(word[:cut], environ) if cut > 0 else ""
    if not prefix:
        found.built.append(word)  # nothing literal to anchor it: judged by what it names
        return
    if PurePath(prefix).is_absolute():
        found.undecided.append(prefix)
    else:
        found.undecided.extend(f"{base}/{prefix}" for base in bases)


def _first_expansion(word: str) -> int:
    """The index of the first ``$`` or backquote in ``word`` (its length when none)."""
    found = [at for at in (word.find("$"), word.find("`")) if at != -1]
    return min(found) if found else len(word)


def _tilde(word: str, environ: Mapping[str, str]) -> str:
    """Tilde expansion at the start of a word as bash makes it: ``~`` and ``~/…`` from
    ``HOME`` (:func:`~harness_memory.hooks.shell_startup.shell_home`), ``~+`` (the working
    directory, left relative), ``~-`` (``OLDPWD``), ``~user``.
    Never raises (an unknown user's word stays as written)."""
    if word == "~" or word.startswith("~/"):  # the password database's home without HOME
        return shell_home(environ) + word[1:]
    if word == "~+" or word.startswith("~+/"):  # the shell's working directory: where it stands
        return "." + word[2:]
    if word == "~-" or word.startswith("~-/"):  # the one before it
        previous = environ.get("OLDPWD")
        return word if previous is None else previous + word[2:]
    if not word.startswith("~"):
        return word
    try:  # ~user: that user's home
        return str(Path(word).expanduser())
    except (RuntimeError, ValueError, UnicodeError):  # unknown here: as written, as bash does
        return word


_TILDES = (("~", "HOME"), ("~-", "OLDPWD"), ("~+", "PWD"))
"""The tildes a word may start with, each with the variable bash takes it from."""


def _split_elsewhere(word: str, known: Mapping[str, str | None], *, split: bool) -> bool:
    """Whether a value in ``word`` (one holding a ``$``) may be split into other words where
    the guard cannot tell: ``IFS`` the command set holds a character other than white space
    (``IFS=:``), or is undecided (``IFS=$(printf :)``, ``for IFS in :``). Bash starts with the
    default ``IFS`` whatever its environment holds (:data:`_IFS`). ``split`` False: a word bash
    never splits (an assignment's value: ``IFS=$old``)."""
    ifs = known.get("IFS", _IFS) if split else _IFS
    return "$" in word and (ifs is None or any(char not in _IFS for char in ifs))


def _expand(
    word: str, known: Mapping[str, str | None], environ: Mapping[str, str], *, split: bool = True
) -> str | None:
    """``word`` with ``$NAME`` and ``${NAME}`` replaced; None when it cannot be decided (a
    variable in it while ``IFS`` may split its value elsewhere: :func:`_split_elsewhere`;
    ``split`` False: a word bash never splits, an assignment's value). A leading ``~`` takes
    the ``HOME`` the command set (undecided: None)."""
    undecided = False
    if "`" in word:
        return None
    for tilde, name in _TILDES:  # ``HOME=…; cp x ~/``, ``read OLDPWD; cp x ~-/``
        if (word == tilde or word.startswith(tilde + "/")) and name in known:
            folder = known[name]
            if folder is None or "$" in folder:
                return None
            word = folder + word[len(tilde) :]
    if _split_elsewhere(word, known, split=split):
        return None

    def value(match: re.Match[str]) -> str:
        nonlocal undecided
        name = match.group("plain") or match.group("braced")
        if not re.match(_NAME_RE, name or ""):
            undecided = True  # ${X:-…}, ${#X}, ${X/…}: an operator
            return ""
        found = known[name] if name in known else _STARTING.get(name, environ.get(name))
        if found is None:
            undecided = True
            return ""
        return found

    kept: list[str] = []
    done = 0
    for match in _variables(word):
        kept += [word[done : match.start()], value(match)]
        done = match.end()
    expanded = "".join(kept) + word[done:]
    if undecided or "$" in expanded:  # $(…), $1, $?, $$, a lone $: left for the shell
        return None
    return expanded


def _variables(word: str) -> Iterator[re.Match[str]]:
    """Each ``$NAME`` and ``${…}`` of ``word`` in order (:data:`_VARIABLE_RE`), in time linear
    in its length: past its last ``}`` no ``${`` is braced, so none is matched to the end of
    ``word`` from each (``${${${…``: quadratic, 100,000 of them read for minutes)."""
    if "$" not in word:  # each match opens with one: no pattern compiled (H-5)
        return
    close = word.rfind("}") + 1
    yield from re.compile(_VARIABLE_RE).finditer(word, 0, close)  # compiled once, when first used
    yield from re.compile(_UNBRACED_VARIABLE_RE).finditer(word, close)


def _braces(word: str, start: int = 0) -> list[str] | None:
    """Bash's brace expansion of ``word`` (``a{b,c}d`` → ``abd``, ``acd``; ``{1..3}``) from
    ``start`` on; ``[word]`` when nothing in it expands (``{}``, ``{x}``, ``awk '{print $1}'``
    stay as written, as bash leaves them); None past :data:`_BRACE_CAP` words."""
    found = _expanding_brace(word, start)
    if found is None:
        return [word]
    open_at, close_at, options = found
    head, tail = word[:open_at], word[close_at + 1 :]
    results: list[str] = []
    for option in options:
        expanded = _braces(head + option + tail, len(head))
        if expanded is None or len(results) + len(expanded) > _BRACE_CAP:
            return None
        results.extend(expanded)
    return results


_SEQUENCE_LENGTH = 64
"""The longest body read as a sequence (``{1..9..2}``); a longer one is text."""


def _expanding_brace(word: str, start: int) -> tuple[int, int, list[str]] | None:
    """The leftmost brace from ``start`` that expands: its opening and closing index and its
    alternatives; None when none does. One pass pairs every brace (a ``${…}`` pairs too, and
    its commas are its own, but it never expands), so a word of many braces costs its
    length, not its length squared."""
    stack: list[int] = []
    commas: dict[int, list[int]] = {}
    best: tuple[int, int, list[str]] | None = None
    for at in range(start, len(word)):
        char = word[at]
        if char == "{":
            stack.append(at)
        elif char == "," and stack:
            commas.setdefault(stack[-1], []).append(at)
        elif char == "}" and stack:
            open_at = stack.pop()
            if (best is not None and open_at > best[0]) or word[open_at - 1 : open_at] == "$":
                continue
            cuts = commas.pop(open_at, [])
            if cuts:
                edges = [open_at, *cuts, at]
                options = [word[edges[i] + 1 : edges[i + 1]] for i in range(len(edges) - 1)]
            else:
                body = word[open_at + 1 : at]
                short = len(body) <= _SEQUENCE_LENGTH and "{" not in body
                options = (_sequence(body) if short else None) or []
            if options:
                best = (open_at, at, options)
    return best


def _sequence(body: str) -> list[str] | None:
    """``{1..3}``, ``{a..c}`` and ``{1..9..2}`` as bash expands them; None for any other body
    (the braces stay as written)."""
    parts = body.split("..")
    if len(parts) in (2, 3):
        step = abs(int(parts[2])) if len(parts) == 3 and parts[2].lstrip("-").isdigit() else 1
        first, last = parts[0], parts[1]
        if first.lstrip("-").isdigit() and last.lstrip("-").isdigit() and step:
            low, high = int(first), int(last)
            numbers = range(low, high + 1, step) if low <= high else range(low, high - 1, -step)
            return [str(n) for n in numbers[: _BRACE_CAP + 1]]  # past the cap: undecided
        if len(first) == 1 and len(last) == 1 and step:
            low, high = ord(first), ord(last)
            codes = range(low, high + 1, step) if low <= high else range(low, high - 1, -step)
            return [chr(c) for c in codes]
    return None
