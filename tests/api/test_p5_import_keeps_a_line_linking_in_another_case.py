"""P-5, T-5b: an import keeps the source's index line that links a file in another case.

Found with a variant of case ``import-another-projects-claude-memory``: a memory folder kept on
a disk that ignores case (macOS, Windows; Claude Code's folders often are) whose ``MEMORY.md``
writes ``- [Staging DB](Staging-DB.md) — deploys to staging-3`` for ``staging-db.md``. The
import left that line out ("links 'Staging-DB.md', which neither the source nor this scope
holds": the source does hold it) and made a line of its own from the file's description, so
the user's words were lost. Now the line is merged with its link pointed at the file as it is
named (or at the name it is imported under), the line's other text as written, and no line is
made for the file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout

PROJECT, AGENT = "acme", "coder"
ARGS = ["--project", PROJECT, "--agent", AGENT]
TOPIC = "---\nname: {0}\ndescription: {1}\n---\nbody\n"


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI on the test data dir, with the agent ``coder`` created; a wide terminal."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["agent", "create", "--project", PROJECT, "--id", AGENT, "--name", "C"]) == 0
    return data_dir


def _source(tmp_path: Path, index: str) -> Path:
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "staging-db.md").write_text(TOPIC.format("staging-db", "the staging database"))
    (folder / "other.md").write_text(TOPIC.format("other", "other"))
    (folder / layout.INDEX_FILE).write_text(index, encoding="utf-8")
    return folder


def _user_index(data_dir: Path) -> str:
    path = layout.memory_root(data_dir, AGENT) / "user" / layout.INDEX_FILE
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("written", "merged"),
    [
        (
            "- [Staging DB](Staging-DB.md) — deploys to staging-3",
            "- [Staging DB](staging-db.md) — deploys to staging-3",
        ),
        (
            "- [Staging DB](./STAGING-DB.MD#why) — deploys to staging-3",
            "- [Staging DB](./staging-db.md#why) — deploys to staging-3",
        ),
        (
            "- `Staging-DB.md` — deploys to staging-3",
            "- `staging-db.md` — deploys to staging-3",
        ),
    ],
    ids=["title-case", "upper-with-anchor", "entry"],
)
def test_p5_an_index_line_linking_an_imported_file_in_another_case_is_merged_as_written(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, merged: str
) -> None:
    folder = _source(tmp_path, f"{written}\n- [Other](other.md) — o\n")

    assert main(["memory", "import", str(folder), "--user", *ARGS]) == 0

    out = capsys.readouterr().out
    assert "index line not added" not in out
    assert _user_index(env) == f"{merged}\n- [Other](other.md) — o\n"


def test_p5_a_line_linking_in_another_case_a_file_imported_under_a_new_name_follows_it(
    env: Path, tmp_path: Path
) -> None:
    scope = layout.memory_root(env, AGENT) / "user"
    (scope / "staging-db.md").write_text(TOPIC.format("staging-db", "the scope's own"))
    (scope / layout.INDEX_FILE).write_text("- [Ours](staging-db.md) — ours\n", encoding="utf-8")
    folder = _source(tmp_path, "- [Staging DB](Staging-DB.md) — deploys to staging-3\n")

    assert main(["memory", "import", str(folder), "--user", *ARGS]) == 0

    assert _user_index(env).splitlines()[:2] == [
        "- [Ours](staging-db.md) — ours",
        "- [Staging DB](staging-db-imported.md) — deploys to staging-3",
    ]


def test_p5_a_line_linking_no_file_in_any_case_is_left_out_whatever_the_case_of_its_extension(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``gone.MD`` opens nothing on any disk: a dangling link (T-5), never merged."""
    folder = _source(tmp_path, "- [Gone](gone.MD) — never there\n- [Other](other.md) — o\n")

    assert main(["memory", "import", str(folder), "--user", *ARGS]) == 0

    assert "links 'gone.MD', which neither the source nor this scope holds" in (
        capsys.readouterr().out
    )
    assert "gone.MD" not in _user_index(env)


def _symlink(folder: Path) -> None:
    (folder / "Notes.md").symlink_to("/etc/hostname")


def _fifo(folder: Path) -> None:
    os.mkfifo(folder / "Notes.md")


def _not_a_topic_name(folder: Path) -> None:
    (folder / "Notes.MD").write_text(TOPIC.format("upper", "no topic file name"))


NOT_IMPORTED = {"symlink": ("Notes.md", _symlink), "fifo": ("Notes.md", _fifo)}
NOT_IMPORTED["not-a-topic-name"] = ("Notes.MD", _not_a_topic_name)


@pytest.mark.parametrize(("spelled", "make"), NOT_IMPORTED.values(), ids=NOT_IMPORTED)
def test_p5_a_line_linking_a_source_file_not_imported_is_left_out_not_pointed_at_its_twin(
    env: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    spelled: str,
    make: Callable[[Path], None],
) -> None:
    """The source holds ``notes.md`` and, spelled so, the file the link names (a symlink, a
    FIFO, a name that is no topic file's): that file is not imported, so the line linking it
    is left out and reported; it is never pointed at ``notes.md``, another file."""
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "notes.md").write_text(TOPIC.format("notes", "the lower one"))
    make(folder)
    (folder / layout.INDEX_FILE).write_text(
        f"- [Upper Notes]({spelled}) the OTHER file\n- [lower](notes.md) lower\n",
        encoding="utf-8",
    )

    assert main(["memory", "import", str(folder), "--user", *ARGS]) == 0

    assert f"links {spelled!r}, which was not imported" in capsys.readouterr().out
    assert _user_index(env) == "- [lower](notes.md) lower\n"
