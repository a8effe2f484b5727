"""A-11: the log lines and metrics stay as documented while costing less per request (Q-3).

The formatters make a record's time once per second instead of per record, and the metrics
middleware keeps its labelled series at hand; neither may change a byte of a line or a count.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator

import pytest
from memory_api.http import metrics
from memory_api.http.logs import (
    ACCESS_LOGGER,
    JsonLineFormatter,
    TextFormatter,
    configure_logging,
)
from prometheus_client.parser import text_string_to_metric_families

from tests.api.conftest import PROJECT, Client

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s"
MOMENTS = [1_796_000_000.0, 1_796_000_000.5, 1_796_000_000.999, 1_796_000_001.0, 1_796_003_601.25]
"""Creation times: twice within one second, its last millisecond, the next second, an hour on."""


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """Put the root logger and the record switches back after :func:`configure_logging`."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    switches = logging._srcfile, logging.logThreads, logging.logMultiprocessing
    yield
    root.handlers[:], level = saved
    root.setLevel(level)
    logging._srcfile, logging.logThreads, logging.logMultiprocessing = switches


def _record(created: float) -> logging.LogRecord:
    record = logging.LogRecord(ACCESS_LOGGER, logging.INFO, __file__, 1, "GET / %d", (200,), None)
    record.created = created
    record.msecs = (created - int(created)) * 1000
    return record


def test_a11_text_lines_are_the_standard_formatters_to_the_byte() -> None:
    standard = logging.Formatter(TEXT_FORMAT)
    cheap = TextFormatter(TEXT_FORMAT)

    for created in MOMENTS:
        assert cheap.format(_record(created)) == standard.format(_record(created))


def test_a11_json_lines_carry_the_standard_time() -> None:
    standard = logging.Formatter()
    cheap = JsonLineFormatter("%(asctime)s %(message)s", rename_fields={"asctime": "time"})

    for created in MOMENTS:
        line = json.loads(cheap.format(_record(created)))
        assert line["time"] == standard.formatTime(_record(created))
        assert line["message"] == "GET / 200"


def test_a11_an_explicit_date_format_is_honoured() -> None:
    cheap = TextFormatter("%(asctime)s", datefmt="%H:%M")
    assert cheap.format(_record(MOMENTS[0])) == logging.Formatter(
        "%(asctime)s", datefmt="%H:%M"
    ).format(_record(MOMENTS[0]))


def test_a11_configured_text_lines_name_level_logger_and_process(
    capsys: pytest.CaptureFixture[str], restore_logging: None
) -> None:
    configure_logging("text", "INFO")
    logging.getLogger(ACCESS_LOGGER).info("GET / %d", 200, extra={"status": 200})

    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.endswith(f"INFO {ACCESS_LOGGER}[{os.getpid()}]: GET / 200")
    assert line[:4].isdigit() and line[4] == "-"  # 2026-11-30 21:44:25,620 …
    assert line[19] == ","


async def test_a11_metrics_count_every_request_while_kept_series_are_dropped(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(metrics, "SERIES_KEPT", 1)  # every new series drops the kept ones
    for path in ["/healthz", f"/api/projects/{PROJECT}/agents", "/healthz", "/healthz"]:
        assert (await client.get(path)).status == 200

    text = await (await client.get("/metrics")).text()
    families = {f.name: f for f in text_string_to_metric_families(text)}
    counts = {
        s.labels["route"]: s.value
        for s in families["memory_api_requests"].samples
        if s.name == "memory_api_requests_total"
    }
    assert counts["/healthz"] == 3
    assert counts["/api/projects/{project}/agents"] == 1
    observed = {
        s.labels["route"]: s.value
        for s in families["memory_api_request_duration_seconds"].samples
        if s.name == "memory_api_request_duration_seconds_count"
    }
    assert observed["/healthz"] == 3
