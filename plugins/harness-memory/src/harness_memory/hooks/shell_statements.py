"""Which assignments in a command decide their variable's value where it is used (P-3).

The guard reads a command's words in order and keeps what each variable holds
(:func:`~harness_memory.hooks.tool_targets.shell_paths`). An assignment sets the variable for
the words after it only when bash surely runs it in the shell that runs those words:

- a statement of its own (``out=dist;``, ``out=dist && …``, ``export OUT=dist``), never a
  command's prefix (``OUT=dist make``: the command's own words are expanded before it, and the
  shell keeps its value after it);
- not after ``&&`` or ``||`` in its list (``true || X=dist``), not in a pipeline or run in the
  background (``X=dist | true``, ``X=dist &``: a subshell);
- and only for the rest of the group it stands in: at the end of a brace group, a function's
  body, an ``if``, a loop or a ``case``, and at each ``else``, ``elif`` or ``;;``, every
  variable assigned inside is undecided (the branch may not have run, a function may never be
  called); at the end of a subshell (``( … )`` starting a command, ``$(…)``, ``<(…)``) every
  one holds its value before it (a subshell's assignment never reaches its parent), and so
  does one a function's body made ``local`` before assigning it (gone when it returns) by a
  plain statement of its own list (not after ``&&``, in a branch, piped or in a subshell),
  unless the body holds a ``-g`` declaration or defines a function (either may set the
  caller's); a ``(`` of an array (``arr=(…)``), ``[[ ( … ) ]]``, an extglob or arithmetic
  is no subshell: what is assigned in it is kept, as at a branch's end.

After a group, a branch, or an assignment that may not run or not reach (a prefix, one after
``&&``, in a pipeline, to a name made ``readonly``), the variable holds one of the values it
may have: the one before (not after a group that surely runs one of its branches: ``{ …; }``,
an ``if`` with an ``else``) and each one after, a value that was itself one of several counting
each; equal, it stays decided; else undecided (``PATH``
takes every folder any of them holds: a program is then looked for in each; ``IFS`` every
character: a value may be split at each). ``read X``,
``printf -v X``, ``unset X`` (``unset IFS``: bash's white space, unless it may be
``readonly``: then unset fails), ``local X``, ``X+=…`` leave
it undecided, and so does any
assignment to a variable a function's body assigns (a call may change it anywhere after). A
place built from an undecided variable is judged as built at run time, never as the
environment's value. A ``${X:=word}`` in a word assigns ``X`` as the word is expanded: it
decides ``X`` only in a simple command run so. Linear in the words.
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Callable, Iterable, Mapping

__all__ = ["CHOICES_CAP", "Scopes", "read_names"]

_NAME_RE = r"^[A-Za-z_][A-Za-z0-9_]*$"
_ASSIGNED_RE = r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?="
_PLAIN_RE = r"^[A-Za-z_][A-Za-z0-9_]*="
_DEFAULT_RE = r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*):?="
_PUNCTUATION_RE = r"^[;&|()<>]+$"
_REDIRECTION_RE = r"^[;&|()]*[<>]"
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
_READERS = frozenset({"read", "mapfile", "readarray"})
"""Builtins bash never keeps a prefix's assignment after (``IFS=, read -r a b``: ``IFS`` is as
before), unless the command defines a function or alias of that name (:func:`_redefined`)."""


class _Frame:
    """One group being read: its closing word, the words of its current simple command (by
    index), whether its current list is past ``&&``/``||`` or its command reads a pipe, the
    variables assigned in it, and whether a ``case`` pattern is being read."""

    __slots__ = (
        "assigned",
        "body",
        "closer",
        "command",
        "conditional",
        "leaked",
        "locals",
        "pattern",
        "piped",
        "restores",
        "runs",
        "start",
        "subshell",
    )

    def __init__(
        self, closer: str, *, body: bool = False, runs: bool = False, subshell: bool = False
    ) -> None:
        self.closer, self.body, self.subshell = closer, body, subshell  # body: a function's
        self.runs = runs  # once reached, one of its branches surely runs, in this shell
        self.command: list[int] = []
        self.conditional = self.piped = self.pattern = False
        self.assigned: set[str] = set()
        self.locals: set[str] = set()  # a body's: names made ``local`` in it …
        self.leaked: set[str] = set()  # … and those it assigned before that (the caller's)
        self.restores = True  # no ``-g`` declaration, no function defined in it
        self.start = -1  # a subshell's: the index of its ``(``


_Events = dict[int, list[tuple[str, tuple[str, ...]]]]
"""By a word's index, what happens to the variables after it, in order: ``open`` (a group
starts), ``branch`` (another branch of it starts), ``close`` (it ends), ``unsure`` (the
names' assignment may not run or reach), ``kept`` (it never outlives its command: the names
hold what they held before), ``unknown`` (the names are set at run time)."""


class _Reader:
    """Reads a command's words into the :data:`_Events` of its variables."""

    def __init__(self, words: list[str], *, whole: bool) -> None:
        self.words, self.whole = words, whole  # whole: no reserved word spelt quoted
        self.redefined = _redefined(words)
        self.frames = [_Frame("")]
        self.bodies: list[_Frame] = []  # the functions' bodies among them, innermost last
        self.events: _Events = {}
        self.fixed: set[str] = set()
        self.subshells: dict[int, int] = {}  # by a subshell's ``)``, its (outermost) ``(``

    def read(self) -> _Events:
        """Read every word; the events, by word index."""
        for at, word in enumerate(self.words):
            if word == "\n":
                self._end_command(at, ";")
            elif re.match(_PUNCTUATION_RE, word):
                self._punctuation(at, word)
            else:
                self._word(at, word)
        while self.frames:
            self._end_command(len(self.words) - 1, "")
            self.frames.pop()
        return self.events

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
            runs = word == "{" and starts and self._reached(frame)
            self.frames.append(_Frame(_OPENERS_ALL[word], body=not starts, runs=runs))
            if not starts:  # a function's body: one defined in a body may assign anywhere
                self._restore_nothing()
                self.bodies.append(self.frames[-1])
            self.frames[-1].command = [] if word != "case" else [at]
            self._event(at, "open")
        elif starts and word in _LIST_STARTS:
            if word in _BRANCHES:
                self._event(at, "branch")
            if word == "else" and frame.closer == "fi":
                frame.runs = self._reached(self.frames[-2])  # one of its branches surely runs
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
                    subshell = self._subshell(at, word[: len(word) - len(rest) - 1], rest)
                    self.frames.append(_Frame(")", subshell=subshell))
                    self.frames[-1].start = at
                    self._event(at, "open")
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

    def _subshell(self, at: int, before: str, after: str) -> bool:
        """Whether a ``(`` of the punctuation word at ``at`` (``before`` and ``after`` it in
        that word) opens a subshell: the ``(`` of ``$(``, ``<(``, ``>(``, or one starting a
        command (``( … )``, ``; (``, ``then (``) outside arithmetic. Never one of ``((``, nor
        one inside an array (``arr=(…)``), ``[[ ( … ) ]]``, an extglob (``@(…)``) or
        arithmetic: bash keeps what is assigned there."""
        if after.startswith("(") or before.endswith("("):
            return False  # ``((``, ``$((``: arithmetic
        substitution = not before and at > 0 and self.words[at - 1].endswith("$")
        if substitution or before.endswith(("<", ">")):
            return True
        frame = self.frames[-1]
        inside = frame.closer == ")" and not frame.subshell  # an array, ``[[ ( ]]``, arithmetic
        return not frame.command and not inside

    def _close(self, at: int, closer: str) -> None:
        """End the innermost group up to the one ``closer`` ends: a subshell's assignments
        never reach the shell after it; a function's body makes every variable it assigns
        undecided for good (a call may come anywhere), but for those it made ``local`` first
        (gone when it returns)."""
        while len(self.frames) > 1:
            self._end_command(at, "")
            frame = self.frames.pop()
            if frame.body:
                self.bodies.pop()
            whole = self.whole and frame.runs and self._not_forked(at)
            kept = frame.locals - frame.leaked if frame.restores else set()
            if frame.subshell and self.whole:
                self._event(at, "subshell")
                self.subshells[at] = min(self.subshells.get(at, at), frame.start)
            else:
                self._event(at, "whole" if whole else "close", kept)
                self.frames[-1].assigned |= frame.assigned - kept
            if frame.body:
                self.fixed |= frame.assigned - kept
                self._event(at, "unknown", frame.assigned - kept)
            if frame.closer == closer:
                break

    def _restore_nothing(self) -> None:
        """Make every function's body being read put back none of its ``local`` names when
        it ends: a ``declare -g`` in it, or a function defined in it (called later, it
        assigns the caller's), may set the caller's variable."""
        for body in self.bodies:
            body.restores = False

    @staticmethod
    def _reached(parent: _Frame) -> bool:
        """Whether a group opened in ``parent`` runs once its list reaches it: not after
        ``&&`` or ``||``, not reading a pipe (a subshell)."""
        return not (parent.conditional or parent.piped or parent.pattern)

    def _not_forked(self, at: int) -> bool:
        """Whether the group closed at ``at`` runs in this shell: no ``|`` or ``&`` follows it
        (its redirections skipped), nor did it read a pipe."""
        for word in self.words[at + 1 :]:
            if re.match(_PUNCTUATION_RE, word) and not ("<" in word or ">" in word):
                return not (word.startswith(("|", "&;")) or word == "&")
        return True

    def _event(self, at: int, kind: str, names: set[str] | None = None) -> None:
        """Note what happens to the variables ``names`` after the word at ``at``."""
        self.events.setdefault(at, []).append((kind, tuple(sorted(names or ()))))

    def _end_command(self, at: int, ender: str) -> None:
        """End the current simple command of the innermost group with ``ender`` (``;``,
        ``&&``, ``|``, ``;;`` …; "" at a group's end): its assignments decide when it ran in
        this shell, for sure, as a statement (:func:`_assignments`)."""
        frame = self.frames[-1]
        words, frame.command = frame.command, []
        here = not (frame.conditional or frame.piped) and ender not in ("|", "|&", "&")
        local = any(self.words[at] == "local" for at in words)
        bodies = self.bodies
        names = [self.words[at] for at in words if not re.match(_ASSIGNED_RE, self.words[at])]
        # ``local`` holds only as a plain statement of the body's own list: surely run, here
        declares_local = names[:1] == ["local"] and here and bool(bodies) and frame is bodies[-1]
        if names[:1] and names[0] in _DECLARING and any(re.match(_GLOBAL_RE, n) for n in names):
            self._restore_nothing()
        for index, name, said in _assignments(
            self.words, words, self.fixed, body=local and bool(bodies), redefined=self.redefined
        ):
            how = "unsure" if said == "sure" and not self.whole else said  # groups misread
            if bodies and declares_local and "local" not in self.redefined:
                bodies[-1].locals.add(name)
            elif bodies and name not in bodies[-1].locals:
                bodies[-1].leaked.add(name)  # the caller's, or a global
            frame.assigned.add(name)
            self._event(index, "set", {name})
            if how != "sure" or not here:
                kind = "unknown" if how == "unset" and not here else how
                self._event(index, _KINDS.get(kind, "unsure"), {name})
        if ender in ("&&", "||"):
            frame.conditional = True
        elif ender in ("|", "|&"):
            frame.piped = True
        elif ender:
            frame.conditional = frame.piped = False
        if ender in (";;", ";&") and frame.closer == "esac":
            frame.pattern = True
            self._event(at, "branch")


