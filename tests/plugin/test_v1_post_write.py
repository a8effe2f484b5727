"""V-1: the post-write hooks — which scopes a tool call wrote (the hook's decision), what
``install``/``uninstall``/``status`` do with them, and each harness's hook run as a process on
the hook input recorded from its real CLI (``fixtures/*post_tool_use*``, ``*after_tool*``)
against the real service: a version naming the Session, the harness and the tool, and nothing
that blocks or fails the write when the service is down."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from harness_memory.cli import main
from harness_memory.hooks.claude_code import HookInput
from harness_memory.hooks.post_write import written_scopes
from harness_memory.hooks.tool_writes import ToolWrites
from harness_memory.installers.codex import trust_hash
from harness_memory.settings import load_settings
from memory_core import layout
from memory_core.keys import workspace_memory_key

from tests.plugin.helpers import hook_fixture, run_cli
from tests.plugin.real_service import RealService
from tests.support.mount_reads import counted_reads

ROOT = "/srv/agent-memory/agents/coder/agent_state/memory"
FILES = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
EVENTS = {
    "claude-code": ("PreToolUse", "PostToolUse", "post-tool-use"),
    "codex": ("PreToolUse", "PostToolUse", "post-tool-use"),
    "gemini": ("BeforeTool", "AfterTool", "after-tool"),
}
"""Each harness: its guard event, its post-write event, the post-write hook's command-line name."""
RECORDED = {
    "claude-code": ("post_tool_use_write.json", "b5530c8b-890e-45c4-a832-e53746f08b9a", "Write"),
    "codex": (
        "codex_post_tool_use_apply_patch.json",
        "01a23488-467e-7301-afc7-39b135898a61",
        "apply_patch",
    ),
    "gemini": (
        "gemini_after_tool_write_file.json",
        "04b48a35-a810-413d-be76-5ac759971c1a",
        "write_file",
    ),
}
"""Each harness's recorded hook input of a file write: fixture, its Session id, its tool."""
TOPIC = "---\nname: hooks\ndescription: how memory reaches the agent\n---\nThrough hooks.\n"


# --- the decision: which of the Session's scopes a call wrote ----------------------------------


@pytest.fixture
def layout_root(tmp_path: Path) -> tuple[Path, Path, str]:
    """``(memory root, Workspace, its key)`` with both of the Session's scopes present."""
    root = layout.memory_root(tmp_path / "data", "coder")
    workspace = tmp_path / "src" / "my-app"
    workspace.mkdir(parents=True)
    key = workspace_memory_key(workspace)
    for scope in ("user", key, "other-app-0badc0de"):
        (root / scope).mkdir(parents=True)
    return root, workspace, key


def scopes_of(writes: ToolWrites, root: Path, workspace: Path, tmp_path: Path) -> list[str]:
    settings = load_settings({"root": str(root), "state_dir": str(tmp_path / "state")}, {})
    hook = HookInput(session_id="s1", cwd=str(workspace), tool_name="Write")
    return written_scopes(writes, hook, settings)


def test_v1_a_file_tool_write_counts_for_its_own_scope(
    layout_root: tuple[Path, Path, str], tmp_path: Path
) -> None:
    root, workspace, key = layout_root
    own = ToolWrites(paths=[str(root / key / "deploy.md")])
    assert scopes_of(own, root, workspace, tmp_path) == [key]
    user = ToolWrites(paths=[str(root / "user" / "prefs.md"), str(root / key / "a.md")])
    assert scopes_of(user, root, workspace, tmp_path) == ["user", key]


def test_v1_writes_outside_memory_or_into_refused_scopes_count_for_none(
    layout_root: tuple[Path, Path, str], tmp_path: Path
) -> None:
    root, workspace, _ = layout_root
    for path in (
        str(workspace / "README.md"),
        "notes.md",  # relative: in the Workspace, not in memory
        str(root / "other-app-0badc0de" / "stolen.md"),  # the guard refused it: nothing landed
        str(root / "user" / ".workspace"),
        str(root / "stray.md"),
        "",
        "a\x00b",
    ):
        assert scopes_of(ToolWrites(paths=[path]), root, workspace, tmp_path) == [], path


