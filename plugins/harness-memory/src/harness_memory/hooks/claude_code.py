"""Claude Code hook adapters (P-4): SessionStart adds the injection, PreToolUse applies P-3.

Claude Code runs a hook command with one JSON object on stdin and reads one JSON object from
stdout (exit 0). The fields used here, as Claude Code's hooks reference gives them:

- every event: ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``;
- ``SessionStart``: ``source`` (``startup``, ``resume``, ``clear``, ``compact``); answered with
  ``{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "…"}}``;
- ``PreToolUse``: ``tool_name`` and ``tool_input`` (``file_path`` for Write, Edit and MultiEdit,
  ``notebook_path`` for NotebookEdit, ``command`` for Bash, any arguments for an MCP tool
  ``mcp__<server>__<tool>``); a refusal is ``{"hookSpecificOutput": {"hookEventName":
  "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "…"}}`` and the reason
  reaches the model. An allowed write gets no output at all, so Claude Code's own permission
  rules still apply (an ``allow`` would skip them).

Claude Code shows the model at most :data:`CONTEXT_LIMIT` UTF-16 code units of one hook's
``additionalContext`` (a longer one becomes a file path and a 2 KB preview), but several hook
entries each add their own (measured on 2.1.332; see the plugin README's harness table). The
SessionStart adapter (:mod:`harness_memory.hooks.claude_code_start`) therefore runs in N hook
entries and answers piece K in entry K; the PreToolUse adapter, which runs before every file
write, is :mod:`harness_memory.hooks.claude_code_guard`. This module holds what they share: the
measured limits, the hook input and where the guard finds the memory root.

Both adapters fail open: a missing setting, an unreachable service or malformed input never
stops the Session; the SessionStart answer then carries a ``systemMessage`` for the user.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from memory_core import json_text
from memory_core.errors import UnresolvablePath
from memory_core.keys import is_temporary_workspace, workspace_memory_key
from memory_core.layout import app_data_dir_of

from harness_memory.guard_view import GuardView, UnreadableRecord, read_guard_view
from harness_memory.settings import HarnessSettings
from harness_memory.state_trust import UntrustedStateDir, untrusted_state

if TYPE_CHECKING:  # a type of annotations only: a Session start parses no mount table (H-5)
    from collections.abc import Callable, Sequence

    from memory_core.mount_fields import Mount

__all__ = [
    "CLAUDE_CODE_VERSION",
    "CONTEXT_LIMIT",
    "PATH_FIELDS",
    "RECOMMENDED_PARTS",
    "WRITE_TOOLS",
    "HookInput",
    "decode_input",
]

CLAUDE_CODE_VERSION = "2.1.332"
"""The Claude Code version whose limits were measured (the e2e tests pin it)."""
CONTEXT_LIMIT = 10_000
"""UTF-16 code units of one hook entry's ``additionalContext`` (or plain stdout) that Claude
Code shows the model inline; one unit more and it shows a file path and a 2 KB preview."""

RECOMMENDED_PARTS = 4
"""SessionStart entries the installer writes: the fewest that carry the default prompts with both
indexes at the caps (I-4) in ordinary text, every entry being a process and a call to the
service. An index whose characters lie largely outside the Basic Multilingual Plane (2 UTF-16
units each: emoji) can need more, up to 6 when every character does; with 4 such an index is
cut at a line with the I-4 note and the user is told (H-1). tests/plugin/test_h1_fitting.py
checks both."""

WRITE_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
"""Claude Code's file-writing tools (the names GitHub Copilot CLI gives its own ``create`` and
``edit`` when it runs these hooks too)."""
PATH_FIELDS = ("file_path", "notebook_path", "path")
"""The ``tool_input`` fields that name a file tool's target: Claude Code's ``file_path`` and
``notebook_path``; Copilot CLI 1.0.102 passes its own ``path`` under Claude Code's tool names
(measured: a ``Write`` with ``path`` landed in another Workspace's scope unchecked)."""


_TEXT_FIELDS = ("hook_event_name", "session_id", "cwd", "source", "tool_name")


class HookInput(msgspec.Struct, frozen=True, kw_only=True):
    """The part of a hook's stdin JSON the adapters read; other fields are ignored."""

    hook_event_name: str | None = None
    session_id: str | None = None
    cwd: str | None = None
    source: str | None = None
    tool_name: str | None = None
    tool_input: dict[str, Any] | None = None


def decode_input(raw: bytes) -> HookInput:
    """Decode a hook's stdin JSON (the fields read here).

    Bytes that are not UTF-8 inside a string (a harness passing a folder's name as the kernel
    holds it, ``b"\xff"``) are read as :func:`os.fsdecode` reads a file name (``"\udcff"``),
    so the guard judges the very folder the kernel will. Raises ``ValueError`` when it is not
    JSON (nested past the parser's depth included), not an
    object, or a field read here has the wrong type (text fields must be strings or null,
    ``tool_input`` an object or null).
    """
    try:  # a byte that is not UTF-8 (a folder named b"\xff") is kept as os.fsdecode keeps it
        document = json_text.loads(raw.decode("utf-8-sig", "surrogateescape"))
    except json_text.JsonTooDeep:  # hostile nesting: the same "not JSON" answer
        raise ValueError("nested too deeply to be a hook's input") from None
    if not isinstance(document, dict):
        raise ValueError(f"expected a JSON object, got {type(document).__name__}")
    for name in _TEXT_FIELDS:
        if not isinstance(document.get(name), str | None):
            raise ValueError(f"{name} must be a string or null")
    tool_input = document.get("tool_input")
    if not isinstance(tool_input, dict | None):
        raise ValueError("tool_input must be an object or null")
    return HookInput(
        hook_event_name=document.get("hook_event_name"),
        session_id=document.get("session_id"),
        cwd=document.get("cwd"),
        source=document.get("source"),
        tool_name=document.get("tool_name"),
        tool_input=tool_input,
    )


def _locate(
    hook: HookInput,
    settings: HarnessSettings,
    mounts: Callable[[], Sequence[Mount] | None] | None = None,
) -> tuple[Path, str | None, str | None] | None:
    """Find (memory root, the Session's key, base for relative paths) from trusted settings;
    the base is None when the folder the harness works in cannot be known here
    (:func:`working_folder`): relative paths may then land anywhere.

    The memory root the settings carry wins over the one the service reported, so the guard
    protects the directory the operator named: ``--memory-root`` / ``HARNESS_MEMORY_ROOT``, or in
    remote mode always the local copy's, whatever those say
    (:func:`harness_memory.settings.load_settings`, R-1).
    ``mounts``: gives the decision's mount table (None when it could not be read: then the
    key's walk reads it and says why), called only when a Session key is derived here, once a
    memory root is known (no record, ``--memory-root``); None: read where the key needs it.
    Raises :class:`~harness_memory.state_trust.UntrustedStateDir` when the Session's records
    could be changed by another account (:func:`~harness_memory.state_trust.untrusted_state`):
    neither its record nor the lack of one tells the guard anything then; and
    :class:`~harness_memory.guard_view.UnreadableRecord` when the Session's record is there but
    cannot be read and the settings name no memory root (P-3: a read error never widens
    access). With a memory root (``--memory-root``, as installed hooks always give), a damaged
    record (left empty by a crash: it is not fsynced) reads as a missing one, said in the log:
    the key is then the ``cwd``'s, as it is without a record, so nothing more is opened.
    """
    record: GuardView | None = None
    if hook.session_id and settings.state_dir is not None:
        if (why := untrusted_state(settings.state_dir, hook.session_id)) is not None:
            raise UntrustedStateDir(why)
        try:
            record = read_guard_view(settings.state_dir, hook.session_id)
        except UnreadableRecord as error:
            if settings.memory_root is None:  # the record alone tells where memory is
                raise
            _damaged_record_said(error)  # read as a missing one: the cwd names the Workspace
    if record is not None:
        root = settings.memory_root or Path(record.memory_root)
        return root, record.key, working_folder(hook.cwd or record.workspace)
    if settings.memory_root is None:
        return None
    cwd = working_folder(hook.cwd)
    if cwd is None:  # no Workspace can be named by it: only the user scope is open
        return settings.memory_root, None, None
    app_data_dir = app_data_dir_of(settings.memory_root.absolute())
    try:
        temporary = app_data_dir is not None and is_temporary_workspace(Path(cwd), app_data_dir)
        table = None if temporary or mounts is None else mounts()
        key = None if temporary else workspace_memory_key(cwd, mounts=table)
    except UnresolvablePath:  # a link on the cwd's way cannot be read: no Workspace is known
        key = None
    return settings.memory_root, key, cwd


def _damaged_record_said(error: UnreadableRecord) -> None:
    """Log, once per call, that the Session's record was read as missing (``error`` names it
    and the fix)."""
    import logging  # only then (H-5)

    logging.getLogger(__name__).warning(
        "the Workspace is taken from the hook's cwd, as without a record: %s", error
    )


def working_folder(given: str | None) -> str | None:
    """The folder the harness's tools start relative paths from, as the kernel names it: the
    hook's ``cwd`` (this process's working folder when none is given); None when it cannot be
    known here (P-3: then a relative path may land anywhere, another scope included).

    A harness written in JavaScript or Rust passes a folder whose name is not UTF-8
    (``b"\xff"``) with each bad byte replaced by U+FFFD (Node's ``process.cwd()``, Rust's
    ``to_string_lossy``): that names another folder, or none. Such a ``cwd`` is taken to be this
    process's working folder (which the harness starts the hook in) when that folder's name,
    read the same lossy way, is the one given; else it is unknown, as is one no file name can
    hold (NUL, a lone surrogate past ``os.fsencode``)."""
    from harness_memory.guard import is_usable_path  # the guard's: no Session start loads it (H-5)

    if not given:
        try:
            return str(Path.cwd())
        except OSError:  # the folder was removed: where relative paths land is unknown
            return None
    if not is_usable_path(given):
        return None
    if "\ufffd" not in given:
        return given
    try:
        here = str(Path.cwd())
    except OSError:
        return None
    return here if os.fsencode(here).decode("utf-8", "replace") == given else None
