"""docs/security.md proves each defence with a test: every test it names exists.

A row cites ``tests/<layer>/<file>.py::<test>``; a following ``::<test>`` in the same cell is
another test of that file; ``tests/<layer>/<file>.py`` alone (then "(all)") names a whole file.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "security.md"
CITATION = re.compile(r"`(tests/[\w/]+\.py)?(?:::(\w+))?`")


def _citations() -> list[tuple[str, str | None]]:
    found: list[tuple[str, str | None]] = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        current: str | None = None
        for match in CITATION.finditer(line):
            path, test = match.groups()
            if path is None and test is None:
                continue
            current = path or current
            assert current is not None, f"a bare ::{test} with no file before it: {line}"
            found.append((current, test))
    return found


def test_security_doc_cites_only_tests_that_exist() -> None:
    citations = _citations()
    assert len(citations) >= 40
    missing = []
    for path, test in citations:
        source = REPO / path
        if not source.is_file():
            missing.append(path)
        elif test is not None and not re.search(
            rf"^(?:async )?def {test}\(", source.read_text(encoding="utf-8"), re.MULTILINE
        ):
            missing.append(f"{path}::{test}")
    assert missing == []
