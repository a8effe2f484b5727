"""Agent Memory for a harness: Session start (P-1, P-2), the write guard (P-3), hooks (P-4).

>>> from harness_memory import start_session, check_write

The names below load from their modules on first use (PEP 562): every hook is a process of its
own that runs ``harness_memory.cli``, and a write guard has no use for the HTTP client and the
Session start this package also offers (H-5).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness_memory.client import MemoryClient
    from harness_memory.errors import (
        BadServiceAnswerError,
        MemoryClientError,
        ServiceRejectedError,
        ServiceTimeoutError,
        ServiceUnreachableError,
    )
    from harness_memory.guard import GuardDecision, check_write
    from harness_memory.records import SessionMeta
    from harness_memory.session import SessionStart, start_session, start_session_sync

_MODULES = {
    "BadServiceAnswerError": "harness_memory.errors",
    "GuardDecision": "harness_memory.guard",
    "MemoryClient": "harness_memory.client",
    "MemoryClientError": "harness_memory.errors",
    "ServiceRejectedError": "harness_memory.errors",
    "ServiceTimeoutError": "harness_memory.errors",
    "ServiceUnreachableError": "harness_memory.errors",
    "SessionMeta": "harness_memory.records",
    "SessionStart": "harness_memory.session",
    "check_write": "harness_memory.guard",
    "start_session": "harness_memory.session",
    "start_session_sync": "harness_memory.session",
}

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
    "start_session_sync",
]


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module on first use."""
    if name not in _MODULES:
        raise AttributeError(f"module 'harness_memory' has no attribute {name!r}")
    value = getattr(importlib.import_module(_MODULES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
