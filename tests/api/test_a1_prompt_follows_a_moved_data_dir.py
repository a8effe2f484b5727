"""A-1, I-6: an agent's stored prompt names the data dir its memory is in, after a move too.

A new agent's default prompt names the data dir by ``{{APP_DATA_DIR}}``, filled at each
Session start, so it follows any move by itself. A prompt made before named the path: the data
dir records where it was last served from, and a service starting it at another path while
the recorded one is gone gives the Environment-section lines naming exactly that path the
placeholder, keeping each line's own end, and logs it. Nothing else is rewritten (a line
quoted in the notes, a folder on a volume not mounted now, a data dir served at two paths
that both exist), and no path a prompt or the record names can keep the service from starting.
"""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path

import pytest
from memory_api import data_dir_moves
from memory_api.app import create_app
from memory_api.data_dir_moves import SERVED_FROM, name_the_placeholder
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import AGENT, PROJECT, create_agent

CONFIG = f"/api/projects/{PROJECT}/agents/{AGENT}/config"
PLACEHOLDER_LINE = "- App data dir: {{APP_DATA_DIR}}"
TOO_LONG = "/" + "a" * 300
"""A path ``stat`` refuses with ENAMETOOLONG, not ENOENT: neither there nor gone."""


def older_prompt(data_dir: Path | str, end: str = "\n", notes: str = "") -> str:
    """A prompt as the default one was before it named the placeholder, plus ``notes``."""
    return (
        f"Be kind.{end}{notes}{{{{MEMORY}}}}{end}{end}# Environment{end}"
        f"- Workspace Memory Key: {{{{WORKSPACE_MEMORY_KEY}}}}{end}"
        f"- App data dir: {data_dir}{end}- Agent id: {AGENT}{end}"
    )


async def serve(aiohttp_client: AiohttpClient, data_dir: Path) -> str:
    """Start the service on ``data_dir`` (as ``serve`` does), stop it; the agent's prompt."""
    client = await aiohttp_client(create_app(Settings(data_dir=data_dir)))
    template: str = (await (await client.get(CONFIG)).json())["template"]
    await client.close()
    return template


async def test_a1_a_new_agents_prompt_names_the_placeholder_so_it_names_no_old_path(
    aiohttp_client: AiohttpClient, tmp_path: Path
) -> None:
    client = await aiohttp_client(create_app(Settings(data_dir=tmp_path / ".data")))
    await create_agent(client)
    template = (await (await client.get(CONFIG)).json())["template"]
    assert f"\n{PLACEHOLDER_LINE}\n" in template and str(tmp_path) not in template


async def test_a1_an_older_prompt_naming_a_moved_data_dir_names_the_placeholder_once(
    aiohttp_client: AiohttpClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="memory_api.app")
    old, new = tmp_path / "old" / ".data", tmp_path / "new" / ".data"
    old.mkdir(parents=True)
    quoted = f"Our notes quote it:\r\n- App data dir: {old}\r\n\r\n"
    client = await aiohttp_client(create_app(Settings(data_dir=old)))
    await create_agent(client, template=older_prompt(f"{old} ", "\r\n", quoted))
    await client.close()
    (tmp_path / "old").rename(tmp_path / "new")

    moved = await serve(aiohttp_client, new)

    assert moved == older_prompt("{{APP_DATA_DIR}} ", "\r\n", quoted)  # its line end, its blank
    assert (
        f"agent {PROJECT}/{AGENT}: its prompt named the data dir {old}, which is gone (moved): "
        "it now names {{APP_DATA_DIR}}, which each Session start fills with the data dir"
    ) in caplog.text
    # A second mount namespace serving it at the old path by turns: nothing flips back.
    (tmp_path / "new").rename(tmp_path / "old")
    assert await serve(aiohttp_client, old) == moved
    (tmp_path / "old").rename(tmp_path / "new")
    assert await serve(aiohttp_client, new) == moved
    assert (new / SERVED_FROM).read_bytes() == f"{new}\n".encode()


async def test_a1_a_data_dir_that_did_not_move_leaves_every_path_its_prompts_name(
    aiohttp_client: AiohttpClient, tmp_path: Path
) -> None:
    """A folder on a volume not mounted now, a path ``stat`` refuses, another team's data dir
    quoted in the notes: none is the data dir moving, and none may stop the service."""
    data_dir = tmp_path / ".data"
    unmounted = tmp_path / "usb" / "data"
    notes = "Ask them:\n- App data dir: /srv/other-team/data\n\n"
    prompt = older_prompt(unmounted, notes=notes) + f"- App data dir: {TOO_LONG}\n"
    client = await aiohttp_client(create_app(Settings(data_dir=data_dir)))
    await create_agent(client, template=prompt)
    await client.close()

    assert await serve(aiohttp_client, data_dir) == prompt


async def test_a1_a_data_dir_served_at_two_paths_that_both_exist_keeps_its_prompts(
    aiohttp_client: AiohttpClient, tmp_path: Path
) -> None:
    """A container's ``/data`` and the host's ``/srv/x``, here a second path by a link."""
    host, container = tmp_path / "srv" / "x", tmp_path / "data"
    host.mkdir(parents=True)
    container.symlink_to(host)
    client = await aiohttp_client(create_app(Settings(data_dir=host)))
    await create_agent(client, template=older_prompt(host))
    await client.close()

    assert await serve(aiohttp_client, container) == older_prompt(host)
    assert await serve(aiohttp_client, host) == older_prompt(host)


