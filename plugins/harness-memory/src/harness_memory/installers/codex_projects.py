"""Hooks of ours in a project's ``.codex/`` folder, beside the user install (H-3, H-6).

Codex CLI (codex-rs ``config_loader::load_project_layers``, ``hooks::engine::discovery``)
reads every ``.codex/`` folder from the Workspace up to the project's root (the first folder
holding one of the ``project_root_markers`` of the system, user and profile layers,
:mod:`~.codex_layers`, by default a ``.git``) as a config layer
once the user trusts the project (``[projects."<dir>"] trust_level = "trusted"``), skipping
the folder that is ``$CODEX_HOME`` itself, and runs the hooks of each layer from both its
``hooks.json`` and the inline ``[hooks]`` of its ``config.toml`` (in a linked worktree,
those of the main checkout's folder at the same place). A project's hook runs only when the
user's own ``[hooks.state]`` trusts it (``"<file>:<event label>:<group>:<handler>"`` with
the hook's ``trusted_hash``, in ``config.toml`` or a profile file; a project's own
``[hooks.state]`` is ignored), and never while the requirements say
``allow_managed_hooks_only = true`` (only managed layers' hooks run then). An install made
for one project (``CODEX_HOME=<repo>/.codex harness-memory install codex``) leaves its hooks
there; run beside the user install (or the managed one) they inject memory twice per
Session and guard twice.
``status`` and the install name them; the uninstall of that folder (:func:`fix`) takes them
out.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from memory_core import json_text
from tomlkit.exceptions import TOMLKitError

from harness_memory.installers.codex_hook_fields import unreadable
from harness_memory.installers.codex_inline import (
    event_label,
    inline_commands,
    keep_comments,
    trust_entries,
)
from harness_memory.installers.codex_layers import DEFAULT_MARKERS, View, profile_said, views
from harness_memory.installers.files import FileChange, read_text
from harness_memory.installers.settings_text import dump_toml, parse_toml, read_toml_as_codex
from harness_memory.installers.spec import is_ours

__all__ = [
    "OursThere",
    "fix",
    "install_notes",
    "ours_in",
    "project_folders",
    "stale_trust_lines",
    "status_lines",
    "users_trust_taken_out",
    "working_folder",
]

HARNESS = "codex"


class OursThere(NamedTuple):
    """Hooks of ours in one file of a project's ``.codex/``: the file's ``path`` and, per
    event, ``(command, trusted)``: whether the user's ``[hooks.state]`` trusts that hook as it
    is (enabled, its ``trusted_hash`` the hook's own), so Codex runs it in a trusted project."""

    path: Path
    hooks: dict[str, list[tuple[str, bool]]]


def project_folders(
    workspace: Path, codex_home: Path, markers: Sequence[str] = DEFAULT_MARKERS
) -> list[Path]:
    """The ``.codex/`` folders whose hooks Codex CLI runs as project layers in ``workspace``,
    outermost first: one in each folder from the Workspace up to its project's root (codex-rs
    ``find_project_root``: the first folder holding one of ``markers``, ``$HOME`` or above it
    too; none found, or no ``markers``, the Workspace's alone), never ``codex_home`` (the
    user's layer). In a linked worktree (``git worktree
    add``) Codex takes each such layer's hooks from the main checkout's folder at the same
    place instead (codex-rs ``root_checkout_hooks_folder_for_dir``): that folder is named, the
    worktree's own ``hooks.json`` and inline hooks are never run."""
    user_layer = _real(codex_home)
    places = _walked(workspace, markers)
    found = [
        place / ".codex"
        for place in reversed(places)
        if (place / ".codex").is_dir() and _real(place / ".codex") != user_layer
    ]
    main = _main_checkout(places[-1])
    if main is None:
        return found
    return [main / folder.parent.relative_to(places[-1]) / ".codex" for folder in found]


def _walked(workspace: Path, markers: Sequence[str]) -> list[Path]:
    """The folders Codex CLI reads a ``.codex/`` in, the Workspace first, up to the project's
    root (codex-rs ``find_project_root``: the first holding one of ``markers``, ``$HOME`` or
    above it too); none found, or no ``markers``, the Workspace alone."""
    places: list[Path] = []
    for place in [workspace, *workspace.parents]:
        places.append(place)
        if any((place / marker).exists() for marker in markers):
            return places
    return [workspace]


def _main_checkout(checkout: Path) -> Path | None:
    """The main checkout of the linked worktree ``checkout`` (its ``.git`` a file
    ``gitdir: <main>/.git/worktrees/<name>``, as codex-rs ``resolve_root_git_project_for_trust``
    reads it); None for a main checkout itself, or a ``.git`` file that names no worktree."""
    try:
        text = (checkout / ".git").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):  # a folder: a main checkout
        return None
    named = text.strip().removeprefix("gitdir:").strip()
    if not text.startswith("gitdir:") or not named:
        return None
    admin = _real(checkout / named)
    if admin.parent.name != "worktrees" or _real(checkout) == admin.parent.parent.parent:
        return None
    return admin.parent.parent.parent


