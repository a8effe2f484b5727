"""A-5, A-6, V-2: a file named in one Unicode normalization is found when asked in the other.

Found: a topic file written by macOS (``café.md`` as ``e`` + U+0301, NFD) answered 404 to a
client asking for ``café.md`` composed (NFC), and the reverse. The name on disk is the truth:
a name spelled exactly as asked is that file; else the one name equal to it under NFC is;
two such names are a 409 naming both, never one picked. Read, delete, history and restore
all resolve so, and what the resolved name leads to is judged as for any name (A-7). A file
no longer on disk is resolved so among the names the history's versions held: its history
was empty and its diff 404 when asked in the other normalization.
"""

from __future__ import annotations

import unicodedata

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, names, ok_json
from tests.api.test_v1_versions import checkpoint

NFC = unicodedata.normalize("NFC", "café.md")
NFD = unicodedata.normalize("NFD", "café.md")
TOPIC = "---\nname: cafe\ndescription: the café's wifi\nupdated_at: 2026-11-20\n---\n{0}\n"


def write_topic(agent: AgentHome, name: str, body: str = "the body") -> None:
    (agent.user / name).write_text(TOPIC.format(body), encoding="utf-8")


@pytest.mark.parametrize(("on_disk", "asked"), [(NFD, NFC), (NFC, NFD)], ids=["nfd", "nfc"])
async def test_a5_a_read_finds_the_file_under_its_other_normalization(
    client: Client, agent: AgentHome, on_disk: str, asked: str
) -> None:
    write_topic(agent, on_disk)
    topic = await ok_json(await client.get(file_url("user", asked)))
    assert topic["file"] == on_disk  # the name as it is on disk
    assert topic["body"].strip() == "the body"


