// One prompt editor (the template, memory.prompt, memory.workspacePrompt): a textarea with its
// own Save that asks to confirm (W-2), an optional "Restore default" (PATCH null, A-2), a
// warning when a required placeholder is missing, the service's warning of the saved text
// (I-1: `storedWarning`), a note naming each line that holds hidden characters (I-9: a text
// edited by hand in agent.json, or pasted; the textarea shows them as nothing and a save is
// refused for them), and progress and errors on every action.

import { ApiError } from "../api.js";
import { confirmDialog, toast } from "../dialogs.js";
import { errorBox, h, keepFocus, replace, withBusy } from "../dom.js";
import { markHidden } from "../hidden-text.js";
import { STORED_PAST_THE_PAGE } from "./prompt-warnings.js";

const HIDDEN_LINES_SHOWN = 5;

/**
 * The lines of `text` holding characters I-9 hides (the ones a save is refused for), as [number
 * (1-based), the line with each hidden run as its mark]; at most `HIDDEN_LINES_SHOWN` of them,
 * and how many there are. A stack of combining characters is no hidden text (the service saves
 * it); where it is shown, `h` cuts it (W-5).
 */
function hiddenLines(text) {
  const found = [];
  text.split("\n").forEach((line, at) => {
    const shown = markHidden(line);
    if (shown !== line) found.push([at + 1, shown]);
  });
  return { lines: found.slice(0, HIDDEN_LINES_SHOWN), count: found.length };
}

/**
 * The notes an editor shows about its text, each hidden until it has something to say:
 * `warning` (the placeholder it lacks), `stale` (the saved text changed underneath),
 * `hiddenNote` (lines holding hidden characters), `storedNote` (what the service says of the
 * saved text).
 */
function editorNotes(id) {
  return {
    warning: h("div", { class: "alert alert-warn placeholder-warning", role: "note", hidden: true }),
    stale: h("div", { class: "alert alert-warn stale-note", hidden: true }),
    hiddenNote: h("div", {
      class: "alert alert-warn hidden-text-note",
      id: `${id}-hidden-text`,
      role: "note",
      hidden: true,
    }),
    storedNote: h("div", {
      class: "alert alert-warn stored-warning",
      id: `${id}-stored-warning`,
      role: "note",
      hidden: true,
    }),
  };
}

/**
 * Build an editor. `read(config)` → {value, isDefault?}; `patch(value | null)` → the PATCH body;
 * `needs` is a placeholder the text should hold (`needsMessage` explains its absence);
 * `restorable` adds "Restore default"; `confirmText` is the Save confirm's message; `view` is
 * the AgentView that sends the PATCH; `note` (optional) is shown above the text;
 * `storedWarning(config)` (optional) → what the service says is wrong with the saved text, or
 * null (shown above the text while it says so).
 * The editor keeps the user's unsaved text when the config changes underneath it.
 */
export class PromptEditor {
  constructor({ id, title, description, restorable, note = null, ...behaviour }) {
    // behaviour: read, patch, needs, needsMessage, view, confirmText, storedWarning.
    Object.assign(this, behaviour, { title });
    this.saved = "";
    this.textarea = h("textarea", {
      id: `${id}-text`,
      class: "code",
      spellcheck: "false",
      rows: 14,
      "aria-describedby": `${id}-help`,
      oninput: () => this.refreshState(),
    });
    this.badge = h("span", { class: "badge" });
    Object.assign(this, editorNotes(id));
    this.error = h("div", { class: "editor-error" });
    this.status = h("span", { class: "inline-status", role: "status" });
    this.saveButton = h(
      "button",
      { type: "button", class: "btn btn-primary save", onclick: () => this.save() },
      h("span", { class: "label-text" }, "Save"),
    );
    this.revertButton = h(
      "button",
      { type: "button", class: "btn btn-ghost revert", onclick: () => this.revert() },
      "Discard changes",
    );
    this.restoreButton = restorable
      ? h(
          "button",
          { type: "button", class: "btn restore", onclick: () => this.restore() },
          h("span", { class: "label-text" }, "Restore default"),
        )
      : null;
    this.element = h(
      "section",
      { class: "section editor", id, "aria-labelledby": `${id}-title` },
      h(
        "div",
        { class: "section-head" },
        h(
          "div",
          {},
          h("h2", { id: `${id}-title` }, h("label", { for: `${id}-text` }, title)),
          h("p", { class: "sub", id: `${id}-help`, text: description }),
        ),
        this.badge,
      ),
      h(
        "div",
        { class: "section-body" },
        note,
        this.storedNote,
        this.stale,
        this.textarea,
        this.hiddenNote,
        this.warning,
        this.error,
        h(
          "div",
          { class: "editor-foot" },
          this.status,
          h("div", { class: "actions" }, this.revertButton, this.restoreButton, this.saveButton),
        ),
      ),
    );
  }

