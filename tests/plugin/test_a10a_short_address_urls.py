"""A-10a: a service URL whose host is an address in a short spelling (``http://127.1:PORT``,
``http://2130706433:PORT``) reaches the service, from the plugin and from ``memory-api --url``.

The service answers only a ``Host`` that is a name or an address in its usual form. The clients
connected to 127.0.0.1 but sent ``Host: 127.1:PORT`` as spelt: ``harness-memory install`` said
the service "rejected the ids (400: the Host header '127.1:PORT' is not a host name …)" and
wrote nothing, a Session start failed open, and ``memory-api agent list --url`` said "no
memory-api service answers" while one did. Each now sends the address as a browser (and curl)
writes it: ``Host: 127.0.0.1:PORT``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main
from memory_api.cli import main as memory_api_main

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService

SPELLINGS = ["127.1", "2130706433", "0x7f.0.0.1"]


def spelt(service: RealService, host: str) -> str:
    """The service's URL with its host written as ``host``."""
    return service.url.replace("127.0.0.1", host)


@pytest.mark.parametrize("host", SPELLINGS)
def test_a10a_a_session_start_to_a_short_address_gets_its_memory(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, host: str
) -> None:
    out = io.StringIO()
    flags = ["--url", spelt(shared_service, host), "--project", "acme", "--agent", new_agent]
    environ = {"HARNESS_MEMORY_TOKEN": shared_service.token}
    status = main(["session-start", *flags, "--format", "json"], environ=environ, stdout=out)
    meta = json.loads(out.getvalue())["sessionMeta"]
    assert (status, meta["status"], meta.get("error")) == (0, "injected", None)


def test_a10a_install_to_a_short_address_checks_the_service_and_writes_the_hooks(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    out = io.StringIO()
    flags = ["--home", str(tmp_path), "--memory-root", str(shared_memory_root)]
    flags += ["--url", spelt(shared_service, "127.1"), "--project", "acme"]
    flags += ["--agent", new_agent, "--executable", str(HARNESS_MEMORY)]
    environ = {"HOME": str(tmp_path), "HARNESS_MEMORY_TOKEN": shared_service.token}
    status = main(["install", "codex", *flags], environ=environ, stdout=out)
    said = out.getvalue()
    assert status == 0, said
    assert "WARNING" not in said and "ERROR" not in said, said
    assert (tmp_path / ".codex" / "hooks.json").is_file()


@pytest.mark.parametrize("host", SPELLINGS)
def test_a10a_memory_api_url_to_a_short_address_lists_the_services_agents(
    shared_service: RealService,
    new_agent: str,
    host: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = spelt(shared_service, host)
    assert memory_api_main(["agent", "list", "--url", url, "--token", shared_service.token]) == 0
    listed = capsys.readouterr()
    assert new_agent in listed.out, listed
    assert "through the service at http://127.0.0.1:" in listed.err, listed
