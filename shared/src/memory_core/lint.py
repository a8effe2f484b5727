"""Lint a scope: report what is off, never change anything (T-5).

Finding codes (``Finding.code``) with their severity (T-5a), the file they concern and a 1-based
line where one applies:

============================  =======  ===========================================================
``secret``                    error    a likely credential, named by kind and line, never echoed
``dangling-link``             error    an index link to a file of the scope that does not exist
``not-injected``              error    index lines past the injection caps (I-4), one per scope
``missing-index``             error    topic files exist but the scope has no ``MEMORY.md``
``refused-entry``             error    an entry that is never read (a symlink out of the memory
                                       root, a FIFO, a folder named ``*.md``) and why (T-5b)
``index-over-read-cap``       error    ``MEMORY.md`` is larger than the 1 MiB read cap (T-5b)
``missing-description``       warning  no usable ``description`` (recall depends on it)
``description-multiline``     warning  ``description`` spans several lines; it should be one
``index-line-too-long``       warning  an index line over 150 characters (code points)
``unindexed``                 warning  a topic file no index line links to
                                       (no claim past the scanned part of an over-large index)
``index-wrong-case``          warning  ``Memory.md`` / ``memory.md``: an index in the wrong case
                                       (an ordinary topic file, never injected) (T-5b)
``dangling-wiki-link``        warning  a ``[[name]]`` link in a body to no topic file (T-5b)
``name-mismatch``             warning  frontmatter ``name`` differs from the file name
``name-not-kebab``            info     the name (frontmatter, else the stem) is not kebab-case
``naming-convention``         info     the scope consistently follows another naming convention
                                       (snake_case file names, title-style names): one finding
                                       for the scope instead of the two above per file (T-5a)
============================  =======  ===========================================================

``find_secrets``, ``mask_secrets`` and ``mask_secret_lines`` (I-8) live in
:mod:`memory_core.credentials` and are re-exported here (the contract in docs/architecture.md).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from memory_core.credentials import find_secrets, mask_secret_lines, mask_secrets
from memory_core.index_facts import INDEX_LINE_LIMIT, IndexFacts, index_facts
from memory_core.injection import CHAR_CAP, LINE_CAP, PreparedIndex, cap_indexes
from memory_core.layout import INDEX_FILE
from memory_core.topics import ParsedTopic
from memory_core.wire import Finding, Severity

__all__ = [
    "INDEX_LINE_LIMIT",
    "LINT_CODES",
    "SEVERITIES",
    "IndexRead",
    "find_secrets",
    "lint_index",
    "lint_links",
    "lint_scope",
    "lint_topic",
    "mask_secret_lines",
    "mask_secrets",
    "naming_convention",
]

SEVERITIES: dict[str, Severity] = {
    "secret": "error",
    "dangling-link": "error",
    "not-injected": "error",
    "missing-index": "error",
    "refused-entry": "error",
    "index-over-read-cap": "error",
    "missing-description": "warning",
    "description-multiline": "warning",
    "index-line-too-long": "warning",
    "unindexed": "warning",
    "index-wrong-case": "warning",
    "dangling-wiki-link": "warning",
    "name-mismatch": "warning",
    "name-not-kebab": "info",
    "naming-convention": "info",
}
"""The severity of every lint code (T-5a)."""

LINT_CODES = tuple(SEVERITIES)

_KEBAB_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_NAMING_CODES = frozenset({"name-mismatch", "name-not-kebab"})
_PLACEHOLDER_KEY = "lint-placeholder-00000000"  # any valid key: only the budget split matters


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def _finding(code: str, file: str, line: int | None, message: str) -> Finding:
    return Finding(code=code, severity=SEVERITIES[code], file=file, line=line, message=message)


@dataclass(frozen=True, slots=True)
class _TopicRule:
    """One per-file rule: its code, when it applies, and what it says."""

    code: str
    applies: Callable[[ParsedTopic], bool]
    message: Callable[[ParsedTopic], str]


def _stem(topic: ParsedTopic) -> str:
    return topic.file.removesuffix(".md")


_TOPIC_RULES = (
    _TopicRule(
        "name-mismatch",
        lambda topic: topic.name != _stem(topic),
        lambda topic: (
            f"name {topic.name!r} differs from the file name {_stem(topic)!r}; "
            "the file name is the identity"
        ),
    ),
    _TopicRule(
        "name-not-kebab",
        lambda topic: _KEBAB_RE.fullmatch(topic.name) is None,
        lambda topic: f"name {topic.name!r} is not kebab-case (a-z, 0-9, single hyphens)",
    ),
    _TopicRule(
        "missing-description",
        lambda topic: not topic.description,
        lambda _: "no description in the frontmatter; recall relies on it",
    ),
    _TopicRule(
        "description-multiline",
        lambda topic: "\n" in (topic.description or ""),
        lambda _: "the description spans several lines; keep it to one",
    ),
)


def lint_topic(topic: ParsedTopic) -> list[Finding]:
    """Findings about one topic file on its own: name, description, secrets (T-1, T-5).

    Naming findings are per file here; :func:`lint_scope` folds them into one
    ``naming-convention`` finding when the scope follows another convention consistently.
    """
    file = topic.file
    findings = [
        _finding(rule.code, file, None, rule.message(topic))
        for rule in _TOPIC_RULES
        if rule.applies(topic)
    ]
    for field, value in (("name", topic.name), ("description", topic.description or "")):
        for kind, _ in find_secrets(value):
            findings.append(_secret(file, None, kind, f"the frontmatter {field}"))
    for kind, line in find_secrets(topic.body):
        findings.append(_secret(file, topic.body_line + line - 1, kind, "the body"))
    return findings


def _secret(file: str, line: int | None, kind: str, where: str) -> Finding:
    message = f"likely credential ({kind}) in {where}; remove it and rotate it"
    return _finding("secret", file, line, message)


# Other agents' file-name conventions, in the order a name fitting several is called by. A
# one-word lower-case stem fits kebab-case too, and so counts as Memory's own.
_FILE_CONVENTIONS = (
    ("snake_case", re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")),
    ("camelCase", re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*")),
    ("PascalCase", re.compile(r"(?:[A-Z][a-z0-9]*)+")),
    ("SCREAMING_SNAKE_CASE", re.compile(r"[A-Z0-9]+(?:_[A-Z0-9]+)*")),
    ("words-with-spaces", re.compile(r"[^\s_-]+(?: [^\s_-]+)*")),
)


def _file_convention(stems: Sequence[str]) -> str | None:
    """The one convention every stem follows: ``"kebab-case"`` (Memory's own), another, or None."""
    if all(_KEBAB_RE.fullmatch(stem) for stem in stems):
        return "kebab-case"
    for label, pattern in _FILE_CONVENTIONS:
        if all(pattern.fullmatch(stem) for stem in stems):
            return label
    return None


def naming_convention(topics: Sequence[ParsedTopic]) -> Finding | None:
    """One ``info`` finding when every topic follows one other naming convention (T-5a).

    Consistent means: every file name follows one convention (kebab-case, snake_case,
    camelCase, PascalCase, SCREAMING_SNAKE_CASE or words with spaces; a one-word name fits
    several), and the ``name`` fields agree with it: in a kebab-case scope either every
    ``name`` is the file's stem or none is (title-style names); another agent's convention
    may mix the two (``name: feedback_prefers_uv`` beside ``name: Deploy notes``). A scope in
    Memory's own convention (kebab-case, ``name`` = stem) gets None, and so does a mixed scope,
    whose files keep their own naming findings.
    """
    if len(topics) < 2:
        return None
    convention = _file_convention([_stem(topic) for topic in topics])
    titled = sum(topic.name != _stem(topic) for topic in topics)
    if convention is None or (convention == "kebab-case" and 0 < titled < len(topics)):
        return None
    traits = [] if convention == "kebab-case" else [f"{convention} file names"]
    if titled == len(topics):
        traits.append("title-style names")
    elif titled:
        traits.append(f"title-style names in {titled} of them")
    if not traits:
        return None  # Memory's own convention
    return _finding(
        "naming-convention",
        "",
        None,
        f"this scope follows another naming convention ({', '.join(traits)}) in all "
        f"{len(topics)} files; Memory reads it as it is. Rename the files to kebab-case "
        "with a matching name only if you want Memory's own convention.",
    )


def lint_links(topics: Sequence[ParsedTopic], topic_files: Collection[str]) -> list[Finding]:
    """``dangling-wiki-link``: a ``[[name]]`` in a body that names no topic file (T-5b).

    A link names a file by its stem (``[[deploy-freeze]]`` → ``deploy-freeze.md``) or by a
    topic's frontmatter ``name``; names compare in NFC. The line is the first that holds it.
    """
    known = {_nfc(name.removesuffix(".md")) for name in topic_files}
    known |= {_nfc(topic.name) for topic in topics}
    findings: list[Finding] = []
    for topic in sorted(topics, key=lambda topic: topic.file):
        for target in topic.links:
            if _nfc(target) in known or _nfc(target.removesuffix(".md")) in known:
                continue
            findings.append(
                _finding(
                    "dangling-wiki-link",
                    topic.file,
                    _line_of(topic, f"[[{target}"),
                    f"[[{target}]] names no topic file of this scope",
                )
            )
    return findings


def _line_of(topic: ParsedTopic, needle: str) -> int | None:
    for number, line in enumerate(topic.body.split("\n")):
        if needle in line:
            return topic.body_line + number
    return None


@dataclass(frozen=True, slots=True)
class IndexRead:
    """How much of a ``MEMORY.md`` was read, for an index larger than the read cap (T-5b).

    ``size`` is the file's size in bytes; ``lines_total`` the number of lines of the whole
    file, or a lower bound when ``exact`` is false; ``links`` maps each scope-local link
    target found past the cap to its line numbers (so no file is called unindexed falsely).
    """

    size: int
    lines_total: int
    exact: bool
    links: dict[str, list[int]]


def lint_index(
    index_text: str,
    topic_files: Collection[str],
    *,
    companion_index: str | None = None,
    partial: IndexRead | None = None,
    facts: IndexFacts | None = None,
) -> list[Finding]:
    """Findings about a scope's ``MEMORY.md`` (T-4, T-5, I-4, I-8).

    ``topic_files`` are the topic file names present in the scope. ``not-injected`` applies the
    injection caps as they would run for this index; pass the other scope's index as
    ``companion_index`` to account for the shared character budget, else the index is capped
    as if injected alone. ``partial`` says the text is only the first part of a larger file.
    ``facts`` is :func:`~memory_core.index_facts.index_facts` of ``index_text`` when the caller
    keeps it (found here otherwise).
    """
    facts = facts if facts is not None else index_facts(index_text)
    linked = _links(facts, partial)
    return _index_findings(index_text, facts, linked, topic_files, companion_index, partial)


def _links(facts: IndexFacts, partial: IndexRead | None) -> dict[str, list[int]]:
    if partial is None:
        return facts.links
    linked = {target: list(lines) for target, lines in facts.links.items()}
    for target, lines in partial.links.items():
        linked.setdefault(target, []).extend(lines)
    return linked


def _index_findings(
    index_text: str,
    facts: IndexFacts,
    linked: dict[str, list[int]],
    topic_files: Collection[str],
    companion_index: str | None,
    partial: IndexRead | None = None,
) -> list[Finding]:
    """:func:`lint_index` with the index's facts and links (those past a read cap too) found."""
    findings: list[Finding] = []
    present = {_nfc(name) for name in topic_files}
    for number, length in facts.long_lines:
        message = f"{length} characters; keep index lines under {INDEX_LINE_LIMIT}"
        findings.append(_finding("index-line-too-long", INDEX_FILE, number, message))
    for target, lines in sorted(linked.items()):
        if target.endswith(".md") and target not in present and target != INDEX_FILE:
            message = f"links to {target!r}, which is not in this scope"
            findings.extend(_finding("dangling-link", INDEX_FILE, n, message) for n in lines)
    if partial is not None:
        findings.append(_over_cap(partial, facts.lines))
    else:
        findings.extend(_not_injected(facts.prepared, companion_index))
    findings.extend(
        _secret(INDEX_FILE, line, kind, "the index (masked when injected)")
        for kind, line in facts.secrets
    )
    return sorted(findings, key=lambda finding: finding.line or 0)


def _over_cap(partial: IndexRead, lines_read: int) -> Finding:
    at_least = "" if partial.exact else "at least "
    left_out = partial.lines_total - lines_read
    return _finding(
        "index-over-read-cap",
        INDEX_FILE,
        lines_read + 1 if left_out > 0 else None,
        f"{partial.size:,} bytes, over the 1 MiB read cap: only the first {lines_read} of "
        f"{at_least}{partial.lines_total} lines are read and injected; {at_least}{left_out} "
        "left out. Split or shorten the index.",
    )


def _not_injected(index: PreparedIndex, companion_index: str | None) -> list[Finding]:
    key = _PLACEHOLDER_KEY if companion_index is not None else None
    capped = cap_indexes(index, companion_index, workspace_key=key)[0]
    if not capped.dropped:
        return []
    first, last = capped.dropped[0], capped.dropped[-1]
    cap = (
        f"the {LINE_CAP}-line cap"
        if capped.manifest.cap_fired == "lines"
        else f"the {CHAR_CAP:,}-character limit"
    )
    count = len(capped.dropped)
    message = f"lines {first}-{last} ({count}) are past {cap} and never reach the model"
    return [_finding("not-injected", INDEX_FILE, first, message)]


def _wrong_case_indexes(topic_files: Collection[str]) -> list[Finding]:
    return [
        _finding(
            "index-wrong-case",
            name,
            None,
            f"{name!r} looks like the index in another case; the index must be named "
            f"{INDEX_FILE} (this file is an ordinary topic file and is never injected)",
        )
        for name in sorted(topic_files)
        if name.casefold() == INDEX_FILE.casefold() and name != INDEX_FILE
    ]


def _refused(refused: Sequence[tuple[str, str]]) -> list[Finding]:
    return [
        _finding("refused-entry", name, None, f"{name} is {why}; not read")
        for name, why in sorted(refused)
    ]


def lint_scope(
    index_text: str | None,
    topics: Sequence[ParsedTopic],
    topic_files: Collection[str],
    *,
    companion_index: str | None = None,
    refused: Sequence[tuple[str, str]] = (),
    partial: IndexRead | None = None,
    facts: IndexFacts | None = None,
) -> list[Finding]:
    """Lint one scope (T-5, T-5a, T-5b): its index (None when missing), topics and file names.

    ``topic_files`` lists every topic file in the scope (also those not parsed); ``refused``
    the ``(entry name, why)`` of entries that are never read (a symlink out of the memory root
    …); ``partial`` describes an index larger than the read cap; ``facts`` is
    :func:`~memory_core.index_facts.index_facts` of ``index_text`` when the caller keeps it
    (a service extends it as the index grows). Returns the scope-level
    findings first (index by line), then topic findings by file name. Nothing is changed.
    """
    findings = [*_refused(refused), *_scope_findings(index_text, topic_files, refused, partial)]
    if index_text is not None:
        facts = facts if facts is not None else index_facts(index_text)
        linked = _links(facts, partial)
        findings.extend(
            _index_findings(index_text, facts, linked, topic_files, companion_index, partial)
        )
        if partial is None or partial.exact:
            # past the scanned part of an over-large index any file may be linked: no claim
            findings.extend(_unindexed(topic_files, linked))
    convention = naming_convention(topics)
    if convention is not None:
        findings.append(convention)
    findings.extend(lint_links(topics, topic_files))
    for topic in sorted(topics, key=lambda topic: topic.file):
        findings.extend(
            finding
            for finding in lint_topic(topic)
            if convention is None or finding.code not in _NAMING_CODES
        )
    return findings


def _scope_findings(
    index_text: str | None,
    topic_files: Collection[str],
    refused: Sequence[tuple[str, str]],
    partial: IndexRead | None,
) -> list[Finding]:
    """``missing-index`` (unless the index was refused) and ``index-wrong-case``."""
    findings = _wrong_case_indexes(topic_files)
    index_refused = any(name == INDEX_FILE for name, _ in refused)
    if index_text is None and topic_files and not index_refused:
        message = "topic files exist but MEMORY.md is missing; none of them is injected"
        findings.insert(0, _finding("missing-index", INDEX_FILE, None, message))
    return findings


def _unindexed(topic_files: Collection[str], linked: dict[str, list[int]]) -> list[Finding]:
    message = "no MEMORY.md line links to this file, so it is never recalled"
    return [
        _finding("unindexed", name, None, message)
        for name in sorted(topic_files)
        if _nfc(name) not in linked
    ]