  /** True while the text differs from the last saved value. */
  isDirty() {
    return this.textarea.value !== this.saved;
  }

  /**
   * Take a new config: replace the text unless the user has unsaved edits, which stay (a note
   * offers to load the saved version when that changed). `overwrite` replaces the text even so
   * (the editor that saved, a Reload).
   */
  update(config, { overwrite = false } = {}) {
    this.showStoredWarning(this.storedWarning?.(config) ?? null);
    const { value, isDefault } = this.read(config);
    if (overwrite || !this.isDirty()) {
      this.load(value, isDefault);
      return;
    }
    if (value !== this.saved) {
      replace(
        this.stale,
        h("span", { class: "alert-text" }, "The saved version changed while you were editing."),
        h(
          "button",
          { type: "button", class: "btn btn-sm", onclick: () => this.load(value, isDefault) },
          "Discard my edits and load it",
        ),
      );
      this.stale.hidden = false;
    }
    this.saved = value;
    this.isDefault = isDefault;
    this.refreshState();
  }

  /** Name each line of the text that holds hidden characters (I-9), with their marks; the
   * textarea itself shows them as nothing. */
  showHiddenLines() {
    const { lines, count } = hiddenLines(this.textarea.value);
    this.hiddenNote.hidden = count === 0;
    if (count === 0) {
      replace(this.hiddenNote);
      return;
    }
    replace(
      this.hiddenNote,
      h(
        "p",
        { class: "alert-text" },
        "This text holds characters a model reads but a person cannot see, shown nowhere in " +
          "the box above; a save is refused until they are deleted. Where they are:",
      ),
      h(
        "ul",
        {},
        lines.map(([number, shown]) => h("li", {}, h("code", { text: `line ${number}: ${shown}` }))),
      ),
      count > lines.length ? h("p", { text: `and ${count - lines.length} more lines` }) : null,
    );
  }

  /** Show what the service says is wrong with the saved text (`text`), or nothing (null). */
  showStoredWarning(text) {
    this.storedNote.hidden = !text;
    if (!text) {
      replace(this.storedNote);
      return;
    }
    replace(
      this.storedNote,
      h(
        "div",
        { class: "alert-text" },
        h("p", {}, h("strong", {}, "The saved text needs fixing. "), text),
        h("p", {}, STORED_PAST_THE_PAGE),
      ),
    );
  }

  load(value, isDefault) {
    this.saved = value;
    this.isDefault = isDefault;
    this.textarea.value = value;
    this.stale.hidden = true;
    replace(this.error);
    this.refreshState();
  }

  refreshState() {
    const dirty = this.isDirty();
    this.saveButton.disabled = !dirty;
    this.revertButton.hidden = !dirty;
    if (this.restoreButton) this.restoreButton.disabled = Boolean(this.isDefault) && !dirty;
    if (this.isDefault === undefined) this.badge.hidden = true;
    else {
      this.badge.hidden = false;
      this.badge.textContent = this.isDefault ? "Default" : "Customized";
      this.badge.className = this.isDefault ? "badge" : "badge badge-accent";
    }
    if (dirty) this.status.textContent = "Unsaved changes";
    else if (!this.status.dataset.keep) this.status.textContent = "";
    this.showHiddenLines();
    const missing = this.needs && !this.textarea.value.includes(this.needs);
    this.warning.hidden = !missing;
    if (missing) {
      this.warning.textContent =
        this.needsMessage ??
        `This text has no ${this.needs}: it marks where that index goes, and a prompt without it is not saved.`;
    }
  }

  revert() {
    this.load(this.saved, this.isDefault);
    this.textarea.focus();
  }

  async save() {
    const ok = await confirmDialog({
      title: `Save the ${this.title.toLowerCase()}?`,
      message: this.confirmText,
      confirmLabel: "Save",
    });
    if (!ok) return;
    await this.send(this.saveButton, "Saving…", this.patch(this.textarea.value), "Saved");
  }

  async restore() {
    const ok = await confirmDialog({
      title: `Restore the default ${this.title.toLowerCase()}?`,
      message: "Your customized text is replaced by the built-in default.",
      confirmLabel: "Restore default",
    });
    if (!ok) return;
    this.textarea.value = this.saved;
    await this.send(this.restoreButton, "Restoring…", this.patch(null), "Default restored");
  }

  async send(button, busyLabel, body, doneMessage) {
    replace(this.error);
    this.status.classList.remove("error");
    try {
      await withBusy(button, busyLabel, () => this.view.patchConfig(body, { force: this }));
      this.status.textContent = doneMessage;
      this.status.dataset.keep = "1";
      setTimeout(() => delete this.status.dataset.keep, 4000);
      toast(`${this.title}: ${doneMessage.toLowerCase()}.`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      replace(this.error, this.view.problemBox(error));
    } finally {
      this.refreshState();
      // Save is disabled once saved: keep the keyboard in the editor, not on the page (W-6).
      keepFocus(this.textarea);
    }
  }
}
