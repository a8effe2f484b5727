"""What ``install`` checks before it writes anything (H-7): the memory root, the URL, the ids.

- The memory root must be an absolute path to an existing folder shaped
  ``<data dir>/agents/<agent>/agent_state/memory`` for the agent being installed: the guard
  protects that folder, the offline fallback (H-4) reads the data dir from its shape, and
  Gemini CLI does not even start with a missing include directory. A root under ``/agents/`` is
  the mark of an unset ``$MEMORY_API_DATA_DIR`` in the shell that typed it, and is said so.
- The URL must be ``http(s)://host[:port]``. The service is asked for the agent's config
  (``GET /api/projects/{project}/agents/{agent}/config``, A-2): a 404 (unknown project or agent),
  a refused token (named with where it came from) or a service that needs a token when none was
  given (said so, with the ways to give one) is an error; no answer is a warning only, since a
  service may legitimately be down while its hooks are installed (they fail open, P-2). A token
  bound for another machine over plain ``http://`` is a warning too: it would cross the wire in
  the clear (docs/security.md, "Transport encryption"); the way out is TLS in front and its
  ``https://``. A token given to a service that asks for none (no tokens configured: open, on
  loopback only, A-10) is a warning: that service takes any text, so the token was not checked
  (the README's placeholder ``HARNESS_MEMORY_TOKEN=...`` went into the token file unsaid), and
  once the data dir holds tokens one it does not take leaves every Session without memory.
- A 404 says why where it can (:func:`explain_missing_agent`): the agent is in another project
  (the service's project lists, which name only projects the token reaches, or the memory
  root's ``agents/<agent>/agent.json``), or the token does not reach the project (A-10 answers
  a project outside a token's reach like a missing one); only else is the agent to be created.

Each finding is a :class:`Finding`; errors stop the install before any file is touched.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from memory_core import json_text
from memory_core.addresses import is_loopback, shown_url
from memory_core.errors import InvalidId
from memory_core.keys import check_project_id
from memory_core.layout import agent_dir, app_data_dir_of

from harness_memory.as_typed import WHERE_THE_SERVICE_RUNS
from harness_memory.client import MemoryClient
from harness_memory.errors import (
    BadServiceAnswerError,
    MemoryClientError,
    ServiceRejectedError,
    ServiceUnreachableError,
)
from harness_memory.installers.claude_code import EACH_USERS_OWN_FILE

__all__ = [
    "CHECK_TIMEOUT_S",
    "Finding",
    "check_root",
    "check_service",
    "explain_missing_agent",
    "local_project_of",
]

CHECK_TIMEOUT_S = 3.0
"""Seconds the install waits for the service's answer (a hang guard, not a speed claim)."""

