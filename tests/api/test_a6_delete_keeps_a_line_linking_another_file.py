"""A-6, T-4: deleting a topic file never drops another file's link from the index. An index
line that links the deleted file and another one too (``- [A](a.md), see [B](b.md)``) stays as
it is, and the answer names it in ``keptIndexLines``: its link to the deleted file now leads
nowhere (the lint says so), which a person fixes; B's entry is not lost. A line linking only
the deleted file still goes.

Before, the delete removed the whole line and B's only entry in the index with it.
"""

from __future__ import annotations

from memory_core import layout
from memory_core.index import prune_index, prune_index_keeping

from tests.api.conftest import AgentHome, Client, file_url, ok_json, write_topic

SHARED = "- [A](a.md), see [B](b.md)"
ALONE = "- [A again](a.md#why) — only a"


async def test_a6_a_delete_keeps_a_line_that_links_another_file_and_says_so(
    client: Client, agent: AgentHome
) -> None:
    for name in ("a.md", "b.md"):
        write_topic(agent.user, name)
    index = agent.user / layout.INDEX_FILE
    index.write_text(f"# Memory\n{SHARED}\n{ALONE}\n", encoding="utf-8")

    deleted = await ok_json(await client.delete(file_url("user", "a.md")))

    assert index.read_text(encoding="utf-8") == f"# Memory\n{SHARED}\n"
    assert deleted["removedIndexLines"] == [ALONE]
    assert deleted["keptIndexLines"] == [SHARED]
    assert not (agent.user / "a.md").exists()


def test_t4_pruning_keeps_lines_linking_another_file_or_page() -> None:
    text = (
        "- [A](a.md) and [[b-note]]\n"
        "- [A](./a.md) — [docs](https://example.com/a)\n"
        "- [A](a.md) [A too](a.md#how)\n"
        "- [[a]] only\n"
    )

    kept_text, removed, kept = prune_index_keeping(text, "a.md")

    assert (
        kept_text == "- [A](a.md) and [[b-note]]\n- [A](./a.md) — [docs](https://example.com/a)\n"
    )
    assert removed == ["- [A](a.md) [A too](a.md#how)", "- [[a]] only"]
    assert kept == ["- [A](a.md) and [[b-note]]", "- [A](./a.md) — [docs](https://example.com/a)"]
    assert prune_index(text, "a.md") == (kept_text, removed)


def test_t4_a_line_linking_the_file_in_two_spellings_of_it_still_goes() -> None:
    text = "- [A](a.md) [A](A.md)\n- [B](b.md)\n"

    assert prune_index_keeping(text, "a.md", files=["a.md", "b.md"]) == (
        "- [B](b.md)\n",
        ["- [A](a.md) [A](A.md)"],
        [],
    )
