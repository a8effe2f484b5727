"""T-5a: lint people can trust — the share of files with a warning, on the sample corpus and on
synthetic folders in the naming conventions coding agents commonly use.

A folder that consistently follows another agent's convention gets one ``info`` finding and no
per-file warning; the share printed here is what the page shows as "needs attention". The
folders of ``tools/lint_noise.py`` (``python -m tools.lint_noise`` prints the same figures) are
written as Claude Code, OpenCode and a daily-notes tool keep them; issue 27's goal is at most
10% of files with a warning.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_core.lint import lint_scope
from memory_core.topics import ParsedTopic, parse_topic, read_topic

from tools.lint_noise import SYNTHETIC, lint_folder, needs_attention, write_folder

SUBJECTS = ["testing", "review", "deploy", "ci cache", "db migrations", "release", "oncall"]


def _synthetic(style: str) -> tuple[str, list[ParsedTopic], list[str]]:
    """A tidy folder of seven notes written in one convention, each linked from the index."""
    topics = []
    for subject in SUBJECTS:
        words = subject.split()
        stem, name, extra = {
            "memory": ("-".join(words), "-".join(words), "updated_at: 2026-11-01\n"),
            "claude-code": (
                "feedback_" + "_".join(words),
                f"{subject.capitalize()} feedback",
                "metadata:\n  type: feedback\n",
            ),
            "kebab-titles": ("-".join(words), subject.title(), "type: project\n"),
            "snake-stems": ("_".join(words), "_".join(words), ""),
        }[style]
        text = f"---\nname: {name}\ndescription: notes on {subject}\n{extra}---\nbody\n"
        topics.append(parse_topic(text.encode("utf-8"), f"{stem}.md"))
    index = "".join(f"- [{t.name}]({t.file}) — notes\n" for t in topics)
    return index, topics, [t.file for t in topics]


def _corpus_scope(folder: Path) -> tuple[str, list[ParsedTopic], list[str]]:
    files = sorted(p.name for p in folder.glob("*.md") if p.name != "MEMORY.md")
    index = (folder / "MEMORY.md").read_text(encoding="utf-8", errors="replace")
    return index, [read_topic(folder / name)[0] for name in files], files


def _share_with_a_warning(index: str, topics: list[ParsedTopic], files: list[str]) -> float:
    findings = lint_scope(index, topics, files)
    flagged = {f.file for f in findings if f.severity != "info" and f.file in files}
    return len(flagged) / len(files)


@pytest.mark.parametrize("style", ["memory", "claude-code", "kebab-titles", "snake-stems"])
def test_t5a_a_tidy_folder_in_any_common_convention_has_no_warning(style: str) -> None:
    index, topics, files = _synthetic(style)
    share = _share_with_a_warning(index, topics, files)
    findings = lint_scope(index, topics, files)
    print(f"\nT-5a {style}: {share:.0%} of {len(files)} files with a warning")
    assert share == 0
    assert [f.severity for f in findings] == ([] if style == "memory" else ["info"])


@pytest.mark.parametrize(
    ("folder", "most"),
    # coding-agent-workspace: 5 of 12; the fifth is latin1-notes.md, which the corpus holds in
    # Latin-1 on purpose and which is read as cp1252: its invalid-encoding warning is the
    # finding T-2 asks for, not noise
    [("user-scope", 0.0), ("coding-agent-workspace", 0.42), ("large-index", 0.15)],
)
def test_t5a_share_of_corpus_files_with_a_warning(corpus: Path, folder: str, most: float) -> None:
    share = _share_with_a_warning(*_corpus_scope(corpus / folder))
    print(f"\nT-5a corpus {folder}: {share:.0%} of files with a warning")
    assert share <= most


@pytest.mark.parametrize("folder", sorted(SYNTHETIC))
def test_t5a_a_folder_as_another_agent_keeps_it_has_no_warning(tmp_path: Path, folder: str) -> None:
    files, findings = lint_folder(write_folder(SYNTHETIC[folder](), tmp_path / folder))
    flagged = needs_attention(files, findings)
    print(f"\nT-5a synthetic {folder}: {len(flagged)} of {len(files)} files with a warning")
    assert flagged == set()
    assert [f.severity for f in findings] == ([] if folder in ("memory", "opencode") else ["info"])


def test_t5a_the_synthetic_folders_still_report_what_is_wrong(tmp_path: Path) -> None:
    daily = SYNTHETIC["daily-notes"]()
    daily["MEMORY.md"] += "- [January](archive/2026-01.md) — never written\n"
    opencode = SYNTHETIC["opencode"]()
    opencode["MEMORY.md"] += "- `release-process.md` - not written either\n"
    opencode["stray-note.md"] = "---\nname: stray-note\ndescription: d\n---\nbody\n"
    claude = SYNTHETIC["claude-code"]()
    claude["feedback_always-preview.md"] += "See [[no-such-memory]].\n"
    found = {
        name: {(f.code, f.file) for f in lint_folder(write_folder(files, tmp_path / name))[1]}
        for name, files in (("daily", daily), ("opencode", opencode), ("claude", claude))
    }
    assert ("dangling-link", "MEMORY.md") in found["daily"]
    assert ("dangling-link", "MEMORY.md") in found["opencode"]
    assert ("unindexed", "stray-note.md") in found["opencode"]
    assert ("dangling-wiki-link", "feedback_always-preview.md") in found["claude"]
