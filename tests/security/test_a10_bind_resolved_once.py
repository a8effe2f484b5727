"""A-10, A-10a: ``memory-api serve`` binds the very addresses it judged loopback.

The bind host was resolved three times: once to decide whether the service may run without
tokens (only loopback), once for the Host rule, and once more by asyncio's bind, which was
handed the name. A name whose answer changes between calls (a DNS name whose zone's owner
answers ``127.0.0.1`` and then ``0.0.0.0``; ``/etc/hosts`` edited during the start) was judged
"loopback only", so the API opened without tokens, and then bound to every interface: open to
the network, while the log said "binds to loopback only".

Here the resolver gives such a name ``127.0.0.1`` once and ``0.0.0.0`` after. The service runs
in a network namespace of its own with only ``lo``: whatever it binds reaches nothing else.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.serve import code_under_test

FLIPPING_NAME = "flips.invalid"
PORT = 8765
"""Any port: the namespace is the service's own."""
STARTS_WITHIN_S = 60.0
"""How long the service may take to log that it listens (a bound, not an assertion)."""

_SERVE = f"""
import socket, sys
real = socket.getaddrinfo
answers = iter(["127.0.0.1"])

def flipping(host, *args, **kwargs):
    if host == {FLIPPING_NAME!r}:  # first 127.0.0.1, then 0.0.0.0: a zone owner's answers
        return real(next(answers, "0.0.0.0"), *args, **kwargs)
    return real(host, *args, **kwargs)

socket.getaddrinfo = flipping
from memory_api.cli import main
sys.exit(main(["serve"]))
"""


def _listening(pid: int) -> set[str]:
    """The addresses on which the network namespace of process ``pid`` listens on TCP port
    :data:`PORT`, as the kernel's own tables give them (``/proc/PID/net/tcp``, ``tcp6``)."""
    found: set[str] = set()
    for table, family in (("tcp", socket.AF_INET), ("tcp6", socket.AF_INET6)):
        for row in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            local, state = row.split()[1], row.split()[3]
            address, port = local.split(":")
            if state == "0A" and int(port, 16) == PORT:  # 0A: LISTEN
                raw = bytes.fromhex(address)  # in 32-bit words of host byte order
                words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
                found.add(socket.inet_ntop(family, words))
    return found


def _start_judged_and_bound(
    tmp_path: Path, host: str = FLIPPING_NAME, **env_more: str
) -> tuple[list[str], set[str]]:
    """Start the service bound to ``host`` (without tokens unless ``env_more`` gives some) in a
    namespace with only ``lo`` (and ``fe80::1`` on it); the lines it logs up to saying it
    listens (aiohttp's "Running on …") and the addresses it then listens on, then stop it."""
    unshare = shutil.which("unshare")
    probe = subprocess.run(
        [unshare or "unshare", "--net", "--map-root-user", "true"], capture_output=True, check=False
    )
    if unshare is None or probe.returncode != 0:
        message = f"A NETWORK NAMESPACE IS NOT AVAILABLE: {probe.stderr.decode().strip()}"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: this must run)")
        pytest.skip(reason=message)
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **code_under_test(),
           "MEMORY_API_DATA_DIR": str(data_dir), "MEMORY_API_HOST": host,
           "MEMORY_API_PORT": str(PORT), "MEMORY_API_LOG_FORMAT": "text", **env_more}  # fmt: skip
    script = 'ip link set lo up && ip -6 addr add fe80::1/64 dev lo && exec "$@"'
    command = [unshare, "--net", "--map-root-user", "sh", "-c", script, "sh",
               sys.executable, "-c", _SERVE]  # fmt: skip
    lines: list[str] = []
    bound: set[str] = set()
    with subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as process:
        try:
            assert process.stdout is not None
            for line in process.stdout:  # the service's own signal: the banner's closing line
                lines.append(line.rstrip("\n"))
                if "Press CTRL+C" in line:
                    bound = _listening(process.pid)  # unshare and sh exec: the same pid
                    break
        finally:
            process.terminate()
            process.wait(timeout=STARTS_WITHIN_S)
    return lines, bound


def test_a_service_judged_loopback_only_listens_on_loopback_only(tmp_path: Path) -> None:
    lines, bound = _start_judged_and_bound(tmp_path)
    said = "\n".join(lines)
    assert "binds to loopback only (flips.invalid (127.0.0.1))" in said, said
    assert bound == {"127.0.0.1"}, said


def test_a_link_local_bind_address_keeps_its_scope(tmp_path: Path) -> None:
    """``fe80::1%lo`` binds only with its scope: the addresses bound are the resolver's own
    (``fe80::1`` and the scope's number), not the address alone (``Invalid argument``)."""
    lines, bound = _start_judged_and_bound(
        tmp_path, "fe80::1%lo", MEMORY_API_TOKENS="admin=link-local-secret-0123456789abcdef"
    )

    assert bound == {"fe80::1"}, "\n".join(lines)
