"""H-7: a managed install (``--managed``) checks the project and agent with the token in
``HARNESS_MEMORY_TOKEN`` and never keeps it.

Found following the README as a newcomer: with ``export HARNESS_MEMORY_TOKEN=…`` as the README
says, ``harness-memory install claude-code --managed …`` warned that the service "needs a
bearer token … the project and agent could not be checked without one": the token given was
passed over, and a wrong agent went unnoticed until every user's Session started without
memory. The managed settings are every user's, so the token is still written nowhere.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService


def managed_install(
    service: RealService, root: Path, tmp_path: Path, agent: str, environ: dict[str, str]
) -> tuple[int, Path]:
    """``install claude-code --managed DIR`` against ``service``; (exit status, DIR)."""
    home, managed = tmp_path / "home", tmp_path / "etc-claude-code"
    flags = ["--url", service.url, "--project", "acme", "--agent", agent]
    flags += ["--memory-root", str(root), "--home", str(home), "--managed", str(managed)]
    flags += ["--executable", str(HARNESS_MEMORY)]
    status = main(
        ["install", "claude-code", *flags],
        environ={"HOME": str(home), **environ},
        stdout=io.StringIO(),
    )
    return status, managed


def test_h7_a_managed_install_checks_the_ids_with_the_environment_token_and_keeps_it_nowhere(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    environ = {"HARNESS_MEMORY_TOKEN": shared_service.token}
    status, managed = managed_install(
        shared_service, shared_memory_root, tmp_path, new_agent, environ
    )
    assert status == 0
    assert "could not be checked" not in caplog.text
    assert "took the token from HARNESS_MEMORY_TOKEN for this check only" in caplog.text
    assert "harness-memory token set" in caplog.text  # each user still gives their own
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert written and managed / "managed-settings.json" in written
    assert not any(shared_service.token in path.read_text("utf-8") for path in written)


def test_h7_a_managed_install_for_an_agent_the_service_lacks_is_refused_with_that_token(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    other = shared_memory_root.parents[2] / "ghost" / "agent_state" / "memory"
    other.mkdir(parents=True)
    environ = {"HARNESS_MEMORY_TOKEN": shared_service.token}
    status, managed = managed_install(shared_service, other, tmp_path, "ghost", environ)
    assert status == 1
    assert "answered 404 (no agent 'ghost' in project 'acme')" in caplog.text
    assert "nothing was changed" in caplog.text and not managed.exists()


def test_h7_a_managed_install_without_a_token_says_which_one_would_check_the_ids(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    status, _ = managed_install(shared_service, shared_memory_root, tmp_path, new_agent, {})
    assert status == 0
    assert "the project and agent could not be checked without one" in caplog.text
    assert "yours in HARNESS_MEMORY_TOKEN checks them" in caplog.text
