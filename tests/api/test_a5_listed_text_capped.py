"""A-5, S-1: a listing and a search give at most ``LISTED_CHARS`` characters of a topic
file's name and description, and say so; the file's own answer gives them whole.

A description of 500 KB (one long frontmatter line, an agent's mistake or a hostile note) was
returned whole in every row of the scope's listing and in each search hit that found the
file: a page of 1,000 such rows was 500 MB. A row now gives the first ``LISTED_CHARS``
characters and an ellipsis, and its ``problems`` say the field was cut and where it is whole.
"""

from __future__ import annotations

from memory_api.store.listed_text import LISTED_CHARS

from tests.api.conftest import AgentHome, Client, memory_url, ok_json

LONG = "deploy " + "x" * 500_000


async def test_a5_s1_a_500_kb_description_is_cut_in_listings_and_whole_in_its_file(
    client: Client, agent: AgentHome
) -> None:
    (agent.user / "huge.md").write_text(
        f"---\nname: huge\ndescription: {LONG}\n---\nbody\n", encoding="utf-8"
    )

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    [hit] = (await ok_json(await client.get(f"{memory_url()}/search?q=deploy")))["hits"]
    whole = await ok_json(await client.get(f"{memory_url()}/scopes/user/files/huge.md"))

    [row] = listing["files"]
    assert row["description"] == LONG[:LISTED_CHARS] + "…"
    assert (
        f"description: {len(LONG)} characters, listed cut to the first {LISTED_CHARS}; "
        "the file's own answer gives it whole"
    ) in row["problems"]
    assert hit["description"] == LONG[:LISTED_CHARS] + "…"
    assert sum(len(part["text"]) for part in hit["descriptionParts"]) <= LISTED_CHARS + 1
    assert hit["descriptionParts"][0] == {"text": "deploy", "hit": True}
    assert whole["description"] == LONG


async def test_a5_a_listing_row_names_its_cut_apart_from_what_to_fix(
    client: Client, agent: AgentHome
) -> None:
    """The cut is no problem of the file (its own answer gives the field whole, with nothing to
    fix): the page offered "Fix this memory" for it, with an empty list for the agent. The row
    names the notes of its cuts in ``listedCut`` too, so the page tells them from the rest."""
    (agent.user / "huge.md").write_text(
        f"---\nname: huge\ndescription: {LONG}\n---\nbody\n", encoding="utf-8"
    )
    (agent.user / "plain.md").write_text(
        "---\nname: plain\ndescription: short\n---\nbody\n", encoding="utf-8"
    )

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    whole = await ok_json(await client.get(f"{memory_url()}/scopes/user/files/huge.md"))

    rows = {row["file"]: row for row in listing["files"]}
    note = (
        f"description: {len(LONG)} characters, listed cut to the first {LISTED_CHARS}; "
        "the file's own answer gives it whole"
    )
    assert rows["huge.md"]["listedCut"] == [note]
    assert [p for p in rows["huge.md"]["problems"] if p not in rows["huge.md"]["listedCut"]] == []
    assert whole["problems"] == []  # nothing for a Fix to ask of the agent
    assert rows["plain.md"].get("listedCut", []) == []
