"""Q-2b, T-5b: an index the kernel refuses at its open is unreadable, never missing.

``MEMORY.md`` is looked at (a regular file), then opened with ``O_NOFOLLOW`` in the very folder
that was checked. Between the two the agent, which writes in the memory root, may swap it for a
symlink (the open says ``ELOOP``), or swap a folder on its way (the service's own
:class:`~memory_api.store.containment.FolderSwapped`, also ``ELOOP``), or put a FIFO in its place
(the descriptor's ``fstat`` says it is not a regular file). Those answers said "no such index":
the index view said ``missing-index`` and the Session start injected "Nothing saved yet", a calm
and wrong answer for a scope whose memories are all there. Only an entry that *is* refused when
looked at again (a symlink loop, a FIFO: the listing names it, T-5b) counts as never read; an
index refused at its open while its name is a regular file is one the service could not read,
said so like any other refusal (Q-2b). The tests run as root, where such races are forced by
making the open itself refuse, as the kernel does when the swap lands between look and open.
"""

from __future__ import annotations

import errno
import os

import pytest
from memory_api.store.containment import FolderSwapped
from memory_core import layout
from memory_core.errors import NotRegularFileError

from tests.api.conftest import AgentHome, Client, memory_url, ok_json
from tests.security.test_q2b_unreadable_memory_files import codes, make_case

REFUSALS = {
    "swapped for a symlink": OSError(errno.ELOOP, os.strerror(errno.ELOOP)),
    "a folder on its way swapped": FolderSwapped(layout.INDEX_FILE),
    "a FIFO at the open": NotRegularFileError(errno.EINVAL, "not a regular file"),
}


def refuse_the_index_open(monkeypatch: pytest.MonkeyPatch, error: OSError) -> None:
    """Make every open of a ``MEMORY.md`` for reading raise ``error`` (folders held with
    ``O_PATH`` and listings still work): the kernel's answer when it was swapped meanwhile."""
    opening = os.open

    def refusing(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(path).endswith(layout.INDEX_FILE) and not flags & (os.O_PATH | os.O_DIRECTORY):
            raise error
        return opening(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refusing)


@pytest.mark.parametrize("refusal", sorted(REFUSALS))
async def test_an_index_refused_at_its_open_is_unreadable_never_nothing_saved(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, refusal: str
) -> None:
    make_case(agent.user)
    workspace, _ = agent.workspace("app")
    refuse_the_index_open(monkeypatch, REFUSALS[refusal])

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(workspace)})
    )

    assert view["exists"] is True
    found = codes(view["findings"])
    assert found["unreadable"] == [layout.INDEX_FILE]
    assert "missing-index" not in found
    assert "Nothing saved yet: the user memory index" not in started["memory"]
    assert "the user memory index could not be read" in started["memory"]
    user = next(m for m in started["manifests"] if m["scope"] == "user")
    assert user["unreadable"].startswith("cannot read it (")


async def test_an_index_that_is_a_symlink_loop_stays_a_refused_entry(
    client: Client, agent: AgentHome
) -> None:
    make_case(agent.user)
    workspace, _ = agent.workspace("app")
    index = agent.user / layout.INDEX_FILE
    index.unlink()
    index.symlink_to(layout.INDEX_FILE)

    view = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(workspace)})
    )

    assert (view["exists"], view["lines"]) == (True, [])  # there, never read (T-5b)
    user = next(m for m in started["manifests"] if m["scope"] == "user")
    assert user["unreadable"] == "does not read it: it is a symlink loop"
    assert "Nothing saved yet: the user memory index" not in started["memory"]
