"""P-5 / A-7: an import copies no file of its source that has a name outside that folder.

``ln ~/.ssh/config src/notes.md`` makes ``notes.md`` a regular file by every ``stat``, yet its
content is another file's. A symlink in the source is refused ("a symlink (not followed)") and
the service refuses a memory file with other hard links; the import refuses it the same way:
named in its report with the reason, nothing of it copied into the scope (nor its history).
Run through the real command line against a data dir under ``tmp_path``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout
from memory_core.hard_links import HARD_LINKED

CASE = Path(__file__).resolve().parents[1] / "data" / "cases" / "import-claude-code-folder"
PROJECT, AGENT = "acme", "coder"
SECRET = "Host prod\n  IdentityFile ~/.ssh/prod_key\n"


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI on the test data dir, with the agent ``coder`` created; a wide terminal."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "400")
    args = ["agent", "create", "--project", PROJECT, "--id", AGENT, "--name", "C"]
    assert main(args) == 0
    return data_dir


def test_p5_a7_a_source_file_hard_linked_outside_the_source_is_refused_and_named(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "src"
    shutil.copytree(CASE / "memory", source)
    outside = tmp_path / "outside" / "config"
    outside.parent.mkdir()
    outside.write_text(SECRET, encoding="utf-8")
    os.link(outside, source / "notes.md")
    (source / "twin.md").write_text("---\nname: twin\n---\nsame file, two names here\n")
    os.link(source / "twin.md", source / "twin-too.md")  # both names in the source: imported

    argv = ["memory", "import", str(source), "--user", "--project", PROJECT, "--agent", AGENT]
    assert main(argv) == 0

    out = capsys.readouterr().out
    line = next((line for line in out.splitlines() if "notes.md" in line), "")
    assert "a file with other hard links" in line, out
    assert HARD_LINKED.split(",")[0] in line
    scope = layout.memory_root(env, AGENT) / "user"
    assert not (scope / "notes.md").exists()
    assert (scope / "twin.md").is_file() and (scope / "twin-too.md").is_file()
    kept = [p for p in layout.memory_root(env, AGENT).parent.rglob("*") if p.is_file()]
    assert not [p for p in kept if b"prod_key" in p.read_bytes()]
    assert outside.read_text(encoding="utf-8") == SECRET


def test_p5_a_hard_linked_backup_is_refused_with_the_way_to_import_it(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup made with ``cp -al`` (rsnapshot's way) names every file twice: nothing of it
    is imported, and each refusal says the way on, copying the folder and importing the copy
    (before, the report said only "a file with other hard links" and the import exited 0)."""
    source = tmp_path / "src"
    shutil.copytree(CASE / "memory", source)
    backup = tmp_path / "backup"
    backup.mkdir()
    for path in source.iterdir():
        os.link(path, backup / path.name)

    argv = ["memory", "import", str(backup), "--user", "--project", PROJECT, "--agent", AGENT]
    main(argv)

    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if HARD_LINKED.split(",")[0] in line]
    assert len(lines) == len(list(source.iterdir())), out
    way = "copy the source folder (`cp -r SRC COPY`: each copy has one name) and import the copy"
    assert all(way in line for line in lines), out
