"""A-6, V-2, T-5: a delete prunes a reference-style index link whole, and its undo puts it back.

``- [Deploy][d]`` with ``[d]: deploy.md`` further down: the delete used to remove the definition
and leave the list line dangling; now both lines go, and the restore puts both back where they
stood, every other byte unchanged.
"""

from __future__ import annotations

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json

TOPIC = "---\nname: {0}\ndescription: a topic\nupdated_at: 2026-11-20\n---\nbody\n"
INDEX = (
    "# Memory\r\n- [Deploy][d] - no Friday deploys\r\n- [Other](other.md)\r\n\r\n[d]: deploy.md\r\n"
)


async def test_a6_delete_prunes_the_reference_line_and_its_definition_and_undo_restores_them(
    client: Client, agent: AgentHome
) -> None:
    for stem in ("deploy", "other"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(INDEX.encode())

    deleted = await ok_json(await client.delete(file_url("user", "deploy.md")))
    assert deleted["removedIndexLines"] == ["- [Deploy][d] - no Friday deploys", "[d]: deploy.md"]
    assert index.read_bytes() == b"# Memory\r\n- [Other](other.md)\r\n\r\n"

    url = f"{file_url('user', 'deploy.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == deleted["removedIndexLines"]
    assert index.read_bytes() == INDEX.encode()


UNDONE_AS_IT_WAS = {
    "definition-beside-a-link-to-the-file": (
        "# Index\n- [A](a.md) first\n- [B](b.md)\n[r]: ./a.md#x\n- [R][r] ref\n",
        ["- [A](a.md) first", "[r]: ./a.md#x", "- [R][r] ref"],
    ),
    "definition-after-a-blank-line": (
        "# Index\n- [B](b.md)\n- [A][r] first\n\n[r]: a.md\n[q]: b.md\n",
        ["- [A][r] first", "[r]: a.md"],
    ),
    "definition-after-blank-lines-and-a-link": (
        "# Index\n- [A](a.md) first\n- [B](b.md)\n\n\n[r]: a.md\n- [R][r]\n",
        ["- [A](a.md) first", "[r]: a.md", "- [R][r]"],
    ),
}
"""Indexes whose lines linking ``a.md`` include a reference definition, and those lines."""


@pytest.mark.parametrize(("text", "lines"), UNDONE_AS_IT_WAS.values(), ids=UNDONE_AS_IT_WAS)
async def test_v2_the_undo_of_a_delete_puts_back_every_line_it_removed_where_it_stood(
    client: Client, agent: AgentHome, text: str, lines: list[str]
) -> None:
    """The definition ``[r]: ./a.md#x`` is where ``- [R][r]`` links: it was taken for a line
    indexing ``a.md`` again beside ``- [A](a.md)``, and not put back; a definition that stood
    after a blank line came back before it."""
    for stem in ("a", "b"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_text(text, encoding="utf-8")

    deleted = await ok_json(await client.delete(file_url("user", "a.md")))
    assert deleted["removedIndexLines"] == lines

    url = f"{file_url('user', 'a.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == lines
    assert index.read_text(encoding="utf-8") == text


async def test_t5_a_file_linked_only_by_reference_is_indexed_and_a_missing_one_dangles(
    client: Client, agent: AgentHome
) -> None:
    (agent.user / "deploy.md").write_text(TOPIC.format("deploy"), encoding="utf-8")
    text = "- [Deploy][d]\n- [Gone][g]\n\n[d]: deploy.md\n[g]: gone.md\n"
    (agent.user / layout.INDEX_FILE).write_text(text, encoding="utf-8")
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    codes = [(f["code"], f.get("line")) for f in view["findings"]]
    assert not [code for code in codes if code[0] == "unindexed"]
    assert sorted(line for code, line in codes if code == "dangling-link") == [2, 5]