def _real(path: Path) -> Path:
    """``path`` with its links followed (as Codex normalises both folders it compares), or
    made absolute only when that fails."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def ours_in(folder: Path, user_config: Mapping[str, Any]) -> list[OursThere]:
    """The hooks of ours in ``folder``'s ``hooks.json`` and ``config.toml`` (inline), each
    with its trust in the user's ``config.toml`` document ``user_config``; files holding none
    (or that cannot be read, a ``hooks.json`` with a field Codex refuses included:
    :func:`~.codex_hook_fields.unreadable`, Codex runs none of it) are left out."""
    state = trust_entries(user_config)
    found: list[OursThere] = []
    for path in (folder / "hooks.json", folder / "config.toml"):
        document = _read(path)
        if path.name == "hooks.json" and isinstance(document, dict) and unreadable(document):
            continue
        hooks: dict[str, list[tuple[str, bool]]] = {}
        events = document.get("hooks") if isinstance(document, dict) else None
        for event, groups in events.items() if isinstance(events, dict) else []:
            for g, group in enumerate(groups if isinstance(groups, list) else []):
                handlers = group.get("hooks") if isinstance(group, dict) else None
                for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                    command = handler.get("command") if isinstance(handler, dict) else None
                    if not is_ours(command, HARNESS):
                        continue
                    entry = state.get(f"{path.absolute()}:{event_label(event)}:{g}:{h}")
                    hooks.setdefault(event, []).append(
                        (str(command), _trusts(entry, event, group, handler))
                    )
        if hooks:
            found.append(OursThere(path, hooks))
    return found


def _read(path: Path) -> Any:
    """``hooks.json`` or ``config.toml`` at ``path`` as Codex reads it; ``{}`` when it
    cannot be read (Codex skips a ``hooks.json`` it cannot read, with a warning)."""
    if path.name == "config.toml":
        return read_toml_as_codex(path) or {}
    try:
        return json_text.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {}


def _trusts(entry: Any, event: str, group: Mapping[str, Any], handler: Mapping[str, Any]) -> bool:
    """Whether the user's trust ``entry`` lets Codex run ``handler`` of ``group``: enabled,
    its ``trusted_hash`` the hook's as it is now."""
    from harness_memory.installers.codex import trust_hash

    if not isinstance(entry, Mapping) or entry.get("enabled") is False:
        return False
    try:
        return bool(entry.get("trusted_hash") == trust_hash(event, group, handler))
    except (KeyError, TypeError, ValueError):
        return False


def fix(folder: Path) -> str:
    """The command that takes our hooks out of a project's ``.codex/`` ``folder``: the
    uninstall of the install made for it (its hooks, trust entries, memory root and switches;
    the user's own stay, H-3)."""
    return f"`CODEX_HOME={shlex.quote(str(folder))} harness-memory uninstall codex`"


def _events(there: OursThere, installed: Mapping[str, Any]) -> str:
    """``SessionStart duplicate, Stop stale (not trusted)``: each hook of ours in ``there``
    against the user install's ``hooks.json`` document ``installed``: a duplicate when the
    install holds one of ours for the same event (both run: its command may name another
    state folder), else stale."""
    at_home = inline_commands(installed)
    said: list[str] = []
    for event, commands in there.hooks.items():
        for _, trusted in commands:
            kind = "duplicate" if at_home.get(event) else "stale"
            said.append(f"{event} {kind}" + ("" if trusted else " (not trusted)"))
    return ", ".join(said)


def _held(path: Path) -> str:
    """``<path> holds hooks of Agent Memory`` (``in its inline [hooks]`` for a
    ``config.toml``)."""
    inline = " in its inline [hooks]" if path.name == "config.toml" else ""
    return f"{path} holds hooks of Agent Memory{inline}"


