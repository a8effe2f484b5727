// V-2 on the page, per scope, in the drawer / bottom sheet:
// - What changed (…/memory/changes/{key}): the scope's versions since the user last looked
//   (remembered in the browser, js/store.js), the last day, the last week or ever, newest first,
//   each with who, when and the files it changed (each opens that file's history);
// - Recently deleted (…/memory/deleted/{key}): files deleted and not there now, each with
//   Restore (the file and its index lines come back) and its History; while the service is still
//   looking through a long history for them, the page says so and asks again until it is done.

import { ApiError, api } from "../api.js";
import { errorBox, h, icon, keepFocus, plural, replace, withBusy } from "../dom.js";
import { lastLooked } from "../store.js";
import {
  CHANGE_LABELS,
  apiTime,
  authorText,
  beginView,
  formatWhen,
  isCurrent,
  restoreFile,
  scopeText,
  versionPaths,
} from "./versions.js";

const DAY = 24 * 60 * 60 * 1000;
/** Looks at Recently deleted asked in a row while the service is still looking through a long
 * history (each goes a bounded way further: 600 cross well over 100,000 versions). */
const MAX_DELETED_LOOKS = 600;

/**
 * The periods of What changed: {id, label, query, empty} — `query` the changes route's `since`
 * or `after`, `empty` the sentence when nothing is there. Since the user last looked comes first
 * when the browser remembers it: newer than the newest version then shown (exact, whatever the
 * clocks say), else recorded since then.
 */
function periods(looked, now) {
  const list = [
    { id: "day", label: "Last day", query: { since: apiTime(now - DAY) } },
    { id: "week", label: "Last week", query: { since: apiTime(now - 7 * DAY) } },
    { id: "all", label: "Everything", query: {} },
  ];
  if (looked) {
    list.unshift({
      id: "looked",
      label: `Since you last looked (${formatWhen(apiTime(looked.at))})`,
      query: looked.version ? { after: looked.version } : { since: apiTime(looked.at) },
      fallback: { since: apiTime(looked.at) },
    });
  }
  const empty = {
    looked: "Nothing changed in this scope since you last looked.",
    day: "Nothing changed in this scope in the last day.",
    week: "Nothing changed in this scope in the last week.",
    all: "No change of this scope is recorded yet.",
  };
  return list.map((period) => ({ ...period, empty: empty[period.id] }));
}

export class ScopeHistoryView {
  constructor(tab) {
    this.tab = tab;
    this.viewer = tab.viewer;
  }

  /** The nav between the two views of a scope's history; `active` is "changes" or "deleted". */
  nav(scope, active) {
    const link = (kind, label) =>
      h(
        "button",
        {
          type: "button",
          class: "btn btn-sm",
          dataset: { kind },
          "aria-current": kind === active ? "page" : null,
          onclick: () => {
            if (kind !== active) this.tab.go(kind, scope);
          },
        },
        label,
      );
    return h(
      "nav",
      { class: "scope-history-nav", "aria-label": "History of this scope" },
      link("changes", "What changed"),
      link("deleted", "Recently deleted"),
    );
  }

  /** Open the viewer on one of the views, with the nav; returns its ticket. */
  begin(title, scope, active, where) {
    const ticket = beginView(this.viewer, title, scope.workspacePath, where);
    replace(this.viewer.notes, this.nav(scope, active));
    return ticket;
  }

  /** Whether the viewer still shows the view of `ticket`. */
  current(ticket) {
    return isCurrent(this.viewer, ticket);
  }

  // --- What changed ----------------------------------------------------------------------------

  /** Show What changed in `scope`; the first period is since the user last looked. */
  openChanges(scope, where) {
    const { view } = this.tab;
    const seen = lastLooked(view.me?.name ?? "anonymous", view.project, view.agent, scope.key);
    const looked = seen.get();
    const now = Date.now();
    this.begin(`What changed · ${scopeText(scope)}`, scope, "changes", where);
    const choices = periods(looked, now);
    // What this look saw is remembered once its first answer came (see loadChanges).
    const remember = (newest) => seen.set({ at: now, version: newest ?? looked?.version ?? null });
    const period = looked ? "looked" : "week";
    this.changes = { scope, choices, period, remember };
    const picker = h(
      "div",
      { class: "mode-switch period-switch", role: "group", "aria-label": "Changes made" },
      choices.map(({ id, label }) =>
        h(
          "button",
          {
            type: "button",
            class: "btn btn-sm",
            dataset: { period: id },
            "aria-pressed": String(id === this.changes.period),
            onclick: () => {
              this.changes.period = id;
              for (const button of picker.children) {
                button.setAttribute("aria-pressed", String(button.dataset.period === id));
              }
              this.loadChanges(null);
            },
          },
          label,
        ),
      ),
    );
    this.viewer.notes.append(picker);
    this.changesList = h("ol", { class: "changes", "aria-label": "Changes, newest first" });
    this.changesState = h("div", { class: "changes-state" });
    this.changesMore = h("div", { class: "versions-more" });
    replace(this.viewer.body, this.changesState, this.changesList, this.changesMore);
    this.loadChanges(null);
  }

