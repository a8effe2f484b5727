"""Q-2b with the kernel's own refusal: an agent's memory root (the folder of its scopes) that the
service may not list — another account's (mode ``0700``), or its own made ``-wx`` or ``r--``.

The notes are there (the Workspace scope is even reachable by name through ``-wx``), yet every
answer that lists the root took it for one holding no scope: the overview 200 with no scope,
search 200 with no hit and nothing named (and, once its folder was readable again, still no
hit until a scope was added), the agents list and ``memory-api agent list`` "0 memories",
``memory export`` an archive of 0 scopes with exit 0 (a backup of nothing), a checkpoint 200
recording nothing. Right: each names the memory root and why, and what it could not count is
never counted as no memory.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_core import layout

from tests.security.test_q2b_unreadable_memory_files import make_case
from tests.security.test_q2b_unreadable_memory_files_for_real import AGENT, NOBODY, call
from tests.support.refused_account import refused_prefix, refused_service
from tests.support.serve import ServedProcess, venv_bin

WHY_ROOT = "refusing a folder to the service needs root"


def unlisted(agent: str) -> str:
    """What the service and the CLI say of ``agent``'s memory root it cannot list."""
    return (
        f"the memory root of agent {agent!r} (the folder of its scopes) cannot be listed: the "
        "service cannot read it (Permission denied)"
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    """A refused service of this test's own (its index and caches start empty)."""
    yield from refused_service(tmp_path, WHY_ROOT)


@pytest.fixture(scope="module")
def module_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedProcess]:
    """One refused service for the cases that each make an agent of their own on it (one start
    instead of one per case): no case reads or changes another's agent, and each finds its own
    card and row in the agents lists."""
    yield from refused_service(tmp_path_factory.mktemp("unlisted"), WHY_ROOT)


def _memory_root_with_notes(
    served: ServedProcess, tmp_path: Path, agent: str = "coder"
) -> tuple[Path, str]:
    """Agent ``agent`` with the case's notes in its user scope and a Workspace scope holding
    one: its memory root and the Workspace scope's key."""
    body = {"id": agent, "name": "C"}
    assert call(served.base_url, "POST", "/api/projects/acme/agents", body)[0] == 201
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    status, started = call(
        served.base_url,
        "POST",
        f"/api/projects/acme/agents/{agent}/memory/session-start",
        {"workspace": str(workspace)},
    )
    assert status == 200, started
    key = started["workspaceMemoryKey"]
    root = layout.memory_root(served.data_dir, agent)
    make_case(root / "user")
    make_case(root / key)
    return root, key


def _run(served: ServedProcess, *words: str) -> subprocess.CompletedProcess[str]:
    """``memory-api WORDS`` over the service's data dir, refused as the service is."""
    return subprocess.run(
        [*refused_prefix(), venv_bin("memory-api"), *words],
        env=served.env, capture_output=True, text=True, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("owner", "mode", "agent"),
    [(NOBODY, 0o700, "coder-a"), (None, 0o300, "coder-b"), (None, 0o644, "coder-c")],
    ids=["another-accounts", "write-and-search-only", "read-only"],
)
def test_q2b_a_memory_root_the_service_cannot_list_is_named_never_no_memory(
    module_served: ServedProcess, tmp_path: Path, owner: int | None, mode: int, agent: str
) -> None:
    served, base, said = module_served, module_served.base_url, unlisted(agent)
    home = f"/api/projects/acme/agents/{agent}"
    root, _ = _memory_root_with_notes(served, tmp_path, agent)
    if owner is not None:
        os.chown(root, owner, owner)
    root.chmod(mode)

    status, problem = call(base, "GET", f"{home}/memory")
    assert status == 503, problem  # never 200 with no scope
    status, problem = call(base, "GET", f"{home}/memory/search?q=body")
    assert status == 503 and said in problem["detail"], problem  # never 200, no hit
    status, problem = call(base, "POST", f"{home}/memory/checkpoint", {})
    assert status == 503, problem  # never 200 having recorded nothing
    status, listing = call(base, "GET", "/api/projects/acme/agents")
    assert status == 200, listing  # one agent's root never breaks the list
    (card,) = [card for card in listing["agents"] if card["id"] == agent]
    assert card["memoryCount"] == 0 and card["unreadable"].startswith(said), card

    archive = tmp_path / f"{agent}.tar.gz"
    export = ("memory", "export", "--project", "acme", "--agent", agent, "-o", str(archive))
    done = _run(served, *export)
    assert done.returncode == 1 and said in done.stderr, done.stderr
    assert not archive.exists()  # never an archive of no scope
    done = _run(served, "agent", "list")
    assert done.returncode == 1, done.stdout + done.stderr
    (row,) = [line.split() for line in done.stdout.splitlines() if line.split()[1:2] == [agent]]
    assert row[3] == "0+" and said in done.stderr, done.stdout + done.stderr


def test_q2b_search_finds_the_notes_again_once_the_memory_root_can_be_listed(
    served: ServedProcess, tmp_path: Path
) -> None:
    """The index dropped every scope when the root listed empty, and kept them dropped: after
    the operator's ``chmod`` put the mode back, every search still answered no hit."""
    base = served.base_url
    root, key = _memory_root_with_notes(served, tmp_path)
    status, found = call(base, "GET", f"{AGENT}/memory/search?q=body")
    assert status == 200 and found["total"] == 4, found
    root.chmod(0o300)
    assert call(base, "GET", f"{AGENT}/memory/search?q=body")[0] == 503

    root.chmod(0o755)
    status, found = call(base, "GET", f"{AGENT}/memory/search?q=body")
    assert status == 200 and found["total"] == 4, found
    assert {hit["scope"] for hit in found["hits"]} == {"user", key}
    status, listing = call(base, "GET", "/api/projects/acme/agents")
    assert listing["agents"][0]["memoryCount"] == 4 and "unreadable" not in listing["agents"][0]
