"""T-4: memory text is cut into lines by one rule, ``memory_core.markdown`` (LF, CRLF, CR).

``str.splitlines`` also ends a line at U+2028, U+2029, ``\\f``, ``\\v``, NEL and U+001C–U+001E:
an index line holding one was one line to the pruner and several to a ``splitlines`` reader
(a refused restore split its lines, the plugin cut pieces inside a line). So no module may
call ``.splitlines(`` but those listed here, each on text that is not memory (git's output, a
program's settings, an error message) or on bytes (``bytes.splitlines`` ends lines at LF,
CRLF and CR only: the rule itself).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    ROOT / "shared" / "src" / "memory_core",
    ROOT / "services" / "memory-api" / "src" / "memory_api",
    ROOT / "plugins" / "harness-memory" / "src" / "harness_memory",
]
# module (relative to its source root) → what it splits, which is no memory text
NOT_MEMORY_TEXT = {
    "memory_core/decoding.py": "an index's bytes (bytes.splitlines: LF, CRLF, CR only)",
    "memory_api/http/jsonio.py": "a JSON decoder's error message",
    "memory_api/serve_banner.py": "an OS error message",
    "memory_api/settings.py": "an environment variable's value",
    "memory_api/store/history/clocks.py": "git's output",
    "memory_api/store/history/git.py": "git's error message",
    "memory_api/store/history/maintenance.py": "git's output",
    "memory_api/store/history/reading.py": "git's output and error message",
    "memory_api/store/history/repo.py": "git's refs and output",
    "memory_api/store/sync/backend.py": "git's output",
    "harness_memory/installers/executable.py": "a program's output and script head",
    "harness_memory/installers/files.py": "a diff of an installed settings file",
    "harness_memory/remote.py": "git's packed-refs",
}
_CALL = re.compile(r"\.splitlines\(")


def test_t4_no_module_splits_memory_text_with_str_splitlines() -> None:
    found = {
        f"{source.name}/{path.relative_to(source).as_posix()}"
        for source in SOURCES
        for path in source.rglob("*.py")
        if _CALL.search(path.read_text(encoding="utf-8"))
    }
    assert found - NOT_MEMORY_TEXT.keys() == set(), "use memory_core.markdown.line_texts"
    assert NOT_MEMORY_TEXT.keys() - found == set(), "a module listed here no longer splits"
