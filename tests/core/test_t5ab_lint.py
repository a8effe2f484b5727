"""T-5a and T-5b: every finding has a severity; a consistent foreign naming convention is one
``info`` finding; refused entries, a wrong-case index, an over-cap index and dangling ``[[links]]``
are named."""

from __future__ import annotations

from pathlib import Path

import pytest
from memory_core.confusables import skeleton
from memory_core.hidden_text import show_hidden
from memory_core.injection import cap_indexes
from memory_core.lint import (
    LINT_CODES,
    SEVERITIES,
    IndexRead,
    lint_index,
    lint_links,
    lint_scope,
    lint_topic_in_scope,
    naming_convention,
)
from memory_core.topics import ParsedTopic, parse_topic, read_topic
from memory_core.wire import Finding


def _topic(file: str, name: str | None = None, extra: str = "", body: str = "x") -> ParsedTopic:
    name_line = f"name: {name}\n" if name is not None else ""
    text = f"---\n{name_line}description: d\n{extra}---\n{body}\n"
    return parse_topic(text.encode("utf-8"), file)


def _codes(findings: list[Finding]) -> list[tuple[str, str]]:
    return [(finding.code, finding.file) for finding in findings]


def _index_for(topics: list[ParsedTopic]) -> str:
    def target(file: str) -> str:
        return f"<{file}>" if " " in file else file

    return "".join(f"- [{topic.name}]({target(topic.file)}) — d\n" for topic in topics)


# --- severities (T-5a) -----------------------------------------------------------------------


def test_t5a_every_code_has_a_severity() -> None:
    assert set(SEVERITIES) == set(LINT_CODES)
    assert set(SEVERITIES.values()) == {"error", "warning", "info"}


@pytest.mark.parametrize(
    ("code", "severity"),
    [
        ("secret", "error"),
        ("dangling-link", "error"),
        ("not-injected", "error"),
        ("missing-description", "warning"),
        ("unindexed", "warning"),
        ("name-not-kebab", "info"),
        ("naming-convention", "info"),
    ],
)
def test_t5a_severity_follows_the_spec(code: str, severity: str) -> None:
    assert SEVERITIES[code] == severity


def test_t5a_findings_carry_their_severity() -> None:
    topic = _topic("A note.md", "A title")
    findings = lint_scope("- [b](b.md)\n", [topic], ["A note.md"])
    assert {(f.code, f.severity) for f in findings} == {
        ("dangling-link", "error"),
        ("unindexed", "warning"),
        ("name-mismatch", "warning"),
        ("name-not-kebab", "info"),
    }


# --- naming conventions (T-5a) ---------------------------------------------------------------

CLAUDE_CODE_STYLE = [
    _topic("feedback_testing.md", "Testing feedback", "metadata:\n  type: feedback\n"),
    _topic("feedback_review.md", "Review feedback", "metadata:\n  type: feedback\n"),
    _topic("deploy_steps.md", "Deploy steps", "metadata:\n  type: project\n"),
]


def test_t5a_snake_case_files_with_title_names_are_one_info_finding() -> None:
    topics = CLAUDE_CODE_STYLE
    findings = lint_scope(_index_for(topics), topics, [t.file for t in topics])
    assert _codes(findings) == [("naming-convention", "")]
    assert findings[0].severity == "info"
    assert "snake_case file names, title-style names" in findings[0].message


def test_t5a_kebab_files_with_title_names_are_one_info_finding() -> None:
    topics = [_topic("deploy-steps.md", "Deploy steps"), _topic("review.md", "Review rules")]
    findings = lint_scope(_index_for(topics), topics, [t.file for t in topics])
    assert _codes(findings) == [("naming-convention", "")]
    assert "title-style names" in findings[0].message
    assert "snake_case" not in findings[0].message


def test_t5a_snake_case_files_named_by_their_stem_are_one_info_finding() -> None:
    topics = [_topic("deploy_steps.md", "deploy_steps"), _topic("ci_cache.md", "ci_cache")]
    findings = lint_scope(_index_for(topics), topics, [t.file for t in topics])
    assert _codes(findings) == [("naming-convention", "")]


def test_t5a_memorys_own_convention_has_no_finding() -> None:
    topics = [_topic("deploy-steps.md", "deploy-steps"), _topic("ci.md", "ci")]
    assert naming_convention(topics) is None
    assert lint_scope(_index_for(topics), topics, [t.file for t in topics]) == []


