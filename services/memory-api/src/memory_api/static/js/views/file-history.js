// V-2 on the page: a memory's History in the drawer / bottom sheet (…/memory/history/{key}/{file},
// a topic file or MEMORY.md). Its versions, newest first, each with how it changed the file, who
// and when; older ones page in with "Show older versions". A version opens in place: what it
// changed (the diff against the version before), how it differs from the current version, its
// text, and "Restore this version" after a confirm. A file on disk that differs from its newest
// version says so and offers to record it (a checkpoint) — unless the history cannot keep it as
// it is (the service cannot read it, or it is over its read cap: Q-2b, the history's `unrecordable`):
// then the page says why,
// and offers neither Record nor Restore, which the service would refuse.
// The history follows the file across renames (the service's `file`, `renamedFrom`, `renamedTo`):
// the rename is one version, "Renamed from a.md" (or "to b.md"), whose undo restores the old name
// as it was before it (`restoreVersion`), as the scope's What changed tells a rename; a version
// from before a rename names the file as it was called then, and its text, diff and restore are
// of that name.

import { ApiError, api } from "../api.js";
import { confirmDialog, toast } from "../dialogs.js";
import { errorBox, formatSize, h, keepFocus, plural, replace, withBusy } from "../dom.js";
import { hiddenTextNodes } from "../hidden-text.js";
import { renderDiff } from "./diff.js";
import {
  CHANGE_LABELS,
  authorText,
  beginView,
  formatWhen,
  isCurrent,
  restoreFile,
  scopeText,
  unkeptSentence,
  versionPaths,
} from "./versions.js";

/** The views of one version: what it changed, against the current version, its text. */
const MODES = [
  ["change", "What it changed"],
  ["current", "Against now"],
  ["text", "Text"],
];

export class FileHistoryView {
  constructor(tab) {
    this.tab = tab;
    this.viewer = tab.viewer;
  }

  /** Show the history of `file` in `scope`; `where` is the viewer's {href, onClose}. */
  async open(scope, file, where) {
    const { project, agent } = this.tab.view;
    const viewer = this.viewer;
    const ticket = beginView(viewer, `History · ${file}`, scopeText(scope), where);
    let data;
    try {
      data = await api.get(versionPaths.history(project, agent, scope.key, file));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (!isCurrent(viewer, ticket)) return;
      replace(
        viewer.body,
        errorBox(`Could not read the history of ${file}: ${error.detail}`, () =>
          this.open(scope, file, where),
        ),
      );
      return;
    }
    if (!isCurrent(viewer, ticket)) return;
    // the service says why it cannot keep the file as it is on disk now (Q-2b), if it cannot
    const unkept = data.exists && data.unrecorded ? unkeptSentence(file, data.unrecordable) : null;
    Object.assign(this, { ticket, scope, file, where, history: data, versions: [], unkept });
    this.count = h("span", {});
    replace(
      viewer.meta,
      h("code", { text: `${scope.key}/${file}` }),
      this.count,
      data.exists ? null : h("span", { class: "badge badge-warn" }, "Not in the memory now"),
    );
    replace(viewer.notes, this.unrecordedNote());
    this.list = h("ol", { class: "versions", "aria-label": `Versions of ${file}, newest first` });
    this.more = h("div", { class: "versions-more" });
    replace(
      viewer.body,
      data.versions.length
        ? [this.list, this.more]
        : h("p", {
            class: "state",
            text: "No version of this file is recorded yet. Versions are recorded when an agent writes it, at each Session start, and by every change made here.",
          }),
    );
    this.addVersions(data);
    this.renderFoot();
  }

  /** Whether the answer of a request made for the history shown is still wanted. */
  current() {
    return isCurrent(this.viewer, this.ticket);
  }

  /** The note over a file whose disk text no version holds, with "Record it now". */
  unrecordedNote() {
    if (!this.history.unrecorded || !this.history.exists) return null;
    if (this.unkept) {
      return h(
        "div",
        { class: "alert alert-warn unrecorded-note unkept-note", role: "note" },
        h("span", { class: "alert-text", text: this.unkept }),
      );
    }
    const button = h(
      "button",
      { type: "button", class: "btn btn-sm", id: "record-now", onclick: () => this.record(button) },
      h("span", { class: "label-text" }, "Record it now"),
    );
    // the last record of the scope failed (a full disk, a read-only one, no permission, V-1):
    // said with the service's reason, never as a change nobody has recorded yet
    const failed = this.history.recordFailed;
    if (failed) {
      return h(
        "div",
        { class: "alert alert-warn unrecorded-note record-failed-note", role: "note" },
        h("span", {
          class: "alert-text",
          text: `The file on disk has changes no version holds: the history could not record them (${failed}). Record them again once that is fixed.`,
        }),
        button,
      );
    }
    return h(
      "div",
      { class: "alert alert-info unrecorded-note", role: "note" },
      h("span", {
        class: "alert-text",
        text: this.history.versions.length
          ? "The file on disk has changes no version holds yet (a shell or an editor wrote it). Record them to keep them in the history."
          : "Record the file as it is now to start its history.",
      }),
      button,
    );
  }

