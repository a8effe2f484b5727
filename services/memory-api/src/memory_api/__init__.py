"""memory_api — the Agent Memory HTTP service: owns the memory files, serves the API and page.

The public surface is :func:`create_app` (the aiohttp application for some :class:`Settings`)
and :class:`Settings` (built from the environment by :meth:`Settings.from_env`); the command
line is ``memory-api`` (:mod:`memory_api.cli`). Both are imported on first use, so a CLI
command that needs no web application never pays for importing one (aiohttp and the routes).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memory_api.app import create_app
    from memory_api.settings import Settings

__all__ = ["Settings", "create_app"]

_HOMES = {"Settings": "memory_api.settings", "create_app": "memory_api.app"}


def __getattr__(name: str) -> Any:
    """Import ``Settings`` or ``create_app`` when first asked for (PEP 562)."""
    if name not in _HOMES:
        raise AttributeError(f"module 'memory_api' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value
