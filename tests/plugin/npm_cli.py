"""Install a coding agent's CLI from npm into a git-ignored cache inside the repository.

``<repo>/.cache/<folder>/`` receives the npm package at a pinned version, the one the tests were
verified with; :func:`npm_cli` returns its binary, installing it on first use. Without npm (or
when the install fails) the tests skip loudly, except under ``CI=true``, where they fail
(:mod:`tests.support.npm_cache`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.support.npm_cache import CACHE, ensure_npm_package, version_of


@dataclass(frozen=True, slots=True)
class NpmCli:
    """One CLI: npm ``package`` at ``version``, cached in ``.cache/<folder>``, run as ``binary``."""

    package: str
    version: str
    folder: str
    binary: str

    @property
    def prefix(self) -> Path:
        return CACHE / self.folder

    @property
    def path(self) -> Path:
        return self.prefix / "node_modules" / ".bin" / self.binary


CODEX = NpmCli("@openai/codex", "0.171.0", "codex", "codex")
GEMINI = NpmCli("@google/gemini-cli", "0.61.0", "gemini-cli", "gemini")
COPILOT = NpmCli("@github/copilot", "1.0.102", "copilot", "copilot")


def npm_cli(cli: NpmCli) -> Path:
    """Return a working binary of ``cli`` at its pinned version, installing it first if needed."""

    def ready(prefix: Path) -> bool:
        binary = prefix / "node_modules" / ".bin" / cli.binary
        shown = version_of(binary, last_word=True) or ""  # "GitHub Copilot CLI 1.0.102."
        return binary.exists() and shown.rstrip(".") == cli.version

    ensure_npm_package(cli.package, cli.version, cli.folder, ready, label=f"{cli.package} E2E")
    return cli.path
