"""R-1, R-2: the service speaks git's smart HTTP for a scope; a push lands in the scope folder.

A "machine" here is the plain ``git`` command with a working clone in a temp folder, talking to
the real application on a loopback port: what it fetches is the scope as it is on disk now; what
it pushes to its own ref ``refs/machines/<id>`` is merged into the scope folder with the R-2
rules and recorded as a version. The harness plugin's own remote mode is shown end to end in
``tests/plugin/test_e2e_r1_two_machines.py``.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from memory_api.app import create_app
from memory_api.settings import Settings
from memory_api.store.history.side_files import read_side_file, write_side_file
from memory_core import layout
from memory_core.keys import key_for_real_path
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import (
    AgentHome,
    Client,
    create_agent,
    expect_problem,
    memory_url,
    ok_json,
)

MACHINE = "0123456789abcdef0123456789abcdef"
OTHER = "fedcba9876543210fedcba9876543210"


class GitMachine:
    """A working clone of one scope over HTTP, as a machine would keep it."""

    def __init__(self, folder: Path, url: str, machine_id: str, name: str, token: str = "") -> None:
        self.folder = folder
        self.url = url
        self.config = [
            f"http.extraHeader=X-Memory-Machine: {machine_id}",
            f"http.extraHeader=X-Memory-Machine-Name: {name}",
            "user.name=Machine",
            "user.email=machine@example.invalid",
            "init.defaultBranch=main",
        ]
        if token:
            self.config.append(f"http.extraHeader=Authorization: Bearer {token}")
        self.ref = f"refs/machines/{machine_id}"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        self.folder.mkdir(parents=True, exist_ok=True)
        command = ["git"]
        for item in self.config:
            command += ["-c", item]
        env = {"PATH": "/usr/bin:/bin", "HOME": str(self.folder.parent), "GIT_TERMINAL_PROMPT": "0"}
        done = subprocess.run(
            [*command, *args], cwd=self.folder, capture_output=True, text=True, env=env, check=False
        )
        if check and done.returncode != 0:
            raise AssertionError(f"git {' '.join(args)}: {done.stderr}")
        return done

    async def fetch(self) -> None:
        """Fetch ``main`` and make the working tree match it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if not (self.folder / ".git").exists():
            await asyncio.to_thread(self.run, "init", "-q")
            await asyncio.to_thread(self.run, "remote", "add", "origin", self.url)
        await asyncio.to_thread(self.run, "fetch", "-q", "origin", "+main:refs/remotes/origin/main")
        await asyncio.to_thread(self.run, "checkout", "-q", "-B", "main", "origin/main")

    async def push(self, message: str = "from the machine") -> subprocess.CompletedProcess[str]:
        """Commit everything on top of what was fetched and push it to the machine's ref."""
        await asyncio.to_thread(self.run, "add", "-A")
        await asyncio.to_thread(self.run, "commit", "-q", "--allow-empty", "-m", message)
        return await asyncio.to_thread(self.run, "push", "-q", "origin", f"+HEAD:{self.ref}")

    def write(self, name: str, text: str) -> None:
        (self.folder / name).write_text(text, encoding="utf-8")

    def read(self, name: str) -> str:
        return (self.folder / name).read_text(encoding="utf-8")


def git_url(
    client: Client, key: str = "user", *, agent: str = "coder", project: str = "acme"
) -> str:
    base = str(client.make_url(memory_url(agent=agent, project=project)))
    return f"{base}/git/{key}.git"


@pytest.fixture
def laptop(client: Client, tmp_path: Path, agent: AgentHome) -> GitMachine:
    return GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")


@pytest.fixture
def desktop(client: Client, tmp_path: Path, agent: AgentHome) -> GitMachine:
    return GitMachine(tmp_path / "desktop" / "user", git_url(client), OTHER, "desktop")


def scope_holds(scope: Path, files: dict[str, str]) -> None:
    """The scope folder on the service's disk holding ``files`` (name → text), as written there
    before a machine fetches."""
    scope.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (scope / name).write_text(text, encoding="utf-8")


async def versions(client: Client, key: str = "user") -> list[dict[str, Any]]:
    answer = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/changes"))
    found: list[dict[str, Any]] = answer["versions"]
    return found


async def test_r1_a_fetch_gets_the_scope_as_it_is_on_disk_now(
    agent: AgentHome, laptop: GitMachine
) -> None:
    scope_holds(
        agent.user,
        {
            "MEMORY.md": "- [Uv](uv.md) use uv\n",
            "uv.md": "---\ndescription: uv\n---\nuse uv\n",
        },
    )
    await laptop.fetch()
    assert laptop.read("uv.md") == "---\ndescription: uv\n---\nuse uv\n"
    (agent.user / "later.md").write_text("written on the service's machine\n", encoding="utf-8")
    await laptop.fetch()
    assert laptop.read("later.md") == "written on the service's machine\n"


async def test_r1_a_fetch_sees_main_and_no_other_ref(
    client: Client, agent: AgentHome, laptop: GitMachine, desktop: GitMachine
) -> None:
    scope_holds(agent.user, {"a.md": "a\n"})
    await laptop.fetch()
    history = layout.history_root(agent.data_dir, agent.id) / "user.git"

    def plant_refs() -> str:
        head = subprocess.run(
            ["git", f"--git-dir={history}", "rev-parse", "main"], capture_output=True, text=True
        ).stdout.strip()
        for ref in ("refs/machines/" + OTHER, "refs/heads/retention", "refs/tags/secret"):
            subprocess.run(["git", f"--git-dir={history}", "update-ref", ref, head], check=True)
        return head

    head = await asyncio.to_thread(plant_refs)
    listed = await asyncio.to_thread(desktop.run, "ls-remote", laptop.url)
    assert listed.stdout.split() == [head, "HEAD", head, "refs/heads/main"]
    response = await client.get(
        f"{memory_url()}/git/user.git/info/refs",
        params={"service": "git-receive-pack"},
        headers={"X-Memory-Machine": MACHINE},
    )
    advertised = await response.read()
    assert response.status == 200
    assert MACHINE.encode() in advertised
    assert OTHER.encode() not in advertised and b"retention" not in advertised


