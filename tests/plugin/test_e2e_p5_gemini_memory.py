"""P-5 end to end: ``--from gemini`` reads what the real Gemini CLI wrote, for the right project.

The pinned Gemini CLI (0.61, no ``save_memory`` tool: the model edits its memory files with
``write_file``) runs headless twice in a loopback-only network namespace with ``HOME`` under
``tmp_path``, against the stand-in of its model API, which answers each Session's turns with
``write_file`` calls to the paths Gemini CLI's own system prompt names: the private project
memory (``~/.gemini/tmp/<project>/memory/MEMORY.md``) and the global personal memory
(``~/.gemini/GEMINI.md``). First in ``…/my-proj``, then in ``…/my_proj``: both base names
make the short name ``my-proj``, so Gemini CLI registers the second as ``my-proj-1``. The
import for ``my_proj`` must read ``my_proj``'s folder, never ``my-proj``'s.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_api.store.locks import Locks
from memory_api.transfer.harnesses import HarnessRequest, harness_scopes
from memory_api.transfer.runner import Target, run_import
from memory_core import layout
from memory_core.keys import key_for_real_path

from tests.plugin.fake_model_apis import FakeGemini, Json, serve_app
from tests.plugin.harness_run import GEMINI_ONE_PROCESS, GEMINI_SETTINGS, RUN_LIMIT_S
from tests.plugin.loopback_only import run_isolated, unix_bridges
from tests.plugin.npm_cli import GEMINI, npm_cli

pytestmark = pytest.mark.e2e


def prompt_path(body: Json, label: str) -> str:
    """The file Gemini CLI's system prompt names for ``label`` (its memory tiers)."""
    found = re.search(rf"{label}\*\* \(`([^`]+)`", json.dumps(body))
    assert found, f"no {label} in the system prompt"
    return found.group(1)


def write(label: str, content: str, name: str | None = None) -> Callable[[Json], list[Json]]:
    """A turn writing ``content`` to the file of ``label`` (or ``name`` beside it)."""

    def turn(body: Json) -> list[Json]:
        path = Path(prompt_path(body, label))
        target = path if name is None else path.parent / name
        args = {"file_path": str(target), "content": content}
        return [{"functionCall": {"name": "write_file", "args": args}}]

    return turn


async def gemini_session(
    home: Path, workspace: Path, turns: list[Callable[[Json], list[Json]]]
) -> None:
    """One headless Gemini CLI Session in ``workspace`` whose model plays ``turns``."""
    gemini = npm_cli(GEMINI)
    fake = FakeGemini(turns=turns)
    async with serve_app(fake.app) as port, unix_bridges([port]) as bridges:
        status, out, err = await run_isolated(
            [str(gemini), "--yolo", "-p", "Remember this for later."],
            bridges,
            cwd=workspace,
            env={
                "HOME": str(home),
                "PATH": "/usr/local/bin:/usr/bin:/bin",
                "GEMINI_API_KEY": "test-dummy-key",
                "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}",
                "GEMINI_CLI_TRUST_WORKSPACE": "true",
                "NO_COLOR": "1",
                **GEMINI_ONE_PROCESS,
            },
            limit_s=RUN_LIMIT_S,
        )
    assert status == 0, f"gemini failed:\n{out.decode()}\n{err.decode()}"
    assert len(fake.session_turns()) > len(turns), "the scripted writes did not all run"


async def test_p5_gemini_memory_written_by_the_cli_imported_for_its_own_project(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(GEMINI_SETTINGS, encoding="utf-8")
    theirs, mine = tmp_path / "base" / "my-proj", tmp_path / "base" / "my_proj"
    theirs.mkdir(parents=True)
    mine.mkdir()
    private = "Private Project Memory"
    await gemini_session(home, theirs, [write(private, "- my-proj deploys to staging-3\n")])
    await gemini_session(
        home,
        mine,
        [
            write(private, "- my_proj serves on port 8081\n- [Setup](setup.md) — laptop setup\n"),
            write(private, "# Setup\n\n`docker compose up db`\n", "setup.md"),
            write("Global Personal Memory", "## Preferences\n\n- Prefer pnpm over npm\n"),
        ],
    )
    registry = json.loads((home / ".gemini" / "projects.json").read_text(encoding="utf-8"))
    assert registry["projects"] == {
        str(theirs.resolve()): "my-proj",
        str(mine.resolve()): "my-proj-1",
    }

    request = HarnessRequest("gemini", str(mine), False, None, "acme", "coder")
    sources = harness_scopes(request, {"HOME": str(home)})
    data = tmp_path / "data"
    data.mkdir()
    run_import(data, "coder", Target("harness", str(mine)), sources, locks=Locks(data / "locks"))
    root = layout.memory_root(data, "coder")
    ours = root / key_for_real_path(str(mine.resolve()))
    written = {p.name: p.read_text(encoding="utf-8") for p in ours.glob("*.md")}
    assert set(written) == {"MEMORY.md", "my-proj-serves-on-port-8081.md", "setup.md"}
    assert "staging-3" not in "".join(written.values())
    assert "- [Setup](setup.md) — laptop setup" in written["MEMORY.md"]
    user = {p.name for p in (root / "user").glob("*.md")}
    assert user == {"MEMORY.md", "preferences.md"}
