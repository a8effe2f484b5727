"""A-1, P-2a: a ``--template-file`` that is a FIFO, a device or huge is refused, never a hang.

``memory-api agent create --template-file`` and ``HARNESS_MEMORY_TEMPLATE`` both read an operator's
file; a FIFO nobody writes would block a plain ``open()`` forever and ``/dev/zero`` never ends.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core.errors import NotRegularFileError
from memory_core.template import TEMPLATE_FILE_MAX_BYTES, read_template_file

from tests.support.serve import venv_bin

ARGV = ["agent", "create", "--project", "acme", "--id", "coder", "--name", "Coder"]


def test_a1_template_file_that_is_a_fifo_is_refused_and_no_agent_is_made(tmp_path: Path) -> None:
    fifo = tmp_path / "prompt.md"
    os.mkfifo(fifo)  # nobody ever writes it
    env = {**os.environ, "MEMORY_API_DATA_DIR": str(tmp_path / "data")}
    env.pop("MEMORY_API_TOKENS", None)
    try:
        done = subprocess.run(
            [venv_bin("memory-api"), *ARGV, "--template-file", str(fifo)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("memory-api agent create hung on a FIFO")
    assert done.returncode == 1, done.stderr
    assert "not a regular file" in done.stderr
    assert not (tmp_path / "data" / "agents" / "coder").exists()


def test_a1_template_file_past_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    template = tmp_path / "prompt.md"
    template.write_bytes(b"x" * (TEMPLATE_FILE_MAX_BYTES + 1))
    assert main([*ARGV, "--template-file", str(template)]) == 1
    assert "larger than" in capsys.readouterr().err
    assert not (tmp_path / "data" / "agents" / "coder").exists()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a1_devices_are_no_template_files(device: str) -> None:
    with pytest.raises(NotRegularFileError):
        read_template_file(Path(device))


def test_a1_a_folder_named_as_the_template_file_is_named_as_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder given as ``--template-file`` (a path mistyped by one level) was said as
    "[Errno 21] Is a directory: 3": the number of the file descriptor, not the path."""
    with pytest.raises(NotRegularFileError) as refused:
        read_template_file(tmp_path)
    assert refused.value.filename == str(tmp_path)
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    assert main([*ARGV, "--template-file", str(tmp_path)]) == 1
    said = capsys.readouterr().err
    assert f"not a regular file: {tmp_path}" in said
    assert not (tmp_path / "data" / "agents" / "coder").exists()
