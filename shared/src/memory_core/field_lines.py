"""Frontmatter field lines a person reads as ``key: value`` though YAML reads no such field
(T-1a).

An editor or an input method may put something else than ``": "`` after a key: a no-break
space (macOS Option-Space, text copied from a web page), an ideographic or a thin space, or a
full-width colon (a Chinese or Japanese input method: ``description：部署前先备份``); and a
person may write a field's key in another case (``Description:``) or leave out the space
(``description:text``). Every editor shows the line as the field; YAML reads a plain scalar or
another key instead, so the field would be lost and lint would call it missing while its line
is there. Such a top-level line is read as the field
written plainly, and the file's problems say so, naming what was there and the fix.

>>> block, problems = fields_as_read("Description\\uff1a部署\\nupdated_at:\\u00a02026-11-20")
>>> block
'description: 部署\\nupdated_at: 2026-11-20'
>>> len(problems)
3
>>> problems[2]
"frontmatter: Description read as description; field names are lower case: write 'description:'"
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["FIELDS", "fields_as_read"]

FIELDS = ("name", "description", "updated_at")
"""The frontmatter fields Memory reads (T-1), each also when written in another case."""

_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
"""The Unicode spaces (category Zs) but the ASCII space: shown as a space, no space to YAML."""

_FULL_WIDTH_COLON = "\uff1a"

# A top-level ``key`` (quoted or not), then a full-width colon and at most one space of any
# kind, or a colon and one Unicode space YAML does not take for one.
_SEPARATOR_RE = re.compile(
    rf"^(?P<key>([\"']?)[A-Za-z_][\w-]*\2)[ \t]*"
    rf"(?P<separator>{_FULL_WIDTH_COLON}[ \t{_SPACES}]?|:[{_SPACES}])",
    re.MULTILINE,
)
# A top-level field of :data:`FIELDS` (any case, quoted or not) whose colon has text right after
# it: ``description:text`` is one plain scalar to YAML.
_NO_SPACE_RE = re.compile(
    r"^(?P<key>([\"']?)(?i:name|description|updated_at)\2)[ \t]*(?P<separator>:)(?=[^\s:])",
    re.MULTILINE,
)
# A top-level key (quoted or not) and its colon.
_KEY_RE = re.compile(r"^(?P<quote>[\"']?)(?P<key>[A-Za-z_][\w-]*)(?P=quote)[ \t]*:", re.MULTILINE)


def _named(separator: str) -> str:
    if separator == ":":
        return "':' with no space after it"
    char = separator[0] if separator[0] == _FULL_WIDTH_COLON else separator[1]
    return f"U+{ord(char):04X} {unicodedata.name(char)}"


def _plain_separators(block: str, problems: list[str]) -> str:
    def plain(match: re.Match[str]) -> str:
        key = match.group("key").strip("\"'")
        problems.append(
            f"frontmatter: {key} read as '{key}: …'; after the key stands "
            f"{_named(match.group('separator'))}, where YAML needs ': ' "
            f"(it would read no {key}): write ': '"
        )
        return f"{match.group('key')}: "

    return _NO_SPACE_RE.sub(plain, _SEPARATOR_RE.sub(plain, block))


def _lower_case_keys(block: str, problems: list[str]) -> str:
    written = {match.group("key") for match in _KEY_RE.finditer(block)}

    def lower(match: re.Match[str]) -> str:
        key = match.group("key")
        field = key.lower()
        if field not in FIELDS or key == field or field in written:
            return match.group(0)
        problems.append(
            f"frontmatter: {key} read as {field}; field names are lower case: write '{field}:'"
        )
        return match.group(0).replace(key, field, 1)

    return _KEY_RE.sub(lower, block)


def fields_as_read(block: str) -> tuple[str, list[str]]:
    """``(block, problems)``: ``block`` (a frontmatter block, LF line ends) with each top-level
    field line written as a person reads it: a separator that only looks like ``": "`` (or a
    field's ``":"`` with text right after it) written ``": "``, and a key of :data:`FIELDS` in
    another case (``Description``) in lower case unless the lower-case key is there too (YAML's
    field then). One problem per line changed
    (``"frontmatter: description read as 'description: …'; …"``). Indented lines (a nested
    mapping, a block scalar) are YAML's and stay as they are. Never raises."""
    problems: list[str] = []
    block = _plain_separators(block, problems)
    return _lower_case_keys(block, problems), problems
