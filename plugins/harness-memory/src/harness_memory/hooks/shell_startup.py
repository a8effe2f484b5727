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

import os
import pwd
from collections.abc import Mapping

__all__ = ["STARTUP_SHELLS", "is_interactive", "script_operand", "shell_home", "startup_files"]

STARTUP_SHELLS = frozenset({"bash", "rbash", "sh", "dash", "ash"})
"""Shells whose startup files the guard reads (bash's and the POSIX shell's rules)."""


def startup_files(shell: str, words: list[str], environ: Mapping[str, str]) -> list[str]:
    """The files ``shell`` (a name of :data:`STARTUP_SHELLS`) run with ``words`` (its options
    and operands) and ``environ`` runs before its command, each whether or not it exists
    (``~`` read as bash reads it: :func:`shell_home`; a relative ``BASH_ENV`` stays
    relative)."""
    home = shell_home(environ).rstrip("/")
    interactive, login, norc, noprofile, rcfile = _startup_options(words)
    files: list[str] = []
    bash = shell in ("bash", "rbash")
    if login and not noprofile:
        files.append("/etc/profile")
        names = (".bash_profile", ".bash_login", ".profile") if bash else (".profile",)
        files += [f"{home}/{name}" for name in names]
    if interactive and bash and not norc:
        files += ["/etc/bash.bashrc", rcfile or f"{home}/.bashrc"]
    elif interactive and (variable := environ.get("ENV")):
        files.append(_tilde(variable, home))
    if not interactive and bash and (variable := environ.get("BASH_ENV")):
        files.append(_tilde(variable, home))
    return [file for file in files if file]


def shell_home(environ: Mapping[str, str]) -> str:
    """The folder bash's ``~`` names with ``environ``, and the one it reads ``~/.bashrc`` and
    ``~/.profile`` from: ``environ``'s ``HOME``, even empty (``~/x`` is then ``/x``, the
    startup file ``/.bashrc``); where it has none, the account's home from the password
    database (``/`` for an account it has no entry for: bash's ``get_current_user_info``).
    Bash then sets no ``$HOME``, under ``bash -lc`` neither (measured, bash 5.2), but its ``~``
    and its startup files take that home: a harness (or CI) passing no ``HOME`` still has
    ``~/…`` reach the account's home (P-3)."""
    if "HOME" in environ:
        return environ["HOME"]
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        return "/"


def is_interactive(words: list[str]) -> bool:
    """Whether a shell run with ``words`` (its options and operands) is interactive (``-i``,
    ``-ic``): only then does its ``$-`` hold ``i``."""
    return _startup_options(words)[0]


def _startup_options(words: list[str]) -> tuple[bool, bool, bool, bool, str | None]:
    """A shell's options among ``words`` that choose its startup files: whether it is
    interactive, a login shell, run with ``--norc``, with ``--noprofile``, and its
    ``--rcfile`` (read by :func:`_shell_options`, as :func:`script_operand` reads them)."""
    interactive = login = norc = noprofile = False
    rcfile: str | None = None
    for option, value in _shell_options(words)[0]:
        if option in ("--login", "-login"):
            login = True
        elif option in ("--norc", "-norc"):
            norc = True
        elif option in ("--noprofile", "-noprofile"):
            noprofile = True
        elif option.lstrip("-") in ("rcfile", "init-file"):
            rcfile = value
        elif option[:1] == "-" and option[1:2] != "-" and option[1:] not in _LONG:
            interactive = interactive or "i" in option[1:]
            login = login or "l" in option[1:]
    return interactive, login, norc, noprofile, rcfile


_LONG = frozenset(
    {"debugger", "dump-po-strings", "dump-strings", "help", "init-file", "login"}
    | {"noediting", "noprofile", "norc", "posix", "pretty-print", "protected", "rcfile"}
    | {"rpm-requires", "restricted", "verbose", "version", "wordexp"}
)
"""bash's long options, spelled with ``--`` or one ``-`` (``-login``)."""
_LONG_VALUED = frozenset({"rcfile", "init-file"})
"""bash's long options taking the next word as their value (``--rcfile FILE``)."""


def _shell_options(words: list[str]) -> tuple[list[tuple[str, str | None]], int]:
    """A shell's options among ``words`` (its options and operands), each with the value it
    takes or None, and the index of its first operand (``len(words)`` when none). A value
    is the next word: ``--rcfile FILE``, ``-o pipefail``, ``+O extglob``, a bundle holding
    ``o`` or ``O`` (``-io pipefail``); ``--`` and ``-`` end the options. The one reading of
    a shell's options, for its startup files and its script operand alike."""
    options: list[tuple[str, str | None]] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word in ("--", "-"):
            return options, at + 1
        if not word.startswith(("-", "+")) or len(word) < 2:
            return options, at
        name = word[2:] if word.startswith("--") else word[1:]
        if word.startswith("-") and name in _LONG:
            valued = name in _LONG_VALUED
        else:
            valued = not word.startswith("--") and ("o" in name or "O" in name)
        value = words[at + 1] if valued and at + 1 < len(words) else None
        options.append((word, value))
        at += 2 if valued else 1
    return options, at


def script_operand(words: list[str]) -> str | None:
    """The script file a shell run with ``words`` (its options and operands) reads its
    commands from (``bash -e x.sh a b``: ``x.sh``), or None when it reads them from ``-c``'s
    operand, its standard input (``-s``, no operand) or is given none."""
    options, first = _shell_options(words)
    for option, _ in options:
        short = not option.startswith("--") and option.lstrip("-+") not in _LONG
        if short and ("c" in option[1:] or "s" in option[1:]):
            return None
    return words[first] if first < len(words) else None


def _tilde(path: str, home: str) -> str:
    """``path`` with a leading ``~/`` read as ``home``."""
    return home + path[1:] if path.startswith("~/") and home else path
