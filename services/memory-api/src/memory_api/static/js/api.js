// The HTTP client of the page: JSON in camelCase (memory_core.wire), RFC 9457 problems as
// ApiError(status, detail, type), bearer token from browser storage, one token prompt on 401
//

const TOKEN_KEY = "agent-memory.token";

/**
 * A failed request: `status` (0 when the service was unreachable), the problem `detail` (for a
 * person) and its `type` (RFC 9457: the kind a program matches; "about:blank" when the status
 * says it all).
 */
export class ApiError extends Error {
  constructor(status, detail, type = "about:blank") {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.type = type;
  }
}

/** The stored bearer token (this tab's first, then the remembered one), or null. */
export function getToken() {
  return sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
}

/** Store a token: `remember` keeps it in localStorage, otherwise only for this tab. */
export function setToken(token, remember) {
  clearToken();
  (remember ? localStorage : sessionStorage).setItem(TOKEN_KEY, token);
}

/** Forget the token in both storages. */
export function clearToken() {
  sessionStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(TOKEN_KEY);
}

let askForToken = null;
let pendingAsk = null;

/**
 * Register the 401 handler: `ask(problem, hadToken)` ({type, detail} as `problemOf` reads
 * them) resolves true when a new token was stored (the request is then retried) or false when
 * the user gave up. Concurrent 401s share one ask.
 */
export function onUnauthorized(ask) {
  askForToken = ask;
}

/**
 * The failed `response`'s problem: {type, detail}. `type` is the problem+json `type`
 * ("about:blank" when absent, RFC 9457), `detail` its detail, else its title, else a short
 * text body, else the status line.
 */
async function problemOf(response) {
  const contentType = response.headers.get("Content-Type") ?? "";
  let type = "about:blank";
  try {
    if (contentType.includes("json")) {
      const body = await response.json();
      if (body && typeof body.type === "string" && body.type) type = body.type;
      if (body && typeof body.detail === "string" && body.detail) {
        return { type, detail: body.detail };
      }
      if (body && typeof body.title === "string") return { type, detail: body.title };
    } else {
      const text = (await response.text()).trim();
      if (text && text.length < 300) return { type, detail: text };
    }
  } catch {
    // An unreadable error body still yields the status line below.
  }
  return { type, detail: `${response.status} ${response.statusText || "error"}`.trim() };
}

/**
 * Send one request to the API. `path` is relative to the page ("api/projects"). Options:
 * `body` (JSON-encoded), `ifMatch` (an ETag). Resolves {data, etag}; rejects with ApiError.
 */
export async function request(method, path, { body, ifMatch } = {}) {
  for (;;) {
    const headers = { Accept: "application/json, application/problem+json" };
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (ifMatch) headers["If-Match"] = ifMatch;
    let response;
    try {
      response = await fetch(new URL(path, document.baseURI), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
    } catch {
      throw new ApiError(
        0,
        "The service could not be reached. Check that it is running, then retry.",
      );
    }
    if (response.status === 401 && askForToken) {
      const problem = await problemOf(response);
      pendingAsk ??= askForToken(problem, Boolean(token)).finally(() => {
        pendingAsk = null;
      });
      if (await pendingAsk) continue;
      throw new ApiError(401, problem.detail, problem.type);
    }
    if (!response.ok) {
      const problem = await problemOf(response);
      throw new ApiError(response.status, problem.detail, problem.type);
    }
    const data = response.status === 204 ? null : await response.json();
    return { data, etag: response.headers.get("ETag") };
  }
}

const enc = encodeURIComponent;

/** Paths of the API, built from ids (each percent-encoded). */
export const paths = {
  me: () => "api/me",
  projects: () => "api/projects",
  agents: (project) => `api/projects/${enc(project)}/agents`,
  agent: (project, agent) => `api/projects/${enc(project)}/agents/${enc(agent)}`,
  config: (project, agent) => `${paths.agent(project, agent)}/config`,
  memory: (project, agent) => `${paths.agent(project, agent)}/memory`,
  placeholder: (project, agent) => `${paths.memory(project, agent)}/template-placeholder`,
  machines: (project, agent) => `${paths.memory(project, agent)}/machines`,
  files: (project, agent, key) => `${paths.memory(project, agent)}/scopes/${enc(key)}/files`,
  file: (project, agent, key, file) => `${paths.files(project, agent, key)}/${enc(file)}`,
  index: (project, agent, key) => `${paths.memory(project, agent)}/scopes/${enc(key)}/index`,
  drafts: (project, agent) => `${paths.agent(project, agent)}/drafts`,
};

/** Shorthands returning the decoded body only. */
export const api = {
  get: async (path) => (await request("GET", path)).data,
  post: async (path, body) => (await request("POST", path, { body })).data,
  del: async (path) => (await request("DELETE", path)).data,
};

/**
 * Every topic file of a scope and their findings: the listing comes in pages of at most
 * 1,000 files, each asked for after the one before (its `nextCursor`) until the last, and is
 * joined in the service's order. Resolves to {scope, files, findings, total, complete}; with
 * `onPage`, it is called with the files and findings so far after every page but the last
 * (`complete` false), so a view shows the first page's rows before the rest are fetched.
 */
export async function scopeListing(project, agent, key, onPage = null) {
  const base = paths.files(project, agent, key);
  const files = [];
  const findings = [];
  let cursor = null;
  let total = 0;
  do {
    const page = await api.get(cursor === null ? base : `${base}?cursor=${enc(cursor)}`);
    for (const row of page.files) files.push(row);
    for (const finding of page.findings) findings.push(finding);
    total = page.total ?? files.length;
    cursor = page.nextCursor ?? null;
    // The first page (and each after it) is shown while the rest are fetched.
    if (onPage && cursor !== null) onPage({ scope: key, files, findings, total, complete: false });
  } while (cursor !== null);
  return { scope: key, files, findings, total, complete: true };
}
