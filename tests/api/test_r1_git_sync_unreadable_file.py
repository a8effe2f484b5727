"""R-1, Q-2b, A-10a: a fetch of a scope holding a memory file the service cannot read.

A fetch records what is on disk first, and the machine gets that version. A topic file or an
index the service may not read (an agent under its own account left it ``0600``) was left out of
the version it never had, or sent as its last recorded text: the fetch answered 200, the
machine's sync said ok, and the file was silently not synced (a calm wrong answer). The fetch
is refused (503) naming the file and what an operator must do; the machine's copy is left as
it was. The app runs in-process as root here, so the refusal (EACCES) is injected at the read
that meets it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_api.errors import READ_ACCESS_FIX_FIRST
from memory_api.store.history import snapshot

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url
from tests.api.test_r1_git_sync import MACHINE, GitMachine, git_url, scope_holds
from tests.security.test_hostile_filesystem import refuse

REFS = f"{memory_url()}/git/user.git/info/refs?service=git-upload-pack"
FILES = {"MEMORY.md": "- [A](a.md) a\n- [P](private.md) p\n", "a.md": "a\n", "private.md": "p\n"}


@pytest.mark.parametrize("unreadable", ["private.md", "MEMORY.md"])
async def test_r1_a_fetch_of_a_scope_holding_a_file_it_cannot_read_is_503_naming_it(
    client: Client,
    agent: AgentHome,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    unreadable: str,
) -> None:
    scope_holds(agent.user, FILES)
    refuse(monkeypatch, snapshot, "read_regular", unreadable)
    laptop = GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")

    with pytest.raises(AssertionError, match="503"):  # git: "HTTP 503"; never a quiet fetch
        await laptop.fetch()

    body = await expect_problem(await client.get(REFS), 503, repr(unreadable))
    assert f"{unreadable!r} cannot be read (Permission denied)" in body["detail"]
    assert body["detail"].startswith(f"{READ_ACCESS_FIX_FIRST}: scope 'user' was not fetched")


async def test_r1_a_fetch_is_taken_again_once_the_file_can_be_read(
    client: Client, agent: AgentHome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scope_holds(agent.user, FILES)
    laptop = GitMachine(tmp_path / "laptop" / "user", git_url(client), MACHINE, "laptop")
    with monkeypatch.context() as refused:
        refuse(refused, snapshot, "read_regular", "private.md")
        await expect_problem(await client.get(REFS), 503, "'private.md'")

    await laptop.fetch()

    assert laptop.read("private.md") == "p\n" and laptop.read("MEMORY.md") == FILES["MEMORY.md"]


async def test_r1_a_fetch_refused_for_many_files_names_the_fix_first_and_a_few_files(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """300 files the service cannot read: the detail says what to do first (a machine keeps
    the first 500 characters of it), about "the files named after this" (not "it", said
    before what it is), then names the first three by name and counts the rest,
    so it stays short; before, all 300 were named in the order found (15,873 characters)."""
    files = {f"topic-{n:03d}.md": "t\n" for n in range(300, 0, -1)}
    scope_holds(agent.user, {"MEMORY.md": "# Memory\n", **files})
    refuse(monkeypatch, snapshot, "read_regular", "topic-")

    body = await expect_problem(await client.get(REFS), 503, "not fetched")

    detail = body["detail"]
    assert detail.startswith(f"{READ_ACCESS_FIX_FIRST}: scope 'user' was not fetched"), detail
    assert "read access to it" not in detail  # "it" said before what it is
    assert detail.endswith(
        "'topic-001.md' cannot be read (Permission denied), 'topic-002.md' cannot be read "
        "(Permission denied), 'topic-003.md' cannot be read (Permission denied) and 297 more"
    ), detail[-300:]
    assert len(detail) < 800, len(detail)
