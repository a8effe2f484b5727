// A file's diff (V-2 FileDiff) as the page shows it: its hunks, each line with its old and new
// numbers, a +/− mark and its text. Lines wrap instead of scrolling sideways, so a diff reads on
// a phone; added and removed lines differ by mark and by words for assistive technology, never
// by colour alone. Text only ever becomes text nodes.

import { h } from "../dom.js";
import { hiddenTextNodes } from "../hidden-text.js";

const MARKS = { added: "+", removed: "−", context: " " };
const SPOKEN = { added: "added: ", removed: "removed: ", context: "" };

/** "lines 4–7" of one side of a hunk ("line 4" for one, "no lines" for none). */
function span(start, count) {
  if (count === 0) return "no lines";
  return count === 1 ? `line ${start}` : `lines ${start}–${start + count - 1}`;
}

function line(item) {
  return h(
    "li",
    { class: `diff-line ${item.kind}`, dataset: { kind: item.kind } },
    h("span", { class: "ln", "aria-hidden": "true", text: item.oldNumber ?? "" }),
    h("span", { class: "ln", "aria-hidden": "true", text: item.newNumber ?? "" }),
    h("span", { class: "mark", "aria-hidden": "true", text: MARKS[item.kind] }),
    h(
      "span",
      { class: "text" },
      SPOKEN[item.kind] ? h("span", { class: "visually-hidden", text: SPOKEN[item.kind] }) : null,
      hiddenTextNodes(item.text || " "),
    ),
  );
}

/**
 * The diff `diff` (a FileDiff) as a `<div class="diff">`: a line saying how many lines were
 * added and removed, then each hunk with where it lies. `empty` is the sentence shown when no
 * line differs.
 */
export function renderDiff(diff, { empty = "No line differs between these versions." } = {}) {
  const lines = diff.hunks.flatMap((hunk) => hunk.lines);
  if (lines.length === 0) return h("p", { class: "state diff-empty", text: empty });
  const added = lines.filter((item) => item.kind === "added").length;
  const removed = lines.filter((item) => item.kind === "removed").length;
  return h(
    "div",
    { class: "diff" },
    h(
      "p",
      { class: "diff-summary" },
      h("span", {
        class: "diff-count added",
        "aria-hidden": "true",
        text: `+${added.toLocaleString()}`,
      }),
      h("span", {
        class: "diff-count removed",
        "aria-hidden": "true",
        text: `−${removed.toLocaleString()}`,
      }),
      h("span", {
        class: "visually-hidden",
        text: `${added} lines added, ${removed} removed`,
      }),
    ),
    diff.hunks.map((hunk) =>
      h(
        "section",
        {
          class: "diff-hunk",
          "aria-label": `Old ${span(hunk.oldStart, hunk.oldLines)}, new ${span(hunk.newStart, hunk.newLines)}`,
        },
        h(
          "p",
          { class: "diff-hunk-head", "aria-hidden": "true" },
          `@@ −${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
        ),
        h("ol", { class: "diff-lines" }, hunk.lines.map(line)),
      ),
    ),
  );
}