  /** A checkpoint of the scope (POST …/checkpoint), then the history again. */
  async record(button) {
    const { project, agent } = this.tab.view;
    try {
      await withBusy(button, "Recording…", () =>
        api.post(versionPaths.checkpoint(project, agent, this.scope.key), {}),
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      toast(`Could not record the changes: ${error.detail}`, { error: true });
      return;
    }
    await this.open(this.scope, this.file, this.where);
    if (this.history.unrecorded) {
      // the checkpoint took the scope, but not this file (it changed again, or became unkept)
      toast(this.unkept ?? `${this.file} changed again while it was recorded: record it again.`, {
        error: true,
        timeout: 10000,
      });
    } else {
      toast("Recorded the changes on disk as a version.");
    }
    keepFocus(this.list?.querySelector(".version-toggle"));
  }

  /** Append a page of versions and the "Show older versions" button when more follow. */
  addVersions(page) {
    const first = this.versions.length === 0;
    page.versions.forEach((version, index) => {
      const newest = first && index === 0;
      // The newest version is what the file holds now unless the disk changed since.
      const holdsNow =
        newest && this.history.exists && !this.history.unrecorded && version.change !== "deleted";
      this.versions.push(version);
      this.list.append(this.item(version, { newest, holdsNow }));
    });
    const shown = this.versions.length;
    this.count.textContent = page.more
      ? `${plural(shown, "version", "versions")} shown, older ones follow`
      : plural(shown, "version", "versions");
    if (!page.more) {
      replace(this.more);
      return;
    }
    const button = h(
      "button",
      {
        type: "button",
        class: "btn btn-sm",
        id: "older-versions",
        onclick: () => this.older(button),
      },
      h("span", { class: "label-text" }, "Show older versions"),
    );
    replace(this.more, button);
  }

  /** Fetch the next page of older versions (`before` = the oldest shown). */
  async older(button) {
    const { project, agent } = this.tab.view;
    const oldest = this.versions[this.versions.length - 1].version;
    const path = versionPaths.history(project, agent, this.scope.key, this.file, oldest);
    let page;
    try {
      page = await withBusy(button, "Loading…", () => api.get(path));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      replace(
        this.more,
        errorBox(`Could not read older versions: ${error.detail}`, () => this.older(button)),
      );
      return;
    }
    if (!this.current()) return;
    const before = this.list.children.length;
    this.addVersions(page);
    // The focus goes on to the first older version, never to the page (W-6).
    keepFocus(this.list.children[before]?.querySelector(".version-toggle"));
  }

  /** One version of the list: a toggle that opens it in place, and its detail. `newest`: the
   * newest version; `holdsNow`: the file on disk is this version. */
  item(version, { newest, holdsNow }) {
    const id = `version-${version.version}`;
    const [label, badgeClass] = CHANGE_LABELS[version.change] ?? [version.change, ""];
    const detail = h("div", { class: "version-detail", id: `${id}-detail`, hidden: true });
    const toggle = h(
      "button",
      {
        type: "button",
        class: "version-toggle",
        id: `${id}-toggle`,
        "aria-expanded": "false",
        "aria-controls": `${id}-detail`,
        onclick: () => this.setOpen(element, detail.hidden),
      },
      h(
        "span",
        { class: "version-line" },
        h("span", { class: `badge ${badgeClass}`, text: label }),
        h(
          "time",
          { datetime: version.author.time, title: version.author.time },
          formatWhen(version.author.time),
        ),
        holdsNow ? h("span", { class: "badge badge-ok" }, "Current") : null,
      ),
      h("span", { class: "version-who", text: authorText(version.author) }),
      h(
        "span",
        { class: "version-summary" },
        version.summary,
        version.size === null ? "" : ` · ${formatSize(version.size)}`,
      ),
      this.nameNote(version),
    );
    const element = h(
      "li",
      { class: "version", dataset: { version: version.version, change: version.change } },
      toggle,
      detail,
    );
    element.versionInfo = {
      version,
      newest,
      holdsNow,
      detail,
      toggle,
      mode: "change", // which view of the version is shown (MODES)
      reveal: false, // likely credentials shown as written (I-8)
    };
    return element;
  }

  /** The file's name at `version` when it differs from the one shown, or the rename it made. */
  nameNote(version) {
    let text = null;
    if (version.renamedFrom) text = `Renamed from ${version.renamedFrom}`;
    else if (version.renamedTo) text = `Renamed to ${version.renamedTo}`;
    else if (version.file && version.file !== this.file) text = `Then named ${version.file}`;
    return text ? h("span", { class: "version-renamed", text }) : null;
  }

  /** The name the file had at `version` (the service's `file`; the one shown when absent). */
  nameAt(version) {
    return version.file ?? this.file;
  }

  /** Open (or close) one version in place; one is open at a time. */
  setOpen(element, open) {
    for (const other of this.list.querySelectorAll(".version-toggle[aria-expanded='true']")) {
      const item = other.closest(".version");
      if (item !== element) this.setOpen(item, false);
    }
    const info = element.versionInfo;
    info.toggle.setAttribute("aria-expanded", String(open));
    info.detail.hidden = !open;
    element.classList.toggle("open", open);
    if (open) this.renderDetail(element);
  }

  /** The detail of an open version: the mode switch, what it shows, and Restore. */
  renderDetail(element) {
    const info = element.versionInfo;
    const { version, newest, holdsNow } = info;
    const renamedAway = Boolean(version.renamedTo);
    const deleted = version.change === "deleted" || renamedAway;
    const elsewhere = this.nameAt(version) !== this.file;
    const modes = MODES.filter(([mode]) => {
      if (mode === "text") return !deleted;
      if (mode === "current") return !newest && !deleted && !elsewhere;
      return true;
    });
    if (!modes.some(([mode]) => mode === info.mode)) info.mode = "change";
    const content = h("div", { class: "version-content" });
    const switcher = h(
      "div",
      { class: "mode-switch", role: "group", "aria-label": "Show" },
      modes.map(([mode, label]) =>
        h(
          "button",
          {
            type: "button",
            class: "btn btn-sm",
            dataset: { mode },
            "aria-pressed": String(mode === info.mode),
            onclick: (event) => {
              info.mode = mode;
              for (const button of switcher.children) {
                button.setAttribute("aria-pressed", String(button === event.currentTarget));
              }
              this.showMode(info, content);
            },
          },
          mode === "current" && this.history.unrecorded && this.history.exists
            ? "Against the newest version"
            : label,
        ),
      ),
    );
    let actions;
    if (version.change === "renamed" && version.restoreVersion) {
      const undo = h(
        "button",
        {
          type: "button",
          class: "btn btn-primary restore-btn undo-rename-btn",
          onclick: () => this.undoRename(version, undo),
        },
        h("span", { class: "label-text" }, "Undo this rename"),
      );
      actions = h("div", { class: "version-actions" }, undo);
    } else if (!deleted && !holdsNow && this.unkept && !elsewhere) {
      // a restore would replace a file the history could not keep: the service refuses it
      actions = h("p", { class: "version-note unkept-restore", text: this.unkept });
    } else if (!deleted && !holdsNow) {
      const restore = h(
        "button",
        {
          type: "button",
          class: "btn btn-primary restore-btn",
          onclick: () => this.restore(version, restore),
        },
        h("span", { class: "label-text" }, "Restore this version"),
      );
      actions = h("div", { class: "version-actions" }, restore);
    } else {
      actions = h("p", {
        class: "version-note",
        text: deleted
          ? "This version deleted the file. Restore the version below it to bring the file back."
          : "This is what the file holds now.",
      });
    }
    replace(info.detail, modes.length > 1 ? switcher : null, content, actions);
    this.showMode(info, content);
  }

  /** Load and show what the open version's mode asks for in `content`. */
  async showMode(info, content) {
    const { project, agent } = this.tab.view;
    const { version } = info.version;
    const key = this.scope.key;
    const mode = info.mode;
    content.setAttribute("aria-busy", "true");
    replace(content, h("p", { class: "state state-loading", role: "status" }, "Loading…"));
    const { reveal } = info;
    const path =
      mode === "text"
        ? versionPaths.version(project, agent, key, this.nameAt(info.version), version, { reveal })
        : versionPaths.diff(project, agent, key, this.nameAt(info.version), {
            [mode === "change" ? "to" : "from"]: version,
            reveal,
          });
    try {
      const data = await api.get(path);
      if (info.mode !== mode || !content.isConnected) return;
      replace(content, this.modeBody(mode, data, this.secretNote(data, info, content)));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (info.mode !== mode || !content.isConnected) return;
      replace(
        content,
        errorBox(`Could not read this version: ${error.detail}`, () =>
          this.showMode(info, content),
        ),
      );
    } finally {
      if (info.mode === mode) content.removeAttribute("aria-busy");
    }
  }

  /**
   * The note over a version holding likely credentials: masked (I-8) with Reveal, or shown as
   * written with Mask again (as the viewer does, W-6); null when there are none.
   */
  secretNote(data, info, content) {
    if (!data.masked && !info.reveal) return null;
    const toggle = h(
      "button",
      {
        type: "button",
        class: "btn btn-sm reveal-btn",
        onclick: async () => {
          info.reveal = !info.reveal;
          await this.showMode(info, content);
          content.querySelector(".reveal-btn")?.focus();
        },
      },
      info.reveal ? "Mask again" : "Reveal",
    );
    const text = info.reveal
      ? "Shown as written: anyone who sees this screen sees any credential in it."
      : "Likely credentials are masked here. A restore brings back the text as written.";
    return h(
      "div",
      { class: "alert alert-warn secret-note", role: "note" },
      h("span", { class: "alert-text", text }),
      toggle,
    );
  }

  /** The body of a mode: a diff, or the text as the version held it; `masked` its note. */
  modeBody(mode, data, masked) {
    if (mode === "text") {
      const label = `${this.file} at this version`;
      return [
        masked,
        h(
          "pre",
          { class: "version-text", tabindex: "0", "aria-label": label },
          hiddenTextNodes(data.text, { textStart: true }),
        ),
      ];
    }
    const empty =
      mode === "current"
        ? "The file is the same now as at this version."
        : "This version changed nothing in the text of this file.";
    return [masked, renderDiff(data, { empty })];
  }

  /** Restore `version` after a confirm (V-2), then show the history again. A version from
   * before a rename is restored under the name it had then. */
  async restore(version, button) {
    const file = this.nameAt(version);
    const ok = await confirmDialog({
      title: `Restore ${file} as of ${formatWhen(version.author.time)}?`,
      message: `${file} gets the text it had then, and its lines in MEMORY.md of then come back. What it holds now stays in its history, so this can be undone too.`,
      confirmLabel: "Restore",
    });
    if (!ok) return;
    const result = await withBusy(button, "Restoring…", () =>
      restoreFile(this.tab, this.scope, file, version.version),
    );
    if (!result || !this.current()) return;
    await this.open(this.scope, this.file, this.where);
    keepFocus(this.list?.querySelector(".version-toggle"));
  }

  /** Undo a rename after a confirm (V-2): the old name restored from the version before it,
   * its text and index line back, as the scope's What changed undoes one; the new file stays. */
  async undoRename(version, button) {
    const old = version.renamedFrom ?? this.nameAt(version);
    const now = version.renamedTo ?? this.nameAt(version);
    const ok = await confirmDialog({
      title: `Undo the rename of ${old} to ${now}?`,
      message: `${old} gets back the text it had before the rename, and its lines in MEMORY.md of then come back. ${now} stays as it is (delete it if it is not wanted), and both stay in the history.`,
      confirmLabel: "Undo the rename",
    });
    if (!ok) return;
    const result = await withBusy(button, "Restoring…", () =>
      restoreFile(this.tab, this.scope, old, version.restoreVersion),
    );
    if (!result || !this.current()) return;
    await this.open(this.scope, this.file, this.where);
    keepFocus(this.list?.querySelector(".version-toggle"));
  }

  /** The foot: open the memory (or the index) as it is now. */
  renderFoot() {
    const isIndex = this.file === "MEMORY.md";
    const open = this.history.exists
      ? h(
          "button",
          {
            type: "button",
            class: "btn",
            onclick: () =>
              isIndex
                ? this.tab.go("index", this.scope)
                : this.tab.go("view", this.scope, this.file),
          },
          isIndex ? "Show the index" : "Show the memory",
        )
      : null;
    replace(
      this.viewer.foot,
      h(
        "button",
        {
          type: "button",
          class: "btn btn-ghost",
          onclick: () => this.tab.go("changes", this.scope),
        },
        "What changed in this scope",
      ),
      open,
    );
  }
}
