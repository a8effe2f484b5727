"""memory_api — the Agent Memory HTTP service: owns the memory files, serves the API and page.

The public surface is :func:`create_app` (the aiohttp application for some :class:`Settings`)
and :class:`Settings` (built from the environment by :meth:`Settings.from_env`); the command
line is ``memory-api`` (:mod:`memory_api.cli`).
"""

from memory_api.app import create_app
from memory_api.settings import Settings

__all__ = ["Settings", "create_app"]
