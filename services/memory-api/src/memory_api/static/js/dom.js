// Building DOM nodes without HTML strings: user content only ever becomes text nodes, and no
// text shown through here renders as nothing (I-9): a run of hidden characters in a file name,
// a finding, a search hit's place or a name taken from the address shows as its mark
// (`[hidden: U+202E]`), as in a memory's body. Values the page keeps for itself (`value`,
// `data-*`, `href`, `id`) stay as written.

import { showHidden } from "./hidden-text.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** Attributes a person reads (a tooltip, what a screen reader says): shown as `text` is. */
const READ_ATTRIBUTES = new Set(["title", "aria-label", "aria-description", "placeholder", "alt"]);

/** `value` as the page shows text: a string with each hidden run as its mark (I-9). */
export function shownText(value) {
  return showHidden(String(value));
}

/**
 * Create an element. `props`: `class`, `text` (shown as {@link shownText}), `dataset`,
 * `on<event>` handlers, `value` / `checked` / `disabled` / `hidden` as properties, anything
 * else as an attribute (true → ""; `title`, `aria-label` and the other read ones as
 * {@link shownText}). Children: nodes, strings (as text), arrays, null/false (skipped).
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = shownText(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "value" || key === "checked" || key === "disabled" || key === "hidden") {
      el[key] = value;
    } else if (READ_ATTRIBUTES.has(key)) el.setAttribute(key, shownText(value));
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings as {@link shownText}, nested arrays); null, undefined and
 * false are skipped. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(shownText(child)));
  }
  return parent;
}

/** Replace every child of `parent` with `children`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

const ICONS = {
  chevron: ["M6 9l6 6 6-6"],
  eye: ["M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z", "M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z"],
  edit: ["M12 20h9", "M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z"],
  trash: ["M3 6h18", "M8 6V4h8v2", "M19 6l-1 14H6L5 6", "M10 11v6M14 11v6"],
  plus: ["M12 5v14M5 12h14"],
  copy: ["M9 9h11v11H9z", "M5 15H4V4h11v1"],
  external: ["M14 4h6v6", "M20 4l-9 9", "M19 14v6H4V5h6"],
  close: ["M6 6l12 12M18 6L6 18"],
  memory: ["M4 5h16v14H4z", "M8 9h8M8 13h8M8 17h4"],
  list: ["M8 6h13M8 12h13M8 18h13", "M3 6h.01M3 12h.01M3 18h.01"],
  lock: ["M5 11h14v10H5z", "M8 11V7a4 4 0 0 1 8 0v4"],
  history: ["M3 12a9 9 0 1 0 2.6-6.4L3 8", "M3 3v5h5", "M12 7v5l3 2"],
};

/** An inline SVG icon (stroke style), hidden from assistive technology. */
export function icon(name, cls = "") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  if (cls) svg.setAttribute("class", cls);
  for (const d of ICONS[name] ?? []) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

/** Format an ISO date or date-time for display ("2 Oct 2026"); falls back to the raw text. */
export function formatDate(value) {
  if (!value) return "";
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleDateString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    ...(dateOnly ? { timeZone: "UTC" } : {}),
  });
}

/** A file size in bytes for display: "427 B", "2.5 KB", "40 KB" (1 KB = 1,024 bytes). */
export function formatSize(bytes) {
  if (bytes < 1024) return `${bytes.toLocaleString()} B`;
  const kb = bytes / 1024;
  return `${kb < 10 ? kb.toFixed(1) : Math.round(kb).toLocaleString()} KB`;
}

/** Plural helper: plural(3, "memory", "memories") → "3 memories". */
export function plural(count, one, many) {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/**
 * Run `action` with `button` showing progress: disabled, aria-busy and a busy label, restored
 * afterwards whatever happens. Returns the action's result (errors propagate).
 */
export async function withBusy(button, busyLabel, action) {
  const label = button.querySelector(".label-text") ?? button;
  const before = label.textContent;
  const wasDisabled = button.disabled;
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  button.classList.add("busy");
  if (busyLabel) label.textContent = busyLabel;
  try {
    return await action();
  } finally {
    button.disabled = wasDisabled;
    button.removeAttribute("aria-busy");
    button.classList.remove("busy");
    if (busyLabel) label.textContent = before;
  }
}

/** An inline error box with the problem `detail` and an optional Retry action. */
export function errorBox(message, onRetry, retryLabel = "Retry") {
  return h(
    "div",
    { class: "alert alert-error", role: "alert" },
    h("span", { class: "alert-text", text: message }),
    onRetry
      ? h("button", { type: "button", class: "btn btn-sm", onclick: onRetry }, retryLabel)
      : null,
  );
}

/**
 * After an action, put the focus on `fallback` unless it is still on a live, enabled control:
 * a button that went away or was disabled must not leave the keyboard user on the page (W-6).
 */
export function keepFocus(fallback) {
  const active = document.activeElement;
  const lost =
    !active ||
    active === document.body ||
    active === document.documentElement ||
    !active.isConnected ||
    active.disabled ||
    active.closest("[hidden]");
  if (lost && fallback?.isConnected) fallback.focus();
}

/**
 * A page that found nothing at its address (an unknown project or agent): a heading saying
 * what is missing, why that may be, and links on (`links`: [label, href] pairs). Never the
 * API's raw words.
 */
export function notFoundState(title, why, links) {
  return h(
    "section",
    { class: "not-found", "aria-labelledby": "not-found-title" },
    h("h1", { id: "not-found-title", tabindex: "-1", text: title }),
    h("p", { class: "sub", text: why }),
    h(
      "ul",
      { class: "not-found-links" },
      links.map(([label, href]) => h("li", {}, h("a", { href, text: label }))),
    ),
  );
}
