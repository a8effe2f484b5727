"""A-10, A-10a: whether ``memory-api serve`` listens only on loopback is decided from what its
bind host resolves to, as the kernel's bind gets it, and its Host rule takes what a browser
sends for that bind.

``MEMORY_API_HOST`` was judged as a string: ``localhost`` or a loopback IP literal. So
``ip6-localhost``, ``localhost.localdomain`` or any name ``/etc/hosts`` gives only ``127.x`` or
``::1`` were "beyond loopback": without tokens the service refused to start ("the API would be
open to the network"), and with tokens it answered any ``Host``, a DNS-rebinding page's too.
``127.1`` (``127.0.0.1`` to the resolver) was refused; ``[::1]`` was called loopback, then the
bind failed with "Name or service not known" and a page address ``http://[[::1]]:PORT/``. And
a name that ``/etc/hosts`` maps to ``127.0.0.1`` *and* a network address counted as loopback
only when spelt ``localhost``.

Each service here runs in a mount namespace of its own whose ``/etc/hosts`` is the test's
(``unshare --mount --map-root-user``), so the names resolve as a machine's administrator would
have written them, and nothing on the machine changes. The services and CLI runs of this
module's ``/etc/hosts`` are forked, each ``memory-api`` as its console script runs it, from one
zygote started in that namespace (:mod:`tests.support.zygote`: the code imported once, not in
each of some twenty processes); the test of another ``/etc/hosts`` starts the console script
itself in a namespace of its own.
"""

from __future__ import annotations

import http.client
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.serve import ServedProcess, code_under_test, serve, venv_bin
from tests.support.zygote import Zygote

HOSTS = """\
127.0.0.1 localhost
::1 ip6-localhost ip6-loopback
127.0.0.1 localhost.localdomain
127.0.1.1 memory-box
127.0.0.1 mixed-box
192.0.2.10 mixed-box
192.0.2.11 elsewhere
"""
"""The namespace's ``/etc/hosts`` (``192.0.2.0/24`` is TEST-NET-1: never this machine's)."""
SECRET = "bind-names-secret-0123456789abcdef"
STARTS_WITHIN_S = 60.0
"""How long a refused start may take to exit (a bound, not an assertion)."""


def _namespace_prefix(tmp_path: Path, hosts_text: str = HOSTS) -> tuple[str, ...]:
    """A command prefix running the service with ``/etc/hosts`` bind-mounted from ``hosts_text``
    in a mount namespace of its own."""
    unshare = shutil.which("unshare")
    probe = subprocess.run(
        [unshare or "unshare", "--mount", "--map-root-user", "true"],
        capture_output=True,
        check=False,
    )
    if unshare is None or probe.returncode != 0:
        message = f"A MOUNT NAMESPACE IS NOT AVAILABLE: {probe.stderr.decode().strip()}"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: this must run)")
        pytest.skip(reason=message)
    hosts = tmp_path / "hosts"
    hosts.write_text(hosts_text, encoding="ascii")
    script = f'mount --bind "{hosts}" /etc/hosts && exec "$@"'
    return (unshare, "--mount", "--map-root-user", "--propagation", "private", "sh", "-c",
            script, "sh")  # fmt: skip


def _env(tokens: bool) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **code_under_test()}
    if tokens:
        env["MEMORY_API_TOKENS"] = f"admin={SECRET}"
    return env


@pytest.fixture(scope="module")
def in_namespace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Zygote]:
    """The zygote every ``memory-api`` of this module's :data:`HOSTS` is forked from, in a mount
    namespace of its own whose ``/etc/hosts`` is :data:`HOSTS`; ended after the module."""
    zygote = Zygote(_namespace_prefix(tmp_path_factory.mktemp("namespace")))
    yield zygote
    zygote.close()


Start = Callable[..., ServedProcess]
"""``start(host, reached_at, tokens=False)``: see :func:`served_on`."""


