"""Frontmatter field lines a person reads as ``key: value`` though YAML reads no field (T-1a).

An editor or an input method may put something else than ``": "`` after a key: a no-break
space (macOS Option-Space, text copied from a web page), an ideographic or a thin space, or a
full-width colon (a Chinese or Japanese input method: ``description：部署前先备份``). Every editor
shows the line as the field; YAML reads a plain scalar instead, so the field would be lost and
lint would call it missing while its line is there. Such a separator on a top-level line is read
as ``": "``, and the file's problems say so, naming the character and the fix.

>>> block, problems = plain_separators("description\\uff1a部署\\nupdated_at:\\u00a02026-11-20")
>>> block
'description: 部署\\nupdated_at: 2026-11-20'
>>> print(problems[0])  # doctest: +NORMALIZE_WHITESPACE
frontmatter: description read as 'description: …'; after the key stands U+FF1A FULLWIDTH
COLON, where YAML needs ': ' (it would read no description): write ': '
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["plain_separators"]

_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
"""The Unicode spaces (category Zs) but the ASCII space: shown as a space, no space to YAML."""

_FULL_WIDTH_COLON = "\uff1a"

# A top-level ``key`` (quoted or not), then a full-width colon and at most one space of any
# kind, or a colon and one Unicode space YAML does not take for one.
_LINE_RE = re.compile(
    rf"(?P<key>([\"']?)[A-Za-z_][\w-]*\2)[ \t]*"
    rf"(?P<separator>{_FULL_WIDTH_COLON}[ \t{_SPACES}]?|:[{_SPACES}])",
    re.MULTILINE,
)


def _named(separator: str) -> str:
    char = separator[0] if separator[0] == _FULL_WIDTH_COLON else separator[1]
    return f"U+{ord(char):04X} {unicodedata.name(char)}"


def plain_separators(block: str) -> tuple[str, list[str]]:
    """``(block, problems)``: ``block`` (a frontmatter block, LF line ends) with each top-level
    field's separator that only looks like ``": "`` written as ``": "``, and one problem per
    such line (``"frontmatter: description read as 'description: …'; …"``). Indented lines
    (a nested mapping, a block scalar) are YAML's and stay as they are. Never raises."""
    problems: list[str] = []

    def plain(match: re.Match[str]) -> str:
        key = match.group("key").strip("\"'")
        problems.append(
            f"frontmatter: {key} read as '{key}: …'; after the key stands "
            f"{_named(match.group('separator'))}, where YAML needs ': ' "
            f"(it would read no {key}): write ': '"
        )
        return f"{match.group('key')}: "

    return _LINE_RE.sub(plain, block), problems