@pytest.mark.parametrize(("on_disk", "asked"), [(NFD, NFC), (NFC, NFD)], ids=["nfd", "nfc"])
async def test_a6_a_delete_removes_the_file_on_disk_and_its_index_line(
    client: Client, agent: AgentHome, on_disk: str, asked: str
) -> None:
    write_topic(agent, on_disk)
    write_topic(agent, "other.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text(f"- [Café]({on_disk}) — wifi\n- [Other](other.md)\n", encoding="utf-8")

    deleted = await ok_json(await client.delete(file_url("user", asked)))
    assert deleted["file"] == on_disk
    assert deleted["removedIndexLines"] == [f"- [Café]({on_disk}) — wifi"]
    assert names(agent.user) == sorted([layout.INDEX_FILE, "other.md"])
    assert index.read_text(encoding="utf-8") == "- [Other](other.md)\n"

    # the deleted file's text, and its undo, asked in the client's own spelling
    url = f"{file_url('user', asked)}/versions/{deleted['restoreVersion']}"
    assert (await ok_json(await client.get(url)))["file"] == on_disk
    url = f"{file_url('user', asked)}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["file"] == on_disk
    assert (agent.user / on_disk).read_text(encoding="utf-8") == TOPIC.format("the body")
    assert names(agent.user) == sorted([layout.INDEX_FILE, "other.md", on_disk])
    assert restored["indexLinesAdded"] == [f"- [Café]({on_disk}) — wifi"]


async def test_v2_history_and_restore_resolve_the_name_on_disk(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent, NFD, "first")
    write_topic(agent, "other.md")
    deleted = await ok_json(await client.delete(file_url("user", "other.md")))  # records a version
    (agent.user / NFD).write_text(TOPIC.format("second"), encoding="utf-8")

    history = await ok_json(await client.get(f"{file_url('user', NFC)}/history"))
    assert history["file"] == NFD and history["exists"] is True

    url = f"{file_url('user', NFC)}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["version"]}))
    assert restored["file"] == NFD
    assert (agent.user / NFD).read_text(encoding="utf-8") == TOPIC.format("first")
    assert not (agent.user / NFC).exists()  # no second file made beside it


@pytest.mark.parametrize(("on_disk", "asked"), [(NFD, NFC), (NFC, NFD)], ids=["nfd", "nfc"])
async def test_v2_a_gone_file_s_history_and_diff_are_found_in_its_other_normalization(
    client: Client, agent: AgentHome, on_disk: str, asked: str
) -> None:
    """A file deleted (no longer on disk) is found in the history under the name its
    versions held: asked in the other normalization, its history and diff answered 404."""
    write_topic(agent, on_disk, "the wifi password is on the fridge")
    deleted = await ok_json(await client.delete(file_url("user", on_disk)))

    history = await ok_json(await client.get(f"{file_url('user', asked)}/history"))
    assert history["file"] == on_disk and history["exists"] is False
    versions = [version["version"] for version in history["versions"]]
    assert versions[0] == deleted["version"] and deleted["restoreVersion"] in versions
    assert history["versions"][0]["change"] == "deleted"

    diff = await ok_json(await client.get(f"{file_url('user', asked)}/diff"))
    assert diff["file"] == on_disk and diff["toVersion"] == deleted["version"]
    assert "-the wifi password is on the fridge" in diff["unified"]

    url = f"{file_url('user', asked)}/diff?to={deleted['restoreVersion']}"
    assert (await ok_json(await client.get(url)))["file"] == on_disk


async def test_v2_a_gone_file_asked_exactly_is_that_file_not_its_twin(
    client: Client, agent: AgentHome
) -> None:
    """Both spellings deleted: a name asked exactly as a version held it is that file."""
    write_topic(agent, NFD, "decomposed")
    write_topic(agent, NFC, "composed")
    for name in (NFD, NFC):
        await ok_json(await client.delete(file_url("user", name)))
    for name, body in ((NFD, "decomposed"), (NFC, "composed")):
        diff = await ok_json(await client.get(f"{file_url('user', name)}/diff"))
        assert diff["file"] == name and f"-{body}" in diff["unified"]


async def test_v2_two_gone_files_equal_to_the_name_asked_are_a_conflict_naming_both(
    client: Client, agent: AgentHome
) -> None:
    """Twins gone from disk are two files of the history the client cannot tell apart: 409
    naming both, as for files on disk (the second spelling mixes composed and decomposed)."""
    first, second = "o\u0323\u0302-notes.md", "\u00f4\u0323-notes.md"
    asked = unicodedata.normalize("NFC", first)
    write_topic(agent, first)
    write_topic(agent, second)
    for name in (first, second):
        await ok_json(await client.delete(file_url("user", name)))

    for response in (
        await client.get(f"{file_url('user', asked)}/history"),
        await client.get(f"{file_url('user', asked)}/diff"),
    ):
        problem = await expect_problem(response, 409, "other Unicode normalizations")
        assert ascii(first)[1:-1] in problem["detail"] and ascii(second)[1:-1] in problem["detail"]


async def test_v2_a_gone_name_matching_no_version_s_file_is_still_a_404(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent, NFD)
    await ok_json(await client.delete(file_url("user", NFD)))
    await expect_problem(await client.get(f"{file_url('user', 'cafe.md')}/diff"), 404, "")


async def test_a5_an_exact_spelling_wins_over_its_twin(client: Client, agent: AgentHome) -> None:
    write_topic(agent, NFD, "decomposed")
    write_topic(agent, NFC, "composed")
    for name, body in ((NFD, "decomposed"), (NFC, "composed")):
        topic = await ok_json(await client.get(file_url("user", name)))
        assert (topic["file"], topic["body"].strip()) == (name, body)


async def test_a5_two_files_equal_to_the_name_asked_are_a_conflict_naming_both(
    client: Client, agent: AgentHome
) -> None:
    # ộ: o + dot below + circumflex in canonical order, and ô + dot below; asked composed
    first, second = "o\u0323\u0302-notes.md", "\u00f4\u0323-notes.md"
    asked = unicodedata.normalize("NFC", first)
    assert asked not in (first, second) and unicodedata.normalize("NFC", second) == asked
    write_topic(agent, first)
    write_topic(agent, second)

    for response in (
        await client.get(file_url("user", asked)),
        await client.delete(file_url("user", asked)),
        await client.get(f"{file_url('user', asked)}/history"),
    ):
        problem = await expect_problem(response, 409, "other Unicode normalizations")
        assert ascii(first)[1:-1] in problem["detail"] and ascii(second)[1:-1] in problem["detail"]
    assert names(agent.user) == sorted([first, second])  # nothing deleted


async def test_a7_a_resolved_name_that_links_outside_the_root_is_never_read(
    client: Client, agent: AgentHome
) -> None:
    outside = agent.tmp / "outside.md"
    outside.write_text(TOPIC.format("secret outside"), encoding="utf-8")
    (agent.user / NFD).symlink_to(outside)

    for response in (
        await client.get(file_url("user", NFC)),
        await client.delete(file_url("user", NFC)),
    ):
        problem = await expect_problem(response, 404, "no topic file")
        assert "outside the memory root" in problem["detail"]
        assert "secret outside" not in str(problem)
    assert outside.exists() and (agent.user / NFD).is_symlink()


async def test_a5_a_name_matching_nothing_is_still_a_404(client: Client, agent: AgentHome) -> None:
    write_topic(agent, NFD)
    await expect_problem(await client.get(file_url("user", "cafe.md")), 404, "no topic file")


@pytest.mark.parametrize(("gone", "kept"), [(NFD, NFC), (NFC, NFD)], ids=["nfd-gone", "nfc-gone"])
async def test_v2_a_deleted_twin_asked_exactly_is_that_file_while_its_twin_is_on_disk(
    client: Client, agent: AgentHome, gone: str, kept: str
) -> None:
    """Both spellings written, one deleted: the deleted one, asked exactly as its versions
    held it, is that file in its history, at a version, in a diff and in its restore. Found:
    each answered for the twin still on disk, and the restore said it restored the deleted
    file while it brought nothing back."""
    write_topic(agent, gone, "deleted spelling")
    write_topic(agent, kept, "kept spelling")
    deleted = await ok_json(await client.delete(file_url("user", gone)))

    history = await ok_json(await client.get(f"{file_url('user', gone)}/history"))
    assert (history["file"], history["exists"]) == (gone, False)
    assert history["versions"][0]["change"] == "deleted"

    url = f"{file_url('user', gone)}/versions/{deleted['restoreVersion']}"
    at = await ok_json(await client.get(url))
    assert at["file"] == gone and "deleted spelling" in at["text"]

    diff = await ok_json(await client.get(f"{file_url('user', gone)}/diff"))
    assert diff["file"] == gone and "-deleted spelling" in diff["unified"]

    url = f"{file_url('user', gone)}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["file"] == gone
    assert (agent.user / gone).read_text(encoding="utf-8") == TOPIC.format("deleted spelling")
    assert (agent.user / kept).read_text(encoding="utf-8") == TOPIC.format("kept spelling")


async def test_v2_a_deleted_twin_s_restore_from_a_version_before_it_overwrites_no_twin(
    client: Client, agent: AgentHome
) -> None:
    """A version that held only the composed spelling is a 404 for its deleted decomposed twin,
    asked exactly: found, the restore answered for the composed file and wrote the old text
    over it, and reading that version answered with the twin's text."""
    write_topic(agent, NFC, "kept v1")
    first = (await checkpoint(client))["version"]
    write_topic(agent, NFC, "kept v2")
    write_topic(agent, NFD, "the twin")
    await checkpoint(client)
    await ok_json(await client.delete(file_url("user", NFD)))

    url = f"{file_url('user', NFD)}/restore"
    await expect_problem(await client.post(url, json={"version": first}), 404, "not in version")
    assert names(agent.user) == [NFC]
    assert (agent.user / NFC).read_text(encoding="utf-8") == TOPIC.format("kept v2")
    url = f"{file_url('user', NFD)}/versions/{first}"
    await expect_problem(await client.get(url), 404, "not in version")


async def test_v2_a_version_that_deleted_a_twin_is_a_404_for_it_not_its_twin_s_text(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent, NFD, "the twin")
    write_topic(agent, NFC, "kept")
    deleted = await ok_json(await client.delete(file_url("user", NFD)))

    url = f"{file_url('user', NFD)}/versions/{deleted['version']}"
    await expect_problem(await client.get(url), 404, "not in version")
    url = f"{file_url('user', NFC)}/versions/{deleted['version']}"
    assert "kept" in (await ok_json(await client.get(url)))["text"]


@pytest.mark.parametrize(("recorded", "rewritten"), [(NFC, NFD), (NFD, NFC)], ids=["nfc", "nfd"])
async def test_v2_a_note_rewritten_in_the_other_spelling_is_one_note_asked_either_way(
    client: Client, agent: AgentHome, recorded: str, rewritten: str
) -> None:
    """A note recorded in one spelling and rewritten on disk in the other (a Mac client, a
    sync), never both at once, is one note: asked in its old spelling, its history is the
    file on disk's and a restore of a version recorded before replaces that file's text.
    Found: its history said deleted while the read route returned the file, and the restore
    made a second file in the old spelling beside it."""
    write_topic(agent, recorded, "first")
    first = (await checkpoint(client))["version"]
    (agent.user / recorded).unlink()
    write_topic(agent, rewritten, "second")
    await checkpoint(client)

    for asked in (recorded, rewritten):
        history = await ok_json(await client.get(f"{file_url('user', asked)}/history"))
        assert (history["file"], history["exists"]) == (rewritten, True)
        at = await ok_json(await client.get(f"{file_url('user', asked)}/versions/{first}"))
        assert (at["file"], "first" in at["text"]) == (recorded, True)

    url = f"{file_url('user', recorded)}/restore"
    restored = await ok_json(await client.post(url, json={"version": first}))
    assert restored["file"] == rewritten
    assert names(agent.user) == [rewritten]
    assert (agent.user / rewritten).read_text(encoding="utf-8") == TOPIC.format("first")


async def test_v2_a_twin_never_recorded_is_no_version_of_the_twin_that_was(
    client: Client, agent: AgentHome
) -> None:
    """Both spellings on disk, only one of them ever recorded: a version read or a restore of
    the other, asked exactly, is a 404, never the recorded file's text read for it or written
    over it (found: the decomposed file took the composed one's old text)."""
    write_topic(agent, NFC, "the composed file")
    first = (await checkpoint(client))["version"]
    write_topic(agent, NFD, "a different file")

    url = f"{file_url('user', NFD)}/versions/{first}"
    await expect_problem(await client.get(url), 404, "not in version")
    url = f"{file_url('user', NFD)}/restore"
    await expect_problem(await client.post(url, json={"version": first}), 404, "not in version")
    assert (agent.user / NFD).read_text(encoding="utf-8") == TOPIC.format("a different file")
    assert (agent.user / NFC).read_text(encoding="utf-8") == TOPIC.format("the composed file")


TWIN_LINES = {NFC: "- [Café composed]({0}) — composed\n", NFD: "- [Café decomposed]({0}) — NFD\n"}
"""Each twin's own index line, linking it in its own spelling."""


def twins_index(agent: AgentHome) -> str:
    """Both twins and ``other.md`` on disk, each linked by a line of its own; the index text."""
    write_topic(agent, NFC, "composed")
    write_topic(agent, NFD, "decomposed")
    write_topic(agent, "other.md")
    text = f"{TWIN_LINES[NFC].format(NFC)}- [Other](other.md)\n{TWIN_LINES[NFD].format(NFD)}"
    (agent.user / layout.INDEX_FILE).write_text(text, encoding="utf-8")
    return text


@pytest.mark.parametrize(("gone", "kept"), [(NFD, NFC), (NFC, NFD)], ids=["nfd-gone", "nfc-gone"])
async def test_v2_undoing_a_twin_s_delete_puts_back_its_file_and_its_index_line_as_they_were(
    client: Client, agent: AgentHome, gone: str, kept: str
) -> None:
    """Both spellings on disk, each linked by a line of its own: the delete of one takes its
    file and its line alone, and its undo (the restore of the version the delete names) puts
    both back exactly as they were, the twin's line untouched throughout. Found: the file came
    back and its line did not."""
    before = twins_index(agent)
    index = agent.user / layout.INDEX_FILE

    deleted = await ok_json(await client.delete(file_url("user", gone)))
    assert deleted["removedIndexLines"] == [TWIN_LINES[gone].format(gone).rstrip("\n")]
    assert TWIN_LINES[kept].format(kept) in index.read_text(encoding="utf-8")

    url = f"{file_url('user', gone)}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == [TWIN_LINES[gone].format(gone).rstrip("\n")]
    assert index.read_text(encoding="utf-8") == before
    assert (agent.user / gone).read_text(encoding="utf-8") == TOPIC.format(
        "decomposed" if gone == NFD else "composed"
    )


@pytest.mark.parametrize(("gone", "kept"), [(NFD, NFC), (NFC, NFD)], ids=["nfd-gone", "nfc-gone"])
async def test_v2_restoring_the_index_before_a_twin_s_line_was_removed_puts_that_line_back(
    client: Client, agent: AgentHome, gone: str, kept: str
) -> None:
    """Only ``MEMORY.md`` changed: one twin's line removed by hand, both files kept. Restoring
    the index of before puts that line back where it stood (its twin's line links another
    file, so it never stands for it). Found: nothing came back, "already indexed"."""
    before = twins_index(agent)
    index = agent.user / layout.INDEX_FILE
    first = (await checkpoint(client))["version"]
    index.write_text(before.replace(TWIN_LINES[gone].format(gone), ""), encoding="utf-8")
    await checkpoint(client)

    url = f"{file_url('user', layout.INDEX_FILE)}/restore"
    restored = await ok_json(await client.post(url, json={"version": first}))

    assert restored["indexLinesAdded"] == [TWIN_LINES[gone].format(gone).rstrip("\n")]
    assert index.read_text(encoding="utf-8") == before
    assert TWIN_LINES[kept].format(kept) in before


@pytest.mark.parametrize(("gone", "kept"), [(NFD, NFC), (NFC, NFD)], ids=["nfd-gone", "nfc-gone"])
async def test_v2_undoing_a_twin_s_rename_puts_back_its_old_name_and_its_line(
    client: Client, agent: AgentHome, gone: str, kept: str
) -> None:
    """One twin renamed (``café.md`` → ``cafe-notes.md``, its line following it), then the
    rename undone as the page does (its old name restored from the version before): the old
    file and its line come back where the line stood, its twin's line untouched, the new
    file and its line kept."""
    before = twins_index(agent)
    index = agent.user / layout.INDEX_FILE
    first = (await checkpoint(client))["version"]
    (agent.user / gone).rename(agent.user / "cafe-notes.md")
    renamed_line = TWIN_LINES[gone].format("cafe-notes.md")
    index.write_text(before.replace(TWIN_LINES[gone].format(gone), renamed_line), "utf-8")
    await checkpoint(client)

    url = f"{file_url('user', gone)}/restore"
    restored = await ok_json(await client.post(url, json={"version": first}))

    assert restored["indexLinesAdded"] == [TWIN_LINES[gone].format(gone).rstrip("\n")]
    text = index.read_text(encoding="utf-8")
    assert renamed_line in text
    assert text.replace(renamed_line, "") == before
    assert TWIN_LINES[kept].format(kept) in before
    assert names(agent.user) == sorted([layout.INDEX_FILE, "cafe-notes.md", NFC, NFD, "other.md"])
