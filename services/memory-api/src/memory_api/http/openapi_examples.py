"""Example requests and answers of every operation, printed in the OpenAPI document (A-11).

One story runs through them, the one the README tells: project ``acme``, agent ``coder`` (name
"Coding agent") whose user memory holds ``prefers-pnpm.md``, working in the Workspace
``/home/ada/src/shop-api``. The values are wire DTOs, so mypy checks every field name and type,
and the test suite validates each example against the schema it illustrates.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from memory_core import layout, wire
from memory_core.index import index_lines
from memory_core.injection import build_memory_text, cap_indexes
from memory_core.keys import key_for_real_path
from memory_core.prompts import DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT

from memory_api.defaults import default_template

__all__ = ["EXAMPLES", "PARAMETER_EXAMPLES", "Example"]

_BASE = "/api/projects/{project}/agents/{agent}"
PROJECT, AGENT, NAME = "acme", "coder", "Coding agent"
WORKSPACE = "/home/ada/src/shop-api"
WORKSPACE_KEY = key_for_real_path(WORKSPACE)
TOPIC = "prefers-pnpm.md"
DRAFT_ID = "7c1f9e0a4b2d4e6f8a9b0c1d2e3f4a5b"
VERSION = "3f9a1c7e52b04d8e9a6c1f2b3d4e5f60718293a4"
PREVIOUS = "a81f32c4e9d07b6a5c4b3a29180f7e6d5c4b3a21"
DELETING = "5d2e8b1a0c9f4e7d6b3a2918f0e7d6c5b4a39281"
DATA_DIR = Path("/var/lib/memory-api")
_INDEX_LINE = f"- [Prefers pnpm]({TOPIC}) — use pnpm, never npm or yarn, in every JS repo"
_INDEX = f"# User memory\n\n{_INDEX_LINE}\n"
_NOW, _LATER = "2026-11-29T22:05:19Z", "2026-11-29T22:35:19Z"

PARAMETER_EXAMPLES: dict[str, str] = {
    "project": PROJECT,
    "agent": AGENT,
    "key": "user",
    "file": TOPIC,
    "draft": DRAFT_ID,
    "name": TOPIC,
    "version": VERSION,
}
"""One valid value of each path parameter, the same story as the bodies."""


@dataclass(frozen=True, slots=True)
class Example:
    """One operation's example: ``request`` (a body DTO or None) and ``response`` (the
    success answer: a DTO, or text for ``text/*`` media), each with a one-line summary."""

    summary: str
    response: Any
    request: Any = None

    def request_json(self) -> Any:
        """The request body as JSON-ready builtins (camelCase keys), or None."""
        return None if self.request is None else msgspec.to_builtins(self.request)

    def response_json(self) -> Any:
        """The answer as JSON-ready builtins (camelCase keys), or the text itself."""
        return msgspec.to_builtins(self.response)


_TEMPLATE = default_template(name=NAME, agent_id=AGENT)
_MEMORY = wire.MemoryConfig(
    enabled=True,
    prompt=DEFAULT_MEMORY_PROMPT,
    workspace_prompt=DEFAULT_WORKSPACE_PROMPT,
    prompt_is_default=True,
    workspace_prompt_is_default=True,
)
_CONFIG = wire.AgentConfig(id=AGENT, project=PROJECT, name=NAME, template=_TEMPLATE, memory=_MEMORY)
_TOPIC_FIELDS: dict[str, Any] = {
    "file": TOPIC,
    "name": "prefers-pnpm",
    "description": "Use pnpm for every JavaScript package operation, never npm or yarn",
    "updated_at": "2026-10-02",
    "size": 427,
    "mtime": _NOW,
    "problems": [],
}
_MANIFEST = cap_indexes(_INDEX, None, workspace_key=None)[0].manifest
_DRAFT = wire.Draft(
    id=DRAFT_ID,
    project=PROJECT,
    agent=AGENT,
    prompt=f"Update memory {TOPIC}: the team moved to pnpm 10; drop the npm fallback.",
    workspace=WORKSPACE,
    created_at=_NOW,
    expires_at=_LATER,
)
_METRICS = (
    "# HELP memory_api_requests_total HTTP requests answered, by method, route template and "
    "status code.\n# TYPE memory_api_requests_total counter\n"
    'memory_api_requests_total{method="GET",route="/healthz",status="200"} 3.0\n'
)


def _session_start_example() -> Example:
    # The answer is built by the same core functions the Session start uses: a new Workspace
    # scope (no index yet) beside the user index.
    user, workspace = cap_indexes(_INDEX, None, workspace_key=WORKSPACE_KEY)
    memory_root = layout.memory_root(DATA_DIR, AGENT)
    return Example(
        "A Session in a new persistent Workspace: the user index and an empty Workspace index",
        wire.SessionStartResponse(
            enabled=True,
            injected=True,
            memory=build_memory_text(
                DEFAULT_MEMORY_PROMPT, DEFAULT_WORKSPACE_PROMPT, user, workspace
            ),
            workspace_memory_key=WORKSPACE_KEY,
            key=WORKSPACE_KEY,
            workspace_kind="persistent",
            directories=wire.SessionDirectories(
                app_data_dir=str(DATA_DIR),
                memory_root=str(memory_root),
                user=str(memory_root / "user"),
                workspace=str(memory_root / WORKSPACE_KEY),
            ),
            manifests=[user.manifest, workspace.manifest],
            template_has_memory=True,
        ),
        wire.SessionStartRequest(workspace=WORKSPACE, session_id="c0ffee42-session"),
    )


def _scope_summaries() -> tuple[wire.ScopeSummary, wire.ScopeSummary]:
    """The overview entries of the examples: the Workspace scope's, then the user scope's."""
    workspace_scope = wire.ScopeSummary(
        key=WORKSPACE_KEY,
        kind="workspace",
        title="shop-api",
        workspace_path=WORKSPACE,
        file_count=12,
        last_activity=_NOW,
        marker_problems=[],
        orphaned=False,
        lint_counts={"unindexed": 2},
        severity_counts={"warning": 2},
        lint_severities={"unindexed": "warning"},
    )
    user_scope = wire.ScopeSummary(
        key="user",
        kind="user",
        title="User memory",
        workspace_path=None,
        file_count=1,
        last_activity=_NOW,
        marker_problems=[],
        orphaned=False,
        lint_counts={},
        severity_counts={},
        lint_severities={},
    )
    return workspace_scope, user_scope


def _machines_examples() -> dict[tuple[str, str], Example]:
    """The machines list (R-1)."""
    return {
        ("GET", f"{_BASE}/memory/machines"): Example(
            "A laptop keeps a local copy of the user scope; its last push kept two versions",
            wire.MachineList(
                scopes=[
                    wire.ScopeMachines(
                        scope="user",
                        machines=[
                            wire.MachineSync(
                                id="3f2a9c1e0b7d4e58a6c2f1d09b8e7a65",
                                name="alice-laptop",
                                principal="alice",
                                last_sync=_LATER,
                                last_push=_NOW,
                                outcomes=[
                                    f"{TOPIC} was edited on two machines: both are kept, "
                                    f"the later one as prefers-pnpm-alice-laptop.md"
                                ],
                            )
                        ],
                    )
                ],
            ),
        ),
    }


def _memory_examples() -> dict[tuple[str, str], Example]:
    memory = f"{_BASE}/memory"
    workspace_scope, user_scope = _scope_summaries()
    lines = [
        wire.IndexLine(number=number, text=text, kept=True)
        for number, text in enumerate(index_lines(_INDEX), start=1)
    ]
    return {
        ("GET", memory): Example(
            "The first page of two (?limit=2): the user scope, then the newest Workspace; "
            "nextCursor asks for the next page",
            wire.MemoryOverview(
                enabled=True,
                template_has_memory=True,
                scopes=[user_scope, workspace_scope],
                totals=wire.OverviewTotals(scopes=214, files=1380, matching=214),
                next_cursor=f"1764626719000000000.{WORKSPACE_KEY}",
            ),
        ),
        ("GET", f"{memory}/scopes/{{key}}"): Example(
            "A Workspace scope's overview entry", workspace_scope
        ),
        ("POST", f"{memory}/template-placeholder"): Example(
            "The template already held {{MEMORY}}: nothing changed",
            wire.PlaceholderResult(template=_TEMPLATE, changed=False),
        ),
        ("GET", f"{memory}/scopes/{{key}}/files"): Example(
            "The user scope's topic files",
            wire.TopicList(
                scope="user",
                files=[wire.TopicSummary(**_TOPIC_FIELDS)],
                findings=[],
                total=1,
                next_cursor=None,
            ),
        ),
        ("GET", f"{memory}/scopes/{{key}}/index"): Example(
            "The user index: every line is injected",
            wire.IndexView(
                scope="user", exists=True, raw=_INDEX, lines=lines, manifest=_MANIFEST, findings=[]
            ),
        ),
        ("GET", f"{memory}/scopes/{{key}}/files/{{file}}"): Example(
            "One topic file without its frontmatter, and the topics it links to",
            wire.TopicFile(
                **_TOPIC_FIELDS,
                body="Use `pnpm install`, `pnpm add`, `pnpm run` in every repository.\n\n"
                "Related: [[review-style]]",
                links=["review-style"],
                link_files={"review-style": "review-style.md"},
                findings=[],
                masked=False,
            ),
        ),
        ("DELETE", f"{memory}/scopes/{{key}}/files/{{file}}"): Example(
            "The file is gone, and so is the index line that linked to it",
            wire.DeleteResult(
                file=TOPIC,
                removed_index_lines=[_INDEX_LINE],
                version=DELETING,
                restore_version=PREVIOUS,
            ),
        ),
        ("DELETE", f"{memory}/scopes/{{key}}"): Example(
            "The empty Workspace scope is no longer listed",
            wire.ForgetResult(key=WORKSPACE_KEY, workspace=WORKSPACE),
        ),
        ("POST", f"{memory}/session-start"): _session_start_example(),
        ("GET", f"{memory}/search"): _search_example(),
        **_file_history_examples(),
        **_scope_history_examples(),
    }


def _author(source: wire.VersionSource, **who: str) -> wire.Author:
    return wire.Author(
        source=source,
        session_id=who.get("session_id"),
        harness=who.get("harness"),
        tool=who.get("tool"),
        principal=who.get("principal"),
        time=who.get("time", _NOW),
        recorded_at=_NOW,
    )


_WRITTEN = _author("write", session_id="c0ffee42-session", harness="claude-code", tool="Edit")
_PNPM = wire.FileChange(file=TOPIC, change="modified")
_RECORDED = wire.RecordResult(
    scopes=[wire.RecordedScope(scope="user", version=VERSION, files=[_PNPM])]
)


_HUNK = wire.DiffHunk(
    old_start=5,
    old_lines=1,
    new_start=5,
    new_lines=2,
    lines=[
        wire.DiffLine(kind="context", text="Use `pnpm install`.", old_number=5, new_number=5),
        wire.DiffLine(kind="added", text="Never npm or yarn.", old_number=None, new_number=6),
    ],
)


def _file_history_examples() -> dict[tuple[str, str], Example]:
    """V-2: the agent rewrote ``prefers-pnpm.md`` in a Claude Code Session; the user reads its
    history, the diff, the old text, and restores it."""
    file = f"{_BASE}/memory/scopes/{{key}}/files/{{name}}"
    written = _WRITTEN
    old_text = "---\nname: prefers-pnpm\ndescription: Use pnpm\n---\nUse `pnpm install`.\n"
    found = _author("session-start", session_id="0ddba11-session")
    held = {"scope": "user", "file": TOPIC}
    return {
        ("GET", f"{file}/history"): Example(
            "Two versions: written in a Claude Code Session, and the one before",
            wire.FileHistory(
                **held,
                exists=True,
                unrecorded=False,
                versions=[
                    wire.FileVersion(
                        version=VERSION,
                        change="modified",
                        summary="Written in a claude-code Session (Edit)",
                        author=written,
                        size=427,
                    ),
                    wire.FileVersion(
                        version=PREVIOUS,
                        change="added",
                        summary="Changes found at a Session start",
                        author=found,
                        size=len(old_text),
                    ),
                ],
                more=False,
            ),
        ),
        ("GET", f"{file}/versions/{{version}}"): Example(
            "The file as an older version held it",
            wire.FileAtVersion(
                **held,
                version=PREVIOUS,
                author=found,
                size=len(old_text),
                text=old_text,
                name="prefers-pnpm",
                description="Use pnpm",
                body="Use `pnpm install`.",
                masked=False,
            ),
        ),
        ("GET", f"{file}/diff"): Example(
            "What the newest version changed",
            wire.FileDiff(
                **held,
                from_version=PREVIOUS,
                to_version=VERSION,
                unified=f"--- a/{TOPIC}\n+++ b/{TOPIC}\n@@ -5 +5,2 @@\n Use `pnpm install`.\n"
                "+Never npm or yarn.\n",
                hunks=[_HUNK],
                masked=False,
            ),
        ),
        ("POST", f"{file}/restore"): Example(
            "The deleted file is back, with its index line",
            wire.RestoreResult(
                file=TOPIC,
                restored_from=PREVIOUS,
                version=VERSION,
                index_lines_added=[_INDEX_LINE],
            ),
            wire.RestoreRequest(version=PREVIOUS),
        ),
    }


def _scope_history_examples() -> dict[tuple[str, str], Example]:
    """V-1, V-2: what changed in a scope, what was deleted, and recording versions."""
    scope = f"{_BASE}/memory/scopes/{{key}}"
    written, pnpm, recorded = _WRITTEN, _PNPM, _RECORDED
    return {
        ("GET", f"{scope}/changes"): Example(
            "?since=2026-11-23T00:00:00Z: what the agent wrote this week",
            wire.ScopeChanges(
                scope="user",
                versions=[
                    wire.Version(
                        version=VERSION,
                        summary="Written in a claude-code Session (Edit)",
                        author=written,
                        files=[pnpm],
                    )
                ],
                more=False,
            ),
        ),
        ("GET", f"{scope}/deleted"): Example(
            "One file deleted on the page",
            wire.DeletedFiles(
                scope="user",
                files=[
                    wire.DeletedFile(
                        file="uses-yarn.md",
                        deleted_in=DELETING,
                        author=_author("delete", principal="ada"),
                        restore_version=PREVIOUS,
                    )
                ],
            ),
        ),
        ("POST", f"{scope}/checkpoint"): Example("A shell edit, now a version", recorded),
        ("POST", f"{_BASE}/memory/checkpoint"): Example(
            "Every scope: the user scope had changed, the Workspace had not",
            wire.RecordResult(
                scopes=[
                    *recorded.scopes,
                    wire.RecordedScope(scope=WORKSPACE_KEY, version=None, files=[]),
                ]
            ),
        ),
        ("POST", f"{_BASE}/memory/versions"): Example(
            "Claude Code's post-write hook after an Edit",
            recorded,
            wire.RecordRequest(
                session_id="c0ffee42-session", harness="claude-code", tool="Edit", scope="user"
            ),
        ),
    }


def _marked(*texts: str) -> list[wire.SnippetPart]:
    """``texts`` as snippet parts, every second one a match (S-1's highlighting)."""
    return [wire.SnippetPart(text=text, hit=n % 2 == 1) for n, text in enumerate(texts)]


def _search_example() -> Example:
    """S-1: a search for ``pnpm`` and its best hit."""
    return Example(
        "?q=pnpm: the best hit first, the matched words marked in its name, description and"
        " body passage",
        wire.SearchResults(
            query="pnpm",
            scope=None,
            total=1,
            hits=[
                wire.SearchHit(
                    scope="user",
                    file=TOPIC,
                    name="prefers-pnpm",
                    description="Use pnpm for every JavaScript package operation",
                    score=31.4723,
                    name_parts=_marked("prefers-", "pnpm"),
                    description_parts=_marked(
                        "Use ", "pnpm", " for every JavaScript package operation"
                    ),
                    snippet=_marked("Use `", "pnpm", " install` in every repository."),
                )
            ],
        ),
    )


def _examples() -> dict[tuple[str, str], Example]:
    health = wire.Health(status="ok", checks={"process": "ok"})
    ready = wire.Health(status="ok", checks={"dataDirReadable": "ok", "dataDirWritable": "ok"})
    summary = wire.AgentSummary(
        id=AGENT, project=PROJECT, name=NAME, memory_enabled=True, memory_count=13
    )
    switched_off = wire.AgentConfig(
        id=AGENT,
        project=PROJECT,
        name=NAME,
        template=_TEMPLATE,
        memory=wire.MemoryConfig(
            enabled=False,
            prompt=DEFAULT_MEMORY_PROMPT,
            workspace_prompt=DEFAULT_WORKSPACE_PROMPT,
            prompt_is_default=True,
            workspace_prompt_is_default=True,
        ),
    )
    return {
        ("GET", "/healthz"): Example("The process answers", health),
        ("GET", "/readyz"): Example("The data dir is readable and writable", ready),
        ("GET", "/metrics"): Example("Prometheus text exposition (cut short)", _METRICS),
        ("GET", "/openapi.json"): Example(
            "This document (cut short)",
            {"openapi": "3.1.0", "info": {"title": "Agent Memory API", "version": "0.1.0"}},
        ),
        ("GET", "/"): Example("The web page (cut short)", "<!doctype html>\n<html lang=en>…"),
        ("GET", "/api/me"): Example(
            "A token that reaches one project, with a chat configured",
            wire.Me(
                name="ci-bot",
                projects=[PROJECT],
                chat_url_template="https://chat.example/new?draft={draftId}&agent={agent}",
            ),
        ),
        ("GET", "/api/projects"): Example(
            "The caller's projects", wire.ProjectList(projects=[PROJECT])
        ),
        ("GET", "/api/projects/{project}/agents"): Example(
            "One agent with 13 topic files", wire.AgentList(agents=[summary])
        ),
        ("POST", "/api/projects/{project}/agents"): Example(
            "Create an agent with the default template",
            _CONFIG,
            wire.AgentCreate(id=AGENT, name=NAME),
        ),
        ("GET", f"{_BASE}/config"): Example("Default prompts, memory on", _CONFIG),
        ("PATCH", f"{_BASE}/config"): Example(
            "Switch memory off, nothing else",
            switched_off,
            wire.ConfigPatch(memory=wire.MemoryPatch(enabled=False)),
        ),
        ("POST", f"{_BASE}/drafts"): Example(
            "A prompt pinned to a Workspace",
            _DRAFT,
            wire.DraftCreate(prompt=_DRAFT.prompt, workspace=WORKSPACE),
        ),
        ("GET", f"{_BASE}/drafts/{{draft}}"): Example("A live draft", _DRAFT),
        **_memory_examples(),
        **_machines_examples(),
    }


EXAMPLES: dict[tuple[str, str], Example] = _examples()
"""The example of each ``(METHOD, path template)`` of :data:`memory_api.http.openapi.OPERATIONS`."""
