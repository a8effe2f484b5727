"""A-10a with the kernel's own refusal: the real service, its token folder or file made mode 000.

Root reads past a mode of 000, so as root the service runs under ``setpriv`` without the two
capabilities that let it (``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH``): it is then refused
like any owner of a file it may not read. The folder holds a token the whole time; the service
must never act as if it held none.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_api.store.tokens import TokenStore

from tests.support.refused_account import request_json, serve_refused
from tests.support.serve import ServedProcess


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ServedProcess, str]]:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    _, secret = TokenStore(data_dir).create("ops", None)
    process = serve_refused(data_dir)
    try:
        yield process, secret
    finally:
        process.stop()
        for path in (data_dir / "tokens", data_dir / "tokens" / "ops.json"):
            path.chmod(0o700)


def test_a10a_a_token_folder_or_file_the_service_may_not_read_refuses_with_503(
    served: tuple[ServedProcess, str],
) -> None:
    process, secret = served
    base, tokens = process.base_url, process.data_dir / "tokens"
    assert (
        request_json(base, "POST", "/api/projects/acme/agents", secret, {"id": "c", "name": "C"})[0]
        == 201
    )
    topic = process.data_dir / "agents" / "c" / "agent_state" / "memory" / "user" / "keep.md"
    topic.write_text("---\ndescription: keep\n---\nbody\n", encoding="utf-8")
    delete = "/api/projects/acme/agents/c/memory/scopes/user/files/keep.md"

    for locked in (tokens, tokens / "ops.json"):
        locked.chmod(0o000)
        for token in (None, secret):
            status, problem = request_json(base, "DELETE", delete, token)
            assert status == 503, problem
            assert "bearer tokens cannot be read" in str(problem["detail"])
        assert topic.exists()
        status, ready = request_json(base, "GET", "/readyz")
        assert status == 503 and "Permission denied" in json.dumps(ready), ready
        assert request_json(base, "GET", "/healthz")[0] == 200
        locked.chmod(0o700)
        assert request_json(base, "GET", "/api/me", secret)[1]["name"] == "ops"
        assert request_json(base, "GET", "/api/me")[0] == 401  # a token exists: none is still 401

    log = process.log_text()
    assert log.count("the bearer tokens cannot be read") == 2, log  # once per fault, not flood
    assert "tokens/ cannot be listed (Permission denied)" in log
    assert "tokens/ops.json: Permission denied" in log
    assert log.count("bearer tokens read again") == 2
