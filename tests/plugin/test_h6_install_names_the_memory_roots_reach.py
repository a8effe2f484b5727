"""H-3, H-6: the install's summary says what it opened for the memory root, one line per
harness: Claude Code's ``permissions`` (``additionalDirectories`` and an ``Edit`` rule in
``allow``), Codex CLI's ``sandbox_workspace_write.writable_roots``, Gemini CLI's
``context.includeDirectories``. A newcomer read only the switches the install turned off; the
settings it widened went unsaid (round 56's new-user run). An install again with another root
says the former one was taken out."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_h6_own_memory import load, memory_root, run

SAID = {
    "claude-code": "Claude Code's permissions: permissions.additionalDirectories and an Edit rule "
    "in permissions.allow name the memory root {root}",
    "codex": "Codex CLI's sandbox: sandbox_workspace_write.writable_roots in {config} names the "
    "memory root {root}",
    "gemini": "Gemini CLI's context.includeDirectories names the memory root {root}",
}


def reach(home: Path, harness: str) -> list[str]:
    """The entries of the settings that give the harness the memory root."""
    document = load(home, harness)
    if harness == "claude-code":
        permissions = document["permissions"]
        return [*permissions["additionalDirectories"], *permissions["allow"]]
    if harness == "codex":
        return list(document["sandbox_workspace_write"]["writable_roots"])
    return list(document["context"]["includeDirectories"])


@pytest.mark.parametrize("harness", sorted(SAID))
def test_h6_the_install_names_each_setting_it_widened_for_the_memory_root(
    tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    root = memory_root(tmp_path)

    status, said = run(home, "install", harness)

    assert status == 0, said
    assert str(root) in "\n".join(reach(home, harness))  # what the line says is what it did
    line = SAID[harness].format(root=root, config=home / ".codex" / "config.toml")
    assert f"{harness}: {line}" in said, said
    assert said.count(f"{harness}: {line}") == 1

    moved = tmp_path / "elsewhere" / "agents" / "coder" / "agent_state" / "memory"
    moved.mkdir(parents=True)
    status, said = run(home, "install", harness, "--memory-root", str(moved))

    assert status == 0, said
    assert SAID[harness].format(root=moved, config=home / ".codex" / "config.toml") in said
    assert f"the former memory root {root} taken out" in said, said
    assert str(root) not in "\n".join(reach(home, harness))
