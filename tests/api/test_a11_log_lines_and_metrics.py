"""A-11: the text log lines name time, level, logger and process; the metrics count every
request by route template."""

from __future__ import annotations

import logging
import os

import pytest
from memory_api.http.logs import ACCESS_LOGGER, configure_logging
from prometheus_client.parser import text_string_to_metric_families

from tests.api.conftest import PROJECT, Client


def test_a11_configured_text_lines_name_level_logger_and_process(
    capsys: pytest.CaptureFixture[str], restore_logging: None
) -> None:
    configure_logging("text", "INFO")
    logging.getLogger(ACCESS_LOGGER).info("GET / %d", 200, extra={"status": 200})

    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.endswith(f"INFO {ACCESS_LOGGER}[{os.getpid()}]: GET / 200")
    assert line[:4].isdigit() and line[4] == "-"  # 2026-11-30 21:44:25,620 …
    assert line[19] == ","


async def test_a11_metrics_count_every_request(client: Client) -> None:
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
