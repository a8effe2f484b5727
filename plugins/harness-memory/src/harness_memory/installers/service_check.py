"""``harness-memory status`` asks the service what ``install`` asked it (H-7): does it take the
token the installed hooks send, does it hold their agent.

An install with ``--no-check``, or a token revoked since, leaves hooks whose every Session fails
open with a 401 (memory off, P-2) while their settings look fine. So, for each service, project,
agent and token the installed hooks use, the token is read as the hooks read it
(:func:`~harness_memory.settings.load_settings` on the hook's own flags, then
:meth:`~harness_memory.settings.HarnessSettings.bearer_token`) and the agent's config is asked
for (``GET …/config``, A-2), as :func:`~harness_memory.installers.checks.check_service` does.

- the service takes the token and holds the agent: one line saying so;
- a refused token (401/403), a token file that cannot be read, an agent the service does not
  hold (404, explained by :func:`~harness_memory.installers.checks.explain_missing_agent`): a
  PROBLEM line, and ``status`` exits 1;
- no answer (down, slow, no memory service there): said, and not a failure — the token could not
  be checked, and the hooks fail open until the service answers. Neither is a 401 to hooks of an
  install from before ``--flags-only`` that name no token: they take it from the environment the
  harness gives them (Claude Code's settings ``env``), which ``status`` does not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from memory_core.errors import InvalidId

from harness_memory.client import MemoryClient
from harness_memory.errors import MemoryClientError, ServiceRejectedError
from harness_memory.installers.checks import CHECK_TIMEOUT_S, explain_missing_agent
from harness_memory.installers.spec import flag_values
from harness_memory.settings import SettingsError, TokenFileError, load_settings

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
    None), ``flags_only`` whether it reads no ``HARNESS_MEMORY_*`` variable (P-2a)."""

    url: str
    project: str
    agent: str
    flags: tuple[tuple[str, str | None], ...]
    flags_only: bool


def service_uses(commands: Iterable[str]) -> list[ServiceUse]:
    """Each distinct :class:`ServiceUse` of the Session-start hook ``commands`` among
    ``commands`` (the hook that sends the token at every Session), in a stable order."""
    found: dict[ServiceUse, None] = {}
    for command in commands:
        if " session-start " not in f" {command} ":
            continue
        flags = {name: _flag(command, flag) for name, flag in _FLAGS.items()}
        url, project, agent = flags["url"], flags["project"], flags["agent"]
        if url and project and agent:
            flags_only = "--flags-only" in command.split()
            use = ServiceUse(url, project, agent, tuple(sorted(flags.items())), flags_only)
            found[use] = None
    return list(found)


def service_lines(
    commands: Iterable[str], environ: Mapping[str, str], *, timeout: float = CHECK_TIMEOUT_S
) -> tuple[list[str], bool]:
    """``(lines to print, every service that answered takes its token and holds its agent)``
    for the installed hook ``commands`` (any harness's); ``environ`` is the user's environment
    (where a hook without ``--state-dir`` finds its token file, and an old hook without
    ``--flags-only`` its variables). ``timeout`` is the seconds each service may take to
    answer. Never raises."""
    lines: list[str] = []
    fine = True
    for use in service_uses(commands):
        said, ok = _asked(use, environ, timeout)
        lines.append(f"service {use.url} ({use.project}/{use.agent}): {said}")
        fine = fine and ok
    return lines, fine


def _asked(use: ServiceUse, environ: Mapping[str, str], timeout: float) -> tuple[str, bool]:
    """What asking the service for the agent's config with the hooks' token says, and
    whether that is fine."""
    try:
        settings = load_settings(dict(use.flags), environ, flags_only=use.flags_only)
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
                "`harness-memory install` again to give them a token file",
                True,
            )
        if error.status in (401, 403):
            sent = settings.token_source
            source = f"the token from {sent}" if sent else "no token (none is configured)"
            return (
                f"PROBLEM: the service refused {source} ({error.status}: {error.detail}): "
                "every Session of these hooks starts without memory; give a "
                "token it takes (`harness-memory install` again, or `harness-memory token set` "
                "for a managed install)",
                False,
            )
        if error.status == 404:
            root = None if settings.remote else settings.memory_root  # remote: the copy's
            said = explain_missing_agent(
                client, use.project, use.agent, memory_root=str(root) if root else None
            )
            return f"PROBLEM: the service answered 404 ({error.detail}): {said}", False
        return f"the service answered {error.status} ({error.detail}); the hooks fail open", True
    except MemoryClientError as error:
        return (
            f"does not answer ({error}), so the token could not be checked; the hooks fail "
            "open until it answers",
            True,
        )
    return "takes the hooks' token and holds the agent", True


def _flag(command: str, flag: str) -> str | None:
    values = flag_values(command, flag)
    return values[0] if values else None
