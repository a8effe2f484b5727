// The page's addresses (hash routes), parsed and built in one place (W-1, W-2, W-6):
//   #/                                                       agents of every project
//   #/projects/{project}                                     agents of one project
//   #/projects/{project}/agents/{agent}/prompt|memory        agent settings
//   #/projects/{project}/agents/{agent}/memory/{overlay}/{key}[/{file}]
// where {overlay} is one of OVERLAYS: every panel and modal over the Memory tab has an address,
// so it can be linked and the browser's Back closes it before it leaves the page.

const enc = encodeURIComponent;

/** Overlays with an address: a memory (view), its findings, an index, the Edit/Add modal; a
 * file's history, a scope's changes and its recently deleted files (V-2, js/views/history.js). */
export const OVERLAYS = [
  "view",
  "findings",
  "index",
  "edit",
  "fix",
  "add",
  "history",
  "changes",
  "deleted",
];

/** The hash route of an agent's tab. */
export function agentHref(project, agent, tab = "memory") {
  return `#/projects/${enc(project)}/agents/${enc(agent)}/${tab}`;
}

/** The hash route of an overlay of the Memory tab; `file` is left out for scope overlays. */
export function overlayHref(project, agent, { kind, key, file = null }) {
  const tail = file ? `/${enc(file)}` : "";
  return `${agentHref(project, agent, "memory")}/${kind}/${enc(key)}${tail}`;
}

function decode(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** A part that no project, agent, scope or file can be called: a URL resolves it as "here" or
 * "up" in any API path built from it (`%2e%2e` too), which would ask another route. */
const DOT_SEGMENT = new Set([".", ".."]);

/**
 * Parse `hash` (location.hash). Returns {view: "agents", project}, {view: "agent", project,
 * agent, tab, overlay: {kind, key, file} | null} or {view: "missing"} (also for an address
 * naming `.` or `..`: it names nothing, and the page asks nothing for it).
 */
export function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decode);
  if (parts.some((part) => DOT_SEGMENT.has(part))) return { view: "missing" };
  if (parts.length === 0) return { view: "agents", project: null };
  if (parts[0] === "projects" && parts.length === 2) return { view: "agents", project: parts[1] };
  if (parts[0] !== "projects" || parts[2] !== "agents" || parts.length < 4) {
    return { view: "missing" };
  }
  const tab = parts[4] === "prompt" ? "prompt" : "memory";
  let overlay = null;
  if (tab === "memory" && OVERLAYS.includes(parts[5]) && parts[6]) {
    overlay = { kind: parts[5], key: parts[6], file: parts[7] ?? null };
  }
  return { view: "agent", project: parts[1], agent: parts[3], tab, overlay };
}
