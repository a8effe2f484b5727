"""Lint a scope: report what is off, never change anything (T-5).

Finding codes (``Finding.code``) with their severity (T-5a), the file they concern and a 1-based
line where one applies:

============================  =======  ===========================================================
``secret``                    error    a likely credential, named by kind and line, never echoed
``hidden-text``               error    characters a model reads but a person cannot see (tag
                                       characters, bidirectional controls, zero-width characters
                                       inside words), by kind, count, line and field, or in
                                       a topic file's name (I-9)
``look-alike-link``           error    a web address that reads as another site: a host mixing
                                       scripts (``gіthub.com`` with a Cyrillic ``і``), drawn
                                       wholly in look-alike letters (``аррӏе.com``), behind a
                                       user name like a host (``https://github.com@evil.example``)
                                       or a link text showing another host (I-9, T-5b)
``dangling-link``             error    an index link to a file of the scope (or into one of its
                                       sub-folders) that does not exist (a ``[[wiki link]]``
                                       names a note as Obsidian does: ``[[Deploy Freeze]]``
                                       is ``deploy-freeze.md``; a Markdown link is a path)
``not-injected``              error    index lines past the injection caps (I-4), one per scope
``missing-index``             error    topic files exist but the scope has no ``MEMORY.md``
``refused-entry``             error    an entry that is never read (a symlink out of the memory
                                       root, a FIFO, a folder named ``*.md``) and why (T-5b)
``index-over-read-cap``       error    ``MEMORY.md`` is larger than the 1 MiB read cap (T-5b)
``unreadable``                error    a file or folder that is there but the service cannot read
                                       (no permission, an I/O error) or does not decode (a legacy
                                       CJK encoding, T-2), named with the reason: never taken for
                                       absent (Q-2b)
``missing-description``       warning  no usable ``description`` (recall depends on it)
``invalid-encoding``          warning  bytes read though not valid UTF-8 (as cp1252, or line
                                       by line) or not valid in a UTF-16/UTF-32 file
                                       (as U+FFFD), in the index or a topic file: named by
                                       line and byte offset, with the fix (T-2)
``description-multiline``     warning  ``description`` spans several lines; it should be one
``index-line-too-long``       warning  an index line over 150 characters as shown
                                       (grapheme clusters)
``joined-index-line``         warning  an index line whose entries are joined by a character
                                       other tools show as a line break (U+2028, U+2029, NEL,
                                       a form feed, a vertical tab …; T-4): named by line and
                                       character, with the fix (one entry a line)
``unindexed``                 warning  a topic file no index line links to
                                       (no claim past the scanned part of an over-large index)
``index-wrong-case``          warning  ``Memory.md`` / ``memory.md``: an index in the wrong case
                                       (an ordinary topic file, never injected) (T-5b); it
                                       stands for the file's naming, description and
                                       ``unindexed`` findings, and the file is no part of a
                                       naming convention
``dangling-wiki-link``        warning  a ``[[name]]`` link in a body to no topic file (T-5b)
``look-alike-names``          warning  topic files whose names differ only in case, in how an
                                       accent is encoded or in characters shown as nothing
                                       (``Notes.md``, ``notes.md``, ``notes<U+200B>.md``), or
                                       are drawn alike from letters of other scripts or forms
                                       (one UTS #39 skeleton: ``pnpm.md`` and ``pnрm.md`` with
                                       a Cyrillic ``р``; full-width letters): they look the
                                       same, and a case- or normalization-insensitive disk
                                       (macOS, Windows) keeps one of the first kind (T-5b)
``windows-name``              warning  a topic file named as a Windows device (``aux.md``,
                                       ``CON.md``, ``com1.notes.md``: any case, whatever
                                       follows its first dot): a Windows machine's copy of the
                                       scope cannot hold it (R-1); rename it
``empty-name``                warning  ``name:`` with no text; the file name stands in (T-1a)
``name-mismatch``             warning  frontmatter ``name`` says other words than the file name
                                       (``Always run the linter`` is the same name as a title)
``name-not-kebab``            info     the name (frontmatter, else the stem) is not kebab-case
                                       (not besides ``name-mismatch`` with a kebab-case stem:
                                       naming the file's stem fixes both)
``naming-convention``         info     the scope consistently follows another naming convention
                                       (Claude Code's type_slug, snake_case file names,
                                       title-style names): one finding for the scope instead of
                                       the two above per file (T-5a)
``no-frontmatter``            info     no file of the scope has frontmatter (plain notes, another
                                       tool's convention): one finding for the scope instead of
                                       ``missing-description`` per file (T-5a)
============================  =======  ===========================================================

``find_secrets``, ``mask_secrets`` and ``mask_secret_lines`` (I-8) live in
:mod:`memory_core.credentials` and are re-exported here (the contract in docs/architecture.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import regex

from memory_core.confusables import skeleton
from memory_core.credentials import find_secrets, mask_secret_lines, mask_secrets
from memory_core.decoding import NOT_DECODED
from memory_core.encoding_findings import not_utf8_notes
from memory_core.hidden_text import find_hidden, show_hidden
from memory_core.ignorable import is_ignorable, without_ignorable
from memory_core.index import IndexRead
from memory_core.index_facts import INDEX_LINE_LIMIT, IndexFacts, index_facts
from memory_core.injection import CHAR_CAP, LINE_CAP, PreparedIndex, cap_indexes
from memory_core.joined_lines import break_name, filled_parts, has_soft_break, joined_breaks
from memory_core.layout import INDEX_FILE
from memory_core.lazy_topics import LazyTopics
from memory_core.look_alike_links import LookAlikeLink, look_alike_links
from memory_core.markdown import line_texts
from memory_core.shown_names import shown_name
from memory_core.topics import EMPTY_FILE, EMPTY_NAME, NO_FRONTMATTER, ParsedTopic
from memory_core.unreadable_findings import unreadable_message
from memory_core.wiki_links import (
    NAMES_KEPT,
    SUB_FOLDER_WALK_CAP,
    SUB_FOLDER_WALK_DEPTH,
    WikiFiles,
    link_key,
    title_keys,
    wiki_path,
)
from memory_core.wire import Finding, Severity

__all__ = [
    "INDEX_LINE_LIMIT",
    "LINT_CODES",
    "SEVERITIES",
    "IndexRead",
    "convention_findings",
    "find_secrets",
    "frontmatter_convention",
    "lint_index",
    "lint_links",
    "lint_names_in_scope",
    "lint_scope",
    "lint_topic",
    "lint_topic_in_scope",
    "lint_topics",
    "lint_topics_in_scope",
    "mask_secret_lines",
    "mask_secrets",
    "naming_convention",
    "windows_device",
]

SEVERITIES: dict[str, Severity] = {
    "secret": "error",
    "hidden-text": "error",
    "look-alike-link": "error",
    "dangling-link": "error",
    "not-injected": "error",
    "missing-index": "error",
    "refused-entry": "error",
    "index-over-read-cap": "error",
    "unreadable": "error",
    "invalid-encoding": "warning",
    "missing-description": "warning",
    "description-multiline": "warning",
    "index-line-too-long": "warning",
    "joined-index-line": "warning",
    "unindexed": "warning",
    "index-wrong-case": "warning",
    "dangling-wiki-link": "warning",
    "look-alike-names": "warning",
    "windows-name": "warning",
    "empty-name": "warning",
    "name-mismatch": "warning",
    "name-not-kebab": "info",
    "naming-convention": "info",
    "no-frontmatter": "info",
}
"""The severity of every lint code (T-5a)."""

LINT_CODES = tuple(SEVERITIES)

# A lower-case word of any script: a letter that is no capital (a lower-case letter, or one of
# a script without case: CJK, kana, Hangul, Arabic, Hebrew, Thai, Devanagari …) or a digit, then
# such letters, digits and marks (a Devanagari vowel sign, an accent written apart, NFD).
_LOWER_WORD = r"[\p{Ll}\p{Lo}\p{Lm}\p{Nd}][\p{Ll}\p{Lo}\p{Lm}\p{Nd}\p{M}]*"
_CAPITALISED = r"[\p{Lu}\p{Lt}][\p{Ll}\p{Nd}\p{M}]*"
_SCREAMING_WORD = r"[\p{Lu}\p{Nd}][\p{Lu}\p{Nd}\p{M}]*"
_KEBAB_RE = regex.compile(rf"{_LOWER_WORD}(?:-{_LOWER_WORD})*")
"""Kebab-case: lower-case words of any script joined by single hyphens (``deploy-freeze``,
``настройки-сборки``, ``デプロイ手順``, ``über-uns`` composed or not)."""
_NAMING_CODES = frozenset({"name-mismatch", "name-not-kebab"})
_DESCRIPTION_CODES = frozenset({"missing-description"})
_PLACEHOLDER_KEY = "lint-placeholder-00000000"  # any valid key: only the budget split matters


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def _seen_as(name: str) -> str:
    """``name`` as a person reads it: NFC, case-folded, without the characters shown as
    nothing (every Default_Ignorable_Code_Point, :mod:`memory_core.ignorable`: U+200B, U+00AD,
    U+FEFF, U+2060, U+3164, the reserved U+2065 …): ``deploy.md`` and ``deploy<U+200B>.md``
    are one name to the eye."""
    return without_ignorable(_nfc(name).casefold())


def _finding(code: str, file: str, line: int | None, message: str) -> Finding:
    """One finding; its ``message`` shows each run of hidden characters it quotes (a dangling
    ``[[name]]``, a file name) as its mark (I-9): never turned around or hiding a command."""
    shown = show_hidden(message)
    return Finding(code=code, severity=SEVERITIES[code], file=file, line=line, message=shown)


@dataclass(frozen=True, slots=True)
class _TopicRule:
    """One per-file rule: its code, when it applies, and what it says."""

    code: str
    applies: Callable[[ParsedTopic], bool]
    message: Callable[[ParsedTopic], str]


def _stem(topic: ParsedTopic) -> str:
    return _stem_of(topic.file)


def _name_mismatch(topic: ParsedTopic) -> bool:
    return link_key(topic.name) != link_key(_stem(topic))


def _name_not_kebab(topic: ParsedTopic) -> bool:
    """The name is not kebab-case, and naming it after its file would not make it so: a name
    that differs from a kebab-case stem is ``name-mismatch``'s alone (one fix, one finding)."""
    if _KEBAB_RE.fullmatch(topic.name) is not None:
        return False
    return not (_name_mismatch(topic) and _KEBAB_RE.fullmatch(_stem(topic)) is not None)


