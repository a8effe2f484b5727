// Entry point: hash routes, the caller (/api/me), breadcrumbs and the 401 → token prompt.
//   #/                                       agents of every project (W-1)
//   #/projects/{project}                     agents of one project
//   #/projects/{project}/agents/{agent}/prompt|memory   agent settings (W-2)

import { ApiError, api, clearToken, getToken, onUnauthorized, paths, setToken } from "./api.js";
import { tokenDialog } from "./dialogs.js";
import { h, replace } from "./dom.js";
import { renderAgents } from "./views/agents.js";
import { AgentView } from "./views/agent.js";

const main = document.getElementById("main");
const crumbs = document.getElementById("crumbs");
const meBox = document.getElementById("me");

let mePromise = null;
let agentView = null;

/** The caller as /api/me reports it: {name, projects, chatUrlTemplate}; cached per token. */
function loadMe() {
  mePromise ??= api.get(paths.me()).catch((error) => {
    mePromise = null;
    throw error;
  });
  return mePromise;
}

onUnauthorized(async (detail, hadToken) => {
  const answer = await tokenDialog(detail, hadToken);
  if (!answer) return false;
  setToken(answer.token, answer.remember);
  mePromise = null;
  return true;
});

function setCrumbs(items) {
  const parts = [];
  items.forEach(([label, href], index) => {
    if (index > 0) parts.push(h("span", { class: "sep", "aria-hidden": "true" }, "/"));
    parts.push(
      href ? h("a", { href, text: label }) : h("span", { "aria-current": "page", text: label }),
    );
  });
  replace(crumbs, parts);
}

async function showMe() {
  try {
    const me = await loadMe();
    replace(
      meBox,
      h("span", { class: "me-name", title: "Signed in as" }, me.name),
      getToken()
        ? h(
            "button",
            {
              type: "button",
              class: "btn btn-ghost btn-sm",
              onclick: () => {
                clearToken();
                location.reload();
              },
            },
            "Sign out",
          )
        : null,
    );
  } catch (error) {
    replace(meBox);
    if (!(error instanceof ApiError)) throw error;
  }
}

function parseRoute() {
  const parts = location.hash
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
  if (parts.length === 0) return { view: "agents", project: null };
  if (parts[0] === "projects" && parts.length === 2) return { view: "agents", project: parts[1] };
  if (parts[0] === "projects" && parts[2] === "agents" && parts.length >= 4) {
    const tab = parts[4] === "prompt" ? "prompt" : "memory";
    return { view: "agent", project: parts[1], agent: parts[3], tab };
  }
  return { view: "missing" };
}

function route() {
  const target = parseRoute();
  // A dialog left open (Back while viewing a memory) must not cover the next page.
  for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
  if (target.view === "agent") {
    if (agentView?.matches(target.project, target.agent)) {
      agentView.showTab(target.tab);
      return;
    }
    agentView = new AgentView({
      root: main,
      project: target.project,
      agent: target.agent,
      tab: target.tab,
      loadMe,
      setCrumbs,
    });
    agentView.start();
  } else {
    agentView = null;
    if (target.view === "agents") renderAgents(main, { project: target.project, setCrumbs });
    else {
      setCrumbs([["Agents", "#/"]]);
      replace(
        main,
        h(
          "p",
          { class: "state" },
          "There is no page at this address. ",
          h("a", { href: "#/" }, "Go to the agents list."),
        ),
      );
    }
  }
  showMe();
}

window.addEventListener("hashchange", route);
window.addEventListener("beforeunload", (event) => {
  if (agentView?.isDirty()) event.preventDefault();
});
document.getElementById("skip-link").addEventListener("click", () => main.focus());
route();