def test_t5a_a_mixed_scope_keeps_per_file_findings_on_the_odd_ones() -> None:
    topics = [
        _topic("deploy-steps.md", "deploy-steps"),
        _topic("ci-cache.md", "ci-cache"),
        _topic("feedback_testing.md", "Testing feedback"),
    ]
    findings = lint_scope(_index_for(topics), topics, [t.file for t in topics])
    assert naming_convention(topics) is None
    assert _codes(findings) == [
        ("name-mismatch", "feedback_testing.md"),
        ("name-not-kebab", "feedback_testing.md"),
    ]


@pytest.mark.parametrize(
    ("files", "trait"),
    [
        (["Deploy notes.md", "CI cache.md"], "words-with-spaces file names"),
        (["deploySteps.md", "ciCache.md"], "camelCase file names"),
        (["DeploySteps.md", "CiCache.md"], "PascalCase file names"),
        (["DEPLOY_STEPS.md", "CI_CACHE.md"], "SCREAMING_SNAKE_CASE file names"),
    ],
)
def test_t5a_other_file_name_conventions_are_one_info_finding(files: list[str], trait: str) -> None:
    topics = [_topic(name, name.removesuffix(".md")) for name in files]
    findings = lint_scope(_index_for(topics), topics, files)
    assert [(f.code, f.severity) for f in findings] == [("naming-convention", "info")]
    assert f"({trait}) in all 2 files" in findings[0].message


def test_t5a_another_agents_convention_may_mix_file_style_and_title_style_names() -> None:
    topics = [
        _topic("feedback_prefers_uv.md", "feedback_prefers_uv"),
        _topic("project_deploy.md", "Deploy notes"),
    ]
    findings = lint_scope(_index_for(topics), topics, [t.file for t in topics])
    assert _codes(findings) == [("naming-convention", "")]
    assert "Claude Code's type_slug file names, title-style names in 1 of them" in (
        findings[0].message
    )


def test_t5a_in_memorys_own_file_names_one_title_style_name_is_still_named() -> None:
    topics = [_topic("deploy-steps.md", "deploy-steps"), _topic("ci-cache.md", "CI cache")]
    assert naming_convention(topics) is None


def test_t5a_case_folder_other_naming_convention(cases: Path) -> None:
    scope = cases / "other-naming-convention" / "scope"
    files = sorted(p.name for p in scope.glob("*.md") if p.name != "MEMORY.md")
    topics = [read_topic(scope / name)[0] for name in files]
    index = (scope / "MEMORY.md").read_text(encoding="utf-8")
    findings = lint_scope(index, topics, files)
    assert [(f.code, f.severity) for f in findings] == [("naming-convention", "info")]
    assert "3 files" in findings[0].message


# --- T-5b ------------------------------------------------------------------------------------


def test_t5b_dangling_wiki_links_are_named_with_their_line() -> None:
    topic = _topic("a.md", "a", body="See [[b]] and [[gone]].\n\nAlso [[Title of c]].")
    other = _topic("c.md", "Title of c")
    findings = lint_links([topic, other], ["a.md", "b.md", "c.md"])
    assert [(f.code, f.file, f.line, f.severity) for f in findings] == [
        ("dangling-wiki-link", "a.md", 5, "warning")
    ]
    assert "[[gone]]" in findings[0].message


def test_t5b_wiki_links_in_code_are_not_links() -> None:
    topic = _topic("a.md", "a", body="`[[gone]]`\n\n```\n[[gone]]\n```")
    assert lint_links([topic], ["a.md"]) == []


def test_t5b_refused_entries_are_named_and_no_missing_index_is_claimed() -> None:
    refused = [
        ("MEMORY.md", "a symlink to outside the memory root"),
        ("x.md", "a FIFO (named pipe), not a regular file"),
    ]
    findings = lint_scope(None, [], ["real.md"], refused=refused)
    assert [(f.code, f.file, f.severity, f.message) for f in findings] == [
        (
            "refused-entry",
            "MEMORY.md",
            "error",
            "MEMORY.md is a symlink to outside the memory root; not read",
        ),
        (
            "refused-entry",
            "x.md",
            "error",
            "x.md is a FIFO (named pipe), not a regular file; not read",
        ),
    ]


