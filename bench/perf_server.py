"""The service under test: ``memory-api serve`` as its own process on a free loopback port.

:func:`start` returns once ``/readyz`` answers; :class:`Server` reports the peak and current
resident memory and CPU time of the service process and stops it with SIGTERM like an operator
would.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import psutil

from bench.listening import listening_port

__all__ = ["Server", "start", "venv_bin"]

READY_WAIT_S = 600.0
"""A guard against a hung start only: the start's own signals are its listening socket and
its exit, whatever the machine's load."""
MIB = 1024 * 1024
DOCKERFILE = Path(__file__).resolve().parents[1] / "deploy" / "Dockerfile"


def deployed_malloc_env() -> dict[str, str]:
    """glibc's malloc settings the service image sets (``MALLOC_*_`` in deploy/Dockerfile), so
    the service is measured as it is deployed."""
    return dict(re.findall(r"\b(MALLOC_\w+_)=(\d+)", DOCKERFILE.read_text(encoding="utf-8")))


def venv_bin(name: str) -> str:
    """Path of console script ``name`` beside this interpreter (the venv), else the bare name."""
    beside = Path(sys.executable).with_name(name)
    return str(beside) if beside.exists() else name


@dataclass
class Server:
    """A running service: its base URL, process and log file."""

    base_url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def _tree(self) -> list[psutil.Process]:
        try:
            parent = psutil.Process(self.process.pid)
            return [parent, *parent.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def reset_peak(self) -> None:
        """Reset every process's peak RSS (``/proc/PID/clear_refs`` 5) so a case reports its own.

        Linux only; elsewhere the peaks simply accumulate over the run.
        """
        for process in self._tree():
            with contextlib.suppress(OSError):
                Path(f"/proc/{process.pid}/clear_refs").write_text("5", encoding="ascii")

    def peak_rss_mb(self) -> float:
        """The largest peak RSS (VmHWM) of any one server process since the last reset, MiB."""
        peaks = [0.0]
        for process in self._tree():
            try:
                status = Path(f"/proc/{process.pid}/status").read_text(encoding="ascii")
            except OSError:
                peaks.append(process.memory_info().rss / MIB)
                continue
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    peaks.append(int(line.split()[1]) / 1024)
        return max(peaks)

    def cpu_s(self) -> float:
        """The summed user + system CPU time of the server's process tree so far, seconds."""
        total = 0.0
        for process in self._tree():
            try:
                times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
        return total

    def rss_mb(self) -> float:
        """The summed current RSS of the server's process tree, MiB."""
        total = 0
        for process in self._tree():
            try:
                total += process.memory_info().rss
            except psutil.NoSuchProcess:
                continue
        return total / MIB

    def ready(self) -> bool:
        """Whether ``/readyz`` answers 200 now."""
        try:
            with urllib.request.urlopen(self.base_url + "/readyz", timeout=2) as answer:  # noqa: S310
                return bool(answer.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 20 s; idempotent."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start(data_dir: Path, log_dir: Path) -> Server:
    """Start ``memory-api serve`` over ``data_dir``; wait for ready.

    The service binds port 0 (the kernel picks a free one as it binds; one picked before could
    be taken meanwhile by another service, which then answered in its place: a 404 from another
    data dir) and is reached at the port its listening socket has. Raises RuntimeError with
    the log when the process dies or is not ready within :data:`READY_WAIT_S`.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_API_")}
    env |= deployed_malloc_env() | {
        "MEMORY_API_DATA_DIR": str(data_dir),
        "MEMORY_API_HOST": "127.0.0.1",
        "MEMORY_API_PORT": "0",  # the kernel picks a free port as it binds: no other may take it
    }
    command = [venv_bin("memory-api"), "serve"]
    handle, name = tempfile.mkstemp(prefix="serve-", suffix=".log", dir=log_dir)
    log_path = Path(name)
    with os.fdopen(handle, "wb") as sink:
        process = subprocess.Popen(  # noqa: S603 - our own console script
            command, env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + READY_WAIT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"memory-api serve exited: {log_path.read_text(errors='replace')}")
        port = listening_port(process.pid)
        if port is not None:
            server = Server(f"http://127.0.0.1:{port}", process, log_path)
            if server.ready():
                return server
        time.sleep(0.05)
    Server("", process, log_path).stop()
    raise RuntimeError(f"memory-api serve not ready: {log_path.read_text(errors='replace')}")
