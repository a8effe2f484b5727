"""T-5b: the UTS #39 skeleton that tells names drawn alike, and the Unicode data it reads."""

from __future__ import annotations

import hashlib
from importlib import resources

import pytest
from memory_core.confusables import CONFUSABLES_VERSION, prototype, skeleton

DATA = resources.files("memory_core").joinpath("unicode_data")

CHECKED_SHA256 = "6ed3ee967c9dfdf6677d563c9985182fbc50a2efb7d6059cd57b2e2ce18f5b92"
"""The sha256 of ``confusables.txt`` as compared byte for byte with Unicode's copy in
unicode-org/unicodetools (``unicodetools/data/security/dev/confusables.txt`` at commit
``b7ffa393bde060e55d366946e0a239be107fe8a4``; the README names where and when)."""


def test_t5b_the_kept_confusables_file_is_the_one_its_readme_names() -> None:
    """``confusables.txt`` is Unicode's release of ``CONFUSABLES_VERSION``, unmodified (its
    sha256 is the README's), kept beside its licence."""
    data = DATA.joinpath("confusables.txt").read_bytes()
    readme = DATA.joinpath("README.md").read_text(encoding="utf-8")
    assert f"# Version: {CONFUSABLES_VERSION}\n" in data.decode("utf-8-sig")
    assert f"| {CONFUSABLES_VERSION} " in readme
    assert f"`{hashlib.sha256(data).hexdigest()}`" in readme
    assert "SPDX-License-Identifier: Unicode-3.0" in DATA.joinpath("LICENSE").read_text("utf-8")


def test_t5b_the_kept_confusables_file_is_the_copy_checked_against_unicodes() -> None:
    """The kept file is the one compared with Unicode's upstream copy: its sha256 is the one
    checked, and the README says where it was checked (repository, path and commit), so a
    replaced or edited file fails here until it is compared again."""
    data = DATA.joinpath("confusables.txt").read_bytes()
    readme = DATA.joinpath("README.md").read_text(encoding="utf-8")
    assert hashlib.sha256(data).hexdigest() == CHECKED_SHA256
    assert data.startswith(b"# confusables.txt\n# Date: 2026-08-06, 01:05:35 GMT\n")
    assert f"`{CHECKED_SHA256}`" in readme
    for source in (
        "unicode-org/unicodetools",
        "unicodetools/data/security/dev/confusables.txt",
        "b7ffa393bde060e55d366946e0a239be107fe8a4",
    ):
        assert source in readme


@pytest.mark.parametrize(
    ("char", "drawn_as"),
    [
        ("\u0440", "p"),  # CYRILLIC SMALL LETTER ER
        ("\u03bf", "o"),  # GREEK SMALL LETTER OMICRON
        ("\uff50", "p"),  # FULLWIDTH LATIN SMALL LETTER P
        ("m", "rn"),  # a prototype of more than one character
        ("1", "l"),
        ("p", "p"),  # a character Unicode lists no prototype for is its own
    ],
)
def test_t5b_a_character_is_drawn_as_its_prototype(char: str, drawn_as: str) -> None:
    assert prototype(char) == drawn_as


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("prefers-pnpm.md", "prefers-pn\u0440m.md"),
        ("notes", "n\u03bftes"),
        ("plan", "\uff50\uff4c\uff41\uff4e"),
        ("deploy", "de\u200bploy\ufe0f"),  # drawn as nothing: dropped
        ("deploy", "de\u3164ploy\u180b\U000e0101"),  # ignorable letters and selectors too
        ("caf\u00e9", "cafe\u0301"),  # NFD first: composed and decomposed are one
    ],
)
def test_t5b_names_drawn_alike_have_one_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("\u0437\u0430\u043c\u0435\u0442\u043a\u0438", "\u0437\u0430\u0434\u0430\u0447\u0438"),
        ("\u30e1\u30e2", "\u30ce\u30fc\u30c8"),
        ("cafe", "caf\u00e9"),
    ],
)
def test_t5b_different_words_have_different_skeletons(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


def test_t5b_every_data_line_of_the_file_is_one_prototype() -> None:
    """Each ``SOURCE ; TARGET ; MA`` line of ``confusables.txt`` (read here the plain way,
    line by line) is the prototype of its source, and nothing else is."""
    text = DATA.joinpath("confusables.txt").read_text(encoding="utf-8-sig")
    expected: dict[str, str] = {}
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip()
        if data:
            source, target, _kind = (field.strip() for field in data.split(";"))
            expected[chr(int(source, 16))] = "".join(chr(int(p, 16)) for p in target.split())
    assert len(expected) > 6000
    assert {source: prototype(source) for source in expected} == expected
    assert {char for char in map(chr, range(0x3000)) if prototype(char) != char} <= set(expected)
