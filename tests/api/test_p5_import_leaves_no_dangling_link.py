"""P-5, T-5a: an import merges no index line that would link to nothing in the scope.

The source index links topic files the import does not take: one that cannot be read
(``Permission denied``), a symlink, a FIFO, a file in a sub-folder, one the source never held.
Each used to be merged all the same (the report listing the file as not imported): the scope
then held a dangling link, an ``error`` finding, injected into every Session. Right: such a
line is not merged, unless the scope already holds a file of that name; the report says which
lines were left out and why; the source is untouched, and once the file can be imported a
later run merges its line.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from memory_api.cli import main
from memory_api.store.containment import read_regular
from memory_core import layout
from memory_core.index import index_lines, linked_topic_files

CASE = Path(__file__).resolve().parents[1] / "data" / "cases" / "import-claude-code-folder"
PROJECT, AGENT = "acme", "coder"
ARGS = ["--project", PROJECT, "--agent", AGENT]
KEPT = [
    "- [Prefers uv](feedback_prefers_uv.md) — use uv, not pip, for Python envs",
    "- [Deploy notes](<Deploy notes.md>) — release checklist",
]
LEFT_OUT = {
    "- [Private](private.md) — the team's keys policy": (
        "links 'private.md', which was not imported (cannot be read (Permission denied))"
    ),
    "- [Linked](linked.md) — kept elsewhere": (
        "links 'linked.md', which was not imported (a symlink (not followed))"
    ),
    "- [Pipe](pipe.md) — a FIFO": "links 'pipe.md', which was not imported (not a regular file",
    "- [Old](archive/old.md) — last year": (
        "links 'archive/old.md', which was not imported (a folder (only the top level is imported))"
    ),
    "- [Gone](gone.md) — never there": (
        "links 'gone.md', which neither the source nor this scope holds"
    ),
}


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI on the test data dir, with the agent ``coder`` created; a wide terminal."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["agent", "create", "--project", PROJECT, "--id", AGENT, "--name", "C"]) == 0
    return data_dir


@pytest.fixture
def source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The case folder plus the entries the import does not take, each linked by its index;
    ``private.md`` cannot be read (the service's account may not: the tests run as root, so
    the refusal is the operating system's answer made for it)."""
    folder = tmp_path / "src"
    shutil.copytree(CASE / "memory", folder)
    (folder / "private.md").write_text("---\nname: private\n---\nkeys\n", encoding="utf-8")
    (tmp_path / "elsewhere.md").write_text("outside\n", encoding="utf-8")
    (folder / "linked.md").symlink_to(tmp_path / "elsewhere.md")
    os.mkfifo(folder / "pipe.md")
    (folder / "archive").mkdir()
    (folder / "archive" / "old.md").write_text("old\n", encoding="utf-8")
    index = folder / layout.INDEX_FILE
    index.write_text(index.read_text(encoding="utf-8") + "\n".join(LEFT_OUT) + "\n", "utf-8")

    def refused(path: Path, cap: int, **options: Any) -> tuple[bytes, os.stat_result]:
        if Path(path).name == "private.md":
            raise PermissionError(errno.EACCES, "Permission denied")
        return read_regular(path, cap, **options)

    monkeypatch.setattr("memory_api.transfer.sources.read_regular", refused)
    return folder


def user_scope(data_dir: Path) -> Path:
    return layout.memory_root(data_dir, AGENT) / "user"


def run(*argv: str) -> int:
    return main(["memory", "import", *argv, "--user", *ARGS])


def left_out_rows(out: str) -> dict[str, str]:
    """Each "index line not added" row of the report: the line and its reason."""
    rows: dict[str, str] = {}
    for row in out.splitlines():
        cells = [cell.strip() for cell in row.strip("│ ").split("│")]
        if len(cells) == 3 and cells[0] == "index line not added":
            rows[cells[1]] = cells[2]
    return rows


def dangling(scope: Path) -> list[str]:
    """The index's links (Markdown files of the scope's folder) to nothing there."""
    text = (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    targets = [t for t in linked_topic_files(text) if t.endswith(".md")]
    return [t for t in targets if not (scope / t).is_file()]


def test_p5_an_index_line_to_a_file_not_imported_is_left_out_and_said_why(
    env: Path, source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.name: p.read_bytes() for p in source.iterdir() if p.is_file()}

    assert run(str(source)) == 0

    out = capsys.readouterr().out
    scope = user_scope(env)
    assert dangling(scope) == []
    assert [line for line in index_lines((scope / layout.INDEX_FILE).read_text()) if line][
        1:
    ] == KEPT
    rows = left_out_rows(out)
    assert set(rows) == set(LEFT_OUT)
    for line, why in LEFT_OUT.items():
        assert rows[line].startswith(why), (line, rows[line])
        assert rows[line].endswith("the line would link to nothing in this scope")
    assert {p.name: p.read_bytes() for p in source.iterdir() if p.is_file()} == before


def test_p5_a_dry_run_says_the_same_lines_would_be_left_out(
    env: Path, source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(str(source), "--dry-run") == 0

    assert set(left_out_rows(capsys.readouterr().out)) == set(LEFT_OUT)
    assert not (user_scope(env) / layout.INDEX_FILE).exists()


def test_p5_a_line_to_a_file_the_scope_holds_already_is_merged(
    env: Path, source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scope = user_scope(env)
    ours = b"---\nname: private\ndescription: the scope's own\n---\nours\n"
    (scope / "private.md").write_bytes(ours)

    assert run(str(source)) == 0

    rows = left_out_rows(capsys.readouterr().out)
    assert "- [Private](private.md) — the team's keys policy" not in rows
    assert "- [Private](private.md) — the team's keys policy" in index_lines(
        (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    )
    assert (scope / "private.md").read_bytes() == ours
    assert dangling(scope) == []


def test_p5_once_the_file_can_be_imported_a_later_run_merges_its_line(
    env: Path, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(str(source)) == 0
    capsys.readouterr()
    assert run(str(source)) == 0  # nothing changed: the lines are still said
    out = capsys.readouterr().out
    assert set(left_out_rows(out)) == set(LEFT_OUT)
    assert "Nothing changed, but not added: 5 index lines (see why above)" in out

    (source / "linked.md").unlink()
    shutil.copy(tmp_path / "elsewhere.md", source / "linked.md")
    assert run(str(source)) == 0

    rows = left_out_rows(capsys.readouterr().out)
    scope = user_scope(env)
    assert "- [Linked](linked.md) — kept elsewhere" not in rows
    assert "- [Linked](linked.md) — kept elsewhere" in index_lines(
        (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    )
    assert dangling(scope) == []
