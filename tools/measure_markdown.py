"""Measure the two ways to render memory bodies, on size and speed (``make measure-markdown``).

* page: the vendored markdown-it + DOMPurify ES modules (what the viewer uses), timed inside
  headless Chromium: Markdown text → sanitized DOM with the page's links (``renderMarkdown``).
* server: markdown-it-py + mdit-py-plugins + nh3 with the same options, timed in this process:
  Markdown text → sanitized HTML string (the browser would still parse it into DOM).

Bodies: the largest topic body of ``tests/data/corpus/`` (frontmatter stripped, as the service
returns it) and the corpus's largest Markdown file (``large-index/MEMORY.md``) as a stress body.
Figures are medians of batches within one run; compare them as ratios, not across machines.
The page side needs ``/usr/bin/chromium``; the server side needs the packages that
``make measure-markdown`` installs into the virtual environment.
"""

from __future__ import annotations

import gzip
import statistics
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from memory_core.topics import parse_topic

REPO = Path(__file__).resolve().parents[1]
STATIC = REPO / "services" / "memory-api" / "src" / "memory_api" / "static"
CORPUS = REPO / "tests" / "data" / "corpus"
ORIGIN = "http://measure.invalid"
BATCH = 20
BATCHES = 15
SERVER_PACKAGES = ("markdown-it-py", "mdit-py-plugins", "linkify-it-py", "nh3", "mdurl")

TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "em",
    "strong", "s", "ul", "ol", "li", "input", "label", "table", "thead", "tbody", "tr", "th",
    "td", "a", "span",
}  # fmt: skip
ATTRIBUTES = {
    "*": {"class", "title"},
    "a": {"href"},
    "ol": {"start"},
    "input": {"type", "checked", "disabled", "id"},
    "label": {"for"},
}

PAGE_TIMING = """async ({ bodies, batch, batches }) => {
  const started = performance.now();
  const { renderMarkdown } = await import("/static/js/markdown.js");
  const load = performance.now() - started;
  const options = { onWikiLink() {} };
  const out = {};
  for (const [name, text] of Object.entries(bodies)) {
    const first = performance.now();
    renderMarkdown(text, options);
    const cold = performance.now() - first;
    const times = [];
    for (let b = 0; b < batches; b++) {
      const t0 = performance.now();
      for (let i = 0; i < batch; i++) renderMarkdown(text, options);
      times.push((performance.now() - t0) / batch);
    }
    times.sort((x, y) => x - y);
    out[name] = { cold, median: times[times.length >> 1] };
  }
  return { load, out };
}"""


def bodies() -> dict[str, str]:
    """The largest topic body of the corpus (frontmatter stripped, as the service returns it)
    and the corpus's largest Markdown file."""
    topics = [path for path in CORPUS.rglob("*.md") if path.name not in {"MEMORY.md", "README.md"}]
    parsed = {path: parse_topic(path.read_bytes(), path.name).body for path in topics}
    largest = max(parsed, key=lambda path: len(parsed[path]))
    index = max(CORPUS.rglob("MEMORY.md"), key=lambda path: path.stat().st_size)
    return {
        f"largest topic body ({largest.relative_to(CORPUS)})": parsed[largest],
        f"largest Markdown file ({index.relative_to(CORPUS)})": index.read_text(encoding="utf-8"),
    }


def page_sizes() -> dict[str, tuple[int, int]]:
    """Bytes (raw, gzip) of every ES module the page loads to render Markdown."""
    files = sorted(p for p in (STATIC / "vendor").rglob("*.js") if not p.name.startswith("LICENSE"))
    files += [STATIC / "js" / "markdown.js", STATIC / "js" / "markdown-rules.js"]
    return {
        str(path.relative_to(STATIC)): (len(data := path.read_bytes()), len(gzip.compress(data)))
        for path in files
    }


def _serve_static(route: Any) -> None:
    path = route.request.url.removeprefix(ORIGIN).split("?")[0]
    if path == "/":
        route.fulfill(body="<!doctype html><title>measure</title>", content_type="text/html")
        return
    route.fulfill(path=str(STATIC / path.removeprefix("/static/")))


