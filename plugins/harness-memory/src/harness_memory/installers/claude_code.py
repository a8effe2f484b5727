"""``harness-memory install claude-code``: the hooks in ``~/.claude/settings.json`` (H-3).

Writes what the plugin README's Claude Code section gives: the ``SessionStart`` entries, the
``PreToolUse`` guard on the tools that write (:data:`WRITE_MATCHER`), the ``PostToolUse`` hook
on the same tools that records their memory writes as versions (V-1), the memory root in
``permissions.additionalDirectories`` and the ``Edit(//<memory root>/**)`` allow rule (so headless
Sessions may write memory; the guard still keeps writes to the Session's scopes). A token goes
into the install's token file (``<settings folder>/harness-memory/token``, mode 0600, H-7),
which the hooks that call the service name with ``--token-file``: never into ``env``, which a
repository's ``.claude/settings.json`` overrides (P-2a); one an earlier install wrote there is
moved into the file. ``$CLAUDE_CONFIG_DIR`` moves the files as Claude Code does. Uninstall
removes our hook entries, our two permission entries and the token file, nothing else.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from memory_core.addresses import shown_url
from memory_core.claude_code_settings import auto_memory_directory
from memory_core.counting import counted

from harness_memory.advice import Hooks
from harness_memory.hooks.claude_code import RECOMMENDED_PARTS
from harness_memory.installers.claude_drop_ins import (
    managed_unread,
    read_drop_in,
    read_managed,
    refused_said,
    source_of,
    unread_said,
    with_drop_ins,
)
from harness_memory.installers.detail import Detail
from harness_memory.installers.executable import import_command
from harness_memory.installers.files import (
    FileChange,
    SettingsFileError,
    dump_json,
    json_object,
    read_json_object,
    require_shapes,
)
from harness_memory.installers.guard_gaps import gap_notes
from harness_memory.installers.hook_groups import merge_hooks
from harness_memory.installers.own_memory import (
    Record,
    Switch,
    give_back_made,
    note_made,
    switch_off,
    switches_back,
)
from harness_memory.installers.own_switches import claude_code_off, switched_off
from harness_memory.installers.plan import Plan, given_back, with_state
from harness_memory.installers.record import STATE_FOLDER, read_record
from harness_memory.installers.secrets import TOKEN_ENV, tokens_in
from harness_memory.installers.spec import (
    InstallOptions,
    flag_values,
    our_commands,
    reach_note,
    root_changes,
    same_service,
    without_our_roots,
)
from harness_memory.installers.token_place import (
    hooks_token_file,
    hooks_token_plan,
    refused_by_other_readers,
)
from harness_memory.installers.workspace_switches import managed_memory_on
from harness_memory.settings import MANAGED_TOKEN_SET, managed_folder

__all__ = [
    "AUTO_MEMORY",
    "AUTO_MEMORY_VARIABLE",
    "EACH_USERS_OWN_FILE",
    "SESSION_START_PARTS",
    "SWITCHES",
    "managed_dir",
    "plan",
    "settings_path",
]

HARNESS = "claude-code"
SESSION_START_PARTS = RECOMMENDED_PARTS
"""SessionStart entries written, each carrying one piece of the injection (H-1: Claude Code
shows at most 10,000 characters of each; four carry both indexes at the caps)."""
WRITE_MATCHER = "Write|Edit|MultiEdit|NotebookEdit|Bash|mcp__.*"
"""The tools the PreToolUse guard sees: the file tools, the shell and MCP tools (P-3); the
PostToolUse hook sees the same ones and records their memory writes as versions (V-1)."""


EDITED_SHAPES: dict[str, type] = {
    "permissions": dict,
    "permissions.additionalDirectories": list,
    "permissions.allow": list,
    "env": dict,
}
"""The settings an install edits, and the type each must have for it to do so."""

ROOT_LISTS = (("permissions", "additionalDirectories"), ("permissions", "allow"))
"""The lists the memory root goes into; an uninstall gives back what it found on the way
(:func:`~harness_memory.installers.own_memory.give_back_made`)."""


def settings_path(home: Path, environ: Mapping[str, str]) -> Path:
    """``$CLAUDE_CONFIG_DIR/settings.json``, else ``~/.claude/settings.json``."""
    config = environ.get("CLAUDE_CONFIG_DIR")
    return (Path(config).absolute() if config else home / ".claude") / "settings.json"


AUTO_MEMORY = Switch(
    keys=("autoMemoryEnabled",),
    off=False,
    what="Claude Code's own auto memory",
    default_on=True,
)
"""Claude Code's auto memory (``~/.claude/projects/<project>/memory/``): on unless
``autoMemoryEnabled`` is false; with it on the model gets a second memory section (H-6)."""

AUTO_MEMORY_VARIABLE = Switch(
    keys=("env", "CLAUDE_CODE_DISABLE_AUTO_MEMORY"),
    off="1",
    what="Claude Code's own auto memory, by the variable that wins over autoMemoryEnabled",
    default_on=False,
    when_absent="not set before, which leaves it to autoMemoryEnabled",
)
"""Claude Code reads ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` before ``autoMemoryEnabled``: a true
value (``1``, ``true``, ``yes``, ``on``) turns its auto memory off, a false one (``0``,
``false``, ``no``, ``off``) turns it on whatever ``autoMemoryEnabled`` says (measured on
2.1.332). The settings' ``env`` sets it for every Session, so the install sets it to ``"1"``
there too (H-6); in managed settings it wins over a repository's ``env``."""
SWITCHES = (AUTO_MEMORY, AUTO_MEMORY_VARIABLE)
"""Every Claude Code setting the install turns off in its settings; its summary says each
(H-3)."""


MANAGED = (
    "Installed into Claude Code's managed settings ({path}): every user's Claude Code on this "
    "machine runs these hooks with its own auto memory off, and no repository's or user's "
    "settings can switch them off or it back on (disableAllHooks outside managed settings "
    "leaves managed hooks running; autoMemoryEnabled and CLAUDE_CODE_DISABLE_AUTO_MEMORY there "
    "are overridden)."
)
MANAGED_MEMORY_KEPT_ON = (
    "Installed into Claude Code's managed settings ({path}): every user's Claude Code on this "
    "machine runs these hooks, and no repository's or user's settings can switch them off "
    "(disableAllHooks outside managed settings leaves managed hooks running)."
)
""":data:`MANAGED` where a drop-in keeps Claude Code's own auto memory on (its WARNING says
which): the managed install does not turn it off, so its summary does not say so (H-6)."""


EACH_USERS_OWN_FILE = (
    "each user gives theirs in the token file of their own account's home (mode 0600, read "
    "by the managed hooks, which no repository's settings can change): "
    f"{MANAGED_TOKEN_SET} (reads the token from stdin)"
)
"""How a user of a managed install gives the hooks their bearer token (H-7, P-2a)."""


def managed_dir(platform: str = sys.platform) -> Path:
    """Where Claude Code reads its managed settings (``managed-settings.json``) on ``platform``:
    ``/etc/claude-code`` on Linux and WSL, ``/Library/Application Support/ClaudeCode`` on
    macOS, ``C:\\ProgramData\\ClaudeCode`` on Windows (Claude Code's settings docs)."""
    return managed_folder(HARNESS, platform)


def _warnings(path: Path, merged: dict[str, Any], *, managed: Path | None) -> list[str]:
    """What keeps every hook of the settings ``merged`` (to be written to ``path``) from
    running: their own ``"disableAllHooks": true`` or, for a managed install, that of the
    drop-ins Claude Code lays over them (:mod:`~harness_memory.installers.claude_drop_ins`),
    naming the file that sets it, and a drop-in Claude Code refuses to start with; and, for a
    managed install, each drop-in already holding hooks of ours (H-7, :func:`_held_twice`)."""
    if managed is None:
        why = claude_code_off(merged)
        return [switched_off(HARNESS, path, why)] if why else []
    settings = with_drop_ins(path, merged)
    said = [refused_said(where, why) for where, why in settings.refused]
    said += _held_twice(settings.files[1:], path)
    if why := claude_code_off(settings.document):
        said.append(switched_off(HARNESS, source_of(settings, "disableAllHooks", path), why))
    return said


def _switch_notes(
    merged: dict[str, Any],
    previous: Record,
    found: dict[str, Any],
    *,
    managed: Path | None,
    unread: bool,
) -> list[str]:
    """Turn Claude Code's own auto memory off in the settings ``merged`` (:data:`SWITCHES`,
    noting in ``previous`` what ``found`` held) and say so; a WARNING instead when managed
    settings keep it on over them (:func:`~.workspace_switches.managed_memory_on`), read by
    the one reader status reads them with (:func:`~.claude_drop_ins.read_managed`): for a user
    install, this machine's (they win, so it is not off, H-6); for a managed install into
    ``managed`` (its ``managed-settings.json``), the drop-ins beside it, which Claude Code
    lays over what it writes. ``unread``: a user install with ``--no-check``, for settings
    prepared for another machine, which this one's say nothing of: none are read."""
    said = [switch_off(merged, switch, previous, found=found) for switch in SWITCHES]
    if managed is None and unread:
        return said
    path = managed or managed_dir() / "managed-settings.json"
    try:
        if managed is None:
            kept = managed_memory_on(merged, read_managed(path))
        else:  # what this install writes there, the drop-ins as they are
            written = read_managed(
                path, lambda read: merged if read == path else read_drop_in(read)
            )
            kept = managed_memory_on(merged, written, over=path)
    except (SettingsFileError, OSError):
        return said  # Claude Code refuses to start with it: the install's checks say so
    return [f"WARNING: {kept}"] if kept else said


def _held_twice(drop_ins: list[tuple[Path, dict[str, Any]]], path: Path) -> list[str]:
    """For a managed install writing hooks of ours into ``path``: the sentence for each of
    ``drop_ins`` (path, object) that already holds hooks of ours, which Claude Code runs for
    every user all the same, as a user install says of them (H-7)."""
    import shlex  # an install's, never a hook's

    folder = shlex.quote(str(path.parent))
    return [
        f"{drop_in} (the managed install) already runs these hooks for every user of this "
        f"machine: with them written into {path} too, Claude Code joins the two, and each hook "
        "that differs between them (another URL or agent, a newer install) runs twice, the "
        f"memory injected twice; keep one: take ours out of {drop_in}, or run `harness-memory "
        f"uninstall {HARNESS} --managed {folder}` to take them out of {path} again"
        for drop_in, found in drop_ins
        if our_commands(found, HARNESS)
    ]


