"""P-3: one tool call is one guard decision, answered well within the harness's hook timeout.

The kernel's mount table is read once per decision, however many paths the call names, and
again for the next one (a mount made between two calls is seen). A call naming more paths than
the guard judges in time (:data:`~harness_memory.hooks.path_refusal.PATHS_CAP`, ``PARTS_CAP``,
``DEPTH_CAP``) is refused naming why, before any path is looked at, rather than left to the
harness's timeout (Claude Code lets a call through when its PreToolUse hook times out). The
caps count; nothing here is timed, so every machine gives the same answers. So does the scan
a glob makes: past :data:`~harness_memory.hooks.tool_targets.GLOB_SCAN_CAP` folder entries
read for one call it stops and the call is refused.
"""

from __future__ import annotations

import glob
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness_memory import mounts
from harness_memory.hooks import guarding, path_refusal, tool_targets

from tests.support.guard_cases import MCP, SHELL, Layout, answer, refusal
from tests.support.mount_reads import CountingTable, counted_reads


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> CountingTable:
    counting = CountingTable()
    monkeypatch.setattr(mounts, "MOUNT_TABLE", counting)
    return counting


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_the_mount_table_is_read_once_per_call_however_many_paths_it_names(
    where: Layout, table: CountingTable, harness: str
) -> None:
    """300 distinct paths in the Workspace, 100 in the Session's own scope and one in another
    Workspace's scope: one read of the mount table for the call, one more for the next."""
    words = [f"{where.workspace}/d{n % 7}/f{n}.txt" for n in range(300)]
    words += [f"{where.root}/{where.own}/n{n}.md" for n in range(100)]
    allowed = "touch " + " ".join(words)
    refused = f"{allowed} {where.root}/{where.other}/a.md"

    assert answer(where, harness, SHELL[harness][1], {"command": allowed}) is None
    assert table.reads == 1
    assert refusal(answer(where, harness, SHELL[harness][1], {"command": refused})) is not None
    assert table.reads == 2


def test_p3_file_tool_paths_share_the_calls_mount_table(
    where: Layout, table: CountingTable
) -> None:
    """An MCP tool naming many paths in its arguments is one decision too."""
    arguments = {"paths": [f"{where.workspace}/out/{n}.txt" for n in range(200)]}
    assert answer(where, "claude-code", "mcp__files__write_many", arguments) is None
    assert table.reads == 1


