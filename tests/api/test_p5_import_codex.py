"""P-5: ``memory import --from codex`` — Codex CLI's one memories folder, split by directory.

The fixture ``tests/data/harness-memory/codex`` is a ``$CODEX_HOME`` whose ``memories/`` holds
made-up memory in the layout Codex CLI 0.171 writes (its consolidation prompt's formats, its
rollout-summary writer): a summary, a handbook of task groups for the Workspace, for another
project and for no directory, Session recaps of the Workspace (one in a sub-folder), of the
other project and one recording no directory, an ad-hoc note, a skill, and the bookkeeping.
Each test runs on both folder names, ``memories/`` and ``memories_v2/``; then both folders, as
an upgraded Codex leaves them; the last test has ``memories_v2/`` in the narrower shape Codex's
second memory pipeline writes (fixture ``codex-v2``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from memory_api.cli import main
from memory_api.transfer.codex import codex_scopes
from memory_api.transfer.sources import SourceError
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

LAYOUTS = ("memories", "memories_v2")
"""Codex's memories folders: its first memory pipeline's and its second's."""


WORKSPACE_TOPICS = {
    "shop-api-checkout-tests.md",
    "2026-11-20T09-12-44-aB3d-fix_flaky_checkout_test.md",
    "2026-11-25T08-00-00-Zz00.md",  # recorded in a folder inside the Workspace's repository
}
"""The topic files the fixture's memories make in the Workspace scope."""
USER_TOPICS = {
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
"""The topic files they make in the user scope."""


def place_codex(tmp_path: Path, folders: tuple[str, ...]) -> dict[str, Path]:
    """The Workspace (a git repository), another project, and ``$CODEX_HOME`` with the
    fixture placed as each of ``folders``, each with Codex's consolidation baseline."""
    workspace = tmp_path / "src" / "shop-api"
    (workspace / "web").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    other = tmp_path / "src" / "billing"
    other.mkdir()
    home = tmp_path / "home"
    words = {"WORKSPACE": workspace.resolve(), "OTHER": other.resolve(), "HOME": home}
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True)
    for folder in folders:
        placed = place("codex", tmp_path / "placed" / folder, words) / "memories"
        placed.rename(codex_home / folder)
        (codex_home / folder / ".git").mkdir()
        (codex_home / folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (codex_home / folders[0] / ".codex-baseline").mkdir()
    (codex_home / folders[0] / ".codex-baseline" / "lock").write_text("")
    return {
        "workspace": workspace.resolve(),
        "other": other.resolve(),
        "home": codex_home,
        "memories": codex_home / folders[0],
    }


def make_agent(data_dir: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent ``coder`` made; ``HOME`` and ``$CODEX_HOME`` set for the CLI."""
    agent_made(data_dir, monkeypatch, HOME=str(codex_home.parent), CODEX_HOME=str(codex_home))


@pytest.fixture(params=LAYOUTS)
def codex(
    request: pytest.FixtureRequest,
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> dict[str, Path]:
    """:func:`place_codex` with one folder, in each layout; the agent made."""
    placed = place_codex(tmp_path, (request.param,))
    make_agent(data_dir, placed["home"], monkeypatch)
    return placed


def names(scope: Path) -> set[str]:
    return set(topic_texts(scope))


def test_p5_codex_memories_split_between_user_and_workspace(
    data_dir: Path, codex: dict[str, Path]
) -> None:
    env = {"CODEX_HOME": str(codex["home"])}
    reports = run(data_dir, "codex", codex["workspace"], env)
    user = scope_dir(data_dir, "user")
    ours = scope_dir(data_dir, key_for_real_path(str(codex["workspace"])))
    assert {r.key for r in reports} == {"user", ours.name}
    assert names(ours) == WORKSPACE_TOPICS
    assert names(user) == USER_TOPICS
    every_topic_indexed(user)
    every_topic_indexed(ours)
    # every byte of a recap is kept: the file as Codex wrote it follows the frontmatter
    recap = "rollout_summaries/2026-11-20T09-12-44-aB3d-fix_flaky_checkout_test.md"
    written = (codex["memories"] / recap).read_text(encoding="utf-8")
    stored = (ours / Path(recap).name).read_text(encoding="utf-8")
    assert stored.endswith(written) and "updated_at: 2026-11-20" in stored
    group = (ours / "shop-api-checkout-tests.md").read_text(encoding="utf-8")
    assert "description: flaky or failing checkout tests in shop-api" in group
    assert "Symptom: test_checkout_total fails only on the 1st" in group
    assert "billing" not in "".join(p.read_text(encoding="utf-8") for p in ours.glob("*.md"))
    skill = codex["memories"] / "skills" / "run-shop-tests" / "SKILL.md"
    assert (user / "run-shop-tests.md").read_bytes() == skill.read_bytes()


def test_p5_codex_report_accounts_for_every_file(
    data_dir: Path, codex: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    reports = run(data_dir, "codex", codex["workspace"], {"CODEX_HOME": str(codex["home"])})
    assert accounted(reports, codex["memories"]) == []
    reasons = {s.origin: s.reason for r in reports for s in r.skipped}
    root = codex["memories"]
    billing = root / "rollout_summaries" / "2026-11-22T14-03-10-Qx9Z-migrate_billing_cron.md"
    assert f"memory import --from codex --workspace {codex['other']}" in reasons[str(billing)]
    assert "billing service cron" in "".join(reasons)  # the other project's task group, named
    assert "records no cwd" in reasons[str(root / "rollout_summaries/2026-10-02T11-00-00-Old0.md")]
    assert "consolidation input" in reasons[str(root / "raw_memories.md")]
    assert "baseline" in reasons[str(root / ".git")]
    assert "baseline" in reasons[str(root / ".codex-baseline")]
    assert "instructions" in reasons[str(root / "extensions/ad_hoc/instructions.md")]
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
    argv = import_argv("codex", codex["workspace"])
    assert main([*argv, "--dry-run"]) == 0
    assert [p.name for p in layout.memory_root(data_dir, "coder").iterdir()] == ["user"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "merged" in first and "not imported" in first
    before = snapshot(data_dir)
    (codex["memories"] / "memory_summary.md").touch()  # a newer date, the same memories
    assert main(argv) == 0
    assert "Nothing to change" in capsys.readouterr().out
    assert snapshot(data_dir) == before


def test_p5_codex_without_a_memories_folder_names_both_places(tmp_path: Path) -> None:
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    (codex_home / "memories_v2").write_text("a file, not Codex's folder")
    with pytest.raises(SourceError) as refused:
        codex_scopes(None, {"CODEX_HOME": str(codex_home), "HOME": str(tmp_path)})
    assert str(codex_home / "memories_v2") in str(refused.value)
    assert str(codex_home / "memories") in str(refused.value)


@pytest.fixture
def upgraded(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Both folders, as an upgraded Codex leaves them: ``memories_v2/`` the
    fixture; ``memories/`` the same memories, but an older skill text, one general tip and
    one ad-hoc note that only it holds."""
    placed = place_codex(tmp_path, ("memories_v2", "memories"))
    old = placed["home"] / "memories"
    skill = old / "skills" / "run-shop-tests" / "SKILL.md"
    skill.write_text(skill.read_text(encoding="utf-8") + "3. (older) `make test`\n")
    summary = old / "memory_summary.md"
    tips = "## General Tips\n\n"
    older = summary.read_text(encoding="utf-8").replace(
        tips, tips + "- Postgres 14 runs in docker compose on port 5433.\n"
    )
    summary.write_text(older, encoding="utf-8")
    notes = old / "extensions" / "ad_hoc" / "notes"
    (notes / "2026-09-01T08-00-00-httpx.md").write_text("Prefer httpx over requests.\n")
    make_agent(data_dir, placed["home"], monkeypatch)
    return placed


def test_p5_codex_both_folders_each_memory_once(data_dir: Path, upgraded: dict[str, Path]) -> None:
    env = {"CODEX_HOME": str(upgraded["home"])}
    reports = run(data_dir, "codex", upgraded["workspace"], env)
    user = scope_dir(data_dir, "user")
    ours = scope_dir(data_dir, key_for_real_path(str(upgraded["workspace"])))
    assert names(ours) == WORKSPACE_TOPICS
    assert names(user) == USER_TOPICS | {  # and what only the older folder holds
        "postgres-14-runs-in-docker-compose-on-port-5433.md",
        "2026-09-01T08-00-00-httpx.md",
        "run-shop-tests-2.md",
    }
    every_topic_indexed(user)
    every_topic_indexed(ours)
    new, old = upgraded["home"] / "memories_v2", upgraded["home"] / "memories"
    skill = Path("skills/run-shop-tests/SKILL.md")
    assert (user / "run-shop-tests.md").read_bytes() == (new / skill).read_bytes()
    assert (user / "run-shop-tests-2.md").read_bytes() == (old / skill).read_bytes()
    for root in (new, old):
        assert accounted(reports, root) == []
    merged = {m.origin: m.detail for r in reports for m in r.merged}
    recap = Path("rollout_summaries/2026-11-20T09-12-44-aB3d-fix_flaky_checkout_test.md")
    assert merged[str(old / recap)] == f"the same memory as {new / recap}: imported once"
    group = f"{old / 'MEMORY.md'} § Task Group: shop-api checkout tests"
    assert "imported once" in merged[group]
    assert "split into 1 topic file (user scope)" in merged[str(old / "memory_summary.md")]
    assert all(str(new) in r.label and str(old) in r.label for r in reports)


def test_p5_codex_both_folders_second_run_changes_nothing(
    data_dir: Path, upgraded: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = import_argv("codex", upgraded["workspace"])
    assert main(argv) == 0
    assert "imported once" in capsys.readouterr().out
    before = snapshot(data_dir)
    assert main(argv) == 0
    assert "Nothing to change" in capsys.readouterr().out
    assert snapshot(data_dir) == before


def test_p5_codex_memories_v2_as_its_second_pipeline_writes_it(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``memories_v2/`` in the shape Codex's second memory pipeline leaves it (0.171's
    ``consolidation_v2`` and ``read_path_v2`` prompts; Codex's own tests assert it writes no
    ``MEMORY.md`` and no ``raw_memories.md`` there): ``memory_summary.md`` routing to
    ``rollout_summaries/`` by project, the recaps, an ad-hoc note, the diff of its last run and
    its git baseline (fixture ``codex-v2``). Every file is accounted for; the recap of the
    Workspace lands in its scope, the other project's is named with its command."""
    workspace = tmp_path / "src" / "stock-api"
    workspace.mkdir(parents=True)
    other = (tmp_path / "src" / "reports").resolve()
    other.mkdir()
    codex_home = tmp_path / "home" / ".codex"
    words = {"WORKSPACE": workspace.resolve(), "OTHER": other, "HOME": codex_home.parent}
    place("codex-v2", codex_home, words)
    root = codex_home / "memories_v2"
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    make_agent(data_dir, codex_home, monkeypatch)
    reports = run(data_dir, "codex", workspace.resolve(), {"CODEX_HOME": str(codex_home)})
    assert accounted(reports, root) == []
    user = scope_dir(data_dir, "user")
    ours = scope_dir(data_dir, key_for_real_path(str(workspace.resolve())))
    assert names(ours) == {"2026-11-21T15-02-09-Rt7K-stock_count_off_by_one.md"}
    assert names(user) == {
        "user-profile.md",
        "before-any-fix-the-user-asked-show-me-the.md",
        "the-user-corrected-hatch-not-poetry-run-hatch.md",
        "hatch-run-test-x-stops-at-the-first-failure-the.md",
        "2026-11-28T09-15-00-no-force-push.md",
    }
    every_topic_indexed(user)
    every_topic_indexed(ours)
    reasons = {s.origin: s.reason for r in reports for s in r.skipped}
    recap = root / "rollout_summaries" / "2026-11-02T10-40-55-Pm4W-report_pdf_fonts.md"
    assert f"memory import --from codex --workspace {other}" in reasons[str(recap)]
    assert "one consolidation run" in reasons[str(root / "phase2_workspace_diff.md")]
    assert "baseline" in reasons[str(root / ".git")]
    assert "instructions" in reasons[str(root / "extensions/ad_hoc/instructions.md")]
    merged = {m.origin: m.detail for r in reports for m in r.merged}
    routing = merged[f"{root / 'memory_summary.md'} § What's in Memory"]
    assert "rollout_summaries/" in routing and "routing index" in routing
