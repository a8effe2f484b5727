// Entry point: hash routes (see address.js), the caller (/api/me), breadcrumbs and the
// 401 → token prompt.

import { parseRoute } from "./address.js";
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

onUnauthorized(async (problem, hadToken) => {
  const answer = await tokenDialog(problem, hadToken);
  if (!answer) return false;
  setToken(answer.token, answer.remember);
  mePromise = null;
  return true;
});

/** Close every open dialog: one left open must not cover the next page. */
function closeDialogs() {
  for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
}

/**
 * Show the breadcrumbs `items` ([label, href | null] pairs). The nearest link is marked
 * `crumb-up`: on a phone only it is shown, whole, as a way up (W-5).
 */
function setCrumbs(items) {
  const parts = [];
  const up = items.findLastIndex(([, href]) => href);
  items.forEach(([label, href], index) => {
    if (index > 0) parts.push(h("span", { class: "sep", "aria-hidden": "true" }, "/"));
    parts.push(
      href
        ? h("a", { href, text: label, class: index === up ? "crumb-up" : null })
        : h("span", { "aria-current": "page", text: label, class: up < 0 ? "crumb-up" : null }),
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

function route() {
  const target = parseRoute(location.hash);
  if (target.view === "agent") {
    if (agentView?.matches(target.project, target.agent)) {
      // Back from an overlay closes it; another overlay's address opens that one (W-6).
      agentView.showTab(target.tab, target.overlay);
      return;
    }
    closeDialogs();
    agentView = new AgentView({
      root: main,
      project: target.project,
      agent: target.agent,
      tab: target.tab,
      overlay: target.overlay,
      loadMe,
      setCrumbs,
    });
    agentView.start();
  } else {
    closeDialogs();
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
