"""RFC 9110 §13.1.1, §13.1.2: every unsafe route on a topic file, an index and the config
honours ``If-Match`` and ``If-None-Match`` (A-2, A-6, V-2).

``curl -X DELETE -H 'If-Match: "x"' …/files/time-zone.md`` answered 200 and deleted: the
preconditions of a DELETE, a restore and ``If-None-Match`` on a config PATCH were ignored. A
topic file has no ETag, so any ``If-Match`` but ``*`` fails; ``If-None-Match: *`` fails while
the resource is there; a failed one is a 412 problem and nothing changes.
"""

from __future__ import annotations

import pytest
from multidict import CIMultiDict

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    ok_json,
    write_topic,
)
from tests.api.test_config import CONFIG
from tests.api.test_v1_versions import TOPIC, checkpoint, seed
from tests.api.test_v2_history_and_restore import history_url

FAILING = {
    'If-Match: "x"': CIMultiDict([("If-Match", '"x"')]),
    "If-Match on two lines": CIMultiDict([("If-Match", '"x"'), ("If-Match", 'W/"y"')]),
    "If-None-Match: *": CIMultiDict([("If-None-Match", "*")]),
    # outside the grammar (* among tags): fails closed, either field (it let the delete through)
    'If-None-Match: "x", *': CIMultiDict([("If-None-Match", '"x", *')]),
    'If-Match: "a", *': CIMultiDict([("If-Match", '"a", *')]),
    "If-None-Match unclosed": CIMultiDict([("If-None-Match", '"ab')]),
}


@pytest.mark.parametrize("sent", list(FAILING))
async def test_a6_a_failed_precondition_on_delete_is_412_and_deletes_nothing(
    client: Client, agent: AgentHome, sent: str
) -> None:
    topic = write_topic(agent.user, "time-zone.md")
    before = topic.read_bytes()

    response = await client.delete(file_url("user", "time-zone.md"), headers=FAILING[sent])

    body = await expect_problem(response, 412, "nothing changed")
    assert "the topic file 'time-zone.md'" in body["detail"]
    assert response.content_type == "application/problem+json"
    assert topic.read_bytes() == before


@pytest.mark.parametrize(
    "sent",
    [{"If-Match": "*"}, {"If-None-Match": '"x"'}, {"If-Match": "*, *"}, {}],
    ids=["If-Match *", "If-None-Match a tag", "If-Match * twice", "none"],
)
async def test_a6_a_precondition_that_holds_lets_the_delete_happen(
    client: Client, agent: AgentHome, sent: dict[str, str]
) -> None:
    topic = write_topic(agent.user, "time-zone.md")
    await ok_json(await client.delete(file_url("user", "time-zone.md"), headers=sent))
    assert not topic.exists()


async def test_a6_a_file_not_there_is_404_whatever_its_preconditions(client: Client) -> None:
    """RFC 9110 §13.2.1: the preconditions of a request that would fail without them anyway
    are not judged: a delete of a file not there stays the 404 it is."""
    response = await client.delete(file_url("user", "gone.md"), headers={"If-Match": '"x"'})
    assert response.status == 404


async def test_v2_restore_judges_the_file_as_it_is_now(client: Client, agent: AgentHome) -> None:
    """A topic file there: ``If-Match: "x"`` and ``If-None-Match: *`` fail (412, nothing
    written), ``If-Match: *`` holds. Deleted: ``If-Match: *`` fails (nothing is there), and
    ``If-None-Match: *`` holds, the undo that never overwrites a file made meanwhile."""
    seed(agent)
    version = (await checkpoint(client))["version"]
    path = agent.user / TOPIC
    path.write_text("---\ndescription: later\n---\nchanged since\n", encoding="utf-8")
    changed = path.read_bytes()
    url = history_url("user", TOPIC, "restore")

    for sent in ({"If-Match": '"x"'}, {"If-None-Match": "*"}):
        response = await client.post(url, json={"version": version}, headers=sent)
        await expect_problem(response, 412, f"the topic file {TOPIC!r}")
        assert path.read_bytes() == changed
    await ok_json(await client.post(url, json={"version": version}, headers={"If-Match": "*"}))
    assert path.read_bytes() != changed

    await ok_json(await client.delete(file_url("user", TOPIC)))
    response = await client.post(url, json={"version": version}, headers={"If-Match": "*"})
    await expect_problem(response, 412, "is not there; nothing changed")
    assert not path.exists()
    sent = {"If-None-Match": "*"}
    await ok_json(await client.post(url, json={"version": version}, headers=sent))
    assert path.exists()


async def test_v2_restore_of_the_index_is_judged_too(client: Client, agent: AgentHome) -> None:
    seed(agent)
    version = (await checkpoint(client))["version"]
    url = history_url("user", "MEMORY.md", "restore")
    response = await client.post(url, json={"version": version}, headers={"If-Match": '"x"'})
    await expect_problem(response, 412, "the index has no ETag")


async def test_a2_if_none_match_on_a_config_patch_is_judged(
    client: Client, agent: AgentHome
) -> None:
    """The config is always there, so ``If-None-Match: *`` fails; a list naming its current
    ETag (weakly, §8.8.3.2) fails too; one naming another holds."""
    etag = (await client.get(CONFIG)).headers["ETag"]
    for sent in ("*", etag, f'"other", W/{etag}'):
        response = await client.patch(CONFIG, json={"name": "X"}, headers={"If-None-Match": sent})
        await expect_problem(response, 412, "the agent's config")
    assert (await ok_json(await client.get(CONFIG)))["name"] != "X"
    response = await client.patch(CONFIG, json={"name": "X"}, headers={"If-None-Match": '"o"'})
    assert (await ok_json(response))["name"] == "X"


async def test_a4_the_template_placeholder_insert_writes_the_config_under_its_preconditions(
    client: Client, agent: AgentHome
) -> None:
    """The insert rewrites the config's template, so it judges ``If-Match`` against the
    config's ETag as its PATCH does: a stale one is 412 and the template stays as it is."""
    await ok_json(await client.patch(CONFIG, json={"template": "No placeholder here."}))
    etag = (await client.get(CONFIG)).headers["ETag"]
    url = f"{memory_url()}/template-placeholder"

    for sent in ({"If-Match": '"stale"'}, {"If-None-Match": "*"}):
        response = await client.post(url, headers=sent)
        await expect_problem(response, 412, "the agent's config")
    assert (await ok_json(await client.get(CONFIG)))["template"] == "No placeholder here."
    result = await ok_json(await client.post(url, headers={"If-Match": etag}))
    assert result["changed"] is True


async def test_v2_a_restore_of_a_file_no_version_holds_is_404_whatever_its_preconditions(
    client: Client, agent: AgentHome
) -> None:
    """RFC 9110 §13.2.1, as a delete: it answered 412 for ``If-Match: "x"`` before its 404."""
    seed(agent)
    version = (await checkpoint(client))["version"]
    url = history_url("user", "never.md", "restore")
    response = await client.post(url, json={"version": version}, headers={"If-Match": '"x"'})
    await expect_problem(response, 404, f"'never.md' is not in version {version}")
    assert not (agent.user / "never.md").exists()
