"""docs/requirements.md defines every requirement id the repository cites, so it stands alone."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).parents[2]
REQUIREMENTS = REPO / "docs" / "requirements.md"
ID = re.compile(r"(?<![\w-])([KTIAPHSWQ]-\d+[a-z]?)(?![\w-])")
DEFINED = re.compile(r"^- \*\*([KTIAPHSWQ]-\d+[a-z]?)\*\* \S", re.MULTILINE)
CITING = ("shared/src", "services/memory-api/src", "plugins/harness-memory/src", "tests", "docs")
SKIP_DIRS = {"data", "node_modules", "vendor", "__pycache__"}


def _cited() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    for top in CITING:
        for path in (REPO / top).rglob("*"):
            if path.suffix not in {".py", ".md", ".js", ".html", ".css"} or not path.is_file():
                continue
            if SKIP_DIRS & set(path.relative_to(REPO).parts):
                continue
            for match in ID.finditer(path.read_text(encoding="utf-8", errors="replace")):
                cited.setdefault(match.group(1), set()).add(str(path.relative_to(REPO)))
    for name in ("README.md", "plugins/harness-memory/README.md"):
        for match in ID.finditer((REPO / name).read_text(encoding="utf-8")):
            cited.setdefault(match.group(1), set()).add(name)
    return cited


def test_every_cited_requirement_id_is_defined_in_docs_requirements() -> None:
    defined = set(DEFINED.findall(REQUIREMENTS.read_text(encoding="utf-8")))
    missing = {rid: sorted(files)[:3] for rid, files in _cited().items() if rid not in defined}
    assert not missing, f"ids cited but not defined in docs/requirements.md: {missing}"


def test_each_requirement_id_is_defined_once() -> None:
    ids = DEFINED.findall(REQUIREMENTS.read_text(encoding="utf-8"))
    assert len(ids) == len(set(ids)), sorted(rid for rid in ids if ids.count(rid) > 1)
    assert {"K-1", "T-6", "I-8", "A-12", "P-5", "H-5", "S-1", "W-6", "Q-4"} <= set(ids)