_TOPIC_RULES = (
    _TopicRule(
        "empty-name",
        lambda topic: EMPTY_NAME in topic.problems,
        lambda topic: f"the name is empty; the file name {_stem(topic)!r} stands in",
    ),
    _TopicRule(
        "name-mismatch",
        _name_mismatch,
        lambda topic: (
            f"name {topic.name!r} differs from the file name {_stem(topic)!r}; "
            "the file name is the identity"
        ),
    ),
    _TopicRule(
        "name-not-kebab",
        _name_not_kebab,
        lambda topic: (
            f"name {topic.name!r} is not kebab-case (lower-case letters of any script, digits, "
            "single hyphens)"
        ),
    ),
    _TopicRule(
        "missing-description",
        lambda topic: not topic.description,
        lambda _: "no description in the frontmatter; recall relies on it",
    ),
    _TopicRule(
        "windows-name",
        lambda topic: windows_device(topic.file) is not None,
        lambda topic: _windows_name(topic),
    ),
    _TopicRule(
        "description-multiline",
        lambda topic: "\n" in (topic.description or ""),
        lambda _: "the description spans several lines; keep it to one",
    ),
)


_WINDOWS_DEVICES = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {f"{port}{digit}" for port in ("COM", "LPT") for digit in "123456789\u00b9\u00b2\u00b3"}
)
"""The names Windows keeps for its devices (as Git for Windows refuses them in a path)."""


def windows_device(file: str) -> str | None:
    """The Windows device a file name names (``"AUX"`` for ``aux.md``, ``"CON"`` for
    ``Con.notes.md`` or ``con .md``: its part before the first dot, trailing blanks dropped,
    in any case), or None: Windows opens the device for such a name, and Git for Windows
    refuses to check it out, so a Windows machine's copy of a scope cannot hold it (R-1).

    >>> windows_device("aux.md"), windows_device("console.md")
    ('AUX', None)
    """
    device = file.split(".", 1)[0].rstrip(" ").upper()
    return device if device in _WINDOWS_DEVICES else None


def _windows_name(topic: ParsedTopic) -> str:
    device = windows_device(topic.file) or ""
    return (
        f"{topic.file!r} is the name of a Windows device ({device}): a Windows machine's copy "
        "of this scope cannot hold it (Git for Windows refuses to check it out, so that "
        f"machine's sync of the scope stops, R-1); rename it (say {device.lower()}-notes.md) "
        "and its index line"
    )


def lint_topic(topic: ParsedTopic) -> list[Finding]:
    """Findings about one topic file on its own: name, description, secrets (T-1, T-5).

    Naming findings are per file here; :func:`lint_scope` folds them into one
    ``naming-convention`` finding when the scope follows another convention consistently.
    """
    file = topic.file
    not_decoded = [problem for problem in topic.problems if problem.startswith(NOT_DECODED)]
    if not_decoded:  # none of its text is read: that is the one thing to fix (T-2, Q-2b)
        why = not_decoded[0].removeprefix(NOT_DECODED)
        return [
            _finding(
                "unreadable",
                file,
                None,
                f"{file} is there but the service does not decode it: {why}; until then it "
                "is listed by its file name only, and its description and body are not read",
            ),
            *_hidden_name(file),
        ]
    findings = [
        _finding(rule.code, file, None, rule.message(topic))
        for rule in _TOPIC_RULES
        if rule.applies(topic)
    ]
    findings.extend(_not_utf8(file, topic.problems))
    for field, value in (("name", topic.name), ("description", topic.description or "")):
        for kind, _ in find_secrets(value):
            findings.append(_secret(file, None, kind, f"the frontmatter {field}"))
    for kind, line in find_secrets(topic.body):
        findings.append(_secret(file, topic.body_line + line - 1, kind, "the body"))
    findings.extend(_hidden(file, line, where, what) for line, where, what in topic.hidden)
    findings.extend(_hidden_name(file))
    for link in look_alike_links(topic.description or ""):
        findings.append(_look_alike(file, None, "the frontmatter description", link))
    for link in look_alike_links(topic.body):
        findings.append(_look_alike(file, topic.body_line + link.line - 1, "the body", link))
    return findings


def _look_alike(file: str, line: int | None, where: str, link: LookAlikeLink) -> Finding:
    """A ``look-alike-link`` finding (I-9, T-5b): the host as written and why it reads as
    another."""
    message = (
        f"{where} links to {link.host!r}, which {link.why}: a person reads one site and the "
        "link leads to another; write the address the note means"
    )
    return _finding("look-alike-link", file, line, message)


_FILE_NAME = "the file name"


def _hidden(file: str, line: int | None, where: str, what: str) -> Finding:
    """A ``hidden-text`` finding (I-9): where, what kind and how many, never the text. A file
    name holding them shows on the page (and in the index lines linking it) as another name."""
    if where == _FILE_NAME:
        shown = "it shows as another name on the page and wherever it is linked"
    elif file == INDEX_FILE:
        shown = "it is injected escaped, as [hidden: …]"
    else:
        shown = "an agent that opens the file reads it"
    message = (
        f"{where} holds {what}: text a model reads but a person cannot see ({shown}); "
        "remove it from the file"
    )
    return _finding("hidden-text", file, line, message)


