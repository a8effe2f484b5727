"""``harness-memory install|uninstall HARNESS`` on the command line (H-3).

::

    harness-memory install codex --url URL --project P --agent A --memory-root DIR \\
        [--token-file PATH | --token T] [--timeout S] [--executable PATH] [--dry-run]
        [--url-id-not-secret]   # a URL whose path holds a tenant's id, written as given
    harness-memory install claude-code --managed [DIR] …   # Claude Code's managed settings
    harness-memory install codex --managed [DIR] …   # Codex CLI's requirements.toml
    harness-memory install gemini --managed [PATH] …   # Gemini CLI's system settings
    harness-memory install codex --remote URL --project P --agent A [--token T] …
        # remote mode (R-1): a local copy under ~/.harness-memory, synced with the service
    harness-memory uninstall codex [--memory-root DIR] [--keep-backups] [--dry-run] [--verbose]

Exit status 0 on success (also when nothing had to change), 1 when a settings file cannot be
read or understood, a check fails (H-7) or the token file cannot be read (named on stderr;
nothing is written), 2 for a usage error. An install whose checks only warn (a service that
does not answer yet, a token sent in the clear) succeeds, and says the warnings last, after
everything else, so that they are the lines a user reads.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from harness_memory.advice import Hooks

if TYPE_CHECKING:
    import logging

    from harness_memory.installers import Executable, InstallOptions, InstallResult
    from harness_memory.installers.reinstall import Installed

__all__ = ["INSTALL_HELP", "add_install_flags", "run_install"]


def _logger() -> logging.Logger:
    """The command's logger, imported when an install runs: ``harness_memory.cli`` imports this
    module for the parser, and a hook process has no use for ``logging`` (H-5)."""
    import logging

    return logging.getLogger("harness_memory")


_HARNESSES = ("claude-code", "codex", "gemini")


INSTALL_HELP = {
    "status": "what each harness's hooks run, and whether they still can (exit 1: not)",
    "install": "install the hooks in a harness's own user settings",
    "uninstall": "uninstall the hooks in a harness's own user settings",
}
"""The ``install``, ``uninstall`` and ``status`` commands and their help."""


MEMORY_ROOT_HELP = (
    "the agent's memory folder in the service's data dir: <data dir>/agents/<agent>/"
    "agent_state/memory (beside `make run`: .data/agents/<agent>/agent_state/memory in the "
    "checkout) [HARNESS_MEMORY_ROOT]"
)
"""What ``--memory-root`` of ``install`` names: a new user has never seen the word, so its help
says where the folder is (:func:`memory_core.layout.memory_root`)."""
UNINSTALL_MEMORY_ROOT_HELP = (
    "not needed: the memory roots the installed hooks name are taken out of the settings "
    "anyway; a root given here is taken out too [HARNESS_MEMORY_ROOT]"
)
"""What ``--memory-root`` of ``uninstall`` does: nothing the user has to give."""


_VERBOSE_HELP = {
    "install": "say everything: what the write guard does not cover, what a repository can "
    "switch off, how the hooks' Python is isolated (default: a short summary and every "
    "warning)",
    "uninstall": "name every file and folder removed, one a line (default: a folder removed "
    "with what it held in one line)",
}
"""What ``--verbose`` does for each verb that has it (H-3)."""


def add_install_flags(parser: argparse.ArgumentParser, verb: str) -> None:
    """Add the flags of ``verb`` (a key of :data:`INSTALL_HELP`) to its parser."""
    home_help = "the home directory (default: $HOME; a relative one is taken from here)"
    if verb == "status":
        parser.add_argument("--home", default=None, help=home_help)
        parser.add_argument(
            "--moved",
            action="store_true",
            help="only the hooks still naming this checkout's old place (it moved) or a "
            "harness-memory that is gone (a deleted checkout), each with the command that mends "
            "them; nothing when there are none (make install and make run run it)",
        )
        parser.add_argument(
            "--managed",
            default=None,
            metavar="DIR",
            help="Claude Code's managed settings folder (default: where it reads them); Codex "
            "CLI's requirements.toml and Gemini CLI's settings.json are read from DIR too",
        )
        return
    parser.add_argument(
        "harness", choices=_HARNESSES, help="the coding agent whose settings get the hooks"
    )
    root_help = UNINSTALL_MEMORY_ROOT_HELP if verb == "uninstall" else MEMORY_ROOT_HELP
    parser.add_argument("--memory-root", dest="root", help=root_help)
    parser.add_argument("--dry-run", action="store_true", help="print the change, write nothing")
    parser.add_argument("--home", default=None, help=home_help)
    parser.add_argument(
        "--managed",
        nargs="?",
        const="",
        metavar="DIR",
        help="for every user of the machine, where no repository can switch the hooks off: "
        "Claude Code's managed settings (in DIR, default /etc/claude-code on Linux), Codex "
        "CLI's requirements (DIR/requirements.toml, default /etc/codex), Gemini CLI's system "
        "settings (the file PATH.json, or DIR/settings.json; default "
        "$GEMINI_CLI_SYSTEM_SETTINGS_PATH or /etc/gemini-cli/settings.json); needs root",
    )
    parser.add_argument("--verbose", action="store_true", help=_VERBOSE_HELP[verb])
    if verb == "uninstall":
        parser.add_argument(
            "--keep-backups",
            action="store_true",
            help="keep the backups installs made of the settings files, those holding a "
            "token too (default: removed once the files are put back)",
        )
        return
    _add_install_only_flags(parser)


def _add_install_only_flags(parser: argparse.ArgumentParser) -> None:
    """Add the flags ``install`` has and ``uninstall`` has not."""
    parser.add_argument("--url", help="memory service root URL [HARNESS_MEMORY_URL]")
    parser.add_argument("--project", help="project id [HARNESS_MEMORY_PROJECT]")
    parser.add_argument("--agent", help="agent id [HARNESS_MEMORY_AGENT]")
    token = parser.add_mutually_exclusive_group()  # one of the two (--token won unsaid)
    token.add_argument(
        "--token",
        help="bearer token written for the hooks; typed here it shows in ps while the "
        "install runs, so prefer the variable [HARNESS_MEMORY_TOKEN; not with --managed]",
    )
    token.add_argument(
        "--token-file",
        metavar="PATH",
        help="a file only you can read (mode 0600) holding the bearer token "
        "[HARNESS_MEMORY_TOKEN_FILE; not with --managed]",
    )
    parser.add_argument(
        "--remote",
        dest="remote_url",
        metavar="URL",
        help="remote mode: the service at URL keeps memory on another machine; the "
        f"hooks keep a local copy under ~/{REMOTE_STATE_DIR} (the memory root), synced "
        "with it over git (instead of --url and --memory-root)",
    )
    parser.add_argument(
        "--url-id-not-secret",
        action="store_true",
        help="write a service URL whose path holds a UUID or hex id (a tenant's: "
        ".../tenants/<uuid>/memory) as given: you say the id is no secret, since other "
        "accounts (ps) and a repository holding the settings read it; without this flag "
        "such a URL is refused, as it may be a capability secret",
    )
    parser.add_argument("--timeout", type=float, help="seconds for each request to the service")
    parser.add_argument("--executable", help="the harness-memory command the hooks run")
    parser.add_argument(
        "--no-check",
        action="store_true",
        help="write without checking the memory root, the URL and the ids, nor whether this "
        "machine's settings switch the hooks off or keep the harness's own memory on "
        "(settings prepared for another machine)",
    )


def run_install(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    environ: Mapping[str, str],
    out: IO[str],
) -> int:
    """Carry out ``install``/``uninstall``/``status`` as the module says; the exit status."""
    from harness_memory.installers import InstallOptions, choose_executable
    from harness_memory.settings import TokenFileError, TokenValueError

    if args.command == "status":
        return _status(args, environ, out)
    install = args.command == "install"
    home = Path(args.home or environ.get("HOME") or Path.home()).absolute()
    managed = _managed_dir(parser, args, environ)
    root, values, reused, remote_state = _settings_given(parser, args, environ, home, managed, out)
    chosen = choose_executable(getattr(args, "executable", None), dict(environ))
    try:
        (token, _), checking = _used_tokens(args, environ, managed, reused[0], values)
    except (TokenFileError, TokenValueError) as error:
        _logger().error("%s %s: %s (nothing was changed)", args.command, args.harness, error)
        return 1
    options = InstallOptions(
        executable=chosen.command,
        interpreter=chosen.interpreter,
        url=values["url"] or "",
        project=values["project"] or "",
        agent=values["agent"] or "",
        memory_root=Path(str(root)).absolute() if root else None,
        home=home,
        token=token,
        timeout=getattr(args, "timeout", None),
        managed_dir=managed,
        remote_state_dir=remote_state,
        url_id_not_secret=install and args.url_id_not_secret,
        dry_run=args.dry_run,
        no_check=install and args.no_check,
        kept_token=None if reused[1] is None else reused[1].kept,
    )
    if install and _url_refused(args.harness, options):
        return 1
    warnings = []
    if install:
        ids_said = options.url_id_not_secret
        warnings = _replaced_agent(args.harness, home, environ, managed, values, ids_said)
    if install and not args.no_check:
        checked = _checked(args, str(root), options, *checking, dropped=reused[1])
        if checked is None:
            return 1
        warnings += checked
    if remote_state is not None and not args.dry_run:  # Gemini CLI needs the root to exist
        remote_state.mkdir(mode=0o700, parents=True, exist_ok=True)
        Path(str(root)).mkdir(parents=True, exist_ok=True)
    named = (set(), set()) if install or args.dry_run else _named_copies(home, environ)
    before = _memory_before(args, home, environ, managed) if install else None
    result = _written(args, options, environ, chosen, out)
    if result is None:
        return 1
    if (moved := _memory_switched(before, options, dry_run=args.dry_run)) is not None:
        _say(out, args.harness, moved, True)
    _said_dropped(args, token, reused[1], out)
    for line in [] if install or args.dry_run else _left_behind(named, home, environ, managed):
        _say(out, args.harness, line, True)
    where = (home, environ, managed)
    problems = _after_install(args, chosen.command, where, result, out) if install else []
    if install and not args.dry_run:
        _say_next_step(args, out)
    out.flush()  # what was done first, then the warnings: the lines a user reads last
    for warning in warnings:
        _logger().warning("%s %s: %s", args.command, args.harness, warning)
    if args.dry_run and install and not _would_change(result):
        from harness_memory.installers.detail import NOTHING_TO_CHANGE

        out.write(f"{NOTHING_TO_CHANGE}\n")
    elif args.dry_run and not problems:  # else no command to run: its hooks would not run
        shown = _next_command(args, str(root) if root else None, values, environ)
        out.write(f"next: {shown}\n")
    return 1 if problems else 0


def _url_refused(harness: str, options: InstallOptions) -> bool:
    """Whether the install's ``options.url``, written into settings and command lines (even
    unchecked), is refused (:func:`~harness_memory.client.service_url_parts`: a password or a
    key in it, A-10); the error is logged, nothing changed."""
    if not options.url:
        return False
    from harness_memory.client import service_url_parts
    from harness_memory.errors import ServiceUnreachableError

    try:
        service_url_parts(options.url, written=not options.url_id_not_secret)
    except ServiceUnreachableError as error:
        _logger().error("install %s: %s (nothing was changed)", harness, error)
        return True
    return False


def _memory_before(
    args: argparse.Namespace, home: Path, environ: Mapping[str, str], managed: Path | None
) -> tuple[str, str, bool] | None:
    """``(service URL, memory root, remote mode)`` the installed hooks of ``args.harness``
    name before this install rewrites them; None when none are installed (or they name no
    one of each)."""
    from harness_memory.installers.reinstall import installed_settings

    flags = installed_settings(args.harness, home, environ, managed).flags
    if not flags.get("url") or not flags.get("memory-root"):
        return None
    return flags["url"], flags["memory-root"], flags.get("remote") == "on"


def _memory_switched(
    before: tuple[str, str, bool] | None, options: InstallOptions, *, dry_run: bool
) -> str | None:
    """The sentence saying, without ``--verbose``, which memory the hooks used and which they
    use now, when the install changed it: another service, another memory root, remote mode
    (R-1: a local copy synced with the service) on or off. None when nothing of it changed.
    URLs as ``shown_url`` shows them (their ids too when the user said they are no secret)."""
    from memory_core.addresses import shown_url

    from harness_memory.installers.spec import same_service

    if before is None or not options.url or options.memory_root is None:
        return None
    url, root, remote = before
    now = (options.url, str(options.memory_root), options.remote)
    if same_service(url, now[0]) and Path(root) == Path(now[1]) and remote == now[2]:
        return None

    def memory(service: str, folder: str, copy: bool) -> str:
        if copy:
            return f"a local copy in {folder} synced with the service at {service} (remote mode)"
        return f"the memory root {folder} of the service at {service}"

    old = memory(shown_url(url), root, remote)
    new = memory(shown_url(now[0], ids=not options.url_id_not_secret), now[1], now[2])
    verb = "would switch" if dry_run else "switched"
    kept = (
        "the same folder: what it holds stays in it"
        if Path(root) == Path(now[1])
        else "nothing of the old one was moved or removed"
    )
    return f"the hooks' memory {verb}: from {old} to {new} ({kept})"


def _machine_problems(
    args: argparse.Namespace,
    where: tuple[Path, Mapping[str, str], Path | None],
    result: InstallResult,
) -> list[str]:
    """For a user install of ``args.harness`` (``where``: the home, the environment and no
    managed folder), the PROBLEM lines ``status`` says when this machine's settings keep its
    hooks from running (:func:`~harness_memory.installers.status.machine_problems`, given the
    user's settings as ``result`` planned them: Gemini CLI's ``hooksConfig.disabled`` names
    hooks); ``[]`` for a managed install, which writes its hooks into those settings, and with
    ``--no-check`` (settings prepared for another machine, which this one's say nothing of)."""
    home, environ, managed = where
    if managed is not None or getattr(args, "no_check", False):
        return []
    from harness_memory.installers import gemini
    from harness_memory.installers.files import json_object
    from harness_memory.installers.status import machine_problems

    path = gemini.settings_path(home, environ)
    harness = args.harness
    planned = [c.new for c in result.changes if harness == "gemini" and c.path == path]
    settings = json_object(planned[0], path, comments=True) if planned else {}
    return machine_problems(harness, environ, settings)


def _would_change(result: InstallResult) -> bool:
    """Whether the install a dry run showed would change a file: write one, remove one that
    is there (a token file no longer wanted), or make a backup holding a token owner-only."""
    removes = any(os.path.lexists(path) for path in result.plan.removals)
    return bool(result.changed) or removes or bool(result.narrowed)


def _say_next_step(args: argparse.Namespace, out: IO[str]) -> None:
    """The last line of an install that wrote its hooks: the one next step, and without
    ``--verbose`` where the rest of what it did is said (H-3)."""
    from harness_memory.installers.detail import next_step
    from harness_memory.installers.harness_version import MEASURED

    known = MEASURED[args.harness]
    said = next_step(known.product, known.command, verbose=args.verbose)
    out.write(f"{args.harness}: {said}\n")


def _named_copies(
    home: Path, environ: Mapping[str, str]
) -> tuple[set[tuple[str, str, str, str]], set[str]]:
    """Before an uninstall: the local copies (R-1) the installed hooks name, and the URLs whose
    ids their install was told are no secret (read while its record is there, A-10)."""
    from harness_memory.installers.status import remote_copies, urls_said_no_secret

    copies = remote_copies(home, environ)
    return copies, (urls_said_no_secret(home, environ) if copies else set())


def _left_behind(
    named: tuple[set[tuple[str, str, str, str]], set[str]],
    home: Path,
    environ: Mapping[str, str],
    managed: Path | None,
) -> list[str]:
    """What an uninstall leaves that only the user may remove, said with how: each local copy
    (R-1) of ``named`` (those named before it, :func:`_named_copies`) that no installed hook
    names now, its URL whole when its id was said to be no secret (A-10), and, after the last
    managed install, the account's token file for managed hooks."""
    copies, said = named
    from harness_memory.installers.status import (
        copy_left_lines,
        managed_token_left_lines,
        remote_copies,
    )

    now = remote_copies(home, environ) if copies else set()
    lines = [line for copy in sorted(copies - now) for line in copy_left_lines(copy, said)]
    return lines + (managed_token_left_lines(home, environ) if managed is not None else [])


def _written(
    args: argparse.Namespace,
    options: InstallOptions,
    environ: Mapping[str, str],
    chosen: Executable,
    out: IO[str],
) -> InstallResult | None:
    """Install or uninstall with ``options`` (a dry run prints the change), saying which
    ``harness-memory`` the hooks run first (the short form without ``--verbose``): what it
    did, or None, the error logged, when a settings file refused it (nothing was changed)."""
    from harness_memory.installers import SettingsFileError, run
    from harness_memory.installers.detail import MORE
    from harness_memory.installers.executable import isolation_note

    install = args.command == "install"
    verbose = args.verbose
    if install:
        _say(out, args.harness, chosen.note if verbose else chosen.brief or chosen.note, verbose)
        _say(out, args.harness, isolation_note(chosen), verbose)
    try:
        keep = {"keep_backups": getattr(args, "keep_backups", False)}  # uninstall's flag
        return run(
            args.harness,
            options,
            environ,
            install=install,
            dry_run=args.dry_run,
            out=out,
            verbose=verbose,
            more=None if install and not args.dry_run else MORE,  # said by the next step
            **keep,
        )
    except SettingsFileError as error:
        _logger().error("%s %s: %s (nothing was changed)", args.command, args.harness, error)
        return None
    except OSError as error:
        _logger().error("%s %s: cannot write: %s", args.command, args.harness, error)
        return None


def _settings_given(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    environ: Mapping[str, str],
    home: Path,
    managed: Path | None,
    out: IO[str],
) -> tuple[str | None, dict[str, str | None], tuple[str | None, Dropped | None], Path | None]:
    """The memory root, the URL and ids, a token reused from the earlier install (with why
    one was not: :func:`_token_for`) and the remote state folder for
    ``install``/``uninstall``: from the flags, else
    ``HARNESS_MEMORY_*``, else (an ``install`` naming none) as installed before. The token is
    reused by an install given its settings too when the hooks installed before carry it on
    their command lines (``--token``, an older release's Codex and Gemini CLI hooks), as
    Claude Code's older ``env`` token is (H-3). Exits with a usage error naming what an
    install is missing."""
    install = args.command == "install"
    root = args.root or environ.get("HARNESS_MEMORY_ROOT")
    values = {
        name: getattr(args, name, None) or environ.get(f"HARNESS_MEMORY_{name.upper()}")
        for name in ("url", "project", "agent")
    }
    reused_token: str | None = None
    dropped: Dropped | None = None
    given = not install or any(values.values()) or args.remote_url is not None
    if not given:
        root, reused_token, dropped = _as_installed(args, environ, home, managed, values, out, root)
    remote_state = _remote_state(parser, args, values, home)
    if install and given and managed is None:  # the hooks' token kept for the URL written
        reused_token, dropped = _token_for(args, environ, home, values["url"])
    if remote_state is not None and values["project"] and values["agent"]:
        from harness_memory.settings import remote_memory_root

        root = str(remote_memory_root(remote_state, values["project"], values["agent"]))
        from harness_memory.installers.remote_hooks import unused_root

        if install and (unused := unused_root(environ, Path(root))) is not None:
            _logger().warning("install %s: %s", args.harness, unused)
    missing = [name for name, value in values.items() if install and not value]
    if install and not root:
        missing.insert(0, "memory-root")
    if missing:
        parser.error(_missing_settings(args, missing, values["agent"]))
    return root, values, (reused_token, dropped), remote_state


class Dropped(NamedTuple):
    """The token of the hooks installed before that an install does not give its hooks (A-10):
    whose hooks, the service it was given for (``before``; None: the hooks name no one URL),
    the service of the install (``url``), both as said (``shown_url``), and whether the
    Claude Code planner says it (its ``env`` token: it drops it itself)."""

    hooks: Hooks
    before: str | None
    url: str
    by_planner: bool = False
    kept: Path | None = None
    """The token file kept, not dropped: its record names a service (``before``) that neither
    the hooks installed before nor this install name, so the user gave it with ``token set
    --url`` (A-10): an install never removes or replaces it; the hooks read it and refuse it."""

    def said(self, *, dry_run: bool, install: str | None = None) -> str:
        """The sentence saying so (``dry_run``: what the install would do; ``install``: the
        whole install asked for, which a refused one names: :meth:`~harness_memory.advice.
        Hooks.new_token`)."""
        if self.kept is not None and self.before is None:
            return users_file_kept_said(self.kept, self.url, dry_run=dry_run)
        if self.kept is not None:
            return kept_token_said(self.kept, str(self.before), self.url, dry_run=dry_run)
        if self.before is None:
            return self.hooks.unknown_service(self.url, dry_run=dry_run, install=install)
        return self.hooks.another_service(self.before, self.url, dry_run=dry_run, install=install)


def _token_for(
    args: argparse.Namespace, environ: Mapping[str, str], home: Path, url: str | None
) -> tuple[str | None, Dropped | None]:
    """``(token, what was dropped)``: the token of the user-level hooks of ``args.harness``
    installed before (their token file's, or an older release's ``--token`` on their command
    lines) when they name the service ``url`` an install given its settings names
    (:func:`~harness_memory.installers.spec.same_service`); None for another service or
    none installed (H-3: installing again with the same flags keeps the token the hooks use;
    A-10: a token is never sent to another service, nor to one it is not known to belong to).
    For another service, or hooks naming no one URL, what says the token is dropped, why and
    how to give ``url``'s: said once the install is written, or by a refused service check
    (Claude Code's ``env`` token is said by its planner, which drops it)."""
    from memory_core.addresses import shown_url  # its password and ids never said

    from harness_memory.installers.reinstall import installed_settings
    from harness_memory.installers.spec import same_service

    found = installed_settings(args.harness, home, environ, None)
    before = found.flags.get("url")
    if not (url and found.token):
        return None, None
    if before is not None and (same_service(before, url) or _users_own(found)):
        return _unless_recorded_elsewhere(args.harness, found, url, args.url_id_not_secret is True)
    shown = None if before is None else shown_url(before)
    return None, Dropped(Hooks(args.harness), shown, shown_url(url), bool(found.env_token))


def _unless_recorded_elsewhere(
    harness: str, found: Installed, url: str, ids_said: bool = False
) -> tuple[str | None, Dropped | None]:
    """``(token, None)``: the installed hooks' token (``found``) for an install naming the
    service ``url``, unless the record beside its token file names another service, or is
    unreadable (:func:`~harness_memory.settings.token_service`): then ``(None, what was
    dropped)``. The hooks' own ``--url`` does not say whose token the file holds: ``token
    set --url`` may have given it for another service since (A-10). ``ids_said``: the user
    said the ids in ``url``'s path are no secret (shown in the command said)."""
    from memory_core.addresses import shown_url  # its password and ids never said

    from harness_memory.settings import same_service, token_service

    recorded = token_service(Path(found.token_file)) if found.token_file else None
    if recorded is None or (recorded and same_service(recorded, url)):
        return found.token, None
    shown = shown_url(recorded) if recorded else None
    if _users_own(found) and found.token_file:  # a command names it: its ids as said
        said = shown_url(url, ids=not ids_said)
        return None, Dropped(Hooks(harness), shown, said, kept=Path(found.token_file))
    return None, Dropped(Hooks(harness), shown, shown_url(url))


def _users_own(found: Installed) -> bool:
    """Whether the token file of the installed hooks ``found`` records a service their own
    ``--url`` does not name: the user gave it for another service (``token set --url``), so it
    is no install's to remove or replace (A-10)."""
    from harness_memory.settings import same_service, token_service

    before = found.flags.get("url")
    recorded = token_service(Path(found.token_file)) if found.token_file else None
    if recorded == "":  # a file beside it that is no record of ours: the user's
        return True
    return bool(recorded and before) and not same_service(str(recorded), str(before))


def users_file_kept_said(kept: Path, url: str, *, dry_run: bool = False) -> str:
    """Why an install keeps the token file ``kept`` and the ``.url`` file beside it that is no
    service record harness-memory wrote (the user's own file, or a token put there: A-10), and
    the way on, runnable as printed: move it aside, then give ``url``'s token (``url`` as
    said)."""
    from harness_memory.settings import move_aside_command, quoted, token_service_file

    verb = "would keep" if dry_run else "kept"
    record = token_service_file(kept)
    return (
        f"{verb} {kept} and {record}: {record} is not a service record harness-memory wrote "
        "(your own file, or a token put there by mistake), and an install neither uses, "
        "removes nor replaces it; these hooks send the token to no service while it is there "
        f"(A-10): move it aside ({move_aside_command(record)}), then give {url}'s token: "
        f"`harness-memory token set --file {quoted(kept)} --url {shlex_quote(url)}` (it reads "
        f"it from stdin); `harness-memory uninstall` removes {kept}, never {record}"
    )


def shlex_quote(text: str) -> str:
    """``text`` quoted for a POSIX shell (only where an install quotes: H-5)."""
    import shlex

    return shlex.quote(text)


def kept_token_said(kept: Path, recorded: str, url: str, *, dry_run: bool = False) -> str:
    """Why an install keeps the token file ``kept``, recorded for the service at ``recorded``,
    not ``url`` (both as ``shown_url`` shows them), and the command that gives ``url``'s
    token in its place, runnable as printed (A-10)."""
    import shlex  # only an install quotes (H-5)

    verb = "would keep" if dry_run else "kept"
    return (
        f"{verb} {kept}: it holds the token given for the service at {recorded} (`harness-memory "
        f"token set --url`), not {url}, and an install never removes or replaces such a token "
        f"(A-10); these hooks read it and refuse it until it holds {url}'s: `harness-memory token "
        f"set --file {shlex.quote(str(kept))} --url {shlex.quote(url)}` puts it there "
        f"(reads it from stdin; {recorded}'s is then gone)"
    )


def _managed_url_changed(
    before: str | None, url: str | None, managed: Path | None, ids_said: bool = False
) -> list[str]:
    """The warning of a managed install (``managed``) whose hooks named the service at
    ``before`` and now name ``url``, another (A-10): each user's managed token, from ``token
    set --managed`` and given for the old service, is refused by these hooks (its service is
    recorded beside it: :func:`~harness_memory.settings.token_service`; one set before that is
    sent to the new one) until the user gives that one's. Empty for no managed install, none
    before, or the same service. URLs as ``shown_url`` shows them (the new one's ids shown when
    ``ids_said``: ``--url-id-not-secret``), the command runnable as printed."""
    import shlex  # only an install quotes (H-5)

    from memory_core.addresses import shown_url

    from harness_memory.installers.spec import same_service

    if managed is None or before is None or not url or same_service(before, url):
        return []
    old, new = shown_url(before), shown_url(url, ids=not ids_said)
    return [
        f"the managed hooks named the service at {old}: each user's managed token was given "
        f"for it, so these hooks no longer send it (A-10; one set before `token set` recorded "
        f"its service beside it still goes to {new}); tell every user to run "
        f"`harness-memory token set --managed --url {shlex.quote(new)}` with {new}'s token"
    ]


def _replaced_agent(
    harness: str,
    home: Path,
    environ: Mapping[str, str],
    managed: Path | None,
    values: Mapping[str, str | None],
    ids_said: bool = False,
) -> list[str]:
    """What an install for another agent than the hooks already in ``harness``'s settings
    replaces, as a warning; none when no hooks are installed or they are that agent's (H-3);
    and for managed hooks moved to another service, that each user's token goes there
    (:func:`_managed_url_changed`; ``ids_said``: ``--url-id-not-secret``).

    A harness's settings hold one agent's hooks: installing for a second agent (``--agent
    reviewer`` after ``--agent coder``) rewrites them, and every Session of that harness then
    starts with the second agent's memory. It did so saying only that it wrote the file.
    """
    from harness_memory.installers.reinstall import installed_settings

    found = installed_settings(harness, home, environ, managed)
    said = _managed_url_changed(found.flags.get("url"), values.get("url"), managed, ids_said)
    before = (found.flags.get("project"), found.flags.get("agent"))
    now = (values.get("project"), values.get("agent"))
    if None in before or before == now:
        return said
    return [
        *said,
        f"replaces agent {before[0]}/{before[1]}'s hooks in {found.path} with "
        f"{now[0]}/{now[1]}'s: a harness's settings hold one agent's hooks, so every "
        f"{harness} Session starts with {now[0]}/{now[1]}'s memory, not {before[1]}'s (to go "
        f"back: {_install_before(harness, found.flags, managed, found.path)})",
    ]


def _install_before(
    harness: str, flags: Mapping[str, str], managed: Path | None, settings: Path
) -> str:
    """The install that writes back the hooks whose settings were ``flags`` (those of
    :func:`~harness_memory.installers.reinstall.installed_settings`, in ``settings``), every
    flag it needs named (:meth:`~harness_memory.advice.Hooks.install_with`; given
    ``--project``, an install takes nothing from the hooks there, H-3: ``--timeout`` when they
    carry one, ``--url-id-not-secret`` when their install was told so), into the ``managed``
    folder when there is one. Its URL as it may be shown (A-10: never a password; an id only when
    said to be no secret, so the command runs as printed)."""
    import shlex

    from memory_core.addresses import shown_url

    said = bool(flags.get("url")) and _id_said_not_secret(settings, flags["url"])
    url = shown_url(flags["url"], ids=not said) if flags.get("url") else None  # runnable
    extra: tuple[str, ...] = ()
    extra += (f"--timeout {shlex.quote(flags['timeout'])}",) if flags.get("timeout") else ()
    extra += ("--url-id-not-secret",) if said else ()
    hooks = Hooks(harness, managed is not None)
    folder = None if managed is None else str(managed)
    return hooks.install_with(
        url,
        flags.get("project"),
        flags.get("agent"),
        flags.get("memory-root"),
        remote=flags.get("remote") == "on",
        managed_dir=folder,
        extra=extra,
    )


def _after_install(
    args: argparse.Namespace,
    command: str,
    where: tuple[Path, Mapping[str, str], Path | None],
    result: InstallResult,
    out: IO[str],
) -> list[str]:
    """What an install does and says after the files (``where``: the home, the environment and
    the managed folder, None for a user install): the hooks' bytecode compiled (not in a dry
    run), the harness version found on PATH against the one the hooks are measured on
    (:mod:`~harness_memory.installers.harness_version`), a warning when a managed install
    runs these hooks for every user already (not when this machine's settings switch those off
    too, nor with ``--no-check``, which reads none of them), and the PROBLEM lines when this
    machine's settings keep them from running (:func:`_machine_problems`), returned (the
    install then fails, as ``status`` does for them; a dry run too, as the run would)."""
    from harness_memory.installers.harness_version import version_note

    home, environ, managed = where
    if not args.dry_run:
        from harness_memory.installers.executable import compile_bytecode

        _say(out, args.harness, compile_bytecode(command), getattr(args, "verbose", False))
    out.write(f"{args.harness}: {version_note(args.harness, environ)}\n")
    problems = _machine_problems(args, where, result)  # H-7
    unread = managed or problems or getattr(args, "no_check", False)  # --no-check: none read
    also = None if unread else _managed_install_too(args.harness, home, environ)
    if also:
        out.write(f"{args.harness}: WARNING: {also}\n")
    out.write("".join(f"{line}\n" for line in problems))
    return problems


def _say(out: IO[str], harness: str, sentence: str, verbose: bool) -> None:
    """Write ``harness: sentence`` to ``out``, unless ``sentence`` is a
    :class:`~harness_memory.installers.detail.Detail` and the install is not ``verbose``."""
    from harness_memory.installers.detail import Detail

    if verbose or not isinstance(sentence, Detail):
        out.write(f"{harness}: {sentence}\n")


def _said_dropped(
    args: argparse.Namespace, token: str | None, dropped: Dropped | None, out: IO[str]
) -> None:
    """Say why the token of the hooks installed before is dropped (A-10), once the install
    is written (or said by ``--dry-run``), when the hooks get no other (``token``)."""
    if token is None and dropped is not None and not dropped.by_planner:
        _say(out, args.harness, dropped.said(dry_run=args.dry_run), True)


def _used_tokens(
    args: argparse.Namespace,
    environ: Mapping[str, str],
    managed: Path | None,
    reused: str | None,
    values: Mapping[str, str | None],
) -> tuple[tuple[str | None, str | None], tuple[str | None, str | None]]:
    """``((the hooks' token, source), (the checked token, source))``, each judged only where it
    is used (A-10, H-7): an install's token it writes (:func:`_token`), and the one a checked
    install asks the service with (:func:`_checking_token`); an ``uninstall`` reads none and
    a ``--no-check`` managed install uses none, so a token left in the environment that no
    bearer token can be never stops either. Raises as :func:`_token`."""
    if args.command != "install":
        return (None, None), (None, None)
    hooks = _token(args, environ, managed, reused, values["url"])
    if args.no_check:
        return hooks, (None, None)
    return hooks, _checking_token(args, environ, managed, values["url"], hooks)


def _token(
    args: argparse.Namespace,
    environ: Mapping[str, str],
    managed: Path | None,
    reused: str | None,
    url: str | None = None,
) -> tuple[str | None, str | None]:
    """``(token, where it came from)`` for the hooks, as a refusal names the place: ``--token``,
    then ``--token-file PATH``, ``HARNESS_MEMORY_TOKEN``, ``HARNESS_MEMORY_TOKEN_FILE PATH``,
    then the token of the hooks already installed (``reused``); ``(None, None)`` for none and
    for a managed install (managed settings are every user's: never a token). Raises
    :class:`~harness_memory.settings.TokenFileError` for a token file that cannot be read, may
    be read by others, or holds no token, :class:`~harness_memory.settings.TokenValueError` for
    a token given as a value, or read from a file for the hooks, that no bearer token can be
    (:func:`_written_token`); a token file whose service record names another service than
    ``url`` (the install's) is refused as a hook of ``url`` refuses it (A-10): never sent in
    the check, never recorded as ``url``'s."""
    from harness_memory.settings import check_token_value

    hooks = Hooks(args.harness, managed is not None)
    url = url or getattr(args, "remote_url", None)
    if getattr(args, "token", None):
        return check_token_value(args.token, "--token"), "--token"
    if getattr(args, "token_file", None):
        token = _read_token_file(Path(args.token_file), url, hooks)
        return _written_token(token, f"--token-file {args.token_file}", managed)
    if managed is not None:
        return None, None
    token, source = _environment_token(environ, url, hooks)
    if token is not None:
        return _written_token(token, str(source), managed)
    if reused is not None:
        return reused, "the token of the hooks installed before"
    return None, None


def _written_token(
    token: str | None, source: str, managed: Path | None
) -> tuple[str | None, str | None]:
    """``(token, source)``, a token read from a file (``source`` names it) held to the rule
    ``token set`` applies when a user install writes it (:func:`~harness_memory.settings.
    check_token_value`: 16 characters or more, one token; raises :class:`~harness_memory.
    settings.TokenShapeError` naming the file, never the token: H-7, A-10)."""
    from harness_memory.settings import check_token_value

    if token is not None and managed is None:
        check_token_value(token, source)
    return token, source


def _checking_token(
    args: argparse.Namespace,
    environ: Mapping[str, str],
    managed: Path | None,
    url: str | None,
    hooks: tuple[str | None, str | None],
) -> tuple[str | None, str | None]:
    """``(token, where it came from)`` the install checks the service with (H-7): the hooks'
    own (``hooks``, from :func:`_token`), or for a managed install, which writes none, the
    environment's (:func:`_environment_token`), used for the check only and kept nowhere.
    A ``HARNESS_MEMORY_TOKEN_FILE`` whose record names another service than ``url`` is
    refused as for a user install of ``args.harness`` (raises as :func:`_token`, A-10): never
    sent in the check."""
    if managed is None:
        return hooks
    return _environment_token(environ, url, Hooks(args.harness, True))


def _environment_token(
    environ: Mapping[str, str], url: str | None = None, hooks: Hooks | None = None
) -> tuple[str | None, str | None]:
    """``(token, where it came from)`` of ``HARNESS_MEMORY_TOKEN``, else of the file
    ``HARNESS_MEMORY_TOKEN_FILE`` names; ``(None, None)`` for neither. Raises as :func:`_token`."""
    from harness_memory.settings import check_token_value

    if environ.get("HARNESS_MEMORY_TOKEN"):
        source = "HARNESS_MEMORY_TOKEN"
        return check_token_value(environ[source], source), source
    if file := environ.get("HARNESS_MEMORY_TOKEN_FILE"):
        return _read_token_file(Path(file), url, hooks), f"HARNESS_MEMORY_TOKEN_FILE {file}"
    return None, None


def _managed_install_too(harness: str, home: Path, environ: Mapping[str, str]) -> str | None:
    """For a user install: the sentence saying this machine's managed install of ``harness``
    already runs the hooks for every user (both would run: the memory injected twice, every
    write guarded twice), or None."""
    from harness_memory.installers.reinstall import installed_settings

    folder = _default_managed_dir(harness, environ)
    found = installed_settings(harness, home, environ, folder)
    where = found.path if found.flags else _drop_in_holding(harness, found.path)
    if where is None:
        return None
    return (
        f"{where} (the managed install) already runs these hooks for every user of this "
        f"machine: with these in your own settings too, both run — the memory injected twice; "
        f"`harness-memory uninstall {harness}` takes yours out again"
    )


def _drop_in_holding(harness: str, managed: Path) -> Path | None:
    """The ``managed-settings.d`` drop-in that holds Claude Code hooks of ours beside the
    managed settings ``managed`` holding none (:func:`~harness_memory.installers.
    claude_drop_ins.held_in_a_drop_in`: Claude Code runs them for every user all the same);
    None for another harness, none there, or settings that cannot be read."""
    if harness != "claude-code":
        return None
    from harness_memory.installers.claude_drop_ins import held_in_a_drop_in, managed_unread
    from harness_memory.installers.files import SettingsFileError, read_json_object

    try:
        document = {} if managed_unread(managed) else read_json_object(managed, utf16=True)[1]
    except (SettingsFileError, OSError):
        return None
    held = held_in_a_drop_in(managed, document)
    return None if held is None else held[0]


def _default_managed_dir(harness: str, environ: Mapping[str, str]) -> Path:
    """Where ``--managed`` without a folder installs ``harness``: where the harness reads its
    managed settings (Gemini CLI: the file itself, which ``environ`` may move)."""
    if harness == "codex":
        from harness_memory.installers.codex_managed import DEFAULT_DIR

        return DEFAULT_DIR
    if harness == "gemini":
        from harness_memory.installers.gemini import system_settings_path

        return system_settings_path(environ)
    from harness_memory.installers.claude_code import managed_dir

    return managed_dir()


def _id_said_not_secret(settings: Path, url: str) -> bool:
    """Whether the install that wrote ``settings`` was told the id in ``url``'s path is no
    secret (``--url-id-not-secret``, kept in its install record)."""
    from harness_memory.installers.files import SettingsFileError
    from harness_memory.installers.record import read_record

    try:
        return read_record(settings.parent).id_said_not_secret(url)
    except SettingsFileError:
        return False


def _as_installed(
    args: argparse.Namespace,
    environ: Mapping[str, str],
    home: Path,
    managed: Path | None,
    values: dict[str, Any],
    out: IO[str],
    root: str | None = None,
) -> tuple[str | None, str | None, Dropped | None]:
    """``install HARNESS`` given no URL, project or agent: take them (and the timeout,
    remote mode, the token file's token, and ``--url-id-not-secret`` when its install record
    keeps it of that URL) from the hooks already installed, so installing again is the whole
    upgrade (:mod:`harness_memory.installers.reinstall`); the memory root too unless ``root``
    is given (``--memory-root``: the data dir moved with a moved checkout). Fills ``values``
    and ``args``; returns ``(memory root or None, token or None, what was dropped)``: not the
    token recorded for another service (:func:`_unless_recorded_elsewhere`, A-10)."""
    from harness_memory.installers.reinstall import installed_settings

    found = installed_settings(args.harness, home, environ, managed)
    flags = dict(found.flags)
    if not {"url", "project", "agent"} <= flags.keys():
        return root, None, None
    values.update(url=flags["url"], project=flags["project"], agent=flags["agent"])
    if flags.get("remote") == "on":  # a --memory-root given is refused (_remote_state)
        args.remote_url, values["url"] = flags["url"], None
        flags.pop("memory-root", None)
    elif root is not None:
        flags["memory-root"] = root
    elif (moved := _moved(args, environ, found.script, flags.get("memory-root"))) is not None:
        out.write(
            f"{args.harness}: the hooks' {found.script} and memory root {flags['memory-root']} "
            f"are gone, moved with their folder: the memory root is now {moved}\n"
        )
        flags["memory-root"] = moved
    root = flags.get("memory-root")
    if _id_said_not_secret(found.path, flags["url"]):  # as that install was told
        args.url_id_not_secret = True
    if args.timeout is None and "timeout" in flags:
        with contextlib.suppress(ValueError):
            args.timeout = float(flags["timeout"])
    import shlex  # only an install quotes: not every hook process, which imports this module (H-5)

    from memory_core.addresses import shown_url  # its password never said, nor its ids

    ids = not getattr(args, "url_id_not_secret", False)  # ... unless said to be no secret
    shown = " ".join(
        f"--{name} {shlex.quote(shown_url(value, ids=ids) if name == 'url' else value)}"
        for name, value in flags.items()
    )
    out.write(f"{args.harness}: installing again with the settings of {found.path}: {shown}\n")
    if managed is not None:
        return root, found.token, None
    ids_said = bool(getattr(args, "url_id_not_secret", False))
    return root, *_unless_recorded_elsewhere(args.harness, found, flags["url"], ids_said)


def _moved(
    args: argparse.Namespace, environ: Mapping[str, str], script: str | None, root: str | None
) -> str | None:
    """The memory root ``root`` of installed hooks that start ``script`` where it is now that
    their folder (a checkout with ``make run``'s ``.data``) has moved to the ``harness-memory``
    this install writes (:func:`~harness_memory.installers.reinstall.moved_root`), or None."""
    from harness_memory.installers import choose_executable
    from harness_memory.installers.reinstall import moved_root

    if script is None or root is None:
        return None
    program = choose_executable(getattr(args, "executable", None), dict(environ)).command
    return moved_root(script, root, program)


def _read_token_file(path: Path, url: str | None = None, hooks: Hooks | None = None) -> str | None:
    """The token in ``path``, read as a hook of ``hooks`` for the service ``url`` reads its
    ``--token-file`` (:meth:`~harness_memory.settings.HarnessSettings.bearer_token`:
    owner-only, one token, and refused when its service record names another service)."""
    from harness_memory.settings import HarnessSettings

    unset: dict[str, Any] = dict.fromkeys(("token", "project", "agent", "state_dir"))
    where = hooks or Hooks()
    return HarnessSettings(
        **unset,
        url=url,
        token_file=path,
        harness=where.harness,
        managed_hooks=where.managed,
        install_reads=True,
    ).bearer_token()


def _checked(
    args: argparse.Namespace,
    root: str,
    options: Any,
    token: str | None,
    token_source: str | None,
    *,
    dropped: Dropped | None = None,
) -> list[str] | None:
    """Run the install checks (H-7): each error reported, and None when there is one; else the
    warnings, for the install to say after everything else. ``token`` is the one the service is
    asked with: the hooks' own, or for a managed install (which writes none) the environment's,
    for the check only; ``token_source`` where it came from, which a refusal names, and
    ``dropped`` the earlier hooks' token it is not (A-10), which a refusal says why."""
    from harness_memory.installers.checks import Finding, check_root, check_service
    from harness_memory.installers.executable import describe_executable

    findings = [] if options.remote else check_root(root, options.agent)
    problem = describe_executable(options.executable)
    if problem is not None:
        findings.append(
            Finding(
                True,
                f"the hook command {problem}: the hooks, the write guard too, would "
                "not run; give --executable the path of an installed harness-memory",
            )
        )
    managed = options.managed_dir is not None
    findings += check_service(
        options.url,
        options.project,
        options.agent,
        token,
        managed=managed,
        memory_root=None if options.remote else root,
        token_source=token_source,
        remote=options.remote,
    )
    errors = [finding.text for finding in findings if finding.error]
    if errors and token is None and dropped is not None:  # why the earlier token is not sent
        errors.append(dropped.said(dry_run=True, install=_install_asked(args, root, options)))
    if errors:
        for text in [*errors, "nothing was changed"]:
            _logger().error("%s %s: %s", args.command, args.harness, text)
        return None
    return [finding.text for finding in findings]


def _install_asked(args: argparse.Namespace, root: str, options: Any) -> str:
    """The whole install ``args`` and ``options`` ask for, every flag it needs named
    (:meth:`~harness_memory.advice.Hooks.install_with`: the hooks installed before name
    another service, whose settings an install given fewer flags would take again, H-3), with
    ``--timeout``, ``--url-id-not-secret`` and ``--home`` when given. Its URL as it may be
    shown (A-10: never a password; an id only when said to be no secret)."""
    import shlex

    from memory_core.addresses import shown_url

    extra: tuple[str, ...] = ()
    extra += (f"--timeout {options.timeout:g}",) if options.timeout else ()
    extra += ("--url-id-not-secret",) if options.url_id_not_secret else ()
    extra += (f"--home {shlex.quote(args.home)}",) if getattr(args, "home", None) else ()
    managed = options.managed_dir
    return Hooks(args.harness, managed is not None).install_with(
        shown_url(options.url, ids=not options.url_id_not_secret) if options.url else None,
        options.project,
        options.agent,
        root,
        remote=options.remote,
        managed_dir=None if managed is None else str(managed),
        extra=extra,
    )


def _missing_settings(args: argparse.Namespace, missing: list[str], agent: str | None) -> str:
    """The usage error of an install missing settings (``memory-root``, ``url``, …): each flag
    with the variable it falls back to, and, when the memory root is missing, what that folder
    is (a new user beside ``make run`` has never seen the word)."""
    variable = {"memory-root": "ROOT", "url": "URL", "project": "PROJECT", "agent": "AGENT"}
    named = ", ".join(f"--{name} (HARNESS_MEMORY_{variable[name]})" for name in missing)
    said = f"{args.command} {args.harness}: missing {named}"
    if "memory-root" in missing:
        folder = f"agents/{agent or '<agent>'}/agent_state/memory"
        said += (
            f"; the memory root is the agent's folder in the service's data dir, <data dir>/"
            f'{folder} (beside `make run`: "$PWD/.data/{folder}" in the checkout), or use '
            "--remote URL for a service on another machine"
        )
    return said


def _next_command(
    args: argparse.Namespace, root: str | None, values: dict[str, Any], environ: Mapping[str, str]
) -> str:
    """The command that does what this dry run showed (the token left for the user to fill),
    starting with this program as the user can run it again
    (:func:`~harness_memory.as_typed.program_as_typed`)."""
    from harness_memory.as_typed import program_as_typed

    words = [program_as_typed(environ), args.command, args.harness]
    remote = getattr(args, "remote_url", None)  # remote mode's root follows from the ids
    given = {"--memory-root": None if remote else root, **{f"--{k}": v for k, v in values.items()}}
    if remote:
        given["--url"], given["--remote"] = None, values["url"]
    for flag in ("home", "timeout", "executable"):
        given[f"--{flag}"] = getattr(args, flag, None)
    for flag, value in given.items():
        if value is not None and value != "":
            words += [flag, str(value)]
    if getattr(args, "token", None):
        words += ["--token", "YOUR_TOKEN"]
    if getattr(args, "token_file", None):
        words += ["--token-file", args.token_file]
    if args.managed is not None:
        words += ["--managed", *([args.managed] if args.managed else [])]
    if getattr(args, "no_check", False):
        words.append("--no-check")
    import shlex  # as above: an install's, not a hook's

    return shlex.join(words)


REMOTE_STATE_DIR = ".harness-memory"
"""Remote mode's state dir under the home directory (R-1): the local copy, its sync state and
the Session records, shared by every harness's hooks on the machine."""


def _remote_state(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    values: dict[str, Any],
    home: Path,
) -> Path | None:
    """``install --remote URL``: the shared state dir (``values["url"]`` set to URL); None
    without ``--remote``. Usage errors: with ``--managed`` (a copy and its token are one
    user's), with another ``--url`` or with ``--memory-root`` (the copy is the root)."""
    url = getattr(args, "remote_url", None)
    if url is None:
        return None
    if args.managed is not None:
        parser.error("--remote with --managed: a local copy and its token belong to one user")
    if getattr(args, "url", None) and args.url != url:
        parser.error("--remote URL names the service: leave out --url")
    if args.root:
        parser.error(
            "--memory-root with remote mode (--remote, or hooks installed with it): its memory "
            f"root is the local copy under ~/{REMOTE_STATE_DIR}, which follows from --project "
            "and --agent; leave --memory-root out, or, for memory in a data dir on this "
            "machine, install with --url and --memory-root instead of --remote"
        )
    values["url"] = url
    return home / REMOTE_STATE_DIR


def _managed_dir(
    parser: argparse.ArgumentParser, args: argparse.Namespace, environ: Mapping[str, str]
) -> Path | None:
    """The folder of the managed settings for ``--managed [DIR]`` (Claude Code's, Codex
    CLI's requirements; Gemini CLI's system settings file or folder), or None."""
    if args.managed is None:
        return None
    if given := [f for f in ("token", "token_file") if getattr(args, f, None)]:
        from harness_memory.installers.claude_code import EACH_USERS_OWN_FILE

        parser.error(
            f"--managed with --{given[0].replace('_', '-')}: managed settings are read by every "
            f"user of the machine, so a token there is anyone's; {EACH_USERS_OWN_FILE}"
        )
    if args.managed:
        return Path(args.managed).absolute()
    return _default_managed_dir(args.harness, environ)


def _status(args: argparse.Namespace, environ: Mapping[str, str], out: IO[str]) -> int:
    from harness_memory.installers.claude_code import managed_dir
    from harness_memory.installers.managed_record import ManagedFile, managed_file, recorded
    from harness_memory.installers.status import status

    home = Path(args.home or environ.get("HOME") or Path.home()).absolute()
    if args.moved:
        from harness_memory.installers.status import moved_lines

        out.write("".join(f"{line}\n" for line in moved_lines(home, environ)))
        return 0
    managed = Path(args.managed).absolute() if args.managed else managed_dir()
    also = recorded(home)  # managed installs this account made elsewhere
    if args.managed:
        given = [ManagedFile(h, managed_file(h, managed)) for h in ("codex", "gemini")]
        also += [file for file in given if file.path.exists()]
    try:
        here: Path | None = Path.cwd()
    except OSError:  # a folder removed under it
        here = None
    from harness_memory.installers.codex_layers import system_dir

    codex_managed = Path(args.managed).absolute() if args.managed else system_dir()
    lines, healthy = status(home, environ, managed, codex_managed, also=also, workspace=here)
    out.write("".join(f"{line}\n" for line in lines))
    return 0 if healthy else 1
