"""P-5: ``--from claude-code`` finds Claude Code's own auto-memory folder of a Workspace.

The folder naming is ported from Claude Code 2.1.332's shipped CLI; the port is checked against
the CLI's own two functions (copied below, as minified in the CLI) run by Node.js.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.transfer.claude_code import (
    claude_code_memory_dir,
    git_project_root,
    java_string_hash,
    sanitize_path,
)
from memory_core import layout

from tests.api.test_p5_import import CASE
from tests.support.npm_cache import unavailable

# From @anthropic-ai/claude-code 2.1.332 (bin/claude.exe): the hash and the folder name.
CLAUDE_CODE_JS = """
function Nle(n){let t=0;for(let r=0;r<n.length;r++)t=(t<<5)-t+n.charCodeAt(r)|0;return t}
function me(e){return Math.abs(Nle(e)).toString(36)}
function w(e){return e.replace(/[^a-zA-Z0-9]/g,"-")}
function J$(e){let n=w(e);if(n.length<=200)return n;return`${n.slice(0,200)}-${me(e)}`}
const paths = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(paths.map((p) => [Nle(p), J$(p)])));
"""
PATHS = [
    "/home/ada/src/shop-api",
    "/home/ada/My Repo (2)/über-app",
    "/srv/" + "deep/" * 60 + "project",
    "/srv/" + "データ/" * 80 + "x",
    "/tmp/emoji-😀-" + "a" * 210,
]


def node() -> str:
    """The Node.js binary; the port check cannot run without it."""
    found = shutil.which("node")
    if found is None:
        unavailable("CLAUDE CODE NAMING CHECK", "node is not installed")
    return found


def test_p5_folder_name_matches_claude_codes_own_functions() -> None:
    done = subprocess.run(
        [node(), "-e", CLAUDE_CODE_JS],
        input=json.dumps(PATHS),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    expected = json.loads(done.stdout)
    assert [[java_string_hash(p), sanitize_path(p)] for p in PATHS] == expected
    assert len(sanitize_path(PATHS[2])) > 200  # the long form, with its hash, was exercised


def git(*argv: str) -> None:
    """Run git quietly with a fixed identity."""
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=T", *argv],
        check=True,
        capture_output=True,
        timeout=60,
    )


def test_p5_a_worktree_shares_the_main_working_trees_memory(tmp_path: Path) -> None:
    repo = tmp_path / "src" / "shop api"
    repo.mkdir(parents=True)
    git("init", "-q", str(repo))
    git("-C", str(repo), "commit", "-q", "--allow-empty", "-m", "start")
    worktree = tmp_path / "src" / "shop-feature"
    git("-C", str(repo), "worktree", "add", "-q", str(worktree))
    (repo / "pkg").mkdir()
    real_repo = Path(os.path.realpath(repo))
    assert git_project_root(Path(os.path.realpath(worktree))) == real_repo
    assert git_project_root(real_repo / "pkg") == real_repo
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    expected = tmp_path / "cfg" / "projects" / sanitize_path(str(real_repo)) / "memory"
    assert claude_code_memory_dir(str(worktree), env) == expected
    assert claude_code_memory_dir(str(repo / "pkg"), env) == expected
    plain = tmp_path / "plain"
    plain.mkdir()
    home_default = Path("/home/ada/.claude/projects")
    assert claude_code_memory_dir(str(plain), {"HOME": "/home/ada"}) == (
        home_default / sanitize_path(os.path.realpath(plain)) / "memory"
    )


def _empty_git_folder(outer: Path) -> None:
    (outer / ".git").mkdir()  # what the Codex CLI leaves at /tmp/.git while it runs


def _head_only(outer: Path) -> None:
    (outer / ".git").mkdir()
    (outer / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")


def _no_refs(outer: Path) -> None:
    _head_only(outer)
    (outer / ".git" / "objects").mkdir()


def _a_head_that_names_no_ref(outer: Path) -> None:
    _head_only(outer)
    (outer / ".git" / "objects").mkdir()
    (outer / ".git" / "refs").mkdir()
    (outer / ".git" / "HEAD").write_text("ref: heads/main\n", encoding="utf-8")


def _made_by_hand(outer: Path) -> None:
    _head_only(outer)
    (outer / ".git" / "objects").mkdir()
    (outer / ".git" / "refs").mkdir()


def _detached_by_hand(outer: Path) -> None:
    _made_by_hand(outer)
    (outer / ".git" / "HEAD").write_text("a" * 40 + "\n", encoding="utf-8")


def _head_a_symlink_to_a_ref(outer: Path) -> None:
    _made_by_hand(outer)
    (outer / ".git" / "HEAD").unlink()
    (outer / ".git" / "HEAD").symlink_to("refs/heads/main")


def _git_init(outer: Path) -> None:
    git("init", "-q", str(outer))


def _empty_git_folder_inside_a_repository(outer: Path) -> None:
    _git_init(outer)
    (outer / "pkg").mkdir()
    _empty_git_folder(outer / "pkg")


def _git_file_naming_no_repository(outer: Path) -> None:
    (outer / "elsewhere").mkdir()
    (outer / ".git").write_text("gitdir: elsewhere\n", encoding="utf-8")


def _git_file_naming_a_repository(outer: Path) -> None:
    _git_init(outer / "store")
    (outer / ".git").write_text("gitdir: store/.git\n", encoding="utf-8")


@pytest.mark.parametrize(
    "layout",
    [
        _empty_git_folder,
        _head_only,
        _no_refs,
        _a_head_that_names_no_ref,
        _made_by_hand,
        _detached_by_hand,
        _head_a_symlink_to_a_ref,
        _git_init,
        _empty_git_folder_inside_a_repository,
        _git_file_naming_no_repository,
        _git_file_naming_a_repository,
    ],
)
def test_p5_the_repository_above_a_workspace_is_the_one_git_finds(
    tmp_path: Path, layout: Callable[[Path], None]
) -> None:
    """git takes a ``.git`` folder as a repository only when it holds a valid ``HEAD``,
    ``objects`` and ``refs`` (``is_git_directory``), and a ``.git`` file only when it names
    such a folder; any other ``.git`` is passed over (a folder) or ends the search (a file).
    The lookup answers as ``git rev-parse --show-toplevel`` does, run in the Workspace."""
    outer = tmp_path / "outer"
    outer.mkdir()
    layout(outer)
    workspace = outer / "pkg" / "app"
    workspace.mkdir(parents=True)

    done = subprocess.run(
        ["git", "-C", str(workspace), "rev-parse", "--show-toplevel"],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    by_git = Path(done.stdout.strip()) if done.returncode == 0 else None

    assert git_project_root(Path(os.path.realpath(workspace))) == by_git
    assert by_git in (None, Path(os.path.realpath(outer))), done.stderr


def test_p5_an_empty_git_folder_above_the_workspace_leaves_its_memory_where_it_is(
    tmp_path: Path,
) -> None:
    """While the Codex CLI runs it makes an empty ``/tmp/.git``: the import of a Workspace
    below it still looks in the folder named after the Workspace, not after ``/tmp``."""
    _empty_git_folder(tmp_path)
    workspace = tmp_path / "shop"
    workspace.mkdir()
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}

    found = claude_code_memory_dir(str(workspace), env)

    name = sanitize_path(os.path.realpath(workspace))
    assert found == tmp_path / "cfg" / "projects" / name / "memory"


def test_p5_user_setting_auto_memory_directory_wins(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "settings.json").write_text(
        json.dumps({"autoMemoryDirectory": "~/notes/memory"}), encoding="utf-8"
    )
    env = {"CLAUDE_CONFIG_DIR": str(config), "HOME": str(tmp_path)}
    found = claude_code_memory_dir(str(tmp_path), env)
    assert found == tmp_path / "notes" / "memory"  # ~/ is the HOME the import runs with


@pytest.mark.parametrize("value", ["notes/memory", "~/../elsewhere/memory", "~", " /srv/memory"])
def test_p5_an_auto_memory_directory_claude_code_ignores_leaves_the_default_folder(
    tmp_path: Path, value: str
) -> None:
    """Claude Code ignores a relative path, ``~`` alone or a ``~/..`` leading out of the home
    (and keeps its memory in ``projects/<folder>/memory``): the import reads that folder, never
    one the value would name from the directory it runs in."""
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "settings.json").write_text(
        json.dumps({"autoMemoryDirectory": value}), encoding="utf-8"
    )
    workspace = tmp_path / "shop"
    workspace.mkdir()
    env = {"CLAUDE_CONFIG_DIR": str(config), "HOME": str(tmp_path / "home")}

    found = claude_code_memory_dir(str(workspace), env)

    name = sanitize_path(os.path.realpath(workspace))
    assert found == config / "projects" / name / "memory"


def test_p5_import_from_claude_code(
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "200")
    config = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    workspace = tmp_path / "src" / "shop"
    workspace.mkdir(parents=True)
    argv = ["memory", "import", "--from", "claude-code", "--workspace", str(workspace)]
    argv += ["--project", "acme", "--agent", "coder"]
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    assert main(argv) == 1
    assert "Claude Code keeps no memory for that Workspace" in capsys.readouterr().err
    folder = config / "projects" / sanitize_path(os.path.realpath(workspace)) / "memory"
    shutil.copytree(CASE / "memory", folder)
    assert main(argv) == 0
    assert str(folder) in capsys.readouterr().err
    scopes = [p for p in layout.memory_root(data_dir, "coder").iterdir() if p.name != "user"]
    [scope] = scopes
    assert (scope / "feedback_prefers_uv.md").read_bytes() == (
        CASE / "memory" / "feedback_prefers_uv.md"
    ).read_bytes()
    assert (
        main(
            [
                "memory",
                "import",
                str(folder),
                "--from",
                "claude-code",
                "--workspace",
                str(workspace),
                "--project",
                "acme",
                "--agent",
                "coder",
            ]
        )
        == 1
    )
    assert "no SOURCE" in capsys.readouterr().err


def test_p5_a_symlinked_workspace_imports_the_folder_claude_code_names_from_its_real_path(
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Claude Code names a project's folder from its physical working directory (``pwd -P``:
    anthropics/claude-code#72049, #44456), so a Workspace reached through a symlink has its
    memory under the real path's name, never the link's; and a ``--workspace`` that does not
    exist is refused by name, nothing imported (P-5)."""
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "200")
    config = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    real = tmp_path / "real" / "shop"
    real.mkdir(parents=True)
    link = tmp_path / "shop-link"
    link.symlink_to(real, target_is_directory=True)
    decoy = config / "projects" / sanitize_path(str(link)) / "memory"  # the link's name: unused
    decoy.mkdir(parents=True)
    (decoy / "decoy.md").write_text("---\nname: decoy\n---\nnot Claude Code's\n", encoding="utf-8")
    folder = config / "projects" / sanitize_path(str(real)) / "memory"
    shutil.copytree(CASE / "memory", folder)
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    args = ["--project", "acme", "--agent", "coder"]

    missing = tmp_path / "no-such-project"
    assert (
        main(["memory", "import", "--from", "claude-code", "--workspace", str(missing), *args]) == 1
    )
    assert f"the Workspace {missing} is no directory on this machine" in capsys.readouterr().err
    assert [p.name for p in layout.memory_root(data_dir, "coder").iterdir()] == ["user"]

    assert main(["memory", "import", "--from", "claude-code", "--workspace", str(link), *args]) == 0
    assert str(folder) in capsys.readouterr().err
    [scope] = [p for p in layout.memory_root(data_dir, "coder").iterdir() if p.name != "user"]
    assert (scope / "feedback_prefers_uv.md").is_file()
    assert not (scope / "decoy.md").exists()
    assert claude_code_memory_dir(str(link), {"CLAUDE_CONFIG_DIR": str(config)}) == folder
