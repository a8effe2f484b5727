"""Q-2b, T-5b: a topic file whose ``lstat`` fails is named, never absent.

The listing says a topic file is there (its name, its type from ``d_type``); its own ``lstat``
can still fail with something other than "no such file": an I/O error of a failing disk, an
NFS handle gone stale (``ESTALE``), no permission to look into its folder. Such a file was
dropped from the listing without a word, its index line called a dangling link (``links to
'…', which is not in this scope``) and a read of it answered 404 "no topic file": a calm,
wrong answer about a memory that is on disk. Right: the listing names it among the entries
never read, with the reason, its index line says that reason, and a read or a delete of it
answers 503 naming the file and what to do. The tests run as root, where such refusals are
forced by making the ``lstat`` itself refuse, as the kernel does.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from typing import Any

import pytest
from memory_core import layout

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, memory_url, ok_json
from tests.security.test_q2b_unreadable_memory_files import codes, make_case

REFUSALS = [errno.EIO, errno.ESTALE, errno.EACCES]


def refuse_looking_at(monkeypatch: pytest.MonkeyPatch, name: str, code: int) -> None:
    """Make every ``lstat``/``stat`` of an entry called ``name`` (by path or relative to its
    folder held open) raise ``code``; opening and listing still work."""
    for call in ("stat", "lstat"):
        looking: Callable[..., os.stat_result] = getattr(os, call)

        def refusing(
            path: Any, *args: Any, _looking: Callable[..., os.stat_result] = looking, **kwargs: Any
        ) -> os.stat_result:
            if isinstance(path, (str, os.PathLike)) and os.fspath(path).endswith(name):
                raise OSError(code, os.strerror(code), os.fspath(path))
            return _looking(path, *args, **kwargs)

        monkeypatch.setattr(os, call, refusing)


@pytest.mark.parametrize("code", REFUSALS, ids=errno.errorcode.get)
async def test_a_topic_file_that_cannot_be_looked_at_is_named_never_absent(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    make_case(agent.user)
    refuse_looking_at(monkeypatch, "private-topic.md", code)
    why = f"an entry the service cannot look at ({os.strerror(code)})"

    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    index = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    read = await client.get(file_url("user", "private-topic.md"))
    delete = await client.delete(file_url("user", "private-topic.md"))

    found = codes(listing["findings"])
    assert found["refused-entry"] == ["private-topic.md"]
    refused = next(f for f in listing["findings"] if f["code"] == "refused-entry")
    assert why in refused["message"]
    linking = [f["message"] for f in index["findings"] if f["code"] == "dangling-link"]
    assert linking == [f"links to 'private-topic.md', which is {why}: never read"]
    detail = (
        "topic file 'private-topic.md' in scope 'user' cannot be looked at: the service cannot "
        f"read it ({os.strerror(code)})"
    )
    await expect_problem(read, 503, detail)
    await expect_problem(delete, 503, "'private-topic.md' was not deleted")
    monkeypatch.undo()
    assert (agent.user / "private-topic.md").exists()  # nothing deleted
    assert "private-topic.md" in (agent.user / layout.INDEX_FILE).read_text(encoding="utf-8")


async def test_a_topic_file_gone_is_still_a_plain_404(client: Client, agent: AgentHome) -> None:
    make_case(agent.user)

    read = await client.get(file_url("user", "never-written.md"))

    body = await expect_problem(read, 404, "no topic file 'never-written.md' in scope 'user'")
    assert body["detail"] == "no topic file 'never-written.md' in scope 'user'"