@pytest.fixture(scope="module")
def served_on(tmp_path_factory: pytest.TempPathFactory, in_namespace: Zygote) -> Iterator[Start]:
    """``served_on(host, reached_at, tokens=False)``: the real service bound to ``host`` in the
    namespace, spoken to at the literal ``reached_at``. Started once per module for each
    ``(host, reached_at, tokens)`` and stopped at its end: the tests only send requests and
    list agents, which change nothing on it, and two of them bind the same names the same way
    (one start each instead of one per test)."""
    base = tmp_path_factory.mktemp("served-on")
    started: dict[tuple[str, str, bool], ServedProcess] = {}

    def start(host: str, reached_at: str, *, tokens: bool = False) -> ServedProcess:
        key = (host, reached_at, tokens)
        if key not in started:
            data_dir = base / f"data-{len(started)}"
            data_dir.mkdir()
            started[key] = serve(data_dir, _env(tokens), zygote=in_namespace, host=host,
                                 reached_at=reached_at)  # fmt: skip
        return started[key]

    yield start
    for served in started.values():
        served.stop()


def in_namespace_run(zygote: Zygote, argv: list[str], env: dict[str, str], log: Path) -> str:
    """``memory-api ARGV`` with ``env``, forked from ``zygote`` and run to its end: its output
    (stdout and stderr). Raises subprocess.CalledProcessError on a non-zero exit."""
    return zygote.run(argv, env, log, STARTS_WITHIN_S)


def refused_start(
    tmp_path: Path,
    host: str,
    *,
    tokens: bool = False,
    in_namespace: Zygote | None = None,
    hosts_text: str = HOSTS,
) -> tuple[int, str]:
    """Run ``memory-api serve`` bound to ``host`` in the namespace, expecting it to stop by
    itself; its exit status and output. Forked from ``in_namespace`` when given (whose
    ``/etc/hosts`` is :data:`HOSTS`), else the console script in a namespace whose
    ``/etc/hosts`` is ``hosts_text``."""
    data_dir = tmp_path / "data-refused"
    data_dir.mkdir(exist_ok=True)
    env = {**_env(tokens), "MEMORY_API_DATA_DIR": str(data_dir), "MEMORY_API_HOST": host,
           "MEMORY_API_PORT": "0"}  # fmt: skip
    if in_namespace is not None:
        assert hosts_text == HOSTS
        try:
            return 0, in_namespace_run(in_namespace, ["serve"], env, tmp_path / "refused.log")
        except subprocess.CalledProcessError as refused:
            return refused.returncode, str(refused.output)
    done = subprocess.run(
        [*_namespace_prefix(tmp_path, hosts_text), venv_bin("memory-api"), "serve"],
        env=env,
        capture_output=True,
        check=False,
        timeout=STARTS_WITHIN_S,
    )
    return done.returncode, done.stdout.decode() + done.stderr.decode()


def get(served: ServedProcess, host: str | None, path: str = "/api/me") -> int:
    """The status of ``GET path`` sent to ``served`` with exactly ``Host: host`` (``{port}``
    filled in), and with its bearer token when it has one."""
    address, port = served.base_url.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(address.strip("[]"), int(port), timeout=30)
    try:
        connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", host.format(port=port))
        if "MEMORY_API_TOKENS" in served.env:
            connection.putheader("Authorization", f"Bearer {SECRET}")
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.parametrize(
    ("host", "reached_at", "addresses", "page"),
    [("ip6-localhost", "[::1]", "::1", "ip6-localhost"),
     ("localhost.localdomain", "127.0.0.1", "127.0.0.1", "localhost.localdomain"),
     ("memory-box", "127.0.1.1", "127.0.1.1", "memory-box"),
     ("127.0.0.2", "127.0.0.2", None, "127.0.0.2"), ("127.1", "127.0.0.1", "127.0.0.1", None),
     ("::1", "[::1]", None, None), ("[::1]", "[::1]", None, None),
     ("0:0::1", "[::1]", "::1", None), ("LOCALHOST", "127.0.0.1", "127.0.0.1", "LOCALHOST")],
)  # fmt: skip
def test_a10_a_host_resolving_only_to_loopback_runs_open_on_loopback(
    served_on: Start, in_namespace: Zygote, tmp_path: Path, host: str, reached_at: str,
    addresses: str | None, page: str | None,
) -> None:  # fmt: skip
    """``page``: how the web page's address names it (None: as the tests reach it, the form a
    browser writes: ``127.1`` was shown as ``http://127.1:PORT/``, ``[::1]`` as
    ``http://[[::1]]:PORT/``)."""
    served = served_on(host, reached_at)

    assert get(served, "localhost:{port}") == 200  # open: no token needed
    shown = host.strip("[]") + (f" ({addresses})" if addresses else "")
    said = "no bearer token configured: the API is open to local callers, so it binds to "
    assert f"{said}loopback only ({shown})" in served.log_text()
    port = served.env["MEMORY_API_PORT"]
    assert f"web page: http://{page or reached_at}:{port}/" in served.log_text()
    # The CLI finds its service where MEMORY_API_HOST says, and is answered there: with Host
    # 127.1:PORT it was refused (400), took the service for absent, and listed the default
    # data dir's agents instead.
    listed = in_namespace_run(
        in_namespace, ["agent", "list"],
        {**_env(tokens=False), "MEMORY_API_HOST": host, "MEMORY_API_PORT": port,
         "HOME": str(tmp_path)},
        tmp_path / "agent-list.log",
    )  # fmt: skip
    assert f"agents through the service at http://{page or reached_at}:{port}" in listed


