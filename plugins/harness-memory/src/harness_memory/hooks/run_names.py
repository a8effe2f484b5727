"""The names a command may run as programs, for the startup ``PATH`` lookup (P-3).

A ``PATH`` folder a startup file puts first may hold a program of a name the command uses
(``~/bin/cp``, ``~/.local/bin/pytest``): the guard then reads the command as if that name
were a function running the program by its path
(:func:`~harness_memory.hooks.startup_definitions.startup_definitions_text`). Every word of
the command counted, so a word that only names data (``echo cp > own/a.md``, ``git commit
-m "fix cp"``, the module of ``python3 -m pytest``) made the guard judge a program the
command never runs, and refuse it (overref58). :func:`names_run` reads which words may run:
every word of every simple command but the data words of a few programs that never run
them, failing closed. ``xargs``, ``find -exec``, ``env``, an ``alias`` line, ``bash -c``,
``eval``, an unknown program: each of their words counts (``echo note.md | xargs -I{} cp {}
…`` runs ``~/bin/cp``), and so does a word of a code text (``python3 -c
"os.system('cp …')"``). Data words are only:

- every word of ``echo`` and ``printf`` (they print it) and of a few readers (``grep``,
  ``cat``, ``ls``), unless their output may be read as code or as a name: the command holds
  a pipe into a program that may run it (``echo cp x y | bash``; not ``| grep``), a
  command substitution (``$(echo cp) x y``), a coprocess, or a write to a file beside a
  program that may run what it reads (``echo cp x y > f; xargs env < f``);
- the message after ``git commit``'s ``-m``/``--message`` (``-am``);
- the module of ``python3 -m`` and, for modules that run no program named in their words
  (:data:`_QUIET_MODULES`: ``pip``, ``pytest`` …), the words after it.

Pure text work, linear in the command's length (H-5).
"""

from __future__ import annotations

import re
from collections import Counter

from harness_memory.hooks.bash_quoting import bash_quoting
from harness_memory.hooks.here_data import here_data
from harness_memory.hooks.option_words import PYTHON_RE
from harness_memory.hooks.run_texts import commands_run
from harness_memory.hooks.script_writers import substitutions
from harness_memory.hooks.shell_comments import uncommented as shell_uncommented
from harness_memory.hooks.shell_words import PUNCTUATION, split_words

__all__ = ["is_data_program", "names_run"]

_PRINTERS = frozenset({"echo", "printf"})
"""Programs printing their words (their output read as code only through a pipe or a
substitution, which :func:`names_run` checks)."""
_READERS = frozenset({"grep", "egrep", "fgrep", "cat", "head", "tail", "wc", "ls", "which"})
"""Programs reading files or names their words give, never running one (as printers, their
output may be code: read so only where a printer's is)."""
_PIPE_READERS = _PRINTERS | _READERS | {"sort", "uniq", "cut", "tr", "tee", "less", "more", "nl"}
"""Programs reading a pipe that never run what they read (not ``sed``: its ``e`` command)."""
_CODE_READERS = frozenset(
    {"xargs", "parallel", "sh", "bash", "dash", "zsh", "ksh", "mksh", "source", "eval", "read"}
    | {"mapfile", "readarray"}
)
"""Programs (and builtins) that may run the words they read from a file or their input: as
commands (``xargs``, ``parallel``, a shell, ``source``, ``eval``) or into variables a
command may be named by (``read``, ``mapfile``). Beside a write to a file, no printed word is data:
the file may be read back as commands (review58f)."""
_QUIET_MODULES = frozenset(
    {
        "pip",
        "pytest",
        "unittest",
        "venv",
        "mypy",
        "black",
        "ruff",
        "isort",
        "flake8",
        "build",
        "ensurepip",
        "compileall",
        "pydoc",
        "json.tool",
        "http.server",
    }
)
"""Modules ``python3 -m`` runs whose words name packages, files or options, no program the
module runs by name but by an option (:data:`_RUNNING_OPTION_RE`): its other words are data
(``python3 -m pip install black``). Not ``pylint``: its ``--init-hook`` is Python code."""
_SKIPPED_RE = r"(?:!|\{|\}|if|then|else|elif|do|while|until|time|[A-Za-z_]\w*=.*)"
"""A word before a simple command's name: a reserved word or an assignment (``X=1 echo``)."""
_TOKEN_RES = (r"[^\s;&|(){}<>`$=/'\"\\]+", r"[\w.+-]+")
"""The parts of a word that may be a program's name: split by the shell's punctuation, and
by every other character a name seldom holds (``!cp`` in a git alias, ``['cp',`` in code)."""
_ENDS_RE = r"(?![<>]+[&|]?$|&>>?$)[;&|()<>]+"
"""A run of the shell's punctuation ending a simple command: not a redirection (``>``,
``2>&1``'s ``>&``, ``&>``), whose target is a word of the command it stands in."""
_RUNNING_OPTION_RE = r"--?[\w-]*(?:python|exec|pager|editor|shell|command|cmd)"
"""An option of a quiet module that may name a program it runs (``pip --python``, ``mypy
--python-executable``): it and its value are not data."""
_MESSAGE_RE = r"-[A-Za-z]*m|--message"
"""A ``git commit`` option whose value is the message (``-m``, ``-am``, ``--message``)."""


