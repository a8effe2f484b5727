"""H-3, H-7: Codex CLI still reads the legacy ``/etc/codex/managed_config.toml`` as a config
layer laid over every other one, the user's ``config.toml`` and ``-c`` flags included
(openai/codex ``codex-rs/config/src/loader/mod.rs``, ``load_config_layers_state``: "the legacy
``managed_config.toml`` as a config layer on top of everything else"). So its ``[features]
hooks = false`` switches our hooks off whatever the user's ``config.toml`` says, and its
``hooks = true`` holds over a system ``config.toml``'s ``false``. Before, install and status
never read it: they said nothing while Codex ran none of the hooks, and called hooks off that
it turns back on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_h3_codex_project_hooks import memory_root, run


def system_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **files: str) -> Path:
    """``/etc/codex`` stood in for by a folder holding ``files`` (name → text)."""
    from harness_memory.installers import codex_managed

    system = tmp_path / "etc" / "codex"
    system.mkdir(parents=True)
    for name, text in files.items():
        (system / name.replace("_toml", ".toml")).write_text(text, encoding="utf-8")
    monkeypatch.setattr(codex_managed, "DEFAULT_DIR", system)
    return system


def test_the_legacy_managed_config_switching_hooks_off_wins_over_the_users_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    system = system_dir(tmp_path, monkeypatch, managed_config_toml="[features]\nhooks = false\n")

    code, said = run(home, "install", "--memory-root", str(memory_root(tmp_path)))

    opening = (
        f"{system / 'managed_config.toml'} switches these hooks off ([features] hooks = false)"
    )
    assert code == 0 and f"codex: WARNING: {opening}" in said, said
    config = home / ".codex" / "config.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("[features]\n", "[features]\nhooks = true\n")
    )
    code, said = run(home, "status", "--managed", str(system))
    assert f"codex: PROBLEM: {opening}" in said and code == 1, said  # the user's true loses


def test_the_legacy_managed_config_switching_hooks_on_holds_over_the_system_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    system_dir(
        tmp_path,
        monkeypatch,
        config_toml="[features]\nhooks = false\n",
        managed_config_toml="[features]\nhooks = true\n",
    )

    code, said = run(home, "install", "--memory-root", str(memory_root(tmp_path)))

    assert code == 0 and "switches these hooks off" not in said, said


def test_the_legacy_managed_config_never_sets_the_markers_codex_finds_the_project_by(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex reads ``project_root_markers`` from the layers merged before the project's
    (system, user, profile, ``-c``) and lays the legacy file on only after: its markers never
    decide which folder is the project (``load_config_layers_state``)."""
    from harness_memory.installers.codex_layers import DEFAULT_MARKERS, views

    system = system_dir(tmp_path, monkeypatch, managed_config_toml="project_root_markers = []\n")
    home = tmp_path / "home" / ".codex"
    home.mkdir(parents=True)
    (home / "ci.config.toml").write_text('project_root_markers = [".hg"]\n', encoding="utf-8")

    seen = {view.profile: view.markers for view in views(home, system)}

    assert seen == {None: DEFAULT_MARKERS, "ci": (".hg",)}
