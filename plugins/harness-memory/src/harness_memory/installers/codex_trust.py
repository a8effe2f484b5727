"""Whether Codex CLI runs the hooks of ours in ``hooks.json``: their trust entries (H-7, P-3).

Codex CLI runs a hook of the user's ``hooks.json`` only while the user's ``config.toml`` says
``[hooks.state."<hooks.json>:<event>:<group>:<handler>"] trusted_hash`` = the hash of the
hook as it stands (:func:`~harness_memory.installers.codex.trust_hash`), and no ``enabled =
false`` there (Codex's own per-hook switch, its ``/hooks``); anything else is skipped without a
word: no memory at Session start, no write guard. The ``<hooks.json>`` of the key is the path
Codex reads it from: with ``CODEX_HOME`` set, Codex canonicalises it (every link resolved:
``find_codex_home``), so ``CODEX_HOME`` naming a link (a dotfiles folder) keys the trust by the
folder the link leads to; without it, ``$HOME/.codex`` as it is, a link left unresolved
(openai/codex ``codex-rs/hooks/src/engine/discovery.rs``, ``utils/home-dir``; measured on
0.171: ``test_e2e_codex_trust_through_a_link.py``). :func:`trust_source` is that path, which
the install keys the trust by, and :func:`trust_lines` what ``status`` says of each hook of
ours Codex will not run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from harness_memory.installers.codex_hook_fields import unreadable
from harness_memory.installers.codex_inline import event_label, trust_entries
from harness_memory.installers.own_memory import plain_value
from harness_memory.installers.spec import is_ours

__all__ = [
    "kept_off_notes",
    "skipped_line",
    "switched_off_entry",
    "trust_line",
    "trust_problems",
    "trust_source",
    "unreadable_hooks",
    "unreadable_line",
    "unreadable_trust",
    "what_goes",
]

HARNESS = "codex"


def trust_source(home: Path, environ: Mapping[str, str]) -> Path:
    """The ``hooks.json`` path Codex CLI keys its trust entries by: ``$CODEX_HOME`` with every
    link resolved (Codex canonicalises it), else ``home/.codex`` made absolute with ``..``
    collapsed lexically, its links left as they are (Codex's ``AbsolutePathBuf`` does so)."""
    configured = environ.get("CODEX_HOME")
    if configured:
        return Path(configured).resolve() / "hooks.json"
    return Path(os.path.normpath((home / ".codex" / "hooks.json").absolute()))


def trust_problems(
    source: Path, document: Mapping[str, Any], config: Mapping[str, Any]
) -> list[str]:
    """What keeps Codex CLI from running each hook of ours in ``document`` (the ``hooks.json``
    read from ``source``, :func:`trust_source`) by the trust entries of ``config`` (the user's
    ``config.toml``, parsed): ``"<event> hook switched off ([hooks.state."…"] enabled =
    false)"``, ``"<event> hook untrusted (no trust entry …)"`` or ``"… (its trusted_hash is
    not the hook's …)"``; ``[]`` when Codex runs them all."""
    from harness_memory.installers.codex import trust_hash

    entries = trust_entries(config)
    hooks = document.get("hooks")
    found: list[str] = []
    for event, groups in hooks.items() if isinstance(hooks, Mapping) else ():
        for index, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, Mapping) else None
            for number, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if not isinstance(handler, Mapping) or not is_ours(handler.get("command"), HARNESS):
                    continue
                if handler.get("type") != "command":  # skipped, never trusted: skipped_line
                    continue
                key = f"{source}:{event_label(str(event))}:{index}:{number}"
                entry = entries.get(key)
                entry = entry if isinstance(entry, Mapping) else {}
                if switched_off_entry(entry):
                    found.append(
                        f'{event} hook switched off ([hooks.state."{key}"] enabled = false)'
                    )
                elif (trusted := plain_value(entry.get("trusted_hash"))) is None:
                    found.append(f'{event} hook untrusted (no [hooks.state."{key}"] trusted_hash)')
                elif trusted != trust_hash(str(event), group, handler):
                    found.append(
                        f'{event} hook untrusted ([hooks.state."{key}"] trusted_hash is not the '
                        "hash of the hook as it stands: hooks.json changed since)"
                    )
    return found


def trust_line(
    label: str, source: Path, config_path: Path, problems: list[str], profile: str | None = None
) -> str:
    """The ``status`` PROBLEM line for ``problems`` (non-empty, :func:`trust_problems`) of the
    ``hooks.json`` at ``source`` whose trust ``config_path`` holds, with the fixes; for a
    profile file's trust (``config_path``), in Sessions started with ``--profile profile``."""
    said = "; ".join(problems)
    gone = what_goes(problem.split(" ", 1)[0] for problem in problems)
    where = "" if profile is None else f" in Sessions started with `--profile {profile}`"
    if all(" switched off (" in problem for problem in problems):
        return (
            f"{label}: PROBLEM: switched off{where}: Codex will not run these hooks of {source}: "
            f"{said} in {config_path}: its Sessions go without {gone}. Take that line out, or "
            "turn them on in Codex's /hooks (the install leaves your switch as it is)"
        )
    also = "" if profile is None else f", in {config_path} too"
    return (
        f"{label}: PROBLEM: untrusted{where}: Codex will not run these hooks of {source}: "
        f"{said} in {config_path}: its Sessions go without {gone}. Run `harness-memory "
        f"install codex` again (it trusts them, keyed by {source}{also}), or trust them in "
        "Codex's /hooks"
    )


