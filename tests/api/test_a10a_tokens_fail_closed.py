"""A-10a: bearer tokens that cannot be read lock the door; they never open it.

"No token" (the open loopback mode) is concluded only from a token folder that is absent or
lists no token file. A folder that cannot be looked at or listed, a file in its place, or token
files that cannot be read or decoded leave the service unable to judge a request: it answers
503 (problem+json, one log line per change of state), ``/readyz`` says not ready, and the
delete that used to go through without a token deletes nothing. Every app built over the same
data dir (a restart, another replica) decides the same way, from the disk alone.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.bearer import TokenEntry, find_token, hash_secret
from memory_api.cli import main
from memory_api.settings import Settings
from memory_api.store.tokens import TokenStore
from memory_core import kept_modes
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import (
    AgentHome,
    Client,
    bearer,
    expect_problem,
    file_url,
    ok_json,
    write_topic,
)
from tests.support.case_insensitive_disk import case_insensitive_disk

AGENTS = "/api/projects/acme/agents"
UNREADABLE = "bearer tokens cannot be read"
GOOD = "good-secret-0123456789abcdef"
ENV = "env-secret-0123456789abcdefgh"


def _folder_is_a_file(tokens: Path) -> None:
    tokens.rmdir()
    tokens.write_text("not a folder\n", encoding="utf-8")


def _folder_is_a_symlink_loop(tokens: Path) -> None:
    tokens.rmdir()
    tokens.symlink_to(tokens.name)  # tokens -> tokens: ELOOP, which root cannot read past


def _folder_is_a_symlink_to_nothing(tokens: Path) -> None:
    """The token folder moved to a mounted secret whose mount is gone: the name is there, the
    folder is not. It was read as "no token folder", the open loopback mode: every local
    caller passed without a token."""
    tokens.rmdir()
    tokens.symlink_to(tokens.parent / "gone" / "tokens")


def _only_token_file(content: bytes) -> Callable[[Path], None]:
    def write(tokens: Path) -> None:
        (tokens / "ops.json").write_bytes(content)

    return write


def _token_file_is_a_fifo(tokens: Path) -> None:
    os.mkfifo(tokens / "ops.json")


def _token_file_is_a_folder(tokens: Path) -> None:
    (tokens / "ops.json").mkdir()


def _token_file_is_a_symlink_loop(tokens: Path) -> None:
    (tokens / "ops.json").symlink_to("ops.json")


def _token_file_is_a_symlink_to_nothing(tokens: Path) -> None:
    """A token mounted as a secret whose mount is gone: the name is listed, its file is not."""
    (tokens / "ops.json").symlink_to(tokens.parent / "gone" / "ops.json")


def _record(**fields: object) -> bytes:
    return json.dumps({"name": "ops", "sha256": hash_secret(GOOD), **fields}).encode()


FAULTS: dict[str, Callable[[Path], None]] = {
    "folder-replaced-by-a-file": _folder_is_a_file,
    "folder-a-symlink-loop": _folder_is_a_symlink_loop,
    "folder-a-symlink-to-nothing": _folder_is_a_symlink_to_nothing,
    "only-token-file-empty": _only_token_file(b""),
    "only-token-file-broken-json": _only_token_file(b'{"name": "ops", "sha2'),
    "only-token-file-not-a-token": _only_token_file(b'{"name": "ops"}'),
    "only-token-file-a-fifo": _token_file_is_a_fifo,
    "only-token-file-a-folder": _token_file_is_a_folder,
    "only-token-file-a-symlink-loop": _token_file_is_a_symlink_loop,
    "only-token-file-a-symlink-to-nothing": _token_file_is_a_symlink_to_nothing,
    # Values no token has: each one's secret is unknown, so it cannot be judged either.
    "only-token-file-sha256-not-ascii": _only_token_file(_record(sha256="é" * 64)),
    "only-token-file-sha256-upper-case": _only_token_file(
        _record(sha256=hash_secret(GOOD).upper())
    ),
    "only-token-file-sha256-empty": _only_token_file(_record(sha256="")),
    "only-token-file-name-with-a-newline": _only_token_file(_record(name="ops\nERROR forged")),
    "only-token-file-bad-project-id": _only_token_file(_record(projects=["../acme"])),
    # A misspelt field: "project" would leave projects unset, reaching every project.
    "only-token-file-unknown-field": _only_token_file(_record(project=["acme"])),
}


def _restore(tokens: Path) -> None:
    """Put back an empty, readable token folder (the open loopback mode)."""
    if tokens.is_symlink() or tokens.is_file():
        tokens.unlink()
    if tokens.is_dir():
        for entry in tokens.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                entry.rmdir()
            else:
                entry.unlink()
    tokens.mkdir(exist_ok=True)


def _token_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "memory_api.store.tokens" and record.levelno >= logging.ERROR
    ]


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a10a_tokens_that_cannot_be_read_refuse_every_api_request_with_503(
    client: Client,
    agent: AgentHome,
    aiohttp_client: AiohttpClient,
    caplog: pytest.LogCaptureFixture,
    fault: str,
) -> None:
    topic = write_topic(agent.user, "keep-me.md")
    tokens = agent.data_dir / "tokens"
    FAULTS[fault](tokens)
    with caplog.at_level(logging.INFO, logger="memory_api.store.tokens"):
        body = await expect_problem(await client.get(AGENTS), 503, UNREADABLE)
        assert "operator must fix the token folder" in body["detail"]
        # The delete that used to pass without a token deletes nothing.
        await expect_problem(await client.delete(file_url("user", "keep-me.md")), 503, UNREADABLE)
        assert topic.exists()
        response = await client.post(AGENTS, json={"id": "mole", "name": "Mole"})
        await expect_problem(response, 503, UNREADABLE)
        assert not (agent.data_dir / "agents" / "mole").exists()
        for _ in range(5):
            await expect_problem(await client.get("/api/me"), 503, UNREADABLE)
        errors = _token_errors(caplog)
        assert len(errors) == 1, errors  # one clear line, not one per request
        assert "every /api/ request is refused with 503" in errors[0]

        ready = await client.get("/readyz")
        assert ready.status == 503
        checks = (await ready.json())["checks"]
        assert "ops.json" not in checks["tokensReadable"]  # no file names to the public
        assert "cannot" in checks["tokensReadable"]
        assert (await client.get("/healthz")).status == 200

        # A restart, or another replica on the same data dir, decides the same from the disk.
        replica = await aiohttp_client(create_app(Settings(data_dir=agent.data_dir)))
        await expect_problem(await replica.get(AGENTS), 503, UNREADABLE)

        _restore(tokens)
        agents = await ok_json(await client.get(AGENTS))
        assert [item["id"] for item in agents["agents"]] == ["coder"]
        assert any(
            "read again" in record.getMessage()
            for record in caplog.records
            if record.name == "memory_api.store.tokens"
        )


async def test_a10a_a_folder_that_cannot_be_listed_refuses_with_503(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EACCES on the listing (root reads past a mode of 000, so the refusal is injected here;
    ``tests/deploy/test_a10a_tokens_unreadable_for_real.py`` takes the permission away for real)."""
    tokens_dir = os.fspath(agent.data_dir / "tokens")
    real_scandir = os.scandir

    def refusing(path: str) -> object:
        if path == tokens_dir:
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    (agent.data_dir / "tokens" / "new.json").write_text("{}", encoding="utf-8")  # folder changed
    await expect_problem(await client.get(AGENTS), 503, UNREADABLE)
    ready = await client.get("/readyz")
    checks = (await ready.json())["checks"]
    assert checks["tokensReadable"].startswith("the token folder cannot be listed (Permission")


