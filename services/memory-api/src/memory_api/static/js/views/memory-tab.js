// W-2: the Memory tab, top to bottom — the on/off switch (saves on change, on its own), the
// hint bar with the one-click placeholder insert, the memories grouped by scope, and the two
// memory prompt editors. Deletes (W-3, with Undo: V-2) and the bridge modal (W-4) start here;
// the history views (V-2) open from their addresses through views/history.js. Every overlay
// (a memory, findings, an index, Edit/Add) has its own address and Back closes it; focus never
// drops to the page after an action; a jump bar keeps the prompt editors a few keystrokes away
// however large the scopes (W-6). The groups come a page at a time, newest activity first,
// with a finder that asks the service for groups by name or path (group-pages.js, A-3).

import { agentHref, overlayHref, parseRoute } from "../address.js";
import { ApiError, api, paths } from "../api.js";
import { confirmDialog, toast } from "../dialogs.js";
import { errorBox, h, keepFocus, plural, replace, withBusy } from "../dom.js";
import { fixableProblems, fixRequirement } from "../findings.js";
import { showHidden } from "../hidden-text.js";
import { collapseState } from "../store.js";
import { openBridge } from "./bridge.js";
import { GroupPages } from "./group-pages.js";
import { HISTORY_OVERLAYS, HistoryViews } from "./history.js";
import { PromptEditor } from "./prompt-editor.js";
import { promptWarning } from "./prompt-warnings.js";
import { ScopeGroup } from "./scope-group.js";
import { MemorySearch } from "./search.js";
import { skippedNotice } from "./skipped-entries.js";
import { refusalToast, restoreFile, unkeptReason } from "./versions.js";
import { Viewer } from "./viewer.js";

/** "user memory" / "Workspace memory of /path" — how the page names a scope. */
function scopeLabel(scope) {
  if (scope.kind === "user") return "user memory";
  return `Workspace memory of ${showHidden(scope.workspacePath ?? scope.title)}`;
}

/**
 * The editor of `config.memory[field]` ("prompt" or "workspacePrompt"), which has a default;
 * `texts` are its id, title, description, needs and confirmText (see PromptEditor).
 */
function memoryPromptEditor(view, field, texts) {
  return new PromptEditor({
    ...texts,
    view,
    restorable: true,
    read: (config) => ({
      value: config.memory[field],
      isDefault: config.memory[`${field}IsDefault`],
    }),
    patch: (value) => ({ memory: { [field]: value } }),
    storedWarning: (config) => promptWarning(config, field),
  });
}

