"""P-5: ``memory-api memory import`` — nothing lost, nothing overwritten, reported, idempotent.

Run through the real command line (:func:`memory_api.cli.main`) against a data dir under
``tmp_path``; the case folder is ``tests/data/cases/import-claude-code-folder`` (a memory
folder as Claude Code keeps it: an index with a heading and an angle-bracket link to a file
name with a space, snake_case names, ``metadata.type``, extra fields).
"""

from __future__ import annotations

import errno
import io
import itertools
import os
import shutil
from collections.abc import Collection
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.store.locks import Locks, LockTimeoutError, lock_name
from memory_api.transfer.console import NO_MEMORY_HERE, PROGRESS_MIN_FILES, import_progress
from memory_api.transfer.runner import Target, run_import
from memory_api.transfer.sources import read_folder
from memory_core import index_rewrite, layout
from memory_core.atomic import atomic_write_bytes
from memory_core.index import index_lines, linked_topic_files
from memory_core.index_merge import IndexMerge, merge_index
from memory_core.keys import key_for_real_path
from memory_core.scope_files import TOPIC_CAP
from memory_core.topics import parse_topic
from rich.console import Console

from tests.support.read_only_mount import read_only

CASE = Path(__file__).resolve().parents[1] / "data" / "cases" / "import-claude-code-folder"
PROJECT, AGENT = "acme", "coder"
ARGS = ["--project", PROJECT, "--agent", AGENT]


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI on the test data dir, with the agent ``coder`` created; a wide terminal."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["agent", "create", "--project", PROJECT, "--id", AGENT, "--name", "C"]) == 0
    return data_dir


def user_scope(data_dir: Path) -> Path:
    """The agent's user scope directory."""
    return layout.memory_root(data_dir, AGENT) / "user"


