"""H-3: a user's JSON settings file stays theirs. ``install`` changes only the keys it owns and
writes the rest as the file was laid out (compact, four spaces, a tab, no final line end,
``\\u`` escapes); ``uninstall`` gives the file back byte for byte, a hand-aligned one too. A file
holding comments is refused with a message that says so and what to do, and left as it was."""

from __future__ import annotations

import io
import json
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness_memory.cli import main

ROOT = "/srv/agent-memory/agents/coder/agent_state/memory"
FILES = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
USERS = {
    "theme": "dark",
    "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
    "greeting": "Grüß Gott",
}
LAYOUTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "compact": lambda d: json.dumps(d, separators=(",", ":"), ensure_ascii=False),
    "compact, spaced, final line end": lambda d: json.dumps(d, ensure_ascii=False) + "\n",
    "four spaces": lambda d: json.dumps(d, indent=4, ensure_ascii=False) + "\n",
    "a tab, no final line end": lambda d: json.dumps(d, indent="\t", ensure_ascii=False),
    "two spaces, \\u escapes": lambda d: json.dumps(d, indent=2) + "\n",
    "CRLF line ends": lambda d: (json.dumps(d, indent=2, ensure_ascii=False) + "\n").replace(
        "\n", "\r\n"
    ),
}
HAND_ALIGNED = '{\n  "theme":       "dark",\n  "permissions": {"allow": ["Bash(ls:*)"]}\n}\n'


def run(home: Path, *words: str) -> int:
    flags = ["--home", str(home), "--memory-root", ROOT]
    if words[0] == "install":
        flags += ["--url", "http://127.0.0.1:8765", "--project", "acme", "--agent", "coder"]
        flags += ["--executable", "/opt/am/bin/harness-memory", "--no-check"]
    return main([*words, *flags], environ={"HOME": str(home)}, stdout=io.StringIO())