def _hidden_name(file: str) -> list[Finding]:
    """The ``hidden-text`` finding of a file name holding characters nobody sees (I-9). A file
    name is no text: a U+FEFF starting it is such a character, never a byte order mark."""
    return [
        _hidden(file, None, _FILE_NAME, what) for _, what in find_hidden(file, text_start=False)
    ]


def _secret(file: str, line: int | None, kind: str, where: str) -> Finding:
    message = f"likely credential ({kind}) in {where}; remove it and rotate it"
    return _finding("secret", file, line, message)


# Other agents' file-name conventions, in the order a name fitting several is called by. A
# one-word lower-case stem fits kebab-case too, and so counts as Memory's own.
_FILE_CONVENTIONS = (
    # Claude Code's auto memory: the memory's type, then a slug that may hold a date
    (
        "type_slug",
        regex.compile(
            r"(?:user|feedback|project|reference)"
            r"_[\p{Ll}\p{Lo}\p{Lm}\p{Nd}][\p{Ll}\p{Lo}\p{Lm}\p{Nd}\p{M}._-]*"
        ),
    ),
    ("snake_case", regex.compile(rf"{_LOWER_WORD}(?:_{_LOWER_WORD}(?:-{_LOWER_WORD})*)*")),
    ("camelCase", regex.compile(r"\p{Ll}[\p{Ll}\p{Nd}\p{M}]*" + rf"(?:{_CAPITALISED})*")),
    ("PascalCase", regex.compile(rf"(?:{_CAPITALISED})+")),
    ("SCREAMING_SNAKE_CASE", regex.compile(rf"{_SCREAMING_WORD}(?:_{_SCREAMING_WORD})*")),
    ("words-with-spaces", regex.compile(r"[^\s_]+(?: [^\s_]+)*")),
)
_CONVENTION_NAMES = {"type_slug": "Claude Code's type_slug file names"}


def _file_convention(stems: Sequence[str]) -> tuple[str, int] | None:
    """The convention the stems follow and how many stems are written in kebab-case that no
    other convention fits (``deploy-steps``, not ``deploy``): ``("kebab-case", 0)`` (Memory's
    own), another, or None for a mixed scope.

    Another convention holds when every stem fits it or kebab-case, and it has at least as
    many stems only it fits as kebab-case has (``feedback_always-preview`` beside
    ``debugging`` and ``api-conventions``).
    """
    kebab = [bool(_KEBAB_RE.fullmatch(stem)) for stem in stems]
    if all(kebab):
        return "kebab-case", 0
    for label, pattern in _FILE_CONVENTIONS:
        fits = [bool(pattern.fullmatch(stem)) for stem in stems]
        if not all(fit or is_kebab for fit, is_kebab in zip(fits, kebab, strict=True)):
            continue
        only_this = sum(fit and not is_kebab for fit, is_kebab in zip(fits, kebab, strict=True))
        only_kebab = sum(is_kebab and not fit for fit, is_kebab in zip(fits, kebab, strict=True))
        if only_this >= only_kebab:
            return label, only_kebab
    return None


def naming_convention(topics: Sequence[ParsedTopic]) -> Finding | None:
    """One ``info`` finding when the topics follow another naming convention (T-5a).

    The file names follow one convention — kebab-case, Claude Code's ``type_slug``
    (``feedback_always-preview.md``, ``project_b_2026-03-30.md``), snake_case, camelCase,
    PascalCase, SCREAMING_SNAKE_CASE or words with spaces — where kebab-case names may stand
    among at least as many of another's; and the ``name`` fields agree with it: in a
    kebab-case scope either every ``name`` is the file's stem or none is (title-style names);
    another agent's convention may mix the two (``name: feedback_prefers_uv`` beside ``name:
    Deploy notes``). A scope in Memory's own convention (kebab-case, ``name`` = stem) gets
    None, and so does a mixed scope, whose files keep their own naming findings.
    """
    if len(topics) < 2:
        return None
    found = _file_convention([_stem(topic) for topic in topics])
    titled = sum(topic.name != _stem(topic) for topic in topics)
    if found is None:
        return None
    convention, in_kebab = found
    if convention == "kebab-case" and 0 < titled < len(topics):
        return None
    traits = []
    if convention != "kebab-case":
        traits.append(_CONVENTION_NAMES.get(convention, f"{convention} file names"))
    if titled == len(topics):
        traits.append("title-style names")
    elif titled:
        traits.append(f"title-style names in {titled} of them")
    if not traits:
        return None  # Memory's own convention
    count = len(topics)
    where = (
        f"in {count - in_kebab} of its {count} files (the others in Memory's own kebab-case)"
        if in_kebab
        else f"in all {count} files"
    )
    return _finding(
        "naming-convention",
        "",
        None,
        f"this scope follows another naming convention ({', '.join(traits)}) {where}; Memory "
        "reads it as it is. Rename the files to kebab-case with a matching name only if you "
        "want Memory's own convention.",
    )


def _without_frontmatter(topic: ParsedTopic) -> bool:
    return NO_FRONTMATTER in topic.problems or EMPTY_FILE in topic.problems


def frontmatter_convention(topics: Sequence[ParsedTopic]) -> Finding | None:
    """One ``info`` finding when no topic has frontmatter (T-5a): plain Markdown notes (daily
    notes, another tool's folder) are that tool's convention, so the scope gets this finding
    instead of ``missing-description`` on every file. None with fewer than two topics or when
    any has frontmatter (the others then keep their own findings)."""
    if len(topics) < 2 or not all(_without_frontmatter(topic) for topic in topics):
        return None
    return _finding(
        "no-frontmatter",
        "",
        None,
        f"none of the {len(topics)} files has frontmatter (plain Markdown notes, as some tools "
        "keep them); Memory lists them by file name, without a description to recall them by. "
        "Add name and description frontmatter only if you want recall by description.",
    )


def _in_wrong_case(name: str) -> bool:
    """Whether ``name`` is the index's name in another case (``Memory.md``, T-5b)."""
    return name.casefold() == INDEX_FILE.casefold() and name != INDEX_FILE


_WRONG_CASE_STANDS_FOR = frozenset({"missing-description", "unindexed"}) | _NAMING_CODES
"""The codes ``index-wrong-case`` stands for on its file: an index named ``Memory.md`` has no
frontmatter or kebab-case name to give, and is unlinked because it is meant to be the index."""


def _conventions(topics: Sequence[ParsedTopic]) -> tuple[list[Finding], frozenset[str]]:
    """The scope's convention findings and the per-file codes they stand for (T-5a); an index
    in the wrong case is no topic of a convention."""
    topics = [topic for topic in topics if not _in_wrong_case(topic.file)]
    findings: list[Finding] = []
    folded: frozenset[str] = frozenset()
    for find, codes in (
        (naming_convention, _NAMING_CODES),
        (frontmatter_convention, _DESCRIPTION_CODES),
    ):
        found = find(topics)
        if found is not None:
            findings.append(found)
            folded |= codes
    return findings, folded


def convention_findings(topics: Sequence[ParsedTopic]) -> list[Finding]:
    """The scope's convention findings (``naming-convention``, ``no-frontmatter``, T-5a) as
    :func:`lint_topics` gives them for every topic of the scope: what a page of a scope's
    listing carries beside its own files' findings (A-5)."""
    return _conventions(topics)[0]


