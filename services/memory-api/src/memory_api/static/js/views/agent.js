// W-2: agent settings with the tabs Prompt (the template) and Memory. Holds the config and its
// ETag: every PATCH sends If-Match, and a 412 tells the user it changed elsewhere.

import { agentHref } from "../address.js";
import { ApiError, paths, request } from "../api.js";
import { toast } from "../dialogs.js";
import { errorBox, h, notFoundState, replace } from "../dom.js";
import { MemoryTab } from "./memory-tab.js";
import { PromptEditor } from "./prompt-editor.js";
import { promptWarningsNotice } from "./prompt-warnings.js";

const STALE =
  "This agent's settings were changed elsewhere since you loaded them, so nothing was saved. " +
  "Reload to see the latest version (unsaved text is replaced), then make your change again.";

/**
 * Which harnesses the template reaches (W-2): the ones that take it from the service use it as
 * the system prompt; the coding agents' hooks add only the memory and keep their own prompts,
 * so an edit here must not look as if it changed them.
 */
function templateReach() {
  const code = (text) => h("code", { text });
  return h(
    "div",
    { class: "alert alert-info template-reach", id: "template-reach", role: "note" },
    h(
      "div",
      {},
      h(
        "p",
        {},
        h("strong", {}, "Used as the system prompt"),
        " by harnesses that take it from this service: the platform's chat (",
        h("em", {}, "Open a new chat"),
        " on the Memory tab), and harness-memory's Session start given this text (its Python API, or ",
        code("harness-memory session-start --template-file"),
        " with a copy of it).",
      ),
      h(
        "p",
        {},
        h("strong", {}, "Not by Claude Code, Codex CLI or Gemini CLI."),
        " They keep their own system prompts: their memory hooks add only the memory (the Memory tab's prompts and the indexes), never this text. Of this template they heed one thing: without ",
        code("{{MEMORY}}"),
        " they get no memory either.",
      ),
    ),
  );
}

export class AgentView {
  constructor({ root, project, agent, tab, overlay = null, loadMe, setCrumbs }) {
    Object.assign(this, { root, project, agent, tab, overlay, loadMe, setCrumbs });
    this.config = null;
    this.etag = null;
    this.me = null;
  }

  matches(project, agent) {
    return (
      this.project === project && this.agent === agent && this.root.contains(this.element ?? null)
    );
  }

  /** The prompt editors of both tabs (empty until the config is loaded). */
  editors() {
    return this.memoryTab ? [this.templateEditor, ...this.memoryTab.editors] : [];
  }

  isDirty() {
    return this.editors().some((editor) => editor.isDirty());
  }

  showCrumbs(label) {
    this.setCrumbs([
      ["Agents", "#/"],
      [this.project, `#/projects/${encodeURIComponent(this.project)}`],
      [label, null],
    ]);
  }

  async start() {
    this.showCrumbs(this.agent);
    const loading = h("p", { class: "state state-loading", role: "status" }, "Loading agent…");
    replace(this.root, loading);
    try {
      const [{ data, etag }, me] = await Promise.all([
        request("GET", paths.config(this.project, this.agent)),
        this.loadMe().catch((error) => {
          if (error instanceof ApiError && error.status !== 401)
            return { name: "anonymous", chatUrlTemplate: null };
          throw error;
        }),
      ]);
      if (!this.root.contains(loading)) return; // the user went elsewhere meanwhile
      this.config = data;
      this.etag = etag;
      this.me = me;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (!this.root.contains(loading)) return;
      if (error.status === 404) {
        const why = await this.notFoundReason();
        if (!this.root.contains(loading)) return;
        this.showCrumbs(this.agent);
        replace(
          this.root,
          notFoundState(
            `No agent “${this.agent}” in project ${this.project}`,
            why,
            [
              [`Agents of ${this.project}`, `#/projects/${encodeURIComponent(this.project)}`],
              ["All agents", "#/"],
            ],
          ),
        );
        document.title = "No such agent · Agent Memory";
      } else {
        replace(this.root, errorBox(`Could not load the agent: ${error.detail}`, () => this.start()));
      }
      return;
    }
    this.render();
  }

  /**
   * Why the agent's config answered 404. The service answers a token that does not reach the
   * project exactly as a missing agent, so when the signed-in token is limited to other
   * projects (`/api/me`), the page says so: the user knows their own token's reach.
   */
  async notFoundReason() {
    const me = await this.loadMe().catch(() => null);
    const reach = Array.isArray(me?.projects) ? me.projects : null;
    if (reach && !reach.includes(this.project)) {
      const list = reach.length ? `only ${reach.join(", ")}` : "no project";
      return (
        `The token you signed in with (${me.name}) reaches ${list}: sign out and sign in ` +
        `with one for ${this.project}, or the address is mistyped.`
      );
    }
    return "It may have been deleted or renamed, or the address is mistyped.";
  }

