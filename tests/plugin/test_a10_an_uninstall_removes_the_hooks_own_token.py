"""A-10, H-7: ``uninstall`` removes the hooks' own bearer token whenever its record names the
installed service, however the URL is written, and never judges it by its own environment.

A reviewer installed with ``--url http://127.0.0.1:8765`` and ran ``uninstall`` with
``HARNESS_MEMORY_URL=http://127.0.0.1:8765/`` set: the token was left behind, "(not made by
harness-memory)". The uninstall plans noted the environment's URL as the installed service, and
the token's record was compared with it byte for byte, not as the same service (case, the
scheme's own port, a last ``/``). A token ``token set --url A/`` gave the hooks was left too.
"""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.record import IGNORE_TEXT

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import (
    A,
    B,
    installed,
    token_set,
)
from tests.plugin.test_a10_an_install_keeps_a_token_set_for_another_service import (
    B_TOKEN,
    given_for_b,
)
from tests.plugin.test_a10_install_again_makes_the_token_file_private import install
from tests.plugin.test_a10_install_again_with_its_settings_keeps_the_token import flags

HARNESSES = ["claude-code", "codex", "gemini"]


def uninstall(home: Path, harness: str, **environ: str) -> str:
    out = io.StringIO()
    argv = ["uninstall", harness, "--home", str(home)]
    assert main(argv, environ={"HOME": str(home), **environ}, stdout=out) == 0, out.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_uninstall_removes_the_token_though_the_environment_writes_the_url_otherwise(
    tmp_path: Path, harness: str
) -> None:
    home, token_file = installed(tmp_path, harness, A)

    said = uninstall(home, harness, HARNESS_MEMORY_URL=A + "/")

    assert not token_file.exists(), said
    assert not token_file.parent.exists(), said


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_uninstall_removes_a_token_set_for_the_same_service_written_otherwise(
    tmp_path: Path, harness: str
) -> None:
    home, token_file = installed(tmp_path, harness, A)
    status, said = token_set(home, "--file", str(token_file), "--url", A.upper() + "/")
    assert status == 0, said

    said = uninstall(home, harness)

    assert not token_file.exists(), said
    assert "not made by harness-memory" not in said, said


def staged_by_git_add_all(folder: Path) -> list[str]:
    """What ``git add -A`` in ``folder`` (a dotfiles repository) takes in."""
    env = {"PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    git = ["git", "-C", str(folder)]
    subprocess.run([*git, "init", "-q"], check=True, env=env)
    subprocess.run([*git, "add", "-A"], check=True, env=env)
    listed = subprocess.run([*git, "ls-files"], check=True, env=env, capture_output=True, text=True)
    return listed.stdout.split()


def test_h7_uninstall_keeping_a_token_of_another_service_keeps_it_out_of_git_and_says_whose(
    tmp_path: Path,
) -> None:
    """``uninstall`` kept B's token (``token set --url B``) but deleted the ``.gitignore``
    (``*``) beside it: ``git add -A`` in ``~/.codex`` then took the token in. And it said the
    token was "not made by harness-memory"; it holds B's token, which the user may remove."""
    home, token_file = given_for_b(tmp_path, "codex")
    status, said = install(home, "codex", *flags(home, A), environ={})
    assert status == 0, said

    said = uninstall(home, "codex")

    ignore = token_file.parent / ".gitignore"
    assert token_file.read_text("utf-8") == f"{B_TOKEN}\n", said
    assert "harness-memory/token" not in staged_by_git_add_all(home / ".codex"), said
    assert (
        f"left {token_file}: it holds the bearer token given for the service at {B} "
        f"(`harness-memory token set --url`), not the one these hooks were installed for, so "
        f"this uninstall keeps it (A-10); if no one needs it, remove it yourself: "
        f"`rm {token_file} {token_file}.url {ignore} && rmdir {token_file.parent}`; if you keep "
        "it, move it out of this folder: run "
        "again, with no install record left, an uninstall cannot tell it from the hooks' own "
        "and removes it"
    ) in said, said
    assert f"left {ignore}: it keeps what is left in {token_file.parent} out of git" in said
    assert "not made by harness-memory" not in said, said


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_uninstall_with_its_record_moved_aside_removes_the_hooks_own_token(
    tmp_path: Path, harness: str
) -> None:
    """Uninstall's own advice for a broken ``install.json`` is to move it aside and run again;
    with no record left, the hooks' token (its ``token.url`` written by the install, as
    ``token set --url`` writes one) was kept and called the user's (review final66). With
    nothing telling them apart, the token is removed, as before."""
    home, token_file = installed(tmp_path, harness, A)
    record = token_file.parent / "install.json"
    record.rename(record.with_name("install.json.broken"))

    said = uninstall(home, harness)

    assert not token_file.exists(), said
    assert "this uninstall keeps it" not in said, said


def test_h7_uninstall_keeps_the_gitignore_while_an_installs_kept_copy_of_the_token_stays(
    tmp_path: Path,
) -> None:
    """An install killed midway leaves its copy of the token (``.token.harness-memory-kept-…``),
    which only an install cleans up; uninstall removed the ``.gitignore`` beside it, and
    ``git add -A`` in ``~/.codex`` took the token in (review final66)."""
    home, token_file = installed(tmp_path, "codex", A)
    kept = token_file.with_name(".token.harness-memory-kept-0123abcd")
    kept.write_bytes(token_file.read_bytes())

    said = uninstall(home, "codex")

    assert f"harness-memory/{kept.name}" not in staged_by_git_add_all(home / ".codex"), said
    assert (token_file.parent / ".gitignore").read_text("utf-8") == IGNORE_TEXT, said


def test_a10_install_and_uninstall_agree_on_a_token_beside_the_users_own_url_file(
    tmp_path: Path,
) -> None:
    """Install keeps the token beside a ``token.url`` that is no record harness-memory wrote
    (the user's notes), and says the uninstall removes the token, never that file; the uninstall
    does so, and keeps the ``.gitignore`` while the user's file is there."""
    home, token_file = installed(tmp_path, "codex", A)
    mine = token_file.parent / "token.url"
    mine.write_text("my notes\n", "utf-8")

    status, said = install(home, "codex", *flags(home, A), environ={})

    assert status == 0, said
    assert f"`harness-memory uninstall` removes {token_file}, never {mine}" in said, said
    said = uninstall(home, "codex")
    assert not token_file.exists() and mine.read_text("utf-8") == "my notes\n", said
    assert (token_file.parent / ".gitignore").read_text("utf-8") == IGNORE_TEXT, said


def test_a10_uninstall_reads_a_record_written_before_as_it_was_written(tmp_path: Path) -> None:
    """An install record from before keeps the digest of the URL as the install was given it:
    the token recorded for that URL is still the hooks' own, and removed."""
    import json

    from harness_memory.installers.record import text_digest

    home, token_file = installed(tmp_path, "codex", A)
    record_file = token_file.parent / "install.json"
    document = json.loads(record_file.read_text("utf-8"))
    document["serviceUrl"] = text_digest(A.encode())
    record_file.write_text(json.dumps(document), "utf-8")

    said = uninstall(home, "codex")

    assert not token_file.exists(), said