_AGENT_JSON_CAP = 64 * 1024
"""The most of an ``agent.json`` read to learn its project: the file is a few hundred bytes."""


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
        return [Finding(True, f"the memory root {raw} {what}{unset}; {where_the_root_is()}")]
    findings = []
    if app_data_dir_of(path.absolute()) is None:
        inside = path / "agents" / agent / "agent_state" / "memory"
        hint = f"; the data dir given? its root for {agent} is {inside}" if inside.is_dir() else ""
        findings.append(
            Finding(
                True,
                f"the memory root {raw} is not shaped "
                f"<data dir>/agents/<agent>/agent_state/memory{hint}",
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


def where_the_root_is() -> str:
    """Where an agent's memory root is and how to name it, for a message about a root that
    is missing (never made, or its data dir moved, as ``make run``'s ``.data`` does with a moved
    checkout; the hooks of an earlier install keep the old path)."""
    return (
        "it is <data dir>/agents/<agent>/agent_state/memory, where <data dir> is the one the "
        "service logs when it starts (`data dir: …`; it moves with a moved checkout's .data) "
        "and `memory-api agent create` makes it for a new agent: give it with --memory-root"
    )


def check_service(
    url: str,
    project: str,
    agent: str,
    token: str | None,
    *,
    managed: bool = False,
    timeout: float = CHECK_TIMEOUT_S,
    memory_root: str | None = None,
    token_source: str | None = None,
    remote: bool = False,
) -> list[Finding]:
    """Findings for the service at ``url``: is it a URL, does it answer, does it know the
    agent, does it take the token — asked through the plugin's one client
    (:meth:`~harness_memory.client.MemoryClient.agent_config`). A ``managed`` install carries no
    token (each user gives theirs), so a service asking for one is a warning there. A
    ``remote`` install (``--remote URL``) keeps a local copy, which a service that does not
    answer leaves its Sessions with, and is given its URL by ``--remote``, never ``--url``.
    ``memory_root`` (the install's, when it has one) is where a 404 looks for the project the
    agent is in when the service cannot say (:func:`explain_missing_agent`); ``token_source``
    where ``token`` came from (``--token``, ``HARNESS_MEMORY_TOKEN``, ``--token-file PATH`` …),
    which a refusal names. Never raises."""
    try:
        client = MemoryClient(url, token=token, timeout=timeout)
    except ServiceUnreachableError as error:
        return [Finding(True, f"the service URL is not usable: {error}")]
    clear = [] if token is None else _in_the_clear(url)
    asked = _asked(
        client,
        shown_url(url),
        (project, agent),
        token,
        managed=managed,
        memory_root=memory_root,
        token_source=token_source,
        remote=remote,
    )
    return clear + asked


def _only_this_machine(host: str) -> bool:
    """Whether every address ``host`` resolves to is loopback, as the connection will resolve
    it: ``localhost``, ``127.1``, ``[0:0::1]``, ``ip6-localhost``, a name ``/etc/hosts`` gives
    only ``127.x``. Judged by the spelling, ``127.1`` and ``ip6-localhost`` were "not this
    machine". A host that does not resolve is not known to be this machine."""
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    texts = [str(sockaddr[0]).partition("%")[0] for *_, sockaddr in found]
    return bool(texts) and all(is_loopback(ipaddress.ip_address(text)) for text in texts)


def _in_the_clear(url: str) -> list[Finding]:
    """A warning when ``url`` sends the token to another machine over plain HTTP."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme != "http" or _only_this_machine(host):
        return []
    return [
        Finding(
            False,
            f"the token goes to {shown_url(url)} in the clear (plain http to {host}, not this "
            "machine): anyone on the way can read it and use it; put TLS in front of the "
            "service (e.g. caddy reverse-proxy) and install again with its https:// URL",
        )
    ]


def _asked(
    client: MemoryClient,
    url: str,
    ids: tuple[str, str],
    token: str | None,
    *,
    managed: bool,
    memory_root: str | None,
    token_source: str | None,
    remote: bool = False,
) -> list[Finding]:
    """What asking the service for the config of ``ids`` (project, agent) says (see
    :func:`check_service`)."""
    project, agent = ids
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
                    "the project and agent could not be checked without one (yours in "
                    "HARNESS_MEMORY_TOKEN checks them; a managed install never keeps it)",
                )
            ]
        if token is None and error.status == 401:
            return [no_token(url, project, error.detail, remote=remote)]
        if error.status == 404:
            said = explain_missing_agent(
                client, project, agent, memory_root=memory_root, remote=remote
            )
            return [Finding(True, f"the service at {url} answered 404 ({error.detail}): {said}")]
        return [_rejected(error.status, f": {error.detail}", url, token_source)]
    except BadServiceAnswerError as error:
        return [Finding(False, f"the service at {url} is not the memory service? {error}")]
    except MemoryClientError as error:
        return [_no_answer(url, error, remote=remote)]
    if token is not None and managed:
        return [_checked_for_a_managed_install(client, ids, url, token_source)]
    if token is not None and _asks_for_none(client, ids):
        source = f"from {token_source} " if token_source else ""
        return [
            Finding(
                False,
                f"the service at {url} has no tokens configured and takes any, so the token "
                f"{source}was not checked: the hooks keep it, and once that service's data dir "
                "holds tokens, a token it does not take leaves every Session without memory; "
                "`harness-memory status` checks it then",
            )
        ]
    return []


def _no_answer(url: str, error: MemoryClientError, *, remote: bool) -> Finding:
    """The warning of an install whose service at ``url`` does not answer: the install goes
    ahead (the service may be down meanwhile), saying what its Sessions get until it answers
    and which flag gives another URL (``--remote`` for a remote install, which refuses
    ``--url``: it was told "install again with the right --url")."""
    if remote:
        meanwhile = (
            f"its hooks sync with no service until one answers at {url} — every Session starts "
            "from this machine's local copy as it is, and its writes wait there for the next "
            "sync; start the service, or install again with the right --remote URL"
        )
    else:
        meanwhile = (
            f"its hooks reach no memory until a service answers at {url} — every Session "
            "starts without it, or with the memory files on this machine read directly (the "
            "hooks fail open); start the service, or install again with the right --url"
        )
    return Finding(
        False,
        f"the service at {url} does not answer ({error}): the install goes ahead, but "
        f"{meanwhile}; `harness-memory status` then checks it",
    )


def _checked_for_a_managed_install(
    client: MemoryClient, ids: tuple[str, str], url: str, token_source: str | None
) -> Finding:
    """The warning of a managed install whose check the service answered to the token from
    ``token_source`` (the environment's): the check passed, but the managed hooks never read
    that token, so each user still needs their own (H-7). A user who exported the token as the
    README says was told "could not be checked without one", and the ids went unchecked."""
    source = token_source or "the environment"
    if _asks_for_none(client, ids):
        return Finding(
            False,
            f"the service at {url} has no tokens configured, so the token from {source} was "
            f"not needed and is not kept: once that service's data dir holds tokens, "
            f"{EACH_USERS_OWN_FILE}",
        )
    return Finding(
        False,
        f"the service at {url} took the token from {source} for this check only: managed "
        f"settings are every user's, so the hooks never read it; {EACH_USERS_OWN_FILE}",
    )


def _asks_for_none(client: MemoryClient, ids: tuple[str, str]) -> bool:
    """Whether the service of ``client``, which just answered the agent's config of ``ids``
    (project, agent) to a token, answers it without one too: no tokens configured (open, on
    loopback only, A-10), where any token is taken. False on any error (a refusal included)."""
    try:
        MemoryClient(client.base_url, timeout=client.timeout).agent_config(*ids)
    except (MemoryClientError, InvalidId):
        return False
    return True


def explain_missing_agent(
    client: MemoryClient,
    project: str,
    agent: str,
    *,
    memory_root: str | None = None,
    remote: bool = False,
) -> str:
    """Why the service answered 404 for ``agent`` in ``project``, and what to do: one sentence.

    In this order: the agent is in another project that the token reaches (the service's
    project and agent lists, which name no project outside the token's reach, A-10); the
    agent is in another project by the ``agent.json`` beside ``memory_root`` (a file on this
    machine, which the user reads anyway); the token's reach (``GET /api/me``) leaves
    ``project`` out, or may (a service that cannot say); else the agent is not there, and is
    to be created (on the service's machine for a ``remote`` install). Never raises: a
    question the service does not answer is skipped.
    """
    elsewhere = _reached_project_of(client, agent, project)
    if elsewhere is None and memory_root is not None:
        found = local_project_of(memory_root, agent)
        elsewhere = found if found != project else None
    if elsewhere is not None:
        return (
            f"agent {agent!r} is in project {elsewhere!r}, not {project!r}: "
            f"give --project {elsewhere}"
        )
    try:
        reach: list[str] | None = client.me().projects  # None: every project
    except MemoryClientError:  # a service that cannot say (an older one, an error)
        if client.sends_token:
            return (
                f"if project {project!r} exists, your token may not reach it: a token limited "
                "to some projects is answered so for every other (give one that reaches it); "
                f"else {_create_it(project, agent, remote=remote, memory_root=memory_root)}"
            )
        reach = None
    if reach is not None and project not in reach:
        reached = ", ".join(repr(p) for p in reach) or "none"
        return (
            f"the token reaches only the projects {reached}, and the service answers every "
            f"other as missing (A-10): if project {project!r} is the one, give a token that "
            "reaches it, else fix --project"
        )
    return (
        f"the service holds no agent {agent!r} in project {project!r}; "
        f"{_create_it(project, agent, remote=remote, memory_root=memory_root)}"
    )


def _create_it(project: str, agent: str, *, remote: bool, memory_root: str | None) -> str:
    """The way out when the agent is not there: create it, or fix the ids. The command names
    the data dir (``agent create`` without ``--data-dir`` or ``MEMORY_API_DATA_DIR``, which
    ``sudo`` drops for a managed install, writes nowhere): the one ``memory_root`` lies in,
    else ``DIR``, said where to find it. A ``remote`` install's service runs on another
    machine: the command is to be run there, named bare
    (:data:`~harness_memory.as_typed.WHERE_THE_SERVICE_RUNS`), never this machine's
    ``memory-api``, which would make the agent in this machine's data dir."""
    import shlex  # an install's and status's, never a hook's

    found = None if remote or memory_root is None else app_data_dir_of(Path(memory_root).absolute())
    data_dir = "DIR" if found is None else shlex.quote(str(found))
    create = (
        f"`memory-api agent create --data-dir {data_dir} --project {project} --id {agent} "
        "--name NAME`"
    )
    if found is None:
        create += " (DIR: the data dir the service logs as `data dir: …` when it starts)"
    how = f"{WHERE_THE_SERVICE_RUNS}{create}" if remote else f"with {create}"
    return (
        f"create it {how}, or fix --project/--agent (agent ids are unique across projects: "
        "when `agent create` says the id is taken, the agent is in a project this token does "
        "not reach)"
    )


def _reached_project_of(client: MemoryClient, agent: str, project: str) -> str | None:
    """The project other than ``project`` that holds ``agent``, among those the token
    reaches (the service lists no other), or None."""
    try:
        projects = client.projects().projects
        for other in projects:
            if other != project and agent in {a.id for a in client.agents(other).agents}:
                return other
    except (MemoryClientError, InvalidId):
        return None
    return None


def local_project_of(memory_root: str, agent: str) -> str | None:
    """The project that ``<data dir>/agents/<agent>/agent.json`` names, for a
    ``memory_root`` shaped ``<data dir>/agents/<some agent>/agent_state/memory``; None when
    the root has not that shape or the file is missing, unreadable, too large or names no
    valid project id. Never raises."""
    data_dir = app_data_dir_of(Path(memory_root).absolute())
    if data_dir is None:
        return None
    try:
        path = agent_dir(data_dir, agent) / "agent.json"
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None  # a FIFO or a device is no agent's settings
            raw = handle.read(_AGENT_JSON_CAP + 1)
        parsed = json_text.loads(raw) if len(raw) <= _AGENT_JSON_CAP else None
        project = parsed.get("project") if isinstance(parsed, dict) else None
        return check_project_id(project) if isinstance(project, str) else None
    except (OSError, ValueError, InvalidId):
        return None


_WAYS_TO_GIVE_ONE = (
    "with --token-file PATH (a file only you can read, chmod 600) or in "
    "HARNESS_MEMORY_TOKEN (--token shows it to every local user in ps), and install again"
)
"""The ways ``install`` takes a bearer token, as its messages say them."""


def no_token(url: str, project: str, detail: str, *, remote: bool) -> Finding:
    """The error for a service that asks for a token when the install was given none, with the
    command that makes one as it works: ``token create`` names its data dir or does nothing.
    Its ``memory-api`` is this machine's (named as it sits beside the program,
    :func:`~harness_memory.as_typed.as_typed`), but a ``remote`` install's, to be run
    :data:`~harness_memory.as_typed.WHERE_THE_SERVICE_RUNS`, named bare."""
    made = "Make one " + (WHERE_THE_SERVICE_RUNS if remote else "in its data dir: ")
    return Finding(
        True,
        f"the service at {url} needs a bearer token and none was given (401: {detail}); "
        f"give it {_WAYS_TO_GIVE_ONE}. {made}`(umask 077; "
        f"memory-api token create --data-dir DIR --name NAME --project {project} > FILE)` "
        "writes it to FILE (DIR: the data dir the service logs as `data dir: …` when it "
        "starts; beside `make run`, .data in its checkout)",
    )


def _rejected(status: int, detail: str, url: str, token_source: str | None = None) -> Finding:
    if status in (401, 403):
        source = f" from {token_source}" if token_source else ""
        return Finding(
            True,
            f"the service at {url} refused the token{source} ({status}{detail}): it is wrong "
            f"or was revoked; give one it takes {_WAYS_TO_GIVE_ONE}",
        )
    if 400 <= status < 500:
        return Finding(True, f"the service at {url} rejected the ids ({status}{detail})")
    return Finding(
        False, f"the service at {url} answered {status}{detail}; the hooks fail open until it works"
    )
