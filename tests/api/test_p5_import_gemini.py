"""P-5: ``memory import --from gemini`` — Gemini CLI's global file, project file, private folder.

The fixture ``tests/data/harness-memory/gemini`` is a HOME in Gemini CLI 0.61's layout (its
project registry ``projects.json``, ``tmp/<project>/.project_root``, the private memory folder
with Auto Memory's drafts and bookkeeping) whose ``~/.gemini/GEMINI.md`` ends with a
``## Gemini Added Memories`` section as ``save_memory`` wrote it, and a Workspace whose
``GEMINI.md`` has one too. Two projects share the base name ``shop-api``: the other one owns
the folder ``shop-api``, the Workspace ``shop-api-1``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout
from memory_core.keys import key_for_real_path

from tests.api.harness_memory import (
    accounted,
    agent_made,
    every_topic_indexed,
    import_argv,
    place,
    run,
    scope_dir,
    snapshot,
    topic_texts,
)


@pytest.fixture
def gemini(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """The Workspace ``…/work/shop-api``, another ``…/old/shop-api``, and the HOME."""
    workspace = tmp_path / "work" / "shop-api"
    other = tmp_path / "old" / "shop-api"
    other.mkdir(parents=True)
    home = tmp_path / "home"
    words = {"WORKSPACE": workspace.resolve(), "OTHER": other.resolve()}
    place("gemini/home", home, words)
    place("gemini/workspace", workspace, words)
    agent_made(data_dir, monkeypatch, HOME=str(home), GEMINI_CLI_HOME=None)
    return {"workspace": workspace.resolve(), "other": other.resolve(), "home": home}


def test_p5_gemini_memory_split_between_user_and_workspace(
    data_dir: Path, gemini: dict[str, Path]
) -> None:
    reports = run(data_dir, "gemini", gemini["workspace"], {"HOME": str(gemini["home"])})
    user = topic_texts(scope_dir(data_dir, "user"))
    ours = topic_texts(scope_dir(data_dir, key_for_real_path(str(gemini["workspace"]))))
    assert set(user) == {
        "i-prefer-pnpm-over-npm-in-every-javascript.md",
        "my-github-handle-is-ada-l.md",
        "when-i-say-ship-it-run-the-tests-commit-and-push.md",
        "personal-instructions.md",  # the global file's own sections, one topic file each
        "coding-style.md",
    }
    assert user["my-github-handle-is-ada-l.md"].endswith("---\nMy GitHub handle is ada-l\n")
    assert "- Tests with pytest, never unittest." in user["coding-style.md"]
    assert set(ours) == {
        "the-dev-server-runs-on-port-8081-on-my-machine.md",
        "my-local-postgres-password-lives-in-the.md",
        "do-not-commit-env-local.md",
        "local-setup.md",  # the private folder's note, as it is
        "the-staging-url-is-https-staging-shop-example.md",  # the project GEMINI.md's section
    }
    note = gemini["home"] / ".gemini/tmp/shop-api-1/memory/local-setup.md"
    assert ours["local-setup.md"] == note.read_text(encoding="utf-8")
    assert "§ Reminders, item 1" in ours["do-not-commit-env-local.md"]  # its heading, kept
    assert "staging-3" not in "".join(ours.values())  # the other shop-api's memory stays out
    every_topic_indexed(scope_dir(data_dir, "user"))
    every_topic_indexed(scope_dir(data_dir, key_for_real_path(str(gemini["workspace"]))))
    index = (scope_dir(data_dir, reports[1].key) / "MEMORY.md").read_text(encoding="utf-8")
    assert "- [Local setup](local-setup.md) — how my laptop runs shop-api" in index


def test_p5_gemini_report_accounts_for_every_file(data_dir: Path, gemini: dict[str, Path]) -> None:
    reports = run(data_dir, "gemini", gemini["workspace"], {"HOME": str(gemini["home"])})
    private = gemini["home"] / ".gemini" / "tmp" / "shop-api-1" / "memory"
    assert accounted(reports, private) == []
    reasons = {s.origin: s.reason for r in reports for s in r.skipped}
    assert "/memory inbox" in reasons[str(private / ".inbox")]
    assert "skill drafts" in reasons[str(private / "skills")]
    merged = {m.origin: m.detail for r in reports for m in r.merged}
    assert (
        "3 added memories and 2 other sections" in merged[str(gemini["home"] / ".gemini/GEMINI.md")]
    )
    project = merged[str(gemini["workspace"] / "GEMINI.md")]
    assert "1 added memory →" in project and "stays in the repository" in project
    assert "3 brief facts" in merged[str(private / "MEMORY.md")]


def test_p5_gemini_a_heading_with_no_text_of_its_own_makes_no_memory(
    data_dir: Path, gemini: dict[str, Path]
) -> None:
    global_file = gemini["home"] / ".gemini" / "GEMINI.md"
    global_file.write_text(
        "# My Gemini notes\n\n## Coding style\n\n- Type hints everywhere.\n\n"
        "## Gemini Added Memories\n- My GitHub handle is ada-l\n",
        encoding="utf-8",
    )
    reports = run(data_dir, "gemini", gemini["workspace"], {"HOME": str(gemini["home"])})
    user = topic_texts(scope_dir(data_dir, "user"))
    assert set(user) == {"my-github-handle-is-ada-l.md", "coding-style.md"}
    merged = {m.origin: m.detail for r in reports for m in r.merged}
    assert merged[str(global_file)] == (
        "1 added memory and 1 other section → topic files (user scope); "
        "1 heading with no text of its own left out"
    )


def test_p5_gemini_headings_left_out_are_counted_in_the_right_number(
    data_dir: Path, gemini: dict[str, Path]
) -> None:
    """Two bare headings read "2 headings with no text of their own", never "their" for one."""
    global_file = gemini["home"] / ".gemini" / "GEMINI.md"
    global_file.write_text(
        "# My Gemini notes\n\n## Later\n\n## Gemini Added Memories\n- My GitHub handle is ada-l\n",
        encoding="utf-8",
    )
    reports = run(data_dir, "gemini", gemini["workspace"], {"HOME": str(gemini["home"])})
    merged = {m.origin: m.detail for r in reports for m in r.merged}
    assert merged[str(global_file)] == (
        "1 added memory and 0 other sections → topic files (user scope); "
        "2 headings with no text of their own left out"
    )


def test_p5_gemini_second_run_changes_nothing(
    data_dir: Path, gemini: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = import_argv("gemini", gemini["workspace"])
    assert main(argv) == 0
    before = snapshot(data_dir)
    with (gemini["home"] / ".gemini" / "GEMINI.md").open("a", encoding="utf-8") as handle:
        handle.write("- I review every diff before a commit\n")  # a new fact: its own file
    capsys.readouterr()
    assert main(argv) == 0
    after = snapshot(data_dir)
    added = set(after) - set(before)
    assert [Path(p).name for p in added] == ["i-review-every-diff-before-a-commit.md"]
    assert {p: after[p] for p in before if "MEMORY.md" not in p} == {
        p: v for p, v in before.items() if "MEMORY.md" not in p
    }  # nothing made before was touched, though the file's date moved
    assert main(argv) == 0
    assert "Nothing to change" in capsys.readouterr().out
    assert snapshot(data_dir) == after


def test_p5_gemini_folder_found_through_its_registry_never_its_name(
    data_dir: Path, gemini: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    gemini_dir = gemini["home"] / ".gemini"
    registry = gemini_dir / "projects.json"
    # the registry maps the Workspace to the other project's folder: its .project_root says no
    registry.write_text(
        json.dumps({"projects": {str(gemini["workspace"]): "shop-api"}}), encoding="utf-8"
    )
    argv = import_argv("gemini", gemini["workspace"], "--dry-run")
    assert main(argv) == 1
    said = capsys.readouterr().err
    assert f"belongs to {gemini['other']}" in said and "name the folder" in said
    # no registry entry at all: found by the .project_root naming it, as Gemini CLI does
    registry.write_text(json.dumps({"projects": {}}), encoding="utf-8")
    reports = run(data_dir, "gemini", gemini["workspace"], {"HOME": str(gemini["home"])})
    ours = topic_texts(scope_dir(data_dir, key_for_real_path(str(gemini["workspace"]))))
    assert "local-setup.md" in ours and "staging-3" not in "".join(ours.values())
    # a project Gemini CLI never registered: only the user part; the name is never guessed
    (gemini_dir / "tmp" / "shop-api-1" / ".project_root").write_text("/elsewhere")
    fresh = data_dir.parent / "data2"
    fresh.mkdir()
    reports = run(fresh, "gemini", gemini["workspace"], {"HOME": str(gemini["home"])})
    workspace_report = next(r for r in reports if r.key != "user")
    assert [o.name for o in workspace_report.files] == [
        "the-staging-url-is-https-staging-shop-example.md"
    ]


def test_p5_gemini_user_only(data_dir: Path, gemini: dict[str, Path]) -> None:
    reports = run(data_dir, "gemini", None, {"HOME": str(gemini["home"])})
    assert [r.key for r in reports] == ["user"]
    assert [p.name for p in layout.memory_root(data_dir, "coder").iterdir()] == ["user"]


def test_p5_gemini_cli_home_names_the_folder_holding_dot_gemini_as_the_not_found_hint_says(
    data_dir: Path, gemini: dict[str, Path], tmp_path: Path
) -> None:
    # The import that finds nothing says: set GEMINI_CLI_HOME to the folder that holds its
    # .gemini folder. Done so, from a HOME that holds none, the user's memory is found.
    empty_home = tmp_path / "elsewhere"
    empty_home.mkdir()
    env = {"HOME": str(empty_home), "GEMINI_CLI_HOME": str(gemini["home"])}

    run(data_dir, "gemini", None, env)

    assert "my-github-handle-is-ada-l.md" in topic_texts(scope_dir(data_dir, "user"))
