"""The test support's shared installs (:class:`~tests.plugin.harness_run.InstalledHomes`) give
each test what a real ``harness-memory install`` into its HOME gives, byte for byte: the
install's record (``install.json``) included, whose digests say which files it wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.harness_run import InstalledHomes, install
from tests.plugin.real_service import RealService


def _files(home: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(home)): path.read_bytes()
        for path in sorted(home.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


@pytest.mark.parametrize("harness", ["claude-code", "gemini"])
def test_a_copied_install_is_the_install_made_there(
    real_service: RealService, memory_root: Path, tmp_path: Path, harness: str
) -> None:
    home = tmp_path / "home"
    said = InstalledHomes(tmp_path / "templates").install(harness, home, real_service, memory_root)
    copied = _files(home)
    home.rename(tmp_path / "copied")

    home.mkdir()
    assert install(harness, home, real_service, memory_root) == said
    assert _files(home) == copied


def test_codex_hooks_are_never_copied(
    real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    """Codex CLI trusts each hook by a hash of its command, which names the HOME."""
    with pytest.raises(ValueError, match="trusted_hash"):
        InstalledHomes(tmp_path / "templates").install(
            "codex", tmp_path / "home", real_service, memory_root
        )
