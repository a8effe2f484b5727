"""A-6 delete: the file and every index line linking to it go (T-4); prose stays; Q-2a races."""

from __future__ import annotations

import asyncio
import codecs
import os
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from memory_core import file_edit, layout
from memory_core.swap import IdleRead, read_when_idle

from tests.api.conftest import (
    CORPUS,
    AgentHome,
    Client,
    corpus_topics,
    expect_problem,
    file_url,
    memory_url,
    names,
    ok_json,
    versions_of,
    write_topic,
)
from tests.api.test_v1_versions import checkpoint

LINK_FORMS = [
    "- [Plain](f.md) — plain",
    "- [Dot](./f.md) — dot slash",
    "- [Angle](<f.md>) — angle brackets",
    "- [Anchor](f.md#why) — anchor",
    '- [Title](f.md "Title") — title',
    "- [All](<./f.md#how> 'T') — everything at once",
    "* [Star](f.md)",
]
SPACED_FORMS = [
    "- [Encoded](Deploy%20notes.md) — percent-encoded",
    "- [Angle](<Deploy notes.md>) — angle brackets",
    '- [Anchor](./Deploy%20notes.md#why "t") — all',
]
KEPT = [
    "# Memory index",
    "",
    "f.md is mentioned here in prose, not linked.",
    "- [Other](other-f.md) — another file",
    "- [Nested](sub/f.md) — not this scope's file",
    "- [Code](`f.md`) and `[x](f.md)` in code",
    "Deploy notes.md is mentioned in prose too.",
]


