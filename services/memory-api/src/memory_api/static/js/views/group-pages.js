// A-3, W-5 at scale: the Memory tab never waits for every scope. The overview comes a page at
// a time (the user scope first, then the Workspaces by newest activity) with totals for all of
// them; the next page loads as the end of the groups comes near the screen (and from the
// "Show more groups" button, for the keyboard), and the group finder asks the service for the
// scopes whose name, key or path holds the text typed (debounced; only the newest answer is
// shown). While a page is on its way the groups box is aria-busy: the page's own signal that the
// groups have stopped changing.

import { ApiError, api, paths } from "../api.js";
import { errorBox, h, plural, replace, withBusy } from "../dom.js";

export const FIRST_PAGE = 50;
export const MORE_PAGE = 100;
const MOST = 500; // the most scopes one overview page may hold (the service's limit)
const DEBOUNCE_MS = 250;
const FIND_FROM = 12; // the finder shows once an agent has more groups than fit a screen or two

export class GroupPages {
  /** `tab` is the MemoryTab: it takes each page's scopes (`showScopes`) and owns the groups. */
  constructor(tab) {
    this.tab = tab;
    this.cursor = null;
    this.query = "";
    this.ticket = 0;
    this.timer = null;
    this.finder = h("input", {
      type: "search",
      id: "group-search",
      placeholder: "Workspace name or path",
      autocomplete: "off",
      spellcheck: "false",
      "aria-describedby": "group-search-status",
      oninput: () => this.schedule(),
      onkeydown: (event) => this.onKey(event),
    });
    this.status = h("p", { class: "sub find-status", role: "status", id: "group-search-status" });
    this.element = h(
      "div",
      { class: "group-finder", role: "search", "aria-label": "Find a group", hidden: true },
      h("label", { for: "group-search", class: "label" }, "Find a group"),
      this.finder,
      this.status,
    );
    this.moreText = h("span", { class: "sub", id: "more-groups-text" });
    this.moreButton = h(
      "button",
      {
        type: "button",
        class: "btn btn-sm",
        id: "more-groups",
        "aria-describedby": "more-groups-text",
        onclick: () => this.more({ asked: true }),
      },
      h("span", { class: "label-text" }, "Show more groups"),
    );
    this.moreError = h("div", { class: "more-error" });
    this.moreBox = h(
      "div",
      { class: "groups-more", hidden: true },
      this.moreText,
      this.moreButton,
      this.moreError,
    );
    // The next page loads once the end of the groups is in view or within two screens below
    // it: never while the view is below it (the prompt editors, under the groups, keep their
    // place as groups are added above them, so the end would stay near, page after page).
    this.nearEnd = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) this.more();
      },
      { rootMargin: "0px 0px 200% 0px" },
    );
    this.nearEnd.observe(this.moreBox);
  }

  /** The overview's address with `params` (limit, cursor) and the group search. */
  path(params) {
    const query = new URLSearchParams(params);
    if (this.query) query.set("q", this.query);
    return `${paths.memory(this.tab.view.project, this.tab.view.agent)}?${query}`;
  }

  /**
   * Load the first page (or, with `keep`, as many scopes as are shown now, up to the
   * service's most per page) and show it in place of the groups; raises ApiError.
   */
  async first({ keep = false } = {}) {
    const ticket = ++this.ticket;
    const limit = keep ? Math.min(MOST, Math.max(FIRST_PAGE, this.tab.scopes.length)) : FIRST_PAGE;
    this.setBusy(true);
    try {
      // The machines of every scope come with a page of all groups, not with a search.
      const [page] = await Promise.all([
        api.get(this.path({ limit })),
        this.query ? null : this.tab.readMachines(),
      ]);
      if (ticket !== this.ticket) return false; // a newer search or refresh is on its way
      this.take(page, { replace: true });
      return true;
    } finally {
      if (ticket === this.ticket) this.setBusy(false);
    }
  }

  /** Load the page after the groups shown, if there is one and none is on its way; `asked`:
   * from the button. A button that had the focus keeps it while there are more pages; after
   * the last one the focus goes on to the first group that page brought (W-6). */
  async more({ asked = false } = {}) {
    if (!this.cursor || this.loadingMore || this.tab.groupsBox.getAttribute("aria-busy")) return;
    const ticket = this.ticket;
    // Focusing the button scrolls it into view, which may start the load before Enter does.
    const focused = asked || document.activeElement === this.moreButton;
    this.loadingMore = true;
    this.setBusy(true);
    replace(this.moreError);
    try {
      const page = await withBusy(this.moreButton, "Loading…", () =>
        api.get(this.path({ limit: MORE_PAGE, cursor: this.cursor })),
      );
      if (ticket === this.ticket) {
        const shown = this.tab.scopes.length;
        this.take(page, { replace: false });
        // Disabled while loading, gone after the last page: the keyboard is never left on the
        // page. A page loaded by scrolling moves no focus.
        const first = this.tab.scopes[shown];
        if (focused && this.moreBox.hidden && first) {
          this.tab.groups.get(first.key)?.toggleButton.focus();
        } else if (focused) this.moreButton.focus({ preventScroll: true });
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      replace(this.moreError, errorBox(`Could not load more groups: ${error.detail}`));
    } finally {
      this.loadingMore = false;
      if (ticket === this.ticket) this.setBusy(false); // else a search's page is on its way
    }
    // Still near the end (a tall screen, a short page): the observer saw no change; go on.
    if (ticket === this.ticket && this.cursor && this.nearScreen()) this.more();
  }

  /** Re-read the totals of every scope (after a delete, say) without moving any group. */
  async refreshTotals() {
    const page = await api.get(this.path({ limit: 1 }));
    this.tab.overview.totals = page.totals;
    this.showCounts();
  }

  take(page, { replace: whole }) {
    this.cursor = page.nextCursor;
    this.tab.showScopes(page, { replace: whole });
    this.showCounts();
  }

  /** The line under the groups and the finder's status: how many are shown of how many. */
  showCounts() {
    const { totals } = this.tab.overview;
    const shown = this.tab.scopes.length;
    if (totals.scopes >= FIND_FROM) this.element.hidden = false; // stays once shown
    this.moreBox.hidden = !this.cursor;
    this.moreText.textContent = `Showing ${shown.toLocaleString()} of ${plural(totals.matching, "group", "groups")}`;
    this.status.textContent = this.query
      ? totals.matching
        ? `${plural(totals.matching, "group matches", "groups match")} “${this.query}”.`
        : `No group matches “${this.query}”.`
      : "";
  }

  nearScreen() {
    const box = this.moreBox.getBoundingClientRect();
    return !this.moreBox.hidden && box.bottom > 0 && box.top < window.innerHeight * 3;
  }

  setBusy(busy) {
    if (busy) this.tab.groupsBox.setAttribute("aria-busy", "true");
    else this.tab.groupsBox.removeAttribute("aria-busy");
  }

  onKey(event) {
    if (event.key === "Enter") {
      event.preventDefault();
      this.find();
    } else if (event.key === "Escape" && this.finder.value) {
      event.preventDefault();
      this.finder.value = "";
      this.find();
    }
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.find(), DEBOUNCE_MS);
  }

  /** Show the groups matching the finder's text (every group when it is empty). */
  async find() {
    clearTimeout(this.timer);
    const query = this.finder.value.trim();
    if (query === this.query && this.tab.overview) return;
    this.query = query;
    try {
      await this.first();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.status.textContent = `Could not find groups: ${error.detail}`;
    }
  }
}
