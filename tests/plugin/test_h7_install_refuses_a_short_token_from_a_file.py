"""H-7, A-10: an install writing the token it read from ``--token-file`` (or
``HARNESS_MEMORY_TOKEN_FILE``) holds it to the rule ``token set`` and ``HARNESS_MEMORY_TOKEN``
apply (one token of the service's form: 16 characters or more), with ``--no-check`` too: the
refusal names the file, never the token, and nothing is written.

A reviewer gave ``install --no-check --token-file F`` a five-character token: it was written.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags


@pytest.mark.parametrize("given", ["--token-file", "HARNESS_MEMORY_TOKEN_FILE"])
def test_h7_install_refuses_a_token_file_holding_no_token_of_the_service(
    tmp_path: Path, given: str, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    Path(flags(home)[1]).mkdir(parents=True)
    token_file = tmp_path / "short"
    token_file.write_text("abcde\n")
    token_file.chmod(0o600)
    by_flag = given == "--token-file"
    extra = [given, str(token_file)] if by_flag else []
    environ = {"HOME": str(home)} | ({} if by_flag else {given: str(token_file)})
    out = io.StringIO()

    with caplog.at_level(logging.ERROR):
        status = main(
            ["install", "codex", "--home", str(home), "--no-check", *flags(home), *extra],
            environ=environ,
            stdout=out,
        )

    assert status == 1, out.getvalue()
    assert f"{given} {token_file} is 5 characters" in caplog.text
    assert "(nothing was changed)" in caplog.text
    assert "abcde" not in caplog.text + out.getvalue()
    assert not (home / ".codex").exists()