async def test_r1_a_push_lands_in_the_scope_folder_as_a_version(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [A](a.md) a\n"})
    await laptop.fetch()
    laptop.write("b.md", "---\ndescription: b\n---\nfrom the laptop\n")
    with (laptop.folder / "MEMORY.md").open("a", encoding="utf-8") as handle:
        handle.write("- [B](b.md) b\n")
    await laptop.push()
    assert (agent.user / "b.md").read_text(encoding="utf-8").endswith("from the laptop\n")
    assert (agent.user / "MEMORY.md").read_text(
        encoding="utf-8"
    ) == "- [A](a.md) a\n- [B](b.md) b\n"
    newest = (await versions(client))[0]
    assert newest["author"]["source"] == "sync"
    assert newest["author"]["machine"] == "laptop"
    assert {item["file"] for item in newest["files"]} == {"MEMORY.md", "b.md"}
    machines = await ok_json(await client.get(f"{memory_url()}/machines"))
    [scope] = machines["scopes"]
    assert scope["scope"] == "user"
    [seen] = scope["machines"]
    assert seen["id"] == MACHINE and seen["name"] == "laptop" and seen["lastPush"] is not None
    await laptop.fetch()  # what came back is what was sent: nothing to merge
    assert laptop.read("b.md").endswith("from the laptop\n")


async def test_r1_a_machines_file_nested_too_deep_is_started_afresh_never_a_500(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """A machines file holding JSON nested deeper than the parser reads (a damaged disk, a
    hand edit) is as unreadable as broken JSON: the next fetch notes the machine afresh and
    the machines list answers (it was a 500 from the parser's RecursionError)."""
    scope_holds(agent.user, {"MEMORY.md": "- [A](a.md) a\n"})
    await laptop.fetch()
    noted = agent.user.parent.parent / "machines" / "user.json"
    noted.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")

    await laptop.fetch()

    machines = await ok_json(await client.get(f"{memory_url()}/machines"))
    [scope] = machines["scopes"]
    assert [seen["id"] for seen in scope["machines"]] == [MACHINE]


def test_r1_a_side_file_nested_too_deep_is_none(tmp_path: Path) -> None:
    """A history's side file nested deeper than the parser reads is read as damaged (None:
    its writer makes it again), never an error out of the read."""
    write_side_file(tmp_path, "clocks.json", {"version": "0" * 40})
    (tmp_path / "clocks.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")

    assert read_side_file(tmp_path, "clocks.json") is None


async def test_r1_a_push_records_only_what_it_wrote_and_the_next_fetch_the_rest(
    client: Client, agent: AgentHome, laptop: GitMachine, desktop: GitMachine
) -> None:
    """A push reads and records only the files its merge wrote, not the whole scope: a file
    written on the service's machine before it is recorded by the next fetch, which brings it
    to the machine; nothing is lost."""
    scope_holds(agent.user, {"a.md": "a\n"})
    await laptop.fetch()
    (agent.user / "c.md").write_text("written on the service's machine\n", encoding="utf-8")
    laptop.write("b.md", "from the laptop\n")
    await laptop.push()
    newest = (await versions(client))[0]
    assert newest["author"]["source"] == "sync"
    assert [item["file"] for item in newest["files"]] == ["b.md"]
    await laptop.fetch()
    assert laptop.read("b.md") == "from the laptop\n"
    assert laptop.read("c.md") == "written on the service's machine\n"
    newest = (await versions(client))[0]
    assert newest["author"]["source"] == "found"
    assert [item["file"] for item in newest["files"]] == ["c.md"]
    await desktop.fetch()
    assert desktop.read("b.md") == "from the laptop\n"


def service_ref(agent: AgentHome, ref: str) -> str:
    history = layout.history_root(agent.data_dir, agent.id) / "user.git"
    done = subprocess.run(
        ["git", f"--git-dir={history}", "rev-parse", "--verify", "-q", ref],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


async def test_r2_a_machine_sending_again_without_fetching_is_measured_against_what_it_sent(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """A post-write hook sends without fetching after: the machine's next push is made on its
    last push, which the service took; that push is its base (R-2), so an edit is taken as an
    edit and a delete as a delete (not kept twice as from a made-up base). The machine's ref
    names what it holds (its last push, then ``main`` once it fetched), so a push sends only
    what that lacks."""
    scope_holds(agent.user, {"a.md": "a\n", "b.md": "b\n"})
    await laptop.fetch()
    laptop.write("a.md", "a, first edit\n")
    await laptop.push("first")
    first = (await asyncio.to_thread(laptop.run, "rev-parse", "HEAD")).stdout.strip()
    assert service_ref(agent, f"refs/taken/{MACHINE}") == first
    assert service_ref(agent, f"refs/machines/{MACHINE}") == first
    laptop.write("a.md", "a, second edit\n")
    (laptop.folder / "b.md").unlink()
    await laptop.push("second")
    assert sorted(path.name for path in agent.user.iterdir()) == ["a.md"]
    assert (agent.user / "a.md").read_text(encoding="utf-8") == "a, second edit\n"
    newest = (await versions(client))[0]
    assert newest["author"]["source"] == "sync" and newest["outcomes"] == []
    await laptop.fetch()
    assert service_ref(agent, f"refs/machines/{MACHINE}") == service_ref(agent, "main")


async def test_r2_lines_written_on_the_service_meanwhile_are_kept(
    agent: AgentHome, laptop: GitMachine
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "# Memory\n"})
    await laptop.fetch()
    with (agent.user / "MEMORY.md").open("a", encoding="utf-8") as handle:
        handle.write("- [S](s.md) written on the service\n")
    with (laptop.folder / "MEMORY.md").open("a", encoding="utf-8") as handle:
        handle.write("- [L](l.md) written on the laptop\n")
    await laptop.push()
    text = (agent.user / "MEMORY.md").read_text(encoding="utf-8")
    assert (
        text == "# Memory\n- [S](s.md) written on the service\n- [L](l.md) written on the laptop\n"
    )


async def test_r2_two_machines_editing_one_file_keep_both(
    client: Client, agent: AgentHome, laptop: GitMachine, desktop: GitMachine
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [Deploy](deploy.md) how\n", "deploy.md": "v0\n"})
    await laptop.fetch()
    await desktop.fetch()
    desktop.write("deploy.md", "v1 from the desktop\n")
    await desktop.push()
    laptop.write("deploy.md", "v2 from the laptop\n")
    pushed = await laptop.push()
    said = "deploy.md was edited on two machines: both are kept, the later one as deploy-laptop.md"
    assert f"remote: Merged: {said}" in pushed.stderr  # git's answer says it, even with -q
    assert (agent.user / "deploy.md").read_text(encoding="utf-8") == "v1 from the desktop\n"
    assert (agent.user / "deploy-laptop.md").read_text(encoding="utf-8") == "v2 from the laptop\n"
    index = (agent.user / "MEMORY.md").read_text(encoding="utf-8")
    assert index == "- [Deploy](deploy.md) how\n- [Deploy](deploy-laptop.md) how\n"
    newest = (await versions(client))[0]
    assert newest["outcomes"] == [said]
    machines = await ok_json(await client.get(f"{memory_url()}/machines"))
    by_name = {row["name"]: row for row in machines["scopes"][0]["machines"]}
    assert by_name["laptop"]["outcomes"] == newest["outcomes"]
    assert by_name["desktop"]["outcomes"] == []


async def test_r2_a_pushed_case_twin_of_a_scope_file_is_kept_under_a_reported_name(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """``ok.md`` beside ``OK.md`` is one file on macOS and Windows: a machine there would keep
    one and send it back as an edit of the other. The newcomer is kept under a new name, its
    index line with it, and the machine's next fetch moves it there."""
    scope_holds(agent.user, {"MEMORY.md": "- [OK](OK.md) the service's\n", "OK.md": "service\n"})
    await laptop.fetch()
    laptop.write("ok.md", "laptop\n")
    laptop.write("MEMORY.md", laptop.read("MEMORY.md") + "- [ok](ok.md) the laptop's\n")
    pushed = await laptop.push()
    said = (
        "ok.md differs from OK.md only in letter case or Unicode normalisation, one file on "
        "macOS and Windows: it is kept as ok-laptop.md"
    )
    assert f"remote: Merged: {said}" in pushed.stderr
    assert sorted(path.name for path in agent.user.iterdir()) == [
        "MEMORY.md",
        "OK.md",
        "ok-laptop.md",
    ]
    assert (agent.user / "OK.md").read_text(encoding="utf-8") == "service\n"
    assert (agent.user / "ok-laptop.md").read_text(encoding="utf-8") == "laptop\n"
    index = "- [OK](OK.md) the service's\n- [ok](ok-laptop.md) the laptop's\n"
    assert (agent.user / "MEMORY.md").read_text(encoding="utf-8") == index
    assert (await versions(client))[0]["outcomes"] == [said]
    await laptop.fetch()
    assert sorted(path.name for path in laptop.folder.glob("*.md")) == sorted(
        path.name for path in agent.user.iterdir()
    )
    assert laptop.read("ok-laptop.md") == "laptop\n"


async def test_r2_twins_sent_in_one_push_are_kept_apart(
    agent: AgentHome, laptop: GitMachine
) -> None:
    nfc, nfd = "caf\u00e9.md", "cafe\u0301.md"
    scope_holds(agent.user, {"MEMORY.md": ""})
    await laptop.fetch()
    for name, text in (
        (nfc, "composed\n"),
        (nfd, "decomposed\n"),
        ("A.md", "A\n"),
        ("a.md", "a\n"),
    ):
        laptop.write(name, text)
    pushed = await laptop.push()
    assert pushed.stderr.count("remote: Merged: ") == 2
    held = {path.name: path.read_text(encoding="utf-8") for path in agent.user.iterdir()}
    assert held == {
        "MEMORY.md": "",
        "A.md": "A\n",
        "a-laptop.md": "a\n",
        nfd: "decomposed\n",
        "caf\u00e9-laptop.md": "composed\n",
    }


async def test_r2_twins_an_agent_wrote_on_the_service_are_kept_apart_before_a_fetch(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """An agent on the service's machine may write ``ok.md`` beside ``OK.md``: a machine on
    macOS or Windows fetching both would keep one, and send it back as the other's edit."""
    index = "- [OK](OK.md) upper\n- [ok](ok.md) lower\n- [Memory](Memory.md) a topic\n"
    files = {"MEMORY.md": index, "OK.md": "upper\n", "ok.md": "lower\n", "Memory.md": "topic\n"}
    scope_holds(agent.user, files)
    await laptop.fetch()
    expected = {
        "MEMORY.md": "- [OK](OK.md) upper\n- [ok](ok-twin.md) lower\n"
        "- [Memory](Memory-twin.md) a topic\n",
        "OK.md": "upper\n",
        "ok-twin.md": "lower\n",
        "Memory-twin.md": "topic\n",
    }
    for folder in (agent.user, laptop.folder):
        held = {path.name: path.read_text(encoding="utf-8") for path in folder.glob("*.md")}
        assert held == expected, folder
    [parted, found] = (await versions(client))[:2]
    assert parted["outcomes"] == [
        "Memory.md differs from MEMORY.md only in letter case or Unicode normalisation, one "
        "file on macOS and Windows: it is kept as Memory-twin.md",
        "ok.md differs from OK.md only in letter case or Unicode normalisation, one file on "
        "macOS and Windows: it is kept as ok-twin.md",
    ]
    assert found["outcomes"] == []  # the files as the agent wrote them are a version first
    await laptop.fetch()
    assert (await versions(client))[0]["version"] == parted["version"]  # apart: nothing to do


async def test_r2_twins_a_read_only_scope_holds_are_fetched_as_they_are(
    agent: AgentHome,
    laptop: GitMachine,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A folder that cannot be written keeps its twins; the fetch goes on (never a 500)."""

    def read_only(*_: object, **__: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr("memory_api.store.sync.twins.apply_scope", read_only)
    scope_holds(agent.user, {"OK.md": "upper\n", "ok.md": "lower\n"})
    await laptop.fetch()
    assert laptop.read("OK.md") == "upper\n" and laptop.read("ok.md") == "lower\n"
    assert "could not be kept apart: [Errno 30] Read-only file system" in caplog.text


async def test_r2_a_delete_and_an_edit_keep_the_edited_file(
    client: Client, agent: AgentHome, laptop: GitMachine, desktop: GitMachine
) -> None:
    scope_holds(agent.user, {"MEMORY.md": "- [X](x.md) x\n", "x.md": "x0\n"})
    await laptop.fetch()
    await desktop.fetch()
    (desktop.folder / "x.md").unlink()
    desktop.write("MEMORY.md", "")
    await desktop.push()
    assert not (agent.user / "x.md").exists()
    laptop.write("x.md", "x1, edited on the laptop\n")
    await laptop.push()
    assert (agent.user / "x.md").read_text(encoding="utf-8") == "x1, edited on the laptop\n"
    assert (agent.user / "MEMORY.md").read_text(encoding="utf-8") == "- [X](x.md) x\n"
    assert (await versions(client))[0]["outcomes"] == [
        "x.md was deleted on one machine and edited on another: kept"
    ]


async def test_r1_only_memory_files_are_taken_from_a_push(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    await asyncio.to_thread(laptop.run, "init", "-q")
    await asyncio.to_thread(laptop.run, "remote", "add", "origin", laptop.url)
    laptop.write("ok.md", "ok\n")
    laptop.write("notes.txt", "not memory\n")
    (laptop.folder / "sub").mkdir()
    (laptop.folder / "sub" / "deep.md").write_text("deep\n", encoding="utf-8")
    (laptop.folder / "link.md").symlink_to("/etc/passwd")
    await laptop.push()
    assert sorted(path.name for path in agent.user.iterdir()) == ["ok.md"]
    outcomes = (await versions(client))[0]["outcomes"]
    assert any(line.startswith("notes.txt was not taken") for line in outcomes)
    assert any(line.startswith("link.md was not taken") for line in outcomes)
    assert any(line.startswith("sub was not taken") for line in outcomes)


async def test_r1_a_push_writes_only_its_machine_ref(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    scope_holds(agent.user, {"a.md": "a\n"})
    await laptop.fetch()
    laptop.write("b.md", "b\n")
    await asyncio.to_thread(laptop.run, "add", "-A")
    await asyncio.to_thread(laptop.run, "commit", "-q", "-m", "x")
    for target in (
        "refs/heads/main",
        f"refs/machines/{OTHER}",
        f"refs/taken/{MACHINE}",
        "refs/tags/v1",
    ):
        refused = await asyncio.to_thread(
            laptop.run, "push", "origin", f"+HEAD:{target}", check=False
        )
        assert refused.returncode != 0, target
    assert not (agent.user / "b.md").exists()


async def test_r1_a_push_to_a_ref_below_its_machine_ref_is_refused_and_the_machine_syncs_on(
    client: Client, agent: AgentHome, desktop: GitMachine
) -> None:
    """git's ``receive.hideRefs`` ``!refs/machines/<id>`` shows the refs below it too: a push
    to ``refs/machines/<id>/x`` by a machine that had not synced the scope yet was created by
    git, and every later request of that machine answered 503 (a folder where its ref file
    goes). The service refuses any ref but the machine's own before git runs (review56h)."""
    scope_holds(agent.user, {"a.md": "a\n"})
    await asyncio.to_thread(desktop.run, "init", "-q")
    await asyncio.to_thread(desktop.run, "remote", "add", "origin", desktop.url)
    desktop.write("b.md", "b\n")
    await asyncio.to_thread(desktop.run, "add", "-A")
    await asyncio.to_thread(desktop.run, "commit", "-q", "-m", "x")
    for target in (f"{desktop.ref}/x", f"{desktop.ref}x"):
        refused = await asyncio.to_thread(
            desktop.run, "push", "origin", f"+HEAD:{target}", check=False
        )
        assert refused.returncode != 0, target
        assert "its own ref alone" in refused.stderr, refused.stderr
        assert service_ref(agent, target) == ""
    await desktop.fetch()  # the machine syncs on: its ref's place is free
    desktop.write("c.md", "c\n")
    await desktop.push("sent to its own ref")
    assert (agent.user / "c.md").read_text(encoding="utf-8") == "c\n"


async def test_r1_a_push_git_refuses_takes_nothing_even_after_the_service_moved_on(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """A push git refuses leaves the machine's ref where it was, at the ``main`` the machine
    last fetched: that old version is never merged as if the machine had just written it (it
    would come back as a copy of every file changed since, reported as edited on two machines)."""
    scope_holds(agent.user, {"MEMORY.md": "- [A](a.md) a\n", "a.md": "first text\n"})
    await laptop.fetch()
    (agent.user / "a.md").write_text("second text\n", encoding="utf-8")
    await ok_json(await client.post(f"{memory_url()}/scopes/user/checkpoint"))
    before = [item["version"] for item in await versions(client)]
    laptop.write("b.md", "b\n")
    await asyncio.to_thread(laptop.run, "add", "-A")
    await asyncio.to_thread(laptop.run, "commit", "-q", "-m", "x")
    refused = await asyncio.to_thread(
        laptop.run, "push", "origin", "+HEAD:refs/heads/main", check=False
    )
    assert refused.returncode != 0
    assert sorted(path.name for path in agent.user.iterdir()) == ["MEMORY.md", "a.md"]
    assert (agent.user / "a.md").read_text(encoding="utf-8") == "second text\n"
    assert [item["version"] for item in await versions(client)] == before


async def test_r1_a_ref_lock_a_killed_push_left_does_not_refuse_the_next_push(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """A ``git receive-pack`` killed mid-push (the service stopped, the sync timeout) leaves
    ``refs/machines/<id>.lock``; under the scope's lock no git runs, so the next push clears
    it and lands, rather than being refused ("failed to lock") for ever."""
    scope_holds(agent.user, {"MEMORY.md": "- [A](a.md) a\n", "a.md": "a\n"})
    await laptop.fetch()
    repository = layout.history_root(agent.data_dir, agent.id) / "user.git"
    (repository / "refs" / "machines").mkdir(parents=True, exist_ok=True)
    (repository / "refs" / "machines" / f"{MACHINE}.lock").touch()
    (repository / "refs" / "taken").mkdir(parents=True, exist_ok=True)
    (repository / "refs" / "taken" / f"{MACHINE}.lock").touch()
    laptop.write("b.md", "---\ndescription: b\n---\nfrom the laptop\n")
    await laptop.push()
    assert (agent.user / "b.md").read_text(encoding="utf-8").endswith("from the laptop\n")
    assert not list((repository / "refs").rglob("*.lock"))
    laptop.write("c.md", "c\n")
    await laptop.push()
    assert (agent.user / "c.md").exists()


async def test_r2_a_push_git_took_in_but_the_service_never_merged_is_asked_for_again(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """The service killed after ``git receive-pack`` moved the machine's ref and before the
    push was merged: the ref names a push never taken. Advertised as is, the machine would see
    its commit already there, send nothing ("Everything up-to-date"), then fetch ``main``
    without its change and lose it. The advertisement puts the ref back; the push lands."""
    scope_holds(agent.user, {"MEMORY.md": "- [A](a.md) a\n", "a.md": "a\n"})
    await laptop.fetch()
    laptop.write("b.md", "---\ndescription: b\n---\nfrom the laptop\n")
    with (laptop.folder / "MEMORY.md").open("a", encoding="utf-8") as handle:
        handle.write("- [B](b.md) b\n")
    await asyncio.to_thread(laptop.run, "add", "-A")
    await asyncio.to_thread(laptop.run, "commit", "-q", "-m", "x")
    repository = layout.history_root(agent.data_dir, agent.id) / "user.git"
    await asyncio.to_thread(  # what the killed receive-pack left: the objects and the ref moved
        laptop.run, "push", "-q", str(repository), f"HEAD:{laptop.ref}"
    )
    assert not (agent.user / "b.md").exists()

    await asyncio.to_thread(laptop.run, "push", "-q", "origin", f"+HEAD:{laptop.ref}")

    assert (agent.user / "b.md").read_text(encoding="utf-8").endswith("from the laptop\n")
    assert "- [B](b.md) b" in (agent.user / "MEMORY.md").read_text(encoding="utf-8")
    await laptop.fetch()
    assert laptop.read("b.md").endswith("from the laptop\n")


async def test_r1_a_push_must_name_its_machine(client: Client, agent: AgentHome) -> None:
    response = await client.get(
        f"{memory_url()}/git/user.git/info/refs", params={"service": "git-receive-pack"}
    )
    await expect_problem(response, 400, "X-Memory-Machine")


async def test_r1_another_projects_agent_and_a_missing_workspace_scope_are_404(
    client: Client, agent: AgentHome
) -> None:
    await create_agent(client, "other", project="elsewhere")
    for url in (
        "/api/projects/acme/agents/other/memory/git/user.git/info/refs",
        f"{memory_url()}/git/app-0123abcd.git/info/refs",
    ):
        response = await client.get(url, params={"service": "git-upload-pack"})
        await expect_problem(response, 404, "")
    response = await client.get(f"{memory_url()}/git/user.git/info/refs")
    await expect_problem(response, 404, "smart HTTP")


async def test_r1_machine_headers_follow_their_rules(client: Client, agent: AgentHome) -> None:
    url = f"{memory_url()}/git/user.git/info/refs"
    for headers, part in (
        ({"X-Memory-Machine": "../../x"}, "X-Memory-Machine"),
        ({"X-Memory-Machine": MACHINE, "X-Memory-Machine-Name": "%0Aevil"}, "Name"),
    ):
        response = await client.get(url, params={"service": "git-upload-pack"}, headers=headers)
        await expect_problem(response, 400, part)


@pytest.mark.parametrize("name", ["%FF", "caf%E9", "%C0%AF", "%ED%A0%80", "laptop%E2%80"])
async def test_r1_a_machine_name_that_is_no_percent_encoded_utf8_is_refused(
    client: Client, agent: AgentHome, name: str
) -> None:
    """``%FF`` (Latin-1, an overlong '/', a surrogate, a cut character) was decoded with
    replacement and noted as the name U+FFFD, one no machine sent."""
    url = f"{memory_url()}/git/user.git/info/refs"
    headers = {"X-Memory-Machine": MACHINE, "X-Memory-Machine-Name": name}
    response = await client.get(url, params={"service": "git-receive-pack"}, headers=headers)
    await expect_problem(
        response, 400, f"X-Memory-Machine-Name must be percent-encoded UTF-8: {name!r} is not"
    )


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("laptop%E2%80%AEgpj.exe", "1 bidirectional control (U+202E)"),
        ("%E2%80%8Fbuild-server", "1 bidirectional control (U+200F)"),
        ("ad%E2%80%8Bmin", "1 invisible character (U+200B)"),
        ("desk%F3%A0%81%81%F3%A0%81%82", "2 tag characters"),
    ],
)
async def test_r1_i9_a_machine_name_with_hidden_characters_is_refused(
    client: Client, agent: AgentHome, name: str, said: str
) -> None:
    """A right-to-left override or a zero-width space would make one machine show as another."""
    url = f"{memory_url()}/git/user.git/info/refs"
    headers = {"X-Memory-Machine": MACHINE, "X-Memory-Machine-Name": name}
    response = await client.get(url, params={"service": "git-upload-pack"}, headers=headers)
    body = await expect_problem(response, 400, "X-Memory-Machine-Name must not hold hidden")
    assert said in body["detail"]


async def test_r1_i9_a_machine_name_noted_with_hidden_characters_shows_as_its_id(
    client: Client, agent: AgentHome
) -> None:
    """A machines file written before the rule (or by hand) never shows a disguised name."""
    folder = agent.root.parent / "machines"
    folder.mkdir(parents=True)
    noted = {
        "name": "laptop\u202egpj.exe",
        "principal": "alice",
        "lastSync": "2026-12-01T10:00:00Z",
    }
    (folder / "user.json").write_text(json.dumps({"machines": {MACHINE: noted}}), encoding="utf-8")
    machines = await ok_json(await client.get(f"{memory_url()}/machines"))
    [scope] = machines["scopes"]
    [seen] = scope["machines"]
    assert seen["id"] == MACHINE and seen["name"] == MACHINE


async def test_r1_bodies_are_capped_and_typed(client: Client, agent: AgentHome) -> None:
    url = f"{memory_url()}/git/user.git/git-upload-pack"
    response = await client.post(url, data=b"0000", headers={"Content-Type": "text/plain"})
    assert response.status == 415
    store_limit = 16 * 1024 * 1024
    response = await client.post(
        url,
        data=io.BytesIO(b"x" * (store_limit + 1)),
        headers={"Content-Type": "application/x-git-upload-pack-request"},
    )
    await expect_problem(response, 413, f"larger than the limit of {store_limit} bytes")


def pkt(line: str) -> bytes:
    """One pkt-line: four hex digits of length (themselves included), then the line."""
    data = line.encode("ascii")
    return f"{len(data) + 4:04x}".encode("ascii") + data


@pytest.mark.parametrize(
    ("service", "body", "said"),
    [
        ("git-upload-pack", b"zzzz", "not git's pkt-line protocol (at byte 0: b'zzzz'"),
        ("git-upload-pack", bytes(range(7, 250, 3)), "not git's pkt-line protocol"),
        ("git-upload-pack", b"", "is empty"),
        ("git-upload-pack", b"0032want", "a pkt-line of 50 bytes is cut off"),
        ("git-upload-pack", b"0003", "length 3 is not 4 to 65520"),
        ("git-upload-pack", b"0000ffff", "length 65535 is not 4 to 65520"),
        ("git-upload-pack", b"00", "b'00' is no pkt-line length"),
        ("git-receive-pack", b"zzzz0000", "not git's pkt-line protocol (at byte 0: b'zzzz'"),
        ("git-receive-pack", pkt("a b refs/machines/x\n"), "no flush packet"),
        ("git-receive-pack", b"0000PACK", "names no ref to update"),
    ],
)
async def test_r1_a_body_not_framed_as_git_pkt_lines_is_a_400_problem(
    client: Client, agent: AgentHome, service: str, body: bytes, said: str
) -> None:
    """``git http-backend`` answers such a body 200 with nothing; the service says why."""
    response = await client.post(
        f"{memory_url()}/git/user.git/{service}",
        data=body,
        headers={"Content-Type": f"application/x-{service}-request", "X-Memory-Machine": MACHINE},
    )
    await expect_problem(response, 400, said)


async def test_r1_a_gzipped_fetch_request_is_read_as_git_sends_it(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """git gzips a fetch's wants and haves past 1 KiB (``Content-Encoding: gzip``): the body
    checked and given to git is the decoded one."""
    scope_holds(agent.user, {"a.md": "---\nname: a\ndescription: a\n---\nbody\n"})
    await laptop.fetch()
    head = laptop.run("rev-parse", "origin/main").stdout.strip()
    haves = b"".join(pkt(f"have {number:040x}\n") for number in range(1, 40))
    body = pkt(f"want {head}\n") + b"0000" + haves + pkt("done\n")
    assert len(body) > 1024
    response = await client.post(
        f"{memory_url()}/git/user.git/git-upload-pack",
        data=gzip.compress(body),
        headers={
            "Content-Type": "application/x-git-upload-pack-request",
            "Content-Encoding": "gzip",
        },
    )
    assert response.status == 200
    assert b"PACK" in await response.read()


async def test_r1_tokens_guard_git_like_every_route(
    aiohttp_client: AiohttpClient, data_dir: Path, tmp_path: Path
) -> None:
    settings = Settings(
        data_dir=data_dir,
        env_tokens=Settings.from_env(
            {
                "MEMORY_API_DATA_DIR": str(data_dir),
                "MEMORY_API_TOKENS": "alice:acme=s3cret-token-of-alice",
            }
        ).env_tokens,
    )
    client = await aiohttp_client(create_app(settings))
    await client.post(
        "/api/projects/acme/agents",
        json={"id": "coder", "name": "Coder"},
        headers={"Authorization": "Bearer s3cret-token-of-alice"},
    )
    without = GitMachine(tmp_path / "m1" / "user", git_url(client), MACHINE, "m1")
    await asyncio.to_thread(without.run, "init", "-q")
    refused = await asyncio.to_thread(without.run, "ls-remote", without.url, check=False)
    assert refused.returncode != 0
    with_token = GitMachine(
        tmp_path / "m2" / "user", git_url(client), MACHINE, "m2", token="s3cret-token-of-alice"
    )
    await asyncio.to_thread(with_token.run, "init", "-q")
    listed = await asyncio.to_thread(with_token.run, "ls-remote", with_token.url)
    assert listed.returncode == 0


async def test_r1_a_push_cannot_re_point_a_scope_at_another_workspace(
    client: Client, agent: AgentHome, laptop: GitMachine, tmp_path: Path
) -> None:
    real = "/home/alice/code/shop"
    key = key_for_real_path(real)
    scope = agent.root / key
    scope.mkdir(parents=True)
    (scope / ".workspace").write_text(real + "\n", encoding="utf-8")
    (scope / "MEMORY.md").write_text("- shop\n", encoding="utf-8")
    machine = GitMachine(tmp_path / "m" / key, git_url(client, key), MACHINE, "laptop")
    await machine.fetch()
    machine.write(".workspace", "/home/alice/code/bank\n")
    machine.write("MEMORY.md", "- shop\n- more\n")
    await machine.push()
    assert (scope / ".workspace").read_text(encoding="utf-8") == real + "\n"
    assert (scope / "MEMORY.md").read_text(encoding="utf-8") == "- shop\n- more\n"
    outcomes = (await versions(client, key))[0]["outcomes"]
    assert outcomes == [
        f".workspace was not taken: it names a Workspace whose key is not {key} (K-1)"
    ]
    scope_holds(agent.user, {"MEMORY.md": "- user\n"})
    await laptop.fetch()
    laptop.write(".workspace", real + "\n")
    await laptop.push()
    assert not (agent.user / ".workspace").exists()
    machines = await ok_json(await client.get(f"{memory_url()}/machines"))
    user = next(item for item in machines["scopes"] if item["scope"] == "user")
    assert user["machines"][0]["outcomes"] == [
        ".workspace was not taken: the user scope has no marker"
    ]


@pytest.mark.parametrize(
    ("marker", "problem"),
    [
        # the key is the one of the path on the first line: only the rest of the marker is bad
        ("/home/alice/code/a\x1b[2Jb\n", "must not hold control characters (newline, tab …)"),
        ("/home/alice/code/shop\nrm -rf ~\n", "must not hold control characters (newline, tab …)"),
    ],
)
async def test_r1_k5_a_pushed_marker_is_taken_only_as_a_session_start_writes_one(
    client: Client, agent: AgentHome, tmp_path: Path, marker: str, problem: str
) -> None:
    """K-5: a marker is the real path, UTF-8, one line. A machine's push of one holding a
    terminal's escape sequence or a second line under the right key was taken as it was (the
    overview then showed the escape in the scope's title and path); it is refused as an
    archive's is, and the scope keeps the marker it had."""
    real = marker.splitlines()[0].split("\x1b")[0]
    key = key_for_real_path(marker.splitlines()[0])
    scope = agent.root / key
    scope.mkdir(parents=True)
    (scope / ".workspace").write_text(real + "\n", encoding="utf-8")
    machine = GitMachine(tmp_path / "m" / key, git_url(client, key), MACHINE, "laptop")
    await machine.fetch()
    machine.write(".workspace", marker)
    machine.write("MEMORY.md", "- a line\n")
    await machine.push()
    assert (scope / "MEMORY.md").read_text(encoding="utf-8") == "- a line\n"
    assert (scope / ".workspace").read_text(encoding="utf-8") == real + "\n"
    outcomes = (await versions(client, key))[0]["outcomes"]
    assert outcomes == [
        ".workspace was not taken: it names no Workspace path a Session start could write: "
        f"it {problem} (K-5)"
    ]


_SHOP = "/home/alice/code/shop"


@pytest.mark.parametrize(
    ("marker", "why"),
    [
        (None, "it brings no .workspace marker naming its Workspace (K-5)"),
        (
            "/home/alice/code/bank\n",
            "its .workspace marker was not taken: it names a Workspace whose key is not "
            f"{key_for_real_path(_SHOP)} (K-1)",
        ),
        (
            _SHOP + "\nrm -rf ~\n",
            "its .workspace marker was not taken: it names no Workspace path a Session start "
            "could write: it must not hold control characters (newline, tab …) (K-5)",
        ),
        ("", "its .workspace marker was not taken: it names a Workspace whose key is not"),
    ],
)
async def test_r1_k5_a_push_cannot_make_a_workspace_scope_without_a_marker_it_takes(
    client: Client,
    agent: AgentHome,
    laptop: GitMachine,
    tmp_path: Path,
    marker: str | None,
    why: str,
) -> None:
    """A scope is tied to its Workspace only by its marker: the first push of a Workspace scope
    that brings none, or one the service refuses, made the folder anyway (``marker: missing``
    in the overview). It is refused by name (git's ``[remote rejected]``) and creates nothing;
    the same machine's user scope still syncs, and a push bringing a right marker makes it."""
    key = key_for_real_path(_SHOP)
    machine = GitMachine(tmp_path / "m" / key, git_url(client, key), MACHINE, "laptop")
    await asyncio.to_thread(machine.run, "init", "-q")
    await asyncio.to_thread(machine.run, "remote", "add", "origin", machine.url)
    if marker is not None:
        machine.write(".workspace", marker)
    machine.write("MEMORY.md", "- a line\n")
    await asyncio.to_thread(machine.run, "add", "-A")
    await asyncio.to_thread(machine.run, "commit", "-q", "-m", "first")
    refused = await asyncio.to_thread(
        machine.run, "push", "origin", f"+HEAD:{machine.ref}", check=False
    )
    assert refused.returncode != 0
    assert "[remote rejected]" in refused.stderr
    assert f"scope {key} is not on the service yet and {why}" in refused.stderr
    assert not (agent.root / key).exists()
    overview = await ok_json(await client.get(memory_url()))
    assert key not in json.dumps(overview)

    scope_holds(agent.user, {"MEMORY.md": "- user\n"})
    await laptop.fetch()
    laptop.write("MEMORY.md", "- user line\n")
    await laptop.push()
    assert (agent.user / "MEMORY.md").read_text(encoding="utf-8") == "- user line\n"

    machine.write(".workspace", _SHOP + "\n")
    await machine.push()
    assert (agent.root / key / ".workspace").read_text(encoding="utf-8") == _SHOP + "\n"
    assert (agent.root / key / "MEMORY.md").read_text(encoding="utf-8") == "- a line\n"


async def test_r2_a_made_up_base_cannot_delete_the_services_files(
    agent: AgentHome, laptop: GitMachine
) -> None:
    scope_holds(agent.user, {"keep.md": "the service's\n"})
    await laptop.fetch()
    # a history of the machine's own: a "base" holding keep.md, then a commit without it
    await asyncio.to_thread(laptop.run, "checkout", "-q", "--orphan", "forged")
    await asyncio.to_thread(laptop.run, "commit", "-q", "-m", "a made-up base holding keep.md")
    (laptop.folder / "keep.md").unlink()
    await laptop.push()
    assert (agent.user / "keep.md").read_text(encoding="utf-8") == "the service's\n"


async def test_r1_a_pushed_name_no_route_can_hold_is_named_escaped_and_the_push_answered(
    client: Client, agent: AgentHome, laptop: GitMachine
) -> None:
    """A machine's tree may hold names no scope file can have (K-7): bytes that are not UTF-8,
    a line break, a terminal's escape. They are left out and named as a listing names them
    (T-5b: ``\\xff``, ``\\n``, ``\\x1b``), on one line of git's report, in the version and in
    the machines' list. The name that is not UTF-8 made the push a 500 after it was taken (the
    machines' file could not be written), so the machine's git said only "RPC failed"; the one
    with a line break split the report's line in two."""
    scope_holds(agent.user, {"MEMORY.md": "- user\n"})
    await laptop.fetch()
    laptop.write("ok.md", "ok\n")
    for name in (b"caf\xe9.md", b"two\nlines.md", b"red\x1b[31m.md"):
        (laptop.folder / os.fsdecode(name)).write_bytes(b"x\n")
    await asyncio.to_thread(laptop.run, "add", "-A")
    await asyncio.to_thread(laptop.run, "commit", "-q", "-m", "odd names")
    pushed = await asyncio.to_thread(laptop.run, "push", "origin", f"+HEAD:{laptop.ref}")
    why = "was not taken: it is no memory file (MEMORY.md, .workspace or a topic file name, K-7)"
    said = [f"{name} {why}" for name in ("caf\\xe9.md", "red\\x1b[31m.md", "two\\nlines.md")]
    assert [
        line.removeprefix("remote: Merged: ").rstrip()
        for line in pushed.stderr.splitlines()
        if line.startswith("remote: ")
    ] == said
    assert sorted(path.name for path in agent.user.iterdir()) == ["MEMORY.md", "ok.md"]
    assert (await versions(client))[0]["outcomes"] == said
    machines = await ok_json(await client.get(f"{memory_url()}/machines"))
    user = next(item for item in machines["scopes"] if item["scope"] == "user")
    assert user["machines"][0]["outcomes"] == said


def tree_by_hand(folder: Path, names: list[bytes]) -> str:
    """A tree object written without git's checks (``hash-object --literally``) into the
    repository at ``folder``: each of ``names`` a file holding ``ok``; its id."""

    def written(kind: str, data: bytes) -> str:
        done = subprocess.run(
            ["git", "hash-object", "-t", kind, "-w", "--stdin", "--literally"],
            cwd=folder,
            input=data,
            capture_output=True,
            check=True,
        )
        return done.stdout.decode().strip()

    blob = bytes.fromhex(written("blob", b"ok\n"))
    return written("tree", b"".join(b"100644 " + name + b"\x00" + blob for name in sorted(names)))


@pytest.mark.parametrize("name", [b"..", b".git", b".GIT", b"../../evil.md", b"sub/evil.md"])
async def test_r1_a_tree_entry_that_leaves_the_scope_is_refused_by_git_itself(
    agent: AgentHome, laptop: GitMachine, tmp_path: Path, name: bytes
) -> None:
    """A tree no ``git commit`` makes, written by hand: an entry ``..``, ``.git`` or a path.
    git's own object check (``receive.fsckObjects``) refuses the push (``[remote rejected]``),
    and nothing is written into the scope or beside it."""
    scope_holds(agent.user, {"MEMORY.md": "- user\n"})
    await laptop.fetch()
    tree = await asyncio.to_thread(tree_by_hand, laptop.folder, [b"ok.md", name])
    commit = laptop.run("commit-tree", tree, "-p", "HEAD", "-m", "by hand").stdout.strip()
    refused = await asyncio.to_thread(
        laptop.run, "push", "origin", f"+{commit}:{laptop.ref}", check=False
    )
    assert refused.returncode != 0
    assert "[remote rejected]" in refused.stderr
    assert "(unpacker error)" in refused.stderr
    assert sorted(path.name for path in agent.user.iterdir()) == ["MEMORY.md"]
    assert not (agent.root / "evil.md").exists()
    assert not (agent.root.parent / "evil.md").exists()


async def test_r1_a_push_larger_than_gits_post_buffer_is_taken(
    agent: AgentHome, laptop: GitMachine
) -> None:
    """git sends a push body larger than ``http.postBuffer`` (1 MiB by default) chunked, after
    a probe: a body of one flush packet, ``0000``, which must be answered 200 (remote-curl's
    ``probe_rpc``). The service answered the probe 400 ("names no ref to update"), so every
    push of more than 1 MiB, such as a first sync of a large scope, failed with git's bare
    "RPC failed; HTTP 400". A small buffer here makes a small push take that way."""
    scope_holds(agent.user, {"MEMORY.md": "- user\n"})
    await laptop.fetch()
    notes = {
        f"note-{number}.md": f"note {number}: {os.urandom(512).hex()}\n" for number in range(8)
    }
    for name, text in notes.items():
        laptop.write(name, text)
    laptop.config.append("http.postBuffer=1024")
    await laptop.push()
    for name, text in notes.items():
        assert (agent.user / name).read_text(encoding="utf-8") == text


async def test_r1_k5_a_push_bringing_back_a_forgotten_scope_brings_its_marker(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    """A machine still holding a scope the service forgot (K-5) re-creates it whole with its
    next push: the marker its base already held is written too, so the next fetch records no
    deletion of it, and the machine keeps its own."""
    real = "/home/alice/code/shop"
    key = key_for_real_path(real)
    scope_holds(agent.root / key, {".workspace": real + "\n"})
    machine = GitMachine(tmp_path / "m" / key, git_url(client, key), MACHINE, "laptop")
    await machine.fetch()
    await ok_json(await client.delete(f"{memory_url()}/scopes/{key}"))
    assert not (agent.root / key).exists()

    machine.write("deploy.md", "---\ndescription: deploy\n---\nbody\n")
    await machine.push()
    await machine.fetch()

    assert (agent.root / key / ".workspace").read_text(encoding="utf-8") == real + "\n"
    assert machine.read(".workspace") == real + "\n"
    assert machine.read("deploy.md").endswith("body\n")
