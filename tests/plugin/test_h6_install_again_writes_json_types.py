"""H-6, H-3: an install again compares the settings it would write by their JSON types: a
value the user (or a tool) changed to ``0``, ``1`` or ``1.0`` is not the ``false``, ``true``
or ``1`` the install writes, and is written again.

A reviewer edited ``"autoMemoryEnabled": false`` into ``0`` and installed again: "nothing to
change … (autoMemoryEnabled = false …)", the ``0`` kept (Python's ``0 == False``).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags


def install(home: Path) -> str:
    out = io.StringIO()
    argv = ["install", "claude-code", "--home", str(home), "--no-check", *flags(home)]
    assert main(argv, environ={"HOME": str(home)}, stdout=out) == 0, out.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("like", [0, 0.0])
def test_h6_an_install_again_writes_false_over_a_number(tmp_path: Path, like: float) -> None:
    home = tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True)
    install(home)
    settings = home / ".claude" / "settings.json"
    document = json.loads(settings.read_text())
    assert document["autoMemoryEnabled"] is False
    settings.write_text(json.dumps({**document, "autoMemoryEnabled": like}, indent=2) + "\n")

    said = install(home)

    assert json.loads(settings.read_text())["autoMemoryEnabled"] is False, said
    assert "nothing to change" not in said
