// What the history views share (V-2): the versions routes' paths, how the page names who made a
// version and when, and Restore — one POST …/restore, then the scope's group and the overview
// are read again, as after a delete. The Undo of a delete is a restore too.

import { ApiError, api, paths } from "../api.js";
import { toast } from "../dialogs.js";
import { h, plural, replace } from "../dom.js";
import { showHidden } from "../hidden-text.js";

const enc = encodeURIComponent;

/** Versions (of a file, or of a scope) asked for at once; "Show older" asks for the next. */
export const PAGE_SIZE = 25;

/** Paths of the versions routes (V-2), built from ids (each percent-encoded). */
export const versionPaths = {
  history: (project, agent, key, file, before = null) => {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (before) query.set("before", before);
    return `${paths.file(project, agent, key, file)}/history?${query}`;
  },
  version: (project, agent, key, file, version, { reveal = false } = {}) => {
    const tail = reveal ? "?reveal=true" : "";
    return `${paths.file(project, agent, key, file)}/versions/${enc(version)}${tail}`;
  },
  diff: (project, agent, key, file, { from = null, to = null, reveal = false } = {}) => {
    const query = new URLSearchParams();
    if (from) query.set("from", from);
    if (to) query.set("to", to);
    if (reveal) query.set("reveal", "true");
    const tail = query.size ? `?${query}` : "";
    return `${paths.file(project, agent, key, file)}/diff${tail}`;
  },
  restore: (project, agent, key, file) => `${paths.file(project, agent, key, file)}/restore`,
  scope: (project, agent, key) => `${paths.memory(project, agent)}/scopes/${enc(key)}`,
  changes: (project, agent, key, { since = null, after = null, before = null } = {}) => {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (since) query.set("since", since);
    if (after) query.set("after", after);
    if (before) query.set("before", before);
    return `${versionPaths.scope(project, agent, key)}/changes?${query}`;
  },
  deleted: (project, agent, key) => `${versionPaths.scope(project, agent, key)}/deleted`,
  checkpoint: (project, agent, key) => `${versionPaths.scope(project, agent, key)}/checkpoint`,
};

/**
 * Why the history cannot take topic file `file` as it is now, from its listing row's
 * `problems` (T-2, Q-2b): the service cannot read it ("unreadable: …"), or it is over its 1 MiB
 * read cap ("size: …"). Such a file is in no checkpoint, and a delete or a restore of it is
 * refused (503 unreadable, 409 over its cap; nothing changed), as neither could be undone. Returns the sentence the page
 * shows, or null when the history can keep the file.
 */
export function unkeptReason(file, problems) {
  const problem = (problems ?? []).find((text) => /^(unreadable|size):/.test(text));
  if (!problem) return null;
  const why = problem.startsWith("size:")
    ? `it is ${problem.slice("size:".length).trim()}`
    : problem.slice("unreadable:".length).trim();
  return unkeptSentence(file, why);
}

/**
 * The sentence the page shows for a file the history cannot keep as it is now, `why` being
 * said as its history's `unrecordable` says it ("the service cannot read it (Permission
 * denied)"); null without a `why`. MEMORY.md cannot be deleted here, so only recording and
 * restoring are named for it.
 */
export function unkeptSentence(file, why) {
  if (!why) return null;
  if (file === "MEMORY.md") {
    return `The history cannot keep MEMORY.md as it is now (${why}): it cannot be recorded or replaced by a restore until that is fixed on disk.`;
  }
  return `The history cannot keep ${file} as it is now (${why}), so it cannot be recorded, and a delete or a restore of it would be refused: neither could be undone. Fix that on disk first.`;
}

/** Mark `button` as an action the service would refuse (`reason`, from unkeptReason): it
 * stays in its place and focusable, says why (its description), and sends nothing. */
export function markRefused(button, reason) {
  if (!reason) return button;
  button.setAttribute("aria-disabled", "true");
  button.title = reason;
  button.classList.add("refused");
  return button;
}

/** The error toast of a refused change of `file` (`doing`: "delete", "restore"), with the
 * service's detail whole; a 503 or a 409 says why nothing changed (the history could not keep
 * the file, V-1; 409 when no retry changes that): long, so it stays 20 s rather than 8. */
export function refusalToast(doing, file, error) {
  toast(`Could not ${doing} ${file}: ${error.detail}`, {
    error: true,
    timeout: error.status === 503 || error.status === 409 ? 10000 : undefined,
  });
}

/** "User memory" / "Workspace shop-api" — how the history views name a scope. */
export function scopeText(scope) {
  return scope.kind === "user" ? "User memory" : `Workspace ${showHidden(scope.title)}`;
}

