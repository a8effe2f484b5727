"""The real ``memory-api serve`` as a subprocess on a free loopback port, for end-to-end tests.

:func:`serve` starts it over a data dir, with its output in a log file, and returns once
``/readyz`` answers 200; :meth:`ServedProcess.stop` ends it (SIGTERM, then SIGKILL). The tests
that use it speak HTTP to ``base_url`` and run the service's CLI with its ``env``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.listening import listening_port
from tests.support.zygote import ForkedProcess, Zygote

READY_WAIT_S = 600.0
"""How long the service may take to come up before :func:`serve` gives up: a guard against a
hung start only, far beyond any start on a busy machine (the start's own signals are its
listening socket and its exit)."""
READY_POLL_S = 0.05
STOP_WAIT_S = 15.0
"""How long a SIGTERM may take before the process is killed."""


def venv_bin(name: str) -> str:
    """Path of the console script ``name`` in this virtualenv (beside ``sys.executable``).

    Falls back to the bare ``name``, which the subprocess then finds on ``PATH``.
    """
    beside = Path(sys.executable).with_name(name)
    return str(beside) if beside.exists() else name


def code_under_test() -> dict[str, str]:
    """``PYTHONPATH`` for a child process's environment where a checkout names the code under
    test (else empty): the child then runs that code, not the installed package's. Installed
    hooks read no ``PYTHON*`` variable (``python -I``, P-2a): they run the code under test
    through :func:`harness_memory_under_test`."""
    path = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": path} if path else {}


def harness_memory_under_test() -> str:
    """The ``harness-memory`` console script the tests install hooks to run: this virtualenv's
    (:func:`venv_bin`) or, where ``PYTHONPATH`` names the code under test (a branch's
    checkout), the one of a virtualenv made for it (:func:`_venv_under_test`).

    Installed hooks start their Python isolated (``PYTHON -I SCRIPT``: P-2a, a repository's
    settings can set ``PYTHONPATH``), so no variable can point them at other code, the tests'
    neither: the code under test must be where the script's own Python imports from, as an
    installed package is.
    """
    path = os.environ.get("PYTHONPATH")
    if not path:
        return venv_bin("harness-memory")
    return str(_venv_under_test(path) / "bin" / "harness-memory")


_SCRIPT = """#!{python}
import sys
from harness_memory.cli import run
if __name__ == "__main__":
    sys.exit(run())