def _assignments(
    words: list[str],
    command: list[int],
    fixed: set[str],
    *,
    body: bool,
    redefined: frozenset[str],
) -> list[tuple[int, str, str]]:
    """Each variable the simple command of the ``words`` at indexes ``command`` assigns, by
    the index of its word, and how: ``sure``, a statement's assignment (``X=1``, ``export
    X=1``, ``${X:=1}``); ``unsure``, a prefix's or one to a name in ``fixed`` (which
    ``readonly`` or ``-r`` adds to), or a ``${X:=1}`` inside another expansion's word (it
    may never be expanded); ``unknown``, a builtin's named variable (``read X``, ``unset X``,
    ``local X``), ``X+=…``, ``X[0]=…``, and a declaring builtin's ``X=1`` that may not assign
    or not its text (:func:`_declares_oddly`: ``local`` outside a function's ``body``, ``-p``,
    ``-f``, ``-n``, ``-i``, ``-u``, ``-l``, or the builtin in ``redefined``)."""
    found: list[tuple[int, str, str]] = []
    plain = [at for at in command if re.match(_ASSIGNED_RE, words[at]) is None]
    name = words[plain[0]] if plain else ""
    declared = name in _DECLARING
    odd = declared and _declares_oddly([words[at] for at in plain], redefined, body=body)
    before = set(fixed)  # ``readonly X=1`` assigns, then fixes X
    unsets = _unsets_plainly(name, [words[at] for at in plain[1:]], redefined)
    if name == "readonly" or (declared and any(re.match(r"^-\w*r", words[a]) for a in plain)):
        fixed.update(re.split(r"[+\[=]", words[at], maxsplit=1)[0] for at in command[1:])
    for at in command:
        word = words[at]
        found.extend(
            (at, m["name"], "unsure" if m["name"] in before or _nested(word, m) else "sure")
            for m in re.finditer(_DEFAULT_RE, word)
        )
        if (assigned := re.match(_ASSIGNED_RE, word)) is not None:
            statement = not plain or (declared and at > plain[0])
            sure = statement and assigned["name"] not in before
            plainly = re.match(_PLAIN_RE, word) is not None  # no ``+=``, no ``X[0]=``
            unknown = not plainly or (odd and at > plain[0])
            found.append((at, assigned["name"], "unknown" if unknown else _how[sure]))
            if plain and at < plain[0] and name in _READERS and name not in redefined:
                found[-1] = (at, assigned["name"], "kept")  # ``IFS=, read``: gone after it
        elif at != (plain[0] if plain else -1) and re.match(_NAME_RE, word):
            named = name in _NAMING or (declared and name != "export")
            if named or (name == "printf" and words[at - 1] == "-v"):
                how = "unset" if unsets and word in ("IFS", "CDPATH") else "unknown"
                found.append((at, word, "unknown" if word in before else how))
    operands = [words[at] for at in plain[1:] if not re.match(_REDIRECTION_RE, words[at - 1])]
    if name == "read" and read_names(operands) == []:
        found.append((plain[0], "REPLY", "unknown"))  # ``read -r < f``: it sets ``REPLY``
    return found


