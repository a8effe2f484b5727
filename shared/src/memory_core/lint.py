"""Lint a scope: report what is off, never change anything (T-5).

Finding codes (``Finding.code``), each with the file it concerns and a 1-based line where one
applies:

============================  ==================================================================
``name-mismatch``             frontmatter ``name`` differs from the file name without ``.md``
``name-not-kebab``            the name (frontmatter, else the stem) is not kebab-case
``missing-description``       no usable ``description`` (recall depends on it)
``description-multiline``     ``description`` spans several lines; it should be one
``missing-index``             topic files exist but the scope has no ``MEMORY.md``
``index-line-too-long``       an index line over 150 characters (code points)
``dangling-link``             an index link to a file of the scope that does not exist
``unindexed``                 a topic file no index line links to
``not-injected``              index lines past the injection caps (I-4), one finding per scope
``secret``                    a likely credential, named by kind and line, never echoed
============================  ==================================================================

``find_secrets``, ``mask_secrets`` and ``mask_secret_lines`` (I-8) live in
:mod:`memory_core.credentials` and are re-exported here (the contract in docs/architecture.md).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence

from memory_core.credentials import find_secrets, mask_secret_lines, mask_secrets
from memory_core.index import index_lines, linked_topic_files
from memory_core.injection import CHAR_CAP, LINE_CAP, cap_indexes
from memory_core.layout import INDEX_FILE
from memory_core.topics import ParsedTopic
from memory_core.wire import Finding

__all__ = [
    "INDEX_LINE_LIMIT",
    "LINT_CODES",
    "find_secrets",
    "lint_index",
    "lint_scope",
    "lint_topic",
    "mask_secret_lines",
    "mask_secrets",
]

INDEX_LINE_LIMIT = 150
"""Index lines longer than this many code points are reported (T-5); the prompt asks for ~150."""

LINT_CODES = (
    "name-mismatch",
    "name-not-kebab",
    "missing-description",
    "description-multiline",
    "missing-index",
    "index-line-too-long",
    "dangling-link",
    "unindexed",
    "not-injected",
    "secret",
)

_KEBAB_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_PLACEHOLDER_KEY = "lint-placeholder-00000000"  # any valid key: only the budget split matters


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def lint_topic(topic: ParsedTopic) -> list[Finding]:
    """Findings about one topic file on its own: name, description, secrets (T-1, T-5)."""
    file = topic.file
    stem = file.removesuffix(".md")
    findings: list[Finding] = []
    if topic.name != stem:
        findings.append(
            Finding(
                code="name-mismatch",
                file=file,
                line=None,
                message=f"name {topic.name!r} differs from the file name {stem!r}; "
                "the file name is the identity",
            )
        )
    if _KEBAB_RE.fullmatch(topic.name) is None:
        findings.append(
            Finding(
                code="name-not-kebab",
                file=file,
                line=None,
                message=f"name {topic.name!r} is not kebab-case (a-z, 0-9, single hyphens)",
            )
        )
    if not topic.description:
        findings.append(
            Finding(
                code="missing-description",
                file=file,
                line=None,
                message="no description in the frontmatter; recall relies on it",
            )
        )
    elif "\n" in topic.description:
        findings.append(
            Finding(
                code="description-multiline",
                file=file,
                line=None,
                message="the description spans several lines; keep it to one",
            )
        )
    for field, value in (("name", topic.name), ("description", topic.description or "")):
        for kind, _ in find_secrets(value):
            findings.append(_secret(file, None, kind, f"the frontmatter {field}"))
    for kind, line in find_secrets(topic.body):
        findings.append(_secret(file, topic.body_line + line - 1, kind, "the body"))
    return findings


def _secret(file: str, line: int | None, kind: str, where: str) -> Finding:
    return Finding(
        code="secret",
        file=file,
        line=line,
        message=f"likely credential ({kind}) in {where}; remove it and rotate it",
    )


def lint_index(
    index_text: str, topic_files: Collection[str], *, companion_index: str | None = None
) -> list[Finding]:
    """Findings about a scope's ``MEMORY.md`` (T-4, T-5, I-4, I-8).

    ``topic_files`` are the topic file names present in the scope. ``not-injected`` applies the
    injection caps as they would run for this index; pass the other scope's index as
    ``companion_index`` to account for the shared character budget, else the index is capped
    as if injected alone.
    """
    return _index_findings(index_text, linked_topic_files(index_text), topic_files, companion_index)


def _index_findings(
    index_text: str,
    linked: dict[str, list[int]],
    topic_files: Collection[str],
    companion_index: str | None,
) -> list[Finding]:
    """:func:`lint_index` with the index's links (``linked_topic_files``) already found."""
    findings: list[Finding] = []
    present = {_nfc(name) for name in topic_files}
    for number, line in enumerate(index_lines(index_text), start=1):
        if len(line) > INDEX_LINE_LIMIT:
            findings.append(
                Finding(
                    code="index-line-too-long",
                    file=INDEX_FILE,
                    line=number,
                    message=f"{len(line)} characters; keep index lines under {INDEX_LINE_LIMIT}",
                )
            )
    for target, lines in sorted(linked.items()):
        if target.endswith(".md") and target not in present and target != INDEX_FILE:
            findings.extend(
                Finding(
                    code="dangling-link",
                    file=INDEX_FILE,
                    line=number,
                    message=f"links to {target!r}, which is not in this scope",
                )
                for number in lines
            )
    findings.extend(_not_injected(index_text, companion_index))
    findings.extend(
        _secret(INDEX_FILE, line, kind, "the index (masked when injected)")
        for kind, line in find_secrets(index_text)
    )
    return sorted(findings, key=lambda finding: finding.line or 0)


def _not_injected(index_text: str, companion_index: str | None) -> list[Finding]:
    key = _PLACEHOLDER_KEY if companion_index is not None else None
    capped = cap_indexes(index_text, companion_index, workspace_key=key)[0]
    if not capped.dropped:
        return []
    first, last = capped.dropped[0], capped.dropped[-1]
    cap = (
        f"the {LINE_CAP}-line cap"
        if capped.manifest.cap_fired == "lines"
        else f"the {CHAR_CAP:,}-character limit"
    )
    count = len(capped.dropped)
    return [
        Finding(
            code="not-injected",
            file=INDEX_FILE,
            line=first,
            message=f"lines {first}-{last} ({count}) are past {cap} and never reach the model",
        )
    ]


def lint_scope(
    index_text: str | None,
    topics: Sequence[ParsedTopic],
    topic_files: Collection[str],
    *,
    companion_index: str | None = None,
) -> list[Finding]:
    """Lint one scope (T-5): its index (None when missing), parsed topics and topic file names.

    ``topic_files`` lists every topic file in the scope (also those not parsed). Returns index
    findings first (by line), then topic findings by file name. Nothing is changed.
    """
    findings: list[Finding] = []
    if index_text is None:
        if topic_files:
            findings.append(
                Finding(
                    code="missing-index",
                    file=INDEX_FILE,
                    line=None,
                    message="topic files exist but MEMORY.md is missing; none of them is injected",
                )
            )
        linked: dict[str, list[int]] = {}
    else:
        linked = linked_topic_files(index_text)
        findings.extend(_index_findings(index_text, linked, topic_files, companion_index))
    for name in sorted(topic_files):
        if index_text is not None and _nfc(name) not in linked:
            findings.append(
                Finding(
                    code="unindexed",
                    file=name,
                    line=None,
                    message="no MEMORY.md line links to this file, so it is never recalled",
                )
            )
    for topic in sorted(topics, key=lambda topic: topic.file):
        findings.extend(lint_topic(topic))
    return findings
