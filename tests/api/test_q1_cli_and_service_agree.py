"""Q-1, A-1: the command line and the running service agree on where data lives.

A shell without ``MEMORY_API_DATA_DIR`` beside ``make run`` created agents in the default data
dir, exit 0, and the service never showed them. Now ``memory-api agent …`` goes through the
service that answers (``--url`` / ``MEMORY_API_URL``, else ``MEMORY_API_HOST:PORT``); a named
data dir is worked in directly; with neither, a command that writes refuses. Each command runs
as a user would run it: the real ``memory-api`` process, in a HOME of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port
from memory_core.layout import memory_root

from tests.support.serve import ServedProcess, serve, venv_bin

pytestmark = pytest.mark.e2e

SECRET = "cli-e2e-secret-0123456789"
CREATE = ["agent", "create", "--project", "acme", "--id", "coder", "--name", "Coding agent"]


@dataclass
class Shell:
    """A user's shell: its own HOME, PATH, and whatever ``extra`` it exports."""

    home: Path

    def run(self, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        env = {"HOME": str(self.home), "PATH": os.environ.get("PATH", ""), **extra}
        if "PYTHONPATH" in os.environ:  # a checkout named as the code under test runs that code
            env.setdefault("PYTHONPATH", os.environ["PYTHONPATH"])
        return subprocess.run(
            [venv_bin("memory-api"), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    @property
    def default_data_dir(self) -> Path:
        return self.home / ".local" / "share" / "agent-memory"


@pytest.fixture
def shell(tmp_path: Path) -> Shell:
    home = tmp_path / "home"
    home.mkdir()
    return Shell(home)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[ServedProcess]:
    """``make run``'s service: its data dir in the checkout, a port of its own."""
    served = serve(tmp_path / "checkout" / ".data", {"PATH": os.environ.get("PATH", "")})
    yield served
    served.stop()


def _port(served: ServedProcess) -> str:
    return served.base_url.rsplit(":", 1)[1]


def _agents(served: ServedProcess, token: str | None = None) -> list[str]:
    request = urllib.request.Request(served.base_url + "/api/projects/acme/agents")  # noqa: S310
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 - loopback
        return [agent["id"] for agent in json.loads(answer.read())["agents"]]


def test_q1_agent_create_without_a_data_dir_goes_through_the_running_service(
    shell: Shell, running: ServedProcess
) -> None:
    done = shell.run(*CREATE, MEMORY_API_PORT=_port(running))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "created agent 'coder' (Coding agent) in project 'acme' "
        f"through the service at {running.base_url}"
    )
    assert _agents(running) == ["coder"]
    assert (memory_root(running.data_dir, "coder") / "user").is_dir()
    assert not shell.default_data_dir.exists()

    listed = shell.run("agent", "list", MEMORY_API_PORT=_port(running))
    assert listed.returncode == 0, listed.stderr
    assert "coder" in listed.stdout and "Coding agent" in listed.stdout
    assert f"through the service at {running.base_url}" in listed.stderr

    # A second create is the service's 409, with its words, and exit 1.
    again = shell.run(*CREATE, MEMORY_API_URL=running.base_url)
    assert again.returncode == 1
    assert "coder" in again.stderr and "already" in again.stderr


def test_q1_with_nothing_answering_and_no_data_dir_nothing_is_written(shell: Shell) -> None:
    done = shell.run(*CREATE, MEMORY_API_PORT=str(unused_port()))
    assert done.returncode == 2
    assert "nothing done: no data dir is named and no memory-api service answers at" in done.stderr
    assert str(shell.default_data_dir) in done.stderr
    assert "--data-dir" in done.stderr and "make run" in done.stderr
    assert not shell.default_data_dir.exists()

    # A service named explicitly must answer.
    gone = shell.run(*CREATE, "--url", f"http://127.0.0.1:{unused_port()}")
    assert gone.returncode == 2
    assert "no memory-api service answers at" in gone.stderr


def test_q1_a_named_data_dir_is_written_directly_and_the_service_over_it_shows_it(
    shell: Shell, running: ServedProcess
) -> None:
    done = shell.run(*CREATE, "--data-dir", str(running.data_dir))
    assert done.returncode == 0, done.stderr
    assert f"in the data dir {running.data_dir} (written directly" in done.stdout
    assert _agents(running) == ["coder"]


def test_q1_commands_without_an_api_need_the_data_dir_named(
    shell: Shell, running: ServedProcess
) -> None:
    done = shell.run("token", "create", "--name", "ci", MEMORY_API_PORT=_port(running))
    assert done.returncode == 2
    assert f"A service answers at {running.base_url}" in done.stderr
    assert "--data-dir" in done.stderr
    assert not (running.data_dir / "tokens").exists() or not any(
        (running.data_dir / "tokens").iterdir()
    )
    named = shell.run("token", "create", "--name", "ci", MEMORY_API_DATA_DIR=str(running.data_dir))
    assert named.returncode == 0, named.stderr
    assert f"in the data dir {running.data_dir}" in named.stderr


def test_q1_a_service_with_tokens_is_asked_with_one(shell: Shell, tmp_path: Path) -> None:
    served = serve(
        tmp_path / "data",
        {"PATH": os.environ.get("PATH", ""), "MEMORY_API_TOKENS": f"admin={SECRET}"},
    )
    try:
        refused = shell.run(*CREATE, MEMORY_API_URL=served.base_url)
        assert refused.returncode == 1
        assert "--token or MEMORY_API_TOKEN" in refused.stderr
        done = shell.run(*CREATE, "--token", SECRET, MEMORY_API_URL=served.base_url)
        assert done.returncode == 0, done.stderr
        assert _agents(served, SECRET) == ["coder"]
    finally:
        served.stop()


def test_a10_a_token_limited_to_other_projects_is_named_as_the_likely_cause_of_a_404(
    shell: Shell, tmp_path: Path
) -> None:
    """The service answers a project a token does not reach as a missing one (A-10): "no
    project 'demo'" even from ``agent create``, which needs no project to exist. The command
    line says the token may be why; without a token sent, a 404 is left as the service said."""
    alice = "alice-acme-only-secret-0123"
    served = serve(
        tmp_path / "data",
        {
            "PATH": os.environ.get("PATH", ""),
            "MEMORY_API_TOKENS": f"admin={SECRET},alice:acme={alice}",
        },
    )
    try:
        demo = ["agent", "create", "--project", "demo", "--id", "demo", "--name", "Demo"]
        made = shell.run(*demo, "--token", SECRET, MEMORY_API_URL=served.base_url)
        assert made.returncode == 0, made.stderr

        other = ["agent", "create", "--project", "demo", "--id", "zed", "--name", "Zed"]
        refused = shell.run(*other, MEMORY_API_URL=served.base_url, MEMORY_API_TOKEN=alice)
        assert refused.returncode == 1
        assert refused.stderr.strip() == (
            "memory-api: no project 'demo'; if project 'demo' exists, your token may not reach "
            "it: a token limited to some projects is answered so for every other (give one "
            "that reaches it with --token or MEMORY_API_TOKEN)"
        )
        listed = shell.run(
            "agent", "list", "--project", "demo", "--token", alice, MEMORY_API_URL=served.base_url
        )
        assert listed.returncode == 1
        assert "your token may not reach it" in listed.stderr

        created = shell.run(*CREATE, MEMORY_API_URL=served.base_url, MEMORY_API_TOKEN=alice)
        assert created.returncode == 0, created.stderr
    finally:
        served.stop()
