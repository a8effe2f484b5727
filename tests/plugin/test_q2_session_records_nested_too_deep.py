"""Q-2: a Session record (``<state-dir>/sessions/<id>.json``) nested deeper than msgspec
decodes is a damaged record, like any other record that is no record (read as none by
``status`` and the post-write hook, refused by name by the write guard, P-3: a read error never
widens access): never a ``RecursionError`` out of a hook or ``status``.

msgspec raises ``RecursionError`` (not its ``DecodeError``) for arrays nested some 1000 deep,
even in a field it skips; the record readers took only ``DecodeError``, so the post-write hook
ended with a traceback (exit 1) and the guard denied every call with "the guard failed while
judging this call (RecursionError)". Every msgspec decode goes through
:func:`memory_core.json_text.decode`.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.guard_view import UnreadableRecord, read_guard_view, record_path
from harness_memory.installers.last_session import last_session_lines
from harness_memory.records import read_record

SESSION_ID = "s-deep"
DEEP = b'{"x":' + b"[" * 200_000
"""A record whose first field, one a reader skips, nests far past msgspec's depth (200 KB)."""
DAMAGED = b"not a record"
"""A record damaged the ordinary way: the answers a deep one must get too."""


def _state(tmp_path: Path, content: bytes) -> Path:
    state = tmp_path / "state"
    path = record_path(state, SESSION_ID)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return state


def test_q2_a_record_nested_too_deep_reads_as_a_damaged_one(tmp_path: Path) -> None:
    state = _state(tmp_path, DEEP)

    assert read_record(state, SESSION_ID) is None
    with pytest.raises(UnreadableRecord, match="not a Session record"):  # the guard refuses
        read_guard_view(state, SESSION_ID)


def test_q2_status_counts_a_record_nested_too_deep_as_none(tmp_path: Path) -> None:
    state = _state(tmp_path, DEEP)
    command = f"harness-memory hook claude-code session-start --state-dir {state}"

    (line,) = last_session_lines("Claude Code", "claude-code", [command])

    assert "no Session has started with these hooks yet" in line


def _hook(tmp_path: Path, record: bytes, event: str) -> tuple[int, str]:
    """``(exit status, stdout)`` of the Claude Code hook ``event`` on a Write into the memory
    root, with ``record`` as the Session's record."""
    state = _state(tmp_path, record)
    root, work = tmp_path / "memory", tmp_path / "work"
    for folder in (root / "user", work):
        folder.mkdir(parents=True, exist_ok=True)
    target = root / "user" / "notes.md"
    target.write_text("---\nname: notes\ndescription: d\n---\nx\n", encoding="utf-8")
    hook = {
        "session_id": SESSION_ID,
        "cwd": str(work),
        "hook_event_name": "PostToolUse" if event == "post-tool-use" else "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(target), "content": "x"},
    }
    flags = ["--memory-root", str(root), "--state-dir", str(state), "--url", "http://127.0.0.1:9"]
    out = io.StringIO()
    stdin = io.BytesIO(json.dumps(hook).encode())
    done = main(["hook", "claude-code", event, *flags], environ={}, stdin=stdin, stdout=out)
    return done, out.getvalue()


@pytest.mark.parametrize("event", ["post-tool-use", "pre-tool-use"])
def test_q2_hooks_answer_a_record_nested_too_deep_as_a_damaged_one(
    tmp_path: Path, event: str
) -> None:
    deep = _hook(tmp_path / "deep", DEEP, event)
    damaged = _hook(tmp_path / "damaged", DAMAGED, event)

    assert "RecursionError" not in deep[1]
    assert deep == (damaged[0], damaged[1].replace("damaged", "deep"))
    assert deep[0] == 0