def _settings_file(options: InstallOptions, environ: Mapping[str, str]) -> Path:
    """The settings file an install or uninstall edits: the user's, or with
    ``options.managed_dir`` its ``managed-settings.json``, refused (``SettingsFileError``)
    while Claude Code cannot read it (never made readable by us)."""
    if options.managed_dir is None:
        return settings_path(options.home, environ)
    path = options.managed_dir / "managed-settings.json"
    if why := managed_unread(path):
        raise SettingsFileError(
            f"{unread_said(path, why)}; an install writes into it only once Claude Code reads "
            "it: make it a regular file it reads (or move it away), then run the command again"
        )
    return path


def plan(options: InstallOptions, environ: Mapping[str, str], *, install: bool) -> Plan:
    """The change to Claude Code's user settings (or, with ``options.managed_dir``, its managed
    settings); raises ``SettingsFileError`` for a bad file."""
    managed = options.managed_dir
    path = _settings_file(options, environ)
    old, document = read_json_object(path, utf16=True)  # as Claude Code reads it
    require_shapes(document, path, EDITED_SHAPES)
    record = read_record(path.parent)
    record.note_url(options.url, options.url_id_not_secret, install=install)
    state = None if managed is not None else path.parent / STATE_FOLDER  # each user's own
    token, dropped = options.token, None
    if token is None:
        token, dropped = _env_token(document, options.url, path, dry_run=options.dry_run)
    token_file, place_warning = None, None
    if install and state is not None:  # never in a work tree, or warned; the user's kept
        token_file, place_warning = hooks_token_file(path.parent, options, environ, token)
    wanted = _wanted(replace(options, settings_file=path), state, token_file) if install else {}
    merged, _ = merge_hooks(document, HARNESS, wanted, source=path)
    gone, added = root_changes(document, HARNESS, options, install=install)
    found = without_our_roots(document, document, HARNESS, _taken_out)  # as the user had it
    for keys in ROOT_LISTS if install else ():
        note_made(found, keys, record.previous)
    for root in gone:
        _permissions(merged, root, install=False)
    if added is not None:
        _permissions(merged, added, install=True)
    _drop_env_token(merged)  # the hooks read no token from env (P-2a): the file holds it
    notes: list[str] = [place_warning] if place_warning else []
    notes += [dropped] if install and dropped and managed is None else []
    if install:
        written = path if managed is not None else None
        switched = _switch_notes(
            merged, record.previous, found, managed=written, unread=options.no_check
        )
        notes += switched
        kept_on = any(str(note).startswith("WARNING: ") for note in switched)
        config = settings_path(options.home, environ).parent
        notes += _own_memory_folders(config, options, document, environ)
        notes.append(
            Detail(
                "Claude Code's CLAUDE.md files stay loaded: they hold your instructions, "
                "not memory."
            )
        )
        notes += reach_note(
            "Claude Code's permissions: permissions.additionalDirectories and an Edit rule in "
            "permissions.allow name",
            "its file tools read and write memory there without asking",
            gone,
            added,
        )
        if managed:  # else gap_notes says what a repository can switch off, once (H-3)
            notes.append((MANAGED_MEMORY_KEPT_ON if kept_on else MANAGED).format(path=path))
        notes += [f"WARNING: {said}" for said in _warnings(path, merged, managed=managed)]
        notes += gap_notes(HARNESS, managed=managed is not None)
    else:
        first = record.first_found(path, partial(json_object, utf16=True))

        def give_back() -> None:
            for keys in ROOT_LISTS:  # a "permissions": null stays null (H-3)
                give_back_made(merged, keys, record.previous, before=document)

        notes += switches_back(merged, SWITCHES, record.previous, first=first, then=give_back)
    changes: list[FileChange] = []
    removals: list[Path] = []
    if install and managed is None:
        told = replace(options, token=token)  # the token given, else an earlier install's env's
        changes, removals, left = hooks_token_plan(record, token_file, told, environ, (path, [old]))
        written = token_file if token is not None else None
        notes += left + refused_by_other_readers(written, options, environ, path)
    if install or old is not None:
        secrets = frozenset(tokens_in(document, HARNESS) | tokens_in(merged, HARNESS))
        mode = 0o644 if managed else 0o600  # every user's Claude Code reads managed settings
        text = dump_json(merged, old)
        was = None if install else given_back(path, merged, old, record, HARNESS)
        change = FileChange(path, old, text, secrets, create_mode=mode, harness_settings=True)
        changes.append(change if was is None else replace(change, new=was.text, mode=was.mode))
    read = (options.home, environ, path)  # a token file others read stays (H-7)
    return with_state(changes, notes, record, install=install, removals=removals, readers=read)


