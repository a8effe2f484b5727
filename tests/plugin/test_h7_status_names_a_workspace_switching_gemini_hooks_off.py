"""``harness-memory status``, run in a Workspace, says when that Workspace's Gemini CLI settings
switch the installed hooks off (``tests/data/cases/repository-switches-hooks-off``, its Gemini
kind: measured with the real CLI in ``test_e2e_gemini_repository_switches_hooks_off.py``).

A trusted Workspace's ``.gemini/settings.json`` saying ``hooksConfig.enabled: false``, or
listing a hook's name (its command, when it has none) in ``hooksConfig.disabled``, or holding a
``hooks`` that is no object (``null``, ``[]``: it replaces the user's ``hooks``), leaves its
Sessions without memory or write guard, and nobody is told: ``status`` tells. Over the managed
install (Gemini CLI's system settings) the first holds no more, and the hooks' names end in a
random part, so only a list naming those very names switches them off.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from harness_memory.cli import main

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder", "--no-check"]
FLAGS += ["--executable", "/opt/venv/bin/harness-memory"]


def cli(tmp_path: Path, *words: str) -> str:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    out = io.StringIO()
    main([*words, "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return out.getvalue()


def install(tmp_path: Path, *managed: str) -> None:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    said = cli(tmp_path, "install", "gemini", *managed, *FLAGS, "--memory-root", str(root))
    assert "gemini" in said


def workspace_saying(tmp_path: Path, settings: dict[str, Any]) -> Path:
    workspace = tmp_path / "src" / "app"
    (workspace / ".gemini").mkdir(parents=True)
    text = json.dumps(settings)
    (workspace / ".gemini" / "settings.json").write_text(text, encoding="utf-8")
    return workspace


USER_NAMES = ["agent-memory-session-start", "agent-memory-before-tool"]


@pytest.mark.parametrize(
    ("settings", "why"),
    [
        ({"hooksConfig": {"enabled": False}}, "hooksConfig.enabled: false"),
        ({"hooksConfig": {"enabled": "fAlse"}}, "hooksConfig.enabled: false"),  # Gemini 0.61's
        (
            {"hooksConfig": {"disabled": USER_NAMES}},
            "hooksConfig.disabled lists agent-memory-before-tool, agent-memory-session-start",
        ),
        ({"hooks": None}, '"hooks": null replaces every hook of your settings'),
        ({"hooks": []}, '"hooks": [] replaces every hook of your settings'),
        ({"hooks": False}, '"hooks": false replaces every hook of your settings'),
        ({"hooks": ""}, '"hooks": "" replaces every hook of your settings'),
    ],
    ids=[
        "enabled-false",
        "enabled-text-false",
        "disabled-by-name",
        "hooks-null",
        "hooks-list",
        "hooks-false",
        "hooks-text",
    ],
)
def test_status_in_a_workspace_that_switches_the_user_installs_hooks_off_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: dict[str, Any], why: str
) -> None:
    install(tmp_path)
    workspace = workspace_saying(tmp_path, settings)
    monkeypatch.chdir(workspace)

    said = cli(tmp_path, "status")

    path = workspace / ".gemini" / "settings.json"
    assert f"gemini: WARNING: {path} switches these hooks off in Sessions in this Workspace" in said
    assert f"({why}): no memory and no write guard there" in said
    assert "install gemini --managed" in said


def test_status_in_a_workspace_that_switches_nothing_off_says_nothing_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path)
    workspace = workspace_saying(tmp_path, {"hooksConfig": {"disabled": ["their-own-hook"]}})
    monkeypatch.chdir(workspace)
    assert "switches these hooks off" not in cli(tmp_path, "status")
    monkeypatch.chdir(tmp_path)  # no .gemini folder at all
    assert "switches these hooks off" not in cli(tmp_path, "status")


def test_status_over_the_managed_install_warns_only_of_a_list_naming_its_hooks_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = tmp_path / "etc" / "gemini-cli"
    install(tmp_path, "--managed", str(system))
    installed = json.loads((system / "settings.json").read_text(encoding="utf-8"))
    handlers = [h for groups in installed["hooks"].values() for g in groups for h in g["hooks"]]
    predicted = {
        "hooksConfig": {
            "enabled": False,
            "disabled": [*USER_NAMES, *(h["command"] for h in handlers)],
        }
    }
    workspace = workspace_saying(tmp_path, predicted)
    monkeypatch.chdir(workspace)
    assert "switches these hooks off" not in cli(tmp_path, "status", "--managed", str(system))
    # the system settings are merged last: a Workspace's "hooks": null replaces no hook of theirs
    replaced = {"hooks": None}
    (workspace / ".gemini" / "settings.json").write_text(json.dumps(replaced), encoding="utf-8")
    assert "switches these hooks off" not in cli(tmp_path, "status", "--managed", str(system))

    names = {"hooksConfig": {"disabled": [h["name"] for h in handlers]}}
    (workspace / ".gemini" / "settings.json").write_text(json.dumps(names), encoding="utf-8")
    said = cli(tmp_path, "status", "--managed", str(system))
    assert (
        "gemini (managed): WARNING:" in said and "hooksConfig.disabled lists agent-memory-" in said
    )


def test_status_in_a_workspace_whose_settings_nest_too_deep_says_it_cannot_tell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repository's ``.gemini/settings.json`` nested past Python's recursion limit ended
    ``status`` in a ``RecursionError`` traceback. Gemini CLI (node's ``JSON.parse``) reads it,
    status cannot: it says it cannot tell whether the file switches the hooks off."""
    install(tmp_path)
    workspace = workspace_saying(tmp_path, {})
    deep = 100_000
    path = workspace / ".gemini" / "settings.json"
    path.write_text('{"a": ' + "[" * deep + "]" * deep + "}", encoding="utf-8")
    monkeypatch.chdir(workspace)

    said = cli(tmp_path, "status")

    assert (
        "gemini: WARNING: cannot tell whether this Workspace's settings switch these hooks off: "
        f"{path}: it nests arrays or objects deeper than harness-memory reads"
    ) in said
