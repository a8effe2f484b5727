"""P-3: the write guard lets a Session write memory only into the user scope or its own scope."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from harness_memory import mounts
from harness_memory.guard import GuardDecision, check_write
from memory_core.keys import workspace_memory_key
from memory_core.layout import memory_root

from tests.support.unreadable_link import unreadable_link

OWN = "my-app-1c7ddc51"
OTHER = "other-app-0badc0de"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A memory root with the user scope, the Session's own scope and another Workspace's."""
    memory = memory_root(tmp_path / "data", "coder")
    for scope in ("user", OWN, OTHER):
        (memory / scope).mkdir(parents=True)
        (memory / scope / "MEMORY.md").write_text("# Index\n", encoding="utf-8")
    (memory / OWN / ".workspace").write_text("/home/ada/src/my-app\n", encoding="utf-8")
    return memory


def decide(
    target: str | Path, root: Path, key: str | None = OWN, cwd: Path | None = None
) -> GuardDecision:
    return check_write(target, memory_root=root, workspace_key=key, cwd=cwd)


@pytest.mark.parametrize(
    "relative",
    ["user/prefers-pnpm.md", "user/MEMORY.md", f"{OWN}/testing-conventions.md", f"{OWN}/MEMORY.md"],
)
def test_p3_user_scope_and_own_scope_are_writable(root: Path, relative: str) -> None:
    decision = decide(root / relative, root)
    assert decision.allowed, decision.reason
    assert decision.scope == relative.split("/")[0]


def test_p3_a_new_file_in_a_new_subfolder_of_the_own_scope_is_writable(root: Path) -> None:
    assert decide(root / OWN / "notes" / "new.md", root).allowed


def test_p3_another_workspace_scope_is_denied_naming_both_scopes(root: Path) -> None:
    decision = decide(root / OTHER / "stolen.md", root)
    assert not decision.allowed
    assert decision.scope == OTHER
    assert OTHER in decision.reason and OWN in decision.reason


def test_p3_a_scope_that_does_not_exist_yet_is_still_another_workspace(root: Path) -> None:
    decision = decide(root / "fresh-0000abcd" / "x.md", root)
    assert not decision.allowed


def test_p3_without_a_workspace_scope_only_the_user_scope_is_writable(root: Path) -> None:
    assert decide(root / "user" / "x.md", root, key=None).allowed
    denied = decide(root / OWN / "x.md", root, key=None)
    assert not denied.allowed
    assert "user scope" in denied.reason


@pytest.mark.parametrize("scope", ["user", OWN, OTHER])
def test_p3_the_workspace_marker_is_never_writable(root: Path, scope: str) -> None:
    decision = decide(root / scope / ".workspace", root)
    assert not decision.allowed
    assert ".workspace" in decision.reason


@pytest.mark.parametrize("relative", ["", "MEMORY.md", "loose.md"])
def test_p3_the_memory_root_itself_and_files_directly_in_it_are_denied(
    root: Path, relative: str
) -> None:
    assert not decide(root / relative if relative else root, root).allowed


@pytest.mark.parametrize(
    "spelled",
    [
        "user/../{other}/x.md",  # lands in another scope
        "user/../user/x.md",  # lands in the user scope, but climbs to get there
        "{own}/../../memory/user/x.md",
        "user/../../../../../../../../tmp/escape.md",  # enters the root, leaves it again
    ],
)
def test_p3_dot_dot_inside_the_memory_root_is_denied(root: Path, spelled: str) -> None:
    target = root / spelled.format(other=OTHER, own=OWN)  # Path keeps '..' as written
    decision = decide(target, root)
    assert not decision.allowed
    assert "'..'" in decision.reason


