"""The page's own scripts use the vendored libraries (markdown-it, DOMPurify…) through their
public API only: a private member (``__rules__``, ``__cache__``) may change shape or go in any
release, and an update would then break the page with no error until a body renders."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).parents[2]
JS_TREE = REPO / "services/memory-api/src/memory_api/static/js"
PRIVATE_MEMBER = re.compile(r"\.__\w+__\b")


def test_the_page_s_scripts_touch_no_private_member_of_a_library() -> None:
    scripts = sorted(JS_TREE.rglob("*.js"))
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in scripts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if PRIVATE_MEMBER.search(line)
    ]
    assert scripts, f"no page scripts found under {JS_TREE}"
    assert not found, "use the library's public API instead:\n" + "\n".join(found)
