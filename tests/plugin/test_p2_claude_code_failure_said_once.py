"""P-2, H-1: a Claude Code Session whose memory failed open says so once, naming the program as
the ``systemMessage`` does.

Claude Code runs several SessionStart entries per Session (``--part K --parts N``: each carries
a piece of the injection). A refused token made each of the four print the same "memory failed
open … 401 … run `harness-memory install` again" line on stderr, the bare name a shell beside
``make run`` does not find, while entry 1's ``systemMessage`` named the installed program's
path. Entry 1 alone says it now, on stderr and in the ``systemMessage``, with that path.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.plugin.helpers import HARNESS_MEMORY, hook_fixture, run_cli
from tests.plugin.real_service import RealService

WRONG = "revoked-token-0123456789"
REFUSED_401 = "memory service answered 401: the bearer token is not known to this service"
PARTS = 4


async def test_p2_a_failed_claude_code_session_start_is_said_once_naming_the_program(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    hook = hook_fixture("session_start.json", workspace=str(tmp_path))
    flags = ["--url", shared_service.url, "--project", "acme", "--agent", new_agent]
    flags += ["--token", WRONG, "--state-dir", str(tmp_path / "state")]

    entries = await asyncio.gather(
        *(
            run_cli(
                "hook",
                "claude-code",
                "session-start",
                *flags,
                "--part",
                str(part),
                "--parts",
                str(PARTS),
                stdin=hook,
                env={},
            )
            for part in range(1, PARTS + 1)
        )
    )

    assert [entry.returncode for entry in entries] == [0] * PARTS
    first, *others = entries
    [said] = [line for line in first.stderr.splitlines() if REFUSED_401 in line]
    typed = f"`{HARNESS_MEMORY} install claude-code` again"  # the hook's own
    assert typed in said and "install HARNESS" not in said, said
    assert f"`{HARNESS_MEMORY} install claude-code` again" in first.json()["systemMessage"]
    for other in others:
        assert other.stderr == "", other.stderr
        assert "systemMessage" not in other.stdout
