"""A-10: ``MEMORY_API_TOKENS_FILE`` holds plain secrets. A file every account may read (the
"other" read bit: ``0644``, ``0444``, a Kubernetes Secret mounted without ``defaultMode``) makes
the service warn at start, naming the file and its mode; it still starts (refusing would take a
running deployment down on an upgrade). A file every account may *write* stops the start (exit
2) naming the file and ``chmod o-w``: anyone could add a token the start would take, as a token
file of a token folder every account may write is never trusted (A-10a); on a read-only mount (a
Secret's volume) it is fine whatever its mode. Owner-only (``0600``, ``0400``) and group-only
(``0440``, a Secret read through ``fsGroup``) are said nothing of.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.settings import Settings, SettingsError
from memory_core import kept_modes

from tests.support.case_insensitive_disk import case_insensitive_disk
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


@pytest.mark.parametrize("mode", [0o602, 0o666, 0o622])
def test_a10_a_tokens_file_every_account_may_write_refuses_to_start(
    tmp_path: Path, mode: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every account could write a token of its own into it, which the start takes: it was
    only warned of, while a token file of a token folder every account may write is never
    trusted (503). The start stops, naming the file, its mode and ``chmod o-w``."""
    monkeypatch.setattr(kept_modes, "_kept", {})
    path = tokens_file(tmp_path, mode)

    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"MEMORY_API_TOKENS_FILE": str(path)})

    said = str(refused.value)
    assert f"MEMORY_API_TOKENS_FILE: {path} can be written by every account (mode 0{mode:o})" in (
        said
    )
    assert f"chmod o-w {path}" in said
    assert "s3cret" not in said


def test_a10_serve_refuses_a_tokens_file_every_account_may_write_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tokens_file(tmp_path, 0o666)
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    monkeypatch.setenv("MEMORY_API_TOKENS_FILE", str(path))

    assert main(["serve"]) == 2

    err = capsys.readouterr().err
    assert f"configuration error: MEMORY_API_TOKENS_FILE: {path} can be written" in err
    assert f"chmod o-w {path}" in err


def test_a10_a_writable_tokens_file_on_a_read_only_mount_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Kubernetes Secret's volume is mounted read-only: nobody writes its files whatever
    their mode, as for the token folder. (The mount's flag is given: making a read-only mount
    needs privileges the tests do not have.)"""
    path = tokens_file(tmp_path, 0o660)
    path.chmod(0o662)
    real = os.statvfs
    read_only = os.statvfs_result((4096, 4096, 1, 0, 0, 1, 0, 0, os.ST_RDONLY, 255, 0))

    def mounted(named: str | Path) -> os.statvfs_result:
        return read_only if Path(named) == path else real(named)

    monkeypatch.setattr(os, "statvfs", mounted)

    settings = Settings.from_env({"MEMORY_API_TOKENS_FILE": str(path)})

    assert [entry.name for entry in settings.env_tokens] == ["ci"]
    assert settings.tokens_file_warning is None


def test_a10_a_tokens_file_on_a_disk_that_keeps_no_modes_says_to_move_it(
    tmp_path: Path,
) -> None:
    """On exFAT every file is ``0777`` and ``chmod o-w`` changes nothing: the start still
    stops (anyone may add a token there), saying to move the file or use
    ``MEMORY_API_TOKENS``."""
    with case_insensitive_disk(tmp_path) as disk:
        path = tokens_file(disk, 0o600)  # kept by no bit of the disk

        with pytest.raises(SettingsError) as refused:
            Settings.from_env({"MEMORY_API_TOKENS_FILE": str(path)})

    said = str(refused.value)
    assert f"{path} can be written by every account (mode 0777)" in said
    assert "keeps no permission bits" in said
    assert "move the file to a disk that keeps them" in said and "MEMORY_API_TOKENS." in said
    assert "chmod o-w" not in said


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
