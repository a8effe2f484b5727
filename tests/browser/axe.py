"""axe-core, the accessibility checker, installed from npm and run inside the page (W-6).

``<repo>/.cache/axe-core/`` receives ``axe-core`` at :data:`VERSION` on first use (git-ignored,
like the Claude Code CLI of the plugin tests). :func:`axe_violations` injects it into a page
through the DevTools protocol (``page.evaluate``), which the page's strict Content-Security-Policy
does not govern, so the page under test stays exactly as it ships. Without npm the tests skip
loudly, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

import pytest
from playwright.sync_api import Page

VERSION = "4.11.0"
PACKAGE = f"axe-core@{VERSION}"
CACHE = Path(__file__).parents[2] / ".cache" / "axe-core"
SCRIPT = CACHE / "node_modules" / "axe-core" / "axe.min.js"
INSTALL_TIMEOUT_S = 300
BLOCKING = ("serious", "critical")
"""The impacts W-6 forbids; ``minor`` and ``moderate`` are reported but do not fail a test."""


def _unavailable(reason: str) -> NoReturn:
    message = f"AXE-CORE CHECK NOT RUN: {reason}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: this must run)")
    pytest.skip(reason=message)


def _installed_version() -> str | None:
    manifest = SCRIPT.parent / "package.json"
    if not SCRIPT.exists() or not manifest.exists():
        return None
    return str(json.loads(manifest.read_text(encoding="utf-8")).get("version"))


@cache
def axe_source() -> str:
    """The text of ``axe.min.js`` at :data:`VERSION`, installing it with npm first if needed."""
    if _installed_version() != VERSION:
        npm = shutil.which("npm")
        if npm is None:
            _unavailable("npm is not installed, so axe-core cannot be installed")
        CACHE.mkdir(parents=True, exist_ok=True)
        command = [npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", str(CACHE)]
        try:
            done = subprocess.run(
                [*command, PACKAGE],
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            _unavailable(f"npm install {PACKAGE} did not finish in {INSTALL_TIMEOUT_S} s")
        if _installed_version() != VERSION:
            _unavailable(
                f"npm install {PACKAGE} gave no axe.min.js (exit {done.returncode}):\n"
                f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            )
    return SCRIPT.read_text(encoding="utf-8")


def axe_violations(
    page: Page, *, include: str | None = None, exclude: str | None = None
) -> list[dict[str, Any]]:
    """Run axe-core (WCAG 2.x A and AA rules plus best practices) on ``page`` as it is now.

    ``include`` limits the check to a CSS selector (e.g. an open dialog); ``exclude`` leaves
    out what matches a selector. Returns the violations whose impact is serious or critical,
    each as ``{id, impact, help, targets}``.
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    result = page.evaluate(
        """async ([include, exclude]) => {
            const context = { include: [include ?? "html"] };
            if (exclude) context.exclude = [exclude];
            const found = await window.axe.run(context, {
                runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                                  "wcag22aa", "best-practice"] },
                resultTypes: ["violations"],
            });
            return found.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                targets: v.nodes.slice(0, 5).map((n) => [n.target.join(" "),
                                                          n.failureSummary]),
            }));
        }""",
        [include, exclude],
    )
    return [violation for violation in result if violation["impact"] in BLOCKING]