def lint_topics(
    topics: Sequence[ParsedTopic],
    topic_files: Collection[str],
    own: Callable[[ParsedTopic], Sequence[Finding]] = lint_topic,
    in_sub_folders: Collection[str] = (),
    not_looked_up: Collection[str] = (),
) -> list[Finding]:
    """The topic half of :func:`lint_scope` (T-5, T-5a, T-5b): the scope's convention findings,
    dangling ``[[links]]``, then each file's own findings by file name, less those a convention
    stands for. ``own`` gives a topic's own findings (:func:`lint_topic`; a caller may memoise
    it); ``in_sub_folders`` and ``not_looked_up`` as for :func:`lint_links`."""
    findings, folded = _conventions(topics)
    findings.extend(lint_links(topics, topic_files, in_sub_folders, not_looked_up))
    for topic in sorted(topics, key=lambda topic: topic.file):
        leave_out = folded | _WRONG_CASE_STANDS_FOR if _in_wrong_case(topic.file) else folded
        findings.extend(finding for finding in own(topic) if finding.code not in leave_out)
    return findings


def lint_links(
    topics: Sequence[ParsedTopic],
    topic_files: Collection[str],
    in_sub_folders: Collection[str] = (),
    not_looked_up: Collection[str] = (),
) -> list[Finding]:
    """``dangling-wiki-link``: a ``[[name]]`` in a body that names no file of the scope (T-5b):
    no topic file, nor one of ``in_sub_folders`` (the files of the scope's sub-folders known to
    be there, as relative paths: ``[[Notes/Deploy]]`` is ``notes/deploy.md`` when it is one,
    ``[[feb]]`` is ``archive/2026/feb.md``). A link whose path
    (:func:`~memory_core.wiki_links.wiki_path`) is one of ``not_looked_up`` was sought in the
    sub-folders by a walk that stopped at its bound, or through a folder the service may not
    read: its finding says so, never that no file is named so; where, when ``not_looked_up``
    maps each path to it (``{"notes/guide.md": "the service cannot read the folder 'notes'
    (its owner, mode or ACL)"}``, said as the finding ends), else in general (Q-2b).

    A link names the file :class:`~memory_core.wiki_links.WikiFiles` resolves it to, as the
    index's wiki links are read: by its file name as Obsidian finds it (``[[./deploy]]``,
    ``[[DEPLOY]]`` → ``deploy.md``), then by its words, ``-``, ``_`` and spaces alike
    (``[[project-drift]]`` → ``project_drift.md``), a Claude Code type prefix on either side
    optional (``[[always-preview]]`` → ``feedback_always-preview.md``), then by a topic's
    frontmatter ``name``. The line is the first that holds it.
    """
    if not topics:
        return []
    names = _Names.of(topic_files)
    titles = [(topic.name, topic.file) for topic in topics]
    files = WikiFiles([*names.present, *in_sub_folders], titles)
    unsought = _nfc_keys(not_looked_up)
    return [
        _dangling_wiki_link(topic, target, names, unsought)
        for topic in sorted(topics, key=lambda topic: topic.file)
        for target in topic.links
        if files.resolve(target) is None
    ]


def _dangling_wiki_link(
    topic: ParsedTopic, target: str, names: _Names, unsought: Collection[str]
) -> Finding:
    """The ``dangling-wiki-link`` finding of ``topic``'s ``[[target]]`` (:func:`lint_links`):
    where a sub-folder walk stopped at its bound before ``target``'s path (``unsought``: the
    NFC paths not looked up) it says so, never that no file is named so (T-5b)."""
    if wiki_path(_nfc(target)) in unsought:
        message = f"[[{target}]] was not found: " + _unsought_why(wiki_path(_nfc(target)), unsought)
    else:
        message = f"[[{target}]] names no topic file of this scope" + _drawn_like(
            _as_file(target), names
        )
    return _finding("dangling-wiki-link", topic.file, _line_of(topic, f"[[{target}"), message)


_UNSOUGHT_FOLDERS = (
    f"this scope's sub-folders were not looked up past {SUB_FOLDER_WALK_CAP:,} entries (or "
    f"{SUB_FOLDER_WALK_DEPTH} folders deep), or through a folder the service cannot read "
    "(its owner, mode or ACL)"
)
"""How a finding about a link a sub-folder walk stopped at its bound before finding ends, or
whose look-up a folder the service may not read refused, when the caller did not say which:
it says where it could not look, never that no file is named so (T-5b, Q-2b)."""


def _unsought_why(path: str, not_looked_up: Collection[str]) -> str:
    """How the finding about a link to ``path`` (NFC), one of ``not_looked_up``, ends: where
    the service did not look, as ``not_looked_up`` says when it maps each path to it (the
    walk's bound it stopped at, the folder it could not read), else :data:`_UNSOUGHT_FOLDERS`.
    """
    said = not_looked_up.get(path) if isinstance(not_looked_up, Mapping) else None
    return str(said) if said else _UNSOUGHT_FOLDERS


def _nfc_keys(not_looked_up: Collection[str]) -> Collection[str]:
    """``not_looked_up`` with its paths in NFC, each still mapped to where the service did not
    look when it maps them (:func:`_unsought_why`)."""
    if isinstance(not_looked_up, Mapping):
        return {_nfc(path): str(why) for path, why in not_looked_up.items()}
    return frozenset(_nfc(path) for path in not_looked_up)


def _as_file(target: str) -> str:
    """A ``[[link]]``'s target as a file name: ``.md`` added unless written."""
    return target if target.lower().endswith(".md") else f"{target}.md"


def _line_of(topic: ParsedTopic, needle: str) -> int | None:
    for number, line in enumerate(topic.body.split("\n")):
        if needle in line:
            return topic.body_line + number
    return None


def lint_index(
    index_text: str,
    topic_files: Collection[str],
    *,
    companion_index: str | None = None,
    partial: IndexRead | None = None,
    facts: IndexFacts | None = None,
    in_sub_folders: Collection[str] | None = None,
    not_looked_up: Collection[str] = (),
) -> list[Finding]:
    """Findings about a scope's ``MEMORY.md`` (T-4, T-5, I-4, I-8, I-9).

    ``topic_files`` are the topic file names present in the scope. ``not-injected`` applies the
    injection caps as they would run for this index; pass the other scope's index as
    ``companion_index`` to account for the shared character budget, else the index is capped
    as if injected alone. ``partial`` says the text is only the first part of a larger file.
    ``facts`` is :func:`~memory_core.index_facts.index_facts` of ``index_text`` when the caller
    keeps it (found here otherwise). ``in_sub_folders`` holds the index's links into
    sub-folders of the scope (``archive/2026-02.md``, as in ``facts.links``) that are there;
    the others are dangling. None: they were not looked at, and are not judged.
    ``not_looked_up`` as for :func:`lint_scope`.
    """
    facts = facts if facts is not None else index_facts(index_text)
    linked = _links(facts, partial, topic_files, in_sub_folders)
    return _index_findings(
        index_text,
        facts,
        linked,
        topic_files,
        companion_index,
        partial,
        in_sub_folders,
        not_looked_up=not_looked_up,
    )


def _links(
    facts: IndexFacts,
    partial: IndexRead | None,
    topic_files: Collection[str],
    in_sub_folders: Collection[str] | None = None,
) -> dict[str, list[int]]:
    """The index's links (those past a read cap too) and the lines linking each, a wiki link
    resolved to the file it names among the topic files and the files of sub-folders known
    (:func:`_wiki_resolved`)."""
    linked = facts.links
    if partial is not None:
        linked = {target: list(lines) for target, lines in facts.links.items()}
        for target, lines in partial.links.items():
            linked.setdefault(target, []).extend(lines)
    if not facts.wiki:
        return linked
    return _wiki_resolved(linked, facts.wiki, _wiki_files((*topic_files, *(in_sub_folders or ()))))


