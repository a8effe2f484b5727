// I-1: what the config answer's `memory.promptWarnings` says of a stored memory prompt that
// does not hold its index placeholder exactly once, as written (edited by hand in agent.json,
// or saved before the rule: the API refuses such a save), told in plain words where the prompt
// is edited and at the head of the agent's page.

import { h } from "../dom.js";

/** The memory prompts, by their field in the config answer, as the page names them. */
export const PROMPT_FIELDS = [
  { field: "prompt", label: "Memory prompt" },
  { field: "workspacePrompt", label: "Workspace memory prompt" },
];

/**
 * The service's warning of `config.memory[field]` without the field's name, as a sentence
 * ("It must hold {{MEMORY_USER_INDEX}} exactly once, …"), or null when it has none. Each
 * warning starts with the field's wire name ("memory.prompt must hold …").
 */
export function promptWarning(config, field) {
  const start = `memory.${field} `;
  const warning = (config.memory.promptWarnings ?? []).find((line) => line.startsWith(start));
  if (!warning) return null;
  const rest = warning.slice(start.length);
  return `It ${rest}.`;
}

/** Why a stored prompt can be off the rule the page's own saves keep. */
export const STORED_PAST_THE_PAGE =
  "It was saved past this page (agent.json edited by hand, or saved before the rule). " +
  "Correct it and save, or restore the default.";

/**
 * The notice at the head of the agent's page: one line per memory prompt with a warning, each
 * with a button `edit(field)` that takes the user to its editor; null when there is none.
 */
export function promptWarningsNotice(config, edit) {
  const lines = PROMPT_FIELDS.map(({ field, label }) => ({
    field,
    label,
    text: promptWarning(config, field),
  })).filter((line) => line.text);
  if (!lines.length) return null;
  const many = lines.length > 1;
  return h(
    "div",
    { class: "alert alert-warn prompt-warnings", id: "prompt-warnings", role: "note" },
    h(
      "div",
      { class: "alert-text" },
      h(
        "p",
        {},
        h(
          "strong",
          {},
          many ? "Two memory prompts need fixing" : `The ${lines[0].label.toLowerCase()} needs fixing`,
        ),
        ": a Session start does not use ",
        many ? "them" : "it",
        " as written.",
      ),
      h(
        "ul",
        {},
        ...lines.map(({ field, label, text }) =>
          h(
            "li",
            { "data-field": field },
            h("strong", {}, `${label}. `),
            text,
            " ",
            h(
              "button",
              { type: "button", class: "btn btn-sm", onclick: () => edit(field) },
              `Edit the ${label.toLowerCase()}`,
            ),
          ),
        ),
      ),
    ),
  );
}