def _found(
    workspace: Path, codex_home: Path, system: Path | None
) -> list[tuple[Path, OursThere, list[tuple[View, bool]]]]:
    """Each project file holding hooks of ours that Codex CLI reads in ``workspace``:
    ``(its folder, the hooks, [(view, whether the view's trust runs one of them)])`` over
    the :func:`~.codex_layers.views` (the Session without a profile, each profile file's;
    ``system``: the folder of the system ``config.toml``) that reach the file."""
    found: dict[Path, tuple[Path, OursThere, list[tuple[View, bool]]]] = {}
    for view in views(codex_home, system):
        for folder in project_folders(workspace, codex_home, view.markers):
            for there in ours_in(folder, view.trust):
                runs = any(trusted for hooks in there.hooks.values() for _, trusted in hooks)
                found.setdefault(there.path, (folder, there, []))[2].append((view, runs))
    return list(found.values())


def _said_views(seen: list[tuple[View, bool]]) -> list[tuple[View, bool]]:
    """Of the views ``seen`` of one file, those a line is said for: the Session without a
    profile, and each profile where Codex does otherwise (it runs them, or reads the file
    at all only there)."""
    base = next((runs for view, runs in seen if view.profile is None), None)
    return [(view, runs) for view, runs in seen if view.profile is None or runs != base]


def status_lines(
    workspace: Path,
    codex_home: Path,
    installed: Mapping[str, Any],
    *,
    system: Path | None = None,
    managed_only: Path | None = None,
) -> list[str]:
    """``status``'s lines, run in ``workspace`` beside an install (whose hooks document is
    ``installed``), for each project file holding hooks of ours: a PROBLEM when the user's
    ``[hooks.state]`` trusts one of them (Codex runs it beside the installed ones in this
    project once the project is trusted: two injections, two guards), else a WARNING
    (Codex asks whether to trust them; trusted, they run twice); said for each profile
    file where Codex does otherwise (:mod:`~.codex_layers`; ``system``: the folder of
    the system ``config.toml``). ``managed_only``: the requirements file saying
    ``allow_managed_hooks_only = true``, with which Codex runs no project hook: a note."""
    lines: list[str] = []
    for folder, there, seen in _found(workspace, codex_home, system):
        if managed_only is not None:
            lines.append(
                f"codex: note: {_held(there.path)}: Codex CLI skips them while {managed_only} "
                f"lets only managed hooks run (allow_managed_hooks_only = true); "
                f"{fix(folder)} takes them out"
            )
            continue
        for view, runs in _said_views(seen):
            kind, when = (
                ("PROBLEM", f"runs those you trusted ({view.file})")
                if runs
                else ("WARNING", "asks you to trust them; trusted, it runs them")
            )
            lines.append(
                f"codex: {kind}: {_held(there.path)} ({_events(there, installed)}): Codex CLI "
                f"{when} beside the installed ones in Sessions in this project"
                f"{profile_said(view)} once the project is trusted (memory injected twice per "
                f"Session, two guards): {fix(folder)} takes them out"
            )
    return lines + stale_trust_lines(workspace, codex_home, system)


def install_notes(workspace: Path | None, codex_home: Path, *, install: bool) -> list[str]:
    """The install's (or uninstall's) WARNING for each project file, seen from ``workspace``
    (the folder it runs in; None: not known), holding hooks of ours: the install of
    ``codex_home`` does not edit a project's files, it names them and the command that takes
    ours out (:func:`fix`); after an uninstall they still run there alone."""
    if workspace is None:
        return []
    lines: list[str] = []
    for folder, there, _ in _found(workspace, codex_home, None):
        runs = (
            "runs them beside these (memory injected twice per Session, two guards)"
            if install
            else "still runs them"
        )
        verb = "install" if install else "uninstall"
        lines.append(
            f"WARNING: {_held(there.path)} too: Codex CLI {runs} in Sessions in that "
            f"project once it is trusted; this {verb} leaves that project's file as it is: "
            f"{fix(folder)} takes them out"
        )
    return lines


def users_trust_taken_out(
    user_config: Path, config_path: Path, document: Mapping[str, Any], key_sources: Sequence[str]
) -> list[FileChange]:
    """The uninstall of a project's ``.codex/`` (``config_path`` its ``config.toml``, whose
    ``hooks.json`` document as read is ``document``, keyed ``key_sources`` in trust keys): the
    change to the user's own ``config.toml`` (``user_config``, ``~/.codex/config.toml``) taking
    out the ``[hooks.state]`` entries that trust our hooks there, only those whose
    ``trusted_hash`` is the hash of the hook of ours at that key (Codex reads a project's trust
    there alone: kept, an identical install later would run trusted without Codex asking).
    No change when ``user_config`` is ``config_path``, cannot be read, or holds none (H-3)."""
    from harness_memory.installers.codex import trust_hash

    old = read_text(user_config)
    if old is None or _real(user_config) == _real(config_path):
        return []
    try:
        config = parse_toml(old)
    except TOMLKitError:  # the user's file as it is: status names it
        return []
    hooks = config.get("hooks")
    state = hooks.get("state") if isinstance(hooks, MutableMapping) else None
    if not isinstance(hooks, MutableMapping) or not isinstance(state, MutableMapping):
        return []
    stale = [
        key
        for key, hashed in _our_hashes(document, key_sources, trust_hash).items()
        if isinstance(entry := state.get(key), Mapping) and entry.get("trusted_hash") == hashed
    ]
    for key in stale:
        del state[key]
    if not stale:
        return []
    if not state:
        keep_comments(config, [state])
        del hooks["state"]
    if not hooks:
        keep_comments(config, [hooks])
        del config["hooks"]
    return [FileChange(user_config, old, dump_toml(config, old), harness_settings=True)]


