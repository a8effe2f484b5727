"""V-2, T-2: a diff of a note that is not UTF-8 shows the lines that changed, and only those.

A note's bytes that are not UTF-8 are shown in the encoding they look like; a short note is too
little text to tell Windows-1252 from Windows-1251 (its accented letters are shown as U+FFFD),
the same note with a line more is told. Judged one version at a time, the diff of that added
line showed every accented line of the note as removed and added again. Both versions of a
diff are read by one judgement: a line whose bytes did not change is context.
"""

from __future__ import annotations

import pytest

from tests.api.conftest import AgentHome, Client, ok_json
from tests.api.test_v1_versions import checkpoint
from tests.api.test_v2_history_and_restore import history_url

NOTES = {
    "windows-1252": (
        "---\nname: Café\ndescription: latin1\n---\nbody éÿ\n",
        "more þ\n",
        "cp1252",
    ),
    "shift-jis": ("- [設定](settings.md)\n", "- [ビルド](build.md) ビルド手順の説明\n", "cp932"),
}


@pytest.mark.parametrize("note", list(NOTES))
async def test_v2_a_line_added_to_a_legacy_encoded_note_is_the_only_change_shown(
    client: Client, agent: AgentHome, note: str
) -> None:
    text, added, codec = NOTES[note]
    path = agent.user / "notes.md"
    path.write_bytes(text.encode(codec))
    first = (await checkpoint(client))["version"]
    path.write_bytes((text + added).encode(codec))
    second = (await checkpoint(client))["version"]

    diff = await ok_json(await client.get(history_url("user", "notes.md", "diff")))

    assert (diff["fromVersion"], diff["toVersion"]) == (first, second)
    changed = [
        (line["kind"], line["text"])
        for hunk in diff["hunks"]
        for line in hunk["lines"]
        if line["kind"] != "context"
    ]
    assert changed == [("added", added.rstrip("\n"))]
    body = diff["unified"].split("\n")[2:]  # below the --- and +++ lines
    assert [line for line in body if line[:1] in ("+", "-")] == ["+" + added.rstrip("\n")]
