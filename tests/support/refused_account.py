"""Processes the kernel refuses like any account: for the tests of files the service or the
harness may not read or write (A-9, A-10a, Q-2b), with the kernel's own refusal.

Root reads and writes past a file's mode, so as root the process runs under ``setpriv`` without
the two capabilities that let it (``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH``); as any other
user it runs as it is. :func:`serve_refused` starts ``memory-api serve`` that way
(:func:`refused_service` for a fixture), forked from a zygote started that way (the
capabilities are gone in every process it forks, and none imports the code again);
:func:`offline_session_meta` runs the harness's Session start that way with the service down,
and :func:`request_json` speaks to the service.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import unused_port

from tests.support.serve import ServedProcess, code_under_test, serve, venv_bin
from tests.support.zygote import Zygote

NO_DAC = ("-dac_override", "-dac_read_search")
"""The capabilities taken away (``setpriv`` spelling): reading and writing past a file's mode."""
REQUEST_WAIT_S = 30
"""How long :func:`request_json` waits for an answer (a hang guard, not about speed)."""


def refused_prefix() -> tuple[str, ...]:
    """The command prefix that runs a process without :data:`NO_DAC`: ``setpriv`` with them
    taken from its inheritable and bounding sets as root, ``()`` as any other user (the kernel
    refuses it already). Skips the test when root has no ``setpriv``."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a file's mode would not refuse it")
    caps = ",".join(NO_DAC)
    return (setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}")


def serve_refused(data_dir: Path) -> ServedProcess:
    """``memory-api serve`` over ``data_dir`` under :func:`refused_prefix`, with this process's
    environment but ``MEMORY_API_TOKENS`` (its tokens are those of ``data_dir``, if any): as
    root forked from this test process's zygote started under that prefix."""
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    prefix = refused_prefix()
    return serve(data_dir, env, zygote=Zygote.shared(prefix) if prefix else None)


def refused_service(tmp_path: Path, why_root: str) -> Iterator[ServedProcess]:
    """For a fixture (``yield from``): :func:`serve_refused` over an empty ``tmp_path/data``,
    stopped after the test. Skips, saying ``why_root``, unless running as root (only root can
    give a file to another account, or drop the capabilities a test needs gone)."""
    if os.geteuid() != 0:
        pytest.skip(why_root)
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    process = serve_refused(data_dir)
    try:
        yield process
    finally:
        process.stop()


def request_json(
    base: str, method: str, path: str, token: str | None = None, body: object = None
) -> tuple[int, Any]:
    """One JSON request to the loopback service at ``base`` (``token`` as a bearer token when
    given); its status and decoded body (``{}`` for an empty one), an error status included."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(  # noqa: S310 - the loopback service
        base + path, data=data, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_WAIT_S) as answer:  # noqa: S310
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def offline_session_meta(root: Path, tmp_path: Path) -> dict[str, Any]:
    """``sessionMeta`` of ``harness-memory session-start --format json`` for ``acme/coder``
    over the memory root ``root``, in ``tmp_path/workspace``, under :func:`refused_prefix`,
    with nothing listening at its service URL (H-4: it reads the files itself). Asserts it
    exited 0 and says ``offline``."""
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    env = {
        "HARNESS_MEMORY_URL": f"http://127.0.0.1:{unused_port()}",  # nothing listens
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": "coder",
        "HARNESS_MEMORY_ROOT": str(root),
        "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "state"),
        "HARNESS_MEMORY_TIMEOUT": "2",
        "HOME": str(tmp_path),
        "PATH": os.environ.get("PATH", ""),
        **code_under_test(),
    }
    command = [venv_bin("harness-memory"), "session-start", "--workspace", str(workspace)]
    done = subprocess.run(
        [*refused_prefix(), *command, "--format", "json"],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    meta: dict[str, Any] = json.loads(done.stdout)["sessionMeta"]
    assert meta["status"] == "offline"
    return meta
