"""H-7, P-3: ``status`` says what Codex CLI does with each field of a hook of ours in
``hooks.json``, not only its ``timeout``.

Codex CLI 0.171 reads ``hooks.json`` with serde (openai/codex ``codex-rs/config/src/
hook_config.rs``: ``HookHandlerConfig`` tagged by ``type``, ``command`` a string, ``async`` a
boolean, ``statusMessage`` a string, ``matcher`` a string): one handler it cannot read, the
user's own too, and it reads no hook of the file ("failed to parse hooks config",
``hooks/src/engine/discovery.rs``, ``load_hooks_json``). A ``prompt`` or ``agent`` hook is
skipped, a group whose ``matcher`` is no valid regular expression is skipped, and a group runs
only for the tools (or, for ``SessionStart``, the session sources) its matcher matches
(``append_matcher_groups``; ``hooks/src/events/common.rs``, ``matches_matcher``: empty or
``*`` all, letters, digits, ``_`` and ``|`` the exact names, else a regular expression
searched in the name). Each case below is one Codex would skip while ``status`` said the
hooks ran; they are trusted anew after the edit, as Codex's ``/hooks`` would, so the trust
line says nothing of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from harness_memory.installers.codex import trust_hash

from tests.plugin.test_h7_status_names_codex_hooks_it_skips import cli, install


def edited(home: Path, event: str, change: dict[str, Any], *, handler: bool) -> None:
    """Our group of ``event`` in ``home``'s ``hooks.json`` with ``change`` laid over the
    handler (``handler``) or the group, then trusted anew in ``config.toml``."""
    hooks_json = home / ".codex" / "hooks.json"
    document = json.loads(hooks_json.read_text(encoding="utf-8"))
    group = document["hooks"][event][-1]
    (group["hooks"][0] if handler else group).update(change)
    hooks_json.write_text(json.dumps(document), encoding="utf-8")
    config_path = home / ".codex" / "config.toml"
    config = tomlkit.parse(config_path.read_text(encoding="utf-8"))
    for key, entry in config["hooks"]["state"].items():
        label = "_".join(part.lower() for part in _words(event))
        if f":{label}:" in key and group["hooks"][0].get("type") == "command":
            entry["trusted_hash"] = trust_hash(event, group, group["hooks"][0])
    config_path.write_text(tomlkit.dumps(config), encoding="utf-8")


def _words(event: str) -> list[str]:
    return [w for w in "".join(f" {c}" if c.isupper() else c for c in event).split() if w]


SKIPPED = {
    "guard-matcher-bash-only": (
        "PreToolUse",
        {"matcher": "Bash"},
        False,
        "PreToolUse hook's matcher matches none of the patch tool, MCP tools",
    ),
    "session-start-on-resume-only": (
        "SessionStart",
        {"matcher": "resume"},
        False,
        "SessionStart hook's matcher does not match a new Session (startup)",
    ),
    "matcher-no-regular-expression": (
        "PostToolUse",
        {"matcher": "apply_patch|(Bash"},
        False,
        "PostToolUse hook's matcher may be no regular expression Codex reads (Python's re "
        "refuses it",
    ),
    "matcher-lookahead": (
        "PreToolUse",
        {"matcher": "(?=apply_patch).*|Bash"},
        False,
        "PreToolUse hook's matcher is no regular expression Codex reads",
    ),
    "matcher-atomic-group": (
        "PreToolUse",
        {"matcher": "(?>apply_patch)|Bash|mcp__.*"},
        False,
        "PreToolUse hook's matcher is no regular expression Codex reads (Rust's regex refuses "
        "an atomic group)",
    ),
    "matcher-big-z": (
        "PostToolUse",
        {"matcher": "apply_patch|Bash|mcp__.*\\Z"},
        False,
        "PostToolUse hook's matcher is no regular expression Codex reads (Rust's regex refuses "
        "\\Z)",
    ),
    "prompt-type": (
        "SessionStart",
        {"type": "prompt"},
        True,
        'SessionStart hook is of type "prompt": Codex skips it (it runs command hooks only)',
    ),
}


@pytest.mark.parametrize("case", list(SKIPPED))
def test_status_names_a_hook_of_ours_codex_skips_for_its_fields(tmp_path: Path, case: str) -> None:
    event, change, handler, named = SKIPPED[case]
    home, _ = install(tmp_path, "codex")
    edited(home, event, change, handler=handler)

    code, said = cli(home, "status")

    lines = [line for line in said.splitlines() if named in line]
    assert lines and lines[0].startswith("codex: PROBLEM:"), said
    assert "untrusted" not in said, said
    assert code == 1


UNREADABLE: dict[str, tuple[dict[str, Any], str]] = {
    "unknown-type": (
        {"type": "http"},
        'a Stop hook\'s type is not "command", "mcp_tool", "prompt" or "agent"',
    ),
    "no-type": ({"type": None}, "a Stop hook has no type"),
    "command-a-number": ({"command": 5}, "a Stop hook's command is not a string (it is too large"),
    "async-a-string": ({"async": "yes"}, "a Stop hook's async is not true or false"),
    "status-message-a-list": ({"statusMessage": ["x"]}, "statusMessage is not a string"),
}


@pytest.mark.parametrize("case", list(UNREADABLE))
def test_status_names_a_users_hook_that_keeps_codex_from_reading_hooks_json(
    tmp_path: Path, case: str
) -> None:
    """The user's own Stop hook beside ours with a field Codex cannot read: Codex reads none
    of the file, ours included; its value is never printed (a command may hold a token)."""
    change, named = UNREADABLE[case]
    home, _ = install(tmp_path, "codex")
    hooks_json = home / ".codex" / "hooks.json"
    document = json.loads(hooks_json.read_text(encoding="utf-8"))
    mine = {"type": "command", "command": "notify --token sk-live-SECRET9", **change}
    document["hooks"]["Stop"] = [{"hooks": [{k: v for k, v in mine.items() if v is not None}]}]
    hooks_json.write_text(json.dumps(document), encoding="utf-8")

    code, said = cli(home, "status")

    assert f"codex: PROBLEM: Codex cannot read {hooks_json}" in said, said
    assert named.split(" (it is")[0] in said, said
    assert "SECRET9" not in said and "http" not in said.split("service")[0], said
    assert code == 1


def test_a_guard_matcher_without_write_stdin_is_no_problem(tmp_path: Path) -> None:
    """Codex 0.171 never shows ``write_stdin`` to its hooks (measured: ``guard_gaps.py``) and
    the install turns terminals off, so a guard matcher leaving it out narrows nothing."""
    home, _ = install(tmp_path, "codex")
    edited(home, "PreToolUse", {"matcher": "apply_patch|Bash|mcp__.*"}, handler=False)

    said = cli(home, "status")[1]

    assert "Codex skips hooks of ours" not in said, said


RUST_READS = ["\\p{L}+", "(?<tool>apply_patch)|Bash|mcp__.*\\z", "apply_patch|Bash*+|mcp__.*"]


@pytest.mark.parametrize("matcher", RUST_READS)
def test_a_matcher_rusts_regex_compiles_is_no_problem(tmp_path: Path, matcher: str) -> None:
    """Rust's ``regex`` compiles ``\\p{L}`` and ``(?<name>…)`` (and ``\\z``), which Python's
    ``re`` does not, and ``*+`` (a repetition of a repetition; measured with the ``rg`` Codex
    0.171 ships): no PROBLEM for them."""
    home, _ = install(tmp_path, "codex")
    edited(home, "PreToolUse", {"matcher": matcher}, handler=False)

    said = cli(home, "status")[1]

    assert "Codex skips hooks of ours" not in said, said
