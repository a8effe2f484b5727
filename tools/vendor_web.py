"""Vendor the web page's third-party ES modules into ``static/vendor/`` (``make vendor-web``).

The page has no build step and loads nothing from a CDN (W-5, the strict CSP), so the Markdown
parser and the HTML sanitizer the viewer uses are committed as files. This script is how they get
there: ``npm install`` of the pinned :data:`PACKAGES` into the git-ignored ``.cache/web-vendor/``,
then a copy of each package's browser ES-module build and its licence files. The only change
made to a copied module is dropping its trailing ``//# sourceMappingURL=`` line, since the maps
are not vendored. ``static/vendor/MANIFEST.json`` records every package's version, licence and
files with their SHA-256, and ``tests/browser/test_w5_vendored_libraries.py`` checks the tree
against it, so a hand edit of a vendored file fails the suite.

Run it after changing a version below; commit what it writes. It needs ``npm`` on ``PATH``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / ".cache" / "web-vendor"
VENDOR = REPO / "services" / "memory-api" / "src" / "memory_api" / "static" / "vendor"
MANIFEST = VENDOR / "MANIFEST.json"
NPM_TIMEOUT_S = 600


@dataclass(frozen=True)
class Package:
    """One npm package to vendor.

    ``files`` maps a path inside the package to its name under ``static/vendor/<folder>/``;
    ``licences`` are the package's licence files; ``bundled`` names npm packages whose code the
    build includes (their licence files are copied too, as ``LICENSE.<name>``).
    """

    name: str
    version: str
    folder: str
    licence: str
    files: dict[str, str]
    licences: tuple[str, ...]
    bundled: tuple[str, ...] = ()


PACKAGES = (
    Package(
        name="markdown-it",
        version="15.0.3",
        folder="markdown-it",
        licence="MIT",
        # The package's own browser ES-module build: markdown-it with mdurl, entities,
        # linkify-it, uc.micro and punycode.js bundled in.
        files={"dist/browser/markdown-it.esm.min.mjs": "markdown-it.js"},
        licences=("LICENSE",),
        bundled=("entities", "linkify-it", "mdurl", "punycode.js", "uc.micro"),
    ),
    Package(
        name="@mdit/plugin-tasklist",
        version="0.23.2",
        folder="mdit-plugin-tasklist",
        licence="MIT",
        files={"dist/index.js": "tasklist.js"},
        licences=("LICENSE",),
    ),
    Package(
        name="dompurify",
        version="3.4.18",
        folder="dompurify",
        licence="MPL-2.0 OR Apache-2.0",
        files={"dist/purify.es.mjs": "purify.js"},
        licences=("LICENSE",),
    ),
)


def npm_install(packages: tuple[Package, ...]) -> Path:
    """Install ``packages`` into :data:`CACHE`; return its ``node_modules``.

    Raises ``SystemExit`` when npm is missing or fails. ``--legacy-peer-deps``: the task-list
    plugin names markdown-it 14 as its peer, and it works unchanged with 15 (the browser tests
    check task lists render).
    """
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is not on PATH: install Node.js and npm to vendor the web modules")
    CACHE.mkdir(parents=True, exist_ok=True)
    specs = [f"{package.name}@{package.version}" for package in packages]
    command = [npm, "install", "--no-audit", "--no-fund", "--no-save", "--legacy-peer-deps"]
    done = subprocess.run(  # noqa: S603 - a fixed npm command line
        [*command, "--prefix", str(CACHE), *specs],
        capture_output=True,
        text=True,
        timeout=NPM_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"npm install failed:\n{done.stderr}")
    return CACHE / "node_modules"


def without_source_map(text: str) -> str:
    """Drop ``//# sourceMappingURL=`` lines: the maps are not vendored, and a browser's
    developer tools would otherwise ask the service for a missing file."""
    kept = [line for line in text.splitlines() if not line.startswith("//# sourceMappingURL=")]
    return "\n".join(kept).rstrip("\n") + "\n"


def licence_files(modules: Path, package: Package) -> dict[Path, str]:
    """Map each licence file to copy to its name in the vendor folder."""
    found = {modules / package.name / name: name for name in package.licences}
    for bundled in package.bundled:
        folder = modules / bundled
        candidates = sorted(p for p in folder.iterdir() if p.name.upper().startswith("LICENSE"))
        if not candidates:
            raise SystemExit(f"{bundled} (bundled in {package.name}) has no licence file")
        found[candidates[0]] = f"LICENSE.{bundled}"
    return found


def installed_version(modules: Path, name: str) -> str:
    """The version of ``name`` that npm installed."""
    meta = json.loads((modules / name / "package.json").read_text(encoding="utf-8"))
    return str(meta["version"])


def vendor(modules: Path, package: Package) -> dict[str, object]:
    """Copy one package into its vendor folder; return its manifest entry."""
    got = installed_version(modules, package.name)
    if got != package.version:
        raise SystemExit(f"npm installed {package.name} {got}, expected {package.version}")
    target = VENDOR / package.folder
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for source, name in package.files.items():
        text = (modules / package.name / source).read_text(encoding="utf-8")
        (target / name).write_text(without_source_map(text), encoding="utf-8")
    for source_path, name in licence_files(modules, package).items():
        shutil.copyfile(source_path, target / name)
    bundled = {name: installed_version(modules, name) for name in package.bundled}
    return {
        "version": package.version,
        "licence": package.licence,
        "folder": package.folder,
        "bundled": bundled,
        "files": {
            path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(target.iterdir())
        },
    }


def main() -> int:
    """Vendor every package and write :data:`MANIFEST`; print what was written."""
    modules = npm_install(PACKAGES)
    manifest = {package.name: vendor(modules, package) for package in PACKAGES}
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    for name, entry in manifest.items():
        print(f"{name} {entry['version']} -> static/vendor/{entry['folder']}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
