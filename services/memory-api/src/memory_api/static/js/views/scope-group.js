// One scope group of the Memory tab (W-2, W-3): a header that collapses the group (a real
// <button aria-expanded>, state remembered per user × project × agent), the scope's problems and
// lint counts, Index, History (V-2) and Add actions, and read-only rows with View, Edit and Delete.
// Thousands of rows stay fast (W-5): a group fetches its listing only once it is expanded and
// near the screen (so a tab of many Workspaces asks for the few in sight), and builds only the
// rows in view of its scroll area (VirtualRows); every row stays reachable by scrolling, by the
// keyboard and through the filter. The rows are one Tab stop (arrow keys move between rows and
// their actions), so the groups after a large one and the prompt editors stay a few Tab presses
// away (W-6). Lint findings open from the badge beside each row and from the header's counts.

import { ApiError, scopeListing } from "../api.js";
import { errorBox, formatDate, h, icon, plural, replace } from "../dom.js";
import { byFile, codeLabel, severityOf, worstSeverity } from "../findings.js";
import { showHidden } from "../hidden-text.js";
import { RowKeys } from "./row-keys.js";
import { markRefused, unkeptReason } from "./versions.js";
import { VirtualRows } from "./virtual-rows.js";

const FILTER_FROM = 12;

/** Newest first: `updatedAt` from the frontmatter, else the file's mtime; then by name. */
function sortTopics(files) {
  const when = (topic) =>
    Date.parse(topic.updatedAt ?? "") || Date.parse(topic.mtime ?? "") || 0;
  return [...files].sort((a, b) => when(b) - when(a) || a.file.localeCompare(b.file));
}

function actionButton(iconName, label, ariaLabel, onclick, extra = "") {
  return h(
    "button",
    {
      type: "button",
      class: `btn btn-ghost btn-sm ${extra}`.trim(),
      "aria-label": ariaLabel,
      title: ariaLabel,
      onclick,
    },
    icon(iconName),
    h("span", { class: "label-text" }, label),
  );
}

/**
 * The header badges of a scope's lint counts, worst severity first (the overview's
 * `lintSeverities`, T-5a); each opens the scope's findings.
 */
function lintBadges(scope, onOpen) {
  const entries = Object.entries(scope.lintCounts ?? {}).filter(([, count]) => count > 0);
  const rank = { error: 0, warning: 1, info: 2 };
  const severity = (code) => severityOf({ severity: scope.lintSeverities?.[code] });
  entries.sort(([a], [b]) => rank[severity(a)] - rank[severity(b)] || a.localeCompare(b));
  return entries.map(([code, count]) =>
    h(
      "button",
      {
        type: "button",
        class: `badge lint sev-${severity(code)}`,
        dataset: { code },
        "aria-label": `${codeLabel(code, count)} (${severity(code)}): show the findings`,
        onclick: onOpen,
      },
      codeLabel(code, count),
    ),
  );
}

/** What the service knows of the scope's folder, as badges: gone (orphaned), not visible from
 * the service (K-6a), or there but unreadable (Q-2b); none when it is simply there. */
function folderBadges(scope) {
  const badge = (cls, title, text) => h("span", { class: `badge ${cls}`, title }, text);
  return [
    scope.orphaned
      ? badge(
          "badge-warn",
          "The Workspace folder no longer exists; its memory is kept.",
          "Orphaned: folder is gone",
        )
      : null,
    scope.notVisible
      ? badge(
          "",
          "The memory service cannot see this Workspace's folder (the agent runs where the " +
            "service does not, e.g. another container); it is not known to be gone.",
          "Not visible from the service",
        )
      : null,
    scope.unreadable ? unreadableBadge(badge, scope.unreadable) : null,
  ].filter(Boolean);
}

/** The badge of a scope folder the service cannot read (Q-2b), `why` its reason. One it may
 * enter but not list (another account's, mode 0711: "cannot list it (…)", memory_core.caps
 * folder_unlisted) still has its index read and injected: it "cannot be listed", never "cannot
 * be read", which would say nothing in it reaches the model. */
