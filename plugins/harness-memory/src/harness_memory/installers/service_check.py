"""``harness-memory status`` asks the service what ``install`` asked it (H-7): does it take the
token the installed hooks send, does it hold their agent.

An install with ``--no-check``, or a token revoked since, leaves hooks whose every Session fails
open with a 401 (memory off, P-2) while their settings look fine. So, for each service, project,
agent and token the installed hooks use, the token is read as the hooks read it
(:func:`~harness_memory.settings.load_settings` on the hook's own flags, then
:meth:`~harness_memory.settings.HarnessSettings.bearer_token`) and the agent's config is asked
for (``GET …/config``, A-2), as :func:`~harness_memory.installers.checks.check_service` does.

- the service takes the token and holds the agent: one line saying so; a service that asks
  for no token at all (no tokens configured: open, on loopback only, A-10) is said as that,
  not as taking the hooks' token (asked again without it when the hooks send one);
- a refused token (401/403), a token file that cannot be read, an agent the service does not
  hold (404, explained by :func:`~harness_memory.installers.checks.explain_missing_agent`): a
  PROBLEM line, and ``status`` exits 1; a refusal names the command that gives each refused
  harness's hooks a token (``harness-memory install codex`` again, ``harness-memory token set``
  for a managed install);
- no answer (down, slow, no memory service there): said, and not a failure — the token could not
  be checked, and until the service answers Sessions start without it (:data:`_MEANWHILE`), or
  from this machine's copy in remote mode, where a refused token does the same (R-2).

Hooks of an install from before ``--flags-only`` read ``HARNESS_MEMORY_*`` variables, and Claude
Code gives them its settings' ``env`` over the user's environment: their token is read from
there too (``env`` of :func:`service_uses`), and the line says that it belongs in the ``0600``
token file, where installing again moves it. A 401 to such hooks with no token anywhere
``status`` can see is said, not blamed.

One service answered apart for two harnesses' hooks (Claude Code's token taken, Codex CLI's
hooks holding none) gives two lines for the same service and agent: each then names whose hooks
it is about (``for the codex hooks``), else the two read as a contradiction about one service.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from memory_core.addresses import shown_url
from memory_core.errors import InvalidId

from harness_memory.advice import ANY_HOOKS
from harness_memory.client import MemoryClient
from harness_memory.errors import MemoryClientError, ServiceRejectedError
from harness_memory.installers.checks import CHECK_TIMEOUT_S, explain_missing_agent
from harness_memory.installers.spec import flag_values
from harness_memory.settings import (
    ENV_PREFIX,
    MANAGED_TOKEN_SET,
    SettingsError,
    TokenFileError,
    load_settings,
)

__all__ = ["ServiceUse", "service_lines", "service_uses"]

_FLAGS = {
    "url": "--url",
    "project": "--project",
    "agent": "--agent",
    "token": "--token",
    "token_file": "--token-file",
    "state_dir": "--state-dir",
    "root": "--memory-root",
    "remote": "--remote",
}
"""The hook flags that decide which service, agent and token a hook uses, by the names
:func:`load_settings` takes them under."""


@dataclass(frozen=True, slots=True)
class ServiceUse:
    """One service, project and agent the installed hooks call, and how they find the token:
    ``flags`` are the hook command's setting flags (``token_file``, ``state_dir``, …; absent:
    None), ``flags_only`` whether it reads no ``HARNESS_MEMORY_*`` variable (P-2a), ``env``
    the ``HARNESS_MEMORY_*`` variables the harness's settings give the hook (Claude Code's
    ``env``), which only a hook without ``flags_only`` reads; ``harnesses`` the status labels
    of the installs whose hooks these are (``codex``, ``claude-code (managed)``; empty when not
    known)."""

    url: str
    project: str
    agent: str
    flags: tuple[tuple[str, str | None], ...]
    flags_only: bool
    env: tuple[tuple[str, str], ...] = ()
    harnesses: tuple[str, ...] = ()


def service_uses(
    commands: Iterable[str],
    env: Mapping[str, Mapping[str, str]] | None = None,
    harnesses: Mapping[str, Iterable[str]] | None = None,
) -> list[ServiceUse]:
    """Each distinct :class:`ServiceUse` of the Session-start hook ``commands`` among
    ``commands`` (the hook that sends the token at every Session), in a stable order; ``env``
    maps a command to the variables its settings give it (none when absent), ``harnesses`` a
    command to the status labels of the installs that wrote it (its use's ``harnesses``)."""
    found: dict[ServiceUse, dict[str, None]] = {}
    for command in commands:
        if " session-start " not in f" {command} ":
            continue
        flags = {name: _flag(command, flag) for name, flag in _FLAGS.items()}
        url, project, agent = flags["url"], flags["project"], flags["agent"]
        if url and project and agent:
            flags_only = "--flags-only" in command.split()
            given = {} if flags_only else (env or {}).get(command, {})
            variables = tuple(sorted((k, v) for k, v in given.items() if k.startswith(ENV_PREFIX)))
            use = ServiceUse(
                url, project, agent, tuple(sorted(flags.items())), flags_only, variables
            )
            found.setdefault(use, {}).update(dict.fromkeys((harnesses or {}).get(command, ())))
    return [replace(use, harnesses=tuple(labels)) for use, labels in found.items()]


def service_lines(
    commands: Iterable[str],
    environ: Mapping[str, str],
    *,
    env: Mapping[str, Mapping[str, str]] | None = None,
    harnesses: Mapping[str, Iterable[str]] | None = None,
    timeout: float = CHECK_TIMEOUT_S,
) -> tuple[list[str], bool]:
    """``(lines to print, every service that answered takes its token and holds its agent)``
    for the installed hook ``commands`` (any harness's); ``environ`` is the user's environment
    (where a hook without ``--state-dir`` finds its token file, and an old hook without
    ``--flags-only`` its variables), ``env`` the variables a command's settings give it over
    that, ``harnesses`` the status labels of the installs that wrote each command
    (:func:`service_uses`). ``timeout`` is the seconds each service may take to answer.
    Two harnesses' hooks serving one agent are two uses (each finds its token in its own state
    dir) but, when both are answered alike, one line: the same line twice reads as two services;
    answered apart, each line names whose hooks it is about. Never raises."""
    answers: dict[tuple[str, str], dict[str, None]] = {}  # (service, said): harness labels
    fine = True
    for use in service_uses(commands, env, harnesses):
        said, ok = _asked(use, environ, timeout)
        service = f"service {shown_url(use.url)} ({use.project}/{use.agent})"
        answers.setdefault((service, said), {}).update(dict.fromkeys(use.harnesses))
        fine = fine and ok
    apart = Counter(service for service, _ in answers)
    lines: list[str] = []
    for (service, said), labels in answers.items():
        whose = f" for the {', '.join(labels)} hooks" if apart[service] > 1 and labels else ""
        lines.append(f"{service}{whose}: {said.replace(_HOW_TO_GIVE_ONE, _give_a_token(labels))}")
    return lines, fine


_MANAGED = " (managed)"
"""How ``status`` labels the install into a harness's managed settings (``codex (managed)``)."""

_GUARD_STAYS = "the write guard still refuses writes into other Workspaces' memory"
_MEANWHILE = (
    "until it answers, Sessions start without it (their memory read from the files when they "
    f"are on this machine) and {_GUARD_STAYS}"
)
"""What the hooks do while their service does not answer (P-2), said in plain words: "the
hooks fail open" read to a newcomer as if the write guard were off, and it never is."""

_FROM_THE_COPY = (
    "every Session of these hooks starts from this machine's copy as it was last synced, and "
    "what the agent writes waits there to go back"
)
"""What remote mode's hooks do while the service refuses or does not answer (R-2): offline
starts use the local copy, so "without memory" would be untrue there."""


def _meanwhile(remote: bool) -> str:
    """:data:`_MEANWHILE`, or remote mode's (``remote``: the hooks keep a local copy)."""
    return f"until it answers, {_FROM_THE_COPY}; {_GUARD_STAYS}" if remote else _MEANWHILE


def _refused_means(remote: bool) -> str:
    """What a refused token does to the hooks' Sessions: none gets memory, or (``remote``)
    each starts from the local copy and nothing goes back (R-2)."""
    return _FROM_THE_COPY if remote else "every Session of these hooks starts without memory"


_HOW_TO_GIVE_ONE = "\x00how to give one\x00"
"""Where a refusal's line says how to give the hooks a token; :func:`_give_a_token` fills it in
once the harnesses answered alike are known."""


def _give_a_token(labels: Iterable[str]) -> str:
    """The commands that give the hooks of the installs ``labels`` a token the service takes:
    an install again with it for user settings, ``token set`` (each user's own file) for
    managed ones; both in general when no label is known."""
    named = list(labels)
    users = [label for label in named if not label.endswith(_MANAGED)]
    installs = " and ".join(f"`harness-memory install {label}`" for label in users)
    ways = [f"{installs} again with that token in {ENV_PREFIX}TOKEN"] if users else []
    ways += [MANAGED_TOKEN_SET] if len(users) < len(named) else []
    if not ways:
        return (
            f"{ANY_HOOKS.install()} with that token in {ENV_PREFIX}TOKEN, or "
            f"{MANAGED_TOKEN_SET} for a managed install"
        )
    return "; ".join(ways)


def _install_again(labels: Iterable[str]) -> str:
    """The install to run again for the user-level hooks of the installs ``labels``
    (``codex``, ``claude-code``), each named; for none known, each harness's
    (:class:`~harness_memory.advice.Hooks`)."""
    users = [label for label in labels if not label.endswith(_MANAGED)]
    if not users:
        return ANY_HOOKS.install()
    return " and ".join(f"`harness-memory install {label}`" for label in users) + " again"


def _asked(use: ServiceUse, environ: Mapping[str, str], timeout: float) -> tuple[str, bool]:
    """What asking the service for the agent's config with the hooks' token says, and
    whether that is fine."""
    given = dict(use.env)
    try:
        settings = load_settings(dict(use.flags), {**environ, **given}, flags_only=use.flags_only)
        token = settings.bearer_token()
        client = MemoryClient(use.url, token=token, timeout=timeout)
        client.agent_config(use.project, use.agent)
    except TokenFileError as error:
        return f"PROBLEM: {error}: Sessions start without memory", False
    except (SettingsError, InvalidId) as error:
        return f"PROBLEM: the hooks' settings: {error}", False
    except ServiceRejectedError as error:
        if error.status in (401, 403) and not use.flags_only and settings.token_source is None:
            return (
                "could not be checked: these hooks (an install from before --flags-only) take "
                "their token from the environment the harness gives them; run "
                f"{_install_again(use.harnesses)} to give them a token file",
                True,
            )
        if error.status in (401, 403):
            sent = _source(settings.token_source, given)
            refused = (
                f"the service refused the token from {sent}"
                if sent
                else "these hooks send no token (none is configured for them) and the service "
                "asks for one"
            )
            return (
                f"PROBLEM: {refused} ({error.status}: {error.detail}): "
                f"{_refused_means(settings.remote)}; give them a token it takes "
                f"({_HOW_TO_GIVE_ONE})",
                False,
            )
        if error.status == 404:
            root = None if settings.remote else settings.memory_root  # remote: the copy's
            said = explain_missing_agent(
                client, use.project, use.agent, memory_root=str(root) if root else None
            )
            return f"PROBLEM: the service answered 404 ({error.detail}): {said}", False
        meanwhile = _meanwhile(settings.remote)
        return f"the service answered {error.status} ({error.detail}); {meanwhile}", True
    except MemoryClientError as error:
        meanwhile = _meanwhile(settings.remote)
        return f"does not answer ({error}), so the token could not be checked; {meanwhile}", True
    origin = _source(settings.token_source, given)
    if token is None or _asks_no_token(use, timeout):
        where = f" (from {origin})" if origin else ""
        sent = "" if token is None else f"; the hooks' token{where} is not needed"
        return f"holds the agent and asks for no token (none are configured there){sent}", True
    if origin == _IN_SETTINGS_ENV:
        return (
            f"takes the hooks' token (from {_IN_SETTINGS_ENV}) and holds the agent; the token "
            "belongs in a file only you can read: `harness-memory install claude-code` again "
            "moves it there",
            True,
        )
    return "takes the hooks' token and holds the agent", True


def _asks_no_token(use: ServiceUse, timeout: float) -> bool:
    """Whether the service answers the agent's config to a request without a token: a service
    with no tokens configured (open, on loopback only, A-10) takes any token, so its taking
    the hooks' says nothing. False on any error (a refusal included)."""
    try:
        MemoryClient(use.url, token=None, timeout=timeout).agent_config(use.project, use.agent)
    except (MemoryClientError, InvalidId):
        return False
    return True


_IN_SETTINGS_ENV = f"{ENV_PREFIX}TOKEN in the settings' env"


def _source(source: str | None, given: Mapping[str, str]) -> str | None:
    """Where the token came from, as a line says it: the settings' ``env`` when the hooks'
    variable came from there (``given``), else as :func:`load_settings` named it."""
    if source == ENV_PREFIX + "TOKEN" and given.get(ENV_PREFIX + "TOKEN"):
        return _IN_SETTINGS_ENV
    return source


def _flag(command: str, flag: str) -> str | None:
    values = flag_values(command, flag)
    return values[0] if values else None
