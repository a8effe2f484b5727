"""H-3, H-7: a Claude Code ``settings.json`` saved as UTF-16LE with its byte order mark (a
Windows editor's "Unicode") is installed into and written back in UTF-16LE, as Claude Code
reads it (measured: :func:`~harness_memory.installers.workspace_switches.claude_code_settings`).

The install refused it ("is not UTF-8 text") though Claude Code takes its settings from it;
``status`` already read such a file. Codex CLI and Gemini CLI read UTF-8 only: their installs
still refuse one, and change nothing.
"""

from __future__ import annotations

import codecs
import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.support.harness_settings import SETTINGS_FILE, SETTINGS_FOLDER, install, run

USERS = '{\r\n  "model": "opus",\r\n  "theme": "Grüße ✓ 𝄞"\r\n}\r\n'
"""The user's settings: CRLF line ends, characters past Latin-1 and past the BMP."""


def utf16(text: str) -> bytes:
    return codecs.BOM_UTF16_LE + text.encode("utf-16-le")


def test_h3_claude_code_settings_in_utf16_are_installed_into_and_given_back(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    path = home / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(utf16(USERS))

    install("claude-code", home)

    data = path.read_bytes()
    assert data.startswith(codecs.BOM_UTF16_LE)  # still UTF-16LE, as the user saved it
    text = data[len(codecs.BOM_UTF16_LE) :].decode("utf-16-le")
    document = json.loads(text)
    assert (document["model"], document["theme"]) == ("opus", "Grüße ✓ 𝄞")
    assert {"SessionStart", "PreToolUse", "PostToolUse"} <= document["hooks"].keys()
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")  # its own line ends
    shown = io.StringIO()  # status reads it as Claude Code does (its exit: the root is missing)
    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=shown)
    assert f"claude-code: installed in {path}" in shown.getvalue()

    said = run("uninstall", "claude-code", home=home)

    assert path.read_bytes() == utf16(USERS), said


def test_h3_gemini_settings_in_utf16_are_refused_and_left_as_they_are(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = home / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(utf16('{"theme": "Default"}\n'))
    words = ["install", "gemini", "--url", "http://127.0.0.1:9", "--project", "acme"]
    words += ["--agent", "coder", "--memory-root", str(tmp_path / "memory"), "--no-check"]

    status = main([*words, "--home", str(home)], environ={"HOME": str(home)}, stdout=io.StringIO())

    assert status != 0
    assert path.read_bytes() == utf16('{"theme": "Default"}\n')


NOT_READ = {
    "UTF-16LE with a stray byte": (
        utf16('{"model": "opus"}\r\n') + b"\n",  # `echo >>` after PowerShell's `>`
        "is not the UTF-16 little-endian text its byte order mark (FF FE) says (byte 0x0a at "
        "offset 40: truncated data)",
    ),
    "UTF-16LE with a lone surrogate": (
        utf16('{"model": "') + b"\x00\xd8" + '"}'.encode("utf-16-le"),
        "is not the UTF-16 little-endian text its byte order mark (FF FE) says (byte 0x00 at "
        "offset 24: illegal UTF-16 surrogate)",
    ),
    "UTF-16BE": (
        codecs.BOM_UTF16_BE + '{"model": "opus"}'.encode("utf-16-be"),
        "is UTF-16 big-endian text (its byte order mark FE FF says so), which no harness reads "
        "settings from: save it as UTF-8",
    ),
}
"""Settings files Claude Code cannot read back as written (a stray byte, a lone surrogate) or
reads no settings from (UTF-16BE), and what the install says each is."""


@pytest.mark.parametrize("saved_as", NOT_READ)
def test_h3_claude_code_settings_it_cannot_read_are_named_as_what_they_are(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, saved_as: str
) -> None:
    home = tmp_path / "home"
    path = home / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    raw, said = NOT_READ[saved_as]
    path.write_bytes(raw)
    words = ["install", "claude-code", "--url", "http://127.0.0.1:9", "--project", "acme"]
    words += ["--agent", "coder", "--memory-root", str(tmp_path / "memory"), "--no-check"]

    status = main([*words, "--home", str(home)], environ={"HOME": str(home)}, stdout=io.StringIO())

    assert status != 0
    assert f"{path} {said} (nothing was changed)" in caplog.text
    assert path.read_bytes() == raw


UTF32LE_SAID = (
    "is UTF-32 little-endian text (its byte order mark FF FE 00 00 says so), which no harness "
    "reads settings from: save it as UTF-8 (nothing was changed)"
)
"""What every install says of a settings file saved as UTF-32LE: its mark starts with UTF-16LE's
(``FF FE``), and it was named UTF-16 text, or no JSON ("Expecting value")."""


@pytest.mark.parametrize("harness", ["claude-code", "gemini", "codex"])
def test_h3_settings_in_utf32le_are_named_by_their_byte_order_mark(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, harness: str
) -> None:
    home = tmp_path / "home"
    path = home / SETTINGS_FOLDER[harness] / SETTINGS_FILE[harness]
    path.parent.mkdir(parents=True)
    users = 'model = "o3"\r\n' if harness == "codex" else '{"model": "opus"}\r\n'
    raw = codecs.BOM_UTF32_LE + users.encode("utf-32-le")
    path.write_bytes(raw)
    words = ["install", harness, "--url", "http://127.0.0.1:9", "--project", "acme"]
    words += ["--agent", "coder", "--memory-root", str(tmp_path / "memory"), "--no-check"]

    status = main([*words, "--home", str(home)], environ={"HOME": str(home)}, stdout=io.StringIO())

    assert status != 0
    assert f"{path} {UTF32LE_SAID}" in caplog.text
    assert path.read_bytes() == raw
