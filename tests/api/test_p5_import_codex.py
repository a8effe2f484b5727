"""P-5: ``memory import --from codex`` — Codex CLI's one memories folder, split by directory.

The fixture ``tests/data/harness-memory/codex`` is a ``$CODEX_HOME`` whose ``memories/`` holds
made-up memory in the layout Codex CLI 0.171 writes (its consolidation prompt's formats, its
rollout-summary writer): a summary, a handbook of task groups for the Workspace, for another
project and for no directory, Session recaps of the Workspace (one in a sub-folder), of the
other project and one recording no directory, an ad-hoc note, a skill, and the bookkeeping.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_core import layout
from memory_core.keys import key_for_real_path

from tests.api.harness_memory import (
    accounted,
    every_topic_indexed,
    place,
    run,
    scope_dir,
    snapshot,
)

MEMORIES = "memories"


@pytest.fixture
def codex(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """The Workspace (a git repository), another project, and ``$CODEX_HOME`` with the
    fixture placed; the agent ``coder`` made."""
    workspace = tmp_path / "src" / "shop-api"
    (workspace / "web").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    other = tmp_path / "src" / "billing"
    other.mkdir()
    home = tmp_path / "home"
    words = {"WORKSPACE": workspace.resolve(), "OTHER": other.resolve(), "HOME": home}
    codex_home = place("codex", home / ".codex", words)
    (codex_home / MEMORIES / ".git").mkdir()
    (codex_home / MEMORIES / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    env = {"HOME": str(home), "CODEX_HOME": str(codex_home)}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return {"workspace": workspace.resolve(), "other": other.resolve(), "home": codex_home}


def names(scope: Path) -> set[str]:
    return {p.name for p in scope.glob("*.md") if p.name != layout.INDEX_FILE}


def test_p5_codex_memories_split_between_user_and_workspace(
    data_dir: Path, codex: dict[str, Path]
) -> None:
    env = {"CODEX_HOME": str(codex["home"])}
    reports = run(data_dir, "codex", codex["workspace"], env)
    user = scope_dir(data_dir, "user")
    ours = scope_dir(data_dir, key_for_real_path(str(codex["workspace"])))
    assert {r.key for r in reports} == {"user", ours.name}
    assert names(ours) == {
        "shop-api-checkout-tests.md",
        "2026-11-20T09-12-44-aB3d-fix_flaky_checkout_test.md",
        "2026-11-25T08-00-00-Zz00.md",  # recorded in a folder inside the Workspace's repository
    }
    assert names(user) == {
        "user-profile.md",
        "when-tests-fail-the-user-asked-tell-me-what.md",
        "when-creating-python-environments-the-user.md",
        "the-user-asked-for-commit-messages-in-the.md",
        "run-uv-run-pytest-q-x-first-the-full-suite-takes.md",
        "make-lint-runs-ruff-and-mypy-ci-fails-on-either.md",
        "python-tooling-across-repositories.md",
        "2026-11-26T10-15-00-review-before-commit.md",
        "run-shop-tests.md",
    }
    every_topic_indexed(user)
    every_topic_indexed(ours)
    # every byte of a recap is kept: the file as Codex wrote it follows the frontmatter
    recap = "rollout_summaries/2026-11-20T09-12-44-aB3d-fix_flaky_checkout_test.md"
    written = (codex["home"] / MEMORIES / recap).read_text(encoding="utf-8")
    stored = (ours / Path(recap).name).read_text(encoding="utf-8")
    assert stored.endswith(written) and "updated_at: 2026-11-20" in stored
    group = (ours / "shop-api-checkout-tests.md").read_text(encoding="utf-8")
    assert "description: flaky or failing checkout tests in shop-api" in group
    assert "Symptom: test_checkout_total fails only on the 1st" in group
    assert "billing" not in "".join(p.read_text(encoding="utf-8") for p in ours.glob("*.md"))
    skill = codex["home"] / MEMORIES / "skills" / "run-shop-tests" / "SKILL.md"
    assert (user / "run-shop-tests.md").read_bytes() == skill.read_bytes()


def test_p5_codex_report_accounts_for_every_file(
    data_dir: Path, codex: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    reports = run(data_dir, "codex", codex["workspace"], {"CODEX_HOME": str(codex["home"])})
    assert accounted(reports, codex["home"] / MEMORIES) == []
    reasons = {s.origin: s.reason for r in reports for s in r.skipped}
    root = codex["home"] / MEMORIES
    billing = root / "rollout_summaries" / "2026-11-22T14-03-10-Qx9Z-migrate_billing_cron.md"
    assert f"memory import --from codex --workspace {codex['other']}" in reasons[str(billing)]
    assert "billing service cron" in "".join(reasons)  # the other project's task group, named
    assert "records no cwd" in reasons[str(root / "rollout_summaries/2026-10-02T11-00-00-Old0.md")]
    assert "consolidation input" in reasons[str(root / "raw_memories.md")]
    assert "baseline" in reasons[str(root / ".git")]
    assert "supporting file" in reasons[str(root / "skills/run-shop-tests/scripts/run.sh")]
    merged = {m.origin: m.detail for r in reports for m in r.merged}
    assert "routing index" in merged[f"{root / 'memory_summary.md'} § What's in Memory"]


def test_p5_codex_user_only_leaves_the_workspace_part(
    data_dir: Path, codex: dict[str, Path]
) -> None:
    reports = run(data_dir, "codex", None, {"CODEX_HOME": str(codex["home"])})
    assert [r.key for r in reports] == ["user"]
    assert [p.name for p in layout.memory_root(data_dir, "coder").iterdir()] == ["user"]
    reasons = " ".join(s.reason for s in reports[0].skipped)
    assert f"--workspace {codex['workspace']}" in reasons


def test_p5_codex_second_run_changes_nothing(
    data_dir: Path, codex: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["memory", "import", "--from", "codex", "--workspace", str(codex["workspace"])]
    argv += ["--project", "acme", "--agent", "coder"]
    assert main([*argv, "--dry-run"]) == 0
    assert [p.name for p in layout.memory_root(data_dir, "coder").iterdir()] == ["user"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "merged" in first and "not imported" in first
    before = snapshot(data_dir)
    (codex["home"] / MEMORIES / "memory_summary.md").touch()  # a newer date, the same memories
    assert main(argv) == 0
    assert "Nothing to change" in capsys.readouterr().out
    assert snapshot(data_dir) == before
