"""P-3 with the real Claude Code, Codex and Gemini CLIs: the measured bypasses stay shut.

The hooks are installed with ``harness-memory install``; the model stand-in asks the CLI's own
shell tool (Codex ``exec_command``, Gemini ``run_shell_command``) to write into another
Workspace's scope the ways that got through before — ``…/./…``, ``…//memory/…``, a glob, a
brace, a symlink in the Workspace, bash's ``$'…'``, a command inside ``bash -c '…'``, an
option glued to its path (``cp -t…``), a place built wholly at run time from a file naming the
other scope (``> "$(cat target)"/…``, ``d=$(cat target); cp … "$d/…"``) — in Claude Code
through ``Bash`` and an MCP write tool (``mcp__files__write_file``, a small stdio MCP server),
and, in Codex, to type a write into a running terminal (``write_stdin``, which Codex never
shows its PreToolUse hook: the install switches terminals off). Every attempt is refused and
nothing lands; a write into the Session's own scope through the same shell still does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.claude_code_session import (
    offers_write,
    result_text,
    run_claude,
    serve_model,
    session_turns,
    tool_results,
)
from tests.plugin.fake_anthropic import Block
from tests.plugin.fake_model_apis import Json, Turn
from tests.plugin.harness_run import (
    install,
    other_scope,
    run_codex,
    run_gemini,
    workspace_with_key,
)
from tests.plugin.real_service import RealService
from tests.support.codex_turns import apply_patch, function_call, outputs, type_into_the_terminal

pytestmark = pytest.mark.e2e

BYPASSES = [
    "echo x > {root}/./{other}/dot.md",
    "echo x > {state}//memory/{other}/slash.md",
    "cp /etc/hostname {root}/anoth*/",
    "touch {root}/{{user,{other}}}/brace.md",
    "echo x > notes/link.md",
    "echo x > $'{root}/{other}/ansi-c.md'",
    "bash -c 'echo x > {root}/{other}/inner.md'",
    "cp -t{root}/{other} /etc/hostname",
    'echo x > "$(cat target)"/run-time.md',
    'd=$(cat target); cp /etc/hostname "$d/run-time-copy.md"',
    # a program the guard cannot read, given the other scope's path in pieces
    'python3 -c \'p = "{root_tail}"; open("/" + p + "/{other}/py.md", "w").write("x")\'',
    # a program the guard reads writing into its folder, entered at run time
    'cd "$(cat target)" && curl -s -O file:///etc/hostname',
]
OWN = "echo kept > {root}/{own}/shell-note.md"


def commands(memory_root: Path, other: Path, own: str) -> list[str]:
    values = {
        "root": memory_root,
        "root_tail": str(memory_root)[1:],
        "state": memory_root.parent,
        "other": other.name,
        "own": own,
    }
    return [c.format(**values) for c in [*BYPASSES, OWN]]


def landed(other: Path) -> list[str]:
    return sorted(p.name for p in other.iterdir() if p.name != "MEMORY.md")


PATCH_HEADERS = {
    "spaces": "*** Begin Patch\n   *** Add File: {other}/spaces.md\n+x\n*** End Patch\n",
    "tab": "*** Begin Patch\n\t*** Add File: {other}/tab.md\n+x\n*** End Patch\n",
    "delete": "*** Begin Patch\n  *** Delete File: {other}/MEMORY.md\n*** End Patch\n",
}
"""Codex trims every hunk header before it reads the path (``parse_one_hunk``), so an indented
``*** Add File:`` or ``*** Delete File:`` still writes; the guard reads the patch the same way."""

FED_PATCH = "*** Begin Patch\n*** Add File: {name}\n+x\n*** End Patch\n"
FED_PATCHES = [
    "apply_patch < own-hidden.diff",
    "cat own-hidden.diff | apply_patch",
    "cd {scope} && sed -n p {workspace}/hidden.diff | apply_patch",
    "apply_patch < note.diff",
]
"""``exec_command`` running the ``apply_patch`` program (the one Codex puts on the shell's
``PATH`` with a real ``CODEX_HOME``; under the test's temporary one Codex makes no such alias,
so the shell answers "command not found") fed a patch file on its standard input: the first
three add a name the service cannot address (K-7) to the Session's own scope, by ``<``, by
``cat`` into a pipe, or fed through a pipe from the scope's folder; the last a Workspace file."""


