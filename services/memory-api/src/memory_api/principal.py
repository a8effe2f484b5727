"""Who is calling: the principal a request acts as after authentication (A-10)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LOCAL", "Principal"]


@dataclass(frozen=True, slots=True)
class Principal:
    """A caller: the token's ``name`` and the projects it reaches (``None`` = every project)."""

    name: str
    projects: tuple[str, ...] | None

    def reaches(self, project: str) -> bool:
        """Tell whether this caller may see ``project``; others' projects answer 404 (A-10)."""
        return self.projects is None or project in self.projects


LOCAL = Principal(name="local", projects=None)
"""The caller when no token is configured: the service is then open, but on loopback only."""
