"""P-3: a ``find`` run over the home that holds the data dir is refused when its actions may
reach the memory files, and spared when its ``-name`` tests keep them out of reach.

``find ~ -name '*.pyc' -delete`` (and ``cd ~ && find . …``) removes only files named
``*.pyc``: none of the data dir's files or folders, nor a folder on the way to it, is named so,
so the command is allowed. Every form that reaches more is refused, each first run by bash to
show it removes another Workspace's memory file: a ``!``/``-not``, ``-o`` or parenthesis in the
expression, an action before the test, a pattern built at run time, a pattern matching the
memory files, and ``find``'s leading options (``-P``, ``-L``) before the home, which once hid
the home from the guard (as did ``!`` and ``\\( … \\)``, which its lexer read as separators).
Some commands stay refused by design, each with its reason (:data:`REFUSED_BY_DESIGN`).
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest
from memory_core import layout
from memory_core.keys import workspace_memory_key

from tests.support.hook_in_process import hook_main

HARNESSES = ("claude-code", "codex", "gemini")
"""The harnesses whose pre-tool hooks judge each command (:func:`reason_for`)."""


class Home:
    """A home holding the data dir, a Workspace in it, the Session's scope and another
    Workspace's scope, each with its ``MEMORY.md``, and a ``.pyc`` file in the Workspace."""

    def __init__(self, tmp_path: Path) -> None:
        self.home = tmp_path / "home" / "dev"
        self.root = layout.memory_root(self.home / ".local" / "share" / "agent-memory", "coder")
        self.work = self.home / "src" / "my-app"
        self.work.mkdir(parents=True)
        (self.work / "app.pyc").write_bytes(b"")
        self.other = self.root / workspace_memory_key(self.home / "src" / "billing")
        for scope in ("user", workspace_memory_key(self.work), self.other.name):
            (self.root / scope).mkdir(parents=True)
            (self.root / scope / "MEMORY.md").write_text("- a fact\n", encoding="utf-8")
        self.state = tmp_path / "state"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    found = Home(tmp_path)
    monkeypatch.setenv("HOME", str(found.home))
    monkeypatch.delenv("X", raising=False)
    return found


def reason_for(where: Home, harness: str, command: str) -> str | None:
    """The refusal ``harness``'s pre-tool hook gives ``command`` in the Workspace, or None."""
    gemini = harness == "gemini"
    hook = {
        "session_id": "s-1",
        "cwd": str(where.work),
        "hook_event_name": "BeforeTool" if gemini else "PreToolUse",
        "tool_name": "run_shell_command" if gemini else "Bash",
        "tool_input": {"command": command},
    }
    flags = ["--memory-root", str(where.root), "--state-dir", str(where.state)]
    event = "before-tool" if gemini else "pre-tool-use"
    out = io.StringIO()
    stdin = io.BytesIO(json.dumps(hook).encode())
    assert hook_main(["hook", harness, event, *flags], stdin=stdin, stdout=out) == 0
    if not out.getvalue():
        return None
    answer = json.loads(out.getvalue())
    return str(
        answer["reason"] if gemini else answer["hookSpecificOutput"]["permissionDecisionReason"]
    )


SPARED = [
    "find ~ -name '*.pyc' -delete",
    "cd ~ && find . -name '*.pyc' -delete",
    "find ~ -type f -name '*.pyc' -exec rm -f {} +",
    "find ~ -iname '*.PYC' -delete",
]

REACHING = [
    "find ~ ! -name '*.pyc' -delete",
    "find ~ -not -name '*.pyc' -delete",
    "find ~ -name '*.pyc' -o -name 'MEMORY.md' -delete",
    "find ~ \\( -name '*.pyc' -o -true \\) -delete",
    "find ~ -delete -name '*.pyc'",
    'find ~ -name "${X:-MEMORY.md}" -delete',
    "find ~ -name 'MEMORY.md' -delete",
    "find ~ -iname 'memory.MD' -delete",
    "find ~ -name 'shar*' -exec rm -rf {} +",
    "find -P ~ -delete",
    "find -L ~ -name 'MEMORY.md' -delete",
    # ``--`` ending find's options: its start was read as none, so the current folder was
    # judged in the home's place (on main: let through, bash removed every scope's MEMORY.md)
    "find -- ~ -name 'MEMORY.md' -delete",
    "find -L -- ~ -name 'MEMORY.md' -delete",
]


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("command", SPARED)
def test_p3_a_find_over_the_home_that_reaches_no_memory_file_is_allowed(
    home: Home, harness: str, command: str
) -> None:
    assert reason_for(home, harness, command) is None


@pytest.mark.parametrize("command", REACHING)
def test_p3_a_find_over_the_home_that_may_reach_the_memory_files_is_refused(
    home: Home, command: str
) -> None:
    """Each harness's hook refuses it; bash then runs it once (what it removes does not depend
    on the harness that judged it) and it removes the other scope's ``MEMORY.md``."""
    reasons = {harness: reason_for(home, harness, command) for harness in HARNESSES}

    for harness, reason in reasons.items():
        assert reason is not None, harness
        assert reason.startswith("Agent Memory write guard: "), (harness, reason)
    subprocess.run(["bash", "-c", command], cwd=home.work, check=False, capture_output=True)
    assert not (home.other / "MEMORY.md").exists(), f"bash removed nothing there: {command}"


REFUSED_BY_DESIGN = {
    # find's output is split into words at white space: a folder named "a " holding the path
    # of another scope's file makes "./a /…/memory/<other>/MEMORY.md" two words, the second the
    # other scope's file; what find prints cannot be known before it runs
    "rm $(find . -name '*.pyc')": "the command writes a path the shell builds at run time",
}
"""Commands the guard refuses though an everyday user may type them, with the reason."""


@pytest.mark.parametrize("command", REFUSED_BY_DESIGN)
def test_p3_commands_refused_by_design_say_why(home: Home, command: str) -> None:
    reason = reason_for(home, "claude-code", command)

    assert reason is not None
    assert REFUSED_BY_DESIGN[command] in reason
