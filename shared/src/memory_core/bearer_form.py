"""The form of a bearer token, as the service takes one and the plugin checks one (A-10).

The service makes ``mem_`` and 43 URL-safe characters (``memory-api token create``) and takes
a ``MEMORY_API_TOKENS`` secret of :data:`SHORTEST_SECRET` characters or more; the plugin's
``token set`` refuses what the service would never take. One place for both, so they agree.
"""

from __future__ import annotations

__all__ = ["SECRET_BODY", "SECRET_CHARS", "SECRET_PREFIX", "SHORTEST_SECRET"]

SECRET_PREFIX = "mem_"  # noqa: S105 - a public marker in front of every secret, not one
"""The marker in front of every secret the service makes."""
SECRET_CHARS = r"[A-Za-z0-9_-]"  # noqa: S105 - the characters of a secret, not one
"""The characters of a secret after its marker (URL-safe base64), as a pattern class."""
SECRET_BODY = 43
"""The characters of a fresh secret after :data:`SECRET_PREFIX` (256 random bits)."""
SHORTEST_SECRET = 16
"""The fewest characters of a secret the service takes (``MEMORY_API_TOKENS``)."""
