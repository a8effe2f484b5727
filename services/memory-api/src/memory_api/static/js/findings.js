// Lint findings (T-5) on the page (W-6): their severity (T-5a), how a code is named, the list a
// badge opens, and the requirement that "Fix this memory" hands to the Edit modal.

import { h } from "./dom.js";
import { markHidden } from "./hidden-text.js";

/** Severities, worst first (T-5a). */
export const SEVERITIES = ["error", "warning", "info"];

const CODE_NAMES = {
  secret: ["likely credential", "likely credentials"],
  "hidden-text": ["line with hidden text", "lines with hidden text"],
  "dangling-link": ["dangling link", "dangling links"],
  "not-injected": ["index part not injected", "index parts not injected"],
  unindexed: ["memory missing from the index", "memories missing from the index"],
  "missing-index": ["missing index", "missing indexes"],
  "missing-description": ["missing description", "missing descriptions"],
  "name-mismatch": ["name differing from its file", "names differing from their files"],
  "name-not-kebab": ["name not in kebab-case", "names not in kebab-case"],
  "index-line-too-long": ["index line too long", "index lines too long"],
  "joined-index-line": ["index line of joined entries", "index lines of joined entries"],
  "description-multiline": ["multi-line description", "multi-line descriptions"],
  "refused-entry": ["refused entry", "refused entries"],
  "index-over-read-cap": ["index over the read cap", "indexes over the read cap"],
  unreadable: ["file the service cannot read", "files the service cannot read"],
  "invalid-encoding": ["file not valid in its encoding", "files not valid in their encoding"],
  "index-wrong-case": ["index in the wrong case", "indexes in the wrong case"],
  "dangling-wiki-link": ["dangling [[link]]", "dangling [[links]]"],
  "look-alike-names": ["look-alike file name", "look-alike file names"],
  "windows-name": ["name Windows keeps for a device", "names Windows keeps for devices"],
  "look-alike-link": ["look-alike link", "look-alike links"],
  "naming-convention": ["other naming convention", "other naming conventions"],
  "no-frontmatter": ["folder of notes without frontmatter", "folders of notes without frontmatter"],
  "empty-name": ["empty name", "empty names"],
};

/** The severity of finding `f` (T-5a, `Finding.severity`); "info" if a finding lacks one. */
export function severityOf(f) {
  return SEVERITIES.includes(f.severity) ? f.severity : "info";
}

/** The worst severity among `findings` ("error" > "warning" > "info"), or null for none. */
export function worstSeverity(findings) {
  const found = new Set(findings.map(severityOf));
  return SEVERITIES.find((severity) => found.has(severity)) ?? null;
}

/** "1 likely credential", "3 dangling links" — a code and a count in words. */
export function codeLabel(code, count) {
  const [one, many] = CODE_NAMES[code] ?? [code.replace(/[-_]+/g, " "), code.replace(/[-_]+/g, " ")];
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/** One finding as a sentence: "Line 8: likely credential (github-token) in the body; …". */
export function findingText(f) {
  return `${f.line ? `Line ${f.line}: ` : ""}${f.message}`;
}

/** Findings grouped by file, files in first-seen order: Map(file → findings). */
export function byFile(findings) {
  const groups = new Map();
  for (const f of findings) {
    if (!groups.has(f.file)) groups.set(f.file, []);
    groups.get(f.file).push(f);
  }
  return groups;
}

/**
 * The T-2 problems of a file (a listing's row or a file's answer) an agent can fix: all but the
 * listing's cut of its name or description (`listedCut`), said but nothing to fix (the file is
 * whole).
 */
export function fixableProblems({ problems = [], listedCut = [] }) {
  return problems.filter((p) => !listedCut.includes(p));
}

/** What "Fix this memory" asks the agent: every finding and T-2 problem of one file. */
export function fixRequirement(findings, problems = []) {
  const lines = [
    ...worstFirst(findings).map((f) => `- ${findingText(f)} [${severityOf(f)}, ${f.code}]`),
    ...problems.map((p) => `- ${p}`),
  ];
  // The prefilled field shows what an agent wrote (a link's name in a finding): its marks (I-9);
  // the agent is sent the text, so a stack of combining characters stays whole (W-5 cuts it
  // only where the page shows text).
  return markHidden(`Fix what the memory lint reports for it:\n${lines.join("\n")}`);
}

/** `findings` sorted worst severity first (stable within a severity). */
export function worstFirst(findings) {
  const rank = (f) => SEVERITIES.indexOf(severityOf(f));
  return [...findings].sort((a, b) => rank(a) - rank(b));
}

/** A severity badge: "error" / "warning" / "info" in its colour. */
export function severityBadge(severity) {
  return h("span", { class: `badge sev sev-${severity}`, text: severity });
}

/**
 * The list of one file's `findings` and `problems` (T-2), worst first; `onFix` (optional)
 * adds a "Fix this memory" button that receives nothing.
 */
export function fileFindings(file, findings, problems, onFix) {
  const sorted = worstFirst(findings);
  return h(
    "section",
    { class: "finding-file", dataset: { file } },
    h(
      "div",
      { class: "finding-file-head" },
      // Not a heading: the memory's own Markdown headings follow in the same panel.
      h("strong", { class: "finding-file-name", text: file || "The scope as a whole" }),
      onFix && file
        ? h(
            "button",
            { type: "button", class: "btn btn-sm btn-primary fix-btn", onclick: onFix },
            file === "MEMORY.md" ? "Fix this index" : "Fix this memory",
          )
        : null,
    ),
    h(
      "ul",
      { class: "findings", "aria-label": `Findings of ${file}` },
      sorted.map((f) =>
        h(
          "li",
          { class: `finding sev-${severityOf(f)}`, dataset: { code: f.code } },
          severityBadge(severityOf(f)),
          h("span", { class: "finding-text", text: findingText(f) }),
        ),
      ),
      problems.map((p) =>
        h(
          "li",
          { class: "finding sev-warning", dataset: { code: "problem" } },
          severityBadge("warning"),
          h("span", { class: "finding-text", text: p }),
        ),
      ),
    ),
  );
}