def _wiki_resolved(
    linked: Mapping[str, list[int]],
    wiki: Mapping[str, tuple[int, ...]],
    files: WikiFiles,
) -> dict[str, list[int]]:
    """``linked`` with each line whose wiki link names no file as written (``[[Deploy
    Freeze]]``: no ``Deploy Freeze.md``) put on the one file it names, as Obsidian resolves
    it (:class:`~memory_core.wiki_links.WikiFiles`: ``deploy-freeze.md``; ``[[Notes/Deploy]]``
    is ``notes/deploy.md``). A Markdown link is a path, taken as written (T-5b)."""
    resolved = dict(linked)
    for target, wiki_lines in wiki.items():
        if target in files.present or target not in resolved:
            continue
        name = files.resolve(target)
        if name is None:
            continue
        left = [line for line in resolved[target] if line not in wiki_lines]
        if left:
            resolved[target] = left  # a Markdown link to the same name stays as written
        else:
            del resolved[target]
        resolved[name] = sorted({*resolved.get(name, ()), *wiki_lines})
    return resolved


def _index_findings(
    index_text: str,
    facts: IndexFacts,
    linked: dict[str, list[int]],
    topic_files: Collection[str],
    companion_index: str | None,
    partial: IndexRead | None = None,
    in_sub_folders: Collection[str] | None = None,
    refused: Mapping[str, str] | None = None,
    not_looked_up: Collection[str] = (),
) -> list[Finding]:
    """:func:`lint_index` with the index's facts and links (those past a read cap too) found;
    ``refused``: entries of the scope never read, by name, and why; ``not_looked_up`` as for
    :func:`lint_scope`."""
    findings: list[Finding] = []
    for number, length in facts.long_lines:
        message = f"{length} characters; keep index lines under {INDEX_LINE_LIMIT}"
        findings.append(_finding("index-line-too-long", INDEX_FILE, number, message))
    findings.extend(_joined(index_text))
    findings.extend(_dangling(linked, topic_files, in_sub_folders, refused or {}, not_looked_up))
    if partial is not None:
        findings.append(_over_cap(partial, facts.lines))
    else:
        findings.extend(_not_injected(facts.prepared, companion_index))
    findings.extend(
        _secret(INDEX_FILE, line, kind, "the index (masked when injected)")
        for kind, line in facts.secrets
    )
    findings.extend(
        _hidden(INDEX_FILE, line, "this index line", what) for line, what in find_hidden(index_text)
    )
    findings.extend(
        _look_alike(INDEX_FILE, link.line, "this index line", link)
        for link in look_alike_links(index_text)
    )
    return sorted(findings, key=lambda finding: finding.line or 0)


def _joined(index_text: str) -> list[Finding]:
    """``joined-index-line``: each line of the index (:func:`~memory_core.markdown.line_texts`)
    holding text joined by a soft break (:mod:`memory_core.joined_lines`), which other tools
    show as several lines and Memory reads, injects and caps as one, named by its code point
    and Unicode name, with the fix."""
    if not has_soft_break(index_text):
        return []
    findings: list[Finding] = []
    for number, line in enumerate(line_texts(index_text), start=1):
        if not (breaks := joined_breaks(line)):
            continue
        named = " and ".join(break_name(char) for char in breaks)
        codes = " and ".join(f"U+{ord(char):04X}" for char in breaks)
        message = (
            f"{filled_parts(line)} parts of this line are joined by {named}, which editors and "
            "models may show as a line break, but Memory reads one line (a line ends at LF, "
            "CRLF or CR only): they are injected and capped as one line; put each entry on its "
            f"own line (replace each {codes} with a line break, or with a space inside one "
            "entry's text)"
        )
        findings.append(_finding("joined-index-line", INDEX_FILE, number, message))
    return findings


def _dangling(
    linked: dict[str, list[int]],
    topic_files: Collection[str],
    in_sub_folders: Collection[str] | None,
    refused: Mapping[str, str],
    not_looked_up: Collection[str] = (),
) -> list[Finding]:
    """``dangling-link``: each line linking a Markdown file of the scope's folder that is not
    there (a topic file, or one in a sub-folder when those were looked at). A link to an entry
    that is there but never read (``refused``: a FIFO, a folder, a symlink out of the root, a
    name no route can address, keyed by its :func:`~memory_core.shown_names.shown_name`) says
    so, never that nothing is there. A link that names a topic file in another case
    (``Deploy.md``, ``deploy.MD`` for ``deploy.md``) says which: only a disk that ignores case
    opens it. A wiki link of ``not_looked_up`` (its note sought in the sub-folders by the end
    of a path or by its name alone, the walk stopped at its bound) is said to be not looked
    up that far, never absent."""
    names = _Names.of(topic_files)
    present = names.present
    deeper = {_nfc(path) for path in in_sub_folders or ()}
    never_read = {_nfc(name): why for name, why in refused.items()}
    not_looked_up = _nfc_keys(not_looked_up)
    findings: list[Finding] = []
    for target, lines in sorted(linked.items()):
        twin = _case_twin(target, names)
        if not _names_markdown(target) or target == INDEX_FILE:
            continue
        refused_as = target if target in never_read else shown_name(target)
        if "/" not in target and refused_as in never_read:
            message = f"links to {target!r}, which is {never_read[refused_as]}: never read"
        elif twin is not None:
            message = (
                f"links to {target!r}, but the file is {twin!r}: only a disk that ignores case "
                "(macOS, Windows) opens it; write the name as the file has it"
            )
        elif target in not_looked_up:
            why = _unsought_why(target, not_looked_up)
            message = f"links to {target!r}, which was not found: {why}"
        elif "/" not in target and target not in present:
            message = f"links to {target!r}, which is not in this scope" + _drawn_like(
                target, names
            )
        elif "/" in target and in_sub_folders is not None and target not in deeper:
            message = f"links to {target!r}, which is not in this scope's folder"
        else:
            continue
        findings.extend(_finding("dangling-link", INDEX_FILE, n, message) for n in lines)
    return findings


def _names_markdown(target: str) -> bool:
    """Whether an index link's ``target`` names a Markdown file the lint judges: one ending in
    ``.md``, or, in the scope's own folder, in ``.md`` of any case (``gone.MD`` opens nothing
    on any disk when no file folds to it, T-5)."""
    return target.endswith(".md") or ("/" not in target and target.lower().endswith(".md"))


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
        if _in_wrong_case(name)
    ]


def _not_utf8(file: str, problems: Iterable[str]) -> list[Finding]:
    """``invalid-encoding``: bytes of ``file`` read though not valid in its encoding, by line and
    offset, with the fix (:func:`~memory_core.encoding_findings.not_utf8_notes`)."""
    return [
        _finding("invalid-encoding", file, line, message)
        for line, message in not_utf8_notes(file, problems)
    ]


def _refused(refused: Sequence[tuple[str, str]]) -> list[Finding]:
    return [
        _finding("refused-entry", name, None, f"{name} is {why}; not read")
        for name, why in sorted(refused)
    ]


def _unreadable(unreadable: Sequence[tuple[str, str]]) -> list[Finding]:
    """An ``unreadable`` finding per ``(name, why)`` (Q-2b): the entry is there but cannot be
    read; for a name in a scope folder that cannot be read (:func:`~memory_core.caps.
    folder_unreadable`), whether it is there cannot be told, which the finding says instead."""
    return [
        _finding("unreadable", name, None, unreadable_message(name, why))
        for name, why in sorted(unreadable)
    ]


