"""Which assignments in a command decide their variable's value where it is used (P-3).

The guard reads a command's words in order and keeps what each variable holds
(:func:`~harness_memory.hooks.tool_targets.shell_paths`). An assignment sets the variable for
the words after it only when bash surely runs it in the shell that runs those words:

- a statement of its own (``out=dist;``, ``out=dist && …``, ``export OUT=dist``), never a
  command's prefix (``OUT=dist make``: the command's own words are expanded before it, and the
  shell keeps its value after it);
- not after ``&&`` or ``||`` in its list (``true || X=dist``), not in a pipeline or run in the
  background (``X=dist | true``, ``X=dist &``: a subshell);
- and only for the rest of the group it stands in: at the end of a subshell, ``$(…)``, a
  brace group, a function's body, an ``if``, a loop or a ``case``, and at each ``else``,
  ``elif`` or ``;;``, every variable assigned inside is undecided (the branch may not have
  run, a function may never be called, a subshell's assignment never reaches its parent).

Any other assignment (a prefix, a conditional one, ``read X``, ``printf -v X``, ``unset X``,
``local X``, one to a name made ``readonly``) leaves its variable undecided from there on: a
place built from it is judged as built at run time, never as the environment's value. A
``${X:=word}`` in a word assigns ``X`` as the word is expanded: it decides ``X`` only in a
simple command run so. Linear in the words.
"""

from __future__ import annotations

import re

__all__ = ["unsettled_names"]

_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_ASSIGNED_RE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=")
_PLAIN_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_DEFAULT_RE = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*):?=")
_PUNCTUATION_RE = re.compile(r"^[;&|()<>]+$")
_OPENERS = {"if": "fi", "while": "done", "until": "done", "for": "done", "select": "done"}
_OPENERS_ALL = {**_OPENERS, "case": "esac", "{": "}"}
_CLOSERS = frozenset(_OPENERS_ALL.values())
_LIST_STARTS = frozenset({"then", "do", "else", "elif"})
"""Reserved words after which a new list starts (its first command runs whatever came before
it in the group, as after ``;``)."""
_BRANCHES = frozenset({"else", "elif"})
_DECLARING = frozenset({"export", "readonly", "declare", "typeset", "local"})
"""Builtins whose ``NAME=value`` words assign as a statement does (``export OUT=dist``)."""
_NAMING = frozenset({"read", "mapfile", "readarray", "getopts", "unset", "let"})
"""Builtins whose name-like words are variables they set or unset at run time."""


class _Frame:
    """One group being read: its closing word, the words of its current simple command (by
    index), whether its current list is past ``&&``/``||`` or its command reads a pipe, the
    variables assigned in it, and whether a ``case`` pattern is being read."""

    __slots__ = ("assigned", "closer", "command", "conditional", "pattern", "piped")

    def __init__(self, closer: str) -> None:
        self.closer = closer
        self.command: list[int] = []
        self.conditional = self.piped = self.pattern = False
        self.assigned: set[str] = set()


