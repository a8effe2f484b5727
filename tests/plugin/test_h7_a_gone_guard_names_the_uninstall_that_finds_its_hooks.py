"""H-3, H-7: the refusal of a guard whose checkout is gone names an uninstall that finds the
same settings files: with ``--home`` (and the variable that moved the settings folder).

A reviewer installed with ``--home /srv/h``; the checkout's removal then made every guard print
``run `harness-memory uninstall claude-code` from another install``, which targets ``$HOME``,
not ``/srv/h``: the hooks stayed, and every tool call stayed refused.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from harness_memory.installers.spec import HookHome, guard_fails_closed

SETTINGS = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json"}
SETTINGS["gemini"] = ".gemini/settings.json"


def printed(tail: str) -> str:
    """The uninstall command the refusal (``tail`` of a guard command) says to run."""
    said = tail.split("printf '%s\\n' ", 1)[1].rsplit(" >&2", 1)[0]
    return shlex.split(said)[0].split("run `", 2)[2].split("`", 1)[0]


def printed_uninstall(tail: str) -> list[str]:
    """:func:`printed`, as the words a shell splits it into."""
    return shlex.split(printed(tail))


@pytest.mark.parametrize("harness", sorted(SETTINGS))
def test_h7_a_gone_guard_names_the_home_it_was_installed_in(harness: str) -> None:
    home = Path("/srv/h ome")
    installed = HookHome(harness, home / SETTINGS[harness], home)

    words = printed_uninstall(guard_fails_closed("/gone/bin/harness-memory", installed))

    assert words == ["harness-memory", "uninstall", harness, "--home", str(home)]


@pytest.mark.parametrize(
    ("harness", "moved", "variable"),
    [
        ("claude-code", "/cfg/c laude/settings.json", "CLAUDE_CONFIG_DIR=/cfg/c laude"),
        ("codex", "/cfg/codex/hooks.json", "CODEX_HOME=/cfg/codex"),
        ("gemini", "/cfg/g/.gemini/settings.json", "GEMINI_CLI_HOME=/cfg/g"),
    ],
)
def test_h7_a_gone_guard_names_the_variable_that_moved_its_settings(
    harness: str, moved: str, variable: str
) -> None:
    installed = HookHome(harness, Path(moved), Path("/srv/h"))

    tail = guard_fails_closed("/gone/bin/harness-memory", installed)

    assert printed(tail).startswith(variable.split("=")[0] + "=")  # an assignment, not quoted
    words = printed_uninstall(tail)
    assert words == [variable, "harness-memory", "uninstall", harness, "--home", "/srv/h"]


def test_h7_a_gone_managed_guard_names_its_folder_and_home() -> None:
    installed = HookHome("codex", Path("/etc/codex/requirements.toml"), Path("/srv/h"))

    tail = guard_fails_closed("/gone/bin/harness-memory", installed, managed=Path("/etc/codex"))

    assert printed_uninstall(tail) == [
        "harness-memory", "uninstall", "codex", "--home", "/srv/h", "--managed", "/etc/codex",
    ]  # fmt: skip
