"""Our hooks in a Codex ``config.toml``'s inline ``[hooks]`` tables (H-3, H-6).

Codex CLI runs the hooks of a config layer from both its ``hooks.json`` and the inline
``[hooks]`` tables of its ``config.toml`` (``[[hooks.SessionStart]]`` with
``[[hooks.SessionStart.hooks]]``, or ``SessionStart = [{hooks = [...]}]``): "matching hooks from
multiple files all run". The install writes ours into ``hooks.json`` only, so a hook of ours
inline in ``config.toml`` (written by hand, or by another tool) runs beside it: two memory
injections per Session, two guards. :func:`take_ours_out` takes them out of a ``tomlkit``
document, keeping the user's own inline hooks, and re-keys the trust entries of those that move.

Codex keys a hook's trust entry by its position (codex-rs ``hooks::hook_key``):
``[hooks.state."<config.toml path>:<event label>:<group index>:<handler index>"]``, the event
label in snake case (``session_start``), the indexes counting every group of the event's list
and every handler of the group. ``[hooks.state]`` is the trust table, no event.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.container import Container
from tomlkit.items import AoT, Comment, Item, Table, Trivia, Whitespace

from harness_memory.installers.spec import is_ours

__all__ = [
    "apply_state",
    "as_hooks_document",
    "event_label",
    "inline_commands",
    "inline_line",
    "keep_comments",
    "no_gaps",
    "our_moves",
    "rekeyed",
    "take_ours_out",
    "taken_out_note",
    "trust_entries",
]

HARNESS = "codex"
_STATE = "state"
"""The key of ``[hooks]`` holding the trust entries, not an event."""

Position = tuple[int, int]
"""``(group index, handler index)`` of a handler in one event's list."""
Moves = dict[str, dict[Position, Position | None]]
"""Per event, where each handler goes when ours are taken out: old → new position, or None."""


def event_label(event: str) -> str:
    """The label Codex keys an event's trust entries with: ``PreToolUse`` → ``pre_tool_use``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def _events(config: Any) -> Mapping[str, Any]:
    """The inline hook events of a ``config.toml`` document: event name → list of groups."""
    hooks = config.get("hooks") if isinstance(config, Mapping) else None
    if not isinstance(hooks, Mapping):
        return {}
    return {
        str(event): groups
        for event, groups in hooks.items()
        if event != _STATE and isinstance(groups, list)
    }


def _handlers(group: Any) -> list[Any]:
    handlers = group.get("hooks") if isinstance(group, Mapping) else None
    return handlers if isinstance(handlers, list) else []


def _ours(handler: Any) -> bool:
    return isinstance(handler, Mapping) and is_ours(handler.get("command"), HARNESS)


def inline_commands(config: Any) -> dict[str, list[str]]:
    """Per event, the commands of our hooks inline in a ``config.toml`` document (plain or
    ``tomlkit``); events without one are left out."""
    found: dict[str, list[str]] = {}
    for event, groups in _events(config).items():
        commands = [
            str(handler["command"])
            for group in groups
            for handler in _handlers(group)
            if _ours(handler)
        ]
        if commands:
            found[event] = commands
    return found


def as_hooks_document(config: Any) -> dict[str, Any]:
    """Our hooks inline in the ``config.toml`` document ``config`` as a ``hooks.json``
    document (``{"hooks": {event: [{"hooks": [{"type": "command", "command": …}]}]}}``):
    what :func:`~harness_memory.installers.spec.installed_roots` reads the memory roots of,
    which an install or uninstall takes out of ``writable_roots`` with those hooks (H-3)."""
    return {
        "hooks": {
            event: [{"hooks": [{"type": "command", "command": c} for c in commands]}]
            for event, commands in inline_commands(config).items()
        }
    }


def take_ours_out(config: Any, key_source: str) -> int:
    """Take our hooks out of the inline ``[hooks]`` of the ``tomlkit`` document ``config`` (a
    ``config.toml`` Codex reads as ``key_source``, its absolute path); returns how many.

    A group left with none of its handlers goes, an event left with no group too; the user's
    own hooks stay in order. Trust entries (``[hooks.state]``) of ours go, those of the user's
    hooks that moved are re-keyed to their new position; others are not touched. Every
    comment of a table that goes (above, inside or after it) stays (:func:`keep_comments`):
    the install never writes inline hooks, so they are the user's."""
    moves = our_moves(config)
    taken = 0
    hooks = config.get("hooks")
    going: list[Any] = []
    for groups in _events(config).values():
        for group in groups:
            ours = [handler for handler in _handlers(group) if _ours(handler)]
            going += ours + ([group] if ours and len(ours) == len(_handlers(group)) else [])
    keep_comments(config, going)
    for event, groups in _events(config).items():
        gone = [old for old, new in moves.get(event, {}).items() if new is None]
        if not gone:
            continue
        taken += len(gone)
        for at in reversed(range(len(groups))):
            handlers = _handlers(groups[at])
            for index in reversed(range(len(handlers))):
                if _ours(handlers[index]):
                    del handlers[index]
            if not handlers and (at, 0) in gone:
                del groups[at]
        if not groups:
            _drop_event(hooks, event)
    current = trust_entries(config)
    apply_state(config, current, rekeyed(current, key_source, moves))
    return taken


