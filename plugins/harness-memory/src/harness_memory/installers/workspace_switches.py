"""Whether the Workspace ``harness-memory status`` runs in switches Claude Code's or Codex CLI's
hooks off, or their own memory back on (H-6, P-3).

What a repository checks in is read over the user's settings: Claude Code's
``.claude/settings.json`` and ``settings.local.json`` with ``"disableAllHooks": true`` switch
off the hooks of the user's settings (measured: ``test_e2e_repository_switches_hooks_off.py``)
unless Claude Code skips the file whole for a setting its schema refuses
(:func:`claude_code_takes`; a file holding settings not checked here "may" switch them off),
and what they say together (``settings.local.json`` over ``settings.json``, key by key, as
Claude Code merges them) can turn Claude Code's own memory back on over the install's
``CLAUDE_CODE_DISABLE_AUTO_MEMORY = "1"``: the variable set to a false value (``"0"``,
``false``, ``0``), or to one neither true nor false (``""``) beside ``"autoMemoryEnabled":
true`` (:func:`claude_code_memory_on`; each measured,
``test_e2e_h6_repository_turns_own_memory_on.py``); Codex CLI's ``.codex/config.toml``, in a
project the user trusts, switches every hook off with ``[features] hooks = false`` (or
``codex_hooks = false`` where ``hooks`` is not set) and turns terminals no hook sees, or
Codex's own memories, back on (``unified_exec_tty = true``, ``memories = true``;
``test_e2e_codex_repository_switches_hooks_off.py``). Nobody is told in the Session; ``status``
says it, for the user installs (managed ones hold over all of it). Claude Code's files are read
where Claude Code reads them (:func:`claude_code_files`); Codex CLI's from each folder from the
Workspace up to its repository's root, below the user's home, their ``[features]`` merged over
the user's own as Codex merges them (:func:`codex_lines`). Gemini
CLI's Workspace settings: :mod:`~harness_memory.installers.gemini_workspace`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from memory_core import json_text

from harness_memory.installers.claude_drop_ins import ManagedSettings, lay_over
from harness_memory.installers.own_switches import codex_off
from harness_memory.installers.settings_text import read_toml_as_codex, split_mark

__all__ = [
    "claude_code_files",
    "claude_code_lines",
    "claude_code_memory_on",
    "claude_code_settings",
    "claude_code_takes",
    "codex_lines",
    "codex_trusted_entry",
    "installed_memory_on",
    "managed_memory_on",
]

_FALSE = {"0", "false", "no", "off"}
_TRUE = {"1", "true", "yes", "on"}
_VARIABLE = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
MANAGED_FIX = "`harness-memory install {harness} --managed` (as root) holds over it"


def claude_code_lines(workspace: Path, home: Path) -> list[str]:
    """The WARNINGs for the user install of Claude Code in ``workspace`` (``home``: the
    user's, whose own settings are not a Workspace's)."""
    lines: list[str] = []
    taken = [
        (path, document, verdict)
        for path in claude_code_files(workspace, home)
        if (document := claude_code_settings(path)) is not None
        and (verdict := claude_code_takes(document)) is not False
    ]
    if switch := _hooks_switch(taken):
        path, sure = switch
        why = '"disableAllHooks": true' + ("" if sure else f"; {_MAY_BE_IGNORED}")
        lines.append(_off("claude-code", path, why, "", sure=sure))
    if on := claude_code_memory_on([(path, document) for path, document, _ in taken]):
        paths, why = on
        lines.append(_own_memory("claude-code", paths, why))
    return lines


def claude_code_files(workspace: Path, home: Path) -> list[Path]:
    """The settings files of ``workspace`` that Claude Code 2.1.332, run there, lays over the
    user's, in the order it merges them (a later file's key wins): the Workspace's own
    ``.claude/settings.json`` and ``.claude/settings.local.json``, then its repository root's
    ``.claude/settings.local.json`` (the nearest folder above holding ``.git``). A repository
    root's ``settings.json`` is not read from a folder below the root, nor any file of a
    folder above a Workspace outside a repository (each measured:
    ``test_e2e_repository_switches_hooks_off.py``). Only files that exist; none in ``home``
    or above it (the user's own settings live there)."""
    if workspace == home or workspace in home.parents:
        return []
    own = workspace / ".claude"
    paths = [own / "settings.json", own / "settings.local.json"]
    root = _repository_root(workspace, home)
    if root is not None and root != workspace:
        paths.append(root / ".claude" / "settings.local.json")
    return [path for path in paths if path.is_file()]


def _repository_root(workspace: Path, home: Path) -> Path | None:
    """The nearest folder from ``workspace`` up holding a ``.git``, below ``home``; None."""
    for place in [workspace, *workspace.parents]:
        if place == home or place in home.parents:
            return None
        if (place / ".git").exists():
            return place
    return None


def claude_code_settings(path: Path) -> dict[str, Any] | None:
    """A Claude Code settings file as Claude Code 2.1.332 reads it, or None when it reads no
    object there (missing, unreadable, no JSON, nested deeper than Python reads). A file that
    starts with UTF-16LE's byte order mark is read as UTF-16LE (a Windows editor's "Unicode"),
    any other as UTF-8; a leading UTF-8 byte order mark is skipped and a key twice in one
    object keeps its last value, as Claude Code takes them (measured, a UTF-16BE or UTF-32
    file is no JSON to it: ``test_e2e_repository_switches_hooks_off.py``)."""
    try:
        data = path.read_bytes()
        if data.startswith(_UTF16LE_MARK):
            text = data[len(_UTF16LE_MARK) :].decode("utf-16-le", errors="replace")
        else:
            text = split_mark(data.decode("utf-8", errors="replace"))[1] or ""
        document = json_text.loads(text, parse_constant=_no_constant)
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


_UTF16LE_MARK = b"\xff\xfe"

_CHECKED = frozenset({"disableAllHooks", "$schema", "cleanupPeriodDays", "hooks"})
"""The settings whose every valid value this plugin knows, or that never make Claude Code skip
the file (``hooks``, even no object: measured, ``test_e2e_repository_switches_hooks_off.py``):
a file holding no other is one Claude Code takes when each is valid (its whole schema is not
made again here)."""
_RULE_LISTS = ("allow", "deny", "ask")
_MAY_BE_IGNORED = "Claude Code ignores this file if any setting in it is invalid"


def claude_code_takes(document: dict[str, Any]) -> bool | None:
    """Whether Claude Code 2.1.332 takes settings ``document`` (H-6): it checks each file
    against its schema and skips one holding any invalid setting whole (measured with the real
    CLI: ``"permissions": {"allow": 5}`` or ``"cleanupPeriodDays": "x"`` beside
    ``"disableAllHooks": true`` leaves the hooks on). False for a value it refuses among the
    few checked here (``disableAllHooks`` no boolean, ``cleanupPeriodDays`` no positive
    integer, ``permissions`` no object or its ``allow``/``deny``/``ask`` no list of strings);
    True for a file holding only :data:`_CHECKED` settings, valid; None (cannot tell) for one
    holding settings not checked here."""
    if "disableAllHooks" in document and not isinstance(document["disableAllHooks"], bool):
        return False
    if "$schema" in document and not isinstance(document["$schema"], str):
        return False
    if "cleanupPeriodDays" in document and not _positive_integer(document["cleanupPeriodDays"]):
        return False
    if "permissions" in document and not _rules_valid(document["permissions"]):
        return False
    return True if set(document) <= _CHECKED else None


def _positive_integer(value: Any) -> bool:
    """A JSON number Claude Code's ``int().positive()`` takes (``3``, ``3.0``; not ``true``)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return value > 0 and float(value).is_integer()


def _rules_valid(permissions: Any) -> bool:
    """Whether ``permissions`` is an object whose rule lists, where set, list strings only."""
    if not isinstance(permissions, dict):
        return False
    for name in _RULE_LISTS:
        rules = permissions.get(name, [])
        if not isinstance(rules, list) or not all(isinstance(rule, str) for rule in rules):
            return False
    return True


def _hooks_switch(
    taken: Sequence[tuple[Path, dict[str, Any], bool | None]],
) -> tuple[Path, bool] | None:
    """The file whose ``"disableAllHooks": true`` the merge of ``taken`` (the files Claude
    Code may take, in merge order, each with :func:`claude_code_takes`) keeps, and whether
    surely (False: that file, or a later one saying ``false``, may be skipped whole); None."""
    sure = True
    for path, document, takes in reversed(taken):
        if "disableAllHooks" not in document:
            continue
        if document["disableAllHooks"] is True:
            return path, sure and takes is True
        if takes is True:
            return None
        sure = False  # its false counts only if Claude Code takes this file
    return None


def _no_constant(name: str) -> Any:
    """``NaN`` and ``Infinity`` are no JSON: Claude Code's reader refuses the file."""
    raise ValueError(name)


def _last_with(documents: list[tuple[Path, dict[str, Any]]], key: str) -> tuple[Path, Any] | None:
    """The file and value of ``key`` in the last of ``documents`` holding it (the one Claude
    Code's merge keeps), or None."""
    held = [(path, document[key]) for path, document in documents if key in document]
    return held[-1] if held else None


def claude_code_memory_on(
    documents: list[tuple[Path, dict[str, Any]]],
) -> tuple[list[Path], str] | None:
    """Whether a Workspace's Claude Code settings ``documents`` (``settings.json`` then
    ``settings.local.json``, each with its path) turn Claude Code's auto memory back on over the
    user install (``autoMemoryEnabled: false``, ``CLAUDE_CODE_DISABLE_AUTO_MEMORY = "1"``): the
    files that do it and what they say, or None.

    As Claude Code 2.1.332 decides (the later file wins key by key): the variable's value, as
    text, trimmed and lower-cased, ``1``/``true``/``yes``/``on`` keeps it off and
    ``0``/``false``/``no``/``off`` turns it on; any other value leaves it to
    ``autoMemoryEnabled``, which a Workspace's ``true`` turns on.
    """
    envs = [(path, document.get("env")) for path, document in documents]
    variable = _last_with([(path, env) for path, env in envs if isinstance(env, dict)], _VARIABLE)
    enabled = _last_with(documents, "autoMemoryEnabled")
    if variable is None:
        return None  # the user settings' "1" stands
    said = f"env.{_VARIABLE} = {json.dumps(variable[1], ensure_ascii=False)}"
    switch = _as_env_text(variable[1])
    if switch in _FALSE:
        return [variable[0]], said
    if switch in _TRUE or enabled is None or enabled[1] is not True:
        return None
    paths = [variable[0]] if variable[0] == enabled[0] else [variable[0], enabled[0]]
    return paths, f'{said}, which is neither true nor false, and "autoMemoryEnabled": true'


def installed_memory_on(document: dict[str, Any]) -> str | None:
    """What in the Claude Code settings ``document`` an install wrote its hooks into turns
    Claude Code's own auto memory on (H-6), as words after the file's path, or None while it
    stays off: as Claude Code decides, ``env.CLAUDE_CODE_DISABLE_AUTO_MEMORY`` true-ish keeps
    it off and false-ish turns it on; any other value, or none, leaves it to
    ``autoMemoryEnabled``, on unless ``false`` (and on when the file has neither). The install
    sets both off; a value changed since (by hand, another tool), or an older install that
    wrote neither, leaves a second memory on.

    >>> installed_memory_on({"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}})
    'sets env.CLAUDE_CODE_DISABLE_AUTO_MEMORY to "0", which turns it on'
    >>> installed_memory_on({"autoMemoryEnabled": False, "env": {}}) is None
    True
    >>> installed_memory_on({})
    'sets neither CLAUDE_CODE_DISABLE_AUTO_MEMORY nor autoMemoryEnabled, so it is on by default'
    """
    env = document.get("env")
    given = isinstance(env, dict) and _VARIABLE in env
    raw = env[_VARIABLE] if isinstance(env, dict) and given else None
    value = json.dumps(raw, ensure_ascii=False)
    if given and _as_env_text(raw) in _FALSE:
        return f"sets env.{_VARIABLE} to {value}, which turns it on"
    if given and _as_env_text(raw) in _TRUE:
        return None
    enabled = document.get("autoMemoryEnabled")
    if enabled is False:
        return None
    if "autoMemoryEnabled" in document:
        shown = json.dumps(enabled, ensure_ascii=False)
        return f"sets autoMemoryEnabled to {shown}, which turns it on"
    if given:
        return (
            f"sets env.{_VARIABLE} to {value}, which does not turn it off, and no "
            "autoMemoryEnabled, so it is on by default"
        )
    return f"sets neither {_VARIABLE} nor autoMemoryEnabled, so it is on by default"


def managed_memory_on(
    user: dict[str, Any], settings: ManagedSettings, *, over: Path | None = None
) -> str | None:
    """What in this machine's Claude Code managed settings ``settings`` (merged with their
    drop-ins, :func:`~harness_memory.installers.claude_drop_ins.read_managed`) keeps Claude
    Code's own auto memory on over the user's settings ``user``, which keep it off (H-6), as a
    sentence naming the files and keys; None when it stays off, or ``user`` turns it on
    itself (:func:`installed_memory_on` says that). Claude Code lays managed settings over the
    user's, ``env`` key by key: a false ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` there turns it on
    whatever ``autoMemoryEnabled`` says; a value neither true nor false there leaves it to
    ``autoMemoryEnabled``, whose managed ``true`` turns it on. Values are named only when they
    are the few true or false words (those files may hold a token, H-7). ``over``: the
    managed install's own ``managed-settings.json`` (``user`` is then what it writes there),
    over which Claude Code lays the drop-ins that keep it on."""
    if installed_memory_on(user) is not None:
        return None
    merged = lay_over(user, settings.document)
    if installed_memory_on(merged) is None:
        return None
    files = settings.files
    with_variable = [p for p, found in files if _VARIABLE in _env_of(found)]
    with_enabled = [p for p, found in files if "autoMemoryEnabled" in found]
    switch = _as_env_text(_env_of(merged).get(_VARIABLE))
    if with_variable and switch in _FALSE:
        shown = json.dumps(_env_of(merged)[_VARIABLE])
        paths, why = with_variable[-1:], f"env.{_VARIABLE} = {shown}"
    else:
        paths = with_variable[-1:] + [p for p in with_enabled[-1:] if p not in with_variable[-1:]]
        why = (
            " and ".join(
                ([f"env.{_VARIABLE} neither true nor false"] if with_variable else [])
                + (['"autoMemoryEnabled": true'] if merged.get("autoMemoryEnabled") is True else [])
            )
            or "autoMemoryEnabled set, but not to false"
        )
    named, verb = " and ".join(map(str, paths)), "keeps" if len(paths) == 1 else "together keep"
    who = (
        f"Claude Code lays its drop-ins over {over}, so the install cannot turn it off; change "
        "that there"
        if over is not None
        else "managed settings win over yours, so the install cannot turn it off; an "
        "administrator must change that there"
    )
    return (
        f"{named}, this machine's Claude Code managed settings, {verb} Claude Code's own auto "
        f'memory on beside Agent Memory ({why}): {who} (set env.{_VARIABLE} to "1", or take '
        "the key out)"
    )


def _env_of(document: dict[str, Any]) -> dict[str, Any]:
    """The settings ``document``'s ``env`` object; ``{}`` when it has none."""
    env = document.get("env")
    return env if isinstance(env, dict) else {}


def _as_env_text(value: Any) -> str:
    """A settings ``env`` value as the variable's text Claude Code reads, trimmed and
    lower-cased (JSON ``false`` → ``false``, ``0`` → ``0``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip().lower() if isinstance(value, str | int | float) else ""


def codex_lines(workspace: Path, home: Path, user_config: Path | None = None) -> list[str]:
    """The WARNINGs for the user install of Codex CLI in ``workspace`` (read as a trusted
    project's would be; an untrusted project's ``.codex/`` is not read by Codex).

    Codex merges ``[features]`` key by key across its layers before it judges them: the
    user's ``user_config`` (``$CODEX_HOME/config.toml``), then the project's
    (:func:`_codex_project_files`, outermost first), the later layer's key winning; ``hooks``
    then holds over ``codex_hooks`` (:func:`~harness_memory.installers.own_switches.codex_off`).
    The merged table is judged, and a warning names the project file that set the deciding key
    (user ``hooks = true`` beside a project's ``codex_hooks = false`` leaves the hooks on; what
    the user's own file decides, status reports of that file)."""
    projects = _codex_project_files(workspace, home)
    merged: dict[str, tuple[Path, Any]] = {}
    for path in [*([user_config] if user_config is not None else []), *projects]:
        merged.update({key: (path, value) for key, value in _codex_features(path).items()})
    by_project = {key: held for key, held in merged.items() if held[0] in projects}
    lines: list[str] = []
    key = "hooks" if "hooks" in merged else "codex_hooks"
    trusts = _codex_trusts(workspace, user_config)
    if key in by_project and (off := codex_off({"features": {key: by_project[key][1]}})):
        why, when = trusts(by_project[key][0], ", ".join(off))
        lines.append(_off("codex", by_project[key][0], why, when))
    if (tty := by_project.get("unified_exec_tty")) is not None and tty[1] is True:
        why, when = trusts(tty[0], "[features] unified_exec_tty = true")
        lines.append(
            f"codex: WARNING: {tty[0]} turns terminals back on ({why}){when}: what the model "
            f"types into one is never shown to the write guard. "
            f"{MANAGED_FIX.format(harness='codex')}"
        )
    if (memories := by_project.get("memories")) is not None and memories[1] is True:
        why, when = trusts(memories[0], "[features] memories = true")
        lines.append(_own_memory("codex", [memories[0]], why, when))
    return lines  # hooks of ours in a project's .codex/: codex_projects.status_lines


def _codex_trusts(
    workspace: Path, user_config: Path | None
) -> Callable[[Path, str], tuple[str, str]]:
    """``(why, when)`` for a setting ``why`` (``[features] hooks = false``) of the project file
    ``path``, as a function of both: when the user's ``user_config`` trusts that project
    (:func:`codex_trusted_entry`), ``why`` names the entry and ``when`` is empty (it is so in
    every Session there); else ``when`` is " when you trust this project"."""
    document = {} if user_config is None else _codex_document(user_config)

    def trusts(path: Path, why: str) -> tuple[str, str]:
        entry = codex_trusted_entry(path.parent.parent, workspace, document)
        if entry is None:
            return why, " when you trust this project"
        return f"{why}; you trust this project: [projects.{json.dumps(entry)}] in {user_config}", ""

    return trusts


def codex_trusted_entry(layer: Path, workspace: Path, config: dict[str, Any]) -> str | None:
    """The key of the ``[projects."<folder>"]`` entry of Codex CLI's ``config`` (the user's
    ``config.toml``, parsed) that trusts the project layer in the folder ``layer`` (it holds a
    ``.codex/``) for a Session in ``workspace``; None when no entry trusts it. Codex looks the
    trust up as ``ProjectTrustContext::decision_for_dir`` does (codex-rs ``config_loader``):
    the folder ``layer`` itself, else the project's root (the nearest folder at or above
    ``workspace`` holding a ``.git``; ``workspace`` outside any), else the repository's main
    checkout (``resolve_root_git_project_for_trust``: a linked worktree's ``.git`` file names
    ``<main>/.git/worktrees/<name>``); the first of them with an entry decides, and only
    ``trust_level = "trusted"`` trusts. Keys are compared as paths with links resolved."""
    projects = config.get("projects")
    if not isinstance(projects, dict):
        return None
    levels = {os.path.realpath(key): (key, entry) for key, entry in projects.items()}
    root = next((p for p in [workspace, *workspace.parents] if (p / ".git").exists()), None)
    for place in (layer, root or workspace, _main_checkout(root)):
        found = None if place is None else levels.get(os.path.realpath(place))
        if found is not None:
            level = found[1].get("trust_level") if isinstance(found[1], dict) else None
            return found[0] if level == "trusted" else None
    return None


def _main_checkout(root: Path | None) -> Path | None:
    """The main checkout of the repository whose work tree is ``root`` (it holds ``.git``):
    ``root`` itself for a ``.git`` folder; for a linked worktree's ``.git`` file
    (``gitdir: <main>/.git/worktrees/<name>``) the folder holding that ``.git``; None when
    there is none or the file says no such thing."""
    if root is None or (root / ".git").is_dir():
        return root
    try:
        text = (root / ".git").read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        return None
    first = text.strip().partition("\n")[0].strip()
    if not first.startswith("gitdir:") or not first[7:].strip():
        return None
    git_dir = Path(os.path.realpath(root / first[7:].strip()))
    if git_dir.parent.name != "worktrees":
        return None
    return git_dir.parent.parent.parent


def _codex_features(path: Path) -> dict[str, Any]:
    """The ``[features]`` table of Codex CLI's ``config.toml`` at ``path`` as Codex reads it;
    ``{}`` when it cannot be read or holds none."""
    features = _codex_document(path).get("features")
    return features if isinstance(features, dict) else {}


def _codex_document(path: Path) -> dict[str, Any]:
    """Codex CLI's ``config.toml`` at ``path`` as Codex reads it (a byte order mark left
    out); ``{}`` when it cannot be read."""
    return read_toml_as_codex(path) or {}


def _codex_project_files(workspace: Path, home: Path) -> list[Path]:
    """The project's ``.codex/config.toml`` layers Codex CLI reads in ``workspace``, outermost
    first: one in each folder from the Workspace up to its repository's root (the first
    folder with a ``.git``), never ``home`` or above it; outside a repository, the nearest
    one alone."""
    found: list[Path] = []
    for place in [workspace, *workspace.parents]:
        if place == home or place in home.parents:
            return found[:1]
        if (place / ".codex" / "config.toml").is_file():
            found.append(place / ".codex" / "config.toml")
        if (place / ".git").exists():
            return found[::-1]
    return found[:1]


def _off(harness: str, path: Path, why: str, when: str, *, sure: bool = True) -> str:
    verb = "switches these hooks off" if sure else "may turn these hooks off"
    return (
        f"{harness}: WARNING: {path} {verb} in Sessions in this Workspace"
        f"{when} ({why}): no memory and no write guard there. "
        f"{MANAGED_FIX.format(harness=harness)}"
    )


def _own_memory(harness: str, paths: list[Path], why: str, when: str = "") -> str:
    named, verb = " and ".join(map(str, paths)), "turns" if len(paths) == 1 else "together turn"
    return (
        f"{harness}: WARNING: {named} {verb} the harness's own memory back on in Sessions in this "
        f"Workspace{when} ({why}), beside Agent Memory. {MANAGED_FIX.format(harness=harness)}"
    )