@pytest.mark.parametrize(
    ("host", "reached_at"), [("ip6-localhost", "[::1]"), ("memory-box", "127.0.1.1")]
)
@pytest.mark.parametrize("tokens", [False, True])
def test_a10a_a_service_bound_to_a_loopback_name_answers_what_a_browser_sends_for_it(
    served_on: Start, host: str, reached_at: str, tokens: bool
) -> None:
    """The bind name itself (any case, one final dot), ``localhost`` and loopback literals, with
    the port; never another name, nor one that merely begins with the bind name."""
    served = served_on(host, reached_at, tokens=tokens)

    answered = [f"{host}:{{port}}", f"{host.upper()}.:{{port}}", host, "localhost:{port}",
                "127.0.0.1:{port}", "[::1]:{port}", f"{reached_at}:{{port}}"]  # fmt: skip
    rebound = ["evil.example:{port}", f"{host}.evil.example:{{port}}", "localhost.evil.example",
               "ip6-loopback:{port}", "elsewhere:{port}"]  # fmt: skip
    for name in answered:
        assert get(served, name) == 200, name
    for name in rebound:
        assert get(served, name) == 403, name
        assert get(served, name, "/") == 403, name  # the page a token is typed into
    assert get(served, f"{host}%25lo") == 400
    assert get(served, f"u@{host}") == 400


def test_a10_a_name_resolving_to_loopback_and_a_network_address_is_not_loopback(
    in_namespace: Zygote, tmp_path: Path
) -> None:
    status, said = refused_start(tmp_path, "mixed-box", in_namespace=in_namespace)

    assert status == 2
    assert (
        "refusing to bind mixed-box (127.0.0.1, 192.0.2.10): 192.0.2.10 is not loopback and no "
        "bearer token is configured"
    ) in said


@pytest.mark.parametrize("tokens", [False, True])
def test_a10_a_host_that_resolves_to_nothing_is_refused_saying_so(
    in_namespace: Zygote, tmp_path: Path, tokens: bool
) -> None:
    """It used to start, say "binds to loopback only" or "binding", then die with the resolver's
    bare "Name or service not known"."""
    status, said = refused_start(
        tmp_path, "no-such-host.invalid", tokens=tokens, in_namespace=in_namespace
    )

    assert status == 2
    assert "cannot bind 'no-such-host.invalid': it resolves to no address (" in said
    assert "loopback only" not in said


def test_a10_localhost_mapped_also_to_a_network_address_is_not_loopback(tmp_path: Path) -> None:
    """The name alone was trusted: with such an ``/etc/hosts`` (a mis-edit, or a machine's own
    address added to the line) the service said "binds to loopback only" without tokens, and
    the bind took the network address too."""
    hosts_text = "127.0.0.1 localhost\n192.0.2.12 localhost\n"

    status, said = refused_start(tmp_path, "localhost", hosts_text=hosts_text)

    assert status == 2
    assert "refusing to bind localhost (127.0.0.1, 192.0.2.12): 192.0.2.12 is not loopback" in said
    assert "loopback only" not in said
