"""Codex CLI profile files that turn its own memories, or its terminals, back on (H-6, P-3).

Codex CLI 0.171 reads a profile from its own file, ``$CODEX_HOME/NAME.config.toml``, laid over
``config.toml`` for a Session started with ``--profile NAME`` (a ``[profiles.NAME]`` table in
``config.toml`` is refused as legacy). A profile file saying ``[features] memories = true``
therefore beats the install's ``memories = false``, and Codex's ``MEMORY_SUMMARY`` reaches the
model beside Agent Memory (measured: ``test_e2e_h6_one_memory.py``); one saying
``unified_exec_tty = true`` gives the model terminals whose input no hook sees. So the install
sets them off in each such file too (:func:`profile_plan`: the file's comments and layout
kept, what it held noted in the install record's ``previous`` under ``profile
NAME.config.toml``), and uninstall puts back what it found. A profile file made or changed
since the install is one ``status`` names (:func:`memory_profile_notes`); ``install codex
--managed`` pins both off in ``/etc/codex/requirements.toml``, which every profile obeys.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import tomlkit

from harness_memory.installers.codex_inline import (
    inline_commands,
    no_gaps,
    take_ours_out,
    taken_out_note,
    trust_entries,
)
from harness_memory.installers.files import FileChange, read_text, toml_object
from harness_memory.installers.own_memory import Switch, switch_off, switches_back
from harness_memory.installers.own_switches import codex_off, switched_off
from harness_memory.installers.record import InstallRecord
from harness_memory.installers.secrets import toml_tokens_in
from harness_memory.installers.settings_text import dump_toml, read_toml_as_codex

__all__ = [
    "PROFILE_SUFFIX",
    "inline_profiles",
    "memory_profile_notes",
    "memory_profiles",
    "profile_documents",
    "profile_plan",
    "profiles_off",
    "profiles_off_notes",
]

PROFILE_SUFFIX = ".config.toml"
"""A profile file's name: the profile's name and this."""
HARNESS = "codex"
_RECORDED = "profile "
"""The install record's ``previous`` key of a profile file: this and its name."""


def memory_profiles(codex_home: Path, keys: tuple[str, ...] = ("memories",)) -> list[Path]:
    """The profile files in ``codex_home`` whose ``[features]`` turn one of ``keys`` on, by
    name; a file that cannot be read or parsed is skipped (Codex would refuse it too)."""
    found: list[Path] = []
    for path, document in profile_documents(codex_home):
        features = document.get("features")
        if isinstance(features, dict) and any(features.get(key) is True for key in keys):
            found.append(path)
    return found


def inline_profiles(codex_home: Path) -> list[tuple[Path, dict[str, list[str]]]]:
    """The profile files in ``codex_home`` holding hooks of ours in their inline ``[hooks]``
    (Codex runs them beside ``hooks.json`` in a Session with that profile), by name, each
    with those hooks' commands per event (:func:`inline_commands`)."""
    return [
        (path, found)
        for path, document in profile_documents(codex_home)
        if (found := inline_commands(document))
    ]


