"""H-7, P-3: ``install codex`` says at once when this machine's Codex CLI requirements keep the
hooks of the user's settings from running, as ``status`` does, and fails as ``status`` does.

Codex CLI reads ``/etc/codex/requirements.toml`` over every config layer (openai/codex
``codex-rs/config/src/loader/mod.rs``, ``load_requirements_toml``): its ``[features] hooks =
false`` (or ``[feature_requirements]``) runs no hook, and ``allow_managed_hooks_only = true``
skips every layer but the managed ones (``hooks/src/engine/discovery.rs``,
``HookDiscoveryPolicy::allows``), the user's ``~/.codex`` too. An install there wrote hooks
that never run; it said nothing until ``status`` was run. The folder stands in for
``/etc/codex``; only keys are named, never a value (those files may hold a token).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_memory.installers import codex_managed

from tests.plugin.test_h7_install_names_machine_settings_switching_hooks_off import (
    checked_flags,
)
from tests.plugin.test_h7_status_names_codex_hooks_it_skips import cli

REQUIREMENTS = {
    "allow_managed_hooks_only = true\n": "allow_managed_hooks_only = true",
    '[features]\nhooks = false\nnote = "Bearer sk-live-SECRET1"\n': "[features] hooks = false",
    "[feature_requirements]\nhooks = false\n": "[feature_requirements] hooks = false",
}


@pytest.mark.parametrize("text", list(REQUIREMENTS))
def test_install_codex_says_the_machines_requirements_switch_its_hooks_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    system = tmp_path / "etc" / "codex"
    system.mkdir(parents=True)
    requirements = system / "requirements.toml"
    requirements.write_text(text, encoding="utf-8")
    monkeypatch.setattr(codex_managed, "DEFAULT_DIR", system)
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    home = tmp_path / "home"

    code, said = cli(home, "install", "codex", *checked_flags(tmp_path), "--memory-root", str(root))

    assert (
        f"codex: PROBLEM: {requirements}, this machine's settings, switch the hooks of your "
        f"settings off ({REQUIREMENTS[text]})"
    ) in said, said
    assert "sk-live" not in said
    assert code == 1
    assert (home / ".codex" / "hooks.json").exists()  # written: they run once it is gone
    requirements.write_text("[features]\n", encoding="utf-8")
    code, said = cli(home, "install", "codex", *checked_flags(tmp_path), "--memory-root", str(root))
    assert code == 0 and "this machine's settings" not in said, said


def test_a_dry_run_names_the_problem_and_offers_no_next_step_that_would_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--dry-run`` exits 1 as the run would (the README's rule for a dry run), names the
    PROBLEM, writes nothing, and ends with no ``next:`` install whose hooks would not run."""
    system = tmp_path / "etc" / "codex"
    system.mkdir(parents=True)
    (system / "requirements.toml").write_text("allow_managed_hooks_only = true\n")
    monkeypatch.setattr(codex_managed, "DEFAULT_DIR", system)
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    home = tmp_path / "home"

    code, said = cli(
        home, "install", "codex", *checked_flags(tmp_path), "--memory-root", str(root), "--dry-run"
    )

    assert "codex: PROBLEM: " in said and "allow_managed_hooks_only = true" in said, said
    assert "next: " not in said, said
    assert code == 1
    assert not (home / ".codex" / "hooks.json").exists()
