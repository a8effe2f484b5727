"""Codex CLI profile files that turn its own memories back on (H-6).

Codex CLI 0.171 reads a profile from its own file, ``$CODEX_HOME/NAME.config.toml``, laid over
``config.toml`` for a Session started with ``--profile NAME`` (a ``[profiles.NAME]`` table in
``config.toml`` is refused as legacy). A profile file saying ``[features] memories = true``
therefore beats the install's ``memories = false``, and Codex's ``MEMORY_SUMMARY`` reaches the
model beside Agent Memory (measured: ``test_e2e_h6_one_memory.py``). So the install sets it
off in each such file too (:func:`profile_plan`: the file's comments and layout kept, what it
held noted in the install record's ``previous`` under ``profile NAME.config.toml``), and
uninstall puts back what it found. A profile file made or changed since the install is one
``status`` names (:func:`memory_profile_notes`); ``install codex --managed`` pins
``memories = false`` in ``/etc/codex/requirements.toml``, which every profile obeys.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import tomlkit
from tomlkit.exceptions import TOMLKitError

from harness_memory.installers.files import FileChange, SettingsFileError, read_text
from harness_memory.installers.own_memory import Record, Switch, switch_back, switch_off

__all__ = ["PROFILE_SUFFIX", "memory_profile_notes", "memory_profiles", "profile_plan"]

PROFILE_SUFFIX = ".config.toml"
"""A profile file's name: the profile's name and this."""
_RECORDED = "profile "
"""The install record's ``previous`` key of a profile file: this and its name."""


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


def profile_plan(
    codex_home: Path, memories: Switch, previous: Record, *, install: bool
) -> tuple[list[FileChange], list[str]]:
    """``(changes, notes)`` of the profile files: on install, ``memories`` (the install's
    switch) set off in each of :func:`memory_profiles`; on uninstall, put back in each the
    record names. Raises :class:`SettingsFileError` for a recorded profile file that is no
    longer TOML (nothing is guessed)."""
    if install:
        paths = memory_profiles(codex_home)
    else:
        names = [key.removeprefix(_RECORDED) for key in previous if key.startswith(_RECORDED)]
        paths = [codex_home / name for name in names]
    changes: list[FileChange] = []
    notes: list[str] = []
    for path in paths:
        old = read_text(path)
        if old is None:
            continue
        try:
            document = tomlkit.parse(old)
        except TOMLKitError as error:
            raise SettingsFileError(f"{path} is not valid TOML ({error})") from None
        switch = replace(memories, what=f"{memories.what} in the profile file {path}")
        noted = previous.setdefault(_RECORDED + path.name, {})
        if install:
            notes.append(switch_off(document, switch, noted, tomlkit.table))
        else:
            said = switch_back(document, switch, noted)
            notes += [said] if said is not None else []
        changes.append(FileChange(path, old, tomlkit.dumps(document)))
    return changes, notes


def memory_profile_notes(codex_home: Path) -> list[str]:
    """One WARNING per profile file of :func:`memory_profiles` (one made or changed since the
    install): what stays on, and the fix."""
    return [
        f"WARNING: Codex CLI's own memories stay on in Sessions started with `--profile "
        f"{path.name.removesuffix(PROFILE_SUFFIX)}`: {path} says [features] memories = true, "
        "and Codex lays a profile file over config.toml. Run `harness-memory install codex` "
        "again to set it off there, or pin it for every profile with `harness-memory install "
        "codex --managed` (as root)"
        for path in memory_profiles(codex_home)
    ]
