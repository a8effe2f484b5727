"""Agent Memory for a harness: Session start (P-1, P-2), the write guard (P-3), hooks (P-4).

>>> from harness_memory import start_session, check_write

The names load lazily (PEP 562): a hook process imports only what its hook needs (H-5), and the
aiohttp-based :class:`MemoryClient` loads only when an embedding harness asks for it.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: hook processes)
if TYPE_CHECKING:
    from typing import Any

    from harness_memory.client import MemoryClient
    from harness_memory.errors import (
        BadServiceAnswerError,
        MemoryClientError,
        ServiceRejectedError,
        ServiceTimeoutError,
        ServiceUnreachableError,
    )
    from harness_memory.guard import GuardDecision, check_write
    from harness_memory.session import SessionMeta, SessionStart, start_session

_LAZY: dict[str, str] = {
    "BadServiceAnswerError": "harness_memory.errors",
    "GuardDecision": "harness_memory.guard",
    "MemoryClient": "harness_memory.client",
    "MemoryClientError": "harness_memory.errors",
    "ServiceRejectedError": "harness_memory.errors",
    "ServiceTimeoutError": "harness_memory.errors",
    "ServiceUnreachableError": "harness_memory.errors",
    "SessionMeta": "harness_memory.session",
    "SessionStart": "harness_memory.session",
    "check_write": "harness_memory.guard",
    "start_session": "harness_memory.session",
}
"""Public name → the module that defines it."""

__all__ = [
    "BadServiceAnswerError",
    "GuardDecision",
    "MemoryClient",
    "MemoryClientError",
    "ServiceRejectedError",
    "ServiceTimeoutError",
    "ServiceUnreachableError",
    "SessionMeta",
    "SessionStart",
    "check_write",
    "start_session",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'harness_memory' has no attribute {name!r}")
    __import__(module)  # importlib.import_module without importing importlib (H-5)
    value = getattr(sys.modules[module], name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
