// A small, safe Markdown renderer for memory bodies: it builds DOM nodes and sets only
// textContent, so nothing a memory file holds can become markup or script. It covers what
// agents write in notes — headings, paragraphs (line breaks kept), lists, quotes, fenced code,
// rules, tables (shown monospaced), inline code, bold, italic, links and [[name]] links.

import { h } from "./dom.js";

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const TABLE_ROW = /^\s*\|/;
const SAFE_URL = /^(https?:|mailto:)/i;

const INLINE = new RegExp(
  [
    "(`+)([\\s\\S]*?[^`])\\1(?!`)", // 1,2 code span
    "\\[\\[([^\\]\\n|]+)(?:\\|([^\\]\\n]+))?\\]\\]", // 3,4 [[name]] or [[name|label]]
    '\\[([^\\]\\n]+)\\]\\(<?([^)\\s>]+)>?(?:\\s+"[^"]*")?\\)', // 5,6 [text](url)
    "\\*\\*(?=\\S)([\\s\\S]*?\\S)\\*\\*", // 7 strong
    "__(?=\\S)([\\s\\S]*?\\S)__", // 8 strong
    "\\*(?=[^\\s*])([^*\\n]*?[^\\s*])\\*", // 9 em
    "(?<![\\w])_(?=[^\\s_])([^_\\n]*?[^\\s_])_(?![\\w])", // 10 em
    "<(https?://[^>\\s]+)>", // 11 autolink
    "(https?://[^\\s<>()\\[\\]]+[^\\s<>()\\[\\].,;:!?'\"])", // 12 bare URL
  ].join("|"),
  "g",
);

/**
 * Render Markdown `text` into a <div class="md">. `options.onWikiLink(name)` makes [[name]] and
 * relative `*.md` links buttons that open that memory; without it they stay plain text.
 */
export function renderMarkdown(text, options = {}) {
  const root = h("div", { class: "md" });
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body = [];
      i += 1;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[1])) body.push(lines[i++]);
      i += 1;
      const code = h("code", { text: body.join("\n") });
      if (fence[2]) code.dataset.lang = fence[2];
      root.append(h("pre", {}, code));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      // Bodies sit under the viewer's own h2, so levels start at h3.
      const level = Math.min(6, heading[1].length + 2);
      root.append(h(`h${level}`, {}, inline(heading[2], options)));
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      root.append(h("hr"));
      i += 1;
      continue;
    }
    if (QUOTE.test(line)) {
      const body = [];
      while (i < lines.length && QUOTE.test(lines[i])) body.push(QUOTE.exec(lines[i++])[1]);
      const quote = renderMarkdown(body.join("\n"), options);
      root.append(h("blockquote", {}, [...quote.childNodes]));
      continue;
    }
    if (TABLE_ROW.test(line)) {
      const rows = [];
      while (i < lines.length && TABLE_ROW.test(lines[i])) rows.push(lines[i++]);
      root.append(h("pre", { class: "table", text: rows.join("\n") }));
      continue;
    }
    if (LIST_ITEM.test(line)) {
      i = renderList(lines, i, root, options);
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !startsBlock(lines[i])) para.push(lines[i++]);
    root.append(h("p", {}, withBreaks(para, options)));
  }
  return root;
}

function startsBlock(line) {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    LIST_ITEM.test(line) ||
    TABLE_ROW.test(line)
  );
}

/** Lines of one paragraph, with their line breaks kept (notes rely on "Why:" lines). */
function withBreaks(lines, options) {
  const out = [];
  lines.forEach((line, index) => {
    if (index > 0) out.push(h("br"));
    out.push(...inline(line.trim(), options));
  });
  return out;
}

/** Render a run of list items (nesting by indentation) starting at `start`; returns next index. */
function renderList(lines, start, parent, options) {
  const first = LIST_ITEM.exec(lines[start]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const list = h(ordered ? "ol" : "ul");
  if (ordered && Number.parseInt(first[2], 10) !== 1) list.start = Number.parseInt(first[2], 10);
  let i = start;
  let item = null;
  while (i < lines.length) {
    const line = lines[i];
    const match = LIST_ITEM.exec(line);
    if (match && match[1].length === indent) {
      item = h("li", {}, taskOrText(match[3], options));
      list.append(item);
      i += 1;
    } else if (match && match[1].length > indent && item) {
      i = renderList(lines, i, item, options);
    } else if (line.trim() && item && /^\s+/.test(line) && !startsBlock(line.trimStart())) {
      item.append(h("br"), ...inline(line.trim(), options));
      i += 1;
    } else break;
  }
  parent.append(list);
  return i;
}

function taskOrText(text, options) {
  const task = /^\[([ xX])\]\s+(.*)$/.exec(text);
  if (!task) return inline(text, options);
  return [task[1] === " " ? "☐ " : "☑ ", ...inline(task[2], options)];
}

/** Inline Markdown → an array of nodes (text, code, strong, em, a, button). */
function inline(text, options = {}) {
  const out = [];
  let last = 0;
  INLINE.lastIndex = 0;
  for (let match = INLINE.exec(text); match; match = INLINE.exec(text)) {
    if (match.index > last) out.push(document.createTextNode(text.slice(last, match.index)));
    last = INLINE.lastIndex;
    out.push(inlineNode(match, options));
    INLINE.lastIndex = last;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

function inlineNode(m, options) {
  if (m[1] !== undefined) return h("code", { text: m[2].replace(/^ (.*) $/, "$1") });
  if (m[3] !== undefined) return wikiLink(m[3].trim(), (m[4] ?? m[3]).trim(), options);
  if (m[5] !== undefined) return link(m[5], m[6], options);
  if (m[7] !== undefined || m[8] !== undefined) {
    return h("strong", {}, inline(m[7] ?? m[8], options));
  }
  if (m[9] !== undefined || m[10] !== undefined) return h("em", {}, inline(m[9] ?? m[10], options));
  const url = m[11] ?? m[12];
  return h("a", { href: url, target: "_blank", rel: "noopener noreferrer", text: url });
}

function wikiLink(name, label, options) {
  if (!options.onWikiLink) return h("span", { class: "wikilink missing", text: `[[${label}]]` });
  return h("button", {
    type: "button",
    class: "wikilink",
    title: `Open ${name}`,
    text: label,
    onclick: () => options.onWikiLink(name),
  });
}

function link(label, target, options) {
  const children = inline(label, options);
  if (SAFE_URL.test(target)) {
    return h("a", { href: target, target: "_blank", rel: "noopener noreferrer" }, children);
  }
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // A malformed escape stays as written.
  }
  const file = decoded.replace(/^\.\//, "").replace(/#.*$/, "");
  if (options.onWikiLink && /^[^/\\]+\.md$/i.test(file)) {
    return h(
      "button",
      {
        type: "button",
        class: "wikilink",
        title: `Open ${file}`,
        onclick: () => options.onWikiLink(file.replace(/\.md$/i, "")),
      },
      children,
    );
  }
  // Anything else (relative paths, javascript:, data:) is shown, never followed.
  return h("span", { class: "link-text", title: target }, children);
}
