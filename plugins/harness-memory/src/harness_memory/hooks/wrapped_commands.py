"""Wrappers: programs and keywords that run the command after them (P-3).

``timeout 5 bash``, ``nice -n 5 sh``, ``env X=1 python3``, ``sudo -u u bash``: the program
run is the word :func:`past_wrappers` finds past the wrappers (:data:`WRAPPERS`), their
options, their options' arguments (:data:`WRAPPER_ARGUMENTS`) and their leading operands
(:data:`WRAPPER_OPERANDS`, a ``timeout``'s duration). One table for every reader of the
guard: the writes a command makes (:mod:`~harness_memory.hooks.tool_targets`) and the
shell a pipe or process substitution feeds (:mod:`~harness_memory.hooks.piped_code`).

Linear in the words.
"""

from __future__ import annotations

import re

ASSIGNMENT_RE = r"(?s)^(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>.*)$"
"""A word assigning a variable (``X=1``)."""
DURATION_RE = (
    r"(?i)^\+?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?"
    r"|0x(?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?[0-9]+)?|inf(?:inity)?)[smhd]?$"
)
"""A ``timeout``'s duration as GNU ``timeout`` reads it: a floating number (``5``, ``2.5m``,
``1e1``, ``0x10``, ``infinity``) with an optional ``s``, ``m``, ``h`` or ``d``."""
WRAPPERS = frozenset(
    {
        "sudo",
        "doas",
        "env",
        "command",
        "builtin",
        "exec",
        "nohup",
        "nice",
        "time",
        "timeout",
        "coproc",
        "stdbuf",
        "setsid",
        "ionice",
        "taskset",
        "flock",
        "chrt",
        "chronic",
        "unbuffer",
        "nocache",
        "eatmydata",
        "fakeroot",
        "setarch",
        "prlimit",
        "setpriv",
        "strace",
        # multi-call binaries: the word after them names the applet they run
        "busybox",
        "toybox",
        # the shell's keywords whose condition is the command after them
        "if",
        "elif",
        "while",
        "until",
    }
)
"""Words that run the command after them (their options and a ``timeout`` duration skipped):
wrappers, ``busybox`` and ``toybox`` (``busybox sh -c '…'`` runs ``sh``, read as ``sh -c``
is: its code, positional parameters and startup files; ``busybox cp`` is ``cp``), and
``if``/``elif``/``while``/``until``, whose condition is a command (``if cp x "$(cat f)"/a.md;
then`` was read as a command ``if`` whose operand was ``cp``)."""
WRAPPER_ARGUMENTS: dict[str, frozenset[str]] = {
    "sudo": frozenset({"-u", "-g", "-p", "-h", "-C", "-D", "-r", "-t", "-U", "-R", "-T"}),
    "doas": frozenset({"-u", "-C"}),
    "env": frozenset({"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "ionice": frozenset({"-c", "-n", "-p", "--class", "--classdata"}),
    "stdbuf": frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "flock": frozenset({"-w", "-E", "--timeout", "--conflict-exit-code"}),
    "exec": frozenset({"-a"}),
    "taskset": frozenset({"-p", "--pid"}),
    "prlimit": frozenset({"-p", "--pid", "-o", "--output"}),
    "setpriv": frozenset(
        {"--ruid", "--euid", "--reuid", "--rgid", "--egid", "--regid", "--groups", "--inh-caps"}
        | {"--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label"}
        | {"--apparmor-profile", "--landlock-access", "--landlock-rule", "--seccomp-filter"}
    ),
    "strace": frozenset({"-o", "-e", "-p", "-u", "-s", "-a", "-E", "-P", "-I", "-b", "-X"})
    | frozenset({"-O", "-S", "-U", "--output", "--signal", "--trace", "--user", "--string-limit"}),
}
"""Each wrapper's options taking the next word (``sudo -u root``, ``nice -n 5``, ``env -u
NAME``); another wrapper's option takes none (``time -p cp …``, ``command -p cp …``: the
``-p`` of ``sudo`` once took ``cp`` for its argument)."""
WRAPPER_OPERANDS = {"taskset": 1, "flock": 1, "chrt": 1, "setarch": 1, "timeout": 1}
"""Wrappers taking operands before the command they run (a CPU mask, a lock file, a
priority, an architecture, a ``timeout``'s duration: any word there is its duration, one
GNU ``timeout`` refuses runs nothing)."""
SPLIT_STRING_RE = r"^(?:-[iv0]*S(?P<joined>.+)?|--split-string(?:=(?P<long>.*))?)$"
"""``env``'s option whose argument is the command it splits into words and runs (``env -S
'bash -s'``, ``-S'bash -s'``, ``--split-string=bash``)."""


def past_wrappers(words: list[str], at: int) -> int:
    """Where the program a command runs is named among ``words`` from ``at``, past the
    wrappers before it (:data:`WRAPPERS`: ``env X=1``, ``nice -n 1``, ``timeout 5``,
    ``sudo -u u``), their options, their options' arguments and leading operands."""
    wrapper = ""
    skip = leading = 0
    while at < len(words):
        word, name = words[at], words[at].rsplit("/", 1)[-1]
        if skip:
            skip = 0
        elif name in WRAPPERS and not leading:
            wrapper, leading = name, WRAPPER_OPERANDS.get(name, 0)
        elif word.startswith("-") and word != "-":  # ``taskset -c 0,1``: its options first
            skip = int(word in WRAPPER_ARGUMENTS.get(wrapper, frozenset()))
        elif leading:
            leading -= 1
        elif not (wrapper and (re.match(ASSIGNMENT_RE, word) or re.match(DURATION_RE, word))):
            return at
        at += 1
    return at


def split_strings(words: list[str]) -> list[str]:
    """``words`` with the argument of each ``env -S`` (:data:`SPLIT_STRING_RE`) split into the
    words of the command it runs, as ``env`` splits it (``env -S 'bash -s'`` runs ``bash
    -s``); ``words`` itself when none (linear in the words). A string ``shlex`` cannot split
    is split at white space."""
    if "env" not in {word.rsplit("/", 1)[-1] for word in words}:
        return words
    found: list[str] = []
    at, env = 0, False
    while at < len(words):
        word = words[at]
        match = re.match(SPLIT_STRING_RE, word) if env else None
        at += 1
        if match is None:
            found.append(word)
            named = word.rsplit("/", 1)[-1] == "env"
            env = named or (env and (word.startswith("-") or "=" in word))
            continue
        given = match.group("joined") or match.group("long")
        if given is None:
            given, at = "".join(words[at : at + 1]), at + 1
        import shlex  # only for an ``env -S``: an everyday command loads no quoting

        try:
            found.extend(shlex.split(given))
        except ValueError:
            found.extend(given.split())
    return found
