"""H-1 with the real Claude Code CLI: every index line the caps keep reaches the model inline.

Claude Code shows the model at most 10,000 characters of one hook entry's ``additionalContext``
and swaps a longer one for a file path and a 2 KB preview (the failing case kept in
``tests/data/cases/claude-code-context-limit``). With user and Workspace indexes at the caps
(I-4: the user index past the 200-line cap, the Workspace index past the 25,000-character
backstop, non-ASCII and astral characters included), the README's SessionStart entries carry
every kept line, both notes and the key line to the model, with no preview. With a single entry
the prompt cannot fit: the cut is at a line boundary with the I-4 note naming Claude Code's
limit, the key line still arrives, and the user is told by a ``systemMessage``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harness_memory.hooks.claude_code import RECOMMENDED_PARTS
from memory_core.injection import CappedIndex, cap_indexes
from memory_core.keys import workspace_memory_key

from tests.plugin.claude_code_session import run_claude, serve_model, write_settings
from tests.plugin.fake_anthropic import Block
from tests.plugin.real_service import RealService

pytestmark = pytest.mark.e2e

PREVIEW_MARKERS = ("<persisted-output>", "Output too large", "Preview (first")


def user_index() -> str:
    """230 lines (~60 characters each): the 200-line cap fires."""
    lines = [
        f"- [Pref {n:03d}](pref-{n:03d}.md) — café rule {n:03d} 😀, keep it short"
        for n in range(230)
    ]
    return "\n".join(lines) + "\n"


def workspace_index() -> str:
    """200 lines (~75 characters each): the 25,000-character backstop fires on this one."""
    lines = [
        f"- [Decision {n:03d}](decision-{n:03d}.md) — naïve retry policy #{n:03d} for the "
        "billing queue"
        for n in range(200)
    ]
    return "\n".join(lines) + "\n"


def seed(root: Path, workspace: Path) -> tuple[str, list[CappedIndex]]:
    """Write both indexes; return the Workspace key and what the caps keep (I-4)."""
    key = workspace_memory_key(workspace)
    (root / "user" / "MEMORY.md").write_text(user_index(), encoding="utf-8")
    (root / key).mkdir(parents=True, exist_ok=True)
    (root / key / "MEMORY.md").write_text(workspace_index(), encoding="utf-8")
    return key, cap_indexes(user_index(), workspace_index(), workspace_key=key)


def request_text(body: dict[str, Any]) -> str:
    """Every text the model request carries: system blocks and message text blocks."""
    texts: list[str] = []
    system = body.get("system")
    blocks: list[Any] = system if isinstance(system, list) else [{"text": system or ""}]
    for message in body.get("messages", []):
        content = message.get("content")
        blocks += content if isinstance(content, list) else [{"text": content or ""}]
    texts += [block.get("text", "") for block in blocks if isinstance(block, dict)]
    return "\n".join(texts)


def answer(body: dict[str, Any]) -> tuple[list[Block], str]:
    return [{"type": "text", "text": "Noted."}], "end_turn"


async def start(
    claude: Path, service: RealService, root: Path, tmp_path: Path, parts: int
) -> tuple[str, list[CappedIndex], str, str]:
    """Run one Session with ``parts`` SessionStart entries: key, caps, model text, CLI stdout."""
    workspace = tmp_path / "src" / "billing"
    workspace.mkdir(parents=True)
    # The service makes the Workspace scope and its marker at a Session start.
    status, _, body = service.request(
        "POST",
        "/api/projects/acme/agents/coder/memory/session-start",
        {"workspace": str(workspace)},
    )
    assert status == 200, body
    key, capped = seed(root, workspace)
    home = tmp_path / "home"
    write_settings(home, service, parts=parts)
    async with serve_model(answer) as (fake, model_url):
        code, out, err = await run_claude(
            claude,
            workspace,
            home,
            model_url,
            service_url=service.url,
            prompt="hi",
            output_format="stream-json",
        )
    assert code == 0, f"claude failed:\n{out[-3000:]}\n{err[-3000:]}"
    [first, *_] = [body for body in fake.message_requests() if body.get("tools")]
    return key, capped, request_text(first), out


async def test_h1_every_kept_line_and_the_key_line_reach_the_model_inline(
    claude: Path, real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    key, capped, seen, _ = await start(
        claude, real_service, memory_root, tmp_path, RECOMMENDED_PARTS
    )
    user, workspace = capped
    assert user.manifest.cap_fired == "lines"
    assert workspace.manifest.cap_fired == "chars"
    assert user.manifest.lines_kept + workspace.manifest.lines_kept > 350
    for scope in capped:
        missing = [line for line in scope.lines_text.split("\n") if line not in seen]
        assert not missing, f"{scope.scope}: {len(missing)} kept lines missing, e.g. {missing[0]}"
        assert scope.note_text.strip() in seen  # the I-4 note exactly as the service wrote it
    assert f"- Workspace Memory Key: {key}\n" in seen
    assert not [marker for marker in PREVIEW_MARKERS if marker in seen]
    assert "limit of 10,000 characters" not in seen


async def test_h1_a_single_entry_cuts_at_a_line_with_the_note_and_tells_the_user(
    claude: Path, real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    key, capped, seen, out = await start(claude, real_service, memory_root, tmp_path, 1)
    assert f"- Workspace Memory Key: {key}\n" in seen
    assert not [marker for marker in PREVIEW_MARKERS if marker in seen]
    kept = {
        scope.scope: [line for line in scope.lines_text.split("\n") if line in seen]
        for scope in capped
    }
    for scope in capped:
        lines = scope.lines_text.split("\n")
        assert kept[scope.scope] == lines[: len(kept[scope.scope])]  # a prefix: cut at a line
        left_out = scope.manifest.lines_total - len(kept[scope.scope])
        assert (
            f"shows {len(kept[scope.scope])} of {scope.manifest.lines_total} lines; "
            f"{left_out} lines were left out"
        ) in seen
    assert "Claude Code's limit of 10,000 characters per SessionStart hook" in seen
    events = [json.loads(line) for line in out.splitlines() if line.strip()]
    told = json.dumps(events, ensure_ascii=False)
    assert "Agent Memory: Claude Code shows at most 10,000 characters" in told
