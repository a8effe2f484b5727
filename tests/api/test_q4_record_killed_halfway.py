"""V-3, Q-4: a process killed while it records a version leaves the memory files untouched and
the history consistent; the next record, by any process, takes what was not recorded.

The points a record can die at, each made real:

- ``git fast-import`` killed in the middle of its input (its half-written pack stays behind);
- git killed while it held its lock on the branch (``refs/heads/main.lock`` stays behind);
- a whole service process (and its git child) killed with SIGKILL at three moments of the
  record that follows a Session start of a 3,000-file scope: right after the answer, once the
  history repository exists, once its first version exists and a second record is under way.

After each: every memory file holds exactly its bytes, ``git fsck`` finds the repository whole,
and a checkpoint on a fresh process leaves the newest version equal to the scope on disk.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request
from itertools import pairwise
from pathlib import Path
from typing import Any

from memory_api.store.history.recorder import Attribution, ScopeHistories
from memory_core import layout

from tests.api.conftest import write_topic
from tests.support.serve import ServedProcess, serve

FILES = 3000
WAIT_S = 60.0
"""How long a test waits for a signal of the record's progress before it fails."""


def git(repository: Path, *args: str, stdin: bytes | None = None) -> str:
    command = ["git", f"--git-dir={repository}", *args]
    done = subprocess.run(command, input=stdin, capture_output=True, check=True)
    return done.stdout.decode()


def files_of(scope: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(scope.iterdir()) if path.is_file()}


def assert_consistent(repository: Path, scope: Path) -> None:
    """The history is whole, and its newest version is the scope on disk."""
    git(repository, "fsck", "--no-dangling")
    names = git(repository, "ls-tree", "--name-only", "-z", "main").split("\0")
    on_disk = files_of(scope)
    assert [name for name in names if name] == sorted(on_disk)
    trees = git(repository, "log", "--format=%T", "main").split()
    assert all(newer != older for newer, older in pairwise(trees))


def record(data_dir: Path, scope: Path) -> str | None:
    recorded = ScopeHistories(data_dir).record("coder", scope, Attribution("checkpoint"))
    return None if recorded is None else recorded.version


def make_scope(data_dir: Path, count: int = 10) -> Path:
    scope = layout.scope_dir(data_dir, "coder", "user")
    scope.mkdir(parents=True)
    for number in range(count):
        write_topic(scope, f"note-{number:04d}.md")
    (scope / layout.INDEX_FILE).write_text("# Index\n", encoding="utf-8")
    return scope


def test_v3_fast_import_killed_mid_stream_moves_nothing(data_dir: Path) -> None:
    scope = make_scope(data_dir)
    first = record(data_dir, scope)
    repository = layout.history_root(data_dir, "coder") / "user.git"
    (scope / "note-0001.md").write_text("changed\n", encoding="utf-8")
    memory = files_of(scope)
    stream = (
        b"commit refs/heads/main\ncommitter x <x> 1700000000 +0000\ndata 2\nx\n"
        b"from " + (first or "").encode() + b"\nM 100644 inline note-0001.md\ndata 1000\npart"
    )
    process = subprocess.Popen(
        ["git", f"--git-dir={repository}", "fast-import", "--quiet", "--done"],
        stdin=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    process.stdin.write(stream)
    process.stdin.flush()
    process.send_signal(signal.SIGKILL)
    process.wait()
    process.stdin.close()

    assert git(repository, "rev-parse", "main").strip() == first
    assert files_of(scope) == memory
    second = record(data_dir, scope)
    assert second is not None
    assert git(repository, "show", "main:note-0001.md") == "changed\n"
    assert_consistent(repository, scope)


def test_v3_a_lock_left_by_a_killed_git_is_cleared_by_the_next_record(data_dir: Path) -> None:
    scope = make_scope(data_dir)
    first = record(data_dir, scope)
    repository = layout.history_root(data_dir, "coder") / "user.git"
    (repository / "refs" / "heads" / "main.lock").write_text(f"{first}\n", encoding="ascii")
    (repository / "objects" / "pack" / "tmp_pack_abcdef").write_bytes(b"PACK half")
    write_topic(scope, "new.md")

    assert record(data_dir, scope) is not None

    assert not (repository / "refs" / "heads" / "main.lock").exists()
    assert_consistent(repository, scope)


def _post(service: ServedProcess, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(  # noqa: S310 - loopback only
        service.base_url + "/api/projects/acme/agents/coder" + path,
        data=json.dumps(body or {}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
        return json.loads(answer.read())


def _kill(service: ServedProcess) -> None:
    os.killpg(service.process.pid, signal.SIGKILL)  # the service and its git child at once
    service.process.wait()


def _wait_for(condition: Any) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, "the record never got that far"
        time.sleep(0.001)


def test_v3_a_service_killed_while_it_records_after_a_session_start(
    data_dir: Path, tmp_path: Path
) -> None:
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_API_TOKENS"}
    first = serve(data_dir, env)
    try:
        request = urllib.request.Request(  # noqa: S310 - loopback only
            first.base_url + "/api/projects/acme/agents",
            data=json.dumps({"id": "coder", "name": "Coder"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        urllib.request.urlopen(request, timeout=30).close()  # noqa: S310
    finally:
        first.stop()
    scope = layout.scope_dir(data_dir, "coder", "user")
    for number in range(FILES):
        write_topic(scope, f"note-{number:04d}.md")
    repository = layout.history_root(data_dir, "coder") / "user.git"
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    points = [
        lambda: True,  # at once, after the answer
        lambda: (repository / "HEAD").exists(),  # the repository is being made or used
        lambda: (repository / "refs" / "heads" / "main").exists(),  # a version exists
    ]
    for number, reached in enumerate(points):
        write_topic(scope, f"written-before-start-{number}.md")
        memory = files_of(scope)
        service = serve(data_dir, env)
        try:
            _post(service, "/memory/session-start", {"workspace": str(workspace)})
            _wait_for(reached)
        finally:
            _kill(service)
        assert files_of(scope) == memory
        if (repository / "HEAD").exists():
            git(repository, "fsck", "--no-dangling")

    service = serve(data_dir, env)
    try:
        _post(service, "/memory/checkpoint")
    finally:
        service.stop()
    assert_consistent(repository, scope)
