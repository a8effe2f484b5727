"""P-3: what the write guard does not cover is said where a user reads it — in the output of
``harness-memory install HARNESS --verbose`` (and ``--dry-run``; without ``--verbose`` one line
says where it is) and in the plugin README's harness table —
from one table (``harness_memory.installers.guard_gaps``), so the two say the same. That each
gap is real is shown by ``test_p3_guard_bypasses.py::test_p3_what_the_guard_cannot_see_passes_
as_the_install_says``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.installers.detail import MORE
from harness_memory.installers.guard_gaps import GUARD_GAPS, HEADING

from tests.plugin.helpers import HARNESS_MEMORY

README = Path(__file__).resolve().parents[2] / "plugins" / "harness-memory" / "README.md"
COLUMNS = {"claude-code": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI"}


def install_output(home: Path, harness: str, *extra: str) -> str:
    root = home.parent / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True, exist_ok=True)
    flags = ["--home", str(home), "--memory-root", str(root), "--url", "http://127.0.0.1:9"]
    flags += ["--project", "acme", "--agent", "coder", "--executable", str(HARNESS_MEMORY)]
    out = io.StringIO()
    status = main(
        ["install", harness, *flags, "--no-check", *extra],
        environ={"HOME": str(home)},
        stdout=out,
    )
    assert status == 0
    return out.getvalue()


def table_cell(row: str, column: str) -> str:
    """The cell of the README harness table's row starting ``| row`` under ``column``."""
    lines = README.read_text(encoding="utf-8").splitlines()
    header = next(line for line in lines if line.startswith("| | Claude Code |"))
    names = [cell.strip() for cell in header.strip("|").split("|")]
    found = next(line for line in lines if line.startswith(f"| {row}"))
    cells = [cell.strip() for cell in found.strip("|").split("|")]
    assert len(cells) == len(names), found
    return cells[names.index(column)]


@pytest.mark.parametrize("harness", sorted(GUARD_GAPS))
@pytest.mark.parametrize("dry_run", [False, True], ids=["install", "dry-run"])
def test_p3_install_output_names_what_the_guard_does_not_cover(
    tmp_path: Path, harness: str, dry_run: bool
) -> None:
    dry = ["--dry-run"] if dry_run else []
    output = install_output(tmp_path / "home", harness, *dry, "--verbose")
    expected = [f"{harness}: {HEADING}"] + [
        f"{harness}:   - {line}" for line in GUARD_GAPS[harness]
    ]
    lines = output.splitlines()
    start = lines.index(expected[0])
    assert lines[start : start + len(expected)] == expected


@pytest.mark.parametrize("harness", sorted(GUARD_GAPS))
@pytest.mark.parametrize("dry_run", [False, True], ids=["install", "dry-run"])
def test_p3_without_verbose_one_line_says_where_the_gaps_are(
    tmp_path: Path, harness: str, dry_run: bool
) -> None:
    output = install_output(tmp_path / "home", harness, *(["--dry-run"] if dry_run else []))
    assert HEADING not in output
    assert not any(line in output for line in GUARD_GAPS[harness])
    last = f"{harness}: {MORE}" if dry_run else output.splitlines()[-1]  # the next step's
    assert output.splitlines().count(last) == 1
    assert "what the write guard does not cover" in last and "--verbose" in last
    assert "README" not in last  # a wheel user has no checkout


def test_p3_uninstall_does_not_repeat_the_gaps(tmp_path: Path) -> None:
    home = tmp_path / "home"
    install_output(home, "codex")
    out = io.StringIO()
    assert main(["uninstall", "codex", "--home", str(home)], environ={}, stdout=out) == 0
    assert HEADING not in out.getvalue()


@pytest.mark.parametrize("harness", sorted(GUARD_GAPS))
def test_p3_readme_table_states_the_gaps_the_install_prints(harness: str) -> None:
    cell = table_cell("what is not guarded", COLUMNS[harness])
    for line in GUARD_GAPS[harness]:
        assert line in cell, line


def test_p3_every_installable_harness_has_its_gaps() -> None:
    from harness_memory.installers import HARNESSES

    assert set(GUARD_GAPS) == set(HARNESSES) == set(COLUMNS)


def test_h6_the_codex_user_install_says_a_trusted_project_turns_its_own_memories_back_on(
    tmp_path: Path,
) -> None:
    """H-6, as the Claude Code install says of a repository's env: a trusted project's
    ``memories = true`` brings Codex's own memories back over the user install's ``false``
    (measured: ``test_e2e_codex_repository_switches_hooks_off.py``), and only the managed
    install's requirements pin it; the user install said so of hooks and terminals only.
    Without ``--verbose`` the one line in its place names what a repository can switch off."""
    assert "what a repository can switch off" in install_output(tmp_path / "h1", "codex")
    output = install_output(tmp_path / "home", "codex", "--verbose")
    assert "or Codex's own memories back on (`memories = true`" in output
    assert "`[features] hooks = true`, `memories = false` and" in output


def test_h7_the_gemini_install_names_every_workspace_setting_that_switches_its_hooks_off(
    tmp_path: Path,
) -> None:
    """A trusted Workspace's ``.gemini/settings.json`` switches the user install's hooks off
    with ``hooksConfig`` and also with a ``hooks`` holding no object, which replaces the
    user's whole ``hooks`` in the merge (measured with the real Gemini CLI:
    ``test_e2e_gemini_repository_switches_hooks_off.py``; ``status`` warns of it). The install
    named ``hooksConfig`` alone; the README table says what it prints (above)."""
    output = install_output(tmp_path / "home", "gemini", "--verbose")
    assert "(`hooksConfig.enabled: false`, their names in `hooksConfig.disabled`, or a " in output
    assert '`"hooks"` that is no object: `null`, `[]`, `false` or `""`' in output
