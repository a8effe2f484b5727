// The history views of the Memory tab (V-2), opened from their addresses (js/address.js):
//   …/memory/history/{key}/{file}  a memory's (or MEMORY.md's) versions, diffs and Restore
//   …/memory/changes/{key}         What changed in a scope
//   …/memory/deleted/{key}         Recently deleted, with Restore
// Each shows in the viewer's drawer / bottom sheet. The toast's Undo of a delete is a restore
// (`restoreFile` in versions.js, called by memory-tab.js).

import { FileHistoryView } from "./file-history.js";
import { ScopeHistoryView } from "./scope-history.js";

/** The overlay kinds shown here. */
export const HISTORY_OVERLAYS = ["history", "changes", "deleted"];

/** The history views of one Memory tab. */
export class HistoryViews {
  constructor(tab) {
    this.files = new FileHistoryView(tab);
    this.scopes = new ScopeHistoryView(tab);
  }

  /** Open the overlay `kind` (one of HISTORY_OVERLAYS) of `scope` (and `file`); `where` is
   * the viewer's {href, onClose}. Returns false when the address lacks what it needs. */
  open(kind, scope, file, where) {
    if (kind === "history" && file) this.files.open(scope, file, where);
    else if (kind === "changes") this.scopes.openChanges(scope, where);
    else if (kind === "deleted") this.scopes.openDeleted(scope, where);
    else return false;
    return true;
  }
}
