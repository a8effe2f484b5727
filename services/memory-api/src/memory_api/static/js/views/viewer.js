// W-3 View: a memory's body (frontmatter stripped by the service) rendered safely, in a right
// drawer on desktop and a bottom sheet on narrow screens (≤ 640px) with half and full snap
// points: drag the handle up to full, down to half or closed; the handle is also a button
// (Enter toggles half/full, ArrowUp/ArrowDown move between snap points, Escape closes).
// The same panel shows a scope's MEMORY.md with the lines the injection keeps and drops, and a
// scope's or a file's lint findings with "Fix this memory" (W-6). Likely credentials arrive
// masked from the service; "Reveal" asks for the text as written, explicitly (I-8, W-6). A
// memory's and an index's History button opens their versions here too (V-2, history.js).

import { ApiError, api, paths, scopeListing } from "../api.js";
import { openModal } from "../dialogs.js";
import { errorBox, formatDate, formatSize, h, icon, plural, replace, withBusy } from "../dom.js";
import { byFile, codeLabel, fileFindings, fixableProblems } from "../findings.js";
import { hiddenTextNodes, showHidden } from "../hidden-text.js";
import { renderMarkdown } from "../markdown.js";
import { markRefused, unkeptReason } from "./versions.js";

const NARROW = window.matchMedia("(max-width: 640px)");
const SNAPS = ["closed", "half", "full"];
const DRAG_THRESHOLD = 40;

/** The foot's History button of a memory or an index (V-2, js/views/file-history.js). */
function historyButton(onclick) {
  return h(
    "button",
    { type: "button", class: "btn", onclick },
    icon("history"),
    h("span", { class: "label-text" }, "History"),
  );
}

/**
 * What the index panel says when it shows no line (I-3, Q-2b): with `unreadable` (the answer's
 * `manifest.unreadable`, "cannot read it (Permission denied)" or "cannot read its scope folder
 * (…)") that the index is there, or may be, but cannot be read, never that there is none.
 */
function noLinesState(unreadable) {
  const told = "a Session is told so, never that nothing is saved.";
  if (!unreadable) return "This scope has no index yet: the model is told nothing is saved.";
  if (unreadable.startsWith("cannot read its scope folder")) {
    return `The service ${unreadable}, so whether MEMORY.md is there cannot be told; ${told}`;
  }
  return `MEMORY.md is there, but the service ${unreadable}; ${told}`;
}

export class Viewer {
  constructor(tab) {
    this.tab = tab;
    this.request = 0;
    this.title = h("h2", { id: "viewer-title" });
    this.sub = h("p", { class: "sub" });
    this.meta = h("div", { class: "viewer-meta" });
    // The notes (a masked credential, the findings) scroll with the body but stay apart from
    // it, so the memory's own Markdown is all that .viewer-body holds.
    this.notes = h("div", { class: "viewer-notes" });
    this.body = h("div", { class: "viewer-body" });
    this.scroller = h(
      "div",
      { class: "viewer-scroll", tabindex: "0", "aria-label": "Memory body" },
      this.notes,
      this.body,
    );
    this.foot = h("div", { class: "viewer-foot" });
    this.handle = h("button", {
      type: "button",
      class: "viewer-handle",
      "aria-label": "Resize",
      onclick: () => {
        if (this.dragged) return;
        this.snap(this.dialog.dataset.snap === "full" ? "half" : "full");
      },
      onkeydown: (event) => this.onHandleKey(event),
      onpointerdown: (event) => this.onPointerDown(event),
    });
    this.dialog = h(
      "dialog",
      {
        class: "viewer",
        "aria-labelledby": "viewer-title",
        onclick: (event) => {
          if (event.target === this.dialog) this.close();
        },
      },
      this.handle,
      h(
        "div",
        { class: "viewer-head" },
        h("div", { class: "titles" }, this.title, this.sub, this.meta),
        h(
          "button",
          {
            type: "button",
            class: "btn btn-ghost btn-icon viewer-close",
            "aria-label": "Close",
            onclick: () => this.close(),
          },
          icon("close"),
        ),
      ),
      this.scroller,
      this.foot,
    );
    this.applyMode = this.applyMode.bind(this);
  }

  applyMode() {
    const sheet = NARROW.matches;
    this.dialog.dataset.mode = sheet ? "sheet" : "drawer";
    if (!sheet) delete this.dialog.dataset.snap;
    else if (!this.dialog.dataset.snap) this.dialog.dataset.snap = "half";
    this.updateHandleLabel();
  }

