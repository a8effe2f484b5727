"""R-1, R-2: two machines keep local copies of one agent's memory, synced with the real service.

Each "machine" is a state dir of its own (``harness_memory.remote.RemoteCopy``); the service is
the real ``memory-api serve`` on loopback, and every sync is the real ``git`` talking git's
smart HTTP to it with the bearer token. Nothing of the service's data dir is read by a machine.
"""

from __future__ import annotations

import http.server
import os
import shutil
import socket
import stat
import threading
from pathlib import Path
from urllib.parse import quote, unquote

import pytest
from harness_memory.hooks.claude_code import HookInput
from harness_memory.hooks.sync import session_scopes
from harness_memory.remote import (
    MACHINE_ID_READ_CAP,
    RemoteCopy,
    RemoteError,
    SyncResult,
    machine_identity,
)
from harness_memory.settings import HarnessSettings
from memory_core import layout

from tests.plugin.real_service import TOKEN, RealService
from tests.support.case_insensitive_disk import case_insensitive_disk
from tests.support.git_runs import recording_git
from tests.support.serve import serve
from tests.support.unreadable_link import unreadable_link

AGENT = "coder"


def machine(
    service: RealService, agent: str, tmp_path: Path, name: str, url: str | None = None
) -> RemoteCopy:
    return RemoteCopy(
        url=url or service.url,
        token=service.token,
        project="acme",
        agent=agent,
        state_dir=tmp_path / name / "state",
        timeout=30.0,
    )


def synced(copy: RemoteCopy, workspace: str | None = None) -> list[SyncResult]:
    results = copy.sync(workspace)
    assert all(result.ok for result in results), [result.as_json() for result in results]
    return results


def append(path: Path, line: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line)


def versions(service: RealService, agent: str, key: str = "user") -> list[dict[str, object]]:
    status, _, body = service.request(
        "GET", f"/api/projects/acme/agents/{agent}/memory/scopes/{key}/changes"
    )
    assert status == 200, body
    found: list[dict[str, object]] = body["versions"]
    return found


@pytest.fixture
def served_root(shared_service: RealService, new_agent: str) -> Path:
    """The memory root of this test's own agent on the worker's shared service."""
    return layout.memory_root(shared_service.data_dir, new_agent)


