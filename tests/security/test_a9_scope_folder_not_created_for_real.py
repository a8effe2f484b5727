"""A-9 with the kernel's own refusal: Session start on a data dir the service may not write.

The real service runs as in ``test_q2b_unreadable_memory_files_for_real`` (as root, under
``setpriv`` without ``CAP_DAC_OVERRIDE``: refused like any other account). The agent's memory
root is made read-only (``chmod 555``, what a read-only mount or a full disk refuses alike) after
the agent exists. A Workspace whose scope folder cannot be made still gets its Session (what can
be read is injected), but the answer names no folder for it, its manifest says why, the model is
told not to save there (never "nothing saved yet" in a folder that is not there), and the
harness tells the user. With the service down the harness, reading the files itself (H-4), says
the same of a memory root this account may not write. Reading a user scope the service cannot
make, and a machine's push that must make a Workspace scope, say why (503), never "no scope".
The last test does it with a real read-only bind mount (EROFS) in the service's own mount
namespace; the full disk is in ``tests/plugin/test_service_on_a_full_disk.py``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.helpers import hook_fixture, run_cli
from tests.security.test_q2b_unreadable_memory_files_for_real import AGENT, call
from tests.support.refused_account import offline_session_meta, refused_service
from tests.support.serve import ServedProcess, code_under_test, serve

NOT_CREATED = "could not create its folder (Permission denied)"
USER_LINE = "- [Prefers pnpm](prefers-pnpm.md) — pnpm, never npm"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedProcess]:
    """One refused service for the tests that each make an agent of their own on it (one start
    instead of one per test): no test reads or changes another's agent."""
    why = "a service refused like any account needs root to drop CAP_DAC_OVERRIDE"
    yield from refused_service(tmp_path_factory.mktemp("not-created"), why)


def _new_agent(served: ServedProcess, agent: str) -> tuple[str, Path]:
    """Agent ``agent`` of project ``acme`` made on ``served``: its API path and memory root."""
    body = {"id": agent, "name": "C"}
    assert call(served.base_url, "POST", "/api/projects/acme/agents", body)[0] == 201
    return f"/api/projects/acme/agents/{agent}", layout.memory_root(served.data_dir, agent)


def test_a9_a_workspace_scope_the_service_cannot_create_is_said_never_named_as_ready(
    served: ServedProcess, tmp_path: Path
) -> None:
    base = served.base_url
    home, root = _new_agent(served, "coder-a")
    (root / "user" / layout.INDEX_FILE).write_text(USER_LINE + "\n", encoding="utf-8")
    root.chmod(0o555)  # the user scope is there; nothing new can be made beside it
    workspace = tmp_path / "workspace"
    workspace.mkdir()

    status, started = call(
        base, "POST", f"{home}/memory/session-start", {"workspace": str(workspace)}
    )

    assert status == 200, started  # the Session starts with what can be read
    key = started["key"]
    assert not (root / key).exists()
    assert started["directories"]["workspace"] is None  # no folder named that is not there
    assert started["directories"]["user"] == str(root / "user")
    manifest = next(m for m in started["manifests"] if m["scope"] == key)
    assert manifest["uncreated"] == NOT_CREATED
    assert "uncreated" not in started["manifests"][0]  # the user scope is fine
    memory = started["memory"]
    assert USER_LINE in memory
    assert f"Nothing saved yet: the Workspace memory index ({key})" not in memory
    assert (
        f"(Not available: Workspace memory ({key}) cannot be saved in this Session: Agent "
        f"Memory {NOT_CREATED}. Do not write into its Directory;" in memory
    )

    # the harness tells the user, not only the model (Codex's hook: its systemMessage)
    env = {
        "HARNESS_MEMORY_URL": base,
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": "coder-a",
        "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "state"),
        "HARNESS_MEMORY_ROOT": str(root),
        "HOME": str(tmp_path / "home"),
        **code_under_test(),
    }
    for harness, fixture in (("codex", "codex_session_start.json"),
                             ("claude-code", "session_start.json")):  # fmt: skip
        stdin = hook_fixture(fixture, workspace=str(workspace))
        done = asyncio.run(run_cli("hook", harness, "session-start", stdin=stdin, env=env))
        assert done.returncode == 0, done.stderr
        answer = done.json()
        said = answer["systemMessage"]
        assert f"Workspace memory cannot be saved in this Session: Agent Memory {NOT_CREATED}" in (
            said
        ), harness
        assert str(root) in said
        context = answer["hookSpecificOutput"]["additionalContext"]
        assert "Do not write into its Directory" in context


def test_a9_offline_a_scope_folder_this_account_cannot_create_is_said_too(tmp_path: Path) -> None:
    """H-4: the service down, the memory root read-only for this account: the Workspace scope
    that is not there yet cannot be made by the model either, and the injection says so."""
    if os.geteuid() != 0:
        pytest.skip("a harness refused like any account needs root to drop CAP_DAC_OVERRIDE")
    root = layout.memory_root(tmp_path / "data", "coder")
    (root / "user").mkdir(parents=True)
    (root / "user" / layout.INDEX_FILE).write_text(USER_LINE + "\n", encoding="utf-8")
    root.chmod(0o555)

    meta = offline_session_meta(root, tmp_path)

    [user, ours] = meta["manifests"]
    assert "uncreated" not in user
    assert ours["uncreated"] == (
        "cannot create its folder here (the memory root is not writable by this account)"
    )
    assert USER_LINE in meta["systemPrompt"]
    assert "Nothing saved yet: the Workspace memory index" not in meta["systemPrompt"]
    assert "cannot be saved in this Session" in meta["systemPrompt"]