function unreadableBadge(badge, why) {
  if (why.startsWith("cannot list it")) {
    return badge(
      "badge-danger",
      "The scope folder is there and its index is still read and injected, but the memory " +
        "service may not list it: which topic files it holds is unknown (not listed, counted " +
        "or searched).",
      `Folder cannot be listed: the service ${why}`,
    );
  }
  return badge(
    "badge-danger",
    "The scope folder is there, but the memory service may not read it: nothing in it is " +
      "listed, searched or injected.",
    `Folder cannot be read: the service ${why}`,
  );
}

/**
 * The start of `id` that tells it from every id of `others`: at least 6 characters, one more
 * than the longest start it shares with any of them (the whole id when one is the same).
 */
function idStart(id, others) {
  let length = 6;
  for (const other of others) {
    let same = 0;
    while (same < id.length && id[same] === other[same]) same += 1;
    length = Math.max(length, same + 1);
  }
  return id.slice(0, length);
}

/**
 * The machines keeping a local copy of the scope: each one's name and when it last
 * synced; the title adds what merging its last changes did. A name that two machines
 * share (VMs or containers made from one image) carries the start of each one's id, else the
 * two read as one machine listed twice: its first 6 hex digits, or as many as it takes to
 * tell it from the others of that name (`idStart`).
 */
function machinesLine(machines) {
  const when = (value) =>
    new Date(value).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  const named = new Map();
  for (const machine of machines) {
    named.set(machine.name, [...(named.get(machine.name) ?? []), machine.id]);
  }
  const label = (machine) => {
    const alike = named.get(machine.name).filter((id) => id !== machine.id);
    return named.get(machine.name).length > 1
      ? `${machine.name} #${idStart(machine.id, alike)}`
      : machine.name;
  };
  const said = machines.map((machine) => `${label(machine)} (${when(machine.lastSync)})`);
  const details = machines.map((machine) =>
    [
      `${label(machine)} (${machine.principal}): last sync ${machine.lastSync}`,
      ...machine.outcomes.map((line) => `  merged: ${line}`),
    ].join("\n"),
  );
  return h(
    "span",
    { class: "badge machines", title: details.join("\n") },
    `Synced on ${said.join(", ")}`,
  );
}

export class ScopeGroup {
  constructor(tab, scope) {
    this.tab = tab;
    this.scope = scope;
    this.files = null;
    this.collapsed = false;
    this.near = false; // within reach of the screen (MemoryTab's IntersectionObserver)
    const id = `group-${scope.key}`;
    this.titleBox = h("span", { class: "group-title" });
    this.toggleButton = h(
      "button",
      {
        type: "button",
        class: "group-toggle",
        id: `${id}-toggle`,
        "aria-controls": `${id}-body`,
        "aria-expanded": "true",
        onclick: () => this.setCollapsed(!this.collapsed),
      },
      icon("chevron", "chev"),
      this.titleBox,
    );
    this.countBadge = h("span", { class: "badge count" });
    // Labelled in update(), which names the scope.
    this.indexButton = actionButton(
      "list",
      "Index",
      null,
      () => this.tab.go("index", this.scope),
      "index-btn",
    );
    this.addButton = actionButton(
      "plus",
      "Add",
      null,
      () => this.tab.bridge(this.scope, null),
      "add-btn",
    );
    this.historyButton = actionButton(
      "history",
      "History",
      null,
      () => this.tab.go("changes", this.scope),
      "history-btn",
    );
    // A Workspace scope can be forgotten (K-5); the user scope cannot (K-6).
    this.forgetButton =
      scope.kind === "user"
        ? null
        : actionButton(
            "trash",
            "Forget",
            null,
            () => this.tab.forgetScope(this.scope, this.forgetButton),
            "forget-btn",
          );
    this.meta = h("div", { class: "group-meta" });
    this.body = this.buildBody(id);
    this.element = h(
      "section",
      { class: "group", dataset: { scope: scope.key, kind: scope.kind } },
      h(
        "div",
        { class: "group-head" },
        h("h3", {}, this.toggleButton),
        this.countBadge,
        h(
          "div",
          { class: "head-actions" },
          this.indexButton,
          this.historyButton,
          this.addButton,
          this.forgetButton,
        ),
      ),
      this.meta,
      this.body,
    );
    this.update(scope);
    this.setCollapsed(tab.collapse.isCollapsed(scope.key), { persist: false });
  }