def _drop_event(hooks: Any, event: str) -> None:
    """Take the event ``event`` left with no group out of the ``tomlkit`` table ``hooks``;
    the comment after its value (``SessionStart = [{…}]  # note``) stays in the table."""
    item = hooks.item(event) if isinstance(hooks, Table) else None
    comment = item.trivia.comment if isinstance(item, Item) else ""
    del hooks[event]
    if comment:
        hooks.add(Comment(Trivia(comment_ws="", comment=comment, trail="\n")))


def our_moves(document: Any) -> Moves:
    """The :data:`Moves` of taking our hooks out of ``document``'s ``hooks`` (a
    ``hooks.json`` or a ``config.toml`` with inline hooks); events holding none of ours are
    left out."""
    found: Moves = {}
    for event, groups in _events(document).items():
        moved = _moves(groups)
        if None in moved.values():
            found[event] = moved
    return found


def _moves(groups: list[Any]) -> dict[Position, Position | None]:
    """Where each handler of an event's ``groups`` goes when ours are taken out (None: it
    goes); a group that held only ours goes, so the groups after it move up."""
    moved: dict[Position, Position | None] = {}
    kept_groups = 0
    for at, group in enumerate(groups):
        handlers = _handlers(group)
        kept = 0
        for index, handler in enumerate(handlers):
            if _ours(handler):
                moved[(at, index)] = None
            else:
                moved[(at, index)] = (kept_groups, kept)
                kept += 1
        if kept or not handlers:
            kept_groups += 1
    return moved


def trust_entries(config: Any) -> dict[str, Any]:
    """The trust entries of a ``config.toml`` document: ``[hooks.state]`` key → entry."""
    hooks = config.get("hooks")
    state = hooks.get(_STATE) if isinstance(hooks, Mapping) else None
    return {str(key): state[key] for key in state} if isinstance(state, Mapping) else {}


def rekeyed(current: Mapping[str, Any], key_source: str, moves: Moves) -> dict[str, Any]:
    """The trust entries ``current`` with those of ``key_source``'s hooks moved along
    ``moves``: those of handlers that go taken out, those of handlers that move re-keyed,
    others kept as they are."""
    wanted = dict(current)
    renamed: dict[str, str | None] = {}
    for key in current:
        for event, moved in moves.items():
            prefix = f"{key_source}:{event_label(event)}:"
            group, _, handler = key[len(prefix) :].partition(":")
            if not key.startswith(prefix) or not (group.isdigit() and handler.isdigit()):
                continue
            old = (int(group), int(handler))
            if old in moved and moved[old] != old:
                new = moved[old]
                renamed[key] = None if new is None else f"{prefix}{new[0]}:{new[1]}"
    for key in renamed:
        del wanted[key]
    wanted.update({new: current[key] for key, new in renamed.items() if new is not None})
    return wanted


def apply_state(config: Any, current: dict[str, Any], wanted: dict[str, Any]) -> None:
    """Bring ``[hooks.state]`` of the ``tomlkit`` document ``config`` from the entries
    ``current`` to ``wanted``, touching only entries that change (the tables made when
    missing)."""
    if current == wanted:
        return
    if "hooks" not in config:
        config["hooks"] = tomlkit.table()
    if _STATE not in config["hooks"]:
        config["hooks"][_STATE] = tomlkit.table()
    state = config["hooks"][_STATE]
    keep_comments(config, [state[k] for k in current if k not in wanted])
    # Looked up again for each change: entries split by another table (a hand-edited file)
    # come as tomlkit's view of the parts, which one deletion leaves out of date.
    for key in [k for k in current if k not in wanted]:
        del config["hooks"][_STATE][key]
    for key, value in wanted.items():
        if key not in current or current[key] != value:
            config["hooks"][_STATE][key] = value


