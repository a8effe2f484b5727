"""The startup files a shell the command starts runs before its own command (P-3).

The guard reads ``bash -c '…'`` as the command it runs, but bash runs a file first: the one
``BASH_ENV`` names (a shell that is not interactive), ``/etc/bash.bashrc`` and ``~/.bashrc``
(``-i``, or ``--rcfile FILE``), ``/etc/profile`` and the first of ``~/.bash_profile``,
``~/.bash_login``, ``~/.profile`` (``-l``, ``--login``); ``sh`` (dash) runs ``$ENV`` when
interactive and the profiles as a login shell. An agent wrote such a file in one call and a
``bash -lc 'ls'`` in the next ran it. :func:`startup_files` names the files a shell run with
its options would read, for the guard to judge each as commands of the call.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["STARTUP_SHELLS", "is_interactive", "script_operand", "startup_files"]

STARTUP_SHELLS = frozenset({"bash", "rbash", "sh", "dash", "ash"})
"""Shells whose startup files the guard reads (bash's and the POSIX shell's rules)."""


def startup_files(shell: str, words: list[str], environ: Mapping[str, str]) -> list[str]:
    """The files ``shell`` (a name of :data:`STARTUP_SHELLS`) run with ``words`` (its options
    and operands) and ``environ`` runs before its command, each whether or not it exists
    (``~`` read as ``HOME``; a relative ``BASH_ENV`` stays relative)."""
    home = environ.get("HOME", "")
    interactive, login, norc, noprofile, rcfile = _startup_options(words)
    files: list[str] = []
    bash = shell in ("bash", "rbash")
    if login and not noprofile:
        files.append("/etc/profile")
        names = (".bash_profile", ".bash_login", ".profile") if bash else (".profile",)
        files += [f"{home}/{name}" for name in names if home]
    if interactive and bash and not norc:
        files += ["/etc/bash.bashrc", rcfile or (f"{home}/.bashrc" if home else "")]
    elif interactive and (variable := environ.get("ENV")):
        files.append(_tilde(variable, home))
    if not interactive and bash and (variable := environ.get("BASH_ENV")):
        files.append(_tilde(variable, home))
    return [file for file in files if file]


def is_interactive(words: list[str]) -> bool:
    """Whether a shell run with ``words`` (its options and operands) is interactive (``-i``,
    ``-ic``): only then does its ``$-`` hold ``i``."""
    return _startup_options(words)[0]


def _startup_options(words: list[str]) -> tuple[bool, bool, bool, bool, str | None]:
    """A shell's options among ``words`` that choose its startup files: whether it is
    interactive, a login shell, run with ``--norc``, with ``--noprofile``, and its
    ``--rcfile``."""
    interactive = login = norc = noprofile = False
    rcfile: str | None = None
    at = 0
    while at < len(words):
        word = words[at]
        if word in ("--login", "-login"):
            login = True
        elif word == "--norc":
            norc = True
        elif word == "--noprofile":
            noprofile = True
        elif word in ("--rcfile", "--init-file"):
            rcfile = words[at + 1] if at + 1 < len(words) else None
            at += 1
        elif word.startswith("-") and not word.startswith("--") and len(word) > 1:
            interactive = interactive or "i" in word[1:]
            login = login or "l" in word[1:]
        elif not word.startswith(("-", "+")):
            break
        at += 1
    return interactive, login, norc, noprofile, rcfile


_VALUED = frozenset({"--rcfile", "--init-file", "-o", "+o", "-O", "+O"})
"""A shell's options taking the next word as their value."""


def script_operand(words: list[str]) -> str | None:
    """The script file a shell run with ``words`` (its options and operands) reads its
    commands from (``bash -e x.sh a b``: ``x.sh``), or None when it reads them from ``-c``'s
    operand, its standard input (``-s``, no operand) or is given none."""
    at = 0
    while at < len(words):
        word = words[at]
        if word in ("--", "-"):
            return words[at + 1] if at + 1 < len(words) else None
        if word in _VALUED:
            at += 2
            continue
        if word.startswith("--"):
            at += 1
            continue
        if word.startswith(("-", "+")) and len(word) > 1:
            letters = word[1:]
            if "c" in letters or "s" in letters:
                return None
            at += 2 if ("o" in letters or "O" in letters) else 1
            continue
        return word
    return None


def _tilde(path: str, home: str) -> str:
    """``path`` with a leading ``~/`` read as ``home``."""
    return home + path[1:] if path.startswith("~/") and home else path