export class MemoryTab {
  constructor(view) {
    this.view = view;
    this.groups = new Map();
    this.overview = null; // the last overview page's switch, template hint and totals (A-3)
    this.scopes = []; // the scopes shown, in their order: the pages loaded so far
    this.machines = new Map(); // scope key → the machines keeping a local copy of it (R-1)
    this.collapse = collapseState(view.me?.name ?? "anonymous", view.project, view.agent);
    this.viewer = new Viewer(this);
    this.history = new HistoryViews(this);
    this.search = new MemorySearch(this);
    // Groups load their rows once near the screen: within three screens' height, so scrolling
    // rarely meets a group still loading, and a tab of many Workspaces asks only for those.
    this.nearness = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          this.groups.get(entry.target.dataset.scope)?.setNear(entry.isIntersecting);
        }
      },
      { rootMargin: "300% 0px" },
    );

    this.switchInput = h("input", {
      type: "checkbox",
      role: "switch",
      id: "memory-enabled",
      "aria-describedby": "memory-enabled-help",
      onchange: () => this.toggle(),
    });
    this.switchStatus = h("span", {
      class: "inline-status",
      role: "status",
      id: "memory-enabled-status",
    });
    this.hint = h("div", { class: "hint", id: "memory-hint", hidden: true });
    this.groupsBox = h("div", { class: "groups", id: "memory-groups" });
    this.pages = new GroupPages(this);
    this.groupsState = h("div", { class: "groups-state" });
    this.summary = h("p", { class: "sub", id: "memories-summary" });
    this.skippedBox = h("div", { class: "skipped-box" }); // entries that are no scope (A-3)
    this.promptEditor = memoryPromptEditor(view, "prompt", {
      id: "memory-prompt",
      title: "Memory prompt",
      description:
        "Injected in every Session where {{MEMORY}} stands: what Memory is for, how to save, and the user index.",
      needs: "{{MEMORY_USER_INDEX}}",
      confirmText: "The new memory prompt is injected from the next Session of this agent.",
    });
    this.workspaceEditor = memoryPromptEditor(view, "workspacePrompt", {
      id: "workspace-prompt",
      title: "Workspace memory prompt",
      description:
        "Appended only in a persistent Workspace: its directory, the scope rule and its index.",
      needs: "{{MEMORY_INDEX}}",
      confirmText:
        "The new Workspace memory prompt is injected from the next Session in a Workspace.",
    });
    this.editors = [this.promptEditor, this.workspaceEditor];
    this.loaded = new Promise((resolve) => {
      this.markLoaded = resolve;
    });
    for (const editor of this.editors) editor.update(view.config);
    this.switchInput.checked = view.config.memory.enabled;

    this.element = h(
      "div",
      { class: "memory-tab panel" },
      this.jumpBar(),
      this.switchSection(),
      this.hint,
      this.memoriesSection(),
      this.promptEditor.element,
      this.workspaceEditor.element,
      // Here rather than in <body>: the viewer goes away with the page it belongs to.
      this.viewer.dialog,
    );
  }

  switchSection() {
    return h(
      "section",
      { class: "section switch-row", "aria-label": "Memory on or off" },
      h(
        "div",
        { class: "switch-text" },
        h("label", { for: "memory-enabled", class: "label" }, "Memory"),
        h(
          "p",
          { id: "memory-enabled-help" },
          "When on, the indexes enter the context and new Sessions get their directories. Off keeps every file.",
        ),
        this.switchStatus,
      ),
      h(
        "span",
        { class: "switch" },
        this.switchInput,
        h("span", { class: "track", "aria-hidden": "true" }),
      ),
    );
  }

  memoriesSection() {
    const tool = (id, label, onclick, title = null) =>
      h(
        "button",
        { type: "button", class: "btn btn-ghost btn-sm", id, title, onclick },
        h("span", { class: "label-text" }, label),
      );
    return h(
      "section",
      { class: "memories", "aria-labelledby": "memories-title" },
      h(
        "div",
        { class: "bare-head" },
        h("div", {}, h("h2", { id: "memories-title", tabindex: "-1" }, "Memories"), this.summary),
        h(
          "div",
          { class: "actions" },
          tool(
            "refresh-memories",
            "Refresh",
            (event) => this.refreshAll(event.currentTarget),
            "Re-read the scopes: agents may have saved memories meanwhile",
          ),
          tool("expand-all", "Expand all", () => this.setAllCollapsed(false)),
          tool("collapse-all", "Collapse all", () => this.setAllCollapsed(true)),
        ),
      ),
      h(
        "p",
        { class: "visually-hidden", id: "rows-keys-help" },
        "Arrow keys move between the memories of a group and their actions; Home and End go to the first and last; Tab moves on.",
      ),
      this.skippedBox,
      this.search.element,
      this.pages.element,
      this.groupsState,
      this.groupsBox,
      this.pages.moreBox,
    );
  }

  /**
   * The "On this tab" bar: buttons that move focus to the memories or to either prompt editor,
   * so neither is more than a few Tab presses away however many rows lie between (W-6).
   */
  jumpBar() {
    const jump = (label, target) =>
      h(
        "button",
        {
          type: "button",
          class: "btn btn-ghost btn-sm",
          onclick: () => {
            const element = target();
            element.scrollIntoView({ block: "start" });
            element.focus({ preventScroll: true });
          },
        },
        label,
      );
    return h(
      "nav",
      { class: "jump-bar", "aria-label": "On this tab" },
      h("span", { class: "jump-label", "aria-hidden": "true" }, "Jump to"),
      jump("Memories", () => this.element.querySelector("#memories-title")),
      jump("Memory prompt", () => this.promptEditor.textarea),
      jump("Workspace memory prompt", () => this.workspaceEditor.textarea),
    );
  }

  /** Take a new config (after any PATCH or reload); the view has updated the editors. */
  onConfig(config) {
    // While the switch saves, a flip made meanwhile stands; toggle() sends it afterwards.
    if (!this.switchBusy) this.switchInput.checked = config.memory.enabled;
    if (this.overview) {
      this.overview.templateHasMemory = config.template.includes("{{MEMORY}}");
      this.renderHint();
    }
  }

  /** Load the overview's first page (A-3) and build its groups; shows loading and errors with
   * Retry. */
  async load() {
    replace(
      this.groupsState,
      h("p", { class: "state state-loading", role: "status" }, "Loading memories…"),
    );
    try {
      await this.pages.first();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      replace(
        this.groupsState,
        errorBox(`Could not load the memories: ${error.detail}`, () => this.load()),
      );
      return;
    }
    replace(this.groupsState);
    this.switchInput.checked = this.overview.enabled;
    this.markLoaded();
  }

  /**
   * Take an overview page: in place of the groups shown (`replace`, in the overview's order)
   * or after them (a page further down; a scope already shown keeps its place).
   */
  showScopes(page, { replace: whole }) {
    const { enabled, templateHasMemory, totals } = page;
    this.overview = { enabled, templateHasMemory, totals };
    replace(this.skippedBox, skippedNotice(page));
    for (const scope of page.scopes) this.withMachines(scope);
    if (whole) {
      this.scopes = page.scopes;
      this.renderHint();
      this.renderGroups();
      return;
    }
    // Only the new groups are built: a page further down costs the same after 50 groups as
    // after 5,000.
    const added = page.scopes.filter((scope) => !this.groups.has(scope.key));
    this.scopes = [...this.scopes, ...added];
    for (const scope of added) {
      const group = new ScopeGroup(this, scope);
      this.groups.set(scope.key, group);
      this.groupsBox.append(group.element);
      group.attached();
    }
    this.renderSummary();
  }

  /** Re-read one scope's summary (its counts and lint after a delete) and the totals; the
   * groups keep their places, so nothing moves under the pointer. */
  async refreshScope(key) {
    try {
      const scope = this.withMachines(await api.get(this.scopePath(key)));
      this.scopes = this.scopes.map((item) => (item.key === key ? scope : item));
      this.groups.get(key)?.update(scope);
      await this.pages.refreshTotals();
      this.renderSummary();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      toast(`Could not refresh the memory overview: ${error.detail}`, { error: true });
    }
  }

  /**
   * Read the machines keeping a local copy of each scope and when each last synced (R-1), for
   * the groups of the pages to come. The list is extra: without it (a service that keeps no
   * history) every scope has none.
   */
  async readMachines() {
    try {
      const found = await api.get(paths.machines(this.view.project, this.view.agent));
      this.machines = new Map(found.scopes.map((item) => [item.scope, item.machines]));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.machines = new Map();
    }
  }

  /** `scope` (an overview entry) given its `machines` (R-1); returns it. */
  withMachines(scope) {
    scope.machines = this.machines.get(scope.key) ?? [];
    return scope;
  }

  scopePath(key) {
    return `${paths.memory(this.view.project, this.view.agent)}/scopes/${encodeURIComponent(key)}`;
  }

  /** The summary of scope `key` if it is shown, else null. */
  knownScope(key) {
    return this.scopes.find((scope) => scope.key === key) ?? null;
  }

  /** The summary of scope `key`: shown, or asked of the service (an address naming a scope
   * further down than the pages loaded); null when there is no such scope. */
  async scopeFor(key) {
    const known = this.knownScope(key);
    if (known) return known;
    try {
      return this.withMachines(await api.get(this.scopePath(key)));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return null;
    }
  }

  /** Build or update the groups of the scopes shown, in the overview's order; drop the others. */
  renderGroups() {
    const seen = new Set();
    for (const scope of this.scopes) {
      seen.add(scope.key);
      let group = this.groups.get(scope.key);
      const created = !group;
      if (group) group.update(scope);
      else {
        group = new ScopeGroup(this, scope);
        this.groups.set(scope.key, group);
      }
      // Move a group only when the order changed: re-inserting one drops the focus inside it.
      const here = this.groupsBox.children[seen.size - 1] ?? null;
      if (here !== group.element) this.groupsBox.insertBefore(group.element, here);
      if (created) group.attached();
    }
    for (const [key, group] of this.groups) {
      if (!seen.has(key)) {
        this.nearness.unobserve(group.element);
        group.dispose();
        group.element.remove();
        this.groups.delete(key);
      }
    }
    this.renderSummary();
  }

  /** "1,234 memories · 5,000 Workspaces": the totals of every scope, not only those shown. */
  renderSummary() {
    const { files, scopes } = this.overview.totals;
    const workspaces = Math.max(0, scopes - 1); // the user scope is always there (K-6)
    this.summary.textContent = `${plural(files, "memory", "memories")} · ${plural(workspaces, "Workspace", "Workspaces")}`;
  }

  /** Follow whether `group` is near the screen (it loads its rows then). */
  watchNearness(group) {
    this.nearness.observe(group.element);
  }

  /** Re-read the overview (as many scopes as are shown) and every expanded group near the
   * screen; the others reload when they are expanded or come near. */
  async refreshAll(button) {
    await withBusy(button, "Refreshing…", async () => {
      try {
        await this.pages.first({ keep: true });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        toast(`Could not refresh the memory overview: ${error.detail}`, { error: true });
      }
      await Promise.all(
        [...this.groups.values()].map((group) => {
          if (group.collapsed || !group.near) return group.markStale();
          return group.reload();
        }),
      );
    });
  }

  /** Collapse or expand every group (each remembered like a header click). */
  setAllCollapsed(collapsed) {
    for (const group of this.groups.values()) group.setCollapsed(collapsed);
  }

  renderHint() {
    if (this.overview.templateHasMemory && this.inserted) {
      // Keep a note where the button was and move focus to it, never to the page (W-6).
      replace(
        this.hint,
        h(
          "p",
          { id: "hint-done", tabindex: "-1" },
          "Inserted ",
          h("code", {}, "{{MEMORY}}"),
          " and the Workspace Memory Key line into the template: memory reaches the model from the next Session. ",
          h("a", { href: agentHref(this.view.project, this.view.agent, "prompt") }, "See the template"),
        ),
      );
      this.hint.classList.add("hint-done");
      this.hint.hidden = false;
      return;
    }
    const show = !this.overview.templateHasMemory;
    this.hint.hidden = !show;
    this.hint.classList.remove("hint-done");
    if (!show) return;
    const button = h(
      "button",
      {
        type: "button",
        class: "btn btn-primary",
        id: "insert-placeholder",
        onclick: () => this.insertPlaceholder(button),
      },
      h("span", { class: "label-text" }, "Insert placeholder"),
    );
    this.hintError = h("div", { class: "hint-error" });
    replace(
      this.hint,
      h(
        "p",
        {},
        "The template has no ",
        h("code", {}, "{{MEMORY}}"),
        " placeholder, so no memory reaches the model. Insert it before the ",
        h("code", {}, "# Environment"),
        " heading, with the Workspace Memory Key line.",
      ),
      button,
      this.hintError,
    );
  }

  async insertPlaceholder(button) {
    replace(this.hintError);
    try {
      await withBusy(button, "Inserting…", async () => {
        const result = await api.post(paths.placeholder(this.view.project, this.view.agent), {});
        this.inserted = true;
        await this.view.reloadConfig(); // onConfig() turns the hint into a done note
        toast(
          result.changed
            ? "Inserted {{MEMORY}} into the template."
            : "The template already had {{MEMORY}}.",
        );
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      replace(this.hintError, errorBox(`Could not insert the placeholder: ${error.detail}`));
    }
    keepFocus(this.hint.querySelector("#hint-done") ?? button);
  }

  /** The switch: PATCH memory.enabled on its own (W-2); reverts and explains on failure. */
  async toggle() {
    // Never disabled while saving: a disabled switch drops the keyboard focus to the page
    // (W-6). A change made meanwhile is sent once this one is answered.
    if (this.switchBusy) return;
    this.switchBusy = true;
    this.switchInput.setAttribute("aria-busy", "true");
    const enabled = this.switchInput.checked;
    this.switchStatus.classList.remove("error");
    this.switchStatus.classList.add("busy");
    this.switchStatus.textContent = enabled ? "Turning Memory on…" : "Turning Memory off…";
    try {
      await this.view.patchConfig({ memory: { enabled } });
      this.switchStatus.textContent = enabled
        ? "Memory is on."
        : "Memory is off. Every file is kept.";
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.switchInput.checked = !enabled;
      this.switchStatus.classList.add("error");
      this.switchStatus.textContent =
        error.status === 412
          ? "Not saved: the settings changed elsewhere. Reload the page and try again."
          : `Not saved: ${error.detail}`;
    } finally {
      this.switchStatus.classList.remove("busy");
      this.switchInput.removeAttribute("aria-busy");
      this.switchBusy = false;
    }
    const failed = this.switchStatus.classList.contains("error");
    if (!failed && this.switchInput.checked !== this.view.config.memory.enabled) {
      await this.toggle(); // the user flipped it again while the first change was saving
    }
  }

  /** Open the bridge modal (W-4) for `topic` (Edit) or for the scope (Add, topic null). */
  bridge(scope, topic) {
    this.go(topic ? "edit" : "add", scope, topic?.file);
  }

  // --- overlays with an address (W-6) --------------------------------------------------------

  /**
   * Go to an overlay's address; the route then opens it. The first overlay pushes a history
   * entry (Back closes it); moving from one overlay to another replaces it, so one Back always
   * returns to the tab.
   */
  go(kind, scope, file = null) {
    const href = overlayHref(this.view.project, this.view.agent, { kind, key: scope.key, file });
    // The history entry remembers that the tab lies right behind it (it survives Forward).
    const fromTab = !parseRoute(location.hash).overlay || Boolean(history.state?.fromTab);
    if (parseRoute(location.hash).overlay) location.replace(href);
    else location.hash = href;
    if (fromTab) history.replaceState({ fromTab: true }, "", href);
  }

  /** An overlay closed by the user (Escape, Close): leave its address too. */
  overlayClosed(href) {
    if (this.overlayHref === href) this.overlayHref = null;
    const now = parseRoute(location.hash).overlay;
    const current = now ? overlayHref(this.view.project, this.view.agent, now) : null;
    if (current !== href) return; // the address moved on already (Back, another overlay)
    if (history.state?.fromTab) history.back();
    else history.replaceState(null, "", agentHref(this.view.project, this.view.agent, "memory"));
  }

  /** Show the overlay of the address (null: none), closing any other (W-6). */
  async showOverlay(overlay) {
    const href = overlay ? overlayHref(this.view.project, this.view.agent, overlay) : null;
    if (href && href === this.overlayHref) return;
    this.overlayHref = href;
    // The viewer stays open from one of its addresses to the next (a [[link]], its findings).
    const inViewer = ["view", "index", "findings", ...HISTORY_OVERLAYS].includes(overlay?.kind);
    for (const dialog of document.querySelectorAll("dialog[open]")) {
      if (dialog.dataset.href !== href && !(inViewer && dialog === this.viewer.dialog)) {
        dialog.close();
      }
    }
    if (!overlay) return;
    await this.loaded;
    const scope = await this.scopeFor(overlay.key);
    if (this.overlayHref !== href) return; // another address came meanwhile
    if (!scope) {
      toast(`There is no scope “${overlay.key}” in this agent's memory.`, { error: true });
      this.overlayClosed(href);
      return;
    }
    const onClose = () => this.overlayClosed(href);
    await this.openOverlay(overlay, scope, { href, onClose });
  }

  async openOverlay({ kind, file }, scope, { href, onClose }) {
    if (kind === "view" && file) this.viewer.open(scope, { file }, { href, onClose });
    else if (kind === "index") this.viewer.openIndex(scope, { href, onClose });
    else if (kind === "findings") this.viewer.openFindings(scope, file, { href, onClose });
    else if (kind === "add") this.openBridge(scope, null, "", href, onClose);
    else if ((kind === "edit" || kind === "fix") && file) {
      const topic = await this.topicFor(scope, file);
      if (!topic || this.overlayHref !== href) return;
      const problems = fixableProblems(topic);
      if (kind === "fix" && !topic.findings.length && !problems.length) {
        // a typed or kept address: the bridge would ask the agent to fix an empty list
        toast(`Nothing to fix in ${file}: the memory lint reports no problem in it.`);
        onClose();
        return;
      }
      const requirement = kind === "fix" ? fixRequirement(topic.findings, problems) : "";
      this.openBridge(scope, topic, requirement, href, onClose);
    } else if (!this.history.open(kind, scope, file, { href, onClose })) onClose();
  }

  /** The topic `file` with its findings (GET …/files/{file}), or null after a toast. */
  async topicFor(scope, file) {
    if (file === "MEMORY.md") {
      const index = await api.get(paths.index(this.view.project, this.view.agent, scope.key));
      const findings = index.findings.filter((f) => f.file === file);
      return { file, name: "MEMORY.md", findings, problems: [] };
    }
    try {
      return await api.get(paths.file(this.view.project, this.view.agent, scope.key, file));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      toast(`Could not open ${file}: ${error.detail}`, { error: true });
      this.overlayClosed(this.overlayHref);
      return null;
    }
  }

  openBridge(scope, topic, requirement, href, onClose) {
    const dialog = openBridge({
      mode: topic ? "edit" : "add",
      project: this.view.project,
      agent: this.view.agent,
      scope,
      topic,
      me: this.view.me,
      requirement,
      onClose,
    });
    dialog.dataset.href = href;
  }

  /** Delete one topic file after a confirm (W-3); the service prunes its index lines (A-6). */
  async deleteTopic(scope, topic, button) {
    const unkept = unkeptReason(topic.file, topic.problems);
    if (unkept) {
      // the service would refuse it (503, 409): say why instead of asking
      toast(unkept, { error: true, timeout: 10000 });
      return false;
    }
    const ok = await confirmDialog({
      title: `Delete “${showHidden(topic.name)}”?`,
      message: `${topic.file} is removed from the ${scopeLabel(scope)}, and its lines in MEMORY.md go with it. Undo, or Recently deleted later, brings both back (unless this service keeps no history).`,
      confirmLabel: "Delete",
      danger: true,
    });
    if (!ok) return false;
    try {
      const result = await withBusy(button, null, () =>
        api.del(paths.file(this.view.project, this.view.agent, scope.key, topic.file)),
      );
      const pruned = result?.removedIndexLines?.length ?? 0;
      const undo = result?.restoreVersion
        ? { label: "Undo", run: () => this.undoDelete(scope, topic.file, result.restoreVersion) }
        : null;
      // a removed line that also linked other files took their only entry with it (A-6): said
      const unindexed = result?.unindexedFiles ?? [];
      const deleted =
        `Deleted ${topic.file}${pruned ? ` and ${plural(pruned, "index line", "index lines")}` : ""}` +
        (unindexed.length
          ? `; ${unindexed.join(", ")} ${unindexed.length === 1 ? "is" : "are"} no longer in the index` +
            (result?.restoreVersion ? " (Undo puts the line back)" : "")
          : "");
      if (result?.unrecorded) {
        // gone from disk, but no version records the delete yet: no Undo to offer (V-2)
        toast(
          `${deleted}, but its history could not record it yet: ${result.unrecorded}. ` +
            "The scope's history still holds the file; the next change recorded takes the delete.",
          { error: true, timeout: 10000 },
        );
      } else {
        toast(`${deleted}.`, { action: undo });
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refusalToast("delete", topic.file, error);
      if (error.status !== 404) return false;
    }
    const group = this.groups.get(scope.key);
    const place = group?.rowPlace(topic.file, button);
    await Promise.all([group?.reload(), this.refreshScope(scope.key)]);
    // Focus the row that took the deleted one's place (same action), never the page (W-6).
    if (group) keepFocus(group.focusTarget(place));
    return true;
  }

  /** Forget an empty Workspace scope after a confirm (K-5): its group leaves the list, the
   * focus goes to the group that took its place. One still holding memories is refused with
   * the way on (delete them first: each can be restored), without asking. */
  async forgetScope(scope, button) {
    if (scope.fileCount > 0) {
      const held = plural(scope.fileCount, "memory", "memories");
      toast(`The ${scopeLabel(scope)} still holds ${held}: delete them first (each can be restored), then forget it.`, { error: true, timeout: 10000 });
      return false;
    }
    const ok = await confirmDialog({
      title: `Forget the Workspace “${showHidden(scope.title)}”?`,
      message: `${scope.workspacePath ?? scope.key} is no longer listed here. Its history is kept: a Session started in that folder again makes a new, empty scope.`,
      confirmLabel: "Forget",
      danger: true,
    });
    if (!ok) return false;
    try {
      await withBusy(button, null, () => api.del(this.scopePath(scope.key)));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status !== 404) {
        toast(`Could not forget the ${scopeLabel(scope)}: ${error.detail}`, { error: true, timeout: 10000 });
        return false;
      }
    }
    const at = this.scopes.findIndex((item) => item.key === scope.key);
    this.scopes = this.scopes.filter((item) => item.key !== scope.key);
    this.renderGroups();
    toast(`Forgot the ${scopeLabel(scope)}.`);
    const next = this.scopes[at] ?? this.scopes[at - 1];
    keepFocus(this.groups.get(next?.key)?.toggleButton ?? this.summary);
    await this.pages.refreshTotals().catch(() => {});
    this.renderSummary();
    return true;
  }

  /** The toast's Undo of a delete (V-2): the file and its index lines come back; the focus
   * goes to its row's View (W-6). */
  async undoDelete(scope, file, version) {
    if (!(await restoreFile(this, scope, file, version))) return;
    const group = this.groups.get(scope.key);
    if (group) keepFocus(group.focusTarget(group.rowPlace(file, null)));
  }
}