def test_v1_a_relative_path_is_taken_from_the_hook_cwd(
    layout_root: tuple[Path, Path, str], tmp_path: Path
) -> None:
    root, workspace, key = layout_root
    (workspace / "memory").symlink_to(root / key)  # judged where it lands, as the guard does
    assert scopes_of(ToolWrites(paths=["memory/topic.md"]), root, workspace, tmp_path) == [key]
    writes = ToolWrites(paths=[f"../../data/agents/coder/agent_state/memory/{key}/t.md"])
    assert scopes_of(writes, root, workspace, tmp_path) == []  # ".." into memory: refused
    assert scopes_of(ToolWrites(paths=["user/t.md"]), root, root, tmp_path) == ["user"]


def test_v1_an_mcp_server_write_counts_for_the_scope_it_may_land_in(
    layout_root: tuple[Path, Path, str], tmp_path: Path
) -> None:
    """An MCP server resolves a relative path against its allowed directories (the memory root
    may be one): ``user/t.md`` counts for the user scope; a file a patch deletes or moves away
    (``touched``) counts for its scope too."""
    root, workspace, key = layout_root
    served = ToolWrites(paths=["user/t.md", "src/app.py"], served=True)
    assert scopes_of(served, root, workspace, tmp_path) == ["user"]
    assert scopes_of(ToolWrites(paths=["user/t.md"]), root, workspace, tmp_path) == []
    gone = ToolWrites(touched=[str(root / key / "notes.txt")])
    assert scopes_of(gone, root, workspace, tmp_path) == [key]


def test_v1_shell_commands_count_for_the_scopes_they_name(
    layout_root: tuple[Path, Path, str], tmp_path: Path
) -> None:
    root, workspace, key = layout_root
    cases = {
        f"echo x > {root}/user/prefs.md": ["user"],
        f"cp notes.md {root}/{key}/": [key],
        f"cd {root} && rm -f {key}/old.md user/older.md": [key, "user"],
        f"mv {root}/{key}/a.md {root}/{key}/b.md": [key],
        "ls -la && git status": [],
        f"cat {root}/other-app-0badc0de/MEMORY.md": [],
    }
    for command, expected in cases.items():
        assert scopes_of(ToolWrites(texts=[command]), root, workspace, tmp_path) == expected


def test_v1_a_path_built_at_run_time_counts_for_both_own_scopes(
    layout_root: tuple[Path, Path, str], tmp_path: Path
) -> None:
    root, workspace, key = layout_root
    writes = ToolWrites(texts=[f"echo x > {root}/$(cat which)/topic.md"])
    assert scopes_of(writes, root, workspace, tmp_path) == ["user", key]