def _unsets_plainly(name: str, operands: list[str], redefined: frozenset[str]) -> bool:
    """Whether the builtin ``name`` with its ``operands`` unsets the variables it names:
    ``unset IFS`` (bash then splits at white space, as with no ``IFS``), ``unset CDPATH``
    (``cd`` then looks in no other folder), each such name then ``unset``, any other
    ``unknown``. Another ``unset`` (``-f``: a function's), one the command redefines, may
    leave it as it was. Read once a command: once for each name it unsets, ``unset IFS IFS
    …`` read its words a number of times quadratic in their count (P-3)."""
    options = {word for word in operands if word.startswith("-")}
    return name == "unset" and options <= {"-v"} and name not in redefined


_READ_VALUED = "adinNptu"
"""The ``read`` options taking a value, glued (``-d,``, ``-n1``) or the next word."""


def read_names(words: list[str]) -> list[str] | None:
    """The variables ``read`` with the ``words`` after its name (as written, quotes taken out)
    sets, as bash reads its options: each name, an ``-a NAME``'s too, ``[]`` when none (it
    sets ``REPLY``); None when one may be any variable: a name that is not a literal plain
    name (``"$v"``, ``X[0]``) or an array's glued to its option (``-ad``, ``-raX``)."""
    names: list[str] = []
    at = 0
    while at < len(words) and words[at].startswith("-") and words[at] != "-":
        word, at = words[at], at + 1
        if word == "--":
            break
        for index, letter in enumerate(word[1:], start=1):
            if letter not in _READ_VALUED:
                continue
            if index + 1 < len(word):  # glued: ``-n1``, ``-ad``
                if letter == "a":
                    return None
            elif at < len(words):
                names.extend([words[at]] if letter == "a" else [])
                at += 1
            break
    names.extend(words[at:])
    return names if all(re.match(_NAME_RE, name) for name in names) else None