async def test_a6_delete_removes_the_file_and_every_link_form_keeps_prose(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent.user, "f.md")
    write_topic(agent.user, "other-f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text("\n".join([KEPT[0], *LINK_FORMS, *KEPT[1:]]) + "\n", encoding="utf-8")

    result = await ok_json(await client.delete(file_url("user", "f.md")))

    assert result == {
        "file": "f.md",
        "removedIndexLines": LINK_FORMS,
        "unindexedFiles": [],
        **versions_of(result),
    }
    assert not (agent.user / "f.md").exists()
    assert (agent.user / "other-f.md").exists()
    assert index.read_text(encoding="utf-8") == "\n".join(KEPT) + "\n"


async def test_t4_percent_encoded_and_spaced_targets_are_pruned(
    client: Client, agent: AgentHome
) -> None:
    write_topic(agent.user, "Deploy notes.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text("\n".join([*SPACED_FORMS, *KEPT]), encoding="utf-8")  # no final line end

    result = await ok_json(await client.delete(file_url("user", "Deploy notes.md")))

    assert result["removedIndexLines"] == SPACED_FORMS
    assert index.read_text(encoding="utf-8") == "\n".join(KEPT)


async def test_a6_a_name_in_another_normalization_is_pruned_as_the_same_file(
    client: Client, agent: AgentHome
) -> None:
    """macOS hands out decomposed names; an index usually holds composed text: one file."""
    write_topic(agent.user, unicodedata.normalize("NFD", "café.md"))
    index = agent.user / layout.INDEX_FILE
    index.write_text("- [Café](café.md) — composed link\n- [Other](o.md) — x\n", "utf-8")

    result = await ok_json(
        await client.delete(file_url("user", unicodedata.normalize("NFD", "café.md")))
    )

    assert result["removedIndexLines"] == ["- [Café](café.md) — composed link"]


async def test_a6_of_two_files_whose_names_differ_only_in_normalization_only_one_goes(
    client: Client, agent: AgentHome
) -> None:
    """Two files to the kernel (composed and decomposed ``café.md``): a delete of one prunes
    the lines that spell its name, and the other file keeps its line."""
    composed, decomposed = (unicodedata.normalize(form, "café.md") for form in ("NFC", "NFD"))
    write_topic(agent.user, composed)
    write_topic(agent.user, decomposed)
    index = agent.user / layout.INDEX_FILE
    lines = [f"- [Composed]({composed}) — one", f"- [Decomposed]({decomposed}) — two"]
    index.write_text("\n".join(lines) + "\n", encoding="utf-8")

    result = await ok_json(await client.delete(file_url("user", decomposed)))

    assert result["removedIndexLines"] == [lines[1]]
    assert index.read_text(encoding="utf-8") == lines[0] + "\n"
    assert (agent.user / composed).exists()
    assert not (agent.user / decomposed).exists()


@pytest.mark.parametrize("soft", ["\u2028", "\u2029", "\x85", "\x0c", "\x0b"])
async def test_a6_a_delete_keeps_the_entries_joined_on_its_line_by_a_soft_break(
    client: Client, agent: AgentHome, soft: str
) -> None:
    """Entries joined by a character other tools show as a line break (U+2028 …) are one line
    to Memory: a delete took them all with it. Only the entry linking the file goes (with the
    character that joined it), the undo puts it back on a line of its own, and lint names the
    joined line."""
    for name in ("uv.md", "pnpm.md", "ruff.md"):
        write_topic(agent.user, name)
    entries = ["- [Uv](uv.md) use uv", "- [Pnpm](pnpm.md) use pnpm", "- [Ruff](ruff.md) lint"]
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(("# Memory\n" + soft.join(entries) + "\n").encode("utf-8"))

    lint = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    joined = [f for f in lint["findings"] if f["code"] == "joined-index-line"]
    assert [(f["file"], f["line"]) for f in joined] == [("MEMORY.md", 2)]
    assert f"U+{ord(soft):04X}" in joined[0]["message"]

    deleted = await ok_json(await client.delete(file_url("user", "pnpm.md")))

    assert deleted["removedIndexLines"] == [entries[1]]
    kept = "# Memory\n" + entries[0] + soft + entries[2] + "\n"
    assert index.read_bytes().decode("utf-8") == kept
    assert names(agent.user) == sorted([layout.INDEX_FILE, "ruff.md", "uv.md"])

    url = f"{file_url('user', 'pnpm.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == [entries[1]]
    text = index.read_bytes().decode("utf-8")
    assert entries[0] + soft + entries[2] in text and f"\n{entries[1]}\n" in text


@pytest.mark.parametrize("soft", ["\u2028", "\x0c"])
async def test_v2_an_undo_puts_an_entry_back_into_its_joined_line_that_closes_a_comment(
    client: Client, agent: AgentHome, soft: str
) -> None:
    """A joined line that also closes a comment across lines: the delete keeps the line's
    other entries and its ``-->``; the undo puts the entry back into that line, byte for byte.
    On a line of its own beside the comment's ``<!--`` it landed inside it, hidden."""
    for name in ("uv.md", "pnpm.md"):
        write_topic(agent.user, name)
    old = f"# Memory\n<!-- retired:\n- [Old](old.md) -->{soft}- [Uv](uv.md) uv notes{soft}"
    old += "- [Pnpm](pnpm.md) use pnpm\n"
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(old.encode("utf-8"))

    deleted = await ok_json(await client.delete(file_url("user", "uv.md")))
    assert deleted["removedIndexLines"] == ["- [Uv](uv.md) uv notes"]
    assert "uv.md" not in index.read_text(encoding="utf-8")

    url = f"{file_url('user', 'uv.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == ["- [Uv](uv.md) uv notes"]
    assert index.read_bytes().decode("utf-8") == old  # Uv after the -->, outside the comment


async def test_a6_rewrite_keeps_bom_crlf_and_permissions(client: Client, agent: AgentHome) -> None:
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes(codecs.BOM_UTF8 + b"# Index\r\n- [F](f.md)\r\nkeep me\r\n")
    index.chmod(0o640)

    await ok_json(await client.delete(file_url("user", "f.md")))

    assert index.read_bytes() == codecs.BOM_UTF8 + b"# Index\r\nkeep me\r\n"
    assert index.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in agent.user.iterdir() if p.name.startswith(".")] == []


async def test_a6_sample_workspace_delete_prunes_link_and_keeps_prose_mention(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("my-app", corpus="coding-agent-workspace")
    index = agent.root / key / layout.INDEX_FILE
    before = index.read_text(encoding="utf-8").split("\n")

    result = await ok_json(await client.delete(file_url(key, "testing-conventions.md")))

    after = index.read_text(encoding="utf-8").split("\n")
    assert result["removedIndexLines"] == [before[2]]
    assert after == before[:2] + before[3:]
    assert any("testing-conventions.md file above is also mentioned" in line for line in after)
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))
    assert "testing-conventions.md" not in [item["file"] for item in listing["files"]]


