"""P-3: a folder whose name is not UTF-8 (``b"\\xff"``) opens no way into another scope.

The kernel names folders by bytes; Python reads such a name as a lone surrogate
(:func:`os.fsdecode`: ``"\\udcff"``), a harness may pass it in its hook's ``cwd`` as an escaped
surrogate, as the raw byte, or altered (Node's ``process.cwd()`` and Rust's ``to_string_lossy``
put U+FFFD in its place, which names another folder, or none). Whatever the form, a relative
write from such a working folder that is a symlink into another Workspace's scope is refused,
for each harness's file tool and shell tool; an altered one that is not this process's working
folder (which the harness starts the hook in) is refused as unknown, never judged as another
folder; and a write into a plain non-UTF-8 folder outside the memory root stays allowed.
(The raw byte once made the hook's input unreadable, and U+FFFD a folder that does not exist:
both answered nothing, which the harness takes as allowed.)
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from harness_memory.cli import main
from harness_memory.guard_view import record_path

from tests.support.guard_cases import MCP, SHELL, Layout, guarded_layout, refusal

WRITE_TOOLS = {"claude-code": "Write", "codex": "apply_patch", "gemini": "write_file"}
"""Each harness's file tool."""


def tool_call(harness: str, kind: str, name: str) -> tuple[str, dict[str, Any]]:
    """The tool and its arguments that write ``name`` (relative) with ``harness``'s file tool
    (``kind`` ``file``) or shell tool (``shell``)."""
    if kind == "shell":
        return SHELL[harness][1], {"command": f"echo hi > {name}"}
    if harness == "codex":
        patch = f"*** Begin Patch\n*** Add File: {name}\n+hi\n*** End Patch\n"
        return "apply_patch", {"command": patch}
    return WRITE_TOOLS[harness], {"file_path": name, "content": "hi"}


def cwd_json(folder: bytes, form: str) -> bytes:
    """``folder`` as a JSON string the way a harness may pass it: ``escaped`` (a lone surrogate
    escaped, as Python writes it), ``raw`` (the byte itself) or ``altered`` (U+FFFD)."""
    if form == "raw":
        return b'"' + folder + b'"'
    text = os.fsdecode(folder)
    if form == "altered":
        text = folder.decode("utf-8", "replace")
    return json.dumps(text).encode()


def answer_in(where: Layout, harness: str, cwd: bytes, tool: str, arguments: Any) -> Any:
    """``harness``'s pre-tool hook's decoded answer for ``tool`` with ``arguments``, its stdin
    JSON carrying ``cwd`` (already a JSON string) as is."""
    event = SHELL[harness][0]
    fields = {
        "session_id": "s-1",
        "hook_event_name": "PreToolUse" if harness != "gemini" else "BeforeTool",
        "tool_name": tool,
        "tool_input": arguments,
    }
    stdin = json.dumps(fields).encode()[:-1] + b', "cwd": ' + cwd + b"}"
    flags = ["--memory-root", str(where.root), "--state-dir", str(where.state)]
    out = io.StringIO()
    status = main(["hook", harness, event, *flags], environ={}, stdin=io.BytesIO(stdin), stdout=out)
    assert status == 0
    return json.loads(out.getvalue()) if out.getvalue() else None


def linked_folder(where: Layout) -> bytes:
    """A folder named ``b"\\xff"`` beside the Workspace: a symlink into the other scope."""
    folder = os.fsencode(where.workspace.parent) + b"/\xff"
    Path(os.fsdecode(folder)).symlink_to(where.root / where.other)
    return folder


@pytest.mark.parametrize("kind", ["file", "shell"])
@pytest.mark.parametrize("form", ["escaped", "raw", "altered"])
def test_p3_a_relative_write_from_a_non_utf8_folder_into_another_scope_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, form: str
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    folder = linked_folder(where)

    for harness in SHELL:
        tool, arguments = tool_call(harness, kind, "new.md")
        reason = refusal(answer_in(where, harness, cwd_json(folder, form), tool, arguments))
        assert reason is not None, harness
        assert where.other in reason or "cannot be known" in reason, (harness, reason)
    subprocess.run(["bash", "-c", "echo hi > new.md"], cwd=folder, check=True)
    assert (where.root / where.other / "new.md").exists()  # the refused write was a real bypass


