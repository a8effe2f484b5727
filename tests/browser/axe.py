"""axe-core, the accessibility checker, installed from npm and run inside the page (W-6).

``<repo>/.cache/axe-core/`` receives ``axe-core`` at :data:`VERSION` on first use (git-ignored,
like the Claude Code CLI of the plugin tests). :func:`axe_violations` injects it into a page
through the DevTools protocol (``page.evaluate``), which the page's strict Content-Security-Policy
does not govern, so the page under test stays exactly as it ships. Without npm the tests skip
loudly, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from tests.support.npm_cache import CACHE as NPM_CACHE
from tests.support.npm_cache import ensure_npm_package

VERSION = "4.11.0"
SCRIPT = NPM_CACHE / "axe-core" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
"""The impacts W-6 forbids; ``minor`` and ``moderate`` are reported but do not fail a test."""


SETTLED = """async () => {
    const finite = document.getAnimations().filter(
        (animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => null)));
}"""
"""A page script that resolves once every animation that ends has ended (a spinner's does not)."""


def _ready(prefix: Path) -> bool:
    script = prefix / "node_modules" / "axe-core" / "axe.min.js"
    manifest = script.parent / "package.json"
    if not script.exists() or not manifest.exists():
        return False
    return bool(json.loads(manifest.read_text(encoding="utf-8")).get("version") == VERSION)


@cache
def axe_source() -> str:
    """The text of ``axe.min.js`` at :data:`VERSION`, installing it with npm first if needed."""
    ensure_npm_package("axe-core", VERSION, "axe-core", _ready, label="AXE-CORE CHECK")
    return SCRIPT.read_text(encoding="utf-8")


def axe_violations(
    page: Page, *, include: str | None = None, exclude: str | None = None
) -> list[dict[str, Any]]:
    """Run axe-core (WCAG 2.x A and AA rules plus best practices) on ``page`` as it is now.

    ``include`` limits the check to a CSS selector (e.g. an open dialog); ``exclude`` leaves
    out what matches a selector. Returns the violations whose impact is serious or critical,
    each as ``{id, impact, help, targets}``.

    It first waits for the page's finite animations to end (:data:`SETTLED`): a sheet fading in
    has blended colours until then, which axe would judge as they are mid-way (a busy machine
    draws them slowly).
    """
    page.evaluate(SETTLED)
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