def _our_hashes(
    document: Mapping[str, Any], key_sources: Sequence[str], hashed: Any
) -> dict[str, str]:
    """Trust key → ``trusted_hash`` of each hook of ours in the ``hooks.json`` ``document``,
    keyed by each of ``key_sources``."""
    found: dict[str, str] = {}
    events = document.get("hooks")
    for event, groups in events.items() if isinstance(events, Mapping) else []:
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, Mapping) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if not isinstance(handler, Mapping) or not is_ours(handler.get("command"), HARNESS):
                    continue
                try:
                    value = str(hashed(event, group, handler))
                except (KeyError, TypeError, ValueError):
                    continue
                for source in key_sources:
                    found[f"{source}:{event_label(event)}:{g}:{h}"] = value
    return found


def stale_trust_lines(workspace: Path, codex_home: Path, system: Path | None = None) -> list[str]:
    """``status``'s WARNING for each trust entry in the user's ``config.toml`` (or a profile
    file, :mod:`~.codex_layers`) keyed by a ``hooks.json`` or ``config.toml`` of a project's
    ``.codex/`` Codex reads in ``workspace`` (in a linked worktree, the main checkout's) that
    holds no hook at that place any more (its folder gone with an uninstall that left the
    entry): an identical hook put there again runs trusted without Codex asking (H-3)."""
    lines: list[str] = []
    for view in views(codex_home, system):
        folders = _key_folders(workspace, codex_home, view.markers)
        document = read_toml_as_codex(view.file) or {}
        for key, entry in trust_entries(document).items():
            file, *position = key.strip().rsplit(":", 3)
            path = Path(file)
            if len(position) != 3 or str(path.parent) not in folders or _holds_at(path, position):
                continue
            if not isinstance(entry, Mapping) or "trusted_hash" not in entry:
                continue
            table = f'[hooks.state."{key}"]'
            lines.append(
                f"codex: WARNING: {view.file} still trusts a hook no longer in {path} ({table}): "
                "Codex CLI runs an identical hook put there again (another install for that "
                f"project) without asking you: delete that table ({table} and its trusted_hash "
                "line)"
            )
    return lines


def _key_folders(workspace: Path, codex_home: Path, markers: Sequence[str]) -> set[str]:
    """The ``.codex/`` folders Codex keys project hooks by in ``workspace`` (there or not):
    each from the Workspace up to its project's root, and in a linked worktree the main
    checkout's folder at the same place; never ``codex_home``."""
    user_layer = _real(codex_home)
    places = _walked(workspace, markers)
    main = _main_checkout(places[-1])
    folders = [place / ".codex" for place in places]
    if main is not None:
        folders += [main / place.relative_to(places[-1]) / ".codex" for place in places]
    return {str(folder) for folder in folders if _real(folder) != user_layer}


def _holds_at(path: Path, position: list[str]) -> bool:
    """Whether the ``hooks.json`` or ``config.toml`` at ``path`` holds a hook at ``position``
    (``[event label, group index, handler index]``, as a trust key names it)."""
    if path.name not in ("hooks.json", "config.toml"):
        return True  # not a file Codex keys project hooks by: not ours to judge
    label, group, handler = position
    document = _read(path)
    events = document.get("hooks") if isinstance(document, dict) else None
    for event, groups in events.items() if isinstance(events, dict) else []:
        if event_label(event) != label or not isinstance(groups, list):
            continue
        try:
            return isinstance(groups[int(group)]["hooks"][int(handler)], dict)
        except (IndexError, KeyError, TypeError, ValueError):
            return False
    return False


def working_folder() -> Path | None:
    """The folder the install runs in (the Workspace whose project files it reads); None when
    it is gone (removed under the process)."""
    try:
        return Path.cwd()
    except OSError:
        return None
