"""``harness-memory sync``: bring remote mode's local copy up to date and send its changes (R-1).

::

    harness-memory sync [--workspace DIR] [--format text|json] [setting flags]
    harness-memory sync --status [setting flags]

``sync`` syncs the user scope and the Workspace scope of ``DIR`` (default: the working
directory) with the service, as the Session-start, post-write and Session-end hooks do in
remote mode; it works whether or not ``--remote on`` is set. ``--status`` syncs nothing: per
scope of the copy, the last successful sync, whether changes wait to go back, the last error,
and what the service's merge of this machine's changes did (R-2), as the last sync that had
any outcome read them from the service's versions. Exit status 0 when every scope synced
(``--status``: always), 1 otherwise, 2 for a usage error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from harness_memory.remote import RemoteCopy, RemoteError
from harness_memory.settings import HarnessSettings

__all__ = ["remote_status_lines", "run_sync"]


def _copy(settings: HarnessSettings, url: str, project: str, agent: str) -> RemoteCopy:
    return RemoteCopy(
        url=url,
        token=settings.token,
        project=project,
        agent=agent,
        state_dir=settings.state_dir,
        timeout=settings.timeout,
    )


def run_sync(
    settings: HarnessSettings,
    ids: tuple[str, str, str],
    *,
    workspace: str | None,
    status: bool,
    output_format: str,
    out: IO[str],
) -> int:
    """Carry out ``sync`` (see the module); the exit status. ``ids`` is (URL, project, agent)."""
    copy = _copy(settings, *ids)
    if status:
        out.write("".join(f"{line}\n" for line in remote_status_lines(copy)))
        return 0
    try:
        results = copy.sync(workspace or str(Path.cwd()))
    except RemoteError as error:
        out.write(f"not synced: {error}\n")
        return 1
    if output_format == "json":
        out.write(json.dumps([result.as_json() for result in results], indent=2) + "\n")
    else:
        for result in results:
            out.write(f"{result.scope}: {_said(result.as_json())}\n")
            out.write("".join(f"  merged: {line}\n" for line in result.outcomes))
    return 0 if all(result.ok for result in results) else 1


def _said(result: dict[str, Any]) -> str:
    if not result["ok"]:
        return f"not synced ({result['error']}); changes wait for the next sync"
    if result["missing"]:
        return "nothing saved yet, here or on the service"
    return "synced, changes sent" if result["sent"] else "synced"


def remote_status_lines(copy: RemoteCopy) -> list[str]:
    """Per scope of ``copy``: last sync, changes waiting, last error, and the merge outcomes
    (R-2) of its last sync that had any."""
    scopes = copy.status()
    if not scopes:
        return [f"remote copy {copy.memory_root}: no scope synced yet"]
    lines = [f"remote copy {copy.memory_root} of {copy.url}:"]
    for scope in scopes:
        said = f"  {scope.scope}: last sync {scope.last_sync or 'never'}"
        said += "; changes wait to go back" if scope.waiting else "; nothing waits"
        if scope.last_error:
            said += f"; last error: {scope.last_error}"
        lines.append(said)
        lines += [f"    merged: {line}" for line in scope.outcomes]
    return lines
