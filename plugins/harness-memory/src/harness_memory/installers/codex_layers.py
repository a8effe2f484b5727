"""The Codex CLI settings layers that decide which project folders and which trust apply
(H-3, H-6, H-7).

Codex CLI 0.171 builds its settings from layers (openai/codex ``codex-rs/config/src/loader/
mod.rs``, ``load_config_layers_state``): the system ``/etc/codex/config.toml``, the user's
``$CODEX_HOME/config.toml``, then, for a Session started with ``--profile NAME``, the profile
file ``$CODEX_HOME/NAME.config.toml`` as a second user layer, then ``-c`` overrides. It reads
``project_root_markers`` from those layers merged (a later layer's value replaces an
earlier's) before it walks up to the project's root, and only then lays the legacy
``/etc/codex/managed_config.toml`` (:data:`LEGACY_MANAGED`) on top of everything: its
``[features]`` hold over every user setting (:func:`system_switch`), its markers find no
project (they are read before it is laid on). It reads the trust of each hook
(``[hooks.state]``) from the user layers only, the profile file's over ``config.toml`` field
by field (``codex-rs/hooks/src/config_rules.rs``, ``hook_states_from_stack``; a system or
project file's ``[hooks.state]`` is ignored). :func:`views` is what a Session sees without a
profile and with each profile file; ``-c`` overrides, given per run, are not known to
``status``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from harness_memory.installers.codex_inline import trust_entries
from harness_memory.installers.codex_profiles import PROFILE_SUFFIX, profile_documents
from harness_memory.installers.settings_text import read_toml_as_codex

__all__ = [
    "DEFAULT_MARKERS",
    "LEGACY_MANAGED",
    "View",
    "merged_trust",
    "profile_said",
    "system_dir",
    "system_switch",
    "views",
]

DEFAULT_MARKERS = (".git",)
"""codex-rs ``default_project_root_markers``."""
LEGACY_MANAGED = "managed_config.toml"
"""Codex CLI's legacy managed config in the system folder (``/etc/codex``): read as a config
layer laid over every other one, ``-c`` flags included (and its approval and sandbox keys as
requirements), once the project's root is found (its ``project_root_markers`` find none); a
missing one is none."""


class View(NamedTuple):
    """What a Session reads: ``profile`` (its ``--profile`` name; None: none), the
    ``markers`` it finds the project's root by, ``trust`` (a ``config.toml``-like document
    holding the merged ``[hooks.state]``) and ``file``, the user layer that differs from
    the Session without a profile (the profile file; ``config.toml`` for that one)."""

    profile: str | None
    markers: tuple[str, ...]
    trust: dict[str, Any]
    file: Path


def system_dir() -> Path:
    """Where Codex CLI reads its system ``config.toml`` and ``requirements.toml``:
    :data:`~harness_memory.installers.codex_managed.DEFAULT_DIR` (``/etc/codex``)."""
    from harness_memory.installers import codex_managed

    return codex_managed.DEFAULT_DIR


def _markers(*layers: Mapping[str, Any] | None) -> tuple[str, ...]:
    """``project_root_markers`` of the highest of ``layers`` (lowest first) that sets it:
    ``()`` for ``[]`` (the Workspace alone); not a list of strings, the default (Codex then
    refuses to start); none setting it, :data:`DEFAULT_MARKERS`."""
    for layer in reversed(layers):
        if layer is not None and "project_root_markers" in layer:
            markers = layer["project_root_markers"]
            if isinstance(markers, list) and all(isinstance(m, str) for m in markers):
                return tuple(markers)
            return DEFAULT_MARKERS
    return DEFAULT_MARKERS


def merged_trust(user: Mapping[str, Any], profile: Mapping[str, Any]) -> dict[str, Any]:
    """``{"hooks": {"state": …}}``: the trust entries of the user's ``config.toml`` document
    ``user`` with those of the profile file document ``profile`` laid over them field by
    field (``enabled``, ``trusted_hash``), as Codex merges them; keys stripped of the spaces
    around them, as Codex reads them."""
    state: dict[str, dict[str, Any]] = {}
    for document in (user, profile):
        for key, entry in trust_entries(document).items():
            if not isinstance(entry, Mapping) or not key.strip():
                continue
            merged = state.setdefault(key.strip(), {})
            merged.update({k: entry[k] for k in ("enabled", "trusted_hash") if k in entry})
    return {"hooks": {"state": state}}


def views(codex_home: Path, system: Path | None = None) -> list[View]:
    """The Session without a profile first, then one per profile file in ``codex_home``
    whose ``project_root_markers`` or ``[hooks.state]`` make it differ; ``system`` is the
    folder of the system ``config.toml`` (default :func:`system_dir`). The markers are those
    of the system, user and profile layers: the legacy ``managed_config.toml`` is laid on
    only after Codex has found the project's root by them (:data:`LEGACY_MANAGED`)."""
    system_config = read_toml_as_codex((system or system_dir()) / "config.toml")
    config_path = codex_home / "config.toml"
    user = read_toml_as_codex(config_path) or {}
    base = View(None, _markers(system_config, user), merged_trust(user, {}), config_path)
    found = [base]
    for path, profile in profile_documents(codex_home):
        markers = _markers(system_config, user, profile)
        if markers == base.markers and not trust_entries(profile):
            continue
        name = path.name.removesuffix(PROFILE_SUFFIX)
        found.append(View(name, markers, merged_trust(user, profile), path))
    return found