async def test_a10a_with_some_tokens_readable_an_unknown_token_is_503_not_401(
    client: Client, agent: AgentHome, caplog: pytest.LogCaptureFixture
) -> None:
    """The readable tokens still work; a token not among them may be one that cannot be read,
    so it is 503 (try later), never 401 (revoked) nor a pass; no token at all stays 401."""
    tokens = agent.data_dir / "tokens"
    entry = TokenEntry(name="good", sha256=hash_secret(GOOD))
    (tokens / "good.json").write_bytes(
        json.dumps({"name": "good", "sha256": entry.sha256}).encode()
    )
    (tokens / "broken.json").write_bytes(b"")
    with caplog.at_level(logging.INFO, logger="memory_api.store.tokens"):
        me = await ok_json(await client.get("/api/me", headers=bearer(GOOD)))
        assert me["name"] == "good"
        await expect_problem(await client.get("/api/me"), 401, "needs a bearer token")
        unknown = bearer("some-other-secret-0123456789")
        await expect_problem(await client.get("/api/me", headers=unknown), 503, UNREADABLE)
    errors = _token_errors(caplog)
    assert len(errors) == 1 and "tokens/broken.json" in errors[0], errors
    assert "whose token is not among the readable ones" in errors[0]


async def test_a10a_environment_tokens_keep_working_while_the_folder_cannot_be_read(
    aiohttp_client: AiohttpClient, data_dir: Path
) -> None:
    settings = Settings(
        data_dir=data_dir, env_tokens=(TokenEntry(name="env", sha256=hash_secret(ENV)),)
    )
    client = await aiohttp_client(create_app(settings))
    await ok_json(await client.get("/api/me", headers=bearer(ENV)))  # the folder is made
    _folder_is_a_symlink_loop(data_dir / "tokens")
    assert (await ok_json(await client.get("/api/me", headers=bearer(ENV))))["name"] == "env"
    other = bearer("another-secret-0123456789abc")
    await expect_problem(await client.get("/api/me", headers=other), 503, UNREADABLE)


