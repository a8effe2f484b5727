"""H-3, H-6: hooks of ours in a project's ``.codex/`` run beside the user install; status,
install and uninstall name them, and the uninstall of that folder takes them out.

Codex CLI reads each ``.codex/`` folder from the Workspace up to the repository's root as a
config layer once the project is trusted, and runs the hooks of its ``hooks.json`` and of its
``config.toml``'s inline ``[hooks]`` whose trust the user's own ``[hooks.state]`` records
(codex-rs ``load_project_layers``, ``discovery.rs``). An install made once for the project
(``CODEX_HOME=<repo>/.codex harness-memory install codex``) left its hooks there: beside the
user install in ``~/.codex`` memory is injected twice per Session and two guards run.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.codex import trust_hash

from tests.plugin.helpers import HARNESS_MEMORY

MINE = "/usr/local/bin/notify-start"


def memory_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    return root


def run(home: Path, verb: str, *extra: str, codex_home: Path | None = None) -> tuple[int, str]:
    """``harness-memory VERB`` for Codex CLI with ``$CODEX_HOME`` (None: ``~/.codex``)."""
    out = io.StringIO()
    flags = ["--home", str(home)]
    if verb != "status":
        flags = ["codex", *flags]
    if verb == "install":
        flags += ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
        flags += ["--executable", str(HARNESS_MEMORY)]
    environ = {"HOME": str(home)} | ({"CODEX_HOME": str(codex_home)} if codex_home else {})
    status = main([verb, *flags, *extra], environ=environ, stdout=out)
    return status, out.getvalue()


def project_with_its_own_install(tmp_path: Path, home: Path, root: Path) -> Path:
    """A repository whose ``.codex/`` once got an install of its own, beside the user's
    hook of their own in its ``hooks.json``; returns the repository."""
    project = tmp_path / "src" / "app"
    (project / ".git").mkdir(parents=True)
    folder = project / ".codex"
    folder.mkdir()
    mine = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": MINE}]}]}}
    (folder / "hooks.json").write_text(json.dumps(mine), encoding="utf-8")
    flags = ("--memory-root", str(root))
    assert run(home, "install", *flags, codex_home=folder)[0] == 0
    assert run(home, "install", *flags)[0] == 0  # the user install, in ~/.codex
    return project


def trust_in_the_users_config(home: Path, hooks_json: Path) -> None:
    """What Codex writes when the user trusts the project's SessionStart hook: its entry in
    the user's own ``[hooks.state]`` (a project's own is ignored)."""
    [group] = json.loads(hooks_json.read_text(encoding="utf-8"))["hooks"]["SessionStart"]
    key = f"{hooks_json.absolute()}:session_start:0:0"
    trusted = trust_hash("SessionStart", group, group["hooks"][0])
    entry = f'\n[hooks.state."{key}"]\ntrusted_hash = "{trusted}"\n'
    config = home / ".codex" / "config.toml"
    config.write_text(config.read_text(encoding="utf-8") + entry, encoding="utf-8")


def test_status_names_our_trusted_hooks_in_a_projects_hooks_json_as_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Trusted by the user, the project's SessionStart of ours runs beside the installed one:
    status in that repository says PROBLEM, names the file and the uninstall that takes it
    out, and fails."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    hooks_json = project / ".codex" / "hooks.json"
    trust_in_the_users_config(home, hooks_json)
    monkeypatch.chdir(project)

    status, said = run(home, "status")

    named = [line for line in said.splitlines() if str(hooks_json) in line]
    assert named and named[0].startswith("codex: PROBLEM:"), said
    assert "SessionStart duplicate" in named[0] and "PreToolUse" in named[0], named[0]
    assert f"CODEX_HOME={project / '.codex'} harness-memory uninstall codex" in named[0]
    assert status != 0


def test_status_warns_of_our_hooks_in_a_project_not_trusted_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not trusted in the user's ``[hooks.state]``: Codex asks before it runs them, so a
    WARNING names them (hooks.json and the inline ones in the project's config.toml)."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    shared = project / ".codex" / "config.toml"
    inline = '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\n'
    command = "harness-memory hook codex stop --project acme --agent coder"
    shared.write_text(f"{inline}command = {json.dumps(command)}\n", encoding="utf-8")
    monkeypatch.chdir(project / ".codex")  # a folder inside the repository

    said = run(home, "status")[1]

    for path in (project / ".codex" / "hooks.json", shared):
        named = [line for line in said.splitlines() if f"{path} holds" in line]
        assert named and named[0].startswith("codex: WARNING:"), said
        assert "(not trusted)" in named[0], named[0]
    assert "Stop stale (not trusted)" in said, said


def test_the_named_uninstall_takes_ours_out_of_the_project_and_keeps_the_users(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command status names takes our hooks out of the project's ``.codex/`` (the
    user's own Stop hook stays) and status in the repository is healthy again; the user
    install in ``~/.codex`` stays."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    folder = project / ".codex"
    trust_in_the_users_config(home, folder / "hooks.json")
    monkeypatch.chdir(project)

    status, said = run(home, "uninstall", codex_home=folder)

    assert status == 0, said
    left = json.loads((folder / "hooks.json").read_text(encoding="utf-8"))
    assert left == {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": MINE}]}]}}
    status, said = run(home, "status")
    assert status == 0, said
    assert str(folder) not in said, said
    assert "hook codex session-start" in (home / ".codex" / "hooks.json").read_text("utf-8")


def test_install_and_uninstall_name_our_hooks_in_the_projects_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run in the repository, the user install and its uninstall do not edit the project's
    files: each names the project's file holding ours and the command that takes them out."""
    home = tmp_path / "home"
    root = memory_root(tmp_path)
    project = project_with_its_own_install(tmp_path, home, root)
    monkeypatch.chdir(project)
    hooks_json = project / ".codex" / "hooks.json"
    before = hooks_json.read_bytes()

    for verb in ("install", "uninstall"):
        status, said = run(home, verb, "--memory-root", str(root))
        assert status == 0, said
        named = [line for line in said.splitlines() if f"{hooks_json} holds" in line]
        assert named and "WARNING" in named[0], said
        assert f"CODEX_HOME={project / '.codex'} harness-memory uninstall codex" in named[0]
    assert hooks_json.read_bytes() == before


