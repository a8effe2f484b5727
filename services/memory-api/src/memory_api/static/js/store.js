// What the page remembers in the browser: which scope groups are collapsed (W-2) and when the
// user last looked at a scope's changes (V-2), per user × project × agent, in localStorage.
// Nothing here is ever sent to the service.

const PREFIX = "agent-memory.collapsed";

/** The storage key of one user × project × agent. */
function collapseKey(user, project, agent) {
  return `${PREFIX}:${JSON.stringify([user, project, agent])}`;
}

/** Read and write the collapsed scope keys of one user × project × agent. */
export function collapseState(user, project, agent) {
  const key = collapseKey(user, project, agent);
  const load = () => {
    try {
      const value = JSON.parse(localStorage.getItem(key) ?? "[]");
      return new Set(Array.isArray(value) ? value.filter((item) => typeof item === "string") : []);
    } catch {
      return new Set();
    }
  };
  return {
    isCollapsed: (scopeKey) => load().has(scopeKey),
    set(scopeKey, collapsed) {
      const keys = load();
      if (collapsed) keys.add(scopeKey);
      else keys.delete(scopeKey);
      try {
        if (keys.size) localStorage.setItem(key, JSON.stringify([...keys].sort()));
        else localStorage.removeItem(key);
      } catch {
        // Storage full or disabled: the group still collapses for this visit.
      }
    },
  };
}

const LOOKED_PREFIX = "agent-memory.changes-seen";

/**
 * What the user last saw of a scope's changes (V-2's "What changed"), per user × project ×
 * agent × scope, in localStorage: `get()` is {at, version} — when (milliseconds) and the newest
 * version then shown (null when none was) — or null (never looked); `set(seen)` remembers one.
 */
export function lastLooked(user, project, agent, scopeKey) {
  const key = `${LOOKED_PREFIX}:${JSON.stringify([user, project, agent, scopeKey])}`;
  return {
    get() {
      try {
        const { at, version } = JSON.parse(localStorage.getItem(key) ?? "null") ?? {};
        if (!Number.isFinite(at) || at <= 0) return null;
        return { at, version: typeof version === "string" ? version : null };
      } catch {
        return null;
      }
    },
    set(seen) {
      try {
        localStorage.setItem(key, JSON.stringify(seen));
      } catch {
        // Storage full or disabled: the page then offers the last day or week instead.
      }
    },
  };
}
