"""Codex CLI's ``[features] hooks`` holds over its older name ``codex_hooks`` (P-3, H-7).

With both in one ``config.toml``, Codex CLI 0.171 goes by ``hooks`` alone: ``hooks = true``
beside ``codex_hooks = false`` runs every hook, ``hooks = false`` beside ``codex_hooks = true``
runs none (measured with the real CLI: ``test_e2e_codex_repository_switches_hooks_off.py``).
``status`` in a repository and the install into the user's own file judge it so: no warning of
a switch that switches nothing off, and the one that does named.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.plugin.test_h7_own_settings_switch_hooks_off import cli, install, settings
from tests.plugin.test_h7_status_names_a_workspace_switching_hooks_off import (
    cli as status_cli,
)
from tests.plugin.test_h7_status_names_a_workspace_switching_hooks_off import (
    install as status_install,
)
from tests.plugin.test_h7_status_names_a_workspace_switching_hooks_off import repository

BOTH = {
    "[features]\nhooks = true\ncodex_hooks = false\n": None,
    "[features]\ncodex_hooks = true\nhooks = false\n": "[features] hooks = false",
    "features.codex_hooks = false\nfeatures.hooks = true\n": None,
    "[features]\ncodex_hooks = false\n": "[features] codex_hooks = false",
}
"""A ``config.toml`` → what status names as switching the hooks off (None: nothing)."""


@pytest.mark.parametrize("text", list(BOTH), ids=str)
def test_status_in_a_repository_goes_by_hooks_over_codex_hooks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    status_install(tmp_path, "codex")
    path, inside = repository(tmp_path, ".codex/config.toml", text)
    monkeypatch.chdir(inside)

    said = status_cli(tmp_path, "status")

    why = BOTH[text]
    if why is None:
        assert "switches these hooks off" not in said
    else:
        assert f"codex: WARNING: {path} switches these hooks off" in said
        assert f"({why}): no memory and no write guard there" in said


@pytest.mark.parametrize("text", list(BOTH), ids=str)
def test_an_install_into_the_users_own_file_goes_by_hooks_over_codex_hooks(
    tmp_path: Path, text: str
) -> None:
    path = settings(tmp_path, ".codex/config.toml", text)

    home, said = install(tmp_path, "codex")
    _, status = cli(home, "status")

    why = BOTH[text]
    if why is None:
        assert "switches these hooks off itself" not in said + status
    else:
        assert f"WARNING: {path} switches these hooks off itself ({why})" in said


LAYERED = {
    ("[features]\nhooks = true\n", "[features]\ncodex_hooks = false\n"): None,
    ("[features]\ncodex_hooks = true\n", "[features]\nhooks = false\n"): (
        "[features] hooks = false"
    ),
    ("[features]\nhooks = true\n", "[features]\nhooks = false\n"): "[features] hooks = false",
    ("", "[features]\ncodex_hooks = false\n"): "[features] codex_hooks = false",
}
"""The user's ``config.toml`` and a trusted project's → what status names in the project as
switching the hooks off (None: nothing). Codex merges ``[features]`` across its layers (the
user's, then the project's) before ``hooks`` holds over ``codex_hooks``: a user's
``hooks = true`` beside a project's ``codex_hooks = false`` runs every hook (measured with the
real CLI by the reviewer of round 48)."""


@pytest.mark.parametrize(("user", "project"), list(LAYERED), ids=str)
def test_status_merges_the_users_features_with_the_projects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, user: str, project: str
) -> None:
    """The merged table is judged; the project file that set the deciding key is named."""
    own = tmp_path / "home" / ".codex" / "config.toml"
    own.parent.mkdir(parents=True)
    own.write_text(user, encoding="utf-8")
    status_install(tmp_path, "codex")  # keeps the user's [features], adds its own keys
    assert tomllib.loads(own.read_text("utf-8"))["features"].items() >= _features(user).items()
    path, inside = repository(tmp_path, ".codex/config.toml", project)
    monkeypatch.chdir(inside)

    said = status_cli(tmp_path, "status")

    why = LAYERED[(user, project)]
    if why is None:
        assert f"WARNING: {path}" not in said
    else:
        assert f"codex: WARNING: {path} switches these hooks off" in said
        assert f"({why}): no memory and no write guard there" in said


def _features(text: str) -> dict[str, object]:
    features = tomllib.loads(text).get("features", {})
    assert isinstance(features, dict)
    return features
