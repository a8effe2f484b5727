"""What the Codex CLI end-to-end tests script and read back: the Responses API items a model
stand-in answers with (a shell call, an ``apply_patch``, typing into a running terminal), the
outputs Codex sends back for them, the text the model was given, and an administrator's
``/etc/codex/requirements.toml`` laid over ``/etc`` for one run.

Shared by the Codex e2e tests (``tests/plugin/test_e2e_*``), which run the real CLI against the
stand-in of :mod:`tests.plugin.fake_model_apis`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

Json = dict[str, Any]


def function_call(call_id: str, name: str, arguments: dict[str, Any]) -> Json:
    """A ``function_call`` item: Codex runs its tool ``name`` (``exec_command``,
    ``write_stdin``…) with ``arguments``."""
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": name,
        "arguments": json.dumps(arguments),
    }


def apply_patch(call_id: str, patch: str) -> Json:
    """A ``custom_tool_call`` item of Codex's ``apply_patch`` with the patch text ``patch``."""
    return {"type": "custom_tool_call", "call_id": call_id, "name": "apply_patch", "input": patch}


def add_file(call_id: str, path: Path, body: str) -> Json:
    """:func:`apply_patch` adding the file ``path`` holding ``body`` (its lines)."""
    added = "".join(f"+{line}\n" for line in body.splitlines())
    return apply_patch(call_id, f"*** Begin Patch\n*** Add File: {path}\n{added}*** End Patch\n")


def outputs(body: Json, kind: str = "function_call_output") -> dict[str, str]:
    """The outputs of a request's items of type ``kind`` by call id, each as JSON text."""
    return {
        item["call_id"]: json.dumps(item.get("output"))
        for item in body.get("input", [])
        if item.get("type") == kind
    }


def call_output(body: Json, call_id: str) -> str:
    """The output (JSON text) of the call ``call_id`` in a request, of whatever kind; raises
    AssertionError when the request has none."""
    for item in body.get("input", []):
        if item.get("call_id") == call_id and item.get("type", "").endswith("_output"):
            return json.dumps(item.get("output"))
    raise AssertionError(f"no output of {call_id} in the request")


def developer_and_user_text(body: Json) -> str:
    """The text of a request's messages (developer and user instructions, what hooks added)."""
    return "\n".join(
        part.get("text", "")
        for item in body.get("input", [])
        if item.get("type") == "message"
        for part in item.get("content", [])
    )


def type_into_the_terminal(typed: str) -> Callable[[Json], list[Json]]:
    """A turn that types ``typed`` (``write_stdin``) into the terminal session an earlier
    ``exec_command`` started, the session id read from Codex's output (1 if none is said).
    Codex answers once the session's process ends (``typed`` ending in ``exit``), a refusal
    at once; 30 s is only its bound."""

    def turn(body: Json) -> list[Json]:
        started = re.search(r"session ID (\d+)", json.dumps(body.get("input", [])))
        session = int(started.group(1)) if started else 1
        arguments = {"session_id": session, "chars": typed, "yield_time_ms": 30_000}
        return [function_call("stdin", "write_stdin", arguments)]

    return turn


def requirements_overlay(tmp_path: Path, requirements: str) -> Path:
    """An ``/etc`` overlay folder (``upper/``, ``work/``) under ``tmp_path`` whose
    ``upper/codex/requirements.toml`` holds ``requirements``: an administrator's pins for one
    run (``etc_overlay`` of :func:`tests.plugin.harness_run.run_codex`)."""
    overlay = tmp_path / "etc"
    (overlay / "upper" / "codex").mkdir(parents=True)
    (overlay / "work").mkdir()
    (overlay / "upper" / "codex" / "requirements.toml").write_text(requirements, encoding="utf-8")
    return overlay