def _own_memory_folders(
    config_dir: Path, options: InstallOptions, document: dict[str, Any], environ: Mapping[str, str]
) -> list[str]:
    """Name the auto-memory folders that hold notes, and how to bring them over (P-5, with a
    ``memory-api`` that is there: :func:`~harness_memory.installers.executable.import_command`):
    every ``projects/*/memory`` of ``config_dir``, and the folder the settings'
    ``autoMemoryDirectory`` names as Claude Code takes it (``~/`` is the install's ``--home``)."""
    home = options.home
    folders = sorted((config_dir / "projects").glob("*/memory"))
    custom = auto_memory_directory(document.get("autoMemoryDirectory"), home)
    if custom is not None:
        folders.append(custom)
    held = [(f, n) for f in folders if f.is_dir() and (n := len(list(f.glob("*.md"))))]
    if not held:
        return []
    listed = "; ".join(f"{folder} ({counted(count, 'file')})" for folder, count in held[:5])
    more = f"; and {len(held) - 5} more" if len(held) > 5 else ""
    return [
        f"Claude Code's auto memory holds notes in {listed}{more}. They stay on disk; bring a "
        "Workspace's into Agent Memory with "
        f"{import_command(HARNESS, options.memory_root, dict(environ))}."
    ]


def _wanted(
    options: InstallOptions, state: Path | None, token_file: Path | None
) -> dict[str, list[dict[str, Any]]]:
    """The hook groups per event; every command names the state folder ``state`` (None: the
    managed settings' hooks, whose users each keep their own in their account's home,
    :func:`~harness_memory.settings.account_state_dir`), and those that call the service the
    ``token_file`` (None: no token, or each user's own ``token`` in that folder)."""
    starts = []
    for part in range(1, SESSION_START_PARTS + 1):
        command = options.hook_command(
            HARNESS, "session-start", state_dir=state, token_file=token_file
        )
        if SESSION_START_PARTS > 1:
            command += f" --part {part} --parts {SESSION_START_PARTS}"
        starts.append({"hooks": [{"type": "command", "command": command}]})
    guard = options.hook_command(HARNESS, "pre-tool-use", state_dir=state)
    record = options.hook_command(HARNESS, "post-tool-use", state_dir=state, token_file=token_file)
    wanted: dict[str, list[dict[str, Any]]] = {
        "SessionStart": starts,
        "PreToolUse": [
            {"matcher": WRITE_MATCHER, "hooks": [{"type": "command", "command": guard}]}
        ],
        "PostToolUse": [
            {"matcher": WRITE_MATCHER, "hooks": [{"type": "command", "command": record}]}
        ],
    }
    if options.remote:  # what the agent wrote goes back at the Session's end too
        ended = options.hook_command(HARNESS, "session-end", state_dir=state, token_file=token_file)
        wanted["SessionEnd"] = [{"hooks": [{"type": "command", "command": ended}]}]
    return wanted