  /** Open the panel (if closed) for the address `href`; `onClose` runs when it closes. */
  show({ href, onClose } = {}) {
    this.dialog.dataset.href = href ?? "";
    this.onClose = onClose;
    if (!this.dialog.open) {
      delete this.dialog.dataset.snap;
      this.applyMode();
      // Follow the width only while open, so a viewer left behind holds no listener.
      NARROW.addEventListener("change", this.applyMode);
      openModal(this.dialog, {
        keep: true,
        onClose: () => {
          NARROW.removeEventListener("change", this.applyMode);
          const done = this.onClose;
          this.onClose = null;
          done?.();
        },
      });
      this.dialog.querySelector(".viewer-close").focus();
    }
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  snap(point) {
    if (point === "closed") {
      this.close();
      return;
    }
    this.dialog.dataset.snap = point;
    this.updateHandleLabel();
  }

  updateHandleLabel() {
    const full = this.dialog.dataset.snap === "full";
    this.handle.setAttribute(
      "aria-label",
      full
        ? "Sheet at full height. Press to shrink to half; Arrow Down to shrink or close."
        : "Sheet at half height. Press to expand to full; Arrow Up to expand, Arrow Down to close.",
    );
  }

  onHandleKey(event) {
    const index = SNAPS.indexOf(this.dialog.dataset.snap ?? "half");
    if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault();
      const next = event.key === "ArrowUp" ? Math.min(2, index + 1) : Math.max(0, index - 1);
      this.snap(SNAPS[next]);
    }
  }

  onPointerDown(event) {
    if (!NARROW.matches || event.button !== 0) return;
    const startY = event.clientY;
    const startHeight = this.dialog.getBoundingClientRect().height;
    const startIndex = SNAPS.indexOf(this.dialog.dataset.snap ?? "half");
    this.dragged = false;
    this.handle.setPointerCapture(event.pointerId);
    this.dialog.classList.add("dragging");
    const move = (moveEvent) => {
      const delta = startY - moveEvent.clientY;
      if (Math.abs(delta) > 4) this.dragged = true;
      const height = Math.max(80, Math.min(window.innerHeight - 12, startHeight + delta));
      this.dialog.style.height = `${height}px`;
    };
    const up = (upEvent) => {
      this.handle.removeEventListener("pointermove", move);
      this.handle.removeEventListener("pointerup", up);
      this.handle.removeEventListener("pointercancel", up);
      this.dialog.classList.remove("dragging");
      const height = this.dialog.getBoundingClientRect().height;
      this.dialog.style.height = "";
      const delta = startY - upEvent.clientY;
      let target = startIndex;
      if (height < window.innerHeight * 0.2) target = 0;
      else if (delta > DRAG_THRESHOLD) target = Math.min(2, startIndex + 1);
      else if (delta < -DRAG_THRESHOLD) target = Math.max(0, startIndex - 1);
      if (this.dragged) this.snap(SNAPS[target]);
      // The click that follows a drag must not toggle again.
      setTimeout(() => {
        this.dragged = false;
      }, 0);
    };
    this.handle.addEventListener("pointermove", move);
    this.handle.addEventListener("pointerup", up);
    this.handle.addEventListener("pointercancel", up);
  }

  /**
   * Open the panel with `title` and `sub` while `path` loads (a path to GET, or a function
   * resolving the body); resolve its body, or null when it failed (the error and a Retry
   * calling `retry` are shown) or another open() came since.
   */
  async fetch(title, sub, path, failure, retry, where) {
    this.title.textContent = showHidden(title);
    this.title.title = showHidden(title);
    this.sub.textContent = showHidden(sub ?? "");
    replace(this.meta);
    replace(this.foot);
    replace(this.notes);
    replace(this.body, h("p", { class: "state state-loading", role: "status" }, "Loading…"));
    this.show(where);
    const ticket = ++this.request;
    try {
      // a path to GET, or a function that asks for what it needs (a listing's every page)
      const data = await (typeof path === "function" ? path() : api.get(path));
      return ticket === this.request ? data : null;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (ticket === this.request) {
        // A file or scope that is gone will not come back on Retry: say so, offer none.
        const gone = error.status === 404;
        const text = gone
          ? `${failure}: it is not there any more. It was deleted or renamed since this page read it (an agent may have done it); Refresh on the Memory tab shows what is there now.`
          : `${failure}: ${error.detail}`;
        replace(this.body, errorBox(text, gone ? null : retry));
      }
      return null;
    }
  }

