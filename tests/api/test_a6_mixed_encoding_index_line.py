"""A-6, T-2: a Windows-1252 line in a mostly-UTF-8 index is pruned and put back by its text.

The reader shows each line of such an index as it reads it: UTF-8, or for a line that is not,
cp1252 (``- [Šárka](šárka.md) – Czech``). A delete judged the line by its bytes kept as lone
surrogates instead, so it answered ``removedIndexLines: []`` and left the line, and the restore
appended a UTF-8 copy of it (two lines linking ``šárka.md``). Now the pruning and the restore's
merge judge each line by the text the reader shows: the delete takes the line and keeps every
other byte, and the restore puts it back once, as UTF-8 with the same text (the index reads as
before; its other lines keep their bytes).
"""

from __future__ import annotations

import codecs

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, ok_json
from tests.api.test_a6_delete_keeps_index_line import TOPIC

CZECH = "- [Šárka](šárka.md) – Czech"


@pytest.mark.parametrize(
    ("bom", "odd", "shown"),
    [
        pytest.param(b"", b" \x81", CZECH + " \x81", id="an-undefined-byte"),
        pytest.param(b"", b"", CZECH, id="dash-only"),
        pytest.param(codecs.BOM_UTF8, b"", CZECH, id="utf8-bom"),
    ],
)
async def test_a_cp1252_line_of_a_utf8_index_is_pruned_and_put_back_byte_for_byte(
    client: Client, agent: AgentHome, bom: bytes, odd: bytes, shown: str
) -> None:
    for stem in ("šárka", "cafe"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    line = b"- [\x8a\xe1rka](\x9a\xe1rka.md) \x96 Czech" + odd + b"\r\n"
    index = agent.user / layout.INDEX_FILE
    before = bom + b"# Memory\r\n" + "- [Café](cafe.md) é\r\n".encode() + line + b"- [B](b.md)"
    index.write_bytes(before)

    deleted = await ok_json(await client.delete(file_url("user", "šárka.md")))
    assert deleted["removedIndexLines"] == [shown]
    assert index.read_bytes() == before.replace(line, b"")

    url = f"{file_url('user', 'šárka.md')}/restore"
    await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert index.read_bytes() == before.replace(line, shown.encode() + b"\r\n")


async def test_a_restore_leaves_a_line_the_agent_saved_again_in_utf8_as_it_is(
    client: Client, agent: AgentHome
) -> None:
    """A restore writes only the lines it puts back: a line the agent saved again as UTF-8
    after the version (``Café``, cp1252 in the version) keeps its new bytes."""
    for stem in ("cafe", "b", "zoe", "noel"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    cafe = "- [Café](cafe.md) é\n"
    index = agent.user / layout.INDEX_FILE
    tail = "- [Zoë](zoe.md) ë\n- [Noël](noel.md) ë\n".encode()
    index.write_bytes(cafe.encode("cp1252") + "- [Bé](b.md)\n".encode("cp1252") + tail)

    deleted = await ok_json(await client.delete(file_url("user", "b.md")))
    index.write_bytes(index.read_bytes().replace(cafe.encode("cp1252"), cafe.encode()))
    url = f"{file_url('user', 'b.md')}/restore"
    await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))

    assert index.read_bytes() == cafe.encode() + "- [Bé](b.md)\n".encode() + tail
