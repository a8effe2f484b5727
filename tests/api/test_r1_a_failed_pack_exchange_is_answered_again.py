"""R-1: the problem a machine's POST of a pack was answered with is answered again to its GET.

git shows a machine only the status of a failed POST ("error: RPC failed; HTTP 503"), never the
problem's ``detail``. The service remembers the 5xx problem it answered a machine's POST of
``git-upload-pack`` or ``git-receive-pack`` with and answers a GET of the same URL from that
machine with it as it was answered: status, ``detail``, ``type`` and ``Retry-After``; another
machine, or the same one after an answer that
did not fail, is answered 404; a GET naming no machine 400. The plugin's side is
``tests/plugin/test_r1_a_failed_push_says_the_service_s_reason.py``.
"""

from __future__ import annotations

import shutil

import pytest
from aiohttp import web
from memory_api.errors import Unavailable
from memory_api.store.sync.service import GitRequest, SyncStore
from memory_core import layout
from memory_core.wire import PROBLEM_TYPE_BASE

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url
from tests.api.test_r1_git_sync import MACHINE, OTHER, pkt

FETCH = f"{memory_url()}/git/user.git/git-upload-pack"
WANTS = pkt(f"want {'1' * 40}\n") + b"0000" + pkt("done\n")


def _headers(machine: str) -> dict[str, str]:
    return {"Content-Type": "application/x-git-upload-pack-request", "X-Memory-Machine": machine}


async def test_r1_a_failed_fetch_pack_is_told_again_to_its_machine_alone(
    client: Client, agent: AgentHome
) -> None:
    history = layout.history_root(agent.data_dir, agent.id) / "user.git"
    await client.get(f"{memory_url()}/git/user.git/info/refs?service=git-upload-pack")
    shutil.rmtree(history)
    history.write_text("not a repository\n", encoding="utf-8")
    failed = await client.post(FETCH, data=WANTS, headers=_headers(MACHINE))
    assert failed.status == 503, await failed.text()
    said = (await failed.json(content_type=None))["detail"]
    assert "the history of scope 'user'" in said, said

    again = await expect_problem(
        await client.get(FETCH, headers={"X-Memory-Machine": MACHINE}), failed.status, said
    )

    assert again["detail"] == said
    other = await client.get(FETCH, headers={"X-Memory-Machine": OTHER})
    await expect_problem(other, 404, "did not fail")
    await expect_problem(await client.get(FETCH), 400, "X-Memory-Machine")


async def test_r1_an_answer_that_did_not_fail_leaves_nothing_to_tell(
    client: Client, agent: AgentHome
) -> None:
    refused = await client.post(FETCH, data=b"zzzz", headers=_headers(MACHINE))
    await expect_problem(refused, 400, "pkt-line")

    answer = await client.get(FETCH, headers={"X-Memory-Machine": MACHINE})

    await expect_problem(answer, 404, "the last git-upload-pack of this machine")


class _Overloaded(Unavailable):
    """A 503 of a kind a client matches by its ``type``."""

    problem_type = PROBLEM_TYPE_BASE + "overloaded"


FAILURES: dict[str, tuple[Exception, str, str | None]] = {
    "a typed problem": (
        _Overloaded("the service is overloaded"),
        PROBLEM_TYPE_BASE + "overloaded",
        None,
    ),
    "a 503 asking to retry later": (
        web.HTTPServiceUnavailable(text="busy", headers={"Retry-After": "7"}),
        "about:blank",
        "7",
    ),
}
"""Failures of a fetch's pack whose answer says more than status and ``detail``: each with
the ``type`` and ``Retry-After`` its answer carries."""


@pytest.mark.parametrize("failure", sorted(FAILURES))
async def test_r1_the_failed_answer_is_told_again_with_its_type_and_retry_after(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """Answered again as it was answered: its ``type`` (RFC 9457: what a client matches) and
    its ``Retry-After`` header, not an ``about:blank`` problem that drops when to retry."""
    error, problem_type, retry_after = FAILURES[failure]

    async def fails(store: SyncStore, request: GitRequest, body: bytes) -> None:
        raise error

    monkeypatch.setattr(SyncStore, "upload_pack", fails)
    failed = await client.post(FETCH, data=WANTS, headers=_headers(MACHINE))
    said = await expect_problem(failed, 503, "")
    assert (said["type"], failed.headers.get("Retry-After")) == (problem_type, retry_after)

    again = await client.get(FETCH, headers={"X-Memory-Machine": MACHINE})

    told = await expect_problem(again, 503, said["detail"])
    assert (told["type"], told["detail"]) == (problem_type, said["detail"])
    assert again.headers.get("Retry-After") == retry_after
