"""R-1: a machine names itself once; two ``X-Memory-Machine`` (or ``-Name``) lines are a 400.

The service took the first of several, so a push carrying two machine ids (git's
``http.extraHeader`` configured twice, at two levels of its settings) went to the first
machine's ref and was noted for it, while a proxy or log in front could read the other. Each
header is now read only when it is sent once: several are refused, naming the header, and
nothing is noted for either machine.
"""

from __future__ import annotations

import pytest
from multidict import CIMultiDict

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url, ok_json
from tests.api.test_r1_git_sync import MACHINE, OTHER

REFS = f"{memory_url()}/git/user.git/info/refs"


@pytest.mark.parametrize(
    ("header", "values"),
    [("X-Memory-Machine", (MACHINE, OTHER)), ("X-Memory-Machine-Name", ("laptop", "desktop"))],
)
@pytest.mark.parametrize("service", ["git-upload-pack", "git-receive-pack"])
async def test_r1_a_machine_header_sent_twice_is_400_naming_it(
    client: Client, agent: AgentHome, header: str, values: tuple[str, str], service: str
) -> None:
    headers = CIMultiDict([(header, values[0]), (header, values[1])])
    if header != "X-Memory-Machine":
        headers["X-Memory-Machine"] = MACHINE

    answer = await client.get(REFS, params={"service": service}, headers=headers)

    await expect_problem(answer, 400, f"carries 2 {header} headers; send exactly one")
    machines = await ok_json(await client.get(f"{memory_url()}/machines"))
    assert machines["scopes"] == []


async def test_r1_each_machine_header_once_is_served(client: Client, agent: AgentHome) -> None:
    headers = {"X-Memory-Machine": MACHINE, "X-Memory-Machine-Name": "laptop"}

    answer = await client.get(REFS, params={"service": "git-upload-pack"}, headers=headers)

    assert answer.status == 200
