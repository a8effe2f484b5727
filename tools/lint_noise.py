"""How much of a memory folder lint says needs attention (T-5a): the share of topic files with a
``warning`` or ``error`` finding, per folder.

usage: ``.venv/bin/python -m tools.lint_noise [FOLDER ...]``

Without folders it reads the sample corpus (``tests/data/corpus/*``) and synthetic folders in
the conventions coding agents really write, each written to a temporary directory first:

- ``memory``: Memory's own convention (kebab-case file names, ``name`` = the stem);
- ``claude-code``: Claude Code's ``type_slug.md`` files (``feedback_always-preview.md``,
  ``project_b_2026-03-30.md``) with free-text names, ``type:`` and ``[[links]]`` written with
  other separators or without the type prefix;
- ``opencode``: an index that names each file in backticks (`` - `a-note.md` - about a ``);
- ``daily-notes``: notes without any frontmatter, one per day, an index link into a sub-folder.

Each is tidy by its own tool's rules, so a finding on one of its files is noise. The goal of
issue 27 is at most 10% of files with a warning. ``tests/core/test_t5a_noise.py`` checks it.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from memory_core.index import linked_topic_files
from memory_core.lint import lint_scope
from memory_core.topics import read_topic
from memory_core.wire import Finding

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"
INDEX = "MEMORY.md"


def _topic(name: str, description: str, body: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}\n"


def memory_folder() -> dict[str, str]:
    """Memory's own convention: kebab-case stems, ``name`` = stem, ``updated_at``."""
    notes = {
        "prefers-pnpm": ("Use pnpm, never npm or yarn", "Run `pnpm install`; see [[ci-cache]]."),
        "ci-cache": ("CI caches node_modules by lockfile hash", "Key: the pnpm lockfile hash."),
        "deploy-freeze": ("No deploys Friday 15:00 to Monday 09:00", "Why: the March outage."),
        "review-style": ("Terse reviews: findings first", "How to apply: every review."),
    }
    files = {
        f"{stem}.md": _topic(stem, what, body, "updated_at: 2026-11-01\n")
        for stem, (what, body) in notes.items()
    }
    files[INDEX] = "".join(f"- [{stem}]({stem}.md) — {what}\n" for stem, (what, _) in notes.items())
    return files


def claude_code_folder() -> dict[str, str]:
    """Claude Code's auto memory: ``type_slug.md``, a free-text ``name``, ``type:``."""
    notes = [
        ("feedback_always-preview", "Always preview before writing", "feedback",
         "Show a preview and wait for an OK before writing outside src/",
         "**Why:** an unreviewed write clobbered a hand-edited config.\n"
         "**How to apply:** any write to config/ or deploy/. See [[project-drift]]."),
        ("feedback_no-db-mocks", "Integration tests hit a real database", "feedback",
         "Never mock the database in integration tests",
         "**Why:** mocked tests passed while a migration failed in production."),
        ("feedback_terse_reviews", "Terse reviews", "feedback",
         "Findings first, no praise, no closing summary", "The user reads the diff."),
        ("project_b_2026-03-30", "Project B status 2026-03-30", "project",
         "Project B: API frozen, UI in review, launch slips to April",
         "Merge freeze from 2026-03-30 for the mobile release; see [[release-train]]."),
        ("project_drift", "Config drift between staging and prod", "project",
         "Staging and prod configs drift; diff them before every release",
         "`make config-diff` shows it."),
        ("project_release-train", "Release train", "project",
         "Releases leave every second Tuesday; cut-off Monday noon", "Owner: the release captain."),
        ("user_role", "User role", "user",
         "Backend engineer, ten years of Go, new to React", "Explain frontend terms by analogy."),
        ("reference_linear", "Linear board", "reference",
         "Bugs are tracked in the Linear project INGEST", "See [[feedback_always-preview]]."),
    ]  # fmt: skip
    files = {
        f"{stem}.md": _topic(name, what, body, f"type: {kind}\n")
        for stem, name, kind, what, body in notes
    }
    files[INDEX] = "".join(f"- [{name}]({stem}.md) — {what}\n" for stem, name, _, what, _ in notes)
    return files