def test_p3_dot_dot_from_outside_into_the_memory_root_is_denied(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    relative_to_root = os.path.relpath(root / "user" / "x.md", outside)
    decision = decide(relative_to_root, root, cwd=outside)
    assert not decision.allowed


def test_p3_relative_paths_are_taken_from_the_given_cwd(root: Path) -> None:
    assert decide("x.md", root, cwd=root / "user").allowed
    assert not decide("x.md", root, cwd=root / OTHER).allowed


def test_p3_absolute_paths_outside_the_memory_root_are_not_the_guards_business(
    root: Path, tmp_path: Path
) -> None:
    for target in (
        tmp_path / "workspace" / "src" / "main.py",
        Path("/etc/hosts"),
        tmp_path / "data" / "x",
    ):
        decision = decide(target, root)
        assert decision.allowed, target
        assert decision.scope is None


def test_p3_a_symlink_inside_a_scope_leading_out_of_the_root_is_denied(
    root: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "user" / "link").symlink_to(outside)
    decision = decide(root / "user" / "link" / "x.md", root)
    assert not decision.allowed
    assert "symlink" in decision.reason


def test_p3_a_symlinked_file_in_the_own_scope_pointing_at_another_scope_is_denied(
    root: Path,
) -> None:
    (root / OWN / "alias.md").symlink_to(root / OTHER / "MEMORY.md")
    decision = decide(root / OWN / "alias.md", root)
    assert not decision.allowed
    assert "symlink" in decision.reason


def test_p3_a_symlink_in_the_workspace_into_another_scope_is_judged_by_where_it_lands(
    root: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "notes").symlink_to(root / OTHER)
    decision = decide(workspace / "notes" / "x.md", root)
    assert not decision.allowed
    assert decision.scope == OTHER


def test_p3_a_memory_root_reached_through_a_symlinked_data_dir_is_still_guarded(
    root: Path, tmp_path: Path
) -> None:
    alias = tmp_path / "data-alias"
    alias.symlink_to(tmp_path / "data")
    aliased_root = memory_root(alias, "coder")
    assert not decide(aliased_root / OTHER / "x.md", root).allowed
    assert decide(aliased_root / "user" / "x.md", root).allowed
    assert not decide(root / OTHER / "x.md", aliased_root).allowed
    assert decide(root / OWN / "x.md", aliased_root).allowed


def test_p3_the_own_key_is_the_workspace_key_of_the_session(root: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "my-app"
    workspace.mkdir()
    key = workspace_memory_key(workspace)
    assert decide(root / key / "x.md", root, key=key).allowed
    assert not decide(root / OWN / "x.md", root, key=key).allowed


@pytest.mark.parametrize("target", ["", "bad\x00name.md"])
def test_p3_an_empty_or_nul_path_is_denied(root: Path, target: str) -> None:
    assert not decide(target, root).allowed


@pytest.mark.parametrize("below", [f"{OTHER}/x.md", "user/x.md", "outside/x.md"])
def test_p3_a_path_through_a_symlink_the_kernel_will_not_read_is_denied_naming_it(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, below: str
) -> None:
    """A link whose ``readlink`` the kernel refuses (``/proc/<pid>/root`` of a process this
    user may not trace) could lead anywhere, another scope included: denied, never a crash."""
    locked = unreadable_link(tmp_path / "locked", root, monkeypatch)

    decision = decide(locked / below, root)

    assert not decision.allowed
    assert "cannot be read" in decision.reason and str(locked) in decision.reason


_JUDGE_THROUGH_A_BIND_MOUNT = """
import json, subprocess, sys
from harness_memory.guard import check_write
root, alias, key = sys.argv[1:4]
subprocess.run(["mount", "--bind", root, alias], check=True)
answers = {}
for below in sys.argv[4:]:
    decision = check_write(f"{alias}/{below}", memory_root=root, workspace_key=key)
    answers[below] = [decision.allowed, decision.scope]
print(json.dumps(answers))
"""


def test_p3_the_memory_root_under_another_name_is_judged_where_the_kernel_lands(
    root: Path, tmp_path: Path
) -> None:
    """A bind mount (or a second mount of the volume, or another letter case on a
    case-insensitive disk) names the memory root in a way ``realpath`` keeps as spelled; the
    kernel writes into the scope all the same. Made for real in a user and mount namespace of
    the test's own: the folder that *is* the memory root (device and inode) is found."""
    alias = tmp_path / "elsewhere"
    alias.mkdir()
    below = [f"{OTHER}/x.md", f"{OWN}/.workspace", "loose.md", "user/x.md", f"{OWN}/new/x.md"]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-c", _JUDGE_THROUGH_A_BIND_MOUNT, str(root), str(alias), OWN]
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", *command, *below],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stderr

    answers = json.loads(done.stdout)

    assert answers[f"{OTHER}/x.md"] == [False, OTHER]
    assert answers[f"{OWN}/.workspace"] == [False, OWN]
    assert answers["loose.md"][0] is False
    assert answers["user/x.md"] == [True, "user"]
    assert answers[f"{OWN}/new/x.md"] == [True, OWN]
    assert decide(alias / OTHER / "x.md", root).allowed  # outside the namespace: a plain folder


_JUDGE_THROUGH_BIND_MOUNTS_OF_PARTS = """
import json, subprocess, sys
from harness_memory.guard import check_write
root, key, mounts, targets = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4:]
for source, alias in mounts:
    subprocess.run(["mount", "--bind", source, alias], check=True)
answers = {}
for target in targets:
    decision = check_write(target, memory_root=root, workspace_key=key)
    answers[target] = [decision.allowed, decision.scope]
print(json.dumps(answers))
"""


def test_p3_a_scope_folder_mounted_elsewhere_is_judged_as_that_scope(
    root: Path, tmp_path: Path
) -> None:
    """A bind mount of one scope folder (a folder in one, one of its files) inside the
    Workspace: no folder on the way is the memory root, yet the kernel writes into that scope.
    The kernel's mount table says where it lands; the guard judges that scope. Made for real in
    a user and mount namespace of the test's own."""
    workspace = tmp_path / "src" / "my-app"
    (root / OTHER / "notes").mkdir()
    aliases = {
        "other": (root / OTHER, workspace / "other-memory"),
        "own": (root / OWN, workspace / "own-memory"),
        "user": (root / "user", workspace / "user-memory"),
        "folder": (root / OTHER / "notes", workspace / "notes"),
        "file": (root / OTHER / "MEMORY.md", workspace / "INDEX.md"),
    }
    for _source, alias in aliases.values():
        alias.parent.mkdir(parents=True, exist_ok=True)
        if alias.name.endswith(".md"):
            alias.write_text("", encoding="utf-8")
        else:
            alias.mkdir()
    mounts = json.dumps([[str(source), str(alias)] for source, alias in aliases.values()])
    plain = workspace / "src" / "main.py"
    targets = {
        "other": aliases["other"][1] / "x.md",
        "other marker": aliases["other"][1] / ".workspace",
        "own": aliases["own"][1] / "x.md",
        "own marker": aliases["own"][1] / ".workspace",
        "user": aliases["user"][1] / "x.md",
        "folder": aliases["folder"][1] / "x.md",
        "file": aliases["file"][1],
        "plain": plain,
    }
    command = [sys.executable, "-c", _JUDGE_THROUGH_BIND_MOUNTS_OF_PARTS, str(root), OWN, mounts]
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", *command, *map(str, targets.values())],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )
    assert done.returncode == 0, done.stderr

    answers = {name: json.loads(done.stdout)[str(path)] for name, path in targets.items()}

    assert answers == {
        "other": [False, OTHER],
        "other marker": [False, OTHER],
        "own": [True, OWN],
        "own marker": [False, OWN],
        "user": [True, "user"],
        "folder": [False, OTHER],
        "file": [False, OTHER],
        "plain": [True, None],
    }
    assert decide(targets["other"], root).allowed  # outside the namespace: a plain folder


def test_p3_a_mount_whose_path_holds_a_carriage_return_is_still_in_the_mount_table(
    root: Path, tmp_path: Path
) -> None:
    """The kernel writes a mount table line with a carriage return in a path as it is (only a
    space, tab, newline and backslash are escaped). Read with ``splitlines``, that line was cut
    in two and its mount lost: a file of another scope bind-mounted at ``INDEX\\r.md`` was
    allowed, the same mount at ``INDEX.md`` refused. Made for real, as above."""
    workspace = tmp_path / "src" / "my-app\r"
    workspace.mkdir(parents=True)
    (root / OTHER / "notes").mkdir()
    aliases = [
        (root / OTHER / "MEMORY.md", workspace / "INDEX\r.md"),
        (root / OTHER / "notes", workspace / "notes\r"),
    ]
    aliases[0][1].write_text("", encoding="utf-8")
    aliases[1][1].mkdir()
    mounts = json.dumps([[str(source), str(alias)] for source, alias in aliases])
    targets = [str(aliases[0][1]), str(aliases[1][1] / "x.md")]
    command = [sys.executable, "-c", _JUDGE_THROUGH_BIND_MOUNTS_OF_PARTS, str(root), OWN, mounts]
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", *command, *targets],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )
    assert done.returncode == 0, done.stderr

    assert json.loads(done.stdout) == {target: [False, OTHER] for target in targets}


@pytest.mark.parametrize("marker", [".Workspace", ".WORKSPACE"])
def test_p3_the_marker_in_another_letter_case_is_the_marker(root: Path, marker: str) -> None:
    """On a case-insensitive disk (macOS's default) ``.WORKSPACE`` opens ``.workspace``."""
    decision = decide(root / OWN / marker, root)
    assert not decision.allowed
    assert ".workspace" in decision.reason


@pytest.mark.parametrize(
    "below",
    [
        "tokens/mine.json",
        "drafts/d-1.json",
        "locks/agent.coder.lock",
        "memo/topics.sqlite3",
        "search/coder.sqlite3",
        "overview/coder.sqlite3",
        "agents/coder/agent.json",
        "agents/coder/agent_state/history/user.git/HEAD",
        "agents/reviewer/agent_state/memory/user/planted.md",
        "agents/reviewer/agent.json",
        "agents/coder/workspaces/../agent.json",
        "TOKENS/mine.json",  # a case-insensitive disk opens tokens/ (macOS's default)
        "Agents/reviewer/agent.json",
        ".",  # the data dir itself: rm -rf, mv, tar -C, cp -r x/. into it reach every folder
        "",
        "agents/coder/..",
    ],
)
def test_p3_the_services_own_folders_of_the_data_dir_are_denied(
    root: Path, tmp_path: Path, below: str
) -> None:
    """On the service's machine the harness reaches the whole data dir that holds its memory
    root: a token file written there would open the API to every project, another agent's
    memory root is no scope of this Session, and configs and history are the service's."""
    decision = decide(f"{tmp_path}/data/{below}", root)

    assert not decision.allowed, below
    assert "only the service writes" in decision.reason


def test_p3_a_symlink_from_a_temporary_workspace_into_the_tokens_is_denied(
    root: Path, tmp_path: Path
) -> None:
    job = tmp_path / "data" / "agents" / "coder" / "workspaces" / "job"
    job.mkdir(parents=True)
    (job / "link").symlink_to(tmp_path / "data" / "tokens", target_is_directory=True)

    assert not decide(job / "link" / "mine.json", root).allowed
    assert not decide("link/mine.json", root, cwd=job).allowed


@pytest.mark.parametrize(
    "below",
    ["agents/coder/workspaces/job/src/main.py", "agents/reviewer/workspaces/job/notes.txt", "x"],
)
def test_p3_temporary_workspaces_and_the_rest_of_the_data_dir_stay_writable(
    root: Path, tmp_path: Path, below: str
) -> None:
    """An agent works in its temporary Workspace (K-4), a subagent in its parent's."""
    decision = decide(f"{tmp_path}/data/{below}", root)

    assert decision.allowed, decision.reason


_JUDGE_THE_DATA_DIR_THROUGH_A_BIND_MOUNT = """
import json, subprocess, sys
from harness_memory.guard import check_write
data, alias, root = sys.argv[1:4]
subprocess.run(["mount", "--bind", data, alias], check=True)
print(json.dumps({
    below: check_write(f"{alias}/{below}", memory_root=root, workspace_key=None).allowed
    for below in sys.argv[4:]
}))
"""


def test_p3_the_data_dir_under_another_name_is_judged_where_the_kernel_lands(
    root: Path, tmp_path: Path
) -> None:
    """A bind mount of the data dir names its tokens folder in a way ``realpath`` keeps as
    spelled: judged by device and inode, as the kernel lands (a namespace of the test's own)."""
    alias = tmp_path / "elsewhere"
    alias.mkdir()
    for folder in ("tokens", "agents/coder/workspaces/job"):
        (tmp_path / "data" / folder).mkdir(parents=True)
    below = ["tokens/mine.json", "agents/coder/agent.json", "agents/coder/workspaces/job/x.py"]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    data = str(tmp_path / "data")
    command = [sys.executable, "-c", _JUDGE_THE_DATA_DIR_THROUGH_A_BIND_MOUNT, data, str(alias)]
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", *command, str(root), *below],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stderr

    assert json.loads(done.stdout) == {
        "tokens/mine.json": False,
        "agents/coder/agent.json": False,
        "agents/coder/workspaces/job/x.py": True,
    }


@pytest.mark.parametrize(
    ("mounted", "below", "allowed"),
    [("tokens", "mine.json", False), ("agents/coder/workspaces/job", "x.py", True)],
)
def test_p3_one_folder_of_the_data_dir_mounted_elsewhere_is_judged_where_the_kernel_lands(
    root: Path, tmp_path: Path, mounted: str, below: str, allowed: bool
) -> None:
    """Only ``tokens/`` bind-mounted into the Workspace: the mount table names it (a namespace
    of the test's own); a temporary Workspace mounted so stays writable."""
    alias = tmp_path / "elsewhere"
    alias.mkdir()
    (tmp_path / "data" / mounted).mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    folder = str(tmp_path / "data" / mounted)
    command = [sys.executable, "-c", _JUDGE_THE_DATA_DIR_THROUGH_A_BIND_MOUNT, folder, str(alias)]
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", *command, str(root), below],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stderr

    assert json.loads(done.stdout) == {below: allowed}


def test_p3_the_mount_table_is_read_as_the_kernel_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/proc/self/mountinfo`` escapes a space in a path as ``\\040``; a mount listed later at
    the same point is the one on top; another filesystem is never the memory root's."""
    table = tmp_path / "mountinfo"
    table.write_text(
        "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
        "2 1 8:1 /srv/mem/agents/c/agent_state/memory/other\\040app /home/ada/my\\040app/m rw"
        " - ext4 /dev/sda1 rw\n"
        "3 1 8:2 / /home/ada/my\\040app/m2 rw - ext4 /dev/sdb1 rw\n"
        "4 1 8:1 /tmp/gone /home/ada/my\\040app/m2 rw - ext4 /dev/sda1 rw\n"
        "5 1 8:3 / /home/ada/my\\040app/usb rw - vfat /dev/sdc1 rw\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(mounts, "MOUNT_TABLE", table)
    root = "/srv/mem/agents/c/agent_state/memory"
    read = mounts.read_mount_table()

    def below(path: str) -> tuple[str, ...] | None:
        return mounts.below_by_mount(path, root, read)

    assert not read.unknown
    assert below("/home/ada/my app/m/x.md") == ("other app", "x.md")
    assert below("/home/ada/my app/m") == ("other app",)
    assert below("/home/ada/my app/m2/x.md") is None  # on top: /tmp/gone
    assert below("/home/ada/my app/usb/x.md") is None
    assert below(f"{root}/user/x.md") == ("user", "x.md")
    assert below("/home/ada/my app/x.md") is None
