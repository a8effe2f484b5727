"""H-3: a settings file an editor saved on Windows — a UTF-8 byte order mark, CRLF line ends —
is installed into as the harness reads it, and stays the user's.

Claude Code and Codex CLI read such a file as if the mark were not there (measured with the
real CLIs: ``test_e2e_repository_switches_hooks_off.py``,
``test_e2e_codex_repository_switches_hooks_off.py``); the install refused it as "not valid
JSON" / "not valid TOML", and Gemini CLI's commented file and Codex CLI's ``config.toml`` got
the install's lines with LF among CRLF ones. Now the mark stays in front, the lines added end as
the file's own do, and ``uninstall`` gives every byte back.
"""

from __future__ import annotations

import io
import json
import re
import tomllib
from pathlib import Path

import pytest
from harness_memory.cli import main

ROOT = "/srv/agent-memory/agents/coder/agent_state/memory"
MARK = "\ufeff"
FILES = {
    ("claude-code", ".claude/settings.json"): '{\r\n  "theme": "dark"\r\n}\r\n',
    ("gemini", ".gemini/settings.json"): '{\r\n  // mine\r\n  "ui": {"theme": "GitHub"}\r\n}\r\n',
    ("codex", ".codex/config.toml"): (
        'model = "o3"\r\n\r\n[features]\r\nweb_search = true\r\nmemories = true\r\n'
    ),
    ("codex", ".codex/hooks.json"): '{\r\n  "hooks": {}\r\n}\r\n',
}
LONE_LF = re.compile(r"(?<!\r)\n")


def run(home: Path, *words: str) -> tuple[int, str]:
    flags = ["--home", str(home), "--memory-root", ROOT]
    if words[0] == "install":
        flags += ["--url", "http://127.0.0.1:8765", "--project", "acme", "--agent", "coder"]
        flags += ["--executable", "/opt/am/bin/harness-memory", "--no-check"]
    out = io.StringIO()
    status = main([*words, *flags], environ={"HOME": str(home)}, stdout=out)
    return status, out.getvalue()


def parsed(path: Path, text: str) -> dict[str, object]:
    body = text.removeprefix(MARK)
    if path.suffix == ".toml":
        return tomllib.loads(body)
    lines = [line for line in body.splitlines() if not line.strip().startswith("//")]
    return dict(json.loads("\n".join(lines)))


@pytest.mark.parametrize(("harness", "name"), list(FILES), ids=str)
@pytest.mark.parametrize("mark", [MARK, ""], ids=["byte order mark", "no mark"])
def test_h3_a_file_saved_on_windows_is_installed_into_and_given_back(
    tmp_path: Path, harness: str, name: str, mark: str
) -> None:
    path = tmp_path / name
    path.parent.mkdir(parents=True)
    before = (mark + FILES[(harness, name)]).encode("utf-8")
    path.write_bytes(before)

    status, said = run(tmp_path, "install", harness)

    assert status == 0, said
    after = path.read_bytes().decode("utf-8")
    assert after != before.decode("utf-8")
    assert after.startswith(mark) and after.count(MARK) == len(mark)
    assert not LONE_LF.search(after), "every line ends as the file's own do: CRLF"
    document = parsed(path, after)
    if name == ".claude/settings.json":
        assert document["theme"] == "dark" and document["autoMemoryEnabled"] is False
    if name == ".codex/config.toml":
        assert document["features"] == {
            "web_search": True,
            "memories": False,
            "unified_exec_tty": False,
        }
    if name == ".gemini/settings.json":
        assert "// mine" in after and "hooks" in document

    assert run(tmp_path, "uninstall", harness)[0] == 0
    assert path.read_bytes() == before


HAND_LAID = (
    '{\r\n  "permissions": {\r\n    "allow": ["Bash(ls:*)", "Read"]\r\n  },\r\n'
    '  "statusLine": "M\\u00e4rz"\r\n}\r\n'
)
"""A Claude Code settings file saved on Windows in a layout no :func:`json.dumps` call gives
back (a one-line array inside an indented object), its non-ASCII written as ``\\u`` escapes."""


@pytest.mark.parametrize("mark", [MARK, ""], ids=["byte order mark", "no mark"])
def test_h3_a_windows_file_no_layout_reproduces_keeps_crlf_and_its_escapes(
    tmp_path: Path, mark: str
) -> None:
    """Rewritten in the two-space indent of a layout the install cannot reproduce, the file came
    back with LF everywhere and ``\\u00e4`` as a literal ``ä``; its lines keep CRLF and its
    escapes now, and the byte order mark, and ``uninstall`` gives it back byte for byte."""
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    before = (mark + HAND_LAID).encode("utf-8")
    path.write_bytes(before)

    status, said = run(tmp_path, "install", "claude-code")

    assert status == 0, said
    after = path.read_bytes().decode("utf-8")
    assert after.startswith(mark) and after.endswith("}\r\n")
    assert not LONE_LF.search(after), "every line ends as the file's own do: CRLF"
    assert '"M\\u00e4rz"' in after and "ä" not in after
    permissions = parsed(path, after)["permissions"]
    assert isinstance(permissions, dict) and permissions["allow"][:2] == ["Bash(ls:*)", "Read"]
    assert run(tmp_path, "uninstall", "claude-code")[0] == 0
    assert path.read_bytes() == before
