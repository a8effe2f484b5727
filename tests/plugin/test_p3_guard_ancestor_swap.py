"""P-3: a folder above the data dir, replaced whole, is judged where the kernel resolves it.

The README's local setup keeps the data dir in the account's home
(``~/.local/share/agent-memory``): ``~/.local`` and ``~/.local/share`` hold it, and the account
may rename them. A swap made before a tool call is judged by the kernel's resolution at that
decision (the memory root is resolved again for every call). A command that moves such a
folder away, writes inside it and moves it back (or puts a symlink to a folder of its own in
its place) names no path in the memory root the guard could judge beforehand: a word naming a
folder that holds the data dir (or the hooks' state dir) and that this account may move is
refused, like the data dir itself. ``/``, the home and the folders above it pass (``cd ~``),
but to a command that moves or removes them (``mv ~ /tmp/h``, ``rm -rf ~``): where this account
may rename its home (root's ``/root``, a home in a folder of its own) that moves the memory root
away as surely as ``mv ~/.local``.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from harness_memory.cli import main
from memory_core import layout
from memory_core.keys import workspace_memory_key


class Home:
    """An account's home holding the data dir at ``~/.local/share/agent-memory`` (scopes
    ``user``, the Session's own and another Workspace's) and the hooks' state dir at
    ``~/.claude/harness-memory``."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.home = tmp_path / "home"
        self.data = self.home / ".local" / "share" / "agent-memory"
        self.root = layout.memory_root(self.data, "coder")
        self.workspace = self.home / "src" / "my-app"
        self.workspace.mkdir(parents=True)
        self.own = workspace_memory_key(self.workspace)
        self.other = workspace_memory_key(self.home / "src" / "billing")
        for scope in ("user", self.own, self.other):
            (self.root / scope).mkdir(parents=True)
            (self.root / scope / "MEMORY.md").write_text("", encoding="utf-8")
        self.state = self.home / ".claude" / "harness-memory"

    def refusal(self, command: str) -> str | None:
        hook = {
            "session_id": "s-1",
            "cwd": str(self.workspace),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
        flags = ["--memory-root", str(self.root), "--state-dir", str(self.state)]
        out = io.StringIO()
        stdin = io.BytesIO(json.dumps(hook).encode())
        assert (
            main(
                ["hook", "claude-code", "pre-tool-use", *flags], environ={}, stdin=stdin, stdout=out
            )
            == 0
        )
        answer: Any = json.loads(out.getvalue()) if out.getvalue() else None
        return (
            None
            if answer is None
            else str(answer["hookSpecificOutput"]["permissionDecisionReason"])
        )


@pytest.fixture
def at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    found = Home(tmp_path)
    monkeypatch.setenv("HOME", str(found.home))
    return found


def test_p3_a_parent_of_the_data_dir_swapped_before_the_call_is_judged_where_it_now_leads(
    at: Home,
) -> None:
    """``~/.local/share`` moved elsewhere and a symlink put in its place: the memory root is
    resolved at the decision, so another scope is refused by either name, and the Session's
    own scope stays writable by either (this was right already)."""
    moved = at.tmp / "moved-share"
    shutil.move(at.home / ".local" / "share", moved)
    (at.home / ".local" / "share").symlink_to(moved)
    real_root = moved / "agent-memory" / "agents" / "coder" / "agent_state" / "memory"

    assert at.refusal(f"echo x > {at.root}/{at.other}/a.md") is not None
    assert at.refusal(f"echo x > {real_root}/{at.other}/a.md") is not None
    assert at.refusal(f"echo x > {moved}/agent-memory/tokens/mine.json") is not None
    assert at.refusal(f"echo x > {at.root}/{at.own}/a.md") is None
    assert at.refusal(f"echo x > {real_root}/{at.own}/a.md") is None


@pytest.mark.parametrize(
    "command",
    [
        "mv ~/.local/share {tmp}/s && echo x > {tmp}/s/{below}/{other}/a.md && "
        "mv {tmp}/s ~/.local/share",
        "mv ~/.local {tmp}/l && echo x > {tmp}/l/share/{below}/{other}/a.md && mv {tmp}/l ~/.local",
        "cp -a ~/.local/share {tmp}/s && rm -rf ~/.local/share && ln -s {tmp}/s ~/.local/share "
        "&& echo x > {tmp}/s/{below}/{other}/a.md",
        "mv ~/.claude {tmp}/c && mv {tmp}/c ~/.claude",
    ],
)
def test_p3_moving_a_folder_that_holds_the_data_dir_away_and_back_is_refused(
    at: Home, command: str
) -> None:
    """Each command first let through; run by bash, each but the last wrote into the other
    scope (the last swaps the folder holding the hooks' Session records)."""
    below = at.root.relative_to(at.home / ".local" / "share")
    shell = command.format(tmp=at.tmp, below=below, other=at.other)

    reason = at.refusal(shell)

    assert reason is not None, shell
    assert "may move, remove or replace" in reason or "Session records" in reason
    if at.other in shell:
        environment = {"HOME": str(at.home), "PATH": "/usr/bin:/bin"}
        subprocess.run(["bash", "-c", shell], env=environment, check=True, capture_output=True)
        assert (at.root / at.other / "a.md").read_text(encoding="utf-8") == "x\n"


@pytest.mark.parametrize(
    "command",
    [
        "mv ~ {tmp}/h && echo x > {tmp}/h/{below}/{other}/a.md && mv {tmp}/h ~",
        'mv "$HOME/" {tmp}/h && echo x > {tmp}/h/{below}/{other}/a.md && mv {tmp}/h "$HOME"',
        "cd ~/.. && mv home h && echo x > h/{below}/{other}/a.md && mv h home",
        "sh -c 'mv ~ {tmp}/h' && echo x > {tmp}/h/{below}/{other}/a.md && mv {tmp}/h ~",
        "mv {tmp} {tmp}-moved",
        "rm -rf ~",
        "sudo rm -rf {tmp}/home",
        "cp -al ~ {tmp}/h && echo x >> {tmp}/h/{below}/{other}/MEMORY.md",
        "find ~ -name MEMORY.md -delete",
        "find {tmp} -name '*.md' -exec sed -i s/a/b/ {{}} +",
        "cd ~ && find -name '*.md' -execdir rm {{}} \\;",
    ],
)
def test_p3_moving_or_removing_the_home_that_holds_the_data_dir_is_refused(
    at: Home, command: str
) -> None:
    """The home (here in a folder this account may write, as root's ``/root`` is in ``/``)
    and every folder above it were spared for every command (``cd ~``); moved away, written
    in and moved back (or hard-linked whole elsewhere: ``cp -al``) it reached every scope, and
    so did a command over every file below it (``rm -rf ~``, ``find ~ … -delete``). Now a
    command moving, removing, hard-linking or acting on everything below it (``mv``, ``rm``,
    ``rmdir``, ``cp -l``, ``find -delete``/``-exec``) is refused; each one writing into the
    other scope was first run by bash, and it did."""
    below = at.root.relative_to(at.home)
    shell = command.format(tmp=at.tmp, below=below, other=at.other)

    reason = at.refusal(shell)

    assert reason is not None, shell
    assert ("moves" in reason and "may rename" in reason) or "acts on every file" in reason
    if at.other in shell:
        environment = {"HOME": str(at.home), "PATH": "/usr/bin:/bin"}
        subprocess.run(
            ["bash", "-c", shell], cwd=at.tmp, env=environment, check=True, capture_output=True
        )
        written = {
            path.name: path.read_text(encoding="utf-8") for path in (at.root / at.other).iterdir()
        }
        assert "x\n" in written.values(), written


@pytest.mark.parametrize(
    "command",
    [
        "cd ~ && ls -la",
        "find ~/.cache -name '*.tmp' -delete && find . -name '*.pyc' -exec rm {} +",
        "mv notes.txt ~/ && rm ~/notes.txt && rm -rf ~/.cache/pip",
        "mv ~/Downloads/app.tar.gz . && cp -r ~ /tmp/home-copy-never-made",
        "cp notes.txt ~/",
        "ls / ~/.local/share/other-app",
        "cat ~/.local/share/other-app/config.toml > /dev/null",
        "mkdir -p ~/.local/bin && cp tool ~/.local/bin/",
    ],
)
def test_p3_the_home_and_folders_beside_the_data_dir_stay_usable(at: Home, command: str) -> None:
    assert at.refusal(command) is None, command


def test_p3_unpacking_into_the_home_through_a_symlink_and_dot_dot_is_refused(at: Home) -> None:
    """``lnk -> ~/src`` in the Workspace: ``tar -C lnk/..`` unpacks into the home (the kernel
    follows ``lnk`` before its ``..``), as ``tar -C ~`` does, which was refused; the spelling
    was folded to the Workspace first and let through. Run by bash, the archive's member
    lands in the other scope. ``cd lnk/..`` is bash's logical ``cd`` (back to the Workspace),
    so ``cd lnk/.. && tar -xf`` unpacks there and passes."""
    (at.workspace / "lnk").symlink_to(at.home / "src")
    staged = at.tmp / "staged"
    member = at.root.relative_to(at.home) / at.other / "a.md"
    (staged / member).parent.mkdir(parents=True)
    (staged / member).write_text("x\n", encoding="utf-8")
    subprocess.run(
        ["tar", "-cf", "a.tar", "-C", str(staged), str(member)], cwd=at.workspace, check=True
    )
    environment = {"HOME": str(at.home), "PATH": "/usr/bin:/bin"}

    for command in ["tar -xf a.tar -C lnk/..", "tar -xf a.tar --directory=lnk/../"]:
        reason = at.refusal(command)
        assert reason is not None, command
        assert "unpacks an archive" in reason or "where a member of" in reason, command
    assert at.refusal("cd lnk/.. && tar -xf a.tar") is None

    subprocess.run(["bash", "-c", "cd lnk/.. && tar -xf a.tar"], cwd=at.workspace, check=True)
    assert (at.workspace / member).read_text(encoding="utf-8") == "x\n"
    subprocess.run(["bash", "-c", "tar -xf a.tar -C lnk/.."], cwd=at.workspace, env=environment)
    assert (at.root / at.other / "a.md").read_text(encoding="utf-8") == "x\n"
