"""Shared helpers for the plugin tests: hook fixtures, the installed CLI, starting a Session."""

from __future__ import annotations

import asyncio
import io
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness_memory import SessionStart, start_session
from harness_memory.cli import main
from harness_memory.client import DEFAULT_TIMEOUT_S
from memory_core.layout import MARKER_FILE, MOUNT_FILE

from tests.support.serve import harness_memory_under_test

FIXTURES = Path(__file__).parent / "fixtures"
HARNESS_MEMORY = harness_memory_under_test()
"""The ``harness-memory`` the tests run and install hooks to run: the code under test."""
HARNESS_WORKSPACE = "/home/ada/src/my-app"
TOKEN = "secret-token"


def harness_env(service_url: str, **extra: str) -> dict[str, str]:
    """``HARNESS_MEMORY_*`` variables naming ``service_url`` and ``acme/coder``, plus ``extra``."""
    return {
        "HARNESS_MEMORY_URL": service_url,
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": "coder",
        **extra,
    }


def names(directory: Path) -> set[str]:
    """The names directly in ``directory`` (the scopes of a memory root, a scope's files)."""
    return {entry.name for entry in directory.iterdir()}


def first_session_files(workspace: Path) -> set[str]:
    """What a first Session in ``workspace`` leaves in its new scope: the marker and nothing
    else (K-5) but the file naming the mount point it lies on (K-6a)."""
    return {MARKER_FILE, MOUNT_FILE}


def hook_fixture(name: str, **values: str) -> bytes:
    """Load a recorded hook input from ``fixtures/``, ``__NAME__`` tokens filled (JSON-escaped)."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    for token, value in values.items():
        text = text.replace(f"__{token.upper()}__", json.dumps(value)[1:-1])
    return text.encode()


@dataclass
class Completed:
    """A finished CLI run: exit status, stdout and stderr as text."""

    returncode: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def cli_env(env: dict[str, str] | None, spare_home: str) -> dict[str, str]:
    """The whole environment of a CLI run: ``env`` (None: this process's, whose HOME the suite
    made its own: tests/conftest.py), with ``spare_home`` as HOME unless ``env`` names one. A
    process without HOME finds the real one in the password database, and the CLI would write
    its Session records under it."""
    full = dict(os.environ if env is None else env)
    full.setdefault("HOME", spare_home)
    return full


async def run_cli(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None, cwd: Path | None = None
) -> Completed:
    """Run the installed ``harness-memory`` console script as a separate process, in the
    environment :func:`cli_env` makes of ``env``."""
    with tempfile.TemporaryDirectory(prefix="cli-home-") as spare_home:
        process = await asyncio.create_subprocess_exec(
            HARNESS_MEMORY,
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=cli_env(env, spare_home),
            cwd=cwd,
        )
        out, err = await process.communicate(stdin)
    assert process.returncode is not None
    return Completed(process.returncode, out.decode(), err.decode())


def run_hook_in_process(harness: str, event: str, stdin: bytes, env: dict[str, str]) -> Completed:
    """``harness-memory hook harness event`` run in this process (:func:`harness_memory.cli.main`
    with exactly ``env`` and ``stdin``): the decision a hook process would print, without a
    process start per case. A test keeps :func:`run_cli` for the handful of cases that prove
    the console script prints the same; an exception (a hook crash) fails the test, as a
    process's traceback would; ``stderr`` is empty (logging goes to this process's)."""
    out = io.StringIO()
    status = main(["hook", harness, event], environ=env, stdin=io.BytesIO(stdin), stdout=out)
    return Completed(status, out.getvalue(), "")


async def judge_hook(
    harness: str, event: str, stdin: bytes, env: dict[str, str], *, process: bool = False
) -> Completed:
    """``harness-memory hook harness event`` on ``stdin`` in exactly ``env``: in this process
    (:func:`run_hook_in_process`), or (``process``) by the installed console script
    (:func:`run_cli`), for the case that proves an entry point prints the same."""
    if process:
        return await run_cli("hook", harness, event, stdin=stdin, env=env)
    return run_hook_in_process(harness, event, stdin, env)


async def run_cli_in_shell(command: str, stdin: bytes, env: dict[str, str], cwd: Path) -> Completed:
    """Run an installed hook ``command`` as the harnesses do (``/bin/sh -c``) in exactly
    ``env``, from ``cwd``."""
    process = await asyncio.create_subprocess_exec(
        "/bin/sh",
        "-c",
        command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        cwd=cwd,
    )
    out, err = await process.communicate(stdin)
    assert process.returncode is not None
    return Completed(process.returncode, out.decode(), err.decode())


async def start(
    service_url: str,
    template: str,
    *,
    token: str | None = TOKEN,
    project: str = "acme",
    agent: str = "coder",
    workspace: str = HARNESS_WORKSPACE,
    session_id: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    draft_id: str | None = None,
) -> SessionStart:
    """Call ``harness_memory.start_session`` with the tests' usual harness settings.

    The optional parameters default exactly as ``start_session``'s do; the ones it requires
    default to the harness of the scripted service (project ``acme``, agent ``coder``).
    """
    return await start_session(
        service_url=service_url,
        token=token,
        project=project,
        agent=agent,
        workspace=workspace,
        template=template,
        session_id=session_id,
        timeout_s=timeout_s,
        draft_id=draft_id,
    )