  /**
   * Show one topic file (A-5 GET …/files/{file}); `topic` needs at least `file`. `where` is
   * {href, onClose} (see show); `reveal` asks for likely credentials unmasked (W-6).
   */
  async open(scope, topic, where, { reveal = false } = {}) {
    const { project, agent } = this.tab.view;
    const path = paths.file(project, agent, scope.key, topic.file) + (reveal ? "?reveal=true" : "");
    const data = await this.fetch(
      topic.name ?? topic.file,
      topic.description,
      path,
      `Could not open ${topic.file}`,
      () => this.open(scope, topic, where, { reveal }),
      where,
    );
    if (!data) return;
    this.dialog.dataset.file = data.file;
    this.title.textContent = showHidden(data.name);
    this.title.title = showHidden(data.name);
    this.sub.textContent = showHidden(data.description ?? "No description");
    const date = data.updatedAt ?? data.mtime;
    replace(
      this.meta,
      h("code", { text: `${scope.key}/${data.file}` }),
      date ? h("time", { datetime: date, title: date }, `Updated ${formatDate(date)}`) : null,
      h("span", { title: `${data.size.toLocaleString()} bytes` }, formatSize(data.size)),
    );
    const open = (file) => this.tab.go("view", scope, file);
    // [[name]] opens the file the service resolves it to, as its lint does (T-5b)
    const linkFiles = data.linkFiles ?? {};
    const wikiFile = (name) => {
      const link = name.split("#")[0].trim();
      return Object.hasOwn(linkFiles, link) ? linkFiles[link] : `${link}.md`;
    };
    // a missing link says what the lint says of it (T-5b): a walk stopped short is no absence
    const said = new Map();
    for (const finding of data.findings) {
      const named = /^\[\[(.+?)\]\] /.exec(finding.message);
      if (finding.code === "dangling-wiki-link" && named) said.set(named[1], finding.message);
    }
    const missingTitle = (name) => said.get(name.split("#")[0].trim()) ?? null;
    const body = data.body.trim()
      ? renderMarkdown(data.body, { onWikiLink: open, wikiFile, missingTitle })
      : h("p", { class: "state", text: "This memory has no body." });
    replace(
      this.notes,
      this.secretNote(scope, topic, where, data, reveal),
      this.fileFindingsBlock(scope, data),
    );
    replace(this.body, body);
    this.scroller.scrollTop = 0;
    this.renderFileFoot(scope, { ...topic, ...data });
  }

  /** The warning over a memory holding likely credentials, with Reveal / Mask again (W-6). */
  secretNote(scope, topic, where, data, revealed) {
    const secrets = data.findings.filter((f) => f.code === "secret");
    if (!secrets.length) return null;
    const lines = secrets.map((f) => (f.line ? `line ${f.line}` : "the frontmatter")).join(", ");
    const toggle = h(
      "button",
      {
        type: "button",
        class: "btn btn-sm",
        id: "reveal-secrets",
        onclick: async () => {
          await withBusy(toggle, revealed ? "Masking…" : "Revealing…", () =>
            this.open(scope, topic, where, { reveal: !revealed }),
          );
          this.dialog.querySelector("#reveal-secrets")?.focus();
        },
      },
      h("span", { class: "label-text" }, revealed ? "Mask again" : "Reveal"),
    );
    const text = revealed
      ? `Shown as written: ${codeLabel("secret", secrets.length)} (${lines}). Anyone who sees this screen sees it. Remove it from the memory and rotate it.`
      : `${codeLabel("secret", secrets.length)[0].toUpperCase()}${codeLabel("secret", secrets.length).slice(1)} (${lines}) masked below. Remove it from the memory and rotate it.`;
    return h(
      "div",
      { class: "alert alert-error secret-note", role: "note" },
      icon("lock"),
      h("span", { class: "alert-text", text }),
      toggle,
    );
  }

  /** The file's findings and problems with "Fix this memory", or null when it has none. */
  fileFindingsBlock(scope, data) {
    if (!data.findings.length && !data.problems?.length) return null;
    return fileFindings(data.file, data.findings, data.problems ?? [], () =>
      this.tab.go("fix", scope, data.file),
    );
  }

