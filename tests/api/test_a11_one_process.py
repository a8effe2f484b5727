"""A-11/Q-4: ``memory-api serve`` is one process. ``--workers`` and ``MEMORY_API_WORKERS``,
which started several before, are answered with what to do instead (replicas, docs/deploy.md),
never ignored in silence: someone upgrading learns that one process now serves."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.settings import Settings

from tests.support.serve import serve


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """Put the root logger back after ``serve`` configured it."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def says_one_process_and_how_to_run_more(text: str) -> None:
    assert "memory-api serve runs one process" in text
    assert "replicas" in text and "docs/deploy.md" in text
    assert "memory-api serve --port" in text


@pytest.mark.parametrize("argv", [["--workers", "4"], ["--workers=auto"], ["--workers"]])
@pytest.mark.usefixtures("restore_logging")
def test_a11_serve_workers_is_refused_with_what_to_do_instead(
    argv: list[str],
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    assert main(["serve", "--port", "0", *argv]) == 2  # usage: nothing was started
    captured = capfd.readouterr()
    assert "serve has no --workers" in captured.err
    says_one_process_and_how_to_run_more(captured.err)
    assert "web page" not in captured.err  # refused before anything was bound
    assert captured.out == ""


def test_a11_workers_setting_is_kept_only_to_be_named() -> None:
    assert Settings.from_env({"MEMORY_API_WORKERS": " 4 "}).retired_workers == "4"
    assert Settings.from_env({"MEMORY_API_WORKERS": " "}).retired_workers is None
    assert Settings.from_env({}).retired_workers is None


@pytest.mark.e2e
def test_a11_memory_api_workers_set_serves_one_process_and_says_so(data_dir: Path) -> None:
    served = serve(data_dir, {**os.environ, "MEMORY_API_WORKERS": "4"})
    try:
        log = served.log_text()  # the warning is written before the service answers /readyz
    finally:
        served.stop()
    warning = next(line for line in log.splitlines() if "MEMORY_API_WORKERS" in line)
    assert "WARNING" in warning
    assert "MEMORY_API_WORKERS=4 is not read" in warning
    says_one_process_and_how_to_run_more(warning)
    assert "Unset MEMORY_API_WORKERS" in warning
    assert served.process.returncode == 0


@pytest.mark.e2e
def test_a11_without_memory_api_workers_no_word_of_it(data_dir: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "MEMORY_API_WORKERS"}
    served = serve(data_dir, environ)
    try:
        log = served.log_text()
    finally:
        served.stop()
    assert "WORKERS" not in log and "workers" not in log