  /** Load the changes of the chosen period; `before` pages on from the oldest shown. */
  async loadChanges(before, button = null) {
    const { project, agent } = this.tab.view;
    const state = this.changes;
    const period = state.choices.find(({ id }) => id === state.period);
    const path = versionPaths.changes(project, agent, state.scope.key, {
      ...period.query,
      before,
    });
    const ticket = ++this.viewer.request;
    if (!before) {
      replace(this.changesList);
      replace(this.changesMore);
      replace(
        this.changesState,
        h("p", { class: "state state-loading", role: "status" }, "Loading changes…"),
      );
    }
    this.changesList.setAttribute("aria-busy", "true");
    let page;
    try {
      page = await (button ? withBusy(button, "Loading…", () => api.get(path)) : api.get(path));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (!this.current(ticket)) return;
      if (error.status === 404 && period.query.after) {
        // The version last seen is gone (retention squashed it): fall back on its time.
        period.query = period.fallback;
        await this.loadChanges(before, button);
        return;
      }
      this.changesList.removeAttribute("aria-busy");
      replace(
        before ? this.changesMore : this.changesState,
        errorBox(`Could not read the changes: ${error.detail}`, () => this.loadChanges(before)),
      );
      return;
    }
    if (!this.current(ticket)) return;
    if (state.remember && !before) {
      // Only the first page of any period starts at the scope's newest version.
      state.remember(page.versions[0]?.version);
      state.remember = null;
    }
    this.changesList.removeAttribute("aria-busy");
    const first = this.changesList.children.length;
    replace(this.changesState);
    for (const version of page.versions) this.changesList.append(this.change(version));
    if (!page.versions.length && !before) {
      replace(this.changesState, h("p", { class: "state", text: period.empty }));
    }
    const shown = this.changesList.children.length;
    const count = plural(shown, "change", "changes") + (page.more ? " shown" : "");
    replace(this.viewer.meta, h("span", { text: count }));
    if (page.more) {
      const oldest = page.versions[page.versions.length - 1].version;
      const more = h(
        "button",
        {
          type: "button",
          class: "btn btn-sm",
          id: "older-changes",
          onclick: () => this.loadChanges(oldest, more),
        },
        h("span", { class: "label-text" }, "Show older changes"),
      );
      replace(this.changesMore, more);
    } else replace(this.changesMore);
    if (before) keepFocus(this.changesList.children[first]?.querySelector("button"));
  }

  /** One version of the scope: when, who, what it says, and its files (each opens its history). */
  change(version) {
    const scope = this.changes.scope;
    return h(
      "li",
      { class: "change", dataset: { version: version.version } },
      h(
        "p",
        { class: "version-line" },
        h(
          "time",
          { datetime: version.author.time, title: version.author.time },
          formatWhen(version.author.time),
        ),
        h("span", { class: "version-who", text: authorText(version.author) }),
      ),
      h("p", { class: "version-summary", text: version.summary }),
      h(
        "ul",
        { class: "change-files", "aria-label": "Files it changed" },
        version.files.map(({ file, change, renamedFrom, renamedTo }) => {
          const [label, badgeClass] = CHANGE_LABELS[change] ?? [change, ""];
          // a rename is two changes, the old name deleted and the new one added (V-2)
          let renamed = "";
          if (renamedTo) renamed = ` (renamed ${renamedTo})`;
          else if (renamedFrom) renamed = ` (was ${renamedFrom})`;
          return h(
            "li",
            { dataset: { file } },
            h("span", { class: `badge ${badgeClass}`, text: label }),
            file === ".workspace"
              ? h("code", { text: file })
              : h(
                  "button",
                  {
                    type: "button",
                    class: "link-btn",
                    title: `Show the history of ${file}`,
                    onclick: () => this.tab.go("history", scope, file),
                  },
                  file,
                ),
            renamed ? h("span", { class: "renamed", text: renamed }) : null,
          );
        }),
      ),
    );
  }