  renderFileFoot(scope, summary) {
    const deleteButton = h(
      "button",
      {
        type: "button",
        class: "btn btn-danger",
        onclick: async () => {
          if (await this.tab.deleteTopic(scope, summary, deleteButton)) this.close();
        },
      },
      icon("trash"),
      h("span", { class: "label-text" }, "Delete"),
    );
    markRefused(deleteButton, unkeptReason(summary.file, summary.problems));
    replace(
      this.foot,
      h(
        "button",
        {
          type: "button",
          class: "btn",
          onclick: () => this.tab.go("edit", scope, summary.file),
        },
        icon("edit"),
        h("span", { class: "label-text" }, "Edit in a chat"),
      ),
      historyButton(() => this.tab.go("history", scope, summary.file)),
      deleteButton,
    );
  }

  /** Show the lint findings of a scope, or of its `file` (null: all), each file with a fix
   * unless all it has is the listing's cut of its name or description (`listedCut`). */
  async openFindings(scope, file, where) {
    const { project, agent } = this.tab.view;
    delete this.dialog.dataset.file;
    const label = scope.kind === "user" ? "user memory" : `Workspace ${showHidden(scope.title)}`;
    const listing = await this.fetch(
      file ? `Findings · ${file}` : `Findings · ${label}`,
      scope.workspacePath,
      () => scopeListing(project, agent, scope.key),
      "Could not read the findings",
      () => this.openFindings(scope, file, where),
      where,
    );
    if (!listing) return;
    const problems = new Map(listing.files.map((topic) => [topic.file, topic.problems ?? []]));
    // A name or description the listing cut is said, but is nothing to fix (the file is whole).
    const fixable = new Map(listing.files.map((topic) => [topic.file, fixableProblems(topic)]));
    const toFix = (name, list) => list.length > 0 || (fixable.get(name) ?? []).length > 0;
    const groups = byFile(listing.findings.filter((f) => !file || f.file === file));
    for (const [name, list] of problems) {
      if (list.length && (!file || name === file) && !groups.has(name)) groups.set(name, []);
    }
    const total = [...groups.values()].reduce((sum, list) => sum + list.length, 0);
    replace(this.meta, h("span", {}, plural(total, "finding", "findings")));
    replace(
      this.body,
      groups.size
        ? [...groups].map(([name, list]) =>
            fileFindings(
              name,
              list,
              problems.get(name) ?? [],
              toFix(name, list) ? () => this.tab.go("fix", scope, name) : null,
            ),
          )
        : h("p", { class: "state", text: "Nothing to report: lint found no problem here." }),
    );
    this.scroller.scrollTop = 0;
  }

  /** Show a scope's MEMORY.md with kept/dropped lines and findings (A-5 …/index). */
  async openIndex(scope, where) {
    const label = scope.kind === "user" ? "User memory" : showHidden(scope.title);
    delete this.dialog.dataset.file;
    const { project, agent } = this.tab.view;
    const view = await this.fetch(
      `MEMORY.md · ${label}`,
      scope.workspacePath,
      paths.index(project, agent, scope.key),
      "Could not read the index",
      () => this.openIndex(scope, where),
      where,
    );
    if (!view) return;
    const m = view.manifest;
    replace(
      this.meta,
      h("span", {}, `${plural(m.linesKept, "line", "lines")} of ${m.linesTotal} injected`),
      m.capFired !== "none"
        ? h("span", { class: "badge badge-warn" }, `${m.capFired} cap reached`)
        : null,
    );
    const findings = view.findings?.length
      ? h(
          "ul",
          { class: "problems", "aria-label": "Lint findings" },
          view.findings.map((f) =>
            h(
              "li",
              { class: `finding sev-${f.severity}`, dataset: { severity: f.severity } },
              h("span", { class: "sev", text: f.severity }),
              h("span", {
                text: ` ${f.code}${f.file ? ` · ${f.file}` : ""}${f.line ? ` · line ${f.line}` : ""}: ${f.message}`,
              }),
            ),
          ),
        )
      : null;
    const lines =
      view.exists && view.lines.length
        ? h(
            "ol",
            { class: "index-lines", "aria-label": "Index lines" },
            view.lines.map((line) =>
              h(
                "li",
                {
                  class: line.kept ? "kept" : "dropped",
                  title: line.kept ? "" : "Not injected (past a cap)",
                },
                h("span", { class: "num", text: String(line.number) }),
                h("span", { class: "text" }, hiddenTextNodes(line.text || " ")),
              ),
            ),
          )
        : h("p", { class: "state", text: noLinesState(view.manifest?.unreadable) });
    replace(this.body, findings, lines);
    this.scroller.scrollTop = 0;
    replace(this.foot, historyButton(() => this.tab.go("history", scope, "MEMORY.md")));
  }
}
