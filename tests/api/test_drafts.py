"""A-12 drafts: created for an agent, fetched by id, gone once expired."""

from __future__ import annotations

import errno
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from memory_api.appkeys import get_draft_store
from memory_api.store import drafts
from memory_api.store.containment import read_regular

from tests.api.conftest import AGENT, PROJECT, AgentHome, Client, expect_problem, ok_json

DRAFTS = f"/api/projects/{PROJECT}/agents/{AGENT}/drafts"


def _kept(store: drafts.DraftStore) -> list[str]:
    """The ids of the draft files ``store`` holds, in every agent's folder."""
    return sorted(path.stem for path in store.directory.rglob("*.json"))


def _file(store: drafts.DraftStore, draft_id: str) -> Path:
    """The file of the agent's draft ``draft_id``."""
    return store.directory / PROJECT / AGENT / f"{draft_id}.json"


async def test_a12_create_then_fetch(client: Client, agent: AgentHome) -> None:
    response = await client.post(
        DRAFTS, json={"prompt": "Update memory deploy-freeze.md: …", "workspace": "/src/shop"}
    )
    draft = await ok_json(response, 201)
    assert response.headers["Location"] == f"{DRAFTS}/{draft['id']}"
    assert len(draft["id"]) == 32
    assert draft["project"] == PROJECT and draft["agent"] == AGENT
    assert draft["workspace"] == "/src/shop"
    created = datetime.fromisoformat(draft["createdAt"])
    expires = datetime.fromisoformat(draft["expiresAt"])
    assert expires - created == timedelta(hours=1)
    assert await ok_json(await client.get(f"{DRAFTS}/{draft['id']}")) == draft


async def test_a12_a_draft_an_earlier_service_kept_is_read_and_swept(
    client: Client, agent: AgentHome
) -> None:
    """Drafts were kept at ``drafts/<id>.json`` before each agent had its folder: one made
    just before an upgrade (or by a replica not yet upgraded) still answers, and is swept."""
    store = get_draft_store(client.app)
    draft = await ok_json(await client.post(DRAFTS, json={"prompt": "kept before"}), 201)
    _file(store, draft["id"]).rename(store.directory / f"{draft['id']}.json")

    assert await ok_json(await client.get(f"{DRAFTS}/{draft['id']}")) == draft
    store.clock = lambda: datetime.now(UTC) + timedelta(hours=2)
    os.utime(store.directory / f"{draft['id']}.json", (0, 0))
    assert await store.sweep() == 1
    assert _kept(store) == []


async def test_a12_workspace_is_optional(client: Client, agent: AgentHome) -> None:
    draft = await ok_json(await client.post(DRAFTS, json={"prompt": "Remember pnpm"}), 201)
    assert draft["workspace"] is None


async def test_a12_expired_draft_is_404_and_swept(client: Client, agent: AgentHome) -> None:
    draft = await ok_json(await client.post(DRAFTS, json={"prompt": "p"}), 201)
    store = get_draft_store(client.app)
    store.clock = lambda: datetime.now(UTC) + timedelta(hours=2)
    await expect_problem(await client.get(f"{DRAFTS}/{draft['id']}"), 404, "expired")
    assert _kept(store) == []


async def test_a12_sweep_removes_only_expired(client: Client, agent: AgentHome) -> None:
    old = await ok_json(await client.post(DRAFTS, json={"prompt": "old"}), 201)
    store = get_draft_store(client.app)
    store.clock = lambda: datetime.now(UTC) + timedelta(minutes=61)
    new = await ok_json(await client.post(DRAFTS, json={"prompt": "new"}), 201)
    assert _kept(store) == [new["id"]]
    assert old["id"] != new["id"]


async def test_a12_unknown_and_malformed_ids(client: Client, agent: AgentHome) -> None:
    await expect_problem(await client.get(f"{DRAFTS}/{'0' * 32}"), 404, "no draft")
    await expect_problem(await client.get(f"{DRAFTS}/..%2Fagent"), 400, "invalid draft id")