  // --- Recently deleted ------------------------------------------------------------------------

  /**
   * Show the files deleted from `scope` and not there now, each with Restore and History. While
   * the service is still looking through a long history (`complete: false`, the first look after
   * an upgrade) the page says so and asks again (each answer comes at once and goes further)
   * until every version was looked at, showing the files found so far.
   */
  async openDeleted(scope, where) {
    const title = `Recently deleted · ${scopeText(scope)}`;
    const ticket = this.begin(title, scope, "deleted", where);
    const { project, agent } = this.tab.view;
    let shown = null;
    for (let looks = 1; ; looks += 1) {
      let listing;
      try {
        listing = await api.get(versionPaths.deleted(project, agent, scope.key));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (!this.current(ticket)) return;
        replace(
          this.viewer.body,
          errorBox(`Could not read the deleted files: ${error.detail}`, () =>
            this.openDeleted(scope, where),
          ),
        );
        return;
      }
      if (!this.current(ticket)) return;
      const seen = JSON.stringify([listing.files, listing.complete]);
      if (seen !== shown) {
        shown = seen;
        this.showDeleted(scope, where, listing);
      }
      // a service that cannot keep its index would never be done: not asked forever
      if (listing.complete !== false || looks >= MAX_DELETED_LOOKS) return;
    }
  }

  /** Draw one answer of …/deleted; the focus stays on the file it was on when it is there. */
  showDeleted(scope, where, listing) {
    const count = plural(listing.files.length, "deleted file", "deleted files");
    replace(this.viewer.meta, h("span", { text: count }));
    const looking =
      listing.complete === false
        ? h("p", {
            class: "state deleted-looking",
            role: "status",
            text: "Still looking through the older versions of this history for deleted files…",
          })
        : null;
    if (!listing.files.length) {
      replace(
        this.viewer.body,
        looking ??
          h("p", {
            class: "state",
            id: "deleted-empty",
            tabindex: "-1",
            text: "No deleted file is waiting here. A file deleted from this scope can be restored from here as long as its history keeps it.",
          }),
      );
      return;
    }
    // the focus stays on the file it was on (its list is drawn anew)
    const active = document.activeElement;
    const focusedFile = active?.closest?.(".deleted-file")?.dataset.file;
    const focusedRestore = active?.classList?.contains("restore-btn");
    const list = h(
      "ul",
      { class: "deleted", "aria-label": "Deleted files, newest first" },
      listing.files.map((item) => this.deletedItem(scope, item, where)),
    );
    replace(this.viewer.body, list, looking);
    if (focusedFile !== undefined) {
      const again = [...list.children].find((item) => item.dataset.file === focusedFile);
      keepFocus(again?.querySelector(focusedRestore ? ".restore-btn" : "button"));
    }
  }

  deletedItem(scope, item, where) {
    const restore = h(
      "button",
      {
        type: "button",
        class: "btn btn-sm btn-primary restore-btn",
        "aria-label": `Restore ${item.file}`,
        onclick: async () => {
          const result = await withBusy(restore, "Restoring…", () =>
            restoreFile(this.tab, scope, item.file, item.restoreVersion),
          );
          if (!result) return;
          const index = [...element.parentElement.children].indexOf(element);
          await this.openDeleted(scope, where);
          // The focus goes to the Restore of the file that took this one's place (W-6).
          const buttons = this.viewer.body.querySelectorAll(".restore-btn");
          keepFocus(
            buttons[Math.min(index, buttons.length - 1)] ??
              this.viewer.body.querySelector("#deleted-empty"),
          );
        },
      },
      h("span", { class: "label-text" }, "Restore"),
    );
    const element = h(
      "li",
      { class: "deleted-file", dataset: { file: item.file } },
      h(
        "div",
        { class: "deleted-main" },
        h("span", { class: "deleted-name", text: item.file }),
        h(
          "span",
          { class: "version-who" },
          h(
            "time",
            { datetime: item.author.time, title: item.author.time },
            formatWhen(item.author.time),
          ),
          ` · ${authorText(item.author)}`,
        ),
      ),
      h(
        "div",
        { class: "deleted-actions" },
        h(
          "button",
          {
            type: "button",
            class: "btn btn-ghost btn-sm",
            "aria-label": `History of ${item.file}`,
            onclick: () => this.tab.go("history", scope, item.file),
          },
          icon("list"),
          h("span", { class: "label-text" }, "History"),
        ),
        restore,
      ),
    );
    return element;
  }
}
