"""P-3, K-7: an MCP filesystem server's write tools are judged where the server puts the file.

The reference ``@modelcontextprotocol/server-filesystem`` expands a leading ``~`` (``~`` or
``~/…``: its ``validatePath`` → ``expandHome``, the home folder of its environment) and
resolves a relative path against its allowed directories, not the harness's folder: with the
memory root as an allowed directory, ``write_file`` of ``user/notes.txt`` lands in the user
scope. The guard let both through in every harness. Now a ``~`` is expanded as the server does
(with the hook's ``HOME``), and a relative path whose first part names a scope (``user``, the
Session's Workspace key, a scope folder of the memory root) is judged from the memory root
too. Other
servers' writing tools (``copy_file``'s destination, desktop-commander's ``edit_block``
``file_path``, ``create_directory``) are held to the same rules. A file in the Workspace stays
writable by a relative or ``~`` path, as is one in a folder only shaped like a scope key
(``backup-20240101/``) that no scope of the memory root holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.guard_cases import SHELL, Layout, answer, refusal


def _tool(harness: str, name: str) -> str:
    """``harness``'s name of the ``filesystem`` MCP server's tool ``name``."""
    return f"mcp_filesystem_{name}" if harness == "gemini" else f"mcp__filesystem__{name}"


def _writers(path: str) -> list[tuple[str, dict[str, Any]]]:
    """Each MCP filesystem tool writing ``path`` (the reference server's, desktop-commander's
    ``edit_block``), with its arguments."""
    return [
        ("write_file", {"path": path, "content": "x\n"}),
        ("edit_file", {"path": path, "edits": [{"oldText": "x", "newText": "y"}]}),
        ("move_file", {"source": "draft.md", "destination": path}),
        ("copy_file", {"source": "draft.md", "destination": path}),
        ("edit_block", {"file_path": path, "old_string": "x", "new_string": "y"}),
    ]


def _home_path(where: Layout, scope: str, name: str) -> str:
    """``name`` in ``scope`` spelled from ``~`` (``HOME`` is the data dir in these tests)."""
    below = where.root.relative_to(where.data)
    return f"~/{below}/{scope}/{name}"


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_home_relative_mcp_path_is_judged_where_the_server_expands_it(
    where: Layout, harness: str
) -> None:
    for scope in ("user", where.own):
        for name, rule in (("notes.txt", "(K-7)"), ("sub/a.md", "only the files at a scope's")):
            for tool, arguments in _writers(_home_path(where, scope, name)):
                reason = refusal(answer(where, harness, _tool(harness, tool), arguments))
                assert reason is not None and rule in reason, (tool, scope, name, reason)
        for tool, arguments in _writers(_home_path(where, scope, "notes.md")):
            assert answer(where, harness, _tool(harness, tool), arguments) is None, tool
    for tool, arguments in _writers(_home_path(where, where.other, "a.md")):
        reason = refusal(answer(where, harness, _tool(harness, tool), arguments))
        assert reason is not None, (tool, reason)


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_an_mcp_move_from_home_takes_its_source_as_any_path(where: Layout, harness: str) -> None:
    """A move's source is taken away, not named: another scope's file is refused, a file of
    the Session's own scope with a name the service cannot address may be moved to a good one."""
    other = _home_path(where, where.other, "MEMORY.md")
    arguments = {"source": other, "destination": "draft.md"}
    assert refusal(answer(where, harness, _tool(harness, "move_file"), arguments)) is not None
    stray = _home_path(where, where.own, "UPPER.MD")
    arguments = {"source": stray, "destination": _home_path(where, where.own, "upper.md")}
    assert answer(where, harness, _tool(harness, "move_file"), arguments) is None


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_relative_mcp_path_is_judged_from_the_memory_root_too(
    where: Layout, harness: str
) -> None:
    """With the memory root an allowed directory of the server, ``user/notes.txt`` is a file of
    the user scope: refused as the absolute path is, as is a file of another Workspace's
    scope; an addressable name in a scope the Session may write passes, and a Workspace's own
    ``user/`` folder is written by its absolute path (the way out the refusal shows)."""
    for path, rule in (
        ("user/notes.txt", "(K-7)"),
        ("x/../user/notes.txt", "(K-7)"),  # the server folds ``..`` before it resolves
        (f"{where.own}/UPPER.MD", "(K-7)"),
        ("user/sub/a.md", "only the files at a scope's top"),
        (f"{where.other}/a.md", "scope"),
    ):
        for tool, arguments in _writers(path):
            reason = refusal(answer(where, harness, _tool(harness, tool), arguments))
            assert reason is not None and rule in reason, (tool, path, reason)
    absolute = str(where.workspace / "user" / "notes.txt")  # a Workspace's own user/ folder
    for path in ("user/notes.md", f"{where.own}/MEMORY.md", absolute):
        for tool, arguments in _writers(path):
            assert answer(where, harness, _tool(harness, tool), arguments) is None, (tool, path)


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_mcp_writes_in_the_workspace_pass(where: Layout, harness: str) -> None:
    """Relative and absolute names in the Workspace, of any kind, stay writable."""
    (where.workspace / "notes").unlink()  # the layout's link into another scope
    (where.workspace / "backup-20240101").mkdir()  # shaped like a Workspace key; no scope
    for path in (
        "notes.txt",
        "src/app.py",
        "README.MD",
        ".env",
        str(where.workspace / "a.txt"),
        "../sibling/notes.txt",
        "backup-20240101/notes.txt",
        "~/notes.txt",
    ):
        for tool, arguments in _writers(path):
            assert answer(where, harness, _tool(harness, tool), arguments) is None, (tool, path)
        folder = path.rsplit("/", 1)[0] if "/" in path else "build"
        arguments = {"path": "build" if folder == "~" else folder}  # ``HOME`` is the data dir
        assert answer(where, harness, _tool(harness, "create_directory"), arguments) is None


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_an_mcp_create_directory_in_a_scope_is_refused(where: Layout, harness: str) -> None:
    """A scope holds files only at its top (K-7): a folder made in it is never read."""
    for path in (str(where.root / where.own / "sub"), "user/sub", _home_path(where, "user", "x")):
        reason = refusal(answer(where, harness, _tool(harness, "create_directory"), {"path": path}))
        assert reason is not None and "(K-7)" in reason, (path, reason)