def opencode_folder() -> dict[str, str]:
    """An index naming each file in backticks, the form OpenCode memory prompts use."""
    notes = {
        "build-commands": "how to build, test and lint this repository",
        "code-style": "formatting and naming rules the user insists on",
        "api-conventions": "REST conventions: cursors, problem details, no 200 on errors",
        "db-migrations": "migrations are reversible and run on staging first",
        "oncall": "who is on call and how to page them",
    }
    files = {f"{stem}.md": _topic(stem, what, f"Notes on {what}.") for stem, what in notes.items()}
    files[INDEX] = "# Project memory\n\n" + "".join(
        f"- `{stem}.md` - {what}\n" for stem, what in notes.items()
    )
    return files


def daily_notes_folder() -> dict[str, str]:
    """Plain Markdown notes without frontmatter, one per day, and an archive sub-folder."""
    days = {
        "2026-03-27": "moved CI to the new runners",
        "2026-03-28": "flaky e2e test traced to a cold browser cache",
        "2026-03-30": "release 4.2 cut; merge freeze until Tuesday",
        "2026-03-31": "postgres 16 upgrade on staging",
        "decisions": "running list of decisions and why",
        "people": "who owns what",
    }
    files = {
        f"{stem}.md": f"# {stem}\n\n- {what}\n- follow-up tomorrow\n" for stem, what in days.items()
    }
    files["archive/2026-02.md"] = "# February\n\n- everything from February\n"
    files[INDEX] = (
        "# Daily notes\n\n"
        + "".join(f"- [{stem}]({stem}.md) — {what}\n" for stem, what in days.items())
        + "- [February](archive/2026-02.md) — the month before, archived\n"
    )
    return files


SYNTHETIC: dict[str, Callable[[], dict[str, str]]] = {
    "memory": memory_folder,
    "claude-code": claude_code_folder,
    "opencode": opencode_folder,
    "daily-notes": daily_notes_folder,
}
"""The synthetic folders by name: each gives ``{relative path: text}``, its index included."""


def write_folder(files: dict[str, str], folder: Path) -> Path:
    """Write ``files`` (relative path → text) under ``folder``; returns ``folder``."""
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def lint_folder(folder: Path) -> tuple[list[str], list[Finding]]:
    """The topic file names of ``folder`` and lint's findings on it, as the service lints it
    (the index's links into sub-folders looked up too)."""
    files = sorted(p.name for p in folder.glob("*.md") if p.name != INDEX and p.is_file())
    path = folder / INDEX
    index = path.read_text(encoding="utf-8", errors="replace") if path.exists() else None
    topics = [read_topic(folder / name)[0] for name in files]
    deeper = [target for target in linked_topic_files(index or "") if "/" in target]
    present = {target for target in deeper if (folder / target).is_file()}
    return files, lint_scope(index, topics, files, in_sub_folders=present)


def needs_attention(files: list[str], findings: list[Finding]) -> set[str]:
    """The topic files that carry a ``warning`` or ``error`` finding of their own."""
    return {f.file for f in findings if f.severity != "info" and f.file in files}


def report(name: str, folder: Path) -> tuple[int, int]:
    """Print one folder's share of files with a warning or error and its findings by code;
    return ``(files flagged, files)``."""
    files, findings = lint_folder(folder)
    flagged = needs_attention(files, findings)
    share = len(flagged) / len(files) if files else 0.0
    codes: dict[str, int] = {}
    for finding in findings:
        codes[finding.code] = codes.get(finding.code, 0) + 1
    summary = ", ".join(f"{code} {count}" for code, count in sorted(codes.items()))
    print(f"{name:24s} {len(flagged):3d} of {len(files):3d} files  {share:6.1%}  [{summary}]")
    return len(flagged), len(files)


def _total(name: str, counts: list[tuple[int, int]]) -> None:
    flagged, files = (sum(column) for column in zip(*counts, strict=True))
    print(f"{name:24s} {flagged:3d} of {files:3d} files  {flagged / files:6.1%}")


def main(argv: list[str]) -> None:
    if argv:
        _total("all", [report(given, Path(given)) for given in argv])
        return
    corpus = [report(f"corpus/{p.name}", p) for p in sorted(CORPUS.iterdir()) if p.is_dir()]
    with tempfile.TemporaryDirectory() as temporary:
        synthetic = [
            report(f"synthetic/{name}", write_folder(build(), Path(temporary) / name))
            for name, build in SYNTHETIC.items()
        ]
    _total("corpus", corpus)
    _total("synthetic", synthetic)


if __name__ == "__main__":
    main(sys.argv[1:])
