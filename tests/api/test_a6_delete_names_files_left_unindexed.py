"""A-6, V-2: a delete removes every index line holding a link to the file, also a line that
links another file beside it (``- [A](a.md), see [B](b.md)``); the answer names each other file
whose only index entry went with it (``unindexedFiles``), never silently, and the undo puts the
line back byte for byte.

Before, the answer said only the removed lines: ``b.md`` dropped out of the index unsaid.
"""

from __future__ import annotations

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, ok_json

TOPIC = "---\nname: {0}\ndescription: a topic\nupdated_at: 2026-11-20\n---\nbody\n"
SHARED_LINE = {
    "inline": (
        "# Memory\n- [A](a.md), see [B](b.md)\n- [C](c.md) and [B](b.md) too\n- [D](d.md)\n",
        "# Memory\n- [A](a.md), see [B](b.md)\n- [D](d.md), see [C](c.md)\n",
    ),
    "reference": (
        "# Memory\n- [A][a], see [B][b]\n- [C](c.md) and [B][b] too\n- [D](d.md)\n\n"
        "[a]: a.md\n[b]: b.md\n",
        "# Memory\n- [A][a], see [B][b]\n- [D](d.md)\n\n[a]: a.md\n[b]: b.md\n[c]: c.md\n",
    ),
    "through the parent": (
        "# Memory\n- [B](b.md), see [A](../user/a.md)\n- [C](c.md) and [B](b.md) too\n"
        "- [D](d.md)\n",
        "# Memory\n- [B](b.md), see [A](../user/a.md)\n- [D](d.md), see [C](c.md)\n",
    ),
    "html": (
        '# Memory\n<a href="a.md">A</a>, see [B](b.md)\n- [C](c.md) and [B](b.md) too\n'
        "- [D](d.md)\n",
        '# Memory\n<a href="a.md">A</a>, see [B](b.md)\n- [D](d.md), see [C](c.md)\n',
    ),
}
"""Per link style: an index where ``b.md`` keeps another entry, and one where it has none."""


@pytest.mark.parametrize("style", SHARED_LINE)
async def test_a6_a_delete_names_the_files_whose_only_index_entry_went_with_it(
    client: Client, agent: AgentHome, style: str
) -> None:
    for stem in "abcd":
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    kept, lost = SHARED_LINE[style]

    index.write_text(kept, encoding="utf-8")
    deleted = await ok_json(await client.delete(file_url("user", "a.md")))
    assert deleted["unindexedFiles"] == []  # b.md is still listed by the line of c.md

    (agent.user / "a.md").write_text(TOPIC.format("a"), encoding="utf-8")
    index.write_text(lost, encoding="utf-8")
    deleted = await ok_json(await client.delete(file_url("user", "a.md")))
    assert deleted["unindexedFiles"] == ["b.md"]

    url = f"{file_url('user', 'a.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == deleted["removedIndexLines"]
    assert index.read_text(encoding="utf-8") == lost