def test_a5_a_user_scope_the_service_cannot_create_is_503_saying_why_never_no_scope(
    served: ServedProcess,
) -> None:
    """K-6: the user scope is made on demand; when the kernel refuses, reading it (its files,
    index, history, a machine's fetch) is no 404 "no scope 'user'" (there is one, it just cannot
    be made) but a 503 naming the reason."""
    base = served.base_url
    home, root = _new_agent(served, "coder-b")
    (root / "user").rmdir()
    root.chmod(0o555)

    fetch = "git/user.git/info/refs?service=git-upload-pack"  # a machine's sync
    for route in ("scopes/user/files", "scopes/user/index", "scopes/user/changes", fetch):
        status, problem = call(base, "GET", f"{home}/memory/{route}")
        assert status == 503, problem
        assert problem["detail"] == (
            f"scope 'user' of agent 'coder-b' is not there and the service {NOT_CREATED}"
        ), route

    status, problem = call(base, "GET", f"{home}/memory")  # never an overview of no scope
    assert status == 503, problem
    assert NOT_CREATED in problem["detail"]


def test_r1_a_workspace_scope_a_push_cannot_make_is_said_with_the_services_reason(
    served: ServedProcess, tmp_path: Path
) -> None:
    """R-1: a machine's first sync of a Workspace makes its scope on the service with a push;
    when the kernel refuses the folder, the sync's error carries why (never the "no scope" a
    fetch would be told): git's own report of the push says it, since the pushing git shows
    no body of an error status ("RPC failed; HTTP 503" alone)."""
    base = served.base_url
    _, root = _new_agent(served, "coder-c")
    root.chmod(0o555)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    laptop = RemoteCopy(
        url=base, token=None, project="acme", agent="coder-c", state_dir=tmp_path / "laptop",
        timeout=30.0,
    )  # fmt: skip

    results = {result.scope: result for result in laptop.sync(str(workspace))}

    assert results["user"].ok, results["user"].as_json()
    [ours] = [result for key, result in results.items() if key != "user"]
    assert not ours.ok, ours.as_json()
    assert "[remote rejected]" in (ours.error or ""), ours.error
    said = f"scope {ours.scope!r} of agent 'coder-c' is not there and the service {NOT_CREATED}"
    assert said in (ours.error or ""), ours.error
    assert not (root / ours.scope).exists()


def test_a9_on_a_read_only_mount_the_workspace_scope_is_said_not_created(tmp_path: Path) -> None:
    """The same with the kernel's EROFS: the service in a mount namespace of its own, its
    agent's memory root bind-mounted read-only there once the agent exists."""
    unshare, nsenter = shutil.which("unshare"), shutil.which("nsenter")
    if os.geteuid() != 0 or unshare is None or nsenter is None:
        pytest.skip("a mount of the service's own needs root, unshare and nsenter")
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    prefix = (unshare, "--mount", "--propagation", "private")
    served = serve(data_dir, env, command_prefix=prefix)
    try:
        base = served.base_url
        created = call(base, "POST", "/api/projects/acme/agents", {"id": "coder", "name": "C"})
        assert created[0] == 201
        root = layout.memory_root(data_dir, "coder")
        read_only = f"mount --bind {root} {root} && mount -o remount,ro,bind {root}"
        namespace = [nsenter, "-t", str(served.process.pid), "-m"]
        subprocess.run([*namespace, "sh", "-c", read_only], check=True)
        workspace = tmp_path / "workspace"
        workspace.mkdir()

        status, started = call(
            base, "POST", f"{AGENT}/memory/session-start", {"workspace": str(workspace)}
        )
    finally:
        served.stop()

    assert status == 200, started
    assert started["directories"]["workspace"] is None
    manifest = next(m for m in started["manifests"] if m["scope"] == started["key"])
    assert manifest["uncreated"] == "could not create its folder (Read-only file system)"
    assert "Do not write into its Directory" in started["memory"]


@pytest.mark.parametrize(
    ("read_only", "why"),
    [
        ("user", "cannot write into its folder here (the folder is not writable by this account)"),
        (f"user/{layout.INDEX_FILE}", f"cannot write its {layout.INDEX_FILE} here (not writable "
         "by this account)"),
    ],
)  # fmt: skip
def test_a9_offline_an_existing_scope_this_account_cannot_write_is_said_never_as_working(
    tmp_path: Path, read_only: str, why: str
) -> None:
    """H-4: the service down, the user scope folder (or its index) there but read-only for
    this account: the model would be told memory works while every save fails, so the
    injection says, as the service's ``uncreated`` answer does, that memory cannot be saved in
    this Session and why; a writable Workspace scope beside it is untouched by that."""
    if os.geteuid() != 0:
        pytest.skip("a harness refused like any account needs root to drop CAP_DAC_OVERRIDE")
    root = layout.memory_root(tmp_path / "data", "coder")
    (root / "user").mkdir(parents=True)
    (root / "user" / layout.INDEX_FILE).write_text(USER_LINE + "\n", encoding="utf-8")
    (root / read_only).chmod(0o555 if read_only == "user" else 0o444)

    meta = offline_session_meta(root, tmp_path)

    [user, ours] = meta["manifests"]
    assert user["uncreated"] == why
    assert "uncreated" not in ours
    assert (
        f"(Not available: user memory cannot be saved in this Session: Agent Memory {why}."
        in (meta["systemPrompt"])
    )
