"""The real ``memory-api`` service for browser tests: a subprocess on a free loopback port.

:func:`start_service` seeds a fresh data dir with ``memory-api demo seed --corpus
tests/data/corpus`` (project ``demo``, agent ``demo``: the user scope plus two Workspace scopes),
starts ``memory-api serve`` on ``127.0.0.1`` and waits until ``/readyz`` answers. :class:`Service`
also speaks the JSON API directly (urllib), so tests can check what the page did.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "data" / "corpus"
BIN = Path(sys.executable).parent
READY_WAIT_S = 30.0
"""How long the service may take to come up before the fixture gives up (not an assertion)."""


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ApiFailure(Exception):
    """A non-2xx answer from the API: ``status`` and the decoded problem body."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


@dataclass
class Service:
    """A running service: its base URL, data dir, process, and the token tests may use."""

    base_url: str
    data_dir: Path
    process: subprocess.Popen[bytes]
    log_path: Path
    token: str | None = None
    env: dict[str, str] = field(default_factory=dict)

    def url(self, path: str) -> str:
        """Absolute URL of ``path`` (``/api/…`` or a hash route like ``/#/projects/demo``)."""
        return self.base_url + path

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[Any, dict[str, str]]:
        """Send a JSON request; return (decoded body or None, headers). Raises ApiFailure."""
        sent = dict(headers or {})
        if self.token:
            sent.setdefault("Authorization", f"Bearer {self.token}")
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        # Only http://127.0.0.1 URLs are built here (S310 guards against file: and the like).
        request = urllib.request.Request(  # noqa: S310
            self.url(path), data=data, method=method, headers=sent
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
                raw = response.read()
                answer_headers = dict(response.headers.items())
        except urllib.error.HTTPError as error:
            raw = error.read()
            raise ApiFailure(error.code, json.loads(raw) if raw else None) from None
        return (json.loads(raw) if raw else None), answer_headers

    def get(self, path: str) -> Any:
        """GET ``path`` and return the decoded body."""
        return self.call("GET", path)[0]

    def agent_path(self, project: str = "demo", agent: str = "demo") -> str:
        """``/api/projects/{project}/agents/{agent}``."""
        return f"/api/projects/{quote(project, safe='')}/agents/{quote(agent, safe='')}"

    def scope_key(self, kind: str, title: str | None = None) -> str:
        """The key of the demo agent's scope of ``kind`` (and ``title`` for a Workspace)."""
        overview = self.get(self.agent_path() + "/memory")
        for scope in overview["scopes"]:
            if scope["kind"] == kind and (title is None or scope["title"] == title):
                return str(scope["key"])
        raise LookupError(f"no {kind} scope {title!r} in {overview['scopes']}")

    def stop(self) -> None:
        """Stop the process (SIGTERM, then SIGKILL if it lingers)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _cli(name: str) -> str:
    path = BIN / name
    return str(path) if path.exists() else name


def seed(data_dir: Path, env: dict[str, str]) -> None:
    """Run ``memory-api demo seed --corpus tests/data/corpus`` into ``data_dir``."""
    subprocess.run(
        [_cli("memory-api"), "demo", "seed", "--corpus", str(CORPUS)],
        env={**env, "MEMORY_API_DATA_DIR": str(data_dir)},
        check=True,
        capture_output=True,
        timeout=60,
    )


def start_service(data_dir: Path, extra_env: dict[str, str] | None = None) -> Service:
    """Start ``memory-api serve`` on a free loopback port over ``data_dir``; wait for /readyz.

    Raises RuntimeError (with the service's log) when it exits or never becomes ready.
    """
    port = free_port()
    env = {
        **os.environ,
        "MEMORY_API_DATA_DIR": str(data_dir),
        "MEMORY_API_HOST": "127.0.0.1",
        "MEMORY_API_PORT": str(port),
        "MEMORY_API_LOG_LEVEL": "WARNING",
        **(extra_env or {}),
    }
    log_path = data_dir.parent / f"service-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [_cli("memory-api"), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT
        )
    service = Service(f"http://127.0.0.1:{port}", data_dir, process, log_path, env=env)
    deadline = time.monotonic() + READY_WAIT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"memory-api serve exited:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(service.url("/readyz"), timeout=2) as response:  # noqa: S310
                if response.status == 200:
                    return service
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    service.stop()
    raise RuntimeError(f"memory-api serve never became ready:\n{log_path.read_text()}")
