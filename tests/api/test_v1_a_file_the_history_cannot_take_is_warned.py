"""V-1, Q-2b: a memory file whose content the history cannot take (over its read cap, a file
it may not read) is a WARNING in the log, as every other sign that the user's history is not
being kept is, never a DEBUG line seen only with ``MEMORY_API_LOG_LEVEL=DEBUG``: the versions
of that file stop at its last recorded content, and an operator is told which and why.

Before, ``history: big.md keeps its last recorded content: …`` was logged at DEBUG only.
"""

from __future__ import annotations

import logging

import pytest
from memory_core.scope_files import scope_file_cap

from tests.api.conftest import AgentHome, Client, file_url, ok_json, write_topic


async def test_v1_a_file_over_the_history_read_cap_is_a_warning(
    client: Client, agent: AgentHome, caplog: pytest.LogCaptureFixture
) -> None:
    write_topic(agent.user, "small.md")
    big = agent.user / "big.md"
    big.write_bytes(b"---\ndescription: big\n---\n" + b"x" * (scope_file_cap("big.md") + 1))

    with caplog.at_level(logging.WARNING, logger="memory_api"):
        await ok_json(await client.delete(file_url("user", "small.md")))

    said = [r for r in caplog.records if "big.md" in r.getMessage()]
    assert said and all(record.levelno == logging.WARNING for record in said)
    assert "last recorded content" in said[0].getMessage()
