"""A-10, I-8: the live notes are owner-only like their history and search index. Every folder
the service makes on the way to them (the data dir, ``agents/``, an agent's folder, its
``agent_state/``, the memory root and each scope folder, and beside them the drafts and machines
folders) is ``0700`` whatever the umask (``022``
would give ``0755``), so a note the agent writes ``0644`` with its own tools is still out of
other accounts' reach; a umask that lets the group write (``002``: a data dir a group shares on
purpose, ``fsGroup``) keeps the group's access, never others'. A data dir made before that rule
is warned of, naming each open folder and the ``chmod`` to run, never changed behind the
operator's back.
"""

from __future__ import annotations

import asyncio
import os
import socket
import stat
from pathlib import Path

import pytest
from memory_api import cli
from memory_api.cli import main
from memory_api.open_folders import open_folders_warning
from memory_api.store.drafts import DraftStore
from memory_api.store.scopes import create_scope_dir
from memory_api.store.sync.machines import Machine, MachineLog
from memory_core.layout import memory_root
from memory_core.wire import DraftCreate

CREATE = ["agent", "create", "--project", "acme", "--id", "coder", "--name", "Coder"]


def modes(data_dir: Path) -> dict[str, str]:
    """The mode of the data dir and every folder below it on the way to a note."""
    folders = [data_dir, *(path for path in data_dir.rglob("*") if path.is_dir())]
    return {
        str(path.relative_to(data_dir)): f"{stat.S_IMODE(path.stat().st_mode):o}"
        for path in folders
    }


def test_a10_every_folder_on_the_way_to_a_note_is_owner_only_under_umask_022(
    tmp_path: Path, umask_022: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    assert main(["token", "create", "--name", "me", "--data-dir", str(data_dir)]) == 0
    assert main([*CREATE, "--data-dir", str(data_dir)]) == 0
    root = memory_root(data_dir, "coder")
    assert create_scope_dir(root, "repo-0123abcd")
    (root / "user" / "deploy.md").write_text("# Deploy\n", encoding="utf-8")  # the agent's 0644

    seen = modes(data_dir)
    for folder in (
        ".",
        "agents",
        "agents/coder",
        "agents/coder/agent_state",
        "agents/coder/agent_state/memory",
        "agents/coder/agent_state/memory/user",
        "agents/coder/agent_state/memory/repo-0123abcd",
    ):
        assert seen[folder] == "700", (folder, seen)
    assert [name for name, mode in seen.items() if int(mode, 8) & 0o077] == []


def test_a10_the_drafts_and_machines_folders_are_owner_only_under_umask_022(
    tmp_path: Path, umask_022: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    assert main(["token", "create", "--name", "me", "--data-dir", str(data_dir)]) == 0
    assert main([*CREATE, "--data-dir", str(data_dir)]) == 0

    draft = DraftCreate(prompt="Deploy?")
    asyncio.run(DraftStore(data_dir, ttl=60).create("acme", "coder", draft))
    MachineLog(data_dir).seen("coder", "user", Machine("laptop-1", "laptop"), "me")

    seen = modes(data_dir)
    for folder in (
        "drafts",
        "drafts/acme",
        "drafts/acme/coder",
        "agents/coder/agent_state/machines",
    ):
        assert seen[folder] == "700", (folder, seen)
    assert [name for name, mode in seen.items() if int(mode, 8) & 0o077] == []


def test_a10_a_group_sharing_the_data_dir_on_purpose_keeps_its_access_never_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    before = os.umask(0o002)
    try:
        assert main(["token", "create", "--name", "me", "--data-dir", str(data_dir)]) == 0
        assert main([*CREATE, "--data-dir", str(data_dir)]) == 0
    finally:
        os.umask(before)
    assert set(modes(data_dir).values()) == {"770"}


def test_a10_a_data_dir_made_open_before_is_warned_of_naming_the_folder_and_chmod(
    tmp_path: Path,
    umask_022: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data_dir = tmp_path / "old data"
    data_dir.mkdir()
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    assert main([*CREATE, "--data-dir", str(data_dir)]) == 0
    scope = memory_root(data_dir, "coder") / "user"
    for folder in (data_dir, scope):
        folder.chmod(0o755)  # as an earlier version left them
    capsys.readouterr()

    assert main(["token", "create", "--name", "me", "--data-dir", str(data_dir)]) == 0
    said = capsys.readouterr().err
    assert f"'{data_dir}' (mode 755)" in said
    assert f"'{scope}' (mode 755)" in said
    assert f"chmod go-rwx '{data_dir}' '{scope}'" in said
    assert stat.S_IMODE(scope.stat().st_mode) == 0o755  # said, never changed behind its back

    data_dir.chmod(0o700)
    scope.chmod(0o700)
    assert open_folders_warning(data_dir) is None


@pytest.mark.usefixtures("restore_logging")
def test_a10_the_services_start_log_names_an_open_folder_and_the_chmod(
    tmp_path: Path,
    umask_022: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data_dir = tmp_path / "data"
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    data_dir.mkdir()
    assert main(CREATE) == 0
    data_dir.chmod(0o711)  # others may enter, by name, every folder below

    def started(_settings: object, _bind: object, sockets: list[socket.socket]) -> None:
        for sock in sockets:
            sock.close()

    monkeypatch.setattr(cli, "_run_app", started)
    assert main(["serve", "--port", "0"]) == 0
    said = capsys.readouterr().err
    assert f"{data_dir} (mode 711)" in said
    assert f"chmod go-rwx {data_dir}" in said


def test_a10_make_runs_demo_seed_leaves_no_memory_folder_open(
    tmp_path: Path, umask_022: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    corpus = Path(__file__).parents[1] / "data" / "corpus"
    assert main(["demo", "seed", "--corpus", str(corpus), "--data-dir", str(data_dir)]) == 0
    assert open_folders_warning(data_dir) is None
    agents = data_dir / "agents"
    open_ones = [p for p in agents.rglob("*") if p.is_dir() and p.stat().st_mode & 0o077]
    assert open_ones == []
