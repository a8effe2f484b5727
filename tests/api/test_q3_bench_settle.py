"""Q-3, V-1: ``make bench`` measures no case while a fresh service records its first versions.

A Session start is answered first and its scopes recorded after, in the service's own task; the
bench's first Session start waits until the service's history shows a version of each scope a
Session start records (:mod:`bench.perf_settle`), so the version is there the moment the wait
returns, never a look later. Behaviour only: no figure is asserted on.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from memory_core.keys import USER_SCOPE

from bench.perf import _create_agent
from bench.perf_data import AGENT, PROJECT, SIZES, build_data
from bench.perf_server import start
from bench.perf_settle import first_session_start

pytestmark = pytest.mark.e2e


def test_q3_the_first_session_start_returns_once_both_scopes_hold_a_version(
    tmp_path: Path,
) -> None:
    data = build_data(tmp_path, SIZES["quick"], agent=AGENT)
    _create_agent(data)
    server = start(data.data_dir, tmp_path)
    try:
        first_session_start(server, data)
        shown = {}
        for key in (USER_SCOPE, data.big_key):
            url = f"{server.base_url}/api/projects/{PROJECT}/agents/{AGENT}/memory"
            with urllib.request.urlopen(f"{url}/scopes/{key}/changes") as answer:  # noqa: S310
                shown[key] = [v["author"]["source"] for v in json.load(answer)["versions"]]
    finally:
        server.stop()

    assert shown == {USER_SCOPE: ["session-start"], data.big_key: ["session-start"]}
