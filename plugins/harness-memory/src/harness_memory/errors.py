"""The named errors of a call to the memory service (:class:`harness_memory.client.MemoryClient`).

::

    MemoryClientError          base; ``reason`` is a short code, ``str(error)`` a sentence
    ├── ServiceUnreachableError     connection refused, DNS failure, reset before an answer, no HTTP
    ├── ServiceTimeoutError         no full answer within the timeout (P-2: "down or slow")
    ├── ServiceRejectedError        the service answered 4xx/5xx; ``status`` and problem ``detail``
    └── BadServiceAnswerError       2xx whose body is not the expected DTO
"""

from __future__ import annotations

from memory_core import json_text

from harness_memory.advice import ANY_HOOKS, Hooks
from harness_memory.as_typed import WHERE_THE_SERVICE_RUNS

__all__ = [
    "TOKEN_SENT",
    "UNAUTHORIZED_HINT",
    "BadServiceAnswerError",
    "MemoryClientError",
    "ServiceRejectedError",
    "ServiceTimeoutError",
    "ServiceUnreachableError",
    "no_agent_hint",
    "problem_detail",
    "unauthorized_hint",
]

_MAX_DETAIL = 300


class MemoryClientError(Exception):
    """Base of the client's errors; ``reason`` is a stable short code for records and logs."""

    reason = "error"


class ServiceUnreachableError(MemoryClientError):
    """The service could not be reached at all (refused, unresolvable, connection dropped)."""

    reason = "unreachable"


class ServiceTimeoutError(MemoryClientError):
    """The service did not answer within the timeout."""

    reason = "timeout"


class ServiceRejectedError(MemoryClientError):
    """The service answered with an HTTP error; ``status`` and the problem ``detail`` are kept.

    ``token_source`` says where the token sent came from (``--token``, ``--token-file PATH``,
    ``HARNESS_MEMORY_TOKEN`` …, :attr:`~harness_memory.settings.HarnessSettings.token_source`),
    ``TOKEN_SENT`` when one was sent from a place unknown, None when none was: a 401's message
    names it (:func:`unauthorized_hint`). ``hooks``: whose hooks made the call (their harness,
    whether managed), so that the next step names the command they need (A-10, H-7); a command
    run by hand, :data:`~harness_memory.advice.ANY_HOOKS`, names each harness's install."""

    reason = "rejected"

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        token_source: str | None = None,
        hooks: Hooks = ANY_HOOKS,
    ) -> None:
        self.status = status
        self.detail = detail
        said = f"memory service answered {status}: {detail}"
        super().__init__(said + _hint(status, detail, token_source, hooks))


TOKEN_SENT = "the caller"  # noqa: S105 (a place named in a message, not a password)
"""The :class:`ServiceRejectedError` ``token_source`` of a token sent from a place unknown."""


def unauthorized_hint(token_source: str | None, hooks: Hooks = ANY_HOOKS) -> str:
    """What a 401 adds (A-10, P-2a): with no token sent (``token_source`` None), where the
    plugin takes one from; with one sent, that the service refused it and where it came from
    (``token_source``, or :data:`TOKEN_SENT`), so the user fixes the token they gave rather
    than look for a missing one. With none sent, the variable is named as what it is: read
    only without ``--flags-only`` (the installed hooks' flag). The way to give the ``hooks``
    a token names their own command (:meth:`~harness_memory.advice.Hooks.token_again`): the
    managed hooks' is ``token set --managed`` alone."""
    again = hooks.token_again()
    if token_source is None:
        return f" (no token was sent: {hooks.no_token_give()}{again})"
    where = "" if token_source == TOKEN_SENT else f" from {token_source}"
    return (
        f" (the service refused the token{where}: it is wrong, or was revoked; give one this "
        f"service takes; {again})"
    )


UNAUTHORIZED_HINT = unauthorized_hint(None)
"""What a 401 to a request without a token adds: where the plugin takes its bearer token from."""


def no_agent_hint(hooks: Hooks = ANY_HOOKS) -> str:
    """What a 404 for the agent adds: where to learn why (a typo in the project, a token of
    another project, a service started over another data dir) and the ways out, the install
    again named as ``hooks`` run it. A hook asks the service nothing more (H-5: its time is the
    Session's); ``status`` does (:mod:`~harness_memory.installers.service_check`)."""
    return (
        " (this service, or this token, knows no such agent: for installed hooks, `harness-memory "
        "status` says why — the agent in another project, a project the token does not reach; "
        "else fix --project or --agent, or create it "
        f"{WHERE_THE_SERVICE_RUNS}`memory-api agent create --data-dir DIR --project P --id A "
        "--name NAME` (DIR: the data dir it logs as `data dir: …` when it starts); "
        f"{hooks.no_agent()})"
    )


def _hint(status: int, detail: str, token_source: str | None, hooks: Hooks) -> str:
    """The next step a rejection's message ends with, for ``hooks``, or nothing."""
    if status == 401:
        return unauthorized_hint(token_source, hooks)
    if status == 404 and detail.startswith("no agent "):
        return no_agent_hint(hooks)
    return ""


class BadServiceAnswerError(MemoryClientError):
    """The service answered 2xx with a body that is not the expected DTO."""

    reason = "bad-answer"


def problem_detail(raw: bytes, fallback: str | None) -> str:
    """Pull ``detail`` out of a problem+json body; fall back to the status reason or the text.

    The result is at most 300 characters, so a huge error page never floods a record or a log.
    """
    try:
        parsed = json_text.loads(raw)
    except ValueError:  # no JSON, nested too deep included
        parsed = None
    if isinstance(parsed, dict) and isinstance(parsed.get("detail"), str):
        return str(parsed["detail"])[:_MAX_DETAIL]
    text = raw.decode("utf-8", "replace").strip()
    return (text or fallback or "no detail")[:_MAX_DETAIL]
