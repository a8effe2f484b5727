"""Merge hook entries into the ``"hooks"`` object all three harnesses share (H-3).

Claude Code's ``settings.json``, Codex's ``hooks.json`` and Gemini CLI's ``settings.json`` all
hold ``{"hooks": {EVENT: [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]}}``.
:func:`merge_hooks` takes this plugin's entries out wherever they are and appends the wanted
ones at the end of each event's list; everything else — other events, other groups, other
handlers, keys this code does not know — is kept in place and in order. Running it twice gives
the same document (idempotent).
"""

from __future__ import annotations

import copy
from typing import Any

from harness_memory.installers.files import SettingsFileError
from harness_memory.installers.spec import is_ours

__all__ = ["Removed", "merge_hooks"]

Removed = dict[str, list[int]]
"""Per event, the indexes (in the old list) of the groups that were wholly ours and went."""


def merge_hooks(
    document: dict[str, Any],
    harness: str,
    wanted: dict[str, list[dict[str, Any]]],
    *,
    source: object = "the settings",
) -> tuple[dict[str, Any], Removed]:
    """A copy of ``document`` with our ``harness`` hooks replaced by ``wanted`` (event → groups).

    ``wanted`` empty means uninstall. An event left with no group and a ``"hooks"`` object left
    empty by taking ours out are removed; an empty one the user had stays (H-3: an uninstall
    with nothing installed changes nothing). Raises :class:`SettingsFileError` when
    ``"hooks"`` or an event's entry has a shape no harness accepts (an event ``wanted``
    holding no list included: it is then not guessed at); its message names ``source``.
    """
    result = copy.deepcopy(document)
    hooks = result.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsFileError(f'{source}: "hooks" is not an object')
    removed: Removed = {}
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue  # a harness's own setting inside "hooks" (Gemini's "enabled", …): kept
        kept, gone = _without_ours(groups, harness, f"{source}: hooks.{event}")
        if gone:
            removed[event] = gone
        if kept or event in wanted or not gone:
            hooks[event] = kept
        else:
            del hooks[event]  # emptied by taking ours out: the user's own empty list is kept
    for event, groups in wanted.items():
        if not isinstance(hooks.setdefault(event, []), list):  # {"matcher": …}: not guessed at
            raise SettingsFileError(f"{source}: hooks.{event} is not a list of hook groups")
        hooks[event].extend(copy.deepcopy(groups))
    if hooks or (not removed and "hooks" in document):  # the user's own {} is theirs (H-3)
        result["hooks"] = hooks
    else:
        result.pop("hooks", None)
    return result, removed


def _without_ours(groups: list[Any], harness: str, where: str) -> tuple[list[Any], list[int]]:
    kept: list[Any] = []
    gone: list[int] = []
    for at, group in enumerate(groups):
        if not isinstance(group, dict) or not isinstance(group.get("hooks", []), list):
            raise SettingsFileError(f'{where}[{at}] is not a hook group with a "hooks" list')
        handlers = group.get("hooks", [])
        others = [
            h for h in handlers if not (isinstance(h, dict) and is_ours(h.get("command"), harness))
        ]
        if len(others) == len(handlers):
            kept.append(group)
        elif others:
            kept.append({**group, "hooks": others})
        else:
            gone.append(at)
    return kept, gone
