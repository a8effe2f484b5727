"""P-5 with A-6's index forms: the import adds its index lines to a ``MEMORY.md`` that is not
UTF-8 in that index's own form, as the undo of a delete does.

The scope's index is written in UTF-16 (with or without its byte order mark), UTF-32,
Windows-1252 or with CR alone ending its lines; ``memory-api memory import`` of the case folder
(``tests/data/cases/import-claude-code-folder``: two index lines holding an em dash) appends its
two lines in the same encoding and line ends, every byte the index held kept; a dry run reports
them and writes nothing; a second run changes nothing. An index whose form cannot be told or
given back exactly is left alone, and the report says why and which lines to add by hand.
"""

from __future__ import annotations

import codecs
import re
import shutil
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout

CASE = Path(__file__).resolve().parents[1] / "data" / "cases" / "import-claude-code-folder"
ARGS = ["--project", "acme", "--agent", "coder"]
EXISTING = ["# Notizen – café", "- [Alt](alt.md) — old note"]
ADDED = [
    "- [Prefers uv](feedback_prefers_uv.md) — use uv, not pip, for Python envs",
    "- [Deploy notes](<Deploy notes.md>) — release checklist",
]


@pytest.fixture
def scope(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user scope of agent ``coder``, the CLI on the test data dir, a wide terminal."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    user = layout.memory_root(data_dir, "coder") / "user"
    user.mkdir(parents=True, exist_ok=True)
    return user


def run_import(source: Path, *extra: str) -> int:
    """``memory-api memory import SOURCE --user`` into the agent's user scope."""
    return main(["memory", "import", str(source), "--user", *extra, *ARGS])


def printed(capsys: pytest.CaptureFixture[str]) -> str:
    """What the command printed, its tables' cells joined: a wrapped line reads as one."""
    return " ".join(re.sub("[│┃]", " ", capsys.readouterr().out).split())


def files(scope: Path) -> dict[str, bytes]:
    """Every file of the scope, by name."""
    return {path.name: path.read_bytes() for path in sorted(scope.iterdir()) if path.is_file()}


@pytest.mark.parametrize(
    ("end", "codec", "bom"),
    [
        ("\r\n", "utf-16-le", codecs.BOM_UTF16_LE),
        ("\n", "utf-16-le", b""),
        ("\r\n", "utf-16-be", b""),
        ("\n", "cp1252", b""),
        ("\r", "utf-8", b""),
        ("\r", "cp1252", b""),
        ("\n", "utf-32-be", codecs.BOM_UTF32_BE),
    ],
    ids=[
        "utf-16-le-bom-crlf",
        "utf-16-le-without-bom",
        "utf-16-be-without-bom-crlf",
        "cp1252",
        "cr-only",
        "cp1252-cr-only",
        "utf-32-be-bom",
    ],
)
def test_p5_import_adds_index_lines_in_the_index_own_encoding_and_line_ends(
    scope: Path, capsys: pytest.CaptureFixture[str], end: str, codec: str, bom: bytes
) -> None:
    def encoded(lines: list[str]) -> bytes:
        return bom + end.join([*lines, ""]).encode(codec)

    index = scope / layout.INDEX_FILE
    index.write_bytes(encoded(EXISTING))
    before = files(scope)

    assert run_import(CASE / "memory", "--dry-run") == 0
    dry = printed(capsys)
    assert "2 lines merged into MEMORY.md" in dry and "by hand" not in dry
    assert files(scope) == before  # the dry run only reports

    assert run_import(CASE / "memory") == 0
    out = printed(capsys)
    assert "2 lines merged into MEMORY.md" in out and "by hand" not in out
    assert index.read_bytes() == encoded([*EXISTING, *ADDED])  # every byte it held, then ours
    for name in ("feedback_prefers_uv.md", "Deploy notes.md"):
        assert (scope / name).read_bytes() == (CASE / "memory" / name).read_bytes()

    after = files(scope)
    assert run_import(CASE / "memory") == 0
    assert "Nothing to change" in printed(capsys)
    assert files(scope) == after


def test_p5_import_an_index_without_a_final_line_end_gets_one_in_its_own_form(
    scope: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = scope / layout.INDEX_FILE
    written = codecs.BOM_UTF16_LE + "\r\n".join(EXISTING).encode("utf-16-le")
    index.write_bytes(written)
    assert run_import(CASE / "memory") == 0
    added = "".join(f"\r\n{line}" for line in ADDED) + "\r\n"
    assert index.read_bytes() == written + added.encode("utf-16-le")


@pytest.mark.parametrize(
    ("written", "why"),
    [
        ("# メモ\n- [古い](alt.md) 古いメモ\n".encode("cp932"), "encoding cannot be told"),
        ("# 备忘录\n- [旧](alt.md) 旧笔记\n".encode("gb18030"), "encoding cannot be told"),
        (
            codecs.BOM_UTF16_LE + "- [Alt](alt.md)\n".encode("utf-16-le") + b"\x00",
            "do not decode exactly",
        ),
    ],
    ids=["shift-jis", "gb18030", "utf-16-odd-byte"],
)
def test_p5_import_an_index_whose_form_cannot_be_told_is_left_alone_and_reported(
    scope: Path, capsys: pytest.CaptureFixture[str], written: bytes, why: str
) -> None:
    index = scope / layout.INDEX_FILE
    index.write_bytes(written)
    assert run_import(CASE / "memory", "--dry-run") == 0
    dry = printed(capsys)
    assert why in dry and "add these lines by hand" in dry
    assert run_import(CASE / "memory") == 0
    out = printed(capsys)
    assert index.read_bytes() == written  # nothing written to it (T-2)
    assert (scope / "Deploy notes.md").exists()  # the topic files are in place
    assert why in out and "add these lines by hand" in out
    assert "[Deploy notes](<Deploy notes.md>)" in out


def test_p5_import_into_an_index_of_mixed_line_ends_keeps_each_line_end(
    scope: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An index whose lines end in more than one way (CR alone beside CRLF and LF) takes the
    imported lines, each ending as most of its lines end, every byte of it kept in front."""
    index = scope / layout.INDEX_FILE
    written = b"- [Alt](alt.md)\r\n- [Old](old.md)\r- [New](new.md)\r\n"
    index.write_bytes(written)
    assert run_import(CASE / "memory") == 0
    out = printed(capsys)
    now = index.read_bytes()
    assert now.startswith(written) and "add these lines by hand" not in out
    added = now[len(written) :]
    assert added.count(b"\r\n") == added.count(b"\n") == added.count(b"\r") > 0


def test_p5_import_again_into_an_index_left_alone_never_says_everything_is_there(
    scope: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The topic files went in, their lines could not: a second run changes nothing, and it
    says which lines are still missing, never "everything offered is already there"."""
    index = scope / layout.INDEX_FILE
    written = codecs.BOM_UTF16_LE + "- [Alt](alt.md)\n".encode("utf-16-le") + b"\x00"
    index.write_bytes(written)
    assert run_import(CASE / "memory") == 0
    capsys.readouterr()

    assert run_import(CASE / "memory") == 0
    out = printed(capsys)

    assert index.read_bytes() == written
    assert "everything offered is already there" not in out
    assert "Nothing changed, but not added: 3 index lines (see why above)" in out  # its title too
    assert "add these lines by hand" in out and "[Deploy notes](<Deploy notes.md>)" in out


def test_p5_import_a_character_the_index_encoding_cannot_hold_leaves_it_alone(
    scope: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "memory"
    shutil.copytree(CASE / "memory", source)
    (source / layout.INDEX_FILE).write_text(
        "- [Deploy notes](<Deploy notes.md>) → release checklist\n", encoding="utf-8"
    )
    index = scope / layout.INDEX_FILE
    written = "\n".join([*EXISTING, ""]).encode("cp1252")
    index.write_bytes(written)
    assert run_import(source) == 0
    out = printed(capsys)
    assert index.read_bytes() == written
    assert "cannot hold '→'" in out and "add these lines by hand" in out


def test_p5_import_lines_after_which_the_index_would_read_otherwise_leave_it_alone(
    scope: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """UTF-16 without its byte order mark is told by its NUL bytes; a long line of CJK text
    holds none, so after it the index would no longer read as UTF-16."""
    source = tmp_path / "memory"
    shutil.copytree(CASE / "memory", source)
    line = "- [Deploy notes](<Deploy notes.md>) " + "発行の手順" * 200
    (source / layout.INDEX_FILE).write_text(line + "\n", encoding="utf-8")
    index = scope / layout.INDEX_FILE
    written = "- [Alt](alt.md) — old note\n".encode("utf-16-le")
    index.write_bytes(written)
    assert run_import(source) == 0
    out = printed(capsys)
    assert index.read_bytes() == written
    assert "would no longer read as utf-16-le" in out and "add these lines by hand" in out


def test_p5_import_a_source_in_a_legacy_cjk_encoding_is_skipped_not_garbled(
    scope: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """T-2: a Shift-JIS topic file and index are not stored as UTF-8 from a cp1252 reading
    (mojibake for good); each is listed as skipped, naming the encoding and the iconv command.
    A Windows-1252 topic is still transcoded."""
    source = tmp_path / "memory"
    source.mkdir()
    topic = "---\nname: deploy\ndescription: 金曜日はデプロイしない\n---\n本文\n"
    (source / "deploy.md").write_bytes(topic.encode("cp932"))
    (source / "MEMORY.md").write_bytes("- [デプロイ](deploy.md) - 金曜日\n".encode("cp932"))
    cafe = "---\nname: cafe\ndescription: Café, Noël\n---\nbody\n"
    (source / "cafe.md").write_bytes(cafe.encode("cp1252"))

    assert run_import(source) == 0
    out = printed(capsys)

    assert sorted(files(scope)) == ["MEMORY.md", "cafe.md"]
    assert files(scope)["cafe.md"] == cafe.encode()
    assert "ƒ" not in files(scope)["MEMORY.md"].decode()
    assert out.count("not imported: it is not UTF-8, and looks like Shift-JIS (cp932") == 2
    assert "iconv -f CP932 -t UTF-8" in out


SHORT_NOTES = {
    "latin1": ["Café", "Ærø", "çà", "Größe"],
    "cp1252": ["‘a’", "50 €", "„Zitat“"],
    "cp932": ["設定", "メモ"],
    "big5": ["中文", "資料"],
    "koi8_r": ["Кофе", "мир"],
    "cp1251": ["Кофе", "Тест"],
}
OWN_NAME = {
    "latin1": "Windows-1252 (Western)",
    "cp1252": "Windows-1252 (Western)",
    "cp932": "Shift-JIS",
    "big5": "Big5",
    "koi8_r": "KOI8-R (Cyrillic)",
    "cp1251": "Windows-1251 (Cyrillic)",
}


def test_t2_p5_import_of_short_notes_never_stores_a_wrong_reading(
    scope: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Short notes in Latin-1, Windows-1252, Shift-JIS, Big5, KOI8-R and Windows-1251: each is
    stored as the text it was written as, or skipped by its name with the encodings it may be
    in (its own among them), never stored as text read in another one. ``Кофе`` in
    Windows-1251 was named GBK/GB18030, ``- [Ærø](a.md)`` Big5, ``- [‘a’](a.md)``
    Shift-JIS: each now names Windows-1251 or Windows-1252 (Western) too."""
    source = tmp_path / "memory"
    source.mkdir()
    written: dict[str, tuple[str, str]] = {}
    for codec, words in SHORT_NOTES.items():
        for number, word in enumerate(words):
            for form, text in (("title", f"# {word}\n"), ("entry", f"- [{word}](a.md)\n")):
                name = f"{codec.replace('_', '-')}-{number}-{form}.md"
                (source / name).write_bytes(text.encode(codec.replace("latin1", "latin_1")))
                written[name] = (text, codec)

    monkeypatch.setenv("COLUMNS", "600")  # each file's path and reason on one row
    assert run_import(source) == 0
    out = printed(capsys)

    stored = files(scope)
    skipped = []
    for name, (text, codec) in written.items():
        if name in stored:
            assert stored[name] == text.encode(), (name, stored[name].decode())
            continue
        skipped.append(name)
        reason = out[out.index(name) + len(name) :][:600]
        assert reason.lstrip().startswith("not imported: it is not UTF-8, and looks like "), name
        assert OWN_NAME[codec] in reason.split(", then import it again")[0], (name, reason)
    assert "GBK/GB18030" not in out  # no Windows-1251 or Big5 note named so
    for codec in ("cp932", "big5", "koi8_r", "cp1251"):  # none stored as a Western reading
        assert all(name in skipped for name in written if name.startswith(codec.replace("_", "-")))
    for name in ("latin1-1-entry.md", "cp1252-0-entry.md", "cp1251-0-title.md"):
        assert name in skipped  # once named Big5, Shift-JIS, GBK/GB18030 alone