_how = {True: "sure", False: "unsure"}
_KINDS = {"unknown": "unknown", "kept": "kept", "unset": "unset"}
"""The event of an assignment that does not surely decide its variable, by how it assigns
(else ``unsure``)."""
_GLOBAL_RE = r"^-[A-Za-z]*g"
"""A declaring builtin's ``-g``: it assigns the global variable, past any ``local`` one."""
_ODD_OPTION_RE = r"^[-+][A-Za-z]*[pfFnuil]"
"""A declaring builtin's option after which ``X=1`` may not set ``X`` to ``1``: ``-p``,
``-f``, ``-F`` (print, name functions), ``-n`` (a name reference, or ``export -n``), ``-i``
(arithmetic), ``-u``, ``-l`` (case changed)."""


def _declares_oddly(command: list[str], redefined: frozenset[str], *, body: bool) -> bool:
    """Whether the declaring builtin running ``command`` (its name first, its words) may not
    assign its ``X=1`` words as written: ``local`` outside a function's ``body`` (an error),
    an option of :data:`_ODD_OPTION_RE`, or a name in ``redefined`` (:func:`_redefined`)."""
    name = command[0]
    return (
        (name == "local" and not body)
        or name in redefined
        or any(re.match(_ODD_OPTION_RE, word) for word in command[1:])
    )