def test_the_folder_that_is_codex_home_is_no_project_layer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``CODEX_HOME`` the project's ``.codex/`` itself, Codex reads it as the user's
    layer only (it skips a project folder that is ``$CODEX_HOME``): no duplicate."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    monkeypatch.chdir(project)

    said = run(home, "status", codex_home=project / ".codex")[1]

    assert f"codex: installed in {project / '.codex' / 'hooks.json'}" in said, said
    assert "holds hooks of Agent Memory" not in said, said


def test_a_link_to_the_projects_folder_as_codex_home_is_no_project_layer_either(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``CODEX_HOME`` a link to the project's ``.codex/``: the same folder, read once."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    link = tmp_path / "project-codex"
    link.symlink_to(project / ".codex")
    monkeypatch.chdir(project)

    said = run(home, "status", codex_home=link)[1]

    assert "holds hooks of Agent Memory" not in said, said


def git(*words: str, cwd: Path) -> None:
    """``git WORDS`` in ``cwd``, as a user with a name."""
    who = ["-c", "user.name=me", "-c", "user.email=me@example.com"]
    subprocess.run(["git", *who, *words], cwd=cwd, check=True, capture_output=True)


def test_status_in_a_linked_worktree_names_the_main_checkouts_hooks_codex_runs_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a linked worktree with a ``.codex/`` of its own (a committed ``config.toml``),
    Codex CLI takes that layer's hooks from the main checkout's ``.codex/`` (codex-rs
    ``root_checkout_hooks_folder_for_dir``), keyed by that path: status there names the main
    checkout's ``hooks.json`` the user trusted as a PROBLEM with the uninstall of that folder,
    and not the worktree's own ``hooks.json``, which Codex never reads."""
    home = tmp_path / "home"
    root = memory_root(tmp_path)
    main_checkout = tmp_path / "src" / "main"
    (main_checkout / ".codex").mkdir(parents=True)
    (main_checkout / ".codex" / "config.toml").write_text('model = "o3"\n', encoding="utf-8")
    git("init", "-q", cwd=main_checkout)
    git("add", ".codex/config.toml", cwd=main_checkout)
    git("commit", "-q", "-m", "codex config", cwd=main_checkout)
    folder = main_checkout / ".codex"
    assert run(home, "install", "--memory-root", str(root), codex_home=folder)[0] == 0
    assert run(home, "install", "--memory-root", str(root))[0] == 0  # the user install
    worktree = tmp_path / "src" / "wt"
    git("worktree", "add", "-q", str(worktree), cwd=main_checkout)
    ignored = worktree / ".codex" / "hooks.json"
    ignored.write_bytes((folder / "hooks.json").read_bytes())
    trust_in_the_users_config(home, folder / "hooks.json")
    monkeypatch.chdir(worktree)

    status, said = run(home, "status")

    named = [line for line in said.splitlines() if f"{folder / 'hooks.json'} holds" in line]
    assert named and named[0].startswith("codex: PROBLEM:"), said
    assert f"CODEX_HOME={folder} harness-memory uninstall codex" in named[0]
    assert str(ignored) not in said, said
    assert status != 0


def test_the_named_uninstall_names_the_program_as_the_user_started_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beside ``make run`` the program is ``.venv/bin/harness-memory``: the uninstall status
    names after ``CODEX_HOME=…`` starts with it, as its other commands do."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    trust_in_the_users_config(home, project / ".codex" / "hooks.json")
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "argv", [".venv/bin/harness-memory", "status"])

    said = run(home, "status")[1]

    told = f"`CODEX_HOME={project / '.codex'} .venv/bin/harness-memory uninstall codex`"
    assert told in said, said
    assert " harness-memory uninstall" not in said, said