def _permissions(document: dict[str, Any], root: str, *, install: bool) -> None:
    """Add (or take out) the memory root directory and its allow rule; other entries stay."""
    rule = f"Edit(/{root}/**)"
    permissions = document.get("permissions")
    if not isinstance(permissions, dict):
        if not install:
            return
        permissions = document["permissions"] = {}
    for key, value in (("additionalDirectories", root), ("allow", rule)):
        entries = permissions.get(key)
        entries = list(entries) if isinstance(entries, list) else []
        if install and value not in entries:
            entries.append(value)
        if not install and value in entries:
            entries.remove(value)
        if entries:
            permissions[key] = entries
        else:
            permissions.pop(key, None)
    if not permissions:
        document.pop("permissions", None)


def _taken_out(document: dict[str, Any], root: str) -> None:
    """:func:`_permissions` taking ``root``'s entries out (an uninstall's step)."""
    _permissions(document, root, install=False)


def _env_token(
    document: dict[str, Any], url: str, path: Path, *, dry_run: bool = False
) -> tuple[str | None, str | None]:
    """``(token, why dropped)``: the token an earlier install wrote into the settings' ``env``
    (at ``path``), to move into the file, only when the hooks there (or, naming none, that
    ``env``) name the service ``url`` (A-10: never written for another, nor for one not known:
    with no URL recorded the token is dropped); else None and the sentence saying it was
    dropped (``dry_run``: would be), why, and how to give ``url``'s token (every URL as
    ``shown_url`` shows it). ``(None, None)`` for no token there."""
    env = document.get("env")
    token = env.get(TOKEN_ENV) if isinstance(env, dict) else None
    if not (isinstance(token, str) and token):
        return None, None
    commands = our_commands(document, HARNESS)
    urls = sorted({value for command in commands for value in flag_values(command, "--url")})
    if not urls and isinstance(env, dict) and isinstance(env.get("HARNESS_MEMORY_URL"), str):
        urls = [env["HARNESS_MEMORY_URL"]]
    hooks = Hooks(HARNESS)
    shown = shown_url(url)  # a URL's password and ids are never said
    if not urls:
        return None, (
            f"{'would drop' if dry_run else 'dropped'} the bearer token in {path} "
            f"(env.{TOKEN_ENV}): no service URL is recorded "
            f"with it, so it is not known to be {shown}'s (A-10); give {shown}'s token: "
            f"{hooks.new_token(shown)}"
        )
    other = next((before for before in urls if not same_service(before, url)), None)
    if other is not None:
        return None, hooks.another_service(shown_url(other), shown, dry_run=dry_run)
    return token, None


def _drop_env_token(document: dict[str, Any]) -> None:
    """Take ``env.HARNESS_MEMORY_TOKEN`` out of the settings (and ``env`` when left empty)."""
    env = document.get("env")
    if isinstance(env, dict) and TOKEN_ENV in env:
        del env[TOKEN_ENV]
        if not env:
            del document["env"]
