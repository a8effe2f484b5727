"""H-3: an install whose only ``harness-memory`` is an editable one says how to get one that
outlives the checkout — with pipx, and with plain Python, since a machine with only Python has
neither pipx nor uv. The plain form is the plugin README's ("Install without the checkout")."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from harness_memory.installers.executable import PLAIN_VENV, choose_executable
from memory_api.settings import default_data_dir

README = Path(__file__).parents[2] / "plugins" / "harness-memory" / "README.md"


def editable_environment(folder: Path) -> Path:
    """A virtual environment whose ``harness-memory`` is an editable install of a checkout."""
    python = folder / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("", encoding="utf-8")
    script = folder / "bin" / "harness-memory"
    script.write_text(f"#!{python}\n", encoding="utf-8")
    script.chmod(0o755)
    record = folder / "lib" / "python3.11" / "site-packages"
    record /= "agent_memory_harness-0.1.0.dist-info"
    record.mkdir(parents=True)
    direct = {
        "url": "file:///src/agent-memory/plugins/harness-memory",
        "dir_info": {"editable": True},
    }
    (record / "direct_url.json").write_text(json.dumps(direct), encoding="utf-8")
    return python


def test_h3_the_editable_install_note_gives_the_plain_python_way_the_readme_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", str(editable_environment(tmp_path / "venv")))

    chosen = choose_executable(None, {"PATH": str(tmp_path / "empty")})

    assert chosen.checkout == Path("/src/agent-memory/plugins/harness-memory")
    commands = re.findall(r"`([^`]+)`", chosen.note)
    assert any(command.startswith("pipx install dist/") for command in commands)
    [plain] = [command for command in commands if command.startswith("python3 -m venv ")]
    readme = README.read_text(encoding="utf-8")
    for step in plain.split(" && "):
        assert step in readme
    assert "agent-memory-harness" in plain


def test_h3_the_plain_python_venv_is_not_the_services_default_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The venv the note and the README make lies apart from ``memory-api``'s default data dir
    (``~/.local/share/agent-memory``): neither holds the other, so a ``memory-api`` run with no
    data dir named never fills the venv with agents and tokens, and removing one keeps the
    other."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(editable_environment(tmp_path / "checkout-venv")))
    note = choose_executable(None, {"PATH": str(tmp_path / "empty")}).note
    [plain] = [c for c in re.findall(r"`([^`]+)`", note) if c.startswith("python3 -m venv ")]
    venv = Path(plain.split(" && ")[0].removeprefix("python3 -m venv ")).expanduser().resolve()
    data_dir = default_data_dir({})

    assert venv.parent == data_dir.parent  # beside it, in ~/.local/share
    assert not venv.is_relative_to(data_dir) and not data_dir.is_relative_to(venv)
    readme = README.read_text(encoding="utf-8")
    assert f"python3 -m venv {PLAIN_VENV}\n" in readme
