// S-1: the search box of the Memory tab. Typing searches every scope of the agent (GET
// …/memory/search, debounced; Enter searches at once); hits come best first and show the
// memory's name, its scope, its description and a passage of its body, the matched words marked
// in each (each text once), and open in the viewer. Escape clears. Only the newest answer is
// shown, so a slow early answer never replaces a later one. A search run by typing says so
// (`typing=true`): the service then opens a Korean last syllable an input method has not
// finished (`한구` on the way to `한국`, S-2); Enter searches the text as typed in full.

import { ApiError, api, paths } from "../api.js";
import { errorBox, h, plural, replace } from "../dom.js";
import { hiddenTextNodes, showHidden } from "../hidden-text.js";

const DEBOUNCE_MS = 250;
const LIMIT = 20;
const MORE_LIMIT = 100; // the service's most hits per answer

/** Marked parts as text, the matched ones in <mark> (never HTML from the service); a hidden
 * character the service left in one shows as its mark (I-9). */
function marked(parts) {
  return parts.map((part) =>
    part.hit ? h("mark", {}, hiddenTextNodes(part.text)) : hiddenTextNodes(part.text),
  );
}

export class MemorySearch {
  /** `tab` is the MemoryTab: its view (project, agent), the scopes it shows and its viewer. */
  constructor(tab) {
    this.tab = tab;
    this.ticket = 0;
    this.timer = null;
    this.limit = LIMIT;
    this.typing = false; // the box's text is still being typed (its last search ran on input)
    this.input = h("input", {
      type: "search",
      id: "memory-search",
      placeholder: "Search names, descriptions and bodies",
      autocomplete: "off",
      spellcheck: "false",
      "aria-controls": "memory-search-results",
      oninput: () => {
        this.limit = LIMIT;
        this.schedule();
      },
      onkeydown: (event) => this.onKey(event),
    });
    this.status = h("p", {
      class: "sub search-status",
      role: "status",
      id: "memory-search-status",
    });
    this.results = h("ul", {
      class: "search-results",
      id: "memory-search-results",
      "aria-label": "Search results",
      hidden: true,
    });
    this.element = h(
      "search",
      { class: "memory-search", "aria-label": "Search memories" },
      h("label", { for: "memory-search", class: "visually-hidden" }, "Search memories"),
      this.input,
      this.status,
      this.results,
    );
  }

  onKey(event) {
    if (event.key === "Enter") {
      event.preventDefault();
      this.run(false);
    } else if (event.key === "Escape" && this.input.value) {
      event.preventDefault();
      this.input.value = "";
      this.run();
    }
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(true), DEBOUNCE_MS);
  }

  clear() {
    this.ticket++;
    replace(this.results);
    this.results.hidden = true;
    this.status.textContent = "";
  }

  /** Search for the box's text now; an empty box clears the results. `typing`: the text is
   * still being typed (a debounced input, not Enter); a retry or "more" keeps the last one's. */
  async run(typing = this.typing) {
    clearTimeout(this.timer);
    this.typing = typing;
    const query = this.input.value.trim();
    if (!query) {
      this.clear();
      return;
    }
    const ticket = ++this.ticket;
    const { project, agent } = this.tab.view;
    this.status.textContent = "Searching…";
    this.results.setAttribute("aria-busy", "true");
    const search = new URLSearchParams({ q: query, limit: String(this.limit) });
    if (typing) search.set("typing", "true");
    const path = `${paths.memory(project, agent)}/search?${search}`;
    try {
      const data = await api.get(path);
      if (ticket === this.ticket) this.render(data);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (ticket !== this.ticket) return;
      this.status.textContent = "";
      this.results.hidden = false;
      const retry = () => this.run();
      replace(this.results, h("li", {}, errorBox(`Search failed: ${error.detail}`, retry)));
    } finally {
      if (ticket === this.ticket) this.results.removeAttribute("aria-busy");
    }
  }

  /** The scope object of `key` from the groups shown (for the viewer and its label). */
  scopeOf(key) {
    return this.tab.knownScope(key) ?? { key, kind: "workspace", title: key };
  }

  render(data) {
    const shown = data.hits.length;
    const more = data.total > shown ? `, the best ${shown} shown` : "";
    // Files the service cannot read were searched by name only, and a scope it cannot list or
    // use (`<key>/`) not at all (Q-2b): say so, never hide it.
    const found = data.unreadable ?? [];
    const folders = found.filter((f) => f.file.endsWith("/"));
    const unread = found.filter((f) => !f.file.endsWith("/"));
    const unsearched =
      (unread.length
        ? ` ${plural(unread.length, "file", "files")} the service cannot read ` +
          `${unread.length === 1 ? "was" : "were"} searched by name only: ` +
          `${unread.map((f) => f.file).join(", ")}.`
        : "") +
      (folders.length
        ? ` ${plural(folders.length, "scope", "scopes")} the service cannot read ` +
          `${folders.length === 1 ? "was" : "were"} not searched: ` +
          `${folders.map((f) => f.file.slice(0, -1)).join(", ")}.`
        : "");
    this.status.textContent =
      (shown
        ? `${plural(data.total, "memory matches", "memories match")}${more}.`
        : `No memory matches “${data.query}”.`) + unsearched;
    this.results.hidden = shown === 0;
    const moreButton =
      data.total > shown && this.limit < MORE_LIMIT
        ? h(
            "li",
            { class: "search-more" },
            h(
              "button",
              {
                type: "button",
                class: "btn btn-ghost btn-sm",
                onclick: () => {
                  this.limit = MORE_LIMIT;
                  this.run();
                },
              },
              `Show up to ${MORE_LIMIT}`,
            ),
          )
        : null;
    replace(this.results, data.hits.map((hit) => this.hitRow(hit)), moreButton);
  }

  hitRow(hit) {
    const scope = this.scopeOf(hit.scope);
    const where = scope.kind === "user" ? "User memory" : showHidden(scope.title);
    return h(
      "li",
      { class: "search-hit" },
      h(
        "button",
        {
          type: "button",
          class: "search-open",
          dataset: { scope: hit.scope, file: hit.file },
          onclick: () => this.tab.viewer.open(scope, hit),
        },
        h(
          "span",
          { class: "search-title" },
          h("span", { class: "row-name" }, marked(hit.nameParts)),
          h("span", { class: "search-where", text: `${where} · ${hit.file}` }),
        ),
        hit.description ? h("span", { class: "row-desc" }, marked(hit.descriptionParts)) : null,
        hit.snippet.length ? h("p", { class: "search-snippet" }, marked(hit.snippet)) : null,
      ),
    );
  }
}