def test_a10a_known_tokens_name_what_cannot_be_read(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    assert not store.known().configured  # no folder at all: no token, nothing unreadable
    (tmp_path / "tokens").mkdir()
    assert not store.known().configured  # an empty folder that lists: no token
    _, secret = store.create("good", None)
    (tmp_path / "tokens" / "bad.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "tokens" / ".hidden.json").write_text("{}", encoding="utf-8")  # never a token
    (tmp_path / "tokens" / "notes.txt").write_text("x", encoding="utf-8")  # never a token
    known = store.known()
    assert [entry.name for entry in known.entries] == ["good"]
    assert known.configured
    assert known.unreadable is not None and known.unreadable.startswith("tokens/bad.json: not a")
    assert known.summary == "1 token file cannot be read (not a token record)"
    store.revoke("good")
    assert store.known().configured  # bad.json alone still locks the door
    (tmp_path / "tokens" / "bad.json").unlink()
    assert not store.known().configured  # every token file revoked: open again, on loopback
    assert secret


def test_a10a_unreadable_tokens_count_as_tokens_and_token_list_names_them(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unreadable tokens count as tokens (so ``serve`` binds where tokens allow it, and the API
    answers 503 until they read), and ``token list`` says what cannot be read, exiting 1."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    (data_dir / "tokens").mkdir()
    (data_dir / "tokens" / "ops.json").write_bytes(b"")
    assert TokenStore(data_dir).known().configured
    assert main(["token", "list"]) == 1
    captured = capsys.readouterr()
    assert "no tokens" not in captured.out
    assert "cannot be read: tokens/ops.json" in captured.err


async def test_a10a_a_token_record_no_token_has_leaves_the_readable_tokens_working(
    client: Client, agent: AgentHome
) -> None:
    """One hand-edited token file whose ``sha256`` holds a character outside ASCII made every
    request carrying a token a 500 (``hmac.compare_digest`` refuses such a ``str``). It is a
    token file that cannot be read: the readable tokens work, an unknown one is 503, and the
    log (not the client) says which field is wrong, without echoing it."""
    tokens = agent.data_dir / "tokens"
    (tokens / "good.json").write_bytes(_record(name="good"))
    (tokens / "edited.json").write_bytes(_record(name="edited", sha256="é" * 64))
    me = await ok_json(await client.get("/api/me", headers=bearer(GOOD)))
    assert me["name"] == "good"
    unknown = bearer("some-other-secret-0123456789")
    body = await expect_problem(await client.get("/api/me", headers=unknown), 503, UNREADABLE)
    assert "(not a token record)" in body["detail"] and "sha256" not in body["detail"]
    known = TokenStore(agent.data_dir).known()
    assert known.unreadable is not None
    assert "tokens/edited.json: not a token record (sha256 must be the 64 lowercase hex" in (
        known.unreadable
    )
    assert "é" not in known.unreadable


async def test_a10a_a_token_record_saved_with_a_bom_is_read(
    client: Client, agent: AgentHome
) -> None:
    """A token record edited in a Windows editor starts with a UTF-8 BOM (RFC 8259 lets a
    parser ignore it): it is the same token, not a file that cannot be read (503 for all)."""
    tokens = agent.data_dir / "tokens"
    (tokens / "ops.json").write_bytes(b"\xef\xbb\xbf" + _record(name="ops"))
    me = await ok_json(await client.get("/api/me", headers=bearer(GOOD)))
    assert me["name"] == "ops"
    assert TokenStore(agent.data_dir).known().unreadable is None


def test_a10a_finding_a_token_never_raises_on_a_digest_outside_ascii() -> None:
    entries = (
        TokenEntry(name="odd", sha256="é" * 64),
        TokenEntry(name="good", sha256=hash_secret(GOOD)),
    )
    assert find_token(entries, GOOD) == entries[1]
    assert find_token(entries, "é") is None


@pytest.mark.parametrize("command", [["create", "--name", "ops"], ["revoke", "--name", "ops"]])
def test_a10a_token_commands_name_a_file_in_the_folders_place(
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    """``token create`` said ``[Errno 17] File exists``, ``token revoke`` ``[Errno 20] Not a
    directory``, when a file stood where the token folder should be."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    (data_dir / "tokens").mkdir(exist_ok=True)
    _folder_is_a_file(data_dir / "tokens")
    assert main(["token", *command]) == 1
    err = capsys.readouterr().err
    assert "the token folder" in err and "is not a folder (a file is in its place)" in err
    assert "Errno" not in err
    assert (data_dir / "tokens").read_text(encoding="utf-8") == "not a folder\n"


WRITABLE_BY_EVERYONE = "can be written by every account"


async def test_a10a_a_token_file_every_account_may_write_is_never_trusted(
    client: Client, agent: AgentHome
) -> None:
    """A token file with the "other" write bit (``chmod 666``, or a copy made under ``umask
    000``) let any account on the machine put their own secret's hash into it: its secret then
    passed (200, every project). It is a token file that cannot be trusted: 503 for its secret
    too, the readable tokens still pass, and the service says which bit to clear."""
    tokens = agent.data_dir / "tokens"
    (tokens / "good.json").write_bytes(_record(name="good"))
    mine = "the-secret-of-another-account-0123"
    (tokens / "planted.json").write_bytes(
        json.dumps({"name": "planted", "sha256": hash_secret(mine)}).encode()
    )
    (tokens / "planted.json").chmod(0o666)

    body = await expect_problem(await client.get("/api/me", headers=bearer(mine)), 503, UNREADABLE)
    assert f"({WRITABLE_BY_EVERYONE})" in body["detail"]
    assert (await ok_json(await client.get("/api/me", headers=bearer(GOOD))))["name"] == "good"
    known = TokenStore(agent.data_dir).known()
    assert known.unreadable is not None
    assert f"tokens/planted.json: {WRITABLE_BY_EVERYONE} (mode 0666)" in known.unreadable
    assert "chmod o-w" in known.unreadable

    (tokens / "planted.json").chmod(0o600)  # the operator's fix: trusted again
    assert (await ok_json(await client.get("/api/me", headers=bearer(mine))))["name"] == "planted"


async def test_a10a_a_token_folder_every_account_may_write_trusts_none_of_its_files(
    aiohttp_client: AiohttpClient, data_dir: Path
) -> None:
    """With the token folder ``chmod 777`` any account could add a token file of its own: it
    passed at once. While there are tokens, no file of such a folder is trusted (503 for their
    secrets, naming the folder's mode); the environment's tokens, which no account can add to,
    still pass; a folder without a token at all is the open loopback service it was."""
    settings = Settings(
        data_dir=data_dir, env_tokens=(TokenEntry(name="env", sha256=hash_secret(ENV)),)
    )
    client = await aiohttp_client(create_app(settings))
    await ok_json(await client.get("/api/me", headers=bearer(ENV)))  # the folder is made
    tokens = data_dir / "tokens"
    tokens.chmod(0o777)
    mine = "the-secret-of-another-account-0123"
    (tokens / "planted.json").write_bytes(
        json.dumps({"name": "planted", "sha256": hash_secret(mine)}).encode()
    )
    (tokens / "planted.json").chmod(0o600)

    body = await expect_problem(await client.get("/api/me", headers=bearer(mine)), 503, UNREADABLE)
    assert f"the token folder {WRITABLE_BY_EVERYONE} (mode 0777)" in body["detail"]
    assert (await ok_json(await client.get("/api/me", headers=bearer(ENV))))["name"] == "env"

    tokens.chmod(0o755)
    assert (await ok_json(await client.get("/api/me", headers=bearer(mine))))["name"] == "planted"


async def test_a10a_an_open_service_with_a_sticky_token_folder_every_account_may_write_stays_open(
    client: Client, agent: AgentHome
) -> None:
    """No token anywhere: every local account reaches the API already (loopback only), so a
    ``1777`` folder takes nothing more from anyone; the first token put in it closes the door.
    Without the sticky bit any account could have removed the owner's token files, so an empty
    ``0777`` folder says nothing about whether there were tokens: 503, never the open mode."""
    tokens = agent.data_dir / "tokens"
    tokens.chmod(0o777)
    await expect_problem(await client.get("/api/me"), 503, UNREADABLE)
    tokens.chmod(0o1777)
    assert (await ok_json(await client.get("/api/me")))["name"] == "local"
    (tokens / "ops.json").write_bytes(_record(name="ops"))
    (tokens / "ops.json").chmod(0o600)
    await expect_problem(await client.get("/api/me", headers=bearer(GOOD)), 503, UNREADABLE)


async def test_a10a_a_token_folder_on_a_read_only_mount_is_trusted_whatever_its_mode(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Kubernetes Secret mounted as the token folder is a ``1777`` folder of ``0666``-able
    files on a read-only mount: nobody can write it, so its tokens pass. (The mount's flag is
    given here: making a read-only mount needs privileges the tests do not have.)"""
    tokens = agent.data_dir / "tokens"
    (tokens / "ops.json").write_bytes(_record(name="ops"))
    (tokens / "ops.json").chmod(0o666)
    tokens.chmod(0o1777)
    await expect_problem(await client.get("/api/me", headers=bearer(GOOD)), 503, UNREADABLE)
    real = os.statvfs
    read_only = os.statvfs_result((4096, 4096, 1, 0, 0, 1, 0, 0, os.ST_RDONLY, 255, 0))

    def mounted(path: str | Path) -> os.statvfs_result:
        inside = Path(path) == tokens or Path(path).parent == tokens
        return read_only if inside else real(path)

    monkeypatch.setattr(os, "statvfs", mounted)
    (tokens / "ops.json").touch()  # a new stat: read again
    assert (await ok_json(await client.get("/api/me", headers=bearer(GOOD))))["name"] == "ops"


MODELESS = "its disk keeps no permission bits"


def test_a10a_a_token_on_a_disk_that_keeps_no_modes_is_distrusted_saying_what_to_do(
    tmp_path: Path,
) -> None:
    """On exFAT (FAT, WSL drvfs, some Windows bind mounts) every file and folder shows
    ``0777`` and ``chmod`` changes nothing: after the upgrade every token there was distrusted
    with a "chmod o-w it" that does nothing. Still never trusted (anyone may add a token
    there), but the reason names the disk and what works: move the data dir, or give the
    tokens in the environment. The environment's tokens still pass."""
    with case_insensitive_disk(tmp_path) as disk:
        data_dir = disk / "data"
        (data_dir / "tokens").mkdir(parents=True)
        (data_dir / "tokens" / "ops.json").write_bytes(_record(name="ops"))
        (data_dir / "tokens" / "ops.json").chmod(0o600)  # kept by no bit of the disk
        env = TokenEntry(name="env", sha256=hash_secret(ENV))

        known = TokenStore(data_dir, (env,)).known()

    assert [entry.name for entry in known.entries] == ["env"]  # fails closed: ops not trusted
    assert known.configured and known.unreadable is not None and known.summary is not None
    assert f"{WRITABLE_BY_EVERYONE} (mode 0777)" in known.unreadable
    assert MODELESS in known.unreadable and MODELESS in known.summary
    assert "MEMORY_API_DATA_DIR" in known.unreadable
    assert "MEMORY_API_TOKENS or a MEMORY_API_TOKENS_FILE" in known.unreadable
    assert "chmod o-w" not in known.unreadable


@pytest.mark.parametrize(
    "mounts",
    [
        "36 25 0:33 / {point} rw,noatime - 9p drvfs rw,aname=drvfs;path=C:\\;uid=1000\n",
        "36 25 8:17 / {point} rw,relatime - vfat /dev/sdb1 rw,fmask=0000,dmask=0000\n",
    ],
    ids=["wsl-drvfs", "vfat"],
)
def test_a10a_a_modeless_disk_is_told_by_its_mount_type_where_no_probe_can_be_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mounts: str
) -> None:
    """Where no file can be made to try a mode on (the folder is not the service's to write),
    the mount table's type tells: WSL's drvfs, FAT."""
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    (tokens / "ops.json").write_bytes(_record(name="ops"))
    (tokens / "ops.json").chmod(0o666)
    table = tmp_path / "mountinfo"
    table.write_text(mounts.format(point=tmp_path), encoding="utf-8")
    monkeypatch.setattr(kept_modes, "MOUNT_TABLE", str(table))
    monkeypatch.setattr(kept_modes, "_kept", {})
    monkeypatch.setattr(kept_modes, "_probe", lambda folder: None)

    known = TokenStore(tmp_path).known()

    assert known.entries == () and known.unreadable is not None
    assert MODELESS in known.unreadable and "chmod o-w" not in known.unreadable


def test_a10a_a_disk_refusing_chmod_keeps_no_modes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel's own FAT and exFAT refuse a mode they cannot keep (``EPERM``)."""
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    (tokens / "ops.json").write_bytes(_record(name="ops"))
    (tokens / "ops.json").chmod(0o666)
    monkeypatch.setattr(kept_modes, "_kept", {})

    def refused(fd: int, mode: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchmod", refused)

    unreadable = TokenStore(tmp_path).known().unreadable

    assert unreadable is not None and MODELESS in unreadable
    assert [path.name for path in tokens.iterdir()] == ["ops.json"]  # the probe is gone


def test_a10a_a_disk_that_keeps_modes_still_says_chmod_o_w(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kept_modes, "_kept", {})
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    (tokens / "ops.json").write_bytes(_record(name="ops"))
    (tokens / "ops.json").chmod(0o666)

    unreadable = TokenStore(tmp_path).known().unreadable

    assert unreadable is not None and "(chmod o-w it)" in unreadable
    assert MODELESS not in unreadable
    assert [path.name for path in tokens.iterdir()] == ["ops.json"]
