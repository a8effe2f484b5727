"""H-3: a settings file holding no JSON object is refused in JSON's words, not Python's.

An install over ``~/.claude/settings.json`` holding ``null`` said "holds a JSON NoneType, not
an object" (``list`` for an array, ``str`` for a string): Python's type names, which a user who
wrote JSON does not know. The refusal names the JSON value the file holds.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main

FILE = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json"}
FILE["gemini"] = ".gemini/settings.json"
"""The JSON settings file each harness's install writes."""

HOLDS = {
    "null\n": "null",
    "[]\n": "an array",
    '"x"\n': "a string",
    "12\n": "a number",
    "true\n": "true",
    "// mine\n[1]\n": "an array",  # Gemini CLI's file with a comment goes another way
}
"""A file's text and the JSON value the refusal names."""


@pytest.mark.parametrize("harness", sorted(FILE))
@pytest.mark.parametrize("text", sorted(HOLDS))
def test_h3_an_install_over_a_file_holding_no_object_names_the_json_value(
    tmp_path: Path, harness: str, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    settings = home / FILE[harness]
    settings.parent.mkdir(parents=True)
    settings.write_text(text, encoding="utf-8")
    (tmp_path / "memory").mkdir()
    argv = ["install", harness, "--home", str(home), "--memory-root", str(tmp_path / "memory")]
    argv += ["--url", "http://127.0.0.1:9", "--project", "p", "--agent", "a", "--no-check"]
    status = main(
        [*argv, "--token", "t0ken-0123456789ab"], environ={"HOME": str(home)}, stdout=io.StringIO()
    )
    assert status == 1
    assert settings.read_text(encoding="utf-8") == text
    if "//" in text and harness != "gemini":
        assert "holds a comment" in caplog.text
        return
    assert f"{settings} holds {HOLDS[text]}, not a JSON object" in caplog.text