def lint_scope(
    index_text: str | None,
    topics: Sequence[ParsedTopic],
    topic_files: Collection[str],
    *,
    companion_index: str | None = None,
    refused: Sequence[tuple[str, str]] = (),
    unreadable: Sequence[tuple[str, str]] = (),
    partial: IndexRead | None = None,
    facts: IndexFacts | None = None,
    in_sub_folders: Collection[str] | None = None,
    not_looked_up: Collection[str] = (),
    index_problems: Sequence[str] = (),
    names_judged: bool = True,
) -> list[Finding]:
    """Lint one scope (T-5, T-5a, T-5b, I-9): its index (None when missing), topics and names.

    ``topic_files`` lists every topic file in the scope (also those not parsed, or unreadable);
    ``refused`` the ``(entry name, why)`` of entries that are never read (a symlink out of the
    memory root …); ``unreadable`` the ``(file name, why)`` of files that are there but cannot
    be read (``MEMORY.md`` among them: then ``index_text`` is None and no ``missing-index`` is
    claimed; ``""`` for the scope folder itself, Q-2b: then no link is judged); ``partial``
    describes an index larger than the read cap; ``facts`` is
    :func:`~memory_core.index_facts.index_facts` of ``index_text`` when the caller keeps it
    (a service extends it as the index grows); ``in_sub_folders`` the index's links into
    sub-folders that are there (see :func:`lint_index`), ``not_looked_up`` its wiki links (and the
    topics' body links) the service's bounded walk of the sub-folders stopped before finding
    (a ``dangling-link`` or ``dangling-wiki-link`` that says so, never "absent");
    ``index_problems`` the ``encoding``
    problems of the index's decoding (:func:`~memory_core.decoding.decode_text`), named as
    ``invalid-encoding`` when bytes were read though not valid (T-2). Returns the scope-level
    findings first (index by line), then :func:`lint_topics`. Nothing is changed.
    ``names_judged`` false leaves out what the names alone say of each topic file
    (``unindexed``, ``look-alike-names``, ``index-wrong-case``: a listing's pages take them
    file by file from :func:`lint_names_in_scope`).
    """
    findings = [
        *_unreadable(unreadable),
        *_refused(refused),
        *_scope_findings(
            index_text, topic_files, [*refused, *unreadable], partial, names_judged=names_judged
        ),
    ]
    if index_text is not None:
        facts = facts if facts is not None else index_facts(index_text)
        linked = _links(facts, partial, topic_files, in_sub_folders)
        findings.extend(
            _index_findings(
                index_text,
                facts,
                linked,
                topic_files,
                companion_index,
                partial,
                in_sub_folders,
                dict(refused),
                not_looked_up,
            )
        )
        findings.extend(_not_utf8(INDEX_FILE, index_problems))
        if names_judged and (partial is None or partial.exact):
            # past the scanned part of an over-large index any file may be linked: no claim
            findings.extend(_unindexed(topic_files, linked))
    findings.extend(
        lint_topics(
            topics, topic_files, in_sub_folders=in_sub_folders or (), not_looked_up=not_looked_up
        )
    )
    if any(not name for name, _ in unreadable):
        # the folder could not be listed: which files are there is unknown, so no link is judged
        return [f for f in findings if f.code not in _CLAIMS_ON_FILES]
    return findings


_CLAIMS_ON_FILES = frozenset({"dangling-link", "unindexed"})


def lint_names_in_scope(
    topic_files: Collection[str],
    only: Collection[str],
    index_text: str | None,
    *,
    unreadable: Sequence[tuple[str, str]] = (),
    partial: IndexRead | None = None,
    facts: IndexFacts | None = None,
    in_sub_folders: Collection[str] | None = None,
) -> list[Finding]:
    """What :func:`lint_scope` says about the topic files ``only`` (some of ``topic_files``,
    every topic file of the scope) from the names and the index alone (T-5, T-5b, Q-2b):
    ``unreadable`` (those of ``unreadable`` among them), ``index-wrong-case``,
    ``look-alike-names`` and ``unindexed``; one pass over the names, no topic read. The
    arguments are :func:`lint_scope`'s; the topics' own findings are
    :func:`lint_topics_in_scope`'s, the scope's own :func:`lint_scope`'s."""
    wanted = set(only)
    findings = [
        *_unreadable([(name, why) for name, why in unreadable if name in wanted]),
        *_wrong_case_indexes(sorted(wanted)),
        *_look_alike_names(topic_files, only=wanted),
    ]
    if index_text is not None and (partial is None or partial.exact):
        facts = facts if facts is not None else index_facts(index_text)
        linked = _links(facts, partial, topic_files, in_sub_folders)
        findings.extend(_unindexed(topic_files, linked, only=wanted))
    return findings


def lint_topic_in_scope(
    topic: ParsedTopic,
    topic_files: Collection[str],
    index_text: str | None,
    *,
    scope_topics: Callable[[], Iterable[ParsedTopic]],
    parsed_files: Callable[[], Iterable[str]] | None = None,
    own: Sequence[Finding] | None = None,
    partial: IndexRead | None = None,
    facts: IndexFacts | None = None,
    in_sub_folders: Collection[str] = (),
    not_looked_up: Collection[str] = (),
) -> list[Finding]:
    """The findings :func:`lint_scope` gives about ``topic.file``, in its order, at the cost of
    this one file (T-5, T-5a, T-5b); ``in_sub_folders`` and ``not_looked_up`` (its body's
    links) as for :func:`lint_links`.

    ``topic_files`` lists every topic file of the scope (this one included), ``index_text``,
    ``partial`` and ``facts`` are the scope's index as :func:`lint_scope` takes them; ``own`` is
    :func:`lint_topic` of ``topic`` when the caller keeps it. ``scope_topics`` gives every
    parsed topic of the scope, drawn only as far as the others decide a finding about this
    file, ``parsed_files`` their names (see :func:`lint_topics_in_scope`).
    """
    file = topic.file
    findings = [*_wrong_case_indexes([file]), *_look_alike_names(topic_files, only={file})]
    if index_text is not None and (partial is None or partial.exact):
        facts = facts if facts is not None else index_facts(index_text)
        linked = _links(facts, partial, topic_files, in_sub_folders)  # the listing's table
        findings.extend(_unindexed(topic_files, linked, only=[file]))
    mine = list(own) if own is not None else lint_topic(topic)
    findings.extend(
        lint_topics_in_scope(
            [topic],
            topic_files,
            scope_topics=scope_topics,
            parsed_files=parsed_files,
            own=lambda _: mine,
            in_sub_folders=in_sub_folders,
            not_looked_up=not_looked_up,
        )
    )
    return findings


