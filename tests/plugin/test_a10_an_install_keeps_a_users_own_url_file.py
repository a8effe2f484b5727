"""A-10: a ``token.url`` beside the hooks' token that is no service record harness-memory
wrote (the user's own file) is kept by an install, as the hook's refusal says: "neither used
nor replaced".

A reviewer wrote notes into ``~/.codex/harness-memory/token.url``; the hook said harness-memory
neither uses nor replaces it, but ``install codex --url A`` removed it with the token (saying it
dropped a token "given for another service"), and the same install given
``HARNESS_MEMORY_TOKEN`` overwrote it with A's record.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from harness_memory.settings import load_settings

from tests.plugin.test_a10_a_refused_token_names_a_command_that_runs import (
    NEW_TOKEN,
    hook_settings,
    run_printed,
)
from tests.plugin.test_a10_a_token_keeps_its_recorded_service import TOKEN, A, installed
from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

NOTES = "my notes: which service is this?\n"


def with_notes(tmp_path: Path) -> tuple[Path, Path, Path]:
    home, token_file = installed(tmp_path, "codex", A)
    mine = token_file.parent / "token.url"
    mine.write_text(NOTES, "utf-8")
    return home, token_file, mine


def test_a10_an_install_again_keeps_the_users_url_file_and_the_token(tmp_path: Path) -> None:
    home, token_file, mine = with_notes(tmp_path)

    status, said = install(home, "codex", *flags(home, A), environ={})

    assert status == 0, said
    assert mine.read_text("utf-8") == NOTES and token_file.read_text("utf-8") == TOKEN + "\n"
    assert f"kept {token_file}" in said and "neither uses, removes nor replaces" in said, said
    assert "another service" not in said, said
    (move,) = re.findall(r"`(mv -n [^`]*)`", said)
    _, _, source, target = shlex.split(move)
    Path(source).rename(target)  # as printed
    run_printed(said, home)
    settings = hook_settings(token_file, A)
    assert load_settings(settings, {}, flags_only=True).bearer_token() == NEW_TOKEN
    assert Path(target).read_text("utf-8") == NOTES


def test_a10_an_install_given_a_token_does_not_overwrite_the_users_url_file(
    tmp_path: Path,
) -> None:
    home, token_file, mine = with_notes(tmp_path)

    status, _ = install(home, "codex", *flags(home, A), environ={"HARNESS_MEMORY_TOKEN": NEW_TOKEN})

    assert status == 1  # refused: "move it aside …, then run this install again"
    assert mine.read_text("utf-8") == NOTES and token_file.read_text("utf-8") == TOKEN + "\n"


def test_a10_an_uninstall_keeps_the_users_url_file(tmp_path: Path) -> None:
    home, _, mine = with_notes(tmp_path)

    status, said = install(home, "codex", *flags(home, A), environ={})
    assert status == 0, said
    from harness_memory.cli import main

    assert main(["uninstall", "codex", "--home", str(home)], environ={"HOME": str(home)}) == 0

    assert mine.read_text("utf-8") == NOTES
