"""P-5 end to end: the folder ``--from claude-code`` reads is the one the real Claude Code uses.

Runs the pinned Claude Code CLI headless in a linked git worktree, in a loopback-only network
namespace, with ``HOME`` under ``tmp_path``, against the loopback stand-in of its model API
(:mod:`tests.plugin.claude_code_session`). Claude Code names its auto-memory directory in the
system prompt it sends; that path must be exactly what
:func:`memory_api.transfer.claude_code.claude_code_memory_dir` computes for the worktree (the
main working tree's folder: worktrees share one memory).
"""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from pathlib import Path
from typing import Literal

import pytest
from memory_api.transfer.claude_code import claude_code_memory_dir

from tests.plugin.claude_code_cli import claude_code_binary
from tests.plugin.claude_code_session import run_claude, serve_model
from tests.plugin.fake_anthropic import Block

pytestmark = pytest.mark.e2e


def git(*argv: str) -> None:
    """Run git quietly with a fixed identity."""
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=T", *argv],
        check=True,
        capture_output=True,
        timeout=60,
    )


def answer(body: dict[str, object]) -> tuple[list[Block], str]:
    """Every request gets a short text answer."""
    return [{"type": "text", "text": "ok"}], "end_turn"


async def test_p5_claude_code_names_the_folder_we_import_from(tmp_path: Path) -> None:
    claude = claude_code_binary()
    repo = tmp_path / "src" / "My Repo"
    repo.mkdir(parents=True)
    git("init", "-q", str(repo))
    git("-C", str(repo), "commit", "-q", "--allow-empty", "-m", "start")
    worktree = tmp_path / "src" / "repo-feature"
    git("-C", str(repo), "worktree", "add", "-q", str(worktree))
    home = tmp_path / "home"
    home.mkdir()
    async with serve_model(answer) as (fake, model_url):
        returncode, out, err = await run_claude(claude, worktree, home, model_url, prompt="hi")
    assert returncode == 0, f"claude failed:\n{out}\n{err}"
    sent = json.dumps(fake.message_requests())
    named = set(re.findall(r"[^\s\"`']*?/projects/[^\s\"`']*?/memory/", sent))
    expected = str(claude_code_memory_dir(str(worktree), {"HOME": str(home)})) + "/"
    assert named == {expected}, (named, expected)
    assert expected.startswith(str(home / ".claude" / "projects") + "/")


@pytest.mark.parametrize("form", ["NFD", "NFC"])
async def test_p5_a_workspace_named_in_either_unicode_form_finds_claude_codes_folder(
    tmp_path: Path, form: Literal["NFD", "NFC"]
) -> None:
    """A folder named in decomposed form (``cafe`` + U+0301, as macOS writes names and a copy
    from its disks keeps them) is that name to Claude Code, each mark a ``-`` of the folder's
    name: composing it first looked for another folder, and the import said Claude Code keeps
    no memory for that Workspace."""
    claude = claude_code_binary()
    workspace = tmp_path / "src" / unicodedata.normalize(form, "Café notes")
    workspace.mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    async with serve_model(answer) as (fake, model_url):
        returncode, out, err = await run_claude(claude, workspace, home, model_url, prompt="hi")
    assert returncode == 0, f"claude failed:\n{out}\n{err}"
    sent = json.dumps(fake.message_requests(), ensure_ascii=False)
    named = set(re.findall(r"[^\s\"`']*?/projects/[^\s\"`']*?/memory/", sent))
    expected = str(claude_code_memory_dir(str(workspace), {"HOME": str(home)})) + "/"
    assert named == {expected}, (named, expected)
