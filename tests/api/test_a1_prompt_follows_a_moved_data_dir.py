"""A-1, I-6: an agent's stored prompt names the data dir its memory is in, after a move too.

A new agent's default prompt names the data dir in its Environment section (``- App data dir:
…``), from which the memory prompts' ``Directory:`` lines resolve. ``make run``'s ``.data``
moved with its checkout left every agent's prompt naming the old place, so an agent given that
prompt wrote its memory where no service looks. The service, as it starts, gives each prompt
naming a data dir that is gone the one it runs with, and logs it. A prompt naming a folder
that is there (its author's choice) or the placeholder is left as it is.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.defaults import moved_data_dir
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import AGENT, PROJECT, create_agent


async def test_a1_a_moved_data_dir_is_the_one_each_prompt_names_after_the_service_starts(
    aiohttp_client: AiohttpClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="memory_api.app")
    old, new = tmp_path / "old" / ".data", tmp_path / "new" / ".data"
    old.mkdir(parents=True)
    client = await aiohttp_client(create_app(Settings(data_dir=old)))
    await create_agent(client)
    config = f"/api/projects/{PROJECT}/agents/{AGENT}/config"
    assert f"- App data dir: {old}\n" in (await (await client.get(config)).json())["template"]
    await client.close()
    (tmp_path / "old").rename(tmp_path / "new")

    client = await aiohttp_client(create_app(Settings(data_dir=new)))
    template = (await (await client.get(config)).json())["template"]

    assert f"- App data dir: {new}\n" in template and str(old) not in template
    assert (
        f"agent {PROJECT}/{AGENT}: its prompt named the data dir {old}, which is gone (moved): "
        f"it now names {new}"
    ) in caplog.text


def test_a1_a_prompt_naming_a_folder_that_is_there_or_the_placeholder_is_kept(
    tmp_path: Path,
) -> None:
    for kept in (f"- App data dir: {tmp_path}\n", "- App data dir: {{APP_DATA_DIR}}\n"):
        assert moved_data_dir(f"Be kind.\n# Environment\n{kept}", tmp_path / "x") == (
            f"Be kind.\n# Environment\n{kept}",
            False,
        )
    gone = f"# Environment\n- App data dir: {tmp_path / 'gone'}\n- Agent id: coder\n"
    assert moved_data_dir(gone, tmp_path / "x") == (
        f"# Environment\n- App data dir: {tmp_path / 'x'}\n- Agent id: coder\n",
        True,
    )
