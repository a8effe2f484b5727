"""``harness-memory status`` reads a settings file as its harness reads it, not as an install
would rewrite it (H-3, H-6).

An install refuses a file it could not write back as it was (a key twice in one object), and
says so. ``status`` only reads: it said the same "cannot be written back" of a Workspace's
``.gemini/settings.json`` it never writes, and of the user's own settings, and reported a
problem (exit 1) though the harness runs the hooks. Gemini CLI 0.61 reads its settings as
``JSON.parse(stripJsonComments(text))`` (the bundled ``loadSettings``): comments blanked, a key
twice keeping its last value, and a file it cannot parse stops it before any Session (its
``FatalConfigError`` on the terminal); Claude Code keeps the last value too (measured:
``test_e2e_repository_switches_hooks_off.py``). Codex CLI's choice is not known, so status says
that rather than guess.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.harness_json import (
    HarnessRefuses,
    gemini_loads,
    strip_comments,
)

FLAGS = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder", "--no-check"]
FLAGS += ["--executable", "/opt/venv/bin/harness-memory"]
FILES = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}


def cli(tmp_path: Path, *words: str) -> tuple[int, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    out = io.StringIO()
    code = main([*words, "--home", str(home)], environ={"HOME": str(home)}, stdout=out)
    return code, out.getvalue()


def install(tmp_path: Path, harness: str) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    code, _ = cli(tmp_path, "install", harness, *FLAGS, "--memory-root", str(root))
    assert code == 0
    return tmp_path / "home" / FILES[harness]


def with_a_key_twice(path: Path, first: str, last: str) -> str:
    """The installed file with ``"hooks"`` twice: ``first`` then ``last`` (``ours``: the
    installed value, else that JSON text)."""
    installed = json.loads(path.read_text(encoding="utf-8"))
    ours = json.dumps(installed.pop("hooks"))
    rest = json.dumps(installed)[1:-1]
    values = [ours if value == "ours" else value for value in (first, last)]
    members = [f'"hooks": {values[0]}', *([rest] if rest else []), f'"hooks": {values[1]}']
    text = "{\n  " + ",\n  ".join(members) + "\n}\n"
    path.write_text(text, encoding="utf-8")
    return text


@pytest.mark.parametrize("harness", ["claude-code", "gemini"])
def test_status_reads_a_key_twice_in_the_users_settings_as_the_harness_keeps_it(
    tmp_path: Path, harness: str
) -> None:
    path = install(tmp_path, harness)
    with_a_key_twice(path, "{}", "ours")

    _, said = cli(tmp_path, "status")

    assert f"{harness}: installed in {path}" in said
    assert f"{harness}: cannot read its settings" not in said
    assert f'{harness}: note: {path}: it holds the key "hooks" twice in one object' in said
    assert f"`harness-memory install {harness}` and `uninstall` leave it as it is" in said
    assert "written back" not in said

    with_a_key_twice(path, "ours", "{}")  # the harness keeps the last: no hooks of ours
    _, said = cli(tmp_path, "status")
    assert f"{harness}: not installed ({path})" in said
    assert f"{harness}: installed in" not in said


def test_install_still_refuses_the_file_it_cannot_write_back(tmp_path: Path) -> None:
    path = install(tmp_path, "gemini")
    text = with_a_key_twice(path, "{}", "ours")

    code, _ = cli(tmp_path, "install", "gemini", *FLAGS, "--memory-root", str(tmp_path))

    assert code == 1
    assert path.read_text(encoding="utf-8") == text


def test_status_of_codex_settings_with_a_key_twice_says_so_without_guessing(
    tmp_path: Path,
) -> None:
    path = install(tmp_path, "codex")
    with_a_key_twice(path, "{}", "ours")

    _, said = cli(tmp_path, "status")

    assert f'codex: cannot read its settings: {path}: it holds the key "hooks" twice' in said
    assert "which value Codex CLI takes is not known to status" in said
    assert "written back" not in said


def test_status_of_users_gemini_settings_gemini_cannot_parse_says_gemini_reads_none(
    tmp_path: Path,
) -> None:
    path = install(tmp_path, "gemini")
    path.write_text('{"a": NaN}\n', encoding="utf-8")

    code, said = cli(tmp_path, "status")

    assert f"gemini: cannot read its settings: {path}: NaN is no JSON value: " in said
    assert "Gemini CLI stops on it, before any Session starts" in said
    assert "written back" not in said
    assert code == 1


def workspace_file(tmp_path: Path, text: str) -> Path:
    workspace = tmp_path / "src" / "app"
    (workspace / ".gemini").mkdir(parents=True)
    (workspace / ".gemini" / "settings.json").write_text(text, encoding="utf-8")
    return workspace


OFF = '"hooksConfig": {"enabled": false}'
ON = '"hooksConfig": {"enabled": true}'


@pytest.mark.parametrize(
    ("text", "switched_off"),
    [
        ("{" + OFF + ", " + ON + "}", False),
        ("{" + ON + ", " + OFF + "}", True),
        ("{\n  // the team's\n  " + ON + ",\n  /* ours */ " + OFF + "\n}\n", True),
        ("{\n  " + OFF + ", // theirs\n  " + ON + "\n}\n", False),
    ],
    ids=["off-then-on", "on-then-off", "commented-on-then-off", "commented-off-then-on"],
)
def test_status_reads_a_workspace_key_twice_as_gemini_cli_keeps_it_the_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, switched_off: bool
) -> None:
    install(tmp_path, "gemini")
    workspace = workspace_file(tmp_path, text)
    monkeypatch.chdir(workspace)

    _, said = cli(tmp_path, "status")

    assert "cannot read this Workspace's settings" not in said
    assert "written back" not in said
    assert ("switches these hooks off" in said) is switched_off
    if switched_off:
        assert "(hooksConfig.enabled: false): no memory and no write guard there" in said


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"hooksConfig": {"enabled": false},}', "it is not valid JSON"),
        ('\ufeff{"hooksConfig": {"enabled": false}}', "it is not valid JSON"),
        ('{"context": NaN}', "NaN is no JSON value"),
        ('["hooksConfig"]', "it holds an array, not a JSON object"),
    ],
    ids=["trailing-comma", "byte-order-mark", "nan", "a-list"],
)
def test_status_in_a_workspace_whose_settings_stop_gemini_cli_says_that_and_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, why: str
) -> None:
    """Gemini CLI stops on such a file with its own message (no Session, so no hook is
    switched off unseen): status says it stops, not that the hooks are off or that a file it
    never writes cannot be written back."""
    install(tmp_path, "gemini")
    workspace = workspace_file(tmp_path, text)
    monkeypatch.chdir(workspace)

    _, said = cli(tmp_path, "status")

    path = workspace / ".gemini" / "settings.json"
    assert f"gemini: {path} stops Gemini CLI in this Workspace ({why}" in said
    assert "no hook is switched off by it" in said
    assert "WARNING" not in said.split(str(path))[-1].splitlines()[0]
    assert "written back" not in said


@pytest.mark.parametrize(
    ("text", "blanked"),
    [  # each as strip-json-comments 3 (the bundled one) gives it back
        ('{"a": 1 // one\n}', '{"a": 1       \n}'),
        ('{"a": 1 // one\r\n}', '{"a": 1       \r\n}'),
        ('{"a": /* x\ny */ 1}', '{"a":     \n     1}'),
        ('{"a": "// not /* a comment"}', '{"a": "// not /* a comment"}'),
        ('{"a": "\\\\"// after a backslash', '{"a": "\\\\"                    '),
        ('{"a": "\\"// escaped quote"}', '{"a": "\\"// escaped quote"}'),
        ('{"a": 1} /* never closed', '{"a": 1}' + " " * 16),
    ],
    ids=["line", "crlf", "block", "in-string", "even-backslashes", "odd-backslash", "unclosed"],
)
def test_comments_are_blanked_as_gemini_cli_blanks_them(text: str, blanked: str) -> None:
    assert strip_comments(text) == blanked


def test_gemini_loads_keeps_the_last_of_a_key_twice_and_refuses_what_json_parse_refuses() -> None:
    assert gemini_loads('{"a": 1, /* c */ "a": {"b": 2, "b": 3}}') == {"a": {"b": 3}}
    assert gemini_loads('{"n": 1e400}') == {"n": float("inf")}  # JSON.parse: Infinity
    with pytest.raises(HarnessRefuses):
        gemini_loads('{"a": Infinity}')


def test_status_reads_commented_gemini_settings_with_a_key_twice_as_gemini_cli_does(
    tmp_path: Path,
) -> None:
    path = install(tmp_path, "gemini")
    text = with_a_key_twice(path, "{}", "ours").replace("{\n", "{\n  // the team's\n", 1)
    path.write_text(text, encoding="utf-8")

    _, said = cli(tmp_path, "status")

    assert f"gemini: installed in {path}" in said
    assert f"gemini: note: {path}: line 5: the key 'hooks' is there twice; status reads" in said
    assert "written back" not in said

    code, _ = cli(tmp_path, "install", "gemini", *FLAGS, "--memory-root", str(tmp_path))
    assert code == 1  # an install still refuses to rewrite it
    assert path.read_text(encoding="utf-8") == text
