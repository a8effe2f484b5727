"""W-6: the page names every lint code in words (``findings.js``), so a new code, such as
``unreadable`` (Q-2b), never reaches a user as its bare identifier."""

from __future__ import annotations

import re
from pathlib import Path

from memory_core.lint import LINT_CODES

FINDINGS_JS = (
    Path(__file__).parents[2]
    / "services"
    / "memory-api"
    / "src"
    / "memory_api"
    / "static"
    / "js"
    / "findings.js"
)


def test_w6_every_lint_code_has_words_on_the_page() -> None:
    text = FINDINGS_JS.read_text(encoding="utf-8")
    table = text[text.index("const CODE_NAMES = {") : text.index("};", text.index("CODE_NAMES"))]
    named = set(re.findall(r'^\s+"?([a-z-]+)"?: \[', table, re.MULTILINE))
    assert named == set(LINT_CODES)