"""


def _venv_under_test(pythonpath: str) -> Path:
    """A virtualenv (made once per ``pythonpath`` and Python, in the temp folder) whose
    ``.pth`` puts the folders of ``pythonpath`` on ``sys.path``, then this virtualenv's
    site-packages for the dependencies (as a plain folder: its editable installs' ``.pth``
    files are not read), with a ``harness-memory`` script run by its Python."""
    folders = [str(Path(p).absolute()) for p in pythonpath.split(os.pathsep) if p]
    site = sysconfig.get_paths()["purelib"]
    digest = hashlib.sha256("\n".join([sys.executable, *folders]).encode()).hexdigest()[:16]
    venv = Path(tempfile.gettempdir()) / f"agent-memory-under-test-{digest}"
    if (venv / "bin" / "harness-memory").is_file():
        return venv
    building = Path(tempfile.mkdtemp(prefix=venv.name + "-", dir=venv.parent))
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", "--clear", str(building)], check=True
    )
    python = building / "bin" / "python"
    ours = subprocess.run(
        [str(python), "-I", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.strip()
    (Path(ours) / "code_under_test.pth").write_text("\n".join([*folders, site]) + "\n")
    script = building / "bin" / "harness-memory"
    script.write_text(_SCRIPT.format(python=venv / "bin" / "python"))
    script.chmod(0o755)
    try:
        building.rename(venv)  # whole or not at all: another test process may make it too
    except OSError:
        shutil.rmtree(building, ignore_errors=True)
    return venv


@dataclass
class ServedProcess:
    """A running ``memory-api serve``.

    ``base_url`` is ``http://127.0.0.1:{port}`` (no trailing slash; another loopback literal
    when :func:`serve` was told one); ``env`` is the whole
    environment the process got, ``MEMORY_API_DATA_DIR``/``_HOST``/``_PORT`` included; its
    stdout and stderr go to ``log_path``.
    """

    base_url: str
    data_dir: Path
    process: subprocess.Popen[bytes] | ForkedProcess
    log_path: Path
    env: dict[str, str]

    def stop(self) -> None:
        """End the process: SIGTERM, then SIGKILL if it lingers. Idempotent."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def log_text(self) -> str:
        """What the process wrote so far (undecodable bytes replaced); "" before any output."""
        if not self.log_path.exists():
            return ""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def ready(self) -> bool:
        """Whether ``/readyz`` answers 200 right now (no answer at all counts as not ready)."""
        try:
            # Only http://<loopback>:port URLs are built here (S310 guards against file: …).
            with urllib.request.urlopen(self.base_url + "/readyz", timeout=2) as answer:  # noqa: S310
                return bool(answer.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False


class ServedWrapper:
    """Base of a layer's test-facing service class that holds a :class:`ServedProcess` as
    ``served`` (a dataclass field of the subclass): its URL, data dir and ``stop()``."""

    served: ServedProcess

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:{port}``."""
        return self.served.base_url

    @property
    def data_dir(self) -> Path:
        """The service's data dir (``MEMORY_API_DATA_DIR``)."""
        return self.served.data_dir

    def stop(self) -> None:
        """End the service (SIGTERM, then SIGKILL if it lingers); idempotent."""
        self.served.stop()


@contextlib.contextmanager
def served_in(tmp_path: Path, *, zygote: Zygote | None = None) -> Iterator[ServedProcess]:
    """A service over a new data dir ``tmp_path / "data"``, with this process's environment but
    no ``MEMORY_API_TOKENS`` (its tokens are the data dir's), for the ``with`` block; stopped
    after it. ``zygote`` as in :func:`serve`."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    process = serve(data_dir, env, zygote=zygote)
    try:
        yield process
    finally:
        process.stop()


def _spawn(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """Start ``command`` with ``env`` in a session of its own, its output in ``log_path``."""
    with log_path.open("wb") as sink:
        return subprocess.Popen(
            command,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, as in a terminal (os.killpg)
        )


def serve(
    data_dir: Path,
    env: dict[str, str],
    *,
    log_path: Path | None = None,
    ready_wait_s: float = READY_WAIT_S,
    command_prefix: tuple[str, ...] = (),
    host: str = "127.0.0.1",
    reached_at: str = "127.0.0.1",
    zygote: Zygote | None = None,
    mount_namespace: bool = False,
) -> ServedProcess:
    """Start ``memory-api serve`` over ``data_dir`` on a free 127.0.0.1 port; wait until ready.

    ``host`` is its ``MEMORY_API_HOST`` (an address or a name to bind); ``reached_at`` the
    address literal the tests speak to it at (``base_url``: ``[::1]`` for an IPv6 one).

    ``env`` is the process's base environment (pass ``os.environ`` entries in to inherit them);
    the data dir and host are set on top, and port 0: the kernel picks a free port as the service
    binds (a port picked before, then bound, could be taken meanwhile by another test's service,
    which then answered in its place), read from the socket it listens on and set in the
    returned ``env``. The log goes to ``log_path``, by default a new
    ``memory-api-*.log`` beside ``data_dir``, so several processes may share one data dir.

    ``command_prefix`` runs the service under another program (e.g. ``setpriv`` taking
    capabilities away). ``zygote`` forks it from a process that imported its code already (see
    :mod:`tests.support.zygote`; not with a ``command_prefix``), in a mount namespace of its own
    when ``mount_namespace`` (as ``unshare --mount`` would run it; zygote only). Raises
    RuntimeError, with the log, when the process exits or ``/readyz`` has not answered 200
    within ``ready_wait_s`` seconds (then the process is stopped first).
    """
    full_env = {
        **env,
        "MEMORY_API_DATA_DIR": str(data_dir),
        "MEMORY_API_HOST": host,
        "MEMORY_API_PORT": "0",  # the kernel picks a free port as it binds: no other may take it
    }
    if log_path is None:
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix="memory-api-", suffix=".log", dir=data_dir.parent)
        os.close(handle)
        log_path = Path(name)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    process: subprocess.Popen[bytes] | ForkedProcess
    if zygote is not None:
        if command_prefix:
            raise ValueError("a forked service runs under no command prefix")
        process = zygote.fork(["serve"], full_env, log_path, mount_namespace=mount_namespace)
    else:
        if mount_namespace:
            raise ValueError("only a forked service is given a mount namespace by serve")
        process = _spawn([*command_prefix, venv_bin("memory-api"), "serve"], full_env, log_path)
    served = ServedProcess("", data_dir, process, log_path, full_env)
    deadline = time.monotonic() + ready_wait_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"memory-api serve exited with {process.returncode}:\n{served.log_text()}"
            )
        port = listening_port(process.pid, reached_at)
        if port is not None:
            served.base_url = f"http://{reached_at}:{port}"
            full_env["MEMORY_API_PORT"] = str(port)  # a CLI given this env speaks to it
            if served.ready():
                return served
        time.sleep(READY_POLL_S)
    served.stop()
    raise RuntimeError(
        f"memory-api serve was not ready within {ready_wait_s} s:\n{served.log_text()}"
    )
