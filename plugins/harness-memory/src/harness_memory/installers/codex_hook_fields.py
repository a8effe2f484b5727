"""What Codex CLI does with each field of a hook in ``hooks.json`` (H-7, P-3).

Codex CLI 0.171 reads ``hooks.json`` with serde (openai/codex ``codex-rs/config/src/
hook_config.rs``): ``hooks`` an object, each of its 14 events' (:data:`_EVENTS`) a list of
groups, a group's ``matcher`` a string or null and ``hooks`` a list, each handler tagged by
``type`` (``command``, ``mcp_tool``, ``prompt``, ``agent``); a command's ``command`` a string,
``async`` a boolean, ``commandWindows`` (or ``command_windows``, its serde alias: a handler
setting both is refused, "duplicate field `commandWindows`") a string or null; an
``mcp_tool``'s ``server`` and ``tool`` strings; either's ``timeout`` a ``u64`` or null,
``additionalContextLimit`` a ``usize`` or null, ``statusMessage`` a string or null. The
file holds ``hooks`` and ``description`` alone (any other key: Codex refuses it); any other
key of an event, a group or a handler it ignores (each measured with the real Codex CLI
0.171). One handler it cannot read, the user's own too, and it reads no hook of
the file
("failed to parse hooks config": ``hooks/src/engine/discovery.rs``, ``load_hooks_json``):
:func:`unreadable`. Of a file it reads, it skips a ``prompt`` or ``agent`` hook, a group whose
``matcher`` is no regular expression it compiles, and runs a group only for the tools (for
``SessionStart``, the session sources) its matcher matches (``append_matcher_groups``;
``hooks/src/events/common.rs``, ``matches_matcher``): :func:`skipped` says which hooks of
ours it so skips, by event and field, never a value (a command may hold a token).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from harness_memory.installers.spec import is_ours

__all__ = ["skipped", "unreadable"]

HARNESS = "codex"
_EVENTS: tuple[str, ...] = ("PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact")
_EVENTS += ("PostCompact", "SessionStart", "SessionEnd", "UserPromptSubmit", "Stop")
_EVENTS += ("SubagentStart", "SubagentStop", "Interrupt", "PreModelRequest", "PostModelRequest")
"""The events Codex 0.171 reads (``HookEventsToml``; each measured: a ``timeout`` of ``"30"``
under it makes Codex refuse the file). Codex ignores any other key of ``hooks`` (serde
without ``deny_unknown_fields``), whatever its value."""
_TYPES = ("command", "mcp_tool", "prompt", "agent")
_TOOLS = {
    "the patch tool": ("apply_patch", "Edit", "Write"),
    "the shell": ("Bash",),
    "MCP tools": ("mcp__files__write_file",),
}
"""What the guard (and the versions hook) must see, each with the names Codex matches it by
(a tool's name and its aliases: ``matcher_inputs``). Not ``write_stdin``: Codex 0.171 never
shows it to its hooks (:mod:`~harness_memory.installers.guard_gaps`), and the install turns
terminals off, so a matcher leaving it out narrows nothing."""


def _groups(document: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """``(event, group)`` of every event Codex reads in the ``hooks.json`` ``document``."""
    hooks = document.get("hooks")
    for event in _EVENTS:
        groups = hooks.get(event) if isinstance(hooks, Mapping) else None
        for group in groups if isinstance(groups, list) else []:
            yield event, group


def unreadable(document: Mapping[str, Any]) -> list[str]:
    """Why Codex cannot read the ``hooks.json`` ``document`` (parsed JSON), each named by its
    event and field and the kind of value, never the value; ``[]`` when it reads it."""
    extra = [key for key in document if key not in ("hooks", "description")]
    found = ['the file holds a key besides "hooks" and "description"'] if extra else []
    hooks = document.get("hooks", {})
    if not isinstance(hooks, Mapping):
        return [*found, f'"hooks" is {_kind(hooks)}, not an object']
    found += [
        f"{event} is {_kind(hooks[event])}, not a list"
        for event in _EVENTS
        if event in hooks and not isinstance(hooks[event], list)
    ]
    for event, group in _groups(document):
        if not isinstance(group, Mapping):
            found.append(f"a {event} group is {_kind(group)}, not an object")
            continue
        if group.get("matcher") is not None and not isinstance(group["matcher"], str):
            found.append(f"a {event} group's matcher is {_kind(group['matcher'])}")
        handlers = group.get("hooks", [])
        if not isinstance(handlers, list):
            found.append(f"a {event} group's hooks is {_kind(handlers)}, not a list")
            continue
        found += [f"a {event} {why}" for h in handlers for why in _handler_unreadable(h)]
    return found


_STRINGS = {"command": ("command",), "mcp_tool": ("server", "tool")}
"""The fields each handler type must hold, each a string."""
_OPTIONAL_STRINGS: dict[str, tuple[str, ...]] = {"mcp_tool": ("statusMessage",)}
_OPTIONAL_STRINGS["command"] = ("statusMessage", "commandWindows", "command_windows")
"""The fields of each handler type that are a string or null."""


def _handler_unreadable(handler: Any) -> list[str]:
    """Why serde refuses one handler (``hook …``), ``[]`` when it reads it."""
    if not isinstance(handler, Mapping):
        return [f"hook is {_kind(handler)}, not an object"]
    kind = handler.get("type")
    if kind is None:
        return ["hook has no type"]
    if kind not in _TYPES:
        return [
            f'hook\'s type is not "command", "mcp_tool", "prompt" or "agent" (it is {_kind(kind)})'
        ]
    if kind not in _STRINGS:
        return []
    found = [
        f"hook's {name} is not a string (it is {_kind(handler.get(name))})"
        for name in _STRINGS[kind]
        if not isinstance(handler.get(name), str)
    ]
    found += [
        f"hook's {name} is not a string (it is {_kind(handler[name])})"
        for name in _OPTIONAL_STRINGS[kind]
        if handler.get(name) is not None and not isinstance(handler[name], str)
    ]
    for name, what in (("timeout", "a whole number of seconds"), ("additionalContextLimit", "")):
        if handler.get(name) is not None and not _whole(handler[name]):
            what = what or "a whole number of characters"
            found.append(f"hook's {name} is not {what} (it is {_kind(handler[name])})")
    if kind == "command" and "async" in handler and not isinstance(handler["async"], bool):
        found.append(f"hook's async is not true or false (it is {_kind(handler['async'])})")
    if kind == "command" and "commandWindows" in handler and "command_windows" in handler:
        found.append("hook sets commandWindows and command_windows, one field by two names")
    return found


def skipped(document: Mapping[str, Any]) -> list[str]:
    """Each hook of ours in the ``hooks.json`` ``document`` (one Codex reads) that Codex
    skips, or runs for fewer tools or Sessions than ours need, by its fields."""
    found: list[str] = []
    for event, group in _groups(document):
        handlers = group.get("hooks") if isinstance(group, Mapping) else None
        ours = [h for h in handlers or [] if isinstance(h, Mapping) and _is_ours(h)]
        for handler in ours:
            if handler.get("type") in ("prompt", "agent"):
                found.append(
                    f'{event} hook is of type "{handler["type"]}": Codex skips it (it runs '
                    "command hooks only)"
                )
        matcher = group.get("matcher")
        if ours and event != "Stop" and isinstance(matcher, str):
            found += [f"{event} hook's matcher {why}" for why in _matcher_misses(event, matcher)]
    return found


def _is_ours(handler: Mapping[str, Any]) -> bool:
    return is_ours(handler.get("command"), HARNESS)


def _matcher_misses(event: str, matcher: str) -> list[str]:
    """What ``matcher`` (a group's, on ``event``) keeps our hook from seeing."""
    pattern, refused = _as_python(matcher)
    if refused:
        return [f"is no regular expression Codex reads (Rust's regex refuses {refused[0]})"]
    if not _compiles(pattern):
        return [
            "may be no regular expression Codex reads (Python's re refuses it, and status "
            "cannot tell whether Rust's regex does): Codex then skips its group"
        ]
    if event == "SessionStart":
        started = _matches(matcher, pattern, ("startup",))
        return [] if started else ["does not match a new Session (startup)"]
    if event not in ("PreToolUse", "PostToolUse"):
        return []
    missed = [what for what, names in _TOOLS.items() if not _matches(matcher, pattern, names)]
    return [f"matches none of {', '.join(missed)}"] if missed else []


def _as_python(matcher: str) -> tuple[str, list[str]]:
    """``(matcher as Python's re reads it, what in it Rust's regex refuses)``: Codex compiles
    matchers with Rust's ``regex`` (``validate_matcher_pattern``). Its ``\\p{…}``, ``\\pL``,
    ``(?<name>…)`` and ``\\z`` become Python's like (``\\w``, ``(?P<name>``, ``\\Z``);
    lookaround, backreferences, atomic groups and ``\\Z``, which Python compiles and Rust
    does not, are named. Escapes and character classes are stepped
    over as units, so ``\\\\Z`` (a backslash, then Z) is no ``\\Z``."""
    if _all(matcher) or _exact(matcher):
        return matcher, []
    out: list[str] = []
    refused: list[str] = []
    i, klass = 0, False
    while i < len(matcher):
        rest = matcher[i:]
        if rest[0] == "\\" and len(rest) > 1:
            unit, width, why = _escape(rest, klass)
            out.append(unit)
            refused += why
            i += width
            continue
        if klass:
            klass = rest[0] != "]"
        elif rest[0] == "[":
            opening = re.match(r"\[\^?\]?", rest)
            assert opening is not None  # a "[" always opens one
            out.append(opening.group())
            i, klass = i + len(opening.group()), True
            continue
        elif rest.startswith("(?<") and rest[3:4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
            continue
        else:
            refused += [why for prefix, why in _REFUSED if rest.startswith(prefix)]
        out.append(rest[0])
        i += 1
    return "".join(out), refused


_REFUSED: tuple[tuple[str, str], ...] = (("(?=", "a lookaround"), ("(?!", "a lookaround"))
_REFUSED += (("(?<=", "a lookaround"),)
_REFUSED += (("(?<!", "a lookaround"), ("(?>", "an atomic group"))
"""What Python's re compiles outside a character class and Rust's regex refuses (measured
with the ``rg`` Codex 0.171 ships, on Rust's ``regex-syntax``: it refuses these and ``\\Z``,
and takes ``a*+`` as a repetition of ``a*``, no possessive quantifier)."""


def _escape(rest: str, klass: bool) -> tuple[str, int, list[str]]:
    """``(the escape at the start of rest as Python reads it, its width, what Rust refuses
    in it)``; ``klass``: inside a character class."""
    letter = rest[1]
    if letter in "pP":
        named = re.match(r"\\[pP](\{[^}]*\}|.)", rest)
        width = len(named.group()) if named else 2
        return ("\\W" if letter == "P" and not klass else "\\w"), width, []
    if letter == "z":
        return "\\Z", 2, []
    if letter == "Z":
        return "\\Z", 2, ["\\Z"]
    if letter in "123456789" and not klass:
        return rest[:2], 2, ["a backreference"]
    return rest[:2], 2, []


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def _matches(matcher: str, pattern: str, names: tuple[str, ...]) -> bool:
    """Codex's ``matches_matcher`` of ``matcher`` (read by Python as ``pattern``) for any of
    ``names``."""
    if _all(matcher):
        return True
    if _exact(matcher):
        return any(name in matcher.split("|") for name in names)
    return any(re.search(pattern, name) for name in names)


def _all(matcher: str) -> bool:
    return matcher in ("", "*")


def _exact(matcher: str) -> bool:
    return all(c.isascii() and (c.isalnum() or c in "_|") for c in matcher)


def _whole(value: Any) -> bool:
    """Whether ``value`` (parsed JSON) is what Codex reads as a ``u64``."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64


def _kind(value: Any) -> str:
    """The kind of ``value`` (parsed JSON) as a phrase, never the value itself."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a negative number" if value < 0 else "too large" if value >= 2**64 else "a number"
    kinds = {str: "a string", float: "a fraction", list: "an array", type(None): "null"}
    return next((said for kind, said in kinds.items() if isinstance(value, kind)), "an object")
