// Memory bodies rendered as Markdown really renders: markdown-it (CommonMark + GFM tables,
// strikethrough, autolinks; task lists through @mdit/plugin-tasklist), then DOMPurify with an
// allowlist of the tags markdown-it makes. Vendored ES modules under ../vendor/ (see
// MANIFEST.json and tools/vendor_web.py): no build step, no CDN, the CSP unchanged.
//
// What the page adds: raw HTML in a body is never markup (markdown-it's `html: false` shows it as
// text, comments included: the agent reads them too), nor is anything else rendered as nothing
// (a link reference definition, `[//]: # (…)`, is shown as written; a link without text shows
// its target: markdown-rules.js); [[name]] and relative `*.md` links are
// buttons that open that memory; only http(s) and mailto links leave the page, in a new tab with
// rel="noopener noreferrer"; any other link (javascript:, data:, #anchors that would move the
// page's hash route, other paths) is shown as text with its target in the title.

import markdownit from "../vendor/markdown-it/markdown-it.js";
import DOMPurify from "../vendor/dompurify/purify.js";
import { revealHidden } from "./hidden-text.js";
import { tasklist } from "../vendor/mdit-plugin-tasklist/tasklist.js";
import { h } from "./dom.js";
import { pageRules } from "./markdown-rules.js";

const SAFE_URL = /^(https?:|mailto:)/i;
const MEMORY_FILE = /^[^/\\]+\.md$/i;

const md = markdownit({
  html: false,
  linkify: true,
  // Agents write notes line by line ("Why: …" / "How to apply: …"): keep each line's break.
  breaks: true,
  typographer: false,
})
  .use(tasklist, { disabled: true, label: true })
  .use(pageRules);

const PURIFY = {
  ALLOWED_TAGS: [
    "p", "br", "hr", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "em", "strong", "s",
    "ul", "ol", "li", "input", "label", "table", "thead", "tbody", "tr", "th", "td", "a", "span",
  ],
  ALLOWED_ATTR: [
    "href", "title", "class", "start", "type", "checked", "disabled", "id", "for",
    "data-wikilink",
  ],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

/**
 * Render Markdown `text` into a <div class="md">. `options.onWikiLink(file)` makes [[name]] and
 * relative `*.md` links buttons that open that memory (`file`, a topic file name); without it
 * they stay plain text. `options.wikiFile(name)` says which file a [[name]] opens (the service's
 * answer, resolved as the lint resolves it: `Deploy Freeze` → `deploy-freeze.md`), null for
 * none: such a link is shown as missing, never a button to a file that is not there. A note in
 * a sub-folder (`notes/deploy.md`) is there but no topic file: its link is text naming it.
 * `options.missingTitle(name)` says why a missing link opens nothing (the lint's finding about
 * it: a sub-folder walk stopped at its bound is no "names no topic file"), null for the default.
 * Credentials must be masked in `text` before the call: masking the output would miss link
 * targets.
 */
export function renderMarkdown(text, options = {}) {
  const fragment = DOMPurify.sanitize(md.render(String(text)), PURIFY);
  const root = h("div", { class: "md" });
  root.append(fragment);
  for (const span of root.querySelectorAll("span[data-wikilink]")) {
    span.replaceWith(wikiLink(span.dataset.wikilink, span.textContent, options));
  }
  for (const anchor of root.querySelectorAll("a")) {
    anchor.replaceWith(link(anchor, options));
  }
  return revealHidden(root); // I-9: nothing a model reads is invisible here
}

function wikiLink(name, label, options) {
  const file = options.wikiFile ? options.wikiFile(name) : `${name}.md`;
  if (!options.onWikiLink || !file) {
    const said = file ? null : options.missingTitle?.(name);
    const title = file ? null : (said ?? `[[${name}]] names no topic file of this scope`);
    return h("span", { class: "wikilink missing", title, text: `[[${label}]]` });
  }
  if (file.includes("/")) {
    // a note in a sub-folder of the scope: there, but no topic file this page opens
    const title = `${file}, in a sub-folder of this scope`;
    return h("span", { class: "wikilink in-folder", title, text: label });
  }
  return h("button", {
    type: "button",
    class: "wikilink",
    title: `Open ${file}`,
    text: label,
    onclick: () => options.onWikiLink(file),
  });
}

/** The element that stands for `anchor`: an external link, a memory button or plain text. */
function link(anchor, options) {
  const target = anchor.getAttribute("href") ?? "";
  const children = [...anchor.childNodes];
  const cls = anchor.className || null;
  if (SAFE_URL.test(target)) {
    const props = { href: target, class: cls, title: anchor.title || null };
    return h("a", { ...props, target: "_blank", rel: "noopener noreferrer" }, children);
  }
  const file = memoryFile(target);
  if (options.onWikiLink && file) {
    return h(
      "button",
      {
        type: "button",
        class: "wikilink",
        title: `Open ${file}`,
        onclick: () => options.onWikiLink(file),
      },
      children,
    );
  }
  return h("span", { class: cls ? `link-text ${cls}` : "link-text", title: target }, children);
}

/** `./deploy-freeze.md#why` → `deploy-freeze.md`; null unless it names a file of this scope. */
function memoryFile(target) {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // A malformed escape stays as written.
  }
  const file = decoded.replace(/^\.\//, "").replace(/[#?].*$/, "");
  return MEMORY_FILE.test(file) ? file : null;
}
