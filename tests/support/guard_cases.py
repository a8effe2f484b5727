"""The write guard's hook as the P-3 tests drive it: a data dir laid out for it, its answer to a
tool call, the refusal's reason, and the check that a refused shell command was a real bypass.

:class:`Layout` is a data dir with agent ``coder`` (its user scope, the Session's own scope,
another Workspace's scope, a Workspace with a symlink into that one); :func:`answer` runs a
harness's pre-tool hook in this process (:func:`harness_memory.cli.main` with the hook's JSON on
stdin, as the hook command runs it); :func:`fill` puts the layout's paths into a command
written with ``{root}``, ``{other}``, ``{own}``…; :func:`assert_refused_and_bash_writes` is the
check of every "refused however spelled" case.

A case judged by every harness asks the three hooks in this process
(:func:`answers_of_every_harness`, :func:`refusals_by_every_harness`) and runs bash once
(:func:`assert_refused_by_every_harness_and_bash_writes`,
:func:`assert_allowed_by_every_harness_and_bash_writes_there`): what bash does with a command
does not depend on which harness judged it.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from memory_core import layout
from memory_core.keys import workspace_memory_key

from tests.support.hook_in_process import hook_main

SHELL = {
    "claude-code": ("pre-tool-use", "Bash"),
    "codex": ("pre-tool-use", "Bash"),
    "gemini": ("before-tool", "run_shell_command"),
}
"""Each harness's pre-tool hook event and its shell tool's name."""
MCP = {
    "claude-code": "mcp__files__write_file",
    "codex": "mcp__files__write_file",
    "gemini": "mcp_files_write_file",
}
"""Each harness's name of the ``write_file`` tool of an MCP server called ``files``."""


SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
"""The agent's ``PATH`` in the guard's cases: only the system's folders, so a name a program
prints (``$(date +%F)``) is the system program's also where the tests run as root (an agent
running as root may write into any folder before the one ``date`` is found in: P-3)."""


AGENT_SHELL = "/bin/bash"
"""The agent's ``SHELL`` in the guard's cases, whatever the runner's: programs run their
``-c``/``--filter`` command with it (``flock f -c …``, ``split --filter=…``: exit 69 where the
runner's ``SHELL`` named a shell not installed), and the guard reads ``"$SHELL"`` and a zsh
user's startup files by it; a test of another ``SHELL`` sets its own."""


class Layout:
    """A data dir with agent ``coder``: its user scope, the Session's own scope, another
    Workspace's scope (``other``), and a Workspace holding a symlink into ``other``."""

    def __init__(self, tmp_path: Path) -> None:
        self.data = tmp_path / "data"
        self.root = layout.memory_root(self.data, "coder")
        self.workspace = tmp_path / "src" / "my-app"
        self.workspace.mkdir(parents=True)
        self.own = workspace_memory_key(self.workspace)
        self.other = workspace_memory_key(tmp_path / "src" / "billing")
        for scope in ("user", self.own, self.other):
            (self.root / scope).mkdir(parents=True)
            (self.root / scope / "MEMORY.md").write_text("", encoding="utf-8")
        (self.workspace / "notes").symlink_to(self.root / self.other)
        self.state = tmp_path / "state"


def guarded_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """A :class:`Layout` under ``tmp_path`` in its environment (:func:`guarded_environment`)."""
    return guarded_environment(Layout(tmp_path), monkeypatch)


