// A-3 on the Memory tab: the entries of the agent's memory folder that are no scope (a stray
// file, notes copied into a folder not named like a scope, a symlink out of the folder), which
// the service never reads. The overview names up to 20 of them (`skipped`, by name, each with
// its `problem`) and counts them all (`skippedCount`); skipped silently, a user who copied notes
// there saw no memory and no reason. A name is shown as text, its hidden characters as marks
// (I-9): it is the user's (or anyone's) file name, never markup.

import { h, plural } from "../dom.js";
import { hiddenTextNodes } from "../hidden-text.js";

/** The notice naming the overview `page`'s skipped entries, or null when there are none. */
export function skippedNotice(page) {
  const count = page.skippedCount ?? 0;
  if (!count) return null;
  const named = page.skipped ?? [];
  const more = count - named.length;
  return h(
    "div",
    { class: "alert alert-warn skipped-entries", id: "skipped-entries", role: "note" },
    h(
      "div",
      { class: "alert-text" },
      h(
        "p",
        {},
        h("strong", {}, `${plural(count, "entry", "entries")} of the memory folder not read`),
        ": only a folder named ",
        h("code", {}, "user"),
        " or by a Workspace's key is a scope, so nothing in ",
        count === 1 ? "it" : "them",
        " reaches a Session or this page.",
      ),
      h(
        "ul",
        {},
        ...named.map((entry) =>
          h(
            "li",
            {},
            h("code", { class: "entry-name" }, hiddenTextNodes(entry.name)),
            `: ${entry.problem}`,
          ),
        ),
      ),
      more > 0 ? h("p", { class: "skipped-more" }, `…and ${more.toLocaleString()} more.`) : null,
    ),
  );
}