class _Reader:
    """Reads a command's words into what each leaves undecided (:func:`unsettled_names`)."""

    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.frames = [_Frame("")]
        self.unsettled: dict[int, list[str]] = {}
        self.fixed: set[str] = set()

    def read(self) -> dict[int, list[str]]:
        """Read every word; the variables left undecided after each word, by its index."""
        for at, word in enumerate(self.words):
            if word == "\n":
                self._end_command(at, ";")
            elif _PUNCTUATION_RE.match(word):
                self._punctuation(at, word)
            else:
                self._word(at, word)
        while self.frames:
            self._end_command(len(self.words) - 1, "")
            self.frames.pop()
        return self.unsettled

    def _word(self, at: int, word: str) -> None:
        """Take a word that is no punctuation: a reserved word opening or closing a group, or
        starting a list, at a command's start; else a word of the current command."""
        frame = self.frames[-1]
        starts = not frame.command
        if frame.pattern and word != "esac":
            return  # a case pattern: matched, never run
        if starts and word in _CLOSERS and len(self.frames) > 1:
            self._close(at, word)
        elif (starts and word in _OPENERS_ALL) or (word == "{" and self._function_body(at)):
            self.frames.append(_Frame(_OPENERS_ALL[word]))
            self.frames[-1].command = [] if word != "case" else [at]
        elif starts and word in _LIST_STARTS:
            if word in _BRANCHES:
                self._unsettle(at, frame.assigned)
            frame.conditional = frame.piped = False
        elif frame.closer == "esac" and word == "in" and len(frame.command) == 2:
            frame.command, frame.pattern = [], True
        else:
            frame.command.append(at)

    def _function_body(self, at: int) -> bool:
        """Whether the ``{`` at ``at`` opens a function's body (``f() {``, ``function f {``)."""
        before = self.words[max(0, at - 2) : at]
        return bool(before) and (before[-1].endswith(")") or before[0] == "function")

    def _punctuation(self, at: int, word: str) -> None:
        """Take a token of punctuation: ``(`` and ``)`` open and close a group (a ``)`` in a
        ``case`` ends a pattern), ``;``, ``&``, ``|`` end the current command."""
        rest = word
        while rest:
            char, rest = rest[0], rest[1:]
            frame = self.frames[-1]
            if char == "(":
                if not frame.pattern:
                    self.frames.append(_Frame(")"))
            elif char == ")":
                if frame.closer == ")":
                    self._close(at, ")")
                elif frame.pattern:
                    frame.pattern = False
            elif char in "<>":
                rest = rest.lstrip("&|>")  # ``>&``, ``>|``, ``&>``: a redirection
            else:
                ender = char + rest[:1] if rest[:1] in "&|;" and rest[:1] else char
                rest = rest[len(ender) - 1 :]
                if not (ender == "&" and rest.startswith(">")):
                    self._end_command(at, ender)

    def _close(self, at: int, closer: str) -> None:
        """End the innermost group up to the one ``closer`` ends: its variables undecided."""
        while len(self.frames) > 1:
            self._end_command(at, "")
            frame = self.frames.pop()
            self._unsettle(at, frame.assigned)
            self.frames[-1].assigned |= frame.assigned
            if frame.closer == closer:
                break

    def _unsettle(self, at: int, names: set[str]) -> None:
        """Leave ``names`` undecided after the word at ``at``."""
        if names:
            self.unsettled.setdefault(at, []).extend(sorted(names))

    def _end_command(self, at: int, ender: str) -> None:
        """End the current simple command of the innermost group with ``ender`` (``;``,
        ``&&``, ``|``, ``;;`` …; "" at a group's end): its assignments decide when it ran in
        this shell, for sure, as a statement (:func:`_assignments`)."""
        frame = self.frames[-1]
        words, frame.command = frame.command, []
        here = not (frame.conditional or frame.piped) and ender not in ("|", "|&", "&")
        for index, name, decides in _assignments(self.words, words, self.fixed):
            frame.assigned.add(name)
            if not (here and decides):
                self._unsettle(index, {name})
        if ender in ("&&", "||"):
            frame.conditional = True
        elif ender in ("|", "|&"):
            frame.piped = True
        elif ender:
            frame.conditional = frame.piped = False
        if ender in (";;", ";&") and frame.closer == "esac":
            frame.pattern = True
            self._unsettle(at, frame.assigned)


def _assignments(
    words: list[str], command: list[int], fixed: set[str]
) -> list[tuple[int, str, bool]]:
    """Each variable the simple command of the ``words`` at indexes ``command`` assigns, by
    the index of its word, and whether it is a statement's assignment (``X=1``, ``export
    X=1``; none to a name in ``fixed``, which ``readonly`` or ``-r`` adds to). A builtin's
    named variables (``read X``, ``unset X``, ``local X``) are returned as undecided."""
    found: list[tuple[int, str, bool]] = []
    plain = [at for at in command if _ASSIGNED_RE.match(words[at]) is None]
    name = words[plain[0]] if plain else ""
    declared = name in _DECLARING
    if name == "readonly" or (declared and any(re.match(r"^-\w*r", words[a]) for a in plain)):
        fixed.update(re.split(r"[+\[=]", words[at], maxsplit=1)[0] for at in command[1:])
    for at in command:
        word = words[at]
        found.extend((at, m["name"], True) for m in _DEFAULT_RE.finditer(word))
        if (assigned := _ASSIGNED_RE.match(word)) is not None:
            statement = not plain or (declared and at > plain[0])
            plainly = statement and _PLAIN_RE.match(word) is not None  # no ``+=``, no ``X[0]=``
            found.append((at, assigned["name"], plainly and assigned["name"] not in fixed))
        elif at != (plain[0] if plain else -1) and _NAME_RE.match(word):
            named = name in _NAMING or (declared and name != "export")
            if named or (name == "printf" and words[at - 1] == "-v"):
                found.append((at, word, False))
    return found


def unsettled_names(words: list[str]) -> dict[int, list[str]]:
    """By the index of a word among ``words`` (a command as the guard's lexer splits it:
    reserved words, ``;``, ``&&``, ``(``, ``);`` … as words), the variables undecided after
    it (the module's rules: an assignment that does not surely set its variable for the
    words after it, at the word that makes it; a group's or branch's, at its end), every
    index of a word leaving none left out. An assignment not named here decides its
    variable. Linear in the words."""
    return _Reader(words).read()
