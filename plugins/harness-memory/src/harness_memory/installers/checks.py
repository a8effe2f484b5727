"""What ``install`` checks before it writes anything (H-7): the memory root, the URL, the ids.

- The memory root must be an absolute path to an existing folder shaped
  ``<app data dir>/agents/<agent>/agent_state/memory`` for the agent being installed: the guard
  protects that folder, the offline fallback (H-4) reads the app data dir from its shape, and
  Gemini CLI does not even start with a missing include directory. A root under ``/agents/`` is
  the mark of an unset ``$MEMORY_API_DATA_DIR`` in the shell that typed it, and is said so.
- The URL must be ``http(s)://host[:port]``. The service is asked for the agent's config
  (``GET /api/projects/{project}/agents/{agent}/config``, A-2): a 404 (unknown project or agent)
  or a refused token is an error; no answer is a warning only, since a service may
  legitimately be down while its hooks are installed (they fail open, P-2). A token bound for
  another machine over plain ``http://`` is a warning too: it would cross the wire in the clear
  (docs/security.md, "Transport encryption"); the way out is TLS in front and its ``https://``.

Each finding is a :class:`Finding`; errors stop the install before any file is touched.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from memory_core.errors import InvalidId
from memory_core.layout import app_data_dir_of

from harness_memory.client import MemoryClient
from harness_memory.errors import (
    BadServiceAnswerError,
    MemoryClientError,
    ServiceRejectedError,
    ServiceUnreachableError,
)
from harness_memory.installers.claude_code import EACH_USERS_OWN_FILE

__all__ = ["CHECK_TIMEOUT_S", "Finding", "check_root", "check_service"]

CHECK_TIMEOUT_S = 3.0
"""Seconds the install waits for the service's answer (a hang guard, not a speed claim)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One result of a check: ``error`` (the install stops) or a warning, and what to say."""

    error: bool
    text: str


def check_root(raw: str, agent: str) -> list[Finding]:
    """Findings for the memory root as given (``raw``, before any path is made of it)."""
    path = Path(raw)
    if not path.is_absolute():
        return [Finding(True, f"the memory root {raw!r} is relative: give its absolute path")]
    unset = (
        " — it starts at /agents/: was $MEMORY_API_DATA_DIR empty in the shell that expanded it?"
        if PurePosixPath(raw).parts[1:2] == ("agents",)
        else ""
    )
    if not path.is_dir():
        what = "is not a folder" if path.exists() else "does not exist"
        return [
            Finding(
                True,
                f"the memory root {raw} {what}{unset}; it is "
                "<app data dir>/agents/<agent>/agent_state/memory, made by "
                "`memory-api agent create`",
            )
        ]
    findings = []
    if app_data_dir_of(path.absolute()) is None:
        inside = path / "agents" / agent / "agent_state" / "memory"
        hint = (
            f"; the app data dir given? its root for {agent} is {inside}" if inside.is_dir() else ""
        )
        findings.append(
            Finding(
                True,
                f"the memory root {raw} is not shaped "
                f"<app data dir>/agents/<agent>/agent_state/memory{hint}",
            )
        )
    elif path.absolute().parts[-3] != agent:
        findings.append(
            Finding(
                True,
                f"the memory root {raw} is agent {path.absolute().parts[-3]}'s, not {agent}'s",
            )
        )
    return findings


def check_service(
    url: str,
    project: str,
    agent: str,
    token: str | None,
    *,
    managed: bool = False,
    timeout: float = CHECK_TIMEOUT_S,
) -> list[Finding]:
    """Findings for the service at ``url``: is it a URL, does it answer, does it know the
    agent, does it take the token — asked through the plugin's one client
    (:meth:`~harness_memory.client.MemoryClient.agent_config`). A ``managed`` install carries no
    token (each user gives theirs), so a service asking for one is a warning there. Never
    raises."""
    try:
        client = MemoryClient(url, token=token, timeout=timeout)
    except ServiceUnreachableError:
        return [Finding(True, f"the service URL {url!r} is not http(s)://host[:port]")]
    clear = [] if token is None else _in_the_clear(url)
    return clear + _asked(client, url, project, agent, token, managed=managed)


def _in_the_clear(url: str) -> list[Finding]:
    """A warning when ``url`` sends the token to another machine over plain HTTP."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if parts.scheme != "http" or loopback:
        return []
    return [
        Finding(
            False,
            f"the token goes to {url} in the clear (plain http to {host}, not this machine): "
            "anyone on the way can read it and use it; put TLS in front of the service "
            "(e.g. caddy reverse-proxy) and install again with its https:// URL",
        )
    ]


def _asked(
    client: MemoryClient, url: str, project: str, agent: str, token: str | None, *, managed: bool
) -> list[Finding]:
    """What asking the service for the agent's config says (see :func:`check_service`)."""
    try:
        client.agent_config(project, agent)
    except InvalidId as error:
        return [Finding(True, f"the service at {url} cannot be asked: {error}")]
    except ServiceRejectedError as error:
        if managed and token is None and error.status == 401:
            return [
                Finding(
                    False,
                    f"the service at {url} needs a bearer token: {EACH_USERS_OWN_FILE}; "
                    "the project and agent could not be checked without one",
                )
            ]
        return [_rejected(error.status, f": {error.detail}", url, project, agent)]
    except BadServiceAnswerError as error:
        return [Finding(False, f"the service at {url} is not the memory service? {error}")]
    except MemoryClientError as error:
        return [
            Finding(
                False,
                f"the service at {url} does not answer ({error}); the hooks are installed "
                "anyway and fail open until it does (Sessions start without memory, or with "
                "it read from the files on this machine) — check the URL if it is up",
            )
        ]
    return []


def _rejected(status: int, detail: str, url: str, project: str, agent: str) -> Finding:
    if status == 404:
        return Finding(
            True,
            f"the service at {url} knows no agent {agent!r} in project {project!r} "
            f"({status}{detail}); create it with `memory-api agent create --project {project} "
            f"--id {agent} --name NAME`, or fix --project/--agent",
        )
    if status in (401, 403):
        return Finding(
            True,
            f"the service at {url} refused the token ({status}{detail}); give yours in "
            "HARNESS_MEMORY_TOKEN (or --token, which every local user sees in ps) and install "
            "again",
        )
    if 400 <= status < 500:
        return Finding(True, f"the service at {url} rejected the ids ({status}{detail})")
    return Finding(
        False, f"the service at {url} answered {status}{detail}; the hooks fail open until it works"
    )
