"""H-7, A-10: ``install`` (``--no-check`` too) refuses a token of a shape ``token set`` refuses
(fewer than 16 characters, white space inside, a character outside ASCII): a clear error naming
where it came from, never the token, and nothing written.

A reviewer ran ``HARNESS_MEMORY_TOKEN=abcde harness-memory install codex --no-check``: the
hooks and a token file holding the five characters were written, which ``token set`` refuses
and no service takes.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags


def refused(caplog: pytest.LogCaptureFixture, home: Path, *extra: str, **environ: str) -> str:
    """What ``install`` says refusing (its log), having exited non-zero."""
    with caplog.at_level(logging.ERROR):
        status, said = install(home, extra[0], *flags(home), *extra[1:], environ=environ)
    assert status != 0, said
    return said + caplog.text


SHAPES = {
    "abcde": "is 5 characters: a token is mem_ and 43 more characters",
    "...": "is 3 characters: a token is mem_ and 43 more characters",  # the README's placeholder
    "sixteen chars in": "holds white space or a control character inside",
    "s3cr3t-Token-47\u00e9": "holds a character outside ASCII (character 16)",
}


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_h7_install_no_check_refuses_a_five_character_environment_token(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    home.mkdir()

    said = refused(caplog, home, harness, HARNESS_MEMORY_TOKEN="abcde")

    assert f"the token from HARNESS_MEMORY_TOKEN {SHAPES['abcde']}" in said, said
    assert "abcde" not in said.replace("the token from", ""), said
    assert [p for p in home.rglob("*") if p.is_file()] == [], said


@pytest.mark.parametrize("token", list(SHAPES))
def test_h7_install_refuses_a_token_option_of_a_shape_token_set_refuses(
    tmp_path: Path, token: str, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    home.mkdir()

    said = refused(caplog, home, "codex", "--token", token)

    assert f"the token from --token {SHAPES[token]}" in said, said
    assert [p for p in home.rglob("*") if p.is_file()] == [], said
