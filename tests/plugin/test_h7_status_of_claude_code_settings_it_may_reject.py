"""``harness-memory status`` on a repository's ``.claude/settings.json`` saying
``"disableAllHooks": true`` beside a setting Claude Code refuses (H-6, P-3).

Claude Code checks each settings file against its schema and skips a file with any invalid
setting whole ("Files with errors are skipped entirely, not just the invalid settings"):
measured with the real CLI, ``"permissions": {"allow": 5}`` or ``"cleanupPeriodDays": "x"``
beside ``"disableAllHooks": true`` leaves the hooks on. ``status`` warned "switches these hooks
off" all the same. Right: a value this plugin knows Claude Code refuses (those two, a
``disableAllHooks`` that is no boolean) makes the file switch nothing; a file holding settings
it does not check (Claude Code's whole schema is not made again here) "may turn these hooks
off" ("Claude Code ignores this file if any setting in it is invalid"); a file holding nothing else
still "switches these hooks off". The measured shapes, and a ``settings.local.json`` skipped
whole leaving ``settings.json``'s switch on, are in ``HOOKS_OFF_SHAPES`` (status and real CLI).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_h7_status_names_a_workspace_switching_hooks_off import (
    cli,
    install,
    repository,
)

MAY = (
    'may turn these hooks off in Sessions in this Workspace ("disableAllHooks": true; Claude '
    "Code ignores this file if any setting in it is invalid)"
)


def _status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[Path, str]:
    install(tmp_path, "claude-code")
    path, _ = repository(tmp_path, ".claude/settings.json", text)
    monkeypatch.chdir(path.parents[1])
    return path, cli(tmp_path, "status")


@pytest.mark.parametrize(
    "text",
    [
        '{"disableAllHooks": true, "permissions": {"allow": 5}}',
        '{"disableAllHooks": true, "cleanupPeriodDays": "x"}',
        '{"disableAllHooks": true, "cleanupPeriodDays": 0}',
        '{"disableAllHooks": true, "permissions": 5}',
        '{"disableAllHooks": "true"}',
    ],
)
def test_a_file_claude_code_rejects_switches_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    _, said = _status(tmp_path, monkeypatch, text)

    assert "hooks off" not in said, said


def test_a_file_with_settings_not_checked_here_may_turn_the_hooks_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = '{"disableAllHooks": true, "permissions": {"allow": ["Bash"]}, "model": "x"}'
    path, said = _status(tmp_path, monkeypatch, text)

    assert f"claude-code: WARNING: {path} {MAY}" in said, said
    assert "switches these hooks off" not in said


@pytest.mark.parametrize(
    ("document", "taken"),
    [
        ({"disableAllHooks": True, "cleanupPeriodDays": 30}, True),
        ({"disableAllHooks": True, "cleanupPeriodDays": 0}, False),
        ({"disableAllHooks": True, "model": "opus"}, None),
    ],
    ids=["checked in full", "refused", "not checked here"],
)
def test_h6_a_file_of_settings_checked_in_full_is_judged_for_sure(
    document: dict[str, object], taken: bool | None
) -> None:
    """A file holding only settings whose every valid value is known (``cleanupPeriodDays``,
    a positive integer, among them) is taken or skipped for sure, never "may"."""
    from harness_memory.installers.workspace_switches import claude_code_takes

    assert claude_code_takes(document) is taken
