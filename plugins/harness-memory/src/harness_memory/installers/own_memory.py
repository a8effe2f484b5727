"""One memory per Session: a harness's own memory switched off by install, restored by uninstall
(H-6).

Claude Code, Codex CLI and Gemini CLI each carry a memory of their own that would compete with
Agent Memory: a second memory section in the model's input and a second place to write. Where a
setting turns it off (:class:`Switch`), :func:`switch_off` sets it and keeps what was
there before in the install record (``<settings folder>/harness-memory/install.json``):
the value, or that the key was absent. :func:`switch_back` puts exactly that back on uninstall —
unless the user changed the setting since, which is then left as it is and said. A re-install
never records its own value as "what was there".

Works on a JSON settings object (a ``dict``) and on a ``tomlkit`` document alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Switch", "switch_back", "switch_off"]

Record = dict[str, Any]
"""The install record's ``previous``: dotted key → ``{"value": v}`` or ``{"absent": true}``."""


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
    return _plain(current)


def _plain(value: Any) -> Any:
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


def _delete(document: MutableMapping[str, Any], keys: tuple[str, ...]) -> None:
    """Delete the key and every table it leaves empty on the way up."""
    parents: list[Any] = [document]
    for key in keys[:-1]:
        parents.append(parents[-1][key])
    del parents[-1][keys[-1]]
    for depth in range(len(keys) - 1, 0, -1):
        if len(parents[depth]) == 0:
            del parents[depth - 1][keys[depth - 1]]


def switch_off(
    document: MutableMapping[str, Any],
    switch: Switch,
    previous: Record,
    new_table: Callable[[], Any] = dict,
) -> str:
    """Set ``switch`` off in ``document``; note in ``previous`` what was there (unless a former
    install already did). Returns the sentence the install prints: what it did and what was
    there before, or, installed again over the former install's own value, that it is *still*
    so (H-3: installing again changes nothing)."""
    current = _get(document, switch.keys)
    # installed again over a former install's own value: nothing changes here, and the sentence
    # says so ("nothing to change" followed by "turned off … not set before" read as a change)
    again = switch.dotted in previous and current is not _ABSENT and current == switch.off
    if switch.dotted not in previous:
        previous[switch.dotted] = {"absent": True} if current is _ABSENT else {"value": current}
    was = previous[switch.dotted]
    _set(document, switch.keys, switch.off, new_table)
    if "absent" in was and switch.when_absent is not None:
        before = switch.when_absent
    elif "absent" in was:
        before = "on by default" if switch.default_on else "off by default; now off explicitly"
    else:
        before = f"{switch.dotted} was {_shown(was['value'])}"
    setting = f"{switch.dotted} = {_shown(switch.off)}"
    if again:
        return (
            f"{switch.what}: still {switch.done} ({setting}, as the install before left it; "
            f"before that install: {_was(switch, was)})."
        )
    return f"{switch.what}: {switch.done} ({setting}; {before})."


def _was(switch: Switch, was: dict[str, Any]) -> str:
    """What the first install found at ``switch`` (``was``, its record), said after it."""
    if "absent" not in was:
        return _shown(was["value"])
    if switch.when_absent is not None:
        return "not set"
    return f"not set, {'on' if switch.default_on else 'off'} by default"


def switch_back(document: MutableMapping[str, Any], switch: Switch, previous: Record) -> str | None:
    """Put back what the install found at ``switch``; the sentence uninstall prints, or None
    when the install never set it."""
    current = _get(document, switch.keys)
    was = previous.get(switch.dotted)
    if was is None:
        if current is _ABSENT or current != switch.off:
            return None
        return (
            f"{switch.what}: {switch.dotted} = {_shown(switch.off)} stays: no record of its value "
            "before the install (set it back yourself if you had it otherwise)."
        )
    if current is _ABSENT or current != switch.off:
        return (
            f"{switch.what}: {switch.dotted} left as it is ({_shown(current)}): "
            "it was changed after the install."
        )
    if "absent" in was:
        _delete(document, switch.keys)
        return f"{switch.what}: {switch.dotted} taken out again (not set before the install)."
    _set(document, switch.keys, was["value"], dict)
    return f"{switch.what}: {switch.dotted} = {_shown(was['value'])} again, as before the install."


def _shown(value: Any) -> str:
    """``value`` as the settings file spells it (JSON, which TOML's strings, numbers and
    booleans share): ``null``, ``"yes"``, never Python's ``None`` or ``'yes'``."""
    if value is _ABSENT:
        return "(not set)"
    return json.dumps(value, ensure_ascii=False, default=str)
