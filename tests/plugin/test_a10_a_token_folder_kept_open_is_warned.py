"""A-10: a state folder the install cannot make owner-only is warned about, never a failure.

On a disk that keeps no folder modes (``vfat`` mounted ``fmask=0177,dmask=0022``: the token file
``0600``, its folder ``0755``), ``chmod`` of the folder fails ``EPERM``, or is taken silently
(``quiet``) and changes nothing. An install again failed ("cannot write …/token: Operation not
permitted"), or said "made it owner-only (0755 -> 0700)" on every run while it stayed ``0755``.
The hooks accept such a file (only the file's own mode counts for them): the install makes the
folder owner-only when it writes, reads the mode back, and says a WARNING naming the folder
when it is still open (on every run: it is true), never "nothing to change" with the folder
open unsaid. A dry run says the change and writes nothing: no probe folder is made in the
token folder (it was, at plan time, a dry run's too). A folder reached through a symlink (a
tokens folder linked into a dotfiles repository) is never chmodded.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.test_a10_install_again_makes_the_token_file_private import (
    TOKEN,
    hooks_read,
    install,
    installed,
    mode,
)

EXECUTABLE = ["--executable", str(HARNESS_MEMORY)]


def folders_keep_no_mode(folder: Path, monkeypatch: pytest.MonkeyPatch, *, quiet: bool) -> None:
    """``chmod`` (``os.chmod``, ``os.fchmod``) of ``folder`` and of folders in it fails
    ``EPERM`` (or, ``quiet``, does nothing), as on a ``vfat`` disk; files there are chmodded as
    ever (``fmask=0177``)."""
    real_chmod, real_fchmod, inside = os.chmod, os.fchmod, folder.resolve()

    def kept(target: Path, shown: str) -> bool:
        if target.is_dir() and target.is_relative_to(inside):
            if quiet:
                return True
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), shown)
        return False

    def chmod(path: Any, new: int, *args: Any, **kwargs: Any) -> None:
        if isinstance(path, int) or not kept(Path(os.path.realpath(path)), str(path)):
            real_chmod(path, new, *args, **kwargs)

    def fchmod(fd: int, new: int) -> None:
        if not kept(Path(os.path.realpath(f"/proc/self/fd/{fd}")), str(fd)):
            real_fchmod(fd, new)

    monkeypatch.setattr(os, "chmod", chmod)
    monkeypatch.setattr(os, "fchmod", fchmod)


def as_it_is(folder: Path) -> tuple[int, list[str]]:
    """What a change to ``folder`` alters: its modification time (ns) and the names in it."""
    return folder.stat().st_mtime_ns, sorted(path.name for path in folder.iterdir())


def test_a10_a_dry_run_says_the_folder_would_be_made_owner_only_and_touches_nothing(
    tmp_path: Path,
) -> None:
    home, token_file = installed(tmp_path, "codex")
    folder = token_file.parent
    folder.chmod(0o755)
    before = as_it_is(folder)
    status, said = install(home, "codex", *EXECUTABLE, "--dry-run", environ={})
    assert status == 0, said
    assert f"(mode of {folder}: 0755 -> 0700: it holds the bearer token)" in said, said
    assert as_it_is(folder) == before
    assert mode(folder) == 0o755
    status, said = install(home, "codex", *EXECUTABLE, environ={})
    assert status == 0, said
    assert f"{folder} holds the bearer token: made it owner-only (0755 -> 0700)" in said, said
    assert mode(folder) == 0o700
    assert hooks_read(token_file) == TOKEN


@pytest.mark.parametrize("quiet", [False, True], ids=["eperm", "quiet"])
def test_a10_a_state_folder_that_keeps_no_mode_is_warned_not_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quiet: bool
) -> None:
    home, token_file = installed(tmp_path, "codex")
    folder = token_file.parent
    folder.chmod(0o755)
    folders_keep_no_mode(folder, monkeypatch, quiet=quiet)
    before = as_it_is(folder)
    status, said = install(home, "codex", *EXECUTABLE, "--dry-run", environ={})
    assert status == 0, said
    assert f"(mode of {folder}: 0755 -> 0700: it holds the bearer token)" in said, said
    assert as_it_is(folder) == before
    for _ in range(2):
        status, said = install(home, "codex", *EXECUTABLE, environ={})
        assert status == 0, said
        assert "cannot write" not in said
        assert "made it owner-only" not in said, said
        assert f"WARNING: {folder} holds the bearer token file" in said, said
        assert "its disk refused the change" in said, said
        assert "nothing to change" not in said, said
        assert mode(folder) == 0o755
        assert mode(token_file) == 0o600
        assert hooks_read(token_file) == TOKEN


def test_a10_a_tokens_folder_reached_through_a_link_is_never_chmodded(tmp_path: Path) -> None:
    home, token_file = installed(tmp_path, "gemini")
    secrets = tmp_path / "dotfiles-secrets"
    token_file.parent.rename(secrets)
    token_file.parent.symlink_to(secrets)
    (secrets / "other-key").write_text("x", "utf-8")
    secrets.chmod(0o755)
    status, said = install(home, "gemini", *EXECUTABLE, environ={})
    assert status == 0, said
    assert mode(secrets) == 0o755
    assert "made it owner-only" not in said, said
    assert f"WARNING: {token_file.parent} " in said, said
    assert hooks_read(token_file) == TOKEN


def test_a10_a_state_folder_whose_own_chmod_fails_is_warned_after_the_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder alone refuses its ``chmod``: the token file is made ``0600`` all the same,
    and the folder is warned about, never "cannot write"."""
    home, token_file = installed(tmp_path, "claude-code")
    folder = token_file.parent
    token_file.chmod(0o644)
    folder.chmod(0o755)
    real_chmod, real_fchmod = os.chmod, os.fchmod

    def chmod(path: Any, new: int, *args: Any, **kwargs: Any) -> None:
        if not isinstance(path, int) and Path(path) == folder:
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), str(path))
        real_chmod(path, new, *args, **kwargs)

    def fchmod(fd: int, new: int) -> None:
        if os.path.samestat(os.fstat(fd), folder.stat()):
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))
        real_fchmod(fd, new)

    monkeypatch.setattr(os, "chmod", chmod)
    monkeypatch.setattr(os, "fchmod", fchmod)
    status, said = install(home, "claude-code", *EXECUTABLE, environ={})
    assert status == 0, said
    assert mode(token_file) == 0o600
    assert f"WARNING: {folder} holds the bearer token file" in said, said
    assert "its disk refused the change" in said
    assert hooks_read(token_file) == TOKEN
