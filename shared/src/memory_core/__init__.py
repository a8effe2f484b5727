"""memory_core — the pure rules of Agent Memory, shared by the service and the plugin.

Keys and layout (K), topic files and indexes (T), what reaches the model (I) and the wire DTOs.
Everything here is synchronous and free of HTTP; the only reads are the ``read_*`` helpers.
The names below are the public surface (see docs/architecture.md); import submodules for the
rest (``memory_core.wire`` for the DTOs).

The names load lazily (PEP 562): importing any submodule runs this file, and a process that needs
only ``memory_core.keys`` (a harness's write guard, before every file write) should not load YAML,
the credential detector and lint for it (H-5).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memory_core.credentials import find_secrets, mask_secret_lines, mask_secrets
    from memory_core.errors import InvalidId, MemoryCoreError
    from memory_core.index import (
        index_lines,
        line_links_to,
        link_targets,
        linked_topic_files,
        prune_index,
        topic_link_targets,
    )
    from memory_core.injection import (
        CHAR_CAP,
        INDEX_PLACEHOLDER,
        LINE_CAP,
        USER_INDEX_PLACEHOLDER,
        CappedIndex,
        build_memory_text,
        cap_indexes,
    )
    from memory_core.keys import (
        USER_SCOPE,
        check_agent_id,
        check_project_id,
        check_scope_key,
        check_topic_file_name,
        is_temporary_workspace,
        key_for_real_path,
        safe_basename,
        workspace_memory_key,
    )
    from memory_core.layout import (
        INDEX_FILE,
        MARKER_FILE,
        agent_dir,
        memory_root,
        scope_dir,
        workspaces_dir,
    )
    from memory_core.lint import INDEX_LINE_LIMIT, LINT_CODES, lint_index, lint_scope, lint_topic
    from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT
    from memory_core.template import (
        KEY_LINE,
        KEY_PLACEHOLDER,
        MEMORY_PLACEHOLDER,
        OFF_KEY_VALUE,
        TEMPORARY_KEY_VALUE,
        has_memory_placeholder,
        insert_placeholder,
        key_line_value,
        substitute,
    )
    from memory_core.topics import READ_CAP_BYTES, ParsedTopic, decode_text, parse_topic, read_topic

_LAZY: dict[str, str] = {
    "CHAR_CAP": "memory_core.injection",
    "CappedIndex": "memory_core.injection",
    "DEFAULT_MEMORY_PROMPT": "memory_core.prompts",
    "DEFAULT_WORKSPACE_PROMPT": "memory_core.prompts",
    "INDEX_FILE": "memory_core.layout",
    "INDEX_LINE_LIMIT": "memory_core.lint",
    "INDEX_PLACEHOLDER": "memory_core.injection",
    "InvalidId": "memory_core.errors",
    "KEY_LINE": "memory_core.template",
    "KEY_PLACEHOLDER": "memory_core.template",
    "LINE_CAP": "memory_core.injection",
    "LINT_CODES": "memory_core.lint",
    "MARKER_FILE": "memory_core.layout",
    "MEMORY_PLACEHOLDER": "memory_core.template",
    "MemoryCoreError": "memory_core.errors",
    "OFF_KEY_VALUE": "memory_core.template",
    "ParsedTopic": "memory_core.topics",
    "READ_CAP_BYTES": "memory_core.topics",
    "TEMPORARY_KEY_VALUE": "memory_core.template",
    "USER_INDEX_PLACEHOLDER": "memory_core.injection",
    "USER_SCOPE": "memory_core.keys",
    "agent_dir": "memory_core.layout",
    "build_memory_text": "memory_core.injection",
    "cap_indexes": "memory_core.injection",
    "check_agent_id": "memory_core.keys",
    "check_project_id": "memory_core.keys",
    "check_scope_key": "memory_core.keys",
    "check_topic_file_name": "memory_core.keys",
    "decode_text": "memory_core.topics",
    "find_secrets": "memory_core.credentials",
    "has_memory_placeholder": "memory_core.template",
    "index_lines": "memory_core.index",
    "insert_placeholder": "memory_core.template",
    "is_temporary_workspace": "memory_core.keys",
    "key_for_real_path": "memory_core.keys",
    "key_line_value": "memory_core.template",
    "line_links_to": "memory_core.index",
    "link_targets": "memory_core.index",
    "linked_topic_files": "memory_core.index",
    "lint_index": "memory_core.lint",
    "lint_scope": "memory_core.lint",
    "lint_topic": "memory_core.lint",
    "mask_secret_lines": "memory_core.credentials",
    "mask_secrets": "memory_core.credentials",
    "memory_root": "memory_core.layout",
    "parse_topic": "memory_core.topics",
    "prune_index": "memory_core.index",
    "read_topic": "memory_core.topics",
    "safe_basename": "memory_core.keys",
    "scope_dir": "memory_core.layout",
    "substitute": "memory_core.template",
    "topic_link_targets": "memory_core.index",
    "workspace_memory_key": "memory_core.keys",
    "workspaces_dir": "memory_core.layout",
}
"""Public name → the submodule that defines it."""

__all__ = [
    "CHAR_CAP",
    "DEFAULT_MEMORY_PROMPT",
    "DEFAULT_WORKSPACE_PROMPT",
    "INDEX_FILE",
    "INDEX_LINE_LIMIT",
    "INDEX_PLACEHOLDER",
    "KEY_LINE",
    "KEY_PLACEHOLDER",
    "LINE_CAP",
    "LINT_CODES",
    "MARKER_FILE",
    "MEMORY_PLACEHOLDER",
    "OFF_KEY_VALUE",
    "READ_CAP_BYTES",
    "TEMPORARY_KEY_VALUE",
    "USER_INDEX_PLACEHOLDER",
    "USER_SCOPE",
    "CappedIndex",
    "InvalidId",
    "MemoryCoreError",
    "ParsedTopic",
    "agent_dir",
    "build_memory_text",
    "cap_indexes",
    "check_agent_id",
    "check_project_id",
    "check_scope_key",
    "check_topic_file_name",
    "decode_text",
    "find_secrets",
    "has_memory_placeholder",
    "index_lines",
    "insert_placeholder",
    "is_temporary_workspace",
    "key_for_real_path",
    "key_line_value",
    "line_links_to",
    "link_targets",
    "linked_topic_files",
    "lint_index",
    "lint_scope",
    "lint_topic",
    "mask_secret_lines",
    "mask_secrets",
    "memory_root",
    "parse_topic",
    "prune_index",
    "read_topic",
    "safe_basename",
    "scope_dir",
    "substitute",
    "topic_link_targets",
    "workspace_memory_key",
    "workspaces_dir",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its submodule on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memory_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
