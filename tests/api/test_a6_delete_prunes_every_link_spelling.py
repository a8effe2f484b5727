"""A-6, T-4, T-5, V-2: a delete prunes exactly the index lines that the lint reads as linking
the file, whatever the link's spelling, each whole, and the undo gives every one back in place.

One reading decides both (:func:`memory_core.index.scope_link_targets`): ``[x](x.md)``,
``[x](./x.md)``, ``[x](<x.md>)``, ``[x](.//x.md)``, ``[x](sub/../x.md)``, ``[x](../user/x.md)``
(the scope's own folder by another way) and an absolute path to the file all link ``x.md``:
lint counts each as its entry (no ``unindexed``, a ``dangling-link`` once it is gone) and a
delete takes the line. A bare ``x.md`` in prose is a mention for both: it stays.

A line linking the deleted file and another (``- [Y](y.md), see [X](x.md)``) goes whole, as
A-6 says ("removes the file and every index line holding a link to it"); the answer names
``y.md`` as left unindexed, and the undo puts the line back byte for byte. Before, a delete
"unlinked" such a line (``- [Y](y.md), see X``), and its undo duplicated lines: two deletes
undone oldest first, or MEMORY.md restored before the undo.
"""

from __future__ import annotations

from typing import Any

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json

TOPIC = "---\nname: {0}\ndescription: a topic\nupdated_at: 2026-11-20\n---\nbody\n"
SPELLINGS = [
    "- [X](x.md) - plain",
    "- [X](./x.md) - dot",
    "- [X](<x.md>) - angled",
    "- [X](.//x.md) - doubled slash",
    "- [X](notes/../x.md) - through a sub-folder",
    "- [X](../user/x.md) - through the parent",
    "- [X]({abs}) - absolute",
]


async def _findings(client: Client) -> set[tuple[str, str, int | None]]:
    page = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    return {(f["code"], f["file"], f.get("line")) for f in page["findings"]}


