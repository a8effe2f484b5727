"""T-4, T-5, T-5a, T-5b: lint reads folders the way coding agents really write them (issue 27).

Claude Code's ``type_slug.md`` names and notes without frontmatter are one scope-level ``info``
finding; an OpenCode entry (`` - `a-note.md` - about a``) indexes its file; ``[[links]]``
resolve across separators, case and type prefixes; links into sub-folders are checked.
"""

from __future__ import annotations

import pytest
from memory_core.index import line_links_to, linked_topic_files, prune_index
from memory_core.index_merge import merge_index, rewrite_links
from memory_core.lint import lint_links, lint_scope, lint_topic, lint_topics
from memory_core.topics import ParsedTopic, parse_topic
from memory_core.wire import Finding


def _topic(file: str, name: str | None = None, body: str = "x", extra: str = "") -> ParsedTopic:
    name_line = f"name: {name}\n" if name is not None else ""
    text = f"---\n{name_line}description: d\n{extra}---\n{body}\n"
    return parse_topic(text.encode("utf-8"), file)


def _plain(file: str, body: str = "- a note\n") -> ParsedTopic:
    return parse_topic(body.encode("utf-8"), file)


def _index(topics: list[ParsedTopic]) -> str:
    return "".join(f"- [{topic.name}]({topic.file}) — d\n" for topic in topics)


def _codes(findings: list[Finding]) -> list[tuple[str, str, str]]:
    return [(f.code, f.severity, f.file) for f in findings]


# --- Claude Code's type_slug names (T-5a) ----------------------------------------------------

CLAUDE_CODE = [
    _topic("feedback_always-preview.md", "Always preview before writing", extra="type: feedback\n"),
    _topic("project_b_2026-03-30.md", "Project B status 2026-03-30", extra="type: project\n"),
    _topic("project_drift.md", "Config drift", extra="type: project\n"),
    _topic("user_role.md", "User role", extra="type: user\n"),
    _topic("reference_linear.md", "reference_linear", extra="type: reference\n"),
]


def test_t5a_claude_code_type_slug_names_with_dates_are_one_info_finding() -> None:
    findings = lint_scope(_index(CLAUDE_CODE), CLAUDE_CODE, [t.file for t in CLAUDE_CODE])
    assert _codes(findings) == [("naming-convention", "info", "")]
    assert "Claude Code's type_slug file names, title-style names in 4 of them" in (
        findings[0].message
    )
    assert "in all 5 files" in findings[0].message


def test_t5a_kebab_case_files_may_stand_among_claude_code_ones() -> None:
    topics = [
        *CLAUDE_CODE,
        _topic("debugging.md", "Debugging patterns"),  # a kebab-case name too
        _topic("api-conventions.md", "api-conventions"),  # kebab-case only
    ]
    findings = lint_scope(_index(topics), topics, [t.file for t in topics])
    assert _codes(findings) == [("naming-convention", "info", "")]
    assert "in 5 of its 7 files (the others in Memory's own kebab-case)" in findings[0].message


def test_t5a_one_claude_code_file_among_kebab_ones_keeps_its_own_findings() -> None:
    topics = [
        _topic("deploy-steps.md", "deploy-steps"),
        _topic("ci-cache.md", "ci-cache"),
        _topic("feedback_testing.md", "Testing feedback"),
    ]
    findings = lint_scope(_index(topics), topics, [t.file for t in topics])
    assert _codes(findings) == [
        ("name-mismatch", "warning", "feedback_testing.md"),
        ("name-not-kebab", "info", "feedback_testing.md"),
    ]


@pytest.mark.parametrize(
    ("name", "codes"),
    [
        ("Always run the linter", ["name-not-kebab"]),  # the stem's words, as a title
        ("always_run_the_linter", ["name-not-kebab"]),
        ("Lint before every push", ["name-mismatch"]),  # naming the stem fixes it whole
        ("always-run-the-linter", []),
    ],
)
def test_t5_a_title_of_the_stems_words_is_no_mismatch(name: str, codes: list[str]) -> None:
    assert [f.code for f in lint_topic(_topic("always-run-the-linter.md", name))] == codes


# --- notes without frontmatter (T-5a) --------------------------------------------------------


def test_t5a_a_folder_where_no_file_has_frontmatter_is_one_info_finding() -> None:
    topics = [
        _plain("2026-03-27.md"),
        _plain("2026-03-28.md"),
        _plain("decisions.md"),
        _plain("e.md", ""),
    ]
    findings = lint_scope(_index(topics), topics, [t.file for t in topics])
    assert _codes(findings) == [("no-frontmatter", "info", "")]
    assert "none of the 4 files has frontmatter" in findings[0].message


def test_t5a_one_file_without_frontmatter_among_others_keeps_its_finding() -> None:
    topics = [_plain("plain.md"), _topic("tidy.md", "tidy"), _topic("other.md", "other")]
    findings = lint_scope(_index(topics), topics, [t.file for t in topics])
    assert _codes(findings) == [("missing-description", "warning", "plain.md")]


