"""P-5: an import of a hostile source is refused or reported, never a traceback or a flood.

What an import reads is held in memory until it is written: a source holding more than
``IMPORT_READ_CAP`` bytes of files (an archive whose members compress a thousandfold, a folder
of large sparse files) is refused before anything is written, instead of taking gigabytes.
A tree nested thousands of folders deep is walked, and JSON nested deeper than Python reads is
"not JSON", never a ``RecursionError``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from memory_api.cli import main
from memory_api.transfer import ownership, sources, topic_making
from memory_api.transfer.harness_files import walk_files
from memory_api.transfer.sources import ARCHIVE_FORMAT, SourceError, read_folder
from memory_core import layout
from memory_core.scope_files import TOPIC_CAP

PROJECT, AGENT = "acme", "coder"
ARGS = ["--project", PROJECT, "--agent", AGENT]
T = TypeVar("T")
CAP = 4 * 1024 * 1024
"""The read cap the tests set: the rule is the same at 256 MiB, only slower to show."""


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI on the test data dir, with the agent ``coder`` created."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    # wide enough that rich folds no cell: a test's paths grow with pytest's numbered folder
    # (pytest-1022/…), and a name folded across two lines is not the text a test looks for
    monkeypatch.setenv("COLUMNS", "1000")
    assert main(["agent", "create", "--project", PROJECT, "--id", AGENT, "--name", "C"]) == 0
    return data_dir


def _user_scope(data_dir: Path) -> Path:
    return layout.memory_root(data_dir, AGENT) / "user"


def _archive(path: Path, members: dict[str, bytes]) -> Path:
    manifest = json.dumps({"format": ARCHIVE_FORMAT}).encode()
    with tarfile.open(path, "w:gz") as archive:
        for name, data in {"agent-memory/export.json": manifest, **members}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_p5_an_archive_of_members_that_compress_a_thousandfold_is_refused_unread(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """300 members of 15 MiB of one letter made a 20 MB archive that the import read whole
    into memory (4.5 GB: a MemoryError, or the machine's memory gone)."""
    monkeypatch.setattr(sources, "IMPORT_READ_CAP", CAP)
    member = b"a" * (CAP // 3)
    bomb = _archive(
        tmp_path / "bomb.tar.gz",
        {f"agent-memory/scopes/user/f{number:03d}.md": member for number in range(40)},
    )
    assert bomb.stat().st_size < CAP // 10
    assert main(["memory", "import", str(bomb), *ARGS]) == 1
    err = capsys.readouterr().err
    assert "the source holds more than 4 MiB of files (at bomb.tar.gz:agent-memory/" in err
    assert "/scopes/user/f003.md)" in err  # the 4th member passes the cap: none after is read
    assert "import its folders or scopes one at a time" in err
    assert "Traceback" not in err
    scope = _user_scope(env)
    assert not scope.exists() or not any(scope.glob("f*.md"))  # nothing written


def test_p5_a_folder_of_large_sparse_files_is_refused_before_anything_is_written(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sources, "IMPORT_READ_CAP", CAP)
    folder = tmp_path / "memory"
    folder.mkdir()
    for number in range(10):
        with (folder / f"big-{number}.md").open("wb") as handle:
            handle.truncate(CAP // 3)  # sparse: no disk, yet every byte is read
    assert main(["memory", "import", str(folder), "--user", *ARGS]) == 1
    err = capsys.readouterr().err
    assert "the source holds more than 4 MiB of files" in err and "big-3.md" in err
    scope = _user_scope(env)
    assert not scope.exists() or not any(scope.glob("big-*.md"))
    with pytest.raises(SourceError, match="more than 4 MiB of files"):
        read_folder(folder)  # the rule holds for every reader, not only the command


def test_p5_a_source_under_the_cap_is_imported_whole(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The budget is one per import: two imports in a row each get all of it."""
    monkeypatch.setattr(sources, "IMPORT_READ_CAP", CAP)
    folder = tmp_path / "memory"
    folder.mkdir()
    for number in range(3):
        (folder / f"note-{number}.md").write_bytes(b"x" * (CAP // 4))
    for _ in range(2):
        assert main(["memory", "import", str(folder), "--user", *ARGS]) == 0
    assert sorted(path.name for path in _user_scope(env).glob("note-*.md")) == [
        "note-0.md",
        "note-1.md",
        "note-2.md",
    ]


def _deep_tree(root: Path, depth: int) -> Path:
    """``root/a/a/…/a/note.md``, ``depth`` folders deep (made from inside, as paths this long
    are past what one call may name)."""
    root.mkdir()
    here = os.open(root, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("a", dir_fd=here)
            inner = os.open("a", os.O_RDONLY, dir_fd=here)
            os.close(here)
            here = inner
        note = os.open("note.md", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=here)
        os.write(note, b"deep down\n")
        os.close(note)
    finally:
        os.close(here)
    return root


@pytest.fixture
def deep_tree(tmp_path: Path) -> Iterator[Path]:
    """:func:`_deep_tree` of 1500 folders, removed by ``rm -rf`` after the test: left in
    ``tmp_path``, it would be removed by pytest's own clean-up of old temporary folders in a
    later session, whose recursive ``shutil.rmtree`` it takes past Python's recursion limit
    (the session then ends in an error, its test results all passed)."""
    folder = _deep_tree(tmp_path / "memories", 1500)
    try:
        yield folder
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=True)


def test_p5_a_tree_thousands_of_folders_deep_is_walked_not_a_recursion_error(
    env: Path, deep_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1500 nested folders were a RecursionError traceback of ``--from memory-tool``."""
    folder = deep_tree
    skipped: list[sources.Skipped] = []
    assert [path.name for path in walk_files(folder, skipped)] == ["note.md"]
    assert skipped == []
    argv = ["memory", "import", str(folder), "--from", "memory-tool", "--user", *ARGS]
    assert main(argv) == 0
    assert "Traceback" not in capsys.readouterr().err
    [stored] = _user_scope(env).glob("a-a-*.md")
    assert stored.read_bytes().endswith(b"deep down\n")


def test_p5_json_nested_deeper_than_python_reads_is_not_json(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A memory-tool ``.json`` file or an archive's ``export.json`` of 200 000 ``[`` was a
    RecursionError traceback."""
    folder = tmp_path / "memories"
    folder.mkdir()
    (folder / "deep.json").write_bytes(b"[" * 200_000)
    (folder / "kept.md").write_text("kept\n", encoding="utf-8")
    argv = ["memory", "import", str(folder), "--from", "memory-tool", "--user", *ARGS]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "JSON that is not a memory entry" in out
    assert (_user_scope(env) / "kept.md").exists()

    archive = tmp_path / "deep.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("agent-memory/export.json")
        info.size = 200_000
        tar.addfile(info, io.BytesIO(b"[" * 200_000))
    assert main(["memory", "import", str(archive), *ARGS]) == 1
    err = capsys.readouterr().err
    assert "export.json is not JSON" in err and "Traceback" not in err
    with pytest.raises(ValueError, match="nested too deep"):
        sources.json_value(b"[" * 200_000)


def test_p5_names_and_lines_a_source_chose_reach_the_terminal_as_text(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file named with a terminal's escape sequence (ESC [2J clears the screen, ESC ] sets
    the window title or, OSC 52, the clipboard) reached the operator's terminal as it was, and
    so did one in a description made into an index line; rich's markup ate ``[red]``."""
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "a\x1b[2Jcleared.md").write_text("x\n", encoding="utf-8")
    (folder / "b\x1b]52;c;ZXZpbA==\x07.md").write_text("x\n", encoding="utf-8")
    (folder / "[red]plain.md").write_text("x\n", encoding="utf-8")
    (folder / "made.md").write_text(
        "---\nname: made\ndescription: \x1b[8mhidden\n---\nbody\n", encoding="utf-8"
    )
    assert main(["memory", "import", str(folder), "--user", "--dry-run", *ARGS]) == 0
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out + captured.err
    assert "a\\x1b[2Jcleared.md" in captured.out
    assert "b\\x1b]52;c;ZXZpbA==\\x07.md" in captured.out
    assert "[red]plain.md" in captured.out
    # the line made for made.md holds what a person sees (I-9): the escape left out
    assert "made.md) — [8mhidden" in captured.out


def test_p5_a_json_note_holding_a_lone_surrogate_is_not_a_memory_entry(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``{"fact": "\\ud800"}`` (valid JSON, no text) failed the whole import with "'utf-8'
    codec can't encode character", naming no file; now that file is reported and the rest
    imported."""
    folder = tmp_path / "memories"
    folder.mkdir()
    (folder / "odd.json").write_text('{"subject": "x", "fact": "f\\ud800"}', encoding="utf-8")
    (folder / "fine.json").write_text('{"subject": "Fine", "fact": "kept"}', encoding="utf-8")
    argv = ["memory", "import", str(folder), "--from", "memory-tool", "--user", *ARGS]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "odd.json" in out and "JSON that is not a memory entry" in out
    assert any(b"kept" in path.read_bytes() for path in _user_scope(env).glob("*.md"))


def _finishes(call: Callable[[], T]) -> T:
    """``call()`` run in a thread of its own; its result, failing (not hanging) when it has not
    returned after 60 s: a read that blocks would otherwise hold the suite for ever."""
    outcome: list[T] = []
    worker = threading.Thread(target=lambda: outcome.append(call()), daemon=True)
    worker.start()
    worker.join(60)
    assert outcome, "still reading after 60 s: it blocked"
    return outcome[0]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_p5_a_harness_settings_file_that_is_a_fifo_or_a_device_is_never_read(
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    kind: str,
) -> None:
    """``~/.claude/settings.json`` as a FIFO blocked ``--from claude-code`` for ever; linked to
    ``/dev/zero`` it was read until memory ran out. Gemini CLI's settings and registry, VS
    Code's ``workspace.json``, a ``.git`` pointer and Claude Code's transcripts are read the
    same bounded way: a regular file, at most 1 MiB (4 MiB of a transcript)."""
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    workspace = tmp_path / "src" / "shop"
    workspace.mkdir(parents=True)
    odd = home / ".claude" / "settings.json"
    if kind == "fifo":
        os.mkfifo(odd)
    else:
        odd.symlink_to("/dev/zero")
    for env in ("CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(env, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    assert main(["agent", "create", "--project", PROJECT, "--id", AGENT, "--name", "C"]) == 0

    argv = ["memory", "import", "--from", "claude-code", "--workspace", str(workspace), *ARGS]
    assert _finishes(lambda: main(argv)) == 1  # nothing kept there: said, never blocked
    assert "Claude Code keeps no memory for that Workspace here" in capsys.readouterr().err
    assert _finishes(lambda: sources.read_small_text(odd)) is None
    transcript = home / ".claude" / "session.jsonl"
    os.mkfifo(transcript)
    assert _finishes(lambda: ownership.transcript_directories(transcript.parent)) == set()


@pytest.mark.parametrize(
    ("marker", "reason"),
    [
        (b"/srv/shop\n/etc\x00x\x1b[2J", "must not hold"),
        (b"relative/path", "must be an absolute path"),
        (b"/" + b"a" * 5000, "must be at most 4096 bytes long"),
        (b"\xff\xfe/srv/shop", "is not UTF-8"),
    ],
    ids=["lines-nul-escape", "relative", "5000-bytes", "not-utf-8"],
)
def test_p5_an_archived_marker_that_names_no_workspace_path_is_not_restored(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], marker: bytes, reason: str
) -> None:
    """An export archive's ``.workspace`` was restored as it was: several lines, a NUL, an
    escape sequence, a relative path, 5 MB, bytes that are not UTF-8 (as U+FFFD). None is a
    path a Session start writes (K-5); the scope and its memories are restored without it."""
    archive = _archive(
        tmp_path / "odd.tar.gz",
        {
            "agent-memory/scopes/shop-0123abcd/.workspace": marker,
            "agent-memory/scopes/shop-0123abcd/kept.md": b"---\nname: kept\n---\nkept\n",
        },
    )
    assert main(["memory", "import", str(archive), *ARGS]) == 0
    out = capsys.readouterr().out
    assert "a marker that names no Workspace path: it " + reason in out
    scope = layout.memory_root(env, AGENT) / "shop-0123abcd"
    assert (scope / "kept.md").exists()
    assert not (scope / layout.MARKER_FILE).exists()


def test_p5_an_archived_marker_naming_a_workspace_path_is_restored(
    env: Path, tmp_path: Path
) -> None:
    archive = _archive(
        tmp_path / "fine.tar.gz",
        {"agent-memory/scopes/shop-0123abcd/.workspace": b"/srv/shop\n"},
    )
    assert main(["memory", "import", str(archive), *ARGS]) == 0
    marker = layout.memory_root(env, AGENT) / "shop-0123abcd" / layout.MARKER_FILE
    assert marker.read_text(encoding="utf-8") == "/srv/shop\n"


def test_p5_a_line_of_a_million_spaces_after_a_hash_is_read_in_linear_time(
    env: Path, tmp_path: Path
) -> None:
    """A topic file without a description gets an index line from its first heading; the
    heading pattern backtracked in quadratic time: ``# a``, 80 000 spaces and ``b`` took 18 s,
    this 1 MiB line about an hour. The same line split into sections (a coding agent's file
    made into topic files) is just as long. The file is as large as a topic file may be
    imported (the service's 1 MiB read cap)."""
    folder = tmp_path / "memory"
    folder.mkdir()
    line = "# a" + " " * (TOPIC_CAP - 16) + "b"
    (folder / "wide.md").write_text(line + "\nbody\n", encoding="utf-8")
    argv = ["memory", "import", str(folder), "--user", *ARGS]
    assert _finishes(lambda: main(argv)) == 0
    assert (_user_scope(env) / "wide.md").exists()
    assert len(_finishes(lambda: topic_making.sections(line + "\ntext\n", 2))) == 1


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("# Title", (1, "Title")),
        ("## Deploy steps ##", (2, "Deploy steps")),
        ("###   C# \t#", (3, "C")),
        ("# ", (1, "")),
        ("####### seven", None),
        ("#no-space", None),
    ],
)
def test_p5_headings_read_as_before(line: str, heading: tuple[int, str] | None) -> None:
    """The linear reading gives what the backtracking pattern gave: the text without the
    closing run of spaces, tabs and ``#``."""
    found = topic_making.sections(f"{line}\nbody\n", 6)
    if heading is None:
        assert [section.level for section in found] == [0]
    else:
        assert [(found[0].level, found[0].title)] == [heading]