async def test_a12_draft_of_another_agent_is_404(client: Client, agent: AgentHome) -> None:
    draft = await ok_json(await client.post(DRAFTS, json={"prompt": "p"}), 201)
    await client.post(f"/api/projects/{PROJECT}/agents", json={"id": "other", "name": "O"})
    url = f"/api/projects/{PROJECT}/agents/other/drafts/{draft['id']}"
    await expect_problem(await client.get(url), 404, "no draft")


async def test_a12_unknown_agent_is_404(client: Client, agent: AgentHome) -> None:
    url = f"/api/projects/{PROJECT}/agents/ghost/drafts"
    await expect_problem(await client.post(url, json={"prompt": "p"}), 404, "no agent 'ghost'")


async def test_a12_bad_bodies(client: Client, agent: AgentHome) -> None:
    await expect_problem(await client.post(DRAFTS, json={"prompt": "  "}), 400, "prompt")
    await expect_problem(
        await client.post(DRAFTS, json={"prompt": "p", "workspace": "relative/dir"}),
        400,
        "absolute",
    )
    await expect_problem(
        await client.post(DRAFTS, json={"prompt": "p", "workspace": "/a\nb"}), 400, "control"
    )
    await expect_problem(await client.post(DRAFTS, json={}), 422, "prompt")


@pytest.mark.parametrize(
    ("prompt", "said"),
    [
        ("\u0000", "line 1: 1 control character (U+0000)"),
        ("update memory\n\u001b[8mrm -rf ~", "line 2: 1 control character (U+001B)"),
        ("a\nb\nsafe\u202egpj.exe", "line 3: 1 bidirectional control (U+202E)"),
        ("ok\u200b", "line 1: 1 invisible character (U+200B)"),
        ("run \U000e0072\U000e006d", "line 1: 2 tag characters"),
    ],
)
async def test_a12_i9_a_prompt_with_hidden_characters_is_refused_naming_them(
    client: Client, agent: AgentHome, prompt: str, said: str
) -> None:
    """A draft's prompt reaches the model as the user's words: the template's rule (I-9)."""
    response = await client.post(DRAFTS, json={"prompt": prompt})
    body = await expect_problem(response, 400, "prompt must not hold hidden characters")
    assert said in body["detail"]
    folder = get_draft_store(client.app).directory
    assert not folder.exists() or not any(folder.iterdir())  # nothing stored


async def test_a12_i9_tabs_line_ends_and_joined_emoji_are_no_hidden_characters(
    client: Client, agent: AgentHome
) -> None:
    prompt = "update memory:\r\n\tkeep 👨\u200d👩\u200d👧 and מחיר\u200f 42"
    created = await ok_json(await client.post(DRAFTS, json={"prompt": prompt}), 201)
    assert created["prompt"] == prompt