  /** The collapsible body: the filter box, the windowed rows and the line under them. */
  buildBody(id) {
    this.filterInput = h("input", {
      type: "search",
      id: `${id}-filter`,
      placeholder: "Filter by name, description or file",
      oninput: () => this.renderRows(),
    });
    this.tools = h(
      "div",
      { class: "group-tools", hidden: true },
      h("label", { class: "visually-hidden", for: `${id}-filter` }, "Filter memories"),
      this.filterInput,
    );
    this.rows = new VirtualRows({
      makeRow: (topic) => this.keys.adopt(this.row(topic)),
      onWindow: (view) => this.showWindow(view),
      describedBy: "rows-keys-help",
    });
    this.list = this.rows.list;
    this.note = this.rows.state;
    this.keys = new RowKeys(this.rows);
    this.more = h("p", { class: "rows-more", hidden: true });
    this.findings = new Map();
    return h(
      "div",
      { class: "group-body", id: `${id}-body`, role: "region", "aria-labelledby": `${id}-toggle` },
      this.tools,
      this.rows.viewport,
      this.more,
    );
  }

  /** Take the scope's new summary from the overview. */
  update(scope) {
    this.scope = scope;
    const isUser = scope.kind === "user";
    replace(
      this.titleBox,
      h("span", {
        class: "name",
        text: isUser ? scope.title || "User memory" : showHidden(scope.title),
      }),
      !isUser
        ? h("span", { class: "path", text: showHidden(scope.workspacePath ?? `(no marker) ${scope.key}`) })
        : null,
    );
    // A folder the service cannot list holds memories nobody can count: never "0 memories".
    this.countBadge.textContent = scope.unreadable
      ? "memories unknown"
      : plural(scope.fileCount, "memory", "memories");
    const label = isUser ? "user memory" : `Workspace ${showHidden(scope.title)}`;
    this.indexButton.setAttribute("aria-label", `Show the index of ${label}`);
    this.indexButton.title = `Show MEMORY.md of ${label}`;
    this.historyButton.setAttribute("aria-label", `What changed in ${label}`);
    this.historyButton.title = `What changed in ${label}, and what was deleted`;
    this.addButton.setAttribute("aria-label", `Add a memory to ${label}`);
    this.addButton.title = `Add a memory to ${label}`;
    if (this.forgetButton) {
      this.forgetButton.setAttribute("aria-label", `Forget ${label}`);
      this.forgetButton.title = `Forget ${label}: no longer list it (only once it holds no memory)`;
    }
    this.list.setAttribute("aria-label", `Memories in ${label}`);

    // The count again, for a phone, where the header row has no room for it (app.css).
    const badges = [
      h("span", { class: "badge count-inline", "aria-hidden": "true" }, this.countBadge.textContent),
    ];
    badges.push(...folderBadges(scope));
    for (const problem of scope.markerProblems ?? []) {
      badges.push(h("span", { class: "badge badge-danger", title: problem }, `Marker: ${problem}`));
    }
    badges.push(...lintBadges(scope, () => this.tab.go("findings", this.scope)));
    if (scope.machines?.length) badges.push(machinesLine(scope.machines));
    if (scope.lastActivity) {
      badges.push(
        h(
          "time",
          { class: "activity", datetime: scope.lastActivity, title: scope.lastActivity },
          `Last activity ${formatDate(scope.lastActivity)}`,
        ),
      );
    }
    replace(this.meta, badges);
    this.meta.classList.toggle("only-count", badges.length === 1);
  }