def test_status_names_our_hooks_in_a_project_under_a_dotfiles_repository_at_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``~`` itself a repository (dotfiles: ``~/.git``): Codex CLI walks from the Workspace
    ``~/projects/foo`` up to ``~``, the first folder with a ``.git``, and reads
    ``~/projects/.codex`` (not ``~/.codex``, the user's layer): status names ours there."""
    home = tmp_path / "home"
    (home / ".git").mkdir(parents=True)
    folder = home / "projects" / ".codex"
    folder.mkdir(parents=True)
    root = memory_root(tmp_path)
    assert run(home, "install", "--memory-root", str(root), codex_home=folder)[0] == 0
    assert run(home, "install", "--memory-root", str(root))[0] == 0  # the user install
    (home / "projects" / "foo").mkdir()
    monkeypatch.chdir(home / "projects" / "foo")

    said = run(home, "status")[1]

    named = [line for line in said.splitlines() if f"{folder / 'hooks.json'} holds" in line]
    assert named and named[0].startswith("codex: WARNING:"), said
    assert f"CODEX_HOME={folder} harness-memory uninstall codex" in named[0]
    assert f"{home / '.codex'}" + "/hooks.json holds" not in said, said


def project_markers_in_the_users_config(home: Path, markers: list[str]) -> None:
    """The user's ``project_root_markers`` (codex-rs default ``[".git"]``) atop their own
    ``config.toml``, a top-level key before its tables."""
    config = home / ".codex" / "config.toml"
    setting = f"project_root_markers = {json.dumps(markers)}\n"
    config.write_text(setting + config.read_text(encoding="utf-8"), encoding="utf-8")


def test_the_users_project_root_markers_set_how_far_up_codex_reads_project_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``project_root_markers = [".hg"]`` in the user's ``config.toml``, Codex CLI takes
    the first folder up from the Workspace holding a ``.hg`` as the project's root and reads
    its ``.codex/``: status in a subfolder names ours there."""
    home = tmp_path / "home"
    project = tmp_path / "src" / "app"
    (project / ".hg").mkdir(parents=True)
    folder = project / ".codex"
    root = memory_root(tmp_path)
    assert run(home, "install", "--memory-root", str(root), codex_home=folder)[0] == 0
    assert run(home, "install", "--memory-root", str(root))[0] == 0  # the user install
    project_markers_in_the_users_config(home, [".hg"])
    (project / "lib").mkdir()
    monkeypatch.chdir(project / "lib")

    said = run(home, "status")[1]

    named = [line for line in said.splitlines() if f"{folder / 'hooks.json'} holds" in line]
    assert named and named[0].startswith("codex: WARNING:"), said


def test_no_project_root_markers_means_codex_reads_the_workspaces_folder_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``project_root_markers = []``: Codex CLI reads only the Workspace's own ``.codex/``;
    ours at the repository's root, seen from a subfolder, is not run there and not named."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    trust_in_the_users_config(home, project / ".codex" / "hooks.json")
    project_markers_in_the_users_config(home, [])
    (project / "lib").mkdir()
    monkeypatch.chdir(project / "lib")

    status, said = run(home, "status")

    assert "holds hooks of Agent Memory" not in said, said
    assert status == 0, said


def test_the_named_uninstall_takes_the_users_trust_of_our_project_hooks_out_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user trusted the project's SessionStart of ours (an entry in ``~/.codex/config.toml``
    keyed by the project's ``hooks.json``): the named uninstall takes that entry out (its
    hash that of the hook it removes), else an identical install there later would run
    trusted without Codex asking; the user's trust of their own Stop hook there stays."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    hooks_json = project / ".codex" / "hooks.json"
    trust_in_the_users_config(home, hooks_json)
    config = home / ".codex" / "config.toml"
    mine = f'\n[hooks.state."{hooks_json}:stop:0:0"]\ntrusted_hash = "sha256:mine"\n'
    config.write_text(config.read_text(encoding="utf-8") + mine, encoding="utf-8")
    monkeypatch.chdir(project)

    status, said = run(home, "uninstall", codex_home=project / ".codex")

    assert status == 0, said
    left = config.read_text(encoding="utf-8")
    assert f"{hooks_json}:session_start" not in left, left
    assert f'[hooks.state."{hooks_json}:stop:0:0"]\ntrusted_hash = "sha256:mine"' in left, left
    assert f"{home / '.codex' / 'hooks.json'}:session_start:0:0" in left, left
    assert f"{config}" in said, said


def test_status_warns_of_the_users_trust_left_for_a_project_hook_no_longer_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project's ``.codex/`` gone (an uninstall before it took the user's trust out) and
    the user's ``config.toml`` still trusts its SessionStart: an identical hook put there
    again runs without Codex asking. Status in the project names the table to delete."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    hooks_json = project / ".codex" / "hooks.json"
    trust_in_the_users_config(home, hooks_json)
    shutil.rmtree(project / ".codex")
    monkeypatch.chdir(project)

    said = run(home, "status")[1]

    named = [line for line in said.splitlines() if f"{hooks_json}:session_start:0:0" in line]
    assert named and named[0].startswith("codex: WARNING:"), said
    assert str(home / ".codex" / "config.toml") in named[0], named[0]


def test_a_projects_hooks_json_codex_cannot_read_runs_nothing_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A field Codex refuses in the project's ``hooks.json`` (the user's hook with a
    ``timeout`` of ``"30"``): Codex reads none of that file, so ours there inject nothing
    twice, trusted or not; status judges it by the rules it judges the user's file by."""
    home = tmp_path / "home"
    project = project_with_its_own_install(tmp_path, home, memory_root(tmp_path))
    hooks_json = project / ".codex" / "hooks.json"
    trust_in_the_users_config(home, hooks_json)
    document = json.loads(hooks_json.read_text(encoding="utf-8"))
    mine = {"type": "command", "command": "make lint", "timeout": "30"}
    document["hooks"].setdefault("Stop", []).insert(0, {"hooks": [mine]})
    hooks_json.write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.chdir(project)

    said = run(home, "status")[1]

    assert "duplicate" not in said and "injected twice" not in said, said
