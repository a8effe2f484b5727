"""P-5: an import whose index the disk will not let it write fails, naming the file and why.

The scope's ``MEMORY.md`` is there, and the kernel refuses the import its rewrite: the scope's
folder is on a file system mounted read-only, or the account may not write in it. The topic
files the source brings are all there already, so the index lines are the one thing left to
write. The import reported "MEMORY.md cannot be rewritten (…): not rewritten; add these lines
by hand" and exited 0, as for an index the service must not rewrite (one not in UTF-8, T-2):
a script that runs the import saw it succeed. It exits 1 and says which file the kernel
refused and why, with what an operator must do; the index is left whole, as it was.

The read-only file system is real (a read-only bind mount); so is the refused write: the CLI
runs without the capabilities that let root write past a folder's mode (``setpriv``).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout

from tests.support.read_only_mount import read_only
from tests.support.refused_account import refused_prefix
from tests.support.serve import code_under_test, venv_bin

PROJECT, AGENT = "acme", "coder"
ARGS = ["--project", PROJECT, "--agent", AGENT, "--user"]
TOPIC = "uses-uv.md"
INDEX = "# Memory\n\n- [Old](old.md) an older note\n"
LINE = "- [Uses uv](uses-uv.md) the project uses uv"


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI on the test data dir, with the agent ``coder`` created."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["agent", "create", "--project", PROJECT, "--id", AGENT, "--name", "C"]) == 0
    return data_dir


@pytest.fixture
def source(env: Path, tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """``(source folder, user scope)``: the source's topic file is in the scope already, its
    index line is not; the scope's own index is there."""
    folder = tmp_path / "source"
    folder.mkdir()
    text = "---\ndescription: the project uses uv\n---\nuv.\n"
    (folder / TOPIC).write_text(text, encoding="utf-8")
    (folder / layout.INDEX_FILE).write_text(LINE + "\n", encoding="utf-8")
    scope = layout.memory_root(env, AGENT) / "user"
    scope.mkdir(parents=True, exist_ok=True)
    (scope / TOPIC).write_text(text, encoding="utf-8")
    (scope / layout.INDEX_FILE).write_text(INDEX, encoding="utf-8")
    yield folder, scope


def assert_refused(code: int, said: str, why: str, fix: str, scope: Path) -> None:
    """Exit 1, the index named with the kernel's reason and the fix, the index unchanged."""
    assert code == 1, said
    assert f"{layout.INDEX_FILE} cannot be written ({why}" in said, said
    assert fix in said, said
    assert "add these lines by hand" not in said
    assert (scope / layout.INDEX_FILE).read_text(encoding="utf-8") == INDEX
    assert [path.name for path in scope.iterdir() if path.name.startswith(".")] == []


def test_p5_an_index_on_a_read_only_file_system_fails_the_import_naming_it(
    source: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, scope = source
    with read_only(scope):
        code = main(["memory", "import", str(folder), *ARGS])
    said = capsys.readouterr().err
    assert_refused(
        code, said, "Read-only file system", "mount the file system holding it read-write", scope
    )


def test_p5_an_index_in_a_folder_the_account_may_not_write_fails_the_import_naming_it(
    source: tuple[Path, Path], env: Path, tmp_path: Path
) -> None:
    folder, scope = source
    prefix = refused_prefix()
    scope.chmod(0o555)
    try:
        done = subprocess.run(
            [*prefix, venv_bin("memory-api"), "memory", "import", str(folder), *ARGS],
            env={
                "PATH": os.environ.get("PATH", ""),
                "HOME": str(tmp_path),
                "MEMORY_API_DATA_DIR": str(env),
                "COLUMNS": "200",
                **code_under_test(),
            },
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        scope.chmod(0o755)
    assert_refused(
        done.returncode,
        done.stderr,
        "Permission denied",
        "give the account the service runs as read and write access to the scope's folder",
        scope,
    )


def test_p5_an_index_moved_away_between_the_read_and_the_write_fails_the_import(
    source: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent moves ``MEMORY.md`` away (``mv MEMORY.md INDEX.txt``) after the import read it
    and merged its lines, before the write: the lines are in no index, so the import fails
    naming the index, never "merged" (review rv-del70: the merge's lines reported added)."""
    from memory_core import file_edit

    folder, scope = source
    check = file_edit._check_writable
    moves = [scope / layout.INDEX_FILE]

    def moved_first(path: Path) -> None:
        if moves:
            moves.pop().rename(scope / "INDEX.txt")
        check(path)

    monkeypatch.setattr(file_edit, "_check_writable", moved_first)
    code = main(["memory", "import", str(folder), *ARGS])
    said = capsys.readouterr().err
    assert code == 1, said
    assert f"{layout.INDEX_FILE} cannot be written (" in said, said
    assert (scope / "INDEX.txt").read_text(encoding="utf-8") == INDEX
    assert not (scope / layout.INDEX_FILE).exists()