@pytest.mark.parametrize("harness", sorted(SHELL))
@pytest.mark.parametrize("kind", ["file", "shell"])
def test_p3_an_altered_name_of_the_hooks_own_folder_is_judged_where_it_lands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, kind: str
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    folder = os.fsencode(where.root / where.other) + b"/\xff"  # a real folder in that scope
    Path(os.fsdecode(folder)).mkdir()
    monkeypatch.chdir(os.fsdecode(folder))  # the harness starts its hook in its own working folder
    tool, arguments = tool_call(harness, kind, "new.md")

    reason = refusal(answer_in(where, harness, cwd_json(folder, "altered"), tool, arguments))

    assert reason is not None
    assert f"{where.other} is another Workspace's memory scope" in reason


@pytest.mark.parametrize("harness", sorted(SHELL))
@pytest.mark.parametrize("kind", ["file", "shell"])
@pytest.mark.parametrize("form", ["escaped", "raw"])
def test_p3_a_write_in_a_plain_non_utf8_folder_stays_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str, kind: str, form: str
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    folder = os.fsencode(where.workspace) + b"/caf\xe9"
    Path(os.fsdecode(folder)).mkdir()
    tool, arguments = tool_call(harness, kind, "notes.md")

    assert answer_in(where, harness, cwd_json(folder, form), tool, arguments) is None


def test_p3_cd_into_a_non_utf8_symlink_to_another_scope_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = guarded_layout(tmp_path, monkeypatch)
    folder = linked_folder(where)
    command = "cd $'\\xff' && echo hi > new.md"
    parent = os.fsencode(where.workspace.parent)

    for harness, (_, shell) in SHELL.items():
        reason = refusal(
            answer_in(where, harness, cwd_json(parent, "escaped"), shell, {"command": command})
        )
        assert reason is not None, harness
    subprocess.run(["bash", "-c", command], cwd=parent, check=True)
    assert (Path(os.fsdecode(folder)) / "new.md").exists()


@pytest.mark.parametrize("harness", sorted(SHELL))
def test_p3_a_tool_call_the_guard_cannot_read_is_denied_not_let_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str
) -> None:
    """A write tool's argument nested past the JSON parser's depth once made the whole hook
    input unreadable: answered with nothing, the harness ran the write into another scope."""
    where = guarded_layout(tmp_path, monkeypatch)
    target = json.dumps(str(where.root / where.other / "a.md")).encode()
    arguments = b'{"path": ' + target + b', "content": "x", "junk": ' + b"[" * 5000 + b"]" * 5000
    tool = json.dumps(MCP[harness]).encode()
    stdin = b'{"session_id": "s-1", "tool_name": ' + tool + b', "tool_input": ' + arguments + b"}}"
    flags = ["--memory-root", str(where.root), "--state-dir", str(where.state)]
    out = io.StringIO()

    status = main(
        ["hook", harness, SHELL[harness][0], *flags],
        environ={},
        stdin=io.BytesIO(stdin),
        stdout=out,
    )

    assert status == 0
    reason = refusal(json.loads(out.getvalue()))
    assert reason is not None
    assert "could not be read" in reason


def _recorded_session(where: Layout) -> None:
    """The Session ``s-1``'s record in the state dir, as its Session-start hook writes it: the
    memory root the service reported, its Workspace and key."""
    record = {
        "workspace": str(where.workspace),
        "key": where.own,
        "directories": {"memoryRoot": str(where.root)},
    }
    path = record_path(where.state, "s-1")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(record), encoding="utf-8")


@pytest.mark.parametrize("harness", sorted(SHELL))
def test_p3_a_tool_call_the_guard_cannot_read_is_denied_with_only_a_state_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, harness: str
) -> None:
    """With no ``--memory-root``, the memory root is known from the Session records in the
    state dir; an unreadable call was answered with nothing (let through) there. A real
    harness sends such input: Claude Code and Gemini CLI serialize a model's tool arguments
    with Node's ``JSON.stringify`` (Node 20 here: 4,174 levels deep), the hook's parser stops
    below 1,000 (Python's recursion limit)."""
    where = guarded_layout(tmp_path, monkeypatch)
    _recorded_session(where)
    target = json.dumps(str(where.root / where.other / "a.md")).encode()
    arguments = b'{"path": ' + target + b', "content": "x", "junk": ' + b"[" * 2000 + b"]" * 2000
    tool = json.dumps(MCP[harness]).encode()
    stdin = b'{"session_id": "s-1", "tool_name": ' + tool + b', "tool_input": ' + arguments + b"}}"
    out = io.StringIO()

    status = main(
        ["hook", harness, SHELL[harness][0], "--state-dir", str(where.state)],
        environ={},
        stdin=io.BytesIO(stdin),
        stdout=out,
    )

    assert status == 0
    reason = refusal(json.loads(out.getvalue()))
    assert reason is not None and "could not be read" in reason
