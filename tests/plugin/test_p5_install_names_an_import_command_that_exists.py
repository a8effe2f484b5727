"""P-5, H-3: an install's way to bring a harness's own memory over names a ``memory-api`` that
is there.

The plugin README's "venv of its own" holds the plugin's wheel alone: no ``memory-api``. The
Gemini install from it said "Bring its notes over: `memory-api memory import --from gemini …`",
a command that venv does not have. From there the install names the ``.venv/bin/memory-api``
of the checkout whose ``.data`` holds the memory root, or, with no such checkout, says the
command is the service's, run where the service is installed.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from harness_memory.cli import main

ROOT = Path(".data/agents/coder/agent_state/memory")


def install_gemini(tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """``install gemini`` run from a venv holding no ``memory-api``, none on ``PATH``; what it
    said."""
    venv = tmp_path / "wheel-venv" / "bin"
    venv.mkdir(parents=True)
    monkeypatch.setattr(sys, "executable", str(venv / "python"))
    root.mkdir(parents=True, exist_ok=True)
    home, out = tmp_path / "home", io.StringIO()
    flags = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    flags += ["--memory-root", str(root), "--executable", str(venv / "harness-memory")]
    environ = {"HOME": str(home), "PATH": str(tmp_path / "empty")}
    words = ["install", "gemini", *flags, "--no-check", "--home", str(home)]
    assert main(words, environ=environ, stdout=out) == 0
    return out.getvalue()


def test_p5_from_a_venv_of_its_own_the_import_is_the_service_checkouts_memory_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = tmp_path / "agent-memory" / ".venv" / "bin" / "memory-api"  # make run's checkout
    service.parent.mkdir(parents=True)
    service.write_text("#!/bin/sh\n", encoding="utf-8")

    said = install_gemini(tmp_path, tmp_path / "agent-memory" / ROOT, monkeypatch)

    assert f"Bring its notes over: `{service} memory import --from gemini --workspace" in said
    assert "`memory-api " not in said


def test_p5_with_no_memory_api_to_name_the_import_is_said_to_be_the_services(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = install_gemini(tmp_path, tmp_path / "srv" / ROOT, monkeypatch)

    assert "Bring its notes over: `memory-api memory import --from gemini --workspace" in said
    assert "the service's command (this install has no memory-api: run it from the " in said
