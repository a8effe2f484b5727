"""``memory-api serve`` (and ``demo seed``) forked from a process that imported its code once
(see :mod:`tests.support.zygote_main`), for tests that start one service after another.

A fresh ``memory-api serve`` spends about a second of CPU importing its code (several on a
loaded machine) before it binds; the browser tests start over a hundred. A fork of the zygote
runs the very same ``main(["serve"])`` with the environment, session, stdin/stdout/stderr and
log a :func:`~tests.support.serve.serve` child has, minus the imports. :class:`ForkedProcess` is
its handle, with the :class:`subprocess.Popen` methods the tests use.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

ZYGOTE_MAIN = Path(__file__).with_name("zygote_main.py")


class ForkedProcess:
    """A process the zygote forked: ``pid``, ``poll``, ``wait``, ``send_signal``,
    ``terminate``, ``kill`` and ``returncode`` as :class:`subprocess.Popen` has them.

    It is the zygote's child, not ours: it is watched through a pidfd, opened while the
    zygote keeps the child (a zombie once ended) unreaped, so no pid reuse can confuse it;
    ``reap`` asks the zygote to reap it once its end is seen. Its exit code is the one it
    wrote to ``exit_path``; one a signal ended wrote none and gets ``-1``."""

    def __init__(
        self, pid: int, exit_path: Path, argv: list[str], reap: Callable[[int], None]
    ) -> None:
        self.pid = pid
        self.args = ["memory-api", *argv]
        self.returncode: int | None = None
        self._exit_path = exit_path
        self._reap = reap
        self._pidfd = os.pidfd_open(pid)

    def _ended(self, timeout: float | None) -> bool:
        readable, _, _ = select.select([self._pidfd], [], [], timeout)
        return bool(readable)

    def poll(self) -> int | None:
        """The exit code once the process has ended, else None."""
        if self.returncode is None and self._ended(0):
            self._set_returncode()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait (at most ``timeout`` seconds) for the end; raises subprocess.TimeoutExpired."""
        if self.returncode is None:
            if not self._ended(timeout):
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            self._set_returncode()
        assert self.returncode is not None
        return self.returncode

    def _set_returncode(self) -> None:
        try:
            self.returncode = int(self._exit_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.returncode = -1
        os.close(self._pidfd)
        self._reap(self.pid)

    def send_signal(self, sig: int) -> None:
        """Send ``sig`` unless the process has ended."""
        if self.poll() is None:
            signal.pidfd_send_signal(self._pidfd, sig)

    def terminate(self) -> None:
        """SIGTERM."""
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL."""
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The zygote process: started on first use with this process's environment, one per
    test process (:meth:`shared`), ended when that process exits.

    ``command_prefix`` runs it under another program that then runs it (e.g. ``unshare``
    into a mount namespace whose ``/etc/hosts`` is a test's): every command it forks runs
    there too. Such a zygote is the test's own to :meth:`close`."""

    _shared: ClassVar[dict[tuple[str, ...], Zygote]] = {}
    _lock = threading.Lock()

    def __init__(self, command_prefix: tuple[str, ...] = ()) -> None:
        self._talk = threading.Lock()  # one request and its answer at a time
        self._process = subprocess.Popen(
            [*command_prefix, sys.executable, "-P", str(ZYGOTE_MAIN)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    @classmethod
    def shared(cls, command_prefix: tuple[str, ...] = ()) -> Zygote:
        """This test process's zygote under ``command_prefix`` (none: the plain one), started
        on first call."""
        with cls._lock:
            zygote = cls._shared.get(command_prefix)
            if zygote is None or zygote._process.poll() is not None:
                zygote = cls._shared[command_prefix] = cls(command_prefix)
                atexit.register(zygote.close)
            return zygote

    def fork(
        self, argv: list[str], env: dict[str, str], log_path: Path, *, mount_namespace: bool = False
    ) -> ForkedProcess:
        """A ``memory-api ARGV`` (e.g. ``["serve"]``) with exactly ``env``, its output in
        ``log_path``; with ``mount_namespace``, in a mount namespace of its own made as
        ``unshare --mount`` makes one (root only: the child fails, saying so in its log)."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        exit_path = Path(f"{log_path}.exit")
        exit_path.unlink(missing_ok=True)
        with self._talk:
            request = {"argv": argv, "env": env, "log": str(log_path)}
            stdin.write(json.dumps({**request, "mount_namespace": mount_namespace}) + "\n")
            stdin.flush()
            answer = stdout.readline()
            if not answer:
                raise RuntimeError(f"the zygote ended with {self._process.wait()}")
            return ForkedProcess(int(answer), exit_path, argv, self._reap)

    def _reap(self, pid: int) -> None:
        """Ask the zygote to reap its ended child ``pid`` (whose pidfd is closed)."""
        stdin = self._process.stdin
        assert stdin is not None
        with self._talk, contextlib.suppress(OSError, ValueError):  # the zygote may be gone
            stdin.write(json.dumps({"reap": pid}) + "\n")
            stdin.flush()

    def run(self, argv: list[str], env: dict[str, str], log_path: Path, timeout: float) -> str:
        """Run ``memory-api ARGV`` to its end (at most ``timeout`` seconds) and return its
        output; raises subprocess.CalledProcessError (with the output) on a non-zero exit,
        subprocess.TimeoutExpired (the process killed) past ``timeout``."""
        process = self.fork(argv, env, log_path)
        try:
            code = process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
        output = log_path.read_text(encoding="utf-8", errors="replace")
        if code != 0:
            raise subprocess.CalledProcessError(code, ["memory-api", *argv], output)
        return output

    def close(self) -> None:
        """End the zygote (its forked services are left to their owners)."""
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()
