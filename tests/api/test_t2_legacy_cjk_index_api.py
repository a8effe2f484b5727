"""T-2, Q-2b, A-6, V-2: a Shift-JIS ``MEMORY.md`` through the service.

It used to be injected as cp1252 mojibake with no finding. Now the Session start injects a note
saying the index could not be decoded (never "nothing saved yet", never mojibake), lint names it
(``unreadable``, with the likely encoding and the iconv command), and a delete still prunes its
line in its own bytes, which the undo puts back byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, file_url, memory_url, ok_json

LINES = [
    "# メモリ",
    "- [デプロイ](deploy.md) - 金曜日はデプロイしない",
    "- [テスト](testing.md) - pytestを使う",
]
TOPIC = "---\nname: {0}\ndescription: a topic\nupdated_at: 2026-11-20\n---\nbody\n"


def _index(agent: AgentHome, lines: list[str]) -> Path:
    for stem in ("deploy", "testing"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes("\r\n".join([*lines, ""]).encode("cp932"))
    return index


async def test_t2_shift_jis_index_is_injected_as_a_note_never_as_mojibake(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    _index(agent, LINES)
    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(tmp_path)})
    )
    memory = started["memory"]
    assert "ƒ" not in memory and "\x83" not in memory  # cp1252's reading of Shift-JIS bytes
    assert "could not be read: MEMORY.md is there, but Agent Memory does not decode it" in memory
    assert "looks like Shift-JIS (cp932" in memory and "iconv -f CP932 -t UTF-8" in memory
    assert "nothing saved yet" not in memory.split("## Workspace memory")[0].lower()

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    unreadable = [f for f in view["findings"] if f["code"] == "unreadable"]
    assert len(unreadable) == 1 and unreadable[0]["severity"] == "error"
    assert "MEMORY.md is there but the service does not decode it" in unreadable[0]["message"]
    assert "Shift-JIS" in unreadable[0]["message"]
    assert not [f for f in view["findings"] if f["code"] == "unindexed"]  # no line judged


async def test_t2_shift_jis_index_delete_prunes_in_its_bytes_and_undo_puts_them_back(
    client: Client, agent: AgentHome
) -> None:
    index = _index(agent, LINES)
    before = index.read_bytes()
    deleted = await ok_json(await client.delete(file_url("user", "deploy.md")))
    assert deleted["removedIndexLines"] == [LINES[1]]  # as written, never cp1252's reading
    assert index.read_bytes() == "\r\n".join([LINES[0], LINES[2], ""]).encode("cp932")

    # the index as it was, and its change, as a person reads them: the Shift-JIS text
    index_url = f"{memory_url()}/scopes/user/files/MEMORY.md"
    was = await ok_json(await client.get(f"{index_url}/versions/{deleted['restoreVersion']}"))
    assert was["text"] == "\n".join([*LINES, ""])
    diff = await ok_json(await client.get(f"{index_url}/diff"))
    removed = [line["text"] for line in diff["hunks"][0]["lines"] if line["kind"] == "removed"]
    assert removed == [LINES[1]]

    url = f"{file_url('user', 'deploy.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == [LINES[1]]
    assert index.read_bytes() == before


async def test_t2_shift_jis_index_a_non_ascii_name_is_pruned_and_put_back_in_its_bytes(
    client: Client, agent: AgentHome
) -> None:
    """The link to ``デプロイ.md`` in a Shift-JIS index is the name's Shift-JIS bytes: the
    delete prunes that line (the file name on disk is UTF-8), the undo puts it back."""
    (agent.user / "デプロイ.md").write_text(TOPIC.format("deploy"), encoding="utf-8")
    (agent.user / "testing.md").write_text(TOPIC.format("testing"), encoding="utf-8")
    lines = ["# メモリ", "- [デプロイ](デプロイ.md) - 金曜日", "- [テスト](testing.md) - pytest"]
    index = agent.user / layout.INDEX_FILE
    index.write_bytes("\n".join([*lines, ""]).encode("cp932"))
    before = index.read_bytes()

    deleted = await ok_json(await client.delete(file_url("user", "デプロイ.md")))
    assert deleted["removedIndexLines"] == [lines[1]]
    assert index.read_bytes() == "\n".join([lines[0], lines[2], ""]).encode("cp932")

    url = f"{file_url('user', 'デプロイ.md')}/restore"
    await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert index.read_bytes() == before


TOPICS_IN = [
    ("cp932", "設定", "ビルド手順と環境構築", "Shift-JIS", "iconv -f CP932 -t UTF-8"),
    ("euc_jp", "設定", "ビルド手順と環境構築", "EUC-JP", "iconv -f "),
    ("gb18030", "设置", "构建步骤和环境", "GBK/GB18030", "iconv -f "),
    ("big5", "設定", "建置步驟與環境", "Big5", "iconv -f "),
    ("euc_kr", "설정", "빌드 절차와 환경", "EUC-KR", "iconv -f "),
]


@pytest.mark.parametrize(("codec", "title", "description", "known", "iconv"), TOPICS_IN)
async def test_t2_a_cjk_topic_file_is_judged_as_an_index_is_never_listed_as_mojibake(
    client: Client,
    agent: AgentHome,
    codec: str,
    title: str,
    description: str,
    known: str,
    iconv: str,
) -> None:
    """A topic file in a legacy CJK encoding is not decoded, as its index is not: it lists by
    its file name with no description (its description read as cp1252 was mojibake in the
    listing, the overview and search), its problem and lint name the encoding and the fix, and
    a search names it as a file whose name alone was searched."""
    text = f"---\nname: {title}\ndescription: {description}\n---\n{description}、deploy\n"
    (agent.user / "settings.md").write_bytes(text.encode(codec))
    (agent.user / layout.INDEX_FILE).write_text("- [settings](settings.md)\n", encoding="utf-8")
    mojibake = description.encode(codec).decode("cp1252", errors="replace")

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    [row] = listing["files"]
    assert (row["file"], row["name"], row["description"]) == ("settings.md", "settings", None)
    [problem] = [p for p in row["problems"] if p.startswith("encoding: ")]
    assert problem.startswith("encoding: not decoded: it is not UTF-8, and looks like ")
    assert known in problem and iconv in problem
    [finding] = [f for f in listing["findings"] if f["file"] == "settings.md"]
    assert (finding["code"], finding["severity"]) == ("unreadable", "error")
    assert "does not decode it" in finding["message"] and known in finding["message"]

    overview = await ok_json(await client.get(memory_url()))
    read = await ok_json(await client.get(file_url("user", "settings.md")))
    assert read["body"] == "" and read["description"] is None
    found = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "settings"}))
    assert [hit["file"] for hit in found["hits"]] == ["settings.md"]
    [named] = found["unreadable"]
    assert (
        "does not decode it" in named["message"]
        and "only its name was searched" in named["message"]
    )
    for answer in (listing, overview, read, found):
        assert mojibake not in json.dumps(answer, ensure_ascii=False)


@pytest.mark.parametrize(
    ("codec", "word", "known"),
    [
        ("gb18030", "資料庫", "GBK/GB18030"),  # traditional characters: GBK's ASCII trail bytes
        ("gb18030", "遷移", "GBK/GB18030"),
        ("big5", "說明", "Big5"),
        ("cp932", "テスト", "Shift-JIS"),
    ],
)
async def test_t2_one_cjk_word_in_an_english_topic_file_is_named_by_search_never_mojibake(
    client: Client, agent: AgentHome, codec: str, word: str, known: str
) -> None:
    """A mostly English topic file holding one CJK word, in a legacy encoding (``資料庫`` in
    GB18030 is ``ÙYÁÏ’ì`` read as cp1252), was read as cp1252: a search for the word found
    nothing and said nothing, and one for an English word of it showed the mojibake. It is
    judged CJK, as a whole index is: not decoded, and every search names it."""
    text = f"---\nname: db\ndescription: database notes\n---\nWe keep the schema in {word} now.\n"
    (agent.user / "db.md").write_bytes(text.encode(codec))
    mojibake = word.encode(codec).decode("cp1252", errors="replace")
    for query in (word, "schema"):
        found = await ok_json(await client.get(f"{memory_url()}/search", params={"q": query}))
        assert found["hits"] == []
        [named] = found["unreadable"]
        assert named["file"] == "user/db.md"
        assert "does not decode it" in named["message"] and known in named["message"]
        assert mojibake not in json.dumps(found, ensure_ascii=False)


LEGACY_INDEXES = [
    ("gb18030", "GBK/GB18030", "# 记忆", "—", "咖啡", "咖啡豆的产地和烘焙", "测试", "先安装依赖"),
    ("cp932", "Shift-JIS", "# メモリ", "―", "コーヒー", "豆の産地と焙煎", "テスト", "依存を先に"),
    ("euc_kr", "EUC-KR", "# 메모리", "―", "커피", "원두의 산지와 로스팅", "테스트", "의존성 먼저"),
    (
        "cp1251",
        "Windows-1251 (Cyrillic)",
        "# Память",
        "—",
        "Кофе",
        "откуда зерна",
        "Тесты",
        "сначала",
    ),
    # words of two or three characters, as short index lines are: named EUC-KR before
    ("gb18030", "GBK/GB18030", "# 记录", "-", "咖啡", "喝咖啡", "测试", "环境"),
    ("koi8_r", "KOI8-R (Cyrillic)", "# Память", "-", "Кофе", "откуда зерна", "Тесты", "сначала"),
]
"""``(codec, name known by, heading, dash, title, description, title, description)``: an index of a
heading and two lines, the first linking ``coffee.md``."""
LEGACY_INDEX_IDS = ["gb18030", "cp932", "euc_kr", "cp1251", "gb18030-short-words", "koi8_r"]


@pytest.mark.parametrize("case", LEGACY_INDEXES, ids=LEGACY_INDEX_IDS)
async def test_t2_a_legacy_index_reads_alike_wherever_a_line_of_it_is_shown(
    client: Client, agent: AgentHome, tmp_path: Path, case: tuple[str, ...]
) -> None:
    """A ``MEMORY.md`` in GB18030, Shift-JIS, EUC-KR, Windows-1251 or KOI8-R: the Session start
    and the index view name its encoding and inject or show none of its lines as mojibake
    (Windows-1251 was read as cp1252: ``Êîôå`` for ``Кофе``; short GB18030 lines were named
    EUC-KR and shown as ``엣렸``, KOI8-R as Windows-1251); the delete's report, the index's old
    version, its diff and the undo's report show the removed line as written."""
    codec, known, heading, dash, title, description, other, other_description = case
    lines = [
        heading,
        f"- [{title}](coffee.md) {dash} {description}",
        f"- [{other}](testing.md) {dash} {other_description}",
    ]
    for stem in ("coffee", "testing"):
        (agent.user / f"{stem}.md").write_text(TOPIC.format(stem), encoding="utf-8")
    index = agent.user / layout.INDEX_FILE
    index.write_bytes("\n".join([*lines, ""]).encode(codec))
    before = index.read_bytes()
    as_cp1252 = lines[1].encode(codec).decode("cp1252", errors="replace")

    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(tmp_path)})
    )
    assert f"looks like {known} ({codec}" in started["memory"]
    assert as_cp1252 not in started["memory"]
    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    [unreadable] = [f for f in view["findings"] if f["code"] == "unreadable"]
    assert f"looks like {known} ({codec}" in unreadable["message"]
    assert view["lines"] == []  # no line of it shown in another encoding's reading

    deleted = await ok_json(await client.delete(file_url("user", "coffee.md")))
    assert deleted["removedIndexLines"] == [lines[1]]
    assert index.read_bytes() == "\n".join([lines[0], lines[2], ""]).encode(codec)
    index_url = f"{memory_url()}/scopes/user/files/MEMORY.md"
    was = await ok_json(await client.get(f"{index_url}/versions/{deleted['restoreVersion']}"))
    assert was["text"] == "\n".join([*lines, ""])
    diff = await ok_json(await client.get(f"{index_url}/diff"))
    removed = [line["text"] for line in diff["hunks"][0]["lines"] if line["kind"] == "removed"]
    assert removed == [lines[1]]

    url = f"{file_url('user', 'coffee.md')}/restore"
    restored = await ok_json(await client.post(url, json={"version": deleted["restoreVersion"]}))
    assert restored["indexLinesAdded"] == [lines[1]]
    assert index.read_bytes() == before
