"""Whether the code a program runs comes from a source the guard can read ahead (P-3).

An interpreter runs as code what a command substitution prints into its code operand (``python3
-c "$(…)"``, ``node -e "$(…)"``: any substitution there; in a shell's ``-c`` code only one
forming a command's name, a value assigned, or a word of ``eval``, a wrapper such as ``sudo``
or another interpreter: ``bash -c "$(…)"``, ``bash -c "x; $(…)"``), or what the stage before a
pipe prints onto its standard input (``… | sh``, ``… | python3``). A substitution in an
argument after a literal command name in shell code (``sh -c "kill $(pgrep -f srv)"``) is data,
judged by the caller as a word or path built at run time. The code is let through when every
program the substitution or stage runs prints text the guard reads or no command's text: its
own words (``echo``, ``printf``: the printed code is judged), the files ``cat``, ``head`` or
``tail`` name (judged as the script they are), or a name, a folder or a setup tool's code
(:data:`READ_SOURCES`; ``git rev-parse``). Any other program (a decoder, ``rev``, ``tr``,
``sed``, ``openssl enc -d``, ``gzip -dc``, a program of the agent's own) prints code the guard
cannot read before it runs, which may write anywhere, another Workspace's memory scope among
them: refused, however spelt (review59b finding 1; review of guard60a). The one rule is who
prints the code, not how it is encoded. A program the command (or its environment) may redefine
(``date(){ cat t; }; date | bash``: a function, an alias, a changed ``PATH``; the caller's
``redefined``) is none of these: it prints what its definition prints.

A downloader's output (``curl -fsSL URL | sh``, ``bash -c "$(curl -fsSL URL)"``, the
installers of Homebrew, rustup, nvm) is fetched code no text of the command holds: it writes
where its author made it write, as any program the guard does not read does (fenced by the
harness's sandbox), so it is let through as before. A downloader's output passed through
another program (``curl … | base64 -d | sh``) is not: that program is the source.

Linear in the text read: one pass over a word to find its substitutions, one regex scan of
each outermost substitution's text.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Callable

__all__ = [
    "CODE_PRINTERS",
    "DOWNLOADERS",
    "READ_SOURCES",
    "live_substitutions",
    "stage_unread",
    "unread_substitution",
]

CODE_PRINTERS = frozenset(
    {"dircolors", "lesspipe", "ssh-agent", "gpg-agent", "keychain", "brew", "pyenv", "rbenv"}
    | {"nodenv", "goenv", "jenv", "plenv", "fzf", "conda", "direnv", "starship", "zoxide"}
    | {"fnm", "mise", "rtx", "asdf", "thefuck", "kubectl", "gh", "npm", "pip", "uv", "rustup"}
    | {"opam", "minikube", "docker-machine", "nix", "nix-shell"}
)
"""Programs printing shell code of their own knowledge (colours, an agent's variables, a version
manager's or package manager's setup, completions), not data an earlier call wrote (``cat
script``): ``eval "$(pyenv init - bash)"``, ``eval "$(dircolors -b)"`` in startup files."""
_SETUP_SUBCOMMANDS = {
    "npm": frozenset({"completion", "prefix", "root", "bin"}),
    "uv": frozenset({"generate-shell-completion"}),
    "pip": frozenset({"completion"}),
    "conda": frozenset({"shell.", "info"}),
    "mise": frozenset({"activate", "completion", "env", "hook-env", "where", "which"}),
    "rtx": frozenset({"activate", "completion", "env", "hook-env", "where", "which"}),
    "direnv": frozenset({"hook", "export", "stdlib"}),
    "asdf": frozenset({"completion", "where", "which"}),
    "kubectl": frozenset({"completion"}),
    "gh": frozenset({"completion"}),
    "nix": frozenset({"print-dev-env"}),
    "nix-shell": frozenset(),
}
"""Of the :data:`CODE_PRINTERS` that may run any command (``npm exec -c …``, ``mise exec``,
``conda run``, ``nix-shell --run``), the subcommands printing setup code or a folder (``direnv
hook bash``, ``mise activate``, ``conda shell.bash hook``; one ending in ``.`` a prefix): any
other prints what a command it runs prints, text the guard cannot read."""
DOWNLOADERS = frozenset({"curl", "wget"})
"""Programs fetching a file over the network (its text is no text of the command)."""
_FILE_PRINTERS = frozenset({"cat", "head", "tail"})
"""Programs printing the text of the files they name: the guard reads those files (the code
they hold is judged as the script it is)."""
_NAME_PRINTERS = frozenset(
    {"pwd", "dirname", "basename", "realpath", "readlink", "which", "date", "nproc", "whoami"}
    | {"hostname", "id", "uname", "mktemp", "tty", "getconf", "locale", "arch", "logname"}
)
"""Programs printing a folder, a name or a number of the system's: text, never a command."""
_WORD_PRINTERS = frozenset({"echo", "printf"})
"""Programs printing their own words, which the guard reads as the code they are (``bash -c
"$(echo ls)"`` runs ``ls``)."""
READ_SOURCES = CODE_PRINTERS | DOWNLOADERS | _FILE_PRINTERS | _NAME_PRINTERS
"""Programs whose output an interpreter may run as code and the guard still judges the call:
what it prints is read (a file), of the program's own knowledge, or fetched (see above)."""
_GIT_READ = frozenset({"rev-parse", "describe", "symbolic-ref"})
"""``git`` subcommands printing a name or a folder (``git rev-parse --show-toplevel``);
another (``git show HEAD:s.sh``) prints a file's text the guard does not read."""
_PROGRAM_RE = r"(?:\$\(|`|\|\||&&|;|\||\n)\s*(?P<name>[^\s()`;|&<>]+)(?P<rest>[^()`;|&<>\n]*)"
"""A program a command substitution runs: after its opening, or after ``||``, ``&&``, ``;``,
``|`` or a line's end inside it; with the rest of its words."""
_ASSIGNED_RE = r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*"
"""Assignments before a program's name (``LC_ALL=C date``)."""