def names_run(command: str) -> frozenset[str] | None:
    """The names ``command`` may run as programs: each part (:data:`_TOKEN_RES`) of every word
    but the data words (:func:`_simple_names`); None when the command cannot be split line by
    line (a quote open across lines) or holds ANSI-C or locale quoting (``$'c\\x70'``, whose
    name the splitting does not decode): then every word may run."""
    if "$'" in command or '$"' in command:
        return None
    command = here_data(command).command  # a body another program reads: data, never split
    command = bash_quoting(command)  # its line continuations removed, none ending a comment
    uncommented = shell_uncommented(command)  # a quote in a comment opens no word (review59)
    if uncommented is None:
        return None
    command = uncommented
    simple: list[tuple[list[str], bool]] = []  # each simple command, and whether piped into
    for line in _lines(command):
        try:
            words = split_words(line, punctuation=PUNCTUATION)
        except ValueError:
            return None
        start = 0
        for at in range(len(words) + 1):
            if at < len(words) and not re.fullmatch(_ENDS_RE, words[at]):
                continue  # a word or a redirection (``> a.md``: its target the command's word)
            simple.append((words[start:at], start > 0 and words[start - 1] in ("|", "|&")))
            start = at + 1
    # what a printer prints may be code or a name: substituted, written to a coprocess, piped
    # anywhere into a program that may run it (``(echo cp x) | bash``), or written to a file
    # that one reads back (``echo cp x y > f; xargs env < f``)
    printed = (
        re.search(r"\$\(|[<>]\(|`|\bcoproc\b", command) is None
        and all(_reads_only(words) for words, piped in simple if piped)
        and not (_writes_a_file(simple) and any(_runs_what_it_reads(w) for w, _ in simple))
    )
    return frozenset(name for words, _ in simple for name in _simple_names(words, printed=printed))


_JOINED_LINES = 64
"""The most lines one quoted word may span for :func:`_lines` to join them (past it the
command is read as one that cannot be split: every word may run), linear in the command."""


def _lines(command: str) -> list[str]:
    """``command``'s lines, each ending its commands, those a quoted word spans joined with a
    space (``git commit -m "$(cat <<'EOF' … )"`` once its body is cut: the newline is the
    word's, not a command's end); a line whose quote :data:`_JOINED_LINES` lines do not close
    is left open (:func:`names_run` then reads every word as run)."""
    lines: list[str] = []
    pending: list[str] = []
    for line in command.split("\n"):
        pending.append(line)
        joined = " ".join(pending)
        if len(pending) < _JOINED_LINES and joined.count("'") % 2 + joined.count('"') % 2:
            try:
                split_words(joined, punctuation=PUNCTUATION)
            except ValueError:
                continue
        lines.append(joined)
        pending = []
    return [*lines, " ".join(pending)] if pending else lines


def _reads_only(words: list[str]) -> bool:
    """Whether a simple command (``words``) reading a pipe never runs what it reads: a printer
    or a reader (:data:`_PIPE_READERS`), or ``xargs`` handing it to one as names."""
    program = _program(words)
    if program == "xargs":
        run = commands_run("xargs", words[words.index("xargs") + 1 :])
        return all(_program(each) in _PIPE_READERS for each in run)
    return program in _PIPE_READERS


def _writes_a_file(simple: list[tuple[list[str], bool]]) -> bool:
    """Whether a simple command of ``simple`` writes what it prints to a file: a redirection
    of its output (``>``, ``>>``, ``&>``, ``>|``, ``>&`` to a name, not ``2>&1``) or ``tee``."""
    return any(
        word == "tee"
        or (">" in word and not (word.endswith(">&") and re.fullmatch(r"\d*-?", after)))
        for words, _ in simple
        for word, after in zip(words, [*words[1:], ""][: len(words)], strict=True)
    )


