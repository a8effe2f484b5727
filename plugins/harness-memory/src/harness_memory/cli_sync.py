"""``harness-memory sync``: bring remote mode's local copy up to date and send its changes (R-1).

::

    harness-memory sync [--workspace DIR | --every-scope] [--format text|json] [setting flags]
    harness-memory sync --status [setting flags]

``sync`` syncs the user scope and the Workspace scope of ``DIR`` (default: the working
directory; with ``--every-scope``, every scope the copy holds, none made for the working
directory: what waits to go back anywhere in the copy, as an uninstall names it) with the
service, as the Session-start hook does in remote mode; it works whether or not ``--remote
on`` is set (the copy is the one under the state dir; given no URL, project, agent or state
dir, those of the installed remote-mode hooks, :mod:`harness_memory.cli`'s
``_with_installed_remote``). ``--status`` syncs nothing and asks the service nothing: per scope
of the copy, the last successful sync, whether changes wait to go back, the last error, and
what the service's merge of this machine's changes did (R-2), and of another machine's that
reached this copy (``… (merged when desk synced)``), as the last sync that had any outcome read
it. A scope that fails (the service down, its local copy not writable) is said on its line with
what to do, the other scopes are synced all the same, and a last line names the ones that
failed. Exit status 0 when every scope synced (``--status``: when the copy's state could be read; a
sync folder that cannot be read is said so, never "no scope synced"), 1 otherwise, 2 for a
usage error (a missing setting, a token file that cannot be read).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING

from harness_memory.settings import HarnessSettings, MissingSettingsError, TokenFileError

if TYPE_CHECKING:
    from harness_memory.remote import RemoteCopy, ScopeSync, SyncResult

__all__ = ["SYNC_HELP", "add_sync_flags", "copy_status", "remote_status", "run_sync"]

SYNC_HELP = "remote mode: sync the local copy of a Session's scopes with the service"


def add_sync_flags(sync: argparse.ArgumentParser, add_setting_flags: Callable[..., None]) -> None:
    """Add the ``sync`` command's flags to its parser; ``add_setting_flags(parser, hook=True)``
    adds the setting flags every command shares."""
    sync.description = (
        f"{SYNC_HELP}. Given no URL, project, agent or state dir (flag or variable), it takes "
        "them, and the token unless one is given, from the hooks `harness-memory install "
        "HARNESS --remote URL` wrote, and syncs the copy they use."
    )
    add_setting_flags(sync, hook=True)
    which = sync.add_mutually_exclusive_group()
    which.add_argument("--workspace", default=None, help="the Workspace directory (default: cwd)")
    which.add_argument(
        "--every-scope",
        action="store_true",
        help="sync the user scope and every scope the local copy holds, wherever it is run "
        "(what waits to go back in any of them), making none for the working directory",
    )
    sync.add_argument(
        "--status",
        action="store_true",
        help="sync nothing: per scope, the last sync, what waits to go back, merge outcomes",
    )
    sync.add_argument(
        "--format",
        choices=("json", "text"),
        default="text",
        help="text: a line per scope synced; json: a list of one object per scope "
        "(--status answers in text)",
    )


def run_sync(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    settings: HarnessSettings,
    out: IO[str],
) -> int:
    """Carry out ``sync`` (see the module); the exit status."""
    from memory_core.errors import InvalidId

    from harness_memory.remote import RemoteCopy, RemoteError

    try:
        token = None if args.status else settings.bearer_token()
        copy = RemoteCopy.configured(settings, token=token, looks_only=args.status)
    except TokenFileError as error:
        parser.error(str(error))
    except MissingSettingsError as error:
        flags = ", ".join(
            "--" + name.removeprefix("HARNESS_MEMORY_").lower() for name in error.names
        )
        parser.error(
            f"missing {', '.join(error.names)} ({flags}); after `harness-memory install HARNESS "
            "--remote URL …` they come from the installed hooks"
        )
    except InvalidId as error:
        parser.error(str(error))
    if args.status:
        lines, known = remote_status(copy)
        out.write("".join(f"{line}\n" for line in lines))
        return 0 if known else 1
    try:
        if args.every_scope:
            results = copy.sync_every_scope()
        else:
            results = copy.sync(args.workspace or str(Path.cwd()), each=True)
    except RemoteError as error:
        out.write(f"not synced: {error}\n")
        return 1
    if args.format == "json":
        out.write(json.dumps([result.as_json() for result in results], indent=2) + "\n")
    else:
        for result in results:
            out.write(f"{result.scope}: {_said(result)}\n")
            out.write("".join(f"  merged: {line}\n" for line in result.outcomes))
        out.write(_failed_said(results))
    return 0 if all(result.ok for result in results) else 1


def _failed_said(results: list[SyncResult]) -> str:
    """The last line of a text ``sync`` in which a scope failed: which did, of how many, that
    the others synced, and to run it again once each is fixed; nothing when none failed."""
    failed = [result.scope for result in results if not result.ok]
    if not failed:
        return ""
    synced = len(results) - len(failed)
    return (
        f"not synced: {len(failed)} of {len(results)} scopes ({', '.join(failed)}): its line "
        f"above says why and what to do; {synced} synced; run the same sync again once fixed\n"
    )


def _said(result: SyncResult) -> str:
    """One scope's line of ``harness-memory sync``. A sync that failed says whether changes
    wait to go back as ``sync --status`` does (``waiting``): "changes wait" for a copy with
    nothing to send contradicted the "nothing waits" of the status beside it."""
    if not result.ok:
        after = (
            "changes wait for the next sync"
            if result.waiting
            else "nothing waits to go back; the next sync brings what the service holds"
        )
        return f"not synced ({result.error}); {after}"
    if result.missing and result.sent:
        return (
            f"sent {_files(result.sent_files)}, but the service showed no version of this scope "
            "after taking them; the next sync brings what it keeps"
        )
    if result.missing:
        return "nothing saved yet, here or on the service"
    return "synced: " + _what_moved(result)


def _what_moved(result: SyncResult) -> str:
    """What a sync that reached the service did, in one line (R-1, R-2): ``sent N files``,
    ``received M files``, ``kept <name> under its cut name <cut>`` for each file sent that the
    service keeps under a shorter name (no change made elsewhere: no join), ``joined with
    changes made elsewhere`` when it did both (the service's merge took this machine's changes
    beside others', which the copy now holds),
    or ``nothing to do``; and when a file was written while it ran, that it waits. A join
    with no conflict has no ``merged:`` line, so this line is all that tells of it."""
    from memory_core.shown_names import shown_name

    done: list[str] = []
    if result.sent:
        done.append(f"sent {_files(result.sent_files)}")
    if result.received_files:
        done.append(f"received {_files(result.received_files)}")
    done += [
        f"kept {shown_name(old)[:120]} under its cut name {shown_name(cut)} (the service's disk "
        "takes no longer names)"
        for old, cut in result.cuts.items()
    ]
    if result.joined:
        done.append("joined with changes made elsewhere")
    said = ", ".join(done) or "nothing to do: nothing to send, nothing new on the service"
    if result.waiting:
        said += "; a change written during the sync waits for the next one"
    return said


def _files(count: int) -> str:
    return f"{count} file" if count == 1 else f"{count} files"


def remote_status(copy: RemoteCopy, *, url_whole: bool = False) -> tuple[list[str], bool]:
    """Per scope of ``copy``: last sync, changes waiting, last error, and the merge outcomes
    (R-2) of its last sync that had any, under a line naming this machine by name and the
    first 6 hex digits of its id (``vm #0c2c16``, :func:`this_machine`: the Memory tab's start
    where two machines share a name begins with them); one line when no scope was synced yet.
    And whether the copy's state could be read: False when its sync folder or state file
    cannot be (the one line says so, never "no scope synced"; ``sync --status`` exits 1).
    ``url_whole``: the service URL shown with the ids in its path (the install was told they
    are no secret, A-10); else they are ``***``."""
    lines, scopes = copy_status(copy, url_whole=url_whole)
    return lines, scopes is not None


def copy_status(
    copy: RemoteCopy, *, url_whole: bool = False
) -> tuple[list[str], list[ScopeSync] | None]:
    """:func:`remote_status`'s lines (``url_whole`` as there), and the scopes they tell of
    (None when the copy's state cannot be read: what waits to go back is not known)."""
    from harness_memory.remote import CopyUnreadable

    try:
        scopes = copy.status()
    except CopyUnreadable as error:
        return [f"remote copy {copy.memory_root}: its state cannot be read: {error}"], None
    if not scopes:
        return [f"remote copy {copy.memory_root}: no scope synced yet"], scopes
    from memory_core.addresses import shown_url

    here = f"this machine: {this_machine(copy.remote_dir)}"
    shown = shown_url(copy.url, ids=not url_whole)
    lines = [f"remote copy {copy.memory_root} of {shown} ({here}):"]
    for scope in scopes:
        said = f"  {scope.scope}: last sync {scope.last_sync or 'never'}"
        said += "; changes wait to go back" if scope.waiting else "; nothing waits"
        if scope.last_error:
            said += f"; last error: {scope.last_error}"
        lines.append(said)
        lines += [f"    merged: {line}" for line in scope.outcomes]
    return lines, scopes


def this_machine(remote_dir: Path) -> str:
    """This machine as the status names it, read and never made or written (a diagnosis writes
    nothing): ``vm #0c2c16`` (its host name and the first 6 hex digits of its id, which the
    Memory tab adds where two machines share a name, R-1), ``vm; no machine id yet`` before
    its first sync, ``vm; machine id unreadable: REASON`` when ``machine-id`` cannot be read."""
    from harness_memory.remote import host_name, kept_machine_id

    name = host_name()
    try:
        machine_id = kept_machine_id(remote_dir)
    except OSError as error:
        said = f"machine id unreadable: {error.strerror or error}"
    else:
        if machine_id is not None:
            return f"{name or machine_id} #{machine_id[:6]}"
        said = "no machine id yet"
    return f"{name}; {said}" if name else said