async def test_a1_a_record_that_cannot_be_read_or_looked_at_leaves_prompts_and_starts(
    aiohttp_client: AiohttpClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data_dir = tmp_path / ".data"
    client = await aiohttp_client(create_app(Settings(data_dir=data_dir)))
    await create_agent(client, template=older_prompt(TOO_LONG))
    await client.close()
    (data_dir / SERVED_FROM).write_text(f"{TOO_LONG}\n", encoding="utf-8")

    assert await serve(aiohttp_client, data_dir) == older_prompt(TOO_LONG)
    assert f"was served from {TOO_LONG} before, which cannot be looked at" in caplog.text
    assert [r.levelname for r in caplog.records if "cannot be looked at" in r.message] == [
        "WARNING"
    ]
    (data_dir / SERVED_FROM).unlink()
    os.mkfifo(data_dir / SERVED_FROM)  # never written: a read of it would wait for ever
    assert await serve(aiohttp_client, data_dir) == older_prompt(TOO_LONG)
    assert "the agents' prompts were not checked for a moved data dir" in caplog.text


def test_a1_only_the_environment_lines_naming_exactly_the_old_path_name_the_placeholder() -> None:
    old = "/home/me/agent-memory/.data"
    kept = [
        f"- App data dir: {old}2",
        f"- App data dir: {old}/agents",
        f"- App data dir:  {old}",
        f"  - App data dir: {old}",
    ]
    environment = "\n".join(["# Environment", *kept, f"- App data dir: {old}\t"])
    fenced = f"```\n- App data dir: {old}\n```\n"
    after = f"## Notes\n- App data dir: {old}\n"
    template = f"- App data dir: {old}\n{environment}\n{fenced}{after}"

    assert name_the_placeholder(template, old) == (
        template.replace(f"{old}\t", "{{APP_DATA_DIR}}\t"),
        True,
    )
    assert name_the_placeholder(f"- App data dir: {old}\n", old) == (
        f"- App data dir: {old}\n",
        False,
    )


async def test_a1_a_record_that_is_a_symlink_is_not_followed_and_names_the_fix(
    aiohttp_client: AiohttpClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A ``served-from`` linking to a file outside the data dir that names a gone path: the
    file outside is never read, no prompt is rewritten, the warning names the record and what
    to do, and never the outside file's contents."""
    data_dir, gone = tmp_path / ".data", tmp_path / "gone" / ".data"
    client = await aiohttp_client(create_app(Settings(data_dir=data_dir)))
    await create_agent(client, template=older_prompt(gone))
    await client.close()
    outside = tmp_path / "outside"
    outside.write_text(f"{gone}\n", encoding="utf-8")
    (data_dir / SERVED_FROM).unlink()
    (data_dir / SERVED_FROM).symlink_to(outside)

    assert await serve(aiohttp_client, data_dir) == older_prompt(gone)
    assert f"{data_dir / SERVED_FROM}" in caplog.text and "delete it" in caplog.text
    assert str(gone) not in caplog.text
    assert (data_dir / SERVED_FROM).is_symlink() and outside.read_text() == f"{gone}\n"


async def test_a1_a_data_dir_moved_with_a_new_folder_made_at_its_old_path_still_moved(
    aiohttp_client: AiohttpClient, tmp_path: Path
) -> None:
    """A moved checkout, then ``make run`` in a fresh one at the old path: the old path is
    there again, but it is another folder, not the data dir."""
    old, new = tmp_path / "old" / ".data", tmp_path / "new" / ".data"
    client = await aiohttp_client(create_app(Settings(data_dir=old)))
    await create_agent(client, template=older_prompt(old))
    await client.close()
    (tmp_path / "old").rename(tmp_path / "new")
    old.mkdir(parents=True)

    assert await serve(aiohttp_client, new) == older_prompt("{{APP_DATA_DIR}}")


async def test_a1_a_record_naming_no_path_is_replaced_and_one_no_file_names_the_fix(
    aiohttp_client: AiohttpClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A record no service wrote is repaired once, not warned about at every start; one that
    is no regular file cannot be written over, so the warning names it and says delete it."""
    data_dir = tmp_path / ".data"
    record = data_dir / SERVED_FROM
    client = await aiohttp_client(create_app(Settings(data_dir=data_dir)))
    await create_agent(client, template=older_prompt(TOO_LONG))
    await client.close()
    for bad in [b"/srv/\0x\n", b"relative/.data\n", b"/" + b"a" * (16 * 1024 + 1), b""]:
        record.write_bytes(bad)
        caplog.clear()
        assert await serve(aiohttp_client, data_dir) == older_prompt(TOO_LONG)
        assert record.read_bytes() == f"{data_dir}\n".encode()
        assert f"{record} named no path a service writes" in caplog.text, bad[:20]
    record.unlink()
    record.mkdir()
    caplog.clear()
    assert await serve(aiohttp_client, data_dir) == older_prompt(TOO_LONG)
    assert f"its record of where it is served from, {record}, cannot be read" in caplog.text
    assert "delete it" in caplog.text


async def test_a1_a_record_that_cannot_be_written_says_so_not_that_prompts_were_unchecked(
    aiohttp_client: AiohttpClient,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The prompts were rewritten; only the record failed (a full disk): the warning says that,
    naming the file and the errno."""
    old, new = tmp_path / "old" / ".data", tmp_path / "new" / ".data"
    client = await aiohttp_client(create_app(Settings(data_dir=old)))
    await create_agent(client, template=older_prompt(old))
    await client.close()
    (tmp_path / "old").rename(tmp_path / "new")

    def disk_full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(data_dir_moves, "atomic_write_bytes", disk_full)
    assert await serve(aiohttp_client, new) == older_prompt("{{APP_DATA_DIR}}")
    assert (
        f"could not record where the data dir is served from in {new / SERVED_FROM} (ENOSPC: "
    ) in caplog.text
    assert "prompts were not checked" not in caplog.text
