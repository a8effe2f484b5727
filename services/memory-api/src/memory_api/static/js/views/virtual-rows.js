// The rows of one scope group, windowed (W-5): a scroll area holding a list as tall as all its
// rows, in which only the rows in view (and a few on either side) exist as elements. A scope of
// thousands costs the few dozen rows a screen shows, whatever its size.
//
// Every row has the same height (`--row-h` in app.css: one line each of name, description and
// date), so row i sits at i × height: where a row is never depends on which rows were built, and
// nothing moves when rows come into view. The row holding the keyboard's place (RowKeys) stays
// built while scrolled away, so the focus is never lost. Rows carry aria-posinset/aria-setsize,
// so assistive technology says "12 of 3,000" although 40 exist.

import { h } from "../dom.js";

const OVERSCAN = 8;
const PHONE = window.matchMedia("(max-width: 640px)");

export class VirtualRows {
  /**
   * `makeRow(item)` builds the `li` of an item; `onWindow({first, last, count, scrolls,
   * loaded})` hears which rows are in view (1-based, inclusive), whether the area scrolls and
   * whether the items are known yet, whenever that changes; `describedBy` is the id of the
   * list's keyboard help.
   */
  constructor({ makeRow, onWindow, describedBy }) {
    this.makeRow = makeRow;
    this.onWindow = onWindow;
    this.items = [];
    this.reserved = null; // the row count held before the items are known
    this.scrolls = false; // more rows than the scroll area shows at once
    this.built = new Map(); // index → li
    this.pinned = null; // index kept built (the keyboard's place)
    this.list = h("ul", { class: "rows", "aria-describedby": describedBy });
    // Loading, empty and error notes: in the scroll area, above the (then empty) list, so a
    // group keeps the height it reserved while its rows load.
    this.state = h("div", { class: "rows-state" });
    this.viewport = h("div", { class: "rows-viewport" }, this.state, this.list);
    this.viewport.addEventListener("scroll", () => this.render(), { passive: true });
    this.shown = "";
    this.onResize = () => this.refit();
  }

  /** Size the scroll area again and build the rows now in view (after a resize, or when the
   * group is shown again: a hidden scroll area loses its position). */
  refit() {
    this.fitHeight();
    this.render();
  }

  get count() {
    return this.items.length;
  }

  /** The height of one row in CSS pixels (`--row-h` of the list). */
  rowHeight() {
    return parseFloat(getComputedStyle(this.list).getPropertyValue("--row-h")) || 1;
  }

  /**
   * Size the scroll area for `count` rows before they are known (a group waiting for its
   * listing keeps the height it will have, so nothing below it moves when they arrive).
   */
  reserve(count) {
    this.list.style.setProperty("--rows", String(count));
    this.reserved = count;
    // Nothing to scroll to yet: the loading note above the reserved list must not make the
    // area a scroll region with nothing focusable in it (axe: scrollable-region-focusable).
    this.viewport.classList.add("reserving");
    this.fitHeight();
    this.notify({ first: 0, last: 0 });
  }

  /**
   * Show `items`; `keepScroll` keeps the scroll position (a reload after a delete), otherwise
   * the list starts at its top (a new filter). Builds only the rows in view.
   */
  setItems(items, { keepScroll = false } = {}) {
    this.items = items;
    this.reserved = null;
    this.viewport.classList.remove("reserving");
    this.pinned = null;
    for (const row of this.built.values()) row.remove();
    this.built.clear();
    this.list.style.setProperty("--rows", String(items.length));
    this.list.dataset.total = String(items.length);
    this.fitHeight();
    if (!keepScroll) this.viewport.scrollTop = 0;
    this.shown = "";
    this.render();
  }

