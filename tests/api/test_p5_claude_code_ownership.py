"""P-5: ``--from claude-code`` never imports another project's memory.

Claude Code's folder name is a lossy rendering of the project's path (every character outside
``[a-zA-Z0-9]`` becomes ``-``), so ``my_proj`` finds ``my-proj``'s folder. Before importing,
the folder is checked against the Workspace (``memory_api.transfer.ownership``): its
transcripts' ``cwd``, else the other directories that map to the same name. The case folder
``tests/data/cases/import-another-projects-claude-memory`` is run as its README says.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.transfer.claude_code import sanitize_path
from memory_api.transfer.ownership import same_name_directories
from memory_core import layout
from memory_core.keys import key_for_real_path

CASES = Path(__file__).resolve().parents[1] / "data" / "cases"
CASE = CASES / "import-another-projects-claude-memory"
ARGS = ["--project", "acme", "--agent", "coder"]
TOPIC = "---\nname: build\ndescription: how to build\nmetadata:\n  type: project\n---\nmake\n"


@pytest.fixture
def home(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME for Claude Code under ``tmp_path``; the CLI on the test data dir, agent made."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    return home


def claude_import(workspace: Path, *extra: str) -> int:
    return main(
        ["memory", "import", "--from", "claude-code", "--workspace", str(workspace), *ARGS, *extra]
    )


def scopes(data_dir: Path) -> list[str]:
    """The agent's scope folders other than the user scope."""
    return sorted(
        p.name for p in layout.memory_root(data_dir, "coder").iterdir() if p.name != "user"
    )


def project_folder(home: Path, base: Path) -> Path:
    """Claude Code's folder for the project whose base is ``base``, with a memory in it."""
    folder = home / ".claude" / "projects" / sanitize_path(os.path.realpath(base))
    (folder / "memory").mkdir(parents=True)
    (folder / "memory" / "build.md").write_text(TOPIC, encoding="utf-8")
    (folder / "memory" / "MEMORY.md").write_text(
        "- [Build](build.md) — how to build\n", encoding="utf-8"
    )
    return folder


