"""T-2, T-5: bytes read though not valid UTF-8 are named by lint, by line and byte offset.

A ``MEMORY.md`` or topic file holding bytes that are not UTF-8 is still read as it always was
(as cp1252, or line by line when the rest is UTF-8; a UTF-16 file's bad bytes as U+FFFD), so
what the model is shown does not change; but the index view and the scope's lint now say so
(``invalid-encoding``), with each line, each byte offset and the fix.
"""

from __future__ import annotations

from typing import Any

from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json


async def _index_view(client: Client) -> dict[str, Any]:
    return await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))


def _not_utf8(findings: list[dict[str, Any]]) -> list[tuple[str, str, int | None]]:
    return [
        (f["file"], f["severity"], f["line"]) for f in findings if f["code"] == "invalid-encoding"
    ]


def _message(findings: list[dict[str, Any]]) -> str:
    return str(next(f["message"] for f in findings if f["code"] == "invalid-encoding"))


async def test_t2_an_index_in_cp1252_names_each_line_and_offset_and_is_read_as_before(
    client: Client, agent: AgentHome
) -> None:
    agent.user.mkdir(parents=True, exist_ok=True)
    index = "- [Caf\xe9](cafe.md) notes\n- [ci](ci.md)\n- cr\xe8me\n".encode("cp1252")
    (agent.user / layout.INDEX_FILE).write_bytes(index)
    for name in ("cafe.md", "ci.md"):
        (agent.user / name).write_text("---\ndescription: d\n---\nb\n", encoding="utf-8")

    view = await _index_view(client)

    assert _not_utf8(view["findings"]) == [("MEMORY.md", "warning", 1)]
    message = _message(view["findings"])
    assert "byte 0xe9 at offset 6, line 1" in message
    assert "byte 0xe8 at offset 42, line 3" in message
    assert "read as cp1252" in message
    assert "iconv -f CP1252 -t UTF-8 MEMORY.md > MEMORY.md.new && mv MEMORY.md.new MEMORY.md" in (
        message
    )
    shown = "\n".join(line["text"] for line in view["lines"])
    assert "[Café](cafe.md)" in shown and "crème" in shown  # the read itself is unchanged


async def test_t2_a_utf8_index_with_one_pasted_cp1252_line_names_that_line_only(
    client: Client, agent: AgentHome
) -> None:
    agent.user.mkdir(parents=True, exist_ok=True)
    lines = "- [Café — bar](cafe.md)\n".encode() + b"- cr\xe8me br\xfbl\xe9e\n"
    (agent.user / layout.INDEX_FILE).write_bytes(lines)
    (agent.user / "cafe.md").write_text("---\ndescription: d\n---\nb\n", encoding="utf-8")

    view = await _index_view(client)

    assert _not_utf8(view["findings"]) == [("MEMORY.md", "warning", 2)]
    message = _message(view["findings"])
    assert "byte 0xe8 at offset 31, line 2" in message
    assert "retype the characters at those offsets" in message
    assert "converting the whole file would garble its UTF-8 lines" in message
    shown = [line["text"] for line in view["lines"]]
    assert shown[:2] == ["- [Café — bar](cafe.md)", "- crème brûlée"]


async def test_t2_a_utf16_index_with_a_lone_surrogate_says_bytes_were_replaced(
    client: Client, agent: AgentHome
) -> None:
    agent.user.mkdir(parents=True, exist_ok=True)
    raw = "- [ci](ci.md)\n- x".encode("utf-16") + b"\x00\xd8" + "y\n".encode("utf-16-le")
    (agent.user / layout.INDEX_FILE).write_bytes(raw)
    (agent.user / "ci.md").write_text("---\ndescription: d\n---\nb\n", encoding="utf-8")

    view = await _index_view(client)

    assert _not_utf8(view["findings"]) == [("MEMORY.md", "warning", 2)]
    message = _message(view["findings"])
    assert "not valid UTF-16 (bytes 0x00d8 at offset 36, line 2" in message
    assert "are read as U+FFFD" in message and "lost to every reader" in message


async def test_t2_a_valid_utf8_index_has_no_such_finding(client: Client, agent: AgentHome) -> None:
    agent.user.mkdir(parents=True, exist_ok=True)
    (agent.user / layout.INDEX_FILE).write_text("- [Café](cafe.md)\n", encoding="utf-8")
    (agent.user / "cafe.md").write_text("---\ndescription: d\n---\nb\n", encoding="utf-8")

    assert _not_utf8((await _index_view(client))["findings"]) == []


async def test_t2_a_topic_file_in_cp1252_is_named_in_the_scope_lint_and_its_own(
    client: Client, agent: AgentHome
) -> None:
    agent.user.mkdir(parents=True, exist_ok=True)
    (agent.user / layout.INDEX_FILE).write_text("- [cafe](cafe.md)\n", encoding="utf-8")
    raw = "---\ndescription: Caf\xe9\n---\nCr\xe8me\n".encode("cp1252")
    (agent.user / "cafe.md").write_bytes(raw)

    view = await _index_view(client)
    topic = await ok_json(await client.get(file_url("user", "cafe.md")))

    assert _not_utf8(view["findings"]) == [("cafe.md", "warning", 2)]
    message = _message(view["findings"])
    assert "byte 0xe9 at offset 20, line 2; byte 0xe8 at offset 28, line 4" in message
    assert "iconv -f CP1252 -t UTF-8 cafe.md" in message
    assert _not_utf8(topic["findings"]) == [("cafe.md", "warning", 2)]
    assert topic["description"] == "Café"  # read as before
