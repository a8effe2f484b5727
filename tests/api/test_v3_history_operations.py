"""V-1, V-3 on the command line: an import is a version; export carries history and import
takes it back; the operator's retention squashes the old end; the overview shows the size."""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import time
from pathlib import Path

import pytest
from memory_api.appkeys import get_history_store
from memory_api.cli import main
from memory_api.store.history.recorder import MAINTENANCE_PACKS
from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, write_topic
from tests.api.test_v1_versions import TOPIC, changes, checkpoint, seed

PROJECT = "acme"


def git_log(repository: Path) -> list[str]:
    """The summaries of a history, newest first, as plain git shows them."""
    command = ["git", f"--git-dir={repository}", "log", "--format=%s", "main"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.splitlines()


@pytest.fixture
def cli(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI on the test data dir, with agents ``coder`` and ``copy``."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "200")
    for agent in ("coder", "copy"):
        argv = ["agent", "create", "--project", PROJECT, "--id", agent, "--name", agent]
        assert main(argv) == 0
    return data_dir


def repository(data_dir: Path, agent: str, key: str = "user") -> Path:
    return layout.history_root(data_dir, agent) / f"{key}.git"


def test_v1_an_import_is_a_version_and_what_was_there_is_recorded_first(
    cli: Path, tmp_path: Path
) -> None:
    write_topic(layout.scope_dir(cli, "coder", "user"), "mine.md")
    source = tmp_path / "source"
    source.mkdir()
    write_topic(source, "theirs.md")
    (source / layout.INDEX_FILE).write_text("- [Theirs](theirs.md)\n", encoding="utf-8")

    argv = ["memory", "import", str(source), "--user", "--project", PROJECT, "--agent", "coder"]
    assert main(argv) == 0

    summaries = git_log(repository(cli, "coder"))
    assert summaries == [f"Import {source}", "History starts: 1 file found"]


def test_v1_an_import_of_a_folder_named_as_typed_is_recorded_by_its_absolute_path(
    cli: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README: ``memory import ./memories --from memory-tool --user …`` run in a checkout was
    recorded as "Import ./memories", which the History of the Memory tab shows to whoever reads
    it later, from no particular folder; the report still names the folder as typed."""
    folder = tmp_path / "work" / "memories"
    folder.mkdir(parents=True)
    write_topic(folder, "theirs.md")
    (tmp_path / "notes").mkdir()
    write_topic(tmp_path / "notes", "plain.md")
    monkeypatch.chdir(tmp_path / "work")
    ids = ["--user", "--project", PROJECT, "--agent", "coder"]
    assert main(["memory", "import", "./memories", "--from", "memory-tool", *ids]) == 0
    assert main(["memory", "import", "../notes", *ids]) == 0

    summaries = git_log(repository(cli, "coder"))
    assert summaries[:2] == [f"Import {tmp_path / 'notes'}", f"Import {folder}"]


def test_v3_export_with_history_and_import_takes_it_back(cli: Path, tmp_path: Path) -> None:
    user = layout.scope_dir(cli, "coder", "user")
    write_topic(user, "first.md")
    source = tmp_path / "source"
    source.mkdir()
    write_topic(source, "second.md")
    assert (
        main(["memory", "import", str(source), "--user", "--project", PROJECT, "--agent", "coder"])
        == 0
    )
    archive = tmp_path / "coder.tar.gz"
    argv = ["memory", "export", "--project", PROJECT, "--agent", "coder", "--with-history"]
    assert main([*argv, "-o", str(archive)]) == 0
    with tarfile.open(archive) as opened:
        assert "agent-memory/history/user.bundle" in opened.getnames()

    assert main(["memory", "import", str(archive), "--project", PROJECT, "--agent", "copy"]) == 0

    assert git_log(repository(cli, "copy")) == git_log(repository(cli, "coder"))
    copied = layout.scope_dir(cli, "copy", "user")
    # the import made second.md its index line (P-5), so the archive carries an index too
    assert sorted(path.name for path in copied.iterdir()) == ["MEMORY.md", "first.md", "second.md"]


def test_v3_a_scope_with_its_own_history_keeps_it(cli: Path, tmp_path: Path) -> None:
    write_topic(layout.scope_dir(cli, "coder", "user"), "first.md")
    archive = tmp_path / "coder.tar.gz"
    argv = ["memory", "export", "--project", PROJECT, "--agent", "coder", "--with-history"]
    source = tmp_path / "source"
    source.mkdir()
    write_topic(source, "own.md")
    assert (
        main(["memory", "import", str(source), "--user", "--project", PROJECT, "--agent", "copy"])
        == 0
    )
    assert (
        main(["memory", "import", str(source), "--user", "--project", PROJECT, "--agent", "coder"])
        == 0
    )
    assert main([*argv, "-o", str(archive)]) == 0
    own = git_log(repository(cli, "copy"))

    assert main(["memory", "import", str(archive), "--project", PROJECT, "--agent", "copy"]) == 0

    assert git_log(repository(cli, "copy"))[1:] == own
    assert git_log(repository(cli, "copy"))[0] == f"Import {archive} (scope user)"


def test_v3_retention_squashes_the_old_end_and_keeps_the_newest_versions(
    cli: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = layout.scope_dir(cli, "coder", "user")
    for number in range(6):
        (user / TOPIC).write_text(f"version {number}\n", encoding="utf-8")
        source = cli.parent / f"import-{number}"
        source.mkdir()
        write_topic(source, f"note-{number}.md")
        argv = ["memory", "import", str(source), "--user", "--project", PROJECT, "--agent", "coder"]
        assert main(argv) == 0
    before = git_log(repository(cli, "coder"))
    history = ["git", f"--git-dir={repository(cli, 'coder')}"]
    oldest = subprocess.run(
        [*history, "rev-list", "--max-parents=0", "main"], capture_output=True, text=True
    ).stdout.strip()
    for ref in ("refs/machines/0123abcd", "refs/taken/0123abcd"):  # a machine's, on an old one
        subprocess.run([*history, "update-ref", ref, oldest], check=True)
    monkeypatch.setenv("MEMORY_API_HISTORY_MAX_VERSIONS", "3")
    monkeypatch.setenv("MEMORY_API_HISTORY_MAX_AGE_DAYS", "0")

    assert main(["history", "prune"]) == 0

    refs = subprocess.run(
        [*history, "for-each-ref", "refs/machines", "refs/taken"], capture_output=True, text=True
    )
    assert refs.stdout == ""  # they would keep the squashed versions' objects
    gone = subprocess.run([*history, "cat-file", "-e", oldest], capture_output=True)
    assert gone.returncode != 0
    after = git_log(repository(cli, "coder"))
    assert after[:3] == before[:3]
    assert len(after) == 4
    assert after[3].endswith("(squashed by retention)")
    tree = subprocess.run(
        ["git", f"--git-dir={repository(cli, 'coder')}", "ls-tree", "--name-only", "main"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert sorted(tree) == sorted(path.name for path in user.iterdir())
    assert main(["history", "prune"]) == 0  # within the limits now: nothing changes
    assert git_log(repository(cli, "coder")) == after


async def test_v3_the_overview_shows_each_scopes_history_size(
    client: Client, agent: AgentHome
) -> None:
    overview = await ok_json(await client.get(memory_url()))
    assert overview["scopes"][0]["historyBytes"] == 0
    seed(agent)
    await checkpoint(client)

    overview = await ok_json(await client.get(memory_url()))

    size = sum(
        path.stat().st_size
        for path in (layout.history_root(agent.data_dir, agent.id) / "user.git").rglob("*")
        if path.is_file()
    )
    assert overview["scopes"][0]["historyBytes"] == size > 0
    assert len(await changes(client)) == 1


async def test_v3_versions_are_repacked_in_the_background_and_read_the_same(
    client: Client, agent: AgentHome
) -> None:
    seed(agent)
    for number in range(MAINTENANCE_PACKS + 2):
        (agent.user / TOPIC).write_text(f"version {number}\n", encoding="utf-8")
        await checkpoint(client)
    before = await changes(client, limit="100")
    await get_history_store(client.app).idle()

    repository = layout.history_root(agent.data_dir, agent.id) / "user.git"
    packs = list((repository / "objects" / "pack").glob("*.pack"))
    assert len(packs) < MAINTENANCE_PACKS
    assert (repository / "objects" / "info" / "commit-graphs").is_dir()
    assert await changes(client, limit="100") == before
    assert len(before) == MAINTENANCE_PACKS + 2


async def test_v3_the_repack_removes_what_a_push_stopped_midway_left(
    client: Client, agent: AgentHome
) -> None:
    """A ``receive-pack`` killed mid-push (the service stopped, the sync timeout) leaves its
    quarantine folder of objects, up to a whole push; the background repack removes it once it
    is an hour old, as it does a killed git's temporary pack."""
    seed(agent)
    await checkpoint(client)
    objects = layout.history_root(agent.data_dir, agent.id) / "user.git" / "objects"
    quarantine = objects / "tmp_objdir-incoming-a1b2c3"
    (quarantine / "pack").mkdir(parents=True)
    (quarantine / "pack" / "tmp_pack_x").write_bytes(b"\0" * 4096)
    recent = objects / "tmp_objdir-incoming-d4e5f6"  # maybe a push still running: kept
    recent.mkdir()
    hours_ago = time.time() - 2 * 3600
    os.utime(quarantine, (hours_ago, hours_ago))
    for number in range(MAINTENANCE_PACKS + 1):
        (agent.user / TOPIC).write_text(f"version {number}\n", encoding="utf-8")
        await checkpoint(client)
    await get_history_store(client.app).idle()

    assert not quarantine.exists()
    assert recent.is_dir()


def test_v3_a_damaged_history_bundle_is_reported_and_the_files_still_come_in(
    cli: Path, tmp_path: Path
) -> None:
    write_topic(layout.scope_dir(cli, "coder", "user"), "first.md")
    archive = tmp_path / "coder.tar.gz"
    argv = ["memory", "export", "--project", PROJECT, "--agent", "coder", "--with-history"]
    assert main([*argv, "-o", str(archive)]) == 0
    damaged = tmp_path / "damaged.tar.gz"
    with tarfile.open(archive) as source, tarfile.open(damaged, "w:gz") as target:
        for member in source.getmembers():
            data = source.extractfile(member)
            if member.name.endswith(".bundle"):
                payload = b"# v2 git bundle\nnot really\n"
                member.size = len(payload)
                target.addfile(member, io.BytesIO(payload))
            else:
                target.addfile(member, data)

    assert main(["memory", "import", str(damaged), "--project", PROJECT, "--agent", "copy"]) == 0

    assert (layout.scope_dir(cli, "copy", "user") / "first.md").exists()
    assert git_log(repository(cli, "copy")) == [f"Import {damaged} (scope user)"]


def test_v3_prune_says_one_version_and_one_day_in_the_singular(
    cli: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEMORY_API_HISTORY_MAX_VERSIONS", "1")
    monkeypatch.setenv("MEMORY_API_HISTORY_MAX_AGE_DAYS", "1")
    capsys.readouterr()
    assert main(["history", "prune"]) == 0
    assert capsys.readouterr().out.endswith(
        "0 versions squashed in all (kept per scope: 1 version, 1 day)\n"
    )


def test_v3_prune_names_a_damaged_history_and_still_prunes_every_other(
    cli: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One damaged history (its branch ref garbled) does not stop the nightly retention of
    every other scope: it is named with what to do, the rest are pruned, the exit is 1."""
    for agent in ("coder", "copy"):
        user = layout.scope_dir(cli, agent, "user")
        for number in range(4):
            source = cli.parent / f"{agent}-import-{number}"
            source.mkdir()
            write_topic(source, f"note-{number}.md")
            argv = ["memory", "import", str(source), "--user", "--project", PROJECT]
            assert main([*argv, "--agent", agent]) == 0
        assert user.is_dir()
    (repository(cli, "coder") / "refs" / "heads" / "main").write_text("garbled\n")
    monkeypatch.setenv("MEMORY_API_HISTORY_MAX_VERSIONS", "2")
    capsys.readouterr()

    assert main(["history", "prune"]) == 1

    said = capsys.readouterr()
    assert f"{PROJECT}/coder user: not pruned: the history of this scope is damaged" in said.err
    assert "move it aside" in said.err
    assert f"{PROJECT}/copy user: 2 versions squashed into 1 base version, 2 kept" in said.out
    assert len(git_log(repository(cli, "copy"))) == 3