@pytest.mark.parametrize(
    "why",
    [
        "a FIFO (named pipe), not a regular file",
        "a folder, not a file",
        "a symlink to outside the memory root",
        "a symlink loop",
    ],
)
def test_t5b_a_link_to_a_refused_entry_says_it_is_there_but_never_read(why: str) -> None:
    """The entry is there: the link's finding says what it is, never "not in this scope"."""
    index = "- [Kept](kept.md) — a refused entry\n- [Gone](gone.md) — nothing there\n"

    findings = lint_scope(index, [], [], refused=[("kept.md", why)])

    dangling = [(f.line, f.message) for f in findings if f.code == "dangling-link"]
    assert dangling == [
        (1, f"links to 'kept.md', which is {why}: never read"),
        (2, "links to 'gone.md', which is not in this scope"),
    ]


@pytest.mark.parametrize("name", ["Memory.md", "memory.md", "mEMORY.md"])
def test_t5b_an_index_in_the_wrong_case_is_named(name: str) -> None:
    findings = lint_scope(None, [], [name, "a.md"])
    assert ("index-wrong-case", name) in _codes(findings)
    assert ("missing-index", "MEMORY.md") in _codes(findings)
    message = next(f.message for f in findings if f.code == "index-wrong-case")
    assert "looks like the index in another case; the index must be named MEMORY.md" in message


def test_t5b_case_folder_index_in_other_case(cases: Path) -> None:
    scope = cases / "index-in-other-case" / "scope"
    topics = [read_topic(scope / name)[0] for name in ("Memory.md", "build-cache.md")]
    findings = lint_scope(None, topics, ["Memory.md", "build-cache.md"])
    # the wrong case is the one thing wrong with Memory.md: not a PascalCase naming convention,
    # not a topic without a description
    assert _codes(findings) == [("missing-index", "MEMORY.md"), ("index-wrong-case", "Memory.md")]


@pytest.mark.parametrize("name", ["Memory.md", "memory.md"])
def test_t5b_an_index_in_the_wrong_case_is_no_topic_of_a_convention_or_unindexed(
    name: str,
) -> None:
    # beside the real index (a case-sensitive disk): named once, for its case
    topics = [_topic("deploy-steps.md", "deploy-steps"), _topic("ci-cache.md", "ci-cache")]
    wrong = parse_topic(b"- [Deploy steps](deploy-steps.md)\n", name)
    files = [name, "ci-cache.md", "deploy-steps.md"]
    index = _index_for(topics)

    findings = lint_scope(index, [wrong, *topics], files)

    assert _codes(findings) == [("index-wrong-case", name)]
    one = lint_topic_in_scope(wrong, files, index, scope_topics=lambda: [wrong, *topics])
    assert _codes(one) == [("index-wrong-case", name)]


def test_t5b_an_index_over_the_read_cap_has_true_counts_and_no_false_unindexed() -> None:
    read = "- [A](alpha.md)\n- [B](beta.md)\n- [G](gamma.md)\n"
    partial = IndexRead(
        size=1_300_000, lines_total=5, exact=True, links={"log.md": [4], "delta.md": [5]}
    )
    files = ["alpha.md", "beta.md", "gamma.md", "delta.md", "log.md"]
    findings = lint_scope(read, [], files, partial=partial)
    assert [(f.code, f.line, f.severity) for f in findings] == [("index-over-read-cap", 4, "error")]
    assert "only the first 3 of 5 lines are read and injected; 2 left out" in findings[0].message


def test_t5b_an_unknown_rest_says_at_least() -> None:
    partial = IndexRead(size=40_000_000, lines_total=9, exact=False, links={})
    finding = lint_index("- [A](a.md)\n", ["a.md"], partial=partial)[0]
    assert "of at least 9 lines" in finding.message
    assert "at least 8 left out" in finding.message


def test_t5b_an_unknown_rest_calls_no_file_unindexed() -> None:
    # Past the scanned part of an over-large index any file may be linked: no claim either way.
    partial = IndexRead(size=40_000_000, lines_total=9, exact=False, links={})
    findings = lint_scope("- [A](a.md)\n", [], ["a.md", "delta.md"], partial=partial)
    assert [f.code for f in findings] == ["index-over-read-cap"]


