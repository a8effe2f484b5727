"""``harness-memory install codex``: hooks in ``$CODEX_HOME/hooks.json``, trust in ``config.toml``.

Codex CLI (measured on 0.171.0) runs a user hook only when ``config.toml`` records it as
trusted: ``[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash =
"sha256:…"``, the hash of the hook's normalised definition (:func:`trust_hash`). Without it the
hook is skipped silently. So the install writes three things:

- ``hooks.json``: a ``SessionStart`` hook whose ``additionalContextLimit`` lets the whole
  injection through (:data:`CONTEXT_LIMIT_TOKENS`; Codex's default of 2,500 tokens would cut it
  to a head-and-tail preview), a ``PreToolUse`` guard on the tools that write files and a
  ``PostToolUse`` hook on the same tools that records their memory writes as versions (V-1);
- ``config.toml``: the trust entries of those three hooks, and the memory root added to
  ``sandbox_workspace_write.writable_roots`` so the patch tool may write memory at all;
- nothing else: other hooks, their trust entries and the rest of ``config.toml`` (comments
  included, through ``tomlkit``) stay. Trust keys are positional, so when an uninstall takes
  our group out of an event's list, the entries of the groups after it move up with them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import Array, Comment, Table, Trivia

from harness_memory.installers.codex_inline import (
    apply_state,
    as_hooks_document,
    keep_comments,
    no_gaps,
    our_moves,
    rekeyed,
    take_ours_out,
    taken_out_note,
    trust_entries,
)
from harness_memory.installers.codex_layers import system_switch
from harness_memory.installers.codex_profiles import profile_plan, profiles_off_notes
from harness_memory.installers.codex_projects import (
    install_notes,
    users_trust_taken_out,
    working_folder,
)
from harness_memory.installers.codex_trust import kept_off_notes, switched_off_entry, trust_source
from harness_memory.installers.executable import import_command
from harness_memory.installers.files import (
    FileChange,
    SettingsFileError,
    dump_json,
    read_json_object,
    read_text,
    toml_object,
)
from harness_memory.installers.guard_gaps import gap_notes
from harness_memory.installers.hook_groups import merge_hooks
from harness_memory.installers.own_memory import (
    Switch,
    give_back_made,
    note_made,
    switch_off,
    switches_back,
)
from harness_memory.installers.own_switches import codex_off, switched_off
from harness_memory.installers.plan import Plan, given_back, with_state
from harness_memory.installers.record import STATE_FOLDER, read_record
from harness_memory.installers.secrets import tokens_in, toml_tokens_in
from harness_memory.installers.settings_text import dump_toml, parse_toml, split_mark
from harness_memory.installers.spec import (
    InstallOptions,
    installed_roots,
    our_commands,
    reach_note,
    root_changes,
    without_our_roots,
)
from harness_memory.installers.token_place import (
    hooks_token_file,
    hooks_token_plan,
    refused_by_other_readers,
)

__all__ = [
    "CONTEXT_LIMIT_TOKENS",
    "EDITED_TABLES",
    "GUARD_MATCHER",
    "MEMORIES",
    "SWITCHES",
    "TERMINALS",
    "check_tables",
    "codex_home",
    "hook_groups",
    "plan",
    "roots_note",
    "trust_hash",
    "writable_root",
]

HARNESS = "codex"
CONTEXT_LIMIT_TOKENS = 100_000
"""``additionalContextLimit`` of the SessionStart hook, in Codex's tokens (UTF-8 bytes / 4,
rounded up): 400 kB, far above the injection at the caps (I-4) with the default prompts."""
GUARD_MATCHER = "apply_patch|Bash|write_stdin|mcp__.*"
"""The tools the PreToolUse guard sees: the patch tool (also matched as ``Edit``/``Write``),
the shell, input to a running shell, and MCP tools (their path arguments)."""
HOOK_TIMEOUT_S = 30
_DEFAULT_TIMEOUT_S = 600
_DEFAULT_CONTEXT_LIMIT = 2_500
_EVENT_LABELS = {
    "SessionStart": "session_start",
    "PreToolUse": "pre_tool_use",
    "PostToolUse": "post_tool_use",
    "Stop": "stop",
}


def codex_home(home: Path, environ: Mapping[str, str]) -> Path:
    """``$CODEX_HOME``, else ``~/.codex``."""
    configured = environ.get("CODEX_HOME")
    return Path(configured).absolute() if configured else home / ".codex"


def trust_hash(event: str, group: Mapping[str, Any], handler: Mapping[str, Any]) -> str:
    """The ``trusted_hash`` Codex computes for one command hook of ``group`` (an event's entry).

    The hook's normalised identity — the event's snake-case label, the group's matcher, the one
    handler with its timeout filled in (600 s by default, at least 1 s), ``async`` (false) and
    only the optional fields that are set — as JSON with sorted keys and no spaces, SHA-256, hex.
    """
    normalised: dict[str, Any] = {
        "type": "command",
        "command": handler["command"],
        "timeout": _timeout(handler.get("timeout")),
        "async": bool(handler.get("async", False)),
    }
    if handler.get("statusMessage") is not None:
        normalised["statusMessage"] = handler["statusMessage"]
    limit = handler.get("additionalContextLimit")
    if limit is not None and limit != _DEFAULT_CONTEXT_LIMIT:
        normalised["additionalContextLimit"] = limit
    identity: dict[str, Any] = {"event_name": _EVENT_LABELS[event], "hooks": [normalised]}
    if group.get("matcher") is not None:
        identity["matcher"] = group["matcher"]
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _timeout(given: Any) -> int:
    """A handler's timeout as Codex fills it in: ``timeout_sec.unwrap_or(600).max(1)`` (0 s is
    1 s, not the default)."""
    return _DEFAULT_TIMEOUT_S if given is None else max(int(given), 1)


MEMORIES = Switch(
    keys=("features", "memories"),
    off=False,
    what="Codex CLI's own memories",
    default_on=False,
)
"""Codex's memories feature (``~/.codex/memories``: ``memory_summary.md`` and its notes, read
into a developer message when on). Off by default in 0.171; set off explicitly so neither a
default that changes nor an earlier ``memories = true`` brings a second memory (H-6)."""


TERMINALS = Switch(
    keys=("features", "unified_exec_tty"),
    off=False,
    what="Codex CLI's interactive terminals (exec_command with tty)",
    default_on=True,
    why="the write guard never sees what is typed into a running terminal",
)
"""What the model types into a running terminal (``write_stdin``) never reaches Codex's
PreToolUse hook (measured on 0.171: a file typed into ``bash`` landed in another Workspace's
scope). Without a terminal, ``write_stdin`` cannot feed a running command ("stdin is closed"),
so every command goes through ``exec_command``, which the guard sees (P-3). Codex 0.171 ignores
``features.unified_exec = false``, so this is the fence that holds."""
SWITCHES = (MEMORIES, TERMINALS)
"""Every Codex CLI feature the install turns off in ``config.toml`` (and in profile files that
turn one back on); its summary says each (H-3)."""


def plan(options: InstallOptions, environ: Mapping[str, str], *, install: bool) -> Plan:
    """The changes to ``hooks.json`` and ``config.toml``; ``SettingsFileError`` for a bad file."""
    home = codex_home(options.home, environ)
    hooks_path, config_path = home / "hooks.json", home / "config.toml"
    options = replace(options, settings_file=hooks_path)  # a guard whose program is gone names it
    old_hooks, document = read_json_object(hooks_path)
    record = read_record(home)
    record.note_url(options.url, options.url_id_not_secret, install=install)
    token_file, place_warning = None, None
    if install:  # never in a git work tree, or one with a warning; the user's kept
        token_file, place_warning = hooks_token_file(home, options, environ, options.token)
    wanted = hook_groups(options, home / STATE_FOLDER, token_file) if install else {}
    merged, _ = merge_hooks(document, HARNESS, wanted, source=hooks_path)
    old_config = read_text(config_path)
    try:
        config = parse_toml(old_config)
    except TOMLKitError as error:
        raise SettingsFileError(f"{config_path} is not valid TOML ({error})") from None
    check_tables(config, config_path)
    config_tokens = toml_tokens_in(config)  # before the plan changes it
    key_sources = _key_sources(options.home, environ, hooks_path)
    found = _as_the_user_had_it(old_config, document, key_sources, hooks_path)
    ours_inline = as_hooks_document(config)  # before they are taken out: their roots go too
    inline = take_ours_out(config, _config_key(key_sources))  # Codex runs those too (H-6)
    for keys in EDITED_IN_PLACE if install else ():
        note_made(found, keys, record.previous)
    kept_off = _update_trust(config, key_sources, document, merged, ours=set(wanted))
    gone, added = root_changes(document, HARNESS, options, install=install)
    gone += [root for root in installed_roots(ours_inline, HARNESS) if root not in (*gone, added)]
    first = not (our_commands(document, HARNESS) or our_commands(ours_inline, HARNESS))
    _edit_roots(config, record.previous, (gone, added), first=first, install=install)
    notes: list[str] = [place_warning] if place_warning else []
    notes += taken_out_note(config_path, inline)
    notes += install_notes(working_folder(), home, install=install)  # H-3
    # H-6, P-3: a profile file's memories or unified_exec_tty = true too
    trust = partial(_profile_trust, key_sources, document, merged, set(wanted))
    profiles, profile_notes = profile_plan(home, SWITCHES, record, install=install, trust=trust)
    if install:
        for switch in SWITCHES:
            notes.append(switch_off(config, switch, record.previous, tomlkit.table, found=found))
        notes += profile_notes
        notes += _switched_off_notes(config, config_path)
        notes += profiles_off_notes(home, config) + kept_off_notes(config_path, kept_off)
        notes += roots_note(config_path, gone, added)
        notes += gap_notes(HARNESS, managed=False)
        notes += _memories_kept(home, import_command(HARNESS, options.memory_root, dict(environ)))
    else:
        first = record.first_found(config_path, toml_object)
        read = parse_toml(old_config)  # as the uninstall read it

        def give_back() -> None:
            _tidy(config)
            for keys in EDITED_IN_PLACE:  # a table of the user's, empty, stays (H-3)
                give_back_made(config, keys, record.previous, before=read, new_table=tomlkit.table)

        notes += switches_back(config, SWITCHES, record.previous, first=first, then=give_back)
        notes += profile_notes
    hooks = (hooks_path, [old_hooks, old_config])  # a token their --token-file names (H-7)
    planned = hooks_token_plan(record, token_file, options, environ, hooks) if install else None
    changes, removals, left = planned or ([], [], [])
    notes += left + refused_by_other_readers(token_file, options, environ, hooks_path)
    changes += profiles + _trust_gone(options, config_path, document, key_sources, install)
    if install or old_hooks is not None:
        secrets = frozenset(tokens_in(document, HARNESS) | tokens_in(merged, HARNESS))
        text = dump_json(merged, old_hooks)
        was = None if install else given_back(hooks_path, merged, old_hooks, record, HARNESS)
        change = FileChange(hooks_path, old_hooks, text, secrets, harness_settings=True)
        changes.append(change if was is None else replace(change, new=was.text, mode=was.mode))
    new_config = dump_toml(config, old_config)
    if inline:  # the tables of ours taken out leave their blank lines behind
        new_config = no_gaps(old_config, new_config)
    if not install:  # tables taken out leave their blank separator line behind
        new_config = _without_trailing_blank_lines(new_config)
    if install or old_config is not None:
        secrets = frozenset(config_tokens | toml_tokens_in(config))
        changes.append(
            FileChange(config_path, old_config, new_config, secrets, harness_settings=True)
        )
    readers = (options.home, environ, hooks_path)  # a token file they read stays (H-7)
    return with_state(changes, notes, record, install=install, removals=removals, readers=readers)


def _switched_off_notes(config: Any, config_path: Path) -> list[str]:
    """The install's WARNINGs when ``config.toml`` (``config``, at ``config_path``) itself, or
    the system ``config.toml`` beneath it (:func:`~.codex_layers.system_switch`), keeps
    every hook from running (H-7)."""
    notes = []
    if why := codex_off(config):
        notes.append(f"WARNING: {switched_off(HARNESS, config_path, why)}")
    if below := system_switch(config, config_path):
        notes.append(f"WARNING: {below}")
    return notes


def _trust_gone(
    options: InstallOptions,
    config_path: Path,
    document: dict[str, Any],
    key_sources: tuple[str, ...],
    install: bool,
) -> list[FileChange]:
    """For an uninstall of a project's ``.codex/`` (``CODEX_HOME=<repo>/.codex``): the user's
    own ``~/.codex/config.toml`` without its trust of the hooks of ours it takes out
    (:func:`~.codex_projects.users_trust_taken_out`); nothing for an install."""
    if install:
        return []
    user_config = options.home / ".codex" / "config.toml"
    return users_trust_taken_out(user_config, config_path, document, key_sources)


def _key_sources(home: Path, environ: Mapping[str, str], hooks_path: Path) -> tuple[str, ...]:
    """The ``hooks.json`` paths trust keys name: first the one Codex keys them by
    (:func:`~harness_memory.installers.codex_trust.trust_source`: ``CODEX_HOME`` with its links
    resolved), then ``hooks_path`` as written when that differs (an older install keyed ours
    by a link's path, which Codex never matched)."""
    source = str(trust_source(home, environ))
    return (source, *({str(hooks_path.absolute())} - {source}))


def _config_key(key_sources: tuple[str, ...]) -> str:
    """The ``config.toml`` path Codex keys the trust of its inline hooks by: beside the
    ``hooks.json`` of the first of ``key_sources`` (:func:`_key_sources`)."""
    return str(Path(key_sources[0]).with_name("config.toml"))


def _without_trailing_blank_lines(text: str) -> str:
    """``text`` ending in one line end of its own kind (CRLF or LF) after its last line, its
    byte order mark kept; ``""`` for a text left with nothing but blank lines."""
    mark, body = split_mark(text)
    if not (body or "").strip():
        return ""
    end = "\r\n" if (body or "").rstrip("\n").endswith("\r") else "\n"
    return mark + (body or "").rstrip("\r\n") + end


MEMORIES_FOLDERS = ("memories_v2", "memories")
"""Where Codex CLI keeps its memories, in ``$CODEX_HOME``: ``memories_v2/`` (its second memory
pipeline: ``memory_summary.md``, ``rollout_summaries/``, ad-hoc notes) and ``memories/`` (the
first: the same with ``MEMORY.md``, ``skills/``); it may hold both."""


def _memories_kept(home: Path, bring: str) -> list[str]:
    """The install note naming each memories folder that holds something (P-5, H-6), and the
    command that brings them over (``bring``: :func:`~harness_memory.installers.executable.
    import_command`)."""
    kept = [home / name for name in MEMORIES_FOLDERS if _holds(home / name)]
    if not kept:
        return []
    return [
        f"Codex CLI's memories stay on disk in {' and '.join(map(str, kept))}; Codex no longer "
        f"reads them. Bring them over (the import reads both folders): {bring}"
    ]


def _holds(folder: Path) -> bool:
    """Whether ``folder`` is a folder with something in it (one that cannot be listed counts)."""
    try:
        return folder.is_dir() and any(folder.iterdir())
    except OSError:
        return True


def hook_groups(
    options: InstallOptions, state: Path | None, token_file: Path | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Our hook groups per event. Every command names the state folder ``state`` and those
    that call the service the ``token_file`` (None: no token); ``state`` None: the managed
    install's hooks, whose users each keep their state (and token) in their account's home
    (:func:`~harness_memory.settings.account_state_dir`)."""
    start = {
        "type": "command",
        "command": options.hook_command(
            HARNESS, "session-start", state_dir=state, token_file=token_file
        ),
        "timeout": HOOK_TIMEOUT_S,
        "additionalContextLimit": CONTEXT_LIMIT_TOKENS,
    }
    guard = {
        "type": "command",
        "command": options.hook_command(HARNESS, "pre-tool-use", state_dir=state),
        "timeout": HOOK_TIMEOUT_S,
    }
    record = {
        "type": "command",
        "command": options.hook_command(
            HARNESS, "post-tool-use", state_dir=state, token_file=token_file
        ),
        "timeout": HOOK_TIMEOUT_S,
    }
    wanted: dict[str, list[dict[str, Any]]] = {
        "SessionStart": [{"hooks": [start]}],
        "PreToolUse": [{"matcher": GUARD_MATCHER, "hooks": [guard]}],
        "PostToolUse": [{"matcher": GUARD_MATCHER, "hooks": [record]}],
    }
    if options.remote:  # what the agent wrote goes back when a turn stops too
        stop = {
            "type": "command",
            "command": options.hook_command(
                HARNESS, "stop", state_dir=state, token_file=token_file
            ),
            "timeout": HOOK_TIMEOUT_S,
        }
        wanted["Stop"] = [{"hooks": [stop]}]
    return wanted


EDITED_TABLES = ("features", "hooks", "hooks.state", "sandbox_workspace_write")
"""The tables of a ``config.toml`` (and ``requirements.toml``) an install edits."""


def check_tables(document: Any, source: object, names: tuple[str, ...] = EDITED_TABLES) -> None:
    """Raise :class:`SettingsFileError` (naming ``source``) when one of the dotted ``names`` is
    in ``document`` but is no table (``features = 3``), or ``sandbox_workspace_write.
    writable_roots`` is no list of paths: the install would otherwise overwrite the user's
    value or stop half-way; it is not guessed at."""
    for name in names:
        value: Any = document
        for key in name.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        if value is not None and not isinstance(value, dict):
            raise SettingsFileError(f"{source}: {name} is not a table")
    section = document.get("sandbox_workspace_write")
    if "sandbox_workspace_write" not in names or not isinstance(section, dict):
        return
    roots = section.get("writable_roots")
    if roots is not None and not (
        isinstance(roots, list) and all(isinstance(root, str) for root in roots)
    ):
        raise SettingsFileError(
            f"{source}: sandbox_workspace_write.writable_roots is not a list of paths"
        )


def _state_table(config: Any) -> Any:
    hooks = config.get("hooks")
    if hooks is None:
        return None
    state = hooks.get("state") if hasattr(hooks, "get") else None
    return state if hasattr(state, "keys") else None


def _update_trust(
    config: Any,
    key_sources: tuple[str, ...],
    document: dict[str, Any],
    merged: dict[str, Any],
    *,
    ours: set[str],
) -> list[str]:
    """Bring ``[hooks.state]`` to what the merged ``hooks.json`` needs, touching only entries
    that change: the entries of our handlers in ``document`` (the file as read) go, those of
    the user's handlers that move up (a group of ours gone before them, a handler of ours
    before them in their group) are re-keyed, and the groups this install wrote (the events in
    ``ours``; none for an uninstall) are trusted, keyed by the first of ``key_sources`` (the
    path Codex keys them by; the others: paths an older install keyed ours by, whose entries
    of ours go). A group of the user's own is never trusted by the install: Codex asks the
    user about it as before. The user's ``enabled = false`` on an entry of ours (Codex's own
    per-hook switch) stays on the new entry: the keys where it did, returned, are warned of."""
    current = trust_entries(config)
    wanted = dict(current)
    for source in key_sources:
        wanted = rekeyed(wanted, source, our_moves(document))
    kept_off: list[str] = []
    for key, entry in _our_trust(key_sources[0], merged, ours).items():
        old = current.get(key)
        if isinstance(old, Mapping) and switched_off_entry(old):
            entry["enabled"] = False
            kept_off.append(key)
        wanted[key] = entry
    apply_state(config, current, wanted)
    return kept_off


def _profile_trust(
    key_sources: tuple[str, ...],
    document: dict[str, Any],
    merged: dict[str, Any],
    ours: set[str],
    profile: Any,
) -> None:
    """Bring the ``[hooks.state]`` of a profile file (the ``tomlkit`` document ``profile``)
    to the merged ``hooks.json``, as :func:`_update_trust` does ``config.toml``'s, but only
    where it held trust of ours: Codex lays it over ``config.toml``'s field by field, so a
    stale ``trusted_hash`` of ours there holds over the fresh one (H-7). The entries of ours
    go (an uninstall: ``ours`` empty), the user's that move are re-keyed, and each entry of
    ours on an event the profile file held one for comes back with the fields it had
    (``trusted_hash`` the new hash, the user's ``enabled`` as it was); the user's own layout
    and comments stay."""
    current = trust_entries(profile)
    if not current:
        return
    wanted = dict(current)
    for source in key_sources:
        wanted = rekeyed(wanted, source, our_moves(document))
    held: dict[str, Any] = {}  # an entry of ours the file held, by its event's label
    for key in [key for key in current if key not in wanted]:
        held.setdefault(key.rsplit(":", 3)[1], current[key])
    for key, entry in _our_trust(key_sources[0], merged, ours).items():
        old = current.get(key, held.get(key.rsplit(":", 3)[1]))
        if not isinstance(old, Mapping) or not {"trusted_hash", "enabled"} & set(old):
            continue
        new = tomlkit.table()
        if "trusted_hash" in old:
            new["trusted_hash"] = entry["trusted_hash"]
        if "enabled" in old:
            new["enabled"] = old["enabled"]
        wanted[key] = new
    apply_state(profile, current, wanted)
    _tidy(profile)


def _our_trust(key_source: str, merged: dict[str, Any], ours: set[str]) -> dict[str, Any]:
    """The trust entries of our hooks: the last group of each event in ``ours`` (the events
    this install wrote: it appends its group after the user's)."""
    entries: dict[str, Any] = {}
    for event, label in _EVENT_LABELS.items():
        groups = merged.get("hooks", {}).get(event)
        if event not in ours or not groups:  # Stop: ours only in remote mode
            continue
        group = groups[-1]
        for index, handler in enumerate(group["hooks"]):
            entry = tomlkit.table()
            entry["trusted_hash"] = trust_hash(event, group, handler)
            entries[f"{key_source}:{label}:{len(groups) - 1}:{index}"] = entry
    return entries


def _as_the_user_had_it(
    old_config: str | None,
    document: dict[str, Any],
    key_sources: tuple[str, ...],
    hooks_path: Path,
) -> Any:
    """``config.toml`` (the text ``old_config``) as an uninstall would leave it: the trust
    entries of our hooks in ``hooks.json`` (``document``, read from ``hooks_path``, named
    ``key_sources`` in the trust keys), those inline in ``config.toml`` itself and the
    memory roots they name taken out, and the tables that leaves empty (H-3: what an install
    records it found)."""
    found = parse_toml(old_config)
    for hooks in (document, as_hooks_document(found)):  # hooks.json's and inline ones' roots
        found = without_our_roots(found, hooks, HARNESS, _taken_out)
    merged, _ = merge_hooks(document, HARNESS, {}, source=hooks_path)
    _update_trust(found, key_sources, document, merged, ours=set())
    take_ours_out(found, _config_key(key_sources))
    _tidy(found)
    return found


def _taken_out(config: Any, root: str) -> None:
    """:func:`writable_root` taking ``root`` out (an uninstall's step)."""
    writable_root(config, root, install=False)


def _tidy(config: Any) -> None:
    """Take out the ``[hooks.state]`` and ``[hooks]`` tables an uninstall left empty, the
    comments in them staying in the file (:func:`~.codex_inline.keep_comments`)."""
    hooks = config.get("hooks")
    if hooks is None or not hasattr(hooks, "keys"):
        return
    state = _state_table(config)
    if state is not None and not state:
        keep_comments(config, [state])
        del hooks["state"]
    if not hooks:
        keep_comments(config, [hooks])
        del config["hooks"]


EDITED_IN_PLACE = (("sandbox_workspace_write", "writable_roots"), ("hooks", "state"))
"""The tables and list of ``config.toml`` an install adds its entries to; an uninstall gives
back what it found on the way (:func:`~harness_memory.installers.own_memory.give_back_made`)."""


def roots_note(config_path: Path, gone: list[str], added: str | None) -> list[str]:
    """The install summary's line for ``sandbox_workspace_write.writable_roots`` of
    ``config_path`` naming the memory root ``added`` (``gone``: former roots taken out), for
    the user install and the managed one alike (:func:`~.spec.reach_note`, H-3)."""
    return reach_note(
        f"Codex CLI's sandbox: sandbox_workspace_write.writable_roots in {config_path} names",
        "its sandbox lets the agent's commands and patches write memory",
        gone,
        added,
    )


def writable_root(config: Any, root: str, *, install: bool) -> None:
    """Add ``root`` to (or take it out of) ``sandbox_workspace_write.writable_roots`` of a
    ``tomlkit`` document; the table goes when an uninstall leaves it empty, the comments it
    carries (the user's, or those kept from a table of ours before it) staying in the file
    (:func:`~.codex_inline.keep_comments`)."""
    section = config.get("sandbox_workspace_write")
    if section is None:
        if not install:
            return
        section = config["sandbox_workspace_write"] = tomlkit.table()
    roots = [str(item) for item in section.get("writable_roots", [])]
    if install and root not in roots:
        roots.append(root)
    if not install and root in roots:
        roots.remove(root)
    if not install and not roots and all(k == "writable_roots" for k in section):
        keep_comments(config, [section])
        del config["sandbox_workspace_write"]
    elif roots:
        _set_roots(section, roots)
    elif "writable_roots" in section:
        comment = section.item("writable_roots").trivia.comment  # the user's: it stays
        del section["writable_roots"]
        if comment and isinstance(section, Table):
            section.add(Comment(Trivia(comment_ws="", comment=comment, trail="\n")))


def _edit_roots(
    config: Any,
    previous: dict[str, Any],
    changes: tuple[list[str], str | None],
    *,
    first: bool,
    install: bool,
) -> None:
    """``writable_roots`` of ``config`` with the memory roots ``changes`` (``(gone,
    added)``) made: a ``first`` install notes the user's as they are (:func:`_note_roots`),
    an uninstall gives them back (:func:`_roots_given_back`)."""
    gone, added = changes
    if install and first:
        _note_roots(config, previous)
    if added is not None:  # first: a table of the user's left with it stays where it is
        writable_root(config, added, install=True)
    for root in gone if install else _roots_given_back(config, previous, gone):
        writable_root(config, root, install=False)


_ROOTS_FOUND = "roots:sandbox_workspace_write.writable_roots"
"""The record's key for ``writable_roots`` as the first install found it (:func:`_note_roots`)."""


def _note_roots(config: Any, previous: dict[str, Any]) -> None:
    """Keep in ``previous`` (the install record's) ``writable_roots`` of ``config`` as a first
    install finds it: its roots and its text (an array ``tomlkit`` reads), so the uninstall
    gives back the user's own roots, the memory root among them when the user had it, and the
    array byte for byte (:func:`_roots_given_back`). An install again keeps what the first
    one noted."""
    section = config.get("sandbox_workspace_write")
    array = section.get("writable_roots") if isinstance(section, Table) else None
    if _ROOTS_FOUND in previous or not isinstance(array, Array):
        return
    previous[_ROOTS_FOUND] = {"roots": [str(root) for root in array], "text": array.as_string()}


def _roots_given_back(config: Any, previous: dict[str, Any], gone: list[str]) -> list[str]:
    """For an uninstall: of the memory roots ``gone``, those still to take out of
    ``writable_roots`` of ``config`` (not one the user listed before the first install,
    :func:`_note_roots`); when what is left is the user's list as the install found it, the
    array is put back as its text was, comments and layout (a trailing comma or none) alike."""
    found = previous.pop(_ROOTS_FOUND, None)
    roots = found.get("roots") if isinstance(found, dict) else None
    if not isinstance(roots, list) or not isinstance(found, dict):
        return gone
    gone = [root for root in gone if root not in roots]
    section = config.get("sandbox_workspace_write")
    array = section.get("writable_roots") if isinstance(section, Table) else None
    text = found.get("text")
    if not isinstance(array, Array) or not isinstance(text, str):
        return gone
    if [str(root) for root in array if str(root) not in gone] != roots:
        return gone  # changed since: the roots of ours alone go
    try:
        section["writable_roots"] = tomlkit.parse(f"roots = {text}")["roots"]
    except TOMLKitError:
        return gone
    return []


def _set_roots(section: Any, roots: list[str]) -> None:
    """``writable_roots`` of ``section`` made ``roots``: the array there edited in place (its
    items taken out, then the new ones appended), so a multi-line array keeps its comments and
    layout (``tomlkit``); a new array where there is none, or none ``tomlkit`` can edit."""
    array = section.get("writable_roots")
    if not isinstance(array, Array):
        section["writable_roots"] = roots
        return
    for index in reversed(range(len(array))):
        if str(array[index]) not in roots:
            del array[index]
    kept = [str(item) for item in array]
    for root in roots:
        if root not in kept:
            array.append(root)
