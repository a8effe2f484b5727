// W-1: the agents list — one card per agent with its memory count, deep-linking to its
// Memory tab. Projects come from GET /api/projects (or the one in the address).

import { agentHref } from "../address.js";
import { ApiError, api, paths } from "../api.js";
import { errorBox, h, icon, notFoundState, plural, replace } from "../dom.js";
import { showHidden } from "../hidden-text.js";

const enc = encodeURIComponent;

/** The card's count: when memories could not all be counted (`agent.unreadable` says why), at
 * least the ones counted, or "memories unknown" — never "0 memories" (Q-2b). */
function memoryCount(agent) {
  if (!agent.unreadable) return plural(agent.memoryCount, "memory", "memories");
  return agent.memoryCount > 0
    ? `${plural(agent.memoryCount, "memory", "memories")} or more`
    : "memories unknown";
}

/** What of the memory root is no scope (a stray file, a folder named otherwise, a link out of
 * it): never read, so never counted; named in the title, one line each, each name's
 * hidden characters as marks (I-9), as the Memory tab's list shows them. */
function skippedBadge(agent) {
  if (!agent.skippedCount) return null;
  const lines = (agent.skipped ?? []).map(
    (entry) => `${showHidden(entry.name)}: ${entry.problem}`,
  );
  const more = agent.skippedCount - lines.length;
  if (more > 0) lines.push(`and ${more} more`);
  return h(
    "span",
    { class: "badge badge-warn skipped", title: lines.join("\n") },
    `${plural(agent.skippedCount, "entry", "entries")} not read`,
  );
}

function agentCard(agent) {
  const count = memoryCount(agent);
  return h(
    "li",
    { class: "card agent-card", dataset: { agent: agent.id, project: agent.project } },
    h("h3", {}, h("a", { href: agentHref(agent.project, agent.id, "prompt"), text: agent.name })),
    h("span", { class: "card-id", text: agent.id }),
    h(
      "div",
      { class: "stats" },
      h(
        "a",
        {
          class: "stat-link memory-count",
          href: agentHref(agent.project, agent.id, "memory"),
          "aria-label": `${count} of ${agent.name}: open the Memory tab`,
          title: agent.unreadable ? `Not all counted: ${agent.unreadable}` : null,
        },
        icon("memory"),
        count,
      ),
      agent.unreadable
        ? h("span", { class: "badge badge-warn", title: agent.unreadable }, "Cannot be read")
        : null,
      skippedBadge(agent),
      agent.memoryEnabled
        ? h("span", { class: "badge badge-ok" }, "Memory on")
        : h("span", { class: "badge" }, "Memory off"),
    ),
  );
}

function projectSection(project, agents) {
  return h(
    "section",
    { class: "project", "aria-labelledby": `project-${project}` },
    h(
      "h2",
      { id: `project-${project}` },
      h("a", { href: `#/projects/${enc(project)}`, text: project, class: "project-link" }),
    ),
    agents.length
      ? h("ul", { class: "cards" }, agents.map(agentCard))
      : h("p", { class: "state", text: "No agents in this project yet." }),
  );
}

/** Render the agents list into `root`; `project` limits it to one project. */
export async function renderAgents(root, { project, setCrumbs }) {
  setCrumbs(
    project
      ? [
          ["Agents", "#/"],
          [project, null],
        ]
      : [["Agents", null]],
  );
  document.title = "Agents · Agent Memory";
  const body = h("div", { class: "agents-body" }); // load() shows the progress
  replace(
    root,
    h(
      "div",
      { class: "page-head" },
      h(
        "div",
        {},
        h("h1", {}, project ? `Agents of ${project}` : "Agents"),
        h(
          "p",
          { class: "sub" },
          "Each agent keeps its own memory: a user scope and one scope per Workspace.",
        ),
      ),
    ),
    body,
  );
  const load = async () => {
    replace(body, h("p", { class: "state state-loading", role: "status" }, "Loading agents…"));
    try {
      const listed = await api.get(paths.projects());
      const known = listed.projects;
      const projects = project ? [project] : known;
      if (project && !known.includes(project)) {
        // No agent the caller reaches belongs to it: a project exists only through its agents.
        if (root.contains(body)) replace(root, unknownProject(project));
        return;
      }
      const lists = await Promise.all(projects.map((id) => api.get(paths.agents(id))));
      if (!root.contains(body)) return;
      if (projects.length === 0 && listed.unreadable?.length) {
        // Q-2b: agents whose settings cannot be read hold no project: never "No agents yet".
        replace(body, unreadableSection([listed]));
        return;
      }
      if (projects.length === 0) {
        replace(
          body,
          h(
            "p",
            { class: "state" },
            "No agents yet. Create one with ",
            h("code", {}, "memory-api agent create --project P --id A --name N"),
            " (or POST /api/projects/{project}/agents).",
          ),
        );
        return;
      }
      replace(
        body,
        projects.map((id, index) => projectSection(id, lists[index].agents)),
        unreadableSection(lists),
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (root.contains(body))
        replace(body, errorBox(`Could not load the agents: ${error.detail}`, load));
    }
  };
  await load();
}

/** The agents whose settings cannot be read (Q-2b), named once whatever list named them; their
 * project is unknown, so each list of a caller reaching every project names them all. */
function unreadableSection(lists) {
  const named = new Map();
  for (const list of lists) for (const item of list.unreadable ?? []) named.set(item.id, item);
  if (named.size === 0) return null;
  return h(
    "section",
    { class: "project unreadable-agents", "aria-labelledby": "unreadable-agents" },
    h("h2", { id: "unreadable-agents" }, "Agents whose settings cannot be read"),
    h(
      "ul",
      { class: "problems" },
      [...named.values()].map((item) =>
        h("li", { class: "error" }, h("code", {}, item.id), `: ${item.problem}`),
      ),
    ),
  );
}

/** The page of a project no agent (that the caller reaches) belongs to. */
function unknownProject(project) {
  document.title = "No such project · Agent Memory";
  return notFoundState(
    `No project “${project}”`,
    "No agent you can reach belongs to it: a project comes into being with its first agent, " +
      "so the address may be mistyped or its agents deleted.",
    [["All agents", "#/"]],
  );
}
