"""The real ``memory-api`` service as a separate process on loopback, for end-to-end tests.

``start_service`` runs ``memory-api serve`` from the virtual environment (see
:mod:`tests.support.serve`) with its data dir under the test's ``tmp_path``, a minimal
environment and one bearer token, and creates agents through its API. Scopes are
seeded by copying corpus files the way an agent's file tools would write them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory_core.layout import memory_root

from tests.support.serve import ServedProcess, ServedWrapper, code_under_test, serve, venv_bin
from tests.support.zygote import Zygote

CORPUS = Path(__file__).parents[1] / "data" / "corpus"
TOKEN = "plugin-e2e-token-0123456789"
RECORD_WAIT_S = 60.0
"""How long :meth:`RealService.wait_for_version` waits for a version (a hang guard)."""


@dataclass
class RealService(ServedWrapper):
    """A running ``memory-api serve`` (``served``) and its bearer token; ``stop()`` ends it."""

    served: ServedProcess
    token: str

    @property
    def url(self) -> str:
        """The base URL, named like the scripted service's (``http://127.0.0.1:{port}``)."""
        return self.base_url

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run ``memory-api`` with the service's environment; raises when it fails."""
        done = subprocess.run(
            [venv_bin("memory-api"), *args],
            env=self.served.env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done

    def create_agent(self, agent: str, project: str = "acme") -> Path:
        """Create an agent through the API (A-1; one request, where the CLI's ``agent create``
        was a Python process per test); return its memory root."""
        body = {"id": agent, "name": agent.title()}
        status, _, answer = self.request("POST", f"/api/projects/{project}/agents", body)
        assert status == 201, answer
        return memory_root(self.data_dir, agent)

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        """Send one JSON request with the bearer token; return status, headers and decoded body."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(  # noqa: S310 - the URL is the loopback service's
            self.url + path, data=data, method=method
        )
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request) as response:  # noqa: S310 - loopback http only
                return response.status, dict(response.headers), json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), json.loads(error.read())

    def set_memory_enabled(self, agent: str, enabled: bool, project: str = "acme") -> None:
        """PATCH the agent's config (A-2), with the ETag just read as ``If-Match``."""
        path = f"/api/projects/{project}/agents/{agent}/config"
        status, headers, _ = self.request("GET", path)
        assert status == 200
        status, _, body = self.request(
            "PATCH", path, {"memory": {"enabled": enabled}}, {"If-Match": headers["ETag"]}
        )
        assert status == 200, body
        assert body["memory"]["enabled"] is enabled

    def list_files(self, agent: str, scope: str, project: str = "acme") -> list[str]:
        """The topic file names of a scope as the API lists them (A-5)."""
        status, _, body = self.request(
            "GET", f"/api/projects/{project}/agents/{agent}/memory/scopes/{scope}/files"
        )
        assert status == 200, body
        return [item["file"] for item in body["files"]]

    def scope_versions(self, agent: str, scope: str, project: str = "acme") -> list[Any]:
        """A scope's versions as its changes feed lists them (V-2), newest first."""
        status, _, body = self.request(
            "GET", f"/api/projects/{project}/agents/{agent}/memory/scopes/{scope}/changes"
        )
        assert status == 200, body
        versions: list[Any] = body["versions"]
        return versions

    def wait_for_version(
        self, agent: str, scope: str, source: str, limit_s: float = RECORD_WAIT_S
    ) -> Any:
        """The newest version of ``scope`` recorded by ``source`` (``write``, ``session-start``,
        …), once the service has one: a post-write hook or a Session start records it after
        answering. None after ``limit_s``, a hang guard, not an assertion about speed."""
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            versions = self.scope_versions(agent, scope)
            found = [v for v in versions if v["author"]["source"] == source]
            if found:
                return found[0]
            time.sleep(0.05)
        return None


def start_service(
    tmp_path: Path, *, tokens: bool = True, zygote: Zygote | None = None
) -> RealService:
    """Start ``memory-api serve`` over ``tmp_path/data`` with only PATH, HOME and the token set
    (and ``PYTHONPATH`` when a checkout names the code under test, :func:`code_under_test`);
    without ``tokens``, with none at all (open, on loopback only: A-10). ``zygote`` forks it
    from that process, which imported the service's code already (:func:`serve`): the same
    ``main(["serve"])`` with this environment and log, minus a second of imports.

    Raises RuntimeError (with the service's log) when it exits or never becomes ready.
    """
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path / "service-home"),
        **code_under_test(),
    }
    if tokens:
        env["MEMORY_API_TOKENS"] = f"plugin={TOKEN}"
    log_path = tmp_path / "memory-api.log"
    return RealService(serve(tmp_path / "data", env, log_path=log_path, zygote=zygote), TOKEN)


def seed_scope(scope_dir: Path, corpus_folder: str) -> list[str]:
    """Copy a corpus folder's files into a scope directory; return the copied file names."""
    scope_dir.mkdir(parents=True, exist_ok=True)
    names = []
    for source in sorted((CORPUS / corpus_folder).iterdir()):
        if source.is_file():
            shutil.copyfile(source, scope_dir / source.name)
            names.append(source.name)
    return names