def _runs_what_it_reads(words: list[str]) -> bool:
    """Whether a simple command (``words``) may run what it reads from a file or its input
    (``xargs env < f``, ``xargs -a f env``, ``sh f``, ``read -r c < f``): one of
    :data:`_CODE_READERS` among its words or ``.`` its program, unless it never runs what it
    reads (:func:`_reads_only`: ``xargs grep x < f``, ``echo read``)."""
    named = _program(words) == "." or any(w.rsplit("/", 1)[-1] in _CODE_READERS for w in words)
    return named and not _reads_only(words)


def _program(words: list[str]) -> str:
    """A simple command's program: its first word past reserved words and assignments."""
    return next((word for word in words if not re.fullmatch(_SKIPPED_RE, word)), "")


def is_data_program(name: str) -> bool:
    """Whether ``name`` is a program some words of which :func:`names_run` reads as data
    (``echo``, ``grep``, ``git``, ``python3``): when something makes it another program (a
    ``PATH`` folder holding it, a function or alias of its name), every word counts again
    (the caller checks)."""
    return name in _PRINTERS or name in _READERS or name == "git" or _python(name)


def _python(name: str) -> bool:
    """Whether ``name`` is a Python interpreter's (:data:`~harness_memory.hooks.option_words.
    PYTHON_RE`)."""
    return re.match(PYTHON_RE, name) is not None


def _simple_names(simple: list[str], *, printed: bool) -> set[str]:
    """The names one simple command's words (``simple``) may run: the parts of each word but
    its data words (:func:`_data_words`); for ``xargs`` and ``find``, those of the commands
    they run (:func:`~harness_memory.hooks.run_texts.commands_run`, each read so) and of
    their own words (but ``.``: a folder's, ``find .``). ``printed``: whether what a printer
    prints is only printed (no pipe into a program that may run it, no substitution or
    coprocess, no file read back as commands): else no word is data."""
    program = _program(simple)
    at = simple.index(program) if program else len(simple)
    if program in ("xargs", "find") and printed:
        run = commands_run(program, simple[at + 1 :])
        own = Counter(_parts(simple)) - Counter(p for each in run for p in _parts(each))
        del own["."]  # of a folder (``find ./src``), never the builtin: its own words run none
        return set(own) | {name for each in run for name in _simple_names(each, printed=True)}
    data = _data_words(simple, at, printed=printed)
    return {
        name for index, word in enumerate(simple) if index not in data for name in _parts([word])
    }


def _parts(words: list[str]) -> list[str]:
    """Each part of ``words`` that may be a program's name (:data:`_TOKEN_RES`)."""
    return [name for word in words for rule in _TOKEN_RES for name in re.findall(rule, word)]


def _data_words(simple: list[str], at: int, *, printed: bool) -> set[int]:
    """The indexes of ``simple``'s words (one simple command's, its program at ``at``) that are
    data, by its program (:func:`is_data_program`): a printer's words while ``printed``, a
    reader's (``grep``, ``cat``), ``git commit``'s message, ``python3 -m``'s module (and the
    words after a quiet module, :data:`_QUIET_MODULES`)."""
    if at >= len(simple) or not printed:
        return set()
    program, rest = simple[at], range(at + 1, len(simple))
    if program in _PRINTERS or program in _READERS:  # not ``printf -v c cp``: ``$c`` runs it
        return set() if any(re.match(r"-\w*v", simple[i]) for i in rest) else set(rest)
    if program == "sed":  # ``sed -i 's/cp/mv/' f``: a program only substituting runs none
        return {at + 1 + index for index in substitutions("sed", simple[at + 1 :])}
    if program == "git" and simple[at + 1 : at + 2] == ["commit"]:
        return {i + 1 for i in rest if re.fullmatch(_MESSAGE_RE, simple[i]) and i + 1 in rest}
    if _python(program) and simple[at + 1 : at + 2] == ["-m"] and at + 2 in rest:
        module = at + 2
        if simple[module] not in _QUIET_MODULES:
            return {module}
        ran = [i for i in rest if re.match(_RUNNING_OPTION_RE, simple[i])]
        return set(range(module, len(simple))) - {n for i in ran for n in (i, i + 1)}
    return set()