def _headed(container: Container) -> list[Table]:
    """The tables of ``container`` (a ``tomlkit`` document or a table's body) written with a
    header line of their own, nested ones included, in the order they are written."""
    found: list[Table] = []
    for _, item in container.body:
        tables = item.body if isinstance(item, AoT) else [item] if isinstance(item, Table) else []
        for table in tables:
            flat = any(not isinstance(v, Table | AoT | Whitespace) for _, v in table.value.body)
            if not table.is_super_table() or flat:
                found.append(table)
            found += _headed(table.value)
    return found


def _comments_in(table: Table) -> str:
    """The comments ``table`` carries, as lines: those :func:`keep_comments` moved above its
    header, the one after its header (``[[hooks.SessionStart.hooks]] # note``), those among
    its values and after one (``timeout = 30 # note``), and those after its last value
    (``tomlkit`` keeps a comment above the next table in the table before it), with the blank
    lines between those; ``""`` for none."""
    body = table.value.body
    end = len(body)
    while end and body[end - 1][0] is None and isinstance(body[end - 1][1], Comment | Whitespace):
        end -= 1
    lines = [table.trivia.indent] if "#" in table.trivia.indent else []
    lines += [f"{table.trivia.comment}\n"] if table.trivia.comment else []
    for _, item in body[:end]:
        if isinstance(item, Comment):
            lines.append(item.as_string())
        elif not isinstance(item, Table | AoT | Whitespace) and item.trivia.comment:
            lines.append(f"{item.trivia.comment}\n")
    tail = [item for _, item in body[end:]]
    if any(isinstance(item, Comment) for item in tail):
        lines += [item.as_string() for item in tail]
    return "".join(lines)


def keep_comments(document: Any, going: list[Any]) -> None:
    """Before the tables ``going`` are taken out of the ``tomlkit`` document ``document``, move
    the comments they carry (:func:`_comments_in`) above the next table that stays, or to the
    end of the document when none does; a user's comment is never lost with a table of ours."""
    gone = {id(table) for table in going if isinstance(table, Table)}
    if not gone or not isinstance(document, Container):
        return
    carried = ""
    for table in _headed(document):
        if id(table) in gone:
            carried += _comments_in(table)
        elif carried:
            table.trivia.indent = carried + table.trivia.indent
            carried = ""
    if carried:
        document.add(Whitespace(carried))


_GAP = re.compile(r"(\r?\n)(?:\r?\n){2,}")
"""Three line ends in a row or more: a blank line left twice where a table was taken out."""


def no_gaps(old: str | None, new: str) -> str:
    """``new`` (a TOML text some tables were taken out of; ``old``: the text before) without
    the blank lines they leave behind that ``old`` did not have: a run of blank lines becomes
    one, blank lines at the start or the end go. A text with such runs of its own is kept."""
    before = old or ""
    if not _GAP.search(before):
        new = _GAP.sub(r"\1\1", new)
    if not before.startswith(("\n", "\r\n")):
        new = new.lstrip("\r\n")
    if not re.search(r"\n\r?\n\Z", before) and (end := re.search(r"\r?\n\Z", new)):
        new = new.rstrip("\r\n") + end.group()
    return new


def taken_out_note(path: Path, taken: int) -> list[str]:
    """The install's (or uninstall's) line for ``taken`` hooks of ours it took out of the
    inline ``[hooks]`` of ``path``; none for none."""
    if not taken:
        return []
    return [
        f"took {taken} hook(s) of Agent Memory out of the inline [hooks] of {path}: Codex CLI "
        "runs those beside hooks.json (memory injected twice per Session, two guards)"
    ]


def inline_line(
    label: str, path: Path, installed: Mapping[str, Any], inline: Mapping[str, list[str]]
) -> str:
    """``status``'s PROBLEM line for hooks of ours ``inline`` (per event, from
    :func:`inline_commands`) in the ``config.toml`` at ``path`` beside an install in
    ``hooks.json`` (the document ``installed``): each a duplicate of an installed hook of the
    same event, or stale (one the install does not hold); Codex runs them all."""
    hooks = installed.get("hooks")
    said: list[str] = []
    for event, commands in inline.items():
        groups = hooks.get(event) if isinstance(hooks, Mapping) else None
        there = {h.get("command") for g in groups or [] for h in _handlers(g) if _ours(h)}
        for command in commands:
            said.append(f"{event} {'duplicate' if command in there else 'stale'}")
    return (
        f"{label}: PROBLEM: the inline [hooks] of {path} hold hooks of Agent Memory beside "
        f"hooks.json's ({', '.join(said)}): Codex CLI runs both (memory injected twice per "
        "Session, two guards); run `harness-memory install codex` again to take them out"
    )
