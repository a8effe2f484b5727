"""Agent Memory for a harness: Session start (P-1, P-2), the write guard (P-3), hooks (P-4).

>>> from harness_memory import start_session, check_write
"""

from harness_memory.client import (
    BadServiceAnswerError,
    MemoryClient,
    MemoryClientError,
    ServiceRejectedError,
    ServiceTimeoutError,
    ServiceUnreachableError,
)
from harness_memory.guard import GuardDecision, check_write
from harness_memory.session import SessionMeta, SessionStart, start_session

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
