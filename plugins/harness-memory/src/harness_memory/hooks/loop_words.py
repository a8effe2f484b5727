"""A loop's variable naming the program, read as each literal word in its place (P-3, round 59).

``for x in ls bash; do "$x" ~/w; done`` runs ``ls ~/w``, then ``bash ~/w``: the program is
each word the loop gives. The guard reads a command's words once, with one program per
simple command, so :func:`loops_unrolled` reads such a loop as one loop per word, in turn, in
a group standing where the loop stood (its redirections and pipes apply to the group as to
the loop): ``{ for x in ls ; do "$x" ~/w ; done ; for x in bash ; do "$x" ~/w ; done ; for x
in ls bash ; do : ; done ; }``. There the variable holds one value, which the guard puts in
the program's place (:class:`~harness_memory.hooks.tool_targets.ShellPaths`' reader: ``bash
~/w`` runs a script it follows), and what one word's run writes is read before the next one's
runs. The last loop, running nothing, leaves the variable after the group as after the loop:
holding the last word when the body surely runs for each (``for t in ruff mypy; do "$t" .;
done; "$t" --version`` runs ``mypy --version``), else any of them (a ``break`` may stop it at
any word: ``for x in bash ls; do "$x" -V; break; done; "$x" ~/w`` runs ``bash ~/w``).

Only a ``for`` or ``select`` loop over at most :data:`~harness_memory.hooks.
split_substitutions.LOOP_VALUES_CAP` literal words (:data:`~harness_memory.hooks.
split_substitutions.LITERAL_WORD_RE`: no quote, expansion, glob or brace) whose body names its
variable in a word (``$x``, ``${x}``, ``"$x"/run.sh``, ``"python$x"``, ``$("$x" -V)``: a
word the guard may read as a program, after ``|``, ``&&``, ``time``, ``env``, ``xargs``, in
a substitution) is so read; a ``select`` loop is
read as a ``for`` over its words (the one chosen is one of them). A loop over other words
naming its program by its variable is refused before (:func:`~harness_memory.hooks.
split_substitutions.split_words_run`). The words added are at most :data:`UNROLLED_CAP`; a
loop past it is kept as written and its variable's name returned, for the guard to refuse
its program as unknown. Linear in the words added.
"""

from __future__ import annotations

import re

from harness_memory.hooks.split_substitutions import LITERAL_WORD_RE, LOOP_VALUES_CAP

__all__ = ["UNROLLED_CAP", "loop_names", "loops_unrolled"]

UNROLLED_CAP = 20_000
"""The most words the loops read once per word add to a command."""
_NAME_RE = r"[A-Za-z_][A-Za-z0-9_]*"
_COMMAND_STARTS = frozenset({";", "&&", "||", "|", "&", "(", ")", "{", "do", "then", "else", "!"})
_COMMAND_STARTS |= {"time", ";;", ";&", ";;&", "|&"}
"""Words after which the next starts a command (a loop's ``for`` among them; ``)`` ends a
``case`` pattern)."""


def loops_unrolled(words: list[str]) -> tuple[list[str], list[str]]:
    """``words`` (a command lexed: quotes read, a line break as ``;``) with each loop of the
    module's kind read as one loop per literal word in a group; and the names of the loops'
    variables left as written past :data:`UNROLLED_CAP`. Nested loops are read inside out
    (``for d in a b; do for x in ls bash; do "$x"; done; done``)."""
    if "do" not in words:
        return words, []
    unread: list[str] = []
    return _unrolled(words, 0, len(words), [UNROLLED_CAP], unread), unread


def loop_names(words: list[str]) -> frozenset[str]:
    """The names ``for`` and ``select`` loops in ``words`` (a command lexed) set, any word
    ``for`` or ``select`` taken as one (an argument too: naming more fails closed): a program
    named by one is judged only where the loop gives it one word (:func:`loops_unrolled`);
    after its loop, or set again, it holds one of several values, or the empty one."""
    return frozenset(
        words[at + 1]
        for at, word in enumerate(words[:-1])
        if word in ("for", "select") and re.fullmatch(_NAME_RE, words[at + 1])
    )