@pytest.mark.parametrize("spelling", SPELLINGS)
async def test_a6_each_spelling_lint_reads_as_the_link_is_pruned(
    client: Client, agent: AgentHome, spelling: str
) -> None:
    for stem in "xy":
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    line = spelling.format(abs=agent.user.resolve() / "x.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(f"# Memory\n{line}\n- [Y](y.md)\nsee x.md in prose\n", encoding="utf-8")
    assert ("unindexed", "x.md", None) not in await _findings(client)  # lint: x's entry

    deleted = await ok_json(await client.delete(file_url("user", "x.md")))

    assert deleted["removedIndexLines"] == [line]
    assert index.read_text(encoding="utf-8") == "# Memory\n- [Y](y.md)\nsee x.md in prose\n"
    assert not {f for f in await _findings(client) if f[0] == "dangling-link"}


async def test_a6_a_link_elsewhere_to_the_deleted_file_is_dangling_until_deleted(
    client: Client, agent: AgentHome
) -> None:
    """The lint's reading is the delete's: a link it calls dangling is one a delete prunes."""
    (agent.user / "y.md").write_text(TOPIC.format("y"), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_text("- [Y](y.md)\n- [X](../user/x.md)\n", encoding="utf-8")
    assert ("dangling-link", "MEMORY.md", 2) in await _findings(client)


SHARED = [
    "- [Y](y.md), see [X](x.md)",
    "- [X](./x.md#why) and [Y](y.md) too",
    "- [X][x] beside [Y](y.md)",
    "- [Y](y.md) ![X](x.md)",
    "- [Y](y.md) see [X \\] q](x.md)",  # an escaped ``]`` in x's text
    "- [Y](y.md) see [X](../user/x.md)",
]


@pytest.mark.parametrize("line", SHARED)
async def test_a6_a_line_linking_another_file_too_goes_whole_and_undo_restores_it(
    client: Client, agent: AgentHome, line: str
) -> None:
    for stem in "xyz":
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    text = f"# Memory\r\n{line}\r\n- [Z](z.md)\r\n"
    definition = "\r\n[x]: x.md\r\n" if "][x]" in line else ""
    raw = (text + definition).encode("utf-8")
    index.write_bytes(raw)

    deleted: dict[str, Any] = await ok_json(await client.delete(file_url("user", "x.md")))

    assert index.read_bytes() == b"# Memory\r\n- [Z](z.md)\r\n" + (b"\r\n" if definition else b"")
    assert deleted["unindexedFiles"] == ["y.md"]
    assert line in deleted["removedIndexLines"]
    restored = await _undo(client, "x.md", deleted)
    assert index.read_bytes() == raw
    assert sorted(restored["indexLinesAdded"]) == sorted(deleted["removedIndexLines"])


async def _undo(client: Client, name: str, deleted: dict[str, Any]) -> dict[str, Any]:
    url = f"{file_url('user', name)}/restore"
    answer: dict[str, Any] = await ok_json(
        await client.post(url, json={"version": deleted["restoreVersion"]})
    )
    return answer


UNDONE: list[list[str]] = [
    ["- [X](x.md) - deploy freeze: no Friday deploys", "- [Y](y.md) - CI; see [X](x.md)"],
    ["- [Y](y.md) - CI; see [X](x.md)", "- [X](x.md) - deploy freeze: no Friday deploys"],
    ["- [[x]] - the entry", "- [Y](y.md) see [[x]]"],
    ["- [Y](y.md), see X", "- [Y](y.md), see [X](x.md)", "- [Z](z.md)"],  # the user's own
]


@pytest.mark.parametrize("lines", UNDONE)
async def test_v2_undo_gives_back_every_line_the_delete_took_in_place(
    client: Client, agent: AgentHome, lines: list[str]
) -> None:
    """The file's own entry comes back beside a line that also linked it (V-2: nothing lost),
    each on its own row; a row of the user's reading alike (``see X``) stays as it is."""
    for stem in "xyz":
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    raw = "".join(line + "\n" for line in lines).encode("utf-8")
    index.write_bytes(raw)

    deleted = await ok_json(await client.delete(file_url("user", "x.md")))
    restored = await _undo(client, "x.md", deleted)

    assert index.read_bytes() == raw
    assert sorted(restored["indexLinesAdded"]) == sorted(deleted["removedIndexLines"])


TWO_DELETES = [
    (b"# Memory\n- [Y](y.md) [X](x.md) [Z](z.md)\n- [W](w.md)\n", "x.md", "z.md"),
    (b"# Memory\n- [Y](y.md) [X](x.md) [Z](z.md)\n", "y.md", "x.md"),
    (b"# Memory\n- [Y](y.md) - entry\n- [Z](z.md), see [X](x.md) and [Y](y.md)\n", "x.md", "y.md"),
]


@pytest.mark.parametrize(("raw", "first", "second"), TWO_DELETES)
async def test_v2_two_deletes_on_one_line_undone_oldest_first_give_the_index_back(
    client: Client, agent: AgentHome, raw: bytes, first: str, second: str
) -> None:
    """Each undo puts back the lines its delete took, once: no line twice, none left without
    the link it had (the reviewer's F1: the line came back twice, one copy still unlinked)."""
    for stem in "xyzw":
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(raw)

    deleted_first = await ok_json(await client.delete(file_url("user", first)))
    deleted_second = await ok_json(await client.delete(file_url("user", second)))
    await _undo(client, first, deleted_first)
    await _undo(client, second, deleted_second)

    assert index.read_bytes() == raw


async def test_v2_memory_md_restored_then_the_delete_undone_gives_the_index_back(
    client: Client, agent: AgentHome
) -> None:
    """The reviewer's F2: MEMORY.md restored to the version before the delete, then the delete
    undone: the shared line once (it came back twice, once as the delete left it)."""
    raw = b"# Memory\n- [Y](y.md), see [X](x.md)\n- [Z](z.md)\n"
    for stem in "xyz":
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(raw)

    deleted = await ok_json(await client.delete(file_url("user", "x.md")))
    await _undo(client, layout.INDEX_FILE, deleted)
    await _undo(client, "x.md", deleted)

    assert index.read_bytes() == raw
