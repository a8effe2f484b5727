"""Whether the code a program runs comes from a source the guard can read ahead (P-3).

An interpreter runs as code what a command substitution prints into its code operand
(``bash -c "$(…)"``, ``python3 -c "$(…)"``, ``node -e "$(…)"``) or what the stage before a
pipe prints onto its standard input (``… | sh``, ``… | python3``). The guard can judge that
code only when it can read the text ahead: the words a printer prints
(:mod:`~harness_memory.hooks.piped_code`), the files ``cat``, ``head`` or ``tail`` print (judged
as the script they are), or the text a program prints of its own knowledge and never a
command's (:data:`READ_SOURCES`: a folder or a name, a version manager's setup code). Any
other program (a decoder, ``rev``, ``tr``, ``sed``, ``openssl enc -d``, ``gzip -dc``, a
program of the agent's own) prints code the guard cannot read before it runs, which may
write anywhere, another Workspace's memory scope among them: refused, however spelt
(review59b finding 1). The one rule is who prints the code, not how it is encoded.

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
    found: list[str] = []
    depth, start, at = 0, -1, 0
    quoted = False  # inside a backquoted substitution
    while at < len(spelling):
        char = spelling[at]
        if char == "`" and not depth:
            if quoted:
                found.append(spelling[start : at + 1])
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
                found.append(spelling[start : at + 1])
        at += 1
    if depth or quoted:
        found.append(spelling[start:])
    return found


def _arithmetic_end(spelling: str, at: int) -> int:
    """The index past the ``))`` closing the ``$((`` at ``at`` (the word's end if none)."""
    depth, at = 2, at + 3
    while at < len(spelling) and depth:
        depth += (spelling[at] == "(") - (spelling[at] == ")")
        at += 1
    return at


def unread_substitution(spelling: str) -> str | None:
    """The first command substitution bash expands in ``spelling`` (:func:`live_substitutions`)
    that runs a program outside :data:`READ_SOURCES` (``$(echo Y3A… | base64 -d)``, ``$(rev
    <<< …)``, ``$(./gen)``), or one holding another expansion or a here-string (``$("$p")``,
    ``$(cat <<< …)``): code the guard cannot read ahead. None when every one prints read text
    (``$(pwd)``, ``$(cat s.sh)``, ``$(curl -fsSL URL)``, ``$(pyenv init -)``)."""
    for substitution in live_substitutions(spelling):
        if not _reads(substitution):
            return substitution
    return None


def _reads(substitution: str) -> bool:
    """Whether every program ``substitution`` runs is a :data:`READ_SOURCES` one (by its last
    name, after leading assignments), given no text of the command to transform (no
    here-string or here-document, no nested expansion)."""
    body = substitution[2:] if substitution.startswith("$(") else substitution[1:]
    if "$" in body or "`" in body or "<<" in body:
        return False
    programs = list(re.finditer(_PROGRAM_RE, substitution))
    return bool(programs) and all(
        _read_program(match.group("name"), match.group("rest")) for match in programs
    )


def _read_program(name: str, rest: str) -> bool:
    """Whether the program ``name`` run with the words ``rest`` prints read text."""
    said = re.sub(_ASSIGNED_RE, "", f"{name}{rest}".strip()).split()
    if not said:
        return False
    program = posixpath.basename(said[0].strip("'\""))
    if program == "git":
        return len(said) > 1 and said[1] in _GIT_READ
    return program in READ_SOURCES


def stage_unread(words: list[str]) -> bool:
    """Whether the simple command ``words`` (as the lexer leaves them, its assignments and
    runners already dropped) prints text the guard cannot read ahead when a pipe gives it to
    an interpreter as code: any program outside :data:`READ_SOURCES`, or one of them fed a
    here-string built at run time (``cat <<< "$(base64 -d f)"``; a here-document's or a
    literal here-string's text is the command's, read as commands where a shell runs it:
    ``cat <<'EOF' | bash``). No words (a group or subshell before the pipe, ``( … ) | sh``)
    is unread too."""
    if not words:
        return True
    fed = [word for before, word in itertools.pairwise(words) if before == "<<<"]
    if any("$(" in word or "`" in word for word in fed):
        return True
    program = posixpath.basename(words[0])
    if program == "git":
        return len(words) < 2 or words[1] not in _GIT_READ
    return program not in READ_SOURCES
