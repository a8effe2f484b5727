"""``harness-memory status``: what each harness's settings run, and whether it still can (issue 26).

For every harness (its user settings, and its managed settings where the harness reads them or
where this account's managed install put them: :mod:`~harness_memory.installers.managed_record`)
it reads the settings the install wrote and reports: installed or not; the ``harness-memory``
the hooks run and whether it exists, is executable and outlives the source checkout it came
from; the memory root and whether it exists (Gemini CLI does not start without it); the tools
the guard sees, and
the tools whose memory writes are recorded as versions (V-1), or that none are (an install
from before the post-write hook: installing again adds it).
A hook command that is gone means no memory and a guard that refuses every call of the tools it
sees (the command fails closed, :func:`~harness_memory.installers.spec.guard_fails_closed`):
``status`` says so and exits 1. Hook commands an earlier install wrote with the token on
them (``--token``) get a warning to install again (H-7), and so do hook commands without
``--flags-only``, whose settings a repository's environment could change (P-2a), hook commands
whose Python does not run isolated (``-I``: a repository's ``PYTHONPATH`` could replace the
guard), hook commands whose service URL holds an id an install now refuses to write (A-10;
not when their install was told ``--url-id-not-secret``),
and settings whose ``env`` holds the token (read by the service check as those hooks read it, or no
longer read at all). Managed settings a harness would not read (another place; Gemini CLI's
system file not root's alone) are said, and so is an account whose managed hooks keep no state
(no password database entry). For hooks in
remote mode (R-1) it shows, per scope of the local copy, the last sync, whether changes wait to
go back, the last error and what the service's merge of this machine's changes did (R-2).
For each installed harness, the last Session its hooks started (when, where, whether memory
came in) or that none has yet (:mod:`~harness_memory.installers.last_session`).
Last, each service the Session-start hooks call is asked whether it takes their token and holds
their agent (:mod:`~harness_memory.installers.service_check`): a refusal is a problem too.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from tomlkit.exceptions import TOMLKitError

from harness_memory.client import URL_ID_NOT_SECRET
from harness_memory.installers import claude_code, codex, gemini
from harness_memory.installers import codex_managed as codex_managed_plan
from harness_memory.installers.checks import where_the_root_is
from harness_memory.installers.claude_drop_ins import (
    ManagedSettings,
    held_in_a_drop_in,
    managed_unread,
    read_managed,
    refused_said,
    source_of,
    unread_said,
    with_drop_ins,
)
from harness_memory.installers.codex_hook_fields import skipped
from harness_memory.installers.codex_inline import inline_commands, inline_line, trust_entries
from harness_memory.installers.codex_layers import merged_trust, system_dir, system_switch
from harness_memory.installers.codex_profiles import (
    PROFILE_SUFFIX,
    inline_profiles,
    memory_profile_notes,
    profile_documents,
    profile_off_said,
    profiles_off,
)
from harness_memory.installers.codex_projects import status_lines
from harness_memory.installers.codex_trust import (
    skipped_line,
    trust_line,
    trust_problems,
    trust_source,
    unreadable_hooks,
    unreadable_line,
    unreadable_trust,
)
from harness_memory.installers.executable import (
    checkout_of,
    choose_executable,
    describe_executable,
    describe_python,
)
from harness_memory.installers.files import (
    SettingsFileError,
    UnwritableSettings,
    read_json_object,
    read_text,
)
from harness_memory.installers.gemini_managed import unread_reason
from harness_memory.installers.gemini_workspace import hook_names, switched_off_lines
from harness_memory.installers.harness_json import (
    HarnessRefuses,
    NotKnown,
    claude_code_loads,
    gemini_loads,
)
from harness_memory.installers.last_session import last_session_lines
from harness_memory.installers.managed_record import ManagedFile, managed_file, read_place
from harness_memory.installers.own_memory import plain_value
from harness_memory.installers.own_switches import (
    claude_code_off,
    codex_off,
    every_hook_off,
    gemini_flag,
    gemini_off,
    machine_off,
    machine_off_said,
    managed_only,
    requirements_off,
    switched_off,
)
from harness_memory.installers.record import InstallRecord, read_record
from harness_memory.installers.secrets import TOKEN_ENV
from harness_memory.installers.settings_text import parse_toml
from harness_memory.installers.spec import (
    ISOLATED,
    flag_values,
    hook_program,
    installed_roots,
    our_commands,
)
from harness_memory.installers.workspace_switches import (
    claude_code_lines,
    codex_lines,
    installed_memory_on,
    managed_memory_on,
)

__all__ = [
    "InstalledHooks",
    "aside_lines",
    "copy_left_lines",
    "installed_hooks",
    "machine_problems",
    "managed_token_left_lines",
    "moved_lines",
    "remote_copies",
    "status",
    "urls_said_no_secret",
]


class _Target(NamedTuple):
    """A settings file ``status`` reads: the ``label`` its lines start with (``codex``,
    ``codex (managed)``), the ``harness``, the file's ``path`` and the ``managed_flag`` an
    install of it takes (empty for the user settings, else `` --managed …``)."""

    label: str
    harness: str
    path: Path
    managed_flag: str


_SEEN_BY = {
    "PreToolUse": "the guard sees",
    "BeforeTool": "the guard sees",
    "PostToolUse": "versions are recorded after",
    "AfterTool": "versions are recorded after",
}
"""Each tool event our hooks use (the harnesses' names) and what its line says."""


def status(
    home: Path,
    environ: Mapping[str, str],
    managed: Path,
    codex_managed: Path = codex_managed_plan.DEFAULT_DIR,
    *,
    also: Sequence[ManagedFile] = (),
    workspace: Path | None = None,
) -> tuple[list[str], bool]:
    """``(lines to print, every installed harness can run its hooks)``: the user settings of
    each harness, Claude Code's managed settings in ``managed``, Codex CLI's requirements and
    system ``config.toml`` in ``/etc/codex`` (:func:`~.codex_layers.system_dir`, which Codex
    always reads) and in ``codex_managed`` too, Gemini CLI's system settings where it reads
    them (``environ`` may move them), and ``also``: managed settings files found elsewhere
    (the installs :func:`~harness_memory.installers.managed_record.recorded`); in ``workspace``
    (the folder status runs in), whether its settings switch the installed hooks off or the
    harness's own memory back on (:mod:`~harness_memory.installers.workspace_switches`,
    :mod:`~harness_memory.installers.gemini_workspace`). Each thing to fix names the
    install that fixes it."""
    claude_managed = managed_file("claude-code", managed)
    gemini_sys = read_place("gemini", environ)  # the one Gemini CLI reads (it may switch off)
    systems = tuple(dict.fromkeys((system_dir(), codex_managed)))  # Codex reads /etc/codex
    managed_files = [
        ManagedFile("claude-code", claude_managed),
        *(ManagedFile("codex", managed_file("codex", system)) for system in systems),
        ManagedFile("gemini", gemini_sys),
    ]
    managed_files += [file for file in also if file not in managed_files]
    targets = _targets(home, environ, managed_files)
    here = choose_executable(None, dict(environ)).command  # the one installing again writes
    lines: list[str] = []
    healthy = True
    copies: set[tuple[str, str, str, str]] = set()
    installed: dict[str, list[str]] = {}  # each hook command: the installs (labels) that wrote it
    given: dict[str, dict[str, str]] = {}  # the variables Claude Code's settings give a hook
    geminis: list[tuple[str, dict[str, Any]]] = []  # the installed Gemini CLI settings
    labels: set[str] = set()  # the installed ones
    documents: dict[str, dict[str, Any]] = {}  # every settings document read, by label
    for label, harness, path, managed_flag in targets:
        try:
            path, document, noted = _settings(label, path, harness)
            documents[label] = document
        except SettingsFileError as error:
            lines, healthy = _not_read(label, error, lines, healthy)
            continue
        commands = our_commands(document, harness)
        if not commands:
            lines += [f"{label}: not installed ({path})", *noted]
            continue
        again = f"harness-memory install {harness}{managed_flag}"
        said, fine = _installed(label, again, path, document, commands, here)
        said += noted + last_session_lines(label, harness, commands) + aside_lines(label, commands)
        fine = fine and not any(": PROBLEM: " in line for line in noted)
        said += [f"{label}: {note}" for note in _own_memory_notes(label, path, document, again)]
        if off := _skipped_lines(label, path, document, gemini_sys, (home, environ, systems)):
            said, fine = said + off, False  # no hook runs, or Codex skips ours
        if managed_flag:
            account, fine_too = _account_lines(label, environ)
            place, read = _place_lines(label, harness, path, environ)
            said, fine = said + place + account, fine and fine_too and read
        lines, healthy = lines + said, healthy and fine
        copies.update(_remote_copies(commands))
        installed.update({command: [*installed.get(command, []), label] for command in commands})
        geminis += [(label, document)] if harness == "gemini" else []
        labels.add(label)
        given.update(dict.fromkeys(commands, _settings_env(document)))
    if "claude-code (managed)" in labels:  # its settings win over the user's (H-6)
        lines = [line for line in lines if not line.startswith(_USER_AUTO_MEMORY_ON)]
    skipped = _user_hooks_skipped(labels, documents, managed_files)  # notes too
    lines, healthy = lines + skipped, healthy and not any(": PROBLEM: " in s for s in skipped)
    if workspace is not None:
        homes = (home, codex.codex_home(home, environ), systems)
        said = _workspace_lines(workspace, homes, geminis, labels, documents)
        lines, healthy = lines + said, healthy and not any(": PROBLEM: " in s for s in said)
    said, known = _copies_lines(copies, home, environ)
    lines, healthy = lines + said, healthy and known
    from harness_memory.installers.service_check import service_lines

    said, taken = service_lines(installed, environ, env=given, harnesses=installed)  # H-7
    return lines + said, healthy and taken


def aside_lines(label: str, commands: list[str]) -> list[str]:
    """A warning for each token ``token set`` moved aside and could not put back
    (``.token.aside-XXXXXXXX`` beside a token file the hook ``commands`` read: their
    ``--token-file``, their ``--state-dir``'s ``token``; a run that stopped midway, or a disk
    that refused the put back), read by no hook, with what to do (A-10, H-7): they piled up
    unseen."""
    import shlex

    from harness_memory.installers.record import TOKEN_NAME
    from harness_memory.installers.spec import flag_values

    files = {Path(f) for c in commands for f in flag_values(c, "--token-file")}
    files |= {Path(d) / TOKEN_NAME for c in commands for d in flag_values(c, "--state-dir")}
    lines = []
    for token_file in sorted(files):
        try:
            found = sorted(token_file.parent.glob(f".{token_file.name}.aside-*"))
        except OSError:
            continue
        lines += [
            f"{label}: WARNING: {aside} holds an old token `harness-memory token set` moved "
            f"aside and could not put back, read by no hook: if {token_file} should hold it, "
            f"`mv {shlex.quote(str(aside))} {shlex.quote(str(token_file))}`, else remove it "
            f"(`rm {shlex.quote(str(aside))}`)"
            for aside in found
            if aside.is_file() and not aside.is_symlink()
        ]
    return lines


_OFF = 'CLAUDE_CODE_DISABLE_AUTO_MEMORY to "1" and autoMemoryEnabled to false'
"""What an install of Claude Code's hooks writes to keep Claude Code's own auto memory off (H-6)."""


_AUTO_MEMORY_ON = "WARNING: Claude Code's own auto memory is on beside Agent Memory:"
_USER_AUTO_MEMORY_ON = f"claude-code: {_AUTO_MEMORY_ON}"
"""How status begins the user install's H-6 note (:func:`_own_memory_notes`)."""


def _own_memory_notes(label: str, path: Path, document: dict[str, Any], again: str) -> list[str]:
    """H-6: what turns the harness's own memory back on beside Agent Memory in the install
    into ``path`` (``document``): a Codex CLI profile file, or Claude Code's own settings (the
    variable or ``autoMemoryEnabled`` changed by hand or by another tool, or neither there);
    what is on, why, and the command that turns it off. The user install's note is dropped
    when a managed install of Claude Code is there: its settings win (:func:`status`)."""
    if label == "codex":
        return memory_profile_notes(path.parent)
    if label == "claude-code (managed)" and installed_memory_on(document) is None:
        return _drop_ins_memory_notes(path, document)
    if not label.startswith("claude-code") or (on := installed_memory_on(document)) is None:
        return []
    return [
        f"{_AUTO_MEMORY_ON} {path} {on}. The "
        "model is told to save into a second memory that never reaches the Memory tab or other "
        f"harnesses. Run `{again}` to turn it off (it sets {_OFF})"
    ]


def _drop_ins_memory_notes(path: Path, document: dict[str, Any]) -> list[str]:
    """H-6: the WARNING of a managed install into ``path`` (``document``, which keeps Claude
    Code's own auto memory off) whose ``managed-settings.d`` drop-ins keep it on, as the
    install says it (:func:`~.workspace_switches.managed_memory_on`, read by
    :func:`~.claude_drop_ins.read_managed`); ``[]`` when none does or they cannot be read
    (:func:`_drop_in_lines` says so)."""
    try:
        settings = read_managed(path, lambda read: _read(read, "claude-code"))
    except SettingsFileError:
        return []
    kept = managed_memory_on(document, settings, over=path)
    return [f"WARNING: {kept}"] if kept else []


class InstalledHooks(NamedTuple):
    """The hook commands this plugin wrote into one settings file: its ``label`` (as ``status``
    shows it), ``path``, the install that writes them again (``again``: ``harness-memory
    install codex``, ``… --managed /etc/codex``), whether it is a ``managed`` install (its
    hooks read each account's own token file, naming none) and the ``commands``."""

    label: str
    path: Path
    again: str
    managed: bool
    commands: list[str]


def installed_hooks(home: Path, environ: Mapping[str, str]) -> list[InstalledHooks]:
    """The installed hooks of every settings file ``status`` reads by default: each harness's
    user settings in ``home``, the managed settings where each harness reads them and those
    this account's managed installs recorded (:func:`~harness_memory.installers.
    managed_record.recorded`). A settings file that cannot be read, or holds none of our
    hooks, is left out (``status`` says so)."""
    from harness_memory.installers.managed_record import recorded

    files = [
        ManagedFile("claude-code", managed_file("claude-code", claude_code.managed_dir())),
        ManagedFile("codex", managed_file("codex", codex_managed_plan.DEFAULT_DIR)),
        ManagedFile("gemini", read_place("gemini", environ)),
    ]
    files += [file for file in recorded(home) if file not in files]
    found: list[InstalledHooks] = []
    for label, harness, path, managed_flag in _targets(home, environ, files):
        try:
            commands = our_commands(_read(path, harness), harness)
        except SettingsFileError:
            continue
        if commands:
            again = f"harness-memory install {harness}{managed_flag}"
            found.append(InstalledHooks(label, path, again, bool(managed_flag), commands))
    return found


def moved_lines(home: Path, environ: Mapping[str, str]) -> list[str]:
    """For ``status --moved`` (``make install`` and ``make run`` after a checkout moved): one
    line per installed harness whose hooks' ``harness-memory`` and memory root are gone, moved
    with their folder to where this program's is
    (:func:`~harness_memory.installers.reinstall.moved_root`), naming the install that mends
    them; and one per harness whose hooks start a ``harness-memory`` that is gone and did not
    move here (a deleted checkout: every call of the tools their guard sees is refused), naming
    this program's ``uninstall`` and ``install`` (H-3). None when every hook's program is there
    (hooks of a checkout still in its place run)."""
    from harness_memory.installers.reinstall import moved_root

    program = choose_executable(None, dict(environ)).command
    lines: list[str] = []
    for hooks in installed_hooks(home, environ):
        scripts = {hook_program(command)[1] for command in hooks.commands}
        roots = {
            root for command in hooks.commands for root in flag_values(command, "--memory-root")
        }
        if len(scripts) == 1 and len(roots) == 1:
            script, root = next(iter(scripts)), next(iter(roots))
            if (moved := moved_root(script, root, program)) is not None:
                lines.append(
                    f"{hooks.label}: the hooks in {hooks.path} still run {script} with the "
                    f"memory root {root}, both gone: this checkout has moved (to where the root "
                    f"is now {moved}); run `{hooks.again}` to install them again from here"
                )
                continue
        gone = sorted(script for script in scripts if not Path(script).exists())
        if gone and os.sep in gone[0]:
            lines.append(_gone_line(hooks, gone[0], program))
    return lines


def _gone_line(hooks: InstalledHooks, script: str, program: str) -> str:
    """What ``status --moved`` says of ``hooks`` whose ``script`` is gone and did not move
    here, the commands named with ``program`` (the ``harness-memory`` running)."""
    named = program if os.sep not in program else shlex.quote(program)
    uninstall = hooks.again.replace("harness-memory install", f"{named} uninstall", 1)
    again = hooks.again.replace("harness-memory", named, 1)
    return (
        f"{hooks.label}: PROBLEM: the hooks in {hooks.path} run {script}, which is gone (its "
        "checkout removed?): every call of the tools their write guard sees is refused; run "
        f"`{uninstall}` to take them out, or `{again} --memory-root DIR` (the rest as installed) "
        "to run them from here"
    )


def _targets(
    home: Path, environ: Mapping[str, str], managed_files: Sequence[ManagedFile]
) -> list[_Target]:
    """The settings files ``status`` reads: each harness's user settings in ``home``, then
    each of ``managed_files`` with the ``--managed`` flag its install takes."""
    targets = [
        _Target("claude-code", "claude-code", claude_code.settings_path(home, environ), ""),
        _Target("codex", "codex", codex.codex_home(home, environ) / "hooks.json", ""),
        _Target("gemini", "gemini", gemini.settings_path(home, environ), ""),
    ]
    for file in managed_files:
        flag = _managed_flag(file.harness, file.path, environ)
        targets.append(_Target(f"{file.harness} (managed)", file.harness, file.path, flag))
    return targets


_NAMES = {"claude-code": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI"}
_REFUSED = {"gemini": "Gemini CLI stops on it, before any Session starts"}
"""What a harness does with a settings file it cannot parse, where known (Gemini CLI 0.61:
``FatalConfigError``); else it is said to read no settings from it."""


def _managed_flag(harness: str, path: Path, environ: Mapping[str, str]) -> str:
    """``--managed`` as the install of the managed settings at ``path`` takes it: bare for the
    place the harness reads, else with the folder (Gemini CLI: the file) it names."""
    if path == read_place(harness, environ):
        return " --managed"
    named = path if harness == "gemini" else path.parent
    return f" --managed {shlex.quote(str(named))}"


def _place_lines(
    label: str, harness: str, path: Path, environ: Mapping[str, str]
) -> tuple[list[str], bool]:
    """Whether the harness reads the managed settings at ``path``: a line when it reads them
    elsewhere (an install into an image being built), and Gemini CLI's ownership rule
    (:func:`~harness_memory.installers.gemini_managed.unread_reason`: a PROBLEM where it
    reads them, a warning elsewhere); False when the harness skips the file it reads."""
    place = read_place(harness, environ)
    lines: list[str] = []
    if path != place:
        lines.append(
            f"{label}: {_NAMES[harness]} reads {place}, not this file: these hooks run only "
            "where it is put there (an image being built, another machine)"
        )
    reason = unread_reason(path) if harness == "gemini" else None
    if reason is None:
        return lines, True
    if path == place:
        return [*lines, f"{label}: PROBLEM: {reason}: no hooks run"], False
    return [*lines, f"{label}: WARNING: {reason}"], True


ACCOUNT_HOME = (
    "(your account's home as the password database gives it, whatever $HOME or "
    "$CLAUDE_CONFIG_DIR say: a repository can set those for its Sessions)"
)
"""Where the managed hooks' state and token are, as ``status`` says it: the account's home,
which ``$HOME`` and ``$CLAUDE_CONFIG_DIR`` do not move (it said "wherever $HOME or
$CLAUDE_CONFIG_DIR point", the opposite, beside a path that was not ``$HOME``'s)."""


def _account_lines(label: str, environ: Mapping[str, str]) -> tuple[list[str], bool]:
    """Where the managed hooks keep this user's Session records and read their token, found
    as the hooks find it (:func:`~harness_memory.settings.load_settings` with no flags: the
    account's home from the password database, never ``$HOME`` or ``$CLAUDE_CONFIG_DIR``), and
    whether that token file would be read; False for one the hooks would refuse, and for an
    account the password database does not know (no state dir: no records, no token)."""
    from harness_memory.settings import (
        MANAGED_TOKEN_SET,
        TOKEN_FILE_NAME,
        TokenFileError,
        load_settings,
        unknown_account_note,
    )

    settings = load_settings({}, environ, flags_only=True)
    if settings.state_dir is None:
        return [f"{label}: PROBLEM: {unknown_account_note()}"], False
    lines = [
        f"{label}: your Session records and token file are in {settings.state_dir} {ACCOUNT_HOME}"
    ]
    if settings.token_file is not None and settings.token_file.parent != settings.state_dir:
        lines[0] = (  # `token set` kept it out of the git work tree the state dir is in
            f"{label}: your Session records are in {settings.state_dir}, your token file is "
            f"{settings.token_file} {ACCOUNT_HOME}"
        )
    if settings.token_file is None:
        lines.append(
            f"{label}: no token file ({settings.state_dir / TOKEN_FILE_NAME}): the hooks send "
            f"no token; if the service needs one, run {MANAGED_TOKEN_SET}"
        )
        return lines, True
    try:
        settings.bearer_token()
    except TokenFileError as error:
        lines.append(
            f"{label}: PROBLEM: {error}: the hooks send no token, so the service refuses "
            f"them; run {MANAGED_TOKEN_SET}"
        )
        return lines, False
    return lines, True


def _workspace_lines(
    workspace: Path,
    homes: tuple[Path, Path, tuple[Path, ...]],
    geminis: list[tuple[str, dict[str, Any]]],
    labels: set[str],
    documents: dict[str, dict[str, Any]],
) -> list[str]:
    """What the Workspace status runs in switches off of the installed hooks (or the
    harness's own memory back on), for a user install the managed one does not hold over
    (``homes``: the user's home, Codex CLI's and its system folders; ``documents``: every
    settings document read; hooks of ours in the project's ``.codex/`` folders:
    :func:`_codex_project_lines`)."""
    home, codex_home, system = homes
    lines: list[str] = []
    if "claude-code" in labels and "claude-code (managed)" not in labels:
        lines += claude_code_lines(workspace, home)
    if "codex" in labels and "codex (managed)" not in labels:
        lines += codex_lines(workspace, home, codex_home / "config.toml")
    lines += _codex_project_lines(workspace, labels, codex_home, documents, system)
    if workspace == home:  # its .gemini/settings.json is the user's own, no Workspace's
        return lines
    pinned = any(_pins_hooks_on(d) for label, d in geminis if label != "gemini")
    return lines + switched_off_lines(workspace, geminis, pinned_on=pinned)


def _codex_project_lines(
    workspace: Path,
    labels: set[str],
    codex_home: Path,
    documents: dict[str, dict[str, Any]],
    systems: tuple[Path, ...],
) -> list[str]:
    """Hooks of ours in the ``.codex/`` folders of the project ``workspace`` is in, beside an
    install of Codex CLI's (``labels``: the installed ones; ``documents``: what was read, by
    label): :func:`~harness_memory.installers.codex_projects.status_lines` with the system
    folders ``systems`` (``/etc/codex``, then ``--managed DIR``'s): ``config.toml`` (its
    ``project_root_markers``) from the first alone, as Codex reads its system layer there
    whatever ``DIR`` is, ``requirements.toml`` from each; the requirements saying
    ``allow_managed_hooks_only = true`` keep Codex from running
    any project's hooks (openai/codex ``hooks/src/engine/discovery.rs``,
    ``HookDiscoveryPolicy::allows``)."""
    installs = [label for label in ("codex", "codex (managed)") if label in labels]
    if not installs:
        return []
    installed: dict[str, Any] = {"hooks": {}}
    for label in installs:  # H-3: memory injected twice, two guards
        for event, commands in inline_commands(documents.get(label, {})).items():
            groups = [{"hooks": [{"type": "command", "command": c}]} for c in commands]
            installed["hooks"].setdefault(event, []).extend(groups)
    managed_only = None
    for system in systems:
        requirements = system / codex_managed_plan.REQUIREMENTS_NAME
        try:
            only = plain_value(_read(requirements, "codex").get("allow_managed_hooks_only"))
        except SettingsFileError:
            only = False  # its own line says it cannot be read
        managed_only = requirements if only is True else managed_only
    system = systems[0]  # /etc/codex: Codex reads its system config.toml there alone
    return status_lines(workspace, codex_home, installed, system=system, managed_only=managed_only)


def _user_hooks_skipped(
    labels: set[str],
    documents: dict[str, dict[str, Any]],
    files: Sequence[ManagedFile],
) -> list[str]:
    """The PROBLEM lines when this machine's settings ``files`` (Claude Code's managed
    settings, Codex CLI's ``requirements.toml``, Gemini CLI's system settings) keep the hooks
    of a user install (``labels``: the installed ones; ``documents``: what was read, by label)
    from running: :func:`_machine_lines` (beside hooks of ours in them, only what switches
    those off too), and a note of each Claude Code drop-in it cannot read (it starts without
    them: no PROBLEM)."""
    lines: list[str] = []
    for harness, path in files:
        if harness not in labels:
            continue
        try:
            machine = _machine_read(path, harness)
        except SettingsFileError:
            continue  # its own line says it cannot be read
        lines += _machine_lines(harness, path, machine, hook_names(documents.get(harness, {})))
        if harness == "claude-code" and (kept := managed_memory_on(documents[harness], machine)):
            lines.append(f"{harness}: WARNING: {kept}")  # H-6: it wins over the user's
        if "claude-code (managed)" not in labels:  # else its own lines note them
            lines += [
                f"{harness}: note: {unread_said(*left)}"
                for left in machine.unread
                if left[0] != path  # an unread managed-settings.json: noted by its own label
            ]
    return lines


def machine_problems(
    harness: str, environ: Mapping[str, str], settings: Mapping[str, Any]
) -> list[str]:
    """For a user install of ``harness`` whose settings are ``settings`` (parsed; Gemini CLI's
    ``hooksConfig.disabled`` names hooks by them), the PROBLEM lines ``status`` says of this
    machine's settings where ``harness`` reads them (:func:`~.managed_record.read_place`;
    ``environ`` may move Gemini CLI's) when they keep those hooks from running
    (:func:`_machine_lines`); ``[]`` when they do not, cannot be read (``status`` names that)
    or hold hooks of ours (a managed install: they run there, H-7) and switch no hook off
    that they hold themselves."""
    path = read_place(harness, environ)
    try:
        machine = _machine_read(path, harness)
    except SettingsFileError:
        return []
    return _machine_lines(harness, path, machine, hook_names(settings))


def _machine_read(path: Path, harness: str) -> ManagedSettings:
    """This machine's settings of ``harness`` at ``path`` as the harness reads them: Claude
    Code's managed settings with their drop-ins laid over (:func:`~.claude_drop_ins.
    with_drop_ins`), any other file alone. :class:`SettingsFileError` as :func:`_read`."""
    if harness == "claude-code":  # without an unread managed-settings.json: it starts so
        return read_managed(path, lambda read: _read(read, harness))
    document = _read(path, harness)
    return ManagedSettings(document, [(path, document)], [])


def _machine_lines(
    harness: str, path: Path, settings: ManagedSettings, names: Collection[str]
) -> list[str]:
    """The PROBLEM lines when this machine's settings of ``harness`` (read from ``path`` and,
    Claude Code's, the drop-ins beside it: ``settings``) keep a user install's hooks (named
    ``names``) from running: a drop-in Claude Code refuses to start with, Claude Code's
    managed ``"allowManagedHooksOnly": true`` (:func:`~.own_switches.managed_only`) and every
    switch :func:`~.own_switches.machine_off` finds, each naming the file that sets it; keys
    only, never a value. When they hold hooks of ours (a managed install, which run where the
    user's do not), only what switches those off too (:func:`~.own_switches.every_hook_off`):
    then no hook of ours runs."""
    machine = settings.document
    said: list[str | None] = [refused_said(where, why) for where, why in settings.refused]
    off_in = source_of(settings, "disableAllHooks", path) if harness == "claude-code" else path
    if our_commands(machine, harness):
        if why := every_hook_off(harness, machine):
            said.append(machine_off_said(harness, off_in, why))
        return [f"{harness}: PROBLEM: {sentence}" for sentence in said if sentence]
    if harness == "claude-code":
        said.append(managed_only(machine, source_of(settings, "allowManagedHooksOnly", path)))
    if why := machine_off(harness, machine, names):
        said.append(machine_off_said(harness, off_in, why))
    return [f"{harness}: PROBLEM: {sentence}" for sentence in said if sentence]


def _skipped_lines(
    label: str,
    path: Path,
    document: dict[str, Any],
    gemini_system: Path,
    where: tuple[Path, Mapping[str, str], tuple[Path, ...]],
) -> list[str]:
    """The PROBLEM lines of the install ``label`` (settings ``path``, read as ``document``)
    whose hooks do not run: its settings switch every hook off (:func:`_switched_off`), or
    Codex CLI skips ours (:func:`_codex_skips`; ``where``: the home, the environment and
    Codex's system folders)."""
    harness = label.split()[0]
    lines = []
    if off := _switched_off(harness, path, document, gemini_system):
        lines.append(f"{label}: PROBLEM: {off}")
    return lines + (_codex_skips(path, document, *where) if label == "codex" else [])


def _codex_skips(
    path: Path,
    document: dict[str, Any],
    home: Path,
    environ: Mapping[str, str],
    systems: tuple[Path, ...],
) -> list[str]:
    """The PROBLEM lines of Codex CLI's user install (``hooks.json`` at ``path``, read as
    ``document``) when Codex skips hooks of ours: untrusted or switched off by their entries in
    the ``config.toml`` beside it, keyed by the path Codex reads (``CODEX_HOME`` through a
    link: the folder it leads to; :mod:`~harness_memory.installers.codex_trust`), either file
    one Codex refuses (a ``timeout`` no ``u64``, an ``enabled`` no boolean), a profile
    file's ``[features] hooks = false`` (:func:`~harness_memory.installers.codex_profiles.
    profiles_off`), and a profile file's ``[hooks.state]``, which Codex lays over the
    user's field by field in Sessions with that profile (:func:`~.codex_layers.merged_trust`).
    ``[]`` for hooks inline in ``config.toml``, or one that cannot be read (its own line says
    so)."""
    if path.name != "hooks.json":
        return []
    config_path = path.parent / "config.toml"
    try:
        config = _read(config_path, "codex")
    except SettingsFileError:
        return []
    source = trust_source(home, environ)
    lines = [
        f"codex: PROBLEM: {profile_off_said(*found)}" for found in profiles_off(path.parent, config)
    ]
    if below := system_switch(config, config_path, systems[0]):  # the lowest layer, read
        lines.insert(0, f"codex: PROBLEM: {below}")  # from /etc/codex alone, never DIR's
    if why := unreadable_trust(config):  # a config error: Codex refuses config.toml
        lines.insert(0, unreadable_line("codex", config_path, why))
    if why := unreadable_hooks(document):  # Codex parses none of hooks.json: no trust to judge
        return [unreadable_line("codex", path, why), *lines]
    if why := skipped(document):  # a type, a matcher Codex skips ours for
        lines.insert(0, skipped_line("codex", path, why))
    problems = trust_problems(source, document, config)
    if problems:
        lines.insert(0, trust_line("codex", source, config_path, problems))
    for profile_path, profile in profile_documents(path.parent):  # Codex's second user layer
        if not trust_entries(profile):
            continue
        said = trust_problems(source, document, merged_trust(config, profile))
        if said and said != problems:
            name = profile_path.name.removesuffix(PROFILE_SUFFIX)
            lines.append(trust_line("codex", source, profile_path, said, profile=name))
    return lines


def _switched_off(
    harness: str, path: Path, document: dict[str, Any], gemini_system: Path
) -> str | None:
    """The PROBLEM when the settings at ``path`` (``document``) that hold our hooks switch
    them off themselves (:mod:`~harness_memory.installers.own_switches`); Codex CLI's user
    install: its ``config.toml`` beside ``hooks.json``; Gemini CLI's user settings: not their
    ``hooksConfig.enabled: false`` when the system settings at ``gemini_system`` pin it on."""
    if harness == "claude-code":
        return switched_off(harness, path, why) if (why := claude_code_off(document)) else None
    if harness == "gemini":
        why = gemini_off(document, hook_names(document))
        if why and path != gemini_system and _pins_hooks_on(_read_or_empty(gemini_system)):
            why = [reason for reason in why if reason != "hooksConfig.enabled: false"]
        return switched_off(harness, path, why) if why else None
    config_path, config = path, document
    if path.name == "hooks.json":
        config_path = path.parent / "config.toml"
        try:
            config = _read(config_path, harness)
        except SettingsFileError:
            return None  # its own line says it cannot be read: the user install's is not
    if path.name == codex_managed_plan.REQUIREMENTS_NAME:  # a managed install's: its [features]
        why = requirements_off(config)  # or [feature_requirements] switch them off too
        return switched_off(harness, config_path, why) if why else None
    return switched_off(harness, config_path, why) if (why := codex_off(config)) else None


class _StartsWithout(SettingsFileError):
    """Claude Code's ``managed-settings.json`` it cannot read (it starts without it, as
    without such a drop-in): the note ``status`` says, as the error's text."""


def _not_read(
    label: str, error: SettingsFileError, lines: list[str], healthy: bool
) -> tuple[list[str], bool]:
    """``status``'s ``lines`` and health once the settings of ``label`` could not be read
    (``error``): a note for a file the harness starts without (:class:`_StartsWithout`),
    else that they cannot be read, unhealthy."""
    if isinstance(error, _StartsWithout):
        return [*lines, str(error)], healthy
    return [*lines, f"{label}: cannot read its settings: {error}"], False


def _settings(label: str, path: Path, harness: str) -> tuple[Path, dict[str, Any], list[str]]:
    """``(path, document, note lines)`` of the settings ``status`` reads for ``label`` at
    ``path`` (:func:`_read_noting`). Codex CLI's user install (``codex``, ``hooks.json``):
    hooks of ours inline in the ``config.toml`` beside it run just the same (H-3), so with
    none in ``hooks.json`` that ``config.toml`` is read as the settings, and beside an install
    a PROBLEM line names them, and those inline in a profile file ``NAME.config.toml`` (run in
    a Session with ``--profile NAME``); a ``config.toml`` that cannot be read is a PROBLEM
    line (Codex refuses to start). Claude Code's managed install (``claude-code (managed)``)
    whose hooks a ``managed-settings.d`` drop-in holds is read there
    (:func:`~.claude_drop_ins.held_in_a_drop_in`). :class:`SettingsFileError` as
    :func:`_read_noting`."""
    if label == "claude-code (managed)" and (why := managed_unread(path)):
        raise _StartsWithout(f"{label}: note: {unread_said(path, why)}")  # as a drop-in (H-7)
    document, note = _read_noting(path, harness)
    noted = [f"{label}: note: {path}: {note}"] if note else []
    main, own = path, document  # managed-settings.json, whose drop-ins Claude Code lays over
    if label == "claude-code (managed)" and not our_commands(document, harness):
        held = held_in_a_drop_in(path, document, lambda drop_in: _read(drop_in, harness))
        path, document = held or (path, document)
    if label == "claude-code (managed)" and our_commands(document, harness):
        noted += _drop_in_lines(label, main, own)
    if label != "codex":
        return path, document, noted
    config_path = path.parent / "config.toml"
    try:
        config = _read(config_path, harness)
    except SettingsFileError as error:  # Codex CLI 0.171 exits 1: "Error loading config.toml"
        config = {}
        noted.append(
            f"{label}: PROBLEM: {error}: Codex CLI refuses to start with it, so none of these "
            f"hooks run; fix it, then run `harness-memory install {harness}` again"
        )
    inline = inline_commands(config)
    if inline and not our_commands(document, harness):
        path, document, inline = config_path, config, {}
    found = [(config_path, inline)] if inline else []
    found += inline_profiles(config_path.parent)
    if our_commands(document, harness):
        noted += [inline_line(label, where, document, ours) for where, ours in found]
    return path, document, noted


def _drop_in_lines(label: str, path: Path, document: dict[str, Any]) -> list[str]:
    """The PROBLEM lines of a managed install into Claude Code's ``managed-settings.json`` at
    ``path`` (``document``) whose drop-ins keep its hooks from running: one Claude Code refuses
    to start with (and a note of each it cannot read, which it starts without), or a
    ``"disableAllHooks": true`` the merged settings end with where ``document`` has none
    (:func:`_switched_off` names that one)."""
    settings = with_drop_ins(path, document, lambda drop_in: _read(drop_in, "claude-code"))
    lines = [f"{label}: PROBLEM: {refused_said(where, why)}" for where, why in settings.refused]
    lines += [f"{label}: note: {unread_said(where, why)}" for where, why in settings.unread]
    if (why := claude_code_off(settings.document)) and not claude_code_off(document):
        held = source_of(settings, "disableAllHooks", path)
        lines.append(f"{label}: PROBLEM: {switched_off('claude-code', held, why)}")
    return lines


def _read_or_empty(path: Path) -> dict[str, Any]:
    """Gemini CLI settings at ``path``, or ``{}`` when they cannot be read (their own line
    says so)."""
    try:
        return _read(path, "gemini")
    except SettingsFileError:
        return {}


def _pins_hooks_on(document: dict[str, Any]) -> bool:
    """Whether Gemini CLI system settings pin ``hooksConfig.enabled`` on (``"true"`` in any
    case too: :func:`~.own_switches.gemini_flag`)."""
    config = document.get("hooksConfig")
    return isinstance(config, dict) and gemini_flag(config, "enabled") is True


def _read(path: Path, harness: str) -> dict[str, Any]:
    """The settings document at ``path``: JSON (Gemini CLI's with comments), or Codex CLI's
    ``requirements.toml``; :class:`SettingsFileError` when it cannot be read."""
    return _read_noting(path, harness)[0]


def _read_noting(path: Path, harness: str) -> tuple[dict[str, Any], str | None]:
    """The settings document at ``path`` (:func:`_read`) and, for a file the harness reads
    that an install could not write back as it is (a key twice in one object), a note saying
    so: status only reads, so it reads such a file as the harness does
    (:mod:`~harness_memory.installers.harness_json`). :class:`SettingsFileError` (saying why,
    never that the file cannot be written back) when it cannot be read, or the harness reads
    no settings from it."""
    if path.suffix != ".toml":
        try:
            utf16 = harness == "claude-code"  # Claude Code reads a UTF-16LE file too
            return read_json_object(path, comments=harness == "gemini", utf16=utf16)[1], None
        except UnwritableSettings as error:
            document = _as_harness_reads(path, harness, error.what)
            return document, (
                f"{error.what}; status reads it as {_NAMES[harness]} does, but "
                f"`harness-memory install {harness}` and `uninstall` leave it as it is until "
                "that is fixed"
            )
    try:
        return dict(parse_toml(read_text(path)).unwrap()), None
    except TOMLKitError as error:
        raise SettingsFileError(f"{path} is not valid TOML ({error})") from None


def _as_harness_reads(path: Path, harness: str, reason: str) -> dict[str, Any]:
    """The JSON settings at ``path`` (which an install refused: ``reason``) as ``harness``
    reads them; :class:`SettingsFileError` when it reads none, or when how it reads them is
    not known (Codex CLI's ``hooks.json``)."""
    loads = {"gemini": gemini_loads, "claude-code": claude_code_loads}.get(harness)
    if loads is None:
        raise SettingsFileError(
            f"{path}: {reason}; which value {_NAMES[harness]} takes is not known to status"
        )
    try:
        return loads(read_text(path) or "")
    except HarnessRefuses as error:
        said = _REFUSED.get(harness, f"{_NAMES[harness]} reads no settings from it")
        raise SettingsFileError(f"{path}: {error}: {said}") from None
    except NotKnown as error:
        raise SettingsFileError(f"{path}: {error}") from None


def _remote_copies(commands: list[str]) -> set[tuple[str, str, str, str]]:
    """``(state dir, URL, project, agent)`` of every remote-mode hook command (R-1)."""
    found = set()
    for command in commands:
        if flag_values(command, "--remote") != ["on"]:
            continue
        values = [flag_values(command, flag) for flag in ("--state-dir", "--url", "--project")]
        agent = flag_values(command, "--agent")
        if all(values) and agent:
            found.add((values[0][0], values[1][0], values[2][0], agent[0]))
    return found


def remote_copies(home: Path, environ: Mapping[str, str]) -> set[tuple[str, str, str, str]]:
    """``(state dir, URL, project, agent)`` of every local copy (R-1) that the installed hooks
    of ``home`` (:func:`installed_hooks`) name."""
    return {
        copy for hooks in installed_hooks(home, environ) for copy in _remote_copies(hooks.commands)
    }


def urls_said_no_secret(home: Path, environ: Mapping[str, str]) -> set[str]:
    """The service URLs of the installed hooks (:func:`installed_hooks`) whose ids the install
    was told are no secret (``--url-id-not-secret``, A-10): said by the hook command itself, or
    (hooks installed before they carried the word) kept in the install record beside their
    settings file. A record that cannot be read says nothing: its URLs stay masked."""
    said: set[str] = set()
    for hooks in installed_hooks(home, environ):
        try:
            record: InstallRecord | None = read_record(hooks.path.parent)
        except SettingsFileError:  # fail closed: an id not known to be no secret stays hidden
            record = None
        for command in hooks.commands:
            flagged = "--url-id-not-secret" in command.split()
            said.update(
                url
                for url in flag_values(command, "--url")
                if flagged or (record is not None and record.id_said_not_secret(url))
            )
    return said


def copy_left_lines(copy: tuple[str, str, str, str], whole: Collection[str] = ()) -> list[str]:
    """What ``uninstall`` says of a local copy (R-1) no installed hook names any more: it
    stays (the only place a write not yet synced lives), its scopes as ``status`` gives them,
    and how to remove it; while something waits to go back (or what waits is not known: its
    state cannot be read), first the ``sync --every-scope`` that sends it, from any folder (a
    bare ``sync`` sent the user scope and the working directory's, and made a scope for it:
    what waited in another Workspace's scope stayed, and the ``rm -rf`` after it lost it).
    Empty when the copy's state folder is gone. The URL is shown whole when it is one of
    ``whole`` (:func:`urls_said_no_secret`, A-10): the sync then runs as printed."""
    from memory_core.addresses import shown_url
    from memory_core.errors import InvalidId

    from harness_memory.cli_sync import copy_status
    from harness_memory.remote import RemoteCopy
    from harness_memory.settings import remote_memory_root

    state_dir, url, project, agent = copy
    if not Path(state_dir).exists():
        return []
    said = f"the local copy of the service's memory stays in {state_dir} (no hook uses it now):"
    try:
        remote = RemoteCopy(
            url=url, token=None, project=project, agent=agent, state_dir=Path(state_dir), timeout=2
        )
    except InvalidId as error:  # no copy this plugin made: nothing of it is removed by rule
        return [said, f"remote copy in {state_dir}: {error}"]
    lines, scopes = copy_status(remote, url_whole=url in whole)
    folder = shlex.quote(str(remote_memory_root(Path(state_dir), project, agent).parents[1]))
    if scopes is not None and not any(scope.waiting for scope in scopes):
        return [said, *lines, f"nothing waits to go back: `rm -rf {folder}` removes the copy"]
    sync = (
        f"harness-memory sync --every-scope --remote on --state-dir {shlex.quote(state_dir)} "
        f"--url {shlex.quote(shown_url(url, ids=url not in whole))} --project {project} "
        f"--agent {agent}"
    )
    return [
        said,
        *(lines if scopes is not None else [f"PROBLEM: {line}" for line in lines]),
        f"what waits there goes back with `{sync}` (the token in HARNESS_MEMORY_TOKEN; from any "
        f"folder); once it says every scope synced, `rm -rf {folder}` removes the copy",
    ]


def managed_token_left_lines(home: Path, environ: Mapping[str, str]) -> list[str]:
    """What a managed uninstall says of this account's token file for the managed hooks
    (``harness-memory token set`` wrote it in the account's home) once none of the hooks read
    here reads it: it stays, and ``rm`` removes it. Empty while managed hooks remain where a
    harness reads them here (a managed install into a folder of its own, an image being
    built, runs elsewhere), while installed hooks read that file, or with no such file.

    The hooks read are those of ``home`` and of the account's home (the password database's:
    its own hooks live there whatever ``$HOME`` says), each with the variables that move a
    harness's user settings and without them; a hook reads the file when it names it with
    ``--token-file`` or, naming no token, when its ``--state-dir`` holds it (a user install
    with no token writes ``--state-dir ~/.claude/harness-memory``: the very file ``token set``
    writes). What is said of them is said of those hooks alone: other accounts' are not read."""
    from harness_memory.installers.record import removal_command
    from harness_memory.settings import account_state_dir, load_settings

    installed = installed_hooks(home, environ)
    here = [hooks for hooks in installed if hooks.managed and hooks.again.endswith("--managed")]
    if here:  # bare --managed: the place the harness reads (_managed_flag)
        return []
    token_file = load_settings({}, environ, flags_only=True).token_file
    if token_file is None or not token_file.exists():
        return []
    state = account_state_dir(environ)
    homes = [home]
    if state is not None and state.parts[-2:] == (".claude", "harness-memory"):
        homes.append(state.parents[1])  # POSIX: <home>/.claude/harness-memory
    own = {name: value for name, value in environ.items() if name not in _USER_SETTINGS_MOVED}
    installed += [hooks for place in homes for hooks in installed_hooks(place, own)]
    if any(
        _reads(command, token_file, hooks.managed)
        for hooks in installed
        for command in hooks.commands
    ):
        return []
    places = " and ".join(dict.fromkeys(str(place) for place in homes))
    return [
        f"the token file `harness-memory token set` wrote for managed hooks stays: {token_file}"
        f" (none of the hooks installed in {places}, or in the managed settings read here, "
        f"reads it now; `{removal_command(token_file)}` removes it with what `token set` made "
        "around it)"
    ]


_USER_SETTINGS_MOVED = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME")
"""The variables that move a harness's user settings out of the home: the account's own
hooks, read where a Session without them finds them, are read without them too."""


def _reads(command: str, token_file: Path, managed: bool) -> bool:
    """Whether the installed hook ``command`` reads ``token_file``, found as the hook finds
    its token (its ``--token``, ``--token-file`` and ``--state-dir``, ``--flags-only``); a
    ``managed`` one (of a managed install into a folder: an image built here runs elsewhere)
    only when it names that file."""
    from harness_memory.settings import load_settings

    flags = {
        name: next(iter(flag_values(command, "--" + name.replace("_", "-"))), None)
        for name in ("token", "token_file", "state_dir")
    }
    if managed:
        read = Path(flags["token_file"]) if flags["token_file"] else None
    else:
        read = load_settings(flags, {}, flags_only=True).token_file
    return read is not None and os.path.realpath(read) == os.path.realpath(token_file)


def _copies_lines(
    copies: set[tuple[str, str, str, str]], home: Path, environ: Mapping[str, str]
) -> tuple[list[str], bool]:
    """The lines of each remote-mode copy ``(state dir, URL, project, agent)`` (R-1): its
    scopes (:func:`_remote_lines`; its URL whole when the install of the hooks of ``home``
    naming it was told its id is no secret, :func:`urls_said_no_secret`) and a
    ``HARNESS_MEMORY_ROOT`` it does not use; and whether the state of every one could be
    read."""
    lines: list[str] = []
    healthy = True
    whole = urls_said_no_secret(home, environ) if copies else set()
    for state_dir, url, project, agent in sorted(copies):
        said, known = _remote_lines(Path(state_dir), url, project, agent, url in whole)
        said += _unused_root_lines(state_dir, project, agent, environ)
        lines, healthy = lines + said, healthy and known
    return lines, healthy


def _unused_root_lines(
    state_dir: str, project: str, agent: str, environ: Mapping[str, str]
) -> list[str]:
    """The warning of a ``HARNESS_MEMORY_ROOT`` that remote mode's copy in ``state_dir`` does
    not use (:func:`~harness_memory.installers.remote_hooks.unused_root`), also on stderr."""
    from harness_memory.installers.remote_hooks import unused_root
    from harness_memory.settings import remote_memory_root

    said = unused_root(environ, remote_memory_root(Path(state_dir), project, agent))
    if said is None:
        return []
    import logging

    logging.getLogger(__name__).warning("status: %s", said)
    return [f"remote copy in {state_dir}: WARNING: {said}"]


def _remote_lines(
    state_dir: Path, url: str, project: str, agent: str, url_whole: bool = False
) -> tuple[list[str], bool]:
    """Per scope of a remote-mode copy: last sync, what waits to go back, merge outcomes; and
    whether its state could be read (a copy whose sync folder cannot be read is a problem, R-1).
    ``url_whole``: its URL shown with its ids (said to be no secret, A-10)."""
    from memory_core.errors import InvalidId

    from harness_memory.cli_sync import remote_status
    from harness_memory.remote import RemoteCopy

    try:
        copy = RemoteCopy(
            url=url,
            token=None,
            project=project,
            agent=agent,
            state_dir=state_dir,
            timeout=2,
            looks_only=True,
        )
    except InvalidId as error:
        return [f"remote copy in {state_dir}: {error}"], True
    try:  # a diagnosis never crashes on the copy's own files
        lines, known = remote_status(copy, url_whole=url_whole)
    except OSError as error:
        lines, known = [f"remote copy in {state_dir}: cannot be read: {error}"], False
    return lines if known else [f"PROBLEM: {line}" for line in lines], known


def _installed(
    label: str, again: str, path: Path, document: dict[str, Any], commands: list[str], here: str
) -> tuple[list[str], bool]:
    """The lines of one installed harness; ``again`` is the install that fixes what they find
    (installing again takes every setting from the installed hooks, writing the
    ``harness-memory`` at ``here``)."""
    harness = again.split()[2]
    programs = [hook_program(command) for command in commands]
    started, fine = _program_lines(label, again, programs)
    lines = [f"{label}: installed in {path}", *started]
    if any(flag_values(command, "--token") for command in commands):
        lines.append(
            f"{label}: WARNING: a hook command carries the bearer token on its command line, "
            f"where every local user can read it (ps); run `{again}` "
            "again to move it into a token file only you can read"
        )
    if (why := _url_holding_an_id(commands, path)) is not None:
        lines.append(
            f"{label}: WARNING: the hooks' service URL holds {why}, written in full into "
            f"{path} and every hook's command line, which other accounts (ps) and a "
            "repository holding the file read; install again with the service's address "
            "without it (--url or --remote) and a bearer token (HARNESS_MEMORY_TOKEN), or, "
            f"when the id is no secret, with {URL_ID_NOT_SECRET}"
        )
    if _env_token_read(document, commands):
        lines.append(
            f"{label}: WARNING: the settings' env holds HARNESS_MEMORY_TOKEN, which these hooks "
            "read from there: every process the harness starts sees it, and a repository's "
            f"settings can put another in its place; run `{again}` again to move it into a "
            "token file only you can read"
        )
    if _env_token_unread(document, commands):
        lines.append(
            f"{label}: WARNING: the settings' env holds HARNESS_MEMORY_TOKEN, which the "
            "installed hooks no longer read (a repository's settings can override it): their "
            f"Sessions reach the service without it; run `{again}` "
            "again to move it into a token file only you can read"
        )
    if any(python is None for python, _ in programs):
        lines.append(
            f"{label}: WARNING: a hook command starts harness-memory without its Python "
            "isolated (python -I -X utf8): a repository's settings can set PYTHONPATH (a "
            "harness_memory package of its own in place of the write guard), PYTHONHOME or the "
            f"locale; run `{again}` again, with a "
            "harness-memory whose first line names its Python by absolute path"
        )
    if any("--flags-only" not in command.split() for command in commands):
        lines.append(
            f"{label}: WARNING: a hook command reads HARNESS_MEMORY_* variables, which a "
            "repository's settings can set in its Sessions (another template, state dir or "
            f"agent); run `{again}` again so the hooks take their "
            "settings from their flags alone (--flags-only)"
        )
    try:
        read_record(path.parent)
    except SettingsFileError as error:  # the uninstall refuses until it is moved aside
        lines.append(f"{label}: PROBLEM: {error}")
        fine = False
    scripts = {script for _, script in programs}
    script = scripts.pop() if len(scripts) == 1 else None
    roots, found = _root_lines(label, again, installed_roots(document, harness), (script, here))
    lines += roots
    fine = fine and found
    hooks = document.get("hooks")
    recorded = False
    for event, seen_by in _SEEN_BY.items():
        for group in (hooks.get(event) if isinstance(hooks, dict) else None) or []:
            if isinstance(group, dict) and any(
                isinstance(h, dict) and h.get("command") in commands for h in group.get("hooks", [])
            ):
                recorded = recorded or seen_by.startswith("versions")
                lines.append(f"{label}: {seen_by} {group.get('matcher', 'every tool')}")
    if not recorded:
        lines.append(
            f"{label}: no post-write hook (an install from before it): the agent's memory "
            "writes become versions only at the next Session start, without the tool that "
            f"made them; run `{again}` again"
        )
    return lines, fine


def _url_holding_an_id(commands: list[str], path: Path) -> str | None:
    """What in the service URL an earlier install wrote into ``commands`` (of the settings file
    ``path``) an install now refuses to write (:func:`memory_core.addresses.url_secret`,
    ``written``: a UUID or hex id in its path, which may be a capability secret; A-10), or
    None. A URL the user said holds no secret when installing it (``--url-id-not-secret``,
    kept in the install record beside ``path``) is not one."""
    from memory_core.addresses import url_secret

    try:
        record = read_record(path.parent)
    except SettingsFileError:  # an unreadable record says nothing was said: warn
        record = None
    urls = {url for command in commands for url in flag_values(command, "--url")}
    said = {url for url in urls if record is not None and record.id_said_not_secret(url)}
    return next(
        (why for url in sorted(urls - said) if (why := url_secret(url, written=True))), None
    )


def _root_lines(
    label: str, again: str, roots: Sequence[str], programs: tuple[str | None, str]
) -> tuple[list[str], bool]:
    """One line per memory root the hooks name, a PROBLEM (and the install that names the
    right one) when it is gone; and whether every one is there. ``programs`` is ``(the
    harness-memory the hooks start, the one installing again writes)``: a root gone with the
    first, moved with their folder to the second's (a moved checkout:
    :func:`~harness_memory.installers.reinstall.moved_root`), is mended by ``again`` alone,
    and the line says where the root is now."""
    from harness_memory.installers.reinstall import moved_root

    script, program = programs
    lines: list[str] = []
    for root in roots:
        moved = moved_root(script, root, program) if script else None
        state = (
            ""
            if Path(root).is_dir()
            else f" — PROBLEM: it does not exist; {where_the_root_is()}: "
            f"`{again} --memory-root DIR` (the rest as installed)"
            if moved is None
            else f" — PROBLEM: it does not exist: it moved with the hooks' {script} to "
            f"{moved}; `{again}` installs them again from there"
        )
        lines.append(f"{label}: memory root {root}{state}")
    return lines, all(Path(root).is_dir() for root in roots)


def _program_lines(
    label: str, again: str, programs: list[tuple[str | None, str]]
) -> tuple[list[str], bool]:
    """One line per program the hooks start (each ``(python, executable)``, ``python`` None
    when it is not started isolated): how it runs and whether it outlives the checkout, or a
    PROBLEM when it cannot run; and whether every one can."""
    lines: list[str] = []
    fine = True
    for python, executable in dict.fromkeys(programs):
        problem = describe_executable(executable) or (describe_python(python) if python else None)
        if problem is not None:
            fine = False
            lines.append(
                f"{label}: PROBLEM: the hook command {problem}: no memory reaches its Sessions "
                "and every call of the tools the write guard sees is refused; run "
                f"`{again}` again, or `{again.replace(' install ', ' uninstall ', 1)}` to take "
                "the hooks out (its checkout gone)"
            )
            continue
        checkout = checkout_of(Path(executable))
        where = (
            f"an editable install of {checkout}; it stops if that checkout is cleaned or moved: "
            "install the wheels (README)"
            if checkout
            else "outlives any checkout"
        )
        started = f"{shlex.join([python, *ISOLATED])} {executable}" if python else executable
        lines.append(f"{label}: hooks run {started} ({where})")
    return lines, fine


def _env_token_unread(document: dict[str, Any], commands: list[str]) -> bool:
    """Whether ``env.HARNESS_MEMORY_TOKEN`` (where an earlier Claude Code install kept the
    token) is set while every hook that would send it reads no variable (``--flags-only``)
    and names no token file."""
    env = document.get("env")
    if not isinstance(env, dict) or not env.get("HARNESS_MEMORY_TOKEN"):
        return False
    senders = [c for c in commands if " hook claude-code session-start " in f" {c} "]
    return bool(senders) and all(
        "--flags-only" in c.split() and not flag_values(c, "--token-file") for c in senders
    )


def _env_token_read(document: dict[str, Any], commands: list[str]) -> bool:
    """Whether ``env.HARNESS_MEMORY_TOKEN`` is set and a hook that sends the token reads it
    (one without ``--flags-only``: an install from before it)."""
    senders = [c for c in commands if " hook claude-code session-start " in f" {c} "]
    return bool(_settings_env(document).get(TOKEN_ENV)) and any(
        "--flags-only" not in c.split() for c in senders
    )


def _settings_env(document: dict[str, Any]) -> dict[str, str]:
    """The variables the settings' ``env`` (Claude Code's) gives every hook: its string values."""
    env = document.get("env")
    if not isinstance(env, dict):
        return {}
    return {str(k): v for k, v in env.items() if isinstance(v, str)}