def lint_topics_in_scope(
    topics: Sequence[ParsedTopic],
    topic_files: Collection[str],
    *,
    scope_topics: Callable[[], Iterable[ParsedTopic]],
    parsed_files: Callable[[], Iterable[str]] | None = None,
    titles: Callable[[], Collection[str] | None] = lambda: None,
    own: Callable[[ParsedTopic], Sequence[Finding]] = lint_topic,
    in_sub_folders: Collection[str] = (),
    not_looked_up: Collection[str] = (),
) -> list[Finding]:
    """What :func:`lint_topics` of the whole scope says about each of ``topics`` (some of the
    scope's files; ``topic_files`` names every one): its dangling ``[[links]]`` and its own
    findings less those a convention stands for, by file name (T-5, T-5a, T-5b). It costs these
    files and one pass over the names: what the names and the index alone decide
    (``look-alike-names``, ``unindexed``…) is :func:`lint_scope`'s with no topics.

    ``scope_topics`` gives every parsed topic of the scope (``topics`` best first), drawn
    lazily (:class:`~memory_core.lazy_topics.LazyTopics`) only when the others decide a finding
    about one of ``topics``, and only up to the first that decides it: a naming finding folds
    into ``naming-convention`` when the parsed files follow one convention (when every name is
    kebab-case, drawn up to the first topic whose ``name`` is its file's stem: Memory's own),
    a ``missing-description`` of a file without frontmatter into ``no-frontmatter`` (drawn up
    to the first with frontmatter), and a ``[[link]]`` that names no file's stem may name a
    topic's ``name`` (up to the first so named; none with the ``titles`` the caller kept, or
    for a link with a folder). Where no topic settles a convention, every one is drawn: as in
    :func:`lint_topics` it holds over the files parsed (a file ``scope_topics`` leaves out,
    unreadable, Q-2b, is no topic of it). ``parsed_files`` names those files unparsed (a
    service opens each): names not all kebab-case decide the naming convention alone
    (:func:`_names_fold`). ``own``, ``in_sub_folders``, ``not_looked_up``: :func:`lint_topics`.
    """
    names = _Names.of(topic_files)
    deeper = frozenset(_nfc(path) for path in in_sub_folders)
    unsought = _nfc_keys(not_looked_up)
    scope = LazyTopics(scope_topics, titles)

    @cache
    def by_stem() -> WikiFiles:  # the scope's kept table, unless sub-folder notes join it
        return WikiFiles([*names.present, *deeper]) if deeper else _wiki_files(tuple(topic_files))

    def no_file(target: str) -> bool:  # no file of the scope is named by ``target``
        path = wiki_path(_nfc(target))
        named = path in names.present or path in deeper
        return not named and by_stem().resolve(target) is None

    def in_convention(topic: ParsedTopic) -> bool:
        return not _in_wrong_case(topic.file)

    def parsed() -> list[ParsedTopic]:  # the topics _conventions() judges: every one read
        return [topic for topic in scope.every() if in_convention(topic)]

    @cache
    def naming_folds() -> bool:  # naming_convention() gives a finding (T-5a)
        if _all_kebab(topic_files):  # one named by its stem: Memory's own, no finding
            return not scope.any(_named_by_stem) and naming_convention(parsed()) is not None
        listed = parsed_files() if parsed_files else (topic.file for topic in scope.every())
        return _names_fold(listed, parsed)

    @cache
    def description_folds() -> bool:  # frontmatter_convention() gives a finding (T-5a)
        if scope.any(lambda topic: in_convention(topic) and not _without_frontmatter(topic)):
            return False
        return frontmatter_convention(parsed()) is not None

    findings: list[Finding] = []
    for topic in sorted(topics, key=lambda topic: topic.file):
        mine = own(topic)
        codes = {finding.code for finding in mine}
        folded = _WRONG_CASE_STANDS_FOR if _in_wrong_case(topic.file) else frozenset()
        if codes & _NAMING_CODES and naming_folds():
            folded |= _NAMING_CODES
        if codes & _DESCRIPTION_CODES and _without_frontmatter(topic) and description_folds():
            folded |= _DESCRIPTION_CODES
        findings.extend(
            _dangling_wiki_link(topic, target, names, unsought)
            for target in topic.links
            if no_file(target) and not scope.titled(title_keys(target))
        )
        findings.extend(f for f in mine if f.code not in folded)
    return findings


def _names_fold(parsed_files: Iterable[str], parsed: Callable[[], list[ParsedTopic]]) -> bool:
    """Whether :func:`naming_convention` of the topics ``parsed()`` gives (those of a convention)
    gives a finding, from ``parsed_files``, their file names (T-5a): another convention than
    kebab-case is the names' alone, so no topic is parsed for it; only where the names that
    parse are all kebab-case (those that are not could not be read) do the ``name`` fields
    decide."""
    stems = [_stem_of(name) for name in parsed_files if not _in_wrong_case(name)]
    found = _file_convention(stems) if len(stems) > 1 else None
    if found is None or found[0] != "kebab-case":
        return found is not None
    return naming_convention(parsed()) is not None


def _all_kebab(topic_files: Iterable[str]) -> bool:
    """Whether every topic file's stem is kebab-case (an index in the wrong case left out):
    then so is every parsed file's, whichever could be read (T-5a)."""
    return all(
        _KEBAB_RE.fullmatch(name.removesuffix(".md"))
        for name in topic_files
        if not _in_wrong_case(name)
    )


def _stem_of(file: str) -> str:
    return file.removesuffix(".md")


def _named_by_stem(topic: ParsedTopic) -> bool:
    """Whether ``topic``'s ``name`` is its file's stem, as in Memory's own convention (T-5a;
    an index in the wrong case is no topic of a convention)."""
    return not _in_wrong_case(topic.file) and topic.name == _stem(topic)


def _scope_findings(
    index_text: str | None,
    topic_files: Collection[str],
    refused: Sequence[tuple[str, str]],
    partial: IndexRead | None,
    *,
    names_judged: bool = True,
) -> list[Finding]:
    """``missing-index`` (unless the index was refused), ``index-wrong-case`` and
    ``look-alike-names`` (those two only when ``names_judged``)."""
    findings = (
        [*_wrong_case_indexes(topic_files), *_look_alike_names(topic_files)] if names_judged else []
    )
    index_refused = any(name == INDEX_FILE for name, _ in refused)
    if index_text is None and topic_files and not index_refused:
        message = "topic files exist but MEMORY.md is missing; none of them is injected"
        findings.insert(0, _finding("missing-index", INDEX_FILE, None, message))
    return findings


SCOPE_NAMES_KEPT = 1
"""Scopes whose name tables (:class:`_Names`, :func:`_skeleton_groups`, :func:`_wiki_files`)
are kept: the one a user pages through (every step of a page and the next page ask for the
same names). A 30,000-name scope's three tables take about 50 MB, so more would break the
service's memory budget (docs/performance.md); a table is rebuilt in about 0.2 s there."""


def _look_alike_names(
    topic_files: Collection[str], only: Collection[str] | None = None
) -> list[Finding]:
    """A ``look-alike-names`` finding per topic file (``only`` those) whose name looks like
    another's: the same name NFC and case-folded, without characters shown as nothing
    (:func:`_seen_as`: ``Notes.md`` and ``notes.md``, ``café.md`` written composed and
    decomposed, ``deploy.md`` and ``deploy<U+200B>.md``), or the same Unicode skeleton (UTS #39,
    :func:`~memory_core.confusables.skeleton`: ``prefers-pnpm.md`` and ``prefers-pnрm.md`` with
    a Cyrillic ``р``, a Greek ``ο`` for a Latin ``o``, full-width letters). A person cannot tell
    them apart on the page, and a disk that ignores case or normalization (macOS, Windows: a
    machine this scope is synced to, R-1) holds only one of the first kind.

    Two names of ASCII characters only that differ in more than case (``modern.md`` and
    ``rnodern.md``, ``v1.md`` and ``vl.md``) are not named: their skeletons meet, but ordinary
    names share such letters, and a listing in a fixed-width font tells them apart."""
    findings = []
    for names in _skeleton_groups(tuple(name for name in topic_files if not _in_wrong_case(name))):
        for name in sorted(names) if len(names) > 1 else ():
            if only is not None and name not in only:
                continue
            same = [other for other in sorted(names) if _seen_alike(name, other)]
            alike = [other for other in sorted(names) if _drawn_alike(name, other)]
            if same or alike:
                message = _look_alike_message(name, same, alike)
                findings.append(_finding("look-alike-names", name, None, message))
    return findings