  /**
   * The scroll area's height: all rows when they fit in its largest height (`max-height` in
   * app.css), else the rows that fit less half a row, so the cut through a row shows there is
   * more below (a cut on a row boundary looks like the end of the list).
   */
  fitHeight() {
    const count = this.reserved ?? this.items.length;
    const height = this.rowHeight();
    const most = parseFloat(getComputedStyle(this.viewport).maxHeight);
    const fit = Number.isFinite(most) ? Math.floor(most / height) : count;
    const rows = count <= fit ? count : Math.max(1, fit - 1) + 0.5;
    // No rows: as tall as its note says (empty, no match, an error).
    this.viewport.style.height = count ? `${rows * height}px` : "";
    this.scrolls = count > fit;
    if (count > 0) {
      window.addEventListener("resize", this.onResize);
      PHONE.addEventListener("change", this.onResize);
    } else {
      window.removeEventListener("resize", this.onResize);
      PHONE.removeEventListener("change", this.onResize);
    }
  }

  /** Stop following the window's size (the group went away). */
  dispose() {
    window.removeEventListener("resize", this.onResize);
    PHONE.removeEventListener("change", this.onResize);
  }

  /** The first and last index (exclusive) of the rows in view. */
  inView() {
    const height = this.rowHeight();
    const top = this.viewport.scrollTop;
    const first = Math.min(this.count, Math.floor(top / height));
    const last = Math.min(this.count, Math.ceil((top + this.viewport.clientHeight) / height));
    return { first, last };
  }

  /** Build the rows in view and a few around them (and the pinned one); drop the others. */
  render() {
    const { first, last } = this.inView();
    const from = Math.max(0, first - OVERSCAN);
    const to = Math.min(this.count, last + OVERSCAN);
    for (const [index, row] of this.built) {
      if ((index < from || index >= to) && index !== this.pinned) {
        row.remove();
        this.built.delete(index);
      }
    }
    for (let index = from; index < to; index += 1) this.build(index);
    this.notify({ first: first + 1, last });
  }

  /** Tell `onWindow` which rows are in view, when that changed. */
  notify({ first, last }) {
    const count = this.reserved ?? this.count;
    const shown = `${first}-${last}/${count}/${this.scrolls}`;
    if (shown === this.shown) return;
    this.shown = shown;
    this.onWindow?.({ first, last, count, scrolls: this.scrolls, loaded: this.reserved === null });
  }

  /** The row of `index`, built if it was not (inserted among its neighbours in order). */
  build(index) {
    let row = this.built.get(index);
    if (row) return row;
    row = this.makeRow(this.items[index]);
    row.dataset.index = String(index);
    row.style.setProperty("--i", String(index));
    row.setAttribute("aria-posinset", String(index + 1));
    row.setAttribute("aria-setsize", String(this.count));
    // Before the first built row with a higher index: rows already built never move in the
    // DOM (moving a node drops the focus inside it).
    let before = null;
    for (const [other, element] of this.built) {
      if (other > index && (!before || other < Number(before.dataset.index))) before = element;
    }
    this.list.insertBefore(row, before);
    this.built.set(index, row);
    return row;
  }

  /** The index of the row element `row`, or -1. */
  indexOf(row) {
    const index = Number(row?.dataset.index ?? -1);
    return this.built.get(index) === row ? index : -1;
  }

  /** The built row of `index`, or null. */
  rowAt(index) {
    return this.built.get(index) ?? null;
  }

  /** Keep the row of `index` built while scrolled away (null or -1: none). */
  pin(index) {
    const before = this.pinned;
    this.pinned = index >= 0 ? index : null;
    if (before !== null && before !== index) this.render();
  }

  /** Scroll the row of `index` fully into the scroll area (as little as needed); return it. */
  reveal(index) {
    const height = this.rowHeight();
    const top = index * height;
    const view = this.viewport;
    if (top < view.scrollTop) view.scrollTop = top;
    else if (top + height > view.scrollTop + view.clientHeight) {
      view.scrollTop = top + height - view.clientHeight;
    }
    this.render();
    return this.build(index);
  }
}