_WHAT = {
    "SessionStart": "memory at Session start",
    "PreToolUse": "the write guard",
    "PostToolUse": "memory writes kept as versions",
    "Stop": "what the Stop hook does",
}
"""What the hook of ours on each Codex event gives a Session."""


def what_goes(events: Iterable[str]) -> str:
    """What Sessions go without while Codex skips our hooks on ``events`` (event names, in any
    order, repeats allowed), in the order of :data:`_WHAT`: ``"memory at Session start and the
    write guard"``."""
    named = set(events)
    said = [what for event, what in _WHAT.items() if event in named] or ["what these hooks do"]
    return " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)


def unreadable_hooks(document: Mapping[str, Any]) -> list[str]:
    """Why Codex CLI cannot parse the ``hooks.json`` ``document`` (parsed JSON) and so runs no
    hook of it ("failed to parse hooks config"): each field serde refuses, the user's hooks'
    too (a ``timeout`` no ``u64``: ``30.0``, ``"30"``, ``-1``, ``true``; a ``type`` missing or
    not ``command``/``prompt``/``agent``; a ``command`` no string…: :func:`~.codex_hook_fields.
    unreadable`), named by its event and kind, never its value; ``[]`` when there is none."""
    return unreadable(document)


def skipped_line(label: str, path: Path, why: list[str]) -> str:
    """The ``status`` PROBLEM line for the hooks of ours in the ``hooks.json`` at ``path`` that
    Codex skips, or runs for too few tools, for ``why`` (non-empty: :func:`~.codex_hook_fields.
    skipped`)."""
    gone = what_goes(reason.split(" ", 1)[0] for reason in why)
    return (
        f"{label}: PROBLEM: Codex skips hooks of ours in {path} for their fields: "
        f"{'; '.join(why)}: its Sessions go without {gone} there. Run `harness-memory "
        "install codex` again (it writes them back as they were)"
    )


def unreadable_trust(config: Mapping[str, Any]) -> list[str]:
    """Why Codex CLI refuses the ``config.toml`` ``config`` (parsed) for its ``[hooks.state]``
    entries (a config error): each ``enabled`` that is neither ``true`` nor ``false``, named by
    its key and kind; ``[]`` when there is none."""
    found: list[str] = []
    for key, entry in trust_entries(config).items():
        if isinstance(entry, Mapping) and "enabled" in entry:
            enabled = plain_value(entry["enabled"])
            if not isinstance(enabled, bool):
                found.append(
                    f'[hooks.state."{key}"] enabled is {_kind(enabled)}, not true or false'
                )
    return found


def unreadable_line(label: str, path: Path, why: list[str]) -> str:
    """The ``status`` PROBLEM line for the Codex file ``path`` that Codex refuses for ``why``
    (non-empty: :func:`unreadable_hooks`, :func:`unreadable_trust`)."""
    fix = (
        'each as Codex reads it (type "command", command a string, timeout a whole number, '
        "async true or false)"
        if path.name == "hooks.json"
        else "true or false"
    )
    return (
        f"{label}: PROBLEM: Codex cannot read {path} ({'; '.join(why)}): it runs none of our "
        f"hooks from it, and its Sessions go without {what_goes(_WHAT)}. Write {fix} there"
    )


def _kind(value: Any) -> str:
    """The kind of ``value`` (parsed JSON or TOML) as a phrase, never the value itself."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a negative number" if value < 0 else "too large"
    kinds = {str: "a string", float: "a fraction", list: "an array", type(None): "null"}
    return next((said for kind, said in kinds.items() if isinstance(value, kind)), "a table")


def switched_off_entry(entry: Mapping[str, Any]) -> bool:
    """Whether the trust entry ``entry`` (a ``[hooks.state]`` table) says ``enabled = false``:
    Codex's own switch for that one hook, which it then never runs (trusted or not)."""
    return plain_value(entry.get("enabled")) is False


def kept_off_notes(config_path: Path, keys: list[str]) -> list[str]:
    """The install's WARNING for the trust entries of ours (``keys``) in ``config_path`` that
    the user switched off (``enabled = false``): the install leaves the switch as it is."""
    if not keys:
        return []
    named = ", ".join(f'[hooks.state."{key}"]' for key in keys)
    gone = what_goes(_EVENTS.get(key.split(":")[-3], "") for key in keys)
    return [
        f"WARNING: {config_path} switches these hooks of ours off in Codex ({named} enabled = "
        "false; Codex's /hooks writes it): Codex skips them, and its Sessions go without "
        f"{gone}. The install leaves your switch as it is: take `enabled = false` out there, "
        "or turn them on in Codex's /hooks (`harness-memory status` reports it until then)"
    ]


_EVENTS = {event_label(event): event for event in _WHAT}
"""Codex's event labels in trust keys, by the event they name."""