async def test_a6_unindexed_file_deletes_without_touching_the_index(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("my-app", corpus="coding-agent-workspace")
    index = agent.root / key / layout.INDEX_FILE
    before = index.stat()

    result = await ok_json(await client.delete(file_url(key, "orphan-topic.md")))

    assert result == {
        "file": "orphan-topic.md",
        "removedIndexLines": [],
        "unindexedFiles": [],
        **versions_of(result),
    }
    assert (index.stat().st_ino, index.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


async def test_a6_missing_file_and_missing_scope_are_404(client: Client, agent: AgentHome) -> None:
    await expect_problem(await client.delete(file_url("user", "nope.md")), 404, "'nope.md'")
    await expect_problem(
        await client.delete(file_url("gone-0123abcd", "x.md")), 404, "'gone-0123abcd'"
    )
    await expect_problem(
        await client.delete(file_url("user", "x.md", agent="nobody")), 404, "'nobody'"
    )


async def test_q2a_concurrent_deletes_each_remove_exactly_their_own_lines(
    client: Client, agent: AgentHome
) -> None:
    _, key = agent.workspace("big", corpus="large-index")
    index = agent.root / key / layout.INDEX_FILE
    lines = index.read_text(encoding="utf-8").split("\n")
    victims = corpus_topics("large-index")[::7]

    results = await asyncio.gather(*(client.delete(file_url(key, name)) for name in victims))

    removed: dict[str, list[str]] = {}
    for name, response in zip(victims, results, strict=True):
        body = await ok_json(response)
        removed[name] = body["removedIndexLines"]
        assert all(f"]({name})" in line for line in body["removedIndexLines"])
    expected = [line for line in lines if not any(f"]({name})" in line for name in victims)]
    assert index.read_text(encoding="utf-8").split("\n") == expected
    assert sum(len(value) for value in removed.values()) == len(lines) - len(expected)
    assert names(agent.root / key) == sorted(
        {".workspace", "MEMORY.md", *corpus_topics("large-index")} - set(victims)
    )


async def test_a6_a_line_written_by_someone_else_meanwhile_is_not_lost(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A-6: an agent appends a line between the prune's read and its replacement of the index."""
    write_topic(agent.user, "f.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text("# Index\n- [F](f.md)\n", encoding="utf-8")
    calls = 0

    def racing_read(path: Path, limit: int, timeout: float, **kwargs: bool) -> IdleRead:
        nonlocal calls
        calls += 1
        result = read_when_idle(path, limit, timeout, **kwargs)
        if calls == 1 and path.name == layout.INDEX_FILE:
            with path.open("a", encoding="utf-8") as handle:  # the agent's write lands now
                handle.write("- [New](new.md) — written meanwhile\n")
        return result

    monkeypatch.setattr(file_edit, "read_when_idle", racing_read)

    result = await ok_json(await client.delete(file_url("user", "f.md")))

    assert result["removedIndexLines"] == ["- [F](f.md)"]
    assert index.read_text(encoding="utf-8") == "# Index\n- [New](new.md) — written meanwhile\n"
    assert calls >= 2
    assert [p.name for p in agent.user.iterdir() if p.name.startswith(".")] == []


def test_corpus_is_the_one_the_tests_expect() -> None:
    assert (
        (CORPUS / "coding-agent-workspace" / "MEMORY.md")
        .read_text(encoding="utf-8")
        .split("\n")[2]
        .startswith("- [Testing conventions](testing-conventions.md)")
    )


def _never_kept(agent: AgentHome, how: str) -> Path:
    """``huge-notes.md`` in the user scope as a file the history can never keep as it is."""
    big = agent.user / "huge-notes.md"
    if how == "over its read cap":
        big.write_bytes(b"---\nname: huge\ndescription: d\n---\n" + b"x" * (1024 * 1024))
    else:
        outside = agent.tmp / "outside.md"
        outside.write_bytes(b"---\nname: huge\ndescription: d\n---\nlinked\n")
        os.link(outside, big)
    return big


NEVER_KEPT = {
    "over its read cap": "larger than its read cap of 1048576 bytes",
    "hard-linked": "a file with other hard links, a name outside its folder",
}


@pytest.mark.parametrize("how", list(NEVER_KEPT))
async def test_a6_v1_a_topic_file_the_history_can_never_keep_is_409_not_a_retryable_503(
    client: Client, agent: AgentHome, how: str
) -> None:
    """V-1: the history keeps a file only up to its read cap (1 MiB for a topic file) and never
    reads a hard-linked one, so a delete of such a file could never be undone: it is refused,
    and the file and its index line stay. That is a condition of the file, which no retry
    changes: 409 naming why, never the 503 "try later" it answered on every try. Another file
    beside it is deleted as before."""
    big = _never_kept(agent, how)
    write_topic(agent.user, "small.md")
    index = agent.user / layout.INDEX_FILE
    index.write_text("- [Huge](huge-notes.md) — big\n- [Small](small.md) — s\n", encoding="utf-8")

    for _ in range(2):  # the same answer again: nothing to wait for
        await expect_problem(
            await client.delete(file_url("user", "huge-notes.md")),
            409,
            "'huge-notes.md' was not deleted: the history cannot keep its content as it is now "
            f"({NEVER_KEPT[how]}",
        )

    assert big.exists()
    assert index.read_text(encoding="utf-8").startswith("- [Huge](huge-notes.md)")
    result = await ok_json(await client.delete(file_url("user", "small.md")))
    assert result["removedIndexLines"] == ["- [Small](small.md) — s"]


async def test_v2_a_restore_over_a_file_the_history_can_never_keep_says_what_to_do_as_a_delete(
    client: Client, agent: AgentHome
) -> None:
    """The restore's 409 said "Fix that, or restore again", which only answers the same 409: it
    names a way out as the delete's does (fix the file, or put the version in place by hand)."""
    big = agent.user / "huge-notes.md"
    big.write_bytes(b"---\nname: huge\ndescription: d\n---\nsmall then\n")
    version = (await checkpoint(client))["version"]
    _never_kept(agent, "over its read cap")
    url = f"{memory_url()}/scopes/user/files/huge-notes.md/restore"

    body = await expect_problem(
        await client.post(url, json={"version": version}),
        409,
        "'huge-notes.md' was not replaced: the history cannot keep its content as it is now "
        f"({NEVER_KEPT['over its read cap']}",
    )

    assert body["detail"].endswith(
        "Fix that, or write the version's content in place by hand (read the file at that "
        "version) if it should replace the file for good"
    ), body["detail"]
    assert big.stat().st_size > 1024 * 1024


@pytest.mark.parametrize("when", ["looked_at", "read"])
async def test_a6_v1_a_file_removed_while_the_delete_records_it_is_404_not_an_operators_fault(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """The agent removes the note itself while the page deletes it: the file was listed by the
    record before the delete, then gone when it was looked at or read. That was taken for a
    file the service may not read: 503, "an operator must give the account the service runs
    as read access". A file gone is gone: the delete answers 404 as for any missing file, and
    the index line the agent left stays (A-6 deletes nothing it did not find)."""
    from memory_api.store.containment import read_regular
    from memory_api.store.history import snapshot

    write_topic(agent.user, "f.md")
    (agent.user / "MEMORY.md").write_text("- [F](f.md) — f\n", encoding="utf-8")
    await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    (agent.user / "f.md").write_text("---\ndescription: changed\n---\nsince\n", encoding="utf-8")
    real_entries, real_read = snapshot._entries, read_regular

    def listed_then_removed(scope: Path) -> list[Any]:
        entries = real_entries(scope)
        (agent.user / "f.md").unlink(missing_ok=True)
        return entries

    def read_after_removal(path: Path, cap: int, **how: bool) -> tuple[bytes, os.stat_result]:
        if path.name == "f.md":
            path.unlink(missing_ok=True)
        return real_read(path, cap, **how)

    if when == "looked_at":
        monkeypatch.setattr(snapshot, "_entries", listed_then_removed)
    else:
        monkeypatch.setattr(snapshot, "read_regular", read_after_removal)
    await expect_problem(await client.delete(file_url("user", "f.md")), 404, "'f.md'")
    assert (agent.user / "MEMORY.md").read_text(encoding="utf-8") == "- [F](f.md) — f\n"
