// Modal dialogs on the native <dialog> (the page behind becomes inert), with Tab kept inside,
// Escape to cancel and focus returned to the control that opened them. Also: toasts.

import { h } from "./dom.js";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The visible, focusable elements inside `root`, in tab order. */
function focusables(root) {
  return [...root.querySelectorAll(FOCUSABLE)].filter(
    (el) => !el.closest("[hidden]") && el.getClientRects().length > 0,
  );
}

/** Keep Tab and Shift+Tab cycling inside `dialog`. */
function trapFocus(dialog) {
  if (dialog.dataset.trapped) return;
  dialog.dataset.trapped = "true";
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const items = focusables(dialog);
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    if (
      event.shiftKey &&
      (document.activeElement === first || !dialog.contains(document.activeElement))
    ) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
}

/**
 * Open `dialog` modally. `onClose` runs once when it closes (Escape, a close button, code).
 * Focus goes to `[autofocus]` or the first control, and back to the opener afterwards.
 * Returns a `close()` function; the dialog element is removed from the page on close.
 */
export function openModal(dialog, { onClose, keep = false } = {}) {
  const opener = document.activeElement;
  trapFocus(dialog);
  dialog.addEventListener(
    "close",
    () => {
      onClose?.();
      if (!keep) dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    },
    { once: true },
  );
  if (!dialog.isConnected) document.body.append(dialog);
  dialog.showModal();
  const target = dialog.querySelector("[autofocus]") ?? focusables(dialog)[0];
  target?.focus();
  return () => {
    if (dialog.open) dialog.close();
  };
}

let dialogCount = 0;

/**
 * A modal form: an h2 `title`, `content` nodes, then Cancel and the `submit` button.
 * `accept(event)` runs on submit and returns the result (or calls `event.preventDefault()` to
 * keep the dialog open). Resolves that result, or `cancelled` on Cancel or Escape.
 */
function formDialog({ className, title, content, submit, accept, cancelled }) {
  return new Promise((resolve) => {
    let result = cancelled;
    // A counter, not crypto.randomUUID(): that exists only in secure contexts (not plain http).
    const titleId = `dialog-title-${++dialogCount}`;
    const onsubmit = (event) => {
      const value = accept(event);
      if (!event.defaultPrevented) result = value;
    };
    const dialog = h(
      "dialog",
      { class: `modal ${className}`, "aria-labelledby": titleId },
      h(
        "form",
        { method: "dialog", onsubmit },
        h("h2", { id: titleId, text: title }),
        content,
        h(
          "div",
          { class: "actions end" },
          h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, "Cancel"),
          submit,
        ),
      ),
    );
    openModal(dialog, { onClose: () => resolve(result) });
  });
}

/**
 * Ask for confirmation. Resolves true on confirm, false on cancel or Escape.
 * `danger` styles the confirm button red (deletes); the message is plain text.
 */
export function confirmDialog({ title, message, confirmLabel = "Confirm", danger = false }) {
  return formDialog({
    className: "confirm-dialog",
    title,
    content: message ? h("p", { class: "muted", text: message }) : null,
    submit: h(
      "button",
      { type: "submit", class: danger ? "btn btn-danger" : "btn btn-primary", autofocus: true },
      confirmLabel,
    ),
    accept: () => true,
    cancelled: false,
  });
}

/**
 * What the token prompt tells the person who runs the service (A-10): the command that makes a
 * token, as the README gives it, for the program as each way of installing it names it:
 * `make run`'s `.venv/bin/memory-api` (on no PATH; it writes only into a data dir named, the
 * checkout's `.data`), and `memory-api` installed from the wheels. A bare `memory-api` alone
 * sent the newcomer of round 56 to "command not found". The same words for everyone, built
 * from no answer of the service: a stranger learns nothing but that the service is Agent
 * Memory, which the page itself already shows.
 */
function operatorHint() {
  return h(
    "p",
    { class: "muted token-operator-hint" },
    "Run this service yourself? Make a token where it runs, with its data dir: ",
    h("code", {
      text: "MEMORY_API_DATA_DIR=$PWD/.data .venv/bin/memory-api token create --name NAME",
    }),
    " in the checkout make run serves, or ",
    h("code", { text: "memory-api token create --name NAME" }),
    " where memory-api is installed as a program, its data dir in MEMORY_API_DATA_DIR (add ",
    h("code", { text: "--project P" }),
    " to limit it to one project). It prints the secret once; ",
    h("code", { text: "memory-api token list" }),
    " (the same program, the same data dir) names the tokens there are.",
  );
}

