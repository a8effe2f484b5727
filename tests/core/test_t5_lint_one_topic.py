"""T-5, T-5a, T-5b for one file: ``lint_topic_in_scope`` gives exactly what ``lint_scope`` says
about that file, and asks for the scope's other topics only when one of them decides a finding
(so reading one memory costs the same in a scope of 5 files and of 5,000, issue 30)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from hypothesis import given
from hypothesis import strategies as st
from memory_core.lint import (
    IndexRead,
    lint_scope,
    lint_topic,
    lint_topic_in_scope,
    lint_topics_in_scope,
)
from memory_core.topics import ParsedTopic, parse_topic
from memory_core.wiki_links import link_keys
from memory_core.wire import Finding

STEMS = [
    "deploy-notes",
    "Deploy-Notes",
    "deploy_notes",
    "DeployNotes",
    "release plan",
    "Memory",
    "cache-2",
    "a",
]
NAMES = [None, "same", "Deploy notes", "deploy-notes", "cache-2", ""]
LINKS = ["", "[[deploy-notes]]", "[[Deploy notes]]", "[[nowhere]]", "`[[code]]`", "[[a|A]]"]
SECRET = "api_key=sk-live-0123456789abcdefABCDEF0123"


def _topic(file: str, name: str | None, body: str, description: bool) -> ParsedTopic:
    lines = ["---"]
    if name == "same":
        name = file.removesuffix(".md")
    if name is not None:
        lines.append(f"name: {name}")
    if description:
        lines.append("description: what it is about")
    lines += ["---", body]
    return parse_topic("\n".join(lines).encode("utf-8"), file)


@st.composite
def scopes(draw: st.DrawFn) -> tuple[list[ParsedTopic], str | None]:
    stems = draw(st.lists(st.sampled_from(STEMS), min_size=1, max_size=6, unique=True))
    topics = [
        _topic(
            f"{stem}.md",
            draw(st.sampled_from(NAMES)),
            draw(st.sampled_from(LINKS)) + draw(st.sampled_from(["", f"\n{SECRET}"])),
            draw(st.booleans()),
        )
        for stem in stems
    ]
    if draw(st.booleans()):
        return topics, None
    linked = draw(st.lists(st.sampled_from([t.file for t in topics] + ["gone.md"])))
    return topics, "".join(f"- [{file}](<{file}>) — a hook\n" for file in linked)


Counted = tuple[Callable[[], Sequence[ParsedTopic]], list[int]]


def _counting(topics: Sequence[ParsedTopic]) -> Counted:
    calls: list[int] = []

    def scope_topics() -> Sequence[ParsedTopic]:
        calls.append(1)
        return topics

    return scope_topics, calls


@given(scopes())
def test_t5_one_topic_gets_what_the_scope_lint_says_about_it(
    scope: tuple[list[ParsedTopic], str | None],
) -> None:
    topics, index = scope
    files = [topic.file for topic in topics]
    whole = lint_scope(index, topics, files)
    for topic in topics:
        scope_topics, _ = _counting(topics)
        alone = lint_topic_in_scope(topic, files, index, scope_topics=scope_topics)
        assert alone == [finding for finding in whole if finding.file == topic.file]


@given(scopes(), st.lists(st.sampled_from(STEMS), max_size=3, unique=True))
def test_t5_one_topic_beside_unreadable_files_gets_what_the_scope_lint_says_about_it(
    scope: tuple[list[ParsedTopic], str | None], unreadable_stems: list[str]
) -> None:
    """A file that is there but cannot be read (Q-2b) is named, never parsed: no topic of a
    convention (T-5a), so one file's lint decides the conventions from the parsed files alone,
    as the scope's lint does (it once counted every name: a ``missing-description`` dropped for
    a ``no-frontmatter`` the scope never got, a ``name-not-kebab`` kept that it folded)."""
    parsed, index = scope
    unreadable = [f"{stem}.md" for stem in unreadable_stems]
    topics = [topic for topic in parsed if topic.file not in unreadable]
    files = [topic.file for topic in topics] + unreadable
    why = [(file, "may not read it (permission denied)") for file in unreadable]
    whole = lint_scope(index, topics, files, unreadable=why)
    for topic in topics:
        for parsed_files in (None, lambda: [topic.file for topic in topics]):
            scope_topics, _ = _counting(topics)
            alone = lint_topic_in_scope(
                topic, files, index, scope_topics=scope_topics, parsed_files=parsed_files
            )
            assert alone == [finding for finding in whole if finding.file == topic.file]


def test_t5_an_ordinary_topic_never_asks_for_the_others() -> None:
    topics = [_topic(f"note-{n}.md", "same", "A plain body.", True) for n in range(50)]
    files = [topic.file for topic in topics]
    index = "".join(f"- [{file}]({file}) — a hook\n" for file in files[:-1])
    scope_topics, calls = _counting(topics)

    first = lint_topic_in_scope(topics[0], files, index, scope_topics=scope_topics)
    unindexed = lint_topic_in_scope(topics[-1], files, index, scope_topics=scope_topics)

    assert first == []
    assert [(f.code, f.file) for f in unindexed] == [("unindexed", "note-49.md")]
    assert calls == []


def test_t5_the_others_decide_a_convention_and_a_link_by_frontmatter_name() -> None:
    snake = [_topic(f"note_{n}.md", None, "x", True) for n in range(3)]
    linking = _topic("note_3.md", None, "See [[Deploy notes]].", True)
    target = _topic("note_4.md", "Deploy notes", "x", True)
    topics = [*snake, linking, target]
    files = [topic.file for topic in topics]
    scope_topics, calls = _counting(topics)

    findings = lint_topic_in_scope(linking, files, None, scope_topics=scope_topics)

    # snake_case names fold into one naming-convention finding; the link names a topic
    assert findings == [f for f in lint_scope(None, topics, files) if f.file == linking.file]
    assert not any(f.code in {"name-not-kebab", "dangling-wiki-link"} for f in findings)
    assert len(calls) == 1  # asked once, for both


def test_t5_own_findings_kept_by_the_caller_are_used() -> None:
    topic = _topic("notes.md", "same", SECRET, False)
    own = lint_topic(topic)
    marker = Finding(code="secret", severity="error", file="notes.md", line=1, message="kept")

    findings = lint_topic_in_scope(
        topic, ["notes.md"], None, scope_topics=lambda: [topic], own=[marker]
    )

    assert findings == [marker]
    assert own != [marker]


def test_t5b_no_unindexed_claim_past_an_index_read_cap_that_was_not_scanned() -> None:
    topic = _topic("far.md", "same", "x", True)
    partial = IndexRead(size=20_000_000, lines_total=300_000, exact=False, links={})

    findings = lint_topic_in_scope(
        topic, ["far.md"], "- [other](other.md)\n", scope_topics=lambda: [topic], partial=partial
    )

    assert findings == []


def _drawing(
    topics: Sequence[ParsedTopic],
) -> tuple[Callable[[], Iterator[ParsedTopic]], list[str]]:
    """``scope_topics`` as a listing gives it, one parsed file at a time; the files drawn."""
    drawn: list[str] = []

    def scope_topics() -> Iterator[ParsedTopic]:
        for topic in topics:
            drawn.append(topic.file)
            yield topic

    return scope_topics, drawn


def test_t5_the_others_are_read_only_up_to_the_first_that_decides() -> None:
    """A scope of 30,000 files parsed them all for the first page of its listing. A link to a
    frontmatter name reads the files up to the one so named; a file without frontmatter, up to
    the first that has some (no ``no-frontmatter`` convention then); the rest are never read."""
    linking = _topic("a-linking.md", "same", "See [[Deploy notes]].", True)
    bare = parse_topic(b"just text, no frontmatter\n", "b-bare.md")
    others = [_topic(f"note-{n}.md", "same", "x", True) for n in range(100)]
    target = _topic("note-002.md", "Deploy notes", "x", True)
    topics = [linking, bare, *others[:2], target, *others[3:]]
    files = [topic.file for topic in topics]
    whole = lint_scope(None, topics, files)

    for topic, read_up_to in ((linking, target.file), (bare, linking.file)):
        scope_topics, drawn = _drawing(topics)
        findings = lint_topic_in_scope(topic, files, None, scope_topics=scope_topics)
        assert findings == [f for f in whole if f.file == topic.file]
        assert drawn == files[: files.index(read_up_to) + 1]


def test_t5a_t5b_names_not_kebab_case_and_a_link_with_a_folder_read_no_other_file() -> None:
    """A scope named as an Obsidian vault names notes (``Deploy Freeze.md``) had every file
    parsed to fold one file's ``name-not-kebab`` into the scope's ``naming-convention``, and
    a ``[[drafts/x]]`` drew every topic for a frontmatter ``name`` that no name can match. The
    names of the files that parse (``parsed_files``, which a service learns by opening them)
    decide the convention; a link with a folder is judged by the names alone."""
    topics = [_topic(f"Note {n:03d}.md", "same", "See [[drafts/x]].", True) for n in range(100)]
    files = [topic.file for topic in topics]
    whole = lint_scope(None, topics, files)
    scope_topics, drawn = _drawing(topics)

    findings = lint_topic_in_scope(
        topics[0], files, None, scope_topics=scope_topics, parsed_files=lambda: files
    )

    assert findings == [f for f in whole if f.file == topics[0].file]
    assert [f.code for f in findings] == ["dangling-wiki-link"]
    assert "naming-convention" in {f.code for f in whole}
    assert drawn == []


def test_t5b_titles_the_caller_kept_answer_a_link_to_no_file_without_drawing() -> None:
    """A ``[[link]]`` no file name resolves may name a topic's frontmatter ``name`` (T-5b):
    with the link keys of every ``name`` kept by the caller (a listing keeps them by every
    file's stat key) no topic is drawn, and the finding is the one the scope's lint gives."""
    linking = _topic("a-linking.md", "same", "See [[Deploy notes]] and [[Not yet]].", True)
    target = _topic("note-002.md", "Deploy notes", "x", True)
    topics = [linking, *(_topic(f"note-{n:03d}.md", "same", "x", True) for n in (0, 1)), target]
    files = [topic.file for topic in topics]
    kept = frozenset(key for topic in topics for key in link_keys(topic.name))
    scope_topics, drawn = _drawing(topics)

    findings = lint_topics_in_scope(
        [linking], files, scope_topics=scope_topics, titles=lambda: kept
    )

    assert findings == [f for f in lint_scope(None, topics, files) if f.file == linking.file]
    assert [f.message.split("]]")[0] for f in findings] == ["[[Not yet"]
    assert drawn == []
