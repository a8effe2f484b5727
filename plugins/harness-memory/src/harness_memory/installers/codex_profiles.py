"""Codex CLI profile files that turn its own memories back on (H-6).

Codex CLI 0.171 reads a profile from its own file, ``$CODEX_HOME/NAME.config.toml``, laid over
``config.toml`` for a Session started with ``--profile NAME`` (a ``[profiles.NAME]`` table in
``config.toml`` is refused as legacy). A profile file saying ``[features] memories = true``
therefore beats the install's ``memories = false``, and Codex's ``MEMORY_SUMMARY`` reaches the
model beside Agent Memory (measured: ``test_e2e_h6_one_memory.py``). The user install leaves
the user's profile files as they are and says which ones do it, at install and in ``status``;
``install codex --managed`` pins ``memories = false`` in ``/etc/codex/requirements.toml``,
which every profile obeys.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

__all__ = ["PROFILE_SUFFIX", "memory_profile_notes", "memory_profiles"]

PROFILE_SUFFIX = ".config.toml"
"""A profile file's name: the profile's name and this."""


def memory_profiles(codex_home: Path) -> list[Path]:
    """The profile files in ``codex_home`` whose ``[features] memories`` is true, by name; a
    file that cannot be read or parsed is skipped (Codex would refuse it too)."""
    found: list[Path] = []
    try:
        candidates = sorted(codex_home.glob("*" + PROFILE_SUFFIX))
    except OSError:
        return []
    for path in candidates:
        if path.name == "config.toml" or not path.is_file():
            continue
        try:
            features = tomllib.loads(path.read_text(encoding="utf-8")).get("features")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        if isinstance(features, dict) and features.get("memories") is True:
            found.append(path)
    return found


def memory_profile_notes(codex_home: Path) -> list[str]:
    """One WARNING per profile file of :func:`memory_profiles`: what stays on, and the fix."""
    return [
        f"WARNING: Codex CLI's own memories stay on in Sessions started with `--profile "
        f"{path.name.removesuffix(PROFILE_SUFFIX)}`: {path} says [features] memories = true, "
        "and Codex lays a profile file over config.toml. Set it to false there, or pin it for "
        "every profile with `harness-memory install codex --managed` (as root)"
        for path in memory_profiles(codex_home)
    ]
