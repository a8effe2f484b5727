"""A-10, H-7: a token and the record of its service (``token.url``) are never paired with
another service, whichever path reads or writes them.

A reviewer with two services A and B found: a managed install checking the service with
``HARNESS_MEMORY_TOKEN_FILE`` sent a token recorded for B to A; ``token set`` wrote B's record
and, when the token write then failed, left it beside A's token (and said "nothing was
written"); uninstalling Claude Code's user hooks deleted the token the managed hooks read; a
refused install's hint re-ran the old install.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from harness_memory.cli import main

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import (
    A,
    B,
    TOKEN,
    installed,
    record,
    token_set,
)
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

OTHER = "mem_0ther-Token-0815-fedcba"


def test_a10_a_managed_install_never_checks_with_a_token_file_recorded_for_another_service(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    home, token_file = installed(tmp_path, "codex", B)
    sent: list[Any] = []
    from harness_memory.installers import checks

    monkeypatch.setattr(checks, "check_service", lambda *a, **k: sent.append(a[3]) or [])
    monkeypatch.setattr(checks, "check_root", lambda *args: [])
    managed = tmp_path / "managed"
    command = ["install", "claude-code", "--managed", str(managed), *flags(home, A)]
    environ = {"HOME": str(home), "HARNESS_MEMORY_TOKEN_FILE": str(token_file)}
    out = io.StringIO()

    status = main(command, environ=environ, stdout=out)

    assert sent == []  # B's token never sent to A
    assert status == 1, out.getvalue()
    assert f"given for the service at {B}, not {A}" in caplog.text
    assert not managed.exists() or not any(managed.iterdir())
