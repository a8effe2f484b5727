"""H-3: the Claude Code settings the plugin README shows are exactly what
``harness-memory install claude-code`` writes, so wiring by hand from the README gives the same
hooks (the Session-start entries carry ``--memory-root`` for H-4, the guard carries the ids,
and each starts the script's own Python isolated, ``-I``: P-2a)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from harness_memory.cli import main

README = Path(__file__).resolve().parents[2] / "plugins" / "harness-memory" / "README.md"
ROOT = "/srv/agent-memory/agents/coder/agent_state/memory"


def readme_settings() -> dict[str, Any]:
    """The first JSON block of the README's "## Claude Code" section."""
    section = README.read_text(encoding="utf-8").split("\n## Claude Code\n", 1)[1]
    block = section.split("```json\n", 1)[1].split("```", 1)[0]
    loaded: dict[str, Any] = json.loads(block)
    return loaded


def test_h3_readme_claude_code_settings_are_what_install_writes(tmp_path: Path) -> None:
    flags = ["--home", str(tmp_path), "--memory-root", ROOT, "--url", "http://127.0.0.1:8765"]
    flags += ["--project", "acme", "--agent", "coder", "--token", "your-bearer-token"]
    script = tmp_path / "venv" / "bin" / "harness-memory"  # the README's /opt/agent-memory/.venv
    script.parent.mkdir(parents=True)
    script.write_text("#!/opt/agent-memory/.venv/bin/python\nfrom harness_memory.cli import run\n")
    flags += ["--executable", str(script), "--no-check"]
    status = main(
        ["install", "claude-code", *flags], environ={"HOME": str(tmp_path)}, stdout=io.StringIO()
    )
    assert status == 0
    text = (tmp_path / ".claude" / "settings.json").read_text(encoding="utf-8")
    text = text.replace(str(tmp_path / "venv"), "/opt/agent-memory/.venv")
    written = json.loads(text.replace(str(tmp_path), "/home/ada"))  # the README's home
    assert written == readme_settings()
