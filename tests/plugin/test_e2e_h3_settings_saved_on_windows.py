"""H-3 with the real Claude Code CLI: user settings an editor saved on Windows (a UTF-8 byte
order mark, CRLF line ends) are installed into (``test_h3_settings_saved_on_windows.py``), and
Claude Code reads them so: the Session gets Agent Memory, and Claude Code's own memory is off."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.harness_run import install, workspace_with_key
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h6_repository_turns_own_memory_on import OWN_MEMORY, first_requests

pytestmark = pytest.mark.e2e


async def test_h3_claude_code_reads_the_hooks_installed_into_settings_saved_on_windows(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_bytes('\ufeff{\r\n  "theme": "dark"\r\n}\r\n'.encode())
    install("claude-code", home, shared_service, shared_memory_root, agent=new_agent)
    assert settings.read_bytes().startswith(b"\xef\xbb\xbf{\r\n")

    sent = await first_requests(claude, shared_service, workspace, home)

    assert f"- Workspace Memory Key: {key}" in sent
    assert OWN_MEMORY not in sent
