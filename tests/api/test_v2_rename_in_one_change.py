"""V-2: a topic file renamed in one change — its text kept, or rewritten too — reads in the
scope's changes as a rename, and its undo gives back the old name and the old text byte for
byte, with its index line where it stood.

git's own rename detection takes a note renamed *and* rewritten in one change (``a.md`` now
``b.md`` with new text) for a delete and an add: nothing of its text is left to pair. The index
tells it: the line that linked ``a.md`` links ``b.md`` now, its words as they were. So the
change lists ``a.md`` deleted with ``renamedTo: b.md`` and ``b.md`` added with ``renamedFrom:
a.md``; a file deleted beside a new one with an index line of its own stays a delete.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json
from tests.api.test_v1_versions import changes, checkpoint
from tests.api.test_v2_history_and_restore import restore

OLD_TEXT = b"---\ndescription: deploys\r\n---\nship on Fridays \xc3\xa9\r\nno trailing newline"
INDEX = b"# User memory\n\n- [Deploys](a.md) how we ship\n- [Zed](z.md) the last\n"


def seed(scope: Path) -> None:
    (scope / "a.md").write_bytes(OLD_TEXT)
    (scope / "z.md").write_text("zed\n", encoding="utf-8")
    (scope / layout.INDEX_FILE).write_bytes(INDEX)


def rename(scope: Path, text: bytes) -> None:
    """``a.md`` renamed ``b.md`` holding ``text``, its index line pointed there, in one go."""
    (scope / "a.md").rename(scope / "b.md")
    (scope / "b.md").write_bytes(text)
    index = (scope / layout.INDEX_FILE).read_bytes()
    (scope / layout.INDEX_FILE).write_bytes(index.replace(b"(a.md)", b"(b.md)"))


def files_of(version: dict[str, Any]) -> dict[str, tuple[str, str | None, str | None]]:
    return {
        item["file"]: (item["change"], item.get("renamedFrom"), item.get("renamedTo"))
        for item in version["files"]
    }


async def test_v2_a_note_renamed_and_rewritten_in_one_change_reads_as_a_rename(
    client: Client, agent: AgentHome
) -> None:
    seed(agent.user)
    await checkpoint(client)
    rename(agent.user, b"---\ndescription: deploys\n---\nnothing of the old text\n")
    await checkpoint(client)
    newest = (await changes(client))[0]
    assert files_of(newest) == {
        layout.INDEX_FILE: ("modified", None, None),
        "a.md": ("deleted", None, "b.md"),
        "b.md": ("added", "a.md", None),
    }


async def test_v2_a_note_renamed_with_its_text_kept_reads_as_a_rename(
    client: Client, agent: AgentHome
) -> None:
    seed(agent.user)
    await checkpoint(client)
    (agent.user / "a.md").rename(agent.user / "b.md")  # its index line left as it was
    await checkpoint(client)
    assert files_of((await changes(client))[0]) == {
        "a.md": ("deleted", None, "b.md"),
        "b.md": ("added", "a.md", None),
    }


async def test_v2_a_delete_beside_a_new_note_with_a_line_of_its_own_is_no_rename(
    client: Client, agent: AgentHome
) -> None:
    seed(agent.user)
    await checkpoint(client)
    (agent.user / "a.md").unlink()
    (agent.user / "b.md").write_text("another note\n", encoding="utf-8")
    (agent.user / layout.INDEX_FILE).write_bytes(
        INDEX.replace(b"- [Deploys](a.md) how we ship\n", b"- [Other](b.md) something else\n")
    )
    await checkpoint(client)
    assert files_of((await changes(client))[0]) == {
        layout.INDEX_FILE: ("modified", None, None),
        "a.md": ("deleted", None, None),
        "b.md": ("added", None, None),
    }


async def test_v2_the_undo_of_a_rename_and_rewrite_gives_back_the_old_name_and_text_exactly(
    client: Client, agent: AgentHome
) -> None:
    """The undo is the restore of the old name from the version before the change (the one
    ``deleted`` names): its text comes back byte for byte (CR LF, no final newline, UTF-8
    beyond ASCII) and its index line where it stood; the new file stays, its text kept."""
    seed(agent.user)
    await checkpoint(client)
    rename(agent.user, b"nothing of the old text\n")
    await checkpoint(client)
    deleted = await ok_json(await client.get(f"{memory_url()}/scopes/user/deleted"))
    [gone] = deleted["files"]
    assert gone["file"] == "a.md"

    answer = await restore(client, "a.md", gone["restoreVersion"])

    assert answer["indexLinesAdded"] == ["- [Deploys](a.md) how we ship"]
    assert (agent.user / "a.md").read_bytes() == OLD_TEXT
    assert (agent.user / "b.md").read_bytes() == b"nothing of the old text\n"
    assert (agent.user / layout.INDEX_FILE).read_bytes() == (
        b"# User memory\n\n- [Deploys](a.md) how we ship\n- [Deploys](b.md) how we ship\n"
        b"- [Zed](z.md) the last\n"
    )
