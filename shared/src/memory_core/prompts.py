"""The built-in memory prompts (I-6): static Markdown instruction text, one placeholder each.

``DEFAULT_MEMORY_PROMPT`` (``memory.prompt``) is always injected and carries
``{{MEMORY_USER_INDEX}}``; ``DEFAULT_WORKSPACE_PROMPT`` (``memory.workspace_prompt``) is injected
only for a persistent Workspace and carries ``{{MEMORY_INDEX}}``. Both name their directory as a
literal pattern the model resolves from the template's Environment section. The character
backstop of the injection (I-4) is deliberately not mentioned: it lives only in code.
"""

from __future__ import annotations

__all__ = ["DEFAULT_MEMORY_PROMPT", "DEFAULT_WORKSPACE_PROMPT"]

DEFAULT_MEMORY_PROMPT = """\
# Memory

You keep a persistent memory: Markdown notes you write for yourself so that what you learn \
survives the end of this Session. At the start of every Session only the memory indexes below \
are loaded; a topic file is read on demand, when its index line says it is relevant to the task.

Memory is not context compaction. Compaction keeps the working state of one long Session; \
Memory keeps what will still be true and useful in a later Session. Do not use it as a \
scratchpad for the task at hand.

## How to save a memory

Write one topic file per memory with your ordinary file tools, in the Directory of the scope it \
belongs to (see the scope sections below; take `<app_data_dir>` and `<agent_id>` from the \
Environment section). Name the file in kebab-case and start it with this frontmatter:

```markdown
---
name: prefers-pnpm
description: Use pnpm, never npm or yarn, in every JavaScript repository
updated_at: 2026-11-29
---
Use `pnpm install`, `pnpm add` and `pnpm run`; never commit a package-lock.json.

Why: npm rewrote the lockfile and broke a release; the user asked for pnpm everywhere.
How to apply: every install or script in a JavaScript repository. See also [[review-style]].
```

- `name`: the file name without `.md`, in kebab-case.
- `description`: one line that lets a later Session decide whether the memory is relevant.
- `updated_at`: today's date (ISO 8601); set it again whenever you change the memory.

Then add the memory's line to the scope's `MEMORY.md` index (see "The index").

## What is worth saving

- Who the user is: role, expertise, how they like to work and to be answered.
- Standing preferences and feedback: corrections the user made, things they asked you to always \
or never do.
- Decisions and their reasons, conventions that are not obvious from the files, pitfalls that \
cost time once.
- Pointers into external systems: where a runbook, dashboard, ticket queue or channel lives.
- Anything the user explicitly asks you to remember.

Save when you learn something a later Session would otherwise have to ask for or rediscover. \
Prefer one precise memory over several vague ones.

## What never to save

- Credentials of any kind: passwords, API keys, tokens, private keys, connection strings that \
hold a password. Memory is readable by every project member who can reach this agent; write \
where a secret lives (a vault path, an environment variable name), never the secret.
- Sensitive personal data about the user or anyone else (health, finances, private contact \
details, anything told in confidence).
- What is already recorded elsewhere: code, git history, the repository's own docs. Point to it.
- The state of the current task: progress, intermediate results, a plan for this Session.

## The index

Each scope has one index, `MEMORY.md`, in its Directory. It is what you see at the start of \
every Session, so keep it exact and short:

- One line per memory, linking the topic file relative to the scope (the bare file name): \
`- [Prefers pnpm](prefers-pnpm.md) — pnpm, never npm or yarn, in every JS repository`
- Keep each line under ~150 characters: the title and a hook that says when the memory matters.
- Only the first 200 lines of an index are loaded. Keep it well below that: merge related \
memories and remove entries that no longer matter.
- Write the index line in the same step as the topic file; when you delete a topic file, \
delete its index line too.

## Hygiene

- Before saving, look for an existing memory on the same subject and update it rather than \
write a duplicate.
- When a memory turns out to be wrong or outdated, fix it or delete it (and its index line) \
right away.
- Corrections and decisions get a `Why:` line (the reason or the incident behind them) and a \
`How to apply:` line (when and how to act on them).
- Link related memories with `[[name]]` in the body, using the other memory's `name`.
- Recalled memories may be stale: they were true when written. Before relying on one that names \
a file, function, flag, command or URL, check that it still exists and still behaves that way; \
if it does not, update or delete the memory.

## User memory

What stays true wherever you work: who the user is, their standing preferences, and reference \
material not tied to one codebase. Every Session reads it. When no Workspace memory section \
follows, this Session runs in a temporary Workspace: save what is worth keeping here.

Directory: <app_data_dir>/agents/<agent_id>/agent_state/memory/user

{{MEMORY_USER_INDEX}}
"""

DEFAULT_WORKSPACE_PROMPT = """\
## Workspace memory

Facts about this Workspace only: decisions taken in this project, its conventions, feedback on \
work done here, pointers into the systems it uses. Every Session of this agent in this \
Workspace reads it; other Workspaces never see it.

Directory: <app_data_dir>/agents/<agent_id>/agent_state/memory/<workspace_memory_key>

`<workspace_memory_key>` is the Workspace Memory Key in the Environment section. The \
`.workspace` file in that Directory belongs to the system: never write, move or delete it.

Choosing a scope: ask whether the memory would still hold if you worked in a different \
Workspace tomorrow. If yes (who the user is, how they like to work, general preferences), save \
it in user memory. If it is true or useful only here (this codebase, its decisions, its \
systems), save it in Workspace memory. Save each memory in one scope only, never in both.

{{MEMORY_INDEX}}
"""
