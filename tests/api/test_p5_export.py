"""P-5: ``memory-api memory export`` writes the scopes as they are; import takes them back."""

from __future__ import annotations

import errno
import io
import json
import os
import tarfile
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.store.not_scopes import SKIPPED_NAMED
from memory_api.store.sessions import flag_visibility
from memory_api.store.workspace_mount import MountRecords, record_mount
from memory_api.transfer.console import print_export, print_import
from memory_api.transfer.exporter import ExportReport
from memory_api.transfer.importer import ImportReport
from memory_core import layout
from memory_core.keys import key_for_real_path
from rich.console import Console

from tests.api.conftest import copy_corpus
from tests.api.test_p5_import import CASE, snapshot
from tests.support.socket_file import bound_socket

PROJECT = "acme"


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI on the test data dir; agents ``coder`` (with memory) and ``copy`` (empty)."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "200")
    for agent in ("coder", "copy"):
        argv = ["agent", "create", "--project", PROJECT, "--id", agent, "--name", agent]
        assert main(argv) == 0
    root = layout.memory_root(data_dir, "coder")
    copy_corpus("user-scope", root / "user")
    workspace = data_dir.parent / "src" / "shop"
    workspace.mkdir(parents=True)
    assert (
        main(
            [
                "memory",
                "import",
                str(CASE / "memory"),
                "--workspace",
                str(workspace),
                "--project",
                PROJECT,
                "--agent",
                "coder",
            ]
        )
        == 0
    )
    return data_dir


