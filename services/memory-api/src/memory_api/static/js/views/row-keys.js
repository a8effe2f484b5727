// Keyboard movement inside a list of rows (W-6): the whole list is one Tab stop, and the arrow
// keys move between the rows and between a row's actions (a roving tabindex), so a scope with
// thousands of memories costs one Tab press, not three per row, while every row stays reachable.
//   ArrowDown / ArrowUp     the same action in the next / previous row
//   ArrowRight / ArrowLeft  the next / previous action in the row
//   Home / End              the first / last row;  PageDown / PageUp  ten rows on
// The rows are windowed (VirtualRows): a key moving to a row not built yet scrolls it into view,
// which builds it, and the row holding the Tab stop stays built while scrolled away.

const PAGE = 10;

/** A row button's action class ("view-btn", "delete-btn", …), or null. */
function actionOf(button) {
  return [...button.classList].find((name) => name.endsWith("-btn")) ?? null;
}

export class RowKeys {
  /** Manage the buttons of the rows of `rows` (a VirtualRows). */
  constructor(rows) {
    this.rows = rows;
    this.current = null;
    rows.list.addEventListener("keydown", (event) => this.onKey(event));
    rows.list.addEventListener("focusin", (event) => {
      if (event.target instanceof HTMLButtonElement) this.activate(event.target);
    });
  }

  /** Buttons of a row, in order. */
  static buttons(row) {
    return row ? [...row.querySelectorAll("button")] : [];
  }

  /** Make `button` the list's one Tab stop; its row stays built while scrolled away. */
  activate(button) {
    if (!button || button === this.current) return;
    if (this.current) this.current.tabIndex = -1;
    button.tabIndex = 0;
    this.current = button;
    this.rows.pin(this.rows.indexOf(button.closest("li")));
  }

  /** After the rows were replaced: the first button of the first row in view is the Tab
   * stop. */
  reset() {
    this.current = null;
    this.activate(RowKeys.buttons(this.rows.rowAt(this.rows.inView().first))[0]);
  }

  /** A row just built joins with its buttons out of the Tab order; returns `row`. */
  adopt(row) {
    for (const button of row.querySelectorAll("button")) button.tabIndex = -1;
    return row;
  }

  /** The button of `action` in the row of `index` (scrolled into view), or the one in
   * `column`; null when there is no such row. */
  buttonAt(index, action, column = 0) {
    if (this.rows.count === 0) return null;
    const row = this.rows.reveal(Math.max(0, Math.min(this.rows.count - 1, index)));
    const buttons = RowKeys.buttons(row);
    // The same action (View, Edit, …) in another row, though rows differ in their badges.
    return (
      buttons.find((item) => action && actionOf(item) === action) ??
      buttons[Math.min(column, buttons.length - 1)] ??
      null
    );
  }

  onKey(event) {
    const button = event.target.closest?.("button");
    const row = button?.closest("li");
    if (!row || event.altKey || event.ctrlKey || event.metaKey) return;
    const at = this.rows.indexOf(row);
    if (at < 0) return;
    const target = this.target(event.key, row, at, RowKeys.buttons(row).indexOf(button), button);
    if (!target) return;
    event.preventDefault();
    this.activate(target);
    target.focus();
  }

  target(key, row, at, column, button) {
    const cells = RowKeys.buttons(row);
    const action = actionOf(button);
    switch (key) {
      case "ArrowDown":
        return this.buttonAt(at + 1, action, column);
      case "ArrowUp":
        return this.buttonAt(at - 1, action, column);
      case "PageDown":
        return this.buttonAt(at + PAGE, action, column);
      case "PageUp":
        return this.buttonAt(at - PAGE, action, column);
      case "Home":
        return this.buttonAt(0, action, column);
      case "End":
        return this.buttonAt(this.rows.count - 1, action, column);
      case "ArrowRight":
        return cells[Math.min(column + 1, cells.length - 1)];
      case "ArrowLeft":
        return cells[Math.max(column - 1, 0)];
      default:
        return null;
    }
  }
}
