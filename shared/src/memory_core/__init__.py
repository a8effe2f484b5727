"""memory_core — the pure rules of Agent Memory, shared by the service and the plugin.

Keys and layout (K), topic files and indexes (T), what reaches the model (I) and the wire DTOs.
Everything here is synchronous and free of HTTP; the only reads are the ``read_*`` helpers.
The names below are the public surface (see docs/architecture.md); import submodules for the
rest (``memory_core.wire`` for the DTOs).
"""

from __future__ import annotations

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
