// W-4: the bridging modal behind Edit and Add. Content changes go through a chat Session
// so this only writes a short prompt — the target and the ask; the save mechanics live
// in the agent's memory prompt — and hands it over: Copy, or Open a new chat through a draft
// that pins the Workspace for a Workspace scope.

import { ApiError, api, paths } from "../api.js";
import { openModal, toast } from "../dialogs.js";
import { errorBox, h, icon, replace, withBusy } from "../dom.js";
import { fieldText, markHidden, showHidden } from "../hidden-text.js";

const SOURCE = /^(https?:\/\/\S+|~?\/\S.*|[A-Za-z]:\\\S.*)$/;

/** The scope as the prompt names it: "your user memory" / "your Workspace memory for <path>". */
function scopePhrase(scope) {
  if (scope.kind === "user") return "your user memory";
  return `your Workspace memory for ${markHidden(scope.workspacePath ?? scope.title)}`;
}

/** The file a memory lives in, relative to the agent's memory root: `…/memory/<key>/<file>`. */
function targetPath(scope, file) {
  return `…/memory/${scope.key}/${file}`;
}

/** The Edit prompt: name the memory and its file, then the requirement (or leave it trailing). */
function editPrompt(scope, topic, requirement) {
  const head = `Update the memory “${topic.name}” in ${scopePhrase(scope)} (${targetPath(scope, topic.file)}).`;
  return `${head}\n\n${requirement.trim()}`;
}

/** The Add prompt: a single path or URL is a source to read; anything else is the content. */
function addPrompt(scope, content) {
  const text = content.trim();
  if (SOURCE.test(text) && !text.includes("\n")) {
    return `Read ${text} and save what is worth keeping into ${scopePhrase(scope)}.`;
  }
  return `Save this into ${scopePhrase(scope)}:\n\n${text}`;
}

/** Fill `{draftId}`, `{project}` and `{agent}` of the chat URL template (each URL-encoded). */
function chatUrl(template, values) {
  return template.replace(/\{(draftId|project|agent)\}/g, (_, name) =>
    encodeURIComponent(values[name]),
  );
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (permissions, insecure context): fall back to a selection copy.
    const area = h("textarea", { value: text, readonly: true, class: "copy-buffer" });
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** The textarea of the requirement (Edit) or the content or source (Add, required). */
function requirementField(isEdit, initial, onInput) {
  return h("textarea", {
    id: "bridge-field",
    rows: isEdit ? 4 : 6,
    required: !isEdit,
    autofocus: true,
    value: initial,
    "aria-describedby": "bridge-field-help",
    placeholder: isEdit
      ? "e.g. “The staging deploys are now on Thursdays too.”"
      : "Paste text, or give a file path or a URL for the agent to read",
    oninput: onInput,
  });
}

/** The target block: the memory and its file (Edit) or the scope (Add). */
function targetBlock(isEdit, scope, topic) {
  const kind = scope.kind === "user" ? "user memory" : "Workspace memory";
  if (isEdit) {
    return h(
      "div",
      { class: "target" },
      h("span", { class: "label" }, "Memory"),
      h("span", {}, h("strong", { text: topic.name }), ` · ${kind}`),
      h("code", { id: "bridge-target", text: targetPath(scope, topic.file) }),
    );
  }
  return h(
    "div",
    { class: "target" },
    h("span", { class: "label" }, "Scope"),
    h("strong", { id: "bridge-target", text: kind[0].toUpperCase() + kind.slice(1) }),
    scope.kind === "workspace"
      ? h("code", { text: showHidden(scope.workspacePath ?? scope.key) })
      : null,
  );
}

/**
 * How to use the prompt when the service has no chat configured (no MEMORY_API_CHAT_URL):
 * Copy is the only way over, so say where to paste it (W-4).
 */
function noChatNote(scope) {
  const where =
    scope.kind === "workspace"
      ? `in the Workspace ${showHidden(scope.workspacePath ?? scope.title)}`
      : "in any Workspace";
  return h(
    "p",
    { class: "alert alert-info", id: "bridge-no-chat" },
    h(
      "span",
      { class: "alert-text" },
      "No chat is linked to this service, so the prompt cannot be sent from here. " +
        `Copy it, start a new Session of this agent ${where}, and paste it as your first message. ` +
        "(An operator links a chat with MEMORY_API_CHAT_URL.)",
    ),
  );
}

/** Copy and Open a new chat, with their status and error outputs, for the prompt `prompt()`. */
function bridgeActions({ project, agent, scope, me, prompt, valid }) {
  const error = h("div", { class: "bridge-error" });
  const status = h("span", { class: "inline-status", role: "status" });
  const chatLink = h("p", { class: "muted", hidden: true });
  const copy = async () => {
    if (!valid()) return;
    if (await copyText(prompt())) {
      status.textContent = "Prompt copied.";
      toast("Prompt copied to the clipboard.");
    } else status.textContent = "Could not copy: select the preview and copy it by hand.";
  };
  const copyButton = h(
    "button",
    { type: "button", class: "btn", id: "bridge-copy", onclick: copy },
    icon("copy"),
    h("span", { class: "label-text" }, "Copy"),
  );
  const openChat = async () => {
    if (!valid()) return;
    replace(error);
    // Open the tab now, inside the click, so no popup blocker stops it; navigate it later.
    const tab = window.open("about:blank", "_blank");
    try {
      const body = { prompt: prompt() };
      if (scope.kind === "workspace" && scope.workspacePath) body.workspace = scope.workspacePath;
      const draft = await withBusy(chatButton, "Creating draft…", () =>
        api.post(paths.drafts(project, agent), body),
      );
      const url = chatUrl(me.chatUrlTemplate, { draftId: draft.id, project, agent });
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      }
      const again = { href: url, target: "_blank", rel: "noopener", id: "bridge-chat-link" };
      replace(chatLink, "Chat opened. ", h("a", again, "Open it again"));
      chatLink.hidden = false;
      status.textContent = "Draft created.";
    } catch (failure) {
      tab?.close();
      if (!(failure instanceof ApiError)) throw failure;
      replace(error, errorBox(`Could not create the chat draft: ${failure.detail}`));
    }
  };
  const chatButton = me?.chatUrlTemplate
    ? h(
        "button",
        { type: "button", class: "btn btn-primary", id: "bridge-chat", onclick: openChat },
        icon("external"),
        h("span", { class: "label-text" }, "Open a new chat"),
      )
    : null;
  return { error, status, chatLink, copyButton, chatButton };
}

