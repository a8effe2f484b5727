"""The named errors of a call to the memory service (:class:`harness_memory.client.MemoryClient`).

::

    MemoryClientError          base; ``reason`` is a short code, ``str(error)`` a sentence
    ├── ServiceUnreachableError     connection refused, DNS failure, reset before an answer, no HTTP
    ├── ServiceTimeoutError         no full answer within the timeout (P-2: "down or slow")
    ├── ServiceRejectedError        the service answered 4xx/5xx; ``status`` and problem ``detail``
    └── BadServiceAnswerError       2xx whose body is not the expected DTO
"""

from __future__ import annotations

import json

__all__ = [
    "UNAUTHORIZED_HINT",
    "BadServiceAnswerError",
    "MemoryClientError",
    "ServiceRejectedError",
    "ServiceTimeoutError",
    "ServiceUnreachableError",
    "problem_detail",
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
    """The service answered with an HTTP error; ``status`` and the problem ``detail`` are kept."""

    reason = "rejected"

    def __init__(self, status: int, detail: str) -> None:
        self.status = status
        self.detail = detail
        said = f"memory service answered {status}: {detail}"
        super().__init__(said + _hint(status, detail))


UNAUTHORIZED_HINT = (
    " (give this service's token in HARNESS_MEMORY_TOKEN or a --token-file; installed hooks: "
    "run `harness-memory install` again with it)"
)
"""What a 401 adds: where the plugin takes its bearer token from (A-10, P-2a)."""

_NO_AGENT_HINT = (
    " (this service, or this token, knows no such agent: create it where the service runs, "
    "`memory-api agent create --project P --id A`, or give the --url, --project and --agent "
    "of one it holds; installed hooks: run `harness-memory install` again with them, and "
    "`harness-memory status` shows what they use)"
)
"""What a 404 for the agent adds: the two ways out of a hook pointed at an agent the service
does not hold (a service started over another data dir, a typo, a token of another project)."""


def _hint(status: int, detail: str) -> str:
    """The next step a rejection's message ends with, or nothing."""
    if status == 401:
        return UNAUTHORIZED_HINT
    if status == 404 and detail.startswith("no agent "):
        return _NO_AGENT_HINT
    return ""


class BadServiceAnswerError(MemoryClientError):
    """The service answered 2xx with a body that is not the expected DTO."""

    reason = "bad-answer"


def problem_detail(raw: bytes, fallback: str | None) -> str:
    """Pull ``detail`` out of a problem+json body; fall back to the status reason or the text.

    The result is at most 300 characters, so a huge error page never floods a record or a log.
    """
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        parsed = None
    if isinstance(parsed, dict) and isinstance(parsed.get("detail"), str):
        return str(parsed["detail"])[:_MAX_DETAIL]
    text = raw.decode("utf-8", "replace").strip()
    return (text or fallback or "no detail")[:_MAX_DETAIL]
