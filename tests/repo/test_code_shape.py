"""Small functions: no function or method of the product, its tools or its tests is over 80 lines.

Python is measured with :mod:`ast` (decorators excluded, the docstring included). The page's ES
modules are measured from a function or method header to its closing brace, counting braces
outside strings, comments and regular-expression-free code (the page keeps regexes in a few
constants, which this rough scan tolerates).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]
MAX_LINES = 80
PYTHON_TREES = (
    "shared/src",
    "services/memory-api/src",
    "plugins/harness-memory/src",
    "plugins/harness-memory/bench",
    "bench",
    "tools",
    "tests",
)
JS_TREE = REPO / "services/memory-api/src/memory_api/static/js"
JS_HEADER = re.compile(
    r"^(?:export\s+)?(?:async\s+)?function\s+(\w+)\s*\(|^\s{2}(?:static\s+)?(?:async\s+)?(\w+)\s*\([^;]*\)\s*\{\s*$"
)
JS_KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "function"}


def _python_files() -> list[Path]:
    found: list[Path] = []
    for tree in PYTHON_TREES:
        root = REPO / tree
        if root.exists():
            found += [p for p in root.rglob("*.py") if "data" not in p.relative_to(REPO).parts]
    return found


def _long_python_functions(path: Path) -> list[str]:
    long: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_LINES:
                long.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name} ({length} lines)")
    return long


def _long_python_functions_in_a_fresh_interpreter() -> list[str]:
    """Every Python function over the limit, measured by this file run as a script. Not in the
    test's own process: CPython 3.11 keeps the ast module's recursion count in process-wide state,
    so a parse racing a thread an earlier test left behind fails with ``SystemError: AST
    constructor recursion depth mismatch`` (python/cpython#106905)."""
    result = subprocess.run(
        [sys.executable, __file__], capture_output=True, text=True, check=True, cwd=REPO
    )
    return [line for line in result.stdout.splitlines() if line]


def _code_only(line: str) -> str:
    """The line without string literals and a trailing // comment (enough to count braces)."""
    line = re.sub(r"\\.", "", line)
    line = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "", line)
    return line.split("//", 1)[0]


def _long_js_functions(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    long: list[str] = []
    for start, line in enumerate(lines):
        match = JS_HEADER.match(line)
        if match is None or (match.group(2) or "") in JS_KEYWORDS:
            continue
        depth = 0
        for end in range(start, len(lines)):
            code = _code_only(lines[end])
            depth += code.count("{") - code.count("}")
            if depth <= 0 and "{" in "".join(_code_only(x) for x in lines[start : end + 1]):
                length = end - start + 1
                if length > MAX_LINES:
                    name = match.group(1) or match.group(2)
                    long.append(f"{path.relative_to(REPO)}:{start + 1} {name} ({length} lines)")
                break
    return long


@pytest.mark.parametrize("language", ["python", "javascript"])
def test_no_function_is_over_80_lines(language: str) -> None:
    if language == "python":
        long = _long_python_functions_in_a_fresh_interpreter()
    else:
        long = [
            entry for path in sorted(JS_TREE.rglob("*.js")) for entry in _long_js_functions(path)
        ]
    assert not long, "split these functions:\n" + "\n".join(long)


def test_the_js_scan_sees_the_page_s_functions() -> None:
    """The rough scan must find functions at all, or the JS half of the rule checks nothing."""
    seen = 0
    for path in JS_TREE.rglob("*.js"):
        seen += sum(
            1 for line in path.read_text(encoding="utf-8").splitlines() if JS_HEADER.match(line)
        )
    assert seen > 50


if __name__ == "__main__":
    print("\n".join(entry for path in _python_files() for entry in _long_python_functions(path)))
