"""A-6, T-4, T-5: a delete prunes exactly the index lines that the lint reads as linking the
file, whatever the link's spelling, and a line linking another file too keeps that link.

One reading decides both (:func:`memory_core.index.scope_link_targets`): ``[x](x.md)``,
``[x](./x.md)``, ``[x](<x.md>)``, ``[x](.//x.md)``, ``[x](sub/../x.md)``, ``[x](../user/x.md)``
(the scope's own folder by another way) and an absolute path to the file all link ``x.md``:
lint counts each as its entry (no ``unindexed``, a ``dangling-link`` once it is gone) and a
delete takes the line. A bare ``x.md`` in prose is a mention for both: it stays.

A line linking the deleted file and another (``- [Y](y.md), see [X](x.md)``) keeps its other
link: the deleted link's markup goes, its text stays (``- [Y](y.md), see X``), and the undo puts
the line back byte for byte. Before, ``../user/x.md`` and the absolute path were no links to
either (the delete answered 200 and left them), and the shared line went whole, ``y.md`` with it.
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


SHARED: list[tuple[str, str]] = [
    ("- [Y](y.md), see [X](x.md)", "- [Y](y.md), see X"),
    ("- [X](./x.md#why) and [Y](y.md) too", "- X and [Y](y.md) too"),
    ("- [[x|The X]] beside [[y]]", "- The X beside [[y]]"),
    ("- [X][x] beside [Y](y.md)", "- X beside [Y](y.md)"),
    ("- [Y](y.md) ![X](x.md)", "- [Y](y.md) X"),  # an image's text: no ``!`` left
    ("- [Y](y.md) ![X][x]", "- [Y](y.md) X"),
    ("- [Y](y.md) ![[x]]", "- [Y](y.md) x"),
]


@pytest.mark.parametrize(("line", "left"), SHARED)
async def test_a6_a_line_linking_another_file_keeps_that_link_and_undo_restores_it(
    client: Client, agent: AgentHome, line: str, left: str
) -> None:
    for stem in "xyz":
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    text = f"# Memory\r\n{line}\r\n- [Z](z.md)\r\n"
    definition = "\r\n[x]: x.md\r\n" if "][x]" in line else ""
    index.write_bytes((text + definition).encode("utf-8"))

    deleted: dict[str, Any] = await ok_json(await client.delete(file_url("user", "x.md")))

    assert index.read_bytes().decode("utf-8") == f"# Memory\r\n{left}\r\n- [Z](z.md)\r\n" + (
        "\r\n" if definition else ""
    )
    assert deleted["unindexedFiles"] == []
    assert line in deleted["removedIndexLines"]
    url = f"{file_url('user', 'x.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert index.read_bytes().decode("utf-8") == text + definition
    assert sorted(restored["indexLinesAdded"]) == sorted(deleted["removedIndexLines"])


UNDONE: list[list[str]] = [
    ["- [X](x.md) - deploy freeze: no Friday deploys", "- [Y](y.md) - CI; see [X](x.md)"],
    ["- [Y](y.md) - CI; see [X](x.md)", "- [X](x.md) - deploy freeze: no Friday deploys"],
    ["- [[x]] - the entry", "- [Y](y.md) see [[x]]"],
    ["- [Y](y.md), see X", "- [Y](y.md), see [X](x.md)", "- [Z](z.md)"],  # the user's own
]


@pytest.mark.parametrize("lines", UNDONE)
async def test_v2_undo_gives_back_every_line_the_delete_took_or_unlinked_in_place(
    client: Client, agent: AgentHome, lines: list[str]
) -> None:
    """The file's own entry comes back beside a line that also linked it (V-2: nothing lost),
    and a line the delete unlinked gets its link back on its own row, not on the first row
    that reads like it (the user's own ``see X``)."""
    for stem in "xyz":
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    raw = "".join(line + "\n" for line in lines).encode("utf-8")
    index.write_bytes(raw)

    deleted = await ok_json(await client.delete(file_url("user", "x.md")))
    url = f"{file_url('user', 'x.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))

    assert index.read_bytes() == raw
    assert sorted(restored["indexLinesAdded"]) == sorted(deleted["removedIndexLines"])
