"""A-10a with the kernel's own refusal: the real service, its token folder or file made mode 000.

Root reads past a mode of 000, so as root the service runs under ``setpriv`` without the two
capabilities that let it (``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH``): it is then refused
like any owner of a file it may not read. The folder holds a token the whole time; the service
must never act as if it held none.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_api.store.tokens import TokenStore

from tests.support.serve import ServedProcess, serve

NO_DAC = ("-dac_override", "-dac_read_search")


def _prefix() -> tuple[str, ...]:
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a mode of 000 would not refuse a read")
    caps = ",".join(NO_DAC)
    return (setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}")


def _call(
    base: str, method: str, path: str, token: str | None = None, body: object = None
) -> tuple[int, dict[str, object]]:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(  # noqa: S310 - the loopback service
        base + path, data=data, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - loopback
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ServedProcess, str]]:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    _, secret = TokenStore(data_dir).create("ops", None)
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    process = serve(data_dir, env, command_prefix=_prefix())
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
        _call(base, "POST", "/api/projects/acme/agents", secret, {"id": "c", "name": "C"})[0] == 201
    )
    topic = process.data_dir / "agents" / "c" / "agent_state" / "memory" / "user" / "keep.md"
    topic.write_text("---\ndescription: keep\n---\nbody\n", encoding="utf-8")
    delete = "/api/projects/acme/agents/c/memory/scopes/user/files/keep.md"

    for locked in (tokens, tokens / "ops.json"):
        locked.chmod(0o000)
        for token in (None, secret):
            status, problem = _call(base, "DELETE", delete, token)
            assert status == 503, problem
            assert "bearer tokens cannot be read" in str(problem["detail"])
        assert topic.exists()
        status, ready = _call(base, "GET", "/readyz")
        assert status == 503 and "Permission denied" in json.dumps(ready), ready
        assert _call(base, "GET", "/healthz")[0] == 200
        locked.chmod(0o700)
        assert _call(base, "GET", "/api/me", secret)[1]["name"] == "ops"
        assert _call(base, "GET", "/api/me")[0] == 401  # a token exists: none is still 401

    log = process.log_text()
    assert log.count("the bearer tokens cannot be read") == 2, log  # once per fault, not flood
    assert "tokens/ cannot be listed (Permission denied)" in log
    assert "tokens/ops.json: Permission denied" in log
    assert log.count("bearer tokens read again") == 2
