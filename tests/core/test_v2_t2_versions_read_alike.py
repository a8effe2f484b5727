"""V-2, T-2: two versions of a note shown side by side are read by one judgement of their
encoding, so a line whose bytes did not change reads the same on both sides."""

from __future__ import annotations

import pytest
from memory_core.decoding import shown_text
from memory_core.shown_versions import shown_pair

SHORT = "---\nname: Café\ndescription: latin1\n---\nbody éÿ\n"
"""A short Windows-1252 note, read as Windows-1252 alone."""
UNDECIDED = "# çà là\n"
"""Too little Windows-1252 text to tell from Windows-1251 alone (its letters shown as U+FFFD)."""
MORE = "more þ, née, déjà vu\n"


@pytest.mark.parametrize(
    "short",
    [UNDECIDED, SHORT, "---\nname: çà\n---\nçà\n"],
    ids=["undecided-alone", "short", "cp1251-lookalike"],
)
def test_v2_a_short_legacy_note_and_its_longer_version_read_alike_line_by_line(
    short: str,
) -> None:
    old = short.encode("cp1252")
    new = (short + MORE).encode("cp1252")

    shown_old, shown_new = shown_pair(old, new)

    assert shown_old == short
    assert shown_new == short + MORE


def test_v2_the_undecided_sample_is_undecided_alone() -> None:
    assert "\ufffd" in shown_text(UNDECIDED.encode("cp1252"))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (None, SHORT.encode("cp1252")),  # added
        (SHORT.encode("cp1252"), None),  # deleted
        ("naïve\n".encode(), "naïve\nété\n".encode()),  # UTF-8: each read as it is
        (SHORT.encode("cp1252"), SHORT.encode()),  # converted to UTF-8: a real change
        ("\ufeffa\n".encode("utf-16"), "b\n".encode("cp1252")),  # UTF-16 with its mark
    ],
    ids=["added", "deleted", "utf-8", "converted", "utf-16"],
)
def test_v2_a_version_that_is_unicode_text_or_absent_is_read_as_it_alone_reads(
    old: bytes | None, new: bytes | None
) -> None:
    assert shown_pair(old, new) == (
        None if old is None else shown_text(old),
        None if new is None else shown_text(new),
    )


def test_v2_a_version_holding_the_joint_is_judged_alone() -> None:
    old = b"zq7v0j4x9w2k8m3p Caf\xe9\n"
    new = b"\nzq7v0j4x9w2k8m3p\n" + b"Caf\xe9\n"
    assert shown_pair(old, new) == (shown_text(old), shown_text(new))