def test_t5b_injection_counts_unread_lines_as_left_out() -> None:
    capped = cap_indexes("- a\n- b\n- c\n", None, workspace_key=None, unread=((2, True), (0, True)))
    manifest = capped[0].manifest
    assert (manifest.lines_total, manifest.lines_kept, manifest.lines_dropped) == (5, 3, 2)
    assert manifest.cap_fired == "chars"
    assert "shows 3 of 5 lines; 2 lines were left out because of the 1 MiB read limit" in (
        capped[0].text
    )
    unknown = cap_indexes("- a\n", None, workspace_key=None, unread=((4, False), (0, True)))[0]
    assert "shows 1 of at least 5 lines; at least 4 lines were left out" in unknown.text


@pytest.mark.parametrize(
    "names",
    [
        ("Notes.md", "notes.md"),
        ("caf\u00e9.md", "cafe\u0301.md"),  # composed, and decomposed as macOS writes it
        ("Caf\u00e9.md", "cafe\u0301.md", "CAFÉ.md"),
        # a character shown as nothing (was two rows a person could not tell apart, unsaid)
        ("deploy.md", "deploy\u200b.md"),
        ("Deploy.md", "\ufeffdeploy.md", "de\u2060ploy.md"),
    ],
)
def test_t5b_topic_files_whose_names_look_alike_are_named(names: tuple[str, ...]) -> None:
    """Two topic files whose names differ only in case or Unicode form list as two rows a person
    cannot tell apart, and a machine on a case- or normalization-insensitive disk keeps one of
    them: each is a ``look-alike-names`` warning naming the others; the scope lint and the lint
    of one topic say the same."""
    topics = [parse_topic(b"---\nname: n\ndescription: d\n---\nb\n", name) for name in names]
    index = "".join(f"- [n](<{name}>) — d\n" for name in names)
    found = [f for f in lint_scope(index, topics, names) if f.code == "look-alike-names"]
    assert sorted(f.file for f in found) == sorted(names)
    assert all(f.severity == "warning" for f in found)
    for finding in found:
        assert all(repr(other) in finding.message for other in names)
        one = next(topic for topic in topics if topic.file == finding.file)
        alone = lint_topic_in_scope(one, names, index, scope_topics=lambda: topics)
        assert [f for f in alone if f.code == "look-alike-names"] == [finding]
    plain = ("notes.md", "notes-2.md")
    plain_topics = [parse_topic(b"---\nname: n\n---\nb\n", name) for name in plain]
    assert not [f for f in lint_scope(None, plain_topics, plain) if f.code == "look-alike-names"]


def _look_alike_findings(names: tuple[str, ...]) -> list[Finding]:
    """The ``look-alike-names`` findings of a scope of ``names``, each indexed; the lint of one
    topic says the same of its file as the scope lint."""
    topics = [parse_topic(b"---\nname: n\ndescription: d\n---\nb\n", name) for name in names]
    index = "".join(f"- [n](<{name}>) — d\n" for name in names)
    found = [f for f in lint_scope(index, topics, names) if f.code == "look-alike-names"]
    for topic in topics:
        alone = lint_topic_in_scope(topic, names, index, scope_topics=lambda: topics)
        mine = [f for f in found if f.file == topic.file]
        assert [f for f in alone if f.code == "look-alike-names"] == mine
    return found