/**
 * The problem types (RFC 9457 `type`, the service's memory_api.errors) of the 401s whose
 * detail the prompt's own first line already says (no token sent; a token it does not know),
 * in words for an HTTP client ("send 'Authorization: Bearer …'"): shown under it they only
 * repeated it. Any other 401 (a service beyond loopback with no token configured, a proxy's
 * own) tells what the first line cannot, and its detail is shown. Matched by type, never by
 * the detail's wording, which the service may change.
 */
const SAID_BY_THE_PROMPT = new Set([
  "tag:agent-memory,2026:problem/bearer-token-missing",
  "tag:agent-memory,2026:problem/bearer-token-unknown",
]);

/**
 * Where the page keeps the token it is given, as the prompt says it under "Remember on
 * this device": unticked (the default) in this tab's sessionStorage, gone when the tab closes;
 * ticked in this browser's localStorage for this site until Sign out, where anyone using this
 * browser profile (or a script of this site) can read it.
 */
function keptWhere(remembered) {
  return remembered
    ? `Kept in this browser's local storage for ${location.origin} until you sign out: anyone ` +
        "using this browser profile can read it there."
    : "Kept for this tab only (the browser's session storage): forgotten when the tab closes.";
}

/**
 * Ask for a bearer token. Resolves {token, remember} or null when cancelled.
 * `problem` is the service's 401 ({type, detail}): its detail is shown unless the first line
 * says it already (SAID_BY_THE_PROMPT); `hadToken` says the token the page sent (just typed,
 * or remembered from before) was refused.
 */
export function tokenDialog(problem, hadToken) {
  const detail = SAID_BY_THE_PROMPT.has(problem.type) ? null : problem.detail;
  const input = h("input", {
    type: "password",
    id: "token-input",
    name: "token",
    autocomplete: "off",
    spellcheck: "false",
    required: true,
    autofocus: true,
  });
  const where = h("p", { class: "muted token-kept-where", id: "token-kept-where" });
  const remember = h("input", {
    type: "checkbox",
    id: "token-remember",
    "aria-describedby": "token-kept-where",
    onchange: () => where.replaceChildren(keptWhere(remember.checked)),
  });
  where.replaceChildren(keptWhere(false));
  return formDialog({
    className: "token-dialog",
    title: "Sign in with a token",
    content: [
      h(
        "p",
        { class: "muted" },
        hadToken
          ? "The service refused that token (mistyped, or revoked). Enter another bearer token."
          : "This service needs a bearer token. Ask its operator for one.",
      ),
      detail ? h("p", { class: "alert alert-warn", text: detail }) : null,
      operatorHint(),
      h("div", { class: "field" }, h("label", { for: "token-input" }, "Bearer token"), input),
      h(
        "label",
        { class: "actions check-label", for: "token-remember" },
        remember,
        "Remember on this device",
      ),
      where,
    ],
    submit: h("button", { type: "submit", class: "btn btn-primary" }, "Sign in"),
    accept: (event) => {
      const token = input.value.trim();
      if (token) return { token, remember: remember.checked };
      event.preventDefault();
      input.focus();
      return null;
    },
    cancelled: null,
  });
}

/**
 * Where toasts show: inside the topmost open modal dialog while there is one (it sits in the
 * top layer over the page, and the page behind it is inert, so a toast there would be hidden
 * and never announced), else the page's own region. A dialog's toasts move back to the page's
 * region when it closes.
 */
function toastRegion() {
  const page = document.getElementById("toasts");
  const modal = [...document.querySelectorAll("dialog[open]")]
    .filter((dialog) => dialog.matches(":modal"))
    .pop();
  if (!modal) return page;
  let region = modal.querySelector(":scope > .toasts");
  if (!region) {
    region = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    modal.append(region);
    modal.addEventListener(
      "close",
      () => {
        page?.append(...region.children);
        region.remove();
      },
      { once: true },
    );
  }
  return region;
}

/**
 * Show a short message at the bottom of the screen, over any open dialog (announced
 * politely). `action` ({label, run}) adds a button (e.g. Undo): such a toast stays 12 s, and
 * never goes while the pointer or the focus is on it; pressing the button removes it and calls
 * `run()`.
 */
export function toast(message, { error = false, timeout = 4000, action = null } = {}) {
  const region = toastRegion();
  if (!region) return;
  const item = h("div", { class: error ? "toast error" : "toast" }, h("span", { text: message }));
  if (action) {
    item.classList.add("has-action");
    item.append(
      h(
        "button",
        {
          type: "button",
          class: "btn btn-sm toast-action",
          onclick: () => {
            item.remove();
            action.run();
          },
        },
        action.label,
      ),
    );
  }
  region.append(item);
  const wait = action ? Math.max(timeout, 12000) : error ? timeout * 2 : timeout;
  const expire = () => {
    if (item.matches(":hover, :focus-within")) setTimeout(expire, 1000);
    else item.remove();
  };
  setTimeout(expire, wait);
}