def guarded_environment(found: Layout, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """``found`` with ``HOME`` its data dir (so ``~/agents/…`` names the memory root), ``PATH``
    the system's folders (:data:`SYSTEM_PATH`), ``SHELL`` bash (:data:`AGENT_SHELL`) and
    ``UNSET_VARIABLE`` unset, for the test's duration."""
    monkeypatch.setenv("HOME", str(found.data))
    monkeypatch.setenv("PATH", SYSTEM_PATH)
    monkeypatch.setenv("SHELL", AGENT_SHELL)
    monkeypatch.delenv("UNSET_VARIABLE", raising=False)
    return found


def answer(where: Layout, harness: str, tool: str, arguments: dict[str, Any]) -> Any:
    """The decoded JSON ``harness``'s pre-tool hook prints for a call of ``tool`` with
    ``arguments`` in the Workspace (None when it prints nothing: the call is allowed)."""
    event = SHELL[harness][0]
    hook = {
        "session_id": "s-1",
        "cwd": str(where.workspace),
        "hook_event_name": "PreToolUse" if harness != "gemini" else "BeforeTool",
        "tool_name": tool,
        "tool_input": arguments,
    }
    flags = ["--memory-root", str(where.root), "--state-dir", str(where.state)]
    out = io.StringIO()
    stdin = io.BytesIO(json.dumps(hook).encode())
    assert hook_main(["hook", harness, event, *flags], stdin=stdin, stdout=out) == 0
    return json.loads(out.getvalue()) if out.getvalue() else None


def refusal(result: Any) -> str | None:
    """The reason of a hook's answer that denies (asserted to deny); None for no answer."""
    if result is None:
        return None
    if "decision" in result:
        assert result["decision"] == "deny"
        return str(result["reason"])
    specific = result["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    return str(specific["permissionDecisionReason"])


BASH_LIMIT_S = 300
"""How long one real-bash proof may run before it counts as hung (a proof takes well under a
second at rest): a hang fails its test, named, instead of holding the whole suite."""


def _bash(
    script: str, where: Layout, *, env: dict[str, str] | None = None, check: bool = True
) -> None:
    """Run ``script`` with ``bash -c`` in the Workspace (output captured), at most
    :data:`BASH_LIMIT_S` seconds; ``check``: its exit status must be 0."""
    subprocess.run(
        ["bash", "-c", script],
        cwd=where.workspace,
        env=env,
        check=check,
        capture_output=True,
        timeout=BASH_LIMIT_S,
    )


def fill(command: str, where: Layout) -> str:
    """``command`` with the layout's paths put in: ``{root}``, ``{data}``, ``{root_tail}`` (the
    root without its first ``/``), ``{other}``, ``{other_hex}`` (its first letter in hex),
    ``{other_tail}``, ``{own}``, ``{state_dir}`` (the root's parent), ``{workspace}``."""
    return command.format(
        root=where.root,
        data=where.data,
        root_tail=str(where.root)[1:],
        other=where.other,
        other_hex=where.other[0].encode().hex(),
        other_tail=where.other[1:],
        own=where.own,
        state_dir=where.root.parent,
        workspace=where.workspace,
    )


def assert_refused_and_bash_writes(where: Layout, harness: str, command: str) -> None:
    """``command`` (filled) through ``harness``'s shell tool is refused by the guard; then bash
    runs it and it really writes into the other scope: the refused form was a real bypass."""
    shell = fill(command, where)
    other = where.root / where.other

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": shell}))

    assert reason is not None, shell
    assert reason.startswith("Agent Memory write guard: ")
    before = set(other.iterdir())
    _bash(shell, where)
    assert set(other.iterdir()) - before, f"bash wrote nothing into the other scope: {shell}"


def answers_of_every_harness(where: Layout, shell: str) -> dict[str, Any]:
    """Each harness's (:data:`SHELL`) :func:`answer` to ``shell`` (already filled) through its
    shell tool, by harness name. The hook only reads (the Session's record, the disk), so
    asking the three in turn is asking each on the same disk."""
    return {
        harness: answer(where, harness, tool, {"command": shell})
        for harness, (_, tool) in SHELL.items()
    }


def refusals_by_every_harness(where: Layout, shell: str) -> dict[str, str | None]:
    """Each harness's :func:`refusal` of ``shell`` (already filled) through its shell tool,
    by harness name (None where it let the command through)."""
    return {
        harness: refusal(result)
        for harness, result in answers_of_every_harness(where, shell).items()
    }


def assert_each_refused_by_every_harness(where: Layout, commands: list[str], *sayings: str) -> None:
    """Every one of ``commands`` (already filled) is refused by each harness, each refusal
    holding every text of ``sayings``; the commands let through are named when one is."""
    refused = {command: refusals_by_every_harness(where, command) for command in commands}
    let_through = {command: seen for command, seen in refused.items() if None in seen.values()}
    assert let_through == {}
    for seen in refused.values():
        for reason in seen.values():
            for saying in sayings:
                assert saying in str(reason), reason


def assert_refused_by_every_harness_and_bash_writes(where: Layout, command: str) -> None:
    """``command`` (filled) through each harness's shell tool (:data:`SHELL`) is refused by the
    guard; then bash runs it once and it really writes into the other scope. What bash does
    does not depend on the harness that judged the command: one run proves the bypass for all
    three verdicts (one per harness was three runs of the same programs)."""
    shell = fill(command, where)
    for harness, reason in refusals_by_every_harness(where, shell).items():
        assert reason is not None, (harness, shell)
        assert reason.startswith("Agent Memory write guard: "), (harness, reason)
    other = where.root / where.other
    before = set(other.iterdir())
    _bash(shell, where)
    assert set(other.iterdir()) - before, f"bash wrote nothing into the other scope: {shell}"


def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every entry below ``folder`` by its relative path, a file's bytes (None for others)."""
    return {
        str(path.relative_to(folder)): (
            path.read_bytes() if path.is_file() and not path.is_symlink() else None
        )
        for path in folder.rglob("*")
    }


def assert_allowed_and_bash_writes_there(
    where: Layout, harness: str, command: str, place: str
) -> None:
    """``command`` (filled) through ``harness``'s shell tool passes the guard; then bash runs it,
    it makes ``place`` (filled; relative to the Workspace) and leaves the other scope as it
    was: the guard let through only a write that lands where it said."""
    shell = fill(command, where)
    other = where.root / where.other
    made = where.workspace / fill(place, where)

    assert answer(where, harness, SHELL[harness][1], {"command": shell}) is None, shell
    before = _tree(other)
    _bash(shell, where)
    assert made.exists(), f"bash did not write {made}: {shell}"
    assert _tree(other) == before, f"bash changed the other scope: {shell}"


def assert_allowed_by_every_harness_and_bash_writes_there(
    where: Layout, command: str, place: str
) -> None:
    """``command`` (filled) through each harness's shell tool (:data:`SHELL`) passes the guard;
    then bash runs it once, it makes ``place`` (filled; relative to the Workspace) and leaves
    the other scope as it was. What bash does does not depend on the harness that judged the
    command: one run shows where the write lands for all three verdicts."""
    shell = fill(command, where)
    other = where.root / where.other
    made = where.workspace / fill(place, where)

    answers = answers_of_every_harness(where, shell)

    assert answers == dict.fromkeys(SHELL), (shell, answers)
    before = _tree(other)
    _bash(shell, where)
    assert made.exists(), f"bash did not write {made}: {shell}"
    assert _tree(other) == before, f"bash changed the other scope: {shell}"


def let_through(where: Layout, commands: list[str]) -> dict[str, str]:
    """Each of ``commands`` (not filled) that some harness's guard allows, with that harness
    (the last one allowing it); empty when every harness refuses every command."""
    return {
        command: harness
        for command in commands
        for harness, reason in refusals_by_every_harness(where, command).items()
        if reason is None
    }


def refused_before_new_writes(
    where: Layout, codes: list[str], *, mode: str = ">>"
) -> dict[str, Any]:
    """Each of ``codes`` (not filled), followed on its next line by a write into a folder it
    makes (``mkdir -p out && echo x > out/a.txt``) and by one into a new topic file in the
    Session's own scope (``echo x`` with ``mode``, ``>`` or ``>>``), that some harness refuses,
    with every harness's answer; empty when every harness lets every one through."""
    then = [
        "mkdir -p out && echo x > out/a.txt",
        fill(f"echo x {mode} {{root}}/{{own}}/new.md", where),
    ]
    commands = [f"{code}\n{write}" for code in codes for write in then]
    answers = {command: answers_of_every_harness(where, command) for command in commands}
    return {command: seen for command, seen in answers.items() if seen != dict.fromkeys(SHELL)}


def bash_writes_through_lnk(
    where: Layout, commands: list[str], *, env: dict[str, str] | None = None, check: bool = False
) -> set[str]:
    """The names one bash process writes into the other scope running ``commands`` in the
    Workspace, each in a subshell of its own writing ``lnk/<its index>.md`` (for ``lnk/a.md``)
    through the link it makes, which is removed after it. ``env``: bash's environment (this
    process's when None); ``check``: bash's exit status must be 0."""
    script = "\n".join(
        f"( {command.replace('lnk/a.md', f'lnk/{at}.md')} ) </dev/null; rm -f lnk"
        for at, command in enumerate(commands)
    )
    _bash(script, where, env=env, check=check)
    return {path.name for path in (where.root / where.other).iterdir()}


def refused_by_some_harness(where: Layout, commands: list[str]) -> dict[str, dict[str, str]]:
    """Each of ``commands`` (not filled) that some harness's guard refuses, with each refusing
    harness's reason; empty when every harness lets every command through."""
    refused = {command: refusals_by_every_harness(where, command) for command in commands}
    return {
        command: {harness: reason for harness, reason in seen.items() if reason is not None}
        for command, seen in refused.items()
        if any(seen.values())
    }
