"""H-3: ``uninstall`` with nothing of ours installed leaves the settings file byte for byte as
it is, and makes no backup.

A reviewer ran ``uninstall`` on a settings file holding ``{"hooks": {}}`` (and an event's empty
list): it was rewritten ``{}`` and a backup written beside it, though no hook of ours was there.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main

SETTINGS = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
TEXTS = ['{"hooks": {}}\n', '{\n  "hooks": {"PreToolUse": []},\n  "model": "x"\n}\n']


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("harness", list(SETTINGS))
def test_h3_uninstall_with_nothing_installed_leaves_the_settings_byte_identical(
    tmp_path: Path, harness: str, text: str
) -> None:
    home = tmp_path / "home"
    settings = home / SETTINGS[harness]
    settings.parent.mkdir(parents=True)
    settings.write_text(text, "utf-8")
    out = io.StringIO()

    status = main(
        ["uninstall", harness, "--home", str(home)], environ={"HOME": str(home)}, stdout=out
    )

    assert status == 0, out.getvalue()
    assert settings.read_text("utf-8") == text, out.getvalue()
    assert sorted(p.name for p in settings.parent.iterdir()) == [settings.name], out.getvalue()
    assert "nothing to change" in out.getvalue(), out.getvalue()