def users_file(home: Path, harness: str, text: str) -> Path:
    path = home / FILES[harness]
    path.parent.mkdir(parents=True)
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("layout", [*LAYOUTS, "hand-aligned", "empty object, no line end"])
def test_h3_uninstall_gives_the_users_file_back_byte_for_byte(
    tmp_path: Path, harness: str, layout: str
) -> None:
    others = {"hand-aligned": HAND_ALIGNED, "empty object, no line end": "{}"}
    text = LAYOUTS[layout](USERS) if layout in LAYOUTS else others[layout]
    before = text.encode("utf-8")
    path = users_file(tmp_path, harness, text)

    assert run(tmp_path, "install", harness) == 0
    assert path.read_bytes() != before
    assert run(tmp_path, "uninstall", harness) == 0

    assert path.read_bytes() == before


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_h3_install_adds_its_keys_after_the_users_text_in_the_files_layout(
    tmp_path: Path, harness: str, layout: str
) -> None:
    users = {key: value for key, value in USERS.items() if key != "permissions"}
    text = LAYOUTS[layout](users)
    path = users_file(tmp_path, harness, text)

    assert run(tmp_path, "install", harness) == 0

    after = path.read_bytes().decode("utf-8")  # as written: CRLF kept
    document = json.loads(after)
    assert after == LAYOUTS[layout](document)
    assert after.startswith(text.rstrip()[:-1].rstrip() + ",")  # the user's part as it was
    assert list(document)[: len(users)] == list(users)


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
@pytest.mark.parametrize(
    "text",
    [
        '{\n  // the colours I like\n  "theme": "dark"\n}\n',
        '{\n  "theme": "dark" /* for now */\n}\n',
    ],
)
def test_h3_a_settings_file_with_comments_is_refused_saying_so(
    tmp_path: Path, harness: str, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Claude Code and Codex CLI read their JSON files without comments; Gemini CLI's are
    edited with them kept (``test_h3_gemini_commented_settings.py``)."""
    path = users_file(tmp_path, harness, text)

    assert run(tmp_path, "install", harness) == 1

    assert f"{path} holds a comment (line 2)" in caplog.text
    assert "take the comments out and run the command again" in caplog.text
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_h3_install_keeps_the_users_file_mode_and_keeps_the_token_apart(tmp_path: Path) -> None:
    """The token goes to a 0600 file of its own (H-7), so the user's settings file keeps its
    mode through install and uninstall, and gets its bytes back."""
    text = LAYOUTS["four spaces"](USERS)
    path = users_file(tmp_path, "gemini", text)
    path.chmod(0o644)

    assert run(tmp_path, "install", "gemini", "--token", "mem_a-token-of-alice") == 0
    assert "mem_a-token-of-alice" not in path.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    token_files = [p for p in tmp_path.rglob("token") if p.is_file()]
    assert token_files and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in token_files)
    assert run(tmp_path, "uninstall", "gemini") == 0

    assert path.read_text(encoding="utf-8") == text
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


DEEP = 100_000
"""Arrays nested deeper than Python's reader recurses."""


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize(
    ("text", "said"),
    [
        pytest.param('{"limit": 1e400}\n', "the number 1e400, beyond", id="beyond-a-double"),
        pytest.param('{"limit": -1e400}\n', "the number -1e400, beyond", id="below-a-double"),
        pytest.param('{"limit": NaN}\n', "NaN, which is no JSON value", id="nan"),
        pytest.param('{"limit": Infinity}\n', "Infinity, which is no JSON", id="infinity"),
        pytest.param('{"id": ' + "9" * 5000 + "}\n", "(5000 characters)", id="5000-digits"),
        pytest.param(
            '{"deep": ' + "[" * DEEP + "]" * DEEP + "}\n", "deeper than", id="nested-deep"
        ),
        pytest.param(
            '{\n    "model": "a",\n    "theme": "dark",\n    "model": "b"\n}\n',
            'the key "model" twice in one object',
            id="a-key-twice",
        ),
    ],
)
def test_h3_a_value_python_reads_but_cannot_write_back_is_refused_saying_which(
    tmp_path: Path, harness: str, text: str, said: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Python's reader took ``1e400`` as ``inf`` and wrote the file back with ``Infinity``,
    which is no JSON: the harness could no longer read the user's settings at all (node's
    ``JSON.parse`` refused it). ``NaN`` was taken (no JSON either), and 5,000 digits or deep
    nesting ended the install in a traceback; a key twice lost its first value and the file
    its layout. Each is refused by name, nothing written."""
    path = users_file(tmp_path, harness, text)

    assert run(tmp_path, "install", harness) == 1

    assert f"{path} cannot be written back as it is: it " in caplog.text
    assert said in caplog.text
    assert "nothing was changed" in caplog.text
    assert "Traceback" not in caplog.text
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("layout", ["four spaces", "two spaces, \\u escapes"])
def test_h3_half_of_a_utf16_pair_is_written_back_as_the_escape_it_was(
    tmp_path: Path, harness: str, layout: str
) -> None:
    """``"\\ud800"`` (half of a surrogate pair, as a tool cutting text inside an emoji writes
    it) is JSON; Python reads it as a lone surrogate, which no UTF-8 file can hold: the install
    ended in a ``UnicodeEncodeError`` traceback. It is written back as the escape, the user's
    other text as it was, and an uninstall gives the file back byte for byte."""
    text = LAYOUTS[layout]({**USERS, "cut": "half \ud800 of it"}).replace("\ud800", "\\ud800")
    before = text.encode("utf-8")
    path = users_file(tmp_path, harness, text)

    assert run(tmp_path, "install", harness) == 0

    after = path.read_text(encoding="utf-8")
    assert json.loads(after)["cut"] == "half \ud800 of it"
    assert "Grüß Gott" in after or "Gr\\u00fc\\u00df Gott" in after
    assert run(tmp_path, "uninstall", harness) == 0
    assert path.read_bytes() == before
