"""One memory per Session: a harness's own memory switched off by install, restored by uninstall
(H-6).

Claude Code, Codex CLI and Gemini CLI each carry a memory of their own that would compete with
Agent Memory: a second memory section in the model's input and a second place to write. Where a
setting turns it off (:class:`Switch`), :func:`switch_off` sets it and keeps what was
there before in the install record (``<settings folder>/harness-memory/install.json``):
the value, or that the key was absent, and which of the tables above it the install made or
put in place of a value that was no table (``"env": null``). :func:`switches_back` puts exactly
that back on uninstall — unless the user changed the setting since, which is then left as it
is and said; a table the install did not make stays, empty or not, and a value it put a table
in place of comes back.
The tables and lists an install adds entries to (Claude Code's ``permissions.allow``, Gemini
CLI's ``context.includeDirectories``) are kept the same way: :func:`note_made` before the
install changes them, :func:`give_back_made` after the uninstall took its entries out. A
re-install never records its own value as "what was there".

Works on a JSON settings object (a ``dict``) and on a ``tomlkit`` document alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Switch",
    "give_back_made",
    "note_made",
    "plain_value",
    "switch_off",
    "switches_back",
]

Record = dict[str, Any]
"""The install record's ``previous``: dotted key → ``{"value": v}`` or ``{"absent": true,
"made": Made}``; ``made:`` and a dotted key → the :data:`Made` of the tables and list there."""

Made = dict[str, Any]
"""What an install found on the way to a nested key (:func:`made_on_the_way`):
``{"depth": i}`` when ``keys[i]`` was absent (the install made it and what is below),
``{"depth": i, "value": v}`` when it held ``v``, which is no table or list (a ``null``: the
install put its own in its place), ``{"depth": len(keys)}`` when every one was there (with
``"list": true`` when the last was a list)."""


@dataclass(frozen=True, slots=True)
class Switch:
    """A setting at ``keys`` (nested tables) that turns ``what`` off when it holds ``off``;
    ``default_on`` says whether the harness has it on when the key is absent."""

    keys: tuple[str, ...]
    off: Any
    what: str
    default_on: bool
    done: str = "turned off"
    """What setting it does, as the install says it: ``turned off``; ``pinned on`` for a
    requirement that keeps a feature on."""
    when_absent: str | None = None
    """What the harness does while the key is absent, as the install says it, where
    ``default_on`` does not tell (a variable that, unset, leaves the choice to another key)."""
    why: str = ""
    """Why the install sets it, one clause said after the setting (``""``: ``what`` says it).
    The install's sentence for a switch is always said, ``--verbose`` or not (H-3: the summary
    says everything the install turned off; a setting said only with ``--verbose`` was one a
    newcomer never heard of until ``uninstall`` named it)."""

    @property
    def dotted(self) -> str:
        """The key as the user writes it: ``features.memories``."""
        return ".".join(self.keys)


_ABSENT = object()


def _get(document: Any, keys: tuple[str, ...]) -> Any:
    current = document
    for key in keys:
        if not hasattr(current, "get") or key not in current:
            return _ABSENT
        current = current[key]
    return plain_value(current)


def plain_value(value: Any) -> Any:
    """A ``tomlkit`` item as the plain value it holds (``unwrap``), anything else as it is."""
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


def _set(
    document: MutableMapping[str, Any],
    keys: tuple[str, ...],
    value: Any,
    new_table: Callable[[], Any],
) -> None:
    current: Any = document
    for key in keys[:-1]:
        if key not in current or not hasattr(current[key], "get"):
            current[key] = new_table()
        current = current[key]
    current[keys[-1]] = value


def _delete(document: MutableMapping[str, Any], keys: tuple[str, ...], keep: int = 0) -> None:
    """Delete the key and every table it leaves empty on the way up, but for the first ``keep``
    tables of ``keys`` (those the install found there)."""
    parents: list[Any] = [document]
    for key in keys[:-1]:
        parents.append(parents[-1][key])
    del parents[-1][keys[-1]]
    for depth in range(len(keys) - 1, keep, -1):
        if len(parents[depth]) == 0:
            del parents[depth - 1][keys[depth - 1]]


def _holds(value: Any) -> bool:
    """Whether ``value`` is a table (JSON object, TOML table) or a list, which an install may
    add to and take its own out of again."""
    return hasattr(value, "get") or isinstance(value, list)


def made_on_the_way(document: Any, keys: tuple[str, ...]) -> Made:
    """What putting a table or list at each of ``keys`` (nested, the last one included) in
    ``document`` makes: see :data:`Made`."""
    current = document
    for depth, key in enumerate(keys):
        if not hasattr(current, "get") or key not in current:
            return {"depth": depth}
        current = current[key]
        if not _holds(current):
            return {"depth": depth, "value": plain_value(current)}
    return {"depth": len(keys), "list": True} if isinstance(current, list) else {"depth": len(keys)}


def note_made(document: Any, keys: tuple[str, ...], previous: Record) -> None:
    """Keep in ``previous`` what an install that adds to the table or list at ``keys`` of
    ``document`` makes on the way (once: an install again finds its own). ``document`` is the
    settings with a former install's entries taken out (:func:`~harness_memory.installers.
    spec.without_our_roots`): an install from before the record kept ``made:`` found the
    user's settings, not the lists it made there."""
    previous.setdefault("made:" + ".".join(keys), made_on_the_way(document, keys))


def give_back_made(
    document: MutableMapping[str, Any],
    keys: tuple[str, ...],
    previous: Record,
    *,
    before: Any = None,
    new_table: Callable[[], Any] = dict,
) -> None:
    """After an uninstall took its entries out of the table or list at ``keys``, and with them
    whatever it left empty: put back each table or list the install found there (the last of
    ``keys`` a list when it was one), and the value it put its own in place of, when what
    stands there now is empty or gone (:func:`note_made` kept both), but not one already
    gone from ``before`` (the file as the uninstall read it): the user took that out since,
    and it stays out. A key put back takes the place it has in ``before``, not the end."""
    made = previous.pop("made:" + ".".join(keys), None)
    if isinstance(made, dict):
        _give_back(document, keys, made, new_table, before)


def _give_back(
    document: MutableMapping[str, Any],
    keys: tuple[str, ...],
    made: Made,
    new_table: Callable[[], Any],
    before: Any = None,
) -> None:
    depth = made.get("depth")
    if not isinstance(depth, int):
        return
    for index in range(min(depth + 1, len(keys))):
        now = _get(document, keys[: index + 1])
        if now is _ABSENT and before is not None and _get(before, keys[: index + 1]) is _ABSENT:
            return  # the user took it out after the install: so it stays
        if index == depth:  # the install put its own in place of a value: that value again
            if "value" in made and (now is _ABSENT or (_holds(now) and len(now) == 0)):
                _put_back(document, keys[: index + 1], made["value"], before)
        elif now is _ABSENT:  # found there: an empty one taken out comes back
            last = index == len(keys) - 1 and made.get("list") is True
            _put_back(document, keys[: index + 1], [] if last else new_table(), before)
        elif not _holds(now):
            return  # changed since: left as it is


def _put_back(document: Any, keys: tuple[str, ...], value: Any, before: Any) -> None:
    """Set ``keys`` (its tables there) to ``value``; a key absent now goes where it stands
    among its neighbours in ``before`` (a plain ``dict``'s order is rebuilt around it)."""
    table = document
    for key in keys[:-1]:
        table = table[key]
    key = keys[-1]
    found = _get(before, keys[:-1]) if before is not None else _ABSENT
    order = list(found) if isinstance(found, dict) else []
    if key in table or type(table) is not dict or key not in order:
        table[key] = value
        return
    after = set(order[order.index(key) + 1 :])
    items = list(table.items())
    table.clear()
    for name, held in items:
        if key not in table and name in after:
            table[key] = value
        table[name] = held
    table.setdefault(key, value)


def switch_off(
    document: MutableMapping[str, Any],
    switch: Switch,
    previous: Record,
    new_table: Callable[[], Any] = dict,
    *,
    found: Any = None,
) -> str:
    """Set ``switch`` off in ``document``; note in ``previous`` what was there (unless a former
    install already did), the tables on the way as ``found`` holds them: the settings as the
    install read them (default: ``document``, which an install may have changed already).
    Returns the sentence the install prints: what it did and what was there before, or,
    installed again over the former install's own value, that it is *still* so (H-3:
    installing again changes nothing)."""
    current = _get(document, switch.keys)
    # installed again over a former install's own value: nothing changes here, and the sentence
    # says so ("nothing to change" followed by "turned off … not set before" read as a change)
    again = switch.dotted in previous and current is not _ABSENT and current == switch.off
    if switch.dotted not in previous:
        previous[switch.dotted] = (
            {
                "absent": True,
                "made": made_on_the_way(document if found is None else found, switch.keys[:-1]),
            }
            if current is _ABSENT
            else {"value": current}
        )
    was = previous[switch.dotted]
    _set(document, switch.keys, switch.off, new_table)
    if "absent" in was and switch.when_absent is not None:
        before = switch.when_absent
    elif "absent" in was:
        before = "on by default" if switch.default_on else "off by default; now off explicitly"
    else:
        before = f"{switch.dotted} was {_shown(was['value'])}"
    setting = f"{switch.dotted} = {_shown(switch.off)}"
    why = f": {switch.why}" if switch.why else ""
    if again:
        return (
            f"{switch.what}: still {switch.done} ({setting}, as the install before left it; "
            f"before that install: {_was(switch, was)}){why}."
        )
    return f"{switch.what}: {switch.done} ({setting}; {before}){why}."


def _was(switch: Switch, was: dict[str, Any]) -> str:
    """What the first install found at ``switch`` (``was``, its record), said after it."""
    if "absent" not in was:
        return _shown(was["value"])
    if switch.when_absent is not None:
        return "not set"
    return f"not set, {'on' if switch.default_on else 'off'} by default"


def switches_back(
    document: MutableMapping[str, Any],
    switches: Iterable[Switch],
    previous: Record,
    *,
    first: Any = None,
    then: Callable[[], object] | None = None,
) -> list[str]:
    """Put back what the install found at each of ``switches``, then run ``then`` (the
    uninstall's :func:`give_back_made` of the tables and lists it added to); the sentences
    uninstall prints, one per switch the install set, made after ``then``: a table on the way
    that a give-back put back is not said to be taken out (Gemini CLI's ``context`` holds a
    switch and the list the memory root goes into).

    A switch the user changed since is left as it is and said. A record of an older install
    keeps no ``made`` for a switch it found absent: whether the tables on its way (Claude
    Code's ``env``, Codex's ``[features]``) were the user's, perhaps empty, or its own.
    ``first``, the settings as the first install's backup holds them
    (:meth:`~harness_memory.installers.record.InstallRecord.first_found`), tells; without it a
    table left empty is taken out and the sentence says so, and that it cannot tell (H-6)."""
    backs = [_switched_back(document, switch, previous, first) for switch in switches]
    if then is not None:
        then()
    return [said for back in backs if (said := back.said(document)) is not None]


@dataclass(frozen=True, slots=True)
class _Back:
    """One switch put back: its ``sentence`` (None: the install never set it), and the depths
    of the tables on its way that were there and that no record says were the user's."""

    switch: Switch
    sentence: str | None
    unknown: tuple[int, ...] = ()

    def said(self, document: Any) -> str | None:
        """The sentence, naming the first of the unknown tables ``document`` no longer has."""
        gone = [k for k in self.unknown if _get(document, self.switch.keys[:k]) is _ABSENT]
        if self.sentence is None or not gone:
            return self.sentence
        table = ".".join(self.switch.keys[: gone[0]])
        return (
            f"{self.sentence} {table} was taken out with it, left empty: the install that set "
            "it (an older harness-memory) noted not whether it was there before, and no backup "
            f"from before it is left, so uninstall cannot tell; if you had {table}, empty, add "
            "it back."
        )


def _switched_back(
    document: MutableMapping[str, Any], switch: Switch, previous: Record, first: Any
) -> _Back:
    current = _get(document, switch.keys)
    was = previous.get(switch.dotted)
    if was is None:
        if current is _ABSENT or current != switch.off:
            return _Back(switch, None)
        return _Back(
            switch,
            f"{switch.what}: {switch.dotted} = {_shown(switch.off)} stays: no record of its "
            "value before the install (set it back yourself if you had it otherwise).",
        )
    if current is _ABSENT or current != switch.off:
        return _Back(
            switch,
            f"{switch.what}: {switch.dotted} left as it is ({_shown(current)}): "
            "it was changed after the install.",
        )
    if "absent" in was:
        made = was.get("made")
        if not isinstance(made, dict) and first is not None and _get(first, switch.keys) is _ABSENT:
            made = made_on_the_way(first, switch.keys[:-1])  # as the first backup holds them
        unknown = not isinstance(made, dict)
        made = made if isinstance(made, dict) else {}
        found = made.get("depth", 0) if isinstance(made.get("depth", 0), int) else 0
        tables = [
            k for k in range(1, len(switch.keys)) if _get(document, switch.keys[:k]) is not _ABSENT
        ]
        # the tables found there stay; one put in place of a value (a null) is set back to it
        _delete(document, switch.keys, found + 1 if "value" in made else found)
        _give_back(document, switch.keys[:-1], made, dict)
        said = f"{switch.what}: {switch.dotted} taken out again (not set before the install)."
        return _Back(switch, said, tuple(tables) if unknown else ())
    _set(document, switch.keys, was["value"], dict)
    return _Back(
        switch,
        f"{switch.what}: {switch.dotted} = {_shown(was['value'])} again, as before the install.",
    )


def _shown(value: Any) -> str:
    """``value`` as the settings file spells it (JSON, which TOML's strings, numbers and
    booleans share): ``null``, ``"yes"``, never Python's ``None`` or ``'yes'``."""
    if value is _ABSENT:
        return "(not set)"
    return json.dumps(value, ensure_ascii=False, default=str)