def _redefined(words: list[str]) -> frozenset[str]:
    """The declaring builtins (:data:`_DECLARING`) a function, an alias or ``enable -n`` in
    ``words`` may redefine: each named by a function (``export() {``, ``function local``) or
    an alias (``alias export=…``), every one named anywhere when ``enable`` is."""
    named = (_DECLARING | _READERS | {"unset"}).intersection(words)
    if not named:
        return frozenset()
    if "enable" in words:
        return frozenset(named)
    found = set()
    for at, word in enumerate(words):
        before, after = words[at - 1 : at], words[at + 1 : at + 2]
        if word in named and (after[:1] in (["("], ["()"]) or before == ["function"]):
            found.add(word)
        elif "=" in word and word.split("=", 1)[0] in named:
            found.add(word.split("=", 1)[0])
    return frozenset(found)


def _nested(word: str, match: re.Match[str]) -> bool:
    """Whether the ``${X:=…}`` of ``match`` stands inside another ``${…}`` of ``word``."""
    before = word[: match.start()]
    return before.count("${") > before.count("}")


CHOICES_CAP = 8
"""How many values a variable may be known to hold one of (each judged); past it, undecided."""
_UNSET = object()
"""A variable neither the command nor the environment sets."""


_State = tuple[dict[str, str | None], Mapping[str, list[str] | None]]
"""The variables at one point: the guard's map of them, and the values each undecided one may
hold (its choices; a ``for`` loop's values too)."""


