// W-3 View: a memory's body (frontmatter stripped by the service) rendered safely, in a right
// drawer on desktop and a bottom sheet on narrow screens (≤ 640px) with half and full snap
// points: drag the handle up to full, down to half or closed; the handle is also a button
// (Enter toggles half/full, ArrowUp/ArrowDown move between snap points, Escape closes).
// The same panel shows a scope's MEMORY.md with the lines the injection keeps and drops.

import { ApiError, api, paths } from "../api.js";
import { openModal } from "../dialogs.js";
import { errorBox, formatDate, h, icon, plural, replace } from "../dom.js";
import { renderMarkdown } from "../markdown.js";

const NARROW = window.matchMedia("(max-width: 640px)");
const SNAPS = ["closed", "half", "full"];
const DRAG_THRESHOLD = 40;

export class Viewer {
  constructor(tab) {
    this.tab = tab;
    this.request = 0;
    this.title = h("h2", { id: "viewer-title" });
    this.sub = h("p", { class: "sub" });
    this.meta = h("div", { class: "viewer-meta" });
    this.body = h("div", { class: "viewer-body", tabindex: "0", "aria-label": "Memory body" });
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
      this.body,
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

  show() {
    if (!this.dialog.open) {
      delete this.dialog.dataset.snap;
      this.applyMode();
      // Follow the width only while open, so a viewer left behind holds no listener.
      NARROW.addEventListener("change", this.applyMode);
      openModal(this.dialog, {
        keep: true,
        onClose: () => NARROW.removeEventListener("change", this.applyMode),
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
   * Open the panel with `title` and `sub` while `path` loads; resolve its body, or null when it
   * failed (the error and a Retry calling `retry` are shown) or another open() came since.
   */
  async fetch(title, sub, path, failure, retry) {
    this.title.textContent = title;
    this.sub.textContent = sub ?? "";
    replace(this.meta);
    replace(this.foot);
    replace(this.body, h("p", { class: "state state-loading", role: "status" }, "Loading…"));
    this.show();
    const ticket = ++this.request;
    try {
      const data = await api.get(path);
      return ticket === this.request ? data : null;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (ticket === this.request) {
        replace(this.body, errorBox(`${failure}: ${error.detail}`, retry));
      }
      return null;
    }
  }

  /** Show one topic file (A-5 GET …/files/{file}); `topic` needs at least `file`. */
  async open(scope, topic) {
    const { project, agent } = this.tab.view;
    const data = await this.fetch(
      topic.name ?? topic.file,
      topic.description,
      paths.file(project, agent, scope.key, topic.file),
      `Could not open ${topic.file}`,
      () => this.open(scope, topic),
    );
    if (!data) return;
    this.dialog.dataset.file = data.file;
    this.title.textContent = data.name;
    this.sub.textContent = data.description ?? "No description";
    const date = data.updatedAt ?? data.mtime;
    replace(
      this.meta,
      h("code", { text: `${scope.key}/${data.file}` }),
      date ? h("time", { datetime: date, title: date }, `Updated ${formatDate(date)}`) : null,
      h("span", {}, `${Math.max(1, Math.round(data.size / 1024))} KB`),
    );
    const problems = data.problems?.length
      ? h(
          "ul",
          { class: "problems", "aria-label": "Problems" },
          data.problems.map((p) => h("li", { text: p })),
        )
      : null;
    const open = (name) => this.open(scope, { file: `${name}.md` });
    const body = data.body.trim()
      ? renderMarkdown(data.body, { onWikiLink: open })
      : h("p", { class: "state", text: "This memory has no body." });
    replace(this.body, problems, body);
    this.body.scrollTop = 0;
    const summary = { ...topic, ...data };
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
    replace(
      this.foot,
      h(
        "button",
        {
          type: "button",
          class: "btn",
          onclick: () => {
            this.close();
            this.tab.bridge(scope, summary);
          },
        },
        icon("edit"),
        "Edit in a chat",
      ),
      deleteButton,
    );
  }

  /** Show a scope's MEMORY.md with kept/dropped lines and findings (A-5 …/index). */
  async openIndex(scope) {
    const label = scope.kind === "user" ? "User memory" : scope.title;
    delete this.dialog.dataset.file;
    const { project, agent } = this.tab.view;
    const view = await this.fetch(
      `MEMORY.md · ${label}`,
      scope.workspacePath,
      paths.index(project, agent, scope.key),
      "Could not read the index",
      () => this.openIndex(scope),
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
                h("span", { class: "text", text: line.text || " " }),
              ),
            ),
          )
        : h("p", {
            class: "state",
            text: "This scope has no index yet: the model is told nothing is saved.",
          });
    replace(this.body, findings, lines);
    this.body.scrollTop = 0;
  }
}