def test_p3_without_a_session_record_the_keys_walk_uses_the_calls_mount_table(
    where: Layout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no Session record the guard derives the Session's key from the hook's ``cwd``; a
    ``cwd`` reached through a symlink is walked for procfs (A-9, K-1) with the call's one read
    of the mount table, never a second: the own scope is open, the other refused, as ever."""
    link = tmp_path / "app-link"
    link.symlink_to(where.workspace, target_is_directory=True)
    where.workspace = link  # the harness works in the Workspace through a symlink
    table, opened = counted_reads(monkeypatch)
    command = f"echo x > {where.root}/{where.own}/a.md && touch b.txt"

    assert answer(where, "claude-code", "Bash", {"command": command}) is None
    assert (table.reads, opened) == (1, [])
    other = {"command": f"echo x > {where.root}/{where.other}/a.md"}
    assert refusal(answer(where, "claude-code", "Bash", other)) is not None
    assert (table.reads, opened) == (2, [])


def test_p3_a_command_making_many_links_resolves_each_path_once(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty links made and each written through: the guard spells every path a link may be
    named by, with the folders on its way resolved (``realpath``); each distinct path is
    resolved once for the command, not once per link it is compared with, and the command is
    judged as ever (each link leads through ``notes`` into the memory root: refused)."""
    (where.workspace / "sub").mkdir()
    made = (f"ln -s ../notes/n{n} sub/l{n} && echo x > sub/l{n}/a.md" for n in range(20))
    command = " && ".join(made)
    resolved: Counter[str] = Counter()
    realpath = os.path.realpath

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        resolved[os.fspath(path)] += 1
        return realpath(path, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(os.path, "realpath", counting)
        tool_targets.shell_paths(command, str(where.workspace), {})

    assert len(resolved) > 20 and max(resolved.values()) == 1
    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None and "sub/../notes/n0" in reason


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_call_naming_more_paths_than_the_guard_judges_in_time_is_refused_saying_why(
    where: Layout, table: CountingTable, harness: str
) -> None:
    """One path past the cap: refused with the count and what to do, no path looked at (a
    command of ordinary size is judged as ever)."""
    many = " ".join(f"f{n}.txt" for n in range(path_refusal.PATHS_CAP))
    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": f"touch {many}"}))

    assert reason is not None
    assert f"names {path_refusal.PATHS_CAP + 1} paths" in reason  # the words and ``touch``
    assert f"more than the {path_refusal.PATHS_CAP}" in reason and "split it" in reason
    assert answer(where, harness, SHELL[harness][1], {"command": "touch f1.txt f2.txt"}) is None


def test_p3_a_path_deeper_than_the_guard_judges_in_time_is_refused(
    where: Layout, table: CountingTable
) -> None:
    """Each ``stat`` on a path's way walks every folder above it: a path of more parts than
    ``DEPTH_CAP`` (``PATH_MAX`` allows 2048) is refused; one of ordinary depth is judged."""
    deep = "/".join(["a"] * path_refusal.DEPTH_CAP)
    reason = refusal(answer(where, "claude-code", "Bash", {"command": f"echo x > {deep}/f"}))

    assert reason is not None and f"more than the {path_refusal.DEPTH_CAP}" in reason
    assert answer(where, "claude-code", "Bash", {"command": "echo x > a/b/c/d/e/f"}) is None


def test_p3_paths_holding_more_parts_in_all_than_the_guard_judges_in_time_are_refused(
    where: Layout, table: CountingTable
) -> None:
    """Fewer paths than ``PATHS_CAP``, each under ``DEPTH_CAP``, but more parts in all than
    ``PARTS_CAP``: refused, naming the count."""
    depth = path_refusal.DEPTH_CAP // 2
    count = path_refusal.PARTS_CAP // depth + 1
    assert count < path_refusal.PATHS_CAP
    words = " ".join("/d" * (depth - 1) + f"/f{n}" for n in range(count))  # depth + 1 parts
    reason = refusal(answer(where, "claude-code", "Bash", {"command": f"touch {words}"}))

    assert reason is not None and f"more than the {path_refusal.PARTS_CAP}" in reason


@pytest.mark.parametrize("count", [path_refusal.PATHS_CAP + 1, 3])
def test_p3_a_patch_naming_more_files_than_the_cap_is_refused(
    where: Layout, table: CountingTable, count: int
) -> None:
    """The cap holds for paths a tool names outright (a Codex ``apply_patch``'s files)."""
    patch = "".join(f"*** Add File: out/{n}.txt\n+x\n" for n in range(count))
    arguments = {"command": f"*** Begin Patch\n{patch}*** End Patch\n"}
    reason = refusal(answer(where, "codex", "apply_patch", arguments))
    if count > path_refusal.PATHS_CAP:
        assert reason is not None and f"names {count} paths" in reason
    else:
        assert reason is None
        assert table.reads == 1


def test_p3_below_the_caps_the_guard_still_finds_the_one_path_into_another_scope(
    where: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the cap lowered to 50, a call of 49 harmless paths and one into another scope is
    judged (and refused for that path); with one more it is refused for its size."""
    monkeypatch.setattr(path_refusal, "PATHS_CAP", 50)
    harmless = " ".join(f"{where.workspace}/f{n}.txt" for n in range(48))
    command = f"touch {harmless} {where.root}/{where.other}/a.md"  # 50 with ``touch``

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))
    assert reason is not None and where.other in reason
    reason = refusal(answer(where, "claude-code", "Bash", {"command": f"{command} one-more"}))
    assert reason is not None and "names 51 paths" in reason


def test_p3_the_caps_count_every_argument_of_an_mcp_call_together(where: Layout) -> None:
    """An MCP tool's string arguments are read one by one but counted as one call: as many
    arguments as ``PATHS_CAP``, each naming one file, plus one more, are refused."""
    arguments = {"paths": [f"out/{n}.txt" for n in range(path_refusal.PATHS_CAP + 1)]}
    reason = refusal(answer(where, "gemini", "mcp_files_write_many", arguments))
    assert reason is not None and f"names {path_refusal.PATHS_CAP + 1} paths" in reason


class CountingScandir:
    """``os.scandir``, counting every folder entry a glob reads."""

    def __init__(self, scandir: Any) -> None:
        self.scandir = scandir
        self.entries = 0

    def __call__(self, folder: str) -> Any:
        counter = self

        class Counted:
            def __init__(self) -> None:
                self.inner = counter.scandir(folder)

            def __enter__(self) -> Counted:
                return self

            def __exit__(self, *exc: object) -> None:
                self.inner.close()

            def __iter__(self) -> Iterator[os.DirEntry[str]]:
                for entry in self.inner:
                    counter.entries += 1
                    yield entry

        return Counted()


@pytest.fixture(scope="module")
def tree_layout(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    """A :class:`Layout` whose Workspace holds ``tree``: 12 folders, 12 in each, 12 files in
    each, and a hidden folder (1,885 entries). Made once per module and test worker: the glob
    tests only read it, and its 1,728 files took seconds to create on a busy disk, each time."""
    found = Layout(tmp_path_factory.mktemp("glob-tree"))
    top = found.workspace / "tree"
    for a in range(12):
        for b in range(12):
            folder = top / f"a{a}" / f"b{b}"
            folder.mkdir(parents=True)
            for c in range(12):
                (folder / f"f{c}.txt").write_bytes(b"")
    (top / ".hidden").mkdir()
    return found


@pytest.fixture
def in_tree(tree_layout: Layout, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """``tree_layout`` with ``HOME`` its data dir for the test, as :func:`where` sets it."""
    monkeypatch.setenv("HOME", str(tree_layout.data))
    monkeypatch.delenv("UNSET_VARIABLE", raising=False)
    return tree_layout


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_glob_reading_more_entries_than_the_cap_is_refused_and_stops_there(
    in_tree: Layout, monkeypatch: pytest.MonkeyPatch, harness: str
) -> None:
    """A pattern is expanded against the filesystem, every entry of every folder it crosses
    read: ``/*/*/*/*`` reads whatever the machine holds. The scan counts the entries it reads
    (here capped at 500) and stops at the cap: the call is refused saying why, and no more
    than the cap (and the one past it) was read."""
    counting = CountingScandir(os.scandir)
    monkeypatch.setattr(tool_targets, "GLOB_SCAN_CAP", 500)
    monkeypatch.setattr(os, "scandir", counting)

    where = in_tree
    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": "rm tree/*/*/*.txt"}))

    assert reason is not None and "folder entries" in reason and "500" in reason
    assert counting.entries <= 501
    counting.entries = 0
    assert answer(where, harness, SHELL[harness][1], {"command": "rm tree/a1/*/*.txt"}) is None
    assert 0 < counting.entries <= 500


def test_p3_a_glob_within_the_cap_finds_what_the_shell_finds(in_tree: Layout) -> None:
    """The counted scan matches as :func:`glob.glob` (and bash) do: hidden names only for a
    part starting with ``.`` (the tree holds ``.hidden``), a trailing ``/`` for folders alone
    (the guard also judges a new name in each folder the pattern's head matches:
    ``tree/a1/b?`` as written). A bracket expression is read when it is a plain set
    (``a[012]``); a range may match any name (its word reaches the matcher unquoted)."""
    assert (in_tree.workspace / "tree" / ".hidden").is_dir()
    cwd = str(in_tree.workspace)
    for pattern in ["tree/*/b1*/f1.txt", "tree/a1/*/", "tree/.*", "tree/*", "tree/a[012]/b?"]:
        found = tool_targets.shell_paths(f"ls {pattern}", cwd, {}).paths
        expected = sorted(f"{cwd}/{path}" for path in glob.glob(pattern, root_dir=cwd))  # noqa: PTH207 (the shell's way)
        matched = {path for path in found if path.startswith(f"{cwd}/tree")}
        assert {path for path in matched if os.path.lexists(path)} == set(expected)


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_command_longer_than_the_guard_reads_in_time_is_refused(
    where: Layout, harness: str
) -> None:
    """The guard's time grows with a command's length (some seconds for 128 KiB, past a
    hook's time limit further on): a command of more than ``TEXT_CAP`` characters is refused
    at once, naming its length and what to do; one under it is judged as ever."""
    long = "x" * guarding.TEXT_CAP
    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": f"echo '{long}'"}))

    assert reason is not None
    assert f"{guarding.TEXT_CAP + 7} characters long" in reason and "file tool" in reason
    command = {"command": f"echo '{'x' * 1000}' > /tmp/x"}
    assert answer(where, harness, SHELL[harness][1], command) is None


def test_p3_the_command_cap_is_what_bash_takes_as_one_argument() -> None:
    """A command is judged up to 128 KiB: what Linux lets one argument be (``MAX_ARG_STRLEN``;
    the harnesses run ``bash -c COMMAND``, and a longer one fails with ``E2BIG`` before it
    runs). At 1 MiB some commands took the guard past a hook's time limit, which in Claude
    Code lets the call through."""
    assert guarding.TEXT_CAP == 128 * 1024


def test_p3_an_mcp_file_write_longer_than_a_command_is_judged_not_refused(where: Layout) -> None:
    """An MCP file server's ``write_file`` of 130 KB of code into the Workspace (everyday
    use) is judged and allowed: its arguments travel as JSON-RPC, not as one
    ``bash -c`` argument, so :data:`~harness_memory.hooks.guarding.MCP_TEXT_CAP` bounds them,
    not the command's 128 KiB; past that cap the call is refused, saying to use the harness's
    own file tool. (Just past the command's cap: the guard's time grows with the text's
    length, and a longer text judges nothing more.)"""
    content = "".join(f"    total = total + weight_{row % 64}(value)\n" for row in range(3600))
    assert guarding.TEXT_CAP < len(content) < guarding.MCP_TEXT_CAP
    target = str(where.workspace / "table.txt")
    tool = MCP["claude-code"]

    assert answer(where, "claude-code", tool, {"path": target, "content": content}) is None
    longer = "x" * (guarding.MCP_TEXT_CAP + 1)
    reason = refusal(answer(where, "claude-code", tool, {"path": target, "content": longer}))
    assert reason is not None
    assert "text arguments are" in reason and "own file tool" in reason
