"""V-2: a file's versions, the file at a version, diffs, a scope's changes, recently deleted
files, and restore (a deleted file, an overwritten one, the index) as a new version."""

from __future__ import annotations

import asyncio
import codecs
import os
import stat
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from memory_api.store.history.recorder import Attribution, Recorded, ScopeHistories
from memory_core import layout

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    ok_json,
    write_topic,
)
from tests.api.test_v1_versions import LINE, TOPIC, changes, checkpoint, seed
from tests.support.read_only_mount import read_only

OTHER_LINE = "- [Uses uv](uses-uv.md) — uv for Python"


def history_url(key: str, name: str, tail: str) -> str:
    """A file's history route: ``…/scopes/{key}/files/{name}/{tail}``."""
    return f"{memory_url()}/scopes/{key}/files/{quote(name, safe='')}/{tail}"


def write(scope: Path, name: str, text: str) -> None:
    (scope / name).write_text(text, encoding="utf-8")


async def restore(client: Client, name: str, version: str, key: str = "user") -> dict[str, Any]:
    response = await client.post(history_url(key, name, "restore"), json={"version": version})
    return await ok_json(response)


async def test_v2_a_files_versions_newest_first_with_change_size_and_who(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    first = (await checkpoint(client))["version"]
    write(agent.user, TOPIC, "---\ndescription: two\n---\nsecond text\n")
    second = (await checkpoint(client))["version"]
    write_topic(agent.user, "unrelated.md")
    await checkpoint(client)
    await ok_json(await client.delete(file_url("user", TOPIC)))

    history = await ok_json(await client.get(history_url("user", TOPIC, "history")))

    assert [(v["change"], v["size"]) for v in history["versions"]] == [
        ("deleted", None),
        ("modified", len("---\ndescription: two\n---\nsecond text\n")),
        ("added", len(f"---\ndescription: {TOPIC}\n---\nbody\n")),
    ]
    assert [v["version"] for v in history["versions"]][1:] == [second, first]
    assert history["versions"][0]["author"]["source"] == "delete"
    assert history["exists"] is False
    assert history["unrecorded"] is False
    assert history["more"] is False


async def test_v2_history_pages_with_limit_and_before(client: Client, agent: AgentHome) -> None:
    seed(agent)
    made = []
    for number in range(5):
        write(agent.user, TOPIC, f"version {number}\n")
        made.append((await checkpoint(client))["version"])

    page = await ok_json(
        await client.get(history_url("user", TOPIC, "history"), params={"limit": "2"})
    )
    assert [v["version"] for v in page["versions"]] == made[::-1][:2]
    assert page["more"] is True
    rest = await ok_json(
        await client.get(
            history_url("user", TOPIC, "history"),
            params={"limit": "10", "before": page["versions"][-1]["version"]},
        )
    )
    assert [v["version"] for v in rest["versions"]] == made[::-1][2:]
    assert rest["more"] is False


async def test_v2_history_says_when_the_file_on_disk_is_not_recorded_yet(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    await checkpoint(client)
    write(agent.user, TOPIC, "written by the agent, no version yet\n")

    history = await ok_json(await client.get(history_url("user", TOPIC, "history")))

    assert history["exists"] is True
    assert history["unrecorded"] is True
    assert history["unrecordable"] is None  # a checkpoint records it


async def test_v2_history_says_why_the_file_on_disk_cannot_be_kept_as_it_is(
    client: Client, agent: AgentHome
) -> None:
    """Q-2b: a file over its 1 MiB read cap is there, differs from its newest version, and no
    checkpoint can take it: its history says why, in the words of its listing row."""
    seed(agent)
    await checkpoint(client)
    write(agent.user, TOPIC, "x" * (1 << 20) + "\n")
    await checkpoint(client)  # takes every other file, never this one

    history = await ok_json(await client.get(history_url("user", TOPIC, "history")))

    assert (history["exists"], history["unrecorded"]) == (True, True)
    assert history["unrecordable"] == "it is larger than 1 MiB (its read cap)"
    assert len(history["versions"]) == 1
    write(agent.user, TOPIC, "small again\n")
    history = await ok_json(await client.get(history_url("user", TOPIC, "history")))
    assert (history["unrecorded"], history["unrecordable"]) == (True, None)


async def test_v2_the_file_at_a_version_with_credentials_masked(
    client: Client, agent: AgentHome
) -> None:
    secret = "AKIA" + "Z7Q4XK2PLM8N3RTV"
    write(agent.user, TOPIC, f"---\nname: prefers-pnpm\ndescription: pnpm\n---\nkey {secret}\n")
    version = (await checkpoint(client))["version"]
    write(agent.user, TOPIC, "gone\n")
    await checkpoint(client)

    old = await ok_json(await client.get(history_url("user", TOPIC, f"versions/{version}")))

    assert old["version"] == version
    assert old["name"] == "prefers-pnpm"
    assert old["description"] == "pnpm"
    assert secret not in old["text"] and secret not in old["body"]
    assert old["masked"] is True
    assert old["body"].startswith("key [masked:")
    revealed = await ok_json(
        await client.get(
            history_url("user", TOPIC, f"versions/{version}"), params={"reveal": "true"}
        )
    )
    assert revealed["body"] == f"key {secret}"
    assert revealed["masked"] is False


async def test_v2_a_diff_as_unified_text_and_hunks(client: Client, agent: AgentHome) -> None:
    write(agent.user, TOPIC, "a\nb\nc\n")
    first = (await checkpoint(client))["version"]
    write(agent.user, TOPIC, "a\nB\nc\nd\n")
    second = (await checkpoint(client))["version"]

    diff = await ok_json(await client.get(history_url("user", TOPIC, "diff")))

    assert (diff["fromVersion"], diff["toVersion"]) == (first, second)
    assert diff["unified"] == (
        f"--- a/{TOPIC}\n+++ b/{TOPIC}\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n"
    )
    assert [(line["kind"], line["text"]) for line in diff["hunks"][0]["lines"]] == [
        ("context", "a"),
        ("removed", "b"),
        ("added", "B"),
        ("context", "c"),
        ("added", "d"),
    ]
    created = await ok_json(
        await client.get(history_url("user", TOPIC, "diff"), params={"to": first})
    )
    assert created["fromVersion"] is None
    assert created["unified"].startswith("--- /dev/null\n")


async def test_v2_a_files_diff_by_default_is_what_its_own_newest_version_changed(
    client: Client, agent: AgentHome
) -> None:
    """The scope's newest version often does not touch the file: the default diff is still
    the file's newest change, never an empty diff of a version that left it alone."""
    write(agent.user, TOPIC, "a\n")
    await checkpoint(client)
    write(agent.user, TOPIC, "b\n")
    changed = (await checkpoint(client))["version"]
    write(agent.user, "uses-uv.md", "another file\n")
    await checkpoint(client)

    diff = await ok_json(await client.get(history_url("user", TOPIC, "diff")))

    assert diff["toVersion"] == changed
    assert diff["unified"].endswith("-a\n+b\n")
    response = await client.get(history_url("user", "never-written.md", "diff"))
    await expect_problem(response, 404, "never-written.md")


async def test_v2_a_scopes_changes_since_a_time_or_a_version(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    first = (await checkpoint(client))["version"]
    write_topic(agent.user, "uses-uv.md")
    second = (await checkpoint(client))["version"]

    after = await changes(client, after=first)
    assert [v["version"] for v in after] == [second]
    assert after[0]["files"] == [{"file": "uses-uv.md", "change": "added"}]
    future = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
    assert await changes(client, since=future) == []
    assert len(await changes(client, since="2020-01-01T00:00:00Z")) == 2
    await expect_problem(
        await client.get(f"{memory_url()}/scopes/user/changes", params={"since": "yesterday"}),
        400,
        "since",
    )


async def test_v2_undo_a_delete_brings_back_the_file_and_its_index_line(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    original = (agent.user / TOPIC).read_bytes()
    await ok_json(await client.delete(file_url("user", TOPIC)))
    # another writer adds a line to the index after the delete
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write(OTHER_LINE + "\n")

    deleted = await ok_json(await client.get(f"{memory_url()}/scopes/user/deleted"))
    assert [item["file"] for item in deleted["files"]] == [TOPIC]
    entry = deleted["files"][0]
    assert entry["author"]["source"] == "delete"

    result = await restore(client, TOPIC, entry["restoreVersion"])

    assert (agent.user / TOPIC).read_bytes() == original
    assert result["indexLinesAdded"] == [LINE]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == (
        f"# User memory\n\n{LINE}\n{OTHER_LINE}\n"  # back where it stood; the new line kept
    )
    newest = (await changes(client))[0]
    assert newest["version"] == result["version"]
    assert newest["author"]["source"] == "restore"
    assert newest["restoredFrom"] == entry["restoreVersion"]
    assert (await ok_json(await client.get(f"{memory_url()}/scopes/user/deleted")))["files"] == []


async def test_v2_undo_puts_the_index_line_back_where_it_stood_not_at_the_end(
    client: Client, agent: AgentHome
) -> None:
    lines = [f"- [Note {n}](note-{n}.md) — note {n}" for n in range(1, 6)]
    for number in range(1, 6):
        write_topic(agent.user, f"note-{number}.md")
    before = "# User memory\n\n" + "\n".join(lines) + "\n\n## Elsewhere\n- [Far](far.md)\n"
    write(agent.user, layout.INDEX_FILE, before)
    deleted = await ok_json(await client.delete(file_url("user", "note-3.md")))
    with (agent.user / layout.INDEX_FILE).open("a", encoding="utf-8") as index:
        index.write(OTHER_LINE + "\n")  # written after the delete: stays where it was put

    result = await restore(client, "note-3.md", deleted["restoreVersion"])

    assert result["indexLinesAdded"] == [lines[2]]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == before + (
        f"{OTHER_LINE}\n"
    )


async def test_v2_undo_puts_the_line_after_the_nearest_neighbour_still_there(
    client: Client, agent: AgentHome
) -> None:
    for name in ("one.md", "two.md", "three.md"):
        write_topic(agent.user, name)
    write(agent.user, layout.INDEX_FILE, "- [One](one.md)\n- [Two](two.md)\n- [Three](three.md)\n")
    deleted = await ok_json(await client.delete(file_url("user", "two.md")))
    await ok_json(await client.delete(file_url("user", "one.md")))

    await restore(client, "two.md", deleted["restoreVersion"])

    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == (
        "- [Two](two.md)\n- [Three](three.md)\n"  # before the neighbour below, its above gone
    )


async def test_v2_an_index_that_cannot_take_the_line_is_named_with_the_line_to_add_by_hand(
    client: Client, agent: AgentHome
) -> None:
    """The file comes back; an index the service may not rewrite (UTF-16 whose bytes do not
    decode exactly) is left as it is, and the answer says so and which line to add, never "no
    line added"."""
    seed(agent)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    index = agent.user / layout.INDEX_FILE
    written = codecs.BOM_UTF16_LE + "- [Old](old.md) o\n".encode("utf-16-le") + b"\x00"
    index.write_bytes(written)

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert (agent.user / TOPIC).exists()
    assert index.read_bytes() == written
    assert result["indexLinesAdded"] == []
    assert result["indexLinesNotAdded"] == [LINE]
    assert "decode exactly" in result["indexProblem"], result["indexProblem"]


@pytest.mark.parametrize(
    "written",
    [
        b"- [Old](old.md) o\r\n%s\n- [New](new.md) n\r",
        b"- [Old](old.md) o\n%s\r- [New](new.md) n\r\n",
        b"- [Old](old.md) o\r%s\r\n- [New](new.md) n\n",
        b"- [Old](old.md) o\r\n%s",
        b"- [Old](old.md) o\r%s",
        b"- [Old](old.md) o\n%s\r\n- [New](new.md) n\n",
    ],
    ids=[
        "lf-among-crlf-and-cr",
        "cr-among-lf-and-crlf",
        "crlf-among-cr-and-lf",
        "crlf-last-line-without-an-end",
        "cr-last-line-without-an-end",
        "the-only-crlf-line",
    ],
)
async def test_v2_undo_of_a_delete_in_an_index_of_mixed_line_ends_gives_the_index_back(
    client: Client, agent: AgentHome, written: bytes
) -> None:
    """A delete prunes an index whose lines end in more than one way (CR alone, CRLF, LF);
    its undo puts the line back where it stood with the end it had, byte for byte (was: the
    delete pruned it, the undo refused "CR alone beside LF" and listed the line by hand; a last
    line without an end, whose delete leaves no line end to tell the index's by, came back
    with LF after each line)."""
    seed(agent)
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(written % LINE.encode())
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    assert deleted["removedIndexLines"] == [LINE]

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert result["indexLinesAdded"] == [LINE] and result["indexProblem"] is None
    assert index.read_bytes() == written % LINE.encode()


MINE = "- [Mine](mine.md) written on Windows"


@pytest.mark.parametrize(
    ("written", "since"),
    [
        (f"{LINE}\r\n{OTHER_LINE}\r\n{OTHER_LINE}\n<!--\r\n{LINE}\r\n-->\r\n", None),
        (f"{LINE}\n{OTHER_LINE}\n<!--\n{LINE}\n-->\n", f"{MINE}\r\n"),
    ],
    ids=["kept-lines-alike", "a-line-added-since"],
)
async def test_v2_undo_of_a_delete_keeps_every_kept_line_beside_a_commented_copy(
    client: Client, agent: AgentHome, written: str, since: str | None
) -> None:
    """The index keeps a commented-out copy of the line the delete takes (it links nothing):
    the undo puts the line back where it stood, and every line kept before that copy (two
    alike, ending in CRLF and LF; a line written on Windows since the delete) keeps its end,
    byte for byte (was: the line put back was taken for the copy, and the lines kept before it
    took the most common end: ``B\\nB\\n``; the Windows line LF)."""
    seed(agent)
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(written.encode())
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    assert deleted["removedIndexLines"] == [LINE]
    if since is not None:  # a line of the user's, just before the comment
        index.write_bytes(index.read_bytes().replace(b"<!--", since.encode() + b"<!--", 1))
        written = written.replace("<!--", since + "<!--", 1)

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert result["indexLinesAdded"] == [LINE] and result["indexProblem"] is None
    assert index.read_bytes() == written.encode()


async def test_v2_undo_of_a_delete_gives_a_joined_line_its_entry_back_among_lf_and_crlf(
    client: Client, agent: AgentHome
) -> None:
    """A line of entries joined by U+2028 that opens a comment across lines, in an index whose
    lines end in LF and CRLF: the delete takes the entry, its undo puts it back into that line,
    the index byte for byte as it was (was: refused, 'has lines ending in more than one way,
    not kept in order': the line the undo rewrote in place was not found as the index's)."""
    seed(agent)
    index = agent.user / layout.INDEX_FILE
    written = (
        f"- [Old](old.md) o\u2028{LINE} <!-- was:\n- [Gone](gone.md)\n-->\n{OTHER_LINE}\r\n"
    ).encode()
    index.write_bytes(written)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    assert deleted["removedIndexLines"] == [f"{LINE} <!-- was:"]

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert result["indexLinesAdded"] == [f"{LINE} <!-- was:"] and result["indexProblem"] is None
    assert index.read_bytes() == written


async def test_v2_undo_of_a_delete_puts_back_every_line_that_linked_the_file(
    client: Client, agent: AgentHome
) -> None:
    """A delete prunes every index line linking the file; its undo puts back each of them
    where it stood (was: only the first; the second counted as "already indexed" by it)."""
    seed(agent)
    index = agent.user / layout.INDEX_FILE
    again = f"- [Rollback]({TOPIC}#rollback) — how to undo it"
    written = f"{LINE}\n{OTHER_LINE}\n{again}\n".encode()
    index.write_bytes(written)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    assert deleted["removedIndexLines"] == [LINE, again]

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert result["indexLinesAdded"] == [LINE, again]
    assert index.read_bytes() == written


async def test_v2_an_index_that_takes_the_line_has_no_problem_to_report(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    result = await restore(client, TOPIC, deleted["restoreVersion"])
    assert result["indexLinesAdded"] == [LINE]
    assert result["indexLinesNotAdded"] == [] and result["indexProblem"] is None


async def test_v2_restore_an_overwritten_file_keeps_the_overwrite_as_a_version(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    good = (await checkpoint(client))["version"]
    good_text = (agent.user / TOPIC).read_text(encoding="utf-8")
    # the agent overwrites the file and drops its index line; nothing records it
    write(agent.user, TOPIC, "---\ndescription: clobbered\n---\noops\n")
    write(agent.user, layout.INDEX_FILE, f"# User memory\n\n{OTHER_LINE}\n")

    result = await restore(client, TOPIC, good)

    assert (agent.user / TOPIC).read_text(encoding="utf-8") == good_text
    assert result["indexLinesAdded"] == [LINE]
    assert (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8") == (
        f"# User memory\n\n{LINE}\n{OTHER_LINE}\n"
    )
    restoring, found, _ = await changes(client)
    assert restoring["author"]["source"] == "restore"
    assert found["author"]["source"] == "found"  # the overwrite is a version: undoable too
    clobbered = await ok_json(
        await client.get(history_url("user", TOPIC, f"versions/{found['version']}"))
    )
    assert clobbered["body"] == "oops"


async def test_v2_restore_adds_no_line_where_the_index_links_the_file_already(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    good = (await checkpoint(client))["version"]
    write(agent.user, TOPIC, "changed\n")
    write(agent.user, layout.INDEX_FILE, f"- [Pnpm, reworded]({TOPIC})\n")

    result = await restore(client, TOPIC, good)

    assert result["indexLinesAdded"] == []
    assert (agent.user / layout.INDEX_FILE).read_text() == f"- [Pnpm, reworded]({TOPIC})\n"


async def test_v2_restoring_the_index_brings_lost_lines_back_and_keeps_new_ones(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    good = (await checkpoint(client))["version"]
    write(agent.user, layout.INDEX_FILE, f"{OTHER_LINE}\n")  # the agent rewrote it, losing LINE

    result = await restore(client, layout.INDEX_FILE, good)

    assert result["indexLinesAdded"] == [LINE]
    assert (agent.user / layout.INDEX_FILE).read_text() == f"{OTHER_LINE}\n{LINE}\n"


async def test_v2_restore_to_the_same_content_changes_nothing(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    good = (await checkpoint(client))["version"]

    result = await restore(client, TOPIC, good)

    assert result == {
        "file": TOPIC,
        "restoredFrom": good,
        "version": None,
        "indexLinesAdded": [],
        "indexLinesNotAdded": [],
        "indexProblem": None,
        "unrecorded": None,
    }


async def test_v2_a_restore_the_history_could_not_record_says_so_never_nothing_changed(
    client: Client, agent: AgentHome
) -> None:
    """The file came back but its version could not be written (here a lock git cannot take,
    as a crash leaves it; a full disk alike): the answer said ``version: null``, which means
    "nothing had to change", and the page toasted "already holds that version: nothing to
    restore". It says the restore is not recorded yet, and why; the next record takes it."""
    seed(agent)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    history = agent.data_dir / "agents" / agent.id / "agent_state" / "history" / "user.git"
    lock = history / "refs" / "heads" / "main.lock"
    lock.mkdir()

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert (agent.user / TOPIC).exists() and result["indexLinesAdded"] == [LINE]
    assert result["version"] is None
    assert "cannot lock ref" in result["unrecorded"], result
    lock.rmdir()
    recorded = await checkpoint(client)
    assert {"file": TOPIC, "change": "added"} in recorded["files"], recorded


async def test_v2_a_delete_the_history_could_not_record_says_so_never_no_history(
    client: Client, agent: AgentHome
) -> None:
    """The file is gone but the delete's version could not be written (a lock git cannot
    take): ``version`` and ``restoreVersion`` null alone read as "this service keeps no
    history". ``unrecorded`` says why; the version before still holds the file, and the next
    record takes the delete."""
    seed(agent)
    before = (await checkpoint(client))["version"]
    history = agent.data_dir / "agents" / agent.id / "agent_state" / "history" / "user.git"
    lock = history / "refs" / "heads" / "main.lock"
    lock.mkdir()

    result = await ok_json(await client.delete(file_url("user", TOPIC)))

    assert not (agent.user / TOPIC).exists() and result["removedIndexLines"] == [LINE]
    assert result["version"] is None and result["restoreVersion"] is None
    assert "cannot lock ref" in result["unrecorded"], result
    lock.rmdir()
    recorded = await checkpoint(client)
    assert {"file": TOPIC, "change": "deleted"} in recorded["files"], recorded
    restored = await restore(client, TOPIC, before)
    assert (agent.user / TOPIC).exists() and restored["version"] is not None


async def test_v2_versions_are_checked_and_belong_to_their_scope(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    user_version = (await checkpoint(client))["version"]
    _, key = agent.workspace("shop", corpus="coding-agent-workspace")
    await checkpoint(client, key)

    await expect_problem(
        await client.post(history_url("user", TOPIC, "restore"), json={"version": "HEAD"}),
        400,
        "version",
    )
    await expect_problem(
        await client.get(history_url(key, TOPIC, f"versions/{user_version}")),
        404,
        "no version",
    )
    await expect_problem(
        await client.get(history_url("user", "absent.md", f"versions/{user_version}")),
        404,
        "not in version",
    )
    await expect_problem(
        await client.get(history_url("user", ".workspace", "history")), 400, "file"
    )
    await expect_problem(
        await client.get(history_url("user", TOPIC, "history"), params={"limit": "0"}),
        400,
        "limit",
    )


async def test_v2_a_deletes_answer_names_the_version_to_undo_it_from(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    original = (agent.user / TOPIC).read_bytes()

    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    await restore(client, TOPIC, deleted["restoreVersion"])

    assert (agent.user / TOPIC).read_bytes() == original
    assert deleted["version"] == (await changes(client))[1]["version"]


async def test_v2_a_write_between_the_record_and_the_restore_is_kept_and_answered_409(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(agent)
    good = (await checkpoint(client))["version"]
    write(agent.user, TOPIC, "overwritten\n")
    record = ScopeHistories.record

    def record_then_the_agent_writes(
        self: ScopeHistories, agent_id: str, scope: Path, who: Attribution, **options: Any
    ) -> Recorded | None:
        recorded = record(self, agent_id, scope, who, **options)
        if who.source == "found":  # the agent writes right after what was there is recorded
            write(scope, TOPIC, "the agent's newest text\n")
        return recorded

    monkeypatch.setattr(ScopeHistories, "record", record_then_the_agent_writes)
    response = await client.post(history_url("user", TOPIC, "restore"), json={"version": good})
    await expect_problem(response, 409, "changed while it was restored")
    monkeypatch.setattr(ScopeHistories, "record", record)

    assert (agent.user / TOPIC).read_text(encoding="utf-8") == "the agent's newest text\n"
    assert (await checkpoint(client))["version"] is not None  # and it is kept as a version


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("fifo", "is a FIFO, not a regular file; nothing was written"),
        ("symlink", "is a symlink, not a regular file; nothing was written"),
        ("folder", "is a folder, not a regular file; nothing was written"),
    ],
)
async def test_v2_restoring_over_a_name_taken_all_along_says_what_took_it(
    client: Client, agent: AgentHome, kind: str, said: str
) -> None:
    """A FIFO, symlink or folder standing at a deleted file's name is not something that
    "appeared while it was restored": the 409 names it, and it is left as it is."""
    seed(agent)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    path = agent.user / TOPIC
    elsewhere = agent.tmp / "elsewhere.md"
    elsewhere.write_text("not memory\n", encoding="utf-8")
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        path.symlink_to(elsewhere)
    else:
        path.mkdir()

    response = await client.post(
        history_url("user", TOPIC, "restore"), json={"version": deleted["restoreVersion"]}
    )

    body = await expect_problem(response, 409, said)
    assert "appeared" not in body["detail"]
    assert repr(TOPIC) in body["detail"]
    assert elsewhere.read_text(encoding="utf-8") == "not memory\n"
    taken = path.lstat().st_mode
    assert {"fifo": stat.S_ISFIFO, "symlink": stat.S_ISLNK, "folder": stat.S_ISDIR}[kind](taken)


async def test_v2_a_file_written_at_a_deleted_files_name_during_its_restore_is_kept_and_named(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(agent)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    record = ScopeHistories.record

    def record_then_the_agent_writes(
        self: ScopeHistories, agent_id: str, scope: Path, who: Attribution, **options: Any
    ) -> Recorded | None:
        recorded = record(self, agent_id, scope, who, **options)
        if who.source == "found":
            write(scope, TOPIC, "the agent's newest text\n")
        return recorded

    monkeypatch.setattr(ScopeHistories, "record", record_then_the_agent_writes)
    response = await client.post(
        history_url("user", TOPIC, "restore"), json={"version": deleted["restoreVersion"]}
    )
    await expect_problem(response, 409, "is a file the history does not hold (written meanwhile")
    assert (agent.user / TOPIC).read_text(encoding="utf-8") == "the agent's newest text\n"


async def test_v2_a_restore_onto_a_read_only_file_system_names_it_and_writes_nothing(
    client: Client, agent: AgentHome
) -> None:
    """The scope's folder on a file system mounted read-only: the restore is refused naming the
    file, the kernel's reason and its remedy (it answered "the data dir could not be used",
    naming neither the file nor what to do)."""
    seed(agent)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    with read_only(agent.user):
        response = await client.post(
            history_url("user", TOPIC, "restore"), json={"version": deleted["restoreVersion"]}
        )
        body = await expect_problem(response, 503, f"{TOPIC!r} was not restored")
        assert "(Read-only file system" in body["detail"]
        assert "mount the file system holding it read-write" in body["detail"]
        assert "nothing was written" in body["detail"]
        assert not (agent.user / TOPIC).exists()
    assert (await restore(client, TOPIC, deleted["restoreVersion"]))["file"] == TOPIC


async def test_v2_a_folder_swapped_while_the_file_is_written_is_409_not_503(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scope's folder replaced (by a symlink or a file) just as the restored file is
    created in it: ``FolderSwapped`` is an ``OSError``, and was answered as a disk refusing
    the file (503, "give the account access"); it is the conflict it is (409), nothing
    written."""
    from memory_api.store.containment import FolderSwapped
    from memory_api.store.history import restore as restoring

    seed(agent)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))

    def swapped(path: Path, data: bytes, **_: object) -> bool:
        raise FolderSwapped(path.parent.name)

    monkeypatch.setattr(restoring, "create_new_bytes", swapped)
    response = await client.post(
        history_url("user", TOPIC, "restore"), json={"version": deleted["restoreVersion"]}
    )
    body = await expect_problem(response, 409, "the scope's folder was replaced")
    assert "nothing was written" in body["detail"]
    assert not (agent.user / TOPIC).exists()


def _index_kept_under_another_name(scope: Path, written: bytes) -> None:
    """``MEMORY.md`` made a symlink to ``index-kept.md`` of its own scope, holding ``written``."""
    index = scope / layout.INDEX_FILE
    index.unlink()
    (scope / "index-kept.md").write_bytes(written)
    index.symlink_to("index-kept.md")


@pytest.mark.parametrize(
    "linked", ["before the delete", "after the delete", "before the delete, a file again since"]
)
async def test_v2_undo_of_a_delete_through_an_index_that_links_to_a_file_of_its_scope(
    client: Client, agent: AgentHome, linked: str
) -> None:
    """``MEMORY.md`` a symlink to a file of its own scope (an index kept under another name):
    the undo of a delete puts the line back through the link, whether the delete pruned the
    index through the link (the version holds it under the file's own name) or pruned a
    regular ``MEMORY.md`` made a link since (the version holds ``MEMORY.md``), or the delete
    pruned it through the link and the user moved ``index-kept.md`` back to ``MEMORY.md``
    since (the index the delete pruned is read from the file the delete changed; the line
    goes back into the regular file). Was: the restore looked for the index under one name
    only (the last case: only the link as it is now), found none and answered calmly that no
    line was to be added."""
    seed(agent)
    index = agent.user / layout.INDEX_FILE
    written = f"{LINE}\n{OTHER_LINE}\n".encode()
    index.write_bytes(written)
    if linked.startswith("before the delete"):
        await checkpoint(client)
        _index_kept_under_another_name(agent.user, written)
        await checkpoint(client)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    assert deleted["removedIndexLines"] == [LINE]
    if linked == "after the delete":
        _index_kept_under_another_name(agent.user, index.read_bytes())
    if linked.endswith("a file again since"):
        index.unlink()
        (agent.user / "index-kept.md").rename(index)
        await checkpoint(client)

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert result["indexLinesAdded"] == [LINE] and result["indexProblem"] is None
    if linked.endswith("a file again since"):
        assert not index.is_symlink() and index.read_bytes() == written
    else:
        assert index.is_symlink() and (agent.user / "index-kept.md").read_bytes() == written


@pytest.mark.parametrize("since", ["the file written and indexed again", "the index written anew"])
async def test_v2_undo_of_a_delete_keeps_what_was_written_since_byte_for_byte(
    client: Client, agent: AgentHome, since: str
) -> None:
    """After the delete the user wrote the file again with a line of their own for it (CRLF),
    or wrote a new index of their own: the undo adds no second line for a file the index
    links already, and every line written since stays byte for byte (V-2). The first case
    guards what undo already did; the second, that a line put back into an index written
    anew ends as that index's lines end (was: one LF line in a CRLF index)."""
    seed(agent)
    index = agent.user / layout.INDEX_FILE
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    newer = f"- [Pnpm again]({TOPIC}) — newer\r\n".encode()
    if since == "the file written and indexed again":
        write(agent.user, TOPIC, "---\ndescription: again\n---\nnew body\n")
        now = index.read_bytes() + newer
    else:
        now = b"# Mine\r\n" + OTHER_LINE.encode() + b"\r\n"
    index.write_bytes(now)

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    if since == "the file written and indexed again":
        assert result["indexLinesAdded"] == [] and index.read_bytes() == now
    else:
        assert result["indexLinesAdded"] == [LINE]
        assert index.read_bytes() == now + f"{LINE}\r\n".encode()


async def test_v2_two_undos_of_one_delete_at_once_put_its_line_back_once(
    client: Client, agent: AgentHome
) -> None:
    """A guard of what undo already does: two requests undo the same delete at once; they
    run one after the other under the scope's lock; the first brings the file and its line
    back, the second finds them there and changes nothing (no torn file, no line twice, none
    lost)."""
    seed(agent)
    before = (agent.user / layout.INDEX_FILE).read_bytes()
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    url = history_url("user", TOPIC, "restore")
    body = {"version": deleted["restoreVersion"]}

    answers = await asyncio.gather(client.post(url, json=body), client.post(url, json=body))

    results = [await ok_json(answer) for answer in answers]
    assert sorted(len(result["indexLinesAdded"]) for result in results) == [0, 1]
    assert sorted(result["version"] is None for result in results) == [False, True]
    assert (agent.user / layout.INDEX_FILE).read_bytes() == before


async def test_v2_an_index_made_a_link_to_a_file_of_its_scope_is_never_deleted_in_its_history(
    client: Client, agent: AgentHome
) -> None:
    """``MEMORY.md`` made a symlink to a file of its own scope (the index kept under another
    name, read and merged through the link): its History says it is there, never "deleted"
    (was: the record took the link for the index's delete, and the page said "Not in the
    memory now"), and says where its text is recorded: what is there now is recorded once
    that file's is (written through the link since), and a page of one version is its last."""
    seed(agent)
    await checkpoint(client)
    _index_kept_under_another_name(agent.user, (agent.user / layout.INDEX_FILE).read_bytes())
    await checkpoint(client)
    (agent.user / layout.INDEX_FILE).write_text(f"# Edited through the link\n\n{LINE}\n")
    await checkpoint(client)

    url = history_url("user", layout.INDEX_FILE, "history")
    history = await ok_json(await client.get(url))
    page = await ok_json(await client.get(url, params={"limit": "1"}))

    assert [version["change"] for version in history["versions"]] == ["added"]
    assert history["exists"] is True and history["unrecorded"] is False
    assert "index-kept.md" in history["unrecordable"]
    assert [version["change"] for version in page["versions"]] == ["added"]
    assert page["more"] is False


async def test_v2_an_index_linked_to_a_file_no_version_holds_is_not_said_recorded_there(
    client: Client, agent: AgentHome
) -> None:
    """``MEMORY.md`` a symlink to ``kept.txt`` of its scope (no memory file: the history never
    records it) is no index kept under another name: its History says what it said before such
    links were read (not there, its regular file deleted), never that versions hold its text
    (none does), and an undo of a delete writes no line into it from a ``MEMORY.md`` of before
    the link. Was: shown as linked "whose versions hold its text", and the undo wrote the line
    of the index's last regular version into it."""
    seed(agent)
    await checkpoint(client)
    index = agent.user / layout.INDEX_FILE
    kept = agent.user / "kept.txt"
    kept.write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to(kept.name)
    await checkpoint(client)

    history = await ok_json(await client.get(history_url("user", layout.INDEX_FILE, "history")))
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    pruned = kept.read_bytes()
    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert history["exists"] is False and history["unrecordable"] is None
    assert [version["change"] for version in history["versions"]] == ["deleted", "added"]
    assert result["indexLinesAdded"] == [] and kept.read_bytes() == pruned


@pytest.mark.parametrize("target", ["kept.txt", "notes/kept.md"])
async def test_v2_undo_through_an_index_linked_to_no_memory_file_says_why_no_line_came_back(
    client: Client, agent: AgentHome, target: str
) -> None:
    """``MEMORY.md`` a symlink to a file of the memory root that is no memory file of the
    scope (``kept.txt``, a note in a sub-folder: no version holds it), which the delete pruned
    through the link: the undo still brings the file back, as it does for every other index it
    cannot write (200), and says why its line did not come back and that it goes in by hand,
    naming the file the link leads to (was: 200 with no line added and no reason, as if the
    file had never been listed)."""
    seed(agent)
    index = agent.user / layout.INDEX_FILE
    kept = agent.user / target
    kept.parent.mkdir(exist_ok=True)
    kept.write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to(target)
    await checkpoint(client)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    assert deleted["removedIndexLines"] == [LINE]
    pruned = kept.read_bytes()

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert (agent.user / TOPIC).is_file() and result["version"] is not None
    assert result["indexLinesAdded"] == [] and kept.read_bytes() == pruned
    problem = result["indexProblem"]
    assert problem is not None and "by hand" in problem
    assert (f"'{target}'" in problem) == (target == "kept.txt")
    assert "no memory file" in problem


@pytest.mark.parametrize("outside", [False, True], ids=["kept.txt", "outside-the-root"])
async def test_v2_restoring_an_older_version_of_a_file_there_says_no_index_problem(
    client: Client, agent: AgentHome, outside: bool
) -> None:
    """``MEMORY.md`` a symlink to ``kept.txt`` (no memory file) or to a file outside the
    memory root: restoring an older version of a file that is there (nothing deleted, its
    line still in the index) brings its text back with no ``indexProblem``: no line was
    taken, so none is missing (was: every such restore said the index lines were not known,
    and the page showed an error). Bringing the file back once deleted still says so (the
    test above, and the last assertion here)."""
    seed(agent)
    index = agent.user / layout.INDEX_FILE
    kept = agent.tmp / "dotfiles" / "MEMORY.md" if outside else agent.user / "kept.txt"
    kept.parent.mkdir(exist_ok=True)
    kept.write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to(kept)
    older = (await checkpoint(client))["version"]
    older_text = (agent.user / TOPIC).read_bytes()
    write(agent.user, TOPIC, "---\ndescription: changed\n---\nnewer text\n")
    await checkpoint(client)

    result = await restore(client, TOPIC, older)

    assert (agent.user / TOPIC).read_bytes() == older_text and result["version"] is not None
    assert result["indexProblem"] is None and result["indexLinesNotAdded"] == []
    assert kept.read_text(encoding="utf-8") == f"# User memory\n\n{LINE}\n"
    deleted = await client.delete(file_url("user", TOPIC))
    if outside:  # an index never read: its line cannot be removed, so nothing is (A-6)
        await expect_problem(deleted, 409, "MEMORY.md is a symlink to outside")
        return
    await ok_json(deleted)
    assert (await restore(client, TOPIC, older))["indexProblem"] is not None


@pytest.mark.parametrize(
    ("gone", "told"),
    [
        ("deleted, written again", True),
        ("deleted on a machine, synced", True),
        ("rm on a machine, synced", False),
        ("rm on disk", False),
        ("mv on disk", False),
    ],
)
async def test_v2_restore_beside_an_index_linked_to_no_memory_file_tells_of_a_line_a_delete_took(
    client: Client, agent: AgentHome, gone: str, told: bool
) -> None:
    """``MEMORY.md`` a symlink to ``kept.txt`` (no memory file: no version holds it). What
    decides ``indexProblem`` is whether a delete by the service followed the restored version
    (it took the file's line from ``kept.txt`` then), not whether the file is there now: the
    topic deleted through the service, written again by the agent (its line not), then its
    older version restored, says the line is not known (was: ``indexProblem`` None, no line
    added, the line silently gone); the topic removed on disk (``rm``, ``mv``: nothing took its
    line, which ``kept.txt`` still holds) and restored says nothing (was: a false alarm). A
    delete made on a machine arrives by sync (a version of source ``sync`` removing the file,
    the machine's index without its line): it took the line as one by the service does, so it
    is told too (was: not counted, ``indexProblem`` None); a file removed there with ``rm``
    arrives so too, its line still in ``kept.txt``: nothing took it, so nothing is told (was:
    a false alarm)."""
    seed(agent)
    index = agent.user / layout.INDEX_FILE
    kept = agent.user / "kept.txt"
    kept.write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to(kept.name)
    older = (await checkpoint(client))["version"]
    older_text = (agent.user / TOPIC).read_bytes()
    if gone == "deleted, written again":
        await ok_json(await client.delete(file_url("user", TOPIC)))
        write(agent.user, TOPIC, "---\ndescription: again\n---\nwritten again\n")
    elif gone == "deleted on a machine, synced":  # as a push's merge writes and records it
        (agent.user / TOPIC).unlink()
        kept.write_text(kept.read_text(encoding="utf-8").replace(f"{LINE}\n", ""), "utf-8")
        synced = Attribution("sync", machine="laptop", machine_id="m-laptop")
        ScopeHistories(agent.data_dir).record(agent.id, agent.user.resolve(), synced)
    elif gone == "rm on a machine, synced":  # the machine's index keeps the line
        (agent.user / TOPIC).unlink()
        synced = Attribution("sync", machine="laptop", machine_id="m-laptop")
        ScopeHistories(agent.data_dir).record(agent.id, agent.user.resolve(), synced)
    elif gone == "rm on disk":
        (agent.user / TOPIC).unlink()
    else:
        (agent.user / TOPIC).rename(agent.tmp / "moved-away.md")
    await checkpoint(client)
    before = kept.read_bytes()

    result = await restore(client, TOPIC, older)

    assert (agent.user / TOPIC).read_bytes() == older_text and result["version"] is not None
    assert result["indexLinesAdded"] == [] and kept.read_bytes() == before
    assert (LINE in before.decode("utf-8")) is not told
    problem = result["indexProblem"]
    assert (problem is not None and "by hand" in problem and "'kept.txt'" in problem) is told
    assert told or problem is None


async def test_v2_undo_through_an_index_made_a_link_puts_back_the_line_as_the_delete_took_it(
    client: Client, agent: AgentHome
) -> None:
    """``MEMORY.md`` made a symlink to a file of its scope, then the topic's line edited there,
    then the topic deleted: the undo puts back the edited line the delete took, and the index
    is byte for byte as before the delete (V-2). Was: the history kept the index's last
    version from before the link, the restore read that and put back the line as it was then."""
    seed(agent)
    await checkpoint(client)
    kept = agent.user / "index-kept.md"
    _index_kept_under_another_name(agent.user, (agent.user / layout.INDEX_FILE).read_bytes())
    await checkpoint(client)
    edited = f"- [Pnpm, edited]({TOPIC}) -- EDITED"
    kept.write_text(kept.read_text(encoding="utf-8").replace(LINE, edited), encoding="utf-8")
    before = kept.read_bytes()
    await checkpoint(client)
    deleted = await ok_json(await client.delete(file_url("user", TOPIC)))
    assert deleted["removedIndexLines"] == [edited]

    result = await restore(client, TOPIC, deleted["restoreVersion"])

    assert result["indexLinesAdded"] == [edited]
    assert kept.read_bytes() == before and (agent.user / layout.INDEX_FILE).is_symlink()


@pytest.mark.parametrize(
    ("then", "now"),
    [
        (b"- [A](a.md) x\r- [B](b.md) y\r\n- [C](c.md) z\n", b"- [A](a.md) x\r- [C](c.md) z\n"),
        (b"- [A](a.md) x\r\n- [B](b.md) y", b"- [A](a.md) x"),
    ],
    ids=["mixed-line-ends", "crlf-last-line-without-an-end"],
)
async def test_v2_restoring_the_index_itself_puts_lines_back_with_their_own_ends(
    client: Client, agent: AgentHome, then: bytes, now: bytes
) -> None:
    """Restoring ``MEMORY.md`` from a version brings the lines lost since back as they were
    there, line ends included (was: LF, read from the version's text with LF line ends)."""
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(then)
    version = (await checkpoint(client))["version"]
    index.write_bytes(now)

    result = await restore(client, layout.INDEX_FILE, version)

    assert result["indexLinesAdded"] == ["- [B](b.md) y"]
    assert index.read_bytes() == then
