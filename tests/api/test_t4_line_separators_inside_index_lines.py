"""T-4, A-6, V-2, I-4: a line separator other than LF, CRLF or CR stays inside its index line.

Found: an index whose entries held U+2028, U+2029, a form feed, NEL, a vertical tab or
U+001C–U+001E was one line to the pruner and several to ``str.splitlines`` readers. Every
reader now cuts lines as Markdown does, so a delete removes exactly the deleted file's line
(every other byte stays), a restore puts back exactly that line (or names it whole when the
index cannot take it), and the index view, its lint and the injection count the same lines.

Then: a line whose entries such a character joins (``- [Alpha](alpha.md) …<U+2028>- [Beta]
(beta.md) …``, an entry a line to an editor or a model) lost them all with a delete of one, and
lint said nothing. Now lint names it (``joined-index-line``), and a delete removes only the
entry linking the deleted file, with the character that joined it; its undo puts that entry
back on a line of its own (``tests/core/test_t4_joined_index_lines.py``).
"""

from __future__ import annotations

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json

NOT_LINE_ENDS = ["\u2028", "\u2029", "\f", "\x85", "\v", "\x1c", "\x1d", "\x1e"]
TOPIC = "---\nname: {0}\ndescription: about {0}\nupdated_at: 2026-11-20\n---\n{1}\n"


ALPHA = "- [Alpha](alpha.md) — first half"
BETA_JOINED = "- [Beta](beta.md) — an entry of its own, joined"


def alpha_line(sep: str) -> str:
    return f"{ALPHA}{sep}{BETA_JOINED}"


def index_text(sep: str) -> str:
    return f"# Index\n{alpha_line(sep)}\n- [Beta](beta.md) — beta{sep}tail\n- [Gamma](gamma.md)\n"


def write_scope(agent: AgentHome, sep: str) -> bytes:
    for stem in ("alpha", "beta", "gamma"):
        body = f"{stem} body {sep} zebrafish {stem}"  # a hidden character joins words (I-9)
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem, body), encoding="utf-8")
    raw = index_text(sep).encode()
    (agent.user / layout.INDEX_FILE).write_bytes(raw)
    return raw


@pytest.mark.parametrize("sep", NOT_LINE_ENDS, ids=ascii)
async def test_a6_delete_and_restore_change_only_the_deleted_file_line(
    client: Client, agent: AgentHome, sep: str
) -> None:
    raw = write_scope(agent, sep)
    index = agent.user / layout.INDEX_FILE

    deleted = await ok_json(await client.delete(file_url("user", "gamma.md")))
    assert deleted["removedIndexLines"] == ["- [Gamma](gamma.md)"]
    assert index.read_bytes() == raw.replace(b"- [Gamma](gamma.md)\n", b"")

    deleted = await ok_json(await client.delete(file_url("user", "alpha.md")))
    assert deleted["removedIndexLines"] == [ALPHA]  # not the entry joined after it
    expected = f"# Index\n{BETA_JOINED}\n- [Beta](beta.md) — beta{sep}tail\n".encode()
    assert index.read_bytes() == expected

    url = f"{file_url('user', 'alpha.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == [ALPHA]
    assert index.read_bytes() == f"# Index\n{ALPHA}\n".encode() + expected.removeprefix(
        b"# Index\n"
    )  # in its place, on a line of its own


@pytest.mark.parametrize("sep", ["\u2028", "\f", "\x85"], ids=ascii)
async def test_v2_a_restore_the_index_cannot_take_names_the_line_whole(
    client: Client, agent: AgentHome, sep: str
) -> None:
    write_scope(agent, sep)
    index = agent.user / layout.INDEX_FILE
    deleted = await ok_json(await client.delete(file_url("user", "alpha.md")))
    index.unlink()
    index.mkdir()  # no regular file: the restored lines cannot be merged

    url = f"{file_url('user', 'alpha.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == []
    assert restored["indexLinesNotAdded"] == [ALPHA]


@pytest.mark.parametrize("sep", NOT_LINE_ENDS, ids=ascii)
async def test_a5_the_index_view_lint_and_injection_count_the_lines_markdown_shows(
    client: Client, agent: AgentHome, sep: str
) -> None:
    write_scope(agent, sep)
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    assert [line["number"] for line in view["lines"]] == [1, 2, 3, 4]
    assert view["lines"][1]["text"] == alpha_line(sep)
    assert view["manifest"]["linesTotal"] == view["manifest"]["linesKept"] == 4
    # lint names the index lines as the view numbers them: the one line holding the character
    on_index = [f for f in view["findings"] if f["file"] == layout.INDEX_FILE]
    assert {f["line"] for f in on_index} <= {2, 3}
    assert {f["code"] for f in on_index} <= {"hidden-text", "joined-index-line"}
    joined = [f["line"] for f in on_index if f["code"] == "joined-index-line"]
    assert joined == [2, 3]  # entries joined, and an entry's text running on past the character


@pytest.mark.parametrize("sep", NOT_LINE_ENDS, ids=ascii)
async def test_s1_search_finds_text_after_a_separator(
    client: Client, agent: AgentHome, sep: str
) -> None:
    write_scope(agent, sep)
    answer = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "zebrafish"}))
    assert sorted(hit["file"] for hit in answer["hits"]) == ["alpha.md", "beta.md", "gamma.md"]