def test_t5a_conventions_combine_and_a_caller_may_memoise_each_files_findings() -> None:
    topics = [_plain("feedback_a.md"), _plain("project_b_2026-01-02.md")]
    seen: list[str] = []

    def own(topic: ParsedTopic) -> list[Finding]:
        seen.append(topic.file)
        return lint_topic(topic)

    findings = lint_topics(topics, [t.file for t in topics], own=own)
    assert [f.code for f in findings] == ["naming-convention", "no-frontmatter"]
    assert seen == ["feedback_a.md", "project_b_2026-01-02.md"]


# --- [[links]] across separators, case and type prefixes (T-5b) ------------------------------


@pytest.mark.parametrize(
    "link",
    [
        "project-drift", "project_drift", "Project Drift", "drift", "PROJECT-DRIFT",
        "always-preview", "feedback_always-preview", "Always preview before writing",
        "feedback-always_preview", "release-train", "feedback_release-train",
    ],
)  # fmt: skip
def test_t5b_a_wiki_link_resolves_separator_case_and_type_prefix_variants(link: str) -> None:
    note = _topic("user_role.md", "User role", body=f"See [[{link}]].")
    files = ["project_drift.md", "feedback_always-preview.md", "release-train.md", "user_role.md"]
    topics = [note, _topic("feedback_always-preview.md", "Always preview before writing")]
    assert lint_links(topics, files) == []


@pytest.mark.parametrize("link", ["drift-config", "preview", "feedback_missing", "project"])
def test_t5b_a_wiki_link_to_no_file_is_still_named(link: str) -> None:
    note = _topic("user_role.md", "User role", body=f"See [[{link}]].")
    files = ["project_drift.md", "feedback_always-preview.md", "user_role.md"]
    findings = lint_links([note], files)
    assert [(f.code, f.line) for f in findings] == [("dangling-wiki-link", 5)]


# --- the OpenCode entry form (T-4) -----------------------------------------------------------

OPENCODE_INDEX = """# Project memory

- `build-commands.md` - how to build and test
- **`code-style.md`** - formatting rules
1. `api-conventions.md` — REST conventions
| `oncall.md` | who is on call |
- update `README.md` and `gone.md` when the API changes
"""


def test_t4_an_entry_naming_a_file_in_a_code_span_indexes_it() -> None:
    assert linked_topic_files(OPENCODE_INDEX) == {
        "build-commands.md": [3],
        "code-style.md": [4],
        "api-conventions.md": [5],
        "oncall.md": [6],
    }  # a code span later in the line is a mention (README.md, gone.md)
    files = ["build-commands.md", "code-style.md", "api-conventions.md", "oncall.md"]
    topics = [_topic(name, name.removesuffix(".md")) for name in files]
    assert lint_scope(OPENCODE_INDEX, topics, files) == []


def test_t4_an_entry_to_a_missing_file_is_dangling() -> None:
    findings = lint_scope("- `gone.md` - was here\n", [], [])
    assert [(f.code, f.line) for f in findings] == [("dangling-link", 1)]


def test_a6_t4_deleting_a_file_prunes_its_entry_and_an_import_renames_it() -> None:
    assert line_links_to("- `a-note.md` - about a", "a-note.md")
    assert not line_links_to("update `a-note.md` too", "a-note.md")
    assert prune_index(OPENCODE_INDEX, "code-style.md")[1] == [
        "- **`code-style.md`** - formatting rules"
    ]
    assert rewrite_links("- `a.md` - about a", {"a.md": "a-2.md"}) == "- `a-2.md` - about a"
    merged = merge_index("- `a.md` - ours\n", "- `a.md` - theirs\n- `b.md` - b\n", {})
    assert merged.added == ["- `b.md` - b"]  # a.md has its entry already


# --- links into sub-folders (T-5b) -----------------------------------------------------------

SUB_FOLDER_INDEX = """- [Feb](archive/2026-02.md) — February
- [Jan](./archive/2026-01.md) — January
- [Other scope](../user/prefers-pnpm.md) — never looked at
- [Docs](https://example.com/a/b.md) — a URL
- `daily/2026-03-30.md` - the 30th
"""


def test_t5b_an_index_link_into_a_sub_folder_is_checked_like_any_other() -> None:
    findings = lint_scope(SUB_FOLDER_INDEX, [], [], in_sub_folders={"archive/2026-02.md"})
    assert [(f.code, f.severity, f.line) for f in findings] == [
        ("dangling-link", "error", 2),
        ("dangling-link", "error", 5),
    ]
    assert "'archive/2026-01.md', which is not in this scope's folder" in findings[0].message


def test_t5b_sub_folder_links_not_looked_at_are_not_judged() -> None:
    assert lint_scope(SUB_FOLDER_INDEX, [], []) == []