/** The modal's dialog element around the field, the preview and the actions. */
function bridgeDialog({ isEdit, scope, topic, field, preview, actions }) {
  const dialog = h(
    "dialog",
    {
      class: "modal modal-wide bridge",
      "aria-labelledby": "bridge-title",
      "aria-describedby": "bridge-intro",
    },
    h(
      "div",
      { class: "modal-inner" },
      h("h2", { id: "bridge-title" }, isEdit ? `Edit “${topic.name}”` : "Add a memory"),
      h(
        "p",
        { class: "muted", id: "bridge-intro" },
        "Memories change only in a chat with the agent, which keeps the file and its index in step. ",
        "This makes the prompt for that chat.",
      ),
      targetBlock(isEdit, scope, topic),
      h(
        "div",
        { class: "field" },
        h(
          "label",
          { for: "bridge-field" },
          isEdit ? "What should change? (optional)" : "Content or source (required)",
        ),
        field,
        h(
          "span",
          { class: "help", id: "bridge-field-help" },
          isEdit
            ? "Leave it empty to finish the request in the chat's composer."
            : "Pasted text, a file path or a URL: the agent reads sources itself.",
        ),
      ),
      h(
        "div",
        { class: "field" },
        h("span", { class: "label", id: "bridge-preview-label" }, "Prompt preview"),
        preview,
      ),
      actions.chatButton ? null : noChatNote(scope),
      actions.error,
      actions.chatLink,
      h(
        "div",
        { class: "editor-foot" },
        actions.status,
        h(
          "div",
          { class: "actions end" },
          h(
            "button",
            { type: "button", class: "btn btn-ghost", onclick: () => dialog.close() },
            "Close",
          ),
          actions.copyButton,
          actions.chatButton,
        ),
      ),
    ),
  );
  return dialog;
}

/**
 * Open the modal. `mode` "edit" (topic given) or "add"; `me.chatUrlTemplate` null hides
 * "Open a new chat" and explains how to use Copy. `requirement` prefills the field ("Fix this
 * memory", W-6). The field is required for Add: Copy and Open refuse an empty one. `onClose`
 * runs when the modal closes. Returns the dialog.
 */
export function openBridge({ mode, project, agent, scope, topic, me, requirement = "", onClose }) {
  const isEdit = mode === "edit";
  // The field shows a prefilled stack cut, as the page shows text anywhere (W-5: a textarea
  // holding thousands of marks on one letter froze the page); what is sent holds it whole.
  const prefilled = fieldText(requirement);
  const field = requirementField(isEdit, prefilled.shown, () => update());
  const preview = h("pre", {
    class: "preview",
    id: "bridge-preview",
    tabindex: "0",
    "aria-labelledby": "bridge-preview-label",
  });
  // The prompt as it is shown, copied and sent: the memory's name and file, a finding's words
  // and pasted text hold what an agent wrote, so each hidden run is its mark (I-9), as Session
  // start shows it. Never hidden characters riding unseen into the user's own chat message
  // (Copy), nor a draft the service refuses for them. A stack of combining characters
  // stays whole in what is copied and sent (the agent saves the text as it is), and is cut only
  // in the preview that shows it (W-5).
  const prompt = () => {
    const text = prefilled.whole(field.value);
    return markHidden(isEdit ? editPrompt(scope, topic, text) : addPrompt(scope, text));
  };
  const update = () => {
    preview.textContent =
      isEdit || field.value.trim() ? showHidden(prompt()) : "The prompt appears here as you type.";
    field.setCustomValidity("");
  };
  const valid = () => {
    if (isEdit || field.value.trim()) return true;
    field.setCustomValidity("Enter the content to save, or a file path or URL.");
    field.reportValidity();
    field.focus();
    return false;
  };
  const actions = bridgeActions({ project, agent, scope, me, prompt, valid });
  const dialog = bridgeDialog({ isEdit, scope, topic, field, preview, actions });
  update();
  openModal(dialog, { onClose });
  return dialog;
}