def page_timing(texts: dict[str, str]) -> dict[str, Any]:
    """Time ``renderMarkdown`` in headless Chromium on each body (milliseconds)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"]
        )
        page = browser.new_page()
        page.route(f"{ORIGIN}/**", _serve_static)
        page.goto(f"{ORIGIN}/")
        result: dict[str, Any] = page.evaluate(
            PAGE_TIMING, {"bodies": texts, "batch": BATCH, "batches": BATCHES}
        )
        browser.close()
    return result


def server_renderer() -> Callable[[str], str]:
    """markdown-it-py (CommonMark + GFM tables, strikethrough, autolinks, task lists) + nh3."""
    import nh3
    from markdown_it import MarkdownIt
    from mdit_py_plugins.tasklists import tasklists_plugin

    md = MarkdownIt(
        "commonmark", {"html": False, "linkify": True, "breaks": True, "typographer": False}
    )
    md.enable(["table", "strikethrough", "linkify"]).use(tasklists_plugin)
    if md.linkify is not None:
        md.linkify.set({"fuzzy_link": False})

    def render(text: str) -> str:
        # nh3 is installed only by `make measure-markdown`, so mypy may see it as Any.
        return str(
            nh3.clean(
                md.render(text),
                tags=TAGS,
                attributes=ATTRIBUTES,
                url_schemes={"http", "https", "mailto"},
                link_rel="noopener noreferrer",
            )
        )

    return render


def server_timing(texts: dict[str, str]) -> dict[str, dict[str, float]]:
    """Time the server pipeline on each body (milliseconds), and the HTML it would send."""
    start = time.perf_counter()
    render = server_renderer()
    load = (time.perf_counter() - start) * 1000
    out: dict[str, dict[str, float]] = {"(import and set-up)": {"cold": load, "median": 0.0}}
    for name, text in texts.items():
        first = time.perf_counter()
        html = render(text)
        cold = (time.perf_counter() - first) * 1000
        times = []
        for _ in range(BATCHES):
            t0 = time.perf_counter()
            for _ in range(BATCH):
                render(text)
            times.append((time.perf_counter() - t0) * 1000 / BATCH)
        out[name] = {"cold": cold, "median": statistics.median(times), "html": len(html)}
    return out


def server_install_size() -> int:
    """Bytes the server-side packages take in site-packages."""
    total = 0
    for name in SERVER_PACKAGES:
        for file in metadata.distribution(name).files or []:
            path = Path(str(file.locate()))
            if path.is_file():
                total += path.stat().st_size
    return total


def print_sizes(installed: int) -> None:
    """The bytes each renderer costs: shipped to the page, or installed on the server."""
    print("size")
    sizes = page_sizes()
    for name, (raw, packed) in sizes.items():
        print(f"  page   {name:45} {raw / 1024:7.1f} KiB  gzip {packed / 1024:6.1f} KiB")
    raw_total = sum(raw for raw, _ in sizes.values()) / 1024
    packed_total = sum(packed for _, packed in sizes.values()) / 1024
    print(f"  page   total, once per page load {raw_total:19.1f} KiB  gzip {packed_total:6.1f} KiB")
    print(f"  server site-packages of {', '.join(SERVER_PACKAGES)}: {installed / 1024:.0f} KiB")


def print_speeds(texts: dict[str, str], page: dict[str, Any], server: dict[str, Any]) -> None:
    """Milliseconds per render on each body, page against server."""
    print(f"speed (ms; cold = first call, median = per render in batches of {BATCH})")
    print(f"  page   module load {page['load']:.1f}")
    print(f"  server import and set-up {server['(import and set-up)']['cold']:.1f}")
    for name, text in texts.items():
        ours, theirs = page["out"][name], server[name]
        print(f"  {name}: {len(text.encode())} bytes of Markdown")
        print(f"    page   cold {ours['cold']:.2f}  median {ours['median']:.3f}  (text → DOM)")
        print(
            f"    server cold {theirs['cold']:.2f}  median {theirs['median']:.3f}"
            f"  (text → HTML, {theirs['html']:.0f} bytes to send)"
        )
        print(f"    page / server median: {ours['median'] / theirs['median']:.2f}")


def main() -> int:
    """Print the size and speed figures of both renderers; 1 when something is missing."""
    texts = bodies()
    try:
        server = server_timing(texts)
        installed = server_install_size()
    except ImportError as error:
        print(f"{error}: run `make measure-markdown`, which installs the server packages")
        return 1
    page = page_timing(texts)
    print_sizes(installed)
    print_speeds(texts, page, server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
