"""H-3: the "to go back" command an install for a second agent prints names every flag the
first agent's hooks were installed with: ``--timeout`` when they carry one, and
``--url-id-not-secret`` when that install was told the URL's id is no secret. Without them the
command printed wrote hooks with the default timeout, or was refused for the URL's id.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_h3_install_again import cli

URL = "http://127.0.0.1:9/tenants/123e4567-e89b-12d3-a456-426614174000/memory"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    path.mkdir(parents=True)
    return path


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_h3_to_go_back_names_the_timeout_and_url_id_not_secret(
    tmp_path: Path,
    root: Path,
    harness: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    home = tmp_path / "home"
    first = ["--url", URL, "--project", "acme", "--memory-root", str(root), "--timeout", "7"]
    status, said = cli(home, "install", harness, *first, "--agent", "coder", "--url-id-not-secret")
    assert status == 0, said

    again = [*first[:-2], "--agent", "reviewer", "--url-id-not-secret"]
    status, said = cli(home, "install", harness, *again)

    assert status == 0, said
    [warning] = [record for record in caplog.records if "replaces" in record.getMessage()]
    back = warning.getMessage().split("(to go back: ", 1)[1]
    assert "--agent coder" in back and "--timeout 7" in back, back
    assert "--url-id-not-secret" in back, back
    assert f"--url {URL} " in back, back  # runnable as printed: the id said to be no secret


def test_h3_the_hooks_install_hint_names_their_timeout(tmp_path: Path) -> None:
    """A Claude Code hook with ``--timeout 7`` and no token file names the install that
    moves the token, ``--timeout 7`` with it (the default timeout is not named)."""
    from harness_memory.hooks.session_start import ignored_env_message
    from harness_memory.settings import load_settings

    env = {"HARNESS_MEMORY_TOKEN": "mem_s3cr3t-Token-4711-abcdef", "HOME": str(tmp_path)}
    given = {"state_dir": str(tmp_path / "state"), "timeout": "7"}
    said = ignored_env_message(load_settings(given, env, flags_only=True), "claude-code") or ""
    assert "--memory-root ROOT --timeout 7` once" in said, said
    given.pop("timeout")
    said = ignored_env_message(load_settings(given, env, flags_only=True), "claude-code") or ""
    assert "--memory-root ROOT` once" in said, said
