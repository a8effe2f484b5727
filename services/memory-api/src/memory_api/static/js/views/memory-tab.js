// W-2: the Memory tab, top to bottom — the on/off switch (saves on change, on its own), the
// hint bar with the one-click placeholder insert, the memories grouped by scope, and the two
// memory prompt editors. Deletes (W-3) and the bridge modal (W-4) start here.

import { ApiError, api, paths } from "../api.js";
import { confirmDialog, toast } from "../dialogs.js";
import { errorBox, h, plural, replace, withBusy } from "../dom.js";
import { collapseState } from "../store.js";
import { openBridge } from "./bridge.js";
import { PromptEditor } from "./prompt-editor.js";
import { ScopeGroup } from "./scope-group.js";
import { MemorySearch } from "./search.js";
import { Viewer } from "./viewer.js";

/** "user memory" / "Workspace memory of /path" — how the page names a scope. */
function scopeLabel(scope) {
  if (scope.kind === "user") return "user memory";
  return `Workspace memory of ${scope.workspacePath ?? scope.title}`;
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
  });
}

export class MemoryTab {
  constructor(view) {
    this.view = view;
    this.groups = new Map();
    this.overview = null;
    this.collapse = collapseState(view.me?.name ?? "anonymous", view.project, view.agent);
    this.viewer = new Viewer(this);
    this.search = new MemorySearch(this);

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
    this.groupsState = h("div", { class: "groups-state" });
    this.summary = h("p", { class: "sub", id: "memories-summary" });
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
    for (const editor of this.editors) editor.update(view.config);
    this.switchInput.checked = view.config.memory.enabled;

    this.element = h(
      "div",
      { class: "memory-tab panel" },
      h(
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
      ),
      this.hint,
      h(
        "section",
        { class: "memories", "aria-labelledby": "memories-title" },
        h(
          "div",
          { class: "bare-head" },
          h("div", {}, h("h2", { id: "memories-title" }, "Memories"), this.summary),
          h(
            "div",
            { class: "actions" },
            h(
              "button",
              {
                type: "button",
                class: "btn btn-ghost btn-sm",
                id: "refresh-memories",
                title: "Re-read the scopes: agents may have saved memories meanwhile",
                onclick: (event) => this.refreshAll(event.currentTarget),
              },
              h("span", { class: "label-text" }, "Refresh"),
            ),
            h(
              "button",
              {
                type: "button",
                class: "btn btn-ghost btn-sm",
                id: "expand-all",
                onclick: () => this.setAllCollapsed(false),
              },
              "Expand all",
            ),
            h(
              "button",
              {
                type: "button",
                class: "btn btn-ghost btn-sm",
                id: "collapse-all",
                onclick: () => this.setAllCollapsed(true),
              },
              "Collapse all",
            ),
          ),
        ),
        this.search.element,
        this.groupsState,
        this.groupsBox,
      ),
      this.promptEditor.element,
      this.workspaceEditor.element,
      // Here rather than in <body>: the viewer goes away with the page it belongs to.
      this.viewer.dialog,
    );
  }

  /** Take a new config (after any PATCH or reload); the view has updated the editors. */
  onConfig(config) {
    this.switchInput.checked = config.memory.enabled;
    if (this.overview) {
      this.overview.templateHasMemory = config.template.includes("{{MEMORY}}");
      this.renderHint();
    }
  }

  /** Load the overview (A-3) and build the groups; shows loading and errors with Retry. */
  async load() {
    replace(
      this.groupsState,
      h("p", { class: "state state-loading", role: "status" }, "Loading memories…"),
    );
    try {
      this.overview = await api.get(paths.memory(this.view.project, this.view.agent));
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
    this.renderHint();
    this.renderGroups();
  }

  /** Re-read the overview after a change (counts, lint, new scopes); keeps loaded groups. */
  async refreshOverview() {
    try {
      this.overview = await api.get(paths.memory(this.view.project, this.view.agent));
      this.renderHint();
      this.renderGroups();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      toast(`Could not refresh the memory overview: ${error.detail}`, { error: true });
    }
  }

  renderGroups() {
    const seen = new Set();
    for (const scope of this.overview.scopes) {
      seen.add(scope.key);
      let group = this.groups.get(scope.key);
      if (group) group.update(scope);
      else {
        group = new ScopeGroup(this, scope);
        this.groups.set(scope.key, group);
      }
      // Move a group only when the order changed: re-inserting one with thousands of rows
      // costs a full style pass and drops the focus inside it.
      const here = this.groupsBox.children[seen.size - 1] ?? null;
      if (here !== group.element) this.groupsBox.insertBefore(group.element, here);
    }
    for (const [key, group] of this.groups) {
      if (!seen.has(key)) {
        group.element.remove();
        this.groups.delete(key);
      }
    }
    const files = this.overview.scopes.reduce((sum, scope) => sum + scope.fileCount, 0);
    const workspaces = this.overview.scopes.filter((scope) => scope.kind === "workspace").length;
    this.summary.textContent = `${plural(files, "memory", "memories")} · ${plural(workspaces, "Workspace", "Workspaces")}`;
  }

  /** Re-read the overview and every expanded group; collapsed ones reload when expanded. */
  async refreshAll(button) {
    await withBusy(button, "Refreshing…", async () => {
      await this.refreshOverview();
      await Promise.all(
        [...this.groups.values()].map((group) => {
          if (group.collapsed) {
            group.files = null;
            return null;
          }
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
    const show = !this.overview.templateHasMemory;
    this.hint.hidden = !show;
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
        await this.view.reloadConfig(); // onConfig() hides the hint
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
  }

  /** The switch: PATCH memory.enabled on its own (W-2); reverts and explains on failure. */
  async toggle() {
    const enabled = this.switchInput.checked;
    this.switchInput.disabled = true;
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
      this.switchInput.disabled = false;
    }
  }

  /** Open the bridge modal (W-4) for `topic` (Edit) or for the scope (Add, topic null). */
  bridge(scope, topic) {
    openBridge({
      mode: topic ? "edit" : "add",
      project: this.view.project,
      agent: this.view.agent,
      scope,
      topic,
      me: this.view.me,
    });
  }

  /** Delete one topic file after a confirm (W-3); the service prunes its index lines (A-6). */
  async deleteTopic(scope, topic, button) {
    const ok = await confirmDialog({
      title: `Delete “${topic.name}”?`,
      message: `${topic.file} is removed from the ${scopeLabel(scope)}, and its lines in MEMORY.md go with it. This cannot be undone.`,
      confirmLabel: "Delete",
      danger: true,
    });
    if (!ok) return false;
    try {
      const result = await withBusy(button, null, () =>
        api.del(paths.file(this.view.project, this.view.agent, scope.key, topic.file)),
      );
      const pruned = result?.removedIndexLines?.length ?? 0;
      toast(
        `Deleted ${topic.file}${pruned ? ` and ${plural(pruned, "index line", "index lines")}` : ""}.`,
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      toast(`Could not delete ${topic.file}: ${error.detail}`, { error: true });
      if (error.status !== 404) return false;
    }
    const group = this.groups.get(scope.key);
    await Promise.all([group?.reload(), this.refreshOverview()]);
    group?.focusToggle();
    return true;
  }
}