  /** Collapse or expand; expanding loads the rows the first time. */
  setCollapsed(collapsed, { persist = true } = {}) {
    this.collapsed = collapsed;
    this.toggleButton.setAttribute("aria-expanded", String(!collapsed));
    this.body.hidden = collapsed;
    if (persist) this.tab.collapse.set(this.scope.key, collapsed);
    // A hidden scroll area loses its position and was measured at no height: fit it again.
    if (!collapsed) this.rows.refit();
    this.loadWhenWanted();
  }

  /** Once in the page: hold the height the scope's rows will take (so nothing below moves
   * when they arrive), and load them when the group is expanded and near the screen. */
  attached() {
    if (this.files === null) {
      this.tools.hidden = this.scope.fileCount < FILTER_FROM;
      this.rows.reserve(this.scope.fileCount);
    }
    this.tab.watchNearness(this);
  }

  /** The group came within reach of the screen, or went out of it. */
  setNear(near) {
    this.near = near;
    this.loadWhenWanted();
  }

  loadWhenWanted() {
    const due = this.files === null || this.stale;
    if (!this.collapsed && this.near && due && !this.loading) this.reload();
  }

  /** The rows shown may be out of date (Refresh): re-read them when the group is wanted. */
  markStale() {
    this.stale = true;
    this.loadWhenWanted();
  }

  /** The group left the page. */
  dispose() {
    this.rows.dispose();
  }

  focusToggle() {
    this.toggleButton.focus();
  }

  /** Where a row's action is: {index, action} for `file` and its `button` (or null). */
  rowPlace(file, button) {
    const index = this.rows.items.findIndex((topic) => topic.file === file);
    const action = [...(button?.classList ?? [])].find((name) => name.endsWith("-btn"));
    return index < 0 ? null : { index, action: action ?? "view-btn" };
  }

  /** The control to focus after the row at `place` went away: the same action of the row now
   * there (or the last row), else the group's header. */
  focusTarget(place) {
    const target = place ? this.keys.buttonAt(place.index, place.action) : null;
    if (!target) return this.toggleButton;
    this.keys.activate(target);
    return target;
  }

  /** Fetch the scope's files and render them; loading and errors show in the group. */
  async reload() {
    const { project, agent } = this.tab.view;
    const first = this.files === null;
    this.loading = true;
    this.stale = false;
    this.setBusy(true);
    if (first) {
      replace(
        this.note,
        h("p", { class: "group-note state-loading", role: "status" }, "Loading memories…"),
      );
    }
    let shown = false;
    const show = (listing) => {
      this.files = sortTopics(listing.files);
      this.findings = byFile(listing.findings);
      replace(this.note);
      // A reload (a delete, Refresh), or the next page of a large scope, keeps the scroll
      // position: the rows stay where they were.
      this.renderRows({ keepScroll: !first || shown });
      if (!listing.complete) this.setBusy(true); // more pages are coming
      shown = true;
    };
    try {
      show(await scopeListing(project, agent, this.scope.key, show));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      replace(
        this.note,
        h(
          "div",
          { class: "group-note" },
          errorBox(`Could not load this scope: ${error.detail}`, () => this.reload()),
        ),
      );
      this.setBusy(false);
    } finally {
      this.loading = false;
    }
  }

  /**
   * Mark the group's body busy (`aria-busy`) from the request for its listing until its rows
   * in view are built, so assistive technology (and the browser tests) wait for a list that
   * has stopped changing.
   */
  setBusy(busy) {
    if (busy) this.body.setAttribute("aria-busy", "true");
    else this.body.removeAttribute("aria-busy");
  }

