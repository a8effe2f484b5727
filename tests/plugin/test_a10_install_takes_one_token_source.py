"""A-10, H-7: an install is given its token one way; given two, it says so and changes nothing.

``harness-memory install codex --token T --token-file PATH`` used to take ``--token`` and pass
over the file without a word: the hooks were given another token than the file the user named
(a re-check of the token-in-readable-settings case). The usage line already read
``[--token-file PATH | --token T]``; now the two flags refuse each other, as that line says.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_memory.cli import main

HARNESSES = ("claude-code", "codex", "gemini")


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_install_given_a_token_and_a_token_file_refuses_both_and_writes_nothing(
    harness: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    token_file = tmp_path / "token"
    token_file.write_text("file-token-0123456789\n", encoding="utf-8")
    token_file.chmod(0o600)
    root = tmp_path / "memory"
    root.mkdir()
    argv = [
        "install",
        harness,
        "--memory-root",
        str(root),
        "--url",
        "http://127.0.0.1:9",
        "--project",
        "acme",
        "--agent",
        "coder",
        "--token",
        "typed-token-0123456789",
        "--token-file",
        str(token_file),
    ]
    with pytest.raises(SystemExit) as stopped:
        main(argv, environ={"HOME": str(home)})
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert "argument --token-file: not allowed with argument --token" in said
    assert list(home.iterdir()) == []  # no settings, no token file, no record
    assert list(root.iterdir()) == []
    assert token_file.read_text(encoding="utf-8") == "file-token-0123456789\n"
