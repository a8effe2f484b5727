"""T-5a: lint people can trust — the share of files with a warning, on the sample corpus and on
synthetic folders in the naming conventions coding agents commonly use.

A folder that consistently follows another agent's convention gets one ``info`` finding and no
per-file warning; the share printed here is what the page shows as "needs attention".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_core.lint import lint_scope
from memory_core.topics import ParsedTopic, parse_topic, read_topic

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
    [("user-scope", 0.0), ("coding-agent-workspace", 0.5), ("large-index", 0.2)],
)
def test_t5a_share_of_corpus_files_with_a_warning(corpus: Path, folder: str, most: float) -> None:
    share = _share_with_a_warning(*_corpus_scope(corpus / folder))
    print(f"\nT-5a corpus {folder}: {share:.0%} of files with a warning")
    assert share <= most