def profile_documents(codex_home: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Each profile file in ``codex_home`` and what it says, by name; a file that cannot be
    read or parsed is skipped (Codex would refuse it too)."""
    found: list[tuple[Path, dict[str, Any]]] = []
    try:
        candidates = sorted(codex_home.glob("*" + PROFILE_SUFFIX))
    except OSError:
        return []
    for path in candidates:
        if path.name == "config.toml" or not path.is_file():
            continue
        if (document := read_toml_as_codex(path)) is not None:
            found.append((path, document))
    return found


def profile_plan(
    codex_home: Path,
    switches: tuple[Switch, ...],
    record: InstallRecord,
    *,
    install: bool,
    trust: Callable[[Any], None] | None = None,
) -> tuple[list[FileChange], list[str]]:
    """``(changes, notes)`` of the profile files: on install, each of ``switches`` (the
    install's ``[features]`` switches: memories, terminals) that a profile file turns on is
    set off there; on uninstall, what ``record`` names is put back (the profile file's first
    backup telling what an older record did not note). Both take hooks of ours out of a
    profile file's inline ``[hooks]`` (:mod:`~harness_memory.installers.codex_inline`), and
    ``trust`` brings the ``[hooks.state]`` of each profile file holding one up to date (it
    edits the ``tomlkit`` document in place: Codex lays it over ``config.toml``'s). Raises
    :class:`SettingsFileError` for such a profile file that is not TOML (nothing is
    guessed)."""
    previous = record.previous
    if install:
        paths = memory_profiles(codex_home, tuple(switch.keys[-1] for switch in switches))
    else:
        names = [key.removeprefix(_RECORDED) for key in previous if key.startswith(_RECORDED)]
        paths = [codex_home / name for name in names]
    switched = set(paths)
    paths += [path for path, _ in inline_profiles(codex_home) if path not in switched]
    if trust is not None:  # the profile files holding trust entries (ours or the user's)
        trusting = [path for path, found in profile_documents(codex_home) if trust_entries(found)]
        paths += [path for path in trusting if path not in paths]
    changes: list[FileChange] = []
    notes: list[str] = []
    for path in paths:
        old = read_text(path)
        if old is None:
            continue
        document = toml_object(old, path)
        tokens = toml_tokens_in(document)  # before the plan changes it
        taken = take_ours_out(document, str(path.absolute()))
        notes += taken_out_note(path, taken)
        if trust is not None:
            trust(document)
        features = document.get("features")
        named = [replace(s, what=f"{s.what} in the profile file {path}") for s in switches]
        noted = previous.setdefault(_RECORDED + path.name, {}) if path in switched else None
        if install and noted is not None:
            for switch in named:
                if isinstance(features, dict) and features.get(switch.keys[-1]) is True:
                    notes.append(switch_off(document, switch, noted, tomlkit.table))
        elif noted is not None:  # a file holding only inline hooks of ours: nothing to put back
            first = record.first_found(path, toml_object)
            notes += switches_back(document, named, noted, first=first)
        secrets = frozenset(tokens | toml_tokens_in(document))
        new = no_gaps(old, dump_toml(document, old)) if taken else dump_toml(document, old)
        changes.append(FileChange(path, old, new, secrets, harness_settings=True))
    return changes, notes


def memory_profile_notes(codex_home: Path) -> list[str]:
    """One WARNING per profile file of :func:`memory_profiles` that turns memories or
    terminals on (one made or changed since the install): what stays on, and the fix."""
    said = {
        "memories": "Codex CLI's own memories stay on",
        "unified_exec_tty": "Codex CLI's terminals, whose input the write guard never sees, are on",
    }
    return [
        f"WARNING: {what} in Sessions started with `--profile "
        f"{path.name.removesuffix(PROFILE_SUFFIX)}`: {path} says [features] {key} = true, "
        "and Codex lays a profile file over config.toml. Run `harness-memory install codex` "
        "again to set it off there, or pin it for every profile with `harness-memory install "
        "codex --managed` (as root)"
        for key, what in said.items()
        for path in memory_profiles(codex_home, (key,))
    ]


def profiles_off(codex_home: Path, config: Mapping[str, Any]) -> list[tuple[Path, list[str]]]:
    """Each profile file in ``codex_home`` whose own ``[features] hooks = false`` (or
    ``codex_hooks = false``) switches every hook off in Sessions started with its
    ``--profile``, laid over ``config`` (the user's ``config.toml``, parsed: Codex merges the
    tables key by key, then ``hooks`` holds over ``codex_hooks``), with what says so."""
    base = config.get("features")
    base = dict(base) if isinstance(base, Mapping) else {}
    found: list[tuple[Path, list[str]]] = []
    for path, document in profile_documents(codex_home):
        features = document.get("features")
        if not isinstance(features, Mapping) or not {"hooks", "codex_hooks"} & set(features):
            continue
        if why := codex_off({"features": {**base, **features}}):
            found.append((path, why))
    return found


def profiles_off_notes(codex_home: Path, config: Mapping[str, Any]) -> list[str]:
    """The install's WARNING for each profile file of :func:`profiles_off` (the install leaves
    the switch as it is, as it does in ``config.toml``)."""
    return [
        f"WARNING: {profile_off_said(path, why)}" for path, why in profiles_off(codex_home, config)
    ]


def profile_off_said(path: Path, why: list[str]) -> str:
    """The sentence for the profile file ``path`` whose ``why`` switch the hooks off."""
    name = path.name.removesuffix(PROFILE_SUFFIX)
    return f"in Sessions started with `--profile {name}`: {switched_off(HARNESS, path, why)}"
