"""K-6a, case ``orphaned-while-in-use``: "orphaned" means gone, not "not visible from here".

The shipped compose layout runs the harness in a container of its own: its Workspace exists only
in the harness's mount namespace. The service must then report the scope as not visible from
the service, never orphaned; a Workspace the service did see and that is gone is orphaned, as
before. The in-process tests drive Session start with paths the service cannot see; the last
test does what the case's ``run.sh`` does, with a real mount namespace.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from memory_api.cli import main
from memory_core import layout
from memory_core.keys import key_for_real_path

from tests.api.conftest import AgentHome, Client, memory_url, ok_json
from tests.api.test_r1_git_sync import MACHINE, GitMachine, git_url
from tests.security.test_hostile_filesystem import refuse
from tests.support.serve import ServedProcess, serve, served_in, venv_bin
from tests.support.zygote import Zygote

CASE = Path(__file__).parents[1] / "data" / "cases" / "orphaned-while-in-use"


async def start(client: Client, workspace: Path) -> dict[str, Any]:
    url = f"{memory_url()}/session-start"
    return await ok_json(await client.post(url, json={"workspace": str(workspace)}))


async def scope_of(client: Client, key: str) -> dict[str, Any]:
    return await ok_json(await client.get(f"{memory_url()}/scopes/{key}"))


async def test_orphaned_while_in_use_a_workspace_the_service_never_saw_is_not_visible(
    client: Client, agent: AgentHome
) -> None:
    unseen = agent.tmp / "elsewhere" / "workspace"  # exists only where the harness runs

    started = await start(client, unseen)
    scope = await scope_of(client, started["key"])
    overview = await ok_json(await client.get(memory_url()))

    assert (scope["orphaned"], scope["notVisible"]) == (False, True)
    assert scope["workspacePath"] == str(unseen)
    listed = next(item for item in overview["scopes"] if item["key"] == started["key"])
    assert (listed["orphaned"], listed["notVisible"]) == (False, True)


async def test_orphaned_while_in_use_a_workspace_seen_then_gone_is_orphaned(
    client: Client, agent: AgentHome
) -> None:
    workspace = agent.tmp / "later" / "workspace"
    started = await start(client, workspace)  # not there for the service yet
    workspace.mkdir(parents=True)
    await start(client, workspace)  # now the service sees it: the flag goes
    seen = await scope_of(client, started["key"])
    workspace.rmdir()  # a removed worktree
    gone = await scope_of(client, started["key"])

    assert (seen["orphaned"], seen["notVisible"]) == (False, False)
    assert (gone["orphaned"], gone["notVisible"]) == (True, False)
    assert not (agent.root / started["key"] / layout.NOT_VISIBLE_FILE).exists()


@pytest.mark.parametrize("left", ["a file", "a dangling symlink", "a symlink to a file"])
async def test_orphaned_while_in_use_a_workspace_folder_replaced_by_no_folder_is_orphaned(
    client: Client, agent: AgentHome, left: str
) -> None:
    """Seen, then the folder removed and something that is no folder left at its path (a file
    of that name, a link to nothing or to a file): no Workspace is there, so it is orphaned."""
    workspace = agent.tmp / "src" / "workspace"
    workspace.mkdir(parents=True)
    started = await start(client, workspace)
    workspace.rmdir()
    if left == "a file":
        workspace.write_text("not a folder\n", encoding="utf-8")
    elif left == "a dangling symlink":
        workspace.symlink_to(agent.tmp / "nowhere")
    else:
        (agent.tmp / "notes.txt").write_text("x\n", encoding="utf-8")
        workspace.symlink_to(agent.tmp / "notes.txt")

    scope = await scope_of(client, started["key"])

    assert (scope["orphaned"], scope["notVisible"]) == (True, False)


async def test_orphaned_while_in_use_a_workspace_it_may_no_longer_look_up_is_not_orphaned(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen, then out of the service's sight: a folder on its way became another account's
    (``chmod 700``, EACCES). The service cannot tell the Workspace is gone, so it is not
    visible, never orphaned; once the service may look again it is neither."""
    workspace = agent.tmp / "alice" / "src" / "workspace"
    workspace.mkdir(parents=True)
    started = await start(client, workspace)
    refuse(monkeypatch, os, "stat", str(agent.tmp / "alice"))

    hidden = await scope_of(client, started["key"])
    listed = next(
        item
        for item in (await ok_json(await client.get(memory_url())))["scopes"]
        if item["key"] == started["key"]
    )
    monkeypatch.undo()
    back = await scope_of(client, started["key"])

    assert (hidden["orphaned"], hidden["notVisible"]) == (False, True)
    assert (listed["orphaned"], listed["notVisible"]) == (False, True)
    assert (back["orphaned"], back["notVisible"]) == (False, False)


