"""P-3: a word longer than a file name may be is no file with other names; a path too long is.

A quoted sentence in a command (``git commit -m "…"`` of 325 characters, a JSON body) is read
as a possible path; the kernel refuses to look it up (``ENAMETOOLONG``), and the guard took
that read error for a file with other names (hard links) and refused the everyday command.
A name longer than its filesystem allows names no file under any spelling: it passes. A path
longer than the kernel looks up (each name short) may still be reached by a ``cd`` and a
shorter spelling: it stays refused (a read error never widens access).
"""

from __future__ import annotations

import os
from pathlib import Path

from harness_memory.guard import has_other_names


def test_p3_a_name_longer_than_a_filesystem_allows_has_no_other_names(tmp_path: Path) -> None:
    sentence = " ".join(["a sentence quoted in a commit message"] * 8)
    assert len(sentence.encode()) > 255
    assert not has_other_names(str(tmp_path / sentence), str(tmp_path))


def test_p3_a_path_longer_than_the_kernel_looks_up_still_counts(tmp_path: Path) -> None:
    too_long = str(tmp_path) + "/ab" * (os.pathconf("/", "PC_PATH_MAX") // 3 + 1)
    assert has_other_names(too_long, str(tmp_path))
