"""W-5: the page runs without a build step and loads nothing from elsewhere. Its third-party ES
modules (markdown-it, its task-list plugin, DOMPurify) are committed under ``static/vendor/`` by
``tools/vendor_web.py``, exactly as its manifest records them, with their licences; every import
of the page is a relative path to a file the service serves; the CSP stays strict."""

from __future__ import annotations

import hashlib
import json
import re

from memory_api.page_unicode import MODULE_PATH

from tests.browser.service import REPO
from tools.vendor_web import PACKAGES

STATIC = REPO / "services" / "memory-api" / "src" / "memory_api" / "static"
VENDOR = STATIC / "vendor"
IMPORT = re.compile(r"""(?:^|[;\s])(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']""", re.M)
BARE_IMPORT = re.compile(r"""(?:^|[;\s])import\s*["']([^"']+)["']""", re.M)
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["']([^"']+)["']""")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'"
)


def _manifest() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(
        (VENDOR / "MANIFEST.json").read_text(encoding="utf-8")
    )
    return data


def _specifiers(source: str) -> list[str]:
    return [
        match.group(1)
        for pattern in (IMPORT, BARE_IMPORT, DYNAMIC_IMPORT)
        for match in pattern.finditer(source)
    ]


def test_w5_vendored_files_are_exactly_what_the_vendoring_script_wrote() -> None:
    manifest = _manifest()
    packages = {package.name: package for package in PACKAGES}
    assert set(manifest) == set(packages)
    listed = {VENDOR / "MANIFEST.json"}
    for name, entry in manifest.items():
        assert entry["version"] == packages[name].version, name
        folder = VENDOR / str(entry["folder"])
        files = entry["files"]
        assert isinstance(files, dict)
        assert "LICENSE" in files, f"{name} is vendored without its licence"
        for file, digest in files.items():
            path = folder / file
            listed.add(path)
            assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, (
                f"{path.relative_to(REPO)} differs from what tools/vendor_web.py wrote: "
                "re-run `make vendor-web` instead of editing it"
            )
    present = {path for path in VENDOR.rglob("*") if path.is_file()}
    assert present == listed, f"not in the manifest: {sorted(map(str, present - listed))}"


def test_w5_every_import_of_the_page_is_a_served_file() -> None:
    modules = sorted(STATIC.rglob("*.js"))
    assert len(modules) > 10
    for module in modules:
        for specifier in _specifiers(module.read_text(encoding="utf-8")):
            # Relative paths only: no bare package names (they need a bundler or an import
            # map) and no other origin (the CSP allows 'self' alone).
            assert specifier.startswith(("./", "../")), f"{module.name} imports {specifier!r}"
            target = (module.parent / specifier).resolve()
            served = target == STATIC.parent / MODULE_PATH.lstrip("/")  # the service makes it
            assert target.is_relative_to(STATIC), (module, specifier)
            assert target.is_file() or served, (module, specifier)


def test_w5_the_markdown_renderer_is_the_vendored_one() -> None:
    source = (STATIC / "js" / "markdown.js").read_text(encoding="utf-8")
    assert set(_specifiers(source)) >= {
        "../vendor/markdown-it/markdown-it.js",
        "../vendor/dompurify/purify.js",
        "../vendor/mdit-plugin-tasklist/tasklist.js",
    }


def test_w5_the_page_keeps_its_strict_csp() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    match = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', page)
    assert match is not None
    assert match.group(1) == CSP


def test_w5_vendored_modules_stand_alone() -> None:
    for path in VENDOR.rglob("*.js"):
        source = path.read_text(encoding="utf-8")
        assert _specifiers(source) == [], f"{path.name} imports other modules"
        assert "sourceMappingURL" not in source, f"{path.name} points at a map not vendored"