@pytest.mark.parametrize(
    "failure",
    [errno.ENOTCONN, errno.ESTALE, errno.EIO, errno.ETIMEDOUT, errno.EHOSTDOWN],
    ids=errno.errorcode.get,
)
async def test_orphaned_while_in_use_a_workspace_on_a_dropped_mount_is_not_orphaned(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, failure: int
) -> None:
    """Seen, then its network or FUSE mount dropped (a disconnected sshfs: ENOTCONN; NFS:
    ESTALE, EIO, a timeout). The lookup failing says nothing of whether the Workspace is
    gone, so it is not visible, never orphaned; only "no such folder" answers make it so."""
    workspace = agent.tmp / "net" / "workspace"
    workspace.mkdir(parents=True)
    started = await start(client, workspace)
    original = os.stat

    def failing(path: object, *args: object, **kwargs: object) -> object:
        if str(path).startswith(str(agent.tmp / "net")):
            raise OSError(failure, os.strerror(failure), str(path))
        return original(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", failing)
    dropped = await scope_of(client, started["key"])
    monkeypatch.undo()
    back = await scope_of(client, started["key"])

    assert (dropped["orphaned"], dropped["notVisible"]) == (False, True)
    assert (back["orphaned"], back["notVisible"]) == (False, False)


async def test_orphaned_while_in_use_a_scope_from_before_the_flag_is_still_orphaned(
    client: Client, agent: AgentHome
) -> None:
    path, key = agent.workspace("old")
    path.rmdir()

    scope = await scope_of(client, key)

    assert (scope["orphaned"], scope["notVisible"]) == (True, False)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("a mount namespace of its own needs unshare as root")
    with served_in(tmp_path, zygote=Zygote.shared()) as process:
        yield process


def test_orphaned_while_in_use_case_run_in_another_mount_namespace(
    served: ServedProcess, tmp_path: Path
) -> None:
    """The case's ``run.sh``: the harness's Session starts in a tmpfs mounted in its own mount
    namespace, then the overview is read from the service. A second Session starts there
    through ``link``, a symlink to the Workspace that only the harness sees: it gets the same
    key (K-1, the real path, as the offline stand-in and a sync derive it there), where the
    service, unable to follow the link, keyed it by the link's spelling: a second scope."""
    done = subprocess.run(
        [venv_bin("memory-api"), "agent", "create", "--project", "acme", "--id", "coder",
         "--name", "Coder"],
        env=served.env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    mount = tmp_path / "mnt"
    mount.mkdir()
    script = (
        'mount -t tmpfs tmpfs "$1" && mkdir "$1/workspace" && cd "$1/workspace" && '
        '"$2" session-start --url "$3" --project acme --agent coder --workspace "$PWD" '
        '--format json && ln -s workspace "$1/link" && cd "$1/link" && "$2" session-start '
        '--url "$3" --project acme --agent coder --workspace "$PWD" --format json'
    )
    harness = subprocess.run(
        ["unshare", "--mount", "sh", "-c", script, "sh", str(mount),
         venv_bin("harness-memory"), served.base_url],
        env={**served.env, "HOME": str(tmp_path)}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert harness.returncode == 0, harness.stderr
    first, end = json.JSONDecoder().raw_decode(harness.stdout)
    key, through_link = first["key"], json.loads(harness.stdout[end:])["key"]
    assert key == key_for_real_path(str(mount / "workspace"))
    assert through_link == key
    assert not (mount / "workspace").exists()  # only in the harness's mount namespace

    with_url = f"{served.base_url}/api/projects/acme/agents/coder/memory"
    with urllib.request.urlopen(with_url, timeout=30) as answer:  # noqa: S310 - loopback
        scopes = json.load(answer)["scopes"]
    scope = next(item for item in scopes if item["key"] == key)
    assert (scope["orphaned"], scope["notVisible"]) == (False, True)
    assert (CASE / "run.sh").read_text(encoding="utf-8").count("unshare --mount") == 1


def test_orphaned_while_in_use_a_workspace_behind_a_dropped_sshfs_for_real(
    served: ServedProcess, tmp_path: Path
) -> None:
    """A Session starts in a Workspace on a mount the service sees; the service restarts while
    that mount is down (FUSE with no daemon: every lookup fails with ENOTCONN, as a
    disconnected sshfs). The overview must not call the Workspace gone."""
    if not os.path.exists("/dev/fuse"):  # noqa: PTH110
        pytest.skip("a dropped FUSE mount needs /dev/fuse")
    done = subprocess.run(
        [venv_bin("memory-api"), "agent", "create", "--project", "acme", "--id", "coder",
         "--name", "Coder"],
        env=served.env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    network = tmp_path / "sshfs"
    (network / "workspace").mkdir(parents=True)
    url = f"{served.base_url}/api/projects/acme/agents/coder/memory"
    request = urllib.request.Request(  # noqa: S310 - loopback
        f"{url}/session-start",
        data=json.dumps({"workspace": str(network / "workspace")}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - loopback
        key = json.load(answer)["key"]
    served.stop()
    dropped = Path(__file__).parents[1] / "support" / "dropped_mount.py"
    again = serve(
        served.data_dir,
        {name: value for name, value in served.env.items() if name != "MEMORY_API_PORT"},
        command_prefix=("unshare", "--mount", sys.executable, str(dropped), str(network), "--"),
    )
    url = f"{again.base_url}/api/projects/acme/agents/coder/memory"
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:  # noqa: S310 - loopback
            scopes = json.load(answer)["scopes"]
        with urllib.request.urlopen(f"{url}/scopes/{key}", timeout=30) as answer:  # noqa: S310
            scope = json.load(answer)
    finally:
        again.stop()
    listed = next(item for item in scopes if item["key"] == key)
    assert (listed["orphaned"], listed["notVisible"]) == (False, True)
    assert (scope["orphaned"], scope["notVisible"]) == (False, True)


def _overview_and_scope(served: ServedProcess, key: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The overview's item for scope ``key`` and the scope's own answer, from ``served``."""
    url = f"{served.base_url}/api/projects/acme/agents/coder/memory"
    with urllib.request.urlopen(url, timeout=30) as answer:  # noqa: S310 - loopback
        listed = next(item for item in json.load(answer)["scopes"] if item["key"] == key)
    with urllib.request.urlopen(f"{url}/scopes/{key}", timeout=30) as answer:  # noqa: S310
        return listed, json.load(answer)


def test_orphaned_while_in_use_a_workspace_on_a_disk_not_mounted_now_is_not_orphaned(
    served: ServedProcess, tmp_path: Path
) -> None:
    """K-6a: a Session starts in a Workspace on a disk of its own that the service sees (an
    external drive, a partition mounted on demand, a volume its container had then); the
    service then runs while that disk is not mounted (unplugged, or a container started
    without the volume). Its path is missing, yet nothing says the folder was removed: not
    visible, never orphaned (which invites deleting live memories). With the disk mounted
    again and the folder gone from it, the Workspace is orphaned, as any removed folder."""
    done = subprocess.run(
        [venv_bin("memory-api"), "agent", "create", "--project", "acme", "--id", "coder",
         "--name", "Coder"],
        env=served.env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    drive = tmp_path / "drive"
    drive.mkdir()
    workspace = drive / "project"
    served.stop()
    env = {name: value for name, value in served.env.items() if name != "MEMORY_API_PORT"}
    mount = 'mount -t tmpfs tmpfs "$0" && {} exec "$@"'
    mounted = ("unshare", "--mount", "sh", "-c", mount.format('mkdir "$0/project" &&'))
    with_disk = serve(served.data_dir, env, command_prefix=(*mounted, str(drive)))
    try:  # the disk is mounted in the service's own mount namespace: only it sees the folder
        request = urllib.request.Request(  # noqa: S310 - loopback
            f"{with_disk.base_url}/api/projects/acme/agents/coder/memory/session-start",
            data=json.dumps({"workspace": str(workspace)}).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - loopback
            key = json.load(answer)["key"]
        seen = _overview_and_scope(with_disk, key)
    finally:
        with_disk.stop()
    without_disk = serve(served.data_dir, env)
    try:
        unplugged = _overview_and_scope(without_disk, key)
    finally:
        without_disk.stop()
    remounted = ("unshare", "--mount", "sh", "-c", mount.format(""), str(drive))
    emptied = serve(served.data_dir, env, command_prefix=remounted)
    try:  # the disk mounted again, without the Workspace's folder
        removed = _overview_and_scope(emptied, key)
    finally:
        emptied.stop()

    assert [(item["orphaned"], item["notVisible"]) for item in seen] == [(False, False)] * 2
    assert [(item["orphaned"], item["notVisible"]) for item in unplugged] == [(False, True)] * 2
    assert [(item["orphaned"], item["notVisible"]) for item in removed] == [(True, False)] * 2
    assert unplugged[1]["workspacePath"] == str(workspace)


async def first_push(client: Client, machine_dir: Path, workspace: Path) -> str:
    """A machine keeping a local copy (R-1) sends its first sync of ``workspace``'s scope, its
    marker with it, as the plugin does; the scope's key."""
    key = key_for_real_path(str(workspace))
    machine = GitMachine(machine_dir / key, git_url(client, key), MACHINE, "laptop")
    await asyncio.to_thread(machine.run, "init", "-q")
    await asyncio.to_thread(machine.run, "remote", "add", "origin", machine.url)
    machine.write(layout.MARKER_FILE, f"{workspace}\n")
    machine.write(layout.INDEX_FILE, "- [Deploy](deploy.md) — on the laptop\n")
    await machine.push()
    return key


async def test_orphaned_while_in_use_a_machines_workspace_is_not_visible_never_orphaned(
    client: Client, agent: AgentHome
) -> None:
    """A team's service (R-1) holds scopes its machines push: each Workspace lies on its
    machine's disk, so the service never sees it. It was orphaned the moment it arrived (no
    Session start on the service ever flagged it); it is not visible from the service, as
    for a harness in a container. One the service does see stays unflagged, and is orphaned
    once it is gone."""
    on_the_laptop = agent.tmp / "laptop-disk" / "shop-api"  # never there for the service
    key = await first_push(client, agent.tmp / "laptop", on_the_laptop)

    scope = await scope_of(client, key)
    assert (scope["orphaned"], scope["notVisible"]) == (False, True)
    assert scope["workspacePath"] == str(on_the_laptop)

    here = agent.tmp / "here" / "shop-api"
    here.mkdir(parents=True)
    key = await first_push(client, agent.tmp / "desktop", here)
    assert (await scope_of(client, key))["notVisible"] is False
    here.rmdir()
    scope = await scope_of(client, key)
    assert (scope["orphaned"], scope["notVisible"]) == (True, False)


async def test_orphaned_while_in_use_a_path_through_a_folder_only_the_harness_sees(
    client: Client, agent: AgentHome
) -> None:
    """``/workspace/../app``: the harness's mount namespace holds ``/workspace``, the service's
    does not, and the kernel fails the whole path there, while its real path (the ``..`` taken
    away, as ``realpath`` does) is a folder. Session start answered 400 "workspace must be a
    directory, not a file" about a folder; it starts the Session, its scope not visible from
    the service, never orphaned."""
    (agent.tmp / "app").mkdir()
    through = agent.tmp / "mounted-in-the-harness" / ".." / "app"

    started = await start(client, through)
    scope = await scope_of(client, started["key"])

    assert started["key"] == key_for_real_path(str(agent.tmp / "app"))
    assert scope["orphaned"] is False


async def test_orphaned_while_in_use_a_workspace_an_archive_brings_is_not_visible(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``memory export`` on one machine, ``memory import`` of the archive on another (a new
    service, a move into containers): every Workspace of the archive lies on the machine it
    came from, so the importing service never saw it. Each was reported orphaned the moment it
    was restored; it is not visible from the service. One whose folder is here is neither, and
    is orphaned once it is gone."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(agent.data_dir))
    on_the_laptop = agent.tmp / "laptop-disk" / "shop-api"  # never there for this service
    here, _ = agent.workspace("billing")
    for workspace in (on_the_laptop, here):
        scope = agent.root / key_for_real_path(str(workspace))
        scope.mkdir(parents=True, exist_ok=True)
        (scope / layout.MARKER_FILE).write_text(f"{workspace}\n", encoding="utf-8")
        (scope / "deploy.md").write_text("---\nname: deploy\ndescription: x\n---\nb\n", "utf-8")
    archive = agent.tmp / "coder.tar.gz"
    export = ["memory", "export", "--project", agent.project, "--agent", agent.id]
    create = ["agent", "create", "--project", agent.project, "--id", "moved", "--name", "Moved"]
    restore = ["memory", "import", str(archive), "--project", agent.project, "--agent", "moved"]
    for argv in ([*export, "-o", str(archive)], create):
        assert await asyncio.to_thread(main, argv) == 0  # the CLI runs its own event loop

    assert await asyncio.to_thread(main, restore) == 0

    url = f"/api/projects/{agent.project}/agents/moved/memory"
    overview = await ok_json(await client.get(url))
    listed = {item["workspacePath"]: item for item in overview["scopes"]}
    restored = listed[str(on_the_laptop)]
    assert (restored["orphaned"], restored["notVisible"]) == (False, True)
    assert (listed[str(here)]["orphaned"], listed[str(here)]["notVisible"]) == (False, False)
    shutil.rmtree(here)
    gone = await ok_json(await client.get(f"{url}/scopes/{listed[str(here)]['key']}"))
    assert (gone["orphaned"], gone["notVisible"]) == (True, False)