async def test_p3_codex_shell_bypasses_patches_and_typing_into_a_terminal_are_refused(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """One Codex Session (one CLI start for every check): the shell bypasses are refused and
    the write into the Session's own scope lands; :data:`PATCH_HEADERS` through
    ``apply_patch`` are refused, nothing lands in another Workspace's scope and its index
    stays; :data:`FED_PATCHES`' first three are refused by the hook and nothing lands, the
    fourth passes it; a terminal cannot be opened to type a write into."""
    workspace, own = workspace_with_key(tmp_path)
    other = other_scope(shared_memory_root, tmp_path)
    index = (other / "MEMORY.md").read_text(encoding="utf-8")
    scope = shared_memory_root / own
    (workspace / "notes").symlink_to(other)
    (workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    fed = {
        "own-hidden.diff": f"{scope}/.hidden.md",
        "hidden.diff": ".hidden.md",
        "note.diff": "src/note.txt",
    }
    for name, added in fed.items():
        (workspace / name).write_text(FED_PATCH.format(name=added), encoding="utf-8")
    shell = commands(shared_memory_root, other, own)
    turns: list[Turn] = [
        [function_call(f"c{n}", "exec_command", {"cmd": c})] for n, c in enumerate(shell)
    ]
    patches = {name: patch.format(other=other) for name, patch in PATCH_HEADERS.items()}
    turns += [[apply_patch(name, patch)] for name, patch in patches.items()]
    feeding = [c.format(scope=scope, workspace=workspace) for c in FED_PATCHES]
    turns += [[function_call(f"f{n}", "exec_command", {"cmd": c})] for n, c in enumerate(feeding)]
    typed = f"echo typed > {other}/typed.md\nexit\n"
    turns.append([function_call("tty", "exec_command", {"cmd": "bash", "tty": True})])
    turns.append([function_call("pipe", "exec_command", {"cmd": "bash", "yield_time_ms": 500})])
    turns.append(type_into_the_terminal(typed))
    fake, status, _, err = await run_codex(
        turns, shared_service, shared_memory_root, workspace, tmp_path, agent=new_agent
    )
    assert status == 0, err[-3000:]
    said = outputs(fake.requests[-1])
    for number in range(len(BYPASSES)):
        assert "Agent Memory write guard" in said[f"c{number}"], said[f"c{number}"]
    patched = outputs(fake.requests[-1], "custom_tool_call_output")
    for name in patches:
        assert "Agent Memory write guard" in patched[name], (name, patched[name])
    for number in range(3):
        assert "Agent Memory write guard" in said[f"f{number}"], said[f"f{number}"]
    assert "Agent Memory write guard" not in said["f3"], said["f3"]
    assert "blocked by PreToolUse hook" not in said["f3"], said["f3"]
    assert "TTY execution is disabled" in said["tty"]
    assert "stdin is closed" in said["stdin"] or "Unknown process" in said["stdin"]
    assert landed(other) == []
    assert (other / "MEMORY.md").read_text(encoding="utf-8") == index
    assert not (scope / ".hidden.md").exists()
    assert (scope / "shell-note.md").read_text(encoding="utf-8") == "kept\n"


def gemini_call(command: str) -> Json:
    return {"functionCall": {"name": "run_shell_command", "args": {"command": command}}}


def _repositories(workspace: Path, other: Path) -> None:
    """The Workspace a git repository with a folder ``src``, and in it a repository
    ``vendored`` whose ``core.worktree`` points into ``other``."""
    (workspace / "src").mkdir()
    (workspace / "vendored").mkdir()
    for folder in (workspace, workspace / "vendored"):
        subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    subprocess.run(
        ["git", "config", "core.worktree", str(other)], cwd=workspace / "vendored", check=True
    )


async def test_p3_gemini_shell_bypasses_are_refused(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """One Gemini CLI (0.61.0) Session in a Workspace that is a git repository (a folder
    ``src``, and a repository ``vendored`` whose ``core.worktree`` points into another scope):

    - the shell bypasses are refused (``python3 -c`` given the other scope's path in pieces
      as a program whose writes the guard cannot read) and the write into the Session's own
      scope lands;
    - ``run_shell_command`` with ``dir_path`` runs the command in that folder: one into another
      Workspace's scope is refused; one into the Session's own scope lands;
    - ``cd "$(git rev-parse --show-toplevel)"`` in a ``dir_path`` of the Workspace's repository
      passes the guard (Gemini CLI itself then blocks any command substitution: measured, so
      the guard's reading matters only where it runs one); in ``vendored`` the guard refuses it.

    Nothing lands in the other scope."""
    workspace, own = workspace_with_key(tmp_path)
    other = other_scope(shared_memory_root, tmp_path)
    _repositories(workspace, other)
    (workspace / "notes").symlink_to(other)
    (workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    shell = commands(shared_memory_root, other, own)
    top = 'cd "$(git rev-parse --show-toplevel)" && echo {text} > {name}'
    in_folders = [
        {"command": "echo x > in-dir.md", "dir_path": str(other)},
        {"command": "echo kept > own-dir.md", "dir_path": str(shared_memory_root / own)},
        {"command": top.format(text="top", name="top.md"), "dir_path": str(workspace / "src")},
        {"command": top.format(text="x", name="a.md"), "dir_path": str(workspace / "vendored")},
    ]
    turns: list[Turn] = [[gemini_call(c)] for c in shell]
    turns += [[{"functionCall": {"name": "run_shell_command", "args": a}}] for a in in_folders]
    fake, status, _, err = await run_gemini(
        turns, shared_service, shared_memory_root, workspace, tmp_path, agent=new_agent
    )
    assert status == 0, err[-3000:]
    replies = [
        json.dumps(part)
        for content in fake.requests[-1].get("contents", [])
        for part in content.get("parts", [])
        if "functionResponse" in part
    ]
    assert len(replies) == len(shell) + len(in_folders), replies
    for reply in replies[: len(BYPASSES)]:
        assert "Agent Memory write guard" in reply, reply
    pieces = next(n for n, c in enumerate(BYPASSES) if c.startswith("python3 -c"))
    assert "a program whose writes the guard cannot read" in replies[pieces], replies[pieces]
    in_dir, _, in_repository, in_vendored = replies[len(shell) :]
    assert "Agent Memory write guard" in in_dir, in_dir
    assert "Agent Memory write guard" not in in_repository, in_repository
    assert "command substitution" in in_repository, in_repository  # Gemini CLI's own refusal
    assert "Agent Memory write guard" in in_vendored and other.name in in_vendored, in_vendored
    assert landed(other) == []
    assert (shared_memory_root / own / "shell-note.md").read_text(encoding="utf-8") == "kept\n"
    assert (shared_memory_root / own / "own-dir.md").read_text(encoding="utf-8") == "kept\n"


async def test_p3_claude_code_bash_and_mcp_bypasses_are_refused(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
) -> None:
    workspace, own = workspace_with_key(tmp_path)
    other = other_scope(shared_memory_root, tmp_path)
    (workspace / "notes").symlink_to(other)
    (workspace / "target").write_text(f"{other}\n", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    install("claude-code", home, shared_service, shared_memory_root, agent=new_agent)
    calls: list[Block] = [
        {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": c}}
        for n, c in enumerate(commands(shared_memory_root, other, own)[: len(BYPASSES)])
    ]
    written = {"path": f"{shared_memory_root}/./{other.name}/mcp.md", "content": "x"}
    calls.append(
        {"type": "tool_use", "id": "toolu_mcp", "name": "mcp__files__write_file", "input": written}
    )

    def script(body: dict[str, Any]) -> tuple[list[Block], str]:
        if not offers_write(body):
            return [{"type": "text", "text": "ok"}], "end_turn"
        step = len(tool_results(body))
        if step < len(calls):
            return [calls[step]], "tool_use"
        return [{"type": "text", "text": "Done."}], "end_turn"

    server = {
        "command": sys.executable,
        "args": [str(Path(__file__).with_name("mcp_files_server.py"))],
    }
    mcp = json.dumps({"mcpServers": {"files": server}})
    async with serve_model(script) as (fake, model_url):
        status, out, err = await run_claude(
            claude,
            workspace,
            home,
            model_url,
            service_url=shared_service.url,
            extra=("--mcp-config", mcp, "--allowedTools", "mcp__files__write_file"),
        )
    assert status == 0, f"{out}\n{err}"
    results = {b["tool_use_id"]: result_text(b) for b in tool_results(session_turns(fake)[-1])}
    assert set(results) == {call["id"] for call in calls}, results
    for call in calls:
        assert "Agent Memory write guard" in results[call["id"]], (call, results[call["id"]])
    assert landed(other) == []


MISSING = ("--executable", "/nonexistent/bin/harness-memory", "--no-check")
GUARD_GONE = "the write guard did not run"


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
async def test_p3_a_missing_hook_command_refuses_writes_instead_of_losing_the_guard(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    harness: str,
) -> None:
    """The checkout the hooks ran from is gone: the guard fails closed, in every harness."""
    workspace, own = workspace_with_key(tmp_path)
    target = shared_memory_root / own / "would-be-allowed.md"
    if harness == "codex":
        call = function_call("c0", "exec_command", {"cmd": f"echo x > {target}"})
        fake, status, _, err = await run_codex(
            [[call]],
            shared_service,
            shared_memory_root,
            workspace,
            tmp_path,
            install_flags=MISSING,
            agent=new_agent,
        )
        said = outputs(fake.requests[-1])["c0"]
    elif harness == "gemini":
        gemini, status, _, err = await run_gemini(
            [[gemini_call(f"echo x > {target}")]],
            shared_service,
            shared_memory_root,
            workspace,
            tmp_path,
            install_flags=MISSING,
            agent=new_agent,
        )
        said = json.dumps(gemini.requests[-1]["contents"][-1])
    else:
        home = tmp_path / "home"
        home.mkdir()
        install("claude-code", home, shared_service, shared_memory_root, *MISSING, agent=new_agent)
        write = {"file_path": str(target), "content": "x\n"}
        call_block: Block = {"type": "tool_use", "id": "toolu_w", "name": "Write", "input": write}

        def script(body: dict[str, Any]) -> tuple[list[Block], str]:
            if offers_write(body) and not tool_results(body):
                return [call_block], "tool_use"
            return [{"type": "text", "text": "Done."}], "end_turn"

        async with serve_model(script) as (claude_fake, model_url):
            status, _, err = await run_claude(
                claude, workspace, home, model_url, service_url=shared_service.url
            )
        said = result_text(tool_results(session_turns(claude_fake)[-1])[0])
    assert status == 0, err[-3000:]
    assert GUARD_GONE in said, said
    assert not target.exists()
