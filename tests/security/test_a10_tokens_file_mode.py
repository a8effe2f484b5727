"""A-10: ``MEMORY_API_TOKENS_FILE`` holds plain secrets. A file every account may read (the
"other" read bit: ``0644``, ``0444``, a Kubernetes Secret mounted without ``defaultMode``) makes
the service warn at start, naming the file and its mode; it still starts (refusing would take a
running deployment down on an upgrade). Owner-only (``0600``, ``0400``) and group-only (``0440``,
a Secret read through ``fsGroup``) are said nothing of.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from memory_api.settings import Settings

from tests.support.serve import serve


def tokens_file(tmp_path: Path, mode: int) -> Path:
    path = tmp_path / "tokens"
    path.write_text("# the team's\nci=s3cret-value-1234\n", encoding="utf-8")
    path.chmod(mode)
    return path


@pytest.mark.parametrize("mode", [0o644, 0o444, 0o604])
def test_a10_a_tokens_file_every_account_may_read_is_warned_of_by_name_and_mode(
    tmp_path: Path, mode: int
) -> None:
    path = tokens_file(tmp_path, mode)

    settings = Settings.from_env({"MEMORY_API_TOKENS_FILE": str(path)})

    assert [entry.name for entry in settings.env_tokens] == ["ci"]  # still read, not refused
    assert settings.tokens_file_warning is not None
    assert f"MEMORY_API_TOKENS_FILE {path} is readable by every account (mode 0{mode:o})" in (
        settings.tokens_file_warning
    )
    assert "chmod 600" in settings.tokens_file_warning
    assert "defaultMode" in settings.tokens_file_warning


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        (0o602, "writable by every account (mode 0602): anyone on this machine can add a token"),
        (
            0o666,
            "readable and writable by every account (mode 0666): anyone on this machine can "
            "read its secrets and add a token of their own, which the next start takes",
        ),
    ],
)
def test_a10_a_tokens_file_every_account_may_write_is_warned_of_by_name_and_mode(
    tmp_path: Path, mode: int, said: str
) -> None:
    """Every account could write a token of its own into it (the next start takes it), and
    ``0602`` was said nothing of: only the read bit was looked at."""
    path = tokens_file(tmp_path, mode)

    settings = Settings.from_env({"MEMORY_API_TOKENS_FILE": str(path)})

    assert [entry.name for entry in settings.env_tokens] == ["ci"]
    assert settings.tokens_file_warning is not None
    assert f"MEMORY_API_TOKENS_FILE {path} is {said}" in settings.tokens_file_warning
    assert "chmod 600" in settings.tokens_file_warning


def test_a10_a_tokens_file_reached_through_a_symlink_is_judged_by_its_target(
    tmp_path: Path,
) -> None:
    """A mounted Secret's file is a symlink into ``..data/``: its own mode is the link's."""
    target = tokens_file(tmp_path, 0o644)
    link = tmp_path / "mounted"
    link.symlink_to(target)

    warning = Settings.from_env({"MEMORY_API_TOKENS_FILE": str(link)}).tokens_file_warning

    assert warning is not None and "(mode 0644)" in warning


@pytest.mark.parametrize("mode", [0o600, 0o400, 0o440, 0o640])
def test_a10_an_owner_or_group_only_tokens_file_is_no_warning(tmp_path: Path, mode: int) -> None:
    settings = Settings.from_env({"MEMORY_API_TOKENS_FILE": str(tokens_file(tmp_path, mode))})

    assert settings.tokens_file_warning is None
    assert Settings.from_env({}).tokens_file_warning is None


@pytest.mark.e2e
def test_a10_serve_logs_the_warning_and_serves(tmp_path: Path) -> None:
    path = tokens_file(tmp_path, 0o644)
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    environ = {k: v for k, v in os.environ.items() if k != "MEMORY_API_TOKENS"}
    served = serve(data_dir, {**environ, "MEMORY_API_TOKENS_FILE": str(path)})
    try:
        log = served.log_text()  # written before the service answers /readyz
    finally:
        served.stop()
    warning = next(line for line in log.splitlines() if "MEMORY_API_TOKENS_FILE" in line)
    assert "WARNING" in warning
    assert f"{path} is readable by every account (mode 0644)" in warning
    assert "s3cret" not in log
    assert served.process.returncode == 0