def _unrolled(
    words: list[str], start: int, end: int, budget: list[int], unread: list[str]
) -> list[str]:
    """``words[start:end]`` unrolled (:func:`loops_unrolled`), ``budget[0]`` the words it may
    still add, each loop's name left as written past it added to ``unread``."""
    out: list[str] = []
    at = start
    while at < end:
        header = _literal_header(words, at, end)
        done = None if header is None else _done_at(words, header[2], end)
        if header is None or done is None:
            out.append(words[at])
            at += 1
            continue
        name, values, do = header
        body = _unrolled(words, do + 1, done, budget, unread)
        naming = any(re.search(rf"\$\{{?{name}(?![A-Za-z0-9_])", word) for word in body)
        added = (len(body) + 9) * len(values) + 10
        if naming and added > budget[0]:
            unread.append(name)
        if not naming or added > budget[0]:
            out.extend([*words[at : do + 1], *body, "done"])
        else:
            budget[0] -= added
            out.append("{")
            for value in values:
                out.extend(["for", name, "in", value, ";", "do", *body, "done", ";"])
            through = _runs_through(name, body) and _in_this_shell(words, at, done)
            left = values[-1:] if through else values
            out.extend(["for", name, "in", *left, ";", "do", ":", ";", "done", ";", "}"])
        at = done + 1
    return out


_LEAVING = frozenset({"break", "return"})
"""Words ending a loop before its last word (``break``; ``return`` in a function's body)."""


def _runs_through(name: str, body: list[str]) -> bool:
    """Whether a loop whose variable is ``name`` surely runs its ``body`` (its words, lexed)
    for every word, leaving ``name`` holding the last (``for t in ruff mypy; do "$t" .;
    done; "$t" --version`` runs ``mypy --version``): the body holds no ``break`` or
    ``return``, and names ``name`` only in its expansions (``$t``, ``${t}``, ``${#t}``), never
    bare, as an assignment (``t=x``), ``read t``, ``printf -v t`` or an arithmetic one would."""
    bare = rf"(?<![$A-Za-z0-9_{{#!]){name}(?![A-Za-z0-9_])"
    return not any(word in _LEAVING or re.search(bare, word) for word in body)


def _in_this_shell(words: list[str], at: int, done: int) -> bool:
    """Whether the loop from ``words[at]`` to its ``done`` runs in the shell itself, so what
    it leaves in its variable is there after it: inside no ``( … )`` or ``$(…)``, after no
    pipe, and neither piped nor put in the background after it (nor the ``{ … }`` groups
    closing after it: ``{ for …; done; } | cat`` runs in a subshell)."""
    opened = sum(word.endswith("(") for word in words[:at])
    if opened > sum(word.startswith(")") for word in words[:at]) or words[at - 1 : at] == ["|"]:
        return False
    after = done + 1
    while after < len(words):
        word = words[after]
        if word in ("|", "|&", "&") or word.startswith(")"):
            return False
        if word in (";", "&&", "||") and words[after + 1 : after + 2] != ["}"]:
            return True
        after += 1
    return True


def _literal_header(words: list[str], at: int, end: int) -> tuple[str, list[str], int] | None:
    """The name, the words and the index of ``do`` of the ``for`` or ``select`` loop over at
    most :data:`LOOP_VALUES_CAP` literal words opening at ``words[at]``; None for any other
    word (a ``for`` that is an argument, ``for ((…))``, ``for x; do``, a word not literal)."""
    if words[at] not in ("for", "select") or (at and words[at - 1] not in _COMMAND_STARTS):
        return None
    if at + 2 >= end or not re.fullmatch(_NAME_RE, words[at + 1]) or words[at + 2] != "in":
        return None
    values: list[str] = []
    for index in range(at + 3, min(end, at + 4 + LOOP_VALUES_CAP)):
        if words[index] == ";":
            follows = index + 1 < end and words[index + 1] == "do"
            return (words[at + 1], values, index + 1) if values and follows else None
        if not re.fullmatch(LITERAL_WORD_RE, words[index]):
            return None
        values.append(words[index])
    return None


def _done_at(words: list[str], do: int, end: int) -> int | None:
    """The index of the ``done`` closing the ``do`` at ``words[do]`` before ``end``; None
    when none closes it there."""
    depth = 0
    for at in range(do, end):
        if words[at] == "do":
            depth += 1
        elif words[at] == "done":
            depth -= 1
            if depth == 0:
                return at
    return None
