"""Every typed key of the application and the request, with accessors for handlers.

Handlers call ``get_agent_store(request.app)`` rather than indexing with a key, so the key
objects stay an implementation detail of :mod:`memory_api.app`.
"""

from __future__ import annotations

from aiohttp import web

from memory_api.http.metrics import Metrics
from memory_api.page_unicode import RenderAtStart
from memory_api.principal import Principal
from memory_api.settings import Settings
from memory_api.store.agents import AgentStore
from memory_api.store.drafts import DraftStore
from memory_api.store.history.service import HistoryStore
from memory_api.store.memory import MemoryStore
from memory_api.store.sync.service import SyncStore
from memory_api.store.tokens import TokenStore

__all__ = [
    "AGENT_STORE_KEY",
    "DRAFT_STORE_KEY",
    "HISTORY_STORE_KEY",
    "MEMORY_STORE_KEY",
    "METRICS_KEY",
    "PRINCIPAL_KEY",
    "SETTINGS_KEY",
    "SYNC_STORE_KEY",
    "TOKEN_STORE_KEY",
    "UNICODE_AT_START_KEY",
    "get_agent_store",
    "get_draft_store",
    "get_history_store",
    "get_memory_store",
    "get_metrics",
    "get_settings",
    "get_sync_store",
    "get_token_store",
]

SETTINGS_KEY = web.AppKey("settings", Settings)
AGENT_STORE_KEY = web.AppKey("agent_store", AgentStore)
MEMORY_STORE_KEY = web.AppKey("memory_store", MemoryStore)
TOKEN_STORE_KEY = web.AppKey("token_store", TokenStore)
DRAFT_STORE_KEY = web.AppKey("draft_store", DraftStore)
HISTORY_STORE_KEY = web.AppKey("history_store", HistoryStore)
SYNC_STORE_KEY = web.AppKey("sync_store", SyncStore)
METRICS_KEY = web.AppKey("metrics", Metrics)
UNICODE_AT_START_KEY = web.AppKey("unicode_at_start", RenderAtStart)
"""The rendering of the page's Unicode classes module begun as the service starts (W-5)."""

PRINCIPAL_KEY = web.RequestKey("principal", Principal)
"""The authenticated caller of an ``/api/`` request (set by the auth middleware)."""


def get_settings(app: web.Application) -> Settings:
    """Return the service's settings."""
    return app[SETTINGS_KEY]


def get_agent_store(app: web.Application) -> AgentStore:
    """Return the agents store (``agent.json`` files)."""
    return app[AGENT_STORE_KEY]


def get_memory_store(app: web.Application) -> MemoryStore:
    """Return the memory store (scopes, topic files, indexes)."""
    return app[MEMORY_STORE_KEY]


def get_token_store(app: web.Application) -> TokenStore:
    """Return the bearer-token store."""
    return app[TOKEN_STORE_KEY]


def get_draft_store(app: web.Application) -> DraftStore:
    """Return the drafts store (A-12)."""
    return app[DRAFT_STORE_KEY]


def get_history_store(app: web.Application) -> HistoryStore:
    """Return the history store (versions, diffs, restore: V-1, V-2)."""
    return app[HISTORY_STORE_KEY]


def get_metrics(app: web.Application) -> Metrics:
    """Return this application's Prometheus metrics."""
    return app[METRICS_KEY]


def get_sync_store(app: web.Application) -> SyncStore:
    """Return the git sync store (machines' local copies: R-1, R-2)."""
    return app[SYNC_STORE_KEY]