class Scopes:
    """The variables known while a command's words are read, kept as bash keeps them
    (the module's rules): call :meth:`before` ahead of a word's own assignments and
    :meth:`after` once they are in ``known`` (the guard's map of assigned variables, None:
    undecided; a name absent from it takes the environment's value). ``chosen`` is the
    guard's live map of the values an undecided variable may hold (what :meth:`after`
    returned, taken): a group's or a branch's end keeps them, so a branch inside a branch or
    a loop's body read again judges each value, never drops them. A group that surely runs
    one of its branches once reached (``{ …; }``, an ``if`` with an ``else``; not after
    ``&&``, not piped or in the background) leaves only its branches' values, not the one
    before it. When the ``command`` text spells quoted a word the lexer reads as a reserved
    word or an operator (``'fi'``, ``')'``: no such word to bash), every assignment in it is
    taken as one that may not run (the groups and lists are not as read): its variable holds
    one of the values it was ever given there, or the one before."""

    def __init__(
        self,
        words: list[str],
        environ: Mapping[str, str],
        chosen: Mapping[str, list[str] | None],
        command: str,
    ) -> None:
        reader = _Reader(words, whole=not _quoted_closers(command))
        self._events = reader.read()
        self.subshells: Mapping[int, int] = reader.subshells
        """By the index of the word closing a subshell (``( … )``, ``$(…)``), that of the
        word opening it: the shell's folder, too, is as before it after it."""
        self._environ = environ
        self._chosen = chosen
        self._opened: list[tuple[_State, list[_State], set[str]]] = []  # each with its names
        self._held: dict[str, object] = {}

    def before(self, at: int, known: dict[str, str | None]) -> None:
        """Hold the value of each variable the word at ``at`` may assign unsurely."""
        for kind, names in self._events.get(at, ()):
            if kind in ("unsure", "kept"):
                self._held.update((name, self._value(known, self._chosen, name)) for name in names)

    def after(self, at: int, known: dict[str, str | None]) -> dict[str, list[str] | None]:
        """Apply to ``known`` what the word at ``at`` does to the variables (:data:`_Events`);
        the variables it leaves holding one of several known values, each with them (a place
        built from one is judged with each), or with None (no longer so)."""
        choices: dict[str, list[str] | None] = {}
        for kind, names in self._events.get(at, ()):
            if kind == "open":
                self._opened.append((self._state(known, choices), [], set()))
            elif kind == "branch" and self._opened:
                (start, was), ends, touched = self._opened[-1]
                ends.append(self._state(known, choices))
                known.clear()
                known.update(start)
                choices.update((name, was.get(name)) for name in touched | choices.keys())
            elif kind in ("close", "whole", "subshell") and self._opened:
                self._close(
                    known, choices, whole=kind == "whole", kept=names, all_kept=kind == "subshell"
                )
            elif kind == "set":
                choices.update(dict.fromkeys(names))
            elif kind == "unsure":
                chosen = ChainMap(choices, self._chosen)  # type: ignore[arg-type]
                for name in names:
                    held = self._held.pop(name, _UNSET)
                    self._merge(known, name, [held, self._value(known, chosen, name)], choices)
            elif kind == "kept":  # as before the assignment: ``IFS=, read -r a b``
                for name in names:
                    self._merge(known, name, [self._held.pop(name, _UNSET)], choices)
            elif kind == "unset":  # ``unset IFS``: bash's white space
                for name in names:
                    self._merge(known, name, [_UNSET], choices)
            elif kind == "unknown":
                known.update(dict.fromkeys(names))
                choices.update(dict.fromkeys(names))
        if self._opened:
            self._opened[-1][2].update(choices)
        return choices

    def _state(self, known: dict[str, str | None], choices: dict[str, list[str] | None]) -> _State:
        """A copy of the variables now: ``known``, and the choices (``choices`` over the
        guard's)."""
        return dict(known), {**self._chosen, **choices} if choices else dict(self._chosen)

    def _close(
        self,
        known: dict[str, str | None],
        choices: dict[str, list[str] | None],
        *,
        whole: bool,
        kept: tuple[str, ...],
        all_kept: bool,
    ) -> None:
        """End the innermost group: each variable whose value or choices its branches changed
        holds one of its values at their ends (and before it, unless ``whole``: one surely
        ran); those ``kept`` (a function's ``local`` ones), or every one when ``all_kept`` (a
        subshell's), hold the value before it, with its choices. Only those are merged (the
        names the group assigned, and any the guard changed in ``known``), so a long run of
        groups costs what it assigns."""
        start, ends, touched = self._opened.pop()
        states = [start, *ends, self._state(known, choices)]
        states = states[1:] if whole else states
        names = touched | choices.keys()
        for each, _chosen in states:
            names.update(name for name, _ in each.items() ^ start[0].items())
        for name in names:
            before = all_kept or name in kept
            values = [self._value(*state, name) for state in ([start] if before else states)]
            self._merge(known, name, values, choices)
            if before:
                choices[name] = start[1].get(name)
        if self._opened:
            self._opened[-1][2].update(names)

    def _value(
        self, state: dict[str, str | None], chosen: Mapping[str, list[str] | None], name: str
    ) -> object:
        """What ``name`` holds in ``state``: its value, the tuple of values it may hold (from
        ``chosen``), None (undecided) or :data:`_UNSET`."""
        value = state[name] if name in state else self._environ.get(name, _UNSET)
        values = chosen.get(name) if value is None else None
        return tuple(values) if values is not None else value

    def _merge(
        self,
        known: dict[str, str | None],
        name: str,
        values: list[object],
        choices: dict[str, list[str] | None],
    ) -> None:
        """Set ``name`` in ``known`` to the one value ``values`` agree on (a tuple in them: any
        of its values); a ``PATH`` or ``IFS`` none leaves undecided, to all they hold
        (:data:`_JOINED`); else undecided, with the values it may hold (unset: empty) put in
        ``choices`` when none is undecided and at most :data:`CHOICES_CAP` differ (else
        None: no choices)."""
        values = [each for value in values for each in _each(value)]
        first = values[0]
        if all(value == first for value in values):
            if first is _UNSET:
                known.pop(name, None)
            else:
                known[name] = first if isinstance(first, str) else None
            return
        spelt = [_UNSET_SPELT.get(name, "") if value is _UNSET else value for value in values]
        if name in _JOINED and all(isinstance(value, str) for value in spelt):
            known[name] = _JOINED[name](str(value) for value in spelt)
            choices[name] = None
            return
        known[name] = None
        held = list(dict.fromkeys(str(value) for value in spelt))
        decided = all(isinstance(value, str) for value in spelt)  # none undecided
        choices[name] = held if decided and len(held) <= CHOICES_CAP else None