def snapshot(directory: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under ``directory`` but the locks and the versions (V-1): bytes, inode and
    mtime (a rewrite changes one of them)."""
    found: dict[str, tuple[bytes, int, int]] = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file() and not {"locks", "history"} & set(path.relative_to(directory).parts):
            info = path.stat()
            found[str(path.relative_to(directory))] = (
                path.read_bytes(),
                info.st_ino,
                info.st_mtime_ns,
            )
    return found


def run(*argv: str) -> int:
    """Run the CLI."""
    return main(["memory", "import", *argv, *ARGS])


def test_p5_case_folder_imported_whole(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(str(CASE / "memory"), "--user") == 0
    out = capsys.readouterr().out
    scope = user_scope(env)
    for name in ("feedback_prefers_uv.md", "Deploy notes.md"):
        assert (scope / name).read_bytes() == (CASE / "memory" / name).read_bytes()
    # extra fields stay: the file is the source byte for byte
    assert b"originSessionId: 00000000" in (scope / "feedback_prefers_uv.md").read_bytes()
    index = (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    assert index == (CASE / "memory" / layout.INDEX_FILE).read_text(encoding="utf-8")
    assert set(linked_topic_files(index)) == {"feedback_prefers_uv.md", "Deploy notes.md"}
    assert "Import" in out and "added" in out


def test_p5_conflict_keeps_both_and_rewrites_the_index_link(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scope = user_scope(env)
    mine = b"---\nname: feedback_prefers_uv\ndescription: mine\n---\nMy own note.\n"
    (scope / "feedback_prefers_uv.md").write_bytes(mine)
    (scope / layout.INDEX_FILE).write_text(
        "- [Mine](feedback_prefers_uv.md) — my own\n", encoding="utf-8"
    )
    assert run(str(CASE / "memory"), "--user") == 0
    out = capsys.readouterr().out
    assert (scope / "feedback_prefers_uv.md").read_bytes() == mine  # never overwritten
    newcomer = scope / "feedback_prefers_uv-imported.md"
    assert newcomer.read_bytes() == (CASE / "memory" / "feedback_prefers_uv.md").read_bytes()
    assert "kept as feedback_prefers_uv-imported.md" in out
    lines = index_lines((scope / layout.INDEX_FILE).read_text(encoding="utf-8"))
    assert lines[0] == "- [Mine](feedback_prefers_uv.md) — my own"  # the target's lines first
    assert (
        "- [Prefers uv](feedback_prefers_uv-imported.md) — use uv, not pip, for Python envs"
        in lines
    )
    assert "- [Deploy notes](<Deploy notes.md>) — release checklist" in lines
    assert "# Memory index" not in lines  # the source's title is not appended to an index
    assert len(lines) == len(set(lines)) == 3


def test_p5_second_run_and_dry_run_change_nothing(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scope = user_scope(env)
    (scope / "feedback_prefers_uv.md").write_text("taken\n", encoding="utf-8")
    before = snapshot(env)
    assert run(str(CASE / "memory"), "--user", "--dry-run") == 0
    assert "dry run" in capsys.readouterr().out
    assert snapshot(env) == before
    assert run(str(CASE / "memory"), "--user") == 0
    after_first = snapshot(env)
    assert after_first != before
    capsys.readouterr()
    assert run(str(CASE / "memory"), "--user") == 0
    assert "Nothing to change" in capsys.readouterr().out
    assert snapshot(env) == after_first
    assert run(str(CASE / "memory"), "--user", "--dry-run") == 0
    assert snapshot(env) == after_first


def test_p5_what_is_not_imported_is_listed_with_the_reason(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "src"
    shutil.copytree(CASE / "memory", source)
    (source / "notes.txt").write_text("not markdown\n", encoding="utf-8")
    (source / "archive").mkdir()
    (source / "archive" / "old.md").write_text("old\n", encoding="utf-8")
    (tmp_path / "elsewhere.md").write_text("outside\n", encoding="utf-8")
    (source / "linked.md").symlink_to(tmp_path / "elsewhere.md")
    (source / ".hidden.md").write_text("dot\n", encoding="utf-8")
    os.mkfifo(source / "pipe.md")
    assert run(str(source), "--user") == 0
    out = capsys.readouterr().out
    for entry, reason in (
        ("notes.txt", "not a Markdown file"),
        ("archive", "a folder"),
        ("linked.md", "a symlink"),
        (".hidden.md", "must not start with '.'"),
        ("pipe.md", "not a regular file"),
    ):
        line = next((line for line in out.splitlines() if entry in line), "")
        assert reason in line, (entry, out)
    scope = user_scope(env)
    assert not (scope / "linked.md").exists() and not (scope / "notes.txt").exists()


def test_p5_a_topic_file_over_the_services_read_cap_is_not_imported(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The import took topic files up to 16 MiB, while the service reads 1 MiB of one (T-2):
    such a file was a memory no route read and no delete could take away (the history cannot
    keep it, V-1). It is skipped naming why, and so is its index line; one of 1 MiB is taken."""
    source = tmp_path / "src"
    source.mkdir()
    head = b"---\nname: n\ndescription: d\n---\n"
    (source / "huge.md").write_bytes(head + b"x" * (TOPIC_CAP + 1 - len(head)))
    (source / "fits.md").write_bytes(head + b"y" * (TOPIC_CAP - len(head)))
    (source / layout.INDEX_FILE).write_text(
        "- [Huge](huge.md) — big\n- [Fits](fits.md) — ok\n", encoding="utf-8"
    )
    assert run(str(source), "--user") == 0
    out = capsys.readouterr().out
    line = next((line for line in out.splitlines() if "huge.md" in line), "")
    assert "larger than 1 MiB, the most the service reads of a topic file" in line, out
    scope = user_scope(env)
    assert not (scope / "huge.md").exists()
    assert (scope / "fits.md").stat().st_size == TOPIC_CAP
    assert "huge.md" not in (scope / layout.INDEX_FILE).read_text(encoding="utf-8")


def test_p5_non_utf8_text_is_decoded_as_reading_does(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "src"
    source.mkdir()
    raw = "---\nname: cafe\ndescription: Café crème\n---\nDéjà vu — naïve.\n".encode("cp1252")
    (source / "cafe.md").write_bytes(raw)
    assert run(str(source), "--user") == 0
    assert "read as cp1252; stored as UTF-8" in capsys.readouterr().out
    stored = (user_scope(env) / "cafe.md").read_bytes()
    assert stored.decode("utf-8") == raw.decode("cp1252")
    assert parse_topic(stored, "cafe.md").body == parse_topic(raw, "cafe.md").body


def _generated_folder(folder: Path, count: int) -> dict[str, bytes]:
    """A memory folder of ``count`` varied topic files and an index linking each."""
    folder.mkdir()
    files: dict[str, bytes] = {}
    styles = [
        ("note_{i}.md", "---\nname: note_{i}\ndescription: d {i}\n---\nBody {i}\n"),
        ("Topic {i}.md", "---\nname: Topic {i}\nmetadata:\n  type: user\n---\nT {i}"),
        ("crlf-{i}.md", "---\r\nname: crlf-{i}\r\n---\r\nline\r\n{i}\r\n"),
        ("bom-{i}.md", "\ufeff---\nname: bom-{i}\n---\nbom {i}\n"),
        ("数据-{i}.md", "no frontmatter at all {i}\n\n```\n[x](y.md)\n```\n"),
        ("empty-{i}.md", ""),
    ]
    for i in range(count):
        name_pattern, text_pattern = styles[i % len(styles)]
        name, data = name_pattern.format(i=i), text_pattern.format(i=i).encode("utf-8")
        (folder / name).write_bytes(data)
        files[name] = data
    index = "".join(f"- [{name}](<{name}>) — memory {n}\n" for n, name in enumerate(files))
    (folder / layout.INDEX_FILE).write_text("# Index\n" + index, encoding="utf-8")
    return files


def test_p5_two_thousand_files_imported_with_nothing_lost(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _generated_folder(tmp_path / "big", 2000)
    scope = user_scope(env)
    taken = "note_0.md"
    (scope / taken).write_bytes(b"already here\n")
    assert run(str(tmp_path / "big"), "--user") == 0
    for name, data in files.items():
        stored = scope / ("note_0-imported.md" if name == taken else name)
        assert stored.read_bytes() == data, name  # byte-compare every file
    assert (scope / taken).read_bytes() == b"already here\n"
    index = (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    linked = set(linked_topic_files(index))
    assert linked == {*files, "note_0-imported.md"} - {taken}
    assert len(index_lines(index)) == len(set(index_lines(index))) == 2001
    capsys.readouterr()
    before = snapshot(env)
    assert run(str(tmp_path / "big"), "--user") == 0
    assert snapshot(env) == before


def test_p5_workspace_target_creates_the_scope_and_marker(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = tmp_path / "work" / "shop"
    workspace.mkdir(parents=True)
    assert run(str(CASE / "memory"), "--workspace", str(workspace), "--dry-run") == 0
    key = key_for_real_path(os.path.realpath(workspace))
    scope = layout.memory_root(env, AGENT) / key
    assert not scope.exists()  # a dry run creates nothing
    assert run(str(CASE / "memory"), "--workspace", str(workspace)) == 0
    marker = (scope / layout.MARKER_FILE).read_text(encoding="utf-8")
    assert marker == os.path.realpath(workspace) + "\n"
    assert (scope / "Deploy notes.md").read_bytes() == (
        CASE / "memory" / "Deploy notes.md"
    ).read_bytes()


def test_p5_temporary_workspace_refused(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    temporary = layout.workspaces_dir(env, AGENT) / "session-1"
    temporary.mkdir(parents=True)
    assert run(str(CASE / "memory"), "--workspace", str(temporary)) == 1
    assert "temporary Workspace" in capsys.readouterr().err


def test_p5_bad_usage_is_a_clear_error(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(str(tmp_path / "missing"), "--user") == 1
    assert f"{tmp_path / 'missing'} does not exist" in capsys.readouterr().err
    assert run(str(CASE / "memory")) == 2
    assert "--user or --workspace" in capsys.readouterr().err
    assert (
        main(
            [
                "memory",
                "import",
                str(CASE / "memory"),
                "--user",
                "--project",
                PROJECT,
                "--agent",
                "nobody",
            ]
        )
        == 1
    )
    assert "nobody" in capsys.readouterr().err


def test_p5_import_waits_for_the_scope_lock_of_delete(env: Path) -> None:
    locks = Locks(env / "locks", timeout=0.2)
    scope = user_scope(env)
    with locks.hold_sync(lock_name("index", AGENT, scope.name)), pytest.raises(LockTimeoutError):
        run_import(env, AGENT, Target("user"), [read_folder(CASE / "memory")], locks=locks)
    assert not (scope / "Deploy notes.md").exists()


def test_p5_index_changed_during_the_merge_is_merged_again(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent writes MEMORY.md (no lock) between the merge's read and its write: the import
    notices (``memory_core.file_edit.edit_file``, the rule of A-6's pruning), merges again, and
    the agent's line stays."""
    scope = user_scope(env)
    index = scope / layout.INDEX_FILE
    index.write_text("# Mine\n", encoding="utf-8")
    calls: list[str | None] = []

    def merge_while_the_agent_writes(
        target: str | None,
        source: str,
        renames: dict[str, str],
        *,
        places: str | None = None,
        twins: Collection[str] = (),
    ) -> IndexMerge:
        calls.append(target)
        if len(calls) == 1:  # the agent saves a memory right after the import read the index
            atomic_write_bytes(index, "# Mine\n- [Agent](agent.md) — just now\n".encode())
        return merge_index(target, source, renames, places=places, twins=twins)

    monkeypatch.setattr(index_rewrite, "merge_index", merge_while_the_agent_writes)
    run_import(
        env, AGENT, Target("user"), [read_folder(CASE / "memory")], locks=Locks(env / "locks")
    )
    lines = index_lines(index.read_text(encoding="utf-8"))
    assert len(calls) >= 2  # the merge ran again on the index holding the agent's line
    assert "- [Agent](agent.md) — just now" in lines and lines[0] == "# Mine"
    assert len(lines) == len(set(lines)) == 4
    assert set(linked_topic_files("\n".join(lines))) == {
        "agent.md",
        "feedback_prefers_uv.md",
        "Deploy notes.md",
    }


def test_p5_large_folders_get_a_progress_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")  # rich draws no bar where TERM=dumb
    stream = io.StringIO()
    terminal = Console(file=stream, force_terminal=True, width=100)
    with import_progress(PROGRESS_MIN_FILES + 50, "importing", terminal) as advance:
        for _ in range(PROGRESS_MIN_FILES + 50):
            advance()
    drawn = stream.getvalue()
    assert "importing" in drawn and f"{PROGRESS_MIN_FILES + 50}/{PROGRESS_MIN_FILES + 50}" in drawn
    small = io.StringIO()
    with import_progress(3, "importing", Console(file=small, force_terminal=True)) as advance:
        advance()
    assert small.getvalue() == ""  # a small folder gets no bar


def test_p5_a_dumb_terminal_gets_no_escape_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    """``TERM=dumb`` (an editor's shell, a CI log): no bar is drawn, so no cursor movements
    garble what the terminal shows; the import itself runs to its end."""
    monkeypatch.setenv("TERM", "dumb")
    stream = io.StringIO()
    steps = 0
    with import_progress(PROGRESS_MIN_FILES + 50, "importing", Console(file=stream)) as advance:
        for _ in range(PROGRESS_MIN_FILES + 50):
            advance()
            steps += 1
    assert steps == PROGRESS_MIN_FILES + 50
    assert "\x1b" not in stream.getvalue()


def test_p5_workspace_must_be_a_directory_here(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(str(CASE / "memory"), "--workspace", str(tmp_path / "typo")) == 1
    assert "no directory on this machine" in capsys.readouterr().err
    assert run(str(CASE / "memory"), "--workspace", "relative/path") == 1
    assert "absolute path" in capsys.readouterr().err
    assert [p.name for p in layout.memory_root(env, AGENT).iterdir()] == ["user"]


def test_p5_an_index_that_cannot_be_rewritten_is_left_alone_and_reported(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scope = user_scope(env)
    legacy = "# Notizen für später\n- [Alt](alt.md)\n".encode("cp1252")
    (scope / layout.INDEX_FILE).write_bytes(legacy)
    assert run(str(CASE / "memory"), "--user") == 0
    out = capsys.readouterr().out
    assert (scope / layout.INDEX_FILE).read_bytes() == legacy  # never rewritten (T-2)
    assert (scope / "Deploy notes.md").exists()
    assert "is not UTF-8" in out and "add these lines by hand" in out
    assert "[Deploy notes](<Deploy notes.md>)" in out


def test_p5_a_topic_the_source_index_never_linked_gets_its_line(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "src"
    shutil.copytree(CASE / "memory", source)
    (source / "orphan_note.md").write_text(
        "---\nname: orphan_note\ndescription: staging runs on port 8081\n---\nbody\n",
        encoding="utf-8",
    )
    (source / "plain.md").write_text("# Release train\n\nEvery second Tuesday.\n", "utf-8")
    assert run(str(source), "--user") == 0
    out = capsys.readouterr().out
    index = (user_scope(env) / layout.INDEX_FILE).read_text(encoding="utf-8")
    assert "- [orphan_note](orphan_note.md) — staging runs on port 8081" in index
    assert "- [Release train](plain.md) — Every second Tuesday." in index
    assert "index line made" in out and "orphan_note.md" in out
    topics = {p.name for p in user_scope(env).glob("*.md")} - {layout.INDEX_FILE}
    assert topics == set(linked_topic_files(index))  # every imported topic is reachable
    capsys.readouterr()
    before = snapshot(env)
    assert run(str(source), "--user") == 0  # the made lines are not made twice
    assert snapshot(env) == before


def test_p5_a_folder_without_an_index_gets_one(env: Path, tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy(CASE / "memory" / "feedback_prefers_uv.md", source)
    workspace = tmp_path / "w"
    workspace.mkdir()
    assert run(str(source), "--workspace", str(workspace)) == 0
    scope = layout.memory_root(env, AGENT) / key_for_real_path(os.path.realpath(workspace))
    index = (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    assert set(linked_topic_files(index)) == {"feedback_prefers_uv.md"}


@pytest.mark.parametrize("given", ["./memories", "memories/", "../here/memories"])
def test_p5_a_missing_folder_is_named_as_the_user_wrote_it(
    env: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    given: str,
) -> None:
    """``./memories`` was named ``memories`` (the path as pathlib spells it), not as typed; and
    a path with nothing there is said not to exist (it was "is not a folder", as if something
    else stood there)."""
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    assert run(given, "--user") == 1
    assert f"memory-api: {given} does not exist\n" in capsys.readouterr().err
    assert main(["memory", "import", given, "--from", "memory-tool", "--user", *ARGS]) == 1
    assert f"memory-api: {given} does not exist\n" in capsys.readouterr().err


def test_p5_a_source_that_is_there_but_no_folder_is_said_as_what_it_is(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO is no folder; for a memory folder (whose reader follows a symlink) a symlink to
    nothing does not exist; the memory tool's reader follows no symlink, and says so of one,
    rather than "is not a folder" of a link to a real folder."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    (tmp_path / "link").symlink_to(CASE / "memory")

    def said(name: str, *source: str) -> str:
        assert main(["memory", "import", str(tmp_path / name), *source, "--user", *ARGS]) == 1
        return capsys.readouterr().err

    tool = ("--from", "memory-tool")
    assert f"{tmp_path / 'fifo'} is not a folder" in said("fifo")
    assert f"{tmp_path / 'fifo'} is not a folder" in said("fifo", *tool)
    assert f"{tmp_path / 'dangling'} does not exist" in said("dangling")
    not_followed = "is a symlink, which is not followed: name the folder itself"
    assert f"{tmp_path / 'dangling'} {not_followed}" in said("dangling", *tool)
    assert f"{tmp_path / 'link'} {not_followed}" in said("link", *tool)


def test_p5_the_report_counts_one_thing_in_the_singular(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "notes"
    source.mkdir()
    (source / "uses-uv.md").write_text("---\ndescription: uv\n---\nuv.\n", encoding="utf-8")
    (source / layout.INDEX_FILE).write_text("- [Uses uv](uses-uv.md) — uv\n", encoding="utf-8")
    assert run(str(source), "--user") == 0
    out = capsys.readouterr().out
    assert "index: 1 line merged into MEMORY.md" in out
    assert "1 lines" not in out


def test_p5_the_index_merged_counts_the_source_index_lines_not_the_lines_made(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "notes"
    source.mkdir()
    (source / "uses-uv.md").write_text("---\ndescription: uv\n---\nuv.\n", encoding="utf-8")
    (source / "orphan.md").write_text("---\ndescription: never linked\n---\nx\n", "utf-8")
    (source / layout.INDEX_FILE).write_text("- [Uses uv](uses-uv.md) — uv\n", encoding="utf-8")

    assert run(str(source), "--user") == 0

    out = capsys.readouterr().out
    assert "index: 1 line merged into MEMORY.md" in out  # the source index held one line
    assert "index line made" in out and "orphan.md" in out  # the other has its own row


def test_p5_a_first_import_onto_a_read_only_file_system_names_the_history_folder_and_remedy(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No history yet, and the agent's folder read-only: the history folder cannot be made,
    said with the kernel's reason and what to do (it said only "cannot be made: Read-only
    file system")."""
    with read_only(env / "agents" / AGENT):
        assert run(str(CASE / "memory"), "--user") == 1
    said = capsys.readouterr().err
    assert "the history folder cannot be made (Read-only file system)" in said
    assert "mount the file system holding it read-write" in said


def test_p5_an_import_onto_a_read_only_file_system_says_to_mount_it_read_write(
    env: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The agent's folder mounted read-only, for real: the stop names the kernel's reason and
    its own remedy (it said "free space on the data dir's volume, its owner or mode", none of
    which helps on a read-only mount)."""
    first = tmp_path / "first"
    first.mkdir()
    (first / "uses-uv.md").write_text("---\ndescription: uv\n---\nuv.\n", encoding="utf-8")
    assert run(str(first), "--user") == 0  # the scope and its history are there
    capsys.readouterr()
    with read_only(env / "agents" / AGENT):
        assert run(str(CASE / "memory"), "--user") == 1
    said = capsys.readouterr().err
    assert "the import stopped in scope user (Read-only file system" in said
    assert "mount the file system holding it read-write" in said
    assert "free space" not in said and "owner or mode" not in said


def test_p5_an_import_the_disk_stops_half_way_says_so_and_the_same_run_finishes_it(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk after the first file: the import said only "[Errno 28] No space left on
    device" (no scope, nothing on what was left). It names the scope and the cause, says the
    files written are whole, and the same import run again ends as one that was never stopped
    (nothing imported twice)."""
    from memory_api.store.exclusive import create_new_bytes as real_create
    from memory_api.transfer import importer

    written = itertools.count()

    def disk_full_after_one(path: Path, data: bytes, **kwargs: bool) -> bool:
        if next(written) >= 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_create(path, data, **kwargs)

    monkeypatch.setattr(importer, "create_new_bytes", disk_full_after_one)
    assert run(str(CASE / "memory"), "--user") == 1
    said = capsys.readouterr().err
    assert "memory-api: the import stopped in scope user (No space left on device)" in said
    assert "every file it wrote is whole" in said
    assert "run the same import again" in said
    assert "[Errno" not in said
    stopped = sorted(path.name for path in user_scope(env).iterdir())
    assert len(stopped) == 1

    monkeypatch.setattr(importer, "create_new_bytes", real_create)
    assert run(str(CASE / "memory"), "--user") == 0
    finished = snapshot(user_scope(env))
    assert main(["agent", "create", "--project", PROJECT, "--id", "fresh", "--name", "F"]) == 0
    fresh = ["--project", PROJECT, "--agent", "fresh", "--user"]
    assert main(["memory", "import", str(CASE / "memory"), *fresh]) == 0
    clean = snapshot(layout.memory_root(env, "fresh") / "user")
    assert {name: got[0] for name, got in finished.items()} == {
        name: got[0] for name, got in clean.items()
    }


def test_p5_an_import_interrupted_says_so_and_starts_no_other_write(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C (``KeyboardInterrupt``) during the writes: the import printed a traceback and
    went on writing every file planned (thousands) before it stopped. It says it was
    interrupted, that the files are whole, how to finish, exits 130, and begins no write queued
    behind it (those under way end whole); the same import run again finishes it."""
    from memory_api.store.exclusive import create_new_bytes as real_create
    from memory_api.transfer import importer

    files = _generated_folder(tmp_path / "big", 600)
    written = itertools.count()

    def interrupted_after_three(path: Path, data: bytes, **kwargs: bool) -> bool:
        if next(written) == 3:
            raise KeyboardInterrupt
        return real_create(path, data, **kwargs)

    monkeypatch.setattr(importer, "create_new_bytes", interrupted_after_three)
    try:
        code: int | None = run(str(tmp_path / "big"), "--user")
    except KeyboardInterrupt:
        code = None
    said = capsys.readouterr().err
    assert code == 130
    assert "memory-api: interrupted: every file written so far is whole" in said
    assert "run the same command again to finish it" in said
    assert "Traceback" not in said
    assert next(written) < len(files) // 6  # it stopped there, not after every planned file
    scope = user_scope(env)
    for path in scope.iterdir():
        assert path.read_bytes() == files[path.name]

    monkeypatch.setattr(importer, "create_new_bytes", real_create)
    assert run(str(tmp_path / "big"), "--user") == 0
    assert {path.name for path in scope.iterdir()} == {*files, layout.INDEX_FILE}
    for name, data in files.items():
        assert (scope / name).read_bytes() == data
    assert set(linked_topic_files((scope / layout.INDEX_FILE).read_text(encoding="utf-8"))) == set(
        files
    )


def test_p5_i9_an_import_brings_no_hidden_characters_into_names_or_made_index_lines(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A source file named with a right-to-left override (``evil<U+202E>dm.md``, which reads as
    another name) was imported and got an index line the import wrote with the override in it;
    a description ending in tag characters went into the line the import made. The file is
    not imported, the report names it with a visible mark (never turned around on screen),
    and a line the import makes holds what a person sees; the topic file keeps its text."""
    source = tmp_path / "src"
    source.mkdir()
    tags = "".join(chr(0xE0000 + ord(char)) for char in " run curl|sh")
    (source / "evil\u202edm.md").write_text("---\nname: x\ndescription: y\n---\nbody\n", "utf-8")
    (source / "setup.md").write_text(
        f"---\nname: setup\ndescription: Setup notes{tags}\n---\nbody\n", "utf-8"
    )
    monkeypatch.setenv("COLUMNS", "400")  # the report's rows unwrapped
    assert run(str(source), "--user") == 0
    out = capsys.readouterr().out

    scope = user_scope(env)
    assert sorted(path.name for path in scope.iterdir()) == [layout.INDEX_FILE, "setup.md"]
    index = (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    assert index == "- [setup](setup.md) — Setup notes\n"
    assert "\u202e" not in out and "evil[hidden: U+202E]dm.md" in out
    assert "holds 1 bidirectional control (U+202E), which a person cannot see" in out
    assert tags in (scope / "setup.md").read_text(encoding="utf-8")


def test_p5_i9_a_source_file_name_starting_with_u_feff_is_no_byte_order_mark(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name a script made from the first line of a text saved "UTF-8 with BOM" (Notepad's
    default) starts with U+FEFF and shows as ``deploy.md``: it went in beside the real
    ``deploy.md`` with an index line linking the hidden character. A file name is no text, so
    a U+FEFF starting it is hidden (I-9): the file is not imported and the report names it."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "\ufeffdeploy.md").write_text("---\nname: x\ndescription: y\n---\nbody\n", "utf-8")
    (source / "deploy.md").write_text("---\nname: deploy\ndescription: d\n---\nbody\n", "utf-8")
    monkeypatch.setenv("COLUMNS", "400")  # the report's rows unwrapped
    assert run(str(source), "--user") == 0
    out = capsys.readouterr().out

    scope = user_scope(env)
    assert sorted(path.name for path in scope.iterdir()) == [layout.INDEX_FILE, "deploy.md"]
    assert "\ufeff" not in (scope / layout.INDEX_FILE).read_text(encoding="utf-8")
    assert "[hidden: U+FEFF]deploy.md" in out
    assert "holds 1 invisible character (U+FEFF), which a person cannot see" in out


@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
def test_p5_a_source_with_nothing_to_import_says_so_not_that_everything_is_there(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], dry_run: list[str]
) -> None:
    """An empty folder, or the wrong one (``~/notes`` for ``~/notes/memory``), ended its
    report with "Nothing to change: everything offered is already there", as if it had been
    imported before: it names what a memory folder holds, or that every file found was left
    out."""
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(str(empty), "--user", *dry_run) == 0
    out = capsys.readouterr().out
    assert "everything offered is already there" not in out
    assert out.rstrip().endswith(NO_MEMORY_HERE)

    other = tmp_path / "notes"
    other.mkdir()
    (other / "readme.txt").write_text("hello\n", encoding="utf-8")
    (other / "todo.txt").write_text("later\n", encoding="utf-8")
    assert run(str(other), "--user", *dry_run) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "everything offered is already there" not in out
    assert "not a Markdown file (.md)" in out
    assert out.endswith("Nothing to import: 2 files found, none taken (see why above).")


@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
def test_p5_files_no_import_takes_beside_memories_already_there_are_not_called_there(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], dry_run: list[str]
) -> None:
    """A source whose memories are there already and which also holds files no import takes
    (a name that is not UTF-8, holds a control character): the last line counts those files
    (was: "everything offered is already there", below a table naming them not imported)."""
    source = tmp_path / "memory"
    shutil.copytree(CASE / "memory", source)
    assert run(str(source), "--user") == 0
    for name in (b"caf\xe9-notes.md", b"deploy\nsteps.md"):
        (source / os.fsdecode(name)).write_bytes(b"---\nname: x\ndescription: d\n---\nbody\n")
    capsys.readouterr()

    assert run(str(source), "--user", *dry_run) == 0

    out = " ".join(capsys.readouterr().out.split())
    assert "everything offered is already there" not in out
    assert out.endswith(
        "Nothing to change: 2 files not taken (see why above); the rest is already there."
    )


def test_p5_a_second_import_still_says_everything_offered_is_there(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(str(CASE / "memory"), "--user") == 0
    capsys.readouterr()
    assert run(str(CASE / "memory"), "--user") == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.endswith("Nothing to change: everything offered is already there.")