def profile_said(view: View) -> str:
    """`` in Sessions started with `--profile NAME``` for a profile's view; ``""`` else."""
    return "" if view.profile is None else f" in Sessions started with `--profile {view.profile}`"


def system_switch(
    config: Mapping[str, Any], config_path: Path, system: Path | None = None
) -> str | None:
    """The sentence when the system ``config.toml`` (in ``system``, default :func:`system_dir`)
    switches every hook off with ``[features] hooks = false`` (or ``codex_hooks = false``) and
    the user's ``config.toml`` (``config``, read from ``config_path``) sets neither over it:
    Codex merges ``[features]`` key by key, the system layer lowest (openai/codex
    ``codex-rs/config/src/loader/mod.rs``, ``load_config_layers_state``). None otherwise, and
    when the ``requirements.toml`` beside it pins ``hooks = true`` (under ``[features]`` or
    ``[feature_requirements]``): requirements hold over every config. The legacy
    ``managed_config.toml`` beside it (:data:`LEGACY_MANAGED`) is laid over both: its
    ``hooks = false`` is named whatever the user's file says, its ``hooks = true`` keeps them on."""
    from harness_memory.installers.codex_managed import REQUIREMENTS_NAME
    from harness_memory.installers.own_switches import codex_off

    folder = system or system_dir()
    path = folder / "config.toml"
    if _pins_hooks_on(read_toml_as_codex(folder / REQUIREMENTS_NAME) or {}):
        return None
    system_config = read_toml_as_codex(path) or {}
    legacy = folder / LEGACY_MANAGED
    below, above = _features(system_config), _features(config)
    top = _features(read_toml_as_codex(legacy) or {})
    why = codex_off({"features": {**below, **above, **top}})
    if why and codex_off({"features": top}):
        return (
            f"{legacy} switches these hooks off ({', '.join(why)}): Codex CLI lays it over "
            "every other settings layer, yours included, so it skips them and its Sessions go "
            "without what they do (memory at Session start, the write guard) whatever your "
            "settings say; ask whoever keeps this machine's settings to take that out "
            "(`harness-memory status` reports it until then)"
        )
    if not why or codex_off(config):
        return None  # on, or the user's own file says so itself
    return (
        f"{path} switches these hooks off ({', '.join(why)}) and {config_path} sets no "
        "[features] hooks over it: Codex CLI skips them, and its Sessions go without what they "
        f"do (memory at Session start, the write guard); set hooks = true under [features] in "
        f"{config_path} to use Agent Memory (`harness-memory status` reports it until then)"
    )


def _features(document: Mapping[str, Any]) -> dict[str, Any]:
    """The ``[features]`` table of a Codex settings ``document`` (parsed); ``{}`` for none."""
    features = document.get("features")
    return dict(features) if isinstance(features, Mapping) else {}


def _pins_hooks_on(requirements: Mapping[str, Any]) -> bool:
    """Whether Codex's ``requirements`` (parsed) pin ``hooks`` (else ``codex_hooks``, its
    old name) on under ``[features]`` or ``[feature_requirements]``."""
    from harness_memory.installers.own_memory import plain_value

    for table in ("features", "feature_requirements"):
        pinned = requirements.get(table)
        if isinstance(pinned, Mapping):
            key = "hooks" if "hooks" in pinned else "codex_hooks"
            if plain_value(pinned.get(key)) is True:
                return True
    return False
