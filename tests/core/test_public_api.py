"""The public surface of memory_core: every name in __all__ exists, is documented, and the
contract in docs/architecture.md is importable from its module."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import memory_core
import pytest

MODULES = sorted(
    name for _, name, _ in pkgutil.iter_modules(memory_core.__path__, prefix="memory_core.")
)

CONTRACT = {
    "memory_core.errors": [
        "MemoryCoreError",
        "InvalidId",
        "FileKeptChanging",
        "NotRegularFileError",
    ],
    "memory_core.file_edit": [
        "edit_file",
        "Edited",
        "FileTooLarge",
        "EDIT_ATTEMPTS",
        "IDLE_TIMEOUT",
    ],
    "memory_core.line_merge": ["merge_lines"],
    "memory_core.hidden_text": ["find_hidden", "show_hidden", "show_hidden_lines"],
    "memory_core.swap": ["exchange", "read_when_idle", "hold_exclusive_lease", "release_lease"],
    "memory_core.keys": [
        "USER_SCOPE",
        "check_project_id",
        "check_agent_id",
        "check_scope_key",
        "check_topic_file_name",
        "safe_basename",
        "key_for_real_path",
        "workspace_memory_key",
        "is_temporary_workspace",
        "ID_RULE",
        "SCOPE_KEY_RULE",
        "TOPIC_FILE_NAME_RULE",
        "DRAFT_ID_RULE",
    ],
    "memory_core.rules": [
        "TextRule",
        "AGENT_NAME_RULE",
        "WORKSPACE_PATH_RULE",
        "DRAFT_PROMPT_RULE",
    ],
    "memory_core.layout": [
        "agent_dir",
        "memory_root",
        "scope_dir",
        "workspaces_dir",
        "INDEX_FILE",
        "MARKER_FILE",
    ],
    "memory_core.topics": [
        "READ_CAP_BYTES",
        "ParsedTopic",
        "parse_topic",
        "read_topic",
        "decode_text",
        "extract_links",
    ],
    "memory_core.index": [
        "link_targets",
        "line_links_to",
        "prune_index",
        "index_lines",
        "topic_link_targets",
        "linked_topic_files",
    ],
    "memory_core.lint": ["find_secrets", "mask_secrets", "mask_secret_lines", "lint_scope"],
    "memory_core.prompts": ["DEFAULT_MEMORY_PROMPT", "DEFAULT_WORKSPACE_PROMPT"],
    "memory_core.caps": ["LINE_CAP", "CHAR_CAP", "share_budget", "truncation_note", "empty_note"],
    "memory_core.injection": [
        "LINE_CAP",
        "CHAR_CAP",
        "CappedIndex",
        "cap_indexes",
        "build_memory_text",
        "USER_INDEX_PLACEHOLDER",
        "INDEX_PLACEHOLDER",
    ],
    "memory_core.template": [
        "MEMORY_PLACEHOLDER",
        "KEY_PLACEHOLDER",
        "KEY_LINE",
        "TEMPORARY_KEY_VALUE",
        "OFF_KEY_VALUE",
        "has_memory_placeholder",
        "insert_placeholder",
        "key_line_value",
        "substitute",
        "default_template",
        "environment_section",
    ],
}


def test_all_names_exist_and_are_sorted_uniquely() -> None:
    names = memory_core.__all__
    assert len(names) == len(set(names))
    for name in names:
        assert hasattr(memory_core, name), name


@pytest.mark.parametrize(("module", "names"), sorted(CONTRACT.items()))
def test_contract_names_are_importable(module: str, names: list[str]) -> None:
    loaded = importlib.import_module(module)
    for name in names:
        assert hasattr(loaded, name), f"{module}.{name}"


def test_public_callables_and_classes_have_docstrings() -> None:
    for name in memory_core.__all__:
        value = getattr(memory_core, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), name


def test_module_all_lists_only_existing_names() -> None:
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", []):
            assert hasattr(module, name), f"{module_name}.{name}"


@pytest.mark.parametrize("module_name", MODULES)
def test_docstring_examples_hold(module_name: str) -> None:
    result = doctest.testmod(importlib.import_module(module_name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
