"""The test support's shared installs (:class:`~tests.plugin.harness_run.InstalledHomes`) give
each test what a real ``harness-memory install`` into its HOME gives, byte for byte: the
install's record (``install.json``) included, whose digests say which files it wrote."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.plugin.harness_run import InstalledHomes, gemini_home, install
from tests.plugin.real_service import RealService

_BACKUP_TIME = rb"\d{8}T\d{6}Z"
"""The UTC second in a backup's name (``settings.json.harness-memory-backup-20261206T021410Z``):
an install made a second later names its backup so, and is otherwise the same."""


def _at_any_second(data: bytes) -> bytes:
    return re.sub(_BACKUP_TIME, b"<second>", data)


def _files(home: Path) -> dict[bytes, bytes]:
    """Each file under ``home`` by its path there, the second any backup was made at left out."""
    return {
        _at_any_second(str(path.relative_to(home)).encode()): _at_any_second(path.read_bytes())
        for path in sorted(home.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


PREPARED: dict[str, Callable[[Path], None] | None] = {"claude-code": None, "gemini": gemini_home}
"""What each harness's HOME holds before the install, as its end-to-end tests make it (Gemini
CLI's user settings: the install merges its hooks into them)."""


@pytest.mark.parametrize("harness", PREPARED)
def test_a_copied_install_is_the_install_made_there(
    real_service: RealService, memory_root: Path, tmp_path: Path, harness: str
) -> None:
    home, prepare = tmp_path / "home", PREPARED[harness]
    templates = InstalledHomes(tmp_path / "templates")
    said = templates.install(harness, home, real_service, memory_root, prepare=prepare)
    copied = _files(home)
    home.rename(tmp_path / "copied")

    home.mkdir()
    if prepare is not None:
        prepare(home)
    again = install(harness, home, real_service, memory_root)
    assert _at_any_second(again.encode()) == _at_any_second(said.encode())
    assert _files(home) == copied


def test_codex_hooks_are_never_copied(
    real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    """Codex CLI trusts each hook by a hash of its command, which names the HOME."""
    with pytest.raises(ValueError, match="trusted_hash"):
        InstalledHomes(tmp_path / "templates").install(
            "codex", tmp_path / "home", real_service, memory_root
        )
