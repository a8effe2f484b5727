"""A-6, T-5b: a delete removes the index line that links the file in another case.

Found with a variant of case ``delete-keeps-index-line``: an index line written
``- [Café notes](Cafe-Notes.md)`` for ``cafe-notes.md`` is that file's entry to the lint (its
``dangling-link`` names the file and the fix; the file is not ``unindexed``) and opens it on a
disk that ignores case (macOS, Windows). A delete of ``cafe-notes.md`` answered 200 with
``removedIndexLines: []`` and left the line, now a link to nothing injected at every Session
start. The same for ``./CAFE-NOTES.md``, ``cafe-notes.MD``, a code-span entry and a
reference-style definition. Wiki links in another case were pruned already. Now such a line
goes with the file, and the undo puts it back as it was written; a link in another case that
names another file of the scope (``Cafe-Notes.md`` beside ``cafe-notes.md``) stays.
"""

from __future__ import annotations

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json

TOPIC = "---\nname: {0}\ndescription: a topic to delete\nupdated_at: 2026-11-20\n---\nbody\n"
STAYS = "- [Other](other.md) — stays"


def _write_scope(agent: AgentHome, index: str, *stems: str) -> None:
    for stem in ("cafe-notes", "other", *stems):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    (agent.user / layout.INDEX_FILE).write_text(index, encoding="utf-8")


async def _finding_codes(client: Client) -> list[tuple[str, str]]:
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    return [(finding["code"], finding["file"]) for finding in listing["findings"]]


LINKS_IN_ANOTHER_CASE = {
    "title-case": ["- [Café notes](Cafe-Notes.md) — wifi"],
    "dot-slash-upper-anchor": ["- [Café](./CAFE-NOTES.md#wifi) — wifi"],
    "upper-extension": ["- [Café](cafe-notes.MD) — wifi"],
    "code-span": ["- `Cafe-Notes.md` — wifi"],
    "reference": ["- [Café][c] — wifi", "[c]: Cafe-Notes.md"],
    "both": ["- [Café](cafe-notes.md) — wifi", "- [Again](Cafe-Notes.md) — twice"],
}
"""The lines linking ``cafe-notes.md`` of each index: the first before the line that stays,
the others after it."""


@pytest.mark.parametrize("lines", LINKS_IN_ANOTHER_CASE.values(), ids=LINKS_IN_ANOTHER_CASE)
async def test_a6_a_delete_removes_the_line_linking_the_file_in_another_case(
    client: Client, agent: AgentHome, lines: list[str]
) -> None:
    text = "".join(f"{line}\n" for line in [lines[0], STAYS, *lines[1:]])
    _write_scope(agent, text)
    assert ("unindexed", "cafe-notes.md") not in await _finding_codes(client)  # its entry

    deleted = await ok_json(await client.delete(file_url("user", "cafe-notes.md")))

    assert sorted(deleted["removedIndexLines"]) == sorted(lines)
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == f"{STAYS}\n"
    assert not any(code == "dangling-link" for code, _ in await _finding_codes(client))

    url = f"{file_url('user', 'cafe-notes.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert sorted(restored["indexLinesAdded"]) == sorted(lines)
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == text


async def test_a6_a_link_in_another_case_naming_another_file_of_the_scope_stays(
    client: Client, agent: AgentHome
) -> None:
    """With ``Cafe-Notes.md`` there too, ``Cafe-Notes.md`` is that file's link: a delete of
    ``cafe-notes.md`` removes only the line spelled as it is."""
    text = f"- [Café](cafe-notes.md) — wifi\n- [Upper](Cafe-Notes.md) — its own\n{STAYS}\n"
    _write_scope(agent, text, "Cafe-Notes")

    deleted = await ok_json(await client.delete(file_url("user", "cafe-notes.md")))

    assert deleted["removedIndexLines"] == ["- [Café](cafe-notes.md) — wifi"]
    expected = f"- [Upper](Cafe-Notes.md) — its own\n{STAYS}\n"
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == expected


FOLDED_FULLY = {
    "sharp-s": ("straße.md", "Strasse.md"),
    "ligature": ("ﬁle-notes.md", "FILE-notes.md"),
    "dotted-capital-i": ("i̇zmir.md", "İZMIR.md"),
}
"""A file and a link naming it in another case only under full case folding (ß is ss, ﬁ is
fi, İ is i with a dot above), as a disk that ignores case and the lint fold names."""

UNRELATED = {
    "plain": "- [B](b.md) — stays",
    "percent": "- [B](b.md) — done 100%",
    "not-nfc": "- [B](b.md) — cafe\u0301",
}
"""The line after it, which has nothing to do with the file."""


@pytest.mark.parametrize("unrelated", UNRELATED.values(), ids=UNRELATED)
@pytest.mark.parametrize(("name", "link"), FOLDED_FULLY.values(), ids=FOLDED_FULLY)
async def test_a6_whether_a_delete_prunes_a_link_in_another_case_never_depends_on_other_lines(
    client: Client, agent: AgentHome, name: str, link: str, unrelated: str
) -> None:
    """The lint takes ``- [S](Strasse.md)`` for ``straße.md``'s entry; a delete of it removes
    the line whatever else the index holds (a ``%`` or a character not in NFC elsewhere)."""
    for file in (name, "b.md"):
        (agent.user / file).write_text(TOPIC.format("t"), encoding="utf-8")
    text = f"- [S]({link}) s\n{unrelated}\n"
    (agent.user / layout.INDEX_FILE).write_text(text, encoding="utf-8")
    assert ("unindexed", name) not in await _finding_codes(client)  # its entry

    deleted = await ok_json(await client.delete(file_url("user", name)))

    assert deleted["removedIndexLines"] == [f"- [S]({link}) s"]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == f"{unrelated}\n"
