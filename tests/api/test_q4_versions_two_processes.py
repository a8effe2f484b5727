"""V-3, Q-4: two service processes on one data dir record versions without losing or
duplicating one, while deletes and restores of one scope run on both at once.

Twenty topic files are deleted, half through each process, all at once; then every deleted
file is restored from the scope's recently deleted list, again half through each process at
once. At the end the history holds, for each file, its delete and its restore; no two
consecutive versions hold the same files (no duplicate); the newest version is exactly the
scope on disk (none lost); ``git fsck`` finds the repository whole.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import aiohttp
from memory_core import layout

from tests.api.conftest import file_url, memory_url, write_topic
from tests.api.test_v2_history_and_restore import history_url

FILES = [f"note-{number:02d}.md" for number in range(20)]


def git(repository: Path, *args: str) -> str:
    command = ["git", f"--git-dir={repository}", *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


async def _json(response: aiohttp.ClientResponse) -> Any:
    assert response.status == 200, await response.text()
    return await response.json()


async def test_v3_deletes_and_restores_on_two_processes_lose_and_duplicate_no_version(
    data_dir: Path, bases: list[str]
) -> None:
    async with aiohttp.ClientSession() as session:
        agents = f"{bases[0]}/api/projects/acme/agents"
        async with session.post(agents, json={"id": "coder", "name": "Coder"}) as created:
            assert created.status == 201
        user = layout.scope_dir(data_dir, "coder", "user")
        index = "".join(f"- [{name}]({name})\n" for name in FILES)
        (user / layout.INDEX_FILE).write_text(index, encoding="utf-8")
        for name in FILES:
            write_topic(user, name)
        expected = {path.name: path.read_bytes() for path in user.iterdir()}

        deletes = [
            session.delete(bases[number % 2] + file_url("user", name))
            for number, name in enumerate(FILES)
        ]
        for response in await asyncio.gather(*deletes):
            await _json(response)
        assert sorted(path.name for path in user.iterdir()) == [layout.INDEX_FILE]

        deleted = await _json(await session.get(f"{bases[1]}{memory_url()}/scopes/user/deleted"))
        assert sorted(item["file"] for item in deleted["files"]) == FILES
        restores = [
            session.post(
                bases[number % 2] + history_url("user", item["file"], "restore"),
                json={"version": item["restoreVersion"]},
            )
            for number, item in enumerate(deleted["files"])
        ]
        results = [await _json(response) for response in await asyncio.gather(*restores)]

    assert all(result["version"] for result in results)
    assert {path.name: path.read_bytes() for path in user.iterdir()}.keys() == expected.keys()
    for name in FILES:
        assert (user / name).read_bytes() == expected[name]
    index_lines = (user / layout.INDEX_FILE).read_text(encoding="utf-8").splitlines()
    assert sorted(index_lines) == sorted(index.splitlines())

    repository = layout.history_root(data_dir, "coder") / "user.git"
    sources = Counter(
        line.split(": ", 1)[1]
        for line in git(repository, "log", "--format=%(trailers:key=Source)", "main").splitlines()
        if line
    )
    assert sources["delete"] == len(FILES)
    assert sources["restore"] == len(FILES)
    trees = git(repository, "log", "--format=%T", "main").split()
    assert all(newer != older for newer, older in pairwise(trees))
    on_disk = sorted(path.name for path in user.iterdir())
    assert git(repository, "ls-tree", "--name-only", "main").split() == on_disk
    for name in on_disk:
        assert git(repository, "show", f"main:{name}").encode() == (user / name).read_bytes()
    git(repository, "fsck", "--no-dangling")
