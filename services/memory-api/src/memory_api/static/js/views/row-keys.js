// Keyboard movement inside a list of rows (W-6): the whole list is one Tab stop, and the arrow
// keys move between the rows and between a row's actions (a roving tabindex), so a scope with
// thousands of memories costs one Tab press, not three per row, while every row stays reachable.
//   ArrowDown / ArrowUp     the same action in the next / previous row
//   ArrowRight / ArrowLeft  the next / previous action in the row
//   Home / End              the first / last row;  PageDown / PageUp  ten rows on

const PAGE = 10;

/** A row button's action class ("view-btn", "delete-btn", …), or null. */
function actionOf(button) {
  return [...button.classList].find((name) => name.endsWith("-btn")) ?? null;
}

export class RowKeys {
  /** Manage the buttons of the `li` rows of `list` (a `ul`). */
  constructor(list) {
    this.list = list;
    this.current = null;
    list.addEventListener("keydown", (event) => this.onKey(event));
    list.addEventListener("focusin", (event) => {
      if (event.target instanceof HTMLButtonElement) this.activate(event.target);
    });
  }

  /** Buttons of a row, in order. */
  static buttons(row) {
    return row ? [...row.querySelectorAll("button")] : [];
  }

  /** Make `button` the list's one Tab stop. */
  activate(button) {
    if (!button || button === this.current) return;
    if (this.current) this.current.tabIndex = -1;
    button.tabIndex = 0;
    this.current = button;
  }

  /** After the rows changed: every button out of the Tab order but the first row's first. */
  reset() {
    for (const button of this.list.querySelectorAll("button")) button.tabIndex = -1;
    this.current = null;
    this.activate(RowKeys.buttons(this.list.firstElementChild)[0]);
  }

  /** Rows appended later (chunks) join with their buttons out of the Tab order. */
  adopt(fragment) {
    for (const button of fragment.querySelectorAll("button")) button.tabIndex = -1;
  }

  onKey(event) {
    const button = event.target.closest?.("button");
    const row = button?.closest("li");
    if (!row || event.altKey || event.ctrlKey || event.metaKey) return;
    const rows = [...this.list.children];
    const at = rows.indexOf(row);
    const column = RowKeys.buttons(row).indexOf(button);
    const target = this.target(event.key, rows, at, column, actionOf(button));
    if (!target) return;
    event.preventDefault();
    this.activate(target);
    target.focus();
  }

  target(key, rows, at, column, action) {
    const cells = RowKeys.buttons(rows[at]);
    // The same action (View, Edit, …) in another row, though rows differ in their badges.
    const inRow = (index) => {
      const buttons = RowKeys.buttons(rows[Math.max(0, Math.min(rows.length - 1, index))]);
      return (
        buttons.find((item) => action && actionOf(item) === action) ??
        buttons[Math.min(column, buttons.length - 1)]
      );
    };
    switch (key) {
      case "ArrowDown":
        return inRow(at + 1);
      case "ArrowUp":
        return inRow(at - 1);
      case "PageDown":
        return inRow(at + PAGE);
      case "PageUp":
        return inRow(at - PAGE);
      case "Home":
        return inRow(0);
      case "End":
        return inRow(rows.length - 1);
      case "ArrowRight":
        return cells[Math.min(column + 1, cells.length - 1)];
      case "ArrowLeft":
        return cells[Math.max(column - 1, 0)];
      default:
        return null;
    }
  }
}