async def test_a12_creating_a_draft_reads_no_live_draft(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep on each create read and decoded every draft file: N live drafts of up to a
    request body each made every create read N of them (200 drafts of 900 KB: 0.7 s a create,
    77 s in all, growing with the square of the count). A draft written within the TTL is
    live and is not read; an expired one is still swept, and a live one still answers."""
    from memory_api.store import drafts

    made = [await ok_json(await client.post(DRAFTS, json={"prompt": "p" * 1000}), 201)]
    for _ in range(20):
        made.append(await ok_json(await client.post(DRAFTS, json={"prompt": "p"}), 201))
    real_load = drafts._load
    read: list[str] = []

    def counted_load(path: Path) -> object:
        read.append(path.name)
        return real_load(path)

    monkeypatch.setattr(drafts, "_load", counted_load)
    await ok_json(await client.post(DRAFTS, json={"prompt": "one more"}), 201)
    assert read == []
    assert await ok_json(await client.get(f"{DRAFTS}/{made[0]['id']}")) == made[0]

    store = get_draft_store(client.app)
    store.clock = lambda: datetime.now(UTC) + timedelta(hours=2)
    assert await store.sweep() == 22
    assert _kept(store) == []


@pytest.mark.parametrize(
    ("code", "fix"),
    [
        (errno.EROFS, "an operator must mount the file system holding it read-write"),
        (errno.ENOSPC, "an operator must free space on its disk"),
        (errno.EIO, "an operator must repair its disk"),
        (errno.EACCES, "an operator must give the account the service runs as write access"),
    ],
    ids=["read-only-file-system", "full-disk", "io-error", "no-permission"],
)
async def test_a12_a_draft_the_disk_refuses_names_the_cause_and_its_own_fix(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, code: int, fix: str
) -> None:
    """Each refusal with its own remedy: a read-only file system is mounted read-write (no
    owner or mode would help), a full disk freed, an I/O error repaired; only a permission
    fault is a matter of the account's access."""

    def refusing(*args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(drafts, "atomic_write_bytes", refusing)
    response = await client.post(DRAFTS, json={"prompt": "remember the deploy"})
    body = await expect_problem(response, 503, "the draft was not kept")
    assert f"({os.strerror(code)}): {fix}" in body["detail"]
    if code != errno.EACCES:
        assert "owner" not in body["detail"]


@pytest.mark.parametrize(
    "code",
    [errno.EACCES, errno.EIO, errno.ESTALE, errno.ENOTCONN, errno.EMFILE, errno.ENOTDIR],
    ids=errno.errorcode.get,
)
async def test_a12_a_draft_that_cannot_be_read_is_503_naming_it_never_expired(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """A draft the kernel will not read (no permission, a disk's I/O error, an NFS mount gone
    stale, an sshfs disconnected, no descriptor left, the drafts folder no folder) may well be
    there: the answer is 503 naming it and the reason, never 404 "it may have expired", which
    every reason but three was before (a chat opened from the link would start without it)."""
    created = await ok_json(await client.post(DRAFTS, json={"prompt": "remember"}), 201)

    def refusing(path: Path, *args: object, **kwargs: object) -> object:
        if path.name == f"{created['id']}.json":
            raise OSError(code, os.strerror(code), str(path))
        return read_regular(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(drafts, "read_regular", refusing)

    response = await client.get(f"{DRAFTS}/{created['id']}")

    body = await expect_problem(
        response, 503, f"draft '{created['id']}' cannot be looked up: the service cannot read it"
    )
    assert f"({os.strerror(code)})" in body["detail"]
    assert "expired" not in body["detail"]
    monkeypatch.undo()
    assert (await ok_json(await client.get(f"{DRAFTS}/{created['id']}")))["prompt"] == "remember"


def _nest_too_deep(path: Path) -> None:
    """Give a stored draft a field nested deeper than the decoder reads (a hand edit, a
    damaged disk): msgspec raises ``RecursionError``, no ``DecodeError``, in a field it skips."""
    raw = path.read_bytes().rstrip()
    assert raw.endswith(b"}")
    path.write_bytes(raw[:-1] + b', "note": ' + b"[" * 5000 + b"]" * 5000 + b"}")


async def test_a12_a_draft_nested_too_deep_is_unreadable_never_a_500(
    client: Client, agent: AgentHome
) -> None:
    """Such a draft was a 500 on GET and, once older than the TTL, every create 500ed too
    (the sweep read it uncaught). It is an unreadable draft: 404 and removed, swept."""
    store = get_draft_store(client.app)
    asked = await ok_json(await client.post(DRAFTS, json={"prompt": "asked"}), 201)
    _nest_too_deep(_file(store, asked["id"]))
    await expect_problem(await client.get(f"{DRAFTS}/{asked['id']}"), 404, "no draft")
    assert not _file(store, asked["id"]).exists()

    stale = await ok_json(await client.post(DRAFTS, json={"prompt": "stale"}), 201)
    stale_path = _file(store, stale["id"])
    _nest_too_deep(stale_path)
    os.utime(stale_path, (0, 0))  # written longer than the TTL ago: the sweep reads it
    fresh = await ok_json(await client.post(DRAFTS, json={"prompt": "fresh"}), 201)
    assert _kept(store) == [fresh["id"]]
