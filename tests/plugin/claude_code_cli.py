"""Install the real Claude Code CLI from npm into a git-ignored cache inside the repository.

``<repo>/.cache/claude-code/`` receives ``@anthropic-ai/claude-code`` at :data:`VERSION`, the
version these tests were verified with. Its npm package brings the native binary as a
platform package (``@anthropic-ai/claude-code-linux-x64`` …) from the registry itself, so the
install needs no download beyond npm (:mod:`tests.support.npm_cache`). Without npm the tests skip
loudly, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.npm_cache import CACHE as NPM_CACHE
from tests.support.npm_cache import ensure_npm_package, unavailable, version_of

VERSION = "2.1.332"
PACKAGE = "@anthropic-ai/claude-code"
FOLDER = "claude-code"
CACHE = NPM_CACHE / FOLDER


def _candidates(prefix: Path) -> list[Path]:
    """The npm shim first, then the platform package's binary (if install scripts were blocked)."""
    modules = prefix / "node_modules"
    found = [modules / ".bin" / "claude"]
    found += sorted((modules / "@anthropic-ai").glob("claude-code-*/claude"))
    return found


def _installed(prefix: Path) -> Path | None:
    for binary in _candidates(prefix):
        if binary.exists() and version_of(binary) == VERSION:
            return binary
    return None


def claude_code_binary() -> Path:
    """Return a working ``claude`` of :data:`VERSION`, installing it first if needed."""
    prefix = ensure_npm_package(
        PACKAGE,
        VERSION,
        FOLDER,
        lambda where: _installed(where) is not None,
        label="CLAUDE CODE E2E",
    )
    binary = _installed(prefix)
    if binary is None:
        unavailable("CLAUDE CODE E2E", f"no working claude {VERSION} under {prefix}")
    return binary
