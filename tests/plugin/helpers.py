"""Shared helpers for the plugin tests: recorded hook fixtures and running the installed CLI."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.serve import venv_bin

FIXTURES = Path(__file__).parent / "fixtures"
HARNESS_MEMORY = venv_bin("harness-memory")


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


async def run_cli(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None, cwd: Path | None = None
) -> Completed:
    """Run the installed ``harness-memory`` console script as a separate process."""
    process = await asyncio.create_subprocess_exec(
        HARNESS_MEMORY,
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        cwd=cwd,
    )
    out, err = await process.communicate(stdin)
    assert process.returncode is not None
    return Completed(process.returncode, out.decode(), err.decode())
