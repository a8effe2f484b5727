"""A-10, H-7: an install never removes nor replaces a token the user gave for another service.

A reviewer installed Codex CLI for service A, then gave the hooks' token file B's token with
``harness-memory token set --file F --url B``. ``install codex --url A --no-check`` then removed
F and its record ("dropped the earlier hooks' bearer token"), and the same install given A's
token (``HARNESS_MEMORY_TOKEN``) overwrote B's. A token file whose record names a service the
hooks installed before do not name is the user's: the install keeps it (said, with the command
that gives A's token in its place), and one given a token for that file is refused, nothing
changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import (
    TOKEN,
    A,
    B,
    installed,
    record,
    token_set,
)
from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

B_TOKEN = TOKEN + "-for-B"


def given_for_b(tmp_path: Path, harness: str) -> tuple[Path, Path]:
    """``(home, token file)``: ``harness`` installed for A, its token file then given B's token."""
    home, token_file = installed(tmp_path, harness, A)
    status, said = token_set(home, "--file", str(token_file), "--url", B, token=B_TOKEN)
    assert status == 0, said
    return home, token_file


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_an_unchecked_install_keeps_a_token_set_for_another_service_and_says_how_on(
    tmp_path: Path, harness: str
) -> None:
    home, token_file = given_for_b(tmp_path, harness)

    status, said = install(home, harness, *flags(home, A), environ={})

    assert status == 0, said
    assert token_file.read_text("utf-8") == f"{B_TOKEN}\n" and record(token_file) == f"{B}\n"
    assert f"removed {token_file}" not in said
    assert (
        f"kept {token_file}: it holds the token given for the service at {B} (`harness-memory "
        f"token set --url`), not {A}, and an install never removes or replaces such a token "
        f"(A-10); these hooks read it and refuse it until it holds {A}'s: `harness-memory "
        f"token set --file {token_file} --url {A}` puts it there"
    ) in said


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_a10_an_install_given_a_token_never_replaces_one_set_for_another_service(
    tmp_path: Path, harness: str, caplog: pytest.LogCaptureFixture
) -> None:
    home, token_file = given_for_b(tmp_path, harness)

    status, said = install(
        home, harness, *flags(home, A), environ={"HARNESS_MEMORY_TOKEN": TOKEN + "-for-A"}
    )

    assert status == 1, said
    assert token_file.read_text("utf-8") == f"{B_TOKEN}\n" and record(token_file) == f"{B}\n"
    assert (
        f"an install never removes or replaces such a token (A-10): `harness-memory token set "
        f"--file {token_file} --url {A}` puts {A}'s token there"
    ) in caplog.text
    assert "(nothing was changed)" in caplog.text


def test_a10_an_install_for_the_service_a_token_was_set_for_uses_it(tmp_path: Path) -> None:
    """The hooks named A, the token file was given B's: an install moved to B keeps it, and
    its hooks send it (it was removed as "given for A")."""
    home, token_file = given_for_b(tmp_path, "codex")

    status, said = install(home, "codex", *flags(home, B), environ={})

    assert status == 0, said
    assert token_file.read_text("utf-8") == f"{B_TOKEN}\n" and record(token_file) == f"{B}\n"
    assert str(token_file) in (home / ".codex" / "hooks.json").read_text("utf-8")


def test_a10_an_install_whose_token_goes_elsewhere_says_it_kept_the_users_token(
    tmp_path: Path,
) -> None:
    """After ``git init ~/.codex``, ``install codex --url A`` with A's token writes it to
    ``~/.config/harness-memory/tokens/`` and left B's token (``token set --url B``) in
    ``~/.codex/harness-memory/token``, in the work tree, without a word. It is kept (an install
    never removes it) and said: where it is, that the hooks no longer read it, how to remove it."""
    import subprocess

    home, token_file = given_for_b(tmp_path, "codex")
    subprocess.run(["git", "init", "-q", str(home / ".codex")], check=True)

    status, said = install(home, "codex", *flags(home, A), environ={"HARNESS_MEMORY_TOKEN": TOKEN})

    assert status == 0, said
    assert token_file.read_text("utf-8") == f"{B_TOKEN}\n" and record(token_file) == f"{B}\n"
    assert f"kept {token_file}" in said and "no longer read it" in said, said
    assert "git work tree" in said and f"rm {token_file} {token_file}.url" in said, said


def test_a10_an_uninstall_keeps_a_token_the_user_set_for_another_service(
    tmp_path: Path,
) -> None:
    """``uninstall`` deleted the token ``token set --url B`` put in the hooks' token file, which
    the docs call yours, never removed by an install (H-7, A-10): it is kept with its record."""
    from harness_memory.cli import main

    home, token_file = given_for_b(tmp_path, "codex")
    status, said = install(home, "codex", *flags(home, A), environ={})
    assert status == 0, said

    assert main(["uninstall", "codex", "--home", str(home)], environ={"HOME": str(home)}) == 0

    assert token_file.read_text("utf-8") == f"{B_TOKEN}\n" and record(token_file) == f"{B}\n"