@pytest.mark.parametrize(
    ("names", "said"),
    [
        # a Cyrillic er (U+0440) for a Latin p
        (
            ("prefers-pnpm.md", "prefers-pn\u0440m.md"),
            ["U+0440 CYRILLIC SMALL LETTER ER '\u0440', which looks like 'p'"],
        ),
        # a Greek omicron for a Latin o, beside a name that differs from one only in case
        (
            ("Notes.md", "notes.md", "n\u03bftes.md"),
            ["U+03BF GREEK SMALL LETTER OMICRON '\u03bf', which looks like 'o'"],
        ),
        # full-width letters
        (
            ("plan.md", "\uff50\uff4c\uff41\uff4e.md"),
            [
                "U+FF50 FULLWIDTH LATIN SMALL LETTER P '\uff50', which looks like 'p'",
                "U+FF4E FULLWIDTH LATIN SMALL LETTER N '\uff4e', which looks like 'n'",
            ],
        ),
        # a whole name in another script: Cyrillic es, o, er for Latin c, o, p
        (
            ("cop.md", "\u0441\u043e\u0440.md"),
            ["U+0441 CYRILLIC SMALL LETTER ES", "U+0063 LATIN SMALL LETTER C 'c'"],
        ),
        # mixed script: a Russian name with one Latin a in it
        (
            ("\u0418\u0432\u0430\u043d.md", "\u0418\u0432a\u043d.md"),
            [
                "U+0430 CYRILLIC SMALL LETTER A '\u0430', which looks like 'a'",
                "U+0061 LATIN SMALL LETTER A 'a'",
            ],
        ),
        # a Latin alpha for a Greek one, and a look-alike hidden behind a format character
        (("\u03b1lpha.md", "\u0251lpha.md"), ["U+03B1 GREEK SMALL LETTER ALPHA"]),
        (("deploy.md", "de\u0440\u200bloy.md"), ["U+0440 CYRILLIC SMALL LETTER ER"]),
        # a letter drawn as nothing (not a format character, but a Default_Ignorable_Code_Point
        # as they are): one of the characters shown as nothing, the name shown with its mark
        (
            ("deploy.md", "deploy\u3164.md"),
            ["'deploy[hidden: U+3164].md'", "in characters shown as nothing"],
        ),
        # a Latin dental click (U+01C0) for a capital I, which case-folding would part
        (("Ideas.md", "\u01c0deas.md"), ["U+01C0 LATIN LETTER DENTAL CLICK"]),
    ],
)
def test_t5b_topic_files_whose_names_are_drawn_alike_in_other_scripts_are_named(
    names: tuple[str, ...], said: list[str]
) -> None:
    """Names drawn alike from characters of other scripts or forms (their UTS #39 skeletons are
    equal) are a ``look-alike-names`` warning on each file, naming the others and the characters
    that differ: code point, Unicode name (its script) and the letter it looks like; a character
    shown as nothing is shown as its mark, never quoted."""
    found = _look_alike_findings(names)
    assert sorted(f.file for f in found) == sorted(names)
    for finding in found:
        assert finding.severity == "warning"
        others = [name for name in names if name != finding.file]
        assert all(show_hidden(repr(other)) in finding.message for other in others)
        assert all(part in finding.message for part in said), finding.message
        assert show_hidden(finding.message) == finding.message
        assert "\u200b" not in finding.message


def test_t5b_a_look_alike_hidden_character_is_shown_as_its_mark() -> None:
    found = _look_alike_findings(("deploy.md", "de\u0440\u200bloy.md"))
    assert all("'de\u0440\\u200bloy.md'" in f.message for f in found)


@pytest.mark.parametrize(
    "names",
    [
        # ordinary names in one non-Latin script: Russian, Greek, Japanese, Chinese
        (
            "\u0437\u0430\u043c\u0435\u0442\u043a\u0438.md",
            "\u0437\u0430\u0434\u0430\u0447\u0438.md",
        ),
        ("\u0418\u0432\u0430\u043d.md", "\u0418\u0433\u043e\u0440\u044c.md"),
        (
            "\u03c3\u03b7\u03bc\u03b5\u03b9\u03ce\u03c3\u03b5\u03b9\u03c2.md",
            "\u03c3\u03c7\u03ad\u03b4\u03b9\u03bf.md",
        ),
        (
            "\u30e1\u30e2.md",
            "\u30ce\u30fc\u30c8.md",
            "\u8a2d\u5b9a.md",
            "\u30c7\u30d7\u30ed\u30a4.md",
        ),
        ("\u7b14\u8bb0.md", "\u8ba1\u5212.md"),
        # accented Latin names that are different words
        ("caf\u00e9.md", "cafe.md", "r\u00e9sum\u00e9.md", "resume.md"),
    ],
)
def test_t5b_different_names_are_not_look_alikes(names: tuple[str, ...]) -> None:
    """Different words in one script, and ASCII names that only share a UTS #39 skeleton, are
    no ``look-alike-names`` finding."""
    assert _look_alike_findings(names) == []


@pytest.mark.parametrize(
    "names", [("modern.md", "rnodern.md"), ("v1.md", "vl.md", "vI.md"), ("log-0.md", "log-O.md")]
)
def test_t5b_ascii_names_that_only_share_a_skeleton_are_not_look_alikes(
    names: tuple[str, ...],
) -> None:
    """ASCII names whose UTS #39 skeletons meet (``m`` is drawn as ``rn``; ``1``, ``l`` and a
    capital ``I`` as ``l``; ``0`` as ``O``) are different words an ordinary listing tells apart,
    and such letters are common in real names: no ``look-alike-names`` finding."""
    assert len({skeleton(name) for name in names}) == 1
    assert _look_alike_findings(names) == []