def test_p5_export_holds_every_scope_with_markers(env: Path, tmp_path: Path) -> None:
    output = tmp_path / "out" / "coder.tar.gz"
    assert (
        main(["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(output)]) == 0
    )
    root = layout.memory_root(env, "coder")
    with tarfile.open(output) as archive:
        names = set(archive.getnames())
        manifest = json.load(archive.extractfile("agent-memory/export.json") or io.BytesIO())
        for scope in root.iterdir():
            for path in scope.iterdir():
                member = f"agent-memory/scopes/{scope.name}/{path.name}"
                assert member in names
                assert (archive.extractfile(member) or io.BytesIO()).read() == path.read_bytes()
    assert manifest["format"] == "agent-memory-export" and manifest["agent"] == "coder"
    assert any(name.endswith("/" + layout.MARKER_FILE) for name in names)
    assert not list(output.parent.glob(".*.tmp"))  # written through a temp file, renamed


def test_p5_export_then_import_round_trip(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "coder.tar.gz"
    assert (
        main(["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(output)]) == 0
    )
    argv = ["memory", "import", str(output), "--project", PROJECT, "--agent", "copy"]
    assert main(argv) == 0
    original = snapshot(layout.memory_root(env, "coder"))
    restored = snapshot(layout.memory_root(env, "copy"))
    assert {name: data for name, (data, _, _) in restored.items()} == {
        name: data for name, (data, _, _) in original.items()
    }
    before = snapshot(env)
    capsys.readouterr()
    assert main(argv) == 0  # a second run changes nothing
    assert "Nothing to change" in capsys.readouterr().out
    assert snapshot(env) == before


def test_p5_one_archived_scope_into_the_user_scope(env: Path, tmp_path: Path) -> None:
    output = tmp_path / "coder.tar.gz"
    root = layout.memory_root(env, "coder")
    key = next(p.name for p in root.iterdir() if p.name != "user")
    assert (
        main(
            [
                "memory",
                "export",
                "--project",
                PROJECT,
                "--agent",
                "coder",
                "--scope",
                key,
                "-o",
                str(output),
            ]
        )
        == 0
    )
    assert (
        main(["memory", "import", str(output), "--user", "--project", PROJECT, "--agent", "copy"])
        == 0
    )
    user = layout.memory_root(env, "copy") / "user"
    assert (user / "Deploy notes.md").read_bytes() == (root / key / "Deploy notes.md").read_bytes()
    assert not (user / layout.MARKER_FILE).exists()  # a marker belongs to its own scope


def test_p5_archive_with_several_scopes_needs_a_choice(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "coder.tar.gz"
    assert (
        main(["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(output)]) == 0
    )
    argv = ["memory", "import", str(output), "--user", "--project", PROJECT, "--agent", "copy"]
    assert main(argv) == 1
    assert "--archive-scope" in capsys.readouterr().err
    assert main([*argv, "--archive-scope", "user"]) == 0
    user = layout.memory_root(env, "copy") / "user"
    assert sorted(p.name for p in user.iterdir()) == sorted(
        p.name for p in (layout.memory_root(env, "coder") / "user").iterdir()
    )


def test_p5_hostile_archive_members_are_skipped_never_extracted(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "evil.tar.gz"
    with tarfile.open(output, "w:gz") as archive:

        def add(name: str, data: bytes) -> None:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))

        add("agent-memory/export.json", json.dumps({"format": "agent-memory-export"}).encode())
        add("agent-memory/scopes/user/ok.md", b"fine\n")
        add("agent-memory/scopes/user/../../../escape.md", b"no\n")
        add("agent-memory/scopes/../x.md", b"no\n")
        link = tarfile.TarInfo("agent-memory/scopes/user/link.md")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        archive.addfile(link)
    assert (
        main(["memory", "import", str(output), "--user", "--project", PROJECT, "--agent", "copy"])
        == 0
    )
    out = capsys.readouterr().out
    user = layout.memory_root(env, "copy") / "user"
    assert (user / "ok.md").read_bytes() == b"fine\n"
    assert not (user / "link.md").exists()
    assert not any(p.name == "escape.md" for p in tmp_path.rglob("escape.md"))
    assert "link.md" in out and "escape.md" in out


def test_p5_not_an_export_archive(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "other.tar.gz"
    with tarfile.open(output, "w:gz") as archive:
        archive.add(CASE / "memory", arcname="memory")
    assert (
        main(["memory", "import", str(output), "--user", "--project", PROJECT, "--agent", "copy"])
        == 1
    )
    assert "not an Agent Memory export" in capsys.readouterr().err
    assert not list((layout.memory_root(env, "copy") / "user").iterdir())


def test_p5_restoring_keeps_a_marker_that_names_another_path(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "coder.tar.gz"
    assert (
        main(["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(output)]) == 0
    )
    root = layout.memory_root(env, "coder")
    key = next(p.name for p in root.iterdir() if p.name != "user")
    taken = layout.memory_root(env, "copy") / key
    taken.mkdir(parents=True)
    (taken / layout.MARKER_FILE).write_text("/somewhere/else\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["memory", "import", str(output), "--project", PROJECT, "--agent", "copy"]) == 0
    assert (taken / layout.MARKER_FILE).read_text(encoding="utf-8") == "/somewhere/else\n"
    out = capsys.readouterr().out
    assert "kept its .workspace" in out and "/somewhere/else" in out
    assert (taken / "Deploy notes.md").exists()


def test_p5_a_long_path_prints_whole_on_a_wide_terminal(tmp_path: Path) -> None:
    """The archive's path and the folders imported from were a table's title and caption,
    which rich wraps to the table's width: a path broke over lines on a 200-column terminal."""
    deep = tmp_path.joinpath(*(f"folder-{n:02d}" for n in range(12)), "coder-memory.tar.gz")
    out = io.StringIO()
    report = ExportReport(output=deep, files={"user": 3}, bytes=1234)
    print_export(report, Console(file=out, width=200, highlight=False))
    assert f"Export → {deep}\n" in out.getvalue()

    imported = io.StringIO()
    source = str(tmp_path.joinpath(*(f"notes-{n:02d}" for n in range(14)), "memory"))
    print_import(
        [ImportReport(key="user", label=source, dry_run=True)],
        Console(file=imported, width=200, highlight=False),
    )
    assert f"From: {source}\n" in imported.getvalue()


def test_p5_restored_scope_names_topics_its_index_does_not_link(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user = layout.memory_root(env, "coder") / "user"
    (user / "loose.md").write_text("---\ndescription: not in the index\n---\nx\n", "utf-8")
    archive = tmp_path / "a.tar.gz"
    assert (
        main(["memory", "export", "--project", "acme", "--agent", "coder", "-o", str(archive)]) == 0
    )
    (user / "loose.md").unlink()
    capsys.readouterr()
    assert main(["memory", "import", str(archive), "--project", "acme", "--agent", "coder"]) == 0
    assert "loose.md: no line of the archived index links it" in capsys.readouterr().out
    assert (user / "loose.md").exists()


def test_p5_the_export_summary_counts_one_thing_in_the_singular(tmp_path: Path) -> None:
    out = io.StringIO()
    report = ExportReport(
        output=tmp_path / "a.tar.gz", files={"user": 1}, bytes=1, history={"user": 1}
    )
    print_export(report, Console(file=out, width=200, highlight=False))
    printed = out.getvalue()
    assert "1 file, 1 byte in 1 scope\n" in printed
    assert "1 byte " in printed and "1 bytes" not in printed


EXPORT_CODER = ["memory", "export", "--project", PROJECT, "--agent", "coder"]


def _export(output: Path | str) -> int:
    return main([*EXPORT_CODER, "-o", str(output)])


@pytest.mark.parametrize("kind", ["fifo", "folder", "socket"])
def test_p5_an_output_that_is_no_regular_file_is_refused_and_left_as_it_is(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """The archive is renamed over its output: ``-o /dev/full`` (as root) replaced the device
    with the archive, a FIFO or a socket went the same way, a folder failed with a bare errno."""
    if kind == "fifo":
        output = tmp_path / "pipe"
        os.mkfifo(output)
    elif kind == "folder":
        output = tmp_path / "exports"
        output.mkdir()
    else:  # a special file of our own: a device would need root, and be the machine's
        output = tmp_path / "listener"
        bound_socket(output).close()
    before = os.lstat(output)
    assert _export(output) == 1
    err = capsys.readouterr().err
    assert f"the output {output} is " in err and "which the archive would replace" in err
    after = os.lstat(output)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (
        before.st_mode,
        before.st_ino,
        before.st_rdev,
    )
    assert not list(output.parent.glob(f".{output.name}.*.tmp"))


@pytest.mark.parametrize(
    "inside", ["agents/coder/agent_state/memory/user/MEMORY.md", "tokens/ops.json", "coder.tar.gz"]
)
def test_p5_an_output_inside_the_data_dir_is_refused(
    env: Path, capsys: pytest.CaptureFixture[str], inside: str
) -> None:
    """The archive became a scope's index, or a token file the service could not read (every
    request a 503), when ``-o`` named a file of the data dir."""
    output = env / inside
    existed = output.read_bytes() if output.exists() else None
    assert _export(output) == 1
    assert "lies inside the data dir" in capsys.readouterr().err
    assert (output.read_bytes() if output.exists() else None) == existed


def test_p5_an_existing_archive_or_a_symlink_is_replaced_whole(env: Path, tmp_path: Path) -> None:
    """A regular file is overwritten (export again to the same name); a symlink is replaced,
    never written through."""
    again = tmp_path / "coder.tar.gz"
    again.write_bytes(b"an older export")
    assert _export(again) == 0
    assert tarfile.is_tarfile(again)
    target = tmp_path / "kept.txt"
    target.write_text("kept\n", encoding="utf-8")
    link = tmp_path / "link.tar.gz"
    link.symlink_to(target)
    assert _export(link) == 0
    assert not link.is_symlink() and tarfile.is_tarfile(link)
    assert target.read_text(encoding="utf-8") == "kept\n"


def test_p5_export_archives_what_a_symlink_in_a_scope_gives_the_service(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scope's ``MEMORY.md`` or topic file that is a symlink to a regular file inside the
    memory root is read, listed and injected like any other (A-5, A-7): the archive holds the
    bytes the service reads under the link's name, and the report says it followed the link, so
    the import of the archive gives back the same memory. A link leading out of the memory root
    is read by nobody: it stays out of the archive, named with why."""
    root = layout.memory_root(env, "coder")
    [workspace] = [scope for scope in root.iterdir() if scope.name != "user"]
    index = workspace / layout.INDEX_FILE
    (workspace / "index.txt").write_bytes(index.read_bytes())
    index.unlink()
    index.symlink_to("index.txt")
    shared = root / "user" / "shared-notes.md"
    shared.write_text("---\nname: shared-notes\ndescription: shared\n---\nx\n", encoding="utf-8")
    (workspace / "shared-notes.md").symlink_to(Path("..") / "user" / "shared-notes.md")
    outside = tmp_path / "outside.md"
    outside.write_text("---\nname: outside\ndescription: o\n---\nx\n", encoding="utf-8")
    (workspace / "outside.md").symlink_to(outside)
    output = tmp_path / "coder.tar.gz"
    argv = ["memory", "export", "--project", PROJECT, "--agent", "coder", "--scope"]

    assert main([*argv, workspace.name, "-o", str(output)]) == 0
    printed = capsys.readouterr().out

    member = f"agent-memory/scopes/{workspace.name}"
    with tarfile.open(output) as archive:
        names = set(archive.getnames())
        assert (archive.extractfile(f"{member}/MEMORY.md") or io.BytesIO()).read() == (
            index.read_bytes()
        )
        assert (archive.extractfile(f"{member}/shared-notes.md") or io.BytesIO()).read() == (
            shared.read_bytes()
        )
    assert f"{member}/outside.md" not in names
    assert f"archived through its symlink: {workspace.name}/MEMORY.md → index.txt" in printed
    assert (
        f"archived through its symlink: {workspace.name}/shared-notes.md → "
        "../user/shared-notes.md" in printed
    )
    assert f"not archived: {workspace.name}/outside.md: a symlink to outside the memory root" in (
        printed
    )


def test_p5_an_export_the_disk_refuses_names_the_archive_and_leaves_nothing(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk while the archive is written: it said only "[Errno 28] No space left on
    device". It names the archive and what to do; nothing is left under its name, no temp
    file beside it, and an archive that was there before is kept."""
    from memory_api.transfer import exporter

    def disk_full(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(exporter, "_export_scope", disk_full)
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.tar.gz").write_bytes(b"the archive of yesterday")
    for name in ("new.tar.gz", "old.tar.gz"):
        argv = ["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(out / name)]
        assert main(argv) == 1
        said = capsys.readouterr().err
        assert f"memory-api: the archive {out / name} could not be written " in said
        assert "(No space left on device): nothing was left under its name" in said
        assert "[Errno" not in said
    assert sorted(path.name for path in out.iterdir()) == ["old.tar.gz"]
    assert (out / "old.tar.gz").read_bytes() == b"the archive of yesterday"


def test_p5_export_to_standard_output_writes_the_archive_there_and_the_report_to_stderr(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-o -`` wrote a file named ``-`` in the working folder; as ``tar -f -`` it is standard
    output now (``memory-api memory export -o - | ssh host …``), the report on stderr."""
    monkeypatch.chdir(env.parent)
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr("sys.stdout", stdout)
    assert main(["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", "-"]) == 0
    stdout.flush()
    data = stdout.buffer.getvalue()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        names = archive.getnames()
    assert any(name.endswith("/MEMORY.md") for name in names)
    assert "Export → -" in capsys.readouterr().err
    assert not (env.parent / "-").exists()


def test_p5_export_to_standard_output_refuses_a_terminal(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A binary archive is never written onto a terminal: the command says to redirect it."""
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", "-"]) == 2
    assert "redirect it" in capsys.readouterr().err


def test_p5_export_names_each_entry_of_the_memory_root_that_is_no_scope(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The export said what it left out of each scope but nothing of the memory root's entries
    that are no scope (A-3: notes copied into ``…/memory/notes``, a stray file, a symlink out):
    an archive without them passed for the whole memory. Each is named, escaped, with why."""
    root = layout.memory_root(env, "coder")
    (root / "notes").mkdir()
    (root / "notes" / "deploy.md").write_text("x\n", encoding="utf-8")
    (root / "todo.txt").write_text("x\n", encoding="utf-8")
    (root / "elsewhere").symlink_to(tmp_path)
    (root / "\x1b[2Jred").write_text("x\n", encoding="utf-8")
    (root / ".lock").write_text("", encoding="utf-8")  # the service's own: never named
    output = tmp_path / "coder.tar.gz"

    assert _export(output) == 0
    printed = capsys.readouterr().out

    named = [line for line in printed.splitlines() if line.startswith("not archived, no scope")]
    never = "whose name is no scope key ('user' or a Workspace key): never read (not archived)"
    assert named == [
        f"not archived, no scope: \\x1b[2Jred: a regular file {never}",
        f"not archived, no scope: elsewhere: a symlink {never}",
        f"not archived, no scope: notes: a folder {never}",
        f"not archived, no scope: todo.txt: a regular file {never}",
    ]
    with tarfile.open(output) as archive:
        left_out = ("notes/deploy.md", "todo.txt", "red")
        assert not [name for name in archive.getnames() if name.endswith(left_out)]

    # Exporting chosen scopes: the root's other entries are no part of what was asked.
    assert main([*EXPORT_CODER, "--scope", "user", "-o", str(output)]) == 0
    assert "no scope" not in capsys.readouterr().out


def test_p5_export_names_the_first_entries_that_are_no_scope_and_counts_the_rest(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A memory root holding thousands of stray files: the report named every one (and kept
    them sorted one insertion at a time). It names the first by name, as the overview does
    (A-3), and counts the rest."""
    root = layout.memory_root(env, "coder")
    names = [f"stray-{number:03}.txt" for number in range(SKIPPED_NAMED + 5)]
    for name in reversed(names):
        (root / name).write_text("x\n", encoding="utf-8")

    assert _export(tmp_path / "coder.tar.gz") == 0

    printed = capsys.readouterr().out.splitlines()
    named = [line for line in printed if line.startswith("not archived, no scope: stray-")]
    assert [line.split(": ")[1] for line in named] == names[:SKIPPED_NAMED]
    assert "not archived, no scope: 5 more entries of the memory root" in printed


def test_p5_export_names_a_user_entry_that_is_no_scope_folder(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file where the user scope's folder belongs holds no memory; the overview says it on
    the user scope's row, which an archive has not: the export's report names it instead."""
    user = layout.memory_root(env, "copy") / "user"
    user.rmdir()  # made empty with the agent
    user.write_text("x\n", encoding="utf-8")
    output = tmp_path / "copy.tar.gz"
    argv = ["memory", "export", "--project", PROJECT, "--agent", "copy", "-o", str(output)]

    assert main(argv) == 0

    assert (
        "not archived, no scope: user: a regular file in a scope's place, not a scope folder: "
        "never read (not archived)" in capsys.readouterr().out
    )


def _side_files_written(data_dir: Path) -> Path:
    """The ``shop`` Workspace scope of ``coder`` with the K-6a side files a Session start keeps
    (its mount point and device, the not-visible flag), written by the service's own code."""
    root = layout.memory_root(data_dir, "coder")
    workspace = os.path.realpath(data_dir.parent / "src" / "shop")
    key = key_for_real_path(workspace)
    scope = root / key
    seen = (workspace, Path(workspace).stat().st_dev)
    record_mount(MountRecords(max_entries=1), scope, key, seen, cached_only=False)
    flag_visibility(scope, key, visible=False, cached_only=False)
    assert {path.name for path in scope.iterdir()} >= set(layout.SIDE_FILES)
    return scope


def test_p5_export_leaves_out_the_side_files_and_the_round_trip_skips_nothing(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``.workspace-mount`` and ``.workspace-not-visible`` say what this service saw of the
    Workspace's disk (K-6a): not the scope's content. Archived, an import listed each as "not
    imported … not a Markdown file", one skipped per scope."""
    scope = _side_files_written(env)
    output = tmp_path / "coder.tar.gz"
    export = ["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(output)]
    assert main(export) == 0
    exported = capsys.readouterr().out
    argv = ["memory", "import", str(output), "--project", PROJECT, "--agent", "copy"]
    assert main(argv) == 0
    imported = capsys.readouterr().out

    with tarfile.open(output) as archive:
        names = archive.getnames()
    assert not [name for name in names if name.rsplit("/", 1)[-1] in layout.SIDE_FILES]
    assert f"agent-memory/scopes/{scope.name}/{layout.MARKER_FILE}" in names
    for said in (exported, imported):
        assert not any(name in said for name in layout.SIDE_FILES)
    assert "not imported" not in imported
    original = snapshot(layout.memory_root(env, "coder"))
    restored = snapshot(layout.memory_root(env, "copy"))
    assert {name for name in original if Path(name).name not in layout.SIDE_FILES} == set(restored)


def test_p5_an_older_archive_holding_the_side_files_imports_without_a_word_of_them(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An archive made before the side files were left out holds them: they are skipped
    silently, never "not imported" nor counted as skipped."""
    scope = _side_files_written(env)
    made = tmp_path / "made.tar.gz"
    export = ["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(made)]
    assert main(export) == 0
    older = tmp_path / "older.tar.gz"
    with tarfile.open(made) as source, tarfile.open(older, "w:gz") as target:
        for member in source.getmembers():
            target.addfile(member, source.extractfile(member))
        for name in layout.SIDE_FILES:
            data = (scope / name).read_bytes()
            info = tarfile.TarInfo(f"agent-memory/scopes/{scope.name}/{name}")
            info.size = len(data)
            target.addfile(info, io.BytesIO(data))
    capsys.readouterr()

    argv = ["memory", "import", str(older), "--project", PROJECT, "--agent", "copy"]
    assert main(argv) == 0

    said = capsys.readouterr().out
    assert "not imported" not in said
    assert not any(name in said for name in layout.SIDE_FILES)
    restored = layout.memory_root(env, "copy") / scope.name
    assert not {path.name for path in restored.iterdir()} & set(layout.SIDE_FILES)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("memory.zip", ".zip"),
        ("memory.ZIP", ".zip"),
        ("memory.tar", ".tar"),
        ("memory.tar.xz", ".tar.xz"),
        ("memory.tar.bz2", ".tar.bz2"),
        ("memory.tar.zst", ".tar.zst"),
        ("memory.7z", ".7z"),
        ("memory.rar", ".rar"),
        ("memory.tbz2", ".tbz2"),
        ("memory.txz", ".txz"),
        ("memory.tar.Z", ".tar.z"),
        ("memory.xz", ".xz"),
    ],
)
def test_p5_export_to_a_name_of_another_archive_format_is_refused_and_nothing_written(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, kind: str
) -> None:
    """``-o memory.zip`` wrote a gzip-compressed tar under a ``.zip`` name (a re-check of the
    cases found it): a tool that trusts the name cannot open it. A name saying another archive
    format is refused before anything is read or written; ``.tar.gz``, ``.tgz`` and a name
    with no archive suffix stay the user's choice."""
    out = tmp_path / "out"
    out.mkdir()
    argv = ["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(out / name)]
    assert main(argv) == 1
    said = capsys.readouterr().err
    stem = name[: -len(kind)]
    assert (
        f"memory-api: {out / name} names a {kind} archive, but export writes a gzip-compressed "
        f"tar: name it {out / stem}.tar.gz (or .tgz); nothing was written"
    ) in said
    assert list(out.iterdir()) == []


def test_p5_export_to_another_format_s_name_ending_in_a_slash_is_refused_too(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-o out/memory.zip/`` wrote the archive as ``out/memory.zip`` (the slash dropped by the
    path, not by the check: review rv-lead69)."""
    out = tmp_path / "out"
    out.mkdir()
    argv = ["memory", "export", "--project", PROJECT, "--agent", "coder"]
    assert main([*argv, "-o", f"{out}/memory.zip/"]) == 1
    assert "names a .zip archive" in capsys.readouterr().err
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("name", ["memory.tgz", "memory-2026-12-07", "memory.backup"])
def test_p5_export_to_a_tgz_or_a_plain_name_writes_the_archive(
    env: Path, tmp_path: Path, name: str
) -> None:
    output = tmp_path / name
    argv = ["memory", "export", "--project", PROJECT, "--agent", "coder", "-o", str(output)]
    assert main(argv) == 0
    with tarfile.open(output, "r:gz") as archive:
        assert archive.getnames()