@pytest.fixture
def two_machines(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> tuple[RemoteCopy, RemoteCopy]:
    """A laptop and a desktop, each with a state dir of its own, nothing synced yet."""
    return (
        machine(shared_service, new_agent, tmp_path, "laptop"),
        machine(shared_service, new_agent, tmp_path, "desktop"),
    )


def test_r1_a_write_on_one_machine_reaches_the_other(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
) -> None:
    laptop, desktop = two_machines
    synced(laptop)
    append(laptop.memory_root / "user" / "uv.md", "---\ndescription: use uv\n---\nuse uv\n")
    append(laptop.memory_root / "user" / "MEMORY.md", "- [Uv](uv.md) use uv\n")
    [result] = synced(laptop)
    assert result.sent and not result.waiting
    assert (served_root / "user" / "uv.md").read_text(encoding="utf-8").endswith("use uv\n")
    synced(desktop)
    assert (desktop.memory_root / "user" / "MEMORY.md").read_text(encoding="utf-8") == (
        "- [Uv](uv.md) use uv\n"
    )
    newest = versions(shared_service, new_agent)[0]
    assert newest["author"]["source"] == "sync"  # type: ignore[index]


def test_r2_both_machines_append_to_one_index_and_every_line_arrives(
    served_root: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    laptop, desktop = two_machines
    append(served_root / "user" / "MEMORY.md", "# Memory\n")
    synced(laptop)
    synced(desktop)
    append(laptop.memory_root / "user" / "MEMORY.md", "- [A](a.md) from the laptop\n")
    append(desktop.memory_root / "user" / "MEMORY.md", "- [B](b.md) from the desktop\n")
    synced(laptop)
    synced(desktop)
    synced(laptop)
    expected = {"# Memory", "- [A](a.md) from the laptop", "- [B](b.md) from the desktop"}
    for root in (served_root, laptop.memory_root, desktop.memory_root):
        lines = (root / "user" / "MEMORY.md").read_text(encoding="utf-8").splitlines()
        assert set(lines) == expected and len(lines) == 3, root


def test_r2_one_index_line_reworded_on_both_machines_keeps_both_and_says_so(
    served_root: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    laptop, desktop = two_machines
    append(served_root / "user" / "MEMORY.md", "# Memory\n- [A](a.md) about a\n")
    append(served_root / "user" / "a.md", "a\n")
    synced(laptop)
    synced(desktop)
    for copy, who in ((laptop, "laptop"), (desktop, "desktop")):
        index = copy.memory_root / "user" / "MEMORY.md"
        index.write_text(f"# Memory\n- [A](a.md) about a, as the {who} says\n", "utf-8")
    synced(laptop)
    [result] = synced(desktop)
    synced(laptop)
    assert result.outcomes == [
        "the MEMORY.md line '- [A](a.md) about a' was changed on two machines: both versions "
        "are kept, one after the other"
    ]
    for root in (served_root, laptop.memory_root, desktop.memory_root):
        assert (root / "user" / "MEMORY.md").read_text(encoding="utf-8") == (
            "# Memory\n- [A](a.md) about a, as the laptop says\n"
            "- [A](a.md) about a, as the desktop says\n"
        ), root


def test_r2_two_edits_of_one_file_keep_both_under_a_named_file(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
) -> None:
    laptop, desktop = two_machines
    append(served_root / "user" / "MEMORY.md", "- [Deploy](deploy.md) how\n")
    append(served_root / "user" / "deploy.md", "v0\n")
    synced(laptop)
    synced(desktop)
    (desktop.memory_root / "user" / "deploy.md").write_text("v1 desktop\n", encoding="utf-8")
    (laptop.memory_root / "user" / "deploy.md").write_text("v2 laptop\n", encoding="utf-8")
    synced(desktop)
    [result] = synced(laptop)
    assert len(result.outcomes) == 1 and "edited on two machines" in result.outcomes[0]
    assert [scope.outcomes for scope in laptop.status()] == [result.outcomes]
    [other] = synced(desktop)  # another machine's merge, said with whose sync made it
    [line] = other.outcomes
    assert line.startswith(result.outcomes[0] + " (merged when ") and line.endswith(" synced)")
    kept = sorted(path.name for path in (served_root / "user").glob("deploy*.md"))
    assert len(kept) == 2, kept
    texts = {(served_root / "user" / name).read_text(encoding="utf-8") for name in kept}
    assert texts == {"v1 desktop\n", "v2 laptop\n"}
    for copy in (laptop, desktop):
        assert sorted(path.name for path in (copy.memory_root / "user").glob("deploy*.md")) == kept
    outcomes = versions(shared_service, new_agent)[0]["outcomes"]
    assert isinstance(outcomes, list) and len(outcomes) == 1
    assert "edited on two machines" in outcomes[0]


def test_r2_a_delete_and_an_edit_keep_the_edited_file(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
) -> None:
    laptop, desktop = two_machines
    append(served_root / "user" / "x.md", "x0\n")
    synced(laptop)
    synced(desktop)
    (desktop.memory_root / "user" / "x.md").unlink()
    synced(desktop)
    (laptop.memory_root / "user" / "x.md").write_text("x1 edited\n", encoding="utf-8")
    synced(laptop)
    synced(desktop)
    for root in (served_root, laptop.memory_root, desktop.memory_root):
        assert (root / "user" / "x.md").read_text(encoding="utf-8") == "x1 edited\n", root
    assert versions(shared_service, new_agent)[0]["outcomes"] == [
        "x.md was deleted on one machine and edited on another: kept"
    ]


def test_r2_a_case_twin_written_on_one_machine_reaches_every_copy_under_its_own_name(
    served_root: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    """``ok.md`` beside ``OK.md`` would be one file on a macOS or Windows machine: the service
    keeps the newcomer under a new name, and the copy that wrote it moves its text there."""
    laptop, desktop = two_machines
    append(served_root / "user" / "MEMORY.md", "- [OK](OK.md) the service's\n")
    append(served_root / "user" / "OK.md", "service\n")
    synced(laptop)
    append(laptop.memory_root / "user" / "ok.md", "laptop\n")
    append(laptop.memory_root / "user" / "MEMORY.md", "- [ok](ok.md) the laptop's\n")
    [result] = synced(laptop)
    [said] = result.outcomes
    kept = said.rpartition(" it is kept as ")[2]
    assert said.startswith("ok.md differs from OK.md only in letter case") and kept != "ok.md"
    synced(desktop)
    for root in (served_root, laptop.memory_root, desktop.memory_root):
        scope = root / "user"
        assert sorted(path.name for path in scope.iterdir()) == sorted(["MEMORY.md", "OK.md", kept])
        assert (scope / "OK.md").read_text(encoding="utf-8") == "service\n", root
        assert (scope / kept).read_text(encoding="utf-8") == "laptop\n", root
        assert (scope / "MEMORY.md").read_text(encoding="utf-8") == (
            f"- [OK](OK.md) the service's\n- [ok]({kept}) the laptop's\n"
        ), root


def test_r2_an_index_line_sent_after_its_case_twin_links_the_name_the_twin_is_kept_under(
    served_root: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    """The agent writes ``ok.md`` beside ``OK.md``, then its index line: the post-write hook
    sends each (send-only, no fetch between), so the line arrives after its file was kept as
    ``ok-<machine>.md``. It links that name on the service and on every copy, never ``ok.md``,
    which a macOS or Windows machine opens as ``OK.md`` (seen end to end on exFAT)."""
    laptop, desktop = two_machines
    append(served_root / "user" / "MEMORY.md", "- [OK](OK.md) the service's\n")
    append(served_root / "user" / "OK.md", "service\n")
    synced(laptop)
    append(laptop.memory_root / "user" / "ok.md", "laptop\n")
    [sent] = laptop.sync(None, send_only=True)
    kept = sent.outcomes[0].rpartition(" it is kept as ")[2]
    append(laptop.memory_root / "user" / "MEMORY.md", "- [ok](ok.md) the laptop's\n")
    laptop.sync(None, send_only=True)
    synced(laptop)
    synced(desktop)
    for root in (served_root, laptop.memory_root, desktop.memory_root):
        scope = root / "user"
        assert sorted(path.name for path in scope.iterdir()) == sorted(["MEMORY.md", "OK.md", kept])
        assert (scope / "MEMORY.md").read_text(encoding="utf-8") == (
            f"- [OK](OK.md) the service's\n- [ok]({kept}) the laptop's\n"
        ), root


def test_r2_a_file_renamed_only_in_letter_case_reaches_a_copy_on_a_case_insensitive_disk(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """A copy on exFAT (as on a Windows or macOS disk) takes the version in which another
    machine renamed ``notes.md`` to ``Notes.md``: git alone would find the old file in the new
    name's way and refuse this and every later version."""
    append(served_root / "user" / "MEMORY.md", "- [Notes](notes.md) notes\n")
    append(served_root / "user" / "notes.md", "old\n")
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(laptop)
    with case_insensitive_disk(tmp_path, private=True) as disk:
        (disk / "probe.md").write_text("one file\n", encoding="utf-8")
        assert (disk / "PROBE.md").read_text(encoding="utf-8") == "one file\n"
        desktop = machine(shared_service, new_agent, disk, "desktop")
        synced(desktop)
        (laptop.memory_root / "user" / "notes.md").rename(laptop.memory_root / "user" / "Notes.md")
        (laptop.memory_root / "user" / "Notes.md").write_text("new\n", encoding="utf-8")
        append(laptop.memory_root / "user" / "MEMORY.md", "- [Later](later.md) later\n")
        synced(laptop)
        [taken] = synced(desktop)
        assert not taken.waiting
        scope = desktop.memory_root / "user"
        assert sorted(path.name for path in scope.iterdir()) == ["MEMORY.md", "Notes.md"]
        assert (scope / "Notes.md").read_text(encoding="utf-8") == "new\n"
        assert "- [Later](later.md) later" in (scope / "MEMORY.md").read_text(encoding="utf-8")


def test_r2_a_case_only_rename_made_on_a_case_insensitive_disk_reaches_the_service(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """``notes.md`` renamed ``Notes.md`` in a copy on exFAT: git there (``core.ignorecase``)
    still finds the file under its old name and saw no change, so the rename never left the
    machine, and every later sync brought the old name back to the others."""
    append(served_root / "user" / "MEMORY.md", "- [Notes](notes.md) notes\n")
    append(served_root / "user" / "notes.md", "old\n")
    with case_insensitive_disk(tmp_path, private=True) as disk:
        desktop = machine(shared_service, new_agent, disk, "desktop")
        synced(desktop)
        scope = desktop.memory_root / "user"
        (scope / "notes.md").rename(scope / "Notes.md")
        [sent] = synced(desktop)
        assert sent.sent and not sent.waiting
        assert sorted(path.name for path in (served_root / "user").iterdir()) == [
            "MEMORY.md",
            "Notes.md",
        ]
        assert sorted(path.name for path in scope.iterdir()) == ["MEMORY.md", "Notes.md"]
        [again] = synced(desktop)
        assert not again.sent and not again.waiting


def test_r2_an_edit_then_a_delete_keeps_the_edit_and_tells_the_deleting_machine(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
) -> None:
    laptop, desktop = two_machines
    append(served_root / "user" / "x.md", "x0\n")
    synced(laptop)
    synced(desktop)
    (laptop.memory_root / "user" / "x.md").write_text("x1 edited\n", encoding="utf-8")
    synced(laptop)
    (desktop.memory_root / "user" / "x.md").unlink()
    [result] = synced(desktop)  # its merge changes no file, and still says what it did
    said = "x.md was deleted on one machine and edited on another: kept"
    assert result.outcomes == [said]
    assert [scope.outcomes for scope in desktop.status()] == [[said]]
    newest = versions(shared_service, new_agent)[0]
    assert newest["outcomes"] == [said] and newest["files"] == []
    for root in (served_root, laptop.memory_root, desktop.memory_root):
        assert (root / "user" / "x.md").read_text(encoding="utf-8") == "x1 edited\n", root


def test_r2_offline_writes_wait_and_arrive_on_the_next_contact(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        dead_url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(laptop)
    offline = machine(shared_service, new_agent, tmp_path, "laptop", url=dead_url)
    append(offline.memory_root / "user" / "MEMORY.md", "- [Off](off.md) written offline\n")
    [result] = offline.sync(None)
    assert not result.ok and result.waiting and result.error
    assert (offline.memory_root / "user" / "MEMORY.md").exists()
    assert [scope.waiting for scope in offline.status()] == [True]
    synced(laptop)
    assert (served_root / "user" / "MEMORY.md").read_text(encoding="utf-8") == (
        "- [Off](off.md) written offline\n"
    )
    assert [scope.waiting for scope in laptop.status()] == [False]


def test_r1_a_token_the_service_refuses_says_where_the_token_comes_from(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    revoked = RemoteCopy(
        url=shared_service.url,
        token="mem_not-a-token-this-service-holds",
        project="acme",
        agent=new_agent,
        state_dir=tmp_path / "laptop" / "state",
        timeout=30.0,
        token_source="--token-file /home/ada/.claude/harness-memory/token",
    )

    [result] = revoked.sync(None)

    assert not result.ok and result.refused and result.error is not None
    assert result.error.startswith(  # the service's reason, not git's "Authentication failed"
        "memory service answered 401: the bearer token is not known to this service"
    )
    assert (
        "(the service refused the token from --token-file /home/ada/.claude/harness-memory/"
        "token: it is wrong, or was revoked; give one this service takes; installed hooks: give "
        "a token it takes in HARNESS_MEMORY_TOKEN and run `harness-memory install HARNESS` again "
        "(HARNESS: claude-code, codex or gemini))"
    ) in result.error
    assert "mem_not-a-token" not in result.error


def test_r1_a_workspace_scope_is_made_with_its_marker_and_only_the_sessions_scopes_come(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    project = tmp_path / "laptop" / "code" / "shop"
    project.mkdir(parents=True)
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    results = synced(laptop, str(project))
    key = laptop.workspace_key(str(project))
    assert [result.scope for result in results] == ["user", key]
    marker = (served_root / key / ".workspace").read_text(encoding="utf-8")
    assert marker == os.path.realpath(project) + "\n"
    append(served_root / "other-0123abcd" / "MEMORY.md", "- secret of another Workspace\n")
    desktop = machine(shared_service, new_agent, tmp_path, "desktop")
    synced(desktop, str(project))
    assert sorted(path.name for path in desktop.memory_root.iterdir()) == sorted(["user", key])


def test_r1_the_machine_id_file_is_private_and_the_token_is_in_no_url(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(laptop)
    assert stat.S_IMODE((laptop.remote_dir / "machine-id").stat().st_mode) == 0o600
    assert shared_service.token not in laptop.scope_url("user")
    git_dir = laptop.sync_dir / "user.git"
    stored = b"".join(path.read_bytes() for path in git_dir.rglob("*") if path.is_file())
    assert shared_service.token.encode() not in stored


def test_r1_the_local_copy_and_its_history_are_owner_only_whatever_the_umask(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """The copy holds the scopes' notes and, in its git dirs, every version fetched (a
    credential removed since among them): made under the usual umask (022) its folders were
    0755 and its files 0644, so every account of the machine read them (the service keeps
    its own history owner-only). The copy's root is owner-only, also one an earlier version
    made open, so nothing below it can be reached by another account."""
    (served_root / "user" / "deploy.md").write_text("---\nname: deploy\n---\nx\n")
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    laptop.remote_dir.mkdir(parents=True)
    laptop.remote_dir.chmod(0o755)  # as an earlier version, or the umask, left it
    previous = os.umask(0o022)
    try:
        synced(laptop)
    finally:
        os.umask(previous)

    assert (laptop.memory_root / "user" / "deploy.md").is_file()
    assert stat.S_IMODE(laptop.remote_dir.stat().st_mode) == 0o700
    assert laptop.sync_dir.is_relative_to(laptop.remote_dir)
    assert laptop.memory_root.is_relative_to(laptop.remote_dir)


def test_r1_a_send_only_sync_with_nothing_to_send_asks_the_service_nothing(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    synced(laptop)
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))
    offline = machine(
        shared_service,
        new_agent,
        tmp_path,
        "laptop",
        url=f"http://127.0.0.1:{dead.getsockname()[1]}",
    )
    dead.close()
    [result] = offline.sync(None, send_only=True)
    assert result.ok and result.skipped  # no request was made: the dead port was never tried
    append(offline.memory_root / "user" / "MEMORY.md", "- new\n")
    [result] = offline.sync(None, send_only=True)
    assert not result.ok and result.waiting


def test_r1_a_post_write_send_fetches_nothing_and_the_next_send_builds_on_it(
    served_root: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    """A send-only sync (the post-write and Session-end hooks) pushes and stops: what another
    machine sent arrives with the next full sync. The next send is measured against what this
    machine sent (R-2): an edit of the edit is taken, a delete is a delete, nothing is kept
    twice."""
    laptop, desktop = two_machines
    append(served_root / "user" / "x.md", "x0\n")
    append(served_root / "user" / "y.md", "y0\n")
    synced(laptop)
    synced(desktop)
    append(desktop.memory_root / "user" / "d.md", "from the desktop\n")
    [result] = desktop.sync(None, send_only=True)
    assert result.ok and result.sent
    laptop_user = laptop.memory_root / "user"
    (laptop_user / "x.md").write_text("x1 laptop\n", encoding="utf-8")
    [result] = laptop.sync(None, send_only=True)
    assert result.ok and result.sent and not (laptop_user / "d.md").exists()
    (laptop_user / "x.md").write_text("x2 laptop\n", encoding="utf-8")
    (laptop_user / "y.md").unlink()
    [result] = laptop.sync(None, send_only=True)
    assert result.ok and result.sent
    assert [scope.waiting for scope in laptop.status()] == [False]
    assert sorted(path.name for path in (served_root / "user").iterdir()) == ["d.md", "x.md"]
    assert (served_root / "user" / "x.md").read_text(encoding="utf-8") == "x2 laptop\n"
    [result] = synced(laptop)
    assert not result.sent and result.outcomes == []
    assert sorted(path.name for path in laptop_user.iterdir()) == ["d.md", "x.md"]
    synced(desktop)
    assert (desktop.memory_root / "user" / "x.md").read_text(encoding="utf-8") == "x2 laptop\n"
    assert not (desktop.memory_root / "user" / "y.md").exists()


def test_r2_a_send_only_sync_reports_the_merge_outcome_at_once(
    served_root: Path, two_machines: tuple[RemoteCopy, RemoteCopy]
) -> None:
    """The post-write hook fetches nothing, yet the machine knows what the merge of its change
    did: the push's answer says it (its result, ``status``)."""
    laptop, desktop = two_machines
    append(served_root / "user" / "x.md", "x0\n")
    synced(laptop)
    synced(desktop)
    (laptop.memory_root / "user" / "x.md").write_text("x1 edited\n", encoding="utf-8")
    [result] = laptop.sync(None, send_only=True)
    assert result.ok and result.outcomes == []
    (desktop.memory_root / "user" / "x.md").unlink()
    [result] = desktop.sync(None, send_only=True)
    said = "x.md was deleted on one machine and edited on another: kept"
    assert result.ok and result.sent and result.outcomes == [said]
    assert [scope.outcomes for scope in desktop.status()] == [[said]]
    [result] = synced(desktop)  # the fetch finds the same version: said once
    assert result.outcomes == [said]
    assert (desktop.memory_root / "user" / "x.md").read_text(encoding="utf-8") == "x1 edited\n"


def test_r1_a_workspace_through_a_symlink_that_cannot_be_read_syncs_the_user_scope_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its key is unknown (no key is made up from the path's spelling), so only the user scope
    is sent back; the hook goes on instead of crashing (a Session end never raises)."""
    locked = unreadable_link(tmp_path / "root", Path("/"), monkeypatch)
    settings = HarnessSettings(
        url="http://127.0.0.1:9", token=None, project="acme", agent="coder", state_dir=tmp_path
    )
    hook = HookInput(session_id=None, cwd=str(locked / "src" / "app"))

    assert session_scopes(hook, settings) == (["user"], None)


def test_r1_a_local_copy_is_not_synced_for_a_workspace_whose_key_is_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A symlink on the Workspace's way that cannot be read: a named RemoteError (the Session
    start fails open on it, saying why), before any scope is asked for."""
    locked = unreadable_link(tmp_path / "root", Path("/"), monkeypatch)
    copy = RemoteCopy(
        url="http://127.0.0.1:9",
        token=None,
        project="acme",
        agent=AGENT,
        state_dir=tmp_path / "state",
        timeout=30.0,  # a hang guard, not a budget: the path is refused before any request
    )

    with pytest.raises(RemoteError, match="cannot be read"):
        copy.sync(str(locked / "src" / "app"))
    with pytest.raises(RemoteError, match="cannot be read"):
        copy.workspace_key(str(locked / "src" / "app"))


@pytest.mark.parametrize(
    ("folder", "problem"),
    [(b"caf\xe9", "is not UTF-8"), (b"a\x1b[2Jb", "must not hold control characters")],
)
def test_r1_k5_a_workspace_whose_path_no_marker_can_hold_gets_no_scope(
    tmp_path: Path, folder: bytes, problem: str
) -> None:
    """K-5: the marker holds the real path, UTF-8, one line. A Workspace folder named in
    another encoding, or holding a control character, made a local scope whose marker held
    those bytes (and pushed it, the service making a scope without a marker); now a named
    RemoteError before any scope is asked for (the Session start fails open saying why), and
    the post-write and Session-end hooks send the user scope only."""
    workspace = os.fsdecode(os.fsencode(tmp_path) + b"/" + folder)
    Path(workspace).mkdir()
    copy = RemoteCopy(
        url="http://127.0.0.1:9",
        token=None,
        project="acme",
        agent=AGENT,
        state_dir=tmp_path / "state",
        timeout=30.0,  # a hang guard, not a budget: the path is refused before any request
    )

    with pytest.raises(RemoteError, match=problem):
        copy.sync(workspace)
    assert not copy.memory_root.exists() or list(copy.memory_root.iterdir()) == []
    settings = HarnessSettings(
        url="http://127.0.0.1:9", token=None, project="acme", agent="coder", state_dir=tmp_path
    )
    assert session_scopes(HookInput(session_id=None, cwd=workspace), settings) == (["user"], None)


@pytest.mark.parametrize(
    ("host", "name"),
    [
        ("laptop\u202egpj.exe", "laptopgpj.exe"),
        ("ad\u200bmin\u2066", "admin"),
        ("\u200b\u202e", None),  # nothing visible left: the machine's id
        ("lap\udcfftop", "laptop"),  # a byte that is no UTF-8 (b"lap\xfftop"), as Python reads it
    ],
)
def test_r1_i9_the_host_name_is_sent_without_hidden_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host: str, name: str | None
) -> None:
    """The service refuses a machine name with hidden characters: a host name holding some is
    sent without them, so this machine still syncs and shows as what it is."""
    monkeypatch.setattr(socket, "gethostname", lambda: host)
    machine_id, sent = machine_identity(tmp_path)
    assert sent == (name or machine_id)
    # the header git sends it in: percent-encoded UTF-8, read back as the service reads it
    assert unquote(quote(sent, safe=""), errors="strict") == sent


def test_r1_a_machine_id_file_over_its_cap_is_never_read_whole_and_made_anew(
    tmp_path: Path,
) -> None:
    """``machine-id`` holds 64 characters; one of more than :data:`MACHINE_ID_READ_CAP` bytes
    (a valid id, then padding) is no file this plugin wrote: made anew, never read whole."""
    path = tmp_path / "machine-id"
    path.write_bytes(b"0123abcd" + b" " * MACHINE_ID_READ_CAP)

    machine_id, _ = machine_identity(tmp_path)

    assert machine_id != "0123abcd"
    assert path.read_text(encoding="ascii") == f"{machine_id}\n"
    assert machine_identity(tmp_path)[0] == machine_id  # kept from then on


def test_r1_an_agent_the_service_does_not_have_is_an_error_not_an_empty_memory(
    shared_service: RealService, new_agent: str, served_root: Path, tmp_path: Path
) -> None:
    """The service makes the user scope on demand (and a push makes a Workspace scope), so a
    404 for it means the agent, project, address or token is wrong: the sync says so, never
    "nothing saved yet" (a Session would start with no memory and no word why). It says so
    in the service's own words, its problem's ``detail`` (as for its other answers: 401,
    5xx), then where it asked and what to check."""
    for url, agent, service_says in (
        (shared_service.url, "nobody", "no agent 'nobody' in project 'acme'"),
        (
            shared_service.url + "/elsewhere",
            new_agent,
            f"nothing is served at /elsewhere/api/projects/acme/agents/{new_agent}/memory/git/",
        ),
    ):
        copy = RemoteCopy(
            url=url,
            token=shared_service.token,
            project="acme",
            agent=agent,
            state_dir=tmp_path / f"typo-{len(url)}" / "state",
            timeout=30.0,
        )
        for result in copy.sync(str(tmp_path)):
            assert not result.ok and not result.missing and result.refused, result.as_json()
            assert (result.error or "").startswith(
                f"memory service answered 404: {service_says}"
            ), result.error
            assert f"for agent {agent!r} in project 'acme'" in (result.error or "")
            assert "check the URL, project, agent and token" in (result.error or "")
            assert shared_service.token not in (result.error or "")


class _PlainNotFound(http.server.BaseHTTPRequestHandler):
    """Another server at the service's address: a 404 of plain text, no problem+json."""

    def do_GET(self) -> None:
        body = b"404 page not found\n"
        self.send_response(404)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return


def test_r1_a_404_with_no_detail_of_the_service_s_is_said_in_the_sync_s_words(
    tmp_path: Path,
) -> None:
    """A 404 whose body carries no problem ``detail`` (another server at that address) is
    still a refusal, said in the sync's words: no agent there, and what to check."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _PlainNotFound)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        copy = RemoteCopy(
            url=url, token="t" * 40, project="acme", agent="coder",
            state_dir=tmp_path / "state", timeout=30.0,
        )  # fmt: skip
        [result] = copy.sync(None)
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
    assert not result.ok and result.refused and not result.missing, result.as_json()
    assert (result.error or "").startswith(f"the service at {url} has no agent 'coder'")
    assert "404 page not found" not in (result.error or "")
    assert "check the URL, project, agent and token settings" in (result.error or "")


@pytest.mark.parametrize(
    "url",
    [
        "file:///srv/memory",
        "/srv/memory",
        "ext::sh -c touch% /tmp/x",
        "ssh://host/x",
        "http://[::1",  # urlsplit's own ValueError ended harness-memory sync in a traceback
        "http://[memory]:8765",
    ],
)
def test_r1_only_the_service_s_http_address_is_synced_with(
    shared_service: RealService, tmp_path: Path, url: str
) -> None:
    """git would sync with a path, file://, ssh or ext:: as readily, past every rule the
    service enforces on a push: remote mode refuses any address but http(s)."""
    copy = machine(shared_service, AGENT, tmp_path, "odd", url=url)
    with pytest.raises(RemoteError, match=r"http\(s\)://host\[:port\]"):
        copy.sync(None)
    assert copy.git_environment()["GIT_ALLOW_PROTOCOL"] == "http:https"


def test_r1_a_push_the_service_refuses_says_why_not_git_s_last_words(tmp_path: Path) -> None:
    """A push over ``MEMORY_API_SYNC_MAX_PUSH`` is refused (413); git then prints its reason
    first and advice or "Everything up-to-date" after: the sync's error is the reason."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path / "service-home"),
        "MEMORY_API_TOKENS": f"plugin={TOKEN}",
        "MEMORY_API_SYNC_MAX_PUSH": "20000",
    }
    service = RealService(serve(tmp_path / "data", env, log_path=tmp_path / "log"), TOKEN)
    try:
        service.create_agent(AGENT)
        laptop = machine(service, AGENT, tmp_path, "laptop")
        synced(laptop)
        big = "---\ndescription: big\n---\n" + os.urandom(30_000).hex() + "\n"
        append(laptop.memory_root / "user" / "big.md", big)
        [result] = laptop.sync(None)
    finally:
        service.stop()
    assert not result.ok and result.waiting
    assert "413" in (result.error or ""), result.error


def test_r1_a_failed_exchange_carries_the_reason_the_service_gave(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
) -> None:
    """git prints only "returned error: 503" for a failed exchange, never the problem's
    ``detail`` (a damaged history: what the operator must do); the sync's error carries it."""
    laptop, _ = two_machines
    synced(laptop)
    history = layout.history_root(shared_service.data_dir, new_agent) / "user.git"
    shutil.rmtree(history)
    history.write_text("not a repository\n", encoding="utf-8")
    append(laptop.memory_root / "user" / "MEMORY.md", "- [Uv](uv.md) use uv\n")

    [result] = laptop.sync(None)

    assert not result.ok and result.waiting
    assert "503" in (result.error or "")
    assert "the service says: the history of scope 'user' is not a folder" in (result.error or "")
    assert shared_service.token not in (result.error or "")


def test_r2_a_wiped_local_copy_is_put_back_never_sent_as_deleting_every_memory(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
) -> None:
    """A machine's copy folder removed (a cleaned cache, a state dir made again) would read
    as every memory deleted, and the sync would delete the scope on the service and then on
    every machine. Every file gone at once is taken for a lost copy: put back from the last
    sync, said in the outcome; a memory written into the empty folder meanwhile still goes."""
    laptop, desktop = two_machines
    synced(laptop)
    append(laptop.memory_root / "user" / "uv.md", "---\ndescription: use uv\n---\nuse uv\n")
    append(laptop.memory_root / "user" / "MEMORY.md", "- [Uv](uv.md) use uv\n")
    synced(laptop)
    before = sorted(path.name for path in (served_root / "user").iterdir())
    shutil.rmtree(laptop.memory_root / "user")
    append(laptop.memory_root / "user" / "pnpm.md", "---\ndescription: pnpm\n---\npnpm\n")

    [result] = synced(laptop)

    assert any("was gone: they were put back" in line for line in result.outcomes)
    after = sorted(path.name for path in (served_root / "user").iterdir())
    assert after == sorted([*before, "pnpm.md"])
    assert (laptop.memory_root / "user" / "uv.md").read_text(encoding="utf-8").endswith("use uv\n")
    synced(desktop)
    assert (desktop.memory_root / "user" / "uv.md").exists()
    assert (desktop.memory_root / "user" / "pnpm.md").exists()


def test_r2_a_wiped_copy_of_a_scope_holding_only_its_index_is_put_back(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
) -> None:
    """A new scope holds its ``MEMORY.md`` alone: its copy folder removed is a lost copy as
    surely as one of many files (nobody deletes a scope's index to delete its memories), so it
    is put back, never sent as the index's deletion to the service and every machine."""
    laptop, _ = two_machines
    append(laptop.memory_root / "user" / "MEMORY.md", "- kept: the index of this scope\n")
    synced(laptop)
    assert sorted(path.name for path in (served_root / "user").iterdir()) == ["MEMORY.md"]
    shutil.rmtree(laptop.memory_root / "user")

    [result] = synced(laptop)

    assert any("was gone: they were put back" in line for line in result.outcomes)
    served = (served_root / "user" / "MEMORY.md").read_text(encoding="utf-8")
    assert "- kept: the index of this scope" in served
    assert (laptop.memory_root / "user" / "MEMORY.md").exists()


def test_r1_k5_a_workspace_scope_sent_without_its_marker_is_refused_by_name(
    shared_service: RealService,
    new_agent: str,
    served_root: Path,
    two_machines: tuple[RemoteCopy, RemoteCopy],
    tmp_path: Path,
) -> None:
    """A Workspace scope the service does not have yet is made only by a push bringing its
    marker (K-5): a copy sending one without (made by hand, or by an older plugin) is told why,
    and the service makes no folder; the user scope and the Workspace synced with its marker
    go through."""
    laptop, _ = two_machines
    workspace = tmp_path / "src" / "shop"
    workspace.mkdir(parents=True)
    key = laptop.workspace_key(str(workspace))
    append(laptop.memory_root / key / "MEMORY.md", "- a line\n")

    refused = laptop.sync_scope(key)

    assert not refused.ok, refused.as_json()
    assert refused.error is not None
    assert "[remote rejected]" in refused.error
    assert f"scope {key} is not on the service yet" in refused.error
    assert not (served_root / key).exists()
    # the files written before the first sync go with the marker the Session's sync writes
    results = synced(laptop, str(workspace))
    assert [result.scope for result in results] == ["user", key]
    assert (served_root / key / "MEMORY.md").read_text(encoding="utf-8") == "- a line\n"
    assert (served_root / key / ".workspace").read_text(encoding="utf-8") == (
        os.path.realpath(workspace) + "\n"
    )


@pytest.mark.parametrize("entry", ["packed-refs", "HEAD", "refs/remotes/origin/main"])
def test_r1_a_fifo_in_the_sync_copy_s_git_dir_fails_the_sync_at_once_naming_it(
    shared_service: RealService,
    new_agent: str,
    tmp_path: Path,
    entry: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """git opens ``packed-refs`` (and ``HEAD``, the refs) and waited on a FIFO nobody writes
    until its timeout, twice (120 s each by default), then said only that it took long. Now
    the sync names the FIFO before any git runs on that copy (a recording ``git`` on PATH
    shows none started)."""
    runs = recording_git(tmp_path / "bin", monkeypatch)
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    append(laptop.memory_root / "user" / "notes.md", "old\n")
    synced(laptop)
    git_dir = laptop.sync_dir / "user.git"
    assert runs.on(git_dir)  # the recording git is the one the sync runs
    fifo = git_dir / entry
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    append(laptop.memory_root / "user" / "notes.md", "new\n")
    before = len(runs.all())
    [result] = laptop.sync(None)
    assert runs.on(git_dir, since=before) == []  # no git was started to wait on the FIFO
    assert not result.ok and result.error is not None
    assert result.error.startswith(f"{entry} is a FIFO in this machine's sync copy")
    assert "not a file git can read: git would wait on it; remove it" in result.error
    fifo.unlink()
    if entry != "HEAD":  # the next sync after it is gone sends what waited
        [sent] = synced(laptop)
        assert sent.sent and not sent.waiting


@pytest.mark.parametrize("entry", ["packed-refs", "HEAD"])
def test_r1_a_fifo_in_the_service_s_history_fails_the_sync_at_once_with_the_service_s_reason(
    shared_service: RealService, new_agent: str, tmp_path: Path, entry: str
) -> None:
    """The service's side of the same: git there waited on its history's ``packed-refs``
    FIFO for 120 s, under the scope's lock, and a FIFO as ``HEAD`` was said to be a HEAD
    "gone"; now the service answers 503 naming it (before git runs: a git that waited would
    be "took longer than" instead), and the machine's sync says so."""
    laptop = machine(shared_service, new_agent, tmp_path, "laptop")
    append(laptop.memory_root / "user" / "notes.md", "old\n")
    synced(laptop)
    history = layout.history_root(shared_service.data_dir, new_agent) / "user.git"
    (history / entry).unlink(missing_ok=True)
    os.mkfifo(history / entry)
    append(laptop.memory_root / "user" / "notes.md", "new\n")
    [result] = laptop.sync(None)
    assert not result.ok and result.waiting and result.error is not None
    said = f"the history of scope 'user' cannot be read: its {entry} is a FIFO, which git would"
    assert f"(the service says: {said} wait on" in result.error
    assert "took longer than" not in result.error


def test_a10_a_sync_to_a_url_with_a_tenant_id_runs_and_never_shows_the_id(
    tmp_path: Path,
) -> None:
    """A UUID in the service URL's path (``…/tenants/<uuid>/memory``) stopped every sync as "a
    secret in its path", with no way around: the sync runs, and git's own message naming the
    URL it could not reach shows the id as ``***``."""
    tenant = "123e4567-e89b-12d3-a456-426614174000"
    copy = RemoteCopy(
        url=f"http://127.0.0.1:9/tenants/{tenant}/memory",
        token=None,
        project="acme",
        agent=AGENT,
        state_dir=tmp_path / "state",
        timeout=30.0,  # a hang guard: nothing listens on port 9, git fails at once
    )

    [result] = copy.sync(None)

    assert not result.ok and result.error is not None
    assert "http://127.0.0.1:9/tenants/***/memory/api/projects/acme" in result.error
    assert tenant not in result.error


def test_r1_k5_a_scope_forgotten_on_the_service_comes_back_whole_with_a_machines_change(
    two_machines: tuple[RemoteCopy, RemoteCopy],
    served_root: Path,
    shared_service: RealService,
    new_agent: str,
    tmp_path: Path,
) -> None:
    """A machine keeps its copy of a scope the service forgot (K-5): its next change brings the
    scope back on the service with its marker, and no sync takes the marker off either side."""
    laptop, _ = two_machines
    workspace = tmp_path / "src" / "forgotten"
    workspace.mkdir(parents=True)
    key = laptop.workspace_key(str(workspace))
    synced(laptop, str(workspace))
    marker = os.path.realpath(workspace) + "\n"
    assert (served_root / key / ".workspace").read_text(encoding="utf-8") == marker
    status, _, _ = shared_service.request(
        "DELETE", f"/api/projects/acme/agents/{new_agent}/memory/scopes/{key}"
    )
    assert status == 200 and not (served_root / key).exists()

    append(laptop.memory_root / key / "deploy.md", "---\ndescription: deploy\n---\nship\n")
    synced(laptop, str(workspace))
    assert (served_root / key / ".workspace").read_text(encoding="utf-8") == marker
    assert (served_root / key / "deploy.md").exists()
    results = synced(laptop, str(workspace))  # its fetch records no deletion of the marker

    assert [outcome for result in results for outcome in result.outcomes] == []
    assert (laptop.memory_root / key / ".workspace").read_text(encoding="utf-8") == marker
