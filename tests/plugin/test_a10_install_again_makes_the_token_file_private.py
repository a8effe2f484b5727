"""A-10, H-7: a file that holds a token is ``0600``, also after an install again.

A token file another user may read (``chmod 644``, an ACL entry) is refused by every hook
(``cannot read the token file …: other users may read it``) and ``status`` says PROBLEM. An
install again with the same token (``HARNESS_MEMORY_TOKEN``, or none: the one the installed
hooks read) answered "nothing to change (already installed)" and left it so; it makes the file
owner-only again and says so, and its folder too.
"""

from __future__ import annotations

import io
import stat
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.settings import load_settings

from tests.plugin.helpers import HARNESS_MEMORY
from tests.security.test_a10a_token_writers_besides_the_service import OTHER, grant_read_by_acl
from tests.support.refused_chmod import refusing_chmod_under

TOKEN = "s3cr3t-Token-4711"
FOLDER = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}


def install(home: Path, harness: str, *extra: str, environ: dict[str, str]) -> tuple[int, str]:
    out = io.StringIO()
    status = main(
        ["install", harness, "--home", str(home), "--no-check", *extra],
        environ={"HOME": str(home), **environ},
        stdout=out,
    )
    return status, out.getvalue()


def installed(tmp_path: Path, harness: str) -> tuple[Path, Path]:
    """``(home, token file)`` of a fresh install of ``harness`` with :data:`TOKEN`."""
    home, root = tmp_path / "home", tmp_path / "data" / "agents" / "coder" / "agent_state" / "m"
    root.mkdir(parents=True)
    flags = ["--memory-root", str(root), "--url", "http://127.0.0.1:9", "--project", "acme"]
    flags += ["--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    status, said = install(home, harness, *flags, environ={"HARNESS_MEMORY_TOKEN": TOKEN})
    assert status == 0, said
    return home, home / FOLDER[harness] / "harness-memory" / "token"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def hooks_read(token_file: Path) -> str | None:
    """The token a hook reads from ``token_file`` (raises as the hook refuses it)."""
    return load_settings({"token_file": str(token_file)}, {}, flags_only=True).bearer_token()


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("given", ["variable", "none"])
def test_a10_an_install_again_makes_a_token_file_others_may_read_owner_only(
    tmp_path: Path, harness: str, given: str
) -> None:
    home, token_file = installed(tmp_path, harness)
    token_file.chmod(0o644)
    environ = {"HARNESS_MEMORY_TOKEN": TOKEN} if given == "variable" else {}
    status, said = install(home, harness, environ=environ)
    assert status == 0, said
    assert "nothing to change" not in said, said
    assert mode(token_file) == 0o600
    assert f"{token_file} holds the bearer token: made it readable by its owner only" in said
    assert "(mode 0644 -> 0600)" in said
    assert TOKEN not in said
    assert hooks_read(token_file) == TOKEN
    status, again = install(home, harness, environ=environ)
    assert status == 0 and "nothing to change (already installed)" in again, again


def test_a10_a_dry_run_says_the_token_file_would_be_made_owner_only(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "codex")
    token_file.chmod(0o640)
    status, said = install(home, "codex", "--dry-run", environ={})
    assert status == 0, said
    assert f"(mode of {token_file}: 0640 -> 0600: it will hold the bearer token)" in said
    assert TOKEN not in said
    assert mode(token_file) == 0o640


def test_a10_an_acl_letting_another_account_read_the_token_is_taken_away(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "gemini")
    grant_read_by_acl(token_file, OTHER)
    assert mode(token_file) == 0o640  # the group bits show the ACL's mask
    status, said = install(home, "gemini", environ={})
    assert status == 0, said
    assert "nothing to change" not in said, said
    assert mode(token_file) == 0o600
    assert hooks_read(token_file) == TOKEN


def test_a10_an_install_again_makes_the_state_folder_owner_only(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "claude-code")
    token_file.parent.chmod(0o755)
    status, said = install(home, "claude-code", environ={"HARNESS_MEMORY_TOKEN": TOKEN})
    assert status == 0, said
    assert "nothing to change" not in said, said
    assert mode(token_file.parent) == 0o700
    assert f"{token_file.parent} holds the bearer token: made it owner-only (0755 -> 0700)" in said


def test_a10_a_token_file_that_cannot_be_made_owner_only_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    home, token_file = installed(tmp_path, "codex")
    token_file.chmod(0o644)
    refusing_chmod_under(home, monkeypatch)  # the kernel's FAT: every chmod fails EPERM
    status, said = install(home, "codex", "--executable", str(HARNESS_MEMORY), environ={})
    assert status == 1
    assert "nothing to change" not in said
    assert f"cannot write {token_file}: the disk it is on keeps no owner-only" in caplog.text
    assert TOKEN not in caplog.text
    assert mode(token_file) == 0o644


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_a10_status_names_the_command_that_makes_the_token_file_owner_only(
    tmp_path: Path, harness: str
) -> None:
    """``status`` writes nothing (README: it reads as the harness does), so it leaves the mode as
    it is and says the one command that makes the file owner-only again, path and all; it
    said "chmod 600 it", and the user had to find "it" in the line."""
    home, token_file = installed(tmp_path, harness)
    token_file.chmod(0o644)
    out = io.StringIO()

    main(["status", "--home", str(home)], environ={"HOME": str(home)}, stdout=out)

    said = out.getvalue()
    assert f"cannot read the token file {token_file}: other users may read it" in said
    assert f"make it owner-only: `chmod 600 {token_file}`" in said
    assert TOKEN not in said
    assert mode(token_file) == 0o644