@lru_cache(maxsize=SCOPE_NAMES_KEPT)
def _skeleton_groups(names: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """``names`` in groups of names drawn alike, each name in one group, in their order: two
    names meet when their UTS #39 skeletons are equal case-folded (``Notes.md``, ``notes.md``
    and ``nоtes.md`` with a Cyrillic ``о``) or as written (``Ideas.md`` with a capital I and
    ``ǀdeas.md`` with U+01C0, which folding parts), both without characters shown as nothing.
    Linear in the names (a union of the names that share a key)."""
    listed = list(names)
    parent = list(range(len(listed)))

    def root(at: int) -> int:
        while parent[at] != at:
            parent[at] = parent[parent[at]]
            at = parent[at]
        return at

    first: dict[tuple[str, str], int] = {}
    for at, name in enumerate(listed):
        for key in _look_keys(name):
            met = first.setdefault(key, at)
            parent[root(at)] = root(met)
    groups: dict[int, list[str]] = {}
    for at, name in enumerate(listed):
        groups.setdefault(root(at), []).append(name)
    return tuple(tuple(group) for group in groups.values())


@lru_cache(maxsize=NAMES_KEPT)
def _look_keys(name: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """The two keys :func:`_skeleton_groups` meets names by; kept per name, as a scope's names
    are linted again and again (each page of its listing reads them all): for more names than
    the largest scope holds, since a cache read in order that is smaller keeps none."""
    return ("folded", skeleton(_seen_as(name))), ("written", skeleton(_nfc(name)))


def _seen_alike(name: str, other: str) -> bool:
    """Whether ``other`` is another file whose name reads as ``name`` once NFC, case-folded and
    without characters shown as nothing."""
    return other != name and _seen_as(other) == _seen_as(name)


def _drawn_alike(name: str, other: str) -> bool:
    """Whether ``other``, a name of ``name``'s skeleton, reads differently yet is drawn alike:
    a character of another script or form in one of them (two ASCII names never)."""
    differs = other != name and _seen_as(other) != _seen_as(name)
    return differs and not (name.isascii() and other.isascii())


def _look_alike_message(name: str, same: Sequence[str], alike: Sequence[str]) -> str:
    """What a ``look-alike-names`` finding about ``name`` says: the names that read as it
    (``same``) and those drawn alike from other characters (``alike``), with the characters
    that differ, each by its code point and Unicode name (its script: ``CYRILLIC SMALL LETTER
    ER``) and the character it looks like."""
    parts = []
    if same:
        others = ", ".join(repr(other) for other in same)
        parts.append(
            f"{name!r} and {others} are different files whose names differ only in case, "
            "in how an accent is encoded or in characters shown as nothing (U+200B, "
            "U+FEFF…): they look the same, and a disk that ignores case or encoding (macOS, "
            "Windows: a machine this scope is synced to) keeps one of them"
        )
    if alike:
        others = ", ".join(repr(other) for other in alike)
        told = "; ".join(
            told for told in (_odd_letters(one, alike, name) for one in (name, *alike)) if told
        )
        parts.append(f"{name!r} and {others} are different files whose names look the same: {told}")
    return "; ".join(parts) + "; rename one"


def _odd_letters(one: str, alike: Sequence[str], name: str) -> str:
    """The characters of ``one`` (``name`` or one of ``alike``) that the names it is compared
    with do not hold, each by its code point and Unicode name, and what it looks like when
    that is another character: ``'prefers-pnрm.md' has U+0440 CYRILLIC SMALL LETTER ER 'р',
    which looks like 'p'``; ``""`` when it holds none."""
    others = [other for other in (name, *alike) if other != one]
    held = set().union(*(set(_seen_as(other)) for other in others))
    odd = [
        char
        for char in dict.fromkeys(_nfc(one))
        if not is_ignorable(char) and char.casefold() not in held
    ]
    return f"{one!r} has {', '.join(map(_letter, odd))}" if odd else ""


def _letter(char: str) -> str:
    """One character as a finding names it: ``U+0440 CYRILLIC SMALL LETTER ER 'р', which
    looks like 'p'`` (its script is the first word of its Unicode name); a letter drawn as
    nothing (U+3164 HANGUL FILLER) says so."""
    said = f"U+{ord(char):04X} {unicodedata.name(char, 'UNNAMED CHARACTER')} {char!r}"
    looks = unicodedata.normalize("NFC", skeleton(char))
    if not looks:
        return f"{said}, drawn as nothing"
    return f"{said}, which looks like {looks!r}" if looks != char else said


@dataclass(frozen=True, slots=True)
class _Names:
    """A scope's topic file names as a lint looks a link's target up in them, built once per
    lint so each look-up is a dict read (linear in links + files, never their product):
    ``present`` the NFC names, ``by_fold`` each case-folded name to its first name in sorted
    order, ``by_look`` each UTS #39 skeleton key (:func:`_look_keys`) to its names, sorted."""

    present: frozenset[str]
    by_fold: Mapping[str, str]
    by_look: Mapping[tuple[str, str], list[str]]

    @classmethod
    def of(cls, topic_files: Iterable[str]) -> _Names:
        """The table of ``topic_files`` (any names; NFC here), reading them once; the same
        names in the same order (a scope's, linted by several steps of one request, and by
        the next page's) give the table already made (:data:`SCOPE_NAMES_KEPT` are kept)."""
        return _names_table(tuple(topic_files))


@lru_cache(maxsize=SCOPE_NAMES_KEPT)
def _names_table(topic_files: tuple[str, ...]) -> _Names:
    """:meth:`_Names.of` made: one pass over the names."""
    present = frozenset(_nfc(name) for name in topic_files)
    by_fold: dict[str, str] = {}
    by_look: dict[tuple[str, str], list[str]] = {}
    for name in sorted(present):
        by_fold.setdefault(name.casefold(), name)
        by_look.setdefault(_look_keys(name)[0], []).append(name)
    return _Names(present, by_fold, by_look)


@lru_cache(maxsize=SCOPE_NAMES_KEPT)
def _wiki_files(files: tuple[str, ...]) -> WikiFiles:
    """The :class:`~memory_core.wiki_links.WikiFiles` of ``files``, a scope's: its index's
    wiki links and its topics' ``[[links]]`` are resolved by two steps of a listing page and
    again by the next page, and the table of 30,000 names takes about 0.2 s to build; the same
    names give the table made."""
    return WikiFiles(files)


def _drawn_like(target: str, names: _Names) -> str:
    """What a dangling link's ``target`` is drawn like, when a topic file of ``names`` looks
    the same (one UTS #39 skeleton: ``dеploy.md`` with a Cyrillic ``е`` and ``deploy.md``):
    ``; it is drawn like 'deploy.md': 'dеploy.md' has U+0435 …``; else ``""``. A person
    reading the index sees a link to a file that is there."""
    alike = names.by_look.get(_look_keys(target)[0])
    if not alike:
        return ""
    odd = _odd_letters(target, alike[:1], target)
    return f"; it is drawn like {alike[0]!r}" + (f": {odd}" if odd else "")


def _case_twin(target: str, names: _Names) -> str | None:
    """The topic file (of ``names``) that ``target``, a link into the scope's folder naming no
    file, names in another case (``Deploy.md``, ``deploy.MD``), if one does."""
    if "/" in target or target in names.present or not target.lower().endswith(".md"):
        return None
    return names.by_fold.get(target.casefold())


def _unindexed(
    topic_files: Collection[str],
    linked: dict[str, list[int]],
    only: Collection[str] | None = None,
) -> list[Finding]:
    """``unindexed``: each topic file (``only`` those of them) no index line links (one linked
    in another case is linked: its ``dangling-link`` says how to fix the link; a link is in
    another case only when no topic file has its very name)."""
    message = "no MEMORY.md line links to this file, so it is never recalled"
    names = _Names.of(topic_files)
    in_other_case = {target.casefold() for target in linked if _case_twin(target, names)}
    judged = topic_files if only is None else [n for n in only if _nfc(n) in names.present]
    return [
        _finding("unindexed", name, None, message)
        for name in sorted(judged)
        if _nfc(name) not in linked
        and _nfc(name).casefold() not in in_other_case
        and not _in_wrong_case(name)
    ]