/** A time in milliseconds as the API's `since` takes it: `2026-11-29T22:05:19Z`. */
export function apiTime(ms) {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** An ISO time for display with the time of day ("2 Dec 2026, 14:05"); the raw text when it
 * cannot be read. */
export function formatWhen(value) {
  const date = new Date(value);
  if (!value || Number.isNaN(date.getTime())) return String(value ?? "");
  return date.toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

const HARNESSES = { "claude-code": "Claude Code", codex: "Codex", gemini: "Gemini CLI" };

/** A Session as the page names it: "Claude Code Session 1a2b3c4d". */
function sessionName(author) {
  const harness = author.harness ? (HARNESSES[author.harness] ?? author.harness) : "A";
  const id = author.sessionId ? ` ${author.sessionId.slice(0, 8)}` : "";
  return `${harness} Session${id}`;
}

/** Who made a version (V-1's Author), in a few words: "Claude Code Session 1a2b3c4d (Write)",
 * "Restored by tester", "Checkpoint by local". */
export function authorText(author) {
  const who = author.principal ?? "someone";
  switch (author.source) {
    case "write":
      return `${sessionName(author)}${author.tool ? ` (${author.tool})` : ""}`;
    case "session-start":
      return `Found when ${sessionName(author)} started`;
    case "checkpoint":
      return `Checkpoint by ${who}`;
    case "found":
      return `Found on disk before a change by ${who}`;
    case "delete":
      return `Deleted by ${who}`;
    case "restore":
      return `Restored by ${who}`;
    case "import":
      return `Imported by ${who}`;
    case "squash":
      return "Older history, joined by retention";
    default:
      return who;
  }
}

/** How a version changed a file, as a badge's words and class. */
export const CHANGE_LABELS = {
  added: ["Added", "badge-ok"],
  modified: ["Changed", "badge-accent"],
  deleted: ["Deleted", "badge-danger"],
  renamed: ["Renamed", "badge-accent"],
};

/**
 * Bring `file` of `scope` back as `version` held it, with its index lines of then (POST
 * …/restore), then read the scope's group, its overview entry and the totals again. Resolves
 * the RestoreResult, or null after telling the user why it failed (a toast with its `detail`).
 */
export async function restoreFile(tab, scope, file, version) {
  const { project, agent } = tab.view;
  let result;
  try {
    result = await api.post(versionPaths.restore(project, agent, scope.key, file), { version });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    refusalToast("restore", file, error);
    return null;
  }
  const lines = result.indexLinesAdded.length;
  if (result.indexProblem) {
    // the file is back, its index line is not: say so, and what to add by hand (none known
    // when the index was a link to no memory file: the problem says so)
    const byHand = result.indexLinesNotAdded;
    toast(
      `Restored ${file}, but not its index line: ${result.indexProblem}.` +
        (byHand.length ? ` Add by hand: ${byHand.join(" ")}` : ""),
      { error: true },
    );
  } else if (result.unrecorded) {
    // restored on disk, but no version records it yet: never "nothing to restore" (Q-2b)
    toast(
      `Restored ${file}, but its history could not record it yet: ${result.unrecorded}. ` +
        "The next change recorded in this scope takes it.",
      { error: true },
    );
  } else {
    toast(
      result.version
        ? `Restored ${file}${lines ? ` and ${plural(lines, "index line", "index lines")}` : ""}.`
        : file === "MEMORY.md"
          ? "MEMORY.md already holds every line of that version: nothing to restore."
          : `${file} already holds that version: nothing to restore.`,
    );
  }
  await Promise.all([tab.groups.get(scope.key)?.reload(), tab.refreshScope(scope.key)]);
  return result;
}

/**
 * Open `viewer` (if closed) on a history view: `title`, `sub`, empty meta, notes and foot, a
 * loading line in the body; `where` is {href, onClose}. Returns the view's ticket: an answer
 * is still wanted while `isCurrent(viewer, ticket)`.
 */
export function beginView(viewer, title, sub, where) {
  delete viewer.dialog.dataset.file;
  viewer.title.textContent = showHidden(title);
  viewer.title.title = showHidden(title);
  viewer.sub.textContent = sub == null ? "" : showHidden(sub);
  replace(viewer.meta);
  replace(viewer.foot);
  replace(viewer.notes);
  replace(viewer.body, h("p", { class: "state state-loading", role: "status" }, "Loading…"));
  viewer.show(where);
  viewer.scroller.scrollTop = 0;
  return ++viewer.request;
}

/** Whether `viewer` still shows the view of `ticket` (no other view opened since). */
export function isCurrent(viewer, ticket) {
  return viewer.request === ticket && viewer.dialog.open;
}