  /** Topics passing the filter box. */
  visibleFiles() {
    const needle = this.filterInput.value.trim().toLowerCase();
    if (!needle) return this.files;
    return this.files.filter((topic) =>
      [topic.name, topic.description ?? "", topic.file].some((text) =>
        text.toLowerCase().includes(needle),
      ),
    );
  }

  /** Show the rows passing the filter (built as they come into view); `keepScroll` keeps
   * the scroll position, else the list starts at its top. */
  renderRows({ keepScroll = false } = {}) {
    if (this.files === null) return;
    this.tools.hidden = this.files.length < FILTER_FROM;
    const files = this.visibleFiles();
    this.rows.setItems(files, { keepScroll });
    this.keys.reset();
    if (files.length === 0) {
      const empty =
        this.files.length === 0
          ? `No memories in this scope yet. Use Add, or let the agent save one in a chat.`
          : `No memory matches “${this.filterInput.value.trim()}”.`;
      replace(this.note, h("p", { class: "group-note", text: empty }));
    } else replace(this.note);
    this.setBusy(false);
  }

  /** Under a list that scrolls: which rows are in view, so a cut row is never the end. */
  showWindow({ first, last, count, scrolls, loaded }) {
    this.more.hidden = !scrolls;
    if (!scrolls) return;
    this.more.textContent = loaded
      ? `Showing ${first.toLocaleString()}–${last.toLocaleString()} of ${plural(count, "memory", "memories")}${last < count ? " · scroll the list for more" : ""}`
      : `${plural(count, "memory", "memories")} · scroll the list for more`;
  }

  /** The badge beside a row with findings or problems: a button that opens them (W-6). */
  findingsBadge(topic, findings, problems) {
    const count = findings.length + problems.length;
    if (!count) return null;
    const severity = worstSeverity(findings) ?? "warning";
    const secrets = findings.filter((f) => f.code === "secret").length;
    const text = secrets
      ? codeLabel("secret", secrets) + (count > secrets ? ` +${count - secrets}` : "")
      : plural(count, "finding", "findings");
    return h(
      "button",
      {
        type: "button",
        class: `badge findings-btn sev-${severity}`,
        "aria-label": `${plural(count, "finding", "findings")} (worst: ${severity}) in ${topic.name}: show them`,
        onclick: () => this.tab.go("findings", this.scope, topic.file),
      },
      text,
    );
  }

  row(topic) {
    const stem = topic.file.replace(/\.md$/i, "");
    const date = topic.updatedAt ?? topic.mtime;
    const problems = topic.problems ?? [];
    const label = showHidden(topic.name);
    const findings = this.findings.get(topic.file) ?? [];
    const deleteButton = actionButton(
      "trash",
      "Delete",
      `Delete ${label}`,
      () => this.tab.deleteTopic(this.scope, topic, deleteButton),
      "danger delete-btn",
    );
    markRefused(deleteButton, unkeptReason(topic.file, problems));
    return h(
      "li",
      { class: "row", dataset: { file: topic.file } },
      h(
        "div",
        { class: "row-main" },
        h(
          "div",
          { class: "row-title" },
          h("span", { class: "row-name", text: showHidden(topic.name) }),
          topic.name !== stem ? h("span", { class: "row-file", text: topic.file }) : null,
          this.findingsBadge(topic, findings, problems),
        ),
        topic.description
          ? h("p", { class: "row-desc", text: showHidden(topic.description) })
          : h("p", { class: "row-desc none", text: "No description" }),
        date
          ? h("time", { class: "row-date", datetime: date, title: date }, formatDate(date))
          : null,
      ),
      h(
        "div",
        { class: "row-actions" },
        actionButton(
          "eye",
          "View",
          `View ${label}`,
          () => this.tab.go("view", this.scope, topic.file),
          "view-btn",
        ),
        actionButton(
          "edit",
          "Edit",
          `Edit ${label}`,
          () => this.tab.bridge(this.scope, topic),
          "edit-btn",
        ),
        deleteButton,
      ),
    );
  }
}
