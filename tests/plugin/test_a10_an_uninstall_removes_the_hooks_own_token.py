"""A-10, H-7: ``uninstall`` removes the hooks' own bearer token whenever its record names the
installed service, however the URL is written, and never judges it by its own environment.

A reviewer installed with ``--url http://127.0.0.1:8765`` and ran ``uninstall`` with
``HARNESS_MEMORY_URL=http://127.0.0.1:8765/`` set: the token was left behind, "(not made by
harness-memory)". The uninstall plans noted the environment's URL as the installed service, and
the token's record was compared with it byte for byte, not as the same service (case, the
scheme's own port, a last ``/``). A token ``token set --url A/`` gave the hooks was left too.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.test_a10_a_token_keeps_its_recorded_service import A, installed, token_set

HARNESSES = ["claude-code", "codex", "gemini"]


def uninstall(home: Path, harness: str, **environ: str) -> str:
    out = io.StringIO()
    argv = ["uninstall", harness, "--home", str(home)]
    assert main(argv, environ={"HOME": str(home), **environ}, stdout=out) == 0, out.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_uninstall_removes_the_token_though_the_environment_writes_the_url_otherwise(
    tmp_path: Path, harness: str
) -> None:
    home, token_file = installed(tmp_path, harness, A)

    said = uninstall(home, harness, HARNESS_MEMORY_URL=A + "/")

    assert not token_file.exists(), said
    assert not token_file.parent.exists(), said


@pytest.mark.parametrize("harness", HARNESSES)
def test_a10_uninstall_removes_a_token_set_for_the_same_service_written_otherwise(
    tmp_path: Path, harness: str
) -> None:
    home, token_file = installed(tmp_path, harness, A)
    status, said = token_set(home, "--file", str(token_file), "--url", A.upper() + "/")
    assert status == 0, said

    said = uninstall(home, harness)

    assert not token_file.exists(), said
    assert "not made by harness-memory" not in said, said