_JOINED: dict[str, Callable[[Iterable[str]], str]] = {
    "PATH": lambda values: ":".join(
        dict.fromkeys(folder for value in values for folder in value.split(":"))
    ),
    "IFS": lambda values: "".join(sorted({char for value in values for char in value})),
}
"""Variables that, holding one of several values, are read as holding them all: ``PATH``
every folder any holds (a program is looked for in each), ``IFS`` every character any holds
(an unquoted value may be split at each; unset, bash's white space)."""


_UNSET_SPELT = {"IFS": " \t\n"}
"""What an unset variable holds where one of several values is read: ``IFS`` unset splits at
bash's white space; any other, empty."""


def _each(value: object) -> tuple[object, ...]:
    """The values ``value`` stands for: a tuple's own, else itself."""
    return value if isinstance(value, tuple) else (value,)


_SPELT_AS_WORDS = frozenset({*_OPENERS_ALL, *_CLOSERS, *_LIST_STARTS})
"""The reserved words the reader acts on: spelt quoted, bash reads them as plain words."""
_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
"""``find``'s actions running a command, as :data:`~harness_memory.hooks.option_words.
FIND_RUNNING` (a module of this layer, which this one may not import): a test holds them
equal."""


def _quoted_closers(command: str) -> bool:
    """Whether ``command`` holds a word with a quote or backslash that, those taken out, is a
    reserved word the reader acts on (``'fi'``, ``"done"``, ``\\}``) or made only of ``|&()``
    or ``;`` (``')'``, ``\\|``): the lexer reads it as that word or operator, bash as a plain
    word, so the command's groups and lists are not as read (a ``;`` only outside a ``find``
    action's ``\\;``). Errs towards True."""
    finds = not _FIND_ACTIONS.isdisjoint(command.split())
    for word in _quoted_words(command):
        bare = word.rstrip(";")
        if bare in _SPELT_AS_WORDS or (bare and not bare.strip("|&()")):
            return True
        if word and not word.strip(";") and not finds:
            return True
    return False


def _quoted_words(command: str) -> list[str]:
    """The words of ``command`` (split at white space outside quotes) that hold a quote or a
    backslash, those taken out (``$'…'`` and ``$"…"`` as their text)."""
    words: list[str] = []
    word: list[str] = []
    quote, quoted, at = "", False, 0
    while at < len(command):
        char = command[at]
        if char == "\\" and quote != "'":
            word.append(command[at + 1 : at + 2])
            quoted, at = True, at + 2
            continue
        if quote:
            quote = "" if char == quote else quote
            word.extend(char if quote else "")
        elif char in "'\"":
            if word[-1:] == ["$"]:
                word.pop()
            quote, quoted = char, True
        elif char.isspace():
            words.extend(["".join(word)] if quoted else [])
            word, quoted = [], False
        else:
            word.append(char)
        at += 1
    return words + (["".join(word)] if quoted else [])