def live_substitutions(spelling: str) -> list[str]:
    """The outermost command substitutions bash expands in ``spelling`` (a word as bash
    spells it, each ``$`` and backquote it leaves as written already spelt as another
    character), each from its ``$(`` or backquote to its close (to the word's end when
    unclosed): ``cd $(pwd) && $(x | y)`` -> ``["$(pwd)", "$(x | y)"]``. ``$((…))`` (arithmetic)
    is none. One pass."""
    return [spelling[start:end] for start, end in _substitution_spans(spelling)]


def _substitution_spans(spelling: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets in ``spelling`` of :func:`live_substitutions`. One pass."""
    found: list[tuple[int, int]] = []
    depth, start, at = 0, -1, 0
    quoted = False  # inside a backquoted substitution
    while at < len(spelling):
        char = spelling[at]
        if char == "`" and not depth:
            if quoted:
                found.append((start, at + 1))
            quoted, start = not quoted, at
        elif quoted:
            pass
        elif spelling.startswith("$((", at) and not depth:
            at = _arithmetic_end(spelling, at)
            continue
        elif spelling.startswith("$(", at):
            start = at if not depth else start
            depth += 1
            at += 2
            continue
        elif char == "(" and depth:
            depth += 1
        elif char == ")" and depth:
            depth -= 1
            if not depth:
                found.append((start, at + 1))
        at += 1
    if depth or quoted:
        found.append((start, len(spelling)))
    return found


def _arithmetic_end(spelling: str, at: int) -> int:
    """The index past the ``))`` closing the ``$((`` at ``at`` (the word's end if none)."""
    depth, at = 2, at + 3
    while at < len(spelling) and depth:
        depth += (spelling[at] == "(") - (spelling[at] == ")")
        at += 1
    return at


def unread_substitution(
    spelling: str, redefined: Callable[[str], bool], *, in_shell: bool = False
) -> str | None:
    """The first command substitution bash expands in ``spelling`` (:func:`live_substitutions`)
    that the interpreter runs as code and that runs a program printing text the guard cannot
    read ahead (``$(echo Y3A… | base64 -d)``, ``$(rev <<< …)``, ``$(./gen)``), or one holding
    another expansion or a here-string (``$("$p")``, ``$(cat <<< …)``). None when every such
    one prints read text (``$(pwd)``, ``$(cat s.sh)``, ``$(curl -fsSL URL)``, ``$(pyenv init
    -)``, ``$(echo ls)``: words the guard reads).

    ``spelling`` is an interpreter's code operand; with ``in_shell`` a shell's (``bash -c``), where
    only a substitution forming a command's name, a value assigned or a word ``eval`` or
    another shell or interpreter runs is code (:func:`_runs_as_code`: ``bash -c "$(x)"``,
    ``bash -c "true; $(x)"``); one in an argument after a literal command name is data, the
    path or word the guard judges as built at run time (``sh -c "kill $(pgrep -f srv)"``,
    ``bash -c "cd $(go env GOPATH) && ls"``). Without ``in_shell`` (``python3 -c``, ``node -e``)
    every substitution is code. ``redefined``: whether the command may make a program's name
    run something else (:meth:`~harness_memory.hooks.definitions.Definitions.redefines`)."""
    for start, end in _substitution_spans(spelling):
        substitution = spelling[start:end]
        if in_shell and not _runs_as_code(spelling[:start]):
            continue
        if not _reads(substitution, redefined):
            return substitution
    return None


_SEPARATOR_RE = r"(?:\|\||&&|[;|&\n(){}`])"
"""What ends a command inside a shell's code: the next word starts a command."""
_KEYWORDS = frozenset({"if", "then", "else", "elif", "while", "until", "do", "!", "time"})
"""Words after which the next word is a command's name."""
_WRAPPERS = frozenset({"sudo", "doas", "env", "exec", "command", "nohup", "nice", "timeout"})
_WRAPPERS_MORE = frozenset({"xargs", "watch", "stdbuf", "setsid", "chronic", "flock", "ionice"})
"""Programs running their first operand as a command (their options and a duration skipped)."""
_CODE_RUNNERS = frozenset({"eval", "bash", "sh", "dash", "zsh", "ksh", "busybox", "python"})
_CODE_RUNNERS_MORE = frozenset({"python3", "node", "perl", "ruby", "php", "deno", "bun", "su"})
"""Programs any of whose words may be run as code (``eval $(x)``, ``bash -c $(x)``)."""


def _runs_as_code(before: str) -> bool:
    """Whether a substitution after ``before`` (a shell's code up to it) is run as code: in
    a command's name (after leading assignments and a wrapper's options), a value assigned
    (``c=$(x); $c``), or any word of a command running its words as code
    (:data:`_CODE_RUNNERS`). A word after a literal name is data."""
    tail = re.split(_SEPARATOR_RE, re.sub(r"\$\([^()]*\)|`[^`]*`", "X", before))[-1]
    words = [word.strip("\"'") for word in f"{tail}X".split()]
    words = [word for word in words if word]
    for at, word in enumerate(words):
        if at == len(words) - 1 or re.match(r"^[A-Za-z_][A-Za-z0-9_]*\+?=", word):
            return True  # the name itself, or a value assigned
        name = posixpath.basename(word)
        if name in _CODE_RUNNERS or name in _CODE_RUNNERS_MORE:
            return True
        if name in _KEYWORDS or name in _WRAPPERS or name in _WRAPPERS_MORE:
            continue
        if word.startswith("-") or re.match(r"^[0-9.]+[smhd]?$", word):
            continue  # a wrapper's option or duration
        return False
    return True


def _reads(substitution: str, redefined: Callable[[str], bool]) -> bool:
    """Whether every program ``substitution`` runs is a :data:`READ_SOURCES` one (by its last
    name, after leading assignments), given no text of the command to transform (no
    here-string or here-document, no nested expansion)."""
    body = substitution[2:] if substitution.startswith("$(") else substitution[1:]
    if "$" in body or "`" in body or "<<" in body:
        return False
    programs = list(re.finditer(_PROGRAM_RE, substitution))
    return bool(programs) and all(
        _read_program(match.group("name"), match.group("rest"), redefined) for match in programs
    )


def _read_program(name: str, rest: str, redefined: Callable[[str], bool]) -> bool:
    """Whether the program ``name`` run with the words ``rest`` prints read text (never one
    the command may have ``redefined``)."""
    said = re.sub(_ASSIGNED_RE, "", f"{name}{rest}".strip()).split()
    if not said:
        return False
    program = posixpath.basename(said[0].strip("'\""))
    if redefined(program):
        return False
    return program in _WORD_PRINTERS or _prints_read_text(program, said[1:])


def _prints_read_text(program: str, words: list[str]) -> bool:
    """Whether ``program`` (a name) run with ``words`` prints text the guard reads or no
    command's text: a :data:`READ_SOURCES` program, save ``cat``, ``head`` or ``tail`` naming
    no file (they print their standard input: ``… | bash -c "$(cat)"``), a downloader given no
    ``http(s)`` URL or given a config (``curl file://…``, ``curl -K c``: a local file's text)
    and ``git`` outside :data:`_GIT_READ`."""
    if program == "git":
        return bool(words) and words[0] in _GIT_READ
    if program in _FILE_PRINTERS:
        return any(not word.startswith("-") for word in words)
    if program in DOWNLOADERS:
        urls = [word.strip("'\"") for word in words if "://" in word]
        return (
            bool(urls)
            and all(re.match(r"^https?://", url) for url in urls)
            and not any(_prints_besides_download(program, word) for word in words)
        )
    if program in _SETUP_SUBCOMMANDS:
        named = next((word for word in words if not word.startswith("-")), "")
        return any(
            named == each or (each.endswith(".") and named.startswith(each))
            for each in _SETUP_SUBCOMMANDS[program]
        )
    return program in READ_SOURCES


_BESIDES_DOWNLOAD: dict[str, tuple[str, tuple[str, ...], str]] = {
    "curl": (
        "wKD",
        (
            *("--write-out", "--config", "--dump-header", "--trace", "--trace-ascii"),
            *("--stderr", "--libcurl"),
        ),
        "AbcCdeEFHmoPQrtTuUxXyYz",
    ),
    "wget": (
        "iKeoa",
        ("--input-file", "--config", "--execute", "--output-file", "--append-output"),
        "ABDINOPQTUtwYlQ",
    ),
}
"""By downloader: its short options (letters) and long ones whose value may print a local
file, its input or its own report into its output, besides what it downloads (curl's ``-w
@file``/``@-``, ``-K`` a config setting any of these, ``--trace -``, ``-D -``; wget's ``-i``
list and ``-e`` commands, ``-o -`` its log), then the letters taking a value (the rest of a
cluster is that value: ``-sw@w.txt``). Long names are matched as the programs do, by any
prefix of them (curl 7.88 takes ``--write-o``)."""


def _prints_besides_download(program: str, word: str) -> bool:
    """Whether ``word``, one word a downloader ``program`` is given, is an option
    (:data:`_BESIDES_DOWNLOAD`) making it print something else than the file it fetches
    into a pipe: a local file, its input, a trace (``curl URL -w @w.txt | sh`` runs
    ``w.txt``, even when the download fails) (P-3)."""
    letters, names, valued = _BESIDES_DOWNLOAD[program]
    word = word.strip("'\"")
    if word.startswith("--"):
        given = word.split("=", 1)[0]
        return len(given) > 2 and any(name.startswith(given) for name in names)
    if not word.startswith("-"):
        return False
    for letter in word[1:]:
        if letter in letters:
            return True
        if letter in valued:
            return False
    return False


def stage_unread(words: list[str], redefined: Callable[[str], bool]) -> bool:
    """Whether the simple command ``words`` (as the lexer leaves them, its assignments and
    runners already dropped) prints text the guard cannot read ahead when a pipe gives it to
    an interpreter as code: any program outside :data:`READ_SOURCES`, or one of them fed a
    here-string built at run time (``cat <<< "$(base64 -d f)"``; a here-document's or a
    literal here-string's text is the command's, read as commands where a shell runs it:
    ``cat <<'EOF' | bash``). No words (a group or subshell before the pipe, ``( … ) | sh``)
    is unread too, and so is a program the command may have ``redefined``."""
    if not words or redefined(posixpath.basename(words[0])):
        return True
    fed = [word for before, word in itertools.pairwise(words) if before == "<<<"]
    if any("$(" in word or "`" in word for word in fed):
        return True
    return not _prints_read_text(posixpath.basename(words[0]), words[1:])