def test_v1_through_a_symlinked_folder_the_call_reads_the_mount_table_once(
    layout_root: tuple[Path, Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no Session record the hook derives the Session's key from its folder; one reached
    through a symlink is walked for procfs (A-9, K-1) with the call's one read of the mount
    table, never a second, and the write still counts for its own scope."""
    root, workspace, key = layout_root
    link = tmp_path / "app-link"
    link.symlink_to(workspace, target_is_directory=True)
    table, opened = counted_reads(monkeypatch)

    own = ToolWrites(paths=[str(root / key / "deploy.md")])
    assert scopes_of(own, root, link, tmp_path) == [key]
    assert (table.reads, opened) == (1, [])


def test_v1_without_a_memory_root_nothing_is_recorded_nor_the_mount_table_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No Session record and no ``--memory-root``: no memory to record, and the call (every
    tool call of a harness this Session does not guard) reads no mount table (H-5)."""
    table, opened = counted_reads(monkeypatch)
    settings = load_settings({"state_dir": str(tmp_path / "state")}, {})
    hook = HookInput(session_id="s1", cwd=str(tmp_path), tool_name="Write")
    writes = ToolWrites(paths=[str(tmp_path / "x.md")], texts=[f"echo x > {tmp_path}/y.md"])
    assert written_scopes(writes, hook, settings) == []
    assert (table.reads, opened) == (0, [])


# --- install, uninstall, status ----------------------------------------------------------------


def install(home: Path, harness: str, *extra: str) -> tuple[int, str]:
    out = io.StringIO()
    flags = ["--home", str(home), "--memory-root", ROOT, "--url", "http://127.0.0.1:8765"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", "/opt/am/bin/harness-memory"]
    status = main(
        ["install", harness, *flags, "--no-check", *extra],
        environ={"HOME": str(home)},
        stdout=out,
    )
    return status, out.getvalue()


def document_of(home: Path, harness: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((home / FILES[harness]).read_text(encoding="utf-8"))
    return loaded


def groups(document: dict[str, Any], event: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = document.get("hooks", {}).get(event, [])
    return found


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_v1_install_puts_the_post_write_hook_beside_the_guard_and_uninstall_takes_it_out(
    tmp_path: Path, harness: str
) -> None:
    guard_event, post_event, name = EVENTS[harness]
    assert install(tmp_path, harness, "--token", "t0k-secret-0123456789")[0] == 0
    document = document_of(tmp_path, harness)
    [guard] = groups(document, guard_event)
    [post] = groups(document, post_event)
    assert post["matcher"] == guard["matcher"]  # the same tools: what the guard let through
    [handler] = post["hooks"]
    command = handler["command"]
    assert command.startswith(f"/opt/am/bin/harness-memory hook {harness} {name} --url ")
    assert f"--memory-root {ROOT}" in command
    assert "t0k-secret" not in command  # never on a command line (ps shows it to everyone)
    if harness != "claude-code":  # Claude Code's hooks take it from the settings' env
        assert "--token-file" in command
    assert "exit 2" not in command  # a post-write hook never refuses anything
    status = io.StringIO()
    main(["status", "--home", str(tmp_path)], environ={"HOME": str(tmp_path)}, stdout=status)
    assert f"{harness}: versions are recorded after {guard['matcher']}" in status.getvalue()

    assert (
        main(
            ["uninstall", harness, "--home", str(tmp_path)],
            environ={"HOME": str(tmp_path)},
            stdout=io.StringIO(),
        )
        == 0
    )
    assert not (tmp_path / FILES[harness]).exists()  # the install created it: gone again


def test_v1_codex_trusts_its_post_write_hook(tmp_path: Path) -> None:
    """Codex CLI skips an untrusted hook silently: the install records its hash."""
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex" / "config.toml").write_text('model = "o3"\n', encoding="utf-8")
    install(tmp_path, "codex")
    source = str(tmp_path / ".codex" / "hooks.json")
    config = tomlkit.parse((tmp_path / ".codex" / "config.toml").read_text(encoding="utf-8"))
    [group] = groups(document_of(tmp_path, "codex"), "PostToolUse")
    expected = trust_hash("PostToolUse", group, group["hooks"][0])
    assert config["hooks"]["state"][f"{source}:post_tool_use:0:0"]["trusted_hash"] == expected
    main(["uninstall", "codex", "--home", str(tmp_path)], environ={"HOME": str(tmp_path)})
    config = tomlkit.parse((tmp_path / ".codex" / "config.toml").read_text(encoding="utf-8"))
    assert "post_tool_use" not in tomlkit.dumps(config)


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
def test_v1_status_says_when_an_earlier_install_has_no_post_write_hook(
    tmp_path: Path, harness: str
) -> None:
    install(tmp_path, harness)
    document = document_of(tmp_path, harness)
    del document["hooks"][EVENTS[harness][1]]
    (tmp_path / FILES[harness]).write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    main(["status", "--home", str(tmp_path)], environ={"HOME": str(tmp_path)}, stdout=out)
    assert f"{harness}: no post-write hook" in out.getvalue()
    assert f"run `harness-memory install {harness}` again" in out.getvalue()


# --- each harness's hook as a process, on its real CLI's input --------------------------------


def wait_for_version(service: RealService, agent: str, key: str, source: str) -> dict[str, Any]:
    """The newest version of ``agent``'s scope ``key`` from ``source``; the hook's detached
    process sends it after the hook has exited."""
    version: dict[str, Any] | None = service.wait_for_version(agent, key, source)
    assert version is not None, (
        f"no {source} version of {key}: {service.scope_versions(agent, key)}"
    )
    return version


def hook_flags(service: RealService, agent: str, root: Path, tmp_path: Path) -> list[str]:
    return [
        "--url",
        service.url,
        "--project",
        "acme",
        "--agent",
        agent,
        "--memory-root",
        str(root),
        "--state-dir",
        str(tmp_path / "state"),
    ]


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
async def test_v1_post_write_hook_records_a_version_naming_session_harness_and_tool(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    harness: str,
) -> None:
    workspace = tmp_path / "src" / "shop-api"
    workspace.mkdir(parents=True)
    key = workspace_memory_key(workspace)
    target = shared_memory_root / key / "hooks.md"
    target.parent.mkdir()
    target.write_text(TOPIC, encoding="utf-8")  # what the tool wrote, as the hook sees it after
    fixture, session_id, tool = RECORDED[harness]
    stdin = hook_fixture(fixture, workspace=str(workspace), target=str(target))
    env = {"HOME": str(tmp_path / "home")}
    flags = hook_flags(shared_service, new_agent, shared_memory_root, tmp_path)
    if harness == "claude-code":  # as installed: the token in the settings' env, or a file
        env["HARNESS_MEMORY_TOKEN"] = shared_service.token
    else:
        token_file = tmp_path / "token"
        token_file.write_text(shared_service.token + "\n", encoding="utf-8")
        token_file.chmod(0o600)
        flags += ["--token-file", str(token_file)]
    done = await run_cli("hook", harness, EVENTS[harness][2], *flags, stdin=stdin, env=env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")

    version = wait_for_version(shared_service, new_agent, key, "write")
    assert version["author"]["sessionId"] == session_id
    assert version["author"]["harness"] == harness
    assert version["author"]["tool"] == tool
    assert {"file": "hooks.md", "change": "added"} in version["files"]


@pytest.mark.parametrize(
    "fixture", ["post_tool_use_bash.json", "post_tool_use_edit.json"], ids=["Bash", "Edit"]
)
async def test_v1_claude_code_records_a_shell_write_and_an_edit_too(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    fixture: str,
) -> None:
    workspace = tmp_path / "src" / "shop-api"
    workspace.mkdir(parents=True)
    target = shared_memory_root / "user" / "shell-note.md"
    target.write_text(TOPIC, encoding="utf-8")
    stdin = hook_fixture(fixture, workspace=str(workspace), target=str(target))
    env = {"HARNESS_MEMORY_TOKEN": shared_service.token, "HOME": str(tmp_path / "home")}
    flags = hook_flags(shared_service, new_agent, shared_memory_root, tmp_path)
    done = await run_cli("hook", "claude-code", "post-tool-use", *flags, stdin=stdin, env=env)
    assert done.returncode == 0, done.stderr
    version = wait_for_version(shared_service, new_agent, "user", "write")
    assert version["author"]["tool"] == json.loads(stdin)["tool_name"]
    assert any(change["file"] == "shell-note.md" for change in version["files"])


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
async def test_v1_a_service_that_is_down_never_blocks_or_fails_the_write(
    tmp_path: Path, harness: str
) -> None:
    root = layout.memory_root(tmp_path / "data", "coder")
    workspace = tmp_path / "src" / "shop-api"
    workspace.mkdir(parents=True)
    target = root / workspace_memory_key(workspace) / "hooks.md"
    target.parent.mkdir(parents=True)
    target.write_text(TOPIC, encoding="utf-8")
    fixture = RECORDED[harness][0]
    stdin = hook_fixture(fixture, workspace=str(workspace), target=str(target))
    flags = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    flags += ["--memory-root", str(root), "--state-dir", str(tmp_path / "state")]
    done = await run_cli("hook", harness, EVENTS[harness][2], *flags, stdin=stdin)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert target.read_text(encoding="utf-8") == TOPIC


@pytest.mark.parametrize("harness", ["claude-code", "codex", "gemini"])
async def test_v1_malformed_hook_input_is_answered_with_nothing(
    tmp_path: Path, harness: str
) -> None:
    done = await run_cli(
        "hook", harness, EVENTS[harness][2], "--memory-root", str(tmp_path), stdin=b"[1, 2"
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert "hook input is not the JSON" in done.stderr
