"""R-1: ``harness-memory sync --every-scope`` syncs every scope that waits, even past one whose
local copy cannot be written.

It stopped at the first such scope with one "not synced: the local copy of scope user cannot
be written …" line: the scopes after it, whose changes waited to go back, were never tried,
and the uninstall that names this sync before the copy's ``rm -rf`` lost them. Now each scope
is tried; a failed one is said on its line (what failed, what to do), the ones synced are said
too, a last line names the failures, and the exit status is 1. The service is the worker's real
``memory-api serve``, the copy's remote its git over HTTP.
"""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
from pathlib import Path

from harness_memory.cli import main
from harness_memory.remote import RemoteCopy
from memory_core import layout

from tests.plugin.real_service import RealService
from tests.support.refused_account import refused_prefix
from tests.support.serve import code_under_test, harness_memory_under_test


def _closed_url() -> str:
    """The URL of a loopback port nothing listens on (bound, never listened, then closed)."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{closed.getsockname()[1]}"


def test_r1_every_scope_sync_sends_the_scopes_after_one_that_cannot_be_written(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    home, state = tmp_path / "home", tmp_path / "state"
    environ = {"HOME": str(home), "PATH": os.environ["PATH"]}
    environ["HARNESS_MEMORY_TOKEN"] = shared_service.token
    copy = ["--remote", "on", "--state-dir", str(state), "--project", "acme"]
    copy += ["--agent", new_agent]
    keys = []
    for name in ("shop", "web"):  # two Workspace scopes made while the service was down
        workspace = tmp_path / "code" / name
        workspace.mkdir(parents=True)
        said = io.StringIO()
        offline = ["sync", *copy, "--url", _closed_url(), "--workspace", str(workspace)]
        assert main(offline, environ=environ, stdout=said) == 1
        [key] = [line.split(":")[0] for line in said.getvalue().splitlines() if "user" not in line]
        keys.append(key)
    remote = RemoteCopy(
        url=shared_service.url, token=None, project="acme", agent=new_agent, state_dir=state,
        timeout=5,
    )  # fmt: skip
    for key in ("user", *keys):
        (remote.memory_root / key / "MEMORY.md").write_text(f"- {key} offline\n", encoding="utf-8")
    first, second = sorted(keys)
    lock = remote.sync_dir / f"{first}.lock"
    lock.unlink(missing_ok=True)
    lock.mkdir()  # its lock cannot be opened: the local copy of that scope cannot be written

    said = io.StringIO()
    status = main(
        ["sync", *copy, "--url", shared_service.url, "--every-scope"], environ=environ, stdout=said
    )

    lines = said.getvalue().splitlines()
    assert status == 1, lines
    assert lines[0].startswith("user: synced: sent 1 file"), lines
    assert lines[1].startswith(f"{first}: not synced (the local copy of scope {first} cannot be")
    assert "[Errno 21] Is a directory" in lines[1], lines  # no advice that does not help:
    assert "make it writable" not in lines[1] and "free space" not in lines[1], lines
    assert "changes wait for the next sync" in lines[1]
    assert lines[2].startswith(f"{second}: synced: sent "), lines
    assert lines[3] == (
        f"not synced: 1 of 3 scopes ({first}): its line above says why and what to do; "
        "2 synced; run the same sync again once fixed"
    )
    served = layout.memory_root(shared_service.data_dir, new_agent)
    assert (served / "user" / "MEMORY.md").read_text(encoding="utf-8") == "- user offline\n"
    assert (served / second / "MEMORY.md").read_text(encoding="utf-8") == f"- {second} offline\n"
    assert not (served / first / "MEMORY.md").exists()

    lock.rmdir()  # fixed: the same sync again sends the one left, as its last line says
    again = io.StringIO()
    argv = ["sync", *copy, "--url", shared_service.url, "--every-scope"]
    assert main(argv, environ=environ, stdout=again) == 0, again.getvalue()
    assert (served / first / "MEMORY.md").read_text(encoding="utf-8") == f"- {first} offline\n"


def test_r1_a_workspace_sync_sends_its_scope_when_the_user_scope_cannot_be_written(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """``harness-memory sync`` (the user scope, then the working directory's): the user
    scope's failure stopped it before the Workspace's."""
    state, workspace = tmp_path / "state", tmp_path / "code" / "shop"
    workspace.mkdir(parents=True)
    environ = {"HOME": str(tmp_path / "home"), "PATH": os.environ["PATH"]}
    environ["HARNESS_MEMORY_TOKEN"] = shared_service.token
    copy = ["--remote", "on", "--state-dir", str(state), "--project", "acme"]
    copy += ["--agent", new_agent, "--workspace", str(workspace)]
    said = io.StringIO()
    assert main(["sync", *copy, "--url", _closed_url()], environ=environ, stdout=said) == 1
    [key] = [line.split(":")[0] for line in said.getvalue().splitlines() if "user" not in line]
    remote = RemoteCopy(
        url=shared_service.url, token=None, project="acme", agent=new_agent, state_dir=state,
        timeout=5,
    )  # fmt: skip
    (remote.memory_root / key / "MEMORY.md").write_text("- offline\n", encoding="utf-8")
    lock = remote.sync_dir / "user.lock"
    lock.unlink(missing_ok=True)
    lock.mkdir()

    said = io.StringIO()
    status = main(["sync", *copy, "--url", shared_service.url], environ=environ, stdout=said)

    lines = said.getvalue().splitlines()
    assert status == 1, lines
    assert lines[0].startswith("user: not synced (the local copy of scope user cannot be"), lines
    assert lines[1].startswith(f"{key}: synced: sent "), lines
    assert lines[2].startswith("not synced: 1 of 2 scopes (user): "), lines
    served = layout.memory_root(shared_service.data_dir, new_agent)
    assert (served / key / "MEMORY.md").read_text(encoding="utf-8") == "- offline\n"


def test_r1_a_scope_folder_that_is_a_file_is_its_failed_line_and_the_next_scope_syncs(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """The user scope's folder of the copy replaced by a plain file: its sync cannot write it,
    and asking git what waits there (git runs in that folder) raised ``NotADirectoryError``: a
    traceback, exit 1, no line for the Workspace scope after it; ``sync --status`` too."""
    state, workspace = tmp_path / "state", tmp_path / "code" / "shop"
    workspace.mkdir(parents=True)
    environ = {"HOME": str(tmp_path / "home"), "PATH": os.environ["PATH"]}
    environ["HARNESS_MEMORY_TOKEN"] = shared_service.token
    copy = ["--remote", "on", "--state-dir", str(state), "--project", "acme"]
    copy += ["--agent", new_agent, "--url", shared_service.url]
    first = io.StringIO()
    assert main(["sync", *copy, "--workspace", str(workspace)], environ=environ, stdout=first) == 0
    [key] = [line.split(":")[0] for line in first.getvalue().splitlines() if "user" not in line]
    remote = RemoteCopy(
        url=shared_service.url, token=None, project="acme", agent=new_agent, state_dir=state,
        timeout=5,
    )  # fmt: skip
    (remote.memory_root / key / "MEMORY.md").write_text("- shop\n", encoding="utf-8")
    user = remote.memory_root / "user"
    shutil.rmtree(user)
    user.write_text("not a folder\n", encoding="utf-8")

    for which in (["--workspace", str(workspace)], ["--every-scope"]):
        said = io.StringIO()
        status = main(["sync", *copy, *which], environ=environ, stdout=said)
        lines = said.getvalue().splitlines()
        assert status == 1, lines
        assert lines[0].startswith(
            "user: not synced (the local copy of scope user cannot be written: [Errno 17] File "
        ), lines
        assert lines[0].endswith("'); changes wait for the next sync"), lines  # no advice
        assert lines[1].startswith(f"{key}: synced"), lines
        assert lines[2].startswith("not synced: 1 of 2 scopes (user): "), lines
    served = layout.memory_root(shared_service.data_dir, new_agent)
    assert (served / key / "MEMORY.md").read_text(encoding="utf-8") == "- shop\n"

    said = io.StringIO()
    assert main(["sync", *copy, "--status"], environ=environ, stdout=said) == 0
    [user_line] = [line for line in said.getvalue().splitlines() if "  user:" in line]
    assert "changes wait to go back; last error: " in user_line, user_line
    assert "Not a directory" in user_line, user_line


def test_r1_a_scope_the_account_may_not_write_is_said_with_what_to_do(
    shared_service: RealService, new_agent: str, tmp_path: Path
) -> None:
    """A lock of the copy this account may not write (the kernel's ``EACCES``, as any account
    meets it: :func:`~tests.support.refused_account.refused_prefix`): its line says to make it
    writable, as only such errors (and a full disk's) do."""
    state = tmp_path / "state"
    environ = {"HOME": str(tmp_path / "home"), "PATH": os.environ["PATH"], **code_under_test()}
    environ["HARNESS_MEMORY_TOKEN"] = shared_service.token
    copy = ["--remote", "on", "--state-dir", str(state), "--project", "acme"]
    copy += ["--agent", new_agent, "--url", shared_service.url, "--every-scope"]
    assert main(["sync", *copy], environ=environ, stdout=io.StringIO()) == 0
    remote = RemoteCopy(
        url=shared_service.url, token=None, project="acme", agent=new_agent, state_dir=state,
        timeout=5,
    )  # fmt: skip
    (remote.memory_root / "user" / "MEMORY.md").write_text("- later\n", encoding="utf-8")
    (remote.sync_dir / "user.lock").chmod(0o444)

    argv = [*refused_prefix(), harness_memory_under_test(), "sync", *copy]
    done = subprocess.run(
        argv, env=environ, capture_output=True, text=True, timeout=120, check=False
    )

    assert done.returncode == 1, done.stderr
    line = done.stdout.splitlines()[0]
    assert line.startswith("user: not synced (the local copy of scope user cannot be"), line
    assert "[Errno 13] Permission denied" in line, line
    assert line.endswith("'; make it writable, then sync again); changes wait for the next sync")