  render() {
    const { project, agent } = this;
    this.showCrumbs(this.config.name);
    document.title = `${this.config.name} · Agent Memory`;
    this.tabLinks = {
      prompt: h("a", { href: agentHref(project, agent, "prompt"), id: "tab-prompt" }, "Prompt"),
      memory: h("a", { href: agentHref(project, agent, "memory"), id: "tab-memory" }, "Memory"),
    };
    this.templateEditor = new PromptEditor({
      id: "template-editor",
      title: "Template",
      description:
        "The system prompt of this agent's Sessions in the harnesses that take it from here " +
        "(below). {{MEMORY}} is replaced by the memory prompts and indexes; " +
        "{{WORKSPACE_MEMORY_KEY}} by the Session's Workspace memory key. " +
        "{{APP_DATA_DIR}} and {{AGENT_ID}} are replaced by the data dir and the agent's id at " +
        "each Session start.",
      note: templateReach(),
      read: (config) => ({ value: config.template }),
      needs: "{{MEMORY}}",
      needsMessage:
        "This template has no {{MEMORY}}, so no memory reaches the model, in any harness. " +
        "The Memory tab can insert it.",
      patch: (value) => ({ template: value }),
      view: this,
      confirmText:
        "The new template is the system prompt from the next Session of a harness that takes " +
        "it from here. Claude Code, Codex CLI and Gemini CLI keep their own system prompts.",
    });
    this.templateEditor.update(this.config);
    this.memoryTab = new MemoryTab(this);
    this.warningsBox = h("div", { class: "prompt-warnings-box" });
    this.renderPromptWarnings();
    this.panels = {
      prompt: h(
        "div",
        { class: "panel", id: "panel-prompt", "aria-labelledby": "tab-prompt", role: "region" },
        this.templateEditor.element,
      ),
      memory: h(
        "div",
        { class: "panel", id: "panel-memory", "aria-labelledby": "tab-memory", role: "region" },
        this.memoryTab.element,
      ),
    };
    this.element = h(
      "div",
      { class: "agent-view" },
      h(
        "div",
        { class: "page-head" },
        h(
          "div",
          {},
          h("h1", { text: this.config.name }),
          h("p", { class: "sub" }, h("code", { text: agent }), ` · project ${project}`),
        ),
      ),
      this.warningsBox,
      h(
        "nav",
        { class: "tabs", "aria-label": "Agent settings" },
        this.tabLinks.prompt,
        this.tabLinks.memory,
      ),
      this.panels.prompt,
      this.panels.memory,
    );
    replace(this.root, this.element);
    this.showTab(this.tab, this.overlay);
    this.memoryTab.load();
  }

  /** The head's notice of memory prompts the service warns of (I-1), or none. */
  renderPromptWarnings() {
    replace(this.warningsBox, promptWarningsNotice(this.config, (field) => this.editPrompt(field)));
  }

  /** Go to the editor of `config.memory[field]` on the Memory tab and focus its text (W-6). */
  editPrompt(field) {
    const editor = field === "prompt" ? this.memoryTab.promptEditor : this.memoryTab.workspaceEditor;
    if (this.tab !== "memory" || this.overlay) {
      window.location.hash = agentHref(this.project, this.agent, "memory");
      this.showTab("memory");
    }
    editor.textarea.scrollIntoView({ block: "center" });
    editor.textarea.focus({ preventScroll: true });
  }

  /** Show `tab` ("prompt" or "memory") and the Memory tab's `overlay` (null: none, W-6). */
  showTab(tab, overlay = null) {
    this.tab = tab;
    this.overlay = overlay;
    if (!this.panels) return;
    this.memoryTab.showOverlay(tab === "memory" ? overlay : null);
    for (const [name, panel] of Object.entries(this.panels)) {
      panel.hidden = name !== tab;
      if (name === tab) this.tabLinks[name].setAttribute("aria-current", "page");
      else this.tabLinks[name].removeAttribute("aria-current");
    }
  }

  /**
   * PATCH the config with If-Match. `force` is the editor that saved: it takes the new value
   * even though it was dirty. Rejects with ApiError (412 when the ETag is stale).
   */
  async patchConfig(body, { force = null } = {}) {
    const { data, etag } = await request("PATCH", paths.config(this.project, this.agent), {
      body,
      ifMatch: this.etag,
    });
    this.setConfig(data, etag ?? this.etag, (editor) => editor === force);
    return data;
  }

  /** Re-read the config. `discard` drops unsaved edits in every editor. */
  async reloadConfig({ discard = false } = {}) {
    const { data, etag } = await request("GET", paths.config(this.project, this.agent));
    this.setConfig(data, etag, () => discard);
    return data;
  }

  /** Take a new config and ETag; `overwrite(editor)` says which editors drop unsaved text. */
  setConfig(config, etag, overwrite) {
    this.config = config;
    this.etag = etag;
    for (const editor of this.editors()) editor.update(config, { overwrite: overwrite(editor) });
    this.memoryTab.onConfig(config);
    this.renderPromptWarnings();
  }

  /** The error box of a failed config write: a 412 offers Reload, others show the detail. */
  problemBox(error) {
    if (error.status !== 412) return errorBox(error.detail);
    return errorBox(
      STALE,
      async () => {
        try {
          await this.reloadConfig({ discard: true });
          toast("Reloaded the latest settings.");
        } catch (reloadError) {
          if (!(reloadError instanceof ApiError)) throw reloadError;
          toast(`Could not reload: ${reloadError.detail}`, { error: true });
        }
      },
      "Reload",
    );
  }
}