def transcript(folder: Path, cwd: Path, session: str = "s1") -> None:
    """A Claude Code transcript whose Session ran in ``cwd`` (a summary line first)."""
    lines = [
        {"type": "summary", "summary": "Deploy", "leafUuid": "x"},
        {"type": "user", "cwd": str(cwd), "sessionId": session, "message": {"role": "user"}},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    (folder / f"{session}.jsonl").write_text(text, encoding="utf-8")


def test_import_another_projects_claude_memory(
    home: Path, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "base"
    subprocess.run(["sh", str(CASE / "make_input.sh"), str(base), str(home)], check=True)
    mine, theirs = (base / "my_proj").resolve(), (base / "my-proj").resolve()
    folder = home / ".claude" / "projects" / sanitize_path(str(theirs))
    capsys.readouterr()
    for dry in (["--dry-run"], []):
        assert claude_import(mine, *dry) == 1
        said = capsys.readouterr()
        assert f"its transcripts name only {theirs}" in said.err
        anyway = f"memory-api memory import {folder / 'memory'} --workspace {mine}"
        assert anyway in said.err  # how to import anyway: the folder by its path
        assert "staging" not in said.out
        assert scopes(data_dir) == []  # nothing written, no scope made
    # the way out it names works: the folder by its path, as the user decides
    assert main(["memory", "import", str(folder / "memory"), "--workspace", str(mine), *ARGS]) == 0
    scope = layout.memory_root(data_dir, "coder") / key_for_real_path(str(mine))
    assert (scope / "staging-db.md").read_bytes() == (
        folder / "memory" / "staging-db.md"
    ).read_bytes()
    # and my-proj itself imports as before: its transcripts name it
    assert claude_import(theirs) == 0
    assert key_for_real_path(str(theirs)) in scopes(data_dir)


def test_p5_transcripts_naming_the_workspace_or_a_folder_in_its_repo_import(
    home: Path, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "src" / "shop_api"
    (repo / "web").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (tmp_path / "src" / "shop-api").mkdir()  # same folder name: the transcripts decide
    folder = project_folder(home, repo)
    transcript(folder, repo.resolve() / "web")  # a Session started inside the repository
    assert claude_import(repo / "web") == 0
    assert (
        layout.memory_root(data_dir, "coder")
        / key_for_real_path(str(repo.resolve() / "web"))
        / "build.md"
    ).exists()
    transcript(folder, (tmp_path / "src" / "shop-api").resolve(), "s2")
    capsys.readouterr()
    assert claude_import(repo, "--dry-run") == 0  # named by both: it is ours, and shared
    assert f"shared with {(tmp_path / 'src' / 'shop-api').resolve()}" in capsys.readouterr().out


def test_p5_transcripts_naming_another_worktree_of_the_workspaces_repository_import(
    home: Path, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code keeps the Sessions of every linked worktree in the main working tree's
    folder, each transcript recording its own worktree as ``cwd``: a folder whose transcripts
    name only ``shop_api-feature`` (a linked worktree of ``shop_api``) is the memory of
    ``shop_api`` and of its other worktrees, not another project's. ``shop-api``, outside that
    repository but of the same folder name, is still refused."""
    main_tree = tmp_path / "src" / "shop_api"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-C", str(main_tree)]
    subprocess.run(["git", "init", "-q", str(main_tree)], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "start"], check=True)
    for name in ("shop_api-feature", "shop_api-fix"):
        worktree = tmp_path / "src" / name
        subprocess.run([*git, "worktree", "add", "-q", "-b", name, str(worktree)], check=True)
    folder = project_folder(home, main_tree)
    feature = (tmp_path / "src" / "shop_api-feature").resolve()
    transcript(folder, feature)

    for workspace in (main_tree, tmp_path / "src" / "shop_api-fix"):
        assert claude_import(workspace) == 0, capsys.readouterr().err
        assert (
            layout.memory_root(data_dir, "coder")
            / key_for_real_path(str(workspace.resolve()))
            / "build.md"
        ).exists()
    rival = tmp_path / "src" / "shop-api"
    rival.mkdir()
    capsys.readouterr()
    assert claude_import(rival, "--dry-run") == 1
    assert f"its transcripts name only {feature}" in capsys.readouterr().err


def test_p5_without_transcripts_another_directory_of_the_same_name_stops_it(
    home: Path, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = tmp_path / "w" / "a" / "b"
    workspace.mkdir(parents=True)
    other = tmp_path / "w" / "a-b"
    other.mkdir()
    project_folder(home, workspace)
    assert same_name_directories(sanitize_path(str(workspace.resolve())), workspace.resolve()) == [
        other.resolve()
    ]
    assert claude_import(workspace) == 1
    said = capsys.readouterr().err
    assert f"may be the memory of {other.resolve()}" in said and "name the folder" in said
    assert scopes(data_dir) == []
    other.rmdir()  # the only directory of that name now: the folder can only be the Workspace's
    assert claude_import(workspace) == 0
    assert scopes(data_dir) == [key_for_real_path(str(workspace.resolve()))]


def test_p5_a_folder_inside_another_repository_is_no_rival(tmp_path: Path) -> None:
    """Claude Code names a folder inside a repository by the repository's root, so a folder of
    the same rendering inside another repository never shares the Workspace's folder."""
    workspace = tmp_path / "y" / "a" / "b" / "c"
    workspace.mkdir(parents=True)
    rival = tmp_path / "y" / "a-b" / "c"
    rival.mkdir(parents=True)
    name = sanitize_path(str(workspace.resolve()))
    assert same_name_directories(name, workspace.resolve()) == [rival.resolve()]
    subprocess.run(["git", "init", "-q", str(tmp_path / "y" / "a-b")], check=True)
    assert same_name_directories(name, workspace.resolve()) == []


def test_p5_a_name_that_is_not_utf8_is_read_as_claude_code_reads_it(
    home: Path, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code (Node) reads each byte sequence of a name that is not UTF-8 as U+FFFD, one
    ``-``: such a directory beside the Workspace is a rival like any other (the check stopped
    with a codec error), named escaped as a listing shows it (T-5b)."""
    (tmp_path / "w").mkdir()
    workspace = tmp_path / "w" / "my_proj"
    workspace.mkdir()
    rival = Path(os.fsdecode(os.fsencode(tmp_path / "w") + b"/my\xe9proj"))
    rival.mkdir()
    project_folder(home, workspace)
    assert claude_import(workspace) == 1
    said = capsys.readouterr().err
    assert f"may be the memory of {tmp_path.resolve()}/w/my\\xe9proj, not of" in said
    assert scopes(data_dir) == []
    assert sanitize_path(str(rival.resolve())) == sanitize_path(str(workspace.resolve()))
